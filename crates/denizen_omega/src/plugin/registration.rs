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
            .register_type::<countryside::CountrysideEncounterServed>()
            .register_type::<OmegaFloorRefusal>()
            .register_type::<wander::WanderingCheck>()
            .register_type::<wander::WanderingChecked>()
            .register_type::<wander::WanderingArrival>()
            .register_type::<wander::WanderingSkip>()
            .register_type::<variants::ArenaRefusal>()
            .register_type::<variants::ArenaBoutRequested>()
            .register_type::<variants::ArenaBout>()
            .register_type::<variants::SpecialTurn>()
            .register_type::<summon::SummonRequested>()
            .register_type::<summon::SummonKind>()
            .register_type::<summon::StatueWakeRequested>()
            .register_type::<summon::Summoned>()
            .register_type::<summon::StatuesWoken>()
            .register_type::<summon::Summon>()
            .register_type::<summon::NothingMade>()
            .register_type::<countryside::CountrysideEncounterRequested>()
            .register_type::<saves::StateRejected>()
            .register_type::<saves::StateMisfit>();
    }
}
