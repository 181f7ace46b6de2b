//! Picking by integer weight, fast and exact: an unbiased value below `n` by one
//! multiplication (Lemire's method, a division only on the rare redraw), and each table's
//! pick-one draw compiled per depth into cumulative weights with a guide, so a draw reads
//! one word and scans a row or two. The compiled draw picks exactly the row the linear
//! scan over [`crate::rules::eligible`] picks for the same value, and with uniques gone
//! it draws again past their rows, which gives exactly the renormalised odds: it is a
//! faster lookup of the same weights, never a second rule.

use denizen_core::Generator;

use crate::bestiary::{Bestiary, TableId};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::compiled::{DepthDraw, Draws, MAX_COMPILED_CONDITIONS, TableDraws};
use crate::context::Conditions;
use crate::rules::{Key, eligible, row_weight};
use denizen_core::fair::below;

/// The row of `rows` (row index, weight; in table order) a value `u` below their total
/// falls in.
pub(crate) fn row_at(rows: &[(usize, u64)], mut u: u64) -> Option<usize> {
    rows.iter().find_map(|&(i, w)| {
        if u < w {
            Some(i)
        } else {
            u -= w;
            None
        }
    })
}

/// The most rows all compiled draws together hold (16 MiB); depths past it draw by the
/// linear scan, which picks the same rows for the same words ([`pick_by`]).
const MAX_COMPILED_ROWS: usize = 2_000_000;

/// Every table's draws, ready to be compiled depth by depth as draws need them.
pub(crate) fn prepare(b: &Bestiary) -> Draws {
    let tables = (0..b.tables.len() as u32)
        .map(|t| {
            let table = b.table(TableId(t));
            let first = table.rows.iter().map(|r| r.depth.min()).min().unwrap_or(0);
            let last = table.rows.iter().map(|r| r.depth.max()).max().unwrap_or(0);
            // A pick-each table draws every row on its own: nothing to compile.
            let span = if table.pick == crate::file::PickKind::Each {
                0
            } else {
                (last - first + 1) as usize
            };
            let conditions: Vec<usize> = (table.rows.iter().enumerate())
                .filter(|(_, r)| r.when.is_some())
                .map(|(i, _)| i)
                .collect();
            let conditional = !conditions.is_empty();
            let compiled = conditions.len() <= MAX_COMPILED_CONDITIONS;
            let slots = |n: usize| (0..n).map(|_| OnceLock::new()).collect();
            TableDraws {
                first,
                depths: slots(if conditional { 0 } else { span }),
                uniques: unique_rows(b, TableId(t)),
                conditional,
                variants: (0..if conditional && compiled { span } else { 0 })
                    .map(|_| OnceLock::new())
                    .collect(),
                conditions: if compiled { conditions } else { Vec::new() },
            }
        })
        .collect();
    Draws {
        tables,
        budget: AtomicUsize::new(MAX_COMPILED_ROWS),
    }
}

/// The compiled draw of `table` at `depth` in context `c`, compiled now if no draw needed
/// it before; `None` outside the table's span, past the budget, or for a table with more
/// than [`MAX_COMPILED_CONDITIONS`] conditions. A table with conditions has a draw for
/// each set of them that holds: `c` picks it, and compiles it when it is the first.
fn compiled<'b>(
    b: &'b Bestiary,
    table: TableId,
    depth: u32,
    c: &Conditions,
) -> Option<&'b DepthDraw> {
    let draws = &b.draws.tables[table.0 as usize];
    let at = depth.checked_sub(draws.first)? as usize;
    let slot = if draws.conditional {
        let rows = &b.table(table).rows;
        let holds = |&(_, &r): &(usize, &usize)| rows[r].when.as_ref().is_some_and(|w| w.holds(c));
        let set = (draws.conditions.iter().enumerate())
            .filter(holds)
            .fold(0, |m, (i, _)| m | 1 << i);
        let n = 1 << draws.conditions.len();
        let variants = draws.variants.get(at)?;
        &variants.get_or_init(|| (0..n).map(|_| OnceLock::new()).collect())[set]
    } else {
        draws.depths.get(at)?
    };
    slot.get_or_init(|| {
        let (rows, _) = eligible(b, table, (depth, c), &|_| true);
        let budget = &b.draws.budget;
        let taken = budget.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
            left.checked_sub(rows.len())
        });
        taken.is_ok().then(|| DepthDraw::new(&rows))
    })
    .as_ref()
}

