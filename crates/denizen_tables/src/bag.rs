//! Bags: a `pick: Bag` table's rows drawn without replacement, as a deck is dealt. Each
//! eligible row puts its weight's copies (shaped by depth) into the bag of its table and
//! depth; a draw takes one copy at random; a copy whose row is no longer eligible is
//! taken out and the draw repeats; an empty bag is refilled. The draw ([`crate::draw`])
//! and the exact odds ([`crate::odds`]) read these helpers; the rule's steps are the
//! walk's `Reading::bag`.

use std::collections::BTreeMap;

use crate::bestiary::{Bestiary, TableId};
use crate::context::Conditions;
use crate::rules::{Key, eligible};

/// A floor's bags: for each bag table and depth drawn from, the copies left of each row
/// (by its index in the table), rows with none left out. A floor's draw starts from
/// none, its wandering arrivals go on with the floor's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bags(pub(crate) BTreeMap<(TableId, u32), Vec<(u32, u32)>>);

impl Bags {
    /// No bag filled yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether no bag is filled.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The copies left in the bag of `table` at `depth`, by row index (none when that bag
    /// was never filled or is empty).
    pub fn copies(&self, table: TableId, depth: u32) -> &[(u32, u32)] {
        self.0.get(&(table, depth)).map_or(&[], Vec::as_slice)
    }

    /// Every bag: its table and depth, and the copies left of each row.
    pub fn iter(&self) -> impl Iterator<Item = ((TableId, u32), &[(u32, u32)])> {
        self.0.iter().map(|(&k, v)| (k, v.as_slice()))
    }
}

impl FromIterator<((TableId, u32), Vec<(u32, u32)>)> for Bags {
    fn from_iter<I: IntoIterator<Item = ((TableId, u32), Vec<(u32, u32)>)>>(iter: I) -> Self {
        Self(iter.into_iter().filter(|(_, c)| !c.is_empty()).collect())
    }
}

/// The copies a refill puts in: each row eligible now, its shaped weight's worth.
pub(crate) fn fill(
    b: &Bestiary,
    table: TableId,
    (depth, c): (u32, &Conditions),
    available: &impl Fn(Key) -> bool,
) -> Vec<(u32, u32)> {
    let (rows, _) = eligible(b, table, (depth, c), available);
    rows.into_iter()
        .map(|(i, w)| (i as u32, w as u32))
        .collect()
}

/// The copies in a bag.
pub(crate) fn total(copies: &[(u32, u32)]) -> u32 {
    copies.iter().map(|&(_, n)| n).sum()
}

/// Takes copy `k` (below the total) out: its row.
pub(crate) fn take(copies: &mut Vec<(u32, u32)>, mut k: u32) -> usize {
    let at = copies
        .iter()
        .position(|&(_, n)| {
            let here = k < n;
            k = k.saturating_sub(n);
            here
        })
        .expect("a copy below the total");
    take_at(copies, at)
}

/// Takes one copy of the `at`-th row left out: its row.
pub(crate) fn take_at(copies: &mut Vec<(u32, u32)>, at: usize) -> usize {
    let row = copies[at].0 as usize;
    copies[at].1 -= 1;
    if copies[at].1 == 0 {
        copies.remove(at);
    }
    row
}
