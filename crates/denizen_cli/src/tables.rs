//! `denizen tables`: a game's own bestiary files: their exact odds, samples of them, a
//! populated floor, the lint, and a chart of the expected counts by depth.

use std::collections::BTreeMap;
use std::io::Write;

use denizen_core::{FloorGrid, Square, SquareTags, StreamPurpose, WorldSeed, quoted};
use denizen_tables::reference::reference_floor;
use denizen_tables::{
    Bestiary, Context, FloorOdds, FloorTerms, Odds, Per, RegionOdds, UniqueLedger, floor_counts,
    plan_floor, region_odds, sample_stream, table_floor_odds, table_odds,
};

use crate::bestiary_files::{ContextArgs, Files, by_key, in_branch, load, table_of};
use crate::chart::tables::plot;
use crate::chart::{ChartOut, write_chart, write_picture};
use crate::error::{CliError, stdout};
use crate::interrupt;
use crate::table::{Cell, Table, TextFormat, note};
use crate::workers::workers;

/// What to do with the files.
#[derive(Debug, clap::Subcommand)]
pub enum TablesCommand {
    /// The exact expected count of each species at a depth, per floor or per placement.
    Odds {
        /// The files.
        #[command(flatten)]
        files: Files,
        /// The depth (with --map and no --depth, the level's `depth` field).
        #[arg(long)]
        depth: Option<u32>,
        /// A level drawn in an editor (`.ldtk` or `.tmx`): the odds of its floor, of the
        /// floor's own placements and of each region its rules populate; per floor only.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["table", "budget", "danger"])]
        map: Option<std::path::PathBuf>,
        /// The LDtk level, by identifier (the project's first otherwise).
        #[arg(long, value_name = "NAME", requires = "map")]
        level: Option<String>,
        /// Per floor (the default) or per placement.
        #[arg(long, value_enum, default_value_t = PerArg::Floor)]
        per: PerArg,
        /// A floor whose placements draw from this table instead of the floor's.
        #[arg(long, value_name = "KEY")]
        table: Option<String>,
        /// The branch whose floors these are (the default floor otherwise).
        #[arg(long, value_name = "KEY")]
        branch: Option<String>,
        /// The context.
        #[command(flatten)]
        context: ContextArgs,
        /// A budgeted floor's whole budget (depth term included), instead of its roll; per
        /// floor only.
        #[arg(long, value_name = "N")]
        budget: Option<u32>,
        /// The floor's danger instead: the chance of each danger and of at most it; per
        /// floor only.
        #[arg(long)]
        danger: bool,
        /// Where this species comes from instead: every path that brings it (its rows by
        /// file and entry, nested tables, groups, escorts, followers, out-of-depth
        /// draws, regions), each with its exact share of its expected count per floor.
        #[arg(long, value_name = "SPECIES", conflicts_with_all = ["table", "budget", "danger", "dist"])]
        explain: Option<String>,
        /// The distribution over a floor instead, of a species' count (`KEY`, or
        /// `species:KEY` for a species keyed `danger`), a tag's (`tag:NAME`) or the
        /// danger (`danger`): each count's chance, with P(none), P(at least one), the
        /// mean and quantiles.
        #[arg(long, value_name = "WHAT", conflicts_with_all = ["table", "budget", "danger"])]
        dist: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TextFormat::Table)]
        format: TextFormat,
    },
    /// Samples floors at a depth: each species' mean count per floor and its deviation.
    Sample {
        /// The files.
        #[command(flatten)]
        files: Files,
        /// The depth.
        #[arg(long)]
        depth: u32,
        /// How many floors (1 to 100,000,000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000_000))]
        floors: u32,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (every core by default); the figures are the same for any number.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
        threads: Option<u32>,
        /// How many floors had each danger instead (`danger,floors`), to set beside
        /// `odds --danger`.
        #[arg(long)]
        danger: bool,
        /// The branch whose floors these are (the default floor otherwise).
        #[arg(long, value_name = "KEY")]
        branch: Option<String>,
        /// The context.
        #[command(flatten)]
        context: ContextArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = TextFormat::Table)]
        format: TextFormat,
    },
    /// A populated floor: its map and its creatures. The reference floor's first room is
    /// tagged `safe` and the player stands in it; with --map, a level drawn in LDtk or
    /// Tiled is populated instead.
    Floor {
        /// The files.
        #[command(flatten)]
        files: Files,
        /// The depth (with --map and no --depth, the level's `depth` field).
        #[arg(long)]
        depth: Option<u32>,
        /// A level drawn in an editor to populate: an LDtk project (`.ldtk`) or a Tiled
        /// map (`.tmx`). Its tags and regions' kinds tag its squares, the player stands on
        /// its `start` mark, and its fields the bestiary's context declares set the context
        /// (the options below win).
        #[arg(long, value_name = "FILE")]
        map: Option<std::path::PathBuf>,
        /// The LDtk level to populate, by identifier (the project's first otherwise).
        #[arg(long, value_name = "NAME", requires = "map")]
        level: Option<String>,
        /// World seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also draw the floor as an SVG file: its squares, regions and creatures.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<std::path::PathBuf>,
        /// Also write a PNG beside the SVG (the same name ending in `.png`).
        #[arg(long, requires = "output")]
        png: bool,
        /// Placements draw from this table instead of the floor's.
        #[arg(long, value_name = "KEY")]
        table: Option<String>,
        /// The branch whose floors these are (the default floor otherwise).
        #[arg(long, value_name = "KEY")]
        branch: Option<String>,
        /// The context.
        #[command(flatten)]
        context: ContextArgs,
    },
    /// Checks the files: errors stop the load, warnings are listed.
    Lint {
        /// The files.
        #[command(flatten)]
        files: Files,
        /// Fail when there is any warning.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// The expected count of each species per floor by depth, stacked: SVG, and PNG with
    /// --png (also `denizen chart tables`).
    Chart(crate::chart::tables::ChartArgs),
    /// What an edit did: each species', tag's and the danger's expected count per floor
    /// at each depth, before (--against) and after, the largest changes first; exit code
    /// 1 when a change passes --threshold.
    Diff(crate::diff::DiffArgs),
    /// Checks the balance claims of a RON file at every depth each names; exit code 1
    /// when one fails.
    Check(crate::balance::CheckArgs),
    /// Writes one self-contained HTML page: expected counts by depth, the danger, the
    /// lint, each species' table and explanation, the diff with --against and the
    /// claims' verdicts with --checks.
    Report(crate::report::ReportArgs),
    /// Rewrites the report whenever a file changes, printing the lint, until Ctrl-C; the
    /// open page reloads itself and keeps its sort and filter.
    Watch(crate::report::ReportArgs),
}

