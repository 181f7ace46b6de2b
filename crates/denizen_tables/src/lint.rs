//! The lint: problems a bestiary's files may have that the draw would live with but a
//! designer wants to know. It runs at every load ([`Bestiary::warnings`]) and as
//! `denizen tables lint`. A floor depth where the floor's table has no eligible row is an
//! error and stops the load; everything else is a [`Warning`].

use denizen_core::{DataError, quoted};
use std::collections::BTreeSet;

use crate::bestiary::{Bestiary, Creature, GroupId, RowTarget, TableId};
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

/// Runs the lint: the error that stops the load, else the warnings in a fixed order.
pub(crate) fn lint(b: &Bestiary) -> Result<Vec<Warning>, DataError> {
    let floor = b.floor();
    let gaps = as_ranges(
        floor
            .depths
            .iter()
            .filter(|&d| !crate::rules::has_eligible_row(b, floor.table, d)),
    );
    if !gaps.is_empty() {
        let at = b.floor_source();
        return Err(DataError::invalid(
            &at.file,
            at.entry.as_str(),
            "table",
            format!(
                "no row of table {} is eligible at floor depths {}",
                quoted(&b.table(floor.table).key),
                ranges(&gaps)
            ),
        ));
    }
    let mut warnings = Vec::new();
    tables(b, &mut warnings);
    reach(b, &mut warnings);
    followers(b, &mut warnings);
    boost(b, &mut warnings);
    Ok(warnings)
}

fn tables(b: &Bestiary, warnings: &mut Vec<Warning>) {
    for (t, table) in b.tables.iter().enumerate() {
        let span = table.rows.iter().fold((MAX_DEPTH, 0), |(lo, hi), r| {
            (lo.min(r.depth.min()), hi.max(r.depth.max()))
        });
        let gaps = as_ranges(
            (span.0..=span.1).filter(|&d| !crate::rules::has_eligible_row(b, TableId(t as u32), d)),
        );
        if !gaps.is_empty() {
            warnings.push(Warning::NoEligibleRow {
                table: table.key.clone(),
                at: b.table_source(TableId(t as u32)).clone(),
                depths: gaps,
            });
        }
        for (i, row) in table.rows.iter().enumerate() {
            let at = || b.row_source(TableId(t as u32), i).clone();
            if let RowTarget::Table(nested) = row.what {
                let empty = as_ranges(row.depth.iter().filter(|&d| {
                    row.shape.weight(row.weight, row.depth, d) > 0
                        && !crate::rules::has_eligible_row(b, nested, d)
                }));
                if !empty.is_empty() {
                    warnings.push(Warning::NestedEmpty {
                        table: table.key.clone(),
                        at: at(),
                        nested: b.table(nested).key.clone(),
                        depths: empty,
                    });
                }
            }
            let zero = as_ranges(
                row.depth
                    .iter()
                    .filter(|&d| row.shape.weight(row.weight, row.depth, d) == 0),
            );
            if zero.first() == Some(&row.depth) {
                warnings.push(Warning::ZeroWeight {
                    table: table.key.clone(),
                    at: at(),
                    what: what(b, row.what),
                });
            } else if !zero.is_empty() {
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

fn reach(b: &Bestiary, warnings: &mut Vec<Warning>) {
    let mut reached = crate::rules::reachable(b, b.floor().table);
    if let Some(wandering) = b.wandering() {
        let wanderers = crate::rules::reachable(b, wandering.table);
        for &s in &wanderers {
            if b.species_of(s).unique {
                warnings.push(Warning::UniqueWanders {
                    species: b.species_of(s).key.clone(),
                    at: b.species_source(s).clone(),
                });
            }
        }
        reached.extend(wanderers);
    }
    for s in b.species_ids() {
        if !reached.contains(&s) {
            warnings.push(Warning::Unreached {
                species: b.species_of(s).key.clone(),
                at: b.species_source(s).clone(),
            });
        }
    }
}

/// The depths where a group comes: where a row naming it, or a species row whose escort
/// it is, has weight.
fn group_depths(b: &Bestiary, g: GroupId) -> BTreeSet<u32> {
    let mut depths = BTreeSet::new();
    for table in &b.tables {
        for row in &table.rows {
            let names = match row.what {
                RowTarget::Group(x) => x == g,
                RowTarget::Species(s) => b.species_of(s).escort == Some(g),
                RowTarget::Table(_) => false,
            };
            if names {
                depths.extend(
                    row.depth
                        .iter()
                        .filter(|&d| row.shape.weight(row.weight, row.depth, d) > 0),
                );
            }
        }
    }
    depths
}

fn followers(b: &Bestiary, warnings: &mut Vec<Warning>) {
    for (g, group) in b.groups.iter().enumerate() {
        let depths = group_depths(b, GroupId(g as u32));
        for (i, f) in group.followers.iter().enumerate() {
            if let Creature::Table(t) = f.member
                && !depths.is_empty()
                && !depths
                    .iter()
                    .any(|&d| crate::rules::has_eligible_row(b, t, d))
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

fn boost(b: &Bestiary, warnings: &mut Vec<Warning>) {
    let floor = b.floor();
    if let Some(rule) = floor
        .out_of_depth
        .filter(|r| r.chance.num() > 0 && r.fairness > 0)
    {
        let past = as_ranges(
            floor
                .depths
                .iter()
                .filter(|&d| !crate::rules::has_eligible_row(b, floor.table, rule.boosted(d))),
        );
        if !past.is_empty() {
            warnings.push(Warning::BoostBeyondRows {
                at: b.floor_source().clone(),
                depths: past,
            });
        }
    }
}
