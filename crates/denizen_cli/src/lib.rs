//! The `denizen` command line: exact odds, pool and population tables, sampling, spoilers.
//!
//! The binary is a thin shell over [`commands::run`], so every command is testable without
//! spawning a process.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod angband;
pub mod chart;
pub mod commands;
pub mod error;
pub mod interrupt;
pub mod spoiler;
pub mod table;
mod workers;
