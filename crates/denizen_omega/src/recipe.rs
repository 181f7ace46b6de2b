//! Themed recipes: how a location picks the species of one placement, written as data.
//!
//! A recipe is a tree of branches. In a RON locations file:
//!
//! ```text
//! Roll(range: "100", when: "r > 150 - 10 * D", then: Species("goblin_shaman"),
//!      otherwise: Roll(range: "3", when: "r == 0", then: Pool,
//!                      otherwise: Table(range: "D + 3", entries: [Species("sewer_rat")])))
//! ```
//!
//! - `Pool`: the ordinary pool at the location's difficulty.
//! - `Species(key)`: one species.
//! - `Bands(from, to)`: `R(size) + start` over those bands, retrying reserved templates
//!   (`retry: false` takes whatever it draws, like the countryside wildcard).
//! - `Roll(range, when, then, otherwise)`: draws `r = R(range)`, then tests `when`.
//! - `Table(range, entries, beyond)`: draws `r = R(range)` and takes `entries[r]`, or
//!   `beyond` (the ordinary pool unless given) past the end of the list.
//! - `If(when, then, otherwise)`: a test without a draw (on `D` or `difficulty`).
//!
//! Ranges and conditions are [formulas](crate::formula). A recipe is compiled for one depth
//! into a [`Selector`](crate::select::Selector), which both the sampler and the exact odds
//! read, so the two can never disagree about the rule.

use serde::{Deserialize, Serialize};

use crate::bestiary::Bestiary;
use crate::formula::{Formula, Kind};
use crate::species::SpeciesId;

/// A recipe branch as written in a data file (keys and formula texts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum RecipeData {
    Pool,
    Species(String),
    Bands {
        from: u8,
        to: u8,
        #[serde(default = "retries")]
        retry: bool,
    },
    Roll {
        range: String,
        when: String,
        then: Box<RecipeData>,
        otherwise: Box<RecipeData>,
    },
    Table {
        range: String,
        entries: Vec<RecipeData>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        beyond: Option<Box<RecipeData>>,
    },
    If {
        when: String,
        then: Box<RecipeData>,
        otherwise: Box<RecipeData>,
    },
}

fn retries() -> bool {
    true
}

/// A validated recipe branch: species resolved, formulas parsed and type-checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipe {
    /// The ordinary pool at the location's difficulty.
    Pool,
    /// One species.
    Species(SpeciesId),
    /// A pick over consecutive bands: `R(size) + start`, retrying reserved templates
    /// unless `retry` is false (the countryside wildcard takes whatever it draws).
    Bands {
        /// First band.
        from: u8,
        /// Last band (inclusive).
        to: u8,
        /// Redraw reserved templates.
        retry: bool,
    },
    /// Draw `r = R(range)`; `then` when `when` holds, else `otherwise`.
    Roll {
        /// The draw's `k`.
        range: Formula,
        /// Condition on `r`, `D` and `difficulty`.
        when: Formula,
        /// Taken when the condition holds.
        then: Box<Recipe>,
        /// Taken otherwise.
        otherwise: Box<Recipe>,
    },
    /// Draw `r = R(range)`; take `entries[r]`, or `beyond` past the end.
    Table {
        /// The draw's `k`.
        range: Formula,
        /// The indexed list.
        entries: Vec<Recipe>,
        /// Taken when `r` is past the end of the list.
        beyond: Box<Recipe>,
    },
    /// No draw: `then` when `when` holds, else `otherwise`.
    If {
        /// Condition on `D` and `difficulty`.
        when: Formula,
        /// Taken when the condition holds.
        then: Box<Recipe>,
        /// Taken otherwise.
        otherwise: Box<Recipe>,
    },
}

/// A problem in a recipe: the path of the field inside it and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeError {
    /// Path such as `recipe.otherwise.entries[3]`.
    pub field: String,
    /// What is wrong.
    pub problem: String,
}

impl Recipe {
    /// Validates a data recipe against a bestiary; `path` prefixes field names in errors.
    pub fn from_data(
        data: &RecipeData,
        bestiary: &Bestiary,
        path: &str,
    ) -> Result<Self, RecipeError> {
        let fail = |field: String, problem: String| RecipeError { field, problem };
        let formula = |text: &str, kind, roll, field: &str| {
            Formula::parse(text, kind, roll)
                .map_err(|e| fail(format!("{path}.{field}"), e.to_string()))
        };
        let child = |data: &RecipeData, field: &str| {
            Recipe::from_data(data, bestiary, &format!("{path}.{field}")).map(Box::new)
        };
        Ok(match data {
            RecipeData::Pool => Recipe::Pool,
            RecipeData::Species(key) => {
                Recipe::Species(bestiary.species_id(key).ok_or_else(|| {
                    fail(path.to_owned(), format!("no species has the key {key:?}"))
                })?)
            }
            RecipeData::Bands { from, to, retry } => {
                if from > to || *to >= bestiary.band_count() {
                    return Err(fail(
                        path.to_owned(),
                        format!(
                            "bands {from}..={to} are not a range inside 0..{}",
                            bestiary.band_count()
                        ),
                    ));
                }
                Recipe::Bands {
                    from: *from,
                    to: *to,
                    retry: *retry,
                }
            }
            RecipeData::Roll {
                range,
                when,
                then,
                otherwise,
            } => Recipe::Roll {
                range: formula(range, Kind::Number, false, "range")?,
                when: formula(when, Kind::Truth, true, "when")?,
                then: child(then, "then")?,
                otherwise: child(otherwise, "otherwise")?,
            },
            RecipeData::Table {
                range,
                entries,
                beyond,
            } => Recipe::Table {
                range: formula(range, Kind::Number, false, "range")?,
                entries: entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| child(e, &format!("entries[{i}]")).map(|b| *b))
                    .collect::<Result<_, _>>()?,
                beyond: match beyond {
                    Some(b) => child(b, "beyond")?,
                    None => Box::new(Recipe::Pool),
                },
            },
            RecipeData::If {
                when,
                then,
                otherwise,
            } => Recipe::If {
                when: formula(when, Kind::Truth, false, "when")?,
                then: child(then, "then")?,
                otherwise: child(otherwise, "otherwise")?,
            },
        })
    }
}
