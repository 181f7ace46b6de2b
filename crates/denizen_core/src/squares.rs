//! A set of squares of a floor, of any shape: a river of lava, a shrine's outline, a region
//! an editor drew. Rule sets and plugins take one wherever they take an area, a rectangle
//! being one kind of set.
//!
//! The set is kept as runs (a row and the columns `first..=last` of it), sorted and
//! merged, so a rectangle costs a run a row and a drawn region a few, and the same squares
//! always make the same runs (two equal sets save the same bytes). It is written as those
//! runs, `[(y, first, last), ...]`, and checked when read: runs in order, none empty,
//! overlapping or touching the next on its row, at most [`MAX_RUNS`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::floor::{Rect, Square};

/// The most runs one set holds (a set of more is refused when read): more than a
/// 1,000 x 1,000 floor holds in any shape but a checkerboard.
pub const MAX_RUNS: usize = 1 << 20;

/// One row's squares `first..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
struct Run {
    y: u32,
    first: u32,
    last: u32,
}

/// A set of squares (see the [module](self)). A rectangle stays a rectangle until it is
/// clipped or combined, so one however large (`u32::MAX` squares a side) costs nothing
/// until a floor cuts it down.
///
/// ```
/// use denizen_core::{Rect, Square, SquareSet};
///
/// let river: SquareSet = [(3, 0), (3, 1), (4, 1), (4, 2), (5, 2)]
///     .into_iter()
///     .map(|(x, y)| Square { x, y })
///     .collect();
/// assert_eq!(river.len(), 5);
/// assert!(river.contains(Square { x: 4, y: 1 }) && !river.contains(Square { x: 3, y: 2 }));
/// let room = SquareSet::from(Rect { x: 1, y: 1, width: 3, height: 2 });
/// assert_eq!(room.len(), 6);
/// assert_eq!(room.clipped(2, 10).len(), 2, "only the column x = 1 lies on a 2-wide floor");
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "Vec<(u32, u32, u32)>", into = "Vec<(u32, u32, u32)>")]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(opaque, Debug, PartialEq, Hash))]
pub struct SquareSet {
    shape: Kept,
}

/// How a set is kept: a rectangle, or its runs.
#[derive(Clone, Debug)]
enum Kept {
    Rect(Rect),
    Runs(Vec<Run>),
}

impl Default for SquareSet {
    fn default() -> Self {
        Self::from_runs(Vec::new())
    }
}

impl PartialEq for SquareSet {
    /// The same squares, however kept. Two rectangles compare by their corners; a
    /// rectangle and runs by the runs, which a rectangle's runs outlast at once when they
    /// differ, so no comparison walks a rectangle's `u32::MAX` rows.
    fn eq(&self, other: &Self) -> bool {
        match (&self.shape, &other.shape) {
            (Kept::Rect(a), Kept::Rect(b)) => corners(*a) == corners(*b),
            _ => self.runs().eq(other.runs()),
        }
    }
}

impl Eq for SquareSet {}

impl std::hash::Hash for SquareSet {
    /// Its size and first run: equal sets hash alike however kept, in constant time.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        self.runs().next().hash(state);
    }
}

/// A rectangle's squares as their first and last row and column, `None` when it holds
/// none (the ends saturate as `Rect::contains` has them).
fn corners(r: Rect) -> Option<(u32, u32, u32, u32)> {
    let (right, bottom) = (r.x.saturating_add(r.width), r.y.saturating_add(r.height));
    (right > r.x && bottom > r.y).then(|| (r.x, r.y, right - 1, bottom - 1))
}

/// Runs as written that do not make a set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareSetError {
    /// More runs than a set holds.
    #[error("{0} runs, and a set of squares holds at most {MAX_RUNS}")]
    TooManyRuns(usize),
    /// A run is empty, out of order, or overlaps or touches the one before it.
    #[error(
        "run {index} ({y}, {first}, {last}) is not after the one before it, or is empty (runs are (row, first column, last column), in order, apart)"
    )]
    BadRun {
        /// The run's place.
        index: usize,
        /// Its row.
        y: u32,
        /// Its first column.
        first: u32,
        /// Its last column.
        last: u32,
    },
}

impl SquareSet {
    /// No square.
    pub fn new() -> Self {
        Self::default()
    }

    fn from_runs(runs: Vec<Run>) -> Self {
        Self {
            shape: Kept::Runs(runs),
        }
    }

