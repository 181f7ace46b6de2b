//! Squares for a floor's creatures: each creature's placement rules resolved against the
//! floor's tag layer, a leader anywhere they allow, a follower on a connected square
//! within its group's radius of the leader.

use denizen_core::rng::uniform;
use denizen_core::{FloorGrid, Generator, Square, SquareTags, TagMask, Tile};

use crate::bestiary::Place;

/// How many random squares are tried before every square is scanned: the first that fits
/// is as uniform over the fitting squares as a scan's choice, and far cheaper on an open
/// floor.
const PROBES: u32 = 32;

/// Placement rules resolved against one floor's tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    stands_on: TagMask,
    needs: TagMask,
    forbids: TagMask,
    min_distance: u32,
    /// A tag it needs is on no square, or it stands on nothing the floor has.
    impossible: bool,
}

/// The squares of one floor as its plan fills them.
pub(crate) struct Squares<'f> {
    grid: &'f FloorGrid,
    tags: &'f SquareTags,
    taken: Vec<bool>,
    point: Option<Square>,
}

impl<'f> Squares<'f> {
    /// The floor's squares, none taken by the plan yet; `point` is the request's (the
    /// player), the origin of every least distance.
    pub(crate) fn new(grid: &'f FloorGrid, tags: &'f SquareTags, point: Option<Square>) -> Self {
        let size = grid.width() as usize * grid.height() as usize;
        Self {
            grid,
            tags,
            taken: vec![false; size],
            point,
        }
    }

    /// The rules of `places` together: every `stands_on` list must be met (one tag of each),
    /// every `needs` and `forbids` tag, and the largest least distance.
    pub(crate) fn rule<'p>(&self, places: impl IntoIterator<Item = &'p Place>) -> Rule {
        let mut rule = Rule {
            stands_on: TagMask::MAX,
            needs: 0,
            forbids: 0,
            min_distance: 0,
            impossible: false,
        };
        for place in places {
            if !place.stands_on.is_empty() {
                let (mask, _) = self.tags.mask(place.stands_on.iter().map(String::as_str));
                rule.stands_on &= mask;
                rule.impossible |= mask == 0;
            }
            let (needs, known) = self.tags.mask(place.needs.iter().map(String::as_str));
            rule.needs |= needs;
            rule.impossible |= !known;
            rule.forbids |= self.tags.mask(place.forbids.iter().map(String::as_str)).0;
            rule.min_distance = rule.min_distance.max(place.min_distance);
        }
        rule
    }

    fn index(&self, at: Square) -> usize {
        at.y as usize * self.grid.width() as usize + at.x as usize
    }

    /// Whether a creature under `rule` may stand on `at` now.
    pub(crate) fn fits(&self, at: Square, rule: Rule) -> bool {
        let tags = self.tags.mask_at(at);
        tags & rule.stands_on != 0
            && tags & rule.needs == rule.needs
            && tags & rule.forbids == 0
            && !self.taken[self.index(at)]
            && !self.grid.is_occupied(at)
            && self
                .point
                .is_none_or(|p| distance(p, at) >= rule.min_distance)
    }

    /// Takes a square for a creature.
    pub(crate) fn take(&mut self, at: Square) {
        let i = self.index(at);
        self.taken[i] = true;
    }

    /// A square anywhere on the floor under `rule`, uniform over the squares that fit.
    pub(crate) fn anywhere(&self, rule: Rule, rng: &mut Generator) -> Option<Square> {
        let (w, h) = (self.grid.width(), self.grid.height());
        if rule.impossible || w == 0 || h == 0 {
            return None;
        }
        for _ in 0..PROBES {
            let at = Square {
                x: uniform(rng, w),
                y: uniform(rng, h),
            };
            if self.fits(at, rule) {
                return Some(at);
            }
        }
        let fitting: Vec<Square> = self
            .grid
            .squares()
            .filter(|&at| self.fits(at, rule))
            .collect();
        pick(&fitting, rng)
    }

    /// The squares a group led from `leader` may use: open squares joined to it by open
    /// squares, all within `radius` of it, nearest first.
    pub(crate) fn near(&self, leader: Square, radius: u32) -> Vec<Square> {
        let open = |at: Square| {
            matches!(
                self.grid.tile(at),
                Tile::Floor | Tile::Water | Tile::Door | Tile::Stairs
            )
        };
        // Squares within the radius, by their place in the (2r + 1)-wide box round the leader.
        let side = 2 * radius as usize + 1;
        let slot = |at: Square| {
            let dx = (at.x + radius - leader.x) as usize;
            let dy = (at.y + radius - leader.y) as usize;
            dy * side + dx
        };
        let mut visited = vec![false; side * side];
        visited[slot(leader)] = true;
        let mut seen = vec![leader];
        let mut next = 0;
        while next < seen.len() {
            let at = seen[next];
            next += 1;
            for (dx, dy) in NEIGHBOURS {
                let (Some(x), Some(y)) = (at.x.checked_add_signed(dx), at.y.checked_add_signed(dy))
                else {
                    continue;
                };
                let n = Square { x, y };
                if distance(leader, n) <= radius && open(n) && !visited[slot(n)] {
                    visited[slot(n)] = true;
                    seen.push(n);
                }
            }
        }
        seen
    }

    /// A square of `region` under `rule`, uniform over those that fit.
    pub(crate) fn among(
        &self,
        region: &[Square],
        rule: Rule,
        rng: &mut Generator,
    ) -> Option<Square> {
        if rule.impossible {
            return None;
        }
        let fitting: Vec<Square> = region
            .iter()
            .copied()
            .filter(|&at| self.fits(at, rule))
            .collect();
        pick(&fitting, rng)
    }
}

const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

fn pick(squares: &[Square], rng: &mut Generator) -> Option<Square> {
    (!squares.is_empty()).then(|| squares[uniform(rng, squares.len() as u32) as usize])
}

/// Squares apart, a diagonal step counting one.
pub fn distance(a: Square, b: Square) -> u32 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}
