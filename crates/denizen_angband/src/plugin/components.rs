//! Components of Angband monsters (the race, and the hit points, speed, energy and sleep
//! the level's placement rolled) and of the level's objects and gold.

use crate::{MadeGold, MadeObject, Placement, RaceId};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

use denizen_bevy::floor::Creature;

/// What a monster is: its race (its number in the race file) and how it came to be on
/// the level. Requiring it brings the creature's other components.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(Creature)]
pub struct AngbandMonster {
    /// The race.
    pub race: RaceId,
    /// The base population, an inner-room guard, a group follower or an escort.
    pub placement: Placement,
}

/// Hit points: the race's hit dice rolled, or their maximum with `FORCE_MAXHP`.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitPoints(pub i32);

/// Raw speed (110 is normal), with the small random spread non-uniques get.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Speed(pub i32);

/// Energy toward the next move, `0..100` when placed.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Energy(pub i32);

/// Turns of sleep left: `2s + 1d(10s)` for a race of alertness `s` placed asleep; 0 is
/// awake.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct SleepCounter(pub i32);

/// An object the level's rules made, on its [`GridPos`](denizen_bevy::GridPos) square: its kind,
/// power, artifact, ego item, bonuses, cursing and the rating it added. Never a
/// [`Creature`]: it marks no square. Spawned with the level unless
/// `AngbandPlugin::object_entities(false)`, and ends with its floor.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandObject(pub MadeObject);

/// Gold the level's rules made, on its [`GridPos`](denizen_bevy::GridPos) square.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandGold(pub MadeGold);