impl TablesCommand {
    /// Whether it runs long (`sample`).
    pub fn runs_long(&self) -> bool {
        matches!(self, TablesCommand::Sample { .. } | TablesCommand::Watch(_))
    }
}

/// `--per`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PerArg {
    /// A whole floor.
    Floor,
    /// One placement.
    Placement,
}

/// Runs a `denizen tables` command.
pub fn run(
    command: &TablesCommand,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    match command {
        TablesCommand::Odds {
            files,
            depth,
            map,
            level,
            per,
            table,
            branch,
            context,
            budget,
            danger,
            explain,
            dist,
            format,
        } => {
            let (b, ledger) = load(files)?;
            let b = in_branch(b, branch.as_deref())?;
            let given = context.context(&b)?;
            if explain.is_some() || dist.is_some() {
                if *per == PerArg::Placement {
                    return Err(CliError::Usage(
                        "--explain and --dist are figures of a floor: give --per floor".into(),
                    ));
                }
                let site = (map.as_deref(), level.as_deref(), *depth);
                let asked = (explain.as_deref(), dist.as_deref());
                let shown = crate::figures::table((&b, &ledger, given), site, asked)?;
                return shown.write((*format).into(), out).map_err(stdout);
            }
            if let Some(path) = map {
                if *per == PerArg::Placement {
                    return Err(CliError::Usage("a map's odds are per floor".into()));
                }
                let site = crate::editor_level::read(path, level.as_deref(), *depth, &b)?;
                let depth = site.depth.ok_or_else(|| {
                    CliError::Usage("give --depth, or a map whose level has a `depth` field".into())
                })?;
                let context = crate::editor_level::with_given(site.context, &given);
                let odds = region_odds(&b, depth, &site.regions, &ledger, &context)
                    .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
                let shown = region_odds_table(&b, &odds, depth);
                return shown.write((*format).into(), out).map_err(stdout);
            }
            let context = given;
            let depth = &depth.ok_or_else(|| CliError::Usage("give --depth".into()))?;
            let table = table_of(&b, table.as_deref())?.unwrap_or(b.floor().table);
            let drawn = (b.table(table).key.as_str(), *depth);
            let usage = |e: denizen_tables::OddsError| CliError::Usage(e.to_string());
            let shown = match per {
                PerArg::Placement if budget.is_some() || *danger => {
                    return Err(CliError::Usage(
                        "--budget and --danger are figures of a floor: give --per floor".into(),
                    ));
                }
                PerArg::Placement => {
                    let odds = table_odds(&b, table, *depth, &ledger, &context, Per::Placement);
                    odds_table(&b, &odds.map_err(usage)?, drawn, None)
                }
                PerArg::Floor => {
                    let floor = table_floor_odds(&b, table, *depth, &ledger, &context, *budget)
                        .map_err(usage)?;
                    match danger {
                        true => danger_table(&floor, drawn),
                        false => odds_table(&b, &floor.odds, drawn, Some(&floor)),
                    }
                }
            };
            shown.write((*format).into(), out).map_err(stdout)
        }
        TablesCommand::Sample {
            files,
            depth,
            floors,
            seed,
            threads,
            danger,
            branch,
            context,
            format,
        } => {
            let (b, ledger) = load(files)?;
            let b = in_branch(b, branch.as_deref())?;
            let context = context.context(&b)?;
            let depths = b.floor().depths;
            if !depths.contains(*depth) {
                return Err(CliError::Usage(format!(
                    "depth {depth} is outside the floor's depths, {depths}"
                )));
            }
            let (sums, dangers) =
                sample(&b, (&ledger, &context), (*depth, *floors, *seed), *threads)?;
            let shown = match danger {
                true => sampled_danger_table(&dangers, (*depth, *floors, *seed)),
                false => sample_table(&b, &sums, (*depth, *floors, *seed)),
            };
            shown.write((*format).into(), out).map_err(stdout)
        }
        TablesCommand::Floor {
            files,
            depth,
            map,
            level,
            seed,
            output,
            png,
            table,
            branch,
            context,
        } => {
            let (b, ledger) = load(files)?;
            let b = in_branch(b, branch.as_deref())?;
            let site = match map {
                Some(path) => crate::editor_level::read(path, level.as_deref(), *depth, &b)?,
                None => reference_site(*seed)?,
            };
            let given = context.context(&b)?;
            let depth = depth.or(site.depth).ok_or_else(|| {
                CliError::Usage("give --depth, or a map whose level has a `depth` field".into())
            })?;
            let request = FloorTerms {
                depth,
                point: site.player,
                table: table_of(&b, table.as_deref())?,
                context: crate::editor_level::with_given(site.context.clone(), &given),
                regions: site.regions.clone(),
            };
            if let Some(path) = map {
                denizen_tables::check_regions(&b, &request.regions, depth, &request.context)
                    .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
            }
            let picture = output.clone().map(|file| ChartOut { file, png: *png });
            floor(
                &b,
                &ledger,
                (&site.grid, &site.tags),
                (request, *seed, picture.as_ref()),
                out,
                err,
            )
        }
        TablesCommand::Lint {
            files,
            deny_warnings,
        } => {
            let (b, _) = load(files)?;
            for warning in b.warnings() {
                writeln!(out, "warning: {warning}").map_err(stdout)?;
            }
            let counted = match b.warnings().len() {
                1 => "1 warning".to_owned(),
                n => format!("{n} warnings"),
            };
            note(err, format_args!("{counted}"));
            if *deny_warnings && !b.warnings().is_empty() {
                return Err(CliError::Failed(format!("{counted}, and --deny-warnings")));
            }
            Ok(())
        }
        TablesCommand::Chart(args) => write_chart(&[plot(args)?], &args.out, out),
        TablesCommand::Diff(args) => crate::diff::run(args, out, err),
        TablesCommand::Check(args) => crate::balance::run(args, out),
        TablesCommand::Report(args) => crate::report::run(args, out, err),
        TablesCommand::Watch(args) => crate::report::watch(args, out, err),
    }
}

