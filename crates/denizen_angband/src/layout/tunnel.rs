//! Tunnels (notes 4.1-4.8): the room centres, lightly shuffled, are joined in a cycle by
//! a walker that heads for its target, turns now and then, pierces room walls where a
//! clear grid lies beyond, glides through anything flagged as room, digs rock, and may
//! stop early where it meets an older corridor. Corridors are dug only when a tunnel
//! ends. Junctions with older corridors later get doors where the corridor is a
//! doorway.

use denizen_core::Generator;

use super::doors::random_door;
use crate::cave::{Cave, Pos, flag, terrain};
use crate::rng::{Rolls, magik, rand0};

/// Steps a tunnel may take (`main_loop_count > 2000` stops it: 2001 steps run).
pub const STEP_CAP: u32 = 2000;
/// Rock grids a tunnel may dig (`TUNN_MAX`); the rest of its path stays rock.
pub const DIG_CAP: usize = 900;
/// Room walls a tunnel may pierce (`WALL_MAX`).
pub const PIERCE_CAP: usize = 500;
/// Junctions a level may record (`DOOR_MAX`).
pub const JUNCTION_CAP: usize = 200;
/// Redirections at the map's edge before a tunnel gives up (the original retries until
/// it is back inside, which a step toward the target always is).
const EDGE_RETRY_CAP: u32 = 1_000;

/// Counts of what the tunnels did on a level: for measurements, not rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TunnelStats {
    /// Tunnels started (one per room).
    pub tunnels: u32,
    /// Steps taken by all tunnels.
    pub steps: u32,
    /// Tunnels stopped by the step cap.
    pub step_capped: u32,
    /// Tunnels that stopped early at an older corridor.
    pub early_stops: u32,
    /// Tunnels that reached their target.
    pub arrived: u32,
    /// Rock grids dug.
    pub dug: u32,
    /// Rock grids left undug by the dig cap.
    pub dig_truncated: u32,
    /// Room walls pierced.
    pub pierced: u32,
    /// Junctions recorded.
    pub junctions: u32,
    /// Doors placed at junctions.
    pub junction_doors: u32,
}

/// S, N, E, W: the original's first four directions.
const ORTHOGONAL: [Pos; 4] = [
    Pos::new(1, 0),
    Pos::new(-1, 0),
    Pos::new(0, 1),
    Pos::new(0, -1),
];

/// The dice of one step, all from one word (see [`Rolls`]): whether the walker turns
/// (`rand_int(100) < 30`), the turn's own dice (see [`Turn`]), and whether it stops where
/// it meets an older corridor (`rand_int(100) >= 15`). A step that needs none of them
/// still draws its word, so every step costs one draw and no branch on the dice.
struct StepDice {
    turns: bool,
    turn: Turn,
    stops: bool,
}

/// The sides of [`StepDice`]'s dice, multiplied.
const STEP_OUTCOMES: u32 = 100 * TURN_OUTCOMES * 100;

impl StepDice {
    fn roll(rng: &mut Generator) -> Self {
        let mut rolls = Rolls::draw(rng, STEP_OUTCOMES);
        let turns = rolls.rand0(100) < 30;
        let turn = Turn::read(&mut rolls);
        let stops = rolls.rand0(100) >= 15;
        Self { turns, turn, stops }
    }
}

/// The dice of a turn: `correct_dir`'s coin (`rand_int(100) < 50` takes the row's step
/// away), then a 10% roll for a random direction, and that direction (`rand_dir`).
#[derive(Clone, Copy)]
struct Turn {
    keeps_column: bool,
    random: bool,
    random_dir: Pos,
}

/// The sides of [`Turn`]'s dice, multiplied.
const TURN_OUTCOMES: u32 = 2 * 100 * 4;

impl Turn {
    fn read(rolls: &mut Rolls) -> Self {
        Self {
            keeps_column: rolls.rand0(2) == 0,
            random: rolls.rand0(100) < 10,
            random_dir: ORTHOGONAL[rolls.rand0(4) as usize],
        }
    }

