//! The lint: problems a bestiary's files may have that the draw would live with but a
//! designer wants to know. It runs at every load ([`Bestiary::warnings`]) and as
//! `denizen tables lint`. A floor depth where the floor's table has no eligible row is an
//! error and stops the load; everything else is a [`Warning`].

mod context;

pub use context::MAX_COMBINED_FLAGS;

use denizen_core::{DataError, quoted};

use crate::bestiary::{Bestiary, Creature, GroupId, RowTarget, TableId};
use crate::rules::Coverage;
use crate::warning::{Warning, ranges};
use crate::weight::{Depths, MAX_DEPTH};

/// Depths in ascending order joined into ranges.
fn as_ranges(depths: impl IntoIterator<Item = u32>) -> Vec<Depths> {
    let mut out: Vec<Depths> = Vec::new();
    for d in depths {
        match out.last_mut() {
            Some(last) if last.1 + 1 == d => last.1 = d,
            _ => out.push(Depths(d, d)),
        }
    }
    out
}

/// Runs the lint: the error that stops the load, else the warnings in a fixed order. Every
/// question of "which depths" is answered from each row's positive range and each table's
/// [`Coverage`], so a large table costs its rows, not its rows times its depths.
/// The floor's checks run for every branch, the default first.
pub(crate) fn lint(b: &Bestiary) -> Result<Vec<Warning>, DataError> {
    let coverage = Coverage::of(b);
    let ids = (0..b.branches().len() as u32).map(|i| Some(crate::bestiary::BranchId(i)));
    let branches: Vec<Bestiary> = std::iter::once(None)
        .chain(ids)
        .map(|v| b.in_branch(v))
        .collect();
    for branch in &branches {
        floor_gaps(branch, &coverage)?;
    }
    let mut warnings = Vec::new();
    tables(b, &coverage, &mut warnings);
    reach(&branches, &mut warnings);
    followers(b, &coverage, &mut warnings);
    for branch in &branches {
        boost(branch, &coverage, &mut warnings);
    }
    context::conditions(b, &mut warnings);
    for branch in &branches {
        context::gaps(branch, &mut warnings);
        budget(branch, &mut warnings);
    }
    Ok(warnings)
}

/// A floor depth where the floor's table has no eligible row, or a region depth where a
/// region rule's has none: an error.
fn floor_gaps(b: &Bestiary, coverage: &Coverage) -> Result<(), DataError> {
    let at = b.floor_source();
    let floor = std::iter::once((b.floor(), at.entry.clone(), "floor"));
    let regions = b.floor().regions.iter().enumerate().map(|(i, r)| {
        let entry = format!("{}: regions[{i}] {}", at.entry, quoted(&r.kind));
        (&r.rules, entry, "region")
    });
    for (rules, entry, what) in floor.chain(regions) {
        let gaps = as_ranges(coverage.gaps(rules.table, rules.depths));
        if !gaps.is_empty() {
            return Err(DataError::invalid(
                &at.file,
                entry,
                "table",
                format!(
                    "no row of table {} is eligible at {what} depths {}",
                    quoted(&b.table(rules.table).key),
                    ranges(&gaps)
                ),
            ));
        }
    }
    Ok(())
}

/// Species the floor's table can bring whose cost is more than the largest budget the
/// floor can roll (at its deepest): every placement bringing one is discarded.
fn budget(b: &Bestiary, warnings: &mut Vec<Warning>) {
    let floor = b.floor();
    if floor.budget.is_none() {
        return;
    }
    let most = floor.count_bounds(floor.depths.max()).1;
    for s in crate::rules::reachable(b, floor.table) {
        let species = b.species_of(s);
        if species.cost > most {
            warnings.push(Warning::CostOverBudget {
                species: species.key.clone(),
                at: b.species_source(s).clone(),
                floor: b.floor_source().clone(),
                cost: species.cost,
                budget: most,
            });
        }
    }
}

fn tables(b: &Bestiary, coverage: &Coverage, warnings: &mut Vec<Warning>) {
    for (t, table) in b.tables.iter().enumerate() {
        let id = TableId(t as u32);
        let span = table.rows.iter().fold((MAX_DEPTH, 0), |(lo, hi), r| {
            (lo.min(r.depth.min()), hi.max(r.depth.max()))
        });
        let gaps = as_ranges(coverage.gaps(id, Depths(span.0, span.1)));
        if !gaps.is_empty() {
            warnings.push(Warning::NoEligibleRow {
                table: table.key.clone(),
                at: b.table_source(id).clone(),
                depths: gaps,
            });
        }
        for (i, row) in table.rows.iter().enumerate() {
            let at = || b.row_source(id, i).clone();
            let positive = row.shape.positive(row.weight, row.depth);
            if let (RowTarget::Table(nested), Some(positive)) = (row.what, positive) {
                let empty = as_ranges(coverage.gaps(nested, positive));
                if !empty.is_empty() {
                    warnings.push(Warning::NestedEmpty {
                        table: table.key.clone(),
                        at: at(),
                        nested: b.table(nested).key.clone(),
                        depths: empty,
                    });
                }
            }
            let Some(positive) = positive else {
                warnings.push(Warning::ZeroWeight {
                    table: table.key.clone(),
                    at: at(),
                    what: what(b, row.what),
                });
                continue;
            };
            let zero: Vec<Depths> = [
                (row.depth.min(), positive.min()),
                (positive.max() + 1, row.depth.max() + 1),
            ]
            .into_iter()
            .filter(|&(from, to)| from < to)
            .map(|(from, to)| Depths(from, to - 1))
            .collect();
            if !zero.is_empty() {
                warnings.push(Warning::RoundsToZero {
                    table: table.key.clone(),
                    at: at(),
                    what: what(b, row.what),
                    depths: zero,
                });
            }
        }
    }
}

