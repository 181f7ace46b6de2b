//! The floor grid every rule set places creatures on: tiles, occupied squares, rooms, and
//! an optional dig order.

#[cfg(feature = "bevy_reflect")]
use bevy_reflect::{ReflectDeserialize, ReflectSerialize, std_traits::ReflectDefault};
use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

/// The most squares a floor may have: 2^26 (8192 x 8192), far beyond any roguelike
/// level, and small enough that a floor's lists always fit in memory.
pub const MAX_SQUARES: u64 = 1 << 26;

/// Why a floor could not be made or read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FloorError {
    /// The floor would have more than [`MAX_SQUARES`] squares.
    #[error("a {width} x {height} floor has more than {MAX_SQUARES} squares")]
    TooLarge {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// A row of [`FloorGrid::from_rows`] is longer or shorter than the first.
    #[error("row {row} has {len} squares; the floor is {width} wide")]
    RaggedRow {
        /// The row (0 at the top).
        row: usize,
        /// Its length.
        len: usize,
        /// The first row's length.
        width: u32,
    },
    /// A glyph of [`FloorGrid::from_rows`] names no tile.
    #[error(
        "row {row}, column {column}: `{glyph}` is not a tile glyph (# . ~ ' : >, or a \
         feature's: {})",
        Tile::FEATURE_GLYPHS
    )]
    UnknownGlyph {
        /// The row (0 at the top).
        row: usize,
        /// The column (0 at the left).
        column: usize,
        /// The glyph.
        glyph: char,
    },
    /// A saved floor's lists do not have one entry per square, or a room lies outside it.
    #[error("saved floor: {0}")]
    Saved(String),
}

/// What a square is made of: the tiles every rule set knows, and the features a rule set
/// adds to its floors (Omega's statues, Captive's fire and ladders), each a glyph of its
/// own that the rule set names as a constant of its crate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Tile {
    /// Solid rock.
    #[default]
    Wall,
    /// Open floor: the only tile monsters are placed on.
    Floor,
    /// Water (water-only creatures' squares become water).
    Water,
    /// A door.
    Door,
    /// A secret passage: looks like wall, never chosen for placement.
    Secret,
    /// Stairs.
    Stairs,
    /// A rule set's own feature, known by its glyph (one of [`Tile::FEATURE_GLYPHS`]):
    /// never chosen for placement; the rule set that added it reads it.
    Feature(char),
}

impl Tile {
    /// The tiles every rule set knows, in the order a legend lists them.
    pub const ALL: [Tile; 6] = [
        Tile::Wall,
        Tile::Floor,
        Tile::Water,
        Tile::Door,
        Tile::Secret,
        Tile::Stairs,
    ];

    /// The glyphs a rule set's [`Tile::Feature`] may have: punctuation no neutral tile and
    /// no shipped creature uses, so a creature drawn over a map is never taken for a tile.
    pub const FEATURE_GLYPHS: &'static str = "^<*;`_-";

    /// The character a text map shows for the tile, and [`FloorGrid::from_rows`] reads.
    /// None is a letter or a digit, so a creature drawn over the floor is never mistaken
    /// for a tile.
    pub fn glyph(self) -> char {
        match self {
            Tile::Wall => '#',
            Tile::Floor => '.',
            Tile::Water => '~',
            Tile::Door => '\'',
            Tile::Secret => ':',
            Tile::Stairs => '>',
            Tile::Feature(glyph) => glyph,
        }
    }

    /// The tile a glyph stands for: a neutral tile, or a rule set's feature.
    pub fn from_glyph(glyph: char) -> Option<Tile> {
        Tile::ALL
            .into_iter()
            .find(|t| t.glyph() == glyph)
            .or_else(|| {
                Tile::FEATURE_GLYPHS
                    .contains(glyph)
                    .then_some(Tile::Feature(glyph))
            })
    }

    /// What the tile is, for a map's legend (a feature is its rule set's to name).
    pub fn name(self) -> &'static str {
        match self {
            Tile::Wall => "wall",
            Tile::Floor => "floor",
            Tile::Water => "water",
            Tile::Door => "door",
            Tile::Secret => "secret passage",
            Tile::Stairs => "stairs",
            Tile::Feature(_) => "feature",
        }
    }
}

