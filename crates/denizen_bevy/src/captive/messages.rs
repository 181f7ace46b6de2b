//! Messages in and out of Captive's encounter stage.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_captive::{Carry, Stop};

use crate::apply::GridPos;

/// Written by the host after it has filled [`FloorMap`](crate::FloorMap) with a base floor
/// (fire squares, and a dig order if it has one): place this map's encounter groups.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct BaseFloorGenerated {
    /// The global map number, `(mission - 1) x 11 + base`, from 0.
    pub map: u32,
    /// Floors of the base: the first groups get one base map each.
    pub floors: u32,
}

/// The groups of a base floor were placed.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct EncountersPlaced {
    /// The map number.
    pub map: u32,
    /// Groups placed.
    pub groups: u32,
    /// Why the stage stopped early, if it did.
    pub stopped: Option<Stop>,
}

/// A bearer died (was despawned) and dropped what it carried on its square.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CarryDropped {
    /// What was dropped.
    pub carry: Carry,
    /// Where.
    pub at: GridPos,
}
