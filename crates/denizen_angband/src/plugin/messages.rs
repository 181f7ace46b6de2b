//! Messages in and out of the Angband plugin.

use crate::layout::RoomChoice;
use crate::request::is_quest_depth;
use crate::{DenKind, Feeling, LevelRefusal, MadeGold, MadeObject, Springing};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::arrivals::{Arrived, RulesNotReady, RulesRefused, RulesStillLoading};
use denizen_core::floor::{Room, Square};

use denizen_bevy::floor::FloorHeld;
use denizen_bevy::pipeline::{FloorServed, NotOurFloor};

/// Where a requested level's floor comes from.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq, Hash)]
pub enum LevelFloor {
    /// Build 2.7.9's classic level (66 x 198) into [`FloorMap`](denizen_bevy::FloorMap), then
    /// populate it.
    #[default]
    Classic,
    /// Populate the floor the host put in [`FloorMap`](denizen_bevy::FloorMap) (at most 198 x
    /// 66): the base population only, since the host's floor has no Angband rooms.
    Host,
}

/// Written by the host: make the Angband level at `depth` and its monsters. Served in
/// `AngbandSystems::Floors`; a level already made at that depth (current or put away) is
/// replaced, as 2.7.9 makes a new level on every entry, and its living uniques go back to
/// the allocator.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandFloorRequested {
    /// Dungeon depth, 1-127.
    pub depth: u32,
    /// Build the classic level, or populate the host's floor.
    pub floor: LevelFloor,
    /// A quest level: never destroyed, and every staircase goes up.
    pub quest: bool,
    /// A room kind the level must have (the attempts build it before anything else).
    pub force_room: Option<RoomChoice>,
}

impl AngbandFloorRequested {
    /// Build and populate the classic level at `depth`; depths 99 and 100 are quest
    /// levels (see [`with_quest`](Self::with_quest) once the player has won one).
    pub fn new(depth: u32) -> Self {
        Self {
            depth,
            floor: LevelFloor::Classic,
            quest: is_quest_depth(depth),
            force_room: None,
        }
    }

    /// Populate the host's floor in [`FloorMap`](denizen_bevy::FloorMap) as a level at `depth`.
    pub fn on_host_floor(depth: u32) -> Self {
        Self {
            floor: LevelFloor::Host,
            ..Self::new(depth)
        }
    }

    /// A level that must have a room of this kind (to show a vault, pit or nest).
    pub fn with_room(mut self, kind: RoomChoice) -> Self {
        self.force_room = Some(kind);
        self
    }

    /// Whether the level is a quest level (the host knows whether the quest is won).
    pub fn with_quest(mut self, quest: bool) -> Self {
        self.quest = quest;
        self
    }
}

/// The answer to an [`AngbandFloorRequested`] (written in `AngbandSystems::Floors`): the
/// level made, or why none was and nothing changed.
pub type AngbandFloorServed = FloorServed<AngbandFloorRequested>;

/// A level as it was made, the answer's outcome when it was served: its rooms, where the
/// player starts and what its monsters add up to. The monsters are entities with
/// [`AngbandMonster`](super::AngbandMonster) on the level's floor, each announced by a
/// [`MonsterSpawned`](denizen_bevy::MonsterSpawned).
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandFloorPopulated {
    /// The monsters, in placement order.
    pub entities: Vec<Entity>,
    /// The depth.
    pub depth: u32,
    /// The rooms in build order (none on a host's floor).
    pub rooms: Vec<Room>,
    /// Whether the level was destroyed (1 in 15 from depth 11: simple rooms only, blasted).
    pub destroyed: bool,
    /// The player's starting square (none on a host's floor).
    pub player: Option<Square>,
    /// Monsters placed.
    pub monsters: u32,
    /// The monster level the base population was drawn at (depth, or depth + 2 after the
    /// inner-room guard slip).
    pub population_level: u32,
    /// The rating the out-of-depth monsters add.
    pub monster_rating: i32,
    /// The whole rating: rooms, monsters and the appraised objects.
    pub rating: i32,
    /// Whether a nest, pit, vault or artifact made the level special.
    pub special: bool,
    /// The level's feeling (also sent as an [`AngbandLevelFeeling`]).
    pub feeling: Feeling,
    /// Levels the autoscummer made and threw away before this one.
    pub rejected_levels: u32,
    /// Levels made again before this one because their monster or object list filled (2.7.9 makes
    /// such a level again whatever the autoscummer's setting; none on a host's floor).
    pub remade_levels: u32,
    /// The up staircases, row by row (none on a host's floor).
    pub up_stairs: Vec<Square>,
    /// The down staircases, row by row (none on a host's floor).
    pub down_stairs: Vec<Square>,
    /// The hidden traps' squares (their kinds are chosen when they are found).
    pub traps: Vec<Square>,
    /// The rubble's squares, in the order placed (none on a host's floor). `FloorMap`
    /// shows rubble as `Wall`: it blocks until the player tunnels through it.
    pub rubble: Vec<Square>,
    /// What the level's objects added to `rating` (an [`AngbandAppraiser`]'s word
    /// replaces the rules' on the rooms' spots in `rating`, not here).
    ///
    /// [`AngbandAppraiser`]: super::AngbandAppraiser
    pub object_rating: i32,
    /// The objects the rules made, with their squares: the rooms' first, then the base
    /// population's (none on a host's floor).
    pub objects: Vec<(Square, MadeObject)>,
    /// The gold, likewise.
    pub gold: Vec<(Square, MadeGold)>,
    /// The nests and pits: centre, kind, and whether its draws filled it.
    pub dens: Vec<(Square, DenKind, bool)>,
    /// Base-population draws that found no race.
    pub failed_draws: u32,
    /// Base-population placements lost because their square lies on the floor's outer
    /// ring, where 2.7.9 never places a monster (0 on a classic level, whose ring is
    /// wall; on a host's floor, floor there takes draws that place nothing).
    pub edge_losses: u32,
}

