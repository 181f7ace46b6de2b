//! The denizen Bevy plugin: populate roguelike floors with monsters as entities.
//!
//! The host fills [`FloorMap`], writes [`FloorGenerated`], and on the next run of the
//! plugin's schedule gets one entity per monster, a [`MonsterSpawned`] event on each, and
//! a [`FloorPopulated`] (or [`PlacementFailed`], [`FloorRejected`]) message. The rules run
//! in the pure `denizen_core` crate; this crate only turns their plans into entities.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod clock;
pub mod components;
pub mod countryside;
pub mod encounters;
pub mod messages;
mod populate;
pub mod resources;
pub mod scene;
pub mod summon;
pub mod variants;
pub mod view;
pub mod wander;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use denizen_core::construct::Preference;
use denizen_core::objects::ItemLedger;
use denizen_core::{DataError, Ruleset};

pub use components::{
    Awareness, CombatStats, Disposition, Fixed, GridPos, Identity, Inventory, MonsterBundle,
    MonsterName, Sleep, Species,
};
pub use messages::{
    FloorGenerated, FloorPopulated, FloorRejected, MonsterSpawned, PlacementFailed,
};
pub use populate::PopulationSettings;
pub use resources::{
    Catalogue, Chronicle, CompletedDungeons, CurrentLocation, DenizenRng, FloorMap, MoonPhase,
    UniqueItems,
};

/// The plugin's systems, in the order they run inside the plugin's schedule.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenizenSystems {
    /// Reads [`FloorGenerated`] and spawns the floor's monsters. Order the host's floor
    /// generator before it and anything that reads monsters after it.
    Populate,
    /// Reads [`BaseFloorGenerated`](encounters::BaseFloorGenerated) and spawns the map's
    /// encounter groups; runs after `Populate`.
    Encounters,
    /// Countryside encounters, summonings, waking statues and arena bouts the host asked
    /// for; runs after `Encounters`.
    Arrivals,
    /// Runs the [`TenMinuteCheck`](clock::TenMinuteCheck) or
    /// [`HourlyCheck`](clock::HourlyCheck) schedule once per ten-minute boundary the
    /// [`GameClock`](clock::GameClock) crossed; runs last.
    Clock,
}

/// Populates floors with monsters. Everything is set up in `build`.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
///
/// App::new().add_plugins(DenizenPlugin::with_seed(7));
/// ```
#[derive(Clone, Debug)]
pub struct DenizenPlugin {
    /// The world seed: the same seed and inputs give the same monsters.
    pub seed: u64,
    /// Bestiary and locations (Omega 0.90.4 by default).
    pub rules: Arc<Ruleset>,
    /// Nymph or satyr, the source's player preference.
    pub preference: Preference,
    /// Treat the player's square as occupied during placement. Off: the source does not
    /// exclude it (faithful).
    pub exclude_player_square: bool,
    /// The schedule the systems run in (`Update` by default).
    pub schedule: Interned<dyn ScheduleLabel>,
    /// The encounter table and settings for base floors (Captive's by default).
    pub encounters: encounters::Encounters,
    /// Keep the source's cavern gap for fixed inhabitants (the Demon Emperor can return
    /// on a cavern-type bottom level of a completed volcano). On: faithful.
    pub cavern_gap: bool,
}

impl Default for DenizenPlugin {
    fn default() -> Self {
        Self {
            seed: 0,
            rules: Arc::new(Ruleset::omega()),
            preference: Preference::Either,
            exclude_player_square: false,
            schedule: Update.intern(),
            encounters: encounters::Encounters::default(),
            cavern_gap: true,
        }
    }
}

impl DenizenPlugin {
    /// The shipped Omega rules with a world seed.
    pub fn with_seed(seed: u64) -> Self {
        Self {
            seed,
            ..Self::default()
        }
    }

    /// A game's own rules.
    pub fn with_rules(mut self, rules: Ruleset) -> Self {
        self.rules = Arc::new(rules);
        self
    }

    /// A game's own bestiary and locations as RON text, validated now: a bad file is an
    /// error here, never a panic later.
    pub fn from_ron(
        seed: u64,
        bestiary: &str,
        bestiary_file: &str,
        locations: &str,
        locations_file: &str,
    ) -> Result<Self, DataError> {
        let rules = Ruleset::from_ron(bestiary, bestiary_file, locations, locations_file)?;
        Ok(Self::with_seed(seed).with_rules(rules))
    }

    /// Runs the systems in another schedule (such as a turn schedule of the host's).
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }
}