/// A square of the grid, `x` along a row and `y` down a column.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Hash, PartialEq, Debug)
)]
pub struct Square {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// A floor: its tiles and which squares hold a creature.
///
/// It keeps the set of free squares (open floor, nobody on it) as it changes, so a square
/// search starts from a copy of it instead of asking every square. A saved floor holds its
/// rows of tile glyphs, its occupied squares, its dig order and its rooms, and is checked
/// when read: one row per line of the floor, one glyph per square, every square and room
/// on the floor. Reflection sees the grid as a whole value, (de)serialised the same way.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "GridData", into = "GridData")]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(opaque),
    reflect(Debug, Default, PartialEq, Serialize, Deserialize)
)]
pub struct FloorGrid {
    width: u32,
    height: u32,
    tiles: Vec<Tile>,
    occupied: Vec<bool>,
    /// For floors dug from an entrance: each square's dig number (1 at the entrance, 0 for
    /// squares never dug). Empty when the floor has no dig order.
    carve: Vec<u32>,
    /// The rooms the floor's generator made, in the order it made them.
    rooms: Vec<Room>,
    /// Open floor with nobody on it: derived from the two lists above.
    free: FreeBits,
}

/// A floor as it is saved, in a form a person can read, diff and mend: each row of tiles
/// as a string of their glyphs, the occupied squares as a list, the dig order (if any) as
/// one line of numbers per row, and the rooms. The free squares are derived again.
#[derive(Serialize, Deserialize)]
struct GridData {
    width: u32,
    height: u32,
    /// One string of [`Tile::glyph`]s per row, top to bottom.
    rows: Vec<String>,
    /// The squares that hold a creature.
    #[serde(default)]
    occupied: Vec<Square>,
    /// Each row's dig numbers, separated by spaces; empty without a dig order.
    #[serde(default)]
    carve: Vec<String>,
    #[serde(default)]
    rooms: Vec<Room>,
}

impl TryFrom<GridData> for FloorGrid {
    type Error = FloorError;

    fn try_from(data: GridData) -> Result<Self, Self::Error> {
        let (width, height) = (data.width, data.height);
        FloorGrid::squares_of(width, height)?;
        let saved = |message: String| FloorError::Saved(message);
        if data.rows.len() as u64 != u64::from(height) {
            return Err(saved(format!(
                "a {width} x {height} floor needs {height} rows, not {}",
                data.rows.len()
            )));
        }
        let tiles = tiles_of(data.rows.iter().map(String::as_str), width)?;
        let mut occupied = vec![false; tiles.len()];
        for at in &data.occupied {
            if at.x >= width || at.y >= height {
                return Err(saved(format!(
                    "occupied square ({}, {}) lies outside the {width} x {height} floor",
                    at.x, at.y
                )));
            }
            occupied[at.y as usize * width as usize + at.x as usize] = true;
        }
        let carve = carve_of(&data.carve, width, height)?;
        let inside = |r: &Rect| {
            r.x.checked_add(r.width).is_some_and(|end| end <= width)
                && r.y.checked_add(r.height).is_some_and(|end| end <= height)
        };
        if let Some((i, room)) = data
            .rooms
            .iter()
            .enumerate()
            .find(|(_, r)| !inside(&r.rect))
        {
            return Err(saved(format!(
                "room {i} ({:?}) lies outside the {width} x {height} floor",
                room.rect
            )));
        }
        let mut grid = Self {
            width,
            height,
            tiles,
            occupied,
            carve,
            rooms: data.rooms,
            free: FreeBits::default(),
        };
        grid.free = grid.count_free();
        Ok(grid)
    }
}

/// The tiles of rows of glyphs, each row `width` glyphs long, or the first row that is not
/// or the first glyph that names no tile.
fn tiles_of<'a>(rows: impl Iterator<Item = &'a str>, width: u32) -> Result<Vec<Tile>, FloorError> {
    let mut tiles = Vec::new();
    for (y, row) in rows.enumerate() {
        let len = row.chars().count();
        if len != width as usize {
            return Err(FloorError::RaggedRow { row: y, len, width });
        }
        for (x, glyph) in row.chars().enumerate() {
            let tile = Tile::from_glyph(glyph).ok_or(FloorError::UnknownGlyph {
                row: y,
                column: x,
                glyph,
            })?;
            tiles.push(tile);
        }
    }
    Ok(tiles)
}

/// A saved dig order read back: no rows (no dig order), or one row of `width` numbers for
/// each of the floor's rows.
fn carve_of(rows: &[String], width: u32, height: u32) -> Result<Vec<u32>, FloorError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    if rows.len() as u64 != u64::from(height) {
        return Err(FloorError::Saved(format!(
            "a {width} x {height} floor's dig order needs {height} rows, not {}",
            rows.len()
        )));
    }
    let mut carve = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let count = row.split_ascii_whitespace().count();
        if count != width as usize {
            return Err(FloorError::Saved(format!(
                "dig order row {y} needs {width} numbers, not {count}"
            )));
        }
        for number in row.split_ascii_whitespace() {
            carve.push(number.parse::<u32>().map_err(|_| {
                FloorError::Saved(format!(
                    "dig order row {y}: {} is not a dig number",
                    crate::data::quoted(number)
                ))
            })?);
        }
    }
    Ok(carve)
}

