//! What a save holds, read and typed before the world changes: what a rule set's own save
//! check reads ([`SaveWithDenizen::check_saves_with`](super::SaveWithDenizen::check_saves_with)),
//! and the check every relationship between saved entities gets.

use std::any::TypeId;
use std::collections::{HashMap, HashSet};

use bevy_ecs::prelude::*;
use bevy_ecs::relationship::{Relationship, RelationshipTarget};
use bevy_reflect::{FromReflect, Reflect};

use super::SaveError;
use super::format::ReadValue;

/// A save as read, before it changes the world: its resources and its entities (each by
/// its number in the save), typed on request.
pub struct SaveContents<'s> {
    pub(super) resources: &'s [ReadValue],
    pub(super) entities: &'s [(u64, Vec<ReadValue>)],
}

/// A rule set's check of a save against its rules and itself, run after the neutral
/// checks and before the world changes: an error refuses the whole save (name the type
/// and the entity in it).
pub type SaveCheck = fn(&World, &SaveContents<'_>) -> Result<(), SaveError>;

/// The save checks the plugins added, run in order by [`load`](super::load).
/// Configuration, not saved.
#[derive(Resource, Reflect, Clone, Default)]
#[reflect(opaque)]
pub struct SaveChecks(pub(crate) Vec<SaveCheck>);

/// The first value of type `T` among `values`, if one reads as `T`.
fn value<T: FromReflect>(values: &[ReadValue]) -> Option<T> {
    values
        .iter()
        .find(|(type_id, _)| *type_id == TypeId::of::<T>())
        .and_then(|(_, value)| T::from_reflect(value.as_ref()))
}

impl SaveContents<'_> {
    /// The save's resource of type `T`, if it holds one.
    pub fn resource<T: FromReflect>(&self) -> Option<T> {
        value(self.resources)
    }

    /// Every saved entity with a component of type `T`: its number in the save and the
    /// value, in the save's order.
    pub fn components<T: FromReflect>(&self) -> Vec<(u64, T)> {
        self.entities
            .iter()
            .filter_map(|(id, components)| value(components).map(|c| (*id, c)))
            .collect()
    }

    /// Whether saved entity `id` has a component of type `T`.
    pub fn has<T: 'static>(&self, id: u64) -> bool {
        self.entities.iter().any(|(saved, components)| {
            *saved == id && components.iter().any(|(t, _)| *t == TypeId::of::<T>())
        })
    }

    /// Checks relationship `R` and its target `R::RelationshipTarget` as saved: each
    /// source names another entity, one that has `Marker` (a member's group, a follower's
    /// leader); each target lists exactly its sources, each once. `names` are the two
    /// types' names for the error.
    pub fn check_relationship<R, Marker>(
        &self,
        names: (&'static str, &'static str),
    ) -> Result<(), SaveError>
    where
        R: Relationship + FromReflect,
        R::RelationshipTarget: FromReflect,
        Marker: 'static,
    {
        let impossible = |type_path, message| Err(SaveError::Impossible { type_path, message });
        let marked: HashSet<u64> = self
            .entities
            .iter()
            .filter(|(_, components)| components.iter().any(|(t, _)| *t == TypeId::of::<Marker>()))
            .map(|(id, _)| *id)
            .collect();
        let mut sources: HashMap<u64, Vec<u64>> = HashMap::new();
        for (id, link) in self.components::<R>() {
            let target = link.get().to_bits();
            if target == id {
                return impossible(names.0, format!("entity {id} names itself"));
            }
            if !marked.contains(&target) {
                return impossible(
                    names.0,
                    format!("entity {id} names entity {target}, which is not what it can name"),
                );
            }
            sources.entry(target).or_default().push(id);
        }
        let mut listed: HashMap<u64, Vec<u64>> = HashMap::new();
        for (id, list) in self.components::<R::RelationshipTarget>() {
            let mut members: Vec<u64> = list.iter().map(Entity::to_bits).collect();
            members.sort_unstable();
            listed.insert(id, members);
        }
        for (target, mut members) in sources.iter().map(|(t, m)| (*t, m.clone())) {
            members.sort_unstable();
            if listed.get(&target) != Some(&members) {
                return impossible(
                    names.1,
                    format!(
                        "entity {target} lists {:?}, but {members:?} name it",
                        listed.get(&target).cloned().unwrap_or_default()
                    ),
                );
            }
        }
        if let Some((target, list)) = listed
            .iter()
            .find(|(t, l)| !l.is_empty() && !sources.contains_key(t))
        {
            return impossible(
                names.1,
                format!("entity {target} lists {list:?}, but none names it"),
            );
        }
        Ok(())
    }
}
