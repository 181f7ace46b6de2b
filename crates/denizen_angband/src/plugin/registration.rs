//! The Angband plugin's types registered for reflection, apart from what the plugin does:
//! what an inspector or a reflection-based tool sees. The types a save holds are registered
//! where the plugin saves them (`save_with_denizen`).

use bevy_app::prelude::*;

use super::*;

/// Registers the Angband plugin's messages, answers, refusals and configuration for
/// reflection. [`AngbandPlugin`] adds it. It may be added again, beside the plugin or
/// without it (an inspector that names the plugin's messages): registering twice changes
/// nothing.
pub struct AngbandTypes;

impl Plugin for AngbandTypes {
    fn is_unique(&self) -> bool {
        false
    }

    fn build(&self, app: &mut App) {
        app.register_type::<AngbandRuleset>()
            .register_type::<AngbandSettings>()
            .register_type::<AngbandFloorRequested>()
            .register_type::<LevelFloor>()
            .register_type::<AngbandFloorPopulated>()
            .register_type::<AngbandFloorServed>()
            .register_type::<AngbandFloorRefusal>()
            .register_type::<StoredLevel>()
            .register_type::<AngbandObjectRequested>()
            .register_type::<AngbandLevelFeeling>()
            .register_type::<AngbandTrapSpringRequested>()
            .register_type::<AngbandTrapSprung>()
            .register_type::<AngbandSprung>()
            .register_type::<AngbandTrapRefusal>()
            .register_type::<AngbandAppraiser>();
    }
}