    /// Its runs, in order (a rectangle's made as they are read).
    fn runs(&self) -> impl Iterator<Item = Run> + '_ {
        let (rect, runs) = match &self.shape {
            Kept::Rect(rect) => (Some(*rect), &[][..]),
            Kept::Runs(runs) => (None, runs.as_slice()),
        };
        // A rectangle's squares are `x..x + width` as `Rect::contains` has them: the end
        // saturates, so no square lies at `u32::MAX`.
        let rect = rect.filter(|r| r.x.saturating_add(r.width) > r.x);
        let rows = rect.map_or(0..0, |r| r.y..r.y.saturating_add(r.height));
        let rect_runs = rows.map(move |y| {
            let r = rect.unwrap_or_default();
            Run {
                y,
                first: r.x,
                last: r.x.saturating_add(r.width) - 1,
            }
        });
        rect_runs.chain(runs.iter().copied())
    }

    /// How many squares.
    pub fn len(&self) -> u64 {
        match &self.shape {
            Kept::Rect(r) => corners(*r).map_or(0, |(x0, y0, x1, y1)| {
                (u64::from(x1 - x0) + 1) * (u64::from(y1 - y0) + 1)
            }),
            Kept::Runs(runs) => runs.iter().map(|r| u64::from(r.last - r.first) + 1).sum(),
        }
    }

    /// Whether it holds no square.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `at` is one of its squares.
    pub fn contains(&self, at: Square) -> bool {
        match &self.shape {
            Kept::Rect(rect) => rect.contains(at),
            Kept::Runs(runs) => {
                let i = runs.partition_point(|r| (r.y, r.last) < (at.y, at.x));
                runs.get(i).is_some_and(|r| r.y == at.y && r.first <= at.x)
            }
        }
    }

    /// Every square, row by row, left to right.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.runs()
            .flat_map(|r| (r.first..=r.last).map(move |x| Square { x, y: r.y }))
    }

    /// The squares that lie on a `width` x `height` floor (the rest cut away, so a set
    /// however large costs no more than the floor's squares).
    pub fn clipped(&self, width: u32, height: u32) -> SquareSet {
        if let Kept::Rect(r) = self.shape {
            let (x, y) = (r.x.min(width), r.y.min(height));
            let right = r.x.saturating_add(r.width).min(width);
            let bottom = r.y.saturating_add(r.height).min(height);
            return Self::from(Rect {
                x,
                y,
                width: right - x,
                height: bottom - y,
            });
        }
        let runs = self
            .runs()
            .filter(|r| r.y < height && r.first < width)
            .map(|r| Run {
                last: r.last.min(width - 1),
                ..r
            })
            .collect();
        Self::from_runs(runs)
    }

    /// The squares of both (their runs made: clip a large rectangle first).
    pub fn union(&self, other: &SquareSet) -> SquareSet {
        Self::merged(self.runs().chain(other.runs()).collect())
    }

    /// Runs sorted and merged where they overlap or touch.
    fn merged(mut runs: Vec<Run>) -> SquareSet {
        runs.sort_unstable();
        let mut merged: Vec<Run> = Vec::with_capacity(runs.len());
        for run in runs {
            match merged.last_mut() {
                Some(last) if last.y == run.y && run.first <= last.last.saturating_add(1) => {
                    last.last = last.last.max(run.last);
                }
                _ => merged.push(run),
            }
        }
        Self::from_runs(merged)
    }
}

impl From<Rect> for SquareSet {
    fn from(rect: Rect) -> Self {
        Self {
            shape: Kept::Rect(rect),
        }
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> Self {
        let runs = squares
            .into_iter()
            .map(|at| Run {
                y: at.y,
                first: at.x,
                last: at.x,
            })
            .collect();
        Self::merged(runs)
    }
}

impl TryFrom<Vec<(u32, u32, u32)>> for SquareSet {
    type Error = SquareSetError;

