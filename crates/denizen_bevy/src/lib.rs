//! The denizen Bevy plugins: roguelike floors populated with creatures as entities.
//!
//! [`DenizenPlugins`] gathers a neutral [`DenizenPlugin`] (the world seed and stream ledger,
//! [`FloorMap`], the [`GameClock`](clock::GameClock) and its check schedules, the
//! [`DenizenSystems`] sets, the one apply step) and one plugin per rule set, each behind a
//! cargo feature: [`OmegaPlugin`](omega::OmegaPlugin) (`omega`) and
//! [`CaptivePlugin`](captive::CaptivePlugin) (`captive`) and
//! `angband::AngbandPlugin` (`angband`, not on by default: it ships
//! Angband 2.7.9's non-commercial race data). The host fills [`FloorMap`],
//! writes a rule set's request message, and on the next run of the plugins' schedule gets
//! one entity per creature and a [`MonsterSpawned`] event on each. Every floor request
//! goes through one [`pipeline`], which a game's own rule set uses too. The rules run in
//! the pure rule-set crates; this crate only turns their plans into entities.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "angband")]
pub mod angband;
pub mod apply;
#[cfg(feature = "assets")]
pub mod assets;
#[cfg(feature = "captive")]
pub mod captive;
pub mod clock;
pub mod floor;
#[cfg(feature = "omega")]
pub mod omega;
pub mod pipeline;
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
pub use streams::{DenizenRng, StreamKey};

/// The phases of the plugins' systems, in the order they run inside the plugins'
/// schedule. Each rule set's own set runs inside a phase (`OmegaSystems`,
/// `AngbandSystems`, `CaptiveSystems`; a game's own rule set adds its set the same way).
///
/// The host orders its floor generator and its requests before
/// [`Floors`](Self::Floors), and its readers of the answers (every message the plugins
/// write, arrivals included) after [`Arrivals`](Self::Arrivals).
///
/// # Running only in some states
///
/// A game that runs denizen only in its dungeon state gates the three phases with a run
/// condition: `bevy_state`'s `in_state(GameState::Dungeon)`, or any other.
///
/// ```
/// use bevy_app::prelude::*;
/// use bevy_ecs::prelude::*;
/// use denizen_bevy::{DenizenPlugins, DenizenSystems};
///
/// #[derive(Resource)]
/// struct InDungeon(bool);
///
/// let mut app = App::new();
/// app.add_plugins(DenizenPlugins::with_seed(1))
///     .insert_resource(InDungeon(false))
///     .configure_sets(
///         Update,
///         (DenizenSystems::Floors, DenizenSystems::Clock, DenizenSystems::Arrivals)
///             .run_if(|place: Res<InDungeon>| place.0),
///     );
/// app.update();
/// ```
///
/// While the gate is shut everything denizen holds is kept as it is: the current floor and
/// its creatures, the stored floors, the ledgers. The [`GameClock`](clock::GameClock)
/// goes on as the game advances it, but its checks wait: when the gate opens, those of
/// every boundary crossed meanwhile run on the first update (at most
/// [`MAX_CHECKS_PER_RUN`](clock::MAX_CHECKS_PER_RUN)), unless the game calls
/// [`GameClock::skip_pending_checks`](clock::GameClock::skip_pending_checks) on the way
/// in. A request is a message, which Bevy keeps for two updates: one written while the
/// gate is shut is lost unless the gate opens on the next update, so a game writes its
/// requests in the gated state or on entering it (`OnEnter` runs before `Update`, and the
/// request is served on that update). Observers (`MonsterSpawned`, `FloorEnded`, ...)
/// are never gated. `examples/dungeon_state.rs` is such a game, and
/// `tests/integration/gating.rs` checks all of this.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenizenSystems {
    /// Follows the rule sets' data files (feature `assets`: rules swapped in when a file
    /// changed), checks state read from a save against the rules, then serves every floor
    /// request through the [`pipeline`]: Omega's floors (`OmegaSystems::Floors`), then Angband's
    /// levels (`AngbandSystems::Levels`), then Captive's encounter groups
    /// (`CaptiveSystems::Encounters`).
    Floors,
    /// Runs the [`TenMinuteCheck`](clock::TenMinuteCheck) or
    /// [`HourlyCheck`](clock::HourlyCheck) schedule once per ten-minute boundary the
    /// [`GameClock`](clock::GameClock) crossed and has not checked yet (Omega's wandering
    /// arrivals are written here); with none pending it costs one comparison.
    Clock,
    /// Creatures the host asked for on the current floor: summonings, waking statues and
    /// arena bouts (`OmegaSystems::Arrivals`), traps sprung (`AngbandSystems::Traps`);
    /// last, so everything the plugins write in a run is written by its end.
    Arrivals,
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
            .init_resource::<floor::FloorEnding>()
            .init_resource::<floor::EndedWhileApplying>()
            .init_resource::<floor::FloorQueries>()
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
            .register_type::<floor::FloorEnding>()
            .register_type::<floor::EndedWhileApplying>()
            .register_type::<floor::FloorQueries>()
            .register_type::<clock::GameClock>()
            .register_type::<clock::ChecksSkipped>()
            .register_type::<Creature>()
            .register_type::<GridPos>()
            .register_type::<Glyph>()
            .register_type::<MonsterSpawned>()
            .register_type::<floor::FloorEnd>()
            .register_type::<floor::FloorEnded>()
            .register_type::<floor::FloorEntry>()
            .register_type::<floor::FloorEntered>()
            .register_type::<floor::FloorHeld>()
            .configure_sets(
                self.schedule,
                (
                    DenizenSystems::Floors,
                    DenizenSystems::Clock,
                    DenizenSystems::Arrivals,
                )
                    .chain(),
            )
            .add_systems(
                self.schedule,
                (
                    clock::drive_clock
                        .run_if(clock::checks_pending)
                        .in_set(DenizenSystems::Clock),
                    floor::release_floor_claim.after(DenizenSystems::Arrivals),
                ),
            );
        refuse_unserved_requests(app, self.schedule);
    }

    /// Not unique: a later `DenizenPlugin` in the same schedule re-seeds (see the type's
    /// docs), so the host may add it after a rule-set plugin brought the default one.
    fn is_unique(&self) -> bool {
        false
    }
}

