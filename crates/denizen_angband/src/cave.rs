//! The cave an Angband level is built in: 66 x 198 grids, each with the original's terrain
//! code, its room, vault and light flags, and whether a monster or object stands there.
//!
//! Terrain codes are 2.7.9's own numbers (the layout notes' table 3.1), because the
//! generator's rules compare them by range: "at least granite", "blocks sight" and so on.

use denizen_core::{FloorGrid, Room, Square, Tile};

/// Rows of every dungeon level.
pub const HEIGHT: i32 = 66;
/// Columns of every dungeon level.
pub const WIDTH: i32 = 198;

/// 2.7.9's terrain codes (layout notes 3.1).
pub mod terrain {
    /// Floor.
    pub const FLOOR: u8 = 0x01;
    /// A hidden trap whose type is chosen when it is found.
    pub const TRAP: u8 = 0x02;
    /// An open door.
    pub const OPEN_DOOR: u8 = 0x04;
    /// A broken door.
    pub const BROKEN_DOOR: u8 = 0x05;
    /// An up staircase.
    pub const UP_STAIRS: u8 = 0x06;
    /// A down staircase.
    pub const DOWN_STAIRS: u8 = 0x07;
    /// A closed door; `CLOSED_DOOR + 1..=7` are locked doors of that strength.
    pub const CLOSED_DOOR: u8 = 0x20;
    /// A jammed door of strength 0; `JAMMED_DOOR + 1..=7` are stronger.
    pub const JAMMED_DOOR: u8 = 0x28;
    /// A secret door.
    pub const SECRET_DOOR: u8 = 0x30;
    /// Rubble.
    pub const RUBBLE: u8 = 0x31;
    /// A magma vein.
    pub const MAGMA: u8 = 0x32;
    /// A quartz vein.
    pub const QUARTZ: u8 = 0x33;
    /// Added to a vein's code when it shows treasure.
    pub const VISIBLE_TREASURE: u8 = 0x04;
    /// Basic granite: the initial fill.
    pub const GRANITE: u8 = 0x38;
    /// Inner granite: pillars, inner rooms, vault `#`.
    pub const INNER_GRANITE: u8 = 0x39;
    /// Outer granite: the wall ring of rooms, vault `%`; tunnels pierce it.
    pub const OUTER_GRANITE: u8 = 0x3A;
    /// Solid granite: outer walls next to a pierced doorway.
    pub const SOLID_GRANITE: u8 = 0x3B;
    /// Inner permanent wall: vault `X`.
    pub const INNER_PERMANENT: u8 = 0x3D;
    /// Outer permanent wall (never made in 2.7.9; the tunnel code still tests for it).
    pub const OUTER_PERMANENT: u8 = 0x3E;
    /// Solid permanent wall: the map's edge.
    pub const SOLID_PERMANENT: u8 = 0x3F;
}

/// Grid flags (2.7.9's `CAVE_*` bits).
pub mod flag {
    /// Lit.
    pub const GLOW: u8 = 0x02;
    /// Vault interior: no teleport, never the player's start.
    pub const ICKY: u8 = 0x04;
    /// Part of a room (walls included).
    pub const ROOM: u8 = 0x08;
}

/// The eight directions in 2.7.9's order (S, N, E, W, SE, SW, NE, NW) as (row, column)
/// steps: streamers pick one by index, and a group floods in this order.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// A grid position, row first as in the original.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Row, 0 at the top.
    pub y: i32,
    /// Column, 0 at the left.
    pub x: i32,
}

impl Pos {
    /// The grid at row `y`, column `x`.
    pub const fn new(y: i32, x: i32) -> Self {
        Self { y, x }
    }

    /// The neutral floor's square.
    pub fn square(self) -> Square {
        Square {
            x: self.x as u32,
            y: self.y as u32,
        }
    }

