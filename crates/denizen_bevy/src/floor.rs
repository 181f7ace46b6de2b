//! Floors and the creatures on them: the current floor every rule set places its creatures
//! on, the components every creature has (its square, its glyph, its floor), occupancy
//! that follows creatures by itself, and floors put away and brought back when the player
//! returns.

use std::collections::HashMap;

use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::world::DeferredWorld;
use bevy_reflect::prelude::*;
use denizen_core::floor::{FloorGrid, Square};
use serde::{Deserialize, Serialize};

/// Marks a creature of any rule set; it brings the square and the glyph every creature has.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
#[require(GridPos, Glyph)]
pub struct Creature;

/// The square a creature stands on. Immutable: a creature moves by inserting a new
/// `GridPos` (`commands.entity(e).insert(GridPos { x, y })`), and its hooks keep
/// [`FloorMap`]'s occupied squares right on every insert, move and despawn, so no square
/// is ever left marked by a creature that is gone.
#[derive(
    Component,
    Reflect,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
#[component(
    immutable,
    on_insert = occupy,
    on_discard = vacate
)]
pub struct GridPos {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl From<Square> for GridPos {
    fn from(at: Square) -> Self {
        Self { x: at.x, y: at.y }
    }
}

impl From<GridPos> for Square {
    fn from(at: GridPos) -> Self {
        Self { x: at.x, y: at.y }
    }
}

/// The character a text map draws for the creature, as its rule set gives it.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glyph(pub char);

impl Default for Glyph {
    fn default() -> Self {
        Self('?')
    }
}

/// The current floor: tiles, rooms and occupied squares. The host fills it, then asks a
/// rule set to populate it. Creatures of the current floor mark their squares themselves
/// (see [`GridPos`]); the host may mark squares of its own (the player) with
/// `set_occupied`.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorMap(pub FloorGrid);

/// Which floor: a place and a depth, such as Omega's `sewers` at 3, or Captive's `base` at
/// map 12.
#[derive(Reflect, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Default, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct FloorId {
    /// The place (a location key).
    pub location: String,
    /// The depth (1 outside dungeons; a Captive map number).
    pub depth: u32,
}

impl FloorId {
    /// The floor at `depth` of `location`.
    pub fn new(location: impl Into<String>, depth: u32) -> Self {
        Self {
            location: location.into(),
            depth,
        }
    }
}

/// The floor a creature (or an encounter group) belongs to: every entity the plugins spawn
/// has one, naming the [`CurrentFloor`] of the moment.
#[derive(
    Component, Reflect, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnFloor(pub FloorId);

/// The floor [`FloorMap`] holds. A rule set's floor request sets it; creatures on it mark
/// their squares, creatures of other floors do not.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurrentFloor(pub FloorId);

/// Marks the creatures of a floor that was put away ([`put_floor_away`]): they keep
/// every component and relationship but belong to no map until the floor is brought
/// back. A game's own systems skip them with `Without<Dormant>`.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dormant;

/// How many creatures of the current floor stand on each square: a square stays marked
/// in [`FloorMap`] while any does. Derived from the creatures (rebuilt when the current
/// floor changes), so never saved: it is reflected as a value, not as a resource a save
/// or a scene would extract.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub struct Occupants(HashMap<Square, u32>);

impl Occupants {
    /// Creatures of the current floor on a square.
    pub fn on(&self, at: Square) -> u32 {
        self.0.get(&at).copied().unwrap_or(0)
    }
}

/// The floors put away, each with its map: brought back by [`bring_floor_back`].
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredFloors(pub HashMap<FloorId, FloorGrid>);

/// Hook of [`GridPos`]: a creature arrives on its square.
pub(crate) fn occupy(mut world: DeferredWorld, context: HookContext) {
    mark(&mut world, context.entity, true);
}

/// Hook of [`GridPos`]: a creature leaves its square (it moves, loses its square or is
/// despawned).
pub(crate) fn vacate(mut world: DeferredWorld, context: HookContext) {
    mark(&mut world, context.entity, false);
}