impl From<FloorGrid> for GridData {
    fn from(grid: FloorGrid) -> Self {
        let width = grid.width.max(1) as usize;
        let rows = if grid.width == 0 {
            vec![String::new(); grid.height as usize]
        } else {
            grid.tiles
                .chunks(width)
                .map(|row| row.iter().map(|t| t.glyph()).collect())
                .collect()
        };
        let occupied = grid
            .occupied
            .iter()
            .enumerate()
            .filter(|&(_, &taken)| taken)
            .map(|(i, _)| Square {
                x: (i % width) as u32,
                y: (i / width) as u32,
            })
            .collect();
        let carve = grid
            .carve
            .chunks(width)
            .map(|row| {
                let numbers: Vec<String> = row.iter().map(u32::to_string).collect();
                numbers.join(" ")
            })
            .collect();
        Self {
            width: grid.width,
            height: grid.height,
            rows,
            occupied,
            carve,
            rooms: grid.rooms,
        }
    }
}

/// The free squares of a floor twice over: row by row, and column by column, so a scan
/// along a row or down a column reads a block of squares at a time (a column scan of an
/// 8,192-high floor would otherwise ask 8,192 squares).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct FreeBits {
    width: u32,
    height: u32,
    /// Bit `y * width + x`.
    rows: FixedBitSet,
    /// Bit `x * height + y`.
    columns: FixedBitSet,
    /// How many bits are set: kept as they change, so a full floor is known at once.
    count: usize,
}

impl FreeBits {
    /// No free square on a `width` x `height` floor.
    fn none(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Self {
            width,
            height,
            rows: FixedBitSet::with_capacity(n),
            columns: FixedBitSet::with_capacity(n),
            count: 0,
        }
    }

    /// The two bits of a square inside the floor.
    fn bits(&self, at: Square) -> Option<(usize, usize)> {
        (at.x < self.width && at.y < self.height).then(|| {
            (
                at.y as usize * self.width as usize + at.x as usize,
                at.x as usize * self.height as usize + at.y as usize,
            )
        })
    }

    fn set(&mut self, at: Square, free: bool) {
        if let Some((row, column)) = self.bits(at) {
            match (self.rows.contains(row), free) {
                (false, true) => self.count += 1,
                (true, false) => self.count -= 1,
                _ => {}
            }
            self.rows.set(row, free);
            self.columns.set(column, free);
        }
    }

    fn contains(&self, at: Square) -> bool {
        self.bits(at)
            .is_some_and(|(row, _)| self.rows.contains(row))
    }

    fn count(&self) -> usize {
        self.count
    }
}

/// Bits in one block of a [`FixedBitSet`].
const BLOCK_BITS: usize = usize::BITS as usize;

/// The first set bit of `bits` in `start..end`, a block of bits at a time.
fn next_one(bits: &FixedBitSet, start: usize, end: usize) -> Option<usize> {
    let blocks = bits.as_slice();
    let mut i = start;
    while i < end {
        let block = blocks[i / BLOCK_BITS] >> (i % BLOCK_BITS);
        if block != 0 {
            let found = i + block.trailing_zeros() as usize;
            return (found < end).then_some(found);
        }
        i = (i / BLOCK_BITS + 1) * BLOCK_BITS;
    }
    None
}

/// The squares of a floor a creature may be placed on (open floor, nobody on it), one bit
/// each; a planner takes squares out as it fills them, without touching the floor itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeSquares {
    bits: FreeBits,
}

impl FreeSquares {
    /// Width of the floor in squares.
    pub fn width(&self) -> u32 {
        self.bits.width
    }

    /// Height of the floor in squares.
    pub fn height(&self) -> u32 {
        self.bits.height
    }

    /// How many squares are still free.
    pub fn count(&self) -> usize {
        self.bits.count()
    }

    /// Whether a square is free (squares outside the floor are not).
    pub fn contains(&self, at: Square) -> bool {
        self.bits.contains(at)
    }

    /// Takes a square out (a creature now stands there); nothing happens for a square
    /// outside the floor or already taken.
    pub fn take(&mut self, at: Square) {
        self.bits.set(at, false);
    }

    /// The first free square in row order (top row first), if any.
    pub fn first(&self) -> Option<Square> {
        let i = self.bits.rows.ones().next()?;
        let width = self.bits.width as usize;
        Some(Square {
            x: (i % width) as u32,
            y: (i / width) as u32,
        })
    }

