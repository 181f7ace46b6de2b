//! The denizen Bevy plugins: roguelike floors populated with creatures as entities.
//!
//! [`DenizenPlugins`] gathers a neutral [`DenizenPlugin`] (the world seed and stream ledger,
//! [`FloorMap`], the [`GameClock`](clock::GameClock) and its check schedules, the
//! [`DenizenSystems`] sets, the one apply step) and one plugin per rule set, each behind a
//! cargo feature: [`OmegaPlugin`](omega::OmegaPlugin) (`omega`) and
//! [`CaptivePlugin`](captive::CaptivePlugin) (`captive`) and
//! [`AngbandPlugin`](angband::AngbandPlugin) (`angband`, not on by default: it ships
//! Angband 2.7.9's non-commercial race data). The host fills [`FloorMap`],
//! writes a rule set's request message, and on the next run of the plugins' schedule gets
//! one entity per creature and a [`MonsterSpawned`] event on each. The rules run in the
//! pure rule-set crates; this crate only turns their plans into entities.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "angband")]
pub mod angband;
pub mod apply;
#[cfg(feature = "captive")]
pub mod captive;
pub mod clock;
pub mod floor;
#[cfg(feature = "omega")]
pub mod omega;
pub mod save;
pub mod streams;
pub mod view;

use bevy_app::prelude::*;
use bevy_app::{PluginGroup, PluginGroupBuilder};
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;

pub use apply::MonsterSpawned;
pub use floor::{Creature, CurrentFloor, Dormant, FloorId, FloorMap, Glyph, GridPos, OnFloor};
pub use streams::DenizenRng;

/// The plugins' systems, in the order they run inside the plugins' schedule.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenizenSystems {
    /// Checks state read from a save against the rules (Omega's `StateRejected`), then
    /// populates the floors the host asked for (Omega's `FloorGenerated`). Order the
    /// host's floor generator before it and anything that reads creatures after it.
    Populate,
    /// Builds and populates the levels the host asked for (Angband's
    /// `DungeonLevelRequested`), then springs the traps it reports
    /// (`TrapTriggered`); runs after `Populate`.
    Levels,
    /// Places encounter groups on the base floors the host asked for (Captive's
    /// `BaseFloorGenerated`); runs after `Levels`.
    Encounters,
    /// Countryside encounters, summonings, waking statues and arena bouts the host asked
    /// for; runs after `Encounters`.
    Arrivals,
    /// Runs the [`TenMinuteCheck`](clock::TenMinuteCheck) or
    /// [`HourlyCheck`](clock::HourlyCheck) schedule once per ten-minute boundary the
    /// [`GameClock`](clock::GameClock) crossed; runs last, and only on a run after the
    /// clock changed (so an idle clock costs nothing).
    Clock,
}

/// The neutral part every rule set needs: the world seed and stream ledger
/// ([`DenizenRng`]), [`FloorMap`], the game clock and its check schedules, the
/// [`DenizenSystems`] sets in the chosen schedule. Everything is set up in `build`.
///
/// A rule-set plugin added on its own brings a default `DenizenPlugin` (seed 0, `Update`).
/// A `DenizenPlugin` added after that, in the same schedule, only sets its seed, so the
/// order of `add_plugins` calls does not matter. One that asks for a different schedule
/// panics at setup, naming both schedules: the rule sets' systems are already in the first
/// one, so add `DenizenPlugin` (or use [`DenizenPlugins::in_schedule`]) before them.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
///
/// App::new().add_plugins(DenizenPlugin::with_seed(7));
/// ```
#[derive(Clone, Debug)]
pub struct DenizenPlugin {
    seed: u64,
    schedule: Interned<dyn ScheduleLabel>,
}

impl Default for DenizenPlugin {
    fn default() -> Self {
        Self {
            seed: 0,
            schedule: Update.intern(),
        }
    }
}

impl DenizenPlugin {
    /// A world seed: the same seed and inputs give the same creatures.
    pub fn with_seed(seed: u64) -> Self {
        Self {
            seed,
            ..Self::default()
        }
    }

    /// Runs the systems in another schedule (such as a turn schedule of the host's)
    /// instead of `Update`.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }

