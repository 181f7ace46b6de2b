//! The small rules at the values where an off-by-one or a wrong operator changes the
//! answer, worked by hand: the out-of-depth boost, a floor's count bounds, eligibility, a
//! dice total, the wandering chance, the ledger's bookkeeping, what a file leaves out,
//! and where each entry came from.

use denizen_core::{Dice, StreamPurpose, WorldSeed};
use denizen_tables::{
    Chance, Context, Depths, OutOfDepthRule, Place, Shape, TimeUnit, UniqueLedger, WanderingRules,
    dice_distribution, has_eligible_row,
};

use crate::{bestiary, species};

#[test]
fn the_boost_adds_depth_over_divisor_plus_bonus_up_to_the_cap() {
    let rule = OutOfDepthRule {
        chance: Chance::new(1, 2).unwrap(),
        divisor: 4,
        bonus: 2,
        cap: 10,
        fairness: 1,
    };
    // 12 / 4 + 2 = 5 (a product 3 * 2 would give 6); 40 / 4 + 2 = 12, capped at 10.
    assert_eq!(rule.boosted(12), 17);
    assert_eq!(rule.boosted(40), 50);
    assert_eq!(rule.boosted(3), 5, "3 / 4 is 0");
}

#[test]
fn a_floors_count_bounds_add_the_depth_term_to_the_dice() {
    let b = bestiary(&format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 20))])], floor: Some((table: \"floor\", depths: (1, 20), count: (dice: \"2d4\", per_depth: Some(\"3/2\")))))",
        species(&["a"])
    ));
    // 2d4 is 2 to 8; depth 7 adds 7 * 3 / 2 = 10 (floor), depth 1 adds 1.
    assert_eq!(b.floor().count_bounds(7), (12, 18));
    assert_eq!(b.floor().count_bounds(1), (3, 9));
}

#[test]
fn a_table_has_an_eligible_row_only_where_a_row_weighs() {
    let b = bestiary(&format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 9)), (what: Species(\"a\"), depth: (3, 5), weight: 2, shape: Rise)]), (key: \"deep\", rows: [(what: Species(\"a\"), depth: (4, 6), weight: 1, shape: Rise)])], floor: Some((table: \"floor\", depths: (1, 9), count: (dice: \"1d1\"))))",
        species(&["a"])
    ));
    let deep = b.table_by_key("deep").unwrap();
    // A Rise of weight 1 over 4-6 weighs 1 * (d - 3) / 3: 0 at 4 and 5, 1 at 6.
    let eligible: Vec<bool> = (3..=7)
        .map(|d| has_eligible_row(&b, deep, d, &Context::new()).unwrap())
        .collect();
    assert_eq!(eligible, [false, false, false, true, false]);
    assert!(has_eligible_row(&b, b.floor().table, 1, &Context::new()).unwrap());
    assert_eq!(Shape::Rise.positive(1, Depths(4, 6)), Some(Depths(6, 6)));
}

#[test]
fn dice_of_no_faces_or_no_dice_total_nothing() {
    assert_eq!(dice_distribution(Dice::new(0, 6)), vec![1.0]);
    assert_eq!(dice_distribution(Dice::new(3, 0)), vec![1.0]);
    let one = dice_distribution(Dice::new(1, 2));
    assert_eq!(one, vec![0.0, 0.5, 0.5]);
}

/// A check comes with the file's chance, halved for each halving by a fair coin: at
/// chance 1/1, after two halvings, 1 in 4, and a chance of 1/3 without halving, 1 in 3.
#[test]
fn the_wandering_chance_is_the_files_halved_by_fair_coins() {
    let b = bestiary(&format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a"])
    ));
    let rules = |chance: Chance, halve_every| WanderingRules {
        table: b.floor().table,
        chance,
        every: 10,
        unit: TimeUnit::Turns,
        halve_every,
        place: Default::default(),
    };
    let count = |r: &WanderingRules, elapsed: u64| {
        let mut rng = WorldSeed(4).stream(StreamPurpose::new("wander"));
        (0..8_000).filter(|_| r.check(elapsed, &mut rng)).count()
    };
    let quartered = rules(Chance::ALWAYS, Some(10));
    assert_eq!(quartered.halvings(25), 2);
    let n = count(&quartered, 25);
    assert!((1_850..2_150).contains(&n), "{n} of 8,000 at 1 in 4");
    let third = rules(Chance::new(1, 3).unwrap(), None);
    let n = count(&third, 1_000);
    assert!((2_520..2_820).contains(&n), "{n} of 8,000 at 1 in 3");
    assert_eq!(count(&rules(Chance::NEVER, None), 0), 0);
}

