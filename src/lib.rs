#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use denizen_core::{data, floor, formula, layout, output, plan, rng, stats};

/// Angband 2.7.9's races, allocator, classic level and base population (feature
/// `angband`; its data is non-commercial).
#[cfg(feature = "angband")]
pub use denizen_angband as angband;
/// Captive's encounter groups: the table, the generator, base floors (feature `captive`).
#[cfg(feature = "captive")]
pub use denizen_captive as captive;
/// Omega 0.90.4's rules: bestiary, objects, locations, exact odds, construction, wandering
/// (feature `omega`).
#[cfg(feature = "omega")]
pub use denizen_omega as omega;

/// The Bevy plugins: the neutral plugin and one per rule set (feature `bevy`).
#[cfg(feature = "bevy")]
pub use denizen_bevy as bevy;

#[cfg(all(feature = "bevy", feature = "omega", feature = "captive"))]
pub mod guide;

/// The types most programs need, in one glob import that never clashes:
/// `use denizen::prelude::*;`. It holds the plugins' types when the `bevy` feature is on.
pub mod prelude {
    #[cfg(feature = "bevy")]
    pub use denizen_bevy::prelude::*;
    #[cfg(feature = "captive")]
    pub use denizen_captive::{
        Carry, Category, EncounterSettings, EncounterTable, EncounterType, Growth, Overflow,
    };
    pub use denizen_core::{
        ChiSquared, DataError, DataFile, Dice, FloorGrid, Origin, Room, RoomKind, Square,
        StreamPurpose, Tile, WorldSeed,
    };
    #[cfg(feature = "omega")]
    pub use denizen_omega::{
        Bestiary, Branch, Chronicle, Environment, Identity, Level, Locations, Odds, OmegaExtension,
        OmegaFiles, OmegaRules, PopulationRule, Preference, RequestError, Selector, SpeciesId,
        SpeciesTemplate,
    };
}