/// The row a pick-one draw of `table` at `depth` in context `c` picks, the uniques gone
/// left out. When none of the table's uniques is gone, one draw over every eligible row;
/// when some are but their rows hold at most half the weight, that draw again until it
/// picks a row still eligible (exactly the renormalised odds, in at most two draws on
/// average); otherwise one draw over the rows still eligible.
pub(crate) fn pick(
    b: &Bestiary,
    (table, depth, c): (TableId, u32, &Conditions),
    gone: &[bool],
    rng: &mut Generator,
) -> Option<usize> {
    let draws = &b.draws.tables[table.0 as usize];
    if let Some(draw) = compiled(b, table, depth, c) {
        // The common case, read first: none of the table's uniques gone.
        if (draws.uniques.iter()).all(|(_, keys)| keys.iter().flatten().all(|&k| !gone[k])) {
            return draw.pick(rng);
        }
        return pick_by(b, (table, depth, c), gone, Some(draw), rng);
    }
    pick_by(b, (table, depth, c), gone, None, rng)
}

/// One draw over rows and their total weight: `None` when the total is 0.
fn one_of((rows, total): &(Vec<(usize, u64)>, u64), rng: &mut Generator) -> Option<usize> {
    (*total > 0)
        .then(|| row_at(rows, u64::from(below(rng, *total as u32).0)))
        .flatten()
}

/// [`pick`] with the depth's compiled draw, if it has one. Without it (past the budget,
/// or a table with conditions) the draw over every eligible row is the linear scan,
/// which picks the same row for the same words: which depths were compiled, which depends
/// on the draws before, never changes what a floor draws, and a table whose conditions
/// leave out only rows a bestiary without them lacks draws what that bestiary draws.
fn pick_by(
    b: &Bestiary,
    (table, depth, c): (TableId, u32, &Conditions),
    gone: &[bool],
    compiled: Option<&DepthDraw>,
    rng: &mut Generator,
) -> Option<usize> {
    let draws = &b.draws.tables[table.0 as usize];
    let rows = &b.table(table).rows;
    let is_gone = |keys: &[Option<usize>; 2]| keys.iter().flatten().any(|&k| gone[k]);
    let gone_weight: u64 = (draws.uniques.iter())
        .filter(|(_, keys)| is_gone(keys))
        .map(|&(r, _)| row_weight(b, &rows[r], (depth, c), &|_| true))
        .sum();
    let scan = compiled
        .is_none()
        .then(|| eligible(b, table, (depth, c), &|_| true));
    let total = compiled.map_or_else(
        || scan.as_ref().map_or(0, |(_, total)| *total),
        |draw| u64::from(draw.total()),
    );
    let any_row = |rng: &mut Generator| match (compiled, &scan) {
        (Some(draw), _) => draw.pick(rng),
        (None, Some((rows, _))) if total > 0 => row_at(rows, u64::from(below(rng, total as u32).0)),
        _ => None,
    };
    if gone_weight == 0 {
        return any_row(rng);
    }
    if 2 * gone_weight <= total {
        let row_gone = |row: usize| (draws.uniques.iter()).any(|(r, k)| *r == row && is_gone(k));
        return std::iter::repeat_with(|| any_row(rng))
            .find(|row| row.is_none_or(|r| !row_gone(r)))
            .flatten();
    }
    one_of(&eligible(b, table, (depth, c), &|k| !gone[k.index(b)]), rng)
}

