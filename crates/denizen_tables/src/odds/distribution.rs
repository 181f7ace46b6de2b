//! A floor's distribution of one count: how many of a species or of a tag, or how much
//! danger, a whole floor draws (its own placements and its regions' together, wandering
//! arrivals not among them). The walk follows the count in its state, so each value's
//! chance is exact, as the expected counts are; past the same limits it is sampled from
//! the same floors.

use std::collections::BTreeMap;

use super::region::FloorDraws;
use super::{OddsError, SAMPLED_FLOORS};
use crate::bestiary::{Bestiary, SpeciesId};
use crate::context::Context;
use crate::ledger::UniqueLedger;
use denizen_core::regions::Regions;

/// What a [`Distribution`] counts on a floor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Counted {
    /// The creatures of a species.
    Species(SpeciesId),
    /// The creatures of the species that carry a tag.
    Tag(String),
    /// The floor's danger: each creature's cost, summed.
    Danger,
    /// The creatures of unique species.
    Uniques,
}

impl Counted {
    /// What one creature of each species adds to the count, by [`SpeciesId::index`].
    fn weights(&self, b: &Bestiary) -> Vec<u32> {
        let of = |s: &crate::bestiary::Species, id: usize| match self {
            Counted::Species(x) => u32::from(x.index() == id),
            Counted::Tag(tag) => u32::from(s.tags.iter().any(|t| t == tag)),
            Counted::Danger => s.cost,
            Counted::Uniques => u32::from(s.unique),
        };
        (b.species().iter().enumerate())
            .map(|(id, s)| of(s, id))
            .collect()
    }
}

/// The chance of each value of a count on a floor, least first, values with no chance
/// left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// Each value and its chance.
    pub chances: Vec<(u64, f64)>,
    /// Whether the chances were sampled from [`SAMPLED_FLOORS`] floors (past the exact
    /// limits) rather than worked exactly.
    pub sampled: bool,
}

impl Distribution {
    /// The chance of exactly `k`.
    pub fn chance(&self, k: u64) -> f64 {
        (self.chances.iter())
            .find(|&&(v, _)| v == k)
            .map_or(0.0, |&(_, p)| p)
    }

    /// The chance of none: P(count = 0).
    pub fn none(&self) -> f64 {
        self.chance(0)
    }

    /// The chance of at least `k`.
    pub fn at_least(&self, k: u64) -> f64 {
        (self.chances.iter())
            .filter(|&&(v, _)| v >= k)
            .map(|&(_, p)| p)
            .sum()
    }

    /// The mean: the expected count.
    pub fn mean(&self) -> f64 {
        mean(&self.chances)
    }

    /// The least value `k` with P(count <= k) >= `q` (0 to 1).
    pub fn quantile(&self, q: f64) -> u64 {
        quantile(&self.chances, q)
    }
}

/// The mean of values with their chances.
pub(super) fn mean(chances: &[(u64, f64)]) -> f64 {
    chances.iter().map(|&(k, p)| k as f64 * p).sum()
}

/// The least value `k` with P(value <= k) >= `q`, of values with their chances, least
/// first; the sum of chances is allowed 1e-12 short of `q`, so that rounding in the sum
/// does not skip a value.
pub(super) fn quantile(chances: &[(u64, f64)], q: f64) -> u64 {
    let mut below = 0.0;
    for &(k, p) in chances {
        below += p;
        if below >= q - 1e-12 {
            return k;
        }
    }
    chances.last().map_or(0, |&(k, _)| k)
}

/// The distribution of `counted` on a floor at `depth` in `context` with `regions` (none
/// for a floor without), for the uniques `ledger` leaves available: the floor drawn as
/// [`plan_floor`](crate::plan_floor) draws it, its own placements and then each region.
/// Exact within the limits of [`region_odds`](super::region_odds); sampled from
/// [`SAMPLED_FLOORS`] floors past them.
pub fn floor_distribution(
    b: &Bestiary,
    depth: u32,
    regions: &Regions,
    ledger: &UniqueLedger,
    context: &Context,
    counted: &Counted,
) -> Result<Distribution, OddsError> {
    let (draws, c) = FloorDraws::resolve(b, depth, regions, context)?;
    let weights = counted.weights(b);
    let exact = (draws.exact(b, c, ledger)).and_then(|e| {
        let mut e = e.counting(weights.clone());
        draws.walk(&mut e).map(|(_, dist)| dist)
    });
    let mut chances: BTreeMap<u64, f64> = BTreeMap::new();
    let sampled = exact.is_none();
    match exact {
        Some(dist) => {
            for o in dist {
                *chances.entry(u64::from(o.at.tally)).or_insert(0.0) += o.p;
            }
        }
        None => {
            let n = b.species().len();
            let mut floors: BTreeMap<u64, u32> = BTreeMap::new();
            for i in 0..SAMPLED_FLOORS {
                let counts = draws.sample(b, c, ledger, i);
                let floor = &counts[counts.len() - n..];
                let k = (floor.iter().zip(&weights))
                    .map(|(&c, &w)| u64::from(c) * u64::from(w))
                    .sum();
                *floors.entry(k).or_insert(0) += 1;
            }
            let share = |n: u32| f64::from(n) / f64::from(SAMPLED_FLOORS);
            chances.extend(floors.into_iter().map(|(k, n)| (k, share(n))));
        }
    }
    Ok(Distribution {
        chances: chances.into_iter().filter(|&(_, p)| p > 0.0).collect(),
        sampled,
    })
}