    /// The first free square right of `at` on its row.
    pub fn next_in_row(&self, at: Square) -> Option<Square> {
        let (row, _) = self.bits.bits(at)?;
        let end = (at.y as usize + 1) * self.bits.width as usize;
        let found = next_one(&self.bits.rows, row + 1, end)?;
        Some(Square {
            x: (found % self.bits.width as usize) as u32,
            y: at.y,
        })
    }

    /// The first free square below `at` in its column.
    pub fn next_in_column(&self, at: Square) -> Option<Square> {
        let (_, column) = self.bits.bits(at)?;
        let end = (at.x as usize + 1) * self.bits.height as usize;
        let found = next_one(&self.bits.columns, column + 1, end)?;
        Some(Square {
            x: at.x,
            y: (found % self.bits.height as usize) as u32,
        })
    }
}

/// A rectangle of squares: `x..x + width` by `y..y + height`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Rect {
    /// Whether a square lies inside.
    pub fn contains(&self, at: Square) -> bool {
        (self.x..self.x.saturating_add(self.width)).contains(&at.x)
            && (self.y..self.y.saturating_add(self.height)).contains(&at.y)
    }

    /// Every square inside, row by row.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (self.y..self.y.saturating_add(self.height)).flat_map(move |y| {
            (self.x..self.x.saturating_add(self.width)).map(move |x| Square { x, y })
        })
    }
}

/// A room of a floor: what its generator calls it and the rectangle it covers. The kind is
/// the rule set's or the game's word (Angband's `nest` and `greater vault`, a game's
/// `safe`); rule sets that populate rooms by kind read it, the others ignore it. An empty
/// kind is an ordinary room.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Room {
    /// What the room is (empty for an ordinary room).
    pub kind: String,
    /// Where it is.
    pub rect: Rect,
}

impl Room {
    /// A room of this kind covering `rect`.
    pub fn new(kind: impl Into<String>, rect: Rect) -> Self {
        Self {
            kind: kind.into(),
            rect,
        }
    }
}

impl FloorGrid {
    /// A floor of walls; an error past [`MAX_SQUARES`] squares.
    pub fn new(width: u32, height: u32) -> Result<Self, FloorError> {
        let n = Self::squares_of(width, height)? as usize;
        Ok(Self {
            width,
            height,
            tiles: vec![Tile::Wall; n],
            occupied: vec![false; n],
            carve: Vec::new(),
            rooms: Vec::new(),
            free: FreeBits::none(width, height),
        })
    }

    /// The number of squares of a `width` x `height` floor, if it is within the limit.
    fn squares_of(width: u32, height: u32) -> Result<u64, FloorError> {
        let squares = u64::from(width) * u64::from(height);
        if squares > MAX_SQUARES {
            return Err(FloorError::TooLarge { width, height });
        }
        Ok(squares)
    }

    /// A floor from rows of glyphs (`#` wall, `.` floor, `~` water, `'` door, `:` secret,
    /// `>` stairs, and a rule set's features by their glyphs, [`Tile::FEATURE_GLYPHS`]: see
    /// [`Tile::from_glyph`]); an error names a ragged row or an unknown glyph.
    pub fn from_rows(rows: &[&str]) -> Result<Self, FloorError> {
        let too_large = || FloorError::TooLarge {
            width: u32::MAX,
            height: u32::MAX,
        };
        let height = u32::try_from(rows.len()).map_err(|_| too_large())?;
        let first = rows.first().map_or(0, |r| r.chars().count());
        let width = u32::try_from(first).map_err(|_| too_large())?;
        let mut grid = Self::new(width, height)?;
        grid.tiles = tiles_of(rows.iter().copied(), width)?;
        grid.free = grid.count_free();
        Ok(grid)
    }

    /// Width in squares.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in squares.
    pub fn height(&self) -> u32 {
        self.height
    }

    #[inline]
    fn index(&self, at: Square) -> Option<usize> {
        (at.x < self.width && at.y < self.height)
            .then(|| at.y as usize * self.width as usize + at.x as usize)
    }

    /// The tile at a square (`Wall` outside the grid).
    #[inline]
    pub fn tile(&self, at: Square) -> Tile {
        self.index(at).map_or(Tile::Wall, |i| self.tiles[i])
    }

    /// Sets a tile (ignored outside the grid).
    pub fn set(&mut self, at: Square, tile: Tile) {
        if let Some(i) = self.index(at) {
            self.tiles[i] = tile;
            self.free.set(at, tile == Tile::Floor && !self.occupied[i]);
        }
    }

    /// Whether a creature stands on the square.
    #[inline]
    pub fn is_occupied(&self, at: Square) -> bool {
        self.index(at).is_some_and(|i| self.occupied[i])
    }

