//! The one apply step every rule set's plans go through, the components every creature
//! has, and the event each spawned creature triggers.
//!
//! Rule sets plan without touching the world; their plugin turns each planned creature
//! into its own component bundle and hands the plan here. Applying marks occupancy, applies
//! tile changes, spawns every creature in one batch, lets the rule set insert its optional
//! components, and only then triggers one [`MonsterSpawned`] per creature, so an observer
//! sees every component.

use bevy_ecs::bundle::NoBundleEffect;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;
use denizen_core::plan::{Origin, Plan};
use serde::{Deserialize, Serialize};

use crate::floor::FloorMap;

/// Marks a creature of any rule set; it brings the square and the glyph every creature has.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
#[require(GridPos, Glyph)]
pub struct Creature;

/// The square a creature stands on.
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

/// Triggered on each creature once it is spawned with all its components; observe it to
/// decorate creatures. `origin` says where the creature came from.
#[derive(EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct MonsterSpawned {
    /// The new creature.
    pub entity: Entity,
    /// Where it came from.
    pub origin: Origin,
}

/// Applies a plan whose creatures are component bundles: tile changes and occupancy on
/// [`FloorMap`], one batch of entities (each with [`Creature`] and its [`GridPos`]), then
/// `finish` for each new entity in plan order (the rule set's optional components), then
/// one [`MonsterSpawned`] per creature in plan order. Returns the entities in plan order.
#[cfg_attr(not(any(feature = "omega", feature = "captive")), allow(dead_code))]
pub(crate) fn apply<B>(
    world: &mut World,
    plan: Plan<B>,
    mut finish: impl FnMut(&mut World, usize, Entity),
) -> Vec<Entity>
where
    B: Bundle<Effect: NoBundleEffect>,
{
    plan.apply_to(&mut world.resource_mut::<FloorMap>().0);
    let origins: Vec<Origin> = plan.spawns.iter().map(|s| s.origin).collect();
    let bundles = plan
        .spawns
        .into_iter()
        .map(|s| (Creature, GridPos::from(s.at), s.creature));
    let ids: Vec<Entity> = world.spawn_batch(bundles).collect();
    for (i, &entity) in ids.iter().enumerate() {
        finish(world, i, entity);
    }
    for (&entity, origin) in ids.iter().zip(origins) {
        world.trigger(MonsterSpawned { entity, origin });
    }
    ids
}
