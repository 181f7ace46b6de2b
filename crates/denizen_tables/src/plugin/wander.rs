//! Wandering arrivals on the game clock: while the current floor is one the plugin made,
//! the game turns spent on it bring the bestiary's wandering checks, each served through
//! the [`arrivals`](denizen_bevy::arrivals) pipeline and placed with the wandering rules.

use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::arrivals::{
    ArrivalRequest, Arrived, NotOurFloor, RulesNotReady, RulesRefused, RulesStillLoading, arrive,
};
use denizen_bevy::clock::{GameClock, MAX_CHECKS_PER_RUN};
use denizen_bevy::floor::{CurrentFloor, FloorId, FloorMap, Maker, maker_of};
use denizen_bevy::pipeline::FloorStreams;
use denizen_core::{Square, SquareTags, TooManyTags};

use super::messages::Unplaced;
use super::place::{Planned, spawn_plan};
use super::resources::{TablesFloors, TablesRuleset, TablesUniques};
use crate::{Bestiary, FloorSite, FloorState, RequestError, TimeUnit, check_site, plan_wanderer};

/// The stream a wandering check draws.
pub(super) const WANDER_STREAM: &str = "tables_wander";

/// One wandering check on a floor of the plugin's, `elapsed` game turns after the player
/// came to it (the chance tapers with it when the files say so). Made by the clock: the
/// plugin runs one at every multiple of the files' `every` turns spent on the floor.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesWanderingCheck {
    /// The floor.
    pub floor: FloorId,
    /// Game turns spent on it at the check.
    pub elapsed: u64,
}

/// What arrived: the creatures (a leader first, then its followers) and what was drawn but
/// found no square.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesArrival {
    /// The creatures, in plan order.
    pub entities: Vec<Entity>,
    /// Drawn but not placed, and why.
    pub unplaced: Vec<Unplaced>,
}

/// The answer to a [`TablesWanderingCheck`] that brought creatures or could not run
/// (written in [`TablesSystems::Arrivals`](super::TablesSystems::Arrivals)); a check whose
/// roll failed is not answered.
pub type TablesWandered = Arrived<TablesWanderingCheck>;

/// Why a wandering check brought nothing.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum TablesWanderingSkip {
    /// The current floor is not one the plugin made (another rule set's, the game's own,
    /// or none: a floor put away), or the check names another floor: wandering creatures
    /// arrive only on the plugin's current floor.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// The bestiary's data files (feature `assets`) have not loaded yet.
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    /// The floor's depth is not one of the bestiary's (its files changed since).
    #[error("{0}")]
    Request(RequestError),
    /// The floor's branch is no longer in the bestiary (a reload removed it).
    #[error("the floor's branch {} is no longer in the bestiary", denizen_core::quoted(.0))]
    BranchGone(String),
    /// The floor's tag areas hold more names than a floor can.
    #[error("{0}")]
    Tags(TooManyTags),
    /// The check's roll failed: not answered.
    #[error("the check brought nothing")]
    NoneArrived,
}

impl From<NotOurFloor> for TablesWanderingSkip {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for TablesWanderingSkip {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// What a check resolved: the bestiary, the floor's tags and the player's square.
pub struct WanderingSite {
    rules: Arc<Bestiary>,
    tags: SquareTags,
    player: Option<Square>,
    state: FloorState,
}

impl ArrivalRequest for TablesWanderingCheck {
    type Rules = TablesRuleset;
    type Valid = WanderingSite;
    type Plan = Planned;
    type Arrival = TablesArrival;
    type Refusal = TablesWanderingSkip;

    fn validate(&self, world: &World) -> Result<(FloorId, WanderingSite), TablesWanderingSkip> {
        // The pipeline checked that the current floor is the plugin's; a check the game
        // wrote for another floor is refused alike.
        let record = world
            .resource::<TablesFloors>()
            .0
            .get(&self.floor)
            .filter(|_| world.resource::<CurrentFloor>().0 == self.floor)
            .ok_or_else(|| NotOurFloor {
                floor: self.floor.clone(),
                maker: maker_of(world, &self.floor),
                asked: Maker::rule_set(super::NAME),
            })?;
        let map = world.resource::<FloorMap>();
        let tags = record.layer(map).map_err(TablesWanderingSkip::Tags)?;
        let rules = world.resource::<TablesRuleset>().0.clone();
        let rules = record
            .rules(&rules)
            .map_err(TablesWanderingSkip::BranchGone)?;
        let site = FloorSite {
            grid: &map.0,
            tags: &tags,
            point: record.player,
        };
        check_site(&rules, site, self.floor.depth).map_err(TablesWanderingSkip::Request)?;
        let player = record.player;
        let state = record.state(&rules);
        Ok((
            self.floor.clone(),
            WanderingSite {
                rules,
                tags,
                player,
                state,
            },
        ))
    }

