//! Saves: everything the plugins own (their state resources, every creature and group with
//! all their components and relationships), written as RON through reflection and read
//! back into a world whose plugins are already added.
//!
//! What is saved is registered, by every plugin alike: the resources and components of
//! every type added with [`SaveWithDenizen::save_with_denizen`] (the neutral plugin's
//! floors, clock and ledger, each rule set's state and components, a game's own), the
//! components taken from every entity that has an [`OnFloor`]. A game's other components
//! are its own to save; [`load`] returns the map from saved to new entities to put them
//! back on. The rules resources (`OmegaRuleset`, ...) are not saved: they are rebuilt from
//! data by the plugins, so a save never holds a bestiary or a switch. After a load,
//! [`SaveLoaded`] lets each rule set check its own state against its rules.
//!
//! # The format
//!
//! A save is plain nested RON that a person can read, diff and mend: a format number
//! ([`SAVE_FORMAT`]), the resources keyed by type path, and the entities keyed by their
//! number in the save, each with its components keyed by type path. Every value is written
//! in place, and everything is in a fixed order (paths sorted, the ledgers and the stored
//! floors kept in order), so equal worlds give the same bytes. Floors are saved as rows of
//! tile glyphs and Angband's terrain as rows of hexadecimal codes. A save of another format
//! is refused with [`SaveError::Version`], naming both.
//!
//! Entities are numbered 1, 2, 3, ... in a canonical order (by their components' values,
//! the floor and square among them, and for entities alike in those, by what they link to
//! and what links to them), never by the ids Bevy gave them or the order they were
//! spawned in, and a link between
//! entities (a member's group) names the number of the entity it links to: a world and the
//! same world loaded from its save write the same bytes. Loading gives the saved entities
//! new ids, and [`load`] returns which is which.
//!
//! ```ron
//! (
//!     format: 2,
//!     resources: {
//!         "denizen_bevy::clock::GameClock": (minutes: 300, ...),
//!     },
//!     entities: {
//!         1: {
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
//! with `RawValue::from_boxed_ron`). [`save_numbered`] also returns each entity's number in
//! the save, which the game gives its `DynamicWorld`'s entities before writing it. Loading
//! puts denizen's part back first; [`load`] returns the new entity of every saved one, and
//! that map handed to the game's `DynamicWorld::write_to_world` puts its components on the
//! same creatures. The facade's test `a_game_world_rides_beside_the_save`
//! (`crates/denizen_tests/tests/integration/world_serialization.rs`) does exactly this.

mod checks;
mod contents;
mod format;
mod legacy;
mod links;
mod numbering;

pub use contents::{SaveCheck, SaveChecks, SaveContents};
pub(crate) use legacy::MakerGuesses;
pub use legacy::{GuessFrom, MakerGuess};

use std::any::{Any, TypeId};
use std::collections::HashSet;
use std::sync::Arc;

use bevy_app::App;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use bevy_ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource};
use bevy_ecs::relationship::RelationshipHookMode;
use bevy_reflect::std_traits::ReflectDefault;
use bevy_reflect::{GetTypeRegistration, PartialReflect, Reflect, TypeRegistration, TypeRegistry};

use crate::floor::{Creature, CurrentFloor, FloorMakers, FloorMap, GridPos, OnFloor, enter_floor};
pub use format::{OLDEST_SAVE_FORMAT, SAVE_FORMAT};

/// Saved text as an error shows it: control characters escaped and at most 400 bytes, so
/// a save holding a name megabytes long or with a newline still gives one short line.
fn shown(text: &str) -> String {
    denizen_core::data::excerpt(text, 400)
}