    fn roll(rng: &mut Generator) -> Self {
        Self::read(&mut Rolls::draw(rng, TURN_OUTCOMES))
    }

    /// The direction after the turn: toward `to`, 10% of the time the random one.
    /// Computed as selections rather than branches: the dice are unpredictable.
    #[inline]
    fn direction(self, from: Pos, to: Pos) -> Pos {
        select(
            self.random,
            self.random_dir,
            correct_dir(self.keeps_column, from, to),
        )
    }
}

/// `a` when `pick`, else `b`, without a branch.
#[inline]
fn select(pick: bool, a: Pos, b: Pos) -> Pos {
    let m = -i32::from(pick);
    Pos::new((a.y & m) | (b.y & !m), (a.x & m) | (b.x & !m))
}

/// `correct_dir`: one step toward `to`, along one axis; when both differ, the coin
/// chooses the column (east or west) or the row.
#[inline]
fn correct_dir(keeps_column: bool, from: Pos, to: Pos) -> Pos {
    let dy = (to.y - from.y).signum();
    let dx = (to.x - from.x).signum();
    let both = dy != 0 && dx != 0;
    // Both differ: the coin keeps the column's step or the row's.
    Pos::new(
        dy * i32::from(!both || !keeps_column),
        dx * i32::from(!both || keeps_column),
    )
}

fn step(at: Pos, dir: Pos) -> Pos {
    Pos::new(at.y + dir.y, at.x + dir.x)
}

/// Blocks a walker outright: solid permanent, outer permanent, solid granite.
fn blocks_walker(code: u8) -> bool {
    matches!(
        code,
        terrain::SOLID_PERMANENT | terrain::OUTER_PERMANENT | terrain::SOLID_GRANITE
    )
}

/// Reused buffers of the tunnels of one level.
struct Digger {
    dig: Vec<Pos>,
    pierce: Vec<Pos>,
    junctions: Vec<Pos>,
    stats: TunnelStats,
}

impl Digger {
    /// `build_tunnel` from `start` to `target`.
    fn tunnel(&mut self, cave: &mut Cave, rng: &mut Generator, start: Pos, target: Pos) {
        self.stats.tunnels += 1;
        self.dig.clear();
        self.pierce.clear();
        let mut at = start;
        let mut dir = correct_dir(Turn::roll(rng).keeps_column, at, target);
        let mut door_flag = false;
        let mut loops = 0u32;
        let mut arrived = true;
        'walk: while at != target {
            if loops > STEP_CAP {
                self.stats.step_capped += 1;
                arrived = false;
                break;
            }
            loops += 1;
            self.stats.steps += 1;
            let dice = StepDice::roll(rng);
            dir = select(dice.turns, dice.turn.direction(at, target), dir);
            let mut next = step(at, dir);
            let mut retries = 0;
            while !Cave::inside(next) {
                retries += 1;
                if retries > EDGE_RETRY_CAP {
                    arrived = false;
                    break 'walk;
                }
                dir = Turn::roll(rng).direction(at, target);
                next = step(at, dir);
            }
            let code = cave.terrain(next);
            if blocks_walker(code) {
                continue;
            }
            if code == terrain::OUTER_GRANITE {
                let beyond = step(next, dir);
                let past = if Cave::on_map(beyond) {
                    cave.terrain(beyond)
                } else {
                    terrain::SOLID_PERMANENT
                };
                if blocks_walker(past) || past == terrain::OUTER_GRANITE {
                    continue;
                }
                at = next;
                push_capped(&mut self.pierce, at, PIERCE_CAP);
                for y in at.y - 1..=at.y + 1 {
                    for x in at.x - 1..=at.x + 1 {
                        let g = Pos::new(y, x);
                        if cave.terrain(g) == terrain::OUTER_GRANITE {
                            cave.set_terrain(g, terrain::SOLID_GRANITE);
                        }
                    }
                }
            } else if cave.has(next, flag::ROOM) {
                at = next;
            } else if code >= terrain::GRANITE {
                at = next;
                if !push_capped(&mut self.dig, at, DIG_CAP) {
                    self.stats.dig_truncated += 1;
                }
                door_flag = false;
            } else {
                at = next;
                if !door_flag {
                    push_capped(&mut self.junctions, at, JUNCTION_CAP);
                    door_flag = true;
                }
                if dice.stops && ((at.y - start.y).abs() > 10 || (at.x - start.x).abs() > 10) {
                    self.stats.early_stops += 1;
                    arrived = false;
                    break;
                }
            }
        }
        if arrived {
            self.stats.arrived += 1;
        }
        for &g in &self.dig {
            cave.set_terrain(g, terrain::FLOOR);
        }
        self.stats.dug += self.dig.len() as u32;
        for &g in &self.pierce {
            cave.set_terrain(g, terrain::FLOOR);
            if magik(rng, 25) {
                random_door(cave, rng, g);
            }
        }
        self.stats.pierced += self.pierce.len() as u32;
    }
}