impl Plugin for DenizenPlugin {
    fn build(&self, app: &mut App) {
        let ledger = ItemLedger::new(&self.rules.catalogue);
        app.insert_resource(Catalogue(self.rules.clone()))
            .insert_resource(UniqueItems(ledger))
            .insert_resource(DenizenRng::new(self.seed))
            .insert_resource(PopulationSettings {
                preference: self.preference,
                exclude_player_square: self.exclude_player_square,
                cavern_gap: self.cavern_gap,
            })
            .init_resource::<CompletedDungeons>()
            .init_resource::<MoonPhase>()
            .init_resource::<clock::GameClock>()
            .init_schedule(clock::TenMinuteCheck)
            .init_schedule(clock::HourlyCheck)
            .add_systems(clock::TenMinuteCheck, wander::wandering_check)
            .add_systems(clock::HourlyCheck, wander::wandering_check)
            .add_message::<wander::WanderingArrival>()
            .add_message::<summon::Summon>()
            .add_message::<summon::StatueWakes>()
            .add_message::<summon::Summoned>()
            .add_message::<countryside::CountrysideEncounter>()
            .add_message::<variants::ArenaBout>()
            .register_type::<PopulationSettings>()
            .register_type::<CompletedDungeons>()
            .register_type::<MoonPhase>()
            .register_type::<clock::GameClock>()
            .register_type::<wander::WanderingArrival>()
            .register_type::<summon::Summon>()
            .register_type::<summon::SummonKind>()
            .register_type::<summon::StatueWakes>()
            .register_type::<summon::Summoned>()
            .register_type::<countryside::CountrysideEncounter>()
            .register_type::<variants::ArenaBout>()
            .register_type::<variants::ArenaOpponent>()
            .add_observer(variants::were_turn)
            .init_resource::<CurrentLocation>()
            .init_resource::<FloorMap>()
            .init_resource::<Chronicle>()
            .insert_resource(self.encounters.clone())
            .add_message::<encounters::BaseFloorGenerated>()
            .add_message::<encounters::EncountersPlaced>()
            .add_message::<encounters::CarryDropped>()
            .register_type::<encounters::Encounters>()
            .register_type::<encounters::BaseFloorGenerated>()
            .register_type::<encounters::EncountersPlaced>()
            .register_type::<encounters::CarryDropped>()
            .register_type::<encounters::EncounterGroup>()
            .register_type::<encounters::EncounterStats>()
            .register_type::<encounters::Carries>()
            .add_message::<FloorGenerated>()
            .add_message::<FloorPopulated>()
            .add_message::<PlacementFailed>()
            .add_message::<FloorRejected>()
            .register_type::<Species>()
            .register_type::<Sleep>()
            .register_type::<Inventory>()
            .register_type::<Awareness>()
            .register_type::<GridPos>()
            .register_type::<CombatStats>()
            .register_type::<Disposition>()
            .register_type::<Fixed>()
            .register_type::<MonsterName>()
            .register_type::<Identity>()
            .register_type::<Catalogue>()
            .register_type::<CurrentLocation>()
            .register_type::<FloorMap>()
            .register_type::<UniqueItems>()
            .register_type::<Chronicle>()
            .register_type::<DenizenRng>()
            .register_type::<FloorGenerated>()
            .register_type::<FloorPopulated>()
            .register_type::<PlacementFailed>()
            .register_type::<FloorRejected>()
            .configure_sets(
                self.schedule,
                (
                    DenizenSystems::Populate,
                    DenizenSystems::Encounters,
                    DenizenSystems::Arrivals,
                    DenizenSystems::Clock,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    populate::populate_floors
                        .in_set(DenizenSystems::Populate)
                        .run_if(on_message::<FloorGenerated>),
                    encounters::place_encounters
                        .in_set(DenizenSystems::Encounters)
                        .run_if(on_message::<encounters::BaseFloorGenerated>),
                    (
                        countryside::countryside_encounters
                            .run_if(on_message::<countryside::CountrysideEncounter>),
                        summon::summon_creatures.run_if(on_message::<summon::Summon>),
                        summon::wake_statues.run_if(on_message::<summon::StatueWakes>),
                        variants::arena_bouts.run_if(on_message::<variants::ArenaBout>),
                    )
                        .chain()
                        .in_set(DenizenSystems::Arrivals),
                    clock::drive_clock.in_set(DenizenSystems::Clock),
                ),
            )
            .add_observer(encounters::drop_on_death);
    }
}

/// The types most games need: `use denizen_bevy::prelude::*;`.
pub mod prelude {
    pub use crate::clock::{GameClock, HourlyCheck, TenMinuteCheck};
    pub use crate::countryside::CountrysideEncounter;
    pub use crate::encounters::{
        BaseFloorGenerated, Carries, CarryDropped, EncounterGroup, EncounterStats, Encounters,
        EncountersPlaced, GroupMembers, MemberOf,
    };
    pub use crate::summon::{StatueWakes, Summon, SummonKind, Summoned};
    pub use crate::variants::{ArenaBout, ArenaOpponent, SpecialTurn};
    pub use crate::wander::WanderingArrival;
    pub use crate::{
        Awareness, Catalogue, CombatStats, CurrentLocation, DenizenPlugin, DenizenSystems,
        Disposition, Fixed, FloorGenerated, FloorMap, FloorPopulated, FloorRejected, GridPos,
        Identity, Inventory, MonsterName, MonsterSpawned, PlacementFailed, Sleep, Species,
    };
    pub use crate::{CompletedDungeons, MoonPhase};
    pub use denizen_core::floor::{FloorGrid, Square, Tile};
}