    /// 2.7.9's `distance`: the longer offset plus half the shorter.
    pub fn distance(self, other: Pos) -> i32 {
        let dy = (self.y - other.y).abs();
        let dx = (self.x - other.x).abs();
        dy.max(dx) + dy.min(dx) / 2
    }
}

/// A level's grids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cave {
    terrain: Vec<u8>,
    flags: Vec<u8>,
    /// 0 when empty, else 1 + the index of the monster standing there.
    monster: Vec<u16>,
    object: Vec<bool>,
    player: Option<Pos>,
}

impl Default for Cave {
    fn default() -> Self {
        Self::new()
    }
}

impl Cave {
    /// A cave of basic granite with no flags, monsters or objects.
    pub fn new() -> Self {
        let n = (HEIGHT * WIDTH) as usize;
        Self {
            terrain: vec![terrain::GRANITE; n],
            flags: vec![0; n],
            monster: vec![0; n],
            object: vec![false; n],
            player: None,
        }
    }

    #[inline]
    fn index(at: Pos) -> usize {
        debug_assert!(Self::on_map(at), "{at:?} is off the map");
        (at.y * WIDTH + at.x) as usize
    }

    /// `in_bounds`: strictly inside the permanent edge.
    #[inline]
    pub fn inside(at: Pos) -> bool {
        at.y > 0 && at.x > 0 && at.y < HEIGHT - 1 && at.x < WIDTH - 1
    }

    /// `in_bounds2`: on the map, edge included.
    #[inline]
    pub fn on_map(at: Pos) -> bool {
        at.y >= 0 && at.x >= 0 && at.y < HEIGHT && at.x < WIDTH
    }

    /// The terrain code at a grid.
    #[inline]
    pub fn terrain(&self, at: Pos) -> u8 {
        self.terrain[Self::index(at)]
    }

    /// Sets the terrain code of a grid, keeping its flags.
    #[inline]
    pub fn set_terrain(&mut self, at: Pos, code: u8) {
        self.terrain[Self::index(at)] = code;
    }

    /// The flags of a grid.
    #[inline]
    pub fn flags(&self, at: Pos) -> u8 {
        self.flags[Self::index(at)]
    }

    /// Adds flags to a grid.
    #[inline]
    pub fn add_flags(&mut self, at: Pos, bits: u8) {
        self.flags[Self::index(at)] |= bits;
    }

    /// Whether a grid carries a flag.
    #[inline]
    pub fn has(&self, at: Pos, bit: u8) -> bool {
        self.flags(at) & bit != 0
    }

    /// The monster standing on a grid (its index in the level's roster).
    #[inline]
    pub fn monster(&self, at: Pos) -> Option<usize> {
        self.monster[Self::index(at)]
            .checked_sub(1)
            .map(usize::from)
    }

    /// Puts monster `index` of the roster on a grid.
    #[inline]
    pub fn set_monster(&mut self, at: Pos, index: usize) {
        self.monster[Self::index(at)] = u16::try_from(index + 1).unwrap_or(u16::MAX);
    }

    /// Whether an object lies on a grid.
    #[inline]
    pub fn has_object(&self, at: Pos) -> bool {
        self.object[Self::index(at)]
    }

    /// Marks a grid as holding an object.
    #[inline]
    pub fn set_object(&mut self, at: Pos) {
        self.object[Self::index(at)] = true;
    }

    /// Removes a grid's object mark (destruction and sealing drop what lay there).
    #[inline]
    pub fn clear_object(&mut self, at: Pos) {
        self.object[Self::index(at)] = false;
    }

    /// Empties a grid of its monster, giving back the roster index that stood there.
    #[inline]
    pub fn take_monster(&mut self, at: Pos) -> Option<usize> {
        let index = self.monster(at);
        self.monster[Self::index(at)] = 0;
        index
    }

    /// Removes flags from a grid.
    #[inline]
    pub fn remove_flags(&mut self, at: Pos, bits: u8) {
        self.flags[Self::index(at)] &= !bits;
    }