/// Adds `at` to a list the original keeps in a fixed array of `cap` grids; false (and
/// nothing added) when it is full.
fn push_capped(list: &mut Vec<Pos>, at: Pos, cap: usize) -> bool {
    let room = list.len() < cap;
    if room {
        list.push(at);
    }
    room
}

/// Corridor floor for the doorway test: plain floor outside any room.
fn corridor_floor(cave: &Cave, at: Pos) -> bool {
    cave.terrain(at) == terrain::FLOOR && !cave.has(at, flag::ROOM)
}

/// Veins, granite and permanent wall: at least `0x32`.
fn wall_like(cave: &Cave, at: Pos) -> bool {
    cave.terrain(at) >= terrain::MAGMA
}

/// `possible_doorway`: at least two orthogonal corridor floors, and walls either north
/// and south or west and east.
fn possible_doorway(cave: &Cave, at: Pos) -> bool {
    let [s, n, e, w] = ORTHOGONAL.map(|d| step(at, d));
    let corridors = [s, n, e, w]
        .into_iter()
        .filter(|&g| corridor_floor(cave, g))
        .count();
    corridors >= 2
        && ((wall_like(cave, n) && wall_like(cave, s))
            || (wall_like(cave, w) && wall_like(cave, e)))
}

/// `try_door` on every junction's W, E, N and S neighbour: a 90% roll, then the doorway
/// test. Returns the doors placed.
fn junction_doors(cave: &mut Cave, rng: &mut Generator, junctions: &[Pos]) -> u32 {
    let mut doors = 0;
    for &j in junctions {
        for d in [
            Pos::new(0, -1),
            Pos::new(0, 1),
            Pos::new(-1, 0),
            Pos::new(1, 0),
        ] {
            let at = step(j, d);
            if !Cave::inside(at) || wall_like(cave, at) || cave.has(at, flag::ROOM) {
                continue;
            }
            if magik(rng, 90) && possible_doorway(cave, at) {
                random_door(cave, rng, at);
                doors += 1;
            }
        }
    }
    doors
}

