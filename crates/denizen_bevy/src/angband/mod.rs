//! Angband 2.7.9 in play: an [`AngbandLevelRequested`] builds the classic level (or takes
//! the host's floor) and populates it through the [`pipeline`](crate::pipeline), one
//! entity per monster; a level's end gives its living uniques back to the allocator.

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
mod level;
pub mod messages;
pub mod resources;
mod traps;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_angband::layout::{VaultTemplates, shipped_vaults};
use denizen_angband::{Allocator, Autoscum, LevelOptions, ObjectRules, Races, Traps};

use crate::pipeline::serve_floor_requests;
use crate::{DenizenSystems, denizen_schedule};
#[cfg(feature = "assets")]
pub use assets::AngbandDataAssets;
use components::{
    AngbandGold, AngbandMonster, AngbandObject, Energy, HitPoints, SleepCounter, Speed,
};
pub use level::AngbandLevelPlan;
pub use messages::{
    AngbandLevelBuilt, AngbandLevelRefusal, AngbandLevelRejected, AngbandLevelRequested,
    LevelFeeling, LevelFloor, ObjectRequested, TrapSpringRejected, TrapSpringRequested, TrapSprung,
};
pub use resources::{
    AngbandAppraiser, AngbandArtifacts, AngbandLastLevel, AngbandRuleset, AngbandStoredLevels,
    AngbandTerrain, AngbandUniques, StoredLevel,
};

/// Angband's systems, each set inside a [`DenizenSystems`] phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AngbandSystems {
    /// In [`DenizenSystems::Floors`], after Omega's floors: levels made through the
    /// [`pipeline`](crate::pipeline).
    Levels,
    /// In [`DenizenSystems::Arrivals`]: traps sprung, and their summons.
    Traps,
}

/// Angband 2.7.9's levels as a plugin: the host writes [`AngbandLevelRequested`] and, on
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
    objects: ObjectRules,
    vaults: Arc<VaultTemplates>,
    traps: Arc<Traps>,
    options: LevelOptions,
    autoscum: Autoscum,
    preserve: bool,
    object_entities: bool,
    #[cfg(feature = "assets")]
    data: Option<assets::AngbandDataAssets>,
}

impl Default for AngbandPlugin {
    /// Angband 2.7.9's races and vault templates, every switch faithful.
    fn default() -> Self {
        Self {
            races: Races::shipped(),
            objects: ObjectRules::shipped(),
            vaults: Arc::new(shipped_vaults().clone()),
            traps: Arc::new(Traps::shipped().clone()),
            options: LevelOptions::default(),
            autoscum: Autoscum::Off,
            preserve: false,
            object_entities: true,
            #[cfg(feature = "assets")]
            data: None,
        }
    }
}

impl AngbandPlugin {
    /// A game's own races (see `Races::from_file`).
    pub fn with_races(mut self, races: Races) -> Self {
        self.races = races;
        self
    }

