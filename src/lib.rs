#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use denizen_core::*;

/// The Bevy plugin: components, resources, messages and the population system.
pub use denizen_bevy as bevy;

/// The types most programs need, in one import: `use denizen::prelude::*;`.
pub mod prelude {
    pub use denizen_core::{
        Branch, Catalogue, DataError, Dice, Environment, Level, Locations, Odds, PopulationRule,
        RequestError, Ruleset, Selector, SpeciesId, StreamPurpose, WorldSeed,
    };
}