/// Why a save could not be written or read. Reading checks the whole save before changing
/// the world: a save that fails changes nothing.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// A value could not be written.
    #[error("cannot write `{}`: {}", shown(.type_path), shown(.message))]
    Write {
        /// The value's type.
        type_path: String,
        /// What serde said.
        message: String,
    },
    /// The save is not a save, or a value in it does not read back.
    #[error("cannot read the save{}: {}", .type_path.as_ref().map(|t| format!(" at `{}`", shown(t))).unwrap_or_default(), shown(.message))]
    Read {
        /// The value's type, when the problem is in one.
        type_path: Option<String>,
        /// What went wrong.
        message: String,
    },
    /// The save is of another format than this build reads (a save of an older denizen,
    /// which held no format, is format 0).
    #[error(
        "the save is format {found}, but this build of denizen reads formats {OLDEST_SAVE_FORMAT} to {supported}"
    )]
    Version {
        /// The save's format.
        found: u32,
        /// The newest format this build reads ([`SAVE_FORMAT`]); it reads back to
        /// [`OLDEST_SAVE_FORMAT`].
        supported: u32,
    },
    /// The save names a type this world does not know (a save of other plugins or
    /// features).
    #[error("the save holds `{}`, which this world's plugins do not register", shown(.0))]
    UnknownType(String),
    /// The save holds state no game can be in: a creature off its floor's map, a creature
    /// awake off the current floor or put away on a floor not stored, a current floor
    /// also put away, a clock that has checked boundaries it has not reached, a link to an
    /// entity the save does not hold.
    #[error("the save holds an impossible `{type_path}`: {}", shown(.message))]
    Impossible {
        /// The value's type.
        type_path: &'static str,
        /// What cannot be.
        message: String,
    },
}

/// The types a save holds: every rule set's components and state resources (the neutral
/// plugin's, each shipped rule set's, a game's own), added with
/// [`SaveWithDenizen::save_with_denizen`]. Not saved itself (it is configuration).
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(opaque, Debug)]
pub struct SavedTypes(HashSet<TypeId>);

impl SavedTypes {
    /// Whether values of this type are saved.
    pub fn contains(&self, type_id: TypeId) -> bool {
        self.0.contains(&type_id)
    }
}

/// Adds a rule set's (or a game's) types to what [`save`] writes.
pub trait SaveWithDenizen {
    /// Registers `T` for reflection and saves it: a reflected component
    /// (`#[reflect(Component)]`) of every entity of a floor that has one, or a reflected
    /// resource (`#[reflect(Resource)]`).
    fn save_with_denizen<T: GetTypeRegistration + Any>(&mut self) -> &mut Self;

    /// Adds a check [`load`] runs on every save before it changes the world (after its own:
    /// squares, floors, clock, links): a rule set refuses what no game of its rules can be
    /// in (ids its rules do not have, relationships that do not match), naming the type and
    /// the entity.
    fn check_saves_with(&mut self, check: SaveCheck) -> &mut Self;

    /// Says which floors of a save that keeps no makers (one from before format 5) the
    /// rule set of `name` took for its own then, so [`load`] gives them that maker.
    fn guess_makers_with(
        &mut self,
        name: &'static str,
        from: GuessFrom,
        guess: MakerGuess,
    ) -> &mut Self;

