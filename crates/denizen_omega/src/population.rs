//! How many placements a population gets: Omega's dungeon count and the countryside's
//! product, each sampled and as an exact distribution from one description.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::rng::{self, BUCKETS, bucket_weight};

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
    /// difficulty draws `R(0)`.
    pub fn omega(difficulty: i64, bonus: u32) -> Self {
        let range = u32::try_from(difficulty.div_euclid(3).max(0)).unwrap_or(u32::MAX);
        Self::Steps {
            range,
            step: 3,
            base: 3 + 8 + bonus,
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

    /// Every possible count with its exact probability, in increasing order.
    pub fn distribution(&self) -> Vec<(u32, f64)> {
        let weight = |v: u32, k: u32| f64::from(bucket_weight(v, k)) / f64::from(BUCKETS);
        let mut counts: Vec<(u32, f64)> = Vec::new();
        let mut add = |count: u32, p: f64| match counts.iter_mut().find(|(c, _)| *c == count) {
            Some((_, total)) => *total += p,
            None => counts.push((count, p)),
        };
        match *self {
            Self::Steps { range, step, base } => {
                for v in 0..range.max(1) {
                    add(
                        step.saturating_mul(v).saturating_add(base),
                        weight(v, range),
                    );
                }
            }
            Self::Product { a, b } => {
                for x in 0..a.max(1) {
                    for y in 0..b.max(1) {
                        add((x + 1) * (y + 1), weight(x, a) * weight(y, b));
                    }
                }
            }
        }
        counts.retain(|&(_, p)| p > 0.0);
        counts.sort_by_key(|&(c, _)| c);
        counts
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
