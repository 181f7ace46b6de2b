//! Omega 0.90.4's commands: exact odds, the count rule, samples drawn with the rules and
//! through the plugin, reference floors, the arena and the spoilers.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Subcommand;
use denizen_bevy::view::render_floor;
use denizen_core::{ChiSquared, DataFile, StreamPurpose, WorldSeed, quoted, read_data_file};
use denizen_omega::plugin::OmegaPlugin;
use denizen_omega::plugin::messages::OmegaFloorRequested;
use denizen_omega::plugin::scene::{arena_opponent, reference_scene_for, sample_floors};
use denizen_omega::plugin::view::roster;
use denizen_omega::wander::WanderRule;
use denizen_omega::{Level, Odds, OmegaFiles, OmegaRules, Selector};

use crate::error::{CliError, io_error, shown, stdout};
use crate::interrupt;
use crate::spoiler;
use crate::table::{Cell, Format, Table, TextFormat, note};
use crate::workers::{progress_bar, workers};

/// The most placements `simulate` draws in one run (a few seconds at the measured rate).
pub const MAX_SIMULATED_PLACEMENTS: u64 = 100_000_000;

/// The most floors `sample` populates in one run (about 8 s on two cores).
pub const MAX_SAMPLED_FLOORS: u32 = 1_000_000;

/// Omega's data files, for the commands that read them: a game's own instead of the
/// shipped ones.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct OmegaData {
    /// A bestiary RON file to use instead of the shipped Omega one.
    #[arg(long, value_name = "FILE")]
    pub bestiary: Option<PathBuf>,
    /// A locations RON file to use instead of the shipped Omega one.
    #[arg(long, value_name = "FILE")]
    pub locations: Option<PathBuf>,
}

impl OmegaData {
    /// Whether any file is given.
    pub(crate) fn given(&self) -> bool {
        self.bestiary.is_some() || self.locations.is_some()
    }

    /// These files, each one not given taken from `before` (given before the command).
    pub(crate) fn or(&self, before: &OmegaData) -> OmegaData {
        OmegaData {
            bestiary: self.bestiary.clone().or_else(|| before.bestiary.clone()),
            locations: self.locations.clone().or_else(|| before.locations.clone()),
        }
    }
}

