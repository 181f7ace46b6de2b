//! A level's monsters: the base population of `14 + randint(8) + k` sleeping monsters, the
//! inner-room guards, `FRIENDS` groups and escorts, each with its hit points, speed,
//! energy and sleep, and the out-of-depth rating they add (source notes 1.5 and 8).

use denizen_core::Generator;
use serde::{Deserialize, Serialize};

use crate::alloc::{Allocator, DrawRequest, RaceFilter, UniqueLedger};
use crate::cave::{Cave, DIRECTIONS, HEIGHT, Pos, WIDTH, flag};
use crate::den::{self, DenKind};
use crate::flags::RaceFlags;
use crate::layout::Inhabit;
use crate::layout::nest::monster_grids;
use crate::race::{Race, RaceId};
use crate::rng::{grid_in, rand_spread, rand0, randint, spread_grid};

/// The most monsters a level holds (2.7.9's 512-slot monster list, slot 0 unused):
/// further placements are refused, and a level whose list filled is made again
/// ([`keep_classic_level`](crate::request::keep_classic_level)), as 2.7.9 does.
pub const MAX_MONSTERS: usize = 511;
/// The largest `FRIENDS` group (2.7.9's `GROUP_MAX`).
pub const GROUP_MAX: i32 = 32;
/// How many random grids the base population tries per monster before taking the first
/// naked floor in row order (2.7.9 tries for ever, which only matters on a full level).
pub const MAX_SPOT_TRIES: u32 = 1_000_000;
/// How many grids an escort leader tries around itself (each try that finds an empty
/// grid places one escort).
pub const ESCORT_TRIES: u32 = 50;

/// Energy gained per game turn at each raw speed, 0 to 199 (2.7.9's `extract_energy`,
/// `tables.c`): 1 up to speed 69, slow steps up to 9 at 109, one per speed point from 10
/// at normal speed (110) to 29 at 129, then flattening to 49 from 170.
const ENERGY: [u8; 200] = [
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 0
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 10
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 20
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 30
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 40
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 50
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // 60
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, // 70
    2, 2, 2, 2, 2, 2, 2, 3, 3, 3, // 80
    3, 3, 3, 3, 3, 4, 4, 4, 4, 4, // 90
    5, 5, 5, 5, 6, 6, 7, 7, 8, 9, // 100
    10, 11, 12, 13, 14, 15, 16, 17, 18, 19, // 110
    20, 21, 22, 23, 24, 25, 26, 27, 28, 29, // 120
    30, 31, 32, 33, 34, 35, 36, 36, 37, 37, // 130
    38, 38, 39, 39, 40, 40, 40, 41, 41, 41, // 140
    42, 42, 42, 43, 43, 43, 44, 44, 44, 44, // 150
    45, 45, 45, 45, 45, 46, 46, 46, 46, 46, // 160
    47, 47, 47, 47, 47, 48, 48, 48, 48, 48, // 170
    49, 49, 49, 49, 49, 49, 49, 49, 49, 49, // 180
    49, 49, 49, 49, 49, 49, 49, 49, 49, 49, // 190
];

/// Energy gained per game turn at a raw speed (49 beyond the table, as at 199).
pub fn energy_per_turn(speed: u8) -> i32 {
    i32::from(ENERGY.get(usize::from(speed)).copied().unwrap_or(49))
}

/// How a monster came to be on the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Placement {
    /// One of the base population's draws.
    Population,
    /// A guard of a cross or large room's inner room.
    Guard,
    /// A follower of a `FRIENDS` group.
    Group,
    /// An escort of an `ESCORT` leader.
    Escort,
    /// One of a nest's monsters (awake, no group).
    Nest,
    /// One of a pit's monsters (awake, no group).
    Pit,
    /// One of a vault's monsters (asleep, with its group or escort).
    Vault,
    /// Called by a summoning rune (awake, with its group or escort).
    Summoned,
}

/// A nest or pit as its builder left it: where, which kind, and the races drawn (none
/// when a draw failed and the room stayed empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DenRecord {
    /// The room's centre.
    pub centre: Pos,
    /// What it holds.
    pub kind: DenKind,
    /// The 16 races in draw order, or none for an empty room.
    pub races: Option<[RaceId; den::DRAWS]>,
}

