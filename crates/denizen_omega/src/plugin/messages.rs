//! Messages in and out of Omega's floor population.

use crate::RequestError;
use crate::species::SpeciesId;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::Square;

use denizen_bevy::floor::FloorHeld;
use denizen_bevy::pipeline::{FloorServed, NotOurFloor};
use denizen_bevy::pipeline::{RulesNotReady, RulesRefused};

/// Written by the host after it has filled [`FloorMap`](denizen_bevy::FloorMap): populate this
/// floor of this Omega location. Served in `OmegaSystems::Floors`; a floor that already
/// exists (current or put away) is replaced, never merged.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaFloorRequested {
    /// Location key, such as `goblin-caves`.
    pub location: String,
    /// Depth (ignored outside dungeons).
    pub depth: u32,
    /// The player's square, excluded from placement only when the plugin is told to
    /// (the source does not exclude it).
    pub player: Option<Square>,
    /// The floor is a cavern-type level (matters only for the faithful gap of fixed
    /// inhabitants marked for it).
    pub cavern: bool,
    /// Inside a temple, its deity (1 to the number of the bestiary's deities: Omega's
    /// Odin, Set, Athena, Hecate, the Balance, Destiny): angels made there, on this floor
    /// and by later arrivals and summons while it is the current location, serve it.
    /// `None` elsewhere: each angel draws its deity.
    pub deity: Option<u8>,
}

impl OmegaFloorRequested {
    /// Populate `location` at `depth`, the player's square not given, not a cavern.
    pub fn new(location: impl Into<String>, depth: u32) -> Self {
        Self {
            location: location.into(),
            depth,
            player: None,
            cavern: false,
            deity: None,
        }
    }

    /// The same floor inside a temple of `deity` (see [`deity`](Self::deity)).
    pub fn in_temple(mut self, deity: u8) -> Self {
        self.deity = Some(deity);
        self
    }
}

/// The answer to an [`OmegaFloorRequested`] (written in `OmegaSystems::Floors`): what was
/// populated, or why nothing was and nothing changed.
pub type OmegaFloorServed = FloorServed<OmegaFloorRequested>;

/// What an Omega floor was populated with: the answer's outcome when it was served.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaFloorPopulated {
    /// The monsters spawned, fixed inhabitants first, in plan order.
    pub entities: Vec<Entity>,
    /// Placements the count rule asked for.
    pub requested: u32,
    /// Monsters spawned.
    pub placed: u32,
    /// Placements that found no square: the floor ran out of acceptable squares, and
    /// population stopped after `placed` monsters.
    pub missing: u32,
    /// Fixed inhabitants (the Goblin King, ...) that found no square.
    pub fixed_missing: Vec<SpeciesId>,
}

/// Why an [`OmegaFloorRequested`] was refused.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum OmegaFloorRefusal {
    /// The rules cannot serve it: an unknown location, a depth outside the dungeon, a
    /// deity none of the bestiary's.
    #[error("{0}")]
    Rules(RequestError),
    /// [`FloorMap`](denizen_bevy::FloorMap) is empty and the environment searches the floor for
    /// squares.
    #[error("FloorMap is empty: fill it with the floor before sending OmegaFloorRequested")]
    EmptyMap,
    /// [`FloorMap`](denizen_bevy::FloorMap) does not hold the map the environment scatters
    /// its creatures over (the countryside's 64 x 16 tactical map): they would stand off
    /// the floor.
    #[error(
        "FloorMap is {width} x {height}: this encounter scatters over a {needs_width} x \
         {needs_height} map; fill FloorMap with it first"
    )]
    MapTooSmall {
        /// The floor's width.
        width: u32,
        /// The floor's height.
        height: u32,
        /// The width the encounter scatters over.
        needs_width: u32,
        /// The height it scatters over.
        needs_height: u32,
    },
    /// Another floor was populated in this run.
    #[error("{0}")]
    FloorHeld(FloorHeld),
    /// The floor is current or put away under another rule set: nothing
    /// changed.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// The rule set's data files (feature `assets`) have not loaded yet: nothing changed.
    /// A game waits for `RulesLoaded` before its first request.
    #[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
    RulesLoading,
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal (file, entry and field), until the files are mended. Nothing changed.
    #[error("{0}")]
    RulesRefused(RulesRefused),
}

impl From<NotOurFloor> for OmegaFloorRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<FloorHeld> for OmegaFloorRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl From<RulesNotReady> for OmegaFloorRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(_) => Self::RulesLoading,
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}
