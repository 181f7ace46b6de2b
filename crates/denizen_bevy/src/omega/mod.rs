//! Omega 0.90.4 in play: floors populated from `OmegaFloorRequested` through the
//! [`pipeline`](crate::pipeline), wandering arrivals on the clock (only while the current
//! floor is Omega's), summoning, waking statues, countryside encounters, arena bouts and
//! were-forms.

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
pub mod countryside;
pub mod messages;
mod populate;
pub mod resources;
pub mod saves;
pub mod scene;
pub mod summon;
pub mod variants;
pub mod view;
pub mod wander;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_core::DataError;
use denizen_omega::construct::Preference;
use denizen_omega::objects::ItemLedger;
use denizen_omega::{OmegaExtension, OmegaFiles, OmegaRules};

use crate::pipeline::serve_floor_requests;
use crate::{DenizenSystems, clock, denizen_schedule};
#[cfg(feature = "assets")]
pub use assets::OmegaDataAssets;
use components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterIdentity,
    MonsterName, Sleep, Species,
};
pub use messages::{
    OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRejected, OmegaFloorRequested,
    PlacementFailed,
};
pub use resources::{
    CompletedDungeons, CurrentLocation, MoonPhase, OmegaChronicle, OmegaRuleset, OmegaSettings,
    UniqueItems,
};

/// Omega's population rules as a plugin: the host writes [`OmegaFloorRequested`] after filling
/// [`FloorMap`](crate::FloorMap) and gets one entity per monster with [`Species`],
/// [`Sleep`], [`Inventory`], [`Awareness`], [`CombatStats`], [`Disposition`] (plus
/// [`MonsterName`], [`MonsterIdentity`], [`Fixed`], [`ArenaOpponent`] where they apply).
/// Adds a default [`DenizenPlugin`](crate::DenizenPlugin) if the host has not.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_bevy::omega::OmegaPlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), OmegaPlugin::default().cavern_gap(false)));
/// ```
#[derive(Clone, Debug)]
pub struct OmegaPlugin {
    rules: Arc<OmegaRules>,
    settings: OmegaSettings,
    #[cfg(feature = "assets")]
    data: Option<assets::OmegaDataAssets>,
}

impl Default for OmegaPlugin {
    /// Omega 0.90.4's shipped rules with the faithful switches.
    fn default() -> Self {
        Self {
            rules: Arc::new(OmegaRules::shipped()),
            settings: OmegaSettings::default(),
            #[cfg(feature = "assets")]
            data: None,
        }
    }
}

impl OmegaPlugin {
    /// A game's own rules.
    pub fn with_rules(mut self, rules: OmegaRules) -> Self {
        self.rules = Arc::new(rules);
        self
    }

    /// A game's own data files ([`OmegaRules::from_files`]), validated now: a bad file is
    /// an error here, never a panic later.
    pub fn from_files(files: OmegaFiles<'_>) -> Result<Self, DataError> {
        Ok(Self::default().with_rules(OmegaRules::from_files(files)?))
    }

    /// Omega's data with a game's additions ([`OmegaRules::shipped_with`]): one more
    /// dungeon, a few more species, without copying the shipped files.
    pub fn shipped_with(extra: OmegaExtension<'_>) -> Result<Self, DataError> {
        Ok(Self::default().with_rules(OmegaRules::shipped_with(extra)?))
    }

    /// Takes the rules from data files loaded as assets (feature `assets`; see
    /// [`crate::assets`]): floor requests are refused until they have loaded, and an edited
    /// file is swapped in while the game runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::OmegaDataAssets) -> Self {
        self.data = Some(files);
        self
    }

    /// Who nymph-or-satyr templates become (the source's player preference; either by
    /// default).
    pub fn preference(mut self, preference: Preference) -> Self {
        self.settings.preference = preference;
        self
    }

    /// Treat the player's square ([`OmegaFloorRequested::player`]) as occupied during
    /// placement. Off by default: the source does not exclude it.
    pub fn exclude_player_square(mut self, exclude: bool) -> Self {
        self.settings.exclude_player_square = exclude;
        self
    }

    /// Keep the source's cavern gap for fixed inhabitants (the Demon Emperor can return
    /// on a cavern-type bottom level of a completed volcano). On by default: faithful.
    pub fn cavern_gap(mut self, keep: bool) -> Self {
        self.settings.cavern_gap = keep;
        self
    }

    /// The rules this plugin populates with.
    pub fn rules(&self) -> &OmegaRules {
        &self.rules
    }
}

/// Omega's systems, each set inside a [`DenizenSystems`] phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmegaSystems {
    /// In [`DenizenSystems::Floors`], first of the rule sets: saved state checked
    /// ([`StateRejected`](saves::StateRejected)), then floors and countryside encounters
    /// served through the [`pipeline`](crate::pipeline).
    Floors,
    /// In [`DenizenSystems::Arrivals`]: summonings, waking statues and arena bouts on
    /// the current floor.
    Arrivals,
}