/// Shuffles the centres (n random transpositions), tunnels from each centre to the one
/// before it in a cycle, then puts the junction doors.
pub(crate) fn connect(cave: &mut Cave, rng: &mut Generator, centres: &[Pos]) -> TunnelStats {
    let mut order = centres.to_vec();
    let n = order.len() as i32;
    for _ in 0..n {
        let a = rand0(rng, n) as usize;
        let b = rand0(rng, n) as usize;
        order.swap(a, b);
    }
    let mut digger = Digger {
        dig: Vec::with_capacity(DIG_CAP),
        pierce: Vec::with_capacity(64),
        junctions: Vec::with_capacity(JUNCTION_CAP),
        stats: TunnelStats::default(),
    };
    if let Some(&last) = order.last() {
        let mut prev = last;
        for &c in &order {
            digger.tunnel(cave, rng, c, prev);
            prev = c;
        }
    }
    let junctions = std::mem::take(&mut digger.junctions);
    digger.stats.junctions = junctions.len() as u32;
    digger.stats.junction_doors = junction_doors(cave, rng, &junctions);
    digger.stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{StreamPurpose, WorldSeed};

    fn rng(seed: u64) -> Generator {
        WorldSeed(seed).stream(StreamPurpose::new("tunnel"))
    }

    #[test]
    fn a_tunnel_in_open_rock_joins_its_ends_orthogonally() {
        for seed in 0..20 {
            let mut cave = Cave::new();
            let (a, b) = (Pos::new(10, 20), Pos::new(40, 150));
            let mut digger = Digger {
                dig: Vec::new(),
                pierce: Vec::new(),
                junctions: Vec::new(),
                stats: TunnelStats::default(),
            };
            digger.tunnel(&mut cave, &mut rng(seed), a, b);
            if digger.stats.arrived == 1 {
                assert_eq!(cave.terrain(b), terrain::FLOOR);
            }
            // Every dug grid has a dug or end orthogonal neighbour.
            for y in 1..65 {
                for x in 1..197 {
                    let at = Pos::new(y, x);
                    if cave.terrain(at) == terrain::FLOOR && at != a {
                        let linked = ORTHOGONAL.iter().any(|&d| {
                            step(at, d) == a || cave.terrain(step(at, d)) == terrain::FLOOR
                        });
                        assert!(linked, "seed {seed}: {at:?} is isolated");
                    }
                }
            }
        }
    }

    #[test]
    fn piercing_hardens_the_wall_round_the_doorway() {
        // A room wall column at x = 30 between two rock areas, with room floor behind it.
        let mut cave = Cave::new();
        for y in 10..=30 {
            cave.set_terrain(Pos::new(y, 30), terrain::OUTER_GRANITE);
            cave.add_flags(Pos::new(y, 30), flag::ROOM);
            for x in 31..=40 {
                cave.set_terrain(Pos::new(y, x), terrain::FLOOR);
                cave.add_flags(Pos::new(y, x), flag::ROOM);
            }
        }
        let mut digger = Digger {
            dig: Vec::new(),
            pierce: Vec::new(),
            junctions: Vec::new(),
            stats: TunnelStats::default(),
        };
        let mut g = rng(3);
        digger.tunnel(&mut cave, &mut g, Pos::new(20, 10), Pos::new(20, 35));
        assert!(digger.stats.pierced >= 1);
        for &p in &digger.pierce {
            let code = cave.terrain(p);
            assert!(code == terrain::FLOOR || (0x04..=0x30).contains(&code));
            for dy in [-1, 1] {
                let beside = Pos::new(p.y + dy, p.x);
                if beside.y >= 10 && beside.y <= 30 && !digger.pierce.contains(&beside) {
                    assert_eq!(cave.terrain(beside), terrain::SOLID_GRANITE);
                }
            }
        }
    }

    #[test]
    fn correct_dir_moves_along_one_axis() {
        let mut g = rng(5);
        for _ in 0..100 {
            let d = correct_dir(
                Turn::roll(&mut g).keeps_column,
                Pos::new(5, 5),
                Pos::new(9, 1),
            );
            assert!(d == Pos::new(1, 0) || d == Pos::new(0, -1));
        }
        assert_eq!(
            correct_dir(true, Pos::new(5, 5), Pos::new(5, 9)),
            Pos::new(0, 1)
        );
        assert_eq!(
            correct_dir(false, Pos::new(5, 5), Pos::new(5, 9)),
            Pos::new(0, 1)
        );
    }

    fn digger() -> Digger {
        Digger {
            dig: Vec::new(),
            pierce: Vec::new(),
            junctions: Vec::new(),
            stats: TunnelStats::default(),
        }
    }

    #[test]
    fn a_full_list_takes_no_more() {
        let mut list = Vec::new();
        let at = Pos::new(3, 4);
        assert!(push_capped(&mut list, at, 2) && push_capped(&mut list, at, 2));
        assert!(!push_capped(&mut list, at, 2));
        assert_eq!(list, [at, at]);
    }

    /// A tunnel toward a grid on the map's edge, which no step may enter, through solid
    /// rock: 2,001 steps run (`main_loop_count > 2000`), each onto rock, so the first 900
    /// are dug (`TUNN_MAX`) and the other 1,101 left; it is counted as step-capped.
    #[test]
    fn a_tunnel_that_cannot_arrive_stops_after_2001_steps() {
        let mut cave = Cave::new();
        let mut digger = digger();
        digger.tunnel(&mut cave, &mut rng(4), Pos::new(60, 100), Pos::new(0, 100));
        let stats = digger.stats;
        assert_eq!(
            (stats.tunnels, stats.steps, stats.step_capped),
            (1, 2001, 1)
        );
        assert_eq!((stats.arrived, stats.early_stops), (0, 0));
        assert_eq!((stats.dug, stats.dig_truncated), (900, 1101));
        assert_eq!(digger.dig.len(), DIG_CAP);
    }

    /// A tunnel may stop where it meets an older corridor only more than 10 grids from its
    /// start on either axis (notes 4.5): a corridor 21 grids long, 10 grids across the
    /// tunnel's way, never stops one (every tunnel arrives); one 11 grids away stops most
    /// (`rand_int(100) >= 15`). Eastward through a column, and southward through a row.
    #[test]
    fn a_tunnel_stops_early_only_past_ten_grids() {
        for (away, stops) in [(10, false), (11, true)] {
            for southward in [false, true] {
                let mut stopped = 0;
                for seed in 0..40 {
                    let mut cave = Cave::new();
                    let (start, target) = if southward {
                        for x in 40..=60 {
                            cave.set_terrain(Pos::new(5 + away, x), terrain::FLOOR);
                        }
                        (Pos::new(5, 50), Pos::new(55, 50))
                    } else {
                        for y in 20..=40 {
                            cave.set_terrain(Pos::new(y, 10 + away), terrain::FLOOR);
                        }
                        (Pos::new(30, 10), Pos::new(30, 60))
                    };
                    let mut digger = digger();
                    digger.tunnel(&mut cave, &mut rng(seed), start, target);
                    let stats = digger.stats;
                    assert_eq!(stats.arrived + stats.early_stops, 1, "{stats:?}");
                    assert!(!digger.junctions.is_empty(), "the corridor is met");
                    stopped += stats.early_stops;
                }
                let way = if southward { "south" } else { "east" };
                if stops {
                    assert!(stopped > 20, "{stopped} of 40 stopped {away} {way}");
                } else {
                    assert_eq!(stopped, 0, "{away} {way}");
                }
            }
        }
    }

    /// A junction on a corridor walled north and south gets a door on each corridor
    /// neighbour 90 times in 100 (each is a doorway), and the count returned is the
    /// doors placed.
    #[test]
    fn junction_doors_are_counted_as_placed() {
        let mut g = rng(8);
        let (mut placed, mut counted) = (0u32, 0u32);
        for _ in 0..2_000 {
            let mut cave = Cave::new();
            for x in 5..=15 {
                cave.set_terrain(Pos::new(10, x), terrain::FLOOR);
            }
            counted += junction_doors(&mut cave, &mut g, &[Pos::new(10, 10)]);
            // A random door is never plain floor, so every door placed shows.
            for x in [9, 11] {
                placed += u32::from(cave.terrain(Pos::new(10, x)) != terrain::FLOOR);
            }
        }
        assert_eq!(placed, counted);
        // 90% of 4,000 neighbours.
        assert!((3_450..=3_750).contains(&counted), "{counted}");
    }
}