    /// Says that the saved type `T` was named `former` (a full type path, such as
    /// `"my_game::Torch"`) in saves written before it was renamed: [`load`] reads a value
    /// under that path as a `T`, and [`save`] writes it under `T`'s path. Call it for each
    /// former path.
    fn saved_before<T: GetTypeRegistration + Any>(&mut self, former: &'static str) -> &mut Self;

    /// Says that the saved type `T` was saved as the type `Old` under the path `former`
    /// before it changed shape: [`load`] reads a value under that path as an `Old` and
    /// makes it a `T` with `convert` (a value that does not read as an `Old` is a
    /// [`SaveError::Read`] naming the path).
    fn saved_before_as<T, Old>(&mut self, former: &'static str, convert: fn(Old) -> T) -> &mut Self
    where
        T: GetTypeRegistration + Reflect,
        Old: GetTypeRegistration + bevy_reflect::FromReflect;
}

impl SaveWithDenizen for App {
    fn saved_before<T: GetTypeRegistration + Any>(&mut self, former: &'static str) -> &mut Self {
        add_former_path::<T>(self, former, None)
    }

    fn saved_before_as<T, Old>(&mut self, former: &'static str, convert: fn(Old) -> T) -> &mut Self
    where
        T: GetTypeRegistration + Reflect,
        Old: GetTypeRegistration + bevy_reflect::FromReflect,
    {
        self.register_type::<Old>();
        let convert = move |value: &dyn PartialReflect| {
            let old = Old::from_reflect(value)?;
            Some(Box::new(convert(old)) as Box<dyn PartialReflect>)
        };
        add_former_path::<T>(self, former, Some((TypeId::of::<Old>(), Arc::new(convert))))
    }

    fn guess_makers_with(
        &mut self,
        name: &'static str,
        from: GuessFrom,
        guess: MakerGuess,
    ) -> &mut Self {
        (self
            .world_mut()
            .get_resource_or_init::<legacy::MakerGuesses>()
            .0)
            .push((from, name, guess));
        self
    }

    fn check_saves_with(&mut self, check: SaveCheck) -> &mut Self {
        self.world_mut()
            .get_resource_or_insert_with(SaveChecks::default)
            .0
            .push(check);
        self
    }

    fn save_with_denizen<T: GetTypeRegistration + Any>(&mut self) -> &mut Self {
        self.register_type::<T>();
        self.world_mut()
            .get_resource_or_insert_with(SavedTypes::default)
            .0
            .insert(TypeId::of::<T>());
        self
    }
}

/// Registers `T` and gives it the former path `former`, read as `shape` says.
fn add_former_path<'a, T: GetTypeRegistration + Any>(
    app: &'a mut App,
    former: &'static str,
    shape: legacy::FormerShape,
) -> &'a mut App {
    app.register_type::<T>();
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let mut registry = registry.write();
    // Registered the line before, so always found.
    if let Some(registration) = registry.get_mut(TypeId::of::<T>()) {
        match registration.data_mut::<legacy::FormerPaths>() {
            Some(paths) => paths.add(former, shape),
            None => {
                let mut paths = legacy::FormerPaths::default();
                paths.add(former, shape);
                registration.insert(paths);
            }
        }
    }
    app
}

/// The types registered with [`SaveWithDenizen::save_with_denizen`].
fn ours(registration: &TypeRegistration, saved: Option<&SavedTypes>) -> bool {
    saved.is_some_and(|saved| saved.contains(registration.type_id()))
}

/// Triggered at the end of a [`load`] that changed the world: each rule set checks its own
/// loaded state against its rules here (the state a deserializer cannot check, since it
/// does not see the rules), mends what does not fit and says so.
#[derive(Event, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaveLoaded;

/// Writes everything the plugins own as RON (see [the format](self#the-format)): equal
/// worlds give the same text, whatever their entities' ids.
pub fn save(world: &World) -> Result<String, SaveError> {
    save_numbered(world).map(|(text, _)| text)
}

/// [`save`], and the number each saved entity has in the save: a game that writes its own
/// world beside denizen's (a `DynamicWorld`) gives its entities the same numbers, so
/// [`load`]'s map puts its components back on the same creatures.
pub fn save_numbered(world: &World) -> Result<(String, EntityHashMap<Entity>), SaveError> {
    let registry = world.resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let saved = world.get_resource::<SavedTypes>();
    let found = saved_entities(world, &registry, saved);
    let numbering = numbering::canonical(&found, &registry)?;
    let mut resources = Vec::new();
    for (path, value) in saved_resources(world, &registry, saved) {
        resources.push((path, numbering::renumbered(path, value, &numbering)?));
    }
    let mut entities = Vec::with_capacity(found.len());
    for (entity, components) in found {
        let mut values = Vec::with_capacity(components.len());
        for (path, value) in components {
            values.push((path, numbering::renumbered(path, value, &numbering)?));
        }
        entities.push((numbering[&entity].to_bits(), values));
    }
    let text = format::write(resources, entities, &registry)?;
    Ok((text, numbering))
}

/// Every saved resource the save does not hold (one older than the resource) set to its
/// default, so nothing of the world before the load stays.
fn default_missing(world: &mut World, registry: &TypeRegistry, held: &HashSet<TypeId>) {
    let saved: Vec<TypeId> = (world.get_resource::<SavedTypes>().into_iter())
        .flat_map(|s| s.0.iter().copied())
        .filter(|t| !held.contains(t))
        .collect();
    for type_id in saved {
        let Some(registration) = registry.get(type_id) else {
            continue;
        };
        let reflect = (registration.data::<ReflectResource>())
            .and(registration.data::<ReflectComponent>())
            .zip(registration.data::<ReflectDefault>());
        if let Some((component, default)) = reflect {
            let id = component.register_component(world);
            world.insert_reflect_resource(id, default.default().into_partial_reflect());
        }
    }
}

/// Every saved resource, with its type path.
fn saved_resources<'w>(
    world: &'w World,
    registry: &TypeRegistry,
    saved: Option<&SavedTypes>,
) -> Vec<(&'static str, &'w dyn PartialReflect)> {
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
    resources
}

