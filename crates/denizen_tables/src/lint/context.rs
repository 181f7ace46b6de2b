//! The lint of contexts: rows whose `when` can never hold or reaches past an integer's
//! declared range, and floor depths where some combination of the context flags leaves
//! the floor's table with nothing to draw.

use crate::bestiary::{Bestiary, TableId};
use crate::context::{Conditions, Declared, When};
use crate::warning::Warning;
use crate::weight::{Depths, MAX_DEPTH};

/// The most flags whose every combination the gap check tries; past it, none set and
/// each alone.
pub const MAX_COMBINED_FLAGS: u32 = 10;

/// Each row's `when` against the declaration: one that can never hold, one whose range
/// reaches past its integer's.
pub(super) fn conditions(b: &Bestiary, warnings: &mut Vec<Warning>) {
    let declared = b.context();
    for (t, table) in b.tables.iter().enumerate() {
        for (i, row) in table.rows.iter().enumerate() {
            let Some(when) = &row.when else { continue };
            let at = || b.row_source(TableId(t as u32), i).clone();
            if let Some(why) = never(declared, when) {
                warnings.push(Warning::WhenNeverHolds {
                    table: table.key.clone(),
                    at: at(),
                    why,
                });
                continue;
            }
            for &(v, min, max) in &when.ranges {
                let value = &declared.values[v];
                if min < value.min || max > value.max {
                    warnings.push(Warning::WhenPastRange {
                        table: table.key.clone(),
                        at: at(),
                        value: value.name.clone(),
                        range: (min, max),
                        declared: (value.min, value.max),
                    });
                }
            }
        }
    }
}

/// Why a condition can never hold, if it cannot.
fn never(declared: &Declared, when: &When) -> Option<String> {
    let name = |bits: u64| declared.flags[bits.trailing_zeros() as usize].clone();
    if when.all & when.none != 0 {
        let flag = name(when.all & when.none);
        return Some(format!(
            "flag `{flag}` is both needed (`all`) and forbidden (`none`)"
        ));
    }
    if when.any != 0 && when.any & !when.none == 0 {
        return Some("every flag of `any` is forbidden (`none`)".to_owned());
    }
    when.ranges.iter().find_map(|&(v, min, max)| {
        let value = &declared.values[v];
        (max < value.min || min > value.max).then(|| {
            format!(
                "`{}` must be {min}-{max}, outside its declared range {}-{}",
                value.name, value.min, value.max
            )
        })
    })
}

/// Floor depths where, in some combination of the flags the floor table's rows name
/// (integers at their defaults), no row of the floor's table is eligible. Every
/// combination of up to [`MAX_COMBINED_FLAGS`] flags is tried; past that, none set and
/// each alone, and the warning says how many were tried.
pub(super) fn gaps(b: &Bestiary, warnings: &mut Vec<Warning>) {
    let (floor, declared) = (b.floor(), b.context());
    let rows = &b.table(floor.table).rows;
    let mut whens = rows.iter().filter_map(|r| r.when.as_ref()).peekable();
    if whens.peek().is_none() {
        return;
    }
    // With conditions on integers alone, the one combination: no flag set.
    let named = whens.fold(0, |m, w| m | w.all | w.any | w.none);
    let bits: Vec<u64> = (0..64).map(|i| 1 << i).filter(|b| named & b != 0).collect();
    let combos: Vec<u64> = if bits.len() as u32 <= MAX_COMBINED_FLAGS {
        (0..1u64 << bits.len()).map(|k| spread(k, &bits)).collect()
    } else {
        std::iter::once(0).chain(bits.iter().copied()).collect()
    };
    crate::work::count(rows.len() * combos.len());
    // Each row's condition and the depths it has weight at, worked out once.
    let weighed: Vec<(Option<&When>, Depths)> = rows
        .iter()
        .filter_map(|r| Some((r.when.as_ref(), r.shape.positive(r.weight, r.depth)?)))
        .collect();
    let mut found = combos.iter().filter_map(|&flags| {
        let c = declared.defaults().with_flags(flags);
        let empty = empty_depths(&weighed, &c, floor.depths);
        (!empty.is_empty()).then_some((flags, empty))
    });
    let Some((flags, depths)) = found.next() else {
        return;
    };
    let flags = (0..64)
        .filter(|i| flags & (1 << i) != 0)
        .map(|i| declared.flags[i].clone())
        .collect();
    let checked = (bits.len() as u32 > MAX_COMBINED_FLAGS).then_some(combos.len());
    warnings.push(Warning::ContextGap {
        at: b.table_source(floor.table).clone(),
        flags,
        others: found.count(),
        depths: super::as_ranges(depths),
        checked,
    });
}

/// The bits of `k` placed on the flags' bits, lowest first.
fn spread(k: u64, bits: &[u64]) -> u64 {
    (bits.iter().enumerate())
        .filter(|(i, _)| k & (1 << i) != 0)
        .fold(0, |m, (_, b)| m | b)
}

/// The depths of `range` where no row is eligible in `c` (every unique available): the
/// depths each row has weight at marked where its `when` holds, then one sweep.
fn empty_depths(rows: &[(Option<&When>, Depths)], c: &Conditions, range: Depths) -> Vec<u32> {
    let mut starts = vec![0i32; MAX_DEPTH as usize + 2];
    for (when, p) in rows {
        if when.is_none_or(|w| w.holds(c)) {
            starts[p.min() as usize] += 1;
            starts[p.max() as usize + 1] -= 1;
        }
    }
    let mut open = 0;
    let mut empty = Vec::new();
    for (d, start) in starts.iter().enumerate().take(range.max() as usize + 1) {
        open += start;
        if d as u32 >= range.min() && open == 0 {
            empty.push(d as u32);
        }
    }
    empty
}
