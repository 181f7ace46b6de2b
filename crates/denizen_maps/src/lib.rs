//! Floors from level editors: a level a designer drew, read as what denizen populates, a
//! [`FloorGrid`], the names on its squares, its [`Regions`] and its [`Mark`]s, with the
//! level's own fields (its depth, its context flags). It reads LDtk projects ([`ldtk`],
//! JSON read with `serde_json`) and Tiled maps ([`tmx`], read with the `tiled` crate, whose
//! types it never shows), so it needs neither Bevy nor a map plugin, and a game need not
//! depend on the same `tiled` release.
//!
//! # What a level becomes
//!
//! - **The grid.** Each grid value a square has is looked up by its name in a
//!   [`TileMapping`] (by default `wall`, `floor`, `water`, `door`, `secret` and `stairs`,
//!   whatever their case); a square no value maps is a wall. Every value's name is also a
//!   tag of its square (`water`, `lava`, `safe`), so placement rules can need or forbid it.
//! - **Regions.** A shape with an area (LDtk's resizable entities; Tiled's rectangles,
//!   ellipses and polygons) is a region: its kind is its identifier or class, its id its
//!   instance id, its fields its typed fields (text, whole numbers and flags; fields of
//!   other types are left out). LDtk's editor tags tag its squares, and so does its kind
//!   ([`EditorLevel::tag_areas`]). Kinds and tag names are read in lowercase (LDtk's
//!   `Lair` and Tiled's `lair` are one kind); field names are kept as written.
//! - **Marks.** A shape without a size (a point) is a [`Mark`] on the square holding it:
//!   the player's start, stairs, a spawner.
//!
//! # Shapes to squares
//!
//! A square belongs to a shape when its centre is inside the shape; a centre on an edge
//! belongs to the shape for its top and left edges only, so two shapes that share an edge
//! never share a square. For an ellipse or a polygon, a centre on the outline is in the
//! shape when the shape lies right of it or below it there ([`shape_squares`]). A point is
//! the square holding it (a point on a square's top or left edge is in that square). An
//! LDtk entity's box is its pixel position less its pivot times its size, in the floor's
//! squares of the layer's grid size; a Tiled object's shape is in the map's pixels, its
//! tiles square.
//!
//! # Refused, never misread
//!
//! Every error is one line naming the file, the level, the layer or entity (identifier and
//! instance id) and the field ([`MapError`]). Refused: text that is not the format, a
//! level of more than [`MAX_SQUARES`](denizen_core::MAX_SQUARES) squares, a grid of the
//! wrong length, layers of different grid sizes or with pixel offsets, a shape past the
//! level, more than [`MAX_SHAPES`] shapes, and files past
//! [`MAX_FILE_BYTES`](denizen_core::data::MAX_FILE_BYTES); each format's module lists
//! its own (a Tiled map's infinite layers, compressed data, rotated objects, polylines).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ldtk;
mod raster;
pub mod tmx;

use std::collections::BTreeMap;

use denizen_core::regions::{FieldValue, Regions};
use denizen_core::{FloorGrid, Square, SquareSet, Tile};

pub use raster::{Shape, point_square, rect_squares, shape_squares};

/// The most shapes (regions and marks together) one level holds.
pub const MAX_SHAPES: usize = 4096;

/// A level read from an editor's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorLevel {
    /// The level's name in its file (LDtk's identifier).
    pub name: String,
    /// Its squares' tiles.
    pub grid: FloorGrid,
    /// The names its grid values and its regions' editor tags give squares, by name, in
    /// lowercase ([`tag_areas`](Self::tag_areas) adds each region's kind).
    pub tags: BTreeMap<String, SquareSet>,
    /// Its regions, in (kind, id) order.
    pub regions: Regions,
    /// Its marks, in (kind, id) order.
    pub marks: Vec<Mark>,
    /// The level's own fields (its depth, context flags), by name.
    pub fields: BTreeMap<String, FieldValue>,
}

impl EditorLevel {
    /// The level's `depth` field, when it is a whole number that is a depth: several
    /// levels of one project may be several depths of one dungeon.
    pub fn depth(&self) -> Option<u32> {
        match self.fields.get("depth") {
            Some(FieldValue::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        }
    }

    /// The names the level gives squares, each with all its squares: its grid values' and
    /// editor tags' names ([`tags`](Self::tags)) and each region's kind. What a tag layer
    /// or a floor request takes from the level.
    pub fn tag_areas(&self) -> BTreeMap<String, SquareSet> {
        let mut areas = self.tags.clone();
        for region in self.regions.iter() {
            let area = areas.entry(region.kind.clone()).or_default();
            *area = area.union(&region.squares);
        }
        areas
    }

    /// The player's start: the square of the first mark whose kind is `start` or
    /// `player_start` (in any case, with or without `_` or `-`: LDtk's `PlayerStart`,
    /// Tiled's `start`).
    pub fn start(&self) -> Option<Square> {
        let is_start = |kind: &str| {
            let plain: String = kind.chars().filter(|c| !matches!(c, '_' | '-')).collect();
            matches!(plain.to_lowercase().as_str(), "start" | "playerstart")
        };
        self.marks.iter().find(|m| is_start(&m.kind)).map(|m| m.at)
    }
}

/// A point a designer marked: the player's start, stairs, a spawner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// What it marks (its identifier).
    pub kind: String,
    /// Its instance id.
    pub id: String,
    /// The square holding it.
    pub at: Square,
    /// Its typed fields, by name.
    pub fields: BTreeMap<String, FieldValue>,
}

/// Which level of a file to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelChoice {
    /// The level of this name (LDtk's identifier).
    Name(String),
    /// The level at this place in the file, from 0.
    Index(usize),
}

/// Which tile each grid value's name is: the game's mapping, since only it knows which of
/// its values are walls or water. Names are compared without case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileMapping(BTreeMap<String, Tile>);

impl Default for TileMapping {
    /// `wall`, `floor`, `water`, `door`, `secret` and `stairs` as those tiles.
    fn default() -> Self {
        let tiles = [
            ("wall", Tile::Wall),
            ("floor", Tile::Floor),
            ("water", Tile::Water),
            ("door", Tile::Door),
            ("secret", Tile::Secret),
            ("stairs", Tile::Stairs),
        ];
        Self(tiles.map(|(name, tile)| (name.to_owned(), tile)).into())
    }
}

impl TileMapping {
    /// No names mapped: every square is a wall until [`with`](Self::with) says more.
    pub fn empty() -> Self {
        Self(BTreeMap::new())
    }

    /// The same mapping with the value named `name` read as `tile`.
    pub fn with(mut self, name: &str, tile: Tile) -> Self {
        self.0.insert(name.to_lowercase(), tile);
        self
    }

    /// The tile of a value's name, if the mapping has one.
    pub fn tile(&self, name: &str) -> Option<Tile> {
        self.0.get(&name.to_lowercase()).copied()
    }
}

/// A name from a file as an error shows it: at most 60 bytes.
fn short(name: &str) -> String {
    denizen_core::data::excerpt(name, 60)
}

/// Why a level cannot be read: one line naming the file, where in it, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {place}{}: {message}", .field.as_ref().map(|f| format!(", field `{f}`")).unwrap_or_default())]
pub struct MapError {
    /// The file.
    pub file: String,
    /// Where in it: the level, the layer, the entity (identifier and instance id).
    pub place: String,
    /// The field, when the problem is in one.
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

/// The README's example, compiled with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
