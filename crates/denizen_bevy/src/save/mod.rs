//! Saves: everything the plugins own (their state resources, every creature and group with
//! all their components and relationships), written as RON through reflection and read
//! back into a world whose plugins are already added.
//!
//! What is saved is found, not listed: every reflected resource and every reflected
//! component of an entity that has an [`OnFloor`], of a `denizen_bevy` type or of a type
//! a game's own rule set added with [`SaveWithDenizen::save_with_denizen`]. A game's
//! other components are its own to save; [`load`] returns the map from saved to new
//! entities to put them back on. The rule sets themselves (`OmegaRuleset`,
//! `CaptiveRuleset`, `AngbandRuleset`) are not reflected as resources: they are rebuilt
//! from data by the plugins, so a save never holds a bestiary or a switch.
//!
//! # The format
//!
//! A save is plain nested RON that a person can read, diff and mend: a format number
//! ([`SAVE_FORMAT`]), the resources keyed by type path, and the entities keyed by their id
//! in the saved world, each with its components keyed by type path. Every value is written
//! in place, and everything is in a fixed order (paths and ids sorted, the ledgers and the
//! stored floors kept in order), so the same world always gives the same bytes. Floors are
//! saved as rows of tile glyphs and Angband's terrain as rows of hexadecimal codes. A save
//! of another format is refused with [`SaveError::Version`], naming both.
//!
//! Entities keep their ids while a game runs, so two saves of one session differ only where
//! the game did. Loading gives the saved entities new ones (Bevy hands out entity ids; a
//! world cannot take back the saved ones safely), and [`load`] returns which is which: a
//! world loaded and saved again writes the same values under its new ids.
//!
//! ```ron
//! (
//!     format: 1,
//!     resources: {
//!         "denizen_bevy::clock::GameClock": (minutes: 300, ...),
//!     },
//!     entities: {
//!         4294967312: {
//!             "denizen_bevy::floor::GridPos": (x: 3, y: 4),
//!         },
//!     },
//! )
//! ```
//!
//! # Beside a game's own save
//!
//! A game that saves its own world through reflection (in Bevy 0.20 that is
//! `bevy_world_serialization`'s `DynamicWorld`, which was `bevy_scene`'s `DynamicScene`)
//! keeps both parts in one file without nesting one text in another: both are RON, so a
//! game's save type holds each as a `ron::value::RawValue` (`Box<RawValue>` fields, made
//! with `RawValue::from_boxed_ron`). Loading puts denizen's part back first; [`load`]
//! returns the new entity of every saved one, and that map handed to the game's
//! `DynamicWorld::write_to_world` puts its components on the same creatures (its entities
//! are the saved world's, as denizen's are). The test `a_game_world_rides_beside_the_save`
//! in this crate's `tests/world_serialization.rs` does exactly this.

mod checks;
mod format;

use std::any::{Any, TypeId};
use std::collections::HashSet;

use bevy_app::App;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource};
use bevy_ecs::relationship::RelationshipHookMode;
use bevy_reflect::{GetTypeRegistration, TypeRegistration};

use crate::floor::{Creature, CurrentFloor, FloorMap, GridPos, OnFloor, enter_floor};
pub use format::SAVE_FORMAT;

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
    /// The save is of another format than this build reads (a save of an older denizen,
    /// which held no format, is format 0).
    #[error("the save is format {found}, but this build of denizen reads format {supported}")]
    Version {
        /// The save's format.
        found: u32,
        /// The one format this build reads ([`SAVE_FORMAT`]).
        supported: u32,
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

/// Writes everything the plugins own as RON (see [the format](self#the-format)): the same
/// world always gives the same text.
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
            resources.push((path_of(registration), value.as_partial_reflect()));
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
                components.push((path_of(registration), value.as_partial_reflect()));
            }
        }
        entities.push((entity.id().to_bits(), components));
    }
    format::write(resources, entities, &registry)
}

/// A registered type's path, as the save keys its values.
fn path_of(registration: &TypeRegistration) -> &'static str {
    registration.type_info().type_path()
}

/// Replaces everything the plugins own with a save: its resources, and its creatures and
/// groups (the world's own are despawned first), relationships remapped to the new
/// entities, occupancy recounted. The whole save is read before the world changes: an
/// error leaves the world as it was. Returns each saved entity's new entity, so a game
/// restores its own components (saved beside this) on the right creatures.
pub fn load(world: &mut World, text: &str) -> Result<EntityHashMap<Entity>, SaveError> {
    let registry = world.resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let format::SavedWorld {
        resources,
        entities,
    } = format::read(text, &registry)?;
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
    checks::check_state(world, &registry, &resources, &entities)?;

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
