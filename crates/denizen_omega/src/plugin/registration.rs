//! The Omega plugin's types registered for reflection, apart from what the plugin does:
//! what an inspector or a reflection-based tool sees. The types a save holds are registered
//! where the plugin saves them (`save_with_denizen`).

use bevy_app::prelude::*;

use super::*;

/// Registers the Omega plugin's messages, answers, refusals and configuration for
/// reflection. [`OmegaPlugin`] adds it. It may be added again, beside the plugin or
/// without it (an inspector that names the plugin's messages): registering twice changes
/// nothing.
pub struct OmegaTypes;

impl Plugin for OmegaTypes {
    fn is_unique(&self) -> bool {
        false
    }

    fn build(&self, app: &mut App) {
        app.register_type::<OmegaRuleset>()
            .register_type::<OmegaSettings>()
            .register_type::<OmegaFloorRequested>()
            .register_type::<OmegaFloorPopulated>()
            .register_type::<OmegaFloorServed>()
            .register_type::<countryside::OmegaCountrysideEncounterServed>()
            .register_type::<OmegaFloorRefusal>()
            .register_type::<wander::OmegaWanderingCheck>()
            .register_type::<wander::OmegaWanderingChecked>()
            .register_type::<wander::OmegaWanderingArrival>()
            .register_type::<wander::OmegaWanderingSkip>()
            .register_type::<variants::OmegaArenaRefusal>()
            .register_type::<variants::OmegaArenaBoutRequested>()
            .register_type::<variants::OmegaArenaBout>()
            .register_type::<variants::OmegaSpecialTurn>()
            .register_type::<summon::OmegaSummonRequested>()
            .register_type::<summon::SummonKind>()
            .register_type::<summon::OmegaStatueWakeRequested>()
            .register_type::<summon::OmegaSummoned>()
            .register_type::<summon::OmegaStatuesWoken>()
            .register_type::<summon::OmegaSummon>()
            .register_type::<summon::OmegaNothingMade>()
            .register_type::<countryside::OmegaCountrysideEncounterRequested>()
            .register_type::<saves::OmegaStateRejected>()
            .register_type::<saves::OmegaStateMisfit>();
    }
}
