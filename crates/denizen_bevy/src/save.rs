//! Saves: everything the plugins own (their state resources, every creature and group with
//! all their components and relationships), written as RON through reflection and read
//! back into a world whose plugins are already added.
//!
//! What is saved is found, not listed: every reflected resource and every reflected
//! component of an entity that has an [`OnFloor`], of a `denizen_bevy` type or of a type
//! a game's own rule set added with [`SaveWithDenizen::save_with_denizen`]. A game's
//! other components are its own to save; [`load`] returns the map from saved to new
//! entities to put them back on. The rule sets
//! themselves (`OmegaRuleset`, `CaptiveRuleset`) are not reflected as resources: they are
//! rebuilt from data by the plugins, so a save never holds a bestiary. A game saves its
//! own state beside this one.

use std::any::{Any, TypeId};
use std::collections::HashSet;

use bevy_app::App;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource};
use bevy_ecs::relationship::RelationshipHookMode;
use bevy_reflect::serde::{TypedReflectDeserializer, TypedReflectSerializer};
use bevy_reflect::{
    FromReflect, GetTypeRegistration, PartialReflect, ReflectRef, TypeRegistration, TypeRegistry,
};
use serde::de::DeserializeSeed;
use serde::{Deserialize, Serialize};

use crate::clock::GameClock;
use crate::floor::{
    Creature, CurrentFloor, Dormant, FloorId, FloorMap, GridPos, OnFloor, StoredFloors, enter_floor,
};

/// Why a save could not be written or read. Reading checks the whole save before changing
/// the world: a save that fails changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// A value could not be written.
    #[error("cannot write `{type_path}`: {message}")]
    Write {
        /// The value's type.
        type_path: String,
        /// What serde said.
        message: String,
    },
    /// The save is not a save, or a value in it does not read back.
    #[error("cannot read the save{}: {message}", type_path.as_ref().map(|t| format!(" at `{t}`")).unwrap_or_default())]
    Read {
        /// The value's type, when the problem is in one.
        type_path: Option<String>,
        /// What went wrong.
        message: String,
    },
    /// The save names a type this world does not know (a save of other plugins or
    /// features).
    #[error("the save holds `{0}`, which this world's plugins do not register")]
    UnknownType(String),
    /// The save holds state no game can be in: a creature off its floor's map, a creature
    /// awake off the current floor or put away on a floor not stored, a current floor
    /// also put away, a clock that has checked boundaries it has not reached, a link to an
    /// entity the save does not hold.
    #[error("the save holds an impossible `{type_path}`: {message}")]
    Impossible {
        /// The value's type.
        type_path: &'static str,
        /// What cannot be.
        message: String,
    },
}

/// A value read from a save, with its type.
type ReadValue = (TypeId, Box<dyn PartialReflect>);

/// The save's first value of type `T`, if it holds one that reads as `T`.
fn first<T: FromReflect>(values: &[ReadValue]) -> Option<T> {
    values
        .iter()
        .find(|(type_id, _)| *type_id == TypeId::of::<T>())
        .and_then(|(_, value)| T::from_reflect(value.as_ref()))
}

/// Checks what a save holds against itself before the world changes (see
/// [`SaveError::Impossible`]).
fn check_state(
    world: &World,
    registry: &TypeRegistry,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    check_clock(resources)?;
    check_floors(world, resources, entities)?;
    check_squares(world, resources, entities)?;
    check_links(registry, entities)
}

/// The clock has checked no boundary it has not reached.
fn check_clock(resources: &[ReadValue]) -> Result<(), SaveError> {
    match first::<GameClock>(resources) {
        Some(clock) if clock.boundaries_checked > clock.minutes / 10 => {
            Err(SaveError::Impossible {
                type_path: "GameClock",
                message: format!(
                    "{} ten-minute boundaries checked at minute {}, which has passed only {}",
                    clock.boundaries_checked,
                    clock.minutes,
                    clock.minutes / 10
                ),
            })
        }
        _ => Ok(()),
    }
}