impl Plugin for OmegaPlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_schedule(app);
        let ledger = ItemLedger::new(self.rules.bestiary.items());
        app.insert_resource(OmegaRuleset::new(self.rules.clone(), self.settings))
            .insert_resource(UniqueItems(ledger))
            .init_resource::<CurrentLocation>()
            .init_resource::<OmegaChronicle>()
            .init_resource::<CompletedDungeons>()
            .init_resource::<MoonPhase>()
            .add_message::<OmegaFloorRequested>()
            .add_message::<OmegaFloorPopulated>()
            .add_message::<PlacementFailed>()
            .add_message::<OmegaFloorRejected>()
            .add_message::<wander::WanderingArrival>()
            .add_message::<wander::WanderingSkipped>()
            .init_resource::<wander::SkipSaid>()
            .add_message::<variants::ArenaRejected>()
            .add_message::<summon::SummonRequested>()
            .add_message::<summon::StatueWakeRequested>()
            .add_message::<summon::Summoned>()
            .add_message::<countryside::CountrysideEncounterRequested>()
            .add_message::<variants::ArenaBoutRequested>()
            .add_message::<saves::StateRejected>()
            .register_type::<Species>()
            .register_type::<Sleep>()
            .register_type::<Inventory>()
            .register_type::<Awareness>()
            .register_type::<CombatStats>()
            .register_type::<Disposition>()
            .register_type::<MonsterName>()
            .register_type::<MonsterIdentity>()
            .register_type::<Fixed>()
            .register_type::<ArenaOpponent>()
            .register_type::<OmegaRuleset>()
            .register_type::<UniqueItems>()
            .register_type::<OmegaSettings>()
            .register_type::<CurrentLocation>()
            .register_type::<OmegaChronicle>()
            .register_type::<CompletedDungeons>()
            .register_type::<MoonPhase>()
            .register_type::<OmegaFloorRequested>()
            .register_type::<OmegaFloorPopulated>()
            .register_type::<PlacementFailed>()
            .register_type::<OmegaFloorRejected>()
            .register_type::<OmegaFloorRefusal>()
            .register_type::<wander::WanderingArrival>()
            .register_type::<wander::WanderingSkipped>()
            .register_type::<wander::WanderingSkip>()
            .register_type::<wander::SkipSaid>()
            .register_type::<variants::ArenaRejected>()
            .register_type::<variants::ArenaRefusal>()
            .register_type::<summon::SummonRequested>()
            .register_type::<summon::SummonKind>()
            .register_type::<summon::StatueWakeRequested>()
            .register_type::<summon::Summoned>()
            .register_type::<summon::NothingMade>()
            .register_type::<countryside::CountrysideEncounterRequested>()
            .register_type::<variants::ArenaBoutRequested>()
            .register_type::<variants::SpecialTurn>()
            .register_type::<saves::StateRejected>()
            .register_type::<saves::StateMisfit>()
            .configure_sets(
                schedule,
                (
                    OmegaSystems::Floors.in_set(DenizenSystems::Floors),
                    OmegaSystems::Arrivals.in_set(DenizenSystems::Arrivals),
                ),
            )
            .add_systems(clock::TenMinuteCheck, wander::wandering_check)
            .add_systems(clock::HourlyCheck, wander::wandering_check)
            .add_systems(
                schedule,
                (
                    (
                        saves::check_saved_state.run_if(saves::state_changed),
                        serve_floor_requests::<OmegaFloorRequested>
                            .run_if(on_message::<OmegaFloorRequested>),
                        countryside::countryside_encounters
                            .run_if(on_message::<countryside::CountrysideEncounterRequested>),
                    )
                        .chain()
                        .in_set(OmegaSystems::Floors),
                    (
                        summon::summon_creatures.run_if(on_message::<summon::SummonRequested>),
                        summon::wake_statues.run_if(on_message::<summon::StatueWakeRequested>),
                        variants::arena_bouts.run_if(on_message::<variants::ArenaBoutRequested>),
                    )
                        .chain()
                        .in_set(OmegaSystems::Arrivals),
                ),
            )
            .add_observer(variants::were_turn)
            .add_observer(populate::follow_floor);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            crate::assets::follow(app, files.clone(), &assets::KINDS, OmegaSystems::Floors);
        }
    }
}

/// The Omega types most games need: `use denizen_bevy::omega::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::OmegaDataAssets;
    pub use super::components::{
        ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
        MonsterIdentity, MonsterName, Sleep, Species,
    };
    pub use super::countryside::CountrysideEncounterRequested;
    pub use super::messages::{
        OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRejected, OmegaFloorRequested,
        PlacementFailed,
    };
    pub use super::resources::{
        CompletedDungeons, CurrentLocation, MoonPhase, OmegaChronicle, OmegaRuleset, OmegaSettings,
        UniqueItems,
    };
    pub use super::saves::{StateMisfit, StateRejected};
    pub use super::summon::{
        NothingMade, StatueWakeRequested, SummonKind, SummonRequested, Summoned,
    };
    pub use super::variants::{ArenaBoutRequested, ArenaRefusal, ArenaRejected, SpecialTurn};
    pub use super::view::roster as omega_roster;
    pub use super::wander::{WanderingArrival, WanderingSkip, WanderingSkipped};
    pub use super::{OmegaPlugin, OmegaSystems};
}