    /// A game's own object kinds, ego items and artifacts (see `ObjectKinds::from_file`,
    /// `Egos::from_file`, `Artifacts::from_file`; an ego item the class tables name and
    /// the file lacks makes none).
    pub fn with_objects(mut self, objects: ObjectRules) -> Self {
        self.objects = objects;
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

    /// Takes any of the races, vaults, traps, object kinds, ego items and artifacts from
    /// data files loaded as assets (feature `assets`; see [`crate::assets`]): requests are
    /// refused until they have loaded, and an edited file is swapped in while the game
    /// runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::AngbandDataAssets) -> Self {
        self.data = Some(files);
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

    /// Preserve mode (off by default): no level feels special (the flag is still set),
    /// and artifacts left on a wiped level can be made again.
    pub fn preserve(mut self, on: bool) -> Self {
        self.preserve = on;
        self
    }

    /// Whether a level's objects and gold become entities (`AngbandObject`,
    /// `AngbandGold`) on their squares (on by default). A game with its own item system
    /// turns it off and reads the same objects as data from `AngbandLevelBuilt`.
    pub fn object_entities(mut self, on: bool) -> Self {
        self.object_entities = on;
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
        // After Omega's floors when compiled in: FloorMap holds one floor a run, so which
        // request claims it is fixed.
        let levels = AngbandSystems::Levels.in_set(DenizenSystems::Floors);
        let traps = AngbandSystems::Traps.in_set(DenizenSystems::Arrivals);
        #[cfg(feature = "omega")]
        let (levels, traps) = (
            levels.after(crate::omega::OmegaSystems::Floors),
            traps.after(crate::omega::OmegaSystems::Arrivals),
        );
        app.insert_resource(AngbandRuleset {
            allocator: Allocator::new(self.races.clone()),
            objects: self.objects.clone(),
            vaults: self.vaults.clone(),
            traps: self.traps.clone(),
            options: self.options.clone(),
            autoscum: self.autoscum,
            preserve: self.preserve,
            object_entities: self.object_entities,
        })
        .init_resource::<AngbandUniques>()
        .init_resource::<AngbandArtifacts>()
        .init_resource::<AngbandLastLevel>()
        .init_resource::<AngbandStoredLevels>()
        .init_resource::<AngbandTerrain>()
        .add_message::<AngbandLevelRequested>()
        .add_message::<AngbandLevelBuilt>()
        .add_message::<AngbandLevelRejected>()
        .add_message::<ObjectRequested>()
        .add_message::<LevelFeeling>()
        .add_message::<TrapSpringRequested>()
        .add_message::<TrapSprung>()
        .add_message::<TrapSpringRejected>()
        .register_type::<AngbandRuleset>()
        .register_type::<AngbandUniques>()
        .register_type::<AngbandArtifacts>()
        .register_type::<AngbandMonster>()
        .register_type::<AngbandObject>()
        .register_type::<AngbandGold>()
        .register_type::<HitPoints>()
        .register_type::<Speed>()
        .register_type::<Energy>()
        .register_type::<SleepCounter>()
        .register_type::<AngbandLevelRequested>()
        .register_type::<LevelFloor>()
        .register_type::<AngbandLevelBuilt>()
        .register_type::<AngbandLevelRejected>()
        .register_type::<AngbandLevelRefusal>()
        .register_type::<AngbandStoredLevels>()
        .register_type::<StoredLevel>()
        .register_type::<AngbandTerrain>()
        .register_type::<ObjectRequested>()
        .register_type::<LevelFeeling>()
        .register_type::<TrapSpringRequested>()
        .register_type::<TrapSprung>()
        .register_type::<TrapSpringRejected>()
        .register_type::<AngbandLastLevel>()
        .register_type::<AngbandAppraiser>()
        .configure_sets(schedule, (levels, traps))
        .add_systems(
            schedule,
            (
                serve_floor_requests::<AngbandLevelRequested>
                    .run_if(on_message::<AngbandLevelRequested>)
                    .in_set(AngbandSystems::Levels),
                traps::spring_traps
                    .run_if(on_message::<TrapSpringRequested>)
                    .in_set(AngbandSystems::Traps),
            ),
        )
        .add_observer(level::level_ended)
        .add_observer(level::level_wiped)
        .add_observer(level::level_entered);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            crate::assets::follow(app, files.clone(), &assets::KINDS, AngbandSystems::Levels);
        }
    }
}

/// The Angband types most games need: `use denizen_bevy::angband::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::AngbandDataAssets;
    pub use super::components::{
        AngbandGold, AngbandMonster, AngbandObject, Energy, HitPoints, SleepCounter, Speed,
    };
    pub use super::messages::{
        AngbandLevelBuilt, AngbandLevelRefusal, AngbandLevelRejected, AngbandLevelRequested,
        LevelFeeling, LevelFloor, ObjectRequested, TrapSpringRejected, TrapSpringRequested,
        TrapSprung,
    };
    pub use super::resources::{
        AngbandAppraiser, AngbandArtifacts, AngbandLastLevel, AngbandRuleset, AngbandStoredLevels,
        AngbandTerrain, AngbandUniques, StoredLevel,
    };
    pub use super::{AngbandPlugin, AngbandSystems};
    pub use denizen_angband::{
        Appraisal, Autoscum, Feeling, LevelRefusal, MadeGold, MadeObject, QUEST_DEPTHS, Terrain,
    };
}