/// Every creature of the current floor stands on its map (the save's own, or the
/// world's when the save has none).
fn check_squares(
    world: &World,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    let map = saved_or_current::<FloorMap>(world, resources);
    let current = saved_or_current::<CurrentFloor>(world, resources);
    let (Some(map), Some(current)) = (map, current) else {
        return Ok(());
    };
    let (width, height) = (map.0.width(), map.0.height());
    for (id, components) in entities {
        let here = first::<OnFloor>(components).is_some_and(|on| on.0 == current.0);
        if let Some(at) = first::<GridPos>(components)
            && here
            && (at.x >= width || at.y >= height)
        {
            return Err(SaveError::Impossible {
                type_path: "GridPos",
                message: format!(
                    "entity {id} stands at ({}, {}), off the {width} x {height} floor it is on",
                    at.x, at.y
                ),
            });
        }
    }
    Ok(())
}

/// The save's value of resource `T`, or else the world's (a save need not hold them all).
fn saved_or_current<T: Resource + FromReflect + Clone>(
    world: &World,
    resources: &[ReadValue],
) -> Option<T> {
    first::<T>(resources).or_else(|| world.get_resource::<T>().cloned())
}

/// Floor changes keep only the current floor's creatures awake and every put-away
/// creature's floor stored (see [`put_floor_away`](crate::floor::put_floor_away)), so no
/// save holds a creature awake on another floor or put away on a floor not stored. A
/// creature spawned while no floor was current (an arena bout on a host's own map)
/// belongs to no floor and is left alone. The current floor is never also stored.
fn check_floors(
    world: &World,
    resources: &[ReadValue],
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    let current = saved_or_current::<CurrentFloor>(world, resources).unwrap_or_default();
    let stored = saved_or_current::<StoredFloors>(world, resources).unwrap_or_default();
    let named = |floor: &FloorId| format!("`{} {}`", floor.location, floor.depth);
    let impossible = |type_path, message| Err(SaveError::Impossible { type_path, message });
    if current.0 != FloorId::default() && stored.0.contains_key(&current.0) {
        return impossible(
            "CurrentFloor",
            format!("the current floor {} is also put away", named(&current.0)),
        );
    }
    for (id, components) in entities {
        let Some(on) = first::<OnFloor>(components) else {
            continue;
        };
        let dormant = components
            .iter()
            .any(|(type_id, _)| *type_id == TypeId::of::<Dormant>());
        if dormant && !stored.0.contains_key(&on.0) {
            return impossible(
                "Dormant",
                format!(
                    "entity {id} is put away on {}, which is not a stored floor",
                    named(&on.0)
                ),
            );
        }
        if !dormant && on.0 != current.0 && on.0 != FloorId::default() {
            return impossible(
                "OnFloor",
                format!(
                    "entity {id} is awake on {}, but the current floor is {}",
                    named(&on.0),
                    named(&current.0)
                ),
            );
        }
    }
    Ok(())
}