/// One monster as placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Monster {
    /// Its race.
    pub race: RaceId,
    /// Its grid.
    pub at: Pos,
    /// Hit points (the dice's maximum with `FORCE_MAXHP`).
    pub hp: i32,
    /// Raw speed, with the small spread non-uniques get.
    pub speed: i32,
    /// Starting energy, `0..100`.
    pub energy: i32,
    /// Turns of sleep left; 0 is awake.
    pub sleep: i32,
    /// How it came to be here.
    pub placement: Placement,
}

/// Places monsters on a cave: the allocator, the live uniques, the monsters so far and
/// the rating they add. The layout hands it the inner-room guards as it builds rooms; the
/// base population follows.
pub struct Populator<'a> {
    allocator: &'a Allocator,
    live: &'a mut UniqueLedger,
    depth: i32,
    /// The monsters placed, in order.
    pub monsters: Vec<Monster>,
    /// The rating their out-of-depth levels add.
    pub rating: i32,
    /// Base-population draws that returned no race.
    pub failed_draws: u32,
    /// Guard and escort draws that returned no race.
    pub failed_company_draws: u32,
    /// Base-population placements lost because their grid lies on the map's outer ring,
    /// where 2.7.9 never places a monster (only a host's floor has floor there).
    pub edge_losses: u32,
    /// The nests and pits, in build order.
    pub dens: Vec<DenRecord>,
    /// Monsters placed and then taken back by the layout (a destroyed level's blasts,
    /// sealed unreachable grids): their slots count towards a full list, as 2.7.9's
    /// monster mark counts every monster made.
    pub taken_back: usize,
}

impl<'a> Populator<'a> {
    /// A populator for a level at `depth`.
    pub fn new(allocator: &'a Allocator, live: &'a mut UniqueLedger, depth: i32) -> Self {
        Self {
            allocator,
            live,
            depth,
            monsters: Vec::new(),
            rating: 0,
            failed_draws: 0,
            failed_company_draws: 0,
            edge_losses: 0,
            dens: Vec::new(),
            taken_back: 0,
        }
    }

    fn race(&self, id: RaceId) -> &Race {
        self.allocator
            .races()
            .get(id)
            .expect("the allocator only returns its own races")
    }

    /// `place_monster_one`: one monster of `race` on an empty grid, unless the grid is
    /// taken, the unique is alive or a `FORCE_DEPTH` race is too deep.
    fn place_one(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        at: Pos,
        id: RaceId,
        asleep: bool,
        placement: Placement,
    ) -> bool {
        if self.monsters.len() >= MAX_MONSTERS || !Cave::inside(at) || !cave.is_empty(at) {
            return false;
        }
        let race = self
            .allocator
            .races()
            .get(id)
            .expect("the allocator only returns its own races");
        if race.is_unique() && self.live.refuses(id) {
            return false;
        }
        let level = i32::from(race.level);
        if race.flags.contains(RaceFlags::FORCE_DEPTH) && level > self.depth {
            return false;
        }
        if level > self.depth {
            let out_of_depth = level - self.depth;
            self.rating += if race.is_unique() {
                2 * out_of_depth
            } else {
                out_of_depth
            };
        }
        let dice = race.hit_dice;
        let hp = if race.flags.contains(RaceFlags::FORCE_MAXHP) {
            (dice.count * dice.sides) as i32
        } else {
            (0..dice.count)
                .map(|_| randint(rng, dice.sides as i32))
                .sum()
        };
        let mut speed = i32::from(race.speed);
        if !race.is_unique() {
            let spread = energy_per_turn(race.speed) / 10;
            if spread > 0 {
                speed += rand_spread(rng, 0, spread);
            }
        }
        let energy = rand0(rng, 100);
        let sleep = if asleep && race.sleep > 0 {
            let s = i32::from(race.sleep);
            2 * s + randint(rng, 10 * s)
        } else {
            0
        };
        if race.is_unique() {
            self.live.insert(id);
        }
        cave.set_monster(at, self.monsters.len());
        self.monsters.push(Monster {
            race: id,
            at,
            hp,
            speed,
            energy,
            sleep,
            placement,
        });
        true
    }

