//! The Captive plugin's types registered for reflection, apart from what the plugin does:
//! what an inspector or a reflection-based tool sees. The types a save holds are registered
//! where the plugin saves them (`save_with_denizen`).

use bevy_app::prelude::*;

use super::*;

/// Registers the Captive plugin's messages, answers, refusals and configuration for
/// reflection. [`CaptivePlugin`] adds it. It may be added again, beside the plugin or
/// without it (an inspector that names the plugin's messages): registering twice changes
/// nothing.
pub struct CaptiveTypes;

impl Plugin for CaptiveTypes {
    fn is_unique(&self) -> bool {
        false
    }

    fn build(&self, app: &mut App) {
        app.register_type::<CaptiveRuleset>()
            .register_type::<CaptiveFloorRequested>()
            .register_type::<SpecialGroup>()
            .register_type::<crate::SpecialStage>()
            .register_type::<CaptiveFloorPopulated>()
            .register_type::<CaptiveFloorServed>()
            .register_type::<CaptiveFloorRefusal>()
            .register_type::<CaptiveCarryDropped>();
    }
}
