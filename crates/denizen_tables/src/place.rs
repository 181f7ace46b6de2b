//! Squares for a floor's creatures: each creature's placement rules resolved against the
//! floor's tag layer, a leader anywhere they allow, a follower on the nearest free square
//! joined to the leader by open squares within its group's radius.

use denizen_core::{FloorGrid, Generator, Square, SquareSet, SquareTags, TagMask, Tile};

use crate::bestiary::Place;
use denizen_core::fair::below;

/// How many tagged squares are tried at random before the squares meeting a rule are
/// listed.
const PROBES: u32 = 16;

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

impl Rule {
    /// No rule yet: every tag stands, none is needed or forbidden.
    const OPEN: Rule = Rule {
        stands_on: TagMask::MAX,
        needs: 0,
        forbids: 0,
        min_distance: 0,
        impossible: false,
    };
}

/// The squares of one floor as its plan fills them, and the buffers its searches reuse.
pub(crate) struct Squares<'f> {
    grid: &'f FloorGrid,
    tags: &'f SquareTags,
    taken: Vec<bool>,
    point: Option<Square>,
    /// Per rule met so far: the squares that met it when first asked (taken ones are
    /// dropped as they are met).
    lists: Vec<(Rule, Vec<Square>)>,
    /// The search round a leader: the squares found, breadth first, whether each was
    /// found, and the leader, radius, next square to grow from and first square that may
    /// still be free.
    region: Vec<Square>,
    visited: Vec<bool>,
    around: (Square, u32, usize, usize),
    /// The squares placements may use now, when not every square: per square, whether it
    /// may be used, and (when they are one region's) those squares.
    bounds: Option<(Vec<bool>, Option<Vec<Square>>)>,
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
            lists: Vec::new(),
            region: Vec::new(),
            visited: Vec::new(),
            around: (Square::default(), 0, 0, 1),
            bounds: None,
        }
    }

    /// Placements from now on stand off `closed`'s squares (regions the floor's own
    /// placements may not enter).
    pub(crate) fn close(&mut self, closed: &[&SquareSet]) {
        let mut usable = vec![true; self.taken.len()];
        for set in closed {
            for at in set.clipped(self.grid.width(), self.grid.height()).iter() {
                usable[self.index(at)] = false;
            }
        }
        self.bounds = Some((usable, None));
        self.lists.clear();
    }

    /// Placements from now on stand on `region`'s squares only. The floor-wide buffer is
    /// cleared once a plan; after that only the last region's squares are, so a region
    /// costs its own squares, not the floor's.
    pub(crate) fn only(&mut self, region: &SquareSet) {
        let inside: Vec<Square> = (region.clipped(self.grid.width(), self.grid.height()))
            .iter()
            .collect();
        let mut usable = match self.bounds.take() {
            Some((mut usable, Some(last))) => {
                for at in last {
                    let i = self.index(at);
                    usable[i] = false;
                }
                usable
            }
            Some((mut usable, None)) => {
                usable.fill(false);
                usable
            }
            None => vec![false; self.taken.len()],
        };
        for &at in &inside {
            usable[self.index(at)] = true;
        }
        self.bounds = Some((usable, Some(inside)));
        self.lists.clear();
    }

    /// The rules of `places` together: every `stands_on` list must be met (one tag of
    /// each), every `needs` and `forbids` tag, and the largest least distance.
    pub(crate) fn rule<'p>(&self, places: impl IntoIterator<Item = &'p Place>) -> Rule {
        places
            .into_iter()
            .fold(Rule::OPEN, |rule, place| self.and(rule, place))
    }

    /// `rule` with `place`'s rules added.
    pub(crate) fn and(&self, mut rule: Rule, place: &Place) -> Rule {
        if !place.stands_on.is_empty() {
            let (mask, _) = self.tags.mask(place.stands_on.iter().map(String::as_str));
            rule.stands_on &= mask;
            rule.impossible |= mask == 0;
        }
        if !place.needs.is_empty() {
            let (needs, known) = self.tags.mask(place.needs.iter().map(String::as_str));
            rule.needs |= needs;
            rule.impossible |= !known;
        }
        if !place.forbids.is_empty() {
            rule.forbids |= self.tags.mask(place.forbids.iter().map(String::as_str)).0;
        }
        rule.min_distance = rule.min_distance.max(place.min_distance);
        rule
    }

    fn index(&self, at: Square) -> usize {
        at.y as usize * self.grid.width() as usize + at.x as usize
    }

    /// Whether the square's tags and distance meet `rule` (whoever stands there).
    fn allows(&self, at: Square, rule: Rule) -> bool {
        let tags = self.tags.mask_at(at);
        tags & rule.stands_on != 0
            && tags & rule.needs == rule.needs
            && tags & rule.forbids == 0
            && self
                .point
                .is_none_or(|p| distance(p, at) >= rule.min_distance)
            && (self.bounds.as_ref()).is_none_or(|(usable, _)| usable[self.index(at)])
    }

    /// Whether no creature stands on the square, of the grid's or of this plan's.
    fn free(&self, at: Square) -> bool {
        !self.taken[self.index(at)] && !self.grid.is_occupied(at)
    }

    /// Takes a square for a creature.
    pub(crate) fn take(&mut self, at: Square) {
        let i = self.index(at);
        self.taken[i] = true;
    }

    /// A square anywhere on the floor under `rule`, uniform over the free squares that
    /// meet it. First a few of the squares it can be on ([`Self::candidates`]) are tried
    /// at random (the first that fits is as uniform as any other way's choice); then
    /// those meeting the rule are listed once per plan, and a pick that finds its square
    /// taken drops it and picks again.
    pub(crate) fn anywhere(&mut self, rule: Rule, rng: &mut Generator) -> Option<Square> {
        if rule.impossible {
            return None;
        }
        let candidates = self.candidates(rule);
        if candidates.is_empty() {
            return None;
        }
        for _ in 0..PROBES {
            let at = candidates[below(rng, candidates.len() as u32).0 as usize];
            if self.allows(at, rule) && self.free(at) {
                return Some(at);
            }
        }
        let slot = match self.lists.iter().position(|(r, _)| *r == rule) {
            Some(slot) => slot,
            None => {
                let list = self
                    .candidates(rule)
                    .iter()
                    .copied()
                    .filter(|&at| self.allows(at, rule))
                    .collect();
                self.lists.push((rule, list));
                self.lists.len() - 1
            }
        };
        loop {
            let len = self.lists[slot].1.len();
            if len == 0 {
                return None;
            }
            let i = below(rng, len as u32).0 as usize;
            let at = self.lists[slot].1[i];
            if self.free(at) {
                return Some(at);
            }
            self.lists[slot].1.swap_remove(i);
        }
    }

    /// The squares a creature under `rule` can only be on: those of the rarest tag it
    /// needs or of the one tag it stands on, or the region's placements stand in, else
    /// every tagged square.
    fn candidates(&self, rule: Rule) -> &[Square] {
        let tags = self.tags;
        let mut bits = rule.needs;
        if rule.stands_on.count_ones() == 1 {
            bits |= rule.stands_on;
        }
        let mut best = match &self.bounds {
            Some((_, Some(inside))) if inside.len() < tags.tagged().len() => inside,
            _ => tags.tagged(),
        };
        while bits != 0 {
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            let list = tags.squares_of(bit);
            if list.len() < best.len() {
                best = list;
            }
        }
        best
    }

    /// Starts the search round a leader: its followers stand on open squares joined to it
    /// by open squares, within `radius` of it.
    pub(crate) fn near(&mut self, leader: Square, radius: u32) {
        let side = 2 * radius as usize + 1;
        self.visited.clear();
        self.visited.resize(side * side, false);
        self.region.clear();
        self.region.push(leader);
        self.around = (leader, radius, 0, 1);
        // The leader is the middle of the (2r + 1)-wide box round it.
        self.visited[radius as usize * side + radius as usize] = true;
    }

    /// Adds the open neighbours of the next square of the search to it, breadth first;
    /// false when the search has no square left to grow from.
    fn grow(&mut self) -> bool {
        let (leader, radius, next, _) = self.around;
        let Some(&at) = self.region.get(next) else {
            return false;
        };
        self.around.2 += 1;
        let side = 2 * i64::from(radius) + 1;
        // The square's place in the box round the leader, then each neighbour's.
        let (bx, by) = (
            i64::from(at.x) - i64::from(leader.x) + i64::from(radius),
            i64::from(at.y) - i64::from(leader.y) + i64::from(radius),
        );
        for (dx, dy) in NEIGHBOURS {
            let (nx, ny) = (bx + i64::from(dx), by + i64::from(dy));
            if !(0..side).contains(&nx) || !(0..side).contains(&ny) {
                continue;
            }
            let slot = (ny * side + nx) as usize;
            if self.visited[slot] {
                continue;
            }
            let (Some(x), Some(y)) = (at.x.checked_add_signed(dx), at.y.checked_add_signed(dy))
            else {
                continue;
            };
            let n = Square { x, y };
            let open = matches!(
                self.grid.tile(n),
                Tile::Floor | Tile::Water | Tile::Door | Tile::Stairs
            );
            if open {
                self.visited[slot] = true;
                self.region.push(n);
            }
        }
        true
    }

    /// The nearest free square round the search's leader under `rule` (breadth first,
    /// growing the search only as far as it must).
    pub(crate) fn nearest(&mut self, rule: Rule) -> Option<Square> {
        if rule.impossible {
            return None;
        }
        // Squares before the first free one are taken for every follower: start there.
        let mut i = self.around.3;
        loop {
            while i >= self.region.len() {
                if !self.grow() {
                    return None;
                }
            }
            let at = self.region[i];
            let free = self.free(at);
            if !free && i == self.around.3 {
                self.around.3 += 1;
            }
            if free && self.allows(at, rule) {
                return Some(at);
            }
            i += 1;
        }
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

/// Squares apart, a diagonal step counting one.
pub fn distance(a: Square, b: Square) -> u32 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}
