//! The `denizen` subcommands: what each prints, given the rules and the arguments.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};
use denizen_bevy::omega::OmegaPlugin;
use denizen_bevy::omega::messages::OmegaFloorRequested;
use denizen_bevy::omega::scene::{arena_opponent, reference_scene_for, sample_floors};
use denizen_bevy::omega::view::roster;
use denizen_bevy::view::render_floor;
use denizen_captive::{
    BaseEncounters, EncounterSettings, EncounterTable, Growth, Overflow, SpecialStage, Stop,
    check_special_cells, encounter_stream, reference_base,
};
use denizen_core::{
    ChiSquared, DataFile, Square, StreamPurpose, WorldSeed, quoted, read_data_file,
};
use denizen_omega::wander::WanderRule;
use denizen_omega::{Level, Odds, OmegaFiles, OmegaRules, Selector};

use crate::error::io_error;
pub use crate::error::{CliError, stdout};
use crate::interrupt;
use crate::spoiler;
use crate::table::{Cell, Format, Table, TextFormat};
use crate::workers::{progress_bar, workers};

/// The most placements `simulate` draws in one run (a few seconds at the measured rate).
pub const MAX_SIMULATED_PLACEMENTS: u64 = 100_000_000;

/// The most floors `sample` populates in one run (about 8 s on two cores).
pub const MAX_SAMPLED_FLOORS: u32 = 1_000_000;

/// Monster-population rules: exact odds, sampling and spoilers.
#[derive(Debug, Parser)]
#[command(name = "denizen", version, about)]
pub struct Cli {
    /// Omega's data files for the Omega command that follows (they may also come after
    /// it); any other command refuses them.
    #[command(flatten)]
    pub data: OmegaData,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

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
    fn given(&self) -> bool {
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

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
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
    /// Places the encounter groups of one base floor (Captive's generator) and lists them.
    Encounters {
        /// Global map number, from 0: (mission - 1) x 11 + base.
        map: u32,
        /// Floors of the base (base maps handed out); 1 on map 0 and 3 otherwise by default.
        #[arg(long)]
        floors: Option<u32>,
        /// Strength past 65,535: computed in full and capped, or Captive's 16-bit
        /// arithmetic.
        #[arg(long, value_enum, default_value_t = OverflowArg::Saturate)]
        overflow: OverflowArg,
        /// Armature and skill: as the generator's code rolls them, or growing with the
        /// map as the guide's prose says.
        #[arg(long, value_enum, default_value_t = GrowthArg::Code)]
        growth: GrowthArg,
        /// A special stage's group, made before the regular ones, at a cell:
        /// `prisoner@X,Y`, `door-N@X,Y` (the guard of laser door N, 0-7) or
        /// `dead-end@X,Y`. Repeat for more, in order.
        #[arg(long, value_name = "STAGE@X,Y", value_parser = parse_special)]
        special: Vec<(Square, SpecialStage)>,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TextFormat::Table)]
        format: TextFormat,
    },
    /// Angband 2.7.9: the allocator's and the room kinds' exact odds.
    Angband {
        /// What to print.
        #[command(subcommand)]
        command: crate::angband::AngbandCommand,
    },
    /// Draws the exact odds as a chart: SVG, and PNG with --png.
    Chart {
        /// Which chart.
        #[command(subcommand)]
        chart: crate::chart::ChartCommand,
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

impl Command {
    /// Whether the command can run long enough to want a progress bar and to stop on
    /// Ctrl-C with a note (`sample`, `simulate`, `angband sample`).
    pub fn runs_long(&self) -> bool {
        match self {
            Command::Sample { .. } | Command::Simulate { .. } => true,
            Command::Angband { command } => command.runs_long(),
            _ => false,
        }
    }

    /// Whether the command reads Omega's data files (and so takes `--bestiary` and
    /// `--locations`).
    fn reads_omega_data(&self) -> bool {
        match self {
            Command::Odds { .. }
            | Command::Pool { .. }
            | Command::Population { .. }
            | Command::Simulate { .. }
            | Command::WanderOdds { .. }
            | Command::Floor { .. }
            | Command::Sample { .. }
            | Command::Arena { .. }
            | Command::Spoiler { .. } => true,
            Command::Chart { chart } => chart.reads_omega_data(),
            Command::Encounters { .. } | Command::Angband { .. } => false,
        }
    }
}

/// `--special` of `denizen encounters`: `prisoner@3,4`, `door-2@3,4` or `dead-end@3,4`.
fn parse_special(text: &str) -> Result<(Square, SpecialStage), String> {
    let usage = || {
        format!(
            "{}: expected prisoner@X,Y, door-N@X,Y (N 0-7) or dead-end@X,Y",
            quoted(text)
        )
    };
    let (stage, cell) = text.split_once('@').ok_or_else(usage)?;
    let (x, y) = cell.split_once(',').ok_or_else(usage)?;
    let cell = Square {
        x: x.trim().parse().map_err(|_| usage())?,
        y: y.trim().parse().map_err(|_| usage())?,
    };
    let stage = match stage {
        "prisoner" => SpecialStage::Prisoner,
        "dead-end" => SpecialStage::DeadEnd,
        door => {
            let door = door
                .strip_prefix("door-")
                .and_then(|n| n.parse().ok())
                .filter(|&n: &u32| n <= 7)
                .ok_or_else(usage)?;
            SpecialStage::DoorGuard { door }
        }
    };
    Ok((cell, stage))
}

/// `--overflow` of `denizen encounters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OverflowArg {
    /// Compute in full and cap at 65,500.
    Saturate,
    /// Captive's 16-bit arithmetic.
    Wrap,
}

