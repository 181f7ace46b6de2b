//! A game's own bestiary: the expected count of each species per floor by depth, stacked
//! (`denizen chart tables`, and `denizen tables chart`).

use denizen_core::quoted;
use denizen_tables::{
    Bestiary, Context, Creature, Per, SpeciesId, UniqueLedger, table_floor_odds, table_odds,
};

use super::ChartOut;
use super::data::{Band, Plot, Series, Shape};
use crate::bestiary_files::{ContextArgs, Files, depth_span, in_branch, load, table_of};
use crate::error::CliError;

/// `denizen tables chart` and `denizen chart tables`: the files, the depths, where to write.
#[derive(Debug, clap::Args)]
pub struct ChartArgs {
    /// The files.
    #[command(flatten)]
    files: Files,
    /// The depths, `FIRST-LAST`, inside the floor's depths.
    #[arg(long, value_parser = depth_span)]
    depths: (u32, u32),
    /// How many species are named, those of the largest mean count first; the rest are
    /// gathered as "N others". 1 to 60, or `all` (when at most 60 species come).
    #[arg(long, value_parser = top_count, default_value = "8")]
    top: usize,
    /// Floors whose placements draw from this table instead of the floor's.
    #[arg(long, value_name = "KEY")]
    table: Option<String>,
    /// The branch whose floors these are (the default floor otherwise).
    #[arg(long, value_name = "KEY")]
    branch: Option<String>,
    /// The context.
    #[command(flatten)]
    context: ContextArgs,
    /// The expected danger per floor by depth instead, with the band from its 5% to its
    /// 95% quantile.
    #[arg(long)]
    danger: bool,
    /// Where to write.
    #[command(flatten)]
    pub(crate) out: ChartOut,
}

/// The most species a chart names: its legend stays a readable column.
const MAX_NAMED: usize = 60;

/// `--top`: 1 to [`MAX_NAMED`], or `all`.
fn top_count(text: &str) -> Result<usize, String> {
    if text == "all" {
        return Ok(usize::MAX);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_NAMED).contains(&n) => Ok(n),
        _ => Err(format!(
            "{}: expected 1 to {MAX_NAMED}, or `all`",
            quoted(text)
        )),
    }
}

/// The chart of `args`, drawn.
pub fn plot(args: &ChartArgs) -> Result<Plot, CliError> {
    let (b, ledger) = load(&args.files)?;
    let b = in_branch(b, args.branch.as_deref())?;
    let table = table_of(&b, args.table.as_deref())?;
    let floor = b.floor().depths;
    let (first, last) = args.depths;
    if first < floor.min() || last > floor.max() {
        return Err(CliError::Usage(format!(
            "--depths {first}-{last}: the floor's depths are {floor}"
        )));
    }
    let context = args.context.context(&b)?;
    let table = table.unwrap_or(b.floor().table);
    match args.danger {
        true => danger(&b, (&ledger, &context), args, table),
        false => chart(&b, (&ledger, &context), args, table),
    }
}

/// The danger's plot: the expected danger per floor by depth, in the band from its 5% to
/// its 95% quantile.
fn danger(
    b: &Bestiary,
    (ledger, context): (&UniqueLedger, &Context),
    args: &ChartArgs,
    table: denizen_tables::TableId,
) -> Result<Plot, CliError> {
    let (first, last) = args.depths;
    let floors = per_depth(args, |d| {
        table_floor_odds(b, table, d, ledger, context, None)
    })?;
    let quantile = |q| floors.iter().map(|f| f.danger_quantile(q) as f64).collect();
    let band = Band {
        name: "danger (5% to 95%)".into(),
        least: quantile(0.05),
        mean: floors.iter().map(|f| f.mean_danger()).collect(),
        greatest: quantile(0.95),
    };
    let top = band.greatest.iter().copied().fold(0.0, f64::max);
    Ok(Plot {
        title: format!(
            "Danger per floor by depth{} ({})",
            from(b, table),
            files_named(b.files())
        ),
        x_label: "depth".into(),
        y_label: "danger per floor".into(),
        xs: (first..=last).map(|d| d as i32).collect(),
        y_max: (top * 1.1).max(1.0),
        shape: Shape::Bands {
            bands: vec![band],
            cap: None,
        },
    })
}

