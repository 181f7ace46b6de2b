//! Bags: a table's rows drawn without replacement, refilled when empty, a copy of a row no
//! longer eligible taken out and drawn past. Exact figures worked by hand, each with a
//! seeded sample that rejects a named wrong rule (drawn with replacement; a gone unique's
//! copy bringing nothing instead of a redraw).

use denizen_core::ChiSquared;
use denizen_tables::{
    Bestiary, Context, Per, UniqueLedger, floor_counts, floor_odds, odds, sample_stream,
};

use crate::{bestiary, by_key, dense};

/// A bag of `ROWS` (rats cost 1, everything else 0, so a floor's danger counts its rats
/// or, with `RAT`/`SNAKE` swapped costs, its snakes), `COUNT` placements a floor.
const BAGGED: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1", cost: Some(RAT)),
        (key: "snake", name: "snake", glyph: 's', level: 1, hit_points: "1", cost: Some(SNAKE)),
        (key: "king", name: "king", glyph: 'K', level: 1, hit_points: "1", cost: Some(0), unique: true),
    ],
    tables: [(key: "floor", pick: PICK, rows: [ROWS])],
    floor: Some((table: "floor", depths: (1, 5), FLOOR)),
)"#;

fn bagged(rows: &str, floor: &str, (rat, snake): (u32, u32), pick: &str) -> Bestiary {
    bestiary(
        &BAGGED
            .replace("ROWS", rows)
            .replace("FLOOR", floor)
            .replace("RAT", &rat.to_string())
            .replace("SNAKE", &snake.to_string())
            .replace("PICK", pick),
    )
}

const RATS_AND_SNAKE: &str = r#"(what: Species("rat"), depth: (1, 5), weight: 3),
    (what: Species("snake"), depth: (1, 5), weight: 1)"#;

fn danger(b: &Bestiary) -> Vec<f64> {
    let figures = floor_odds(b, 2, &UniqueLedger::new(), &Context::new(), None).unwrap();
    assert!(figures.odds.standard_errors.is_none(), "exact");
    dense(&figures.danger)
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{got:?} against {want:?}");
    assert!(
        got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12),
        "{got:?} against {want:?}"
    );
}

/// 20,000 sampled floors' dangers at depth 2, up to 7.
fn sampled(b: &Bestiary, seed: u64) -> Vec<u64> {
    let costs: Vec<u32> = b.species().iter().map(|s| s.cost).collect();
    let mut seen = vec![0u64; 8];
    for i in 0..20_000 {
        let mut rng = sample_stream(seed, 2, i);
        let n = floor_counts(b, 2, &UniqueLedger::new(), &Context::new(), &mut rng).unwrap();
        let danger: u32 = n.iter().zip(&costs).map(|(n, c)| n * c).sum();
        seen[danger as usize] += 1;
    }
    seen
}

fn padded(p: &[f64]) -> Vec<f64> {
    let mut p = p.to_vec();
    p.resize(8, 0.0);
    p
}

/// A bag of three rats and a snake, by hand: four placements deal it whole (one snake
/// every floor), two deal a snake half the time, five deal the bag and one more from a
/// refilled bag (two snakes a quarter of the time). A placement is a floor's first: as a
/// pick-one table's.
#[test]
fn a_bag_deals_its_copies_and_is_refilled_when_empty() {
    let snakes = |count: &str| {
        danger(&bagged(
            RATS_AND_SNAKE,
            &format!("count: (dice: \"{count}\")"),
            (0, 1),
            "Bag",
        ))
    };
    close(&snakes("4"), &[0.0, 1.0]);
    close(&snakes("2"), &[0.5, 0.5]);
    close(&snakes("5"), &[0.0, 0.75, 0.25]);
    let b = bagged(RATS_AND_SNAKE, "count: (dice: \"4\")", (0, 1), "Bag");
    let one = bagged(RATS_AND_SNAKE, "count: (dice: \"4\")", (0, 1), "One");
    let (ledger, none) = (UniqueLedger::new(), Context::new());
    let placement = |b: &Bestiary| odds(b, 2, &ledger, &none, Per::Placement).unwrap().expected;
    assert_eq!(placement(&b), placement(&one));
    assert!((by_key(&b, &placement(&b), "snake") - 0.25).abs() < 1e-12);
}

