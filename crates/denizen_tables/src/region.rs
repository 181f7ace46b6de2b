//! A floor's regions as its region rules populate them: each region of a kind the floor's
//! rules name resolved to its own draw (table, depth, count or budget) from its rule and
//! the fields it may override, every field checked before anything is drawn; and the
//! stream each region draws from, keyed by its id.

use denizen_core::regions::{FieldValue, Region, Regions};
use denizen_core::{Generator, StreamPurpose};

use crate::bestiary::{Bestiary, FloorRules, RegionRule, TableId};
use crate::context::Conditions;
use crate::file::Override;
use crate::roll::Roll;
use crate::rules::{RegionFieldError, row_weight};
use crate::walk::Draw;
use crate::weight::MAX_DEPTH;

/// The most regions one floor populates (each may have a floor's most placements).
pub const MAX_POPULATED_REGIONS: usize = 256;

/// One region's draw: the region, its rule, the rule's rules with the region's count, and
/// the table and depth it draws from and at.
#[derive(Clone, Debug)]
pub(crate) struct RegionDraw<'r> {
    pub(crate) region: &'r Region,
    pub(crate) rule: &'r RegionRule,
    rules: FloorRules,
    pub(crate) table: TableId,
    pub(crate) depth: u32,
}

impl RegionDraw<'_> {
    /// What [`crate::walk::floor`] walks for the region.
    pub(crate) fn draw(&self) -> Draw<'_> {
        Draw {
            rules: &self.rules,
            table: self.table,
            depth: self.depth,
        }
    }
}

/// The regions a rule of `b`'s floor populates, in (kind, id) order, each resolved at the
/// floor's `depth` in context `c`: its depth (the floor's plus its `depth_offset`) one of
/// its rule's, its `table` one of the bestiary's with a row eligible there, its `count`
/// a count (or budget) the rule's bounds allow, and no field its rule does not let it set.
pub(crate) fn resolve<'r>(
    b: &'r Bestiary,
    regions: &'r Regions,
    (depth, c): (u32, &Conditions),
) -> Result<Vec<RegionDraw<'r>>, RegionFieldError> {
    let mut out = Vec::new();
    for region in regions.iter() {
        if let Some(rule) = b.floor().region_rule(&region.kind) {
            if out.len() == MAX_POPULATED_REGIONS {
                return Err(RegionFieldError {
                    id: region.id.clone(),
                    kind: region.kind.clone(),
                    field: "kind".to_owned(),
                    problem: format!("a floor populates at most {MAX_POPULATED_REGIONS} regions"),
                });
            }
            out.push(one(b, (region, rule), (depth, c))?);
        }
    }
    Ok(out)
}

/// One region's draw, its fields read.
fn one<'r>(
    b: &'r Bestiary,
    (region, rule): (&'r Region, &'r RegionRule),
    (floor_depth, c): (u32, &Conditions),
) -> Result<RegionDraw<'r>, RegionFieldError> {
    let fail = |o: Override, problem: String| RegionFieldError {
        id: region.id.clone(),
        kind: region.kind.clone(),
        field: o.field().to_owned(),
        problem,
    };
    let field = |o: Override| -> Result<Option<&FieldValue>, RegionFieldError> {
        let Some(value) = region.fields.get(o.field()) else {
            return Ok(None);
        };
        if !rule.overrides.contains(&o) {
            let lets: Vec<&str> = rule.overrides.iter().map(|o| o.field()).collect();
            let lets = match lets.is_empty() {
                true => "none".to_owned(),
                false => lets.join(", "),
            };
            return Err(fail(
                o,
                format!(
                    "the rule for `{}` does not let a region set it (it lets: {lets})",
                    rule.kind
                ),
            ));
        }
        Ok(Some(value))
    };
    let offset = match field(Override::DepthOffset)? {
        None => 0,
        Some(FieldValue::Int(n)) if n.unsigned_abs() <= u64::from(MAX_DEPTH) => *n,
        Some(other) => {
            let problem = format!("{other} is not a whole number from -{MAX_DEPTH} to {MAX_DEPTH}");
            return Err(fail(Override::DepthOffset, problem));
        }
    };
    let depths = rule.rules.depths;
    let depth = u32::try_from(i64::from(floor_depth) + offset)
        .ok()
        .filter(|&d| depths.contains(d))
        .ok_or_else(|| {
            let problem = match offset {
                0 => format!(
                    "the region gives none, and the floor's depth, {floor_depth}, is outside its rule's depths {depths}"
                ),
                _ => format!(
                    "the region's depth, {floor_depth} {offset:+}, is outside its rule's depths {depths}"
                ),
            };
            fail(Override::DepthOffset, problem)
        })?;
    let table = match field(Override::Table)? {
        None => rule.rules.table,
        Some(FieldValue::Text(key)) => b.table_by_key(key).ok_or_else(|| {
            fail(
                Override::Table,
                format!("{key:?} names no table of the bestiary"),
            )
        })?,
        Some(other) => {
            return Err(fail(
                Override::Table,
                format!("{other} is not a table's key"),
            ));
        }
    };
    let rows = &b.table(table).rows;
    if !rows
        .iter()
        .any(|row| row_weight(b, row, (depth, c), &|_| true) > 0)
    {
        let key = &b.table(table).key;
        let whose = match region.fields.contains_key(Override::Table.field()) {
            true => "",
            false => "the region gives none, and its rule's ",
        };
        let problem =
            format!("{whose}table {key:?} has no row eligible at the region's depth, {depth}");
        return Err(fail(Override::Table, problem));
    }
    let mut rules = rule.rules.clone();
    if let Some(value) = field(Override::Count)? {
        rules.count = count(value, &rules).map_err(|problem| fail(Override::Count, problem))?;
        rules.per_depth = (0, 1);
    }
    Ok(RegionDraw {
        region,
        rule,
        rules,
        table,
        depth,
    })
}

/// A region's `count` field: a whole number, or dice as a file writes them, within the
/// most placements (or budget) a floor may have.
fn count(value: &FieldValue, rules: &FloorRules) -> Result<Roll, String> {
    // The dice a file may write for a floor's count or budget (see `compile::floor_rules`).
    let (most, dice_most) = match rules.budget {
        Some(_) => (crate::MAX_BUDGET, 100),
        None => (crate::MAX_PLACEMENTS, crate::MAX_PLACEMENTS),
    };
    let roll = match value {
        FieldValue::Int(n) => u32::try_from(*n)
            .map(|n| Roll::Range { min: n, max: n })
            .map_err(|_| format!("{n} is not a count from 0 to {most}"))?,
        FieldValue::Text(text) => text.parse().map_err(|e| format!("{e}"))?,
        FieldValue::Flag(_) => return Err(format!("{value} is not a count or dice")),
    };
    if let Roll::Dice { dice, .. } = roll
        && (dice.count > dice_most || dice.sides > dice_most)
    {
        return Err(format!(
            "{value}: at most {dice_most} dice of {dice_most} sides"
        ));
    }
    match roll.bounds().1 <= most {
        true => Ok(roll),
        false => Err(format!("{value} can give more than {most}")),
    }
}

/// The stream a region draws and places from: the floor's seed, on a stream keyed by the
/// floor's stream and the region's id. It reads no word of the floor's stream, so what the
/// floor's own placements draw moves no region, and adding a region moves no other.
pub(crate) fn stream(floor: &Generator, id: &str) -> Generator {
    denizen_core::rng::within(floor, StreamPurpose::new("tables-region").with_str(id))
}
