//! Wandering arrivals: a check every so often on a floor, each bringing one placement of
//! the wandering table with a chance that may taper the longer the player stays.

use denizen_core::fair::below;
use denizen_core::{Generator, Origin};

use crate::bestiary::{Bestiary, WanderingRules};
use crate::context::Context;
use crate::floor::{FloorPlan, FloorSite, RequestError, plan_arrival};
use crate::ledger::FloorState;
use crate::ledger::UniqueLedger;

/// The most halvings a tapering chance takes: past 32 it is below one in four billion
/// times the file's chance, and stays there.
const MAX_HALVINGS: u32 = 32;

impl WanderingRules {
    /// How many times the chance has halved after `elapsed` units of time on the floor.
    pub fn halvings(&self, elapsed: u64) -> u32 {
        self.halve_every.map_or(0, |h| {
            (elapsed / u64::from(h)).min(u64::from(MAX_HALVINGS)) as u32
        })
    }

    /// The chance of an arrival at a check after `elapsed` units on the floor:
    /// `chance / 2^halvings`.
    pub fn probability(&self, elapsed: u64) -> f64 {
        self.chance.probability() / f64::from(2u32).powi(self.halvings(elapsed) as i32)
    }

    /// One check after `elapsed` units on the floor: the file's chance, then a fair coin
    /// for each halving, all won.
    pub fn check(&self, elapsed: u64, rng: &mut Generator) -> bool {
        self.chance.roll(rng) && (0..self.halvings(elapsed)).all(|_| below(rng, 2).0 == 0)
    }

    /// How many checks fall in `from..to` units of time on the floor: one at every
    /// multiple of `every`.
    pub fn checks_between(&self, from: u64, to: u64) -> u64 {
        let every = u64::from(self.every);
        (to / every).saturating_sub(from / every)
    }
}

/// Plans one wandering arrival at `depth` in `context` (the context at the check),
/// placed with the wandering rules (for example far from the player), with the origin
/// [`Origin::WANDERING_ARRIVAL`]. It goes on from the floor's `state` (its plan's
/// [`FloorPlan::state`], kept with the floor): a bag table draws from the floor's bags,
/// and the floor's capped species and groups count towards their caps; the arrival adds
/// to both. `None` when the files give no wandering arrivals.
pub fn plan_wanderer(
    b: &Bestiary,
    site: FloorSite<'_>,
    depth: u32,
    (ledger, context): (&UniqueLedger, &Context),
    state: &mut FloorState,
    rng: &mut Generator,
) -> Option<Result<FloorPlan, RequestError>> {
    let rules = b.wandering()?;
    Some(plan_arrival(
        b,
        site,
        (rules.table, depth),
        (&rules.place, Origin::WANDERING_ARRIVAL),
        (ledger, context, state),
        rng,
    ))
}

#[cfg(test)]
mod tests {
    use crate::bestiary::{Place, TableId};
    use crate::weight::Chance;

    use super::*;

    #[test]
    fn the_chance_halves_at_each_step_and_checks_fall_on_multiples() {
        let rules = WanderingRules {
            table: TableId(0),
            chance: Chance::new(1, 50).unwrap(),
            every: 10,
            unit: crate::TimeUnit::Turns,
            halve_every: Some(100),
            place: Place::default(),
        };
        assert_eq!(rules.halvings(99), 0);
        assert_eq!(rules.halvings(100), 1);
        assert_eq!(rules.halvings(250), 2);
        assert_eq!(rules.halvings(u64::MAX), 32);
        assert!((rules.probability(100) - 0.01).abs() < 1e-15);
        assert_eq!(rules.checks_between(0, 9), 0);
        assert_eq!(rules.checks_between(9, 10), 1);
        assert_eq!(rules.checks_between(10, 30), 2);
    }
}