/// The rows of a table whose weight can run out while a floor is drawn, with what runs
/// out (by [`Key::index`]): a unique or capped species, a capped group, a group led by a
/// unique or capped species.
fn unique_rows(b: &Bestiary, table: TableId) -> Vec<(usize, [Option<usize>; 2])> {
    let runs_out = |k: Key| match k {
        Key::Species(s) => b.species_of(s).unique || b.species_of(s).max_per_floor.is_some(),
        Key::Group(g) => b.group(g).max_per_floor.is_some(),
    };
    (b.table(table).rows.iter().enumerate())
        .filter_map(|(i, row)| {
            let keys = Key::of_row(b, row).map(|k| k.filter(|&k| runs_out(k)).map(|k| k.index(b)));
            keys.iter().any(Option::is_some).then_some((i, keys))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use denizen_core::{StreamPurpose, WorldSeed};

    use super::*;
    use crate::compiled::DepthDraw;

    /// The compiled draw picks, word for word, the row the linear scan picks.
    #[test]
    fn the_guide_finds_the_row_the_scan_finds() {
        for weights in [
            vec![1u64],
            vec![3, 0, 5, 1],
            vec![7; 40],
            (1..=33).collect::<Vec<_>>(),
        ] {
            let rows: Vec<(usize, u64)> = weights
                .iter()
                .copied()
                .enumerate()
                .filter(|&(_, w)| w > 0)
                .collect();
            let total: u64 = rows.iter().map(|r| r.1).sum();
            let draw = DepthDraw::new(&rows);
            let mut fast = WorldSeed(4).stream(StreamPurpose::new("pick"));
            let mut slow = WorldSeed(4).stream(StreamPurpose::new("pick"));
            for _ in 0..5_000 {
                let linear = row_at(&rows, u64::from(below(&mut slow, total as u32).0));
                assert_eq!(draw.pick(&mut fast), linear, "{weights:?}");
            }
        }
    }

    /// A depth past the compiled budget draws what a compiled one draws, word for word,
    /// with no unique gone, with uniques holding at most half the weight gone (drawn
    /// again past them) and with more gone: which depths were compiled never changes a
    /// floor.
    #[test]
    fn a_depth_not_compiled_draws_as_a_compiled_one() {
        let b = crate::load(&[denizen_core::DataFile::new(
            "t.ron",
            r#"(species: [
                (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
                (key: "u", name: "u", glyph: 'u', level: 1, hit_points: "1d1", unique: true),
                (key: "v", name: "v", glyph: 'v', level: 1, hit_points: "1d1", unique: true),
            ],
            tables: [(key: "floor", rows: [
                (what: Species("a"), depth: (1, 5), weight: 5),
                (what: Species("u"), depth: (1, 5), weight: 2),
                (what: Species("v"), depth: (1, 5), weight: 4),
            ])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
        )])
        .unwrap();
        let table = b.floor().table;
        let draw = compiled(&b, table, 3, &b.context.defaults()).expect("a compiled depth");
        // Nothing gone; u gone (2 of 11); u and v gone (6 of 11).
        for gone in [
            [false, false, false],
            [false, true, false],
            [false, true, true],
        ] {
            let mut fast = WorldSeed(6).stream(StreamPurpose::new("pick"));
            let mut slow = WorldSeed(6).stream(StreamPurpose::new("pick"));
            for _ in 0..2_000 {
                let compiled = pick_by(
                    &b,
                    (table, 3, &b.context.defaults()),
                    &gone,
                    Some(draw),
                    &mut fast,
                );
                let scanned = pick_by(
                    &b,
                    (table, 3, &b.context.defaults()),
                    &gone,
                    None,
                    &mut slow,
                );
                assert_eq!(compiled, scanned, "{gone:?}");
            }
            assert_eq!(
                below(&mut fast, 1 << 31),
                below(&mut slow, 1 << 31),
                "{gone:?}: the same words read"
            );
        }
    }

    /// A table with conditions is compiled per set of them that hold: in each context its
    /// draw picks, word for word, what the linear scan over the rows eligible there picks,
    /// with a unique gone too; and the contexts with the same conditions holding share
    /// one compiled draw.
    #[test]
    fn a_table_with_conditions_draws_as_the_scan_in_each_context() {
        let b = crate::load(&[denizen_core::DataFile::new(
            "t.ron",
            r#"(species: [
                (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
                (key: "u", name: "u", glyph: 'u', level: 1, hit_points: "1d1", unique: true),
                (key: "n", name: "n", glyph: 'n', level: 1, hit_points: "1d1"),
            ],
            context: Some((flags: ["night", "fair"])),
            tables: [(key: "floor", rows: [
                (what: Species("a"), depth: (1, 5), weight: 5),
                (what: Species("u"), depth: (1, 5), weight: 2),
                (what: Species("n"), depth: (1, 5), weight: 4, when: Some((all: ["night"]))),
            ])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
        )])
        .unwrap();
        let table = b.floor().table;
        let context = |flags: &[&str]| {
            let c = flags
                .iter()
                .fold(crate::Context::new(), |c, f| c.with_flag(*f));
            b.context().resolve(&c).unwrap()
        };
        for flags in [&[][..], &["night"], &["night", "fair"]] {
            let c = context(flags);
            let draw = compiled(&b, table, 3, &c).expect("a compiled depth");
            for gone in [[false, false, false], [false, true, false]] {
                let mut fast = WorldSeed(8).stream(StreamPurpose::new("pick"));
                let mut slow = WorldSeed(8).stream(StreamPurpose::new("pick"));
                for _ in 0..2_000 {
                    let compiled = pick_by(&b, (table, 3, &c), &gone, Some(draw), &mut fast);
                    let scanned = pick_by(&b, (table, 3, &c), &gone, None, &mut slow);
                    assert_eq!(compiled, scanned, "{flags:?} {gone:?}");
                }
            }
        }
        let night = compiled(&b, table, 3, &context(&["night"])).unwrap();
        let fair_night = compiled(&b, table, 3, &context(&["night", "fair"])).unwrap();
        assert!(std::ptr::eq(night, fair_night));
        assert_eq!(compiled(&b, table, 3, &context(&[])).unwrap().total(), 7);
        assert_eq!(night.total(), 11);
    }

    /// Every value below 6 comes about as often (within 5 percent over 60,000 draws).
    #[test]
    fn below_covers_every_value_evenly() {
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("below"));
        let mut seen = [0u32; 6];
        for _ in 0..60_000 {
            seen[below(&mut rng, 6).0 as usize] += 1;
        }
        assert!(
            seen.iter().all(|&n| (9_500..10_500).contains(&n)),
            "{seen:?}"
        );
    }
}