    fn try_from(written: Vec<(u32, u32, u32)>) -> Result<Self, Self::Error> {
        if written.len() > MAX_RUNS {
            return Err(SquareSetError::TooManyRuns(written.len()));
        }
        let mut runs: Vec<Run> = Vec::with_capacity(written.len());
        for (index, (y, first, last)) in written.into_iter().enumerate() {
            let apart = runs
                .last()
                .is_none_or(|before| (before.y, before.last.saturating_add(1)) < (y, first));
            if first > last || !apart {
                return Err(SquareSetError::BadRun {
                    index,
                    y,
                    first,
                    last,
                });
            }
            runs.push(Run { y, first, last });
        }
        Ok(Self::from_runs(runs))
    }
}

impl From<SquareSet> for Vec<(u32, u32, u32)> {
    fn from(set: SquareSet) -> Self {
        set.runs().map(|r| (r.y, r.first, r.last)).collect()
    }
}

impl fmt::Display for SquareSet {
    /// `12 squares in 3 rows`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = match &self.shape {
            Kept::Rect(r) => corners(*r).map_or(0, |(_, y0, _, y1)| u64::from(y1 - y0) + 1),
            Kept::Runs(runs) => {
                let mut rows: Vec<u32> = runs.iter().map(|r| r.y).collect();
                rows.dedup();
                rows.len() as u64
            }
        };
        write!(f, "{} squares in {rows} rows", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(squares: &[(u32, u32)]) -> SquareSet {
        squares.iter().map(|&(x, y)| Square { x, y }).collect()
    }

    /// The same squares in any order make the same runs; touching squares of a row merge,
    /// and a gap of one column keeps them apart.
    #[test]
    fn squares_make_merged_runs() {
        let a = set(&[(3, 1), (1, 1), (2, 1), (5, 1), (0, 0)]);
        let b = set(&[(5, 1), (0, 0), (2, 1), (3, 1), (1, 1), (2, 1)]);
        assert_eq!(a, b);
        assert_eq!(Vec::from(a.clone()), [(0, 0, 0), (1, 1, 3), (1, 5, 5)]);
        assert_eq!(a.len(), 5);
        for (x, y, inside) in [
            (0, 0, true),
            (1, 0, false),
            (1, 1, true),
            (3, 1, true),
            (4, 1, false),
            (5, 1, true),
            (6, 1, false),
            (0, 1, false),
        ] {
            assert_eq!(a.contains(Square { x, y }), inside, "({x}, {y})");
        }
        assert_eq!(a.iter().count(), 5);
    }

    /// A rectangle is a run a row; a set is clipped to a floor's size; a union merges.
    #[test]
    fn rectangles_clip_and_union() {
        let r = SquareSet::from(Rect {
            x: 2,
            y: 1,
            width: 3,
            height: 2,
        });
        assert_eq!(Vec::from(r.clone()), [(1, 2, 4), (2, 2, 4)]);
        assert_eq!(Vec::from(r.clipped(4, 2)), [(1, 2, 3)]);
        assert!(r.clipped(2, 10).is_empty());
        let wide = SquareSet::from(Rect {
            x: u32::MAX - 1,
            y: 0,
            width: 10,
            height: 1,
        });
        assert_eq!(
            wide.len(),
            1,
            "a rectangle ends before u32::MAX, as Rect::contains"
        );
        assert_eq!(Vec::from(wide), [(0, u32::MAX - 1, u32::MAX - 1)]);
        let everything = SquareSet::from(Rect {
            x: 0,
            y: 0,
            width: u32::MAX,
            height: u32::MAX,
        });
        assert_eq!(everything.len(), u64::from(u32::MAX) * u64::from(u32::MAX));
        assert_eq!(Vec::from(everything.clipped(3, 2)), [(0, 0, 2), (1, 0, 2)]);
        let small = SquareSet::from(Rect {
            x: 0,
            y: 0,
            width: 3,
            height: 2,
        });
        let same = set(&[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]);
        assert_eq!(small, same, "a rectangle equals its squares");
        // Two rectangles of every square compare, hash and show at once.
        assert_eq!(everything, everything.clone());
        assert_ne!(everything, small);
        let hash = |set: &SquareSet| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            set.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&small), hash(&same));
        assert_eq!(hash(&everything), hash(&everything.clone()));
        assert_eq!(
            everything.to_string(),
            format!("{} squares in 4294967295 rows", everything.len())
        );
        let u = r.union(&set(&[(5, 1), (0, 2)]));
        assert_eq!(Vec::from(u), [(1, 2, 5), (2, 0, 0), (2, 2, 4)]);
        assert!(SquareSet::from(Rect::default()).is_empty());
    }

    /// Runs as written are checked: empty, out of order, overlapping or touching runs are
    /// refused, and so are more than `MAX_RUNS`; good ones round-trip.
    #[test]
    fn written_runs_are_checked() {
        let good = vec![(0, 1, 2), (0, 4, 4), (3, 0, 9)];
        assert_eq!(Vec::from(SquareSet::try_from(good.clone()).unwrap()), good);
        for (bad, index) in [
            (vec![(0, 3, 2)], 0),
            (vec![(1, 0, 0), (0, 0, 0)], 1),
            (vec![(0, 0, 4), (0, 4, 6)], 1),
            (vec![(0, 0, 4), (0, 5, 6)], 1),
            (vec![(0, 0, u32::MAX), (0, 5, 6)], 1),
        ] {
            match SquareSet::try_from(bad.clone()) {
                Err(SquareSetError::BadRun { index: i, .. }) => assert_eq!(i, index, "{bad:?}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        let many: Vec<(u32, u32, u32)> = (0..=MAX_RUNS as u32).map(|y| (y, 0, 0)).collect();
        assert_eq!(
            SquareSet::try_from(many),
            Err(SquareSetError::TooManyRuns(MAX_RUNS + 1))
        );
        let text = ron::to_string(&SquareSet::try_from(good).unwrap()).unwrap();
        assert_eq!(text, "[(0,1,2),(0,4,4),(3,0,9)]");
    }
}
