//! The entities a saved value names (a member's group, a follower's leader), found and
//! renumbered through reflection, however deep they sit.

use bevy_ecs::entity::{Entity, EntityHashMap};
use bevy_reflect::{PartialReflect, ReflectMut, ReflectRef};

/// Every [`Entity`] a reflected value holds, however deep.
pub(super) fn entities_in(value: &dyn PartialReflect, found: &mut Vec<Entity>) {
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

/// Whether a reflected value holds an [`Entity`].
pub(super) fn names_entities(value: &dyn PartialReflect) -> bool {
    let mut found = Vec::new();
    entities_in(value, &mut found);
    !found.is_empty()
}

/// Replaces every [`Entity`] a value holds by its number in `numbering`, or by
/// [`Entity::PLACEHOLDER`] when `numbering` is `None` (a value compared without its links).
/// An entity `numbering` does not hold is returned as the error. Entities used as map or
/// set keys are left as they are (no saved type keys a map by entity).
pub(super) fn renumber(
    value: &mut dyn PartialReflect,
    numbering: Option<&EntityHashMap<Entity>>,
) -> Result<(), Entity> {
    if let Some(entity) = value.try_downcast_mut::<Entity>() {
        *entity = match numbering {
            None => Entity::PLACEHOLDER,
            Some(numbering) => *numbering.get(entity).ok_or(*entity)?,
        };
        return Ok(());
    }
    let each = |field: Option<&mut dyn PartialReflect>| match field {
        Some(field) => renumber(field, numbering),
        None => Ok(()),
    };
    match value.reflect_mut() {
        ReflectMut::Struct(s) => (0..s.field_len()).try_for_each(|i| each(s.field_at_mut(i))),
        ReflectMut::TupleStruct(s) => (0..s.field_len()).try_for_each(|i| each(s.field_mut(i))),
        ReflectMut::Tuple(t) => (0..t.field_len()).try_for_each(|i| each(t.field_mut(i))),
        ReflectMut::List(l) => (0..l.len()).try_for_each(|i| each(l.get_mut(i))),
        ReflectMut::Array(a) => (0..a.len()).try_for_each(|i| each(a.get_mut(i))),
        ReflectMut::Enum(e) => (0..e.field_len()).try_for_each(|i| each(e.field_at_mut(i))),
        ReflectMut::Map(m) => {
            let keys: Vec<_> = m.iter().filter_map(|(k, _)| k.to_dynamic().ok()).collect();
            keys.iter()
                .try_for_each(|key| each(m.get_mut(key.as_ref())))
        }
        _ => Ok(()),
    }
}
