//! The level under construction, as the room builders share it: the cave, the random
//! stream, the host's guards, and the level-wide state rooms change (the monster level,
//! the objects and stairs they leave). Also the small helpers the original's cross and
//! large rooms use to furnish their inner rooms: guards, traps, objects and stairs near
//! a spot.

use denizen_core::Generator;

use super::stairs;
use crate::cave::{Cave, Pos, flag, terrain};
use crate::rng::{rand_spread, rand0};

/// Places the inner-room guards of cross and large rooms (the original's
/// `vault_monsters`) as the rooms are built, so their draws fall where the original's do.
pub trait Guards {
    /// Places one sleeping monster (with its group) on the empty grid `at`, drawn at
    /// monster level `level`.
    fn guard(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32);
}

/// The layout alone (tests, tools): places nothing.
impl Guards for () {
    fn guard(&mut self, _cave: &mut Cave, _rng: &mut Generator, _at: Pos, _level: i32) {}
}

/// How many times a spot near a centre is drawn again while it falls off the map. The
/// original redraws without a limit; its centres are far enough inside that a second
/// draw is already rare.
const REDRAW_CAP: u32 = 1_000;

/// The level while rooms are built.
pub(crate) struct Builder<'a, G: Guards> {
    pub(crate) cave: Cave,
    pub(crate) rng: &'a mut Generator,
    pub(crate) guards: &'a mut G,
    /// The dungeon depth (at least 1).
    pub(crate) depth: i32,
    /// A quest level: random stairs go up.
    pub(crate) quest: bool,
    /// The level the base population will be drawn at (source notes 7).
    pub(crate) monster_level: i32,
    /// Squares that received an object or gold, in placement order.
    pub(crate) objects: Vec<Pos>,
    /// The subset of `objects` that is gold.
    pub(crate) gold: Vec<Pos>,
    /// Staircases rooms made.
    pub(crate) room_stairs: Vec<Pos>,
    /// A vault set the "special" level feeling.
    pub(crate) special_feeling: bool,
}

impl<'a, G: Guards> Builder<'a, G> {
    pub(crate) fn new(rng: &'a mut Generator, guards: &'a mut G, depth: i32, quest: bool) -> Self {
        Self {
            cave: Cave::new(),
            rng,
            guards,
            depth,
            quest,
            monster_level: depth,
            objects: Vec::new(),
            gold: Vec::new(),
            room_stairs: Vec::new(),
            special_feeling: false,
        }
    }

    /// Floor with `flags` over a rectangle, inclusive.
    pub(crate) fn floor_rect(&mut self, top_left: Pos, bottom_right: Pos, flags: u8) {
        for y in top_left.y..=bottom_right.y {
            for x in top_left.x..=bottom_right.x {
                let at = Pos::new(y, x);
                self.cave.set_terrain(at, terrain::FLOOR);
                self.cave.add_flags(at, flags);
            }
        }
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
        for y in top_left.y..=bottom_right.y {
            for x in top_left.x..=bottom_right.x {
                self.cave.set_terrain(Pos::new(y, x), code);
            }
        }
    }

    /// `vault_monsters`: for each of `n` guards, 9 tries at a grid of the 3 x 3 round
    /// `c`; every empty grid hit gets a guard (there is no stop after a success). A hit
    /// sets the monster level to depth + 2 and leaves it there, the original's slip
    /// (source notes 7); a call whose tries all miss leaves it alone, as in 2.7.9.
    pub(crate) fn guards_near(&mut self, c: Pos, n: i32) {
        let level = self.depth.saturating_add(2);
        for _ in 0..n {
            for _ in 0..9 {
                let at = Pos::new(rand_spread(self.rng, c.y, 1), rand_spread(self.rng, c.x, 1));
                if Cave::on_map(at) && self.cave.is_empty(at) {
                    self.monster_level = level;
                    self.guards.guard(&mut self.cave, self.rng, at, level);
                }
            }
        }
    }

    /// A spot within `yd` rows and `xd` columns of `c`, drawn again while it is not
    /// inside the map (`None` only past the redraw cap).
    fn spot_near(&mut self, c: Pos, yd: i32, xd: i32) -> Option<Pos> {
        for _ in 0..REDRAW_CAP {
            let at = Pos::new(
                rand_spread(self.rng, c.y, yd),
                rand_spread(self.rng, c.x, xd),
            );
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
                if rand0(self.rng, 100) < 75 {
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

    /// `place_object`: records an object on a clean floor (the host makes the object).
    pub(crate) fn place_object(&mut self, at: Pos) {
        if self.is_clean(at) {
            self.cave.set_object(at);
            self.objects.push(at);
        }
    }

    /// `place_gold`: records gold on a clean floor.
    fn place_gold(&mut self, at: Pos) {
        if self.is_clean(at) {
            self.cave.set_object(at);
            self.objects.push(at);
            self.gold.push(at);
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