/// Counts a creature of the current floor in or out of its square and keeps the square's
/// mark in [`FloorMap`].
fn mark(world: &mut DeferredWorld, entity: Entity, arrives: bool) {
    let Ok(creature) = world.get_entity(entity) else {
        return;
    };
    let (Some(at), true, false) = (
        creature.get::<GridPos>().copied(),
        creature.contains::<Creature>(),
        creature.contains::<Dormant>(),
    ) else {
        return;
    };
    let on_current = match (
        creature.get::<OnFloor>(),
        world.get_resource::<CurrentFloor>(),
    ) {
        (Some(on), Some(current)) => on.0 == current.0,
        _ => true,
    };
    if !on_current {
        return;
    }
    let square = Square::from(at);
    let Some(mut occupants) = world.get_resource_mut::<Occupants>() else {
        return;
    };
    let count = occupants.0.entry(square).or_insert(0);
    *count = if arrives {
        count.saturating_add(1)
    } else {
        count.saturating_sub(1)
    };
    let occupied = *count > 0;
    if !occupied {
        occupants.0.remove(&square);
    }
    if let Some(mut map) = world.get_resource_mut::<FloorMap>() {
        map.0.set_occupied(square, occupied);
    }
}

/// Makes `floor` the current one: recounts the squares its creatures stand on and marks
/// them in [`FloorMap`] (a floor just filled, brought back or loaded from a save).
pub fn enter_floor(world: &mut World, floor: FloorId) {
    world.insert_resource(CurrentFloor(floor.clone()));
    let mut query =
        world.query_filtered::<(&GridPos, Option<&OnFloor>), (With<Creature>, Without<Dormant>)>();
    let mut counts: HashMap<Square, u32> = HashMap::new();
    for (at, on) in query.iter(world) {
        if on.is_none_or(|on| on.0 == floor) {
            *counts.entry(Square::from(*at)).or_insert(0) += 1;
        }
    }
    if let Some(mut map) = world.get_resource_mut::<FloorMap>() {
        for &square in counts.keys() {
            map.0.set_occupied(square, true);
        }
    }
    world.insert_resource(Occupants(counts));
}

/// Despawns every entity of `floor` (its creatures and encounter groups); their squares
/// are freed if it is the current floor. Returns how many were despawned.
pub fn despawn_floor(world: &mut World, floor: &FloorId) -> usize {
    let mut query = world.query::<(Entity, &OnFloor)>();
    let doomed: Vec<Entity> = query
        .iter(world)
        .filter(|(_, on)| on.0 == *floor)
        .map(|(e, _)| e)
        .collect();
    for &entity in &doomed {
        world.despawn(entity);
    }
    doomed.len()
}

/// Puts the current floor away for a return later: its map is kept in [`StoredFloors`]
/// and its creatures become [`Dormant`] (every component, relationship and possession
/// kept). The host then fills [`FloorMap`] with the next floor. Several floors can be
/// stored at once; storing a floor again replaces its map.
pub fn put_floor_away(world: &mut World) -> FloorId {
    let floor = world.resource::<CurrentFloor>().0.clone();
    // The map is stored without its creatures' marks: they mark their squares again when
    // the floor comes back, so one despawned meanwhile leaves no stale square.
    let mut map = world.resource::<FloorMap>().0.clone();
    for &square in world.resource::<Occupants>().0.keys() {
        map.set_occupied(square, false);
    }
    world
        .get_resource_or_insert_with(StoredFloors::default)
        .0
        .insert(floor.clone(), map);
    let mut query = world.query_filtered::<(Entity, &OnFloor), Without<Dormant>>();
    let sleepers: Vec<Entity> = query
        .iter(world)
        .filter(|(_, on)| on.0 == floor)
        .map(|(e, _)| e)
        .collect();
    for entity in sleepers {
        world.entity_mut(entity).insert(Dormant);
    }
    world.insert_resource(Occupants::default());
    floor
}

/// Brings a stored floor back as the current one: its map into [`FloorMap`], its creatures
/// awake from [`Dormant`] on their squares. `false` (and nothing changed) when the floor
/// was never stored.
pub fn bring_floor_back(world: &mut World, floor: &FloorId) -> bool {
    let Some(map) = world
        .get_resource_mut::<StoredFloors>()
        .and_then(|mut stored| stored.0.remove(floor))
    else {
        return false;
    };
    world.insert_resource(FloorMap(map));
    let mut query = world.query_filtered::<(Entity, &OnFloor), With<Dormant>>();
    let waking: Vec<Entity> = query
        .iter(world)
        .filter(|(_, on)| on.0 == *floor)
        .map(|(e, _)| e)
        .collect();
    for entity in waking {
        world.entity_mut(entity).remove::<Dormant>();
    }
    enter_floor(world, floor.clone());
    true
}
