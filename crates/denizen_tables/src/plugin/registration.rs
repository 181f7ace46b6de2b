//! The tables plugin's types registered for reflection, apart from what the plugin does:
//! what an inspector or a reflection-based tool sees. The types a save holds are registered
//! where the plugin saves them (`save_with_denizen`).

use bevy_app::prelude::*;

use super::*;

/// Registers the tables plugin's messages, answers, refusals and configuration for
/// reflection. [`TablesPlugin`] adds it. It may be added again, beside the plugin or
/// without it (an inspector that names the plugin's messages): registering twice changes
/// nothing.
pub struct TablesTypes;

impl Plugin for TablesTypes {
    fn is_unique(&self) -> bool {
        false
    }

    fn build(&self, app: &mut App) {
        app.register_type::<TablesRuleset>()
            .register_type::<resources::SavedBag>()
            .register_type::<uniques::PendingKills>()
            .register_type::<TablesFloorRequested>()
            .register_type::<TablesFloorPopulated>()
            .register_type::<TablesFloorServed>()
            .register_type::<TablesFloorRefusal>()
            .register_type::<Unplaced>()
            .register_type::<PopulatedRegion>()
            .register_type::<TablesUniqueKilled>()
            .register_type::<TablesUniqueKillRefused>()
            .register_type::<TablesLintWarnings>()
            .register_type::<TablesStateMended>()
            .register_type::<TablesWanderingCheck>()
            .register_type::<TablesArrival>()
            .register_type::<TablesWanderingSkip>()
            .register_type::<TablesWandered>()
            .register_type::<TablesClockUnused>()
            .register_type::<wander::ClockWatch>();
    }
}
