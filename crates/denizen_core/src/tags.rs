//! A tag layer over a floor: names a game gives its squares (terrain such as `water` or
//! `lava`, regions such as `room`, `corridor`, `vault` or `safe`), so a rule set can
//! require or forbid them where it places a creature.
//!
//! The layer holds up to [`MAX_TAGS`] names and one bit per name and square, so a
//! placement rule is two mask tests per square. [`SquareTags::from_grid`] starts a layer
//! from what the grid knows (its tiles and rooms); the game adds its own names with
//! [`SquareTags::tag`] and [`SquareTags::tag_rect`].

use crate::floor::{FloorGrid, Rect, Square, Tile};
use crate::squares::SquareSet;

/// The most tag names one floor's layer holds: one bit each in a `u64`.
pub const MAX_TAGS: usize = 64;

/// A set of tag names of one layer, one bit per name (see [`SquareTags::mask`]).
pub type TagMask = u64;

/// The tags of every square of one floor.
///
/// ```
/// use denizen_core::{FloorGrid, Square, SquareTags};
///
/// let grid = FloorGrid::from_rows(&["#~.#"]).unwrap();
/// let mut tags = SquareTags::from_grid(&grid);
/// tags.tag(Square { x: 2, y: 0 }, "safe").unwrap();
/// assert!(tags.has(Square { x: 1, y: 0 }, "water"));
/// assert!(tags.has(Square { x: 2, y: 0 }, "safe"));
/// assert!(tags.has(Square { x: 2, y: 0 }, "corridor"));
/// assert!(!tags.has(Square { x: 1, y: 0 }, "safe"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareTags {
    width: u32,
    height: u32,
    names: Vec<String>,
    bits: Vec<TagMask>,
    /// The squares with any tag, in the order each got its first.
    tagged: Vec<Square>,
    /// Per name: the squares with it, in the order they got it.
    by_name: Vec<Vec<Square>>,
}

/// A tag the layer cannot take: it already holds [`MAX_TAGS`] other names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[error("a floor holds at most {MAX_TAGS} tag names: `{0}` is one too many")]
pub struct TooManyTags(pub String);

impl SquareTags {
    /// A layer of `width` x `height` squares with no tags.
    pub fn new(width: u32, height: u32) -> Self {
        let squares = width as usize * height as usize;
        Self {
            width,
            height,
            names: Vec::new(),
            bits: vec![0; squares],
            tagged: Vec::new(),
            by_name: Vec::new(),
        }
    }

    /// A layer with what the grid knows: each square's tile by its name (`floor`, `water`,
    /// `door`, `stairs`; walls and secret squares are left untagged), `room` on every
    /// square of a room and the room's kind when it has one, and `corridor` on every other
    /// open square. A layer holds [`MAX_TAGS`] names: room kinds past that are left out
    /// (tag them with [`SquareTags::tag_rect`], which says when it cannot).
    pub fn from_grid(grid: &FloorGrid) -> Self {
        let mut tags = Self::new(grid.width(), grid.height());
        for at in grid.squares() {
            let tile = grid.tile(at);
            if matches!(tile, Tile::Floor | Tile::Water | Tile::Door | Tile::Stairs) {
                tags.insert(at, tile.name());
            }
        }
        for room in grid.rooms() {
            tags.insert_rect(room.rect, "room");
            if !room.kind.is_empty() {
                tags.insert_rect(room.rect, &room.kind);
            }
        }
        let room = tags.bit("room");
        for at in grid.squares() {
            let open = !matches!(grid.tile(at), Tile::Wall | Tile::Secret);
            if open && tags.mask_at(at) & room == 0 {
                tags.insert(at, "corridor");
            }
        }
        tags
    }

    /// Gives a square a tag (nothing outside the floor).
    pub fn tag(&mut self, at: Square, name: &str) -> Result<(), TooManyTags> {
        let bit = self.bit_or_new(name)?;
        self.add_bit(at, bit);
        Ok(())
    }

    /// Gives every square of a rectangle a tag (a safe room, a vault).
    pub fn tag_rect(&mut self, rect: Rect, name: &str) -> Result<(), TooManyTags> {
        let bit = self.bit_or_new(name)?;
        for at in rect.squares() {
            self.add_bit(at, bit);
        }
        Ok(())
    }

    /// Gives every square of a set a tag (a river of lava, a region an editor drew);
    /// squares off the floor are left out.
    pub fn tag_set(&mut self, squares: &SquareSet, name: &str) -> Result<(), TooManyTags> {
        let bit = self.bit_or_new(name)?;
        for at in squares.clipped(self.width, self.height).iter() {
            self.add_bit(at, bit);
        }
        Ok(())
    }