/// Every entity a saved component names is one of the save's.
fn check_links(
    registry: &TypeRegistry,
    entities: &[(u64, Vec<ReadValue>)],
) -> Result<(), SaveError> {
    let saved: HashSet<u64> = entities.iter().map(|(id, _)| *id).collect();
    for (id, components) in entities {
        for (type_id, value) in components {
            let mut linked = Vec::new();
            entities_in(value.as_ref(), &mut linked);
            if let Some(missing) = linked.iter().find(|e| !saved.contains(&e.to_bits())) {
                let type_path = registry
                    .get(*type_id)
                    .map_or("?", |r| r.type_info().type_path_table().short_path());
                return Err(SaveError::Impossible {
                    type_path: "a link",
                    message: format!(
                        "entity {id}'s `{type_path}` names entity {}, which the save does not hold",
                        missing.to_bits()
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Every [`Entity`] a reflected value holds, however deep.
fn entities_in(value: &dyn PartialReflect, found: &mut Vec<Entity>) {
    if let Some(entity) = value.try_downcast_ref::<Entity>() {
        found.push(*entity);
        return;
    }
    match value.reflect_ref() {
        ReflectRef::Struct(s) => s.iter_fields().for_each(|(_, f)| entities_in(f, found)),
        ReflectRef::TupleStruct(s) => s.iter_fields().for_each(|f| entities_in(f, found)),
        ReflectRef::Tuple(t) => t.iter_fields().for_each(|f| entities_in(f, found)),
        ReflectRef::List(l) => l.iter().for_each(|f| entities_in(f, found)),
        ReflectRef::Array(a) => a.iter().for_each(|f| entities_in(f, found)),
        ReflectRef::Set(s) => s.iter().for_each(|f| entities_in(f, found)),
        ReflectRef::Map(m) => m.iter().for_each(|(k, v)| {
            entities_in(k, found);
            entities_in(v, found);
        }),
        ReflectRef::Enum(e) => e.iter_fields().for_each(|f| entities_in(f.value(), found)),
        _ => {}
    }
}

/// One reflected value: its type and its RON text.
#[derive(Serialize, Deserialize)]
struct Value {
    type_path: String,
    ron: String,
}

/// An entity of the save with its components.
#[derive(Serialize, Deserialize)]
struct SavedEntity {
    id: u64,
    components: Vec<Value>,
}

/// The save as written.
#[derive(Serialize, Deserialize)]
struct SaveFile {
    resources: Vec<Value>,
    entities: Vec<SavedEntity>,
}

/// The types a save holds besides the plugins' own: a game's own rule set's components
/// and state resources, added with [`SaveWithDenizen::save_with_denizen`]. Not saved
/// itself (it is configuration).
#[derive(Resource, Clone, Debug, Default)]
pub struct SavedTypes(HashSet<TypeId>);

impl SavedTypes {
    /// Whether values of this type are saved.
    pub fn contains(&self, type_id: TypeId) -> bool {
        self.0.contains(&type_id)
    }
}

/// Adds a game's own types to what [`save`] writes.
pub trait SaveWithDenizen {
    /// Registers `T` for reflection and saves it with the plugins' own state: a reflected
    /// component (`#[reflect(Component)]`) of every creature that has one, or a reflected
    /// resource (`#[reflect(Resource)]`).
    fn save_with_denizen<T: GetTypeRegistration + Any>(&mut self) -> &mut Self;
}

impl SaveWithDenizen for App {
    fn save_with_denizen<T: GetTypeRegistration + Any>(&mut self) -> &mut Self {
        self.register_type::<T>();
        self.world_mut()
            .get_resource_or_insert_with(SavedTypes::default)
            .0
            .insert(TypeId::of::<T>());
        self
    }
}

/// The plugins' own types (a game's crate named `denizen_something` is not ours), and
/// those added to [`SavedTypes`].
fn ours(registration: &TypeRegistration, saved: Option<&SavedTypes>) -> bool {
    registration
        .type_info()
        .type_path()
        .starts_with("denizen_bevy::")
        || saved.is_some_and(|saved| saved.contains(registration.type_id()))
}

fn write(value: &dyn PartialReflect, registry: &TypeRegistry) -> Result<Value, SaveError> {
    let type_path = value
        .get_represented_type_info()
        .map_or("?", |info| info.type_path())
        .to_owned();
    let ron = ron::to_string(&TypedReflectSerializer::new(value, registry)).map_err(|e| {
        SaveError::Write {
            type_path: type_path.clone(),
            message: e.to_string(),
        }
    })?;
    Ok(Value { type_path, ron })
}

/// Writes everything the plugins own as RON.
pub fn save(world: &World) -> Result<String, SaveError> {
    let registry = world.resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let saved = world.get_resource::<SavedTypes>();
    let mut resources = Vec::new();
    for (id, entity) in world.resource_entities().iter() {
        let Some(type_id) = world.components().get_info(id).and_then(|i| i.type_id()) else {
            continue;
        };
        let Some(registration) = registry.get(type_id) else {
            continue;
        };
        if registration.data::<ReflectResource>().is_none() || !ours(registration, saved) {
            continue;
        }
        if let Ok(value) = world.get_reflect(entity, type_id) {
            resources.push(write(value.as_partial_reflect(), &registry)?);
        }
    }
    let mut entities = Vec::new();
    for entity in world.iter_entities() {
        if !entity.contains::<OnFloor>() {
            continue;
        }
        let mut components = Vec::new();
        for id in entity.archetype().components() {
            let Some(type_id) = world.components().get_info(*id).and_then(|i| i.type_id()) else {
                continue;
            };
            let Some(registration) = registry.get(type_id) else {
                continue;
            };
            if registration.data::<ReflectComponent>().is_none() || !ours(registration, saved) {
                continue;
            }
            if let Ok(value) = world.get_reflect(entity.id(), type_id) {
                components.push(write(value.as_partial_reflect(), &registry)?);
            }
        }
        entities.push(SavedEntity {
            id: entity.id().to_bits(),
            components,
        });
    }
    ron::to_string(&SaveFile {
        resources,
        entities,
    })
    .map_err(|e| SaveError::Write {
        type_path: "the save".into(),
        message: e.to_string(),
    })
}

/// Reads one value back.
fn read(
    value: &Value,
    registry: &TypeRegistry,
) -> Result<(std::any::TypeId, Box<dyn PartialReflect>), SaveError> {
    let registration = registry
        .get_with_type_path(&value.type_path)
        .ok_or_else(|| SaveError::UnknownType(value.type_path.clone()))?;
    let mut deserializer =
        ron::Deserializer::from_str(&value.ron).map_err(|e| SaveError::Read {
            type_path: Some(value.type_path.clone()),
            message: e.to_string(),
        })?;
    let read = TypedReflectDeserializer::new(registration, registry)
        .deserialize(&mut deserializer)
        .map_err(|e| SaveError::Read {
            type_path: Some(value.type_path.clone()),
            message: e.to_string(),
        })?;
    Ok((registration.type_id(), read))
}

/// Replaces everything the plugins own with a save: its resources, and its creatures and
/// groups (the world's own are despawned first), relationships remapped to the new
/// entities, occupancy recounted. The whole save is read before the world changes: an
/// error leaves the world as it was. Returns each saved entity's new entity, so a game
/// restores its own components (saved beside this) on the right creatures.
pub fn load(world: &mut World, text: &str) -> Result<EntityHashMap<Entity>, SaveError> {
    let file: SaveFile = ron::from_str(text).map_err(|e| SaveError::Read {
        type_path: None,
        message: e.to_string(),
    })?;
    let registry = world.resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let resources = file
        .resources
        .iter()
        .map(|v| read(v, &registry))
        .collect::<Result<Vec<_>, _>>()?;
    let entities = file
        .entities
        .iter()
        .map(|e| {
            let components = e
                .components
                .iter()
                .map(|v| read(v, &registry))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((e.id, components))
        })
        .collect::<Result<Vec<_>, SaveError>>()?;
    for (type_id, _) in resources.iter().chain(entities.iter().flat_map(|e| &e.1)) {
        let known = world.components().get_id(*type_id).is_some()
            || registry
                .get(*type_id)
                .is_some_and(|r| r.data::<ReflectComponent>().is_some());
        if !known {
            let path = registry
                .get(*type_id)
                .map_or("?", |r| r.type_info().type_path());
            return Err(SaveError::UnknownType(path.to_owned()));
        }
    }
    check_state(world, &registry, &resources, &entities)?;

    let mut ours = world.query_filtered::<Entity, With<OnFloor>>();
    let old: Vec<Entity> = ours.iter(world).collect();
    for entity in old {
        let _ = world.try_despawn(entity);
    }
    for (type_id, value) in resources {
        let id = registry
            .get(type_id)
            .and_then(|r| r.data::<ReflectComponent>())
            .map(|c| c.register_component(world));
        if let Some(id) = id {
            world.insert_reflect_resource(id, value);
        }
    }
    // The saved map already marks the creatures' squares; inserting their components
    // below runs the square hooks in whatever order components bring each other, so the
    // saved map is put back afterwards.
    let saved_map = world.get_resource::<FloorMap>().cloned();
    let mut map: EntityHashMap<Entity> = EntityHashMap::default();
    for (id, _) in &entities {
        if let Some(saved) = Entity::try_from_bits(*id) {
            map.insert(saved, world.spawn_empty().id());
        }
    }
    // The square before the creature marker, so the marker finds its square instead of
    // bringing a default one.
    let order = |type_id: &std::any::TypeId| {
        use std::any::TypeId;
        if *type_id == TypeId::of::<GridPos>() {
            1
        } else if *type_id == TypeId::of::<Creature>() {
            2
        } else {
            0
        }
    };
    for (id, mut components) in entities {
        let Some(new) = Entity::try_from_bits(id).and_then(|saved| map.get(&saved).copied()) else {
            continue;
        };
        components.sort_by_key(|(type_id, _)| order(type_id));
        for (type_id, value) in components {
            if let Some(component) = registry
                .get(type_id)
                .and_then(|r| r.data::<ReflectComponent>())
            {
                component.apply_or_insert_mapped(
                    &mut world.entity_mut(new),
                    value.as_ref(),
                    &registry,
                    &mut map,
                    RelationshipHookMode::Skip,
                );
            }
        }
    }
    drop(registry);
    if let Some(saved_map) = saved_map {
        world.insert_resource(saved_map);
    }
    let floor = world.resource::<CurrentFloor>().0.clone();
    enter_floor(world, floor);
    Ok(map)
}