    /// Marks a square as holding a creature, or frees it.
    pub fn set_occupied(&mut self, at: Square, occupied: bool) {
        if let Some(i) = self.index(at) {
            self.occupied[i] = occupied;
            self.free.set(at, self.tiles[i] == Tile::Floor && !occupied);
        }
    }

    /// Open floor with no creature on it: where square searches may place a creature
    /// (Omega's `spaceok`; secret squares are not floor).
    pub fn is_acceptable(&self, at: Square) -> bool {
        self.free.contains(at)
    }

    /// The dig number of a square (1 at the entrance), when the floor has a dig order and
    /// the square was dug.
    pub fn carve_number(&self, at: Square) -> Option<u32> {
        let i = self.index(at)?;
        self.carve.get(i).copied().filter(|&n| n > 0)
    }

    /// Whether the floor has a dig order.
    pub fn has_carve_order(&self) -> bool {
        !self.carve.is_empty()
    }

    /// Numbers every open square (anything but wall) in breadth-first order from an
    /// entrance, 1 at the entrance: the dig order a generator that carves outwards from
    /// the entrance would give. Squares not connected to it get 0.
    pub fn carve_from(&mut self, entrance: Square) {
        self.carve = vec![0; self.tiles.len()];
        let Some(start) = self
            .index(entrance)
            .filter(|&i| self.tiles[i] != Tile::Wall)
        else {
            return;
        };
        let mut queue = std::collections::VecDeque::from([entrance]);
        self.carve[start] = 1;
        let mut next = 2;
        while let Some(at) = queue.pop_front() {
            let neighbours = [
                (at.x.wrapping_sub(1), at.y),
                (at.x + 1, at.y),
                (at.x, at.y.wrapping_sub(1)),
                (at.x, at.y + 1),
            ];
            for (x, y) in neighbours {
                let n = Square { x, y };
                if let Some(i) = self.index(n)
                    && self.tiles[i] != Tile::Wall
                    && self.carve[i] == 0
                {
                    self.carve[i] = next;
                    next += 1;
                    queue.push_back(n);
                }
            }
        }
    }

