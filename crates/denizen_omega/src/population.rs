//! How many placements a population gets: Omega's dungeon count and the countryside's
//! product, each sampled and as an exact distribution from one description.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::rng::{self, BUCKETS, outcomes};

/// The most placements one floor may get: far above any level (Omega's largest is 37),
/// and it keeps a floor's plan and the count distribution small.
pub const MAX_PLACEMENTS: u32 = 100_000;

/// A count rule. One description serves sampling and the exact distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PopulationRule {
    /// `step * R(range) + base`: the shape of Omega's dungeon rule
    /// `3 * (R(difficulty / 3) + 1) + 8 + bonus`.
    Steps {
        /// `k` of the single `R(k)` draw.
        range: u32,
        /// Placements added per step of the draw.
        step: u32,
        /// Placements when the draw is 0.
        base: u32,
    },
    /// `(R(a) + 1) * (R(b) + 1)`: the countryside's encounter size, a product (so 7, 11,
    /// 13 and 14 never occur).
    Product {
        /// `k` of the first draw.
        a: u32,
        /// `k` of the second draw.
        b: u32,
    },
}

impl PopulationRule {
    /// Omega's dungeon rule: `3 * (R(floor(difficulty / 3)) + 1) + 8`, plus the location's
    /// bonus (10 in the Castle and on the Astral Plane, 20 in the Volcano). A negative
    /// difficulty draws `R(0)`. Arithmetic saturates; [`Self::check`] refuses the result
    /// when it could exceed [`MAX_PLACEMENTS`].
    pub fn omega(difficulty: i64, bonus: u32) -> Self {
        let range = u32::try_from(difficulty.div_euclid(3).max(0)).unwrap_or(u32::MAX);
        Self::Steps {
            range,
            step: 3,
            base: (3 + 8u32).saturating_add(bonus),
        }
    }

    /// The largest count the rule can give, if it fits a `u32`.
    pub fn max_count(&self) -> Option<u32> {
        let top = |k: u32| outcomes(k).last().map_or(0, |(v, _)| v);
        match *self {
            Self::Steps { range, step, base } => step.checked_mul(top(range))?.checked_add(base),
            Self::Product { a, b } => (top(a) + 1).checked_mul(top(b) + 1),
        }
    }

    /// Refuses a rule that could give more than [`MAX_PLACEMENTS`] placements (loaders
    /// call it on every level's rule, so sampling never needs to).
    pub fn check(&self) -> Result<(), String> {
        match self.max_count() {
            Some(max) if max <= MAX_PLACEMENTS => Ok(()),
            Some(max) => Err(format!(
                "{self:?} can give {max} placements; a floor has at most {MAX_PLACEMENTS}"
            )),
            None => Err(format!(
                "{self:?} can give more placements than a number holds; a floor has at most \
                 {MAX_PLACEMENTS}"
            )),
        }
    }

