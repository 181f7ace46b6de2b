//! The odds of a floor with regions: the floor's own placements, then each region its
//! rules populate, in the order the plan draws them, the uniques, caps and bags each draw
//! leaves carried into the next; each draw's expected counts, and the whole floor's.

use super::{Dist, Exact, Joined, Odds, OddsError, Outcome, SAMPLED_FLOORS, State, sampled_with};
use crate::bestiary::{Bestiary, TableId};
use crate::context::{Conditions, Context};
use crate::ledger::{Spent, UniqueLedger};
use crate::region::{self, RegionDraw};
use crate::walk::{self, Draw, Reading};
use denizen_core::regions::Regions;

/// The expected count of each species on a floor with regions: its own placements', each
/// region's and the whole floor's. Counts are of creatures drawn; one with no square is
/// reported by the plan, not taken out of these.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionOdds {
    /// The floor's own placements.
    pub general: Odds,
    /// Each region populated, in (kind, id) order: its id and its odds.
    pub regions: Vec<(String, Odds)>,
    /// The whole floor: its own placements and every region's together.
    pub floor: Odds,
}

/// The odds of a floor at `depth` in `context` with `regions`, for the uniques `ledger`
/// leaves available: each region of a kind the floor's rules name drawn as
/// [`plan_floor`](crate::plan_floor) draws it (its rule, its fields, the floor's uniques,
/// caps and bags). Exact within the limits of [`odds`](super::odds), with every draw's
/// species, caps and bags tracked together; sampled from [`SAMPLED_FLOORS`] floors past
/// them.
pub fn region_odds(
    b: &Bestiary,
    depth: u32,
    regions: &Regions,
    ledger: &UniqueLedger,
    context: &Context,
) -> Result<RegionOdds, OddsError> {
    let (draws, c) = FloorDraws::resolve(b, depth, regions, context)?;
    let exact = (draws.exact(b, c, ledger)).and_then(|mut e| draws.walk(&mut e).map(|w| w.0));
    let per_draw = match exact {
        Some(expected) => {
            let mut floor = vec![0.0; b.species().len()];
            for e in &expected {
                super::add(&mut floor, e, 1.0);
            }
            let odds = |expected| Odds {
                expected,
                standard_errors: None,
            };
            expected.into_iter().chain([floor]).map(odds).collect()
        }
        None => draws.sampled(b, c, ledger),
    };
    let mut per_draw = per_draw.into_iter();
    let (Some(general), Some(floor)) = (per_draw.next(), per_draw.next_back()) else {
        unreachable!("a floor's odds hold its own draw's and the whole floor's");
    };
    let regions = (draws.regions.iter())
        .map(|r| r.region.id.clone())
        .zip(per_draw)
        .collect();
    Ok(RegionOdds {
        general,
        regions,
        floor,
    })
}

/// The draws of a floor: its own placements', then each region's its rules populate, in
/// (kind, id) order, as the plan draws them.
pub(super) struct FloorDraws<'r> {
    pub(super) general: Draw<'r>,
    pub(super) regions: Vec<RegionDraw<'r>>,
}

impl<'r> FloorDraws<'r> {
    /// The draws of a floor at `depth` in `context` with `regions`, each region's fields
    /// checked; and the context resolved.
    pub(super) fn resolve(
        b: &'r Bestiary,
        depth: u32,
        regions: &'r Regions,
        context: &Context,
    ) -> Result<(Self, Conditions), OddsError> {
        crate::rules::check_depth(b, depth)?;
        let c = b.context().resolve(context)?;
        let regions = region::resolve(b, regions, (depth, &c))?;
        let general = Draw::floor(b, (b.floor().table, depth));
        Ok((Self { general, regions }, c))
    }

    /// Each draw, with the id of its region (none for the floor's own).
    fn each(&self) -> impl Iterator<Item = (Option<&str>, Draw<'_>)> {
        let regions = (self.regions.iter()).map(|r| (Some(r.region.id.as_str()), r.draw()));
        std::iter::once((None, self.general)).chain(regions)
    }

