//! The Captive rules the plugin uses.

use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_captive::{EncounterSettings, EncounterTable};

/// The Captive rules in use: the encounter table and the stage's settings. Shared,
/// read-only, rebuilt from data rather than saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct CaptiveRuleset {
    /// The table (Captive's by default).
    pub table: Arc<EncounterTable>,
    /// Attempts, entrance clearance, memory budget, overflow and growth switches.
    pub settings: EncounterSettings,
}
