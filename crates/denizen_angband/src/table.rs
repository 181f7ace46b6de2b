//! What 2.7.9's two allocation tables share, the monsters' and the objects': entries
//! sorted by level with a prefix per level, picks that take the best of one, two or
//! three uniform picks, up to [`MAX_PICKS`] picks a draw, and the alias table a draw is
//! sampled from once its exact weights are known.

use std::sync::{Arc, OnceLock};

use denizen_core::Generator;
use rand::Rng;

/// The most picks one draw makes before it fails (2.7.9's 10,000 for both tables).
pub const MAX_PICKS: usize = 10_000;
/// The deepest level a draw is made at: boosted levels are held to it.
pub const MAX_DRAW_LEVEL: i32 = 127;
/// How many uniform picks a pick takes the best of, with its percent chance: 40% one,
/// 50% the better of two, 10% the best of three (ties keep the earlier pick).
pub const PICK_MIX: [(u32, u32); 3] = [(1, 40), (2, 50), (3, 10)];

/// What an allocation table keeps per final level, `0..=MAX_DRAW_LEVEL`: built on first
/// use and kept. Filled through a shared borrow, so a draw reads its table only (a level
/// planned from a rules resource never writes it), and shared by clones (what is kept is a
/// function of the table's entries, which never change).
#[derive(Debug)]
pub(crate) struct LevelCache<T>(Arc<[OnceLock<T>]>);

impl<T> LevelCache<T> {
    /// Nothing built yet.
    pub(crate) fn new() -> Self {
        Self((0..=MAX_DRAW_LEVEL).map(|_| OnceLock::new()).collect())
    }

    /// What is kept for a final level, built by `build` the first time.
    pub(crate) fn get_or_build(&self, level: i32, build: impl FnOnce() -> T) -> &T {
        self.0[level.clamp(0, MAX_DRAW_LEVEL) as usize].get_or_init(build)
    }
}

impl<T> Clone for LevelCache<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

/// How many entries lie at or below each level, `0..=MAX_DRAW_LEVEL`: a draw at a level
/// picks from that prefix of the level-sorted entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LevelPrefix {
    count_le: Vec<u32>,
}

impl LevelPrefix {
    /// The prefix sizes of entries with these levels.
    pub(crate) fn new(levels: impl IntoIterator<Item = u8>) -> Self {
        let mut count_le = vec![0u32; MAX_DRAW_LEVEL as usize + 1];
        for level in levels {
            for count in &mut count_le[usize::from(level).min(MAX_DRAW_LEVEL as usize)..] {
                *count += 1;
            }
        }
        Self { count_le }
    }

    /// The prefix size at a final level (level-0 entries only at level 0 or below).
    pub(crate) fn size(&self, level: i32) -> u32 {
        self.count_le[level.clamp(0, MAX_DRAW_LEVEL) as usize]
    }

    /// The chance that one pick at final level `level` lands on a given entry of level
    /// `l` (the level's share of the best-of-N mix, split evenly within the level; at
    /// level 0 or below a single uniform pick).
    pub(crate) fn pick_weight(&self, level: i32, l: u8) -> f64 {
        let n = f64::from(self.size(level));
        if level <= 0 {
            return 1.0 / n;
        }
        let below = if l == 0 {
            0.0
        } else {
            f64::from(self.count_le[usize::from(l) - 1])
        };
        let at_or_below = f64::from(self.count_le[usize::from(l)]);
        let share: f64 = PICK_MIX
            .iter()
            .map(|&(picks, percent)| {
                let k = picks as i32;
                f64::from(percent) / 100.0 * ((at_or_below / n).powi(k) - (below / n).powi(k))
            })
            .sum();
        share / (at_or_below - below)
    }
}

/// How many uniform picks a `rand0(100)` roll takes, the deepest kept: [`PICK_MIX`] as
/// thresholds (a roll under 10 takes three, under 60 two, else one).
pub(crate) fn picks_on_roll(roll: u32) -> u32 {
    let mut threshold = 0;
    for &(picks, percent) in PICK_MIX.iter().rev() {
        threshold += percent;
        if roll < threshold {
            return picks;
        }
    }
    1
}

/// An alias table (Vose's method) over weights: one word picks an index with chance
/// proportional to its weight.
#[derive(Clone, Debug, Default)]
pub(crate) struct AliasTable {
    /// The chance to keep the index a word lands on, and its alias.
    keep: Vec<f64>,
    alias: Vec<u32>,
}

impl AliasTable {
    /// The table of `weights` (their sum is `total`; nothing is drawn from a table whose
    /// total is not positive).
    pub(crate) fn new(weights: &[f64], total: f64) -> Self {
        let n = weights.len();
        let mut table = Self {
            keep: vec![1.0; n],
            alias: (0..n as u32).collect(),
        };
        if n == 0 || total <= 0.0 {
            return table;
        }
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            table.keep[s] = scaled[s];
            table.alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        table
    }

    /// One index, from one word.
    pub(crate) fn sample(&self, rng: &mut Generator) -> usize {
        let n = self.keep.len();
        let u = unit(rng) * n as f64;
        let i = (u as usize).min(n - 1);
        if u - (i as f64) < self.keep[i] {
            i
        } else {
            self.alias[i] as usize
        }
    }
}

/// A uniform number in `0..1` from one 64-bit word (53 bits of it).
pub(crate) fn unit(rng: &mut Generator) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The chance that [`MAX_PICKS`] picks, each kept with chance `a`, all fail.
pub(crate) fn failure_chance(a: f64) -> f64 {
    if a <= 0.0 {
        1.0
    } else {
        (1.0 - a.min(1.0)).powi(MAX_PICKS as i32)
    }
}