    /// `place_monster_group`: a `FRIENDS` group flooding breadth-first from a placed
    /// leader; its size is `randint(13)`, less `randint(level - depth)` for a deeper race
    /// or plus `randint(depth - level)` (at most 12) for a shallower one, within 1..=32.
    /// The followers add no rating.
    fn place_group(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        at: Pos,
        id: RaceId,
        asleep: bool,
    ) {
        let level = i32::from(self.race(id).level);
        let mut total = randint(rng, 13);
        let extra = if level > self.depth {
            -randint(rng, level - self.depth)
        } else if level < self.depth {
            randint(rng, self.depth - level)
        } else {
            0
        };
        total = (total + extra.min(12)).clamp(1, GROUP_MAX);
        let saved = self.rating;
        let mut flood = vec![at];
        let mut n = 0;
        while n < flood.len() && (flood.len() as i32) < total {
            let from = flood[n];
            for (dy, dx) in DIRECTIONS {
                if flood.len() as i32 >= total {
                    break;
                }
                let next = Pos::new(from.y + dy, from.x + dx);
                if Cave::on_map(next)
                    && cave.is_empty(next)
                    && self.place_one(cave, rng, next, id, asleep, Placement::Group)
                {
                    flood.push(next);
                }
            }
            n += 1;
        }
        self.rating = saved;
    }

    /// `place_monster_aux`: a monster, then its group and its escorts.
    fn place_with_company(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        at: Pos,
        id: RaceId,
        asleep: bool,
        placement: Placement,
    ) -> bool {
        if !self.place_one(cave, rng, at, id, asleep, placement) {
            return false;
        }
        let leader = self.race(id);
        let (flags, level) = (leader.flags, i32::from(leader.level));
        let filter = flags
            .contains(RaceFlags::ESCORT)
            .then(|| RaceFilter::escort_of(leader));
        if flags.contains(RaceFlags::FRIENDS) {
            self.place_group(cave, rng, at, id, asleep);
        }
        if let Some(filter) = filter {
            for _ in 0..ESCORT_TRIES {
                let spot = scatter(cave, rng, at, 3);
                if !Cave::on_map(spot) || !cave.is_empty(spot) {
                    continue;
                }
                let request = DrawRequest::new(level, self.depth, self.live).filtered(&filter);
                let Some(escort) = self.allocator.draw(rng, &request) else {
                    self.failed_company_draws += 1;
                    break;
                };
                self.place_one(cave, rng, spot, escort, asleep, Placement::Escort);
                if self.race(escort).flags.contains(RaceFlags::FRIENDS)
                    || flags.contains(RaceFlags::ESCORTS)
                {
                    self.place_group(cave, rng, spot, escort, asleep);
                }
            }
        }
        true
    }

    /// `place_monster`: a race drawn at `level`, placed asleep with its company.
    pub fn place_drawn(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        at: Pos,
        level: i32,
        placement: Placement,
    ) -> bool {
        self.place_drawn_awake_or_not(cave, rng, at, level, true, placement)
    }

    fn place_drawn_awake_or_not(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        at: Pos,
        level: i32,
        asleep: bool,
        placement: Placement,
    ) -> bool {
        let request = DrawRequest::new(level, self.depth, self.live);
        match self.allocator.draw(rng, &request) {
            Some(id) => self.place_with_company(cave, rng, at, id, asleep, placement),
            None => {
                if placement == Placement::Population {
                    self.failed_draws += 1;
                } else {
                    self.failed_company_draws += 1;
                }
                false
            }
        }
    }

    /// `summon_specific` as a summoning rune calls it: up to 20 grids round `around`
    /// (within 1 for the first 15, then within 2), the first empty one gets a monster
    /// drawn at `level`, awake, with its group and escort. False when no grid was empty
    /// or the draw failed; a full floor summons nothing.
    pub fn summon(
        &mut self,
        cave: &mut Cave,
        rng: &mut Generator,
        around: Pos,
        level: i32,
    ) -> bool {
        for i in 0..20 {
            let d = if i < 15 { 1 } else { 2 };
            let at = scatter(cave, rng, around, d);
            if Cave::inside(at) && cave.is_empty(at) {
                return self.place_drawn_awake_or_not(
                    cave,
                    rng,
                    at,
                    level,
                    false,
                    Placement::Summoned,
                );
            }
        }
        false
    }

