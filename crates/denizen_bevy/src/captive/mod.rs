//! Captive in play: encounter groups on base floors from `EncountersRequested`, as group
//! entities related to their members, and the base map or clipboard a bearer drops.

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
pub mod messages;
mod place;
pub mod resources;
pub mod view;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_captive::{EncounterSettings, EncounterTable};

use crate::pipeline::serve_floor_requests;
use crate::{DenizenSystems, denizen_schedule};
#[cfg(feature = "assets")]
pub use assets::CaptiveDataAssets;
use components::{
    Carries, EncounterGroup, EncounterMember, EncounterStats, GroupMembers, MemberOf,
};
pub use messages::{
    CarryDropped, EncounterRefusal, EncountersPlaced, EncountersRejected, EncountersRequested,
    SpecialGroup,
};
pub use resources::CaptiveRuleset;

/// Captive's encounter groups as a plugin: the host writes [`EncountersRequested`] after
/// filling [`FloorMap`](crate::FloorMap) and gets an [`EncounterGroup`] entity per group
/// with [`GroupMembers`], and per member an entity with [`EncounterMember`],
/// [`EncounterStats`] and [`MemberOf`] (the first member of a carrying group also
/// [`Carries`]). Adds a default [`DenizenPlugin`](crate::DenizenPlugin) if the host has not.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_bevy::captive::CaptivePlugin;
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
        Self {
            table: Arc::new(EncounterTable::shipped()),
            settings: EncounterSettings::default(),
            #[cfg(feature = "assets")]
            data: None,
        }
    }
}

impl CaptivePlugin {
    /// A game's own encounter table.
    pub fn with_table(mut self, table: EncounterTable) -> Self {
        self.table = Arc::new(table);
        self
    }

    /// Takes the encounter table from a data file loaded as an asset (feature `assets`;
    /// see [`crate::assets`]): requests are refused until it has loaded, and an edited
    /// file is swapped in while the game runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::CaptiveDataAssets) -> Self {
        self.data = Some(files);
        self
    }

    /// Every setting of the stage at once.
    pub fn with_settings(mut self, settings: EncounterSettings) -> Self {
        self.settings = settings;
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
    pub fn overflow(mut self, overflow: denizen_captive::Overflow) -> Self {
        self.settings.overflow = overflow;
        self
    }

    /// How armature and skill grow (as the code does, by default).
    pub fn growth(mut self, growth: denizen_captive::Growth) -> Self {
        self.settings.growth = growth;
        self
    }

    /// The table this plugin places groups from.
    pub fn table(&self) -> &EncounterTable {
        &self.table
    }
}

/// Captive's systems, each set inside a [`DenizenSystems`] phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptiveSystems {
    /// In [`DenizenSystems::Floors`], after Omega's floors and Angband's levels: encounter
    /// groups placed on the base floors asked for, through the
    /// [`pipeline`](crate::pipeline).
    Encounters,
}

impl Plugin for CaptivePlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_schedule(app);
        // After the other rule sets' floors compiled in: FloorMap holds one floor a run,
        // so which request claims it is fixed.
        let encounters = CaptiveSystems::Encounters.in_set(DenizenSystems::Floors);
        #[cfg(feature = "omega")]
        let encounters = encounters.after(crate::omega::OmegaSystems::Floors);
        #[cfg(feature = "angband")]
        let encounters = encounters.after(crate::angband::AngbandSystems::Levels);
        app.insert_resource(CaptiveRuleset {
            table: self.table.clone(),
            settings: self.settings,
        })
        .add_message::<EncountersRequested>()
        .add_message::<EncountersPlaced>()
        .add_message::<EncountersRejected>()
        .add_message::<CarryDropped>()
        .register_type::<CaptiveRuleset>()
        .register_type::<EncounterGroup>()
        .register_type::<EncounterMember>()
        .register_type::<EncounterStats>()
        .register_type::<MemberOf>()
        .register_type::<GroupMembers>()
        .register_type::<Carries>()
        .register_type::<EncountersRequested>()
        .register_type::<SpecialGroup>()
        .register_type::<denizen_captive::SpecialStage>()
        .register_type::<EncountersPlaced>()
        .register_type::<EncountersRejected>()
        .register_type::<EncounterRefusal>()
        .register_type::<CarryDropped>()
        .configure_sets(schedule, encounters)
        .add_systems(
            schedule,
            serve_floor_requests::<EncountersRequested>
                .in_set(CaptiveSystems::Encounters)
                .run_if(on_message::<EncountersRequested>),
        )
        .add_observer(place::drop_on_death);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            let set = CaptiveSystems::Encounters;
            crate::assets::follow(app, files.clone(), &assets::KINDS, set);
        }
    }
}

/// The Captive types most games need: `use denizen_bevy::captive::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::CaptiveDataAssets;
    pub use super::components::{
        Carries, EncounterGroup, EncounterMember, EncounterStats, GroupMembers, MemberOf,
    };
    pub use super::messages::{
        CarryDropped, EncounterRefusal, EncountersPlaced, EncountersRejected, EncountersRequested,
        SpecialGroup,
    };
    pub use super::resources::CaptiveRuleset;
    pub use super::view::roster as captive_roster;
    pub use super::{CaptivePlugin, CaptiveSystems};
    pub use denizen_captive::SpecialStage;
}
