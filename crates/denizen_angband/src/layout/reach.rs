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
}