    /// Takes back the monsters at roster positions `removed` (guards whose grids the
    /// layout blasted or sealed after placing them): they leave the roster, and a unique
    /// among them leaves the live uniques, as 2.7.9's monster deletion gives it back. The
    /// rating they added stays, as in 2.7.9. The cave's roster positions are renumbered.
    pub fn take_back(&mut self, cave: &mut Cave, removed: &[usize]) {
        if removed.is_empty() {
            return;
        }
        let mut slot = 0;
        let races = self.allocator.races();
        let live = &mut *self.live;
        self.monsters.retain(|monster| {
            let keep = !removed.contains(&slot);
            slot += 1;
            if !keep && races.get(monster.race).is_some_and(Race::is_unique) {
                live.remove(monster.race);
            }
            keep
        });
        self.taken_back += slot - self.monsters.len();
        for (index, monster) in self.monsters.iter().enumerate() {
            cave.set_monster(monster.at, index);
        }
    }

    /// The base population: `14 + randint(8) + k` monsters with `k = clamp(depth / 3, 2,
    /// 10)`, each drawn at `level` on a random naked floor grid other than the player's,
    /// asleep, with groups and escorts.
    pub fn populate(&mut self, cave: &mut Cave, rng: &mut Generator, level: i32) {
        let k = (self.depth / 3).clamp(2, 10);
        let count = 14 + randint(rng, 8) + k;
        for _ in 0..count {
            let Some(at) = naked_spot(cave, rng) else {
                return;
            };
            if !Cave::inside(at) {
                self.edge_losses += 1;
            }
            self.place_drawn(cave, rng, at, level, Placement::Population);
        }
    }
}

impl Inhabit for Populator<'_> {
    fn guard(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32) {
        self.place_drawn(cave, rng, at, level, Placement::Guard);
    }

    /// The kind by `randint(depth)`, then 16 draws at depth + 10 through its filter.
    fn draw_den(&mut self, rng: &mut Generator, centre: Pos, pit: bool, depth: i32) -> bool {
        let kind = DenKind::roll(rng, depth, pit);
        let filter = kind.filter();
        let mut drawn = [RaceId::default(); den::DRAWS];
        let mut complete = true;
        for slot in &mut drawn {
            let request = DenKind::request(&filter, depth, self.live);
            match self.allocator.draw(rng, &request) {
                Some(race) => *slot = race,
                None => complete = false,
            }
        }
        self.dens.push(DenRecord {
            centre,
            kind,
            races: complete.then_some(drawn),
        });
        complete
    }

    /// Every grid of the inner room, awake and without groups: a nest's grids each take
    /// one of the 16 at random (row by row), a pit's take the race of their ring.
    fn fill_den(&mut self, cave: &mut Cave, rng: &mut Generator, centre: Pos) {
        let Some(&DenRecord {
            kind,
            races: Some(drawn),
            ..
        }) = self.dens.last()
        else {
            return;
        };
        let rings = kind.is_pit().then(|| den::rings(self.allocator, &drawn));
        for at in monster_grids(centre) {
            let (race, placement) = match rings {
                Some(rings) => (
                    rings[den::ring_of(at.y - centre.y, at.x - centre.x)],
                    Placement::Pit,
                ),
                None => (
                    drawn[rand0(rng, den::DRAWS as i32) as usize],
                    Placement::Nest,
                ),
            };
            self.place_one(cave, rng, at, race, false, placement);
        }
    }

    fn vault_monster(&mut self, cave: &mut Cave, rng: &mut Generator, at: Pos, level: i32) {
        self.place_drawn(cave, rng, at, level, Placement::Vault);
    }
}

/// Which naked grids a scattered thing may take: any (monsters, traps, loose objects and
/// gold), only those outside rooms (rubble), or only those inside them (the rooms' share
/// of objects). Vault, nest and pit floors are room grids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spread {
    /// Any naked grid.
    Anywhere,
    /// A naked grid without the room flag.
    Corridor,
    /// A naked grid with the room flag.
    Room,
}

impl Spread {
    fn allows(self, cave: &Cave, at: Pos) -> bool {
        match self {
            Spread::Anywhere => true,
            Spread::Corridor => !cave.has(at, flag::ROOM),
            Spread::Room => cave.has(at, flag::ROOM),
        }
    }
}

/// A random naked grid (plain floor, no object, no monster, not the player) anywhere on
/// the map, as 2.7.9's `alloc_monster` and `alloc_object` pick it.
pub(crate) fn naked_spot(cave: &Cave, rng: &mut Generator) -> Option<Pos> {
    naked_spot_in(cave, rng, Spread::Anywhere)
}

