//! Omega's rules through the crate's public API, one binary with a module per topic: the
//! spec's own numbers, seeded sampling against exact odds, data errors, golden values.

mod construction;
mod data_errors;
mod determinism;
mod fuzz;
mod golden;
mod limits;
mod modules;
mod monte_carlo;
mod spec_numbers;

use denizen_omega::{Level, OmegaRules, SpeciesId};

/// The shipped Omega rules.
pub fn omega() -> OmegaRules {
    OmegaRules::shipped()
}

/// The level rules of a dungeon depth.
pub fn level<'a>(rules: &'a OmegaRules, location: &str, depth: u32) -> &'a Level {
    rules.locations.get(location).unwrap().level(depth).unwrap()
}

/// The species id of a key in the shipped bestiary.
pub fn id(rules: &OmegaRules, key: &str) -> SpeciesId {
    rules
        .bestiary
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
