#![doc = include_str!(concat!(env!("OUT_DIR"), "/front_page.md"))]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "stats")]
pub use denizen_core::stats;
pub use denizen_core::{data, floor, layout, output, plan, regions, rng, squares, tags};

/// Angband 2.7.9's races, allocator, classic level and base population (feature
/// `angband`, on a game's own data files; Angband 2.7.9's own data, which is
/// non-commercial, with `angband_data`).
#[cfg(feature = "angband")]
pub use denizen_angband as angband;
/// Captive's encounter groups: the table, the generator, base floors (feature `captive`).
#[cfg(feature = "captive")]
pub use denizen_captive as captive;
/// Floors from level editors: an LDtk project's level or a Tiled map read as a floor
/// grid, tags, regions and marks (feature `maps`).
#[cfg(feature = "maps")]
pub use denizen_maps as maps;
/// Omega 0.90.4's rules: bestiary, objects, locations, exact odds, construction, wandering
/// (feature `omega`).
#[cfg(feature = "omega")]
pub use denizen_omega as omega;
/// A game's own bestiary: depth tables, groups and escorts, uniques, placement rules, mod
/// files, lint and exact odds, with a starter bestiary (feature `tables`).
#[cfg(feature = "tables")]
pub use denizen_tables as tables;

/// The Bevy plugins (feature `bevy`): the neutral plugin and its rule-set API
/// (`denizen_bevy`, with [`DenizenPlugin`](bevy::DenizenPlugin) declaring every enabled rule
/// set's requests), each enabled rule set's plugin as a module (`omega`, `captive`,
/// `angband`, `tables`: each rule set's `plugin` module), and [`DenizenPlugins`](bevy::DenizenPlugins),
/// which adds them all.
#[cfg(feature = "bevy")]
pub mod bevy {
    pub use denizen_bevy::*;

    /// Angband 2.7.9's levels in play (`denizen_angband::plugin`).
    #[cfg(feature = "angband")]
    pub use denizen_angband::plugin as angband;
    /// Captive's encounter groups in play (`denizen_captive::plugin`).
    #[cfg(feature = "captive")]
    pub use denizen_captive::plugin as captive;
    /// Omega 0.90.4 in play (`denizen_omega::plugin`).
    #[cfg(feature = "omega")]
    pub use denizen_omega::plugin as omega;
    /// A game's own bestiary in play (`denizen_tables::plugin`).
    #[cfg(feature = "tables")]
    pub use denizen_tables::plugin as tables;

    mod group;
    mod plugin;
    pub use group::DenizenPlugins;
    pub use plugin::DenizenPlugin;

    /// The types most games need, in one glob import that never clashes:
    /// `use denizen::bevy::prelude::*;` (the crate's prelude holds it too).
    pub mod prelude {
        #[cfg(feature = "angband")]
        pub use denizen_angband::plugin::prelude::*;
        pub use denizen_bevy::prelude::*;
        #[cfg(feature = "captive")]
        pub use denizen_captive::plugin::prelude::*;
        #[cfg(feature = "omega")]
        pub use denizen_omega::plugin::prelude::*;
        #[cfg(feature = "tables")]
        pub use denizen_tables::plugin::prelude::*;

        pub use super::{DenizenPlugin, DenizenPlugins};
    }
}

pub mod docs;
pub mod guide;

/// The types most programs need, in one glob import that never clashes:
/// `use denizen::prelude::*;`. It holds the plugins' types when the `bevy` feature is on.
pub mod prelude {
    #[cfg(feature = "bevy")]
    pub use crate::bevy::prelude::*;
    #[cfg(feature = "captive")]
    pub use denizen_captive::{
        Carry, Category, EncounterSettings, EncounterTable, EncounterType, Growth, Overflow,
    };
    #[cfg(feature = "stats")]
    pub use denizen_core::ChiSquared;
    pub use denizen_core::{
        DataError, DataFile, Dice, FloorGrid, Origin, Room, Square, SquareSet, StreamPurpose, Tile,
        WorldSeed,
    };
    #[cfg(feature = "omega")]
    pub use denizen_omega::{
        Bestiary, Branch, Chronicle, Environment, Identity, Level, Locations, Odds, OmegaExtension,
        OmegaFiles, OmegaRules, PopulationRule, Preference, RequestError, Selector, SpeciesId,
        SpeciesTemplate, Status, StatusSet,
    };
}
