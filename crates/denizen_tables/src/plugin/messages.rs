//! Messages in and out of the tables plugin.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::floor::{FloorHeld, FloorId};
use denizen_bevy::pipeline::{FloorServed, NotOurFloor};
use denizen_bevy::pipeline::{RulesNotReady, RulesRefused};
use denizen_core::regions::Regions;
use denizen_core::{FloorGrid, Square, SquareSet, TooManyTags};

use super::resources::TagArea;
use crate::{RequestError, Shortfall};

/// Written by the host after it has filled [`FloorMap`](denizen_bevy::FloorMap): populate
/// the floor `location` at `depth` from the bestiary. Served in
/// [`TablesSystems::Floors`](super::TablesSystems::Floors) and answered with
/// a [`TablesFloorServed`].
///
/// The placement rules read the floor's tags: the map's ([`SquareTags::from_grid`]:
/// `floor`, `water`, `room`, `corridor`, ...) and the areas the request adds
/// ([`tag`](Self::tag)); distances count from the player's square when it is given.
///
/// [`SquareTags::from_grid`]: denizen_core::SquareTags::from_grid
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesFloorRequested {
    /// The floor's location (a dungeon's name): the floor is `(location, depth)`.
    pub location: String,
    /// Its depth: one of the bestiary's floor depths.
    pub depth: u32,
    /// The table its placements draw from, by key, instead of the floor's (a dungeon of
    /// its own: the floor's count, out-of-depth rule and placement rules stay).
    pub table: Option<String>,
    /// The branch whose floor rules and wandering arrivals it has, by key (the default
    /// floor's when none); its record keeps it.
    pub branch: Option<String>,
    /// Where the player stands, if on the floor already.
    pub player: Option<Square>,
    /// Tags the game gives areas of the floor.
    pub tags: Vec<TagArea>,
    /// The map the floor is drawn on when the request brings one (a level drawn in an
    /// editor: [`on_map`](Self::on_map)); it is put in `FloorMap` as the floor is entered.
    /// `None`: the host's `FloorMap`.
    pub map: Option<FloorGrid>,
    /// The floor's regions: each of a kind the floor's rules name is populated from its
    /// own draw ([`regions`](Self::regions)).
    pub regions: Regions,
    /// The level of a map asset the floor is drawn on ([`on_map_level`](Self::on_map_level)).
    #[cfg(all(feature = "maps", feature = "assets"))]
    pub map_level: Option<MapLevel>,
}

/// A level of a map asset (an LDtk project or a Tiled map loaded as an
/// [`EditorMap`](denizen_bevy::assets::maps::EditorMap)).
#[cfg(all(feature = "maps", feature = "assets"))]
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct MapLevel {
    /// The map.
    pub map: denizen_bevy::assets::bevy_asset::Handle<denizen_bevy::assets::maps::EditorMap>,
    /// The level's name (an LDtk level's identifier). None: the map's level whose `depth`
    /// field is the request's depth, else its first.
    pub level: Option<String>,
}

impl TablesFloorRequested {
    /// Populate the floor `location` at `depth`.
    pub fn new(location: impl Into<String>, depth: u32) -> Self {
        Self {
            location: location.into(),
            depth,
            table: None,
            branch: None,
            player: None,
            tags: Vec::new(),
            map: None,
            regions: Regions::default(),
            #[cfg(all(feature = "maps", feature = "assets"))]
            map_level: None,
        }
    }

    /// The floor has `regions`: each of a kind the floor's rules name is populated from
    /// its own draw, after the floor's own placements, and its squares are tagged with its
    /// kind.
    pub fn regions(mut self, regions: Regions) -> Self {
        self.regions = regions;
        self
    }

    /// The floor is drawn on `map`, which the plugin puts in `FloorMap` as the floor is
    /// entered (the host's `FloorMap` is not read).
    pub fn on_map(mut self, map: FloorGrid) -> Self {
        self.map = Some(map);
        self
    }

    /// Draws the placements from the table `key` instead of the floor's.
    pub fn table(mut self, key: impl Into<String>) -> Self {
        self.table = Some(key.into());
        self
    }

    /// The floor is one of the branch `key`: its floor rules and wandering arrivals.
    pub fn branch(mut self, key: impl Into<String>) -> Self {
        self.branch = Some(key.into());
        self
    }

    /// The player stands at `at`: least distances count from there.
    pub fn player(mut self, at: Square) -> Self {
        self.player = Some(at);
        self
    }

