//! Danger budgets: a floor that spends a budget on placements, kept while each fits what
//! remains, ended by discards in a row. Exact figures worked by hand, each with a seeded
//! sample that rejects a named wrong rule (overshoot allowed, the attempts limit off by
//! one, a discarded placement's unique still taken).

use denizen_core::ChiSquared;
use denizen_tables::{
    Bestiary, Context, OddsError, Per, UniqueLedger, floor_counts, floor_odds, sample_stream,
};

use crate::{bestiary, by_key, error};

/// `a` (cost 1) and `b` (cost 3, or unique when `UNIQUE`), one a placement, even odds;
/// a budget of `BUDGET` with `ATTEMPTS` discards in a row.
const BUDGETED: &str = r#"(
    species: [
        (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1", cost: Some(1)),
        (key: "b", name: "b", glyph: 'b', level: 1, hit_points: "1", cost: Some(3), unique: UNIQUE),
    ],
    tables: [(key: "floor", rows: [
        (what: Species("a"), depth: (1, 5)),
        (what: Species("b"), depth: (1, 5)),
    ])],
    floor: Some((table: "floor", depths: (1, 5), budget: Some((dice: "BUDGET", attempts: Some(ATTEMPTS))))),
)"#;

/// The file with its floor's budget replaced by `floor`.
fn with_floor(floor: &str) -> String {
    BUDGETED.replace("UNIQUE", "false").replace(
        r#"budget: Some((dice: "BUDGET", attempts: Some(ATTEMPTS)))"#,
        floor,
    )
}

fn budgeted(budget: &str, attempts: u32, unique: bool) -> Bestiary {
    bestiary(
        &BUDGETED
            .replace("BUDGET", budget)
            .replace("ATTEMPTS", &attempts.to_string())
            .replace("UNIQUE", &unique.to_string()),
    )
}

/// The exact danger distribution, entry `k` the chance of `k`.
fn danger(b: &Bestiary, budget: Option<u32>) -> Vec<f64> {
    let odds = floor_odds(b, 2, &UniqueLedger::new(), &Context::new(), budget).unwrap();
    assert!(odds.odds.standard_errors.is_none(), "exact");
    crate::dense(&odds.danger)
}

fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{got:?} against {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{got:?} against {want:?}");
    }
}

/// 20,000 sampled floors' dangers at depth 2.
fn sampled_dangers(b: &Bestiary, seed: u64) -> Vec<u64> {
    let cost = |key| b.species_by_key(key).map(|s| b.species()[s.index()].cost);
    let (a, c) = (cost("a").unwrap(), cost("b").unwrap());
    let mut seen = vec![0u64; 8];
    for i in 0..20_000 {
        let mut rng = sample_stream(seed, 2, i);
        let n = floor_counts(b, 2, &UniqueLedger::new(), &Context::new(), &mut rng).unwrap();
        seen[(n[0] * a + n[1] * c) as usize] += 1;
    }
    seen
}

fn padded(p: &[f64]) -> Vec<f64> {
    let mut p = p.to_vec();
    p.resize(8, 0.0);
    p
}

/// By hand, a budget of 3 and one discard ending the floor: `b` first (1/2) spends all 3
/// (kept: a cost equal to what remains fits); `a` then `b` ends at 1 (1/4); `a`, `a`,
/// `b` at 2 (1/8); three `a` at 3 (1/8). Danger 3 has 5/8, 2 has 1/8, 1 has 1/4; `a`
/// comes 7/8 of a time, `b` 1/2.
#[test]
fn a_budget_keeps_what_fits_and_ends_at_its_attempts() {
    let b = budgeted("3", 1, false);
    assert_close(&danger(&b, None), &[0.0, 0.25, 0.125, 0.625]);
    let odds = floor_odds(&b, 2, &UniqueLedger::new(), &Context::new(), None).unwrap();
    assert!((by_key(&b, &odds.odds.expected, "a") - 0.875).abs() < 1e-12);
    assert!((by_key(&b, &odds.odds.expected, "b") - 0.5).abs() < 1e-12);
    assert!((odds.mean_danger() - 19.0 / 8.0).abs() < 1e-12);
    // Per floor, the plain odds walk the same floor.
    let plain =
        denizen_tables::odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert_eq!(plain.expected, odds.odds.expected);
    // Quantiles: the least k with P(danger <= k) >= q.
    assert_eq!(odds.danger_quantile(0.25), 1);
    assert_eq!(odds.danger_quantile(0.26), 2);
    assert_eq!(odds.danger_quantile(0.375), 2);
    assert_eq!(odds.danger_quantile(0.95), 3);
}

/// Two discards in a row, by hand: danger 3 with 25/32, 2 with 3/32, 1 with 4/32. The
/// sample at one discard follows 5/8, 1/8, 1/4 and rejects the two-discard figures (the
/// attempts limit off by one) and a budget that keeps a placement whatever it costs
/// while anything remains (danger 3 with 5/8, 4 with 1/4, 5 with 1/8).
#[test]
fn sampled_budgets_follow_the_exact_odds_and_reject_overshoot_and_an_extra_attempt() {
    let two = budgeted("3", 2, false);
    assert_close(&danger(&two, None), &[0.0, 0.125, 3.0 / 32.0, 25.0 / 32.0]);

    let one = budgeted("3", 1, false);
    let seen = sampled_dangers(&one, 41);
    let exact = padded(&danger(&one, None));
    assert!(
        ChiSquared::against(&seen, exact).p_value() > 1e-3,
        "{seen:?}"
    );
    let extra_attempt = padded(&danger(&two, None));
    let overshoot = padded(&[0.0, 0.0, 0.0, 0.625, 0.25, 0.125]);
    for wrong in [extra_attempt, overshoot] {
        assert!(
            ChiSquared::against(&seen, wrong).p_value() < 1e-6,
            "{seen:?}"
        );
    }
}

