//! How many creatures stand on each square of the current floor, kept by the square hooks
//! of [`GridPos`] as creatures arrive, move and go, and counted in one pass when a plan's
//! creatures are spawned in a batch or a floor is entered.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, Ordering};

use bevy_ecs::component::ComponentId;
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::world::DeferredWorld;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;

use super::{Creature, CurrentFloor, Dormant, FloorId, FloorMap, FloorQueries, GridPos, OnFloor};

/// How many creatures of the current floor stand on each square: a square stays marked
/// in [`FloorMap`] while any does. Derived from the creatures (rebuilt when the current
/// floor changes), so never saved: it is reflected as a value, not as a resource a save
/// or a scene would extract.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub struct Occupants {
    /// The floor counted (the [`CurrentFloor`] when it was entered).
    floor: FloorId,
    /// The floor's width: square `(x, y)` counts at `y * width + x`.
    width: u32,
    /// One count per square of the floor.
    #[reflect(ignore)]
    counts: SquareCounts,
    /// The components that decide whether a creature counts, looked up once per floor so
    /// the square hooks need no type lookup for them.
    #[reflect(ignore)]
    markers: Option<Markers>,
    /// The square hooks that ran while a plan's creatures were spawned in one batch.
    #[reflect(ignore)]
    batch: BatchMarks,
}

/// One count per square of the floor, each changed through a shared borrow: a square hook
/// looks [`Occupants`] up once, reads the creature, then counts. The counts change only
/// with the world in hand (hooks run one at a time), so relaxed atomics cost what plain
/// numbers do.
#[derive(Debug, Default)]
struct SquareCounts(Vec<AtomicU16>);

impl SquareCounts {
    /// The count at an index.
    fn get(&self, i: usize) -> Option<u16> {
        self.0.get(i).map(|n| n.load(Ordering::Relaxed))
    }

    /// One creature more (or less) at an index: the count before and after, `None` off
    /// the floor.
    fn step(&self, i: usize, arrives: bool) -> Option<(u16, u16)> {
        let count = self.0.get(i)?;
        let before = count.load(Ordering::Relaxed);
        let after = if arrives {
            before.saturating_add(1)
        } else {
            before.saturating_sub(1)
        };
        count.store(after, Ordering::Relaxed);
        Some((before, after))
    }

    /// Every count back to zero, for a floor of `squares` squares (the storage is reused
    /// while the floor keeps its size).
    fn reset(&mut self, squares: usize) {
        if self.0.len() == squares {
            self.0.iter_mut().for_each(|n| *n.get_mut() = 0);
        } else {
            self.0 = (0..squares).map(|_| AtomicU16::new(0)).collect();
        }
    }

    /// The indices of the squares somebody stands on.
    fn occupied(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.0.len()).filter(|&i| self.get(i).is_some_and(|n| n > 0))
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// A copy holds the same counts.
impl Clone for SquareCounts {
    fn clone(&self) -> Self {
        Self(
            self.0
                .iter()
                .map(|n| AtomicU16::new(n.load(Ordering::Relaxed)))
                .collect(),
        )
    }
}

impl PartialEq for SquareCounts {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && (0..self.0.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for SquareCounts {}

/// The ids of [`Creature`] and [`Dormant`]: a creature counts while it has the first and
/// not the second (and stands on the counted floor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Markers {
    creature: ComponentId,
    dormant: ComponentId,
}

/// While [`apply`](crate::apply::apply) spawns a plan's creatures, the square hooks only
/// count themselves here; the batch then counts its creatures at once, or recounts the
/// floor if anything else moved meanwhile (an observer of the spawns). The counters are
/// atomic, so a hook counts through a shared borrow of [`Occupants`]; the rest is changed
/// only with the world in hand.
#[derive(Debug, Default)]
struct BatchMarks {
    open: AtomicBool,
    arrivals: AtomicU32,
    departures: AtomicU32,
    /// An inner batch ran: the floor is recounted.
    dirty: bool,
    /// The counted floor was entered or forgotten during the batch: the floor is
    /// recounted, and the plan's squares (on the map before) are left alone.
    floor_changed: bool,
    /// The free squares inner batches planned, freed by the outer one before it recounts.
    inner_planned: Vec<Square>,
}

impl BatchMarks {
    /// Counts a hook that ran during a batch; `false` outside one.
    fn skip(&self, arrives: bool) -> bool {
        if !self.open.load(Ordering::Relaxed) {
            return false;
        }
        let counter = if arrives {
            &self.arrivals
        } else {
            &self.departures
        };
        counter.fetch_add(1, Ordering::Relaxed);
        true
    }