/// What a row draws, as a warning names it: `species `pup``.
fn what(b: &Bestiary, target: RowTarget) -> String {
    match target {
        RowTarget::Species(s) => format!("species {}", quoted(&b.species_of(s).key)),
        RowTarget::Group(g) => format!("group {}", quoted(&b.group(g).key)),
        RowTarget::Table(t) => format!("table {}", quoted(&b.table(t).key)),
    }
}

/// Uniques any branch's wandering table brings (each named once), and species no
/// branch's floor, region rule or wandering table reaches.
fn reach(branches: &[Bestiary], warnings: &mut Vec<Warning>) {
    let b = &branches[0];
    let mut reached = std::collections::BTreeSet::new();
    let mut wanderers = std::collections::BTreeSet::new();
    for branch in branches {
        reached.extend(crate::rules::reachable(b, branch.floor().table));
        for rule in &branch.floor().regions {
            reached.extend(crate::rules::reachable(b, rule.rules.table));
        }
        if let Some(wandering) = branch.wandering() {
            wanderers.extend(crate::rules::reachable(b, wandering.table));
        }
    }
    for &s in &wanderers {
        if b.species_of(s).unique {
            warnings.push(Warning::UniqueWanders {
                species: b.species_of(s).key.clone(),
                at: b.species_source(s).clone(),
            });
        }
    }
    reached.extend(wanderers);
    for s in b.species_ids() {
        if !reached.contains(&s) {
            warnings.push(Warning::Unreached {
                species: b.species_of(s).key.clone(),
                at: b.species_source(s).clone(),
            });
        }
    }
}

/// The depths where each group comes: where a row naming it, or a species row whose
/// escort it is, has weight. One pass over every row, each marking where its positive
/// range starts and ends, then one sweep a group.
fn group_depths(b: &Bestiary) -> Vec<Vec<u32>> {
    let depths = MAX_DEPTH as usize + 1;
    let mut starts = vec![vec![0i32; depths + 1]; b.groups.len()];
    for table in b.tables.iter() {
        for row in &table.rows {
            let group = match row.what {
                RowTarget::Group(g) => Some(g),
                RowTarget::Species(s) => b.species_of(s).escort,
                RowTarget::Table(_) => None,
            };
            if let (Some(g), Some(p)) = (group, row.shape.positive(row.weight, row.depth)) {
                starts[g.0 as usize][p.min() as usize] += 1;
                starts[g.0 as usize][p.max() as usize + 1] -= 1;
            }
        }
    }
    starts
        .iter()
        .map(|starts| {
            crate::work::count(depths);
            let mut open = 0;
            (0..depths as u32)
                .filter(|&d| {
                    open += starts[d as usize];
                    open > 0
                })
                .collect()
        })
        .collect()
}

fn followers(b: &Bestiary, coverage: &Coverage, warnings: &mut Vec<Warning>) {
    let comes = group_depths(b);
    for (g, group) in b.groups.iter().enumerate() {
        let depths = &comes[g];
        for (i, f) in group.followers.iter().enumerate() {
            if let Creature::Table(t) = f.member
                && !depths.is_empty()
                && !depths.iter().any(|&d| coverage.has(t, d))
            {
                warnings.push(Warning::FollowerNeverEligible {
                    group: group.key.clone(),
                    at: b.group_source(GroupId(g as u32)).clone(),
                    follower: i,
                    table: b.table(t).key.clone(),
                });
            }
        }
    }
}

fn boost(b: &Bestiary, coverage: &Coverage, warnings: &mut Vec<Warning>) {
    let floor = b.floor();
    if let Some(rule) = floor
        .out_of_depth
        .filter(|r| r.chance.num() > 0 && r.fairness > 0)
    {
        let past = as_ranges(
            floor
                .depths
                .iter()
                .filter(|&d| !coverage.has(floor.table, rule.boosted(d))),
        );
        if !past.is_empty() {
            warnings.push(Warning::BoostBeyondRows {
                at: b.floor_source().clone(),
                depths: past,
            });
        }
    }
}
