//! The `denizen` command line: exact odds, pool and population tables, sampling, spoilers,
//! charts; one module per rule set, each behind its cargo feature (`omega`, `captive`,
//! `angband`, `tables`, all on by default).
//!
//! The binary is a thin shell over [`commands::run`], so every command is testable without
//! spawning a process.

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "angband")]
pub mod angband;
#[cfg(feature = "tables")]
pub mod balance;
#[cfg(feature = "tables")]
mod bestiary_files;
#[cfg(feature = "captive")]
pub mod captive;
pub mod chart;
pub mod commands;
#[cfg(feature = "tables")]
pub mod diff;
#[cfg(feature = "tables")]
mod editor_level;
pub mod error;
#[cfg(feature = "tables")]
mod figures;
pub mod interrupt;
#[cfg(feature = "omega")]
pub mod omega;
#[cfg(feature = "tables")]
mod picture;
#[cfg(feature = "tables")]
pub mod report;
#[cfg(feature = "omega")]
pub mod spoiler;
pub mod table;
#[cfg(feature = "tables")]
pub mod tables;
#[cfg(any(feature = "omega", feature = "angband", feature = "tables"))]
mod workers;
