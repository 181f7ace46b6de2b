//! The Captive rules the plugin uses.

use std::sync::Arc;

use crate::{EncounterSettings, EncounterTable};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;

/// The Captive rules in use: the encounter table and the stage's settings. Shared,
/// read-only, rebuilt from the plugin's builder rather than saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct CaptiveRuleset {
    table: Arc<EncounterTable>,
    settings: EncounterSettings,
}

impl CaptiveRuleset {
    /// The table, with the plugin's switches.
    pub fn new(table: Arc<EncounterTable>, settings: EncounterSettings) -> Self {
        Self { table, settings }
    }

    /// The table (Captive's by default).
    pub fn rules(&self) -> &EncounterTable {
        &self.table
    }

    /// Attempts, entrance clearance, memory budget, overflow and growth switches.
    pub fn settings(&self) -> EncounterSettings {
        self.settings
    }
}
