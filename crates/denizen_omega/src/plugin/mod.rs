//! Omega 0.90.4 in play: floors populated from `OmegaFloorRequested` through the
//! [`pipeline`](denizen_bevy::pipeline), wandering arrivals on the clock (only while the current
//! floor is Omega's), summoning, waking statues, countryside encounters, arena bouts and
//! were-forms.
//!
//! Built on `denizen_bevy`'s public rule-set API alone. [`OmegaPlugin`] takes its place
//! among the rule sets with the sets [`OmegaSystems::Floors`] and
//! [`OmegaSystems::Arrivals`]; its switches are one [`OmegaSettings`]. Summonings, statues,
//! arena bouts and wandering checks go through the [`arrivals`](denizen_bevy::arrivals)
//! pipeline and are answered with an `Arrived` of their request ([`summon::OmegaSummoned`],
//! [`summon::OmegaStatuesWoken`], [`variants::OmegaArenaBout`],
//! [`wander::OmegaWanderingChecked`]).

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
pub mod countryside;
pub mod messages;
mod populate;
mod registration;
pub mod resources;
pub mod saves;
pub mod scene;
pub mod summon;
pub mod variants;
pub mod view;
pub mod wander;

use std::sync::Arc;

use crate::construct::Preference;
use crate::objects::ItemLedger;
use crate::{OmegaExtension, OmegaFiles, OmegaRules};
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_core::DataError;

#[cfg(feature = "assets")]
pub use assets::OmegaDataAssets;
use components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterIdentity,
    MonsterName, Sleep, Species, Statuses,
};
use denizen_bevy::pipeline::serve_floor_requests;
use denizen_bevy::rule_set::{RuleSetApp, RuleSetPlugin};
use denizen_bevy::save::GuessFrom;
use denizen_bevy::{RuleSet, SaveWithDenizen, clock, denizen_schedule};
pub use messages::{OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRequested, OmegaFloorServed};
pub use populate::{OmegaFloor, OmegaFloorPlan};
pub use registration::OmegaTypes;
pub use resources::{
    OmegaChronicle, OmegaCompletedDungeons, OmegaCurrentLocation, OmegaMoonPhase, OmegaRuleset,
    OmegaSettings, OmegaUniqueItems,
};

/// Omega's population rules as a plugin: the host writes [`OmegaFloorRequested`] after filling
/// [`FloorMap`](denizen_bevy::FloorMap) and gets one entity per monster with [`Species`],
/// [`Sleep`], [`Inventory`], [`Awareness`], [`CombatStats`], [`Disposition`], [`Statuses`] (plus
/// [`MonsterName`], [`MonsterIdentity`], [`Fixed`], [`ArenaOpponent`] where they apply).
/// Adds a default [`DenizenPlugin`](denizen_bevy::DenizenPlugin) if the host has not.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_omega::plugin::OmegaPlugin;
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
        Self::from_settings(OmegaSettings::default())
    }
}

impl OmegaPlugin {
    /// Omega 0.90.4's shipped rules with these switches.
    pub fn from_settings(settings: OmegaSettings) -> Self {
        Self {
            rules: Arc::new(OmegaRules::shipped()),
            settings,
            #[cfg(feature = "assets")]
            data: None,
        }
    }

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
    /// [`denizen_bevy::assets`]): floor requests are refused until they have loaded, and an edited
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

    /// The plugin's switches.
    pub fn settings(&self) -> OmegaSettings {
        self.settings
    }
}

/// Omega's systems, each set inside a [`DenizenSystems`](denizen_bevy::DenizenSystems) phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmegaSystems {
    /// In [`DenizenSystems::Floors`](denizen_bevy::DenizenSystems::Floors), first of the
    /// rule sets: saved state checked ([`OmegaStateRejected`](saves::OmegaStateRejected)),
    /// then floors and countryside encounters served through the
    /// [`pipeline`](denizen_bevy::pipeline).
    Floors,
    /// In [`DenizenSystems::Arrivals`](denizen_bevy::DenizenSystems::Arrivals): summonings, waking statues and arena bouts on
    /// the current floor.
    Arrivals,
}

/// The rule set's name: the [`Maker`](denizen_bevy::floor::Maker) of its floors.
pub const NAME: &str = "Omega";

