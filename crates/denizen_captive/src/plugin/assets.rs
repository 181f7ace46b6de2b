//! Captive's data file as an asset (feature `assets`): the encounter table (see
//! [`denizen_bevy::assets`]).

use std::sync::Arc;

use crate::EncounterTable;
use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::data::DataError;

use super::resources::CaptiveRuleset;
use denizen_bevy::assets::{AnySlot, DataSlot, DataSource, DataSources, register_kind};

denizen_bevy::data_kinds! {
    /// An encounter table (`*.encounters.ron`).
    EncounterTableFile = "encounters.ron";
}

/// The loader of Captive's one kind.
pub(super) const KINDS: [fn(&mut App); 1] = [register_kind::<EncounterTableFile>];

/// Captive's data file as an asset, for
/// [`CaptivePlugin::data_assets`](super::CaptivePlugin::data_assets).
#[derive(Resource, Clone, Debug)]
pub struct CaptiveDataAssets {
    table: DataSlot<EncounterTableFile>,
}

impl CaptiveDataAssets {
    /// The encounter table, a path under the asset folder or a handle.
    pub fn new(table: impl Into<DataSource<EncounterTableFile>>) -> Self {
        Self {
            table: DataSlot::new(table.into()),
        }
    }
}

impl DataSources for CaptiveDataAssets {
    const RULE_SET: &'static str = "Captive";
    type Ruleset = CaptiveRuleset;

    fn slots(&mut self) -> Vec<&mut dyn AnySlot> {
        vec![&mut self.table]
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let file = self.table.file(world)?;
        let table = EncounterTable::from_file(file)?;
        let settings = world.resource::<CaptiveRuleset>().settings();
        world.insert_resource(CaptiveRuleset::new(Arc::new(table), settings));
        Ok(())
    }
}