/// Every entity of a floor, with its saved components and their type paths.
fn saved_entities<'w>(
    world: &'w World,
    registry: &TypeRegistry,
    saved: Option<&SavedTypes>,
) -> Vec<numbering::Found<'w>> {
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
        entities.push((entity.id(), components));
    }
    entities
}

/// A registered type's path, as the save keys its values.
fn path_of(registration: &TypeRegistration) -> &'static str {
    registration.type_info().type_path()
}

/// Replaces everything the plugins own with a save: its resources (a saved resource an
/// older save lacks takes its default), and its creatures and
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
    let contents = SaveContents {
        resources: &resources,
        entities: &entities,
    };
    let rule_sets = world.get_resource::<SaveChecks>().map(|c| c.0.clone());
    for check in rule_sets.unwrap_or_default() {
        check(world, &contents)?;
    }

    let mut ours = world.query_filtered::<Entity, With<OnFloor>>();
    let old: Vec<Entity> = ours.iter(world).collect();
    for entity in old {
        let _ = world.try_despawn(entity);
    }
    let held: HashSet<TypeId> = resources.iter().map(|(t, _)| *t).collect();
    for (type_id, value) in resources {
        let id = registry
            .get(type_id)
            .and_then(|r| r.data::<ReflectComponent>())
            .map(|c| c.register_component(world));
        if let Some(id) = id {
            world.insert_reflect_resource(id, value);
        }
    }
    default_missing(world, &registry, &held);
    match held.contains(&TypeId::of::<FloorMakers>()) {
        true => crate::floor::keep_standing_makers(world),
        false => legacy::guess_makers(world),
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
    world.trigger(SaveLoaded);
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Saved text reaches an error escaped and cut: one short line whatever the save held.
    #[test]
    fn errors_show_saved_text_on_one_short_line() {
        let huge = format!("deep\n{}\u{1b}[31m", "x".repeat(20 << 20));
        let errors = [
            SaveError::Read {
                type_path: Some(huge.clone()),
                message: huge.clone(),
            },
            SaveError::UnknownType(huge.clone()),
            SaveError::Impossible {
                type_path: "CurrentFloor",
                message: huge.clone(),
            },
            SaveError::Write {
                type_path: huge.clone(),
                message: huge,
            },
        ];
        for error in errors {
            let text = error.to_string();
            assert_eq!(text.lines().count(), 1, "{}", &text[..80]);
            assert!(text.len() < 1_000, "{}", text.len());
            assert!(
                text.contains("deep\\u{a}x") && !text.contains('\u{1b}'),
                "{}",
                &text[..80]
            );
        }
    }
}
