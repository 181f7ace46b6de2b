//! Components of a tables creature: its species, hit points, tags, data, sleep, what it carries,
//! its unique identity, the region it was drawn for, and a follower's link to its leader.

use std::collections::BTreeMap;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

use denizen_bevy::floor::Creature;

use crate::Datum;

/// What a creature is: its species, by key (keys stay the same when the files change; ids
/// may not). Requiring it brings the creature's other components.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(Creature)]
pub struct TablesCreature {
    /// The species' key.
    pub species: String,
}

/// Hit points, rolled from the species' dice.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct TablesHitPoints(pub u32);

/// The species' tags, which the game reads (`animal`, `undead`, ...).
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatureTags(pub Vec<String>);

/// The species' `data`, values the game reads (`speed`, `faction`, `flies`), by name. Only
/// a creature whose species has data has it.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreatureData(pub BTreeMap<String, Datum>);

/// The creature started asleep, by its species' chance; the game removes it when it wakes.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Asleep;

/// What the creature carries: an item of a loot table, both by key.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Possession {
    /// The loot table's key.
    pub loot: String,
    /// The item.
    pub item: String,
}

/// A unique: at most one alive per game. The game reports its death with
/// [`TablesUniqueKilled`](super::messages::TablesUniqueKilled), naming this key.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unique(pub String);

/// The creature's placement went out of depth (drawn deeper than the floor).
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutOfDepth;

/// The region the creature was drawn for (a lair, a camp on a level drawn in an editor):
/// its id and kind. Only a creature of a region's draw has it; the floor's own placements
/// and wandering arrivals do not.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct HomeRegion {
    /// The region's id on its floor.
    pub id: String,
    /// Its kind.
    pub kind: String,
}

/// A follower's leader. Inserted once all of a plan's creatures are spawned and before any
/// [`MonsterSpawned`](denizen_bevy::MonsterSpawned), so an observer of that sees it.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[relationship(relationship_target = Followers)]
pub struct Follows(pub Entity);

/// A leader's followers (an escort, or a group's followers). A follower outlives its
/// leader: despawning the leader leaves the pack leaderless, not gone.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[relationship_target(relationship = Follows)]
pub struct Followers(Vec<Entity>);

impl Followers {
    /// The follower entities.
    pub fn followers(&self) -> &[Entity] {
        &self.0
    }
}

/// The group a follower follows in and its role there (the file's `role`; empty when it
/// gives none).
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct FollowerRole {
    /// The group's key (a row's group, or the leader's escort).
    pub group: String,
    /// The role.
    pub role: String,
}
