//! A game's own bestiary: the expected count of each species per floor by depth, stacked
//! (`denizen chart tables`, and `denizen tables chart`).

use denizen_tables::{Bestiary, Per, UniqueLedger, odds};

use super::ChartOut;
use super::data::{Plot, Series, Shape};
use crate::bestiary_files::{Files, depth_span, load};
use crate::error::CliError;

/// `denizen tables chart` and `denizen chart tables`: the files, the depths, where to write.
#[derive(Debug, clap::Args)]
pub struct ChartArgs {
    /// The files.
    #[command(flatten)]
    files: Files,
    /// The depths, `FIRST-LAST`.
    #[arg(long, value_parser = depth_span)]
    depths: (u32, u32),
    /// Where to write.
    #[command(flatten)]
    pub(crate) out: ChartOut,
}

/// The chart of `args`, drawn.
pub fn plot(args: &ChartArgs) -> Result<Plot, CliError> {
    let (b, ledger) = load(&args.files)?;
    chart(&b, &ledger, args.depths)
}

/// The chart's plot: expected counts per floor by depth, the eight species with the
/// largest mean named and the rest gathered.
fn chart(b: &Bestiary, ledger: &UniqueLedger, (first, last): (u32, u32)) -> Result<Plot, CliError> {
    let per_depth = (first..=last)
        .map(|d| {
            odds(b, d, ledger, Per::Floor)
                .map(|o| o.expected)
                .map_err(|e| CliError::Usage(e.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mean = |s: usize| per_depth.iter().map(|e| e[s]).sum::<f64>();
    let mut ranked: Vec<usize> = (0..b.species().len()).filter(|&s| mean(s) > 0.0).collect();
    ranked.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
    let named: Vec<usize> = ranked.iter().copied().take(8).collect();
    let mut series: Vec<Series> = named
        .iter()
        .map(|&s| Series {
            name: b.species()[s].name.clone(),
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
        title: "Expected creatures per floor by depth".into(),
        x_label: "depth".into(),
        y_label: "expected count per floor".into(),
        xs: (first..=last).map(|d| d as i32).collect(),
        y_max: (top * 1.1).max(1.0),
        shape: Shape::Stacked(series),
    })
}
