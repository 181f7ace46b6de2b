//! Which grids a player can reach. 2.7.9 never checks that a level is connected, and
//! early-stopping tunnels, truncated tunnels, vault crossings and sealed rooms leave
//! pockets; this module finds them, and (as an option, off by default) walls them up.
//!
//! Passable means a player can get through with ordinary commands: floor, traps,
//! stairs, every door (secret, locked and jammed ones included) and rubble. Movement is
//! 8-way, as Angband's.

use crate::cave::{Cave, HEIGHT, Pos, WIDTH, flag, terrain};

/// Whether a terrain code can be walked, opened, found or cleared through.
pub fn is_passable(code: u8) -> bool {
    matches!(
        code,
        terrain::FLOOR
            | terrain::TRAP
            | terrain::OPEN_DOOR
            | terrain::BROKEN_DOOR
            | terrain::UP_STAIRS
            | terrain::DOWN_STAIRS
    ) || (terrain::CLOSED_DOOR..=terrain::RUBBLE).contains(&code)
}

/// The passable grids of a level split into 8-connected regions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// Per grid of the map padded by one grid on every side, row by row: 0 for an
    /// impassable grid, else 1 + its region's index.
    label: Vec<u32>,
    /// Grids per region, in order of each region's first grid in row order.
    pub sizes: Vec<usize>,
}

/// Columns of the padded map.
const PADDED_WIDTH: usize = WIDTH as usize + 2;
/// Grids of the padded map.
const PADDED_LEN: usize = PADDED_WIDTH * (HEIGHT as usize + 2);

/// A grid's index in the padded map (the caller checks it is on the map).
fn padded(at: Pos) -> usize {
    (at.y as usize + 1) * PADDED_WIDTH + at.x as usize + 1
}

impl Regions {
    /// Labels the passable grids of `cave`.
    pub fn of(cave: &Cave) -> Self {
        // Unlabelled passable grids; the padding ring is never open, so a neighbour's
        // index never leaves the map.
        let mut open = vec![false; PADDED_LEN];
        let rows = cave.terrain_codes().chunks_exact(WIDTH as usize);
        for (row, codes) in open.chunks_exact_mut(PADDED_WIDTH).skip(1).zip(rows) {
            for (cell, &code) in row[1..].iter_mut().zip(codes) {
                *cell = is_passable(code);
            }
        }
        let w = PADDED_WIDTH;
        let steps = [w - 1, w, w + 1, 1];
        let mut label = vec![0u32; PADDED_LEN];
        let mut sizes = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for first in 0..PADDED_LEN {
            if !open[first] {
                continue;
            }
            let id = sizes.len() as u32 + 1;
            let mut size = 0;
            open[first] = false;
            stack.push(first);
            while let Some(g) = stack.pop() {
                label[g] = id;
                size += 1;
                for s in steps {
                    for n in [g - s, g + s] {
                        if open[n] {
                            open[n] = false;
                            stack.push(n);
                        }
                    }
                }
            }
            sizes.push(size);
        }
        Self { label, sizes }
    }

    /// The region of a grid (an index into `sizes`), if it is passable.
    pub fn region(&self, at: Pos) -> Option<usize> {
        if !Cave::on_map(at) {
            return None;
        }
        self.label[padded(at)].checked_sub(1).map(|r| r as usize)
    }

    /// The largest region (the first of equals).
    pub fn largest(&self) -> Option<usize> {
        let max = *self.sizes.iter().max()?;
        self.sizes.iter().position(|&s| s == max)
    }

    /// Passable grids outside the region of `from` (all of them if `from` is not
    /// passable).
    pub fn unreachable_from(&self, from: Pos) -> usize {
        let total: usize = self.sizes.iter().sum();
        total - self.region(from).map_or(0, |r| self.sizes[r])
    }
}

