//! Omega's data files as assets (feature `assets`): the bestiary, the locations, and
//! optionally the variants and the chronicle (see [`denizen_bevy::assets`]).

use std::sync::Arc;

use crate::objects::ItemLedger;
use crate::{Chronicle, OmegaFiles, OmegaRules};
use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::data::DataError;

use super::resources::{OmegaChronicle, OmegaRuleset, OmegaUniqueItems};
use denizen_bevy::assets::{AnySlot, DataSlot, DataSource, DataSources, register_kind};

denizen_bevy::data_kinds! {
    /// An Omega bestiary (`*.bestiary.ron`): species and items.
    BestiaryFile = "bestiary.ron";
    /// Omega's locations (`*.locations.ron`): environments, dungeons and their recipes.
    LocationsFile = "locations.ron";
    /// Omega's variants (`*.variants.ron`): the arena's opponents and the were-forms.
    VariantsFile = "variants.ron";
    /// A chronicle (`*.chronicle.ron`): the hall of fame and log a new game starts with.
    ChronicleFile = "chronicle.ron";
}

/// The loaders of every Omega kind.
pub(super) const KINDS: [fn(&mut App); 4] = [
    register_kind::<BestiaryFile>,
    register_kind::<LocationsFile>,
    register_kind::<VariantsFile>,
    register_kind::<ChronicleFile>,
];

/// Omega's data files as assets, for [`OmegaPlugin::data_assets`](super::OmegaPlugin::data_assets):
/// a bestiary and locations, and optionally variants (else the shipped ones when the
/// bestiary has what they name, as [`OmegaRules::from_files`] does) and a chronicle
/// (which becomes [`OmegaChronicle`] each time its file changes).
#[derive(Resource, Clone, Debug)]
pub struct OmegaDataAssets {
    bestiary: DataSlot<BestiaryFile>,
    locations: DataSlot<LocationsFile>,
    variants: Option<DataSlot<VariantsFile>>,
    chronicle: Option<DataSlot<ChronicleFile>>,
}

impl OmegaDataAssets {
    /// A bestiary and locations, each a path under the asset folder or a handle.
    pub fn new(
        bestiary: impl Into<DataSource<BestiaryFile>>,
        locations: impl Into<DataSource<LocationsFile>>,
    ) -> Self {
        Self {
            bestiary: DataSlot::new(bestiary.into()),
            locations: DataSlot::new(locations.into()),
            variants: None,
            chronicle: None,
        }
    }

    /// The game's own variants file.
    pub fn variants(mut self, variants: impl Into<DataSource<VariantsFile>>) -> Self {
        self.variants = Some(DataSlot::new(variants.into()));
        self
    }

    /// The game's own chronicle file.
    pub fn chronicle(mut self, chronicle: impl Into<DataSource<ChronicleFile>>) -> Self {
        self.chronicle = Some(DataSlot::new(chronicle.into()));
        self
    }
}

impl DataSources for OmegaDataAssets {
    const RULE_SET: &'static str = "Omega";
    type Ruleset = OmegaRuleset;

    fn slots(&mut self) -> Vec<&mut dyn AnySlot> {
        let mut slots: Vec<&mut dyn AnySlot> = vec![&mut self.bestiary, &mut self.locations];
        if let Some(variants) = &mut self.variants {
            slots.push(variants);
        }
        if let Some(chronicle) = &mut self.chronicle {
            slots.push(chronicle);
        }
        slots
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let rules = OmegaRules::from_files(OmegaFiles {
            bestiary: self.bestiary.file(world)?,
            locations: self.locations.file(world)?,
            variants: self
                .variants
                .as_ref()
                .map(|variants| variants.file(world))
                .transpose()?,
        })?;
        let chronicle = match &self.chronicle {
            Some(slot) if slot.changed(world) => {
                let file = slot.file(world)?;
                Some(Chronicle::from_file(file)?)
            }
            _ => None,
        };
        // A new game's ledger of the old rules becomes the new rules' new-game ledger; any
        // other (a game's, a save's) is checked against the new rules as a save's would
        // be, and replaced with an `OmegaStateRejected` only if it does not fit.
        let old = world.resource::<OmegaRuleset>();
        let settings = old.settings();
        let new_game = ItemLedger::new(old.rules().bestiary.items());
        if world.resource::<OmegaUniqueItems>().0 == new_game {
            world.insert_resource(OmegaUniqueItems(ItemLedger::new(rules.bestiary.items())));
        }
        world.insert_resource(OmegaRuleset::new(Arc::new(rules), settings));
        if let Some(chronicle) = chronicle {
            world.insert_resource(OmegaChronicle(chronicle));
        }
        Ok(())
    }
}