    fn add_bit(&mut self, at: Square, bit: TagMask) {
        if let Some(i) = self.index(at) {
            if self.bits[i] == 0 {
                self.tagged.push(at);
            }
            if self.bits[i] & bit == 0 {
                self.by_name[bit.trailing_zeros() as usize].push(at);
            }
            self.bits[i] |= bit;
        }
    }

    /// The squares with the name of bit `bit` of a mask (`0..names().count()`), in the
    /// order they got it; none for a bit no name has. A rule that needs a rare tag looks
    /// only there.
    pub fn squares_of(&self, bit: u32) -> &[Square] {
        self.by_name.get(bit as usize).map_or(&[], Vec::as_slice)
    }

    /// The squares with any tag, in the order each got its first: where a placement rule,
    /// which asks for a tag to stand on, looks, without scanning the whole floor.
    pub fn tagged(&self) -> &[Square] {
        &self.tagged
    }

    /// Whether a square has a tag.
    pub fn has(&self, at: Square, name: &str) -> bool {
        self.mask_at(at) & self.bit(name) != 0
    }

    /// The tags of a square, as a mask of this layer.
    #[inline]
    pub fn mask_at(&self, at: Square) -> TagMask {
        self.index(at).map_or(0, |i| self.bits[i])
    }

    /// The mask of a list of names in this layer, and whether every name is known: a name
    /// no square has contributes no bit (a rule that requires it is met nowhere).
    pub fn mask<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> (TagMask, bool) {
        names.into_iter().fold((0, true), |(mask, known), name| {
            let bit = self.bit(name);
            (mask | bit, known && bit != 0)
        })
    }

    /// The names the layer holds, in the order they were first given.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// The layer's width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The layer's height.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn bit(&self, name: &str) -> TagMask {
        self.names
            .iter()
            .position(|n| n == name)
            .map_or(0, |i| 1 << i)
    }

    fn bit_or_new(&mut self, name: &str) -> Result<TagMask, TooManyTags> {
        let bit = self.bit(name);
        if bit != 0 {
            return Ok(bit);
        }
        if self.names.len() == MAX_TAGS {
            return Err(TooManyTags(name.to_owned()));
        }
        self.names.push(name.to_owned());
        self.by_name.push(Vec::new());
        Ok(1 << (self.names.len() - 1))
    }

    /// The grid's own names, which never exceed the limit on a fresh layer.
    fn insert(&mut self, at: Square, name: &str) {
        let _ = self.tag(at, name);
    }

    fn insert_rect(&mut self, rect: Rect, name: &str) {
        let _ = self.tag_rect(rect, name);
    }

    #[inline]
    fn index(&self, at: Square) -> Option<usize> {
        (at.x < self.width && at.y < self.height)
            .then(|| at.y as usize * self.width as usize + at.x as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::Room;

    #[test]
    fn the_grid_gives_terrain_rooms_and_corridors() {
        let mut grid = FloorGrid::from_rows(&["#######", "#..~..#", "#######"]).unwrap();
        grid.add_room(Room::new(
            "vault",
            Rect {
                x: 1,
                y: 1,
                width: 2,
                height: 1,
            },
        ));
        let tags = SquareTags::from_grid(&grid);
        let at = |x| Square { x, y: 1 };
        assert!(tags.has(at(1), "room") && tags.has(at(1), "vault") && tags.has(at(1), "floor"));
        assert!(tags.has(at(3), "water") && tags.has(at(3), "corridor"));
        assert!(!tags.has(at(3), "room"));
        assert_eq!(tags.mask_at(Square { x: 0, y: 0 }), 0, "walls have no tags");
        assert_eq!(
            tags.mask_at(Square { x: 70, y: 0 }),
            0,
            "nor squares off the floor"
        );
        assert_eq!(tags.tagged().len(), 5, "the open squares, each once");
        let water = tags.mask(["water"]).0.trailing_zeros();
        assert_eq!(tags.squares_of(water), [at(3)]);
        assert!(tags.squares_of(63).is_empty());
        let (mask, known) = tags.mask(["water", "lava"]);
        assert_eq!(mask, tags.mask(["water"]).0);
        assert!(!known, "no square has lava");
    }

    #[test]
    fn the_sixty_fifth_name_is_refused() {
        let mut tags = SquareTags::new(2, 1);
        for n in 0..MAX_TAGS {
            tags.tag(Square { x: 0, y: 0 }, &format!("t{n}")).unwrap();
        }
        assert_eq!(
            tags.tag(Square { x: 1, y: 0 }, "one_more"),
            Err(TooManyTags("one_more".into()))
        );
        tags.tag(Square { x: 1, y: 0 }, "t63").unwrap();
        assert!(tags.has(Square { x: 1, y: 0 }, "t63"));
    }
}