/// Omega's commands.
#[derive(Debug, Subcommand)]
pub enum OmegaCommand {
    /// Exact odds of each species for one placement at a location and depth.
    Odds {
        /// Location key, such as goblin-caves, sewers, castle, astral or volcano.
        location: String,
        /// Dungeon depth (ignored outside dungeons).
        depth: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Exact odds of the ordinary pool at a difficulty.
    Pool {
        /// Difficulty, 0 or more (10 and above all give the whole pool).
        difficulty: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Exact distribution of the number of placements on a floor.
    Population {
        /// Location key.
        location: String,
        /// Dungeon depth (ignored outside dungeons).
        depth: u32,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Draws placements with the rules and compares them with the exact odds.
    Simulate {
        /// Location key.
        location: String,
        /// Dungeon depth (ignored outside dungeons).
        depth: u32,
        /// Number of placements to draw (1 to 100,000,000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_SIMULATED_PLACEMENTS))]
        placements: u64,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TextFormat::Table)]
        format: TextFormat,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Exact chance of a wandering arrival per ten-minute check, for every depth of a
    /// dungeon.
    WanderOdds {
        /// Dungeon key.
        location: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Prints a reference floor populated by the Bevy plugin, and its roster.
    Floor {
        /// Location key.
        location: String,
        /// Dungeon depth (ignored outside dungeons).
        depth: u32,
        /// Inside a temple, its deity (1-6: Odin, Set, Athena, Hecate, the Balance,
        /// Destiny), whom angels serve.
        #[arg(long)]
        deity: Option<u8>,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Populates floors through a headless Bevy app and compares the spawned species
    /// with the exact odds.
    Sample {
        /// Location key.
        location: String,
        /// Dungeon depth (ignored outside dungeons).
        depth: u32,
        /// Number of floors to populate (1 to 1,000,000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_SAMPLED_FLOORS)))]
        floors: u32,
        /// World seed: floor `i` draws its own streams of it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (every core by default); the output is the same for any number.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TextFormat::Table)]
        format: TextFormat,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// The arena opponent for an opponent counter and the player's arena rank, as the
    /// plugin sends it (a new game's hall of fame).
    Arena {
        /// Opponents fought so far: 0-15 follow the fixed sequence.
        counter: u32,
        /// The player's arena rank: 1-4 meet the Champion after the sequence.
        #[arg(long, default_value_t = 0)]
        rank: u32,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
    /// Writes markdown spoiler tables for every dungeon and depth.
    Spoiler {
        /// Folder to write into.
        #[arg(long, default_value = "docs/spoilers")]
        out: PathBuf,
        /// Omega's data files.
        #[command(flatten)]
        data: OmegaData,
    },
}

impl OmegaCommand {
    /// Whether the command can run long enough to want a progress bar and to stop on
    /// Ctrl-C with a note.
    pub fn runs_long(&self) -> bool {
        matches!(
            self,
            OmegaCommand::Sample { .. } | OmegaCommand::Simulate { .. }
        )
    }
}

/// Loads the rules a command asks for: shipped data unless files are given.
pub fn load_rules(data: &OmegaData) -> Result<OmegaRules, CliError> {
    if data.bestiary.is_none() && data.locations.is_none() {
        return Ok(OmegaRules::shipped());
    }
    let read = |path: &Option<PathBuf>, shipped: &'static str, name: &'static str| match path {
        Some(p) => read_data_file(p)
            .map(|text| (text, shown(p)))
            .map_err(io_error(p)),
        None => Ok((shipped.to_owned(), name.to_owned())),
    };
    let (bestiary, bestiary_file) = read(
        &data.bestiary,
        denizen_omega::bestiary::OMEGA_BESTIARY,
        denizen_omega::bestiary::OMEGA_BESTIARY_FILE,
    )?;
    let (locations, locations_file) = read(
        &data.locations,
        denizen_omega::location::OMEGA_LOCATIONS,
        denizen_omega::location::OMEGA_LOCATIONS_FILE,
    )?;
    Ok(OmegaRules::from_files(OmegaFiles {
        bestiary: DataFile::new(&bestiary_file, &bestiary),
        locations: DataFile::new(&locations_file, &locations),
        variants: None,
    })?)
}

impl OmegaCommand {
    /// The data files given after the command.
    fn data(&self) -> &OmegaData {
        match self {
            OmegaCommand::Odds { data, .. }
            | OmegaCommand::Pool { data, .. }
            | OmegaCommand::Population { data, .. }
            | OmegaCommand::Simulate { data, .. }
            | OmegaCommand::WanderOdds { data, .. }
            | OmegaCommand::Floor { data, .. }
            | OmegaCommand::Sample { data, .. }
            | OmegaCommand::Arena { data, .. }
            | OmegaCommand::Spoiler { data, .. } => data,
        }
    }
}

/// Runs an Omega command, with the data files given before it (`before`).
pub fn run(
    command: &OmegaCommand,
    before: &OmegaData,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let rules = load_rules(&command.data().or(before))?;
    match command {
        OmegaCommand::Simulate {
            location,
            depth,
            placements,
            seed,
            format,
            ..
        } => {
            let at = (location.as_str(), *depth);
            simulate(&rules, at, (*placements, *seed), (*format).into(), out, err)
        }
        OmegaCommand::Floor {
            location,
            depth,
            deity,
            seed,
            ..
        } => floor(
            rules,
            &FloorAsked::new(location, *depth, *deity, *seed),
            out,
        ),
        OmegaCommand::Sample {
            location,
            depth,
            floors,
            seed,
            threads,
            format,
            ..
        } => {
            let asked = SampleAsked {
                location,
                depth: *depth,
                floors: *floors,
                seed: *seed,
                threads: *threads,
            };
            sample(rules, &asked, (*format).into(), out, err)
        }
        OmegaCommand::Spoiler { out: dir, .. } => {
            let written = spoiler::write_all(&rules, dir)?;
            let dir = dir.display();
            note(err, format_args!("wrote {written} files to {dir}"));
            Ok(())
        }
        table => {
            let (table, format) = table_of(rules, table)?;
            table.write(format, out).map_err(stdout)
        }
    }
}

/// The table a command that prints one table prints, in its format.
fn table_of(rules: OmegaRules, command: &OmegaCommand) -> Result<(Table, Format), CliError> {
    Ok(match command {
        OmegaCommand::Odds {
            location,
            depth,
            format,
            ..
        } => (odds(&rules, location, *depth)?, *format),
        OmegaCommand::Pool {
            difficulty, format, ..
        } => (pool(&rules, *difficulty)?, *format),
        OmegaCommand::Population {
            location,
            depth,
            format,
            ..
        } => (population(&rules, location, *depth)?, *format),
        OmegaCommand::WanderOdds {
            location, format, ..
        } => (wander_odds(&rules, location)?, *format),
        OmegaCommand::Arena {
            counter,
            rank,
            seed,
            format,
            ..
        } => (arena(rules, (*counter, *rank, *seed))?, *format),
        _ => unreachable!("run serves the commands that print more than a table"),
    })
}

/// `odds`: one placement's exact odds at a location and depth.
fn odds(rules: &OmegaRules, location: &str, depth: u32) -> Result<Table, CliError> {
    let (title, level) = describe(rules, location, depth)?;
    let odds = Odds::of(&level.selector);
    Ok(odds_table(rules, &format!("{title}: one placement"), &odds))
}

/// `pool`: the ordinary pool's exact odds at a difficulty.
fn pool(rules: &OmegaRules, difficulty: u32) -> Result<Table, CliError> {
    let selector = Selector::ordinary_pool(&rules.bestiary, i64::from(difficulty))
        .map_err(|e| CliError::Usage(e.problem))?;
    let size = rules.bestiary.pool_size(i64::from(difficulty));
    let title = format!("Ordinary pool at difficulty {difficulty}: {size} species");
    Ok(odds_table(rules, &title, &Odds::of(&selector)))
}

/// `population`: the exact distribution of a floor's placement count.
fn population(rules: &OmegaRules, location: &str, depth: u32) -> Result<Table, CliError> {
    let (title, level) = describe(rules, location, depth)?;
    let rows = level
        .population
        .distribution()
        .into_iter()
        .map(|(count, p)| vec![Cell::Int(count.into()), Cell::Prob(p)])
        .collect();
    Ok(Table {
        title: format!("{title}: placements per floor"),
        columns: vec!["count", "probability"],
        rows,
    })
}

/// `wander-odds`: the chance of a wandering arrival per check at every depth of a
/// dungeon.
fn wander_odds(rules: &OmegaRules, location: &str) -> Result<Table, CliError> {
    let env = rules.locations.get(location)?;
    let Some(dungeon) = &env.dungeon else {
        return Err(CliError::Usage(format!(
            "{} is not a dungeon: wandering checks run only in dungeons",
            quoted(location)
        )));
    };
    let rows = env
        .levels()
        .iter()
        .map(|level| {
            let rule = WanderRule {
                max_depth: dungeon.depths,
                difficulty: level.difficulty,
            };
            vec![
                Cell::Int(level.depth.into()),
                Cell::Prob(rule.probability()),
            ]
        })
        .collect();
    Ok(Table {
        title: format!("{}: chance of a wandering arrival per check", env.name),
        columns: vec!["depth", "probability"],
        rows,
    })
}

/// What `floor` was asked for.
struct FloorAsked<'a> {
    location: &'a str,
    depth: u32,
    deity: Option<u8>,
    seed: u64,
}

impl<'a> FloorAsked<'a> {
    fn new(location: &'a str, depth: u32, deity: Option<u8>, seed: u64) -> Self {
        Self {
            location,
            depth,
            deity,
            seed,
        }
    }
}

/// `floor`: a reference floor populated by the plugin, and its roster.
fn floor(rules: OmegaRules, asked: &FloorAsked<'_>, out: &mut impl Write) -> Result<(), CliError> {
    let deities = rules.bestiary.names().deities.len();
    let mut request = OmegaFloorRequested::new(asked.location, asked.depth);
    if let Some(deity) = asked.deity {
        if !(1..=deities).contains(&usize::from(deity)) {
            return Err(CliError::Usage(format!(
                "--deity {deity}: the bestiary has deities 1 to {deities}"
            )));
        }
        request = request.in_temple(deity);
    }
    let omega = OmegaPlugin::default().with_rules(rules);
    let mut app = reference_scene_for(asked.seed, omega, request)?;
    let world = app.world_mut();
    write!(out, "{}\n{}", render_floor(world), roster(world)).map_err(stdout)
}

/// What `sample` was asked for.
struct SampleAsked<'a> {
    location: &'a str,
    depth: u32,
    floors: u32,
    seed: u64,
    threads: Option<u32>,
}

/// `sample`: floors populated through the plugin, their species against the exact odds.
fn sample(
    rules: OmegaRules,
    asked: &SampleAsked<'_>,
    format: Format,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let (title, level) = describe(&rules, asked.location, asked.depth)?;
    let odds = Odds::of(&level.selector);
    let omega = OmegaPlugin::default().with_rules(rules.clone());
    let started = Instant::now();
    let counts = sample_in_parallel(&omega, asked)?;
    let seconds = started.elapsed().as_secs_f64();
    let (floors, seed) = (asked.floors, asked.seed);
    let title = format!("{title}: {floors} floors through the plugin, seed {seed}");
    compare(&rules, &title, &counts, &odds, format, out, err)?;
    note(err, format_args!("{floors} floors in {seconds:.3} s"));
    Ok(())
}

/// `arena`: the opponent the plugin sends for a counter and rank, with a seed.
fn arena(rules: OmegaRules, (counter, rank, seed): (u32, u32, u64)) -> Result<Table, CliError> {
    let omega = OmegaPlugin::default().with_rules(rules.clone());
    let Some((name, species, stats)) = arena_opponent(seed, omega, counter, rank) else {
        return Err(CliError::Usage(
            "these rules have no arena (a game's own bestiary brings its own variants)".into(),
        ));
    };
    let s = stats.0;
    let template = &rules.bestiary.get(species.id).name;
    Ok(Table {
        title: format!(
            "Arena opponent {counter} for rank {rank}, seed {seed}: {} ({template})",
            name.0
        ),
        columns: vec![
            "name",
            "species",
            "level",
            "hp",
            "hit",
            "ac",
            "damage",
            "speed",
            "experience",
        ],
        rows: vec![vec![
            Cell::Text(name.0),
            Cell::Int(species.id.0.into()),
            Cell::Int(s.level.into()),
            Cell::Int(s.hp.into()),
            Cell::Int(s.hit.into()),
            Cell::Int(s.ac.into()),
            Cell::Int(s.damage.into()),
            Cell::Int(s.speed.into()),
            Cell::Int(s.xp.into()),
        ]],
    })
}

/// The level at a location and depth, with a title line naming both.
fn describe<'a>(
    rules: &'a OmegaRules,
    location: &str,
    depth: u32,
) -> Result<(String, &'a Level), CliError> {
    let env = rules.locations.get(location)?;
    let level = env.level(depth)?;
    let title = if env.is_dungeon() {
        format!(
            "{}, depth {} (difficulty {})",
            env.name, level.depth, level.difficulty
        )
    } else {
        format!("{} (difficulty {})", env.name, level.difficulty)
    };
    Ok((title, level))
}

/// Rows `species,name,probability` for the species with a nonzero chance.
fn odds_table(rules: &OmegaRules, title: &str, odds: &Odds) -> Table {
    let rows = odds
        .nonzero()
        .map(|(id, p)| {
            vec![
                Cell::Int(id.0.into()),
                Cell::Text(rules.bestiary.get(id).name.clone()),
                Cell::Prob(p),
            ]
        })
        .collect();
    Table {
        title: title.to_owned(),
        columns: vec!["species", "name", "probability"],
        rows,
    }
}

/// `simulate`: placements drawn with the rules at a location and depth, with a seed,
/// against the exact odds.
fn simulate(
    rules: &OmegaRules,
    (location, depth): (&str, u32),
    (placements, seed): (u64, u64),
    format: Format,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let (title, level) = describe(rules, location, depth)?;
    let odds = Odds::of(&level.selector);
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("simulate"));
    let mut counts = vec![0u64; odds.by_species().len()];
    let bar = progress_bar(placements);
    let started = Instant::now();
    let mut left = placements;
    while left > 0 {
        // A piece at a time: the bar moves, and Ctrl-C is seen within a few milliseconds.
        let piece = left.min(SIMULATE_PIECE);
        for _ in 0..piece {
            counts[level.selector.sample(&mut rng).index()] += 1;
        }
        left -= piece;
        bar.inc(piece);
        if interrupt::interrupted() {
            bar.finish_and_clear();
            return Err(CliError::Interrupted);
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let title = format!("{title}: {placements} placements, seed {seed}");
    compare(rules, &title, &counts, &odds, format, out, err)?;
    let rate = placements as f64 / seconds.max(1e-9);
    note(
        err,
        format_args!(
            "{placements} placements in {seconds:.4} s: {:.1} million placements per second",
            rate / 1e6
        ),
    );
    Ok(())
}

/// How many placements `simulate` draws between two looks at the progress bar and Ctrl-C.
const SIMULATE_PIECE: u64 = 1 << 16;

/// How many floors one worker populates in one app before it takes the next chunk.
const SAMPLE_CHUNK: u32 = 1_024;

/// `sample`: the floors in chunks on a pool of threads, each chunk in its own app; floor
/// `i` is the same in any chunk, so the counts (added up) are the same for any number of
/// threads. A progress bar shows on a terminal's standard error.
fn sample_in_parallel(omega: &OmegaPlugin, asked: &SampleAsked<'_>) -> Result<Vec<u64>, CliError> {
    let SampleAsked {
        location,
        depth,
        floors,
        seed,
        threads,
    } = *asked;
    use rayon::prelude::*;
    let (pool, bar) = workers(threads, floors)?;
    let starts: Vec<u32> = (0..floors).step_by(SAMPLE_CHUNK as usize).collect();
    let chunks: Vec<Vec<u64>> = pool.install(|| {
        starts
            .par_iter()
            .map(|&start| {
                if interrupt::interrupted() {
                    return Ok(Vec::new());
                }
                let end = start.saturating_add(SAMPLE_CHUNK).min(floors);
                let counts = sample_floors(seed, omega.clone(), location, depth, start..end);
                bar.inc(u64::from(end - start));
                counts
            })
            .collect::<Result<_, _>>()
    })?;
    bar.finish_and_clear();
    interrupt::check()?;
    let species = omega.rules().bestiary.species().len();
    Ok(chunks.iter().fold(vec![0; species], |mut total, chunk| {
        for (sum, count) in total.iter_mut().zip(chunk) {
            *sum += count;
        }
        total
    }))
}

/// Prints observed counts against `N x` exact odds (`N` the total observed), then a
/// chi-squared line on `err`.
fn compare(
    rules: &OmegaRules,
    title: &str,
    counts: &[u64],
    odds: &Odds,
    format: Format,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let n: u64 = counts.iter().sum();
    let expected: Vec<f64> = odds.by_species().iter().map(|p| p * n as f64).collect();
    let rows = counts
        .iter()
        .zip(&expected)
        .enumerate()
        .filter(|&(_, (&o, &e))| o > 0 || e > 0.0)
        .map(|(i, (&o, &e))| {
            vec![
                Cell::Int(i as i64),
                Cell::Text(rules.bestiary.species()[i].name.clone()),
                Cell::Int(o as i64),
                Cell::Real(e),
            ]
        })
        .collect();
    Table {
        title: title.to_owned(),
        columns: vec!["species", "name", "observed", "expected"],
        rows,
    }
    .write(format, out)
    .map_err(stdout)?;
    let test = ChiSquared::test(counts, &expected);
    note(
        err,
        format_args!(
            "chi-squared {:.3} on {} degrees of freedom: p = {:.4}",
            test.statistic,
            test.degrees_of_freedom,
            test.p_value()
        ),
    );
    Ok(())
}