/// A random naked grid that `spread` allows: 2.7.9 draws grids until one is, for ever;
/// here after [`MAX_SPOT_TRIES`] draws the first such grid in row order, or none.
pub(crate) fn naked_spot_in(cave: &Cave, rng: &mut Generator, spread: Spread) -> Option<Pos> {
    let fits = |at| cave.is_naked(at) && spread.allows(cave, at);
    for _ in 0..MAX_SPOT_TRIES {
        let at = grid_in(rng, Pos::new(0, 0), Pos::new(HEIGHT - 1, WIDTH - 1));
        if fits(at) {
            return Some(at);
        }
    }
    (0..HEIGHT)
        .flat_map(|y| (0..WIDTH).map(move |x| Pos::new(y, x)))
        .find(|&at| fits(at))
}

/// `scatter`: a grid within `d` of `centre` (by [`Pos::distance`]) in line of sight of it.
/// The original checks the centre, not the pick, against the map's edge; a pick off the
/// map is returned and refused by the caller. After 1,000 misses the centre itself.
fn scatter(cave: &Cave, rng: &mut Generator, centre: Pos, d: i32) -> Pos {
    for _ in 0..1000 {
        let at = spread_grid(rng, centre, d, d);
        if d > 1 && centre.distance(at) > d {
            continue;
        }
        if line_of_sight(cave, centre, at) {
            return at;
        }
    }
    centre
}