/// `species,expected`, species by key; sampled figures add their standard errors; last,
/// each species' share of the expected danger (its cost times its expected count). The
/// title names the table drawn from, the depth and the expected danger, and per floor
/// (`floor` given) the danger's 5%, 50% and 95% quantiles.
fn odds_table(
    b: &Bestiary,
    odds: &Odds,
    (drawn, depth): (&str, u32),
    floor: Option<&FloorOdds>,
) -> Table {
    let rows = by_key(b)
        .into_iter()
        .map(|s| {
            let species = &b.species()[s];
            let mut row = vec![
                Cell::Text(species.key.clone()),
                Cell::Stat(odds.expected[s]),
            ];
            row.extend(odds.standard_errors.as_ref().map(|e| Cell::Stat(e[s])));
            row.push(Cell::Stat(f64::from(species.cost) * odds.expected[s]));
            row
        })
        .collect();
    let (how, columns) = match odds.standard_errors {
        Some(_) => (
            format!(
                "sampled from {} floors: past the exact limits (uniques, caps or states)",
                denizen_tables::odds::SAMPLED_FLOORS
            ),
            vec!["species", "expected", "standard_error", "danger"],
        ),
        None => ("exact".to_owned(), vec!["species", "expected", "danger"]),
    };
    let per = if floor.is_some() {
        "floor"
    } else {
        "placement"
    };
    let quantiles = floor.map_or_else(String::new, |f| {
        let q = |q| f.danger_quantile(q);
        format!(" (5%, 50%, 95%: {}, {}, {})", q(0.05), q(0.5), q(0.95))
    });
    Table {
        title: format!(
            "Expected count of each species per {per} from table {} at depth {depth} ({how}); expected danger {:.4}{quantiles}",
            quoted(drawn),
            odds.danger(b)
        ),
        columns,
        rows,
    }
}

