//! Integration tests of denizen through its public API, one binary with a module per topic.

mod data_errors;
mod determinism;
mod encounters;
mod monte_carlo;
mod plugin;
mod spec_numbers;
mod world;

use denizen::prelude::*;

/// The shipped Omega rules.
pub fn omega() -> Ruleset {
    Ruleset::omega()
}

/// The level rules of a dungeon depth.
pub fn level<'a>(rules: &'a Ruleset, location: &str, depth: u32) -> &'a Level {
    rules.locations.get(location).unwrap().level(depth).unwrap()
}

/// The species id of a key in the shipped bestiary.
pub fn id(rules: &Ruleset, key: &str) -> SpeciesId {
    rules
        .catalogue
        .species_id(key)
        .unwrap_or_else(|| panic!("no species {key}"))
}

/// Asserts two probabilities agree to 1e-12.
#[track_caller]
pub fn assert_close(actual: f64, expected: f64) {
    assert!(
        (actual - expected).abs() < 1e-12,
        "expected {expected}, got {actual}"
    );
}
