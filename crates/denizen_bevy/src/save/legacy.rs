//! The makers of a save's floors when the save keeps none (one from before format 5):
//! each rule set says which of its floors it would have taken for its own, and the
//! loaded floors get those makers, so every rule set goes on as it did before makers
//! were kept.

use bevy_ecs::prelude::*;
use bevy_reflect::Reflect;

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

/// The type paths a saved type had before it was renamed
/// ([`SaveWithDenizen::saved_before`](super::SaveWithDenizen::saved_before)): a save
/// that names one of them is read as the type, so a rename breaks no save.
#[derive(Clone, Debug, Default)]
pub(crate) struct FormerPaths(pub(crate) Vec<&'static str>);

/// The registration a save's `path` names: the type of that path now, or the one it was
/// renamed to.
pub(crate) fn registration_of<'r>(
    registry: &'r bevy_reflect::TypeRegistry,
    path: &str,
) -> Option<&'r bevy_reflect::TypeRegistration> {
    registry.get_with_type_path(path).or_else(|| {
        registry
            .iter()
            .find(|r| r.data::<FormerPaths>().is_some_and(|f| f.0.contains(&path)))
    })
}
