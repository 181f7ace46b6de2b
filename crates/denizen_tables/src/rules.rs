//! The rules the draw and the exact odds share: which rows are eligible and with what
//! weight, where an out-of-depth placement draws and how many placements a floor has.
//! The draw ([`crate::draw`]) rolls these; the odds ([`crate::odds`]) weigh them; neither
//! restates them.

use std::collections::BTreeSet;

use crate::bestiary::{
    Bestiary, Creature, GroupId, OutOfDepthRule, Row, RowTarget, SpeciesId, TableId,
};
use crate::context::{Conditions, Context, ContextError};
use crate::weight::{Depths, MAX_DEPTH};

/// Why a draw (odds, samples, a floor's plan) cannot be made: the depth or the table asked
/// for is not the bestiary's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum OddsError {
    /// The depth is not one of the floor's.
    #[error("depth {depth} is outside the floor's depths, {min}-{max}")]
    Depth {
        /// The depth asked for.
        depth: u32,
        /// The floor's shallowest depth.
        min: u32,
        /// The floor's deepest depth.
        max: u32,
    },
    /// The table is not one of the bestiary's (an id of other files).
    #[error("table {0} is not one of the bestiary's")]
    Table(u32),
    /// The context names what the bestiary does not declare, or an integer out of range.
    #[error("{0}")]
    Context(#[from] ContextError),
    /// A budget was fixed for a floor that has a count, or past the largest budget.
    #[error("{0}")]
    Budget(String),
    /// A region's field cannot be read as its rule lets it.
    #[error("{0}")]
    Region(#[from] RegionFieldError),
}

/// Why a region cannot be populated as its fields say: the region, its kind, the field
/// and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[error("region {id:?} (kind {kind:?}): field `{field}`: {problem}")]
pub struct RegionFieldError {
    /// The region's id.
    pub id: String,
    /// Its kind.
    pub kind: String,
    /// The field at fault.
    pub field: String,
    /// What is wrong with it.
    pub problem: String,
}

/// Whether a fixed budget fits the floor: one with a budget, at most [`crate::MAX_BUDGET`].
pub(crate) fn check_budget(b: &Bestiary, fixed: Option<u32>) -> Result<(), OddsError> {
    match fixed {
        Some(_) if b.floor().budget.is_none() => Err(OddsError::Budget(
            "the floor has a count, not a budget: a budget cannot be fixed".to_owned(),
        )),
        Some(n) if n > crate::MAX_BUDGET => Err(OddsError::Budget(format!(
            "a budget of {n} is past the largest, {}",
            crate::MAX_BUDGET
        ))),
        _ => Ok(()),
    }
}

/// Whether `table` is one of the bestiary's (an id of other files is not).
pub(crate) fn check_table(b: &Bestiary, table: TableId) -> Result<(), OddsError> {
    if (table.0 as usize) < b.tables.len() {
        Ok(())
    } else {
        Err(OddsError::Table(table.0))
    }
}

/// Whether `depth` is one of the floor's.
pub(crate) fn check_depth(b: &Bestiary, depth: u32) -> Result<(), OddsError> {
    let depths = b.floor().depths;
    if depths.contains(depth) {
        Ok(())
    } else {
        Err(OddsError::Depth {
            depth,
            min: depths.min(),
            max: depths.max(),
        })
    }
}

/// What can run out while a floor is drawn: a species (a unique taken, or its per-floor
/// cap reached) or a group (its cap reached).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Key {
    Species(SpeciesId),
    Group(GroupId),
}

impl Key {
    /// Its place among a bestiary's species, then its groups.
    pub(crate) fn index(self, b: &Bestiary) -> usize {
        match self {
            Key::Species(s) => s.index(),
            Key::Group(g) => b.species.len() + g.0 as usize,
        }
    }

    /// What a row draws that can run out: its species, or its group and the group's
    /// leader when that is a species.
    pub(crate) fn of_row(b: &Bestiary, row: &Row) -> [Option<Key>; 2] {
        match row.what {
            RowTarget::Species(s) => [Some(Key::Species(s)), None],
            RowTarget::Group(g) => {
                let leader = match b.group(g).leader {
                    Some(Creature::Species(s)) => Some(Key::Species(s)),
                    _ => None,
                };
                [Some(Key::Group(g)), leader]
            }
            RowTarget::Table(_) => [None, None],
        }
    }
}

/// A row's weight at `depth` in context `c`: its shape's weight (see [`crate::Shape`]),
/// or 0 when its `when` fails in `c` or what it draws has run out (a unique taken, a
/// species or a group, or a group's leader, at its per-floor cap).
pub(crate) fn row_weight(
    b: &Bestiary,
    row: &Row,
    (depth, c): (u32, &Conditions),
    available: &impl Fn(Key) -> bool,
) -> u64 {
    if row.when.as_ref().is_some_and(|when| !when.holds(c)) {
        return 0;
    }
    let gone = Key::of_row(b, row)
        .into_iter()
        .flatten()
        .any(|k| !available(k));
    if gone {
        0
    } else {
        row.shape.weight(row.weight, row.depth, depth)
    }
}

