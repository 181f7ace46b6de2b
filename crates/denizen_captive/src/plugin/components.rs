//! Components of Captive's encounter groups: the group, its members and what a bearer
//! carries.

use crate::{Carry, Member};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

use denizen_bevy::floor::{Creature, GridPos};

/// A group: its type, speed and cell. Its members point at it with [`MemberOf`]. A group is
/// not a creature itself (it has no [`Creature`] marker); its members are.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(GridPos)]
pub struct EncounterGroup {
    /// The type id (slot of the encounter table).
    pub type_id: u8,
    /// Group speed.
    pub speed: u32,
}

/// What a member is: the encounter type it was made from (a slot of the encounter table,
/// not a species of any bestiary). Requiring it brings the creature's other components.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(Creature)]
pub struct EncounterMember {
    /// The type id (slot of the encounter table).
    pub type_id: u8,
}

/// A member's strength, armature, skill and position code in its cell.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterStats(pub Member);

/// A member's group. It is inserted once all of a plan's members are spawned, so an
/// observer of a member's other components does not see it yet;
/// [`MonsterSpawned`](denizen_bevy::MonsterSpawned) comes after it.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[relationship(relationship_target = GroupMembers)]
pub struct MemberOf(pub Entity);

/// The members of a group; despawning the group despawns them.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[relationship_target(relationship = MemberOf, linked_spawn)]
pub struct GroupMembers(Vec<Entity>);

impl GroupMembers {
    /// The member entities.
    pub fn members(&self) -> &[Entity] {
        &self.0
    }
}

/// What a group's bearer (its first member) carries: a base map or a clipboard, dropped
/// with a [`CaptiveCarryDropped`](super::messages::CaptiveCarryDropped) when it is
/// despawned.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Carries(pub Carry);
