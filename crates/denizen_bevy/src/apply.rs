//! The one apply step every rule set's plans go through, and the event each spawned
//! creature triggers.
//!
//! Rule sets plan without touching the world; their plugin turns each planned creature
//! into its own component bundle and hands the plan here. Applying marks occupancy, applies
//! tile changes, lets the rule set spawn its creatures in one batch per set of components
//! (and the floor's other entities: groups, objects), link them (a member to its group, a
//! follower to its leader), and only then triggers one [`MonsterSpawned`] per creature, so
//! an observer sees every component and every link.

use bevy_ecs::bundle::NoBundleEffect;
use bevy_ecs::prelude::*;
use bevy_ecs::relationship::Relationship;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan, Spawn};

use crate::floor::{
    Creature, CurrentFloor, FloorMap, GridPos, OnFloor, close_batch, logging_floor_ends,
    open_batch, settle_late_spawns,
};

/// Triggered on each creature once it is spawned with all its components and links;
/// observe it to decorate creatures. `origin` says where the creature came from (each
/// rule set names its own origins).
#[derive(EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct MonsterSpawned {
    /// The new creature.
    pub entity: Entity,
    /// Where it came from.
    pub origin: Origin,
}

/// The spawning half of the apply step: a rule set spawns a plan's creatures through it,
/// one batch per set of components (its "shape"), and each entity lands at its creature's
/// place in plan order. Every creature of the plan must be spawned through it; the
/// floor's other entities (groups, objects) may be too, so they share the plan's floor.
pub struct Batches<'w> {
    world: &'w mut World,
    ids: Vec<Entity>,
    /// The entities that are not creatures, spawned with the plan's.
    others: Vec<Entity>,
    /// The floor the plan is for: the current floor when applying began, whatever an
    /// observer of the spawns does to it meanwhile.
    floor: OnFloor,
}

impl Batches<'_> {
    /// Spawns one shape's creatures, given with their plan positions and squares, in one
    /// batch; each gets [`Creature`], its [`GridPos`] and its [`OnFloor`] besides its
    /// bundle.
    pub fn spawn<B>(&mut self, group: Vec<(usize, Square, B)>)
    where
        B: Bundle<Effect: NoBundleEffect>,
    {
        if group.is_empty() {
            return;
        }
        let places: Vec<usize> = group.iter().map(|(i, ..)| *i).collect();
        let floor = &self.floor;
        let bundles = group
            .into_iter()
            .map(|(_, at, bundle)| (Creature, GridPos::from(at), floor.clone(), bundle));
        for (entity, i) in self.world.spawn_batch(bundles).zip(places) {
            self.ids[i] = entity;
        }
    }

    /// Spawns entities of the floor that are not creatures (a group, an object lying on a
    /// square), one batch: each gets its [`GridPos`] and [`OnFloor`], no [`Creature`] (it
    /// marks no square) and no [`MonsterSpawned`]. They follow the plan's floor as its
    /// creatures do: put away with it, or despawned with it, if an observer of the spawns
    /// puts the floor away or despawns it. Returns them in order.
    pub fn spawn_floor_entities<B>(&mut self, entities: Vec<(Square, B)>) -> Vec<Entity>
    where
        B: Bundle<Effect: NoBundleEffect>,
    {
        let floor = &self.floor;
        let bundles = entities
            .into_iter()
            .map(|(at, bundle)| (GridPos::from(at), floor.clone(), bundle));
        let spawned: Vec<Entity> = self.world.spawn_batch(bundles).collect();
        self.others.extend_from_slice(&spawned);
        spawned
    }

    /// Links entities of the batch by a relationship `R` (a member to its group, a
    /// follower to its leader): each pair is `(source, target)`, and the links are inserted
    /// in one batch, before any [`MonsterSpawned`], so its observers see them. A pair whose
    /// source or target an observer of the spawns despawned meanwhile is skipped.
    pub fn link<R: Relationship>(&mut self, pairs: impl IntoIterator<Item = (Entity, Entity)>) {
        let world = &*self.world;
        let live: Vec<(Entity, R)> = pairs
            .into_iter()
            .filter(|&(source, target)| {
                world.get_entity(source).is_ok() && world.get_entity(target).is_ok()
            })
            .map(|(source, target)| (source, R::from(target)))
            .collect();
        self.world.insert_batch(live);
    }

    /// The world, to insert the rare components no batch carries.
    pub fn world(&mut self) -> &mut World {
        self.world
    }

    /// The entity of the creature at a plan position (once its batch is spawned).
    pub fn entity(&self, i: usize) -> Entity {
        self.ids[i]
    }
}

/// Applies a plan: tile changes and occupancy on [`FloorMap`], then `spawn` makes the
/// entities through [`Batches`] (one batch per shape, every component the rule set gives
/// its creatures, the floor's other entities, the links), then one [`MonsterSpawned`] per
/// creature in plan order. Returns the creatures in plan order.
///
/// The entities belong to the floor current when applying began. If an observer of the
/// spawns puts that floor away or despawns it, the entities spawned after go with it
/// (put away too, or despawned; a despawned creature gets no [`MonsterSpawned`]).
///
/// The plan marks its squares once; while its creatures are spawned the square hooks
/// stand aside, and the batch counts them all at the end (see [`GridPos`]): what
/// observers do meanwhile is counted too, by a recount of the floor.
pub fn apply<C>(
    world: &mut World,
    plan: Plan<C>,
    spawn: impl FnOnce(&mut Batches<'_>, Vec<Spawn<C>>),
) -> Vec<Entity> {
    let mut map = world.resource_mut::<FloorMap>();
    let planned: Vec<(Square, bool)> = plan
        .spawns
        .iter()
        .map(|s| (s.at, !map.0.is_occupied(s.at)))
        .collect();
    plan.apply_to(&mut map.0);
    let origins: Vec<Origin> = plan.spawns.iter().map(|s| s.origin).collect();
    let floor = OnFloor(world.resource::<CurrentFloor>().0.clone());
    let ids = logging_floor_ends(world, |world| {
        let mut batches = Batches {
            world,
            ids: vec![Entity::PLACEHOLDER; origins.len()],
            others: Vec::new(),
            floor,
        };
        let batch = open_batch(batches.world);
        spawn(&mut batches, plan.spawns);
        let Batches {
            world,
            ids,
            mut others,
            floor,
        } = batches;
        debug_assert!(
            !ids.contains(&Entity::PLACEHOLDER),
            "every creature of a plan is spawned"
        );
        close_batch(world, batch, &ids, others.len(), &planned);
        others.extend_from_slice(&ids);
        settle_late_spawns(world, &floor.0, &others);
        ids
    });
    // Nothing can start observing while no event is triggered, so one look suffices.
    let observed = world
        .event_key::<MonsterSpawned>()
        .is_some_and(|key| world.observers().try_get_observers(key).is_some());
    if observed {
        for (&entity, origin) in ids.iter().zip(origins) {
            if world.get_entity(entity).is_ok() {
                world.trigger(MonsterSpawned { entity, origin });
            }
        }
    }
    ids
}