/// `--growth` of `denizen encounters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GrowthArg {
    /// As the generator's code does.
    Code,
    /// As the guide's prose says.
    Prose,
}

/// Loads the rules a command asks for: shipped data unless files are given.
pub fn load_rules(data: &OmegaData) -> Result<OmegaRules, CliError> {
    if data.bestiary.is_none() && data.locations.is_none() {
        return Ok(OmegaRules::shipped());
    }
    let read = |path: &Option<PathBuf>, shipped: &'static str, name: &'static str| match path {
        Some(p) => read_data_file(p)
            .map(|text| (text, p.display().to_string()))
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

/// Runs a parsed command line, writing results to `out` and summaries to `err`.
pub fn run(cli: &Cli, out: &mut impl Write, err: &mut impl Write) -> Result<(), CliError> {
    if cli.data.given() && !cli.command.reads_omega_data() {
        return Err(CliError::Usage(
            "--bestiary and --locations are Omega's data: only Omega's commands read them".into(),
        ));
    }
    match &cli.command {
        Command::Odds {
            location,
            depth,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let (title, level) = describe(&rules, location, *depth)?;
            odds_table(
                &rules,
                &format!("{title}: one placement"),
                &Odds::of(&level.selector),
            )
            .write(*format, out)
            .map_err(stdout)
        }
        Command::Pool {
            difficulty,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let selector = Selector::ordinary_pool(&rules.bestiary, i64::from(*difficulty))
                .map_err(|e| CliError::Usage(e.problem))?;
            let size = rules.bestiary.pool_size(i64::from(*difficulty));
            let title = format!("Ordinary pool at difficulty {difficulty}: {size} species");
            odds_table(&rules, &title, &Odds::of(&selector))
                .write(*format, out)
                .map_err(stdout)
        }
        Command::Population {
            location,
            depth,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let (title, level) = describe(&rules, location, *depth)?;
            let rows = level
                .population
                .distribution()
                .into_iter()
                .map(|(count, p)| vec![Cell::Int(count.into()), Cell::Prob(p)])
                .collect();
            Table {
                title: format!("{title}: placements per floor"),
                columns: vec!["count", "probability"],
                rows,
            }
            .write(*format, out)
            .map_err(stdout)
        }
        Command::Simulate {
            location,
            depth,
            placements,
            seed,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let (title, level) = describe(&rules, location, *depth)?;
            simulate(
                &rules,
                &title,
                level,
                *placements,
                *seed,
                (*format).into(),
                out,
                err,
            )
        }
        Command::WanderOdds {
            location,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
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
            Table {
                title: format!("{}: chance of a wandering arrival per check", env.name),
                columns: vec!["depth", "probability"],
                rows,
            }
            .write(*format, out)
            .map_err(stdout)
        }
        Command::Floor {
            location,
            depth,
            deity,
            seed,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let deities = rules.bestiary.names().deities.len();
            let mut request = OmegaFloorRequested::new(location.clone(), *depth);
            if let Some(deity) = *deity {
                if !(1..=deities).contains(&usize::from(deity)) {
                    return Err(CliError::Usage(format!(
                        "--deity {deity}: the bestiary has deities 1 to {deities}"
                    )));
                }
                request = request.in_temple(deity);
            }
            let omega = OmegaPlugin::default().with_rules(rules);
            let mut app = reference_scene_for(*seed, omega, request)?;
            let world = app.world_mut();
            write!(out, "{}\n{}", render_floor(world), roster(world)).map_err(stdout)
        }
        Command::Sample {
            location,
            depth,
            floors,
            seed,
            threads,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let (title, level) = describe(&rules, location, *depth)?;
            let odds = Odds::of(&level.selector);
            let omega = OmegaPlugin::default().with_rules(rules.clone());
            let started = Instant::now();
            let counts = sample_in_parallel(*seed, &omega, location, *depth, *floors, *threads)?;
            let seconds = started.elapsed().as_secs_f64();
            let title = format!("{title}: {floors} floors through the plugin, seed {seed}");
            compare(&rules, &title, &counts, &odds, (*format).into(), out, err)?;
            note(err, format_args!("{floors} floors in {seconds:.3} s"));
            Ok(())
        }
        Command::Arena {
            counter,
            rank,
            seed,
            format,
            data,
        } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let omega = OmegaPlugin::default().with_rules(rules.clone());
            let Some((name, species, stats)) = arena_opponent(*seed, omega, *counter, *rank) else {
                return Err(CliError::Usage(
                    "these rules have no arena (a game's own bestiary brings its own variants)"
                        .into(),
                ));
            };
            let s = stats.0;
            let template = &rules.bestiary.get(species.id).name;
            Table {
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
            }
            .write(*format, out)
            .map_err(stdout)
        }
        Command::Encounters {
            map,
            floors,
            overflow,
            growth,
            special,
            seed,
            format,
        } => {
            let settings = EncounterSettings {
                overflow: match overflow {
                    OverflowArg::Saturate => Overflow::Saturate,
                    OverflowArg::Wrap => Overflow::Wrap,
                },
                growth: match growth {
                    GrowthArg::Code => Growth::Code,
                    GrowthArg::Prose => Growth::Prose,
                },
                ..EncounterSettings::default()
            };
            let request = EncounterRequest {
                map: *map,
                floors: *floors,
                settings,
                specials: special,
            };
            encounters(&request, *seed, (*format).into(), out, err)
        }
        Command::Spoiler { out: dir, data } => {
            let rules = load_rules(&data.or(&cli.data))?;
            let written = spoiler::write_all(&rules, dir)?;
            note(
                err,
                format_args!("wrote {written} files to {}", dir.display()),
            );
            Ok(())
        }
        Command::Angband { command } => crate::angband::run(command, out),
        Command::Chart { chart } => crate::chart::run(chart, &cli.data, out),
    }
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

#[allow(clippy::too_many_arguments)]
fn simulate(
    rules: &OmegaRules,
    title: &str,
    level: &Level,
    placements: u64,
    seed: u64,
    format: Format,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
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

/// What `denizen encounters` places.
struct EncounterRequest<'a> {
    map: u32,
    floors: Option<u32>,
    settings: EncounterSettings,
    specials: &'a [(Square, SpecialStage)],
}

fn encounters(
    request: &EncounterRequest<'_>,
    seed: u64,
    format: Format,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let table = EncounterTable::shipped();
    let map = request.map;
    let grid = reference_base(WorldSeed(seed), map);
    let floors = request.floors.unwrap_or(if map == 0 { 1 } else { 3 });
    // The plugin's stream for the first stage on this map: the same groups it spawns.
    check_special_cells(&grid, request.specials).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut rng = encounter_stream(WorldSeed(seed), map, 0);
    let plan = BaseEncounters::new(&table, request.settings, map, floors).place_with_specials(
        &mut rng,
        &grid,
        request.specials,
    );
    let rows = plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let strength = g.members.iter().map(|m| m.strength);
            let carries = g.carries.map_or_else(|| "-".to_owned(), |c| c.to_string());
            vec![
                Cell::Int(i as i64),
                Cell::Int(g.type_id.into()),
                Cell::Int(g.cell.x.into()),
                Cell::Int(g.cell.y.into()),
                Cell::Int(g.members.len() as i64),
                Cell::Int(g.speed.into()),
                Cell::Int(strength.clone().min().unwrap_or(0).into()),
                Cell::Int(strength.max().unwrap_or(0).into()),
                Cell::Int(
                    g.members
                        .iter()
                        .map(|m| m.armature)
                        .max()
                        .unwrap_or(0)
                        .into(),
                ),
                Cell::Int(g.members.iter().map(|m| m.skill).max().unwrap_or(0).into()),
                Cell::Text(carries),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Base map {map} (family mask {}), seed {seed}: {} groups",
            plan.mask,
            plan.groups.len()
        ),
        columns: vec![
            "group",
            "type",
            "cell_x",
            "cell_y",
            "size",
            "speed",
            "strength_min",
            "strength_max",
            "armature_max",
            "skill_max",
            "carries",
        ],
        rows,
    }
    .write(format, out)
    .map_err(stdout)?;
    let stopped = match plan.stopped {
        None => String::new(),
        Some(Stop::MemoryFull) => "; stopped early: the group memory is full".to_owned(),
        Some(Stop::NoEligibleType(c)) => {
            format!("; stopped early: no {c:?} type is eligible on this map")
        }
    };
    note(
        err,
        format_args!(
            "{} groups from {} attempts{stopped}",
            plan.groups.len(),
            plan.attempts
        ),
    );
    Ok(())
}

/// How many floors one worker populates in one app before it takes the next chunk.
const SAMPLE_CHUNK: u32 = 1_024;

/// `sample`: the floors in chunks on a pool of threads, each chunk in its own app; floor
/// `i` is the same in any chunk, so the counts (added up) are the same for any number of
/// threads. A progress bar shows on a terminal's standard error.
fn sample_in_parallel(
    seed: u64,
    omega: &OmegaPlugin,
    location: &str,
    depth: u32,
    floors: u32,
    threads: Option<u32>,
) -> Result<Vec<u64>, CliError> {
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

/// Writes a summary line to standard error. Its failure (a closed or full stream) is
/// ignored: the answer is on standard output and the exit code says whether it is whole.
fn note(err: &mut dyn Write, line: std::fmt::Arguments<'_>) {
    let _ = writeln!(err, "{line}");
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
