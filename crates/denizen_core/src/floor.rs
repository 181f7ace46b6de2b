//! The floor grid: tiles and occupied squares, Omega's square search, and a reference
//! rooms-and-corridors layout for examples and tests.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::rng::{self, StreamPurpose, WorldSeed};

/// What a square is made of.
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
    /// Burning floor: only fire creatures live here.
    Fire,
    /// A ladder between floors: never holds a group.
    Ladder,
}

impl Tile {
    /// The character a text map shows for the tile.
    pub fn glyph(self) -> char {
        match self {
            Tile::Wall => '#',
            Tile::Floor => '.',
            Tile::Water => '~',
            Tile::Door => '+',
            Tile::Secret => 's',
            Tile::Stairs => '>',
            Tile::Fire => '^',
            Tile::Ladder => 'H',
        }
    }
}

/// A square of the grid, `x` along a row and `y` down a column.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Square {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// A floor: its tiles and which squares hold a creature.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct FloorGrid {
    width: u32,
    height: u32,
    tiles: Vec<Tile>,
    occupied: Vec<bool>,
    /// For floors dug from an entrance: each square's dig number (1 at the entrance, 0 for
    /// squares never dug). Empty when the floor has no dig order.
    #[serde(default)]
    carve: Vec<u32>,
}

/// The most probes the square search makes before it reports the floor full. With one
/// acceptable square on a 100 x 100 floor, a probe finds it with chance at least 1/10,000,
/// so a search that still fails after this many has a chance below e^-100 of being wrong.
pub const MAX_PROBES: u32 = 1_000_000;

impl FloorGrid {
    /// A floor of walls.
    pub fn new(width: u32, height: u32) -> Self {
        let n = (width as usize) * (height as usize);
        Self {
            width,
            height,
            tiles: vec![Tile::Wall; n],
            occupied: vec![false; n],
            carve: Vec::new(),
        }
    }

    /// A floor from rows of glyphs (`#` wall, `.` floor, `~` water, `+` door, `s` secret,
    /// `>` stairs, `^` fire, `H` ladder); `None` if the rows are ragged or a glyph is
    /// unknown.
    pub fn from_rows(rows: &[&str]) -> Option<Self> {
        let height = rows.len() as u32;
        let width = rows.first().map_or(0, |r| r.chars().count()) as u32;
        let mut grid = Self::new(width, height);
        for (y, row) in rows.iter().enumerate() {
            if row.chars().count() as u32 != width {
                return None;
            }
            for (x, c) in row.chars().enumerate() {
                let tile = match c {
                    '#' => Tile::Wall,
                    '.' => Tile::Floor,
                    '~' => Tile::Water,
                    '+' => Tile::Door,
                    's' => Tile::Secret,
                    '>' => Tile::Stairs,
                    '^' => Tile::Fire,
                    'H' => Tile::Ladder,
                    _ => return None,
                };
                grid.set(
                    Square {
                        x: x as u32,
                        y: y as u32,
                    },
                    tile,
                );
            }
        }
        Some(grid)
    }