/// `danger,chance,at_most`: each danger a floor can have, the chance of it and of at most
/// it; the title gives the mean.
fn danger_table(floor: &FloorOdds, (drawn, depth): (&str, u32)) -> Table {
    let rows = crate::figures::chance_rows(&floor.danger, Cell::Stat);
    let how = how_worked(&floor.odds);
    Table {
        title: format!(
            "Danger of a floor from table {} at depth {depth} ({how}); mean {:.4}",
            quoted(drawn),
            floor.mean_danger()
        ),
        columns: vec!["danger", "chance", "at_most"],
        rows,
    }
}

/// Each species' count summed over floors, and its squares.
type Sums = Vec<(u64, u64)>;

/// How many floors had each danger.
type Dangers = BTreeMap<u64, u64>;

/// Sums and sums of squares of each species' count over `floors` floors, and how many
/// floors had each danger; floor `i` drawn from its own stream, so the figures are the
/// same for any number of threads.
fn sample(
    b: &Bestiary,
    (ledger, context): (&UniqueLedger, &Context),
    (depth, floors, seed): (u32, u32, u64),
    threads: Option<u32>,
) -> Result<(Sums, Dangers), CliError> {
    use rayon::prelude::*;
    const CHUNK: u32 = 4_096;
    let (pool, bar) = workers(threads, floors)?;
    let starts: Vec<u32> = (0..floors).step_by(CHUNK as usize).collect();
    let chunks: Vec<(Sums, Dangers)> = pool.install(|| {
        starts
            .par_iter()
            .map(|&start| {
                let mut sums = vec![(0u64, 0u64); b.species().len()];
                let mut dangers = BTreeMap::new();
                if interrupt::interrupted() {
                    return (sums, dangers);
                }
                let end = start.saturating_add(CHUNK).min(floors);
                for i in start..end {
                    let counts = floor_counts(
                        b,
                        depth,
                        ledger,
                        context,
                        &mut sample_stream(seed, depth, u64::from(i)),
                    )
                    // The depth and context were checked before the run: no floor is
                    // refused.
                    .unwrap_or_default();
                    let mut danger = 0;
                    for ((sum, &c), s) in sums.iter_mut().zip(&counts).zip(b.species()) {
                        sum.0 += u64::from(c);
                        sum.1 += u64::from(c) * u64::from(c);
                        danger += u64::from(c) * u64::from(s.cost);
                    }
                    *dangers.entry(danger).or_insert(0) += 1;
                }
                bar.inc(u64::from(end - start));
                (sums, dangers)
            })
            .collect()
    });
    bar.finish_and_clear();
    interrupt::check()?;
    let mut dangers = Dangers::new();
    let mut total = vec![(0, 0); b.species().len()];
    for (sums, danger) in &chunks {
        for (t, c) in total.iter_mut().zip(sums) {
            t.0 += c.0;
            t.1 += c.1;
        }
        for (k, n) in danger {
            *dangers.entry(*k).or_insert(0) += n;
        }
    }
    Ok((total, dangers))
}

