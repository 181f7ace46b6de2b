//! The odds of a floor with regions: the floor's own placements, then each region its
//! rules populate, in the order the plan draws them, the uniques, caps and bags each draw
//! leaves carried into the next; each draw's expected counts, and the whole floor's.

use super::{Dist, Exact, Joined, Odds, OddsError, Outcome, SAMPLED_FLOORS, State, sampled_with};
use crate::bestiary::Bestiary;
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
    crate::rules::check_depth(b, depth)?;
    let c = b.context().resolve(context)?;
    let drawn = region::resolve(b, regions, (depth, &c))?;
    let general = Draw::floor(b, (b.floor().table, depth));
    let draws: Vec<Draw<'_>> = std::iter::once(general)
        .chain(drawn.iter().map(RegionDraw::draw))
        .collect();
    let per_draw =
        exact(b, (&draws, c), ledger).unwrap_or_else(|| sampled(b, (&drawn, c), general, ledger));
    let mut per_draw = per_draw.into_iter();
    let (Some(general), Some(floor)) = (per_draw.next(), per_draw.next_back()) else {
        unreachable!("a floor's odds hold its own draw's and the whole floor's");
    };
    let regions = drawn
        .iter()
        .map(|r| r.region.id.clone())
        .zip(per_draw)
        .collect();
    Ok(RegionOdds {
        general,
        regions,
        floor,
    })
}

/// Each draw's exact odds, then the whole floor's; none past the exact limits.
fn exact(
    b: &Bestiary,
    (draws, c): (&[Draw<'_>], Conditions),
    ledger: &UniqueLedger,
) -> Option<Vec<Odds>> {
    let tables: Vec<_> = draws.iter().map(|d| d.table).collect();
    let track = draws.iter().any(|d| d.rules.budget.is_some());
    let mut exact = Exact::new(b, (&tables, c), ledger, track)?;
    let mut dist = exact.nothing(State::START);
    let mut out = Vec::with_capacity(draws.len() + 1);
    let mut floor = vec![0.0; b.species().len()];
    for &draw in draws {
        // A placement's remembered outcomes are its draw's: another draw starts afresh.
        exact.placements.clear();
        dist = exact.then(begun(dist, b.species().len()), |e, at| {
            walk::floor(e, at, draw, None)
        });
        if exact.overflow {
            return None;
        }
        let expected = exact.expected(&dist);
        super::add(&mut floor, &expected, 1.0);
        out.push(exact_odds(expected));
    }
    out.push(exact_odds(floor));
    Some(out)
}

/// The outcomes a draw begins from: what the floor's draws before it took and filled
/// (uniques, caps, bags) kept, its own count of placements out of depth and its danger
/// from 0, and no creature counted yet.
fn begun(dist: Dist, species: usize) -> Dist {
    let mut joined = Joined::new(Vec::new());
    for o in dist {
        joined.add(Outcome {
            at: State {
                out_of_depth: 0,
                spent: 0,
                ..o.at
            },
            p: o.p,
            counts: vec![0.0; species],
        });
    }
    joined.dist
}

fn exact_odds(expected: Vec<f64>) -> Odds {
    Odds {
        expected,
        standard_errors: None,
    }
}

/// Each draw's odds and the whole floor's, sampled from [`SAMPLED_FLOORS`] floors of fixed
/// streams (each region's its own, from the floor's).
fn sampled(
    b: &Bestiary,
    (regions, c): (&[RegionDraw<'_>], Conditions),
    general: Draw<'_>,
    ledger: &UniqueLedger,
) -> Vec<Odds> {
    let n = b.species().len();
    let all = sampled_with(SAMPLED_FLOORS, |i| {
        let mut rng = crate::sample::sample_stream(0, general.depth, u64::from(i));
        let (mut spent, mut bags) = (Spent::new(b, ledger), crate::bag::Bags::new());
        let mut counts = Vec::with_capacity(n * (regions.len() + 2));
        let drawn =
            crate::sample::draw_floor((b, c), general, (&mut spent, &mut bags), &mut rng, None);
        counts.extend(crate::sample::count(b, &drawn.units));
        for r in regions {
            let mut rng = region::stream(&rng, &r.region.id);
            let drawn = crate::sample::draw_floor(
                (b, c),
                r.draw(),
                (&mut spent, &mut bags),
                &mut rng,
                None,
            );
            counts.extend(crate::sample::count(b, &drawn.units));
        }
        let floor: Vec<u32> = (0..n)
            .map(|s| counts.iter().skip(s).step_by(n).sum())
            .collect();
        counts.extend(floor);
        counts
    });
    let errors = all.standard_errors.unwrap_or_default();
    (all.expected.chunks(n).zip(errors.chunks(n)))
        .map(|(expected, errors)| Odds {
            expected: expected.to_vec(),
            standard_errors: Some(errors.to_vec()),
        })
        .collect()
}
