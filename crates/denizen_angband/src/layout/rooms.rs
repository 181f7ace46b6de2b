//! The ordinary rooms, types 1-4 (notes 2.1-2.4): simple rectangles (some with pillars
//! or ragged edges), two overlapping rectangles, crosses with a decorated centre, and
//! large rooms holding an inner room, treasure vault, pillars, checkerboard or four
//! compartments. Each is drawn round its centre, first as floor with the room flags over
//! the whole rectangle, then with an outer-granite ring that tunnels may pierce.

use super::builder::{Builder, Inhabit};
use super::choice::LIGHT_DIE;
use super::doors::{locked_door, secret_door};
use crate::cave::{BuiltRoom, Pos, terrain};
use crate::rng::{rand_range, rand0, randint};
use denizen_core::{Generator, RoomKind};

/// Rolls whether a room of types 1-4 is lit: `depth <= randint(25)`.
fn roll_lit<G: Inhabit>(b: &mut Builder<'_, G>) -> bool {
    b.depth <= randint(b.rng, LIGHT_DIE)
}

/// A rectangle's interior, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    top: i32,
    left: i32,
    bottom: i32,
    right: i32,
}

impl Rect {
    fn top_left(self) -> Pos {
        Pos::new(self.top, self.left)
    }

    fn bottom_right(self) -> Pos {
        Pos::new(self.bottom, self.right)
    }

    /// The rectangle one grid larger on every side: the wall ring's outline.
    fn walls(self) -> (Pos, Pos) {
        (
            Pos::new(self.top - 1, self.left - 1),
            Pos::new(self.bottom + 1, self.right + 1),
        )
    }
}

/// The record of a room whose walls are the union of some rectangles' rings.
fn record(kind: RoomKind, centre: Pos, parts: &[Rect], lit: bool) -> BuiltRoom {
    let top = parts.iter().map(|r| r.top).min().unwrap_or(centre.y) - 1;
    let left = parts.iter().map(|r| r.left).min().unwrap_or(centre.x) - 1;
    let bottom = parts.iter().map(|r| r.bottom).max().unwrap_or(centre.y) + 1;
    let right = parts.iter().map(|r| r.right).max().unwrap_or(centre.x) + 1;
    BuiltRoom {
        kind,
        centre,
        top_left: Pos::new(top, left),
        bottom_right: Pos::new(bottom, right),
        lit,
    }
}

/// Rectangles joined into one room: floor and flags over each with its ring, then every
/// ring outer granite, then every interior floor again, so the room is the union of the
/// interiors inside whatever rings lie outside them all (types 2 and 3).
fn union<G: Inhabit>(b: &mut Builder<'_, G>, parts: &[Rect], lit: bool) {
    let flags = Builder::<G>::room_flags(lit);
    for r in parts {
        let (tl, br) = r.walls();
        b.floor_rect(tl, br, flags);
    }
    for r in parts {
        let (tl, br) = r.walls();
        b.ring(tl, br, terrain::OUTER_GRANITE);
    }
    for r in parts {
        b.block(r.top_left(), r.bottom_right(), terrain::FLOOR);
    }
}

/// The interior of a simple room: 4 rows up and 3 down at most, 11 columns either way.
fn simple_rect(rng: &mut Generator, c: Pos) -> Rect {
    let top = c.y - randint(rng, 4);
    let bottom = c.y + randint(rng, 3);
    let left = c.x - randint(rng, 11);
    let right = c.x + randint(rng, 11);
    Rect {
        top,
        left,
        bottom,
        right,
    }
}

/// Type 1: a rectangle, plain (93.1%), with pillars on every other grid (5%) or with
/// ragged edges (1.9%).
pub(crate) fn simple<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos) -> BuiltRoom {
    let lit = roll_lit(b);
    let r = simple_rect(b.rng, c);
    union(b, &[r], lit);
    if rand0(b.rng, 20) == 0 {
        for y in (r.top..=r.bottom).step_by(2) {
            for x in (r.left..=r.right).step_by(2) {
                b.cave.set_terrain(Pos::new(y, x), terrain::INNER_GRANITE);
            }
        }
    } else if rand0(b.rng, 50) == 0 {
        for y in (r.top + 2..=r.bottom - 2).step_by(2) {
            b.cave
                .set_terrain(Pos::new(y, r.left), terrain::INNER_GRANITE);
            b.cave
                .set_terrain(Pos::new(y, r.right), terrain::INNER_GRANITE);
        }
        for x in (r.left + 2..=r.right - 2).step_by(2) {
            b.cave
                .set_terrain(Pos::new(r.top, x), terrain::INNER_GRANITE);
            b.cave
                .set_terrain(Pos::new(r.bottom, x), terrain::INNER_GRANITE);
        }
    }
    record(RoomKind::Ordinary, c, &[r], lit)
}