    /// Every terrain code, row by row: for digests and whole-map comparisons.
    pub fn terrain_codes(&self) -> &[u8] {
        &self.terrain
    }

    /// The player's grid, once placed.
    pub fn player(&self) -> Option<Pos> {
        self.player
    }

    /// Places the player.
    pub fn set_player(&mut self, at: Pos) {
        self.player = Some(at);
    }

    /// `cave_floor_bold`: the terrain does not block movement or sight (floor, traps, open
    /// and broken doors, stairs).
    #[inline]
    pub fn is_floor(&self, at: Pos) -> bool {
        self.terrain(at) & 0x20 == 0
    }

    /// `cave_empty_bold`: floor with no monster and not the player.
    #[inline]
    pub fn is_empty(&self, at: Pos) -> bool {
        self.is_floor(at) && self.monster(at).is_none() && self.player != Some(at)
    }

    /// `cave_naked_bold`: plain floor (code 0x01) with no object, monster or player.
    #[inline]
    pub fn is_naked(&self, at: Pos) -> bool {
        self.terrain(at) == terrain::FLOOR
            && !self.has_object(at)
            && self.monster(at).is_none()
            && self.player != Some(at)
    }

    /// The squares holding terrain `code`, row by row.
    pub fn squares_of(&self, code: u8) -> Vec<Square> {
        self.grids_of(code).map(Pos::square).collect()
    }

    /// The grids holding terrain `code`, row by row. The codes are read a row's worth
    /// at a time and only a row holding `code` is searched grid by grid: most rows hold
    /// no trap or staircase.
    pub fn grids_of(&self, code: u8) -> impl Iterator<Item = Pos> + '_ {
        self.terrain
            .chunks_exact(WIDTH as usize)
            .enumerate()
            .filter(move |(_, row)| row.contains(&code))
            .flat_map(move |(y, row)| {
                row.iter()
                    .enumerate()
                    .filter(move |&(_, &c)| c == code)
                    .map(move |(x, _)| Pos::new(y as i32, x as i32))
            })
    }

    /// Sets the terrain of a rectangle, corners inclusive (flags kept): row by row, one
    /// slice per row.
    pub fn fill_terrain(&mut self, top_left: Pos, bottom_right: Pos, code: u8) {
        for y in top_left.y..=bottom_right.y {
            let row = Self::row_span(y, top_left.x, bottom_right.x);
            self.terrain[row].fill(code);
        }
    }

    /// Adds flags to every grid of a rectangle, corners inclusive.
    pub fn add_flags_in(&mut self, top_left: Pos, bottom_right: Pos, bits: u8) {
        for y in top_left.y..=bottom_right.y {
            let row = Self::row_span(y, top_left.x, bottom_right.x);
            self.flags[row].iter_mut().for_each(|f| *f |= bits);
        }
    }

    /// The array indices of row `y` from column `left` to `right`, inclusive (empty when
    /// `right < left`).
    #[inline]
    fn row_span(y: i32, left: i32, right: i32) -> std::ops::Range<usize> {
        if right < left {
            return 0..0;
        }
        debug_assert!(
            Self::on_map(Pos::new(y, right)),
            "column {right} is off the map"
        );
        let start = Self::index(Pos::new(y, left));
        start..start + (right - left + 1) as usize
    }

    /// The neutral floor: walls, veins and rubble are `Wall`; floor and traps `Floor`;
    /// open, broken, closed, locked and jammed doors `Door`; secret doors `Secret`; both
    /// staircases `Stairs`. Monsters' squares are marked occupied, and the rooms recorded.
    pub fn to_floor(&self, rooms: impl IntoIterator<Item = Room>) -> FloorGrid {
        let mut grid = FloorGrid::new(WIDTH as u32, HEIGHT as u32)
            .expect("a 66 x 198 floor is within the limit");
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let at = Pos::new(y, x);
                grid.set(at.square(), tile_of(self.terrain(at)));
                if self.monster(at).is_some() {
                    grid.set_occupied(at.square(), true);
                }
            }
        }
        for room in rooms {
            grid.add_room(room);
        }
        grid
    }
}

