//! The level under construction, as the room builders share it: the cave, the random
//! stream, the host's guards, and the level-wide state rooms change (the monster level,
//! the objects and stairs they leave). Also the small helpers the original's cross and
//! large rooms use to furnish their inner rooms: guards, traps, objects and stairs near
//! a spot.

use denizen_core::Generator;

use super::stairs;
use crate::cave::{Cave, Pos, flag, terrain};
use crate::rng::{magik, rand0, spread_grid};

/// Places the monsters rooms hold as the rooms are built, so their draws fall where the
/// original's do: the inner-room guards of cross and large rooms (`vault_monsters`), a
/// nest's or pit's 16 races and then its 95 grids, and a vault's monsters.
pub trait Inhabit {
    /// Places one sleeping monster (with its group) on the empty grid `at`, drawn at
    /// monster level `level`: an inner-room guard.
    fn guard(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32);

    /// Rolls the kind of the nest (`pit == false`) or pit centred on `centre` at `depth`
    /// and its 16 races; true when every draw found a race. The races wait for
    /// [`fill_den`](Self::fill_den).
    fn draw_den(&mut self, rng: &mut Generator, centre: Pos, pit: bool, depth: i32) -> bool;

    /// Fills the 5 x 19 inner room centred on `centre` with the races of the last
    /// successful [`draw_den`](Self::draw_den).
    fn fill_den(&mut self, cave: &mut Cave, rng: &mut Generator, centre: Pos);

    /// Places one sleeping monster (with its group or escort) of a vault on `at`, drawn
    /// at monster level `level`.
    fn vault_monster(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32);
}

/// The layout alone (tests, tools): places nothing, and leaves nests and pits empty.
impl Inhabit for () {
    fn guard(&mut self, _cave: &mut Cave, _rng: &mut Generator, _at: Pos, _level: i32) {}

    fn draw_den(&mut self, _: &mut Generator, _: Pos, _: bool, _: i32) -> bool {
        false
    }

    fn fill_den(&mut self, _cave: &mut Cave, _rng: &mut Generator, _centre: Pos) {}

    fn vault_monster(&mut self, _cave: &mut Cave, _rng: &mut Generator, _at: Pos, _level: i32) {}
}

/// The host of the builders' own tests: records the guards asked for and the dens
/// filled, places nothing, and draws every den when `dens_drawn` says so.
#[cfg(test)]
#[derive(Default)]
pub(crate) struct HostLog {
    /// Where guards were asked for, in order.
    pub(crate) guards: Vec<Pos>,
    /// What [`Inhabit::draw_den`] answers.
    pub(crate) dens_drawn: bool,
    /// Dens filled.
    pub(crate) fills: u32,
}

#[cfg(test)]
impl Inhabit for HostLog {
    fn guard(&mut self, _: &mut Cave, _: &mut Generator, at: Pos, _: i32) {
        self.guards.push(at);
    }

    fn draw_den(&mut self, _: &mut Generator, _: Pos, _: bool, _: i32) -> bool {
        self.dens_drawn
    }

    fn fill_den(&mut self, _: &mut Cave, _: &mut Generator, _: Pos) {
        self.fills += 1;
    }

    fn vault_monster(&mut self, _: &mut Cave, _: &mut Generator, _: Pos, _: i32) {}
}

/// An object a room put on the level: the host makes it. The level is the object level
/// it is made at; `good` and `great` ask for the better kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectSpot {
    /// Its grid.
    pub at: Pos,
    /// The object level.
    pub level: i32,
    /// Gold rather than an object.
    pub gold: bool,
    /// A good object (a vault's `9` and `8`).
    pub good: bool,
    /// A great object (a vault's `8`).
    pub great: bool,
}

/// How many times a spot near a centre is drawn again while it falls off the map. The
/// original redraws without a limit; its centres are far enough inside that a second
/// draw is already rare.
const REDRAW_CAP: u32 = 1_000;