/// Type 2: two rectangles that both hold the centre, one leaning north-west, the other
/// south-east.
pub(crate) fn overlap<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos) -> BuiltRoom {
    let lit = roll_lit(b);
    let rng = &mut *b.rng;
    let a = Rect {
        top: c.y - randint(rng, 4),
        bottom: c.y + randint(rng, 3),
        left: c.x - randint(rng, 11),
        right: c.x + randint(rng, 10),
    };
    let second = Rect {
        top: c.y - randint(rng, 3),
        bottom: c.y + randint(rng, 4),
        left: c.x - randint(rng, 10),
        right: c.x + randint(rng, 11),
    };
    union(b, &[a, second], lit);
    record(RoomKind::Overlapping, c, &[a, second], lit)
}

/// What a cross room has at its centre (notes 2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CrossCentre {
    /// Nothing (35 in 108).
    Plain,
    /// The centre 3 x 3 is inner granite (27).
    SolidPillar,
    /// A walled centre with a secret door, an object, guards and traps (27).
    TreasureVault,
    /// The arms meet through one-grid gaps, each with a secret door (3).
    PinchWithDoors,
    /// The arms meet through open one-grid gaps (6).
    Pinch,
    /// A plus of inner granite at the centre (6).
    Plus,
    /// One pillar at the centre (4).
    Pillar,
}

/// Rolls a cross room's centre: `rand0(4)`, and for 3 up to three `rand0(3)`.
pub(crate) fn roll_cross_centre(rng: &mut Generator) -> CrossCentre {
    match rand0(rng, 4) {
        1 => CrossCentre::SolidPillar,
        2 => CrossCentre::TreasureVault,
        3 => {
            if rand0(rng, 3) == 0 {
                if rand0(rng, 3) == 0 {
                    CrossCentre::PinchWithDoors
                } else {
                    CrossCentre::Pinch
                }
            } else if rand0(rng, 3) == 0 {
                CrossCentre::Plus
            } else if rand0(rng, 3) == 0 {
                CrossCentre::Pillar
            } else {
                CrossCentre::Plain
            }
        }
        _ => CrossCentre::Plain,
    }
}

/// The 8 grids round `c`.
fn around(c: Pos) -> impl Iterator<Item = Pos> {
    (-1..=1)
        .flat_map(move |dy| (-1..=1).map(move |dx| Pos::new(c.y + dy, c.x + dx)))
        .filter(move |&at| at != c)
}

/// Type 3: a vertical arm 7 or 9 rows tall and a horizontal arm 7 to 23 columns wide,
/// both 3 wide, with a decorated centre.
pub(crate) fn cross<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos) -> BuiltRoom {
    let lit = roll_lit(b);
    let dy = rand_range(b.rng, 3, 4);
    let dx = rand_range(b.rng, 3, 11);
    let vertical = Rect {
        top: c.y - dy,
        bottom: c.y + dy,
        left: c.x - 1,
        right: c.x + 1,
    };
    let horizontal = Rect {
        top: c.y - 1,
        bottom: c.y + 1,
        left: c.x - dx,
        right: c.x + dx,
    };
    union(b, &[vertical, horizontal], lit);
    let at = |dy: i32, dx: i32| Pos::new(c.y + dy, c.x + dx);
    match roll_cross_centre(b.rng) {
        CrossCentre::Plain => {}
        CrossCentre::SolidPillar => b.block(at(-1, -1), at(1, 1), terrain::INNER_GRANITE),
        CrossCentre::TreasureVault => {
            for g in around(c) {
                b.cave.set_terrain(g, terrain::INNER_GRANITE);
            }
            let door = match rand0(b.rng, 4) {
                0 => at(-1, 0),
                1 => at(1, 0),
                2 => at(0, -1),
                _ => at(0, 1),
            };
            secret_door(&mut b.cave, door);
            b.place_object(c);
            let guards = 3 + rand0(b.rng, 2);
            b.guards_near(c, guards);
            let traps = 2 + rand0(b.rng, 3);
            b.traps_near(c, 4, 4, traps);
        }
        centre @ (CrossCentre::Pinch | CrossCentre::PinchWithDoors) => {
            for (y, x) in [
                (-1, -2),
                (1, -2),
                (-1, 2),
                (1, 2),
                (-2, -1),
                (-2, 1),
                (2, -1),
                (2, 1),
            ] {
                b.cave.set_terrain(at(y, x), terrain::INNER_GRANITE);
            }
            // The doors were decided by the centre's roll (one draw, as in 2.7.9).
            if matches!(centre, CrossCentre::PinchWithDoors) {
                for (y, x) in [(0, -2), (0, 2), (-2, 0), (2, 0)] {
                    secret_door(&mut b.cave, at(y, x));
                }
            }
        }
        CrossCentre::Plus => {
            for (y, x) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                b.cave.set_terrain(at(y, x), terrain::INNER_GRANITE);
            }
        }
        CrossCentre::Pillar => b.cave.set_terrain(c, terrain::INNER_GRANITE),
    }
    record(RoomKind::Cross, c, &[vertical, horizontal], lit)
}