    fn is_open(&self) -> bool {
        self.open.load(Ordering::Relaxed)
    }
}

/// A batch is transient: a copy starts with none open.
impl Clone for BatchMarks {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// A batch is transient: it never makes two counts differ.
impl PartialEq for BatchMarks {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for BatchMarks {}

/// What [`open_batch`] made of an `apply`: the batch, a batch inside an open one (an
/// observer of the outer spawns applied a plan of its own), or none (no floor is
/// counted, so the hooks do nothing anyway).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Batch {
    Outer,
    Inner,
    Off,
}

impl Occupants {
    /// Creatures of the current floor on a square.
    pub fn on(&self, at: Square) -> u16 {
        self.index(at).and_then(|i| self.counts.get(i)).unwrap_or(0)
    }

    fn index(&self, at: Square) -> Option<usize> {
        (at.x < self.width).then(|| at.y as usize * self.width as usize + at.x as usize)
    }

    /// Counts no floor (none is current, or the current one's map was replaced): the
    /// square hooks do nothing until a floor is entered. The counts' storage is kept for
    /// the next floor.
    pub(super) fn forget(&mut self) {
        self.floor = FloorId::default();
        self.width = 0;
        self.markers = None;
        self.batch.floor_changed = true;
    }

    /// The square at a count's index.
    fn square(&self, index: usize) -> Square {
        let width = self.width as usize;
        Square {
            x: (index % width) as u32,
            y: (index / width) as u32,
        }
    }
}

/// Hook of [`GridPos`]: a creature arrives on its square.
pub(super) fn occupy(mut world: DeferredWorld, context: HookContext) {
    mark(&mut world, context.entity, true);
}

/// Hook of [`GridPos`]: a creature leaves its square (it moves, loses its square or is
/// despawned).
pub(super) fn vacate(mut world: DeferredWorld, context: HookContext) {
    mark(&mut world, context.entity, false);
}

/// Counts a creature of the current floor in or out of its square and keeps the square's
/// mark in [`FloorMap`].
fn mark(world: &mut DeferredWorld, entity: Entity, arrives: bool) {
    let changed = {
        let Some(occupants) = world.get_resource::<Occupants>() else {
            return;
        };
        // No floor counted (none is current): nothing to look up.
        let Some(markers) = occupants.markers.filter(|_| occupants.width > 0) else {
            return;
        };
        if occupants.batch.skip(arrives) {
            return;
        }
        let Ok(creature) = world.get_entity(entity) else {
            return;
        };
        let counted = creature.contains_id(markers.creature)
            && !creature.contains_id(markers.dormant)
            && creature
                .get::<OnFloor>()
                .is_none_or(|on| on.0 == occupants.floor);
        let Some(at) = creature.get::<GridPos>().filter(|_| counted) else {
            return;
        };
        let at = Square::from(*at);
        // Off the floor: no square to mark.
        let Some((before, after)) = occupants
            .index(at)
            .and_then(|i| occupants.counts.step(i, arrives))
        else {
            return;
        };
        ((before > 0) != (after > 0)).then_some((at, after > 0))
    };
    if let Some((at, occupied)) = changed
        && let Some(mut map) = world.get_resource_mut::<FloorMap>()
    {
        map.0.set_occupied(at, occupied);
    }
}

/// Makes `floor` the current one: recounts the squares its creatures stand on and marks
/// them in [`FloorMap`] (a floor just filled, brought back or loaded from a save). The
/// floor left, unless it was put away, is no longer any rule set's: the game's own
/// floor entered this way is the host's ([`Maker::Host`](super::Maker::Host)).
pub fn enter_floor(world: &mut World, floor: FloorId) {
    let left = world.resource::<CurrentFloor>().0.clone();
    if left != floor {
        world.resource_mut::<CurrentFloor>().0 = floor.clone();
        super::leave_maker(world, &left);
    }
    let (width, height) = world
        .get_resource::<FloorMap>()
        .map_or((0, 0), |m| (m.0.width(), m.0.height()));
    let markers = Markers {
        creature: world.register_component::<Creature>(),
        dormant: world.register_component::<Dormant>(),
    };
    let mut occupants = world.resource_mut::<Occupants>();
    occupants.counts.reset(width as usize * height as usize);
    occupants.width = width;
    occupants.floor = floor;
    occupants.markers = Some(markers);
    occupants.batch.floor_changed = true;
    count_floor(world);
}

/// Counts every creature awake on the counted floor into counts that start from zero,
/// and marks their squares in [`FloorMap`].
fn count_floor(world: &mut World) {
    let occupants = std::mem::take(&mut *world.resource_mut::<Occupants>());
    let mut marked = Vec::new();
    let mut cache = FloorQueries::take(world);
    let query = cache.standing.get_or_insert_with(|| world.query_filtered());
    for (at, on) in query.iter(world) {
        let square = Square::from(*at);
        if on.is_none_or(|on| on.0 == occupants.floor)
            && let Some(i) = occupants.index(square)
            && occupants.counts.step(i, true).is_some()
        {
            marked.push(square);
        }
    }
    cache.put_back(world);
    if let Some(mut map) = world.get_resource_mut::<FloorMap>() {
        for square in marked {
            map.0.set_occupied(square, true);
        }
    }
    *world.resource_mut::<Occupants>() = occupants;
}

/// Opens a spawn batch: until [`close_batch`], the square hooks only count themselves.
pub(crate) fn open_batch(world: &mut World) -> Batch {
    let Some(mut occupants) = world.get_resource_mut::<Occupants>() else {
        return Batch::Off;
    };
    if occupants.batch.is_open() {
        return Batch::Inner;
    }
    if occupants.markers.is_none() || occupants.width == 0 {
        return Batch::Off;
    }
    occupants.batch = BatchMarks {
        open: AtomicBool::new(true),
        ..BatchMarks::default()
    };
    Batch::Outer
}

/// Closes a spawn batch: `spawned` are its creatures, `others` how many entities that are
/// not creatures it spawned on squares (groups, objects), `planned` the squares the plan
/// marked in [`FloorMap`] before they were spawned, each with whether it was free then.
/// If the hooks that ran were exactly one arrival per entity, the creatures still awake on
/// the floor are counted where they stand; if anything else changed the floor meanwhile,
/// every square a creature or a plan had marked is freed and the floor counted afresh.
/// Either way the counts and the creatures' marks end as the hooks would have left them,
/// and a planned square nobody stands on (a creature that does not count, or went
/// elsewhere) is free again.
///
/// An inner batch leaves its squares and the counting to the outer one.
pub(crate) fn close_batch(
    world: &mut World,
    batch: Batch,
    spawned: &[Entity],
    others: usize,
    planned: &[(Square, bool)],
) {
    let free_planned = planned.iter().filter(|(_, free)| *free).map(|(at, _)| *at);
    match batch {
        Batch::Off => return,
        Batch::Inner => {
            let mut occupants = world.resource_mut::<Occupants>();
            occupants.batch.dirty = true;
            occupants.batch.inner_planned.extend(free_planned);
            return;
        }
        Batch::Outer => {}
    }
    let mut occupants = std::mem::take(&mut *world.resource_mut::<Occupants>());
    let batch = std::mem::take(&mut occupants.batch);
    let only_spawns = !batch.dirty
        && !batch.floor_changed
        && batch.arrivals.into_inner() as usize == spawned.len() + others
        && batch.departures.into_inner() == 0;
    if occupants.markers.is_none() || occupants.width == 0 {
        // The floor was forgotten meanwhile (put away or left): nothing is counted.
        *world.resource_mut::<Occupants>() = occupants;
        return;
    }
    let mut freed: Vec<Square> = if batch.floor_changed {
        Vec::new()
    } else {
        free_planned.chain(batch.inner_planned).collect()
    };
    let mut marked = Vec::with_capacity(spawned.len());
    if only_spawns {
        let mut cache = FloorQueries::take(world);
        let state = cache.standing.get_or_insert_with(|| world.query_filtered());
        let query = state.query(world);
        for &entity in spawned {
            if let Ok((at, on)) = query.get(entity)
                && on.is_none_or(|on| on.0 == occupants.floor)
                && let Some(i) = occupants.index(Square::from(*at))
                && occupants.counts.step(i, true).is_some()
            {
                marked.push(Square::from(*at));
            }
        }
        cache.put_back(world);
        freed.retain(|at| occupants.on(*at) == 0);
    } else {
        freed.extend(occupants.counts.occupied().map(|i| occupants.square(i)));
        let squares = occupants.counts.len();
        occupants.counts.reset(squares);
    }
    *world.resource_mut::<Occupants>() = occupants;
    if let Some(mut map) = world.get_resource_mut::<FloorMap>() {
        for at in freed {
            map.0.set_occupied(at, false);
        }
        // The plan marked its squares: only a creature standing elsewhere marks anew.
        for at in marked {
            if !map.0.is_occupied(at) {
                map.0.set_occupied(at, true);
            }
        }
    }
    if !only_spawns {
        count_floor(world);
    }
}
