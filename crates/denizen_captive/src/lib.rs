//! Captive's encounter groups as a denizen rule set: the encounter table, the generator with
//! its two cycling cursors, and base floors.
//!
//! Deterministic, level-scaled population: groups placed by up to 300 random probes, the
//! type of each from a cursor walking a 64-slot ring and checked against the table
//! (category, earliest map, family mask of the map), members whose strength grows with the
//! map number under hard caps. The rules have no ECS; with the `bevy` feature, the
//! `plugin` module's `CaptivePlugin` turns plans into entities, built on the neutral
//! `denizen_bevy` rule-set API.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod base;
pub mod generator;
pub mod table;
pub mod tile;

/// Where Captive's creatures come from: every member of an encounter group.
pub const ENCOUNTER_GROUP: denizen_core::Origin = denizen_core::Origin::new("EncounterGroup");
#[cfg(feature = "bevy")]
pub mod plugin;

pub use base::{encounter_stream, reference_base};
pub use generator::{
    BaseEncounters, Carry, EncounterPlan, EncounterSettings, Group, Growth, Member, MemberRange,
    Overflow, SpecialCellRefused, SpecialStage, Spread, Stop, check_special_cells, member_of,
    member_range,
};
pub use table::{Category, EncounterTable, EncounterType, FamilyMask, Slot};