/// The usual secret door of an inner room: the middle of one side of its wall, by
/// `randint(4)`.
pub(crate) fn inner_room_door<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos) {
    let door = match randint(b.rng, 4) {
        1 => Pos::new(c.y - 3, c.x),
        2 => Pos::new(c.y + 3, c.x),
        3 => Pos::new(c.y, c.x - 10),
        _ => Pos::new(c.y, c.x + 10),
    };
    secret_door(&mut b.cave, door);
}

/// The shell of a large room, a nest and a pit: an 11 x 25 box with an outer-granite
/// ring round a 9 x 23 floor, and an inner-granite wall (7 x 21) round the 5 x 19 inner
/// room. Returns the record.
pub(crate) fn large_shell<G: Inhabit>(
    b: &mut Builder<'_, G>,
    c: Pos,
    kind: RoomKind,
    lit: bool,
) -> BuiltRoom {
    let outer = Rect {
        top: c.y - 4,
        bottom: c.y + 4,
        left: c.x - 11,
        right: c.x + 11,
    };
    let (tl, br) = outer.walls();
    b.floor_rect(tl, br, Builder::<G>::room_flags(lit));
    b.ring(tl, br, terrain::OUTER_GRANITE);
    b.ring(
        Pos::new(c.y - 3, c.x - 10),
        Pos::new(c.y + 3, c.x + 10),
        terrain::INNER_GRANITE,
    );
    record(kind, c, &[outer], lit)
}

