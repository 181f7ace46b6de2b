//! Omega 0.90.4's monster generation as a denizen rule set: the bestiary and its objects,
//! locations and their recipes, the exact odds of every placement, population counts, the
//! square search, construction, wandering, summoning, the arena and were-forms.
//!
//! Every rule is a pure function of a seeded generator, the data and a request; there is
//! no ECS here (the `denizen_bevy` plugin turns plans into entities). The shipped data is
//! Omega's own ([`OmegaRules::shipped`]); a game brings its own files in the same format
//! ([`OmegaRules::from_ron`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bestiary;
pub mod construct;
pub mod findspace;
pub mod items;
pub mod location;
pub mod objects;
pub mod odds;
pub mod populate;
pub mod population;
pub mod recipe;
pub mod reference;
pub mod rng;
pub mod select;
pub mod species;
pub mod variants;
pub mod wander;

pub use bestiary::Bestiary;
pub use construct::{Chronicle, Identity, Monster, Preference, Stats};
pub use items::{Item, ItemId, Uniqueness};
pub use location::{Environment, Level, Locations, RequestError};
pub use odds::{Branch, Odds};
pub use population::PopulationRule;
pub use select::Selector;
pub use species::{SpeciesId, SpeciesTemplate, Status};
pub use variants::Variants;

use denizen_core::DataError;

/// Omega's whole rule set: the bestiary and the locations built on it, and the arena and
/// were-human variants.
#[derive(Clone, Debug)]
pub struct OmegaRules {
    /// Species and items.
    pub bestiary: Bestiary,
    /// Environments, dungeons and their recipes.
    pub locations: Locations,
    /// The arena and were-humans (Omega's with the shipped rules; a game's own bestiary
    /// brings its own with [`with_variants`](Self::with_variants), or has none).
    pub variants: Option<Variants>,
}

impl OmegaRules {
    /// Omega 0.90.4's bestiary, locations and variants, embedded in the crate.
    pub fn shipped() -> Self {
        let bestiary = Bestiary::shipped();
        let locations = Locations::shipped(&bestiary);
        let variants = Some(Variants::shipped(&bestiary));
        Self {
            bestiary,
            locations,
            variants,
        }
    }

    /// A game's own bestiary and locations from RON texts; the names label errors. The
    /// shipped arena and were-forms are kept when the bestiary has every species and item
    /// they name (a bestiary that extends Omega's), else there are none until
    /// [`with_variants`](Self::with_variants) adds a game's own.
    pub fn from_ron(
        bestiary: &str,
        bestiary_file: &str,
        locations: &str,
        locations_file: &str,
    ) -> Result<Self, DataError> {
        let bestiary = Bestiary::from_ron(bestiary, bestiary_file)?;
        let locations = Locations::from_ron(locations, locations_file, &bestiary)?;
        let variants = Variants::from_ron(
            variants::OMEGA_VARIANTS,
            variants::OMEGA_VARIANTS_FILE,
            &bestiary,
        )
        .ok();
        Ok(Self {
            bestiary,
            locations,
            variants,
        })
    }

    /// Replaces the variant rules with a game's own RON text.
    pub fn with_variants(mut self, text: &str, file: &str) -> Result<Self, DataError> {
        self.variants = Some(Variants::from_ron(text, file, &self.bestiary)?);
        Ok(self)
    }
}