/// An object spot a room put on the level: gold, or an object of the object level, good
/// or great when a vault asks. The rules make their own object there
/// ([`AngbandFloorPopulated::objects`]); this is for a game that makes its own, whose
/// [`AngbandAppraiser`](super::AngbandAppraiser) then rates it while the level is made
/// (replacing the rules' object in the rating, the feeling and the autoscummer). Written
/// in `AngbandSystems::Floors`, in the run that answers the level ([`AngbandFloorServed`]).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandObjectRequested {
    /// The level's depth.
    pub depth: u32,
    /// The object's square.
    pub at: Square,
    /// The object level it is made at.
    pub level: i32,
    /// Gold rather than an object.
    pub gold: bool,
    /// A good object (a vault's `9` and `8`).
    pub good: bool,
    /// A great object (a vault's `8`).
    pub great: bool,
}

/// The feeling the player gets on entering the level just made (written in
/// `AngbandSystems::Floors`, in the run that answers the level: [`AngbandFloorServed`]).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandLevelFeeling {
    /// The level's depth.
    pub depth: u32,
    /// The feeling.
    pub feeling: Feeling,
}

impl AngbandLevelFeeling {
    /// The message the player reads.
    pub fn message(&self) -> &'static str {
        self.feeling.message()
    }
}

/// Why an [`AngbandFloorRequested`] was refused.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum AngbandFloorRefusal {
    /// The rules cannot make it: a depth outside 1-127, a forced room too deep for the
    /// depth, a host's floor larger than Angband's.
    #[error("{0}")]
    Rules(LevelRefusal),
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

impl From<NotOurFloor> for AngbandFloorRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<FloorHeld> for AngbandFloorRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl From<RulesNotReady> for AngbandFloorRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(_) => Self::RulesLoading,
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// Written by the host: the player stepped onto (or found) the hidden trap at `at`, with
/// this armour (class plus bonus) against darts. Served in `AngbandSystems::Arrivals`, on
/// the last Angband level made or brought back.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandTrapSpringRequested {
    /// The trap's square (the player's).
    pub at: Square,
    /// The player's armour class plus bonus.
    pub armour: i32,
}

/// Why an [`AngbandTrapSpringRequested`] sprang nothing.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum AngbandTrapRefusal {
    /// The rules' data files (feature `assets`) have not loaded yet: nothing changed.
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    /// The current floor is not an Angband level (another rule set's floor, the game's
    /// own, or none): a trap springs only on the level it belongs to.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// The classic level's terrain has no trap on the square: nothing springs.
    #[error("no trap lies at ({}, {}) on this level", at.x, at.y)]
    NoTrap {
        /// The square asked for.
        at: Square,
    },
}

impl From<NotOurFloor> for AngbandTrapRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for AngbandTrapRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// What a trap did when it sprang: its kind (chosen now, uniform over the kinds) and what
/// it rolled. The host applies what the player does not resist. A summoning rune's monsters
/// are already spawned round the player (with `MonsterSpawned` origin `Summoning`).
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct AngbandSprung {
    /// The kind's name.
    pub name: String,
    /// What it rolled.
    pub outcome: Springing,
    /// The monsters a summoning rune called.
    pub summoned: Vec<Entity>,
}

/// The answer to an [`AngbandTrapSpringRequested`] (written in `AngbandSystems::Arrivals`):
/// what the trap did, or why it did nothing; the request holds its square.
pub type AngbandTrapSprung = Arrived<AngbandTrapSpringRequested>;
