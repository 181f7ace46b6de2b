//! Captive's encounter groups as a denizen rule set: the encounter table, the generator with
//! its two cycling cursors, and base floors.
//!
//! Deterministic, level-scaled population: groups placed by up to 300 random probes, the
//! type of each from a cursor walking a 64-slot ring and checked against the table
//! (category, earliest map, family mask of the map), members whose strength grows with the
//! map number under hard caps. No ECS here; the `denizen_bevy` plugin turns plans into
//! entities.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod base;
pub mod generator;
pub mod table;

pub use base::{encounter_stream, reference_base};
pub use generator::{
    BaseEncounters, Carry, EncounterPlan, EncounterSettings, Group, Growth, Member, MemberRange,
    Overflow, SpecialCellRefused, SpecialStage, Spread, Stop, check_special_cells, member_of,
    member_range,
};
pub use table::{Category, EncounterTable, EncounterType, FamilyMask, Slot};
