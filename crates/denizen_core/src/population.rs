//! How many placements a floor gets: Omega's count rule, sampled and as an exact distribution.

use rand::Rng;

use crate::rng::{self, BUCKETS};

/// A count rule of the form `step * R(range) + base`, the shape of Omega's
/// `3 * (R(difficulty / 3) + 1) + 8 + bonus`. One description serves sampling and the
/// exact distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PopulationRule {
    /// `k` of the single `R(k)` draw.
    pub range: u32,
    /// Placements added per step of the draw.
    pub step: u32,
    /// Placements when the draw is 0.
    pub base: u32,
}

impl PopulationRule {
    /// Omega's dungeon rule: `3 * (R(floor(difficulty / 3)) + 1) + 8`, plus the location's
    /// bonus (10 in the Castle and on the Astral Plane, 20 in the Volcano). A negative
    /// difficulty draws `R(0)`.
    pub fn omega(difficulty: i64, bonus: u32) -> Self {
        let range = u32::try_from(difficulty.div_euclid(3).max(0)).unwrap_or(u32::MAX);
        Self {
            range,
            step: 3,
            base: 3 + 8 + bonus,
        }
    }

    /// Draws one count.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.step
            .saturating_mul(rng::range(rng, self.range))
            .saturating_add(self.base)
    }

    /// Every possible count with its exact probability, in increasing order.
    pub fn distribution(&self) -> Vec<(u32, f64)> {
        (0..self.range.max(1))
            .map(|v| {
                let count = self.step.saturating_mul(v).saturating_add(self.base);
                let p = f64::from(rng::bucket_weight(v, self.range)) / f64::from(BUCKETS);
                (count, p)
            })
            .filter(|&(_, p)| p > 0.0)
            .collect()
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
}