    /// Draws one count.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        match *self {
            Self::Steps { range, step, base } => step
                .saturating_mul(rng::range(rng, range))
                .saturating_add(base),
            Self::Product { a, b } => {
                let first = rng::range(rng, a) + 1;
                let second = rng::range(rng, b) + 1;
                first.saturating_mul(second)
            }
        }
    }

    /// Every possible count with its exact probability, in increasing order. The work is
    /// linear in the number of values the draws can give (at most 10,000 per draw).
    pub fn distribution(&self) -> Vec<(u32, f64)> {
        // Bucket counts are summed as integers and divided once, so the shares are exact
        // to the last bit the division allows.
        let buckets = f64::from(BUCKETS);
        match *self {
            Self::Steps { range, step, base } => {
                // Counts grow with the draw, so equal counts (step 0) are neighbours.
                let mut counts: Vec<(u32, u32)> = Vec::new();
                for (v, weight) in outcomes(range) {
                    let count = step.saturating_mul(v).saturating_add(base);
                    match counts.last_mut() {
                        Some((last, w)) if *last == count => *w += weight,
                        _ => counts.push((count, weight)),
                    }
                }
                counts
                    .into_iter()
                    .map(|(c, w)| (c, f64::from(w) / buckets))
                    .collect()
            }
            Self::Product { a, b } => {
                let mut counts = std::collections::BTreeMap::new();
                for (x, wx) in outcomes(a) {
                    for (y, wy) in outcomes(b) {
                        let count = (x + 1).saturating_mul(y + 1);
                        *counts.entry(count).or_insert(0u64) += u64::from(wx) * u64::from(wy);
                    }
                }
                counts
                    .into_iter()
                    .map(|(c, w)| (c, w as f64 / (buckets * buckets)))
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_the_rule() {
        assert_eq!(PopulationRule::omega(4, 0).distribution(), [(11, 1.0)]);
        assert_eq!(
            PopulationRule::omega(6, 10).distribution(),
            [(21, 0.5), (24, 0.5)]
        );
        assert_eq!(
            PopulationRule::omega(9, 20).distribution(),
            [(31, 0.3334), (34, 0.3333), (37, 0.3333)]
        );
        assert_eq!(PopulationRule::omega(-5, 0).distribution(), [(11, 1.0)]);
    }

    /// The loaders' limit: a rule is refused when its largest count could pass
    /// `MAX_PLACEMENTS`, or wrap, and accepted at the limit exactly.
    #[test]
    fn rules_past_the_placement_limit_are_refused() {
        let steps = |range, step, base| PopulationRule::Steps { range, step, base };
        // R(10000) reaches 9999: 10 * 9999 + 10 = 100000.
        assert_eq!(steps(10_000, 10, 10).max_count(), Some(MAX_PLACEMENTS));
        assert!(steps(10_000, 10, 10).check().is_ok());
        assert!(
            steps(10_000, 10, 11)
                .check()
                .unwrap_err()
                .contains("100001 placements")
        );
        // R(33334) reaches only 33330 (bucket 9999): 3 * 33330 + 1.
        assert_eq!(steps(33_334, 3, 1).max_count(), Some(99_991));
        assert!(
            steps(1_000_000, 1, 0).check().is_err(),
            "the audit's range of 10^6"
        );
        assert!(
            steps(0, 0, u32::MAX).check().is_err(),
            "the audit's base of u32::MAX"
        );
        let wrapped = PopulationRule::omega(3, u32::MAX).check().unwrap_err();
        assert!(wrapped.contains("4294967295 placements"), "{wrapped}");
        let huge = PopulationRule::omega(30_000_000_000, 5)
            .check()
            .unwrap_err();
        assert!(
            huge.contains("more placements than a number holds"),
            "{huge}"
        );
        assert!(PopulationRule::omega(1_000_000_000, 0).check().is_err());
        assert!(PopulationRule::Product { a: 316, b: 316 }.check().is_ok());
        assert!(PopulationRule::Product { a: 317, b: 316 }.check().is_err());
        assert!(
            PopulationRule::Product {
                a: u32::MAX,
                b: u32::MAX
            }
            .check()
            .is_err()
        );
    }

    /// A wide range is listed from its buckets, so the work stays linear: 10,000 values.
    #[test]
    fn wide_ranges_list_their_values_without_a_quadratic_search() {
        let rule = PopulationRule::Steps {
            range: 1_000_000,
            step: 0,
            base: 5,
        };
        assert_eq!(rule.distribution(), [(5, 1.0)]);
        let rule = PopulationRule::Steps {
            range: 99_999,
            step: 1,
            base: 0,
        };
        let counts = rule.distribution();
        assert_eq!(counts.len(), 10_000);
        assert_eq!(counts.last().map(|c| c.0), Some(99_989));
    }

    /// `R(k)` for `k` above 10,000 cannot give every value: `R(20000)` gives only even
    /// numbers, each with one bucket in 10,000, and the distribution lists only those.
    #[test]
    fn counts_no_bucket_gives_are_left_out() {
        let rule = PopulationRule::Steps {
            range: 20_000,
            step: 1,
            base: 0,
        };
        let counts = rule.distribution();
        assert_eq!(counts.len(), 10_000);
        assert!(counts.iter().all(|&(c, p)| c % 2 == 0 && p == 1e-4));
    }

    #[test]
    fn the_countryside_product_matches_the_source_notes() {
        // Values 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15 with .06668, .13334, .13334, .13334,
        // .06668, .13332, .06666 and .06666 for the rest.
        let got = PopulationRule::Product { a: 5, b: 3 }.distribution();
        let expected = [
            (1, 0.06668),
            (2, 0.13334),
            (3, 0.13334),
            (4, 0.13334),
            (5, 0.06668),
            (6, 0.13332),
            (8, 0.06666),
            (9, 0.06666),
            (10, 0.06666),
            (12, 0.06666),
            (15, 0.06666),
        ];
        assert_eq!(got.len(), expected.len());
        for ((c, p), (ec, ep)) in got.iter().zip(expected) {
            assert_eq!(*c, ec);
            assert!((p - ep).abs() < 1e-12, "{c}: {p} vs {ep}");
        }
    }
}