/// The level while rooms are built.
pub(crate) struct Builder<'a, G: Inhabit> {
    pub(crate) cave: Cave,
    pub(crate) rng: &'a mut Generator,
    pub(crate) inhabitants: &'a mut G,
    /// The dungeon depth (at least 1).
    pub(crate) depth: i32,
    /// A quest level: random stairs go up.
    pub(crate) quest: bool,
    /// The level the base population will be drawn at (source notes 7).
    pub(crate) monster_level: i32,
    /// Objects and gold rooms placed, in placement order.
    pub(crate) objects: Vec<ObjectSpot>,
    /// The rating rooms add: 10 for a filled nest or pit, a vault's template rating.
    pub(crate) room_rating: i32,
    /// Staircases rooms made.
    pub(crate) room_stairs: Vec<Pos>,
    /// A nest, pit or vault set the "special" level feeling.
    pub(crate) special_feeling: bool,
}

impl<'a, G: Inhabit> Builder<'a, G> {
    pub(crate) fn new(
        rng: &'a mut Generator,
        inhabitants: &'a mut G,
        depth: i32,
        quest: bool,
    ) -> Self {
        Self {
            cave: Cave::new(),
            rng,
            inhabitants,
            depth,
            quest,
            monster_level: depth,
            objects: Vec::new(),
            room_rating: 0,
            room_stairs: Vec::new(),
            special_feeling: false,
        }
    }

    /// Floor with `flags` over a rectangle, inclusive.
    pub(crate) fn floor_rect(&mut self, top_left: Pos, bottom_right: Pos, flags: u8) {
        self.cave
            .fill_terrain(top_left, bottom_right, terrain::FLOOR);
        self.cave.add_flags_in(top_left, bottom_right, flags);
    }

    /// The ring of a rectangle, inclusive, set to `code` (flags kept).
    pub(crate) fn ring(&mut self, top_left: Pos, bottom_right: Pos, code: u8) {
        for y in top_left.y..=bottom_right.y {
            self.cave.set_terrain(Pos::new(y, top_left.x), code);
            self.cave.set_terrain(Pos::new(y, bottom_right.x), code);
        }
        for x in top_left.x..=bottom_right.x {
            self.cave.set_terrain(Pos::new(top_left.y, x), code);
            self.cave.set_terrain(Pos::new(bottom_right.y, x), code);
        }
    }

    /// A filled rectangle of `code`, inclusive (flags kept).
    pub(crate) fn block(&mut self, top_left: Pos, bottom_right: Pos, code: u8) {
        self.cave.fill_terrain(top_left, bottom_right, code);
    }

    /// `vault_monsters`: for each of `n` guards, 9 tries at a grid of the 3 x 3 round
    /// `c`; every empty grid hit gets a guard (there is no stop after a success). A hit
    /// sets the monster level to depth + 2 and leaves it there, the original's slip
    /// (source notes 7); a call whose tries all miss leaves it alone, as in 2.7.9.
    pub(crate) fn guards_near(&mut self, c: Pos, n: i32) {
        let level = self.depth.saturating_add(2);
        for _ in 0..n {
            for _ in 0..9 {
                let at = spread_grid(self.rng, c, 1, 1);
                if Cave::on_map(at) && self.cave.is_empty(at) {
                    self.monster_level = level;
                    self.inhabitants.guard(&mut self.cave, self.rng, at, level);
                }
            }
        }
    }

    /// A spot within `yd` rows and `xd` columns of `c`, drawn again while it is not
    /// inside the map (`None` only past the redraw cap).
    fn spot_near(&mut self, c: Pos, yd: i32, xd: i32) -> Option<Pos> {
        for _ in 0..REDRAW_CAP {
            let at = spread_grid(self.rng, c, yd, xd);
            if Cave::inside(at) {
                return Some(at);
            }
        }
        None
    }

    /// `vault_traps`: for each of `n` traps, up to 6 tries near `c`; the first naked
    /// floor gets a hidden trap.
    pub(crate) fn traps_near(&mut self, c: Pos, yd: i32, xd: i32, n: i32) {
        for _ in 0..n {
            for _ in 0..6 {
                let Some(at) = self.spot_near(c, yd, xd) else {
                    break;
                };
                if self.cave.is_naked(at) {
                    self.place_trap(at);
                    break;
                }
            }
        }
    }