/// One figure for each depth of the chart, in order; the first refusal as a usage error.
fn per_depth<T, E: std::fmt::Display>(
    args: &ChartArgs,
    figure: impl Fn(u32) -> Result<T, E>,
) -> Result<Vec<T>, CliError> {
    let (first, last) = args.depths;
    (first..=last)
        .map(|d| figure(d).map_err(|e| CliError::Usage(e.to_string())))
        .collect()
}

/// How a title names the branch seen from and a table other than the floor's.
fn from(b: &Bestiary, table: denizen_tables::TableId) -> String {
    let branch = (b.branch()).map_or_else(String::new, |id| {
        format!(", branch {}", quoted(&b.branches()[id.index()].key))
    });
    if table == b.floor().table {
        branch
    } else {
        format!("{branch}, from table {}", quoted(&b.table(table).key))
    }
}

/// The chart's plot: expected counts per floor by depth, the `top` species with the largest
/// mean named (uniques and group leaders marked) and the rest gathered.
fn chart(
    b: &Bestiary,
    (ledger, context): (&UniqueLedger, &Context),
    args: &ChartArgs,
    table: denizen_tables::TableId,
) -> Result<Plot, CliError> {
    let (first, last) = args.depths;
    let per_depth = per_depth(args, |d| {
        table_odds(b, table, d, ledger, context, Per::Floor).map(|o| o.expected)
    })?;
    let mean = |s: usize| per_depth.iter().map(|e| e[s]).sum::<f64>();
    let mut ranked: Vec<usize> = (0..b.species().len()).filter(|&s| mean(s) > 0.0).collect();
    ranked.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
    if args.top == usize::MAX && ranked.len() > MAX_NAMED {
        return Err(CliError::Usage(format!(
            "--top all: {} species come at these depths, and a chart names at most {MAX_NAMED} (give --top N)",
            ranked.len()
        )));
    }
    let named: Vec<usize> = ranked.iter().copied().take(args.top).collect();
    let ids: Vec<SpeciesId> = b.species_ids().collect();
    let mut series: Vec<Series> = named
        .iter()
        .map(|&s| Series {
            name: label(b, ids[s]),
            values: per_depth.iter().map(|e| e[s]).collect(),
        })
        .collect();
    if ranked.len() > named.len() {
        let rest = &ranked[named.len()..];
        series.push(Series {
            name: format!("{} others", rest.len()),
            values: per_depth
                .iter()
                .map(|e| rest.iter().map(|&s| e[s]).sum())
                .collect(),
        });
    }
    let top = per_depth
        .iter()
        .map(|e| e.iter().sum::<f64>())
        .fold(0.0, f64::max);
    Ok(Plot {
        title: format!(
            "Expected creatures per floor by depth{} ({})",
            from(b, table),
            files_named(b.files())
        ),
        x_label: "depth".into(),
        y_label: "expected count per floor".into(),
        xs: (first..=last).map(|d| d as i32).collect(),
        y_max: (top * 1.1).max(1.0),
        shape: Shape::Stacked(series),
    })
}

/// The files as a title names them: their names without folders, the first three and how
/// many more.
fn files_named(files: &[String]) -> String {
    let names: Vec<&str> = files
        .iter()
        .map(|f| f.rsplit(['/', '\\']).next().unwrap_or(f))
        .collect();
    match names.len() {
        0..=3 => names.join(", "),
        n => format!("{} and {} more", names[..3].join(", "), n - 3),
    }
}

/// A species as the legend names it: its name, marked `(unique)` or `(leads a group)`
/// where it is one (a unique leader is both).
fn label(b: &Bestiary, s: SpeciesId) -> String {
    let species = b.species_of(s);
    let leads = species.escort.is_some()
        || b.groups()
            .iter()
            .any(|g| g.leader == Some(Creature::Species(s)));
    let marks: Vec<&str> = [(species.unique, "unique"), (leads, "leads a group")]
        .into_iter()
        .filter_map(|(on, mark)| on.then_some(mark))
        .collect();
    if marks.is_empty() {
        species.name.clone()
    } else {
        format!("{} ({})", species.name, marks.join(", "))
    }
}