/// Whether `table` has a row eligible at `depth` in `context` (every unique counted
/// available): a placement drawn from it there can bring something. An error when the
/// context names what the bestiary does not declare.
pub fn has_eligible_row(
    b: &Bestiary,
    table: TableId,
    depth: u32,
    context: &Context,
) -> Result<bool, ContextError> {
    let c = b.context.resolve(context)?;
    let rows = &b.table(table).rows;
    Ok(rows
        .iter()
        .any(|row| row_weight(b, row, (depth, &c), &|_| true) > 0))
}

/// The depths where each table has an eligible row (every unique available), for every
/// depth at once: each row's [`positive`](crate::Shape::positive) range marked, then one
/// sweep a table, so the work grows with rows plus tables times depths, never rows times
/// depths. Where [`has_eligible_row`] answers one depth, this answers a load's questions
/// (the lint's gaps) together.
pub(crate) struct Coverage {
    /// Per table, the count of depths with an eligible row among `0..d` for each `d` in
    /// `0..=MAX_DEPTH + 1`.
    covered: Vec<Vec<u16>>,
}

impl Coverage {
    pub(crate) fn of(b: &Bestiary) -> Self {
        let depths = MAX_DEPTH as usize + 1;
        let covered = b
            .tables
            .iter()
            .map(|table| {
                // +1 where a row's positive range starts, -1 past where it ends.
                let mut starts = vec![0i32; depths + 1];
                for row in &table.rows {
                    if let Some(p) = row.shape.positive(row.weight, row.depth) {
                        starts[p.min() as usize] += 1;
                        starts[p.max() as usize + 1] -= 1;
                    }
                }
                crate::work::count(depths);
                let (mut open, mut count) = (0, 0u16);
                let mut covered = Vec::with_capacity(depths + 1);
                covered.push(0);
                for start in &starts[..depths] {
                    open += start;
                    count += u16::from(open > 0);
                    covered.push(count);
                }
                covered
            })
            .collect();
        Self { covered }
    }

    /// Whether `table` has an eligible row at `depth`.
    pub(crate) fn has(&self, table: TableId, depth: u32) -> bool {
        let covered = &self.covered[table.0 as usize];
        let d = depth as usize;
        d + 1 < covered.len() && covered[d + 1] > covered[d]
    }

    /// The depths of `range` where `table` has no eligible row (none, at once, when it has
    /// one at every depth).
    pub(crate) fn gaps(&self, table: TableId, range: Depths) -> Vec<u32> {
        let covered = &self.covered[table.0 as usize];
        let (lo, hi) = (range.min() as usize, range.max() as usize + 1);
        if hi >= covered.len() || covered[hi] - covered[lo] == (hi - lo) as u16 {
            return Vec::new();
        }
        crate::work::count(hi - lo);
        range.iter().filter(|&d| !self.has(table, d)).collect()
    }
}

/// The eligible rows of a table at `depth` in context `c` with their weights, and the
/// total.
pub(crate) fn eligible(
    b: &Bestiary,
    table: TableId,
    (depth, c): (u32, &Conditions),
    available: &impl Fn(Key) -> bool,
) -> (Vec<(usize, u64)>, u64) {
    let mut total = 0;
    let rows = b
        .table(table)
        .rows
        .iter()
        .enumerate()
        .filter_map(|(i, row)| {
            let w = row_weight(b, row, (depth, c), available);
            total += w;
            (w > 0).then_some((i, w))
        })
        .collect();
    (rows, total)
}

/// The depth a placement at `depth` draws at when it goes out of depth, if the floor's
/// table has an eligible row there; otherwise it draws at `depth` and does not count
/// towards the fairness cap.
pub(crate) fn boosted_depth(
    b: &Bestiary,
    (rule, table): (OutOfDepthRule, TableId),
    (depth, c): (u32, &Conditions),
    available: &impl Fn(Key) -> bool,
) -> Option<u32> {
    let boosted = rule.boosted(depth);
    (eligible(b, table, (boosted, c), available).1 > 0).then_some(boosted)
}

/// The species a draw from a table can bring: its rows' species, groups' leaders and
/// followers, species rows' escorts, through nested and creature tables.
pub(crate) fn reachable(b: &Bestiary, start: TableId) -> BTreeSet<SpeciesId> {
    reach(b, start).0
}

/// The species and the groups a draw from a table can bring (see [`reachable`]).
pub(crate) fn reach(b: &Bestiary, start: TableId) -> (BTreeSet<SpeciesId>, BTreeSet<GroupId>) {
    let (mut species, mut tables, mut groups) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    let mut stack = vec![start];
    let creature =
        |c: Creature, species: &mut BTreeSet<SpeciesId>, stack: &mut Vec<TableId>| match c {
            Creature::Species(s) => {
                species.insert(s);
            }
            Creature::Table(t) => stack.push(t),
        };
    while let Some(t) = stack.pop() {
        if !tables.insert(t) {
            continue;
        }
        let mut new_groups: Vec<GroupId> = Vec::new();
        for row in &b.table(t).rows {
            match row.what {
                RowTarget::Species(s) => {
                    species.insert(s);
                    new_groups.extend(b.species_of(s).escort);
                }
                RowTarget::Group(g) => new_groups.push(g),
                RowTarget::Table(inner) => stack.push(inner),
            }
        }
        for g in new_groups {
            if groups.insert(g) {
                let group = b.group(g);
                for c in group
                    .leader
                    .iter()
                    .copied()
                    .chain(group.followers.iter().map(|f| f.member))
                {
                    creature(c, &mut species, &mut stack);
                }
            }
        }
    }
    (species, groups)
}
