//! Captive in play: encounter groups on base floors from `CaptiveFloorRequested`, as group
//! entities related to their members, and the base map or clipboard a bearer drops.
//!
//! Built on `denizen_bevy`'s public rule-set API alone: [`CaptivePlugin`] takes its place
//! among the rule sets with the set [`CaptiveSystems::Floors`], serves its requests through
//! the [`pipeline`](denizen_bevy::pipeline), and holds its switches in one
//! [`EncounterSettings`].

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
pub mod messages;
mod place;
mod registration;
pub mod resources;
mod saves;
pub mod view;

use std::sync::Arc;

use crate::{EncounterSettings, EncounterTable};
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;

#[cfg(feature = "assets")]
pub use assets::CaptiveDataAssets;
use components::{
    Carries, EncounterGroup, EncounterMember, EncounterStats, GroupMembers, MemberOf,
};
use denizen_bevy::rule_set::{RuleSetApp, RuleSetPlugin};
use denizen_bevy::save::GuessFrom;
use denizen_bevy::{RuleSet, SaveWithDenizen};
pub use messages::{
    CaptiveCarryDropped, CaptiveFloorPopulated, CaptiveFloorRefusal, CaptiveFloorRequested,
    CaptiveFloorServed, SpecialGroup,
};
pub use registration::CaptiveTypes;
pub use resources::CaptiveRuleset;

/// Captive's encounter groups as a plugin: the host writes [`CaptiveFloorRequested`] after
/// filling [`FloorMap`](denizen_bevy::FloorMap) and gets an [`EncounterGroup`] entity per group
/// with [`GroupMembers`], and per member an entity with [`EncounterMember`],
/// [`EncounterStats`] and [`MemberOf`] (the first member of a carrying group also
/// [`Carries`]). Adds a default [`DenizenPlugin`](denizen_bevy::DenizenPlugin) if the host has not.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_captive::plugin::CaptivePlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), CaptivePlugin::default().attempts(200)));
/// ```
#[derive(Clone, Debug)]
pub struct CaptivePlugin {
    table: Arc<EncounterTable>,
    settings: EncounterSettings,
    #[cfg(feature = "assets")]
    data: Option<assets::CaptiveDataAssets>,
}

impl Default for CaptivePlugin {
    /// Captive's shipped table with the source's settings.
    fn default() -> Self {
        Self::from_settings(EncounterSettings::default())
    }
}

impl CaptivePlugin {
    /// Captive's shipped table with these settings.
    pub fn from_settings(settings: EncounterSettings) -> Self {
        Self {
            table: Arc::new(EncounterTable::shipped()),
            settings,
            #[cfg(feature = "assets")]
            data: None,
        }
    }

    /// A game's own encounter table.
    pub fn with_rules(mut self, table: EncounterTable) -> Self {
        self.table = Arc::new(table);
        self
    }

    /// Takes the encounter table from a data file loaded as an asset (feature `assets`;
    /// see [`denizen_bevy::assets`]): requests are refused until it has loaded, and an
    /// edited file is swapped in while the game runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::CaptiveDataAssets) -> Self {
        self.data = Some(files);
        self
    }

    /// Random cells probed per base floor (300 in the source).
    pub fn attempts(mut self, attempts: u32) -> Self {
        self.settings.attempts = attempts;
        self
    }

    /// Cells with a dig number up to this are never used (10 in the source).
    pub fn entrance_clearance(mut self, clearance: u32) -> Self {
        self.settings.entrance_clearance = clearance;
        self
    }

    /// Bytes of group memory (`None`: no limit; 4,088 in the source).
    pub fn memory_budget(mut self, budget: Option<u32>) -> Self {
        self.settings.memory_budget = budget;
        self
    }

    /// How strength beyond 16 bits is handled (saturated by default).
    pub fn overflow(mut self, overflow: crate::Overflow) -> Self {
        self.settings.overflow = overflow;
        self
    }

    /// How armature and skill grow (as the code does, by default).
    pub fn growth(mut self, growth: crate::Growth) -> Self {
        self.settings.growth = growth;
        self
    }

    /// The table this plugin places groups from.
    pub fn rules(&self) -> &EncounterTable {
        &self.table
    }

    /// The plugin's switches.
    pub fn settings(&self) -> EncounterSettings {
        self.settings
    }
}

/// Captive's systems, each set inside a [`DenizenSystems`](denizen_bevy::DenizenSystems)
/// phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptiveSystems {
    /// In [`DenizenSystems::Floors`](denizen_bevy::DenizenSystems::Floors), after the
    /// floors of the rule sets added before Captive: encounter groups placed on the base
    /// floors asked for, through the [`pipeline`](denizen_bevy::pipeline).
    Floors,
}

/// The rule set's name: the [`Maker`](denizen_bevy::floor::Maker) of its floors.
pub const NAME: &str = "Captive";

impl Plugin for CaptivePlugin {
    fn build(&self, app: &mut App) {
        app.add_rule_set(
            RuleSet::new(NAME)
                .rules::<CaptiveRuleset>()
                .floors(CaptiveSystems::Floors)
                .describer(view::describe),
        )
        .insert_resource(CaptiveRuleset::new(self.table.clone(), self.settings))
        .serve_floors::<CaptiveFloorRequested>(CaptiveSystems::Floors)
        .add_message::<CaptiveCarryDropped>()
        .save_with_denizen::<EncounterGroup>()
        .save_with_denizen::<EncounterMember>()
        .save_with_denizen::<EncounterStats>()
        .save_with_denizen::<MemberOf>()
        .save_with_denizen::<GroupMembers>()
        .save_with_denizen::<Carries>()
        .check_saves_with(saves::check)
        .guess_makers_with(NAME, GuessFrom::Name, |_, floor| {
            *floor.location == *crate::base::STREAM_PLACE
        })
        .add_plugins(CaptiveTypes)
        .add_observer(place::drop_on_death);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            let set = CaptiveSystems::Floors;
            denizen_bevy::assets::follow(app, files.clone(), &assets::KINDS, set);
        }
    }
}

impl RuleSetPlugin for CaptivePlugin {
    fn expect_requests(app: &mut App) {
        app.expect_served::<CaptiveFloorRequested>("CaptivePlugin");
    }
}

/// The Captive types most games need: `use denizen_captive::plugin::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::CaptiveDataAssets;
    pub use super::components::{
        Carries, EncounterGroup, EncounterMember, EncounterStats, GroupMembers, MemberOf,
    };
    pub use super::messages::{
        CaptiveCarryDropped, CaptiveFloorPopulated, CaptiveFloorRefusal, CaptiveFloorRequested,
        CaptiveFloorServed, SpecialGroup,
    };
    pub use super::resources::CaptiveRuleset;
    pub use super::view::roster as captive_roster;
    pub use super::{CaptivePlugin, CaptiveSystems};
    pub use crate::SpecialStage;
}
