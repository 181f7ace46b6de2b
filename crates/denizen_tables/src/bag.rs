//! Bags: a `pick: Bag` table's rows drawn without replacement, as a deck is dealt. Each
//! eligible row puts its weight's copies (shaped by depth) into the bag of its table and
//! depth; a draw takes one copy at random; a copy whose row is no longer eligible is
//! taken out and the draw repeats; an empty bag is refilled. The steps are written here
//! once; the draw ([`crate::draw`]) takes them by the stream and the exact odds
//! ([`crate::odds`]) follow each copy with its share.

use std::collections::BTreeMap;

use crate::bestiary::{Bestiary, TableId};
use crate::context::Conditions;
use crate::rules::{Key, eligible, row_weight};

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

/// A draw from a bag table, in the rule's steps, which both readings of the walk take:
/// [`Bags::ready`] (refill an empty bag, or draw nothing), then one copy taken out
/// ([`Bags::take_copy`] by the stream, or each row in turn with its share through
/// [`Bags::take_row`]), then [`dealt`]: the copy's row is drawn if still eligible;
/// otherwise the draw repeats from the bag left.
impl Bags {
    /// The bag of `table` at `depth` to draw from, refilled with the rows eligible now
    /// (each its shaped weight's copies) when empty; none when a refill has nothing in it:
    /// the table draws nothing.
    pub(crate) fn ready(
        &mut self,
        b: &Bestiary,
        (table, depth): (TableId, u32),
        c: &Conditions,
        available: &impl Fn(Key) -> bool,
    ) -> Option<&[(u32, u32)]> {
        if self.copies(table, depth).is_empty() {
            let (rows, _) = eligible(b, table, (depth, c), available);
            let copies: Vec<(u32, u32)> = (rows.into_iter())
                .map(|(i, w)| (i as u32, w as u32))
                .collect();
            if copies.is_empty() {
                return None;
            }
            self.0.insert((table, depth), copies);
        }
        Some(self.copies(table, depth))
    }

    /// Takes copy `k` (below the bag's [`total`]) out of the bag of `table` at `depth`:
    /// its row.
    pub(crate) fn take_copy(&mut self, (table, depth): (TableId, u32), mut k: u32) -> usize {
        let at = (self.copies(table, depth).iter())
            .position(|&(_, n)| {
                let here = k < n;
                k = k.saturating_sub(n);
                here
            })
            .expect("a copy below the total");
        self.take_row((table, depth), at)
    }

    /// Takes one copy of the `at`-th row left in the bag of `table` at `depth`: its row.
    /// A bag left empty is dropped (it is refilled at its next draw).
    pub(crate) fn take_row(&mut self, key: (TableId, u32), at: usize) -> usize {
        let copies = self.0.get_mut(&key).expect("a filled bag");
        let row = copies[at].0 as usize;
        copies[at].1 -= 1;
        if copies[at].1 == 0 {
            copies.remove(at);
        }
        if copies.is_empty() {
            self.0.remove(&key);
        }
        row
    }
}

/// The copies in a bag.
pub(crate) fn total(copies: &[(u32, u32)]) -> u32 {
    copies.iter().map(|&(_, n)| n).sum()
}

/// Whether a copy of `row` taken out of the bag of `table` at `depth` is dealt: its row
/// is still eligible. One that is not stays out, and the draw repeats.
pub(crate) fn dealt(
    b: &Bestiary,
    (table, depth): (TableId, u32),
    c: &Conditions,
    row: usize,
    available: &impl Fn(Key) -> bool,
) -> bool {
    row_weight(b, &b.table(table).rows[row], (depth, c), available) > 0
}
