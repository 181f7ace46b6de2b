//! Designer rolls: dice with a bonus and ranges in counts and hit points, against
//! hand-worked odds and seeded samples that reject a bonus added once per die.

use denizen_core::ChiSquared;
use denizen_tables::{Context, Per, UniqueLedger, odds, placement_counts, sample_stream};

use crate::{bestiary, by_key, error, species};

/// A pick-each row of `a` with count `COUNT`, and a group of `b` with `FOLLOWERS`
/// followers of `c`.
const ROLLS: &str = r#"(
    species: [SPECIES],
    groups: [(key: "g", leader: Some(Species("b")), followers: [(member: Species("c"), count: "FOLLOWERS")])],
    tables: [
        (key: "floor", rows: [
            (what: Table("each"), depth: (1, 5), weight: 1),
            (what: Group("g"), depth: (1, 5), weight: 1),
        ]),
        (key: "each", pick: Each, rows: [(what: Species("a"), depth: (1, 5), count: Some("COUNT"))]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "FLOOR"))),
)"#;

fn rolls(count: &str, followers: &str, floor: &str) -> denizen_tables::Bestiary {
    bestiary(
        &ROLLS
            .replace("SPECIES", &species(&["a", "b", "c"]))
            .replace("FOLLOWERS", followers)
            .replace("COUNT", count)
            .replace("FLOOR", floor),
    )
}

/// By hand: half the placements draw `a` 2d3+1 times (5 on average), half draw `b` and
/// 3-6 of `c` (4.5); a floor of 1d2+1 placements (2.5 on average) has 2.5 times those.
#[test]
fn bonuses_and_ranges_give_their_exact_means() {
    let b = rolls("2d3+1", "3-6", "1d2+1");
    let ledger = UniqueLedger::new();
    let placement = odds(&b, 2, &ledger, &Context::new(), Per::Placement).unwrap();
    let floor = odds(&b, 2, &ledger, &Context::new(), Per::Floor).unwrap();
    for (key, mean) in [("a", 2.5), ("b", 0.5), ("c", 2.25)] {
        let got = by_key(&b, &placement.expected, key);
        assert!((got - mean).abs() < 1e-12, "{key}: {got}");
        let got = by_key(&b, &floor.expected, key);
        assert!((got - 2.5 * mean).abs() < 1e-12, "{key} per floor: {got}");
    }
}

/// The number of `a` a placement brings, sampled, follows 2d3+1 (half the time; 0 the
/// other half): 3..7 as 1:2:3:2:1 ninths of a half. A bonus added once per die (2d3+2)
/// is rejected.
#[test]
fn a_sampled_bonus_is_added_once_and_once_per_die_is_rejected() {
    let b = rolls("2d3+1", "1", "1");
    let a = b.species_by_key("a").unwrap().index();
    let mut seen = [0u64; 9];
    for i in 0..20_000 {
        let mut rng = sample_stream(31, 2, i);
        let counts = placement_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng);
        seen[counts.unwrap()[a] as usize] += 1;
    }
    let shifted = |by: usize| {
        let mut p = [0.0; 9];
        p[0] = 0.5;
        for (k, n) in [1.0, 2.0, 3.0, 2.0, 1.0].into_iter().enumerate() {
            p[2 + by + k] = 0.5 * n / 9.0;
        }
        p
    };
    assert!(
        ChiSquared::against(&seen, shifted(1)).p_value() > 1e-3,
        "{seen:?}"
    );
    assert!(
        ChiSquared::against(&seen, shifted(2)).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// The number of `c` a group placement brings, sampled, follows the range 3-6: each of
/// 3, 4, 5 and 6 an eighth, none the other half. A range one short at either end (3-5,
/// 4-6) is rejected.
#[test]
fn a_sampled_range_is_uniform_on_both_its_ends() {
    let b = rolls("1", "3-6", "1");
    let c = b.species_by_key("c").unwrap().index();
    let mut seen = [0u64; 8];
    for i in 0..20_000 {
        let mut rng = sample_stream(37, 2, i);
        let counts = placement_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng);
        seen[counts.unwrap()[c] as usize] += 1;
    }
    let uniform = |lo: usize, hi: usize| {
        let mut p = [0.0; 8];
        p[0] = 0.5;
        for n in &mut p[lo..=hi] {
            *n = 0.5 / (hi - lo + 1) as f64;
        }
        p
    };
    assert!(
        ChiSquared::against(&seen, uniform(3, 6)).p_value() > 1e-3,
        "{seen:?}"
    );
    for wrong in [uniform(3, 5), uniform(4, 6), uniform(3, 7)] {
        assert!(
            ChiSquared::against(&seen, wrong).p_value() < 1e-6,
            "{seen:?}"
        );
    }
}

/// A number is a range of one value: it rolls that value and takes no word from the
/// stream, so the draws after it are those of a stream it never touched.
#[test]
fn a_number_rolls_itself_and_takes_nothing_from_the_stream() {
    let four: denizen_tables::Roll = "4".parse().unwrap();
    let (mut rolled, mut fresh) = (sample_stream(5, 1, 0), sample_stream(5, 1, 0));
    assert_eq!(four.roll(&mut rolled), 4);
    let next = |rng| denizen_core::fair::below(rng, 1 << 30).0;
    assert_eq!(next(&mut rolled), next(&mut fresh));
}

/// Rolls that cannot be, named by file, entry and field.
#[test]
fn bad_rolls_are_refused_by_field() {
    let text = |count: &str, hp: &str| {
        ROLLS
            .replace("SPECIES", &species(&["a", "b", "c"]))
            .replace("hit_points: \"1d1\"),", &format!("hit_points: \"{hp}\"),"))
            .replace("FOLLOWERS", "1")
            .replace("COUNT", count)
            .replace("FLOOR", "1")
    };
    for (text, said) in [
        (
            text("40-60", "1d1"),
            "field `count`: 40-60 can give more than 50",
        ),
        (
            text("1", "1d3-1"),
            "field `hit_points`: 1d3-1: a creature has at least 1 hit point",
        ),
        (text("2d3*2", "1d1"), "`2d3*2` is not a roll"),
        (text("6-3", "1d1"), "`6-3` is not a roll"),
        // A sign is not a digit: the count `+4` and the bonus `++1` are refused.
        (text("+4", "1d1"), "`+4` is not a roll"),
        (text("2d3++1", "1d1"), "`2d3++1` is not a roll"),
    ] {
        let e = error(&text);
        assert!(e.contains("t.ron") && e.contains(said), "{said}: {e}");
    }
}
