//! Omega 0.90.4's monster generation as a denizen rule set: the bestiary and its objects,
//! locations and their recipes, the exact odds of every placement, population counts, the
//! square search, construction, wandering, summoning, the arena and were-forms.
//!
//! Every rule is a pure function of a seeded generator, the data and a request, with no
//! ECS; the data files' formulas are Omega's own small language ([`formula`]). With the
//! `bevy` feature, the `plugin` module's `OmegaPlugin` turns plans into entities, built
//! on the neutral `denizen_bevy` rule-set API. The shipped data is Omega's own
//! ([`OmegaRules::shipped`]); a game brings its own files in the same format
//! ([`OmegaRules::from_files`]) or adds to Omega's ([`OmegaRules::shipped_with`]).

#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod bestiary;
pub mod construct;
pub mod findspace;
pub mod formula;
pub mod items;
pub mod location;
pub mod objects;
pub mod odds;
pub mod origin;
pub mod place;
#[cfg(feature = "bevy")]
pub mod plugin;
pub mod populate;
pub mod population;
pub mod recipe;
pub mod reference;
pub mod rng;
pub mod select;
pub mod species;
pub mod streams;
pub mod tile;
pub mod variants;
pub mod wander;

pub use bestiary::Bestiary;
pub use construct::{Chronicle, Identity, Monster, Preference, Stats};
pub use items::{Item, ItemId, Uniqueness};
pub use location::{Environment, Level, Locations, RequestError};
pub use odds::{Branch, Odds};
pub use population::PopulationRule;
pub use select::Selector;
pub use species::{SpeciesId, SpeciesTemplate, Status, StatusSet};
pub use variants::Variants;

use denizen_core::{DataError, DataFile};

/// A game's own Omega data files, by name (see [`OmegaRules::from_files`]).
#[derive(Clone, Copy, Debug)]
pub struct OmegaFiles<'a> {
    /// The bestiary: species and items.
    pub bestiary: DataFile<'a>,
    /// The locations, their difficulties and recipes.
    pub locations: DataFile<'a>,
    /// The arena and were-forms, if the game has its own.
    pub variants: Option<DataFile<'a>>,
}

/// What a game adds to Omega's data (see [`OmegaRules::shipped_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct OmegaExtension<'a> {
    /// More species and items: `(species: [...], items: [...])`.
    pub species: Option<DataFile<'a>>,
    /// More environments: `(environments: [...])`.
    pub locations: Option<DataFile<'a>>,
}

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

    /// A game's own data, file by file: its bestiary and locations replace Omega's, and its
    /// variants, when given, replace the shipped arena and were-forms. Without its own
    /// variants the shipped ones are kept when the bestiary has every species and item
    /// they name (a bestiary that extends Omega's), else there are none.
    pub fn from_files(files: OmegaFiles<'_>) -> Result<Self, DataError> {
        let bestiary = Bestiary::from_file(files.bestiary)?;
        let locations = Locations::from_file(files.locations, &bestiary)?;
        let variants = match files.variants {
            Some(own) => Some(Variants::from_file(own, &bestiary)?),
            None => Variants::from_file(
                DataFile::new(variants::OMEGA_VARIANTS_FILE, variants::OMEGA_VARIANTS),
                &bestiary,
            )
            .ok(),
        };
        Ok(Self {
            bestiary,
            locations,
            variants,
        })
    }

    /// Omega's data with a game's additions: species and items after the shipped ones
    /// ([`Bestiary::shipped_with`]) and environments after the shipped ones
    /// ([`Locations::shipped_with`]); the shipped variants are kept. A game that adds one
    /// dungeon brings only that dungeon.
    pub fn shipped_with(extra: OmegaExtension<'_>) -> Result<Self, DataError> {
        let bestiary = match extra.species {
            Some(file) => Bestiary::shipped_with(file)?,
            None => Bestiary::shipped(),
        };
        let locations = match extra.locations {
            Some(file) => Locations::shipped_with(file, &bestiary)?,
            None => Locations::from_file(
                DataFile::new(location::OMEGA_LOCATIONS_FILE, location::OMEGA_LOCATIONS),
                &bestiary,
            )?,
        };
        let variants = Some(Variants::from_file(
            DataFile::new(variants::OMEGA_VARIANTS_FILE, variants::OMEGA_VARIANTS),
            &bestiary,
        )?);
        Ok(Self {
            bestiary,
            locations,
            variants,
        })
    }

    /// Replaces the variant rules with a game's own file.
    pub fn with_variants(mut self, file: DataFile<'_>) -> Result<Self, DataError> {
        self.variants = Some(Variants::from_file(file, &self.bestiary)?);
        Ok(self)
    }
}
