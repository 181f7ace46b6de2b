//! The neutral core of denizen: what every rule set uses.
//!
//! Seeded streams and dice ([`rng`]), the formula language of data files ([`formula`]),
//! the RON loader and its errors ([`data`]), the floor grid with its rooms and occupancy
//! ([`floor`]), a reference layout ([`layout`]), the plans a rule set hands to the plugin
//! ([`plan`]) and the chi-squared check of sampled against exact odds ([`stats`]). No rule
//! set lives here and nothing here depends on an ECS: each rule set is its own crate over
//! this one.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod data;
pub mod floor;
pub mod formula;
pub mod layout;
pub mod output;
pub mod plan;
pub mod rng;
pub mod stats;

pub use data::{DataError, DataFile, Entry, load_ron, quoted, read_data_file};
pub use floor::{
    FloorError, FloorGrid, FreeSquares, MAX_SQUARES, Rect, Room, RoomKind, Square, Tile,
};
pub use plan::{Origin, Plan, Spawn};
pub use rng::{Dice, Generator, StreamPurpose, WorldSeed};
pub use stats::ChiSquared;
