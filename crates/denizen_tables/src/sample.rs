//! Sampling: a floor's placements drawn (count, out-of-depth branch, units), before any
//! square is chosen. The floor's plan places what this draws; `denizen tables sample`
//! and the sampled odds count it.

use denizen_core::{Generator, StreamPurpose, WorldSeed};

use crate::bestiary::Bestiary;
use crate::draw::{Draw, Unit};
use crate::ledger::UniqueLedger;
use crate::ledger::gone_by_ledger;
use crate::rules::{boosted_depth, count_term};

/// One placement as drawn: its units, and whether it went out of depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement<'b> {
    /// What it brings.
    pub units: Vec<Unit<'b>>,
    /// Whether it drew deeper than the floor.
    pub out_of_depth: bool,
}

/// Draws a floor's placements at `depth`: the count (dice, then the depth term), then
/// each placement. `gone` marks, per species, a unique left out (the ledger's, then each
/// one drawn).
pub(crate) fn draw_floor<'b>(
    b: &'b Bestiary,
    depth: u32,
    gone: &mut [bool],
    rng: &mut Generator,
) -> Vec<Placement<'b>> {
    let count = b.floor().count.roll(rng) + count_term(b, depth);
    let mut went_deep = 0;
    (0..count)
        .map(|_| {
            let placement = draw_placement(b, depth, went_deep, gone, rng);
            went_deep += u32::from(placement.out_of_depth);
            placement
        })
        .collect()
}

/// Draws one placement at `depth` after `went_deep` of the floor's went out of depth: out
/// of depth with the rule's chance while the fairness cap allows and the boosted depth
/// has an eligible row.
pub(crate) fn draw_placement<'b>(
    b: &'b Bestiary,
    depth: u32,
    went_deep: u32,
    gone: &mut [bool],
    rng: &mut Generator,
) -> Placement<'b> {
    let floor = b.floor();
    let mut draw = Draw { b, rng, gone };
    let mut at = depth;
    if let Some(rule) = floor.out_of_depth.filter(|r| went_deep < r.fairness)
        && rule.chance.roll(draw.rng)
        && let Some(deeper) = boosted_depth(b, rule, floor.table, depth, &|s| !draw.gone[s.index()])
    {
        at = deeper;
    }
    let mut units = Vec::new();
    draw.table(floor.table, at, &mut Vec::new(), &mut units);
    Placement {
        units,
        out_of_depth: at != depth,
    }
}

/// The count of each species (by [`SpeciesId::index`](crate::SpeciesId::index)) on one
/// floor as drawn.
pub fn floor_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Vec<u32> {
    let mut gone = gone_by_ledger(b, ledger);
    let placements = draw_floor(b, depth, &mut gone, rng);
    counts(b, placements.iter())
}

/// The count of each species in one placement, drawn as a floor's first.
pub fn placement_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Vec<u32> {
    let mut gone = gone_by_ledger(b, ledger);
    let placement = draw_placement(b, depth, 0, &mut gone, rng);
    counts(b, std::iter::once(&placement))
}

fn counts<'a, 'b: 'a>(
    b: &Bestiary,
    placements: impl Iterator<Item = &'a Placement<'b>>,
) -> Vec<u32> {
    let mut counts = vec![0; b.species().len()];
    for placement in placements {
        for unit in &placement.units {
            for member in std::iter::once(&unit.leader).chain(&unit.followers) {
                counts[member.species.index()] += 1;
            }
        }
    }
    counts
}

/// The stream of the `i`-th sampled floor at `depth` of a seed: each floor its own, so any
/// number of threads gives the same figures.
pub fn sample_stream(seed: u64, depth: u32, i: u64) -> Generator {
    WorldSeed(seed).stream(StreamPurpose::event("tables-sample", "", depth, i))
}
