//! The numbers a save gives its entities: canonical, so equal worlds save the same bytes
//! whatever ids Bevy handed their entities (a world loaded from a save has new ones).
//!
//! Each saved entity is ordered by the text of its saved components with every link to
//! another entity blanked (a member's group, a follower's leader): the floor, the square,
//! the kind of creature and everything about it. Entities then get the numbers 1, 2, 3, ...
//! in that order, and every link is written as the number of the entity it names. Entities
//! that are the same in every value but their links keep the world's order between them.

use bevy_ecs::entity::{Entity, EntityHashMap};
use bevy_reflect::serde::TypedReflectSerializer;
use bevy_reflect::{PartialReflect, TypeRegistry};

use super::SaveError;
use super::format::Value;
use super::links::{names_entities, renumber};

/// An entity found for the save, with its saved components and their type paths.
pub(super) type Found<'w> = (Entity, Vec<(&'static str, &'w dyn PartialReflect)>);

/// The canonical number of every entity found (see the [module](self)).
pub(super) fn canonical(
    found: &[Found<'_>],
    registry: &TypeRegistry,
) -> Result<EntityHashMap<Entity>, SaveError> {
    let mut keyed = Vec::with_capacity(found.len());
    for (world_order, (entity, components)) in found.iter().enumerate() {
        keyed.push((key(components, registry)?, world_order, *entity));
    }
    keyed.sort_unstable();
    let mut numbering = EntityHashMap::default();
    for (number, (_, _, entity)) in keyed.into_iter().enumerate() {
        // The entity whose id the save writes as `number + 1`.
        let saved = u64::try_from(number + 1)
            .ok()
            .and_then(Entity::try_from_bits)
            .ok_or_else(|| SaveError::Write {
                type_path: "the entities".into(),
                message: "more entities than a save numbers".into(),
            })?;
        numbering.insert(entity, saved);
    }
    Ok(numbering)
}

/// What an entity is ordered by: its components' texts in their paths' order, links
/// blanked.
fn key(
    components: &[(&'static str, &dyn PartialReflect)],
    registry: &TypeRegistry,
) -> Result<Vec<(&'static str, String)>, SaveError> {
    let mut key = Vec::with_capacity(components.len());
    for &(path, value) in components {
        let text = if names_entities(value) {
            let mut blanked = dynamic(path, value)?;
            // Blanking cannot fail: no numbering is asked of it.
            let _ = renumber(blanked.as_mut(), None);
            text_of(path, blanked.as_ref(), registry)?
        } else {
            text_of(path, value, registry)?
        };
        key.push((path, text));
    }
    key.sort();
    Ok(key)
}

/// A saved value as written: itself, or a copy whose links name the entities' numbers.
/// A link to an entity the save does not hold is refused: the save could not be loaded.
pub(super) fn renumbered<'w>(
    path: &'static str,
    value: &'w dyn PartialReflect,
    numbering: &EntityHashMap<Entity>,
) -> Result<Value<'w>, SaveError> {
    if !names_entities(value) {
        return Ok(Value::Borrowed(value));
    }
    let mut copy = dynamic(path, value)?;
    renumber(copy.as_mut(), Some(numbering)).map_err(|entity| SaveError::Write {
        type_path: path.to_owned(),
        message: format!("it names entity {entity}, which is on no floor, so no save holds it"),
    })?;
    Ok(Value::Owned(copy))
}

/// A copy of a value whose links can be changed.
fn dynamic(path: &str, value: &dyn PartialReflect) -> Result<Box<dyn PartialReflect>, SaveError> {
    value.to_dynamic().map_err(|e| SaveError::Write {
        type_path: path.to_owned(),
        message: e.to_string(),
    })
}

/// A value's text, as the save writes it.
fn text_of(
    path: &str,
    value: &dyn PartialReflect,
    registry: &TypeRegistry,
) -> Result<String, SaveError> {
    ron::to_string(&TypedReflectSerializer::new(value, registry)).map_err(|e| SaveError::Write {
        type_path: path.to_owned(),
        message: e.to_string(),
    })
}