    /// Gives every square of `area` the tag `name`: a rectangle (a safe room: `"safe"`)
    /// or a [`SquareSet`] of any shape (a river of `"lava"`).
    /// Squares off the floor are left out.
    pub fn tag(mut self, name: impl Into<String>, area: impl Into<SquareSet>) -> Self {
        self.tags.push(TagArea {
            name: name.into(),
            squares: area.into(),
        });
        self
    }

    /// The floor this request populates.
    pub fn floor(&self) -> FloorId {
        FloorId::new(self.location.as_str(), self.depth)
    }
}

#[cfg(feature = "maps")]
impl TablesFloorRequested {
    /// Populate a level drawn in LDtk or Tiled (read with `denizen_maps`) as the floor
    /// `location` at `depth`: drawn on the level's grid (put in `FloorMap` as the floor is
    /// entered), its squares tagged with the level's names and each region's kind, its
    /// regions populated by the floor's region rules, the player on its start mark
    /// ([`EditorLevel::start`](denizen_maps::EditorLevel::start)).
    /// A level's `depth` field and context flags are the game's to read.
    pub fn on_level(
        location: impl Into<String>,
        depth: u32,
        level: &denizen_maps::EditorLevel,
    ) -> Self {
        let mut request = Self::new(location, depth).on_map(level.grid.clone());
        request.player = level.start();
        request.regions = level.regions.clone();
        let areas = level.tag_areas().into_iter();
        areas.fold(request, |request, (name, squares)| {
            request.tag(name, squares)
        })
    }
}

#[cfg(all(feature = "maps", feature = "assets"))]
impl TablesFloorRequested {
    /// Populate the level `level` of a map asset as the floor `location` at `depth` (when
    /// none is named, the map's level whose `depth` field is `depth`, else its first: a
    /// project whose levels are a dungeon's floors). When served, the request is [`on_level`](Self::on_level) of
    /// that level as the asset holds it then, with this request's table, branch and tag
    /// areas added, and its player and regions when it gives them. Refused, changing
    /// nothing, while the map loads ([`TablesFloorRefusal::MapLoading`]), when it failed to
    /// load, and when it has no such level.
    pub fn on_map_level(
        location: impl Into<String>,
        depth: u32,
        map: denizen_bevy::assets::bevy_asset::Handle<denizen_bevy::assets::maps::EditorMap>,
        level: Option<String>,
    ) -> Self {
        let mut request = Self::new(location, depth);
        request.map_level = Some(MapLevel { map, level });
        request
    }
}

/// A drawn creature that is not on the floor, and why.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct Unplaced {
    /// Its species' key.
    pub species: String,
    /// Why: no square met its placement rules, no room near its leader, or its leader
    /// found no square.
    pub why: Shortfall,
}

/// The answer to a [`TablesFloorRequested`] (written in
/// [`TablesSystems::Floors`](super::TablesSystems::Floors)): what was populated, or why
/// nothing was and nothing changed.
pub type TablesFloorServed = FloorServed<TablesFloorRequested>;

/// What a floor was populated with, the answer's outcome when it was served: its
/// creatures, what was not placed, and its danger.
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesFloorPopulated {
    /// The creatures placed, in plan order (each leader before its followers).
    pub placed: Vec<Entity>,
    /// Each creature drawn but not placed, and why.
    pub unplaced: Vec<Unplaced>,
    /// How many placements the floor drew.
    pub placements: u32,
    /// How many of them went out of depth (their creatures have
    /// [`OutOfDepth`](super::components::OutOfDepth)).
    pub out_of_depth: u32,
    /// The floor's danger: the costs of the creatures drawn, and of those placed, and
    /// the budget a budgeted floor rolled (its regions' included, but for the budget).
    pub danger: crate::Danger,
    /// Each region the floor's rules populated, in the order drawn. `placements` and
    /// `out_of_depth` above are the floor's own placements'; `placed` and `unplaced` list
    /// the regions' creatures too.
    pub regions: Vec<PopulatedRegion>,
}

/// What one region of a floor was populated with (its creatures carry
/// [`HomeRegion`](super::components::HomeRegion)).
#[derive(Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct PopulatedRegion {
    /// The region's id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// Its depth: the floor's plus its `depth_offset`.
    pub depth: u32,
    /// The table it drew from, by key.
    pub table: String,
    /// How many placements it drew.
    pub placements: u32,
    /// How many of them went out of depth.
    pub out_of_depth: u32,
    /// Its danger: the costs of its creatures drawn and placed, and its budget.
    pub danger: crate::Danger,
    /// Each of its creatures drawn but not placed, and why (never placed outside it).
    pub unplaced: Vec<Unplaced>,
}

