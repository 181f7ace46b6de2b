//! The compiled form of the tables' pick-one draws, as the bestiary keeps it: per table
//! and depth, the eligible rows' cumulative weights and a guide from a word's top bits to
//! the first row it can fall in ([`crate::pick`] builds and reads them).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use denizen_core::Generator;

use denizen_core::fair::below;

/// One table's pick-one draw at one depth, every unique available: the eligible rows in
/// table order, their cumulative weights, and a guide from a word's top bits to the first
/// row that word can fall in.
#[derive(Clone, Debug, Default)]
pub(crate) struct DepthDraw {
    rows: Box<[u32]>,
    ends: Box<[u32]>,
    guide: Box<[u32]>,
    shift: u32,
}

impl DepthDraw {
    pub(crate) fn new(rows: &[(usize, u64)]) -> Self {
        let mut total = 0;
        let ends: Box<[u32]> = rows
            .iter()
            .map(|&(_, w)| {
                total += w as u32;
                total
            })
            .collect();
        crate::work::count(rows.len());
        let buckets = rows.len().next_power_of_two().max(1);
        let shift = buckets.trailing_zeros();
        // Each bucket's first row, found by one walk: the smallest value a word of
        // bucket b gives grows with b, and so does the first row whose end passes it.
        let mut row = 0;
        let guide = (0..buckets as u64)
            .map(|b| {
                let first = ((b << (32 - shift)) * u64::from(total)) >> 32;
                while row < ends.len() && u64::from(ends[row]) <= first {
                    row += 1;
                }
                if row == ends.len() { 0 } else { row as u32 }
            })
            .collect();
        Self {
            rows: rows.iter().map(|&(i, _)| i as u32).collect(),
            ends,
            guide,
            shift,
        }
    }

    pub(crate) fn total(&self) -> u32 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The row a draw picks.
    pub(crate) fn pick(&self, rng: &mut Generator) -> Option<usize> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let (u, word) = below(rng, total);
        let mut i = self.guide[((u64::from(word) << self.shift) >> 32) as usize] as usize;
        while self.ends[i] <= u {
            i += 1;
        }
        Some(self.rows[i] as usize)
    }
}

/// Every pick-one table's compiled draws, by depth over the table's span, each compiled
/// the first time a draw needs it (a load compiles nothing, so a large table loads in its
/// rows' time), and the unique species its rows depend on.
#[derive(Debug)]
pub(crate) struct Draws {
    pub(crate) tables: Vec<TableDraws>,
    /// The rows the draws compiled so far may still hold; past it a depth draws by the
    /// linear scan, which picks the same rows for the same words.
    pub(crate) budget: AtomicUsize,
}

impl Default for Draws {
    fn default() -> Self {
        Self {
            tables: Vec::new(),
            budget: AtomicUsize::new(0),
        }
    }
}

impl Clone for Draws {
    fn clone(&self) -> Self {
        Self {
            tables: self.tables.clone(),
            budget: AtomicUsize::new(self.budget.load(Ordering::Relaxed)),
        }
    }
}

/// A draw compiled once needed (`None` past the budget).
pub(crate) type Slot = OnceLock<Option<DepthDraw>>;

#[derive(Clone, Debug, Default)]
pub(crate) struct TableDraws {
    /// The first depth of the table's span.
    pub(crate) first: u32,
    /// The draw at each depth of the span once compiled (`None` past the budget, or for
    /// a pick-each table, which has no depths here).
    pub(crate) depths: Vec<Slot>,
    /// The rows whose weight can run out while a floor is drawn, and what runs out (by
    /// `Key::index`): a unique or capped species, a capped group.
    pub(crate) uniques: Vec<(usize, [Option<usize>; 2])>,
    /// Whether a row has a `when`: its draw depends on the context.
    pub(crate) conditional: bool,
    /// The rows with a `when`, when there are at most [`MAX_COMPILED_CONDITIONS`]: the
    /// table is compiled per depth and per set of them that hold.
    pub(crate) conditions: Vec<usize>,
    /// For such a table, at each depth of the span once drawn, the draw for each set of
    /// its conditions that hold (by bit); empty for any other table.
    pub(crate) variants: Vec<OnceLock<Box<[Slot]>>>,
}

/// The most rows with a `when` a table may have and still be compiled (16 draws a depth);
/// a table with more draws by the linear scan.
pub(crate) const MAX_COMPILED_CONDITIONS: usize = 4;
