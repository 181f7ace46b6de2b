//! Angband 2.7.9 in play: a [`DungeonLevelRequested`] builds the classic level (or takes
//! the host's floor) and populates it, one entity per monster.

pub mod components;
mod level;
pub mod messages;
pub mod resources;
mod traps;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_angband::layout::{VaultTemplates, shipped_vaults};
use denizen_angband::{Allocator, Autoscum, LevelOptions, Races, Traps};

use crate::{DenizenSystems, denizen_schedule};
use components::{AngbandMonster, Energy, HitPoints, SleepCounter, Speed};
use messages::{
    AngbandLevelBuilt, AngbandLevelRejected, DungeonLevelRequested, LevelFeeling, LevelFloor,
    ObjectRequested, TrapSprung, TrapTriggered,
};
use resources::{AngbandAppraiser, AngbandLastLevel, AngbandRules, AngbandUniques};

/// The location name of Angband floors: level `d` is `FloorId::new("angband", d)`, and
/// its streams are drawn under this name.
pub const ANGBAND_FLOOR: &str = "angband";

/// Angband 2.7.9's levels as a plugin: the host writes [`DungeonLevelRequested`] and, on
/// the next run of the plugins' schedule, gets the level in [`FloorMap`](crate::FloorMap)
/// (unless it brought its own floor), an entity per monster with [`AngbandMonster`],
/// [`HitPoints`], [`Speed`], [`Energy`] and [`SleepCounter`], and an
/// [`AngbandLevelBuilt`]. Adds a default [`DenizenPlugin`](crate::DenizenPlugin) if the
/// host has not.
///
/// The shipped races and vault templates are Angband 2.7.9's, under its non-commercial
/// notice; a game brings its own with [`with_races`](Self::with_races),
/// [`with_vaults`](Self::with_vaults) and [`with_traps`](Self::with_traps).
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_bevy::angband::AngbandPlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), AngbandPlugin::default()));
/// ```
#[derive(Clone, Debug)]
pub struct AngbandPlugin {
    races: Races,
    vaults: Arc<VaultTemplates>,
    traps: Arc<Traps>,
    options: LevelOptions,
    autoscum: Autoscum,
    preserve: bool,
}

impl Default for AngbandPlugin {
    /// Angband 2.7.9's races and vault templates, every switch faithful.
    fn default() -> Self {
        Self {
            races: Races::shipped(),
            vaults: Arc::new(shipped_vaults().clone()),
            traps: Arc::new(Traps::shipped().clone()),
            options: LevelOptions::default(),
            autoscum: Autoscum::Off,
            preserve: false,
        }
    }
}

impl AngbandPlugin {
    /// A game's own races (see `Races::from_file`).
    pub fn with_races(mut self, races: Races) -> Self {
        self.races = races;
        self
    }

    /// A game's own vault templates (see `VaultTemplates::from_ron`).
    pub fn with_vaults(mut self, vaults: VaultTemplates) -> Self {
        self.vaults = Arc::new(vaults);
        self
    }

    /// A game's own traps (see `Traps::from_file`).
    pub fn with_traps(mut self, traps: Traps) -> Self {
        self.traps = Arc::new(traps);
        self
    }

    /// Every level switch at once.
    pub fn with_options(mut self, options: LevelOptions) -> Self {
        self.options = options;
        self
    }

    /// 2.7.9's inner-room guard slip (on by default): see
    /// [`LevelOptions::guard_level_slip`].
    pub fn guard_level_slip(mut self, on: bool) -> Self {
        self.options.guard_level_slip = on;
        self
    }

    /// The autoscummer (off by default): classic levels whose feeling is below the
    /// chart's are made again, the number thrown away reported in `AngbandLevelBuilt`.
    /// A host's own floor is never made again (it has no rooms to rate).
    pub fn autoscum(mut self, autoscum: Autoscum) -> Self {
        self.autoscum = autoscum;
        self
    }

    /// Preserve mode (off by default): nothing makes a level special.
    pub fn preserve(mut self, on: bool) -> Self {
        self.preserve = on;
        self
    }

    /// Turns floor the player cannot reach (outside vaults) into rock (off by default: 2.7.9 does not
    /// check connectivity).
    pub fn seal_unreachable(mut self, on: bool) -> Self {
        self.options.layout.seal_unreachable = on;
        self
    }
}

impl Plugin for AngbandPlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_schedule(app);
        app.insert_resource(AngbandRules {
            allocator: Allocator::new(self.races.clone()),
            vaults: self.vaults.clone(),
            traps: self.traps.clone(),
            options: self.options.clone(),
            autoscum: self.autoscum,
            preserve: self.preserve,
        })
        .init_resource::<AngbandUniques>()
        .init_resource::<AngbandLastLevel>()
        .add_message::<DungeonLevelRequested>()
        .add_message::<AngbandLevelBuilt>()
        .add_message::<AngbandLevelRejected>()
        .add_message::<ObjectRequested>()
        .add_message::<LevelFeeling>()
        .add_message::<TrapTriggered>()
        .add_message::<TrapSprung>()
        .register_type::<AngbandRules>()
        .register_type::<AngbandUniques>()
        .register_type::<AngbandMonster>()
        .register_type::<HitPoints>()
        .register_type::<Speed>()
        .register_type::<Energy>()
        .register_type::<SleepCounter>()
        .register_type::<DungeonLevelRequested>()
        .register_type::<LevelFloor>()
        .register_type::<AngbandLevelBuilt>()
        .register_type::<AngbandLevelRejected>()
        .register_type::<ObjectRequested>()
        .register_type::<LevelFeeling>()
        .register_type::<TrapTriggered>()
        .register_type::<TrapSprung>()
        .register_type::<AngbandLastLevel>()
        .register_type::<AngbandAppraiser>()
        .add_systems(
            schedule,
            (
                level::build_levels.run_if(on_message::<DungeonLevelRequested>),
                traps::spring_traps.run_if(on_message::<TrapTriggered>),
            )
                .chain()
                .in_set(DenizenSystems::Levels),
        );
    }
}

/// The Angband types most games need: `use denizen_bevy::angband::prelude::*;`.
pub mod prelude {
    pub use super::AngbandPlugin;
    pub use super::components::{AngbandMonster, Energy, HitPoints, SleepCounter, Speed};
    pub use super::messages::{
        AngbandLevelBuilt, AngbandLevelRejected, DungeonLevelRequested, LevelFeeling, LevelFloor,
        ObjectRequested, QUEST_DEPTHS, TrapSprung, TrapTriggered,
    };
    pub use super::resources::{
        AngbandAppraiser, AngbandLastLevel, AngbandRules, AngbandUniques, Appraisal,
    };
    pub use denizen_angband::{Autoscum, Feeling};
}
