//! Sampling: a floor's placements drawn (count, out-of-depth branch, units), before any
//! square is chosen. The floor's plan places what this draws; `denizen tables sample`
//! and the sampled odds count it.

use denizen_core::{Generator, StreamPurpose, WorldSeed};

use crate::bestiary::{Bestiary, TableId};
use crate::draw::{Draw, Unit};
use crate::ledger::{UniqueLedger, gone_by_ledger};
use crate::rules::{OddsError, boosted_depth, check_depth, count_term};
use denizen_core::fair::roll;

/// A floor's placements as drawn: every unit in order, how many placements there were and
/// how many went out of depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FloorDraw<'b> {
    pub(crate) units: Vec<Unit<'b>>,
    pub(crate) placements: u32,
    pub(crate) out_of_depth: u32,
}

/// Draws a floor's placements from `table` at `depth`: the count (dice, then the depth
/// term), then each placement. `gone` marks, per species, a unique left out (the ledger's,
/// then each one drawn).
pub(crate) fn draw_floor<'b>(
    b: &'b Bestiary,
    (table, depth): (TableId, u32),
    gone: &mut [bool],
    rng: &mut Generator,
) -> FloorDraw<'b> {
    let placements = roll(b.floor().count, rng) + count_term(b, depth);
    let mut floor = FloorDraw {
        units: Vec::with_capacity(placements as usize),
        placements,
        out_of_depth: 0,
    };
    for _ in 0..placements {
        let at = (table, depth, floor.out_of_depth);
        let deep = draw_placement(b, at, gone, rng, &mut floor.units);
        floor.out_of_depth += u32::from(deep.0);
    }
    floor
}

/// One placement from `table` at `depth` after `went_deep` of the floor's went out of
/// depth, its units added to `units`: out of depth with the rule's chance while the
/// fairness cap allows and the boosted depth has an eligible row. Whether it went out of
/// depth, and whether it took a unique.
pub(crate) fn draw_placement<'b>(
    b: &'b Bestiary,
    (table, depth, went_deep): (TableId, u32, u32),
    gone: &mut [bool],
    rng: &mut Generator,
    units: &mut Vec<Unit<'b>>,
) -> (bool, bool) {
    let floor = b.floor();
    let (mut at, mut deep) = (depth, false);
    if let Some(rule) = floor.out_of_depth.filter(|r| went_deep < r.fairness)
        && rule.chance.roll(rng)
        && let Some(deeper) = boosted_depth(b, rule, table, depth, &|s| !gone[s.index()])
    {
        (at, deep) = (deeper, true);
    }
    let mut draw = Draw {
        b,
        rng,
        gone,
        deep,
        took: false,
    };
    draw.table(table, at, &mut Vec::new(), units);
    (deep, draw.took)
}

/// Draws placements one after another, each as a floor's first with the ledger's uniques
/// left out, keeping its buffers: a lone creature's placement allocates nothing.
pub struct Drawer<'b> {
    b: &'b Bestiary,
    /// The table placements draw from: the floor's, unless the caller names another.
    table: TableId,
    ledger: Vec<bool>,
    gone: Vec<bool>,
    /// Whether the last placement took a unique, so `gone` is no longer the ledger's.
    took: bool,
    units: Vec<Unit<'b>>,
}

impl<'b> Drawer<'b> {
    /// A drawer over a bestiary, the uniques `ledger` holds left out.
    pub fn new(b: &'b Bestiary, ledger: &UniqueLedger) -> Self {
        let ledger = gone_by_ledger(b, ledger);
        Self {
            b,
            table: b.floor().table,
            gone: ledger.clone(),
            ledger,
            took: false,
            units: Vec::new(),
        }
    }

    /// Placements from `table` instead of the floor's.
    pub(crate) fn with_table(mut self, table: TableId) -> Self {
        self.table = table;
        self
    }

    /// One placement at `depth` (one of the floor's): its units.
    pub fn placement(&mut self, depth: u32, rng: &mut Generator) -> Result<&[Unit<'b>], OddsError> {
        check_depth(self.b, depth)?;
        Ok(self.units(depth, rng))
    }

    /// One placement at a depth already checked.
    pub(crate) fn units(&mut self, depth: u32, rng: &mut Generator) -> &[Unit<'b>] {
        if self.took {
            self.gone.copy_from_slice(&self.ledger);
        }
        self.units.clear();
        let at = (self.table, depth, 0);
        let (_, took) = draw_placement(self.b, at, &mut self.gone, rng, &mut self.units);
        self.took = took;
        &self.units
    }
}

/// The count of each species (by [`SpeciesId::index`](crate::SpeciesId::index)) on one
/// floor at `depth` (one of the floor's) as drawn.
pub fn floor_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Result<Vec<u32>, OddsError> {
    check_depth(b, depth)?;
    Ok(floor_units(b, (b.floor().table, depth), ledger, rng))
}

/// [`floor_counts`] from `table` at a depth already checked.
pub(crate) fn floor_units(
    b: &Bestiary,
    at: (TableId, u32),
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Vec<u32> {
    let mut gone = gone_by_ledger(b, ledger);
    count(b, &draw_floor(b, at, &mut gone, rng).units)
}

/// The count of each species in one placement at `depth` (one of the floor's), drawn as a
/// floor's first.
pub fn placement_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Result<Vec<u32>, OddsError> {
    Ok(count(b, Drawer::new(b, ledger).placement(depth, rng)?))
}

/// The count of each species among units.
pub(crate) fn count(b: &Bestiary, units: &[Unit<'_>]) -> Vec<u32> {
    let mut counts = vec![0; b.species().len()];
    for unit in units {
        for member in std::iter::once(&unit.leader).chain(&unit.followers) {
            counts[member.species.index()] += 1;
        }
    }
    counts
}

/// The stream of the `i`-th sampled floor at `depth` of a seed: each floor its own, so any
/// number of threads gives the same figures.
pub fn sample_stream(seed: u64, depth: u32, i: u64) -> Generator {
    WorldSeed(seed).stream(StreamPurpose::event("tables-sample", "", depth, i))
}