    /// The world seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

impl Plugin for DenizenPlugin {
    fn build(&self, app: &mut App) {
        let earlier = app
            .get_added_plugins::<DenizenPlugin>()
            .first()
            .map(|core| core.schedule);
        if let Some(schedule) = earlier {
            assert!(
                schedule == self.schedule,
                "DenizenPlugin asks for schedule {:?}, but the denizen plugins already run in \
                 {:?} (a rule-set plugin added before it brings a default DenizenPlugin): add \
                 DenizenPlugin, or DenizenPlugins::in_schedule, before the rule-set plugins",
                self.schedule,
                schedule,
            );
            app.insert_resource(DenizenRng::new(self.seed));
            return;
        }
        app.insert_resource(DenizenRng::new(self.seed))
            .init_resource::<FloorMap>()
            .init_resource::<floor::CurrentFloor>()
            .init_resource::<floor::Occupants>()
            .init_resource::<floor::StoredFloors>()
            .init_resource::<floor::FloorClaim>()
            .init_resource::<clock::GameClock>()
            .add_message::<clock::ChecksSkipped>()
            .init_schedule(clock::TenMinuteCheck)
            .init_schedule(clock::HourlyCheck)
            .register_type::<DenizenRng>()
            .register_type::<FloorMap>()
            .register_type::<floor::FloorId>()
            .register_type::<floor::OnFloor>()
            .register_type::<floor::CurrentFloor>()
            .register_type::<floor::Dormant>()
            .register_type::<floor::Occupants>()
            .register_type::<floor::StoredFloors>()
            .register_type::<floor::FloorClaim>()
            .register_type::<clock::GameClock>()
            .register_type::<clock::ChecksSkipped>()
            .register_type::<Creature>()
            .register_type::<GridPos>()
            .register_type::<Glyph>()
            .register_type::<MonsterSpawned>()
            .configure_sets(
                self.schedule,
                (
                    DenizenSystems::Populate,
                    DenizenSystems::Levels,
                    DenizenSystems::Encounters,
                    DenizenSystems::Arrivals,
                    DenizenSystems::Clock,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    clock::drive_clock.run_if(resource_changed::<clock::GameClock>),
                    floor::release_floor_claim,
                )
                    .chain()
                    .in_set(DenizenSystems::Clock),
            );
    }

    /// Not unique: a later `DenizenPlugin` in the same schedule re-seeds (see the type's
    /// docs), so the host may add it after a rule-set plugin brought the default one.
    fn is_unique(&self) -> bool {
        false
    }
}

/// The schedule a rule-set plugin adds its systems to: the one [`DenizenPlugin`] chose,
/// adding a default [`DenizenPlugin`] first when the host did not.
#[cfg_attr(
    not(any(feature = "omega", feature = "captive", feature = "angband")),
    allow(dead_code)
)]
pub(crate) fn denizen_schedule(app: &mut App) -> Interned<dyn ScheduleLabel> {
    if !app.is_plugin_added::<DenizenPlugin>() {
        app.add_plugins(DenizenPlugin::default());
    }
    app.get_added_plugins::<DenizenPlugin>()
        .first()
        .map_or_else(|| Update.intern(), |core| core.schedule)
}

/// Every denizen plugin the enabled features bring: [`DenizenPlugin`] with the seed and
/// schedule, then each rule set's plugin with its defaults. Replace one with
/// `.set(...)` to change its switches.
///
/// ```
/// use bevy_app::prelude::*;
/// use denizen_bevy::DenizenPlugins;
///
/// App::new().add_plugins(DenizenPlugins::with_seed(42));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DenizenPlugins {
    core: DenizenPlugin,
}

impl DenizenPlugins {
    /// Every plugin, with this world seed.
    pub fn with_seed(seed: u64) -> Self {
        Self {
            core: DenizenPlugin::with_seed(seed),
        }
    }

    /// Runs every plugin's systems in another schedule instead of `Update`.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.core = self.core.in_schedule(schedule);
        self
    }
}

impl PluginGroup for DenizenPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>().add(self.core);
        #[cfg(feature = "omega")]
        let group = group.add(omega::OmegaPlugin::default());
        #[cfg(feature = "captive")]
        let group = group.add(captive::CaptivePlugin::default());
        #[cfg(feature = "angband")]
        let group = group.add(angband::AngbandPlugin::default());
        group
    }
}

/// The types most games need, in one glob import that never clashes:
/// `use denizen_bevy::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "angband")]
    pub use crate::angband::prelude::*;
    #[cfg(feature = "captive")]
    pub use crate::captive::prelude::*;
    pub use crate::clock::{ChecksSkipped, GameClock, HourlyCheck, TenMinuteCheck};
    pub use crate::floor::{
        StoredFloors, bring_floor_back, despawn_floor, enter_floor, put_floor_away,
    };
    #[cfg(feature = "omega")]
    pub use crate::omega::prelude::*;
    pub use crate::view::render_floor;
    pub use crate::{
        Creature, CurrentFloor, DenizenPlugin, DenizenPlugins, DenizenRng, DenizenSystems, Dormant,
        FloorId, FloorMap, Glyph, GridPos, MonsterSpawned, OnFloor,
    };
    pub use denizen_core::floor::{FloorGrid, Room, RoomKind, Square, Tile};
    pub use denizen_core::plan::Origin;
}