/// Sampled, two placements from the bag give a snake half the time, and the figures of a
/// draw with replacement (none 9/16, one 6/16, two 1/16) are rejected.
#[test]
fn a_sampled_bag_draws_without_replacement() {
    let b = bagged(RATS_AND_SNAKE, "count: (dice: \"2\")", (0, 1), "Bag");
    let seen = sampled(&b, 51);
    assert!(
        ChiSquared::against(&seen, padded(&danger(&b))).p_value() > 1e-3,
        "{seen:?}"
    );
    let replaced = padded(&[9.0 / 16.0, 6.0 / 16.0, 1.0 / 16.0]);
    assert!(
        ChiSquared::against(&seen, replaced).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// Two rats and two copies of a unique king, three placements, by hand: the king comes
/// once; a copy of his drawn after he came is taken out and the draw goes on, so every
/// floor has the king and both rats. A rule where that copy brings nothing counts the
/// rats among the first three copies dealt: one or two, even odds; it is rejected.
#[test]
fn a_copy_of_a_gone_unique_is_taken_out_and_drawn_past() {
    let rows = r#"(what: Species("rat"), depth: (1, 5), weight: 2),
        (what: Species("king"), depth: (1, 5), weight: 2)"#;
    let b = bagged(rows, "count: (dice: \"3\")", (1, 0), "Bag");
    let exact = danger(&b);
    close(&exact, &[0.0, 0.0, 1.0]);
    let ledger = UniqueLedger::new();
    let figures = floor_odds(&b, 2, &ledger, &Context::new(), None).unwrap();
    assert!((by_key(&b, &figures.odds.expected, "king") - 1.0).abs() < 1e-12);
    let seen = sampled(&b, 53);
    assert!(
        ChiSquared::against(&seen, padded(&exact)).p_value() > 1e-3,
        "{seen:?}"
    );
    let nothing = padded(&[0.0, 0.5, 0.5]);
    assert!(
        ChiSquared::against(&seen, nothing).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// A budgeted floor that draws from a bag puts a discarded placement's copy back. Rats
/// cost 1, the snake 3 (never fitting a budget of 2), two discards in a row end the
/// floor. By hand: the snake's copy twice in a row first (1/16) spends nothing; a rat,
/// then the snake twice (1/12), or the snake, a rat, then the snake twice (1/48), spend
/// 1; every other floor 2. A bag that kept the discarded copy out would deal rats only
/// after it, and every floor would spend 2: rejected.
#[test]
fn a_discarded_placement_puts_its_copy_back() {
    let b = bagged(
        RATS_AND_SNAKE,
        r#"budget: Some((dice: "2", attempts: Some(2)))"#,
        (1, 3),
        "Bag",
    );
    let exact = danger(&b);
    close(&exact, &[1.0 / 16.0, 5.0 / 48.0, 5.0 / 6.0]);
    let seen = sampled(&b, 57);
    assert!(
        ChiSquared::against(&seen, padded(&exact)).p_value() > 1e-3,
        "{seen:?}"
    );
    let kept_out = padded(&[0.0, 0.0, 1.0]);
    assert!(
        ChiSquared::against(&seen, kept_out).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// Copies are bounded: a bag row's weight is at most 100.
#[test]
fn a_bag_rows_copies_are_bounded() {
    let text = BAGGED
        .replace(
            "ROWS",
            r#"(what: Species("rat"), depth: (1, 5), weight: 101)"#,
        )
        .replace("FLOOR", "count: (dice: \"1\")")
        .replace("RAT", "1")
        .replace("SNAKE", "1")
        .replace("PICK", "Bag");
    let e = crate::error(&text);
    assert!(
        e.contains("field `weight`: a bag row puts at most 100 copies in its bag"),
        "{e}"
    );
}
