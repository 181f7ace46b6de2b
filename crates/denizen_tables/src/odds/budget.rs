//! A budgeted floor's exact walk, and a floor's danger as a distribution: the chance of
//! each danger, its mean and quantiles, for floors with a count or a budget.

use std::collections::BTreeMap;

use super::{
    Dist, Exact, MAX_EXACT_DANGER, MAX_EXACT_STATES, Odds, OddsError, Outcome, SAMPLED_FLOORS,
    State,
};
use crate::bestiary::{Bestiary, TableId};
use crate::context::Context;
use crate::ledger::UniqueLedger;
use crate::walk::{self, Budgeting, Reading};

impl Exact<'_> {
    /// A budgeted floor from `at` with `start` to spend: every state (what remains,
    /// discards in a row, placements kept, and the walk's own state) taken once, in the
    /// order `Budgeting` sorts, after every state that leads to it; each placement's
    /// outcomes kept or discarded as `Budgeting::after` says.
    pub(super) fn chain(
        &mut self,
        at: State,
        start: Budgeting,
        step: &mut impl FnMut(&mut Self, State) -> Dist,
    ) -> Dist {
        let mut live: BTreeMap<(Budgeting, State), Outcome> = BTreeMap::new();
        live.insert((start, at), self.nothing(at).remove(0));
        // Ordered, so the outcomes (and the sums over them) come in the same order in
        // every run.
        let mut ended: BTreeMap<State, Outcome> = BTreeMap::new();
        while let Some(((left, at), o)) = live.pop_first() {
            if left.ended() {
                join(&mut ended, at, o);
                continue;
            }
            self.visited += 1;
            if self.visited > MAX_EXACT_STATES || self.overflow {
                self.overflow = true;
                return Vec::new();
            }
            for p in self.placement_from(at, step) {
                // The placement's outcomes count their danger from 0: its cost.
                let (next, kept) = left.after(p.at.spent);
                let tally = at.tally.saturating_add(p.at.tally);
                self.overflow |= kept && tally > MAX_EXACT_DANGER;
                let o = match kept {
                    true => Outcome {
                        at: State {
                            spent: at.spent + p.at.spent,
                            tally,
                            ..p.at
                        },
                        p: o.p * p.p,
                        counts: (o.counts.iter().zip(&p.counts))
                            .map(|(a, b)| a * p.p + o.p * b)
                            .collect(),
                    },
                    false => Outcome {
                        at,
                        p: o.p * p.p,
                        counts: o.counts.iter().map(|a| a * p.p).collect(),
                    },
                };
                let key = (next, o.at);
                match live.get_mut(&key) {
                    Some(d) => add_to(d, &o),
                    None => {
                        live.insert(key, o);
                    }
                }
            }
        }
        ended.into_values().collect()
    }

    /// One placement's outcomes from `at`, its danger and tally counted from 0,
    /// remembered.
    fn placement_from(
        &mut self,
        at: State,
        step: &mut impl FnMut(&mut Self, State) -> Dist,
    ) -> Dist {
        let from = State {
            spent: 0,
            tally: 0,
            ..at
        };
        if let Some(dist) = self.placements.get(&from) {
            return dist.clone();
        }
        let dist = step(self, from);
        self.placements.insert(from, dist.clone());
        dist
    }
}

fn add_to(d: &mut Outcome, o: &Outcome) {
    d.p += o.p;
    super::add(&mut d.counts, &o.counts, 1.0);
}

fn join(ended: &mut BTreeMap<State, Outcome>, at: State, o: Outcome) {
    match ended.get_mut(&at) {
        Some(d) => add_to(d, &o),
        None => {
            ended.insert(at, o);
        }
    }
}

/// A floor's figures: the expected count of each species, and the chance of each danger.
#[derive(Clone, Debug, PartialEq)]
pub struct FloorOdds {
    /// The expected count of each species per floor.
    pub odds: Odds,
    /// Each danger the floor can have (the sum of the costs of the creatures it draws),
    /// least first, with its chance. Sampled, as the counts are, when
    /// [`Odds::standard_errors`] is set.
    pub danger: Vec<(u64, f64)>,
}