    /// Every square, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let width = self.width;
        (0..self.height).flat_map(move |y| (0..width).map(move |x| Square { x, y }))
    }

    /// How many squares a creature may be placed on now, without copying them: a full
    /// floor is known at once whatever its size.
    pub fn free_count(&self) -> usize {
        self.free.count()
    }

    /// The squares a creature may be placed on now, one bit each: what square searches
    /// scan instead of asking square by square.
    pub fn free_squares(&self) -> FreeSquares {
        FreeSquares {
            bits: self.free.clone(),
        }
    }

    /// The free squares counted from the tiles and occupancy, square by square.
    fn count_free(&self) -> FreeBits {
        let mut free = FreeBits::none(self.width, self.height);
        let width = self.width.max(1) as usize;
        for (i, (&tile, &occupied)) in self.tiles.iter().zip(&self.occupied).enumerate() {
            let at = Square {
                x: (i % width) as u32,
                y: (i / width) as u32,
            };
            free.set(at, tile == Tile::Floor && !occupied);
        }
        free
    }

    /// How many squares are acceptable for placement.
    pub fn acceptable_count(&self) -> usize {
        self.free.count()
    }

    /// The rooms, in the order the generator made them.
    pub fn rooms(&self) -> &[Room] {
        &self.rooms
    }

    /// Records a room (its squares are not changed: the generator digs them).
    pub fn add_room(&mut self, room: Room) {
        self.rooms.push(room);
    }

    /// The tiles the floor holds as `glyph name` pairs in [`Tile::ALL`] order, on one line:
    /// the legend of [`render`](Self::render)'s map, such as `# wall   . floor   ~ water`.
    pub fn legend(&self) -> String {
        let mut present: Vec<Tile> = Vec::new();
        for tile in &self.tiles {
            if !present.contains(tile) {
                present.push(*tile);
            }
        }
        let order = |t: &Tile| {
            Tile::ALL
                .iter()
                .position(|n| n == t)
                .unwrap_or(Tile::ALL.len())
        };
        present.sort_by_key(|t| (order(t), t.glyph()));
        present
            .into_iter()
            .map(|t| format!("{} {}", t.glyph(), t.name()))
            .collect::<Vec<_>>()
            .join("   ")
    }

    /// The floor as text, one row a line, with `glyph_at` drawn over the tiles.
    pub fn render(&self, glyph_at: impl Fn(Square) -> Option<char>) -> String {
        let mut text = String::with_capacity((self.width as usize + 1) * self.height as usize);
        for y in 0..self.height {
            for x in 0..self.width {
                let at = Square { x, y };
                text.push(glyph_at(at).unwrap_or(self.tile(at).glyph()));
            }
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_as_they_were_written() {
        let rows = ["#####", "#..:#", "#~'>#", "#^<.#", "#####"];
        let grid = FloorGrid::from_rows(&rows).unwrap();
        assert_eq!((grid.width(), grid.height()), (5, 5));
        assert_eq!(grid.render(|_| None), rows.join("\n") + "\n");
        assert_eq!(
            grid.tile(Square { x: 9, y: 9 }),
            Tile::Wall,
            "outside is wall"
        );
    }

    #[test]
    fn occupancy_decides_acceptable_squares() {
        let mut grid = FloorGrid::from_rows(&["#..:", "~..#"]).unwrap();
        assert_eq!(
            grid.acceptable_count(),
            4,
            "secret and water squares are not floor"
        );
        grid.set_occupied(Square { x: 1, y: 0 }, true);
        assert!(!grid.is_acceptable(Square { x: 1, y: 0 }));
        assert_eq!(grid.acceptable_count(), 3);
        grid.set_occupied(Square { x: 1, y: 0 }, false);
        assert!(grid.is_acceptable(Square { x: 1, y: 0 }));
    }

    #[test]
    fn free_squares_follow_tiles_and_occupancy() {
        let mut grid = FloorGrid::from_rows(&["#..:..", "~...#.", "......"]).unwrap();
        grid.set_occupied(Square { x: 2, y: 1 }, true);
        let mut free = grid.free_squares();
        for at in grid.squares() {
            assert_eq!(free.contains(at), grid.is_acceptable(at), "{at:?}");
        }
        assert_eq!(free.count(), grid.acceptable_count());
        let at = |x, y| Square { x, y };
        assert_eq!(free.next_in_row(at(0, 0)), Some(at(1, 0)));
        assert_eq!(
            free.next_in_row(at(2, 0)),
            Some(at(4, 0)),
            "the secret square is skipped"
        );
        assert_eq!(free.next_in_row(at(5, 0)), None, "the row ends");
        assert_eq!(
            free.next_in_column(at(2, 0)),
            Some(at(2, 2)),
            "the occupied square is skipped"
        );
        assert_eq!(free.next_in_column(at(0, 0)), Some(at(0, 2)));
        assert_eq!(free.next_in_column(at(9, 0)), None, "outside the floor");
        assert_eq!(free.first(), Some(at(1, 0)), "row order: (0, 0) is a wall");
        let mut blocked = free.clone();
        for x in 1..6 {
            blocked.take(at(x, 0));
        }
        assert_eq!(blocked.first(), Some(at(1, 1)), "then the next row");
        free.take(at(2, 2));
        free.take(at(2, 2));
        assert_eq!(free.count(), grid.acceptable_count() - 1);
        assert_eq!(free.next_in_column(at(2, 0)), None);
        // Every square of a larger floor, against the square-by-square answer.
        let mut big = FloorGrid::new(67, 41).unwrap();
        for (n, at) in big.squares().collect::<Vec<_>>().into_iter().enumerate() {
            big.set(at, if n % 7 < 4 { Tile::Floor } else { Tile::Water });
            big.set_occupied(at, n % 11 == 3);
        }
        let free = big.free_squares();
        assert!(
            big.squares()
                .all(|at| free.contains(at) == big.is_acceptable(at))
        );
        assert_eq!(free.count(), big.acceptable_count());
        // Rows that span words: a 100-wide floor with one free square far along.
        let mut wide = FloorGrid::new(100, 2).unwrap();
        wide.set(at(97, 1), Tile::Floor);
        let free = wide.free_squares();
        assert_eq!(free.next_in_row(at(3, 1)), Some(at(97, 1)));
        assert_eq!(
            free.next_in_row(at(3, 0)),
            None,
            "never past the end of the row"
        );
        // Columns that span words: a 200-high floor with one free square far down.
        let mut tall = FloorGrid::new(3, 200).unwrap();
        tall.set(at(1, 150), Tile::Floor);
        let free = tall.free_squares();
        assert_eq!(free.next_in_column(at(1, 2)), Some(at(1, 150)));
        assert_eq!(free.next_in_column(at(1, 150)), None);
        assert_eq!(
            free.next_in_column(at(0, 100)),
            None,
            "never past the end of the column"
        );
        let mut taken = free.clone();
        taken.take(at(1, 150));
        assert_eq!(taken.next_in_column(at(1, 2)), None);
        assert_eq!(taken.count(), 0);
    }

    /// A saved floor comes back with the same free squares; it is written as rows of
    /// glyphs a person can read; and a saved floor whose rows or squares do not fit its size
    /// is refused with a message, never accepted to fail later.
    #[test]
    fn saved_floors_round_trip_and_are_checked() {
        let mut grid = FloorGrid::from_rows(&["#..~", "..#."]).unwrap();
        grid.set_occupied(Square { x: 1, y: 0 }, true);
        grid.carve_from(Square { x: 2, y: 0 });
        let text = ron::to_string(&grid).unwrap();
        assert!(
            text.contains(r##"rows:["#..~","..#."],occupied:[(x:1,y:0)],carve:["0 2 1 3","6 4 0 5"],rooms:[])"##),
            "{text}"
        );
        let back: FloorGrid = ron::from_str(&text).unwrap();
        assert_eq!(back, grid);
        assert_eq!(back.free_squares(), grid.free_squares());
        let refused = |text: &str| ron::from_str::<FloorGrid>(text).unwrap_err().to_string();
        let short = text.replacen(r#""..#.""#, r#""..#""#, 1);
        assert!(
            refused(&short).contains("row 1 has 3 squares; the floor is 4 wide"),
            "{}",
            refused(&short)
        );
        let long = text.replacen(r#""..#.""#, &format!("\"{}\"", ".".repeat(100)), 1);
        assert!(
            refused(&long).contains("row 1 has 100 squares; the floor is 4 wide"),
            "{}",
            refused(&long)
        );
        let glyph = text.replacen(r#""..#.""#, r#""..X.""#, 1);
        assert!(refused(&glyph).contains("`X` is not a tile glyph"));
        let off = text.replacen("(x:1,y:0)", "(x:4,y:0)", 1);
        assert!(refused(&off).contains("occupied square (4, 0) lies outside the 4 x 2 floor"));
        let dig = text.replacen(r#""0 2 1 3""#, r#""0 2 1""#, 1);
        assert!(refused(&dig).contains("dig order row 0 needs 4 numbers, not 3"));
        let dig = text.replacen(r#""0 2 1 3""#, r#""0 2 1 x""#, 1);
        assert!(refused(&dig).contains("`x` is not a dig number"));
        // The save from the audit: far fewer rows than the size.
        let empty = "(width: 10, height: 10, rows: [])";
        assert!(
            refused(empty).contains("needs 10 rows, not 0"),
            "{}",
            refused(empty)
        );
        let huge = "(width: 4294967295, height: 4294967295, rows: [])";
        assert!(refused(huge).contains("more than 67108864 squares"));
        let outside = text.replacen(
            "rooms:[]",
            "rooms:[(kind:\"\",rect:(x:3,y:0,width:2,height:1))]",
            1,
        );
        assert_ne!(outside, text);
        let err = refused(&outside);
        assert!(
            err.contains("room 0") && err.contains("outside the 4 x 2 floor"),
            "{err}"
        );
    }

    /// Absurd sizes, ragged rows and unknown glyphs are errors that say what is wrong.
    #[test]
    fn floors_that_cannot_be_made_are_errors() {
        assert_eq!(
            FloorGrid::new(u32::MAX, u32::MAX),
            Err(FloorError::TooLarge {
                width: u32::MAX,
                height: u32::MAX
            })
        );
        assert!(FloorGrid::new(8192, 8192).is_ok_and(|g| g.width() == 8192));
        assert!(FloorGrid::new(8192, 8193).is_err());
        assert_eq!(
            FloorGrid::from_rows(&["#..", "#."]),
            Err(FloorError::RaggedRow {
                row: 1,
                len: 2,
                width: 3
            })
        );
        let err = FloorGrid::from_rows(&["#..", "#.@"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 1, column 2: `@` is not a tile glyph (# . ~ ' : >, or a feature's: ^<*;`_-)"
        );
    }

    #[test]
    fn dig_order_numbers_squares_outwards_from_the_entrance() {
        let mut grid = FloorGrid::from_rows(&["...#.", "#.###"]).unwrap();
        grid.carve_from(Square { x: 0, y: 0 });
        let numbers: Vec<Option<u32>> = grid.squares().map(|s| grid.carve_number(s)).collect();
        assert_eq!(
            numbers,
            [
                Some(1),
                Some(2),
                Some(3),
                None,
                None,
                None,
                Some(4),
                None,
                None,
                None,
            ]
        );
    }

    /// A rule set's feature is read and drawn by its glyph, is never a placement square,
    /// and the legend lists it after the neutral tiles; a letter is no feature.
    #[test]
    fn features_are_known_by_their_glyph() {
        let grid = FloorGrid::from_rows(&["#*.", "^<."]).unwrap();
        let at = |x, y| Square { x, y };
        assert_eq!(grid.tile(at(1, 0)), Tile::Feature('*'));
        assert_eq!(grid.tile(at(1, 1)), Tile::Feature('<'));
        assert!(!grid.is_acceptable(at(0, 1)) && grid.is_acceptable(at(2, 1)));
        assert_eq!(grid.acceptable_count(), 2);
        assert_eq!(grid.render(|_| None), "#*.\n^<.\n");
        assert_eq!(
            grid.legend(),
            "# wall   . floor   * feature   < feature   ^ feature"
        );
        for glyph in Tile::FEATURE_GLYPHS.chars() {
            assert_eq!(Tile::from_glyph(glyph), Some(Tile::Feature(glyph)));
        }
        assert_eq!(Tile::from_glyph('g'), None);
        assert_eq!(Tile::from_glyph('.'), Some(Tile::Floor));
    }

    #[test]
    fn rooms_are_kept_in_order_and_cover_their_rectangle() {
        let mut grid = FloorGrid::new(10, 10).unwrap();
        let rect = Rect {
            x: 2,
            y: 3,
            width: 4,
            height: 2,
        };
        grid.add_room(Room::new("nest", rect));
        grid.add_room(Room::default());
        assert_eq!(grid.rooms()[0], Room::new("nest", rect));
        assert_eq!(rect.squares().count(), 8);
        assert!(rect.contains(Square { x: 5, y: 4 }) && !rect.contains(Square { x: 6, y: 4 }));
    }

    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Any rows make a floor or say which row or glyph is wrong; a floor made
            /// counts its free squares and finds the first of them.
            #[test]
            fn any_rows(rows in prop_oneof![
                prop::collection::vec("[#.~':>^<*x@]{0,12}", 0..8),
                // Rows and columns longer than a block of bits.
                prop::collection::vec("[#.]{70}", 1..90),
            ]) {
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                match FloorGrid::from_rows(&rows) {
                    Ok(grid) => {
                        let free = grid.free_squares();
                        let squares = grid.width() as usize * grid.height() as usize;
                        prop_assert!(free.count() <= squares);
                        prop_assert_eq!(free.first().is_some(), free.count() > 0);
                        // The block scans agree with asking square by square.
                        for y in 0..grid.height() {
                            for x in 0..grid.width() {
                                let at = Square { x, y };
                                let right = (x + 1..grid.width())
                                    .map(|x| Square { x, y })
                                    .find(|&s| grid.is_acceptable(s));
                                let below = (y + 1..grid.height())
                                    .map(|y| Square { x, y })
                                    .find(|&s| grid.is_acceptable(s));
                                prop_assert_eq!(free.next_in_row(at), right);
                                prop_assert_eq!(free.next_in_column(at), below);
                            }
                        }
                    }
                    Err(FloorError::RaggedRow { .. } | FloorError::UnknownGlyph { .. }) => {}
                    Err(other) => prop_assert!(false, "{other}"),
                }
            }

            /// A saved floor with any of its numbers made extreme, or any byte changed,
            /// reads back as a floor whose lists fit its size, or is refused.
            #[test]
            fn corrupted_saves(
                at in 0.0..1.0f64,
                byte in any::<u8>(),
                number in 0usize..64,
                value in prop::sample::select(&["0", "1", "65535", "8192", "8193", "4294967295", "18446744073709551616"][..]),
            ) {
                let mut grid = FloorGrid::from_rows(&["#..~'", "..#.:", ">^<.."]).unwrap();
                grid.set_occupied(Square { x: 1, y: 0 }, true);
                grid.carve_from(Square { x: 2, y: 0 });
                grid.add_room(Room::new("", Rect { x: 0, y: 0, width: 2, height: 2 }));
                let text = ron::to_string(&grid).unwrap();
                let digits: Vec<(usize, usize)> = text
                    .char_indices()
                    .filter(|&(i, c)| c.is_ascii_digit() && !text[..i].ends_with(|p: char| p.is_ascii_digit()))
                    .map(|(i, _)| (i, i + text[i..].find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len() - i)))
                    .collect();
                let (start, end) = digits[number % digits.len()];
                let extreme = format!("{}{value}{}", &text[..start], &text[end..]);
                let mut bytes = text.clone().into_bytes();
                let i = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
                bytes[i] = byte;
                let flipped = String::from_utf8_lossy(&bytes).into_owned();
                for saved in [extreme, flipped] {
                    if let Ok(back) = ron::from_str::<FloorGrid>(&saved) {
                        let squares = back.width() as usize * back.height() as usize;
                        prop_assert!(squares as u64 <= MAX_SQUARES);
                        prop_assert!(back.free_squares().count() <= squares);
                        for room in back.rooms() {
                            for at in room.rect.squares() {
                                let _ = back.tile(at);
                            }
                        }
                    }
                }
            }
        }
    }
}
