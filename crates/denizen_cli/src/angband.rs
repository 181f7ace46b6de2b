//! `denizen angband ...`: Angband 2.7.9's exact odds (the monster and object allocators,
//! the room kinds).

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use denizen_angband::alloc::{Allocator, DrawOdds, DrawRequest, MAX_DRAW_LEVEL, UniqueLedger};
use denizen_angband::den::{self, DenKind};
use denizen_angband::layout::{destroyed_chance, first_choice_odds, lit_chance};
use denizen_angband::object::plain_name;
use denizen_angband::sample::{FIGURES, FIRST_FEELING, NewGameLevels, figures};
use denizen_angband::{Autoscum, ObjectAllocator, ObjectKinds, ObjectRules, Races, SpecialRoom};
use denizen_core::WorldSeed;
use denizen_core::{DataFile, quoted, read_data_file};
use rayon::prelude::*;

use crate::error::{CliError, io_error, shown, stdout};
use crate::interrupt;
use crate::table::{Cell, Format, Table};
use crate::workers::workers;

/// The Angband subcommands.
#[derive(Debug, Subcommand)]
pub enum AngbandCommand {
    /// Exact odds of each race for one allocator draw at a monster level.
    Alloc {
        /// Monster level drawn at, 0-127 (a room's offset included, such as depth + 10
        /// for a pit).
        #[arg(value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_LEVEL)))]
        level: i32,
        /// The dungeon depth (which `FORCE_DEPTH` races are checked against); the level
        /// by default.
        #[arg(long, value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_LEVEL)))]
        depth: Option<i32>,
        /// A race RON file to use instead of the shipped 2.7.9 races.
        #[arg(long, value_name = "FILE")]
        races: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact odds of each object kind for one object draw (`get_obj_num`) at an object
    /// level, its one-in-twenty boost included.
    Objects {
        /// Object level drawn at, 0-127 (a vault's offset included, such as depth + 7).
        #[arg(value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_LEVEL)))]
        level: i32,
        /// Only the kinds a "good" call may make (armour, weapons, ammunition, dungeon
        /// books, the ring of speed, the amulet of the Magi).
        #[arg(long)]
        good: bool,
        /// An object RON file to use instead of the shipped 2.7.9 kinds.
        #[arg(long, value_name = "FILE")]
        objects: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Levels made and felt as a new game enters them (quests at 99 and 100, the previous
    /// level 1,000 game turns old), and the mean and deviation of each figure: builds,
    /// rooms and their kinds, monsters, objects, gold, rating, traps, rubble, and the
    /// share of each feeling. Uses every core; the results are the same for any number
    /// of threads.
    Sample {
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Levels to keep (1 to 1,000,000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SAMPLED_LEVELS)))]
        levels: u32,
        /// The autoscummer.
        #[arg(long, value_enum, default_value_t = AutoscumArg::Off)]
        autoscum: AutoscumArg,
        /// Preserve mode: no level feels special (artifacts of thrown-away levels come back).
        #[arg(long)]
        preserve: bool,
        /// World seed: level `i` draws from its own stream of it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (every core by default).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Output format (CSV `figure,mean,sd`).
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact per-draw odds of each race in a nest or pit of a kind at a depth (drawn at
    /// depth + 10 through the kind's filter).
    DrawOdds {
        /// The kind: nest-jelly, nest-animal, nest-undead, pit-orc, pit-troll, pit-giant,
        /// pit-dragon-blue, -white, -green, -black, -red, -multihued, pit-demon.
        #[arg(value_parser = den_kind)]
        kind: DenKind,
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact race of each ring of a pit (0 outside to 7 at the centre), given that its 16
    /// draws all succeed.
    PitRings {
        /// A pit kind (pit-orc, ..., pit-demon).
        #[arg(value_parser = den_kind)]
        kind: DenKind,
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact chance that a room makes its level special, at every depth 1-127.
    FeelingOdds {
        /// nest, pit, lesser-vault or greater-vault.
        #[arg(value_parser = special_room)]
        room: SpecialRoom,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact chance of each kind of nest or pit at a depth.
    Kinds {
        /// nest or pit.
        #[arg(value_enum)]
        room: DenRoom,
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact chance that one room placement attempt first tries each room kind.
    Rooms {
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Only levels that are not destroyed (by default a destroyed level's attempts,
        /// simple rooms only, are counted in: 1 in 15 from depth 11).
        #[arg(long)]
        intact: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

impl AngbandCommand {
    /// Whether it can run long (`angband sample`).
    pub fn runs_long(&self) -> bool {
        matches!(self, AngbandCommand::Sample { .. })
    }
}

/// A nest or pit kind on the command line (`nest-jelly`, ..., `pit-demon`).
fn den_kind(text: &str) -> Result<DenKind, String> {
    DenKind::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = DenKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "{} is not a nest or pit kind: {}",
            quoted(text),
            names.join(", ")
        )
    })
}

/// A room that may make a level special (`nest`, `pit`, `lesser-vault`, `greater-vault`).
fn special_room(text: &str) -> Result<SpecialRoom, String> {
    SpecialRoom::ALL
        .into_iter()
        .find(|room| room.name() == text)
        .ok_or_else(|| {
            format!(
                "{} is not one of nest, pit, lesser-vault, greater-vault",
                quoted(text)
            )
        })
}

/// The most levels `angband sample` makes.
pub const MAX_SAMPLED_LEVELS: u32 = 1_000_000;

/// The autoscummer's setting on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AutoscumArg {
    /// Every level is kept.
    Off,
    /// Boring levels are thrown away for the first 100 attempts.
    Sometimes,
    /// Boring levels are always thrown away.
    Always,
}

impl From<AutoscumArg> for Autoscum {
    fn from(arg: AutoscumArg) -> Self {
        match arg {
            AutoscumArg::Off => Autoscum::Off,
            AutoscumArg::Sometimes => Autoscum::Sometimes,
            AutoscumArg::Always => Autoscum::Always,
        }
    }
}

/// Nests or pits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DenRoom {
    /// Monster nests.
    Nest,
    /// Monster pits.
    Pit,
}

/// Runs an Angband subcommand.
pub fn run(command: &AngbandCommand, out: &mut impl Write) -> Result<(), CliError> {
    let table = match command {
        AngbandCommand::Alloc {
            level,
            depth,
            races,
            format,
        } => (
            alloc_table(*level, depth.unwrap_or(*level), races.as_ref())?,
            *format,
        ),
        AngbandCommand::Sample {
            depth,
            levels,
            autoscum,
            preserve,
            seed,
            threads,
            format,
        } => {
            let run = NewGameLevels {
                depth: *depth,
                autoscum: (*autoscum).into(),
                preserve: *preserve,
                seed: WorldSeed(*seed),
            };
            (sample_table(&run, *levels, *threads)?, *format)
        }
        AngbandCommand::Objects {
            level,
            good,
            objects,
            format,
        } => (objects_table(*level, *good, objects.as_ref())?, *format),
        AngbandCommand::Rooms {
            depth,
            intact,
            format,
        } => (rooms_table(*depth, *intact), *format),
        AngbandCommand::DrawOdds {
            kind,
            depth,
            format,
        } => (draw_odds_table(*kind, *depth), *format),
        AngbandCommand::PitRings {
            kind,
            depth,
            format,
        } => (pit_rings_table(*kind, *depth)?, *format),
        AngbandCommand::FeelingOdds { room, format } => (feeling_odds_table(*room), *format),
        AngbandCommand::Kinds {
            room,
            depth,
            format,
        } => (kinds_table(*room, *depth), *format),
    };
    table.0.write(table.1, out).map_err(stdout)
}

fn alloc_table(level: i32, depth: i32, races: Option<&PathBuf>) -> Result<Table, CliError> {
    let races = match races {
        None => Races::shipped(),
        Some(path) => {
            let text = read_data_file(path).map_err(io_error(path))?;
            Races::from_file(DataFile::new(&shown(path), &text))?
        }
    };
    let allocator = Allocator::new(races);
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DrawRequest::new(level, depth, &live));
    let rows = race_rows(&allocator, &odds);
    Ok(Table {
        title: format!(
            "One draw at monster level {level}, depth {depth} (no unique alive; fails with chance {:.3e})",
            odds.failure
        ),
        columns: vec!["race", "name", "probability"],
        rows,
    })
}

/// How many levels `angband sample` makes between two sums: the per-level figures it
/// holds at once.
const SAMPLE_CHUNK: u32 = 4_096;

/// `angband sample`: the levels made on a pool of threads, each from its own stream, a
/// chunk at a time, each chunk's figures summed in level order, so the output is the same
/// for any number of threads. A progress bar shows on a terminal's standard error.
fn sample_table(run: &NewGameLevels, levels: u32, threads: Option<u32>) -> Result<Table, CliError> {
    let (pool, bar) = workers(threads, levels)?;
    let allocator = Allocator::new(Races::shipped());
    let objects = ObjectRules::shipped();
    let (mut sums, mut squares) = ([0.0; FIGURES.len()], [0.0; FIGURES.len()]);
    for start in (0..levels).step_by(SAMPLE_CHUNK as usize) {
        let end = start.saturating_add(SAMPLE_CHUNK).min(levels);
        let chunk: Vec<[f64; FIGURES.len()]> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map_init(
                    || (allocator.clone(), objects.clone()),
                    |(allocator, objects), i| {
                        if interrupt::interrupted() {
                            return [0.0; FIGURES.len()];
                        }
                        let kept = run.level(u64::from(i), allocator, objects);
                        bar.inc(1);
                        figures(&kept)
                    },
                )
                .collect()
        });
        if interrupt::interrupted() {
            bar.finish_and_clear();
            return Err(CliError::Interrupted);
        }
        for level in &chunk {
            for (f, value) in level.iter().enumerate() {
                sums[f] += value;
                squares[f] += value * value;
            }
        }
    }
    bar.finish_and_clear();
    let n = f64::from(levels);
    let rows = FIGURES
        .iter()
        .enumerate()
        .map(|(f, name)| {
            let mean = sums[f] / n;
            let sd = if f >= FIRST_FEELING || levels < 2 {
                Cell::Empty
            } else {
                let spread = (squares[f] - n * mean * mean).max(0.0);
                Cell::Stat((spread / (n - 1.0)).sqrt())
            };
            vec![Cell::Text((*name).to_owned()), Cell::Stat(mean), sd]
        })
        .collect();
    Ok(Table {
        title: format!(
            "{levels} levels kept at depth {} (autoscummer {:?}{}), seed {}",
            run.depth,
            run.autoscum,
            if run.preserve { ", preserve mode" } else { "" },
            run.seed.0
        ),
        columns: vec!["figure", "mean", "sd"],
        rows,
    })
}

fn objects_table(level: i32, good: bool, objects: Option<&PathBuf>) -> Result<Table, CliError> {
    let kinds = match objects {
        None => ObjectKinds::shipped(),
        Some(path) => {
            let text = read_data_file(path).map_err(io_error(path))?;
            ObjectKinds::from_file(DataFile::new(&shown(path), &text))?
        }
    };
    let allocator = ObjectAllocator::new(kinds);
    let odds = allocator.odds(level, good);
    let rows = odds
        .kinds
        .iter()
        .map(|o| {
            let kind = allocator.kinds().get(o.kind);
            vec![
                Cell::Int(o.kind.0.into()),
                Cell::Text(kind.map_or(String::new(), |k| plain_name(&k.name))),
                Cell::Int(kind.map_or(0, |k| k.tval.into())),
                Cell::Int(kind.map_or(0, |k| k.level.into())),
                Cell::Prob(o.probability),
            ]
        })
        .collect();
    let calls = if good { "a good call" } else { "a plain call" };
    Ok(Table {
        title: format!(
            "One object draw of {calls} at object level {level} (fails with chance {:.3e})",
            odds.failure
        ),
        columns: vec!["kind", "name", "tval", "kind_level", "probability"],
        rows,
    })
}

fn rooms_table(depth: i32, intact: bool) -> Table {
    let rows = first_choice_odds(depth, !intact)
        .iter()
        .map(|(kind, p)| vec![Cell::Text(kind.name().to_owned()), Cell::Prob(*p)])
        .collect();
    let levels = if intact {
        "a level that is not destroyed".to_owned()
    } else {
        format!(
            "any level (destroyed with chance {:.6})",
            destroyed_chance(depth, false)
        )
    };
    Table {
        title: format!(
            "First room kind tried by one placement attempt at depth {depth}, on {levels}; rooms of types 1-4 lit with chance {:.2}",
            lit_chance(depth)
        ),
        columns: vec!["kind", "probability"],
        rows,
    }
}

/// One `race,name,probability` row per race a draw can return.
fn race_rows(allocator: &Allocator, odds: &DrawOdds) -> Vec<Vec<Cell>> {
    odds.races
        .iter()
        .map(|o| {
            let name = allocator
                .races()
                .get(o.race)
                .map_or(String::new(), |race| race.name.clone());
            vec![
                Cell::Int(o.race.0.into()),
                Cell::Text(name),
                Cell::Prob(o.probability),
            ]
        })
        .collect()
}

fn draw_odds_table(kind: DenKind, depth: i32) -> Table {
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let filter = kind.filter();
    let odds = allocator.odds(&DenKind::request(&filter, depth, &live));
    let rows = race_rows(&allocator, &odds);
    Table {
        title: format!(
            "One draw of a {} at depth {depth} (monster level {}); a draw fails with chance {:.3e}",
            kind.name(),
            depth + den::LEVEL_OFFSET,
            odds.failure
        ),
        columns: vec!["race", "name", "probability"],
        rows,
    }
}

fn pit_rings_table(kind: DenKind, depth: i32) -> Result<Table, CliError> {
    if !kind.is_pit() {
        return Err(CliError::Usage(format!(
            "`{}` is a nest: only pits rank their monsters into rings",
            kind.name()
        )));
    }
    let allocator = Allocator::new(Races::shipped());
    let rows = den::ring_odds(&allocator, kind, depth)
        .into_iter()
        .map(|(ring, race, p)| {
            let name = allocator
                .races()
                .get(race)
                .map_or(String::new(), |r| r.name.clone());
            vec![
                Cell::Int(ring as i64),
                Cell::Int(race.0.into()),
                Cell::Text(name),
                Cell::Prob(p),
            ]
        })
        .collect();
    Ok(Table {
        title: format!(
            "The race of each ring of a {} at depth {depth} (0 outside, 7 the centre; ring cells 44, 12, 12, 12, 6, 6, 2, 1), given all 16 draws succeed",
            kind.name()
        ),
        columns: vec!["ring", "race", "name", "probability"],
        rows,
    })
}

fn feeling_odds_table(room: SpecialRoom) -> Table {
    let rows = (1..=MAX_DRAW_LEVEL)
        .map(|depth| {
            vec![
                Cell::Int(depth.into()),
                Cell::Prob(room.special_test(depth).chance()),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Chance that a {} makes its level special (outside preserve mode), by depth; the room itself needs depth {} or deeper",
            room.name(),
            match room {
                SpecialRoom::GreaterVault => 10,
                _ => 5,
            }
        ),
        columns: vec!["depth", "probability"],
        rows,
    }
}

fn kinds_table(room: DenRoom, depth: i32) -> Table {
    let rows = DenKind::odds(depth, room == DenRoom::Pit)
        .into_iter()
        .map(|(kind, p)| vec![Cell::Text(kind.name().to_owned()), Cell::Prob(p)])
        .collect();
    Table {
        title: format!(
            "Kind of a {} at depth {depth}, by randint(depth)",
            if room == DenRoom::Pit { "pit" } else { "nest" }
        ),
        columns: vec!["kind", "probability"],
        rows,
    }
}
