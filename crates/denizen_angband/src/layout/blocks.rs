//! The block map: the level is cut into 11 x 11 blocks, each room reserves a rectangle of
//! them, and a new room may only take blocks no earlier room reserved. This is what
//! keeps rooms apart; tunnels, streamers and everything later ignore it.

use denizen_core::Generator;

use super::choice::RoomChoice;
use crate::cave::Pos;
use crate::rng::rand0;

/// Grids per block side.
pub const BLOCK_SIZE: i32 = 11;
/// Block rows of a level (66 / 11).
pub const BLOCK_ROWS: i32 = 6;
/// Block columns of a level (198 / 11).
pub const BLOCK_COLUMNS: i32 = 18;

/// The blocks a room kind reserves, as offsets from the block the attempt drew (layout
/// notes 1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    /// First block row, relative.
    pub top: i32,
    /// Last block row, relative.
    pub bottom: i32,
    /// First block column, relative.
    pub left: i32,
    /// Last block column, relative.
    pub right: i32,
}

impl Footprint {
    /// The footprint of a room kind: 1 x 3 blocks for types 1-6, 2 x 3 for a lesser
    /// vault, 4 x 6 for a greater one.
    pub const fn of(kind: RoomChoice) -> Self {
        match kind {
            RoomChoice::GreaterVault => Self {
                top: -1,
                bottom: 2,
                left: -2,
                right: 3,
            },
            RoomChoice::LesserVault => Self {
                top: 0,
                bottom: 1,
                left: -1,
                right: 1,
            },
            _ => Self {
                top: 0,
                bottom: 0,
                left: -1,
                right: 1,
            },
        }
    }

    /// The grids a room of this footprint may use, in grid rows and columns (at most
    /// 22 x 33 for a lesser vault, 44 x 66 for a greater one).
    pub const fn grid_size(self) -> (i32, i32) {
        (
            (self.bottom - self.top + 1) * BLOCK_SIZE,
            (self.right - self.left + 1) * BLOCK_SIZE,
        )
    }
}

/// A rectangle of blocks, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockRect {
    /// First block row.
    pub top: i32,
    /// Last block row.
    pub bottom: i32,
    /// First block column.
    pub left: i32,
    /// Last block column.
    pub right: i32,
}

impl BlockRect {
    /// The room centre: the middle of the reserved grids, rounded down (notes 1.8).
    pub fn centre(self) -> Pos {
        Pos::new(
            BLOCK_SIZE * (self.top + self.bottom + 1) / 2,
            BLOCK_SIZE * (self.left + self.right + 1) / 2,
        )
    }
}

/// Which blocks earlier rooms reserved.
#[derive(Clone, Debug, Default)]
pub(crate) struct BlockMap {
    used: [[bool; BLOCK_COLUMNS as usize]; BLOCK_ROWS as usize],
}

impl BlockMap {
    /// The blocks a room of `kind` would reserve from block (`by`, `bx`), if they are all
    /// on the grid and free.
    pub(crate) fn fits(&self, by: i32, bx: i32, kind: RoomChoice) -> Option<BlockRect> {
        let f = Footprint::of(kind);
        let rect = BlockRect {
            top: by + f.top,
            bottom: by + f.bottom,
            left: bx + f.left,
            right: bx + f.right,
        };
        if rect.top < 0 || rect.left < 0 || rect.bottom >= BLOCK_ROWS || rect.right >= BLOCK_COLUMNS
        {
            return None;
        }
        let free = (rect.top..=rect.bottom)
            .all(|y| (rect.left..=rect.right).all(|x| !self.used[y as usize][x as usize]));
        free.then_some(rect)
    }

    /// Marks a built room's blocks as used.
    pub(crate) fn reserve(&mut self, rect: BlockRect) {
        for y in rect.top..=rect.bottom {
            for x in rect.left..=rect.right {
                self.used[y as usize][x as usize] = true;
            }
        }
    }
}

/// The block an attempt tries: the row first, then the column, snapped to 1, 4, ..., 16
/// (the `dungeon_align` option, on by default: notes 1.9).
pub(crate) fn draw_block(rng: &mut Generator) -> (i32, i32) {
    let by = rand0(rng, BLOCK_ROWS);
    let mut bx = rand0(rng, BLOCK_COLUMNS);
    if bx % 3 == 0 {
        bx += 1;
    }
    if bx % 3 == 2 {
        bx -= 1;
    }
    (by, bx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{StreamPurpose, WorldSeed};

    #[test]
    fn centres_follow_the_notes_table() {
        let map = BlockMap::default();
        let simple = map.fits(2, 4, RoomChoice::Simple).unwrap();
        assert_eq!(simple.centre(), Pos::new(27, 49));
        let lesser = map.fits(4, 16, RoomChoice::LesserVault).unwrap();
        assert_eq!(lesser.centre(), Pos::new(55, 181));
        let greater = map.fits(3, 13, RoomChoice::GreaterVault).unwrap();
        assert_eq!(greater.centre(), Pos::new(44, 154));
        assert!(map.fits(5, 4, RoomChoice::LesserVault).is_none());
        assert!(map.fits(0, 4, RoomChoice::GreaterVault).is_none());
        assert!(map.fits(1, 16, RoomChoice::GreaterVault).is_none());
        assert_eq!(
            Footprint::of(RoomChoice::GreaterVault).grid_size(),
            (44, 66)
        );
        assert_eq!(Footprint::of(RoomChoice::LesserVault).grid_size(), (22, 33));
    }

    #[test]
    fn reserved_blocks_refuse_overlaps() {
        let mut map = BlockMap::default();
        let rect = map.fits(1, 7, RoomChoice::Simple).unwrap();
        map.reserve(rect);
        assert!(map.fits(1, 7, RoomChoice::Pit).is_none());
        assert!(map.fits(0, 7, RoomChoice::LesserVault).is_none());
        assert!(map.fits(1, 4, RoomChoice::Simple).is_some());
        assert!(map.fits(2, 7, RoomChoice::Simple).is_some());
    }

    #[test]
    fn alignment_gives_columns_one_mod_three() {
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("blocks"));
        let mut seen = [0u32; 18];
        for _ in 0..6000 {
            let (by, bx) = draw_block(&mut rng);
            assert!((0..6).contains(&by));
            seen[bx as usize] += 1;
        }
        for (bx, &n) in seen.iter().enumerate() {
            assert_eq!(n > 0, bx % 3 == 1, "column {bx}");
        }
    }
}