    /// The exact reading of the draws, the danger followed when one of them is budgeted;
    /// none past the exact limits of uniques and caps.
    pub(super) fn exact<'b>(
        &self,
        b: &'b Bestiary,
        c: Conditions,
        ledger: &UniqueLedger,
    ) -> Option<Exact<'b>> {
        let tables: Vec<TableId> = self.each().map(|(_, d)| d.table).collect();
        let track = self.each().any(|(_, d)| d.rules.budget.is_some());
        Exact::new(b, (&tables, c), ledger, track)
    }

    /// The draws walked one after another by `exact`: each draw's expected counts, and
    /// the floor's outcomes after the last; none past the exact limits.
    pub(super) fn walk(&self, exact: &mut Exact<'_>) -> Option<(Vec<Vec<f64>>, Dist)> {
        let mut dist = exact.nothing(State::START);
        let mut out = Vec::with_capacity(self.regions.len() + 1);
        for (region, draw) in self.each() {
            // A placement's remembered outcomes are its draw's: another draw starts afresh.
            exact.placements.clear();
            if let Some(paths) = &mut exact.explaining {
                paths.region = region.map(str::to_owned);
            }
            dist = exact.then(begun(dist, exact.width), |e, at| {
                walk::floor(e, at, draw, None)
            });
            if exact.overflow {
                return None;
            }
            out.push(exact.expected(&dist));
        }
        Some((out, dist))
    }

    /// Floor `i` of the sampled ones: each draw's counts of each species, then the whole
    /// floor's, one after another; each region drawn from its own stream, the floor's.
    pub(super) fn sample(
        &self,
        b: &Bestiary,
        c: Conditions,
        ledger: &UniqueLedger,
        i: u32,
    ) -> Vec<u32> {
        let n = b.species().len();
        let mut rng = crate::sample::sample_stream(0, self.general.depth, u64::from(i));
        let (mut spent, mut bags) = (Spent::new(b, ledger), crate::bag::Bags::new());
        let mut counts = Vec::with_capacity(n * (self.regions.len() + 2));
        let taken = (&mut spent, &mut bags);
        let general = crate::sample::draw_floor((b, c), self.general, taken, &mut rng, None);
        counts.extend(crate::sample::count(b, &general.units));
        for r in &self.regions {
            let mut rng = region::stream(&rng, &r.region.id);
            let taken = (&mut spent, &mut bags);
            let drawn = crate::sample::draw_floor((b, c), r.draw(), taken, &mut rng, None);
            counts.extend(crate::sample::count(b, &drawn.units));
        }
        let floor: Vec<u32> = (0..n)
            .map(|s| counts.iter().skip(s).step_by(n).sum())
            .collect();
        counts.extend(floor);
        counts
    }

    /// Each draw's odds and the whole floor's, sampled from [`SAMPLED_FLOORS`] floors of
    /// fixed streams.
    fn sampled(&self, b: &Bestiary, c: Conditions, ledger: &UniqueLedger) -> Vec<Odds> {
        let n = b.species().len();
        let all = sampled_with(SAMPLED_FLOORS, |i| self.sample(b, c, ledger, i));
        let errors = all.standard_errors.unwrap_or_default();
        (all.expected.chunks(n).zip(errors.chunks(n)))
            .map(|(expected, errors)| Odds {
                expected: expected.to_vec(),
                standard_errors: Some(errors.to_vec()),
            })
            .collect()
    }
}

/// The outcomes a draw begins from: what the floor's draws before it took, filled and
/// counted (uniques, caps, bags, the tally) kept, its own count of placements out of depth
/// and its danger from 0, and no creature counted yet.
fn begun(dist: Dist, width: usize) -> Dist {
    let mut joined = Joined::new(Vec::new());
    for o in dist {
        joined.add(Outcome {
            at: State {
                out_of_depth: 0,
                spent: 0,
                ..o.at
            },
            p: o.p,
            counts: vec![0.0; width],
        });
    }
    joined.dist
}
