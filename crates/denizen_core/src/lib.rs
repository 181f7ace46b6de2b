//! The neutral core of denizen: what every rule set uses.
//!
//! Seeded streams and dice ([`rng`]), the unbiased uniform and dice roller of new rules
//! ([`fair`]), the RON loader and its errors ([`data`]), the floor
//! grid with its rooms and occupancy ([`floor`]: the tiles every rule set knows, a rule
//! set's own as [`Tile::Feature`], a room's kind as its rule set's string), a reference
//! layout ([`layout`]), sets of squares of any shape ([`squares`]), a tag layer naming
//! squares' terrain and regions ([`tags`]), the
//! named regions a designer marks, each with a kind, an id and fields ([`regions`]), the
//! plans a rule set hands to the plugin, each creature tagged with an [`Origin`]
//! ([`plan`]), checked standard output for tools ([`output`]) and, with the `stats`
//! feature (tests and tools), the chi-squared check of sampled against exact odds
//! (`stats`). No rule set lives here (Omega's formula language is Omega's, in
//! `denizen_omega`) and nothing here depends on an ECS: each rule set is its own crate
//! over this one.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod data;
pub mod fair;
pub mod floor;
pub mod layout;
pub mod output;
pub mod plan;
pub mod regions;
pub mod rng;
pub mod squares;
#[cfg(feature = "stats")]
pub mod stats;
pub mod tags;

pub use data::{DataError, DataFile, Entry, load_ron, load_ron_with, quoted, read_data_file};
pub use floor::{FloorError, FloorGrid, FreeSquares, MAX_SQUARES, Rect, Room, Square, Tile};
pub use plan::{Origin, Plan, Spawn};
pub use rng::{Dice, Generator, StreamPurpose, WorldSeed};
pub use squares::{MAX_RUNS, SquareSet, SquareSetError};
#[cfg(feature = "stats")]
pub use stats::ChiSquared;
pub use tags::{MAX_TAGS, SquareTags, TagMask, TooManyTags};
