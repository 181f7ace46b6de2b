//! Monster nests and pits (types 5 and 6, notes 2.6): the large room's shell, never lit,
//! with one secret door into the 5 x 19 inner room that holds the 95 monster grids. The
//! races are drawn and placed through the [`Inhabit`] hook, in the original's order. A
//! level gets at most one nest or pit, which the attempt code enforces.

use super::BuiltRoom;
use super::builder::{Builder, Inhabit};
use super::choice::RoomChoice;
use super::rooms::{inner_room_door, large_shell};
use crate::cave::Pos;
use crate::feeling::SpecialRoom;

/// A nest (`pit == false`) or pit: the shell, its door, the 16 draws through the
/// [`Inhabit`] hook, the monster level reset to the depth (as the original's builders do
/// after their draws), then for a room whose draws all succeeded: 10 to the rating, the
/// special test (down to depth 40, `randint(depth^2 + 1) < 300`), and the fill. A room
/// whose draws failed stays empty and adds nothing.
pub(crate) fn nest_or_pit<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos, pit: bool) -> BuiltRoom {
    let kind = if pit {
        RoomChoice::Pit
    } else {
        RoomChoice::Nest
    };
    let room = large_shell(b, c, kind, false);
    inner_room_door(b, c);
    let drawn = b.inhabitants.draw_den(b.rng, c, pit, b.depth);
    b.monster_level = b.depth;
    if drawn {
        b.room_rating = b.room_rating.saturating_add(DEN_RATING);
        let room = if pit {
            SpecialRoom::Pit
        } else {
            SpecialRoom::Nest
        };
        if room.special_test(b.depth).passes(b.rng) {
            b.special_feeling = true;
        }
        b.inhabitants.fill_den(&mut b.cave, b.rng, c);
    }
    room
}

/// The rating a filled nest or pit adds.
pub const DEN_RATING: i32 = 10;

/// The 95 grids of a nest or pit's inner room, row by row (the order the nest fill
/// draws in).
pub fn monster_grids(centre: Pos) -> impl Iterator<Item = Pos> {
    (centre.y - 2..=centre.y + 2)
        .flat_map(move |y| (centre.x - 9..=centre.x + 9).map(move |x| Pos::new(y, x)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::{flag, terrain};
    use crate::layout::builder::HostLog;
    use denizen_core::{StreamPurpose, WorldSeed};

    #[test]
    fn the_shell_has_one_secret_door_and_95_dark_grids() {
        let mut rng = WorldSeed(4).stream(StreamPurpose::new("nest"));
        let mut guards = ();
        let mut b = Builder::new(&mut rng, &mut guards, 3, false);
        b.monster_level = 5;
        let c = Pos::new(16, 82);
        let room = nest_or_pit(&mut b, c, true);
        assert_eq!(room.kind, RoomChoice::Pit);
        assert!(!room.lit);
        assert_eq!(b.monster_level, 3);
        // The layout alone draws no races: the room adds no rating and is not special,
        // though at depth 3 the special test (`randint(10) < 300`) always passes.
        assert_eq!(b.room_rating, 0);
        assert!(!b.special_feeling);
        let grids: Vec<Pos> = monster_grids(c).collect();
        assert_eq!(grids.len(), 95);
        assert!(grids.iter().all(|&g| b.cave.terrain(g) == terrain::FLOOR));
        assert!(
            grids
                .iter()
                .all(|&g| !b.cave.has(g, flag::GLOW | flag::ICKY))
        );
        let doors = (c.y - 3..=c.y + 3)
            .flat_map(|y| (c.x - 10..=c.x + 10).map(move |x| Pos::new(y, x)))
            .filter(|&g| b.cave.terrain(g) == terrain::SECRET_DOOR)
            .count();
        assert_eq!(doors, 1);
    }

    /// A den whose races were all drawn adds 10 to the rating (source notes 2.2), is filled once, and at
    /// depth 3 (`randint(10) < 300`) always makes the level special.
    #[test]
    fn a_drawn_den_adds_ten_and_is_filled() {
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("nest"));
        let mut drawn = HostLog {
            dens_drawn: true,
            ..HostLog::default()
        };
        let mut b = Builder::new(&mut rng, &mut drawn, 3, false);
        nest_or_pit(&mut b, Pos::new(16, 82), false);
        assert_eq!(b.room_rating, 10);
        assert!(b.special_feeling);
        assert_eq!(drawn.fills, 1);
    }
}
