//! The guide: how to use denizen in a game, chapter by chapter, and where its rules stand
//! against the original games'. Each chapter is a module of its own, so its examples are
//! compiled and its links checked with the rest of the documentation. The guide is here
//! whatever the features; a chapter is rendered when the build has the features its
//! examples need (`cargo doc --all-features` renders them all).
//!
#![cfg_attr(
    all(feature = "bevy", feature = "omega", feature = "captive"),
    doc = "1. [In a Bevy game](ch01_in_a_bevy_game): the plugins, their settings and phases, the floor and arrival pipelines, the apply step, Omega's monsters, a rule set of one's own."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "omega", feature = "captive")),
    doc = "1. In a Bevy game (with the `bevy`, `omega` and `captive` features)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "omega", feature = "captive"),
    doc = "2. [Floors, occupancy and saves](ch02_floors_and_saves): floors put away and brought back, and saves."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "omega", feature = "captive")),
    doc = "2. Floors, occupancy and saves (with the `bevy`, `omega` and `captive` features)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "omega"),
    doc = "3. [The living world](ch03_the_living_world): the clock, wandering arrivals, the countryside, summoning, temples, fixed inhabitants, the arena, were-humans."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "omega")),
    doc = "3. The living world (with the `bevy` and `omega` features)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "captive"),
    doc = "4. [Encounter groups](ch04_encounter_groups): Captive's groups on base maps."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "captive")),
    doc = "4. Encounter groups (with the `bevy` and `captive` features)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "angband_data"),
    doc = "5. [Angband 2.7.9 levels](ch05_angband_levels): the level, its monsters, objects, feelings and traps."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "angband_data")),
    doc = "5. Angband 2.7.9 levels (with the `bevy` and `angband_data` features)."
)]
//! 6. [The `denizen` command](ch06_the_command_line): odds, samples and spoilers on the command line.
#![cfg_attr(
    all(feature = "omega", feature = "captive"),
    doc = "7. [The rules without Bevy](ch07_rules_without_bevy): exact odds and sampling as plain functions."
)]
#![cfg_attr(
    not(all(feature = "omega", feature = "captive")),
    doc = "7. The rules without Bevy (with the `omega` and `captive` features)."
)]
#![cfg_attr(
    feature = "omega",
    doc = "8. [Data files](ch08_data): the formats, and data files as Bevy assets."
)]
#![cfg_attr(
    not(feature = "omega"),
    doc = "8. Data files (with the `omega` feature)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "captive", feature = "omega"),
    doc = "9. [Fidelity to Omega](ch09_fidelity): where the rules and the original differ, and why."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "captive", feature = "omega")),
    doc = "9. Fidelity to Omega (with the `bevy`, `captive` and `omega` features)."
)]
#![cfg_attr(
    feature = "tables",
    doc = "10. [Your own tables](ch10_your_own_tables): a game's own bestiary: depth tables, groups and escorts, uniques, placement rules, mod files, the lint, exact odds."
)]
#![cfg_attr(
    not(feature = "tables"),
    doc = "10. Your own tables (with the `tables` feature)."
)]
#![cfg_attr(
    all(feature = "tables", feature = "assets"),
    doc = "11. [Your own monsters in ten minutes](ch11_your_own_monsters): a new game with the tables' starter bestiary as assets, edited while it runs, and its odds on the command line."
)]
#![cfg_attr(
    not(all(feature = "tables", feature = "assets")),
    doc = "11. Your own monsters in ten minutes (with the `tables` and `assets` features)."
)]
#![cfg_attr(
    all(feature = "bevy", feature = "tables", feature = "maps"),
    doc = "12. [Floors from a level editor](ch12_floors_from_a_level_editor): an LDtk level or a Tiled map read as a grid, tags, regions and marks, and populated, on the command line and in a Bevy game."
)]
#![cfg_attr(
    not(all(feature = "bevy", feature = "tables", feature = "maps")),
    doc = "12. Floors from a level editor (with the `bevy`, `tables` and `maps` features)."
)]
#![cfg_attr(
    feature = "tables",
    doc = "13. [Balancing with exact odds](ch13_balancing_with_exact_odds): what an edit did at every depth, where a species comes from, the chance a floor holds one, balance claims checked in CI, and a report page."
)]
#![cfg_attr(
    not(feature = "tables"),
    doc = "13. Balancing with exact odds (with the `tables` feature)."
)]

#[cfg(all(feature = "bevy", feature = "omega", feature = "captive"))]
#[doc = include_str!("../guide/01-in-a-bevy-game.md")]
pub mod ch01_in_a_bevy_game {}

#[cfg(all(feature = "bevy", feature = "omega", feature = "captive"))]
#[doc = include_str!("../guide/02-floors-and-saves.md")]
pub mod ch02_floors_and_saves {}

#[cfg(all(feature = "bevy", feature = "omega"))]
#[doc = include_str!("../guide/03-the-living-world.md")]
pub mod ch03_the_living_world {}

#[cfg(all(feature = "bevy", feature = "captive"))]
#[doc = include_str!("../guide/04-encounter-groups.md")]
pub mod ch04_encounter_groups {}

#[cfg(all(feature = "bevy", feature = "angband_data"))]
#[doc = include_str!("../guide/05-angband-levels.md")]
pub mod ch05_angband_levels {}

#[doc = include_str!("../guide/06-the-command-line.md")]
pub mod ch06_the_command_line {}

#[cfg(all(feature = "omega", feature = "captive"))]
#[doc = include_str!("../guide/07-rules-without-bevy.md")]
pub mod ch07_rules_without_bevy {}

#[doc = include_str!("../guide/08-data.md")]
#[cfg_attr(
    all(feature = "assets", feature = "captive"),
    doc = include_str!("../guide/08-data-assets.md")
)]
#[cfg_attr(
    not(all(feature = "assets", feature = "captive")),
    doc = "## Data files as Bevy assets\n\nWith the `assets` feature every kind of data file \
           is also a Bevy asset, followed while the game runs; this chapter shows how when \
           the documentation is built with it and `captive` (as on docs.rs)."
)]
#[cfg(feature = "omega")]
pub mod ch08_data {}

#[cfg(all(feature = "bevy", feature = "captive", feature = "omega"))]
#[doc = include_str!("../guide/09-fidelity.md")]
pub mod ch09_fidelity {}

#[cfg(feature = "tables")]
#[doc = include_str!("../guide/10-your-own-tables.md")]
pub mod ch10_your_own_tables {}

#[doc = include_str!("../guide/11-your-own-monsters.md")]
#[doc = concat!("```rust,no_run\n", include_str!("../examples/your_own_monsters.rs"), "```")]
#[cfg(all(feature = "tables", feature = "assets"))]
pub mod ch11_your_own_monsters {}

#[doc = include_str!("../guide/12-floors-from-a-level-editor.md")]
#[cfg(feature = "assets")]
#[cfg(all(feature = "bevy", feature = "tables", feature = "maps"))]
pub mod ch12_floors_from_a_level_editor {}

#[cfg(feature = "tables")]
#[doc = include_str!("../guide/13-balancing-with-exact-odds.md")]
pub mod ch13_balancing_with_exact_odds {}
