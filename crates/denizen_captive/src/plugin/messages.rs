//! Messages in and out of Captive's encounter stage.

use crate::{Carry, SpecialCellRefused, SpecialStage, Stop};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;

use denizen_bevy::floor::FloorHeld;
use denizen_bevy::floor::FloorId;
use denizen_bevy::pipeline::{FloorServed, NotOurFloor};
use denizen_bevy::pipeline::{RulesNotReady, RulesRefused};

/// Written by the host after it has filled [`FloorMap`](denizen_bevy::FloorMap) with a base floor
/// (fire squares, and a dig order if it has one): place this map's encounter groups.
/// Served in `CaptiveSystems::Floors`; the map's earlier groups, if any, are replaced.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CaptiveFloorRequested {
    /// The global map number, `(mission - 1) x 11 + base`, from 0.
    pub map: u32,
    /// Floors of the base: the first groups get one base map each.
    pub floors: u32,
    /// The special stages' groups, at the cells the game's generator chose for them (the
    /// prisoner's dead end, a laser door's guard post, the dead-end stage's shops): made
    /// first, in this order, then the regular encounters.
    pub specials: Vec<SpecialGroup>,
}

impl CaptiveFloorRequested {
    /// Place the regular encounters of `map`, a base of `floors` floors.
    pub fn new(map: u32, floors: u32) -> Self {
        Self {
            map,
            floors,
            specials: Vec::new(),
        }
    }

    /// Also make a special stage's group at `cell` (before the regular encounters).
    pub fn with_special(mut self, cell: Square, stage: SpecialStage) -> Self {
        self.specials.push(SpecialGroup { cell, stage });
        self
    }
}

/// A special stage's group and the cell it stands on.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct SpecialGroup {
    /// Where it stands.
    pub cell: Square,
    /// Which stage makes it (and so its type and what it carries).
    pub stage: SpecialStage,
}

/// The answer to a [`CaptiveFloorRequested`] (written in `CaptiveSystems::Floors`): what
/// was placed, or why nothing was and nothing changed (another floor was populated in the
/// same run, a special stage's cell is not floor on `FloorMap`, ...).
pub type CaptiveFloorServed = FloorServed<CaptiveFloorRequested>;

/// What a base floor was populated with: the answer's outcome when it was served.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CaptiveFloorPopulated {
    /// The groups' members, group by group.
    pub entities: Vec<Entity>,
    /// Groups placed.
    pub groups: u32,
    /// Why the stage stopped early, if it did.
    pub stopped: Option<Stop>,
}

/// Why an [`CaptiveFloorRequested`] was refused.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum CaptiveFloorRefusal {
    /// Another floor was populated in this run.
    #[error("{0}")]
    FloorHeld(FloorHeld),
    /// The floor is current or put away under another rule set: nothing
    /// changed.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// A special stage's cell lies off the floor or is not open floor: nothing is placed.
    #[error("{0}")]
    SpecialCell(SpecialCellRefused),
    /// The rule set's data files (feature `assets`) have not loaded yet: nothing changed.
    /// A game waits for `RulesLoaded` before its first request.
    #[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
    RulesLoading,
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal (file, entry and field), until the files are mended. Nothing changed.
    #[error("{0}")]
    RulesRefused(RulesRefused),
}

impl From<NotOurFloor> for CaptiveFloorRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<FloorHeld> for CaptiveFloorRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl From<RulesNotReady> for CaptiveFloorRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(_) => Self::RulesLoading,
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// A bearer died (was despawned by anything but the end of its floor) and dropped what it
/// carried on its square. Written by an observer, at the despawn.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CaptiveCarryDropped {
    /// What was dropped.
    pub carry: Carry,
    /// Where.
    pub at: Square,
    /// On which floor (a floor put away drops on its own map, not the current one).
    pub floor: FloorId,
}