/// A chance keeps its numerator and denominator, and a roll of `3/4` comes 3 times in 4
/// (6,000 of 8,000 give or take 5 standard deviations, 194): the value drawn below 4 is
/// below 3, not equal to it (1 in 4).
#[test]
fn a_chance_keeps_its_numerator_and_denominator() {
    let c = Chance::new(3, 7).unwrap();
    assert_eq!((c.num(), c.den()), (3, 7));
    assert!(Chance::new(8, 7).is_none() && Chance::new(1, 0).is_none());
    let three_in_four = Chance::new(3, 4).unwrap();
    let mut rng = WorldSeed(9).stream(StreamPurpose::new("chance"));
    let n = (0..8_000).filter(|_| three_in_four.roll(&mut rng)).count();
    assert!((5_806..6_194).contains(&n), "{n} of 8,000 at 3 in 4");
}

/// The ledger's keys, and what a check of it against the files drops, in order.
#[test]
fn the_ledger_lists_and_drops_its_keys() {
    let mut ledger = UniqueLedger::new();
    ledger.alive("queen");
    ledger.alive("king");
    ledger.killed("knave");
    assert_eq!(ledger.alive_keys().collect::<Vec<_>>(), ["king", "queen"]);
    assert_eq!(ledger.killed_keys().collect::<Vec<_>>(), ["knave"]);
    let dropped = ledger.retain(|key| key != "king" && key != "knave");
    assert_eq!(dropped, ["king", "knave"]);
    assert_eq!(ledger.alive_keys().collect::<Vec<_>>(), ["queen"]);
    assert_eq!(ledger.killed_keys().count(), 0);
}

/// What a file leaves out: a group's radius is 3, a count per depth is a fraction of at
/// most 100 over 1 to 100, and a clock unit names itself and the other.
#[test]
fn what_a_file_leaves_out_and_how_it_writes_fractions() {
    let b = bestiary(&format!(
        "(species: [{}], groups: [(key: \"g\", leader: Some(Species(\"a\")), followers: [(member: Species(\"a\"), count: \"1d1\")])], tables: [(key: \"floor\", rows: [(what: Group(\"g\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a"])
    ));
    assert_eq!(b.groups()[0].radius, 3);
    for (text, fits) in [
        ("100/100", true),
        ("0/1", true),
        ("101/2", false),
        ("1/0", false),
        ("1/101", false),
        ("1", false),
    ] {
        let parsed = denizen_core::load_ron::<denizen_tables::file::PerDepth>(
            &format!("\"{text}\""),
            "t.ron",
        );
        assert_eq!(parsed.is_ok(), fits, "{text}");
    }
    assert_eq!(
        (TimeUnit::Turns.name(), TimeUnit::Minutes.name()),
        ("turns", "minutes")
    );
    assert_eq!(TimeUnit::Turns.other(), TimeUnit::Minutes);
    assert_eq!(TimeUnit::Minutes.other(), TimeUnit::Turns);
}

/// Where every kind of entry came from, what the files were, and the items a loot table
/// names.
#[test]
fn every_entry_knows_where_it_was_written() {
    let text = format!(
        "(species: [{}], loot: [(key: \"l\", items: [(item: \"coin\", weight: 1), (item: \"gem\", weight: 2)])], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))), wandering: Some((table: \"floor\", chance: \"1/2\", every: 5)))",
        species(&["a"])
    );
    let b = bestiary(&text);
    assert_eq!(b.files(), ["t.ron"]);
    assert_eq!(b.tables().len(), 1);
    let l = b.loot_by_key("l").unwrap();
    assert!(b.loot_by_key("m").is_none());
    assert_eq!(b.loot_source(l).to_string(), "t.ron: loot[0] `l`");
    let gem = denizen_tables::ItemRef { loot: l, index: 1 };
    assert_eq!(b.item_name(gem), "gem");
    assert_eq!(
        b.wandering_source().unwrap().to_string(),
        "t.ron: wandering"
    );
    assert_eq!(b.floor_source().to_string(), "t.ron: floor");
}

/// A placement rule is empty only when it says nothing: a least distance alone, or one
/// tag of any kind alone, is a rule.
#[test]
fn a_place_is_empty_only_when_it_says_nothing() {
    assert!(Place::default().is_empty());
    let tag = || vec!["b".to_owned()];
    for place in [
        Place {
            min_distance: 1,
            ..Place::default()
        },
        Place {
            stands_on: tag(),
            ..Place::default()
        },
        Place {
            needs: tag(),
            ..Place::default()
        },
        Place {
            forbids: tag(),
            ..Place::default()
        },
    ] {
        assert!(!place.is_empty(), "{place:?}");
    }
}