/// `danger,floors`: how many sampled floors had each danger.
fn sampled_danger_table(dangers: &Dangers, (depth, floors, seed): (u32, u32, u64)) -> Table {
    let rows = (dangers.iter())
        .map(|(&k, &n)| vec![Cell::Int(k as i64), Cell::Int(n as i64)])
        .collect();
    Table {
        title: format!("{floors} floors at depth {depth}, seed {seed}: how many had each danger"),
        columns: vec!["danger", "floors"],
        rows,
    }
}

fn sample_table(
    b: &Bestiary,
    sums: &[(u64, u64)],
    (depth, floors, seed): (u32, u32, u64),
) -> Table {
    let n = f64::from(floors);
    let rows = by_key(b)
        .into_iter()
        .map(|s| {
            let (sum, squares) = (sums[s].0 as f64, sums[s].1 as f64);
            let mean = sum / n;
            let sd = if floors > 1 {
                ((squares - sum * mean) / (n - 1.0)).max(0.0).sqrt()
            } else {
                0.0
            };
            vec![
                Cell::Text(b.species()[s].key.clone()),
                Cell::Stat(mean),
                Cell::Stat(sd),
            ]
        })
        .collect();
    Table {
        title: format!(
            "{floors} floors at depth {depth}, seed {seed}: each species' count per floor"
        ),
        columns: vec!["species", "mean", "sd"],
        rows,
    }
}

/// The reference floor of a seed, the player in the middle of its first room, tagged
/// `safe`.
fn reference_site(seed: u64) -> Result<crate::editor_level::MapFloor, CliError> {
    let reference =
        reference_floor(WorldSeed(seed), 64, 24).map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(crate::editor_level::MapFloor {
        tags: reference.tags(),
        grid: reference.grid,
        player: reference.player,
        depth: None,
        context: Default::default(),
        regions: Default::default(),
    })
}

/// How figures were worked: exactly, or sampled past the exact limits.
fn how_worked(odds: &Odds) -> String {
    crate::figures::how(odds.standard_errors.is_some())
}

/// `draw,species,expected`: the expected count of each species a draw can bring on a
/// map's floor: the whole `floor`, its `general` placements, then each region its rules
/// populate, by id.
fn region_odds_table(b: &Bestiary, odds: &RegionOdds, depth: u32) -> Table {
    let draws = [("floor", &odds.floor), ("general", &odds.general)].into_iter();
    let draws = draws.chain(odds.regions.iter().map(|(id, o)| (id.as_str(), o)));
    let mut rows = Vec::new();
    for (draw, o) in draws {
        for s in by_key(b).into_iter().filter(|&s| o.expected[s] > 0.0) {
            rows.push(vec![
                Cell::Text(draw.to_owned()),
                Cell::Text(b.species()[s].key.clone()),
                Cell::Stat(o.expected[s]),
            ]);
        }
    }
    let how = how_worked(&odds.floor);
    Table {
        title: format!(
            "Expected count of each species on the map's floor at depth {depth}, its own placements and each region's ({how}); expected danger {:.4}",
            odds.floor.danger(b)
        ),
        columns: vec!["draw", "species", "expected"],
        rows,
    }
}

