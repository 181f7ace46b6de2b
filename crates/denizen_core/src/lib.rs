//! The rules core of denizen: monster data, locations, species selection, exact odds.
//!
//! No ECS here: every rule is a pure function of a seeded generator, the data and a
//! request, so it can be sampled by the million and its odds computed exactly.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod catalogue;
pub mod construct;
pub mod encounters;
pub mod error;
pub mod floor;
pub mod formula;
pub mod location;
pub mod objects;
pub mod odds;
pub mod populate;
pub mod population;
pub mod recipe;
pub mod rng;
pub mod select;

pub use catalogue::{Catalogue, ItemId, Species, SpeciesId};
pub use error::DataError;
pub use location::{Environment, Level, Locations, RequestError};
pub use odds::{Branch, ChiSquared, Odds};
pub use population::PopulationRule;
pub use rng::{Dice, Generator, StreamPurpose, WorldSeed};
pub use select::Selector;

/// A catalogue and the locations built on it: everything a game's rules need.
#[derive(Clone, Debug)]
pub struct Ruleset {
    /// Species and items.
    pub catalogue: Catalogue,
    /// Environments, dungeons and their recipes.
    pub locations: Locations,
}

impl Ruleset {
    /// Omega 0.90.4's bestiary and locations, embedded in the crate.
    pub fn omega() -> Self {
        let catalogue = Catalogue::omega();
        let locations = Locations::omega(&catalogue);
        Self {
            catalogue,
            locations,
        }
    }

    /// A game's own bestiary and locations from RON texts; the names label errors.
    pub fn from_ron(
        bestiary: &str,
        bestiary_file: &str,
        locations: &str,
        locations_file: &str,
    ) -> Result<Self, DataError> {
        let catalogue = Catalogue::from_ron(bestiary, bestiary_file)?;
        let locations = Locations::from_ron(locations, locations_file, &catalogue)?;
        Ok(Self {
            catalogue,
            locations,
        })
    }
}