/// A discarded placement leaves its unique: with `b` unique and too dear for a budget of
/// 2 (two discards in a row), by hand danger 2 has 9/16, 1 has 3/16, 0 has 1/4. Were the
/// discarded `b` still taken, every floor would reach 2.
#[test]
fn a_discarded_placement_leaves_its_unique_to_come_again() {
    let b = budgeted("2", 2, true);
    let exact = danger(&b, None);
    assert_close(&exact, &[0.25, 0.1875, 0.5625]);
    let seen = sampled_dangers(&b, 43);
    assert!(
        ChiSquared::against(&seen, padded(&exact)).p_value() > 1e-3,
        "{seen:?}"
    );
    let taken = padded(&[0.0, 0.0, 1.0]);
    assert!(
        ChiSquared::against(&seen, taken).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// A rolled budget is its values' figures mixed by their chances; a fixed one is one
/// value's, and only a budgeted floor's budget can be fixed.
#[test]
fn a_rolled_budget_mixes_its_values_and_a_fixed_one_is_checked() {
    let b = budgeted("1d2+2", 1, false);
    let (three, four) = (danger(&b, Some(3)), danger(&b, Some(4)));
    let mixed: Vec<f64> = (0..four.len())
        .map(|k| 0.5 * three.get(k).unwrap_or(&0.0) + 0.5 * four[k])
        .collect();
    assert_close(&danger(&b, None), &mixed);
    assert_close(&three, &danger(&budgeted("3", 1, false), None));

    let ledger = UniqueLedger::new();
    let past = floor_odds(&b, 2, &ledger, &Context::new(), Some(10_001));
    assert!(matches!(past, Err(OddsError::Budget(ref e)) if e.contains("past the largest")));
    let counted = bestiary(&with_floor(r#"count: (dice: "1d2")"#));
    let fixed = floor_odds(&counted, 2, &ledger, &Context::new(), Some(3));
    assert!(matches!(fixed, Err(OddsError::Budget(ref e)) if e.contains("has a count")));
}

/// A budget of nothing brings nothing; a budget's faults are named by field.
#[test]
fn an_empty_budget_brings_nothing_and_bad_budgets_are_named() {
    assert_close(&danger(&budgeted("0", 1, false), None), &[1.0]);
    for (floor, said) in [
        (
            r#"count: (dice: "1d2"), budget: Some((dice: "3"))"#,
            "field `budget`: a floor has a `count` or a `budget`, not both",
        ),
        ("", "field `count`: a floor has a `count` or a `budget`"),
        (
            r#"budget: Some((dice: "3", attempts: Some(0)))"#,
            "field `budget.attempts`: 1 to 1000",
        ),
        (
            r#"budget: Some((dice: "3", attempts: Some(1001)))"#,
            "field `budget.attempts`: 1 to 1000",
        ),
        (
            r#"budget: Some((dice: "101d2"))"#,
            "field `budget.dice`: 101d2: at most 100 dice of 100 sides",
        ),
        (
            r#"budget: Some((dice: "1d2+10000", per_depth: Some("100/1")))"#,
            "field `budget`: more than 10000 of budget at depth 5",
        ),
    ] {
        let e = error(&with_floor(floor));
        assert!(e.contains("t.ron") && e.contains(said), "{said}: {e}");
    }
}

/// A species dearer than the largest budget the floor rolls (1d2+2: at most 4) is named
/// by the lint; one that costs exactly the largest budget can be kept, and is not.
#[test]
fn a_species_dearer_than_every_budget_is_linted() {
    let text = |cost: u32| {
        BUDGETED
            .replace("UNIQUE", "false")
            .replace("BUDGET", "1d2+2")
            .replace("ATTEMPTS", "3")
            .replace("cost: Some(3)", &format!("cost: Some({cost})"))
    };
    let warnings = |cost| {
        let b = bestiary(&text(cost));
        b.warnings()
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
    };
    assert!(warnings(4).is_empty(), "{:?}", warnings(4));
    let five = warnings(5);
    assert_eq!(five.len(), 1, "{five:?}");
    assert!(
        five[0].contains("`b`")
            && five[0].contains("field `cost`: 5 is more than 4, the largest budget of floor"),
        "{}",
        five[0]
    );
}

/// A floor's danger is followed exactly up to `MAX_EXACT_DANGER` (100,000): ten placements
/// of `a` (cost 10,000) or `b` (cost 3), even odds, can reach 100,000 and are exact, with
/// the mean worked by hand (10 x 10,003 / 2); eleven can pass it and are sampled, with
/// standard errors.
#[test]
fn a_danger_past_the_exact_limit_is_sampled() {
    assert_eq!(denizen_tables::MAX_EXACT_DANGER, 100_000);
    for (n, exact) in [(10, true), (11, false)] {
        let text = with_floor(&format!("count: (dice: \"{n}\")"));
        let b = bestiary(&text.replace("cost: Some(1)", "cost: Some(10000)"));
        let figures = floor_odds(&b, 1, &UniqueLedger::new(), &Context::new(), None).unwrap();
        assert_eq!(
            figures.odds.standard_errors.is_none(),
            exact,
            "{n} placements"
        );
        let mean = 10_003.0 * f64::from(n) / 2.0;
        let tolerance = if exact { 1e-6 } else { 0.02 * mean };
        assert!(
            (figures.mean_danger() - mean).abs() < tolerance,
            "{n}: {}",
            figures.mean_danger()
        );
    }
}