    /// `vault_objects`: for each of `n`, up to 11 tries within 2 rows and 3 columns of
    /// `c`; the first clean floor gets an object (75%) or gold.
    pub(crate) fn objects_near(&mut self, c: Pos, n: i32) {
        for _ in 0..n {
            for _ in 0..11 {
                let Some(at) = self.spot_near(c, 2, 3) else {
                    break;
                };
                if !self.is_clean(at) {
                    continue;
                }
                if magik(self.rng, 75) {
                    self.place_object(at);
                } else {
                    self.place_gold(at);
                }
                break;
            }
        }
    }

    /// Plain floor with no object (monsters allowed): where objects and room stairs go.
    fn is_clean(&self, at: Pos) -> bool {
        self.cave.terrain(at) == terrain::FLOOR && !self.cave.has_object(at)
    }

    /// `place_object`: records an object of the depth on a clean floor (the host makes
    /// the object).
    pub(crate) fn place_object(&mut self, at: Pos) {
        self.place_object_at(at, self.depth, false, false);
    }

    /// Records an object of object level `level` on a clean floor.
    pub(crate) fn place_object_at(&mut self, at: Pos, level: i32, good: bool, great: bool) {
        self.record_object(ObjectSpot {
            at,
            level,
            gold: false,
            good,
            great,
        });
    }

    /// `place_gold`: records gold on a clean floor.
    fn place_gold(&mut self, at: Pos) {
        self.record_object(ObjectSpot {
            at,
            level: self.depth,
            gold: true,
            good: false,
            great: false,
        });
    }

    fn record_object(&mut self, spot: ObjectSpot) {
        if self.is_clean(spot.at) {
            self.cave.set_object(spot.at);
            self.objects.push(spot);
        }
    }

    /// `place_trap`: a hidden trap on a naked floor.
    pub(crate) fn place_trap(&mut self, at: Pos) {
        if self.cave.is_naked(at) {
            self.cave.set_terrain(at, terrain::TRAP);
        }
    }

    /// `place_random_stairs`: on a clean floor, up stairs on quest levels and at depth
    /// 127 and deeper, otherwise down or up at even odds.
    pub(crate) fn place_random_stairs(&mut self, at: Pos) {
        if !self.is_clean(at) {
            return;
        }
        let code = if stairs::all_up(self.depth, self.quest) || rand0(self.rng, 100) >= 50 {
            terrain::UP_STAIRS
        } else {
            terrain::DOWN_STAIRS
        };
        self.cave.set_terrain(at, code);
        self.room_stairs.push(at);
    }

    /// Flags of a room of types 1-4: room, plus light if lit.
    pub(crate) fn room_flags(lit: bool) -> u8 {
        if lit {
            flag::ROOM | flag::GLOW
        } else {
            flag::ROOM
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

    /// A vault's object near a spot is an object 75 times in 100 and gold otherwise
    /// (`rand0(100) < 75`); 76 in 100, the roll's tie counted the other way, is rejected.
    #[test]
    fn objects_near_are_three_objects_to_one_gold() {
        let mut rng = WorldSeed(10).stream(StreamPurpose::new("objects"));
        let mut layout_alone = ();
        let mut b = Builder::new(&mut rng, &mut layout_alone, 5, false);
        let c = Pos::new(30, 90);
        b.floor_rect(Pos::new(c.y - 2, c.x - 3), Pos::new(c.y + 2, c.x + 3), 0);
        // objects, gold
        let mut counts = [0u64; 2];
        for _ in 0..200_000 {
            b.objects_near(c, 1);
            let spot = b.objects.pop().expect("the floor round the spot is clean");
            b.cave.clear_object(spot.at);
            counts[usize::from(spot.gold)] += 1;
        }
        let p = ChiSquared::against(&counts, [0.75, 0.25]).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
        let p = ChiSquared::against(&counts, [0.76, 0.24]).p_value();
        assert!(p < 1e-6, "{counts:?} p = {p}");
    }
}
