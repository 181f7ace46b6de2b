//! Saves written before a change load as they did: the makers of a save's floors when
//! the save keeps none (one from before format 5), which each rule set guesses as it took
//! its floors then, and the types a save names by their former paths (renamed, or
//! reshaped and converted).

use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::{PartialReflect, Reflect, TypeRegistration, TypeRegistry};

use crate::floor::{CurrentFloor, FloorId, FloorMakers, Maker, StoredFloors};

/// Whether a rule set took `floor` for its own before makers were kept, read from the
/// loaded world (the rule set's rules and its records).
pub type MakerGuess = fn(&World, &FloorId) -> bool;

/// How a rule set took its floors before makers were kept: from a record of its floors
/// (asked first), or from their names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GuessFrom {
    /// A record the rule set keeps of each floor it made (the tables' floor records).
    Record,
    /// The floor's name: a place of the rule set's (Omega's locations, Angband's `angband`).
    Name,
}

/// The guesses rule sets added ([`SaveWithDenizen::guess_makers_with`](super::SaveWithDenizen::guess_makers_with)).
#[derive(Resource, Reflect, Clone, Default)]
#[reflect(opaque)]
pub(crate) struct MakerGuesses(pub(crate) Vec<(GuessFrom, &'static str, MakerGuess)>);

/// Gives the current and every stored floor the maker the first guess that takes it
/// names (guesses from records before guesses from names, each in the order the rule
/// sets were added); a floor no guess takes is the host's.
pub(crate) fn guess_makers(world: &mut World) {
    let mut guesses = world
        .get_resource::<MakerGuesses>()
        .cloned()
        .unwrap_or_default()
        .0;
    guesses.sort_by_key(|&(from, ..)| from);
    let current = world.resource::<CurrentFloor>().0.clone();
    let stored = (world.get_resource::<StoredFloors>().into_iter())
        .flat_map(|s| s.0.keys().cloned())
        .collect::<Vec<_>>();
    let floors = (current != FloorId::default())
        .then_some(current)
        .into_iter()
        .chain(stored);
    let makers = floors
        .filter_map(|floor| {
            let (_, name, _) = guesses.iter().find(|(_, _, guess)| guess(world, &floor))?;
            Some((floor, Maker::rule_set(name)))
        })
        .collect();
    world.insert_resource(FloorMakers(makers));
}

/// How a value saved under a former path becomes the type's now: read as the former type
/// (the registration of that `TypeId`) and converted; `None` when it is read as the type
/// itself.
pub(crate) type FormerShape = Option<(
    std::any::TypeId,
    Arc<dyn Fn(&dyn PartialReflect) -> Option<Box<dyn PartialReflect>> + Send + Sync>,
)>;

/// The type paths a saved type had before it was renamed or reshaped
/// ([`SaveWithDenizen::saved_before`](super::SaveWithDenizen::saved_before),
/// [`SaveWithDenizen::saved_before_as`](super::SaveWithDenizen::saved_before_as)), each
/// with how its value is read: a save that names one of them is read as the type, so a
/// rename breaks no save.
#[derive(Clone, Default)]
pub(crate) struct FormerPaths(pub(crate) Vec<(&'static str, FormerShape)>);

impl FormerPaths {
    /// The former path `path`, read as the type itself (`shape: None`) or as a former type
    /// converted.
    pub(crate) fn add(&mut self, path: &'static str, shape: FormerShape) {
        self.0.push((path, shape));
    }
}

/// A value of a save's type path as it is read: with the registration to read it by,
/// then made the type it is now.
pub(crate) struct Reading<'r> {
    /// The registration the value is read with (the former type's, when it changed shape).
    pub(crate) read: &'r TypeRegistration,
    /// The type the value is loaded as.
    pub(crate) loaded: &'r TypeRegistration,
    /// What turns the former type's value into the type's.
    convert: Option<&'r FormerShape>,
}

impl Reading<'_> {
    /// The value read, as the type it is loaded as; `None` if it does not convert.
    pub(crate) fn loaded_value(
        &self,
        value: Box<dyn PartialReflect>,
    ) -> Option<Box<dyn PartialReflect>> {
        match self.convert {
            Some(Some((_, convert))) => convert(value.as_ref()),
            _ => Some(value),
        }
    }
}

/// How a save's `path` is read: as the type of that path now, or as the type it was
/// renamed or reshaped to.
pub(crate) fn reading<'r>(registry: &'r TypeRegistry, path: &str) -> Option<Reading<'r>> {
    if let Some(registration) = registry.get_with_type_path(path) {
        return Some(Reading {
            read: registration,
            loaded: registration,
            convert: None,
        });
    }
    registry.iter().find_map(|loaded| {
        let formers = loaded.data::<FormerPaths>()?;
        let (_, shape) = formers.0.iter().find(|(former, _)| *former == path)?;
        let read = match shape {
            Some((old, _)) => registry.get(*old)?,
            None => loaded,
        };
        Some(Reading {
            read,
            loaded,
            convert: Some(shape),
        })
    })
}
