//! A floor's figures for a designer on the command line: where a species comes from
//! (`odds --explain`) and the distribution of a count over a floor (`odds --dist`).

use denizen_core::quoted;
use denizen_core::regions::Regions;
use denizen_tables::{
    Bestiary, Context, Counted, Explanation, UniqueLedger, explain, floor_distribution,
};

use crate::error::CliError;
use crate::table::{Cell, Table};

/// A floor the figures are of: the bestiary, the depth, the regions, the ledger and the
/// context.
pub(crate) type Floor<'a> = (
    &'a Bestiary,
    u32,
    &'a Regions,
    &'a UniqueLedger,
    &'a Context,
);

/// The table `odds --explain KEY` or `--dist WHAT` asks for, of the floor at `depth` (a
/// map's level's, with its regions and context, when `--map` names one).
pub(crate) fn table(
    (b, ledger, given): (&Bestiary, &UniqueLedger, Context),
    (map, level, depth): (Option<&std::path::Path>, Option<&str>, Option<u32>),
    (explain, dist): (Option<&str>, Option<&str>),
) -> Result<Table, CliError> {
    let site = (map.map(|path| crate::editor_level::read(path, level, depth, b))).transpose()?;
    let depth = depth
        .or(site.as_ref().and_then(|s| s.depth))
        .ok_or_else(|| {
            CliError::Usage("give --depth, or a map whose level has a `depth` field".into())
        })?;
    let (regions, context) = match site {
        Some(s) => (
            s.regions,
            crate::editor_level::with_given(s.context, &given),
        ),
        None => (Regions::default(), given),
    };
    let floor = (b, depth, &regions, ledger, &context);
    let shown = match (explain, dist) {
        (Some(key), _) => explain_table(floor, key),
        (None, Some(what)) => dist_table(floor, what),
        (None, None) => Err(CliError::Usage("give --explain or --dist".into())),
    };
    // A region's error names the map it was read from.
    shown.map_err(|e| match (e, map) {
        (CliError::Usage(m), Some(path)) if m.starts_with("region ") => {
            CliError::Usage(format!("{}: {m}", path.display()))
        }
        (e, _) => e,
    })
}

/// Every path that brings `key`, with its share.
pub(crate) fn explanation(floor: Floor<'_>, key: &str) -> Result<Explanation, CliError> {
    let (b, depth, regions, ledger, context) = floor;
    let s = b.species_by_key(key).ok_or_else(|| {
        CliError::Usage(format!("--explain {}: no species of that key", quoted(key)))
    })?;
    let e = explain(b, depth, regions, ledger, context, s)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    e.ok_or_else(|| {
        CliError::Usage(format!(
            "--explain {}: past the exact limits (uniques, caps, states, or more than {} paths), no share is exact; `odds` samples its expected count",
            quoted(key),
            denizen_tables::MAX_EXPLAINED_PATHS
        ))
    })
}

/// `share,path`: each path, the largest share first.
pub(crate) fn explain_table(floor: Floor<'_>, key: &str) -> Result<Table, CliError> {
    let e = explanation(floor, key)?;
    let b = floor.0;
    let rows = (e.paths.iter())
        .map(|(path, share)| vec![Cell::Stat(*share), Cell::Text(path.describe(b))])
        .collect();
    Ok(Table {
        title: format!(
            "Where {} comes from on a floor at depth {} (exact): expected {:.6}, each path's share",
            quoted(key),
            floor.1,
            e.total
        ),
        columns: vec!["share", "path"],
        rows,
    })
}

/// What `--dist` names: a species' key (or `species:KEY`, for a species keyed `danger`),
/// `tag:NAME` or `danger`.
pub(crate) fn counted(b: &Bestiary, what: &str) -> Result<Counted, CliError> {
    if what == "danger" {
        return Ok(Counted::Danger);
    }
    let what = what.strip_prefix("species:").unwrap_or(what);
    if let Some(tag) = what.strip_prefix("tag:") {
        return match b.species().iter().any(|s| s.tags.iter().any(|t| t == tag)) {
            true => Ok(Counted::Tag(tag.to_owned())),
            false => Err(CliError::Usage(format!(
                "--dist {}: no species has that tag",
                quoted(what)
            ))),
        };
    }
    b.species_by_key(what).map(Counted::Species).ok_or_else(|| {
        CliError::Usage(format!(
            "--dist {}: no species of that key (a tag is `tag:NAME`, the danger `danger`)",
            quoted(what)
        ))
    })
}

/// `count,chance,at_most`; the title gives P(none), P(at least one), the mean and the
/// 5%, 50% and 95% quantiles.
pub(crate) fn dist_table(floor: Floor<'_>, what: &str) -> Result<Table, CliError> {
    let (b, depth, regions, ledger, context) = floor;
    let d = floor_distribution(b, depth, regions, ledger, context, &counted(b, what)?)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let rows = chance_rows(&d.chances, Cell::Prob);
    let how = how(d.sampled);
    let q = |q| d.quantile(q);
    Ok(Table {
        title: format!(
            "{} on a floor at depth {depth} ({how}): P(none) {:.6}, P(at least one) {:.6}, mean {:.6}, 5%/50%/95% {}/{}/{}",
            quoted(what),
            d.none(),
            d.at_least(1),
            d.mean(),
            q(0.05),
            q(0.5),
            q(0.95)
        ),
        columns: vec!["count", "chance", "at_most"],
        rows,
    })
}

/// `exact`, or how many floors figures past the exact limits were `sampled` from.
pub(crate) fn how(sampled: bool) -> String {
    match sampled {
        true => format!(
            "sampled from {} floors: past the exact limits",
            denizen_tables::odds::SAMPLED_FLOORS
        ),
        false => "exact".to_owned(),
    }
}

/// `value,chance,at_most` rows of values with their chances, least first, each chance
/// and running sum shown as `cell` shows it.
pub(crate) fn chance_rows(chances: &[(u64, f64)], cell: fn(f64) -> Cell) -> Vec<Vec<Cell>> {
    let mut below = 0.0;
    (chances.iter())
        .map(|&(k, p)| {
            below += p;
            vec![Cell::Int(k as i64), cell(p), cell(below)]
        })
        .collect()
}
