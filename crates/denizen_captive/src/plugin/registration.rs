//! The Captive plugin's types registered for reflection, apart from what the plugin does:
//! what an inspector or a reflection-based tool sees. The types a save holds are registered
//! where the plugin saves them (`save_with_denizen`).

use bevy_app::prelude::*;

use super::*;

/// Registers the Captive plugin's messages, answers, refusals and configuration for
/// reflection. [`CaptivePlugin`] adds it; a tool that reads a game's world without the
/// rules (an inspector, a save viewer) may add it alone.
pub struct CaptiveTypes;

impl Plugin for CaptiveTypes {
    fn build(&self, app: &mut App) {
        app.register_type::<CaptiveRuleset>()
            .register_type::<CaptiveFloorRequested>()
            .register_type::<SpecialGroup>()
            .register_type::<crate::SpecialStage>()
            .register_type::<CaptiveFloorPopulated>()
            .register_type::<CaptiveFloorServed>()
            .register_type::<CaptiveFloorRefusal>()
            .register_type::<CarryDropped>();
    }
}