/// Registers the request of every rule set compiled in, so one written while its plugin is
/// missing stops the app with a message naming the plugin (see
/// [`pipeline::refuse_unserved`]) instead of vanishing.
fn refuse_unserved_requests(_app: &mut App, _schedule: Interned<dyn ScheduleLabel>) {
    #[cfg(feature = "omega")]
    for_rule_set::<omega::OmegaFloorRequested, omega::OmegaRuleset>(_app, _schedule, "OmegaPlugin");
    #[cfg(feature = "captive")]
    for_rule_set::<captive::EncountersRequested, captive::CaptiveRuleset>(
        _app,
        _schedule,
        "CaptivePlugin",
    );
    #[cfg(feature = "angband")]
    for_rule_set::<angband::AngbandLevelRequested, angband::AngbandRuleset>(
        _app,
        _schedule,
        "AngbandPlugin",
    );
}

/// The unserved-request check of one rule set: its request `M`, refused while its rules
/// resource `R` is missing.
#[cfg(any(feature = "omega", feature = "captive", feature = "angband"))]
fn for_rule_set<M: Message, R: Resource>(
    app: &mut App,
    schedule: Interned<dyn ScheduleLabel>,
    plugin: &'static str,
) {
    app.add_message::<M>().add_systems(
        schedule,
        pipeline::refuse_unserved::<M>(plugin)
            .run_if(not(resource_exists::<R>))
            .after(DenizenSystems::Arrivals),
    );
}

/// The schedule a rule-set plugin adds its systems to: the one [`DenizenPlugin`] chose,
/// adding a default [`DenizenPlugin`] first when the host did not. A game's own rule set
/// calls it in its plugin's `build`, as the shipped ones do.
pub fn denizen_schedule(app: &mut App) -> Interned<dyn ScheduleLabel> {
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
    #[cfg(feature = "assets")]
    pub use crate::assets::{DataRejected, RulesLoaded};
    #[cfg(feature = "captive")]
    pub use crate::captive::prelude::*;
    pub use crate::clock::{ChecksSkipped, GameClock, HourlyCheck, TenMinuteCheck};
    pub use crate::floor::{
        FloorCommands, FloorEnd, FloorEnded, FloorEnding, FloorEntered, FloorEntry, StoredFloors,
        bring_floor_back, despawn_floor, enter_floor, put_floor_away,
    };
    #[cfg(feature = "omega")]
    pub use crate::omega::prelude::*;
    pub use crate::view::render_floor;
    pub use crate::{
        Creature, CurrentFloor, DenizenPlugin, DenizenPlugins, DenizenRng, DenizenSystems, Dormant,
        FloorId, FloorMap, Glyph, GridPos, MonsterSpawned, OnFloor, StreamKey,
    };
    pub use denizen_core::floor::{FloorGrid, Room, RoomKind, Square, Tile};
    pub use denizen_core::plan::Origin;
}