/// Why a [`TablesFloorRequested`] was refused.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum TablesFloorRefusal {
    /// Another floor was populated in this run.
    #[error("{0}")]
    FloorHeld(FloorHeld),
    /// The floor is current or put away under another rule set: nothing
    /// changed.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// The rules cannot plan it: the depth is not one of the bestiary's floors'.
    #[error("{0}")]
    Request(RequestError),
    /// The table named has no row eligible at the depth: its floor would draw nothing.
    #[error("table {} has no row at depth {depth}", denizen_core::quoted(.table))]
    NothingToDraw {
        /// The table's key.
        table: String,
        /// The depth.
        depth: u32,
    },
    /// The request's tag areas hold more tag names than a floor can.
    #[error("{0}")]
    Tags(TooManyTags),
    /// The request names a table the bestiary does not have.
    #[error("no table {} in the bestiary", denizen_core::quoted(.0))]
    UnknownTable(String),
    /// The request names a branch the bestiary does not have.
    #[error("no branch {} in the bestiary", denizen_core::quoted(.0))]
    UnknownBranch(String),
    /// The request gives more tag areas than a floor holds.
    #[error("{0} tag areas, and a floor holds at most {max}", max = super::resources::MAX_TAG_AREAS)]
    TooManyAreas(usize),
    /// The map asset the request names has not loaded yet: nothing changed.
    #[cfg(all(feature = "maps", feature = "assets"))]
    #[error("the map asset has not loaded yet")]
    MapLoading,
    /// The map asset the request names is neither loaded nor loading (a handle not given
    /// by the asset server's `load`, or of a map since dropped): nothing changed.
    #[cfg(all(feature = "maps", feature = "assets"))]
    #[error("the map asset is neither loaded nor loading: load it with the AssetServer")]
    MapNotLoaded,
    /// The map asset the request names failed to load: why (the file, the place and the
    /// field). Nothing changed.
    #[cfg(all(feature = "maps", feature = "assets"))]
    #[error("{0}")]
    MapRefused(String),
    /// The map asset has no level of the name given.
    #[cfg(all(feature = "maps", feature = "assets"))]
    #[error("{map}: no level {}; it has {levels:?}", denizen_core::quoted(.level))]
    NoSuchLevel {
        /// The map's asset path.
        map: String,
        /// The name asked for.
        level: String,
        /// Its levels' names.
        levels: Vec<String>,
    },
    /// The bestiary's data files (feature `assets`) have not loaded yet: nothing changed.
    #[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
    RulesLoading,
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal (file, entry and field), until the files are mended. Nothing changed.
    #[error("{0}")]
    RulesRefused(RulesRefused),
}

impl From<NotOurFloor> for TablesFloorRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<FloorHeld> for TablesFloorRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl From<RulesNotReady> for TablesFloorRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(_) => Self::RulesLoading,
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// Written by the game when the player kills a unique (the key of its
/// [`Unique`](super::components::Unique)): it never comes again. The game despawns the
/// creature, as it does any creature that dies: a save holding a killed unique still
/// standing is refused, as no game can be in that state. Read in
/// [`TablesSystems::Floors`](super::TablesSystems::Floors), before the floors asked for in
/// the same update are drawn (kept until the bestiary's files have loaded).
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesUniqueKilled {
    /// The unique's key.
    pub unique: String,
}

/// A [`TablesUniqueKilled`] naming no unique of the bestiary in use: the ledger is
/// unchanged.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesUniqueKillRefused {
    /// The key written.
    pub unique: String,
}

/// The bestiary's lint found something to warn about in the files just loaded (feature
/// `assets`: written each time edited files are swapped in). The files are in use; each
/// line names the file, the entry and the field.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesLintWarnings {
    /// The warnings, one line each.
    pub warnings: Vec<String>,
}

/// Saved state that did not fit the bestiary in use (a save of other files, an edited one,
/// or files reloaded since), mended and reported once: checked after a load and whenever
/// the rules change, in [`TablesSystems::Floors`](super::TablesSystems::Floors).
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct TablesStateMended {
    /// What did not fit, one line each.
    pub misfits: Vec<String>,
}