/// The neutral tile of a terrain code (see [`Cave::to_floor`]).
pub fn tile_of(code: u8) -> Tile {
    match code {
        terrain::FLOOR | terrain::TRAP => Tile::Floor,
        terrain::OPEN_DOOR | terrain::BROKEN_DOOR => Tile::Door,
        terrain::UP_STAIRS | terrain::DOWN_STAIRS => Tile::Stairs,
        0x20..=0x2F => Tile::Door,
        terrain::SECRET_DOOR => Tile::Secret,
        _ => Tile::Wall,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::Rect;

    /// 2.7.9's `distance`: the longer offset plus half the shorter, rounded down.
    #[test]
    fn distance_is_the_longer_offset_plus_half_the_shorter() {
        assert_eq!(Pos::new(3, 4).distance(Pos::new(0, 0)), 5);
        assert_eq!(Pos::new(0, 0).distance(Pos::new(7, 7)), 10);
        assert_eq!(Pos::new(2, 10).distance(Pos::new(2, 4)), 6);
        assert_eq!(Pos::new(5, 5).distance(Pos::new(5, 5)), 0);
    }

    /// Each terrain code's neutral tile, as `to_floor` documents it.
    #[test]
    fn each_terrain_has_its_neutral_tile() {
        use terrain::*;
        for (code, tile) in [
            (FLOOR, Tile::Floor),
            (TRAP, Tile::Floor),
            (OPEN_DOOR, Tile::Door),
            (BROKEN_DOOR, Tile::Door),
            (UP_STAIRS, Tile::Stairs),
            (DOWN_STAIRS, Tile::Stairs),
            (CLOSED_DOOR, Tile::Door),
            (CLOSED_DOOR + 7, Tile::Door),
            (JAMMED_DOOR, Tile::Door),
            (JAMMED_DOOR + 7, Tile::Door),
            (SECRET_DOOR, Tile::Secret),
            (RUBBLE, Tile::Wall),
            (MAGMA, Tile::Wall),
            (QUARTZ + VISIBLE_TREASURE, Tile::Wall),
            (GRANITE, Tile::Wall),
            (SOLID_PERMANENT, Tile::Wall),
        ] {
            assert_eq!(tile_of(code), tile, "terrain {code:#04x}");
        }
    }

    /// The neutral floor holds every grid's tile, the monsters' squares and the rooms;
    /// a terrain's squares are listed row by row.
    #[test]
    fn a_cave_becomes_its_neutral_floor() {
        let mut cave = Cave::new();
        let rect = Rect {
            x: 20,
            y: 10,
            width: 3,
            height: 3,
        };
        let room = Room::new("simple", rect);
        cave.fill_terrain(Pos::new(11, 21), Pos::new(11, 22), terrain::FLOOR);
        cave.set_terrain(Pos::new(12, 5), terrain::TRAP);
        cave.set_terrain(Pos::new(3, 40), terrain::TRAP);
        cave.set_monster(Pos::new(11, 22), 0);
        let floor = cave.to_floor([room.clone()]);
        assert_eq!(
            (floor.width(), floor.height()),
            (WIDTH as u32, HEIGHT as u32)
        );
        assert_eq!(floor.tile(Pos::new(11, 21).square()), Tile::Floor);
        assert_eq!(floor.tile(Pos::new(12, 5).square()), Tile::Floor);
        assert_eq!(floor.tile(Pos::new(0, 0).square()), Tile::Wall);
        assert!(floor.is_occupied(Pos::new(11, 22).square()));
        assert!(!floor.is_occupied(Pos::new(11, 21).square()));
        assert_eq!(floor.rooms(), [room]);
        assert_eq!(
            cave.squares_of(terrain::TRAP),
            [Pos::new(3, 40).square(), Pos::new(12, 5).square()]
        );
    }
}