/// Each region a floor's rules populated: its kind, depth, table, placements and danger.
fn region_table(b: &Bestiary, regions: &[denizen_tables::RegionPlan]) -> Table {
    let rows = regions
        .iter()
        .map(|r| {
            let budget = r.danger.budget.map_or_else(String::new, |n| n.to_string());
            vec![
                Cell::Text(r.id.clone()),
                Cell::Text(r.kind.clone()),
                Cell::Int(r.depth.into()),
                Cell::Text(b.table(r.table).key.clone()),
                Cell::Int(r.placements.into()),
                Cell::Int(r.danger.placed as i64),
                Cell::Int(r.danger.drawn as i64),
                Cell::Text(budget),
                Cell::Int(r.shortfalls.len() as i64),
            ]
        })
        .collect();
    Table {
        title: "Regions, each drawn from its own rule and stream".to_owned(),
        columns: vec![
            "region",
            "kind",
            "depth",
            "table",
            "placements",
            "danger",
            "drawn",
            "budget",
            "not_placed",
        ],
        rows,
    }
}

/// A floor populated by `request` (the player stands on its point).
fn floor(
    b: &Bestiary,
    ledger: &UniqueLedger,
    (grid, tags): (&FloorGrid, &SquareTags),
    (request, seed, picture): (FloorTerms, u64, Option<&ChartOut>),
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let (depth, player) = (request.depth, request.point);
    let regions = request.regions.clone();
    let mut rng = WorldSeed(seed).stream(StreamPurpose::event("tables-floor", "", depth, 0));
    let made = plan_floor(b, grid, tags, request, ledger, &mut rng)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let glyph_at = |at: Square| {
        if Some(at) == player {
            return Some('@');
        }
        made.plan
            .spawns
            .iter()
            .find(|s| s.at == at)
            .map(|s| b.species_of(s.creature.species).glyph)
    };
    write!(out, "{}", grid.render(glyph_at)).map_err(stdout)?;
    let rows = made
        .plan
        .spawns
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let c = &s.creature;
            let follows = c.follows.map_or_else(String::new, |f| {
                format!("{} ({})", f.leader, b.role(f.group, f.kind))
            });
            let mut row = vec![
                Cell::Int(i as i64),
                Cell::Text(b.species_of(c.species).key.clone()),
                Cell::Int(s.at.x.into()),
                Cell::Int(s.at.y.into()),
                Cell::Int(c.hit_points.into()),
                Cell::Text(if c.asleep { "asleep" } else { "awake" }.into()),
                Cell::Text(
                    c.carries
                        .map_or_else(String::new, |item| b.item_name(item).to_owned()),
                ),
                Cell::Text(follows),
                Cell::Text(b.species_of(c.species).about()),
            ];
            if !made.regions.is_empty() {
                row.push(Cell::Text(c.region.clone().unwrap_or_default()));
            }
            row
        })
        .collect();
    let mut columns = vec![
        "n", "species", "x", "y", "hp", "state", "carries", "follows", "about",
    ];
    if !made.regions.is_empty() {
        columns.push("region");
    }
    let budget = (made.danger.budget).map_or_else(String::new, |n| format!(", budget {n}"));
    let table = Table {
        title: format!(
            "Depth {depth}, seed {seed}: {} placements, {} creatures, danger {} ({} drawn{budget})",
            made.placements,
            made.plan.spawns.len(),
            made.danger.placed,
            made.danger.drawn
        ),
        columns,
        rows,
    };
    table
        .write(crate::table::Format::Table, out)
        .map_err(stdout)?;
    if !made.regions.is_empty() {
        region_table(b, &made.regions)
            .write(crate::table::Format::Table, out)
            .map_err(stdout)?;
    }
    for (s, why) in &made.shortfalls {
        note(
            err,
            format_args!("not placed: {} ({why:?})", b.species_of(*s).key),
        );
    }
    if let Some(to) = picture {
        let squares = u64::from(grid.width()) * u64::from(grid.height());
        if squares > crate::picture::MAX_PICTURE_SQUARES {
            return Err(CliError::Usage(format!(
                "{}: the floor has {squares} squares; a picture draws at most {}",
                to.file.display(),
                crate::picture::MAX_PICTURE_SQUARES
            )));
        }
        let title = format!(
            "Depth {depth}, seed {seed}: {} creatures",
            made.plan.spawns.len()
        );
        let svg = crate::picture::floor_svg(b, (grid, &regions), (&made, player), &title);
        write_picture(svg, to, out)?;
    }
    Ok(())
}