impl Plugin for OmegaPlugin {
    fn build(&self, app: &mut App) {
        let ledger = ItemLedger::new(self.rules.bestiary.items());
        let schedule = denizen_schedule(app);
        app.add_rule_set(
            RuleSet::new(NAME)
                .rules::<OmegaRuleset>()
                .floors(OmegaSystems::Floors)
                .arrivals(OmegaSystems::Arrivals)
                .describer(view::describe),
        )
        .insert_resource(OmegaRuleset::new(self.rules.clone(), self.settings))
        .insert_resource(OmegaUniqueItems(ledger))
        .init_resource::<OmegaCurrentLocation>()
        .init_resource::<OmegaChronicle>()
        .init_resource::<OmegaCompletedDungeons>()
        .init_resource::<OmegaMoonPhase>()
        .init_resource::<wander::SkipSaid>()
        .serve_floors::<OmegaFloorRequested>(OmegaSystems::Floors)
        .serve_floors::<countryside::OmegaCountrysideEncounterRequested>(OmegaSystems::Floors)
        .serve_arrivals::<summon::OmegaSummonRequested>(OmegaSystems::Arrivals)
        .serve_arrivals::<summon::OmegaStatueWakeRequested>(OmegaSystems::Arrivals)
        .serve_arrivals::<variants::OmegaArenaBoutRequested>(OmegaSystems::Arrivals)
        .add_message::<wander::OmegaWanderingChecked>()
        .add_message::<saves::OmegaStateRejected>()
        .save_with_denizen::<Species>()
        .check_saves_with(saves::check_species)
        .guess_makers_with(NAME, GuessFrom::Name, populate::omega_place)
        .save_with_denizen::<Sleep>()
        .save_with_denizen::<Inventory>()
        .save_with_denizen::<Awareness>()
        .save_with_denizen::<CombatStats>()
        .save_with_denizen::<Disposition>()
        .save_with_denizen::<Statuses>()
        .check_saves_with(saves::check_statuses)
        .save_with_denizen::<MonsterName>()
        .save_with_denizen::<MonsterIdentity>()
        .save_with_denizen::<Fixed>()
        .save_with_denizen::<ArenaOpponent>()
        .save_with_denizen::<OmegaUniqueItems>()
        .save_with_denizen::<OmegaCurrentLocation>()
        .save_with_denizen::<OmegaChronicle>()
        .save_with_denizen::<OmegaCompletedDungeons>()
        .save_with_denizen::<OmegaMoonPhase>()
        .saved_before::<OmegaUniqueItems>("denizen_omega::plugin::resources::UniqueItems")
        .saved_before::<OmegaCurrentLocation>("denizen_omega::plugin::resources::CurrentLocation")
        .saved_before::<OmegaCompletedDungeons>(
            "denizen_omega::plugin::resources::CompletedDungeons",
        )
        .saved_before::<OmegaMoonPhase>("denizen_omega::plugin::resources::MoonPhase")
        .save_with_denizen::<wander::SkipSaid>()
        .add_plugins(OmegaTypes)
        .add_systems(clock::TenMinuteCheck, wander::wandering_check)
        .add_systems(clock::HourlyCheck, wander::wandering_check)
        .add_systems(
            schedule,
            saves::check_saved_state
                .run_if(saves::state_changed)
                .before(serve_floor_requests::<OmegaFloorRequested>)
                .in_set(OmegaSystems::Floors),
        )
        .add_observer(variants::were_turn)
        .add_observer(populate::follow_floor);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            denizen_bevy::assets::follow(app, files.clone(), &assets::KINDS, OmegaSystems::Floors);
        }
    }
}

impl RuleSetPlugin for OmegaPlugin {
    fn expect_requests(app: &mut App) {
        app.expect_served::<OmegaFloorRequested>("OmegaPlugin")
            .expect_served::<countryside::OmegaCountrysideEncounterRequested>("OmegaPlugin")
            .expect_served::<summon::OmegaSummonRequested>("OmegaPlugin")
            .expect_served::<summon::OmegaStatueWakeRequested>("OmegaPlugin")
            .expect_served::<variants::OmegaArenaBoutRequested>("OmegaPlugin");
    }
}

/// The Omega types most games need: `use denizen_omega::plugin::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::OmegaDataAssets;
    pub use super::components::{
        ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
        MonsterIdentity, MonsterName, Sleep, Species, Statuses,
    };
    pub use super::countryside::{
        OmegaCountrysideEncounterRequested, OmegaCountrysideEncounterServed,
    };
    pub use super::messages::{
        OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRequested, OmegaFloorServed,
    };
    pub use super::resources::{
        OmegaChronicle, OmegaCompletedDungeons, OmegaCurrentLocation, OmegaMoonPhase, OmegaRuleset,
        OmegaSettings, OmegaUniqueItems,
    };
    pub use super::saves::{OmegaStateMisfit, OmegaStateRejected};
    pub use super::summon::{
        OmegaNothingMade, OmegaStatueWakeRequested, OmegaStatuesWoken, OmegaSummon,
        OmegaSummonRequested, OmegaSummoned, SummonKind,
    };
    pub use super::variants::{
        OmegaArenaBout, OmegaArenaBoutRequested, OmegaArenaRefusal, OmegaSpecialTurn,
    };
    pub use super::view::roster as omega_roster;
    pub use super::wander::{
        OmegaWanderingArrival, OmegaWanderingCheck, OmegaWanderingChecked, OmegaWanderingSkip,
    };
    pub use super::{OmegaPlugin, OmegaSystems};
}
