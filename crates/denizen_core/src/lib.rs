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
pub mod variants;
pub mod wander;

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
    /// The arena and were-humans (Omega's with the shipped rules; a game's own bestiary
    /// brings its own with [`with_variants`](Self::with_variants), or has none).
    pub variants: Option<variants::Variants>,
}

impl Ruleset {
    /// Omega 0.90.4's bestiary and locations, embedded in the crate.
    pub fn omega() -> Self {
        let catalogue = Catalogue::omega();
        let locations = Locations::omega(&catalogue);
        let variants = Some(variants::Variants::omega(&catalogue));
        Self {
            catalogue,
            locations,
            variants,
        }
    }

    /// A game's own bestiary and locations from RON texts; the names label errors. There
    /// are no variant rules until [`with_variants`](Self::with_variants) adds them.
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
            variants: None,
        })
    }

    /// Replaces the variant rules with a game's own RON text.
    pub fn with_variants(mut self, text: &str, file: &str) -> Result<Self, DataError> {
        self.variants = Some(variants::Variants::from_ron(text, file, &self.catalogue)?);
        Ok(self)
    }
}