/// Whether `to` is in sight of `from`: every grid strictly between them on the straight
/// line (stepped along the longer axis, rounding to the nearest grid) lets sight through.
/// Neighbours always see each other. This is the short-range case escorts use. It is
/// simpler than 2.7.9's `los`, which treats knight's moves apart and checks the grid
/// beside each change of row or column along the line; porting it is still to do.
fn line_of_sight(cave: &Cave, from: Pos, to: Pos) -> bool {
    if !Cave::on_map(to) {
        return true;
    }
    let (dy, dx) = (to.y - from.y, to.x - from.x);
    let steps = dy.abs().max(dx.abs());
    (1..steps).all(|i| {
        let y = from.y + (2 * dy * i + steps * dy.signum()) / (2 * steps);
        let x = from.x + (2 * dx * i + steps * dx.signum()) / (2 * steps);
        let between = Pos::new(y, x);
        Cave::on_map(between) && cave.is_floor(between)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::Races;

    /// A race file of one race of `level` with `flags`.
    fn one_race(level: u8, flags: &str) -> Races {
        let text = format!(
            "(races: [(index: 1, name: \"Test\", symbol: 'p', colour: 'r', level: {level}, \
             rarity: 1, speed: 110, hit_dice: \"1d3\", armour: 1, sleep: 0, vision: 8, \
             experience: 1, flags: [{flags}], spells: [], blows: [])])"
        );
        Races::from_file(denizen_core::DataFile::new("test.races.ron", &text)).unwrap()
    }

    /// A cave whose every grid inside the permanent edge is floor.
    fn open_cave() -> Cave {
        let mut cave = Cave::new();
        cave.fill_terrain(
            Pos::new(1, 1),
            Pos::new(HEIGHT - 2, WIDTH - 2),
            crate::cave::terrain::FLOOR,
        );
        cave
    }

    fn rng(seed: u64) -> Generator {
        denizen_core::WorldSeed(seed).stream(denizen_core::StreamPurpose::new("population"))
    }

    /// Sight as [`line_of_sight`] documents it, on open floor with one wall grid at a
    /// time: neighbours always see each other; a wall on the straight line between two
    /// grids blocks it both ways, one beside the line does not. From (10, 10) to (13, 11)
    /// the line passes (11, 10) and (12, 11); in a straight row, every grid between.
    /// A pick off the map is seen, for the caller to refuse.
    #[test]
    fn a_wall_on_the_line_blocks_sight_and_one_beside_it_does_not() {
        let walled = |wall: (i32, i32)| {
            let mut cave = open_cave();
            cave.set_terrain(Pos::new(wall.0, wall.1), crate::cave::terrain::GRANITE);
            cave
        };
        let sees = |cave: &Cave, from: (i32, i32), to: (i32, i32)| {
            let (from, to) = (Pos::new(from.0, from.1), Pos::new(to.0, to.1));
            let both = (line_of_sight(cave, from, to), line_of_sight(cave, to, from));
            assert_eq!(both.0, both.1, "{from:?} and {to:?} disagree");
            both.0
        };
        let (a, b) = ((10, 10), (13, 11));
        for on_line in [(11, 10), (12, 11)] {
            assert!(!sees(&walled(on_line), a, b), "{on_line:?}");
        }
        for beside in [(11, 11), (12, 10), (13, 10), (10, 11)] {
            assert!(sees(&walled(beside), a, b), "{beside:?}");
        }
        for between in [(20, 21), (20, 22)] {
            assert!(!sees(&walled(between), (20, 20), (20, 23)), "{between:?}");
            assert!(!sees(&walled((between.1, between.0)), (20, 20), (23, 20)));
        }
        assert!(sees(&walled((21, 21)), (20, 20), (20, 23)));
        let mut closed = Cave::new();
        closed.set_terrain(Pos::new(5, 5), crate::cave::terrain::FLOOR);
        assert!(sees(&closed, (5, 5), (6, 6)) && sees(&closed, (5, 5), (4, 5)));
        assert!(!sees(&closed, (5, 5), (7, 7)));
        assert!(line_of_sight(&closed, Pos::new(1, 1), Pos::new(-2, 1)));
    }

    /// 2.7.9's monster list has 512 slots, slot 0 unused (object notes 7: full at 511):
    /// on open floor the first 511 monsters are placed and every one after is refused.
    #[test]
    fn a_level_holds_511_monsters() {
        let allocator = Allocator::new(one_race(1, ""));
        let mut live = UniqueLedger::new();
        let mut populator = Populator::new(&allocator, &mut live, 5);
        let (mut cave, mut rng) = (open_cave(), rng(3));
        let id = allocator.races().all()[0].id;
        let grids = (1..HEIGHT - 1).flat_map(|y| (1..WIDTH - 1).map(move |x| Pos::new(y, x)));
        let placed: Vec<bool> = grids
            .take(600)
            .map(|at| populator.place_one(&mut cave, &mut rng, at, id, true, Placement::Population))
            .collect();
        assert_eq!(placed.iter().position(|&p| !p), Some(511));
        assert_eq!(placed.iter().filter(|&&p| p).count(), 511);
    }

    /// Failed draws are counted by what asked: a unique leader with escorts and no race
    /// to escort it fails one escort draw; drawn again while alive, the base population's
    /// draw fails; so does a summons, counted with the company draws.
    #[test]
    fn failed_draws_are_counted_by_what_asked() {
        let races = one_race(5, "\"UNIQUE\", \"ESCORT\"");
        let allocator = Allocator::new(races);
        let mut live = UniqueLedger::new();
        let mut populator = Populator::new(&allocator, &mut live, 5);
        let (mut cave, mut rng) = (open_cave(), rng(2));
        let counts = |p: &Populator<'_>| (p.failed_draws, p.failed_company_draws);
        let at = Pos::new(10, 10);
        assert!(populator.place_drawn(&mut cave, &mut rng, at, 5, Placement::Population));
        assert_eq!(counts(&populator), (0, 1));
        let next = Pos::new(30, 30);
        assert!(!populator.place_drawn(&mut cave, &mut rng, next, 5, Placement::Population));
        assert_eq!(counts(&populator), (1, 1));
        assert!(!populator.summon(&mut cave, &mut rng, next, 5));
        assert_eq!(counts(&populator), (1, 2));
    }

    /// A `FRIENDS` race deeper than the level comes in a group of `randint(13) -
    /// randint(level - depth)`, at least 1 (source notes 3): level 20 at depth 5 on open
    /// floor, against the exact odds, and against the odds of `randint(13) - randint(4)`
    /// (the depth divided in, a wrong rule).
    #[test]
    fn a_deeper_group_shrinks_by_its_depth() {
        let races = one_race(20, "\"FRIENDS\"");
        let (cave, mut rng) = (open_cave(), rng(3));
        let mut counts = vec![0u64; 14];
        let allocator = Allocator::new(races);
        for _ in 0..20_000 {
            let mut live = UniqueLedger::new();
            let mut populator = Populator::new(&allocator, &mut live, 5);
            let mut cave = cave.clone();
            populator.place_drawn(
                &mut cave,
                &mut rng,
                Pos::new(30, 90),
                20,
                Placement::Population,
            );
            counts[populator.monsters.len()] += 1;
        }
        let odds = |less: i32| {
            let mut odds = vec![0.0; 14];
            for size in 1..=13 {
                for cut in 1..=less {
                    odds[(size - cut).max(1) as usize] += 1.0 / f64::from(13 * less);
                }
            }
            odds
        };
        let p = denizen_core::ChiSquared::against(&counts, odds(15)).p_value();
        assert!(p > 1e-4, "{counts:?}: p = {p}");
        let p = denizen_core::ChiSquared::against(&counts, odds(4)).p_value();
        assert!(p < 1e-9, "a group cut by randint(4) fits: p = {p}");
    }

    /// Monsters taken back leave the roster, and a unique among them leaves the live
    /// uniques; a unique kept stays alive.
    #[test]
    fn a_unique_taken_back_can_appear_again() {
        let races = Races::shipped();
        let unique = |name: &str| races.by_name(name).unwrap().id;
        let (grip, fang) = (
            unique("Grip, Farmer Maggot's dog"),
            unique("Fang, Farmer Maggot's dog"),
        );
        let allocator = Allocator::new(races.clone());
        let mut live = UniqueLedger::new();
        let mut populator = Populator::new(&allocator, &mut live, 5);
        let (mut cave, mut rng) = (open_cave(), rng(4));
        for (x, race) in [(10, grip), (12, fang)] {
            let at = Pos::new(10, x);
            assert!(populator.place_one(
                &mut cave,
                &mut rng,
                at,
                race,
                true,
                Placement::Population
            ));
        }
        populator.take_back(&mut cave, &[0]);
        assert_eq!(populator.monsters.len(), 1);
        assert_eq!(populator.monsters[0].race, fang);
        assert!(!populator.live.is_alive(grip) && populator.live.is_alive(fang));
    }

    /// `scatter` keeps to its distance (2.7.9's `distance`: the longer axis plus half the
    /// shorter): escorts at 3 never land on a corner of the 7 x 7 square, at distance 4,
    /// but do reach distance 3.
    #[test]
    fn scatter_keeps_within_its_distance() {
        let (cave, mut rng) = (open_cave(), rng(5));
        let centre = Pos::new(30, 90);
        let reached: Vec<i32> = (0..5_000)
            .map(|_| centre.distance(scatter(&cave, &mut rng, centre, 3)))
            .collect();
        assert!(reached.iter().all(|&d| d <= 3));
        assert!(reached.contains(&3));
    }

    /// `FORCE_DEPTH` (source notes 3): Sauron, of level 99, is never placed shallower
    /// than 99; at 99 and deeper he is, and his rating counts nothing out of depth.
    #[test]
    fn a_force_depth_race_is_never_placed_shallower_than_its_level() {
        let races = Races::shipped();
        let sauron = races.by_name("Sauron, the Sorcerer").unwrap().clone();
        assert!(sauron.flags.contains(RaceFlags::FORCE_DEPTH) && sauron.level == 99);
        let mut cave = Cave::new();
        let at = Pos::new(10, 10);
        cave.set_terrain(at, crate::cave::terrain::FLOOR);
        let mut rng = denizen_core::WorldSeed(1).stream(denizen_core::StreamPurpose::new("force"));
        for (depth, placed) in [(98, false), (99, true), (100, true)] {
            let allocator = Allocator::new(races.clone());
            let mut live = UniqueLedger::new();
            let mut populator = Populator::new(&allocator, &mut live, depth);
            let mut cave = cave.clone();
            let made = populator.place_one(
                &mut cave,
                &mut rng,
                at,
                sauron.id,
                true,
                Placement::Population,
            );
            assert_eq!(made, placed, "depth {depth}");
            assert_eq!(populator.monsters.len(), usize::from(placed));
            assert_eq!(populator.rating, 0);
        }
    }

    #[test]
    fn energy_follows_the_speed_table() {
        // Normal speed, +10, +20, +30, +40, slow, the slowest and the table's end.
        let expected = [(110, 10), (120, 20), (130, 30), (140, 38), (150, 42)];
        for (speed, energy) in expected {
            assert_eq!(energy_per_turn(speed), energy, "speed {speed}");
        }
        assert_eq!(energy_per_turn(100), 5);
        assert_eq!(energy_per_turn(109), 9);
        assert_eq!(energy_per_turn(60), 1);
        assert_eq!(energy_per_turn(0), 1);
        assert_eq!(energy_per_turn(199), 49);
        assert_eq!(energy_per_turn(255), 49);
    }
}