/// Turns every passable grid outside the largest region into granite without room or
/// light flags, dropping what lay there, except vault interiors: 2.7.9's vaults are
/// often sealed by design (a player digs in), so their grids stay. Returns the roster
/// indices of the monsters that stood on sealed grids.
pub(crate) fn seal_unreachable(cave: &mut Cave) -> Vec<usize> {
    let regions = Regions::of(cave);
    let Some(keep) = regions.largest() else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let at = Pos::new(y, x);
            if regions.region(at).is_some_and(|r| r != keep) && !cave.has(at, flag::ICKY) {
                cave.set_terrain(at, terrain::GRANITE);
                cave.remove_flags(at, flag::ROOM | flag::GLOW);
                cave.clear_object(at);
                removed.extend(cave.take_monster(at));
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_steps_connect_and_the_small_pocket_is_sealed() {
        let mut cave = Cave::new();
        // A 3-grid diagonal line, and a separate 2-grid pocket with a door.
        for (y, x) in [(5, 5), (6, 6), (7, 7)] {
            cave.set_terrain(Pos::new(y, x), terrain::FLOOR);
        }
        cave.set_terrain(Pos::new(20, 20), terrain::SECRET_DOOR);
        cave.set_terrain(Pos::new(20, 21), terrain::FLOOR);
        cave.add_flags(Pos::new(20, 21), flag::ROOM);
        cave.set_object(Pos::new(20, 21));
        cave.set_monster(Pos::new(20, 21), 4);
        cave.set_monster(Pos::new(6, 6), 2);
        let regions = Regions::of(&cave);
        assert_eq!(regions.sizes, [3, 2]);
        assert_eq!(regions.unreachable_from(Pos::new(6, 6)), 2);
        assert_eq!(regions.unreachable_from(Pos::new(1, 1)), 5);
        // The sealed pocket's monster is given back; the kept region's stays.
        assert_eq!(seal_unreachable(&mut cave), [4]);
        assert_eq!(cave.monster(Pos::new(20, 21)), None);
        assert_eq!(cave.monster(Pos::new(6, 6)), Some(2));
        assert_eq!(cave.terrain(Pos::new(20, 20)), terrain::GRANITE);
        assert!(!cave.has(Pos::new(20, 21), flag::ROOM));
        assert!(!cave.has_object(Pos::new(20, 21)));
        assert_eq!(Regions::of(&cave).sizes, [3]);
    }

    /// A ring of floor along the map's inner edge (rows 1 and 64, columns 1 and 196) is
    /// one region of 516 grids, an anti-diagonal line of 3 is another (steps up and to
    /// the right connect as well as steps down and to the right), and a U of 7 a third
    /// (steps go up as well as down).
    #[test]
    fn the_inner_edge_is_one_ring_and_anti_diagonals_connect() {
        let mut cave = Cave::new();
        for x in 1..WIDTH - 1 {
            cave.set_terrain(Pos::new(1, x), terrain::FLOOR);
            cave.set_terrain(Pos::new(HEIGHT - 2, x), terrain::FLOOR);
        }
        for y in 1..HEIGHT - 1 {
            cave.set_terrain(Pos::new(y, 1), terrain::FLOOR);
            cave.set_terrain(Pos::new(y, WIDTH - 2), terrain::FLOOR);
        }
        for (y, x) in [(10, 12), (11, 11), (12, 10)] {
            cave.set_terrain(Pos::new(y, x), terrain::FLOOR);
        }
        // A U open at the top: its right arm is reached from the bottom, upwards.
        for (y, x) in [
            (20, 30),
            (21, 30),
            (22, 30),
            (22, 31),
            (22, 32),
            (21, 32),
            (20, 32),
        ] {
            cave.set_terrain(Pos::new(y, x), terrain::FLOOR);
        }
        let regions = Regions::of(&cave);
        assert_eq!(regions.sizes, [516, 3, 7]);
        assert_eq!(regions.region(Pos::new(HEIGHT - 2, WIDTH - 2)), Some(0));
        assert_eq!(regions.region(Pos::new(12, 10)), Some(1));
        assert_eq!(regions.region(Pos::new(HEIGHT - 1, WIDTH - 1)), None);
        assert_eq!(regions.largest(), Some(0));
    }

    /// The largest region is the one with the most grids, wherever it starts; the lone
    /// grid before it is sealed, and of two equal regions the first is kept.
    #[test]
    fn the_largest_region_is_kept_wherever_it_starts() {
        let mut cave = Cave::new();
        cave.set_terrain(Pos::new(1, 1), terrain::FLOOR);
        for x in 10..14 {
            cave.set_terrain(Pos::new(5, x), terrain::FLOOR);
            cave.set_terrain(Pos::new(9, x), terrain::FLOOR);
        }
        let regions = Regions::of(&cave);
        assert_eq!(regions.sizes, [1, 4, 4]);
        assert_eq!(regions.largest(), Some(1));
        seal_unreachable(&mut cave);
        assert_eq!(Regions::of(&cave).sizes, [4]);
        assert_eq!(cave.terrain(Pos::new(5, 10)), terrain::FLOOR);
        assert_eq!(cave.terrain(Pos::new(1, 1)), terrain::GRANITE);
        assert_eq!(cave.terrain(Pos::new(9, 10)), terrain::GRANITE);
    }
}