    /// Width in squares.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in squares.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn index(&self, at: Square) -> Option<usize> {
        (at.x < self.width && at.y < self.height)
            .then(|| at.y as usize * self.width as usize + at.x as usize)
    }

    /// The tile at a square (`Wall` outside the grid).
    pub fn tile(&self, at: Square) -> Tile {
        self.index(at).map_or(Tile::Wall, |i| self.tiles[i])
    }

    /// Sets a tile (ignored outside the grid).
    pub fn set(&mut self, at: Square, tile: Tile) {
        if let Some(i) = self.index(at) {
            self.tiles[i] = tile;
        }
    }

    /// Whether a creature stands on the square.
    pub fn is_occupied(&self, at: Square) -> bool {
        self.index(at).is_some_and(|i| self.occupied[i])
    }

    /// Marks a square as holding a creature, or frees it.
    pub fn set_occupied(&mut self, at: Square, occupied: bool) {
        if let Some(i) = self.index(at) {
            self.occupied[i] = occupied;
        }
    }

    /// Omega's `spaceok`: open floor, no creature (secret squares are not floor).
    pub fn is_acceptable(&self, at: Square) -> bool {
        self.index(at)
            .is_some_and(|i| self.tiles[i] == Tile::Floor && !self.occupied[i])
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

    /// How many squares are acceptable for placement.
    pub fn acceptable_count(&self) -> usize {
        self.tiles
            .iter()
            .zip(&self.occupied)
            .filter(|&(&t, &o)| t == Tile::Floor && !o)
            .count()
    }

    /// Omega's `findspace`: a random square; if it is not acceptable, alternately scan
    /// right along its row or down its column for the first acceptable one, and repeat.
    ///
    /// Not uniform: squares just right of or below blocked runs are favoured. Returns
    /// `None` when no square is acceptable (found out after 16 failed probes) and after
    /// [`MAX_PROBES`] probes.
    pub fn find_space<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Square> {
        self.find_space_where(rng, |at| self.is_acceptable(at))
    }

    /// [`find_space`](Self::find_space) with another acceptance test (a planning overlay
    /// that also excludes squares taken since the grid was drawn).
    pub fn find_space_where<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        acceptable: impl Fn(Square) -> bool,
    ) -> Option<Square> {
        let mut along_row = true;
        for probe in 0..MAX_PROBES {
            // A full floor is only counted once a few probes have failed, so that the
            // common case does not scan the whole grid for every placement.
            if probe == 16 && !self.squares().any(&acceptable) {
                return None;
            }
            let x = rng::range(rng, self.width);
            let y = rng::range(rng, self.height);
            if acceptable(Square { x, y }) {
                return Some(Square { x, y });
            }
            let found = if along_row {
                (x + 1..self.width)
                    .map(|x| Square { x, y })
                    .find(|&s| acceptable(s))
            } else {
                (y + 1..self.height)
                    .map(|y| Square { x, y })
                    .find(|&s| acceptable(s))
            };
            along_row = !along_row;
            if found.is_some() {
                return found;
            }
        }
        None
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

    /// The reference floor of a location and depth for a world seed: 64 x 32 squares of
    /// [`rooms_and_corridors`](Self::rooms_and_corridors) from the seed's layout stream.
    pub fn reference(seed: WorldSeed, location: &str, depth: u32) -> Self {
        let purpose = StreamPurpose::new("layout")
            .with_str(location)
            .with(depth.into());
        Self::rooms_and_corridors(&mut seed.stream(purpose), 64, 32)
    }

    /// A reference layout: rooms joined by corridors, a pool of water, secret squares in
    /// some corridors and stairs. Deterministic for a given generator state.
    pub fn rooms_and_corridors<R: Rng + ?Sized>(rng: &mut R, width: u32, height: u32) -> Self {
        let mut grid = Self::new(width, height);
        if width < 8 || height < 8 {
            return grid;
        }
        let mut rooms: Vec<(u32, u32, u32, u32)> = Vec::new();
        for _ in 0..60 {
            if rooms.len() == 9 {
                break;
            }
            let w = 4 + rng::range(rng, (width / 5).clamp(1, 9));
            let h = 3 + rng::range(rng, (height / 5).clamp(1, 5));
            if w + 2 >= width || h + 2 >= height {
                continue;
            }
            let x = 1 + rng::range(rng, width - w - 1);
            let y = 1 + rng::range(rng, height - h - 1);
            let clear = rooms.iter().all(|&(rx, ry, rw, rh)| {
                x + w + 1 < rx || rx + rw + 1 < x || y + h + 1 < ry || ry + rh + 1 < y
            });
            if clear {
                rooms.push((x, y, w, h));
            }
        }
        for &(x, y, w, h) in &rooms {
            for yy in y..y + h {
                for xx in x..x + w {
                    grid.set(Square { x: xx, y: yy }, Tile::Floor);
                }
            }
        }
        rooms.sort_by_key(|&(x, _, _, _)| x);
        let centre = |&(x, y, w, h): &(u32, u32, u32, u32)| (x + w / 2, y + h / 2);
        for (n, pair) in rooms.windows(2).enumerate() {
            let (ax, ay) = centre(&pair[0]);
            let (bx, by) = centre(&pair[1]);
            let mut path = Vec::new();
            for x in ax.min(bx)..=ax.max(bx) {
                path.push(Square { x, y: ay });
            }
            for y in ay.min(by)..=ay.max(by) {
                path.push(Square { x: bx, y });
            }
            for (i, at) in path.iter().enumerate() {
                if grid.tile(*at) == Tile::Wall {
                    // Every third corridor hides one square behind a secret passage.
                    let secret = n % 3 == 2 && i == path.len() / 2;
                    grid.set(*at, if secret { Tile::Secret } else { Tile::Floor });
                }
            }
        }
        if let Some(&(x, y, w, h)) = rooms.get(1) {
            for yy in y + 1..y + h.min(3) {
                for xx in x + 1..x + w.min(4) {
                    grid.set(Square { x: xx, y: yy }, Tile::Water);
                }
            }
        }
        if let Some(&(x, y, _, _)) = rooms.last() {
            grid.set(Square { x, y }, Tile::Stairs);
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_finds_the_only_free_square_and_reports_a_full_floor() {
        let mut grid = FloorGrid::from_rows(&["#####", "#..s#", "#~..#", "#####"]).unwrap();
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("space"));
        for at in [
            Square { x: 1, y: 1 },
            Square { x: 2, y: 1 },
            Square { x: 2, y: 2 },
        ] {
            grid.set_occupied(at, true);
        }
        assert_eq!(grid.acceptable_count(), 1);
        for _ in 0..50 {
            assert_eq!(grid.find_space(&mut rng), Some(Square { x: 3, y: 2 }));
        }
        grid.set_occupied(Square { x: 3, y: 2 }, true);
        assert_eq!(grid.find_space(&mut rng), None);
        assert_eq!(FloorGrid::new(0, 0).find_space(&mut rng), None);
    }

    #[test]
    fn the_search_favours_squares_after_blocked_runs() {
        // Row 0: a wall run then two floor squares; the first after the run collects the
        // scans of every probe that lands on the run.
        let grid = FloorGrid::from_rows(&["######..", "########"]).unwrap();
        let mut rng = WorldSeed(2).stream(StreamPurpose::new("bias"));
        let mut first = 0;
        for _ in 0..4000 {
            if grid.find_space(&mut rng) == Some(Square { x: 6, y: 0 }) {
                first += 1;
            }
        }
        assert!(first > 3000, "{first}");
    }

    #[test]
    fn reference_layout_has_rooms_water_and_secrets() {
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("layout"));
        let grid = FloorGrid::rooms_and_corridors(&mut rng, 64, 24);
        let text = grid.render(|_| None);
        assert_eq!(text.lines().count(), 24);
        assert!(grid.acceptable_count() > 150, "{text}");
        assert!(text.contains('~') && text.contains('s'), "{text}");
        assert!(FloorGrid::from_rows(&["#.", "#"]).is_none());
    }
}