/// Type 4: a large room with an inner room, in one of five variants (`randint(5)`).
pub(crate) fn large<G: Inhabit>(b: &mut Builder<'_, G>, c: Pos) -> BuiltRoom {
    let lit = roll_lit(b);
    let room = large_shell(b, c, RoomKind::Inner, lit);
    let at = |dy: i32, dx: i32| Pos::new(c.y + dy, c.x + dx);
    match randint(b.rng, 5) {
        1 => {
            inner_room_door(b, c);
            b.guards_near(c, 1);
        }
        2 => {
            inner_room_door(b, c);
            for g in around(c) {
                b.cave.set_terrain(g, terrain::INNER_GRANITE);
            }
            let door = match randint(b.rng, 4) {
                1 => at(-1, 0),
                2 => at(1, 0),
                3 => at(0, -1),
                _ => at(0, 1),
            };
            locked_door(&mut b.cave, b.rng, door);
            let guards = randint(b.rng, 3) + 2;
            b.guards_near(c, guards);
            if rand0(b.rng, 100) < 80 {
                b.place_object(c);
            } else {
                b.place_random_stairs(c);
            }
            let traps = 2 + randint(b.rng, 3);
            b.traps_near(c, 4, 10, traps);
        }
        3 => {
            inner_room_door(b, c);
            b.block(at(-1, -1), at(1, 1), terrain::INNER_GRANITE);
            if rand0(b.rng, 2) == 0 {
                let t = randint(b.rng, 2);
                b.block(at(-1, -5 - t), at(1, -3 - t), terrain::INNER_GRANITE);
                b.block(at(-1, 3 + t), at(1, 5 + t), terrain::INNER_GRANITE);
            }
            if rand0(b.rng, 3) == 0 {
                for x in -5..=5 {
                    b.cave.set_terrain(at(-1, x), terrain::INNER_GRANITE);
                    b.cave.set_terrain(at(1, x), terrain::INNER_GRANITE);
                }
                b.cave.set_terrain(at(0, -5), terrain::INNER_GRANITE);
                b.cave.set_terrain(at(0, 5), terrain::INNER_GRANITE);
                let left = -3 + 2 * randint(b.rng, 2);
                secret_door(&mut b.cave, at(left, -3));
                let right = -3 + 2 * randint(b.rng, 2);
                secret_door(&mut b.cave, at(right, 3));
                let n = randint(b.rng, 2);
                b.guards_near(at(0, -2), n);
                let n = randint(b.rng, 2);
                b.guards_near(at(0, 2), n);
                if rand0(b.rng, 3) == 0 {
                    b.place_object(at(0, -2));
                }
                if rand0(b.rng, 3) == 0 {
                    b.place_object(at(0, 2));
                }
            }
        }
        4 => {
            inner_room_door(b, c);
            for y in c.y - 2..=c.y + 2 {
                for x in c.x - 9..=c.x + 9 {
                    if (x + y) % 2 != 0 {
                        b.cave.set_terrain(Pos::new(y, x), terrain::INNER_GRANITE);
                    }
                }
            }
            let n = randint(b.rng, 3);
            b.guards_near(at(0, -5), n);
            let n = randint(b.rng, 3);
            b.guards_near(at(0, 5), n);
            let n = randint(b.rng, 3);
            b.traps_near(at(0, -3), 2, 8, n);
            let n = randint(b.rng, 3);
            b.traps_near(at(0, 3), 2, 8, n);
            b.objects_near(c, 3);
        }
        _ => {
            b.block(at(-2, 0), at(2, 0), terrain::INNER_GRANITE);
            b.block(at(0, -9), at(0, 9), terrain::INNER_GRANITE);
            if rand0(b.rng, 100) < 50 {
                let i = randint(b.rng, 10);
                for door in [at(-3, -i), at(-3, i), at(3, -i), at(3, i)] {
                    secret_door(&mut b.cave, door);
                }
            } else {
                let i = randint(b.rng, 3);
                for door in [at(i, -10), at(-i, -10), at(i, 10), at(-i, 10)] {
                    secret_door(&mut b.cave, door);
                }
            }
            let n = 2 + randint(b.rng, 2);
            b.objects_near(c, n);
            for spot in [at(1, -4), at(1, 4), at(-1, -4), at(-1, 4)] {
                let n = randint(b.rng, 4);
                b.guards_near(spot, n);
            }
        }
    }
    room
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::flag;
    use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

    fn rng(seed: u64) -> Generator {
        WorldSeed(seed).stream(StreamPurpose::new("rooms"))
    }

    #[test]
    fn cross_centres_follow_the_108ths() {
        let mut rng = rng(2);
        let order = [
            CrossCentre::Plain,
            CrossCentre::SolidPillar,
            CrossCentre::TreasureVault,
            CrossCentre::PinchWithDoors,
            CrossCentre::Pinch,
            CrossCentre::Plus,
            CrossCentre::Pillar,
        ];
        let mut counts = [0u64; 7];
        for _ in 0..108_000 {
            let v = roll_cross_centre(&mut rng);
            counts[order.iter().position(|&o| o == v).unwrap()] += 1;
        }
        let odds = [35.0, 27.0, 27.0, 3.0, 6.0, 6.0, 4.0].map(|n| n / 108.0);
        let p = ChiSquared::against(&counts, odds).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
    }

    #[test]
    fn a_large_room_is_eleven_by_twenty_five() {
        for seed in 0..40 {
            let mut rng = rng(seed);
            let mut guards = ();
            let mut b = Builder::new(&mut rng, &mut guards, 30, false);
            let c = Pos::new(27, 49);
            let room = large(&mut b, c);
            assert_eq!(room.top_left, Pos::new(22, 37));
            assert_eq!(room.bottom_right, Pos::new(32, 61));
            assert!(!room.lit, "never lit deeper than 25");
            for y in 22..=32 {
                for x in 37..=61 {
                    let at = Pos::new(y, x);
                    assert!(b.cave.has(at, flag::ROOM));
                    let ring = y == 22 || y == 32 || x == 37 || x == 61;
                    if ring {
                        assert_eq!(b.cave.terrain(at), terrain::OUTER_GRANITE);
                    } else if y == 23 || y == 31 || x == 38 || x == 60 {
                        let t = b.cave.terrain(at);
                        assert!(
                            t == terrain::FLOOR || t == terrain::TRAP,
                            "the corridor {at:?}"
                        );
                    }
                }
            }
            assert_eq!(b.cave.terrain(Pos::new(21, 49)), terrain::GRANITE);
        }
    }
}