impl FloorOdds {
    /// The expected danger.
    pub fn mean_danger(&self) -> f64 {
        super::distribution::mean(&self.danger)
    }

    /// The least danger `k` with P(danger <= k) >= `q` (0 to 1); the sum of chances is
    /// allowed 1e-12 short of `q`, so that rounding in the sum does not skip a value.
    pub fn danger_quantile(&self, q: f64) -> u64 {
        super::distribution::quantile(&self.danger, q)
    }
}

/// The figures of a floor at `depth` in `context`, for the uniques `ledger` leaves
/// available: expected counts, and the danger's distribution. A budgeted floor's budget
/// is rolled as its file says, or is `budget` when given (the whole budget, depth term
/// included). Exact within [`MAX_EXACT_UNIQUES`](super::MAX_EXACT_UNIQUES),
/// [`MAX_EXACT_CAPPED`](super::MAX_EXACT_CAPPED),
/// [`MAX_EXACT_CAP_STATES`](super::MAX_EXACT_CAP_STATES),
/// [`MAX_EXACT_STATES`] and [`MAX_EXACT_DANGER`](super::MAX_EXACT_DANGER); sampled
/// from [`SAMPLED_FLOORS`] floors past them.
pub fn floor_odds(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    budget: Option<u32>,
) -> Result<FloorOdds, OddsError> {
    table_floor_odds(b, b.floor().table, depth, ledger, context, budget)
}

/// [`floor_odds`] of a floor whose placements draw from `table` instead of the floor's.
pub fn table_floor_odds(
    b: &Bestiary,
    table: TableId,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    budget: Option<u32>,
) -> Result<FloorOdds, OddsError> {
    crate::rules::check_depth(b, depth)?;
    crate::rules::check_table(b, table)?;
    crate::rules::check_budget(b, budget)?;
    let c = b.context().resolve(context)?;
    let walked = Exact::new(b, (&[table], c), ledger, true).and_then(|mut exact| {
        let draw = walk::Draw::floor(b, (table, depth));
        let dist = walk::floor(&mut exact, State::START, draw, budget);
        (!exact.overflow).then(|| (exact.expected(&dist), dist))
    });
    let Some((expected, dist)) = walked else {
        return Ok(sampled(b, (table, depth, c), ledger, budget));
    };
    let mut danger = BTreeMap::new();
    for o in &dist {
        *danger.entry(u64::from(o.at.spent)).or_insert(0.0) += o.p;
    }
    let danger = danger.into_iter().filter(|&(_, p)| p > 0.0).collect();
    Ok(FloorOdds {
        odds: Odds {
            expected,
            standard_errors: None,
        },
        danger,
    })
}

/// [`floor_odds`] sampled from [`SAMPLED_FLOORS`] floors of fixed streams.
fn sampled(
    b: &Bestiary,
    (table, depth, c): (TableId, u32, crate::context::Conditions),
    ledger: &UniqueLedger,
    budget: Option<u32>,
) -> FloorOdds {
    let mut dangers: BTreeMap<u64, f64> = BTreeMap::new();
    let odds = super::sampled_with(SAMPLED_FLOORS, |i| {
        let mut rng = crate::sample::sample_stream(0, depth, u64::from(i));
        let draw = walk::Draw::floor(b, (table, depth));
        let mut spent = crate::ledger::Spent::new(b, ledger);
        let mut bags = crate::bag::Bags::new();
        let drawn =
            crate::sample::draw_floor((b, c), draw, (&mut spent, &mut bags), &mut rng, budget);
        let units = drawn.units;
        let danger: u64 = units.iter().map(|u| u64::from(u.cost(b))).sum();
        *dangers.entry(danger).or_insert(0.0) += 1.0 / f64::from(SAMPLED_FLOORS);
        crate::sample::count(b, &units)
    });
    FloorOdds {
        odds,
        danger: dangers.into_iter().collect(),
    }
}
