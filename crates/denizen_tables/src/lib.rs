//! A game's own bestiary as a denizen rule set: depth tables, groups and escorts, uniques,
//! placement rules, mod files, a lint and exact odds.
//!
//! A game writes its creatures in RON files ([`mod@file`] describes every field; the starter
//! bestiary in `data/` is a template): **species**, **tables** of rows (a species, a
//! group or another table, each with a depth range, an integer weight and a
//! [`Shape`]), **groups** of a leader and followers, **loot** tables, and the **floor**'s
//! and **wandering** arrivals' rules. [`load`] merges the files in order (a later file
//! adds, replaces, removes or appends by key), checks every number and reference, and runs
//! the [`lint`]. Then:
//!
//! - [`plan_floor`] plans a floor on a grid with a tag layer
//!   ([`SquareTags`](denizen_core::SquareTags)): its placements drawn, each unit placed
//!   under its placement rules, each follower linked to its leader;
//! - [`odds()`] gives the exact expected count of each species per placement or per floor;
//! - [`floor_counts`] samples what a floor draws, for checking the odds and for tools.
//!
//! The rules have no ECS; the same seed gives the same floor.
//!
//! ```
//! use denizen_core::{FloorGrid, SquareTags, StreamPurpose, WorldSeed};
//! use denizen_tables::{Context, FloorTerms, Per, UniqueLedger, odds, plan_floor, starter};
//!
//! let bestiary = starter().unwrap();
//! let grid = FloorGrid::from_rows(&["##########", "#........#", "#..~~~...#", "##########"]).unwrap();
//! let tags = SquareTags::from_grid(&grid);
//! let mut rng = WorldSeed(7).stream(StreamPurpose::new("floor").with(3));
//! let request = FloorTerms { depth: 3, ..FloorTerms::default() };
//! let floor = plan_floor(&bestiary, &grid, &tags, request, &UniqueLedger::new(), &mut rng).unwrap();
//! // Depth 3 has 2d4 + 3/2 placements: each drawn creature is placed or reported.
//! assert!(floor.placements >= 3);
//! assert!(floor.plan.spawns.len() + floor.shortfalls.len() >= 3);
//! let per_floor = odds(&bestiary, 3, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
//! assert!(per_floor.expected.iter().sum::<f64>() > 0.0);
//! ```

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod bag;
pub mod balance;
pub mod bestiary;
mod bounds;
pub mod calendar;
mod check;
mod compile;
mod compiled;
pub mod context;
mod draw;
pub mod file;
mod floor;
pub mod ledger;
pub mod lint;
mod merge;
pub mod odds;
mod pick;
mod place;
#[cfg(feature = "bevy")]
pub mod plugin;
pub mod reference;
mod region;
pub use region::MAX_POPULATED_REGIONS;
mod roll;
mod rules;
pub mod sample;
mod source;
mod walk;
mod wandering;
mod warning;
pub mod weight;
mod work;

use denizen_core::{DataError, DataFile, load_ron_with};

pub use bag::Bags;
pub use bestiary::{
    Bestiary, Branch, BranchId, Budget, Creature, FloorRules, Follower, Group, GroupId, ItemRef,
    Loot, LootId, OutOfDepthRule, Place, RegionRule, Row, RowTarget, Species, SpeciesId, Table,
    TableId, WanderingRules,
};
pub use bounds::{MAX_DATA, MAX_KEY_BYTES, MAX_NAME_BYTES, MAX_TAG_BYTES, MAX_TAG_NAMES};
pub use calendar::Calendar;
pub use check::{MAX_NESTING, MAX_PER_PLACEMENT};
pub use compile::{
    DEFAULT_ATTEMPTS, MAX_ATTEMPTS, MAX_BAG_COPIES, MAX_BUDGET, MAX_COST, MAX_COUNT, MAX_DISTANCE,
    MAX_FOLLOWERS, MAX_PER_FLOOR, MAX_PLACEMENTS, MAX_RADIUS, MAX_REGION_RULES,
};
pub use context::{Context, ContextError};
pub use draw::{Member, Unit};
pub use file::{Datum, Override, TimeUnit};
pub use floor::{
    Danger, Denizen, FloorPlan, FloorSite, FloorTerms, Following, RegionPlan, RequestError,
    Shortfall, check_regions, check_site, plan_arrival, plan_floor,
};
pub use ledger::{FloorState, UniqueLedger};
pub use merge::MAX_ENTRIES;
pub use odds::{
    Came, Counted, Distribution, DrawPath, Explanation, FloorOdds, MAX_EXACT_CAP_STATES,
    MAX_EXACT_CAPPED, MAX_EXACT_DANGER, MAX_EXACT_STATES, MAX_EXACT_UNIQUES, MAX_EXPLAINED_PATHS,
    Odds, OddsError, Per, RegionOdds, explain, floor_distribution, floor_odds, odds, region_odds,
    table_floor_odds, table_odds,
};
pub use place::distance;
pub use roll::{MAX_BONUS, MAX_RANGE, Roll, RollParseError, dice_distribution};
pub use rules::{RegionFieldError, has_eligible_row};
pub use sample::{Drawer, floor_counts, placement_counts, sample_stream};
pub use source::Source;
pub use wandering::plan_wanderer;
pub use warning::Warning;
pub use weight::{Chance, Depths, MAX_DEPTH, MAX_WEIGHT, Shape};

/// The most files one load merges.
pub const MAX_FILES: usize = 64;

/// Loads a bestiary from its files, merged in order: each parsed, applied (additions,
/// replacements, removals, appendices, settings), then every reference resolved, every
/// number bounded, the structure checked and the lint run. The error names the file, the
/// entry and the field; a lint error (a floor depth with nothing to draw) stops the load,
/// its warnings are kept in [`Bestiary::warnings`].
pub fn load(files: &[DataFile<'_>]) -> Result<Bestiary, DataError> {
    if files.len() > MAX_FILES {
        let name = files[MAX_FILES].name;
        return Err(DataError::invalid(
            name,
            "",
            "",
            format!(
                "more than {MAX_FILES} files in one load (this is file {})",
                MAX_FILES + 1
            ),
        ));
    }
    let mut merged = merge::Merged::default();
    for file in files {
        let parsed: file::TablesFile = load_ron_with(file.text, file.name, compile::limit)?;
        merged.apply(parsed, file.name)?;
    }
    let mut bestiary = compile::compile(&merged)?;
    check::check(&bestiary, &merged.files)?;
    bestiary.warnings = std::sync::Arc::new(lint::lint(&bestiary)?);
    bestiary.draws = std::sync::Arc::new(pick::prepare(&bestiary));
    Ok(bestiary)
}

/// The starter bestiary's base file: creatures, names and text of this project's own.
pub const STARTER: &str = include_str!("../data/starter.tables.ron");

/// The starter bestiary's mod file: it adds, replaces and removes.
pub const STARTER_MOD: &str = include_str!("../data/starter_mod.tables.ron");

/// The starter bestiary, its base file and mod file merged.
pub fn starter() -> Result<Bestiary, DataError> {
    load(&[
        DataFile::new("starter.tables.ron", STARTER),
        DataFile::new("starter_mod.tables.ron", STARTER_MOD),
    ])
}
