//! Components every Omega monster carries, and the optional ones construction adds.

use crate::construct::{Identity, Stats};
use crate::objects::ObjectInstance;
use crate::species::{SpeciesId, StatusSet};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

use denizen_bevy::floor::{Creature, Glyph};

/// What an Omega monster is: the template the population rules chose, and the template
/// whose body it has (the same, except for adventurers who returned as undead and
/// were-humans that changed). Requiring it brings every other monster component.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(
    Creature,
    Sleep,
    Inventory,
    Awareness,
    CombatStats,
    Disposition,
    Statuses
)]
pub struct Species {
    /// The chosen template.
    pub id: SpeciesId,
    /// The template of its body.
    pub form: SpeciesId,
}

/// The components every Omega monster is spawned with besides its square, in one tuple.
pub type MonsterBundle = (
    Species,
    Glyph,
    Sleep,
    Inventory,
    Awareness,
    CombatStats,
    Disposition,
    Statuses,
);

/// Sleep: the template's rating and whether the monster is awake now.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sleep {
    /// 0-100: awake at construction when the rating is below `R(100)`.
    pub rating: i32,
    /// Awake now.
    pub awake: bool,
}

/// Possessions, in the source's list order (last random object first, fixed item last).
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Inventory(pub Vec<ObjectInstance>);

/// Awareness (sense) range in squares.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Awareness(pub i32);

/// Combat numbers: hp, hit, ac, damage, speed, level and experience value.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombatStats(pub Stats);

/// Whether a monster is hostile and whether it wanders: two flags of its status word, set
/// at construction and by a change of form (see [`Statuses`]).
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Disposition {
    /// Attacks the player.
    pub hostile: bool,
    /// Moves about the level (set on wandering arrivals and some templates).
    pub wandering: bool,
}

/// The rest of a monster's own status word: its flags besides awake (in [`Sleep`]) and
/// hostile and wandering (in [`Disposition`]), such as mobile, flying, intangible or
/// swimming. Omega's monster carries its own word, which construction and a change of form
/// alter: a game reads a creature's statuses here, never from its template (a dead
/// adventurer in a spectre's body is not intangible).
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(opaque)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statuses(StatusSet);

impl Statuses {
    /// The flags [`Sleep`] and [`Disposition`] hold instead.
    pub const HELD_ELSEWHERE: StatusSet = StatusSet::AWAKE
        .union(StatusSet::HOSTILE)
        .union(StatusSet::WANDERING);

    /// A whole status word as a monster's components hold it: awake (for [`Sleep`]), its
    /// [`Disposition`], and the rest. Construction and a change of form write a word
    /// through this one split.
    pub fn split(word: StatusSet) -> (bool, Disposition, Statuses) {
        let disposition = Disposition {
            hostile: word.contains(StatusSet::HOSTILE),
            wandering: word.contains(StatusSet::WANDERING),
        };
        let rest = Self(word.difference(Self::HELD_ELSEWHERE));
        (word.contains(StatusSet::AWAKE), disposition, rest)
    }

    /// The flags it holds (never awake, hostile or wandering).
    pub fn get(self) -> StatusSet {
        self.0
    }

    /// The creature's whole status word, with the flags [`Sleep`] and [`Disposition`] hold.
    pub fn whole(self, sleep: Sleep, disposition: Disposition) -> StatusSet {
        let mut word = self.0;
        word.set(StatusSet::AWAKE, sleep.awake);
        word.set(StatusSet::HOSTILE, disposition.hostile);
        word.set(StatusSet::WANDERING, disposition.wandering);
        word
    }

    /// Whether a flag it holds is set: always false for awake, hostile and wandering, which
    /// a game reads from [`Sleep`] and [`Disposition`] (or [`Statuses::whole`]).
    pub fn has(self, status: crate::Status) -> bool {
        self.0.contains(status.into())
    }
}

/// The name construction gave a monster (an angel's deity, an occupation, an adventurer);
/// present only on renamed monsters.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct MonsterName(pub String);

/// What identity-specific construction made of a monster; present only when it did
/// something.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct MonsterIdentity(pub Identity);

/// Marks a dungeon level's fixed inhabitant (the Goblin King, an elemental lord, ...),
/// placed before and in addition to the level's population.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fixed;

/// Marks an arena opponent.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaOpponent;
