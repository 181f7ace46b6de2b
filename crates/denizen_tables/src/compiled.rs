//! The compiled form of the tables' pick-one draws, as the bestiary keeps it: per table
//! and depth, the eligible rows' cumulative weights and a guide from a word's top bits to
//! the first row it can fall in ([`crate::pick`] builds and reads them).

use denizen_core::Generator;

use crate::uniform::below;

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
        let buckets = rows.len().next_power_of_two().max(1);
        let shift = buckets.trailing_zeros();
        let guide = (0..buckets as u64)
            .map(|b| {
                // The smallest value a word of bucket b gives.
                let first = ((b << (32 - shift)) * u64::from(total)) >> 32;
                ends.iter()
                    .position(|&end| u64::from(end) > first)
                    .unwrap_or(0) as u32
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

/// Every pick-one table's compiled draws, by depth over the table's span, and the unique
/// species its rows depend on.
#[derive(Clone, Debug, Default)]
pub(crate) struct Draws {
    pub(crate) tables: Vec<TableDraws>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct TableDraws {
    /// The first depth of the table's span.
    pub(crate) first: u32,
    /// The draw at each depth of the span (none past the budget).
    pub(crate) depths: Vec<DepthDraw>,
    /// The rows that draw a unique species or a group it leads, and the species' index.
    pub(crate) uniques: Vec<(usize, usize)>,
}