    fn plan(
        &self,
        world: &World,
        site: WanderingSite,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Planned, TablesWanderingSkip> {
        let b = &*site.rules;
        let mut rng = streams.draw(WANDER_STREAM);
        let arrives = b
            .wandering()
            .is_some_and(|rules| rules.check(self.elapsed, &mut rng));
        if !arrives {
            return Err(TablesWanderingSkip::NoneArrived);
        }
        let floor = FloorSite {
            grid: &world.resource::<FloorMap>().0,
            tags: &site.tags,
            point: site.player,
        };
        let ledger = &world.resource::<TablesUniques>().0;
        let depth = self.floor.depth;
        let context = &world.resource::<super::resources::TablesContext>().0;
        let mut state = site.state;
        let mut plan = plan_wanderer(b, floor, depth, (ledger, context), &mut state, &mut rng)
            .ok_or(TablesWanderingSkip::NoneArrived)?
            .map_err(TablesWanderingSkip::Request)?;
        plan.state = state;
        Ok(Planned {
            rules: site.rules,
            plan,
            resolved: None,
        })
    }

    fn apply(&self, world: &mut World, planned: Planned) -> TablesArrival {
        if let Some(record) = world.resource_mut::<TablesFloors>().0.get_mut(&self.floor) {
            record.keep_state(&planned.rules, &planned.plan.state);
        }
        let (entities, unplaced) = spawn_plan(world, planned);
        TablesArrival { entities, unplaced }
    }

    fn answer(&self, world: &mut World, outcome: Result<TablesArrival, TablesWanderingSkip>) {
        if outcome != Err(TablesWanderingSkip::NoneArrived) {
            world.write_message(TablesWandered {
                request: self.clone(),
                outcome,
            });
        }
    }
}

/// The clock's wandering checks: the game time since the last run, in the wandering
/// rules' unit (turns unless the files say `unit: Minutes`), counts toward the current
/// floor's time if the plugin made it, and each multiple of the files' `every` it passes
/// runs one check (at most [`MAX_CHECKS_PER_RUN`]; older ones are dropped). Time on other
/// floors, or on this one while put away, does not count.
pub(super) fn wandering_checks(world: &mut World) {
    let current = world.resource::<CurrentFloor>().0.clone();
    let clock = *world.resource::<GameClock>();
    let Some(record) = world.resource::<TablesFloors>().0.get(&current) else {
        return;
    };
    // The floor's branch's rules; a branch a reload removed counts turns and asks one
    // check a run the clock moves, which is refused by name.
    let rules = record.rules(&world.resource::<TablesRuleset>().0);
    let wandering = match &rules {
        Ok(rules) => rules.wandering().map(|w| (w.every, w.unit)),
        Err(_) => Some((1, TimeUnit::Turns)),
    };
    let unit = wandering.map_or(TimeUnit::Turns, |(_, unit)| unit);
    let mut floors = world.resource_mut::<TablesFloors>();
    let Some(record) = floors.0.get_mut(&current) else {
        return;
    };
    let from = record.elapsed;
    let to = from.saturating_add(record.pass(&clock, unit));
    record.elapsed = to;
    let Some((every, unit)) = wandering else {
        return;
    };
    if rules.is_err() {
        if to > from {
            arrive(
                world,
                &TablesWanderingCheck {
                    floor: current,
                    elapsed: to,
                },
            );
        }
        return;
    }
    watch_clock(world, &current, &clock, (every, unit));
    let every = u64::from(every);
    let (first, last) = (from / every + 1, to / every);
    let first = first.max(last.saturating_sub(MAX_CHECKS_PER_RUN - 1));
    for k in first..=last {
        let check = TablesWanderingCheck {
            floor: current.clone(),
            elapsed: k * every,
        };
        arrive(world, &check);
    }
}

/// Written once per app run when the game clock moved on a floor of the plugin's in the
/// unit the wandering rules do not count, by at least their `every`, while the unit they
/// count stood still: a game that advances minutes while the files count turns (or the
/// other way round) gets no wandering arrivals. A clock that turns one into the other
/// (`GameClock::turns_per_minute`) never brings it.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
#[error(
    "the wandering rules count game {counted}, but on {floor} only the clock's {moved_unit} \
     moved ({moved} of them, where a check comes every {every} {counted}): advance the \
     clock's {counted}, give it `turns_per_minute`, or set the wandering rules' `unit: {unit:?}`",
    counted = .counted.name(),
    moved_unit = .counted.other().name(),
    unit = .counted.other()
)]
pub struct TablesClockUnused {
    /// The floor.
    pub floor: FloorId,
    /// The unit the wandering rules count.
    pub counted: TimeUnit,
    /// How far the other unit moved meanwhile.
    pub moved: u64,
    /// The rules' `every`.
    pub every: u32,
}

/// Where the clock stood when the counted unit last moved on the current floor, and
/// whether [`TablesClockUnused`] was written (once per app run; never saved).
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(super) struct ClockWatch {
    floor: Option<FloorId>,
    counted: u64,
    other: u64,
    said: bool,
}

/// Watches the clock on `floor` for time moving only in the unit the rules do not count.
fn watch_clock(
    world: &mut World,
    floor: &FloorId,
    clock: &GameClock,
    (every, unit): (u32, TimeUnit),
) {
    let (counted, other) = match unit {
        TimeUnit::Turns => (clock.turns, clock.minutes),
        TimeUnit::Minutes => (clock.minutes, clock.turns),
    };
    let mut watch = world.resource_mut::<ClockWatch>();
    // A clock with a rate moves both units whichever the game advances.
    if watch.said || clock.turns_per_minute.is_some() {
        return;
    }
    if watch.floor.as_ref() != Some(floor) || watch.counted != counted || watch.other > other {
        *watch = ClockWatch {
            floor: Some(floor.clone()),
            counted,
            other,
            said: false,
        };
        return;
    }
    let moved = other - watch.other;
    if moved >= u64::from(every) {
        watch.said = true;
        world.write_message(TablesClockUnused {
            floor: floor.clone(),
            counted: unit,
            moved,
            every,
        });
    }
}
