//! The bestiary's files as assets (feature `assets`): a base file and its mod files, merged
//! in the order given (see [`denizen_bevy::assets`]).

use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::data::DataError;

use super::messages::TablesLintWarnings;
use super::resources::TablesRuleset;
use denizen_bevy::assets::{AnySlot, DataSlot, DataSource, DataSources, register_kind};

denizen_bevy::data_kinds! {
    /// A tables file (`*.tables.ron`): a base bestiary or a mod file.
    TablesFile = "tables.ron";
    /// A claims file (`*.checks.ron`): balance claims checked when the bestiary loads
    /// (see [`crate::balance`]).
    ChecksFile = "checks.ron";
}

/// The loaders of the tables' kinds.
pub(super) const KINDS: [fn(&mut App); 2] =
    [register_kind::<TablesFile>, register_kind::<ChecksFile>];

/// The bestiary's files as assets, for
/// [`TablesPlugin::data_assets`](super::TablesPlugin::data_assets): merged in the order
/// given, as [`load`](crate::load) merges them. When one is edited, the set is loaded again
/// and linted: a set that loads is swapped in at the next request (its lint warnings
/// written as a [`TablesLintWarnings`]); one that does not keeps the rules in use and is
/// reported once, naming the file, the entry and the field.
///
/// The `denizen tables` command reads the same files named one by one, or the folder
/// holding them, merged in the order of their names: name them so that order is this one
/// (the starter's `starter.tables.ron` sorts before `starter_mod.tables.ron`).
#[derive(Resource, Clone, Debug)]
pub struct TablesDataAssets {
    files: Vec<DataSlot<TablesFile>>,
    checks: Option<DataSlot<ChecksFile>>,
}

impl TablesDataAssets {
    /// The base file.
    pub fn new(base: impl Into<DataSource<TablesFile>>) -> Self {
        Self {
            files: vec![DataSlot::new(base.into())],
            checks: None,
        }
    }

    /// A claims file checked each time the bestiary loads, as `denizen tables check`
    /// checks it (exactly, with an empty unique ledger; a claim whose figures are sampled
    /// fails as unknown): each claim that fails is a lint warning, and so is a claims file
    /// that is not a claims file (broken RON, a species or tag the bestiary lacks): the
    /// bestiary is swapped in all the same. A claims file the asset server cannot read at
    /// all (missing, not text) holds the bestiary back as a tables file would. Edits to it are
    /// followed as the tables' are. The claims are worked out as the files load, in the
    /// frame that loads them: many claims over many depths of a large bestiary take time.
    pub fn with_checks(mut self, file: impl Into<DataSource<ChecksFile>>) -> Self {
        self.checks = Some(DataSlot::new(file.into()));
        self
    }

    /// A mod file, merged after the files before it.
    pub fn with_mod(mut self, file: impl Into<DataSource<TablesFile>>) -> Self {
        self.files.push(DataSlot::new(file.into()));
        self
    }
}

impl DataSources for TablesDataAssets {
    const RULE_SET: &'static str = "Tables";
    type Ruleset = TablesRuleset;

    fn slots(&mut self) -> Vec<&mut dyn AnySlot> {
        let checks = self.checks.iter_mut().map(|slot| slot as &mut dyn AnySlot);
        (self.files.iter_mut())
            .map(|slot| slot as &mut dyn AnySlot)
            .chain(checks)
            .collect()
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let files = self
            .files
            .iter()
            .map(|slot| slot.file(world))
            .collect::<Result<Vec<_>, _>>()?;
        let bestiary = crate::load(&files)?;
        let mut warnings: Vec<String> = bestiary.warnings().iter().map(|w| w.to_string()).collect();
        if let Some(slot) = &self.checks {
            let file = slot.file(world)?;
            warnings.extend(failed_claims(&bestiary, file));
        }
        world.insert_resource(TablesRuleset::new(Arc::new(bestiary)));
        if !warnings.is_empty() {
            world.write_message(TablesLintWarnings { warnings });
        }
        Ok(())
    }
}

/// Each claim of `file` that fails against `b`, as a lint warning: the file, the claim, its
/// worst depth and figure, and its bound; or one warning saying why the file cannot be
/// checked (it does not load, or a claim cannot be worked out).
fn failed_claims(b: &crate::Bestiary, file: denizen_core::DataFile<'_>) -> Vec<String> {
    let claims = match crate::balance::load_claims(b, file.name, file.text) {
        Ok(claims) => claims,
        Err(e) => return vec![format!("the claims were not checked: {e}")],
    };
    let ledger = crate::UniqueLedger::new();
    let mut failed = Vec::new();
    for claim in &claims {
        let name = denizen_core::quoted(&claim.name);
        match claim.check(&ledger, false) {
            Err(e) => failed.push(format!("{}: claim {name} was not checked: {e}", file.name)),
            Ok(v) if v.failed => {
                let how = match v.holds {
                    crate::balance::Holds::Unknown => {
                        "is unknown (figures past the exact limits were sampled)"
                    }
                    _ => "fails",
                };
                failed.push(format!(
                    "{}: claim {name} {how}: {} at depth {}, bound {}",
                    file.name, v.figure, v.depth, v.bound
                ));
            }
            Ok(_) => {}
        }
    }
    failed
}
