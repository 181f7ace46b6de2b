//! The neutral plugin and its schedule: [`DenizenPlugin`], the [`DenizenSystems`]
//! phases it orders, and [`denizen_schedule`], the schedule every rule set's systems run in.

use bevy_app::prelude::*;
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;

use crate::{Creature, Glyph, GridPos, MonsterSpawned, Origin, SaveWithDenizen};
use crate::{DenizenRng, FloorMap, clock, floor, pipeline, rule_set, save, view};

/// The phases of the plugins' systems, in the order they run inside the plugins'
/// schedule. Each rule set's own sets run inside the phases, in the order the rule sets
/// were added (see [`rule_set`]): the shipped `OmegaSystems`, `AngbandSystems` and
/// `CaptiveSystems`, and a game's own rule set's the same way.
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
/// use denizen_bevy::{DenizenPlugin, DenizenSystems};
///
/// #[derive(Resource)]
/// struct InDungeon(bool);
///
/// let mut app = App::new();
/// app.add_plugins(DenizenPlugin::with_seed(1))
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
/// are never gated. `examples/dungeon_state.rs` is such a game, and the facade's
/// `gating` tests check all of this.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenizenSystems {
    /// Follows the rule sets' data files (feature `assets`: rules swapped in when a file
    /// changed), then serves every floor request through the [`pipeline`], each rule set's
    /// floors set after those of the rule sets added before it.
    Floors,
    /// Runs the [`TenMinuteCheck`](clock::TenMinuteCheck) or
    /// [`HourlyCheck`](clock::HourlyCheck) schedule once per ten-minute boundary the
    /// [`GameClock`](clock::GameClock) crossed and has not checked yet (wandering arrivals
    /// are made here); with none pending it costs one comparison.
    Clock,
    /// Arrivals the host asked for on the current floor, through the [`arrivals`](crate::arrivals)
    /// pipeline, each rule set's set after those of the rule sets added before it; last,
    /// so everything the plugins write in a run is written by its end.
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
/// one, so add `DenizenPlugin` before them.
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

    /// The schedule the plugins' systems run in.
    pub fn schedule(&self) -> Interned<dyn ScheduleLabel> {
        self.schedule
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
        (app.world_mut().get_resource_or_init::<floor::KeptStores>()).hold_stored_floors();
        #[cfg(all(feature = "assets", feature = "maps"))]
        crate::assets::maps::register_maps(app);
        app.insert_resource(DenizenRng::new(self.seed))
            .init_resource::<FloorMap>()
            .init_resource::<floor::CurrentFloor>()
            .init_resource::<floor::Occupants>()
            .init_resource::<floor::StoredFloors>()
            .init_resource::<floor::FloorMakers>()
            .init_resource::<floor::FloorClaim>()
            .init_resource::<floor::FloorEnding>()
            .init_resource::<floor::EndedWhileApplying>()
            .init_resource::<floor::FloorQueries>()
            .init_resource::<clock::GameClock>()
            .init_resource::<rule_set::RuleSets>()
            .init_resource::<view::Describers>()
            .add_message::<clock::ChecksSkipped>()
            .init_schedule(clock::TenMinuteCheck)
            .init_schedule(clock::HourlyCheck)
            .save_with_denizen::<DenizenRng>()
            .save_with_denizen::<FloorMap>()
            .save_with_denizen::<floor::CurrentFloor>()
            .save_with_denizen::<floor::StoredFloors>()
            .saved_before::<floor::StoredFloors>("denizen_bevy::floor::StoredFloors")
            .save_with_denizen::<floor::FloorMakers>()
            .save_with_denizen::<clock::GameClock>()
            .save_with_denizen::<floor::OnFloor>()
            .save_with_denizen::<floor::Dormant>()
            .save_with_denizen::<Creature>()
            .save_with_denizen::<GridPos>()
            .save_with_denizen::<Glyph>()
            .register_type::<rule_set::RuleSets>()
            .register_type::<pipeline::NotOurFloor>()
            .register_type::<save::MakerGuesses>()
            .register_type::<save::SavedTypes>()
            .register_type::<save::SaveChecks>()
            .register_type::<view::Describers>()
            .register_type::<floor::FloorId>()
            .register_type::<floor::Occupants>()
            .register_type::<floor::FloorClaim>()
            .register_type::<floor::FloorEnding>()
            .register_type::<floor::MakersByRules>()
            .register_type::<floor::KeptStores>()
            .register_type::<floor::EndedWhileApplying>()
            .register_type::<floor::FloorQueries>()
            .register_type::<clock::ChecksSkipped>()
            .register_type::<Origin>()
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
    }

    /// Not unique: a later `DenizenPlugin` in the same schedule re-seeds (see the type's
    /// docs), so the host may add it after a rule-set plugin brought the default one.
    fn is_unique(&self) -> bool {
        false
    }
}

/// The schedule a rule-set plugin adds its systems to: the one [`DenizenPlugin`] chose,
/// adding a default [`DenizenPlugin`] first when the host did not. A rule set's plugin
/// calls it (or [`RuleSetApp::add_rule_set`](crate::RuleSetApp::add_rule_set), which calls it) in its `build`.
pub fn denizen_schedule(app: &mut App) -> Interned<dyn ScheduleLabel> {
    if !app.is_plugin_added::<DenizenPlugin>() {
        app.add_plugins(DenizenPlugin::default());
    }
    app.get_added_plugins::<DenizenPlugin>()
        .first()
        .map_or_else(|| Update.intern(), |core| core.schedule)
}
