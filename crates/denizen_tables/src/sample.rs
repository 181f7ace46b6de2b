//! Sampling: a floor's placements drawn (count, out-of-depth branch, units) by
//! the walk (`walk`) read by the stream, before any square is chosen. The floor's plan
//! places what this draws; `denizen tables sample` and the sampled odds count it.

use denizen_core::{Generator, StreamPurpose, WorldSeed};

use crate::bag::Bags;
use crate::bestiary::{Bestiary, TableId};
use crate::context::{Conditions, Context, ContextError};
use crate::draw::{Sampler, Unit};
use crate::ledger::{Spent, UniqueLedger};
use crate::rules::{OddsError, check_depth};
use crate::walk::{self, Draw};

/// A floor's placements as drawn: every unit in order, how many placements there were and
/// how many went out of depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FloorDraw<'b> {
    pub(crate) units: Vec<Unit<'b>>,
    pub(crate) placements: u32,
    pub(crate) out_of_depth: u32,
    /// The budget a budgeted floor rolled.
    pub(crate) budget: Option<u32>,
}

/// Draws a floor's (or a region's) placements ([`walk::floor`] read by the stream).
/// `spent` marks what is left out (the ledger's uniques, then each one drawn and each cap
/// reached). A budgeted draw's budget is `fixed` when given.
pub(crate) fn draw_floor<'b>(
    (b, c): (&'b Bestiary, Conditions),
    draw: Draw<'_>,
    (spent, bags): (&mut Spent, &mut Bags),
    rng: &mut Generator,
    fixed: Option<u32>,
) -> FloorDraw<'b> {
    // Room for a unit a placement, at the most placements the floor can have (or a
    // budget's most, past which most budgets never go).
    let most = draw
        .rules
        .count_bounds(draw.depth)
        .1
        .min(crate::MAX_PLACEMENTS);
    let mut units = Vec::with_capacity(most as usize);
    let mut sampler = Sampler::new((b, &c), rng, (spent, bags), &mut units);
    walk::floor(&mut sampler, (), draw, fixed);
    let (placements, out_of_depth) = (sampler.placements, sampler.out_of_depth);
    let budget = sampler.budget;
    FloorDraw {
        units,
        placements,
        out_of_depth,
        budget,
    }
}

/// Draws placements one after another, each as a floor's first with the ledger's uniques
/// left out, keeping its buffers: a lone creature's placement allocates nothing.
pub struct Drawer<'b> {
    b: &'b Bestiary,
    /// The table placements draw from: the floor's, unless the caller names another.
    table: TableId,
    /// The context placements are drawn in.
    c: Conditions,
    ledger: Spent,
    spent: Spent,
    /// Each placement's bags, emptied before it: a placement is a floor's first.
    bags: Bags,
    /// Whether the last placement took a unique or reached a cap, so `spent` is no longer
    /// the ledger's.
    took: bool,
    units: Vec<Unit<'b>>,
}

impl<'b> Drawer<'b> {
    /// A drawer over a bestiary, the uniques `ledger` holds left out.
    pub fn new(b: &'b Bestiary, ledger: &UniqueLedger) -> Self {
        let ledger = Spent::new(b, ledger);
        Self {
            b,
            table: b.floor().table,
            c: b.context().defaults(),
            spent: ledger.clone(),
            ledger,
            bags: Bags::new(),
            took: false,
            units: Vec::new(),
        }
    }

    /// Placements drawn in `context` (the default context otherwise).
    pub fn in_context(self, context: &Context) -> Result<Self, ContextError> {
        let c = self.b.context().resolve(context)?;
        Ok(Self { c, ..self })
    }

    /// Placements from `table` instead of the floor's, in context `c`.
    pub(crate) fn with(self, table: TableId, c: Conditions) -> Self {
        Self { table, c, ..self }
    }

    /// One placement at `depth` (one of the floor's): its units.
    pub fn placement(&mut self, depth: u32, rng: &mut Generator) -> Result<&[Unit<'b>], OddsError> {
        check_depth(self.b, depth)?;
        Ok(self.units(depth, rng))
    }

    /// One placement at a depth already checked.
    pub(crate) fn units(&mut self, depth: u32, rng: &mut Generator) -> &[Unit<'b>] {
        if self.took {
            self.spent.reset_to(&self.ledger);
        }
        self.units.clear();
        // Clearing an empty map still walks it: most placements fill no bag.
        if !self.bags.is_empty() {
            self.bags.0.clear();
        }
        let (spent, bags) = (&mut self.spent, &mut self.bags);
        let mut sampler = Sampler::new((self.b, &self.c), rng, (spent, bags), &mut self.units);
        let deep = self.b.floor().out_of_depth;
        walk::placement(&mut sampler, (), (self.table, depth), deep);
        self.took = sampler.took;
        &self.units
    }
}

/// The count of each species (by [`SpeciesId::index`](crate::SpeciesId::index)) on one
/// floor at `depth` (one of the floor's) in `context` as drawn.
pub fn floor_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    rng: &mut Generator,
) -> Result<Vec<u32>, OddsError> {
    check_depth(b, depth)?;
    let c = b.context().resolve(context)?;
    Ok(floor_units((b, c), (b.floor().table, depth), ledger, rng))
}

/// [`floor_counts`] from `table` at a depth already checked, in context `c`.
pub(crate) fn floor_units(
    (b, c): (&Bestiary, Conditions),
    at: (TableId, u32),
    ledger: &UniqueLedger,
    rng: &mut Generator,
) -> Vec<u32> {
    let (mut spent, mut bags) = (Spent::new(b, ledger), Bags::new());
    count(
        b,
        &draw_floor(
            (b, c),
            Draw::floor(b, at),
            (&mut spent, &mut bags),
            rng,
            None,
        )
        .units,
    )
}

/// The count of each species in one placement at `depth` (one of the floor's) in
/// `context`, drawn as a floor's first.
pub fn placement_counts(
    b: &Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    context: &Context,
    rng: &mut Generator,
) -> Result<Vec<u32>, OddsError> {
    let mut drawer = Drawer::new(b, ledger).in_context(context)?;
    Ok(count(b, drawer.placement(depth, rng)?))
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
