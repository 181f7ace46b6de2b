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
}

/// The loader of the tables' one kind.
pub(super) const KINDS: [fn(&mut App); 1] = [register_kind::<TablesFile>];

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
}

impl TablesDataAssets {
    /// The base file.
    pub fn new(base: impl Into<DataSource<TablesFile>>) -> Self {
        Self {
            files: vec![DataSlot::new(base.into())],
        }
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
        self.files
            .iter_mut()
            .map(|slot| slot as &mut dyn AnySlot)
            .collect()
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let files = self
            .files
            .iter()
            .map(|slot| slot.file(world))
            .collect::<Result<Vec<_>, _>>()?;
        let bestiary = crate::load(&files)?;
        let warnings: Vec<String> = bestiary.warnings().iter().map(|w| w.to_string()).collect();
        world.insert_resource(TablesRuleset::new(Arc::new(bestiary)));
        if !warnings.is_empty() {
            world.write_message(TablesLintWarnings { warnings });
        }
        Ok(())
    }
}
