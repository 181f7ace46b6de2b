//! The object kinds and the object allocator against the object notes' numbers, and the
//! weights against the original's rejection loop.

use denizen_angband::object::{draw_kind_by_rejection, tval};
use denizen_angband::{ObjectAllocator, ObjectKinds, ObjectOdds};
use denizen_core::{ChiSquared, DataFile, StreamPurpose, WorldSeed};

fn allocator() -> ObjectAllocator {
    ObjectAllocator::new(ObjectKinds::shipped())
}

/// Object notes 3.1: 435 kinds; 433 allocation entries, 22 at level 0, 46 up to level 1,
/// all by level 110; 36 kinds no draw gives. 3.3: 120 allocated kinds pass the good
/// filter.
#[test]
fn the_allocation_table_holds_the_notes_entries() {
    let allocator = allocator();
    let kinds = allocator.kinds();
    assert_eq!(kinds.len(), 435);
    assert_eq!(allocator.entry_count(), 433);
    assert_eq!(
        (allocator.prefix_size(0), allocator.prefix_size(1)),
        (22, 46)
    );
    assert!(allocator.prefix_size(109) < 433);
    assert_eq!(allocator.prefix_size(110), 433);
    let unallocated = kinds.all().iter().filter(|k| k.alloc.is_empty()).count();
    assert_eq!(unallocated, 36);
    let good = kinds
        .all()
        .iter()
        .filter(|k| !k.alloc.is_empty() && k.is_good())
        .count();
    assert_eq!(good, 120);
}

/// The share of a draw's kinds with a class, and the mean kind level.
fn class_share_and_mean_level(odds: &ObjectOdds, class: u8) -> (f64, f64) {
    let kinds = ObjectKinds::shipped();
    let kind = |o: &denizen_angband::object::KindOdds| kinds.get(o.kind).unwrap().clone();
    let share = odds
        .kinds
        .iter()
        .filter(|o| kind(o).tval == class)
        .map(|o| o.probability)
        .sum();
    let mean = odds
        .kinds
        .iter()
        .map(|o| o.probability * f64::from(kind(o).level))
        .sum();
    (share, mean)
}

/// Object notes 3.2: a plain draw at level 5 has a mean kind level of 3.71 and gives
/// potions 15.6% and scrolls 13.8% of the time; at level 50 the mean kind level is 21.8,
/// and it levels off at 25.3 from about level 100. Every draw's odds sum to one with
/// the failure, which is below 1e-200.
#[test]
fn odds_match_the_notes_by_class_and_kind_level() {
    let allocator = allocator();
    let at5 = allocator.odds(5, false);
    let (potions, mean5) = class_share_and_mean_level(&at5, tval::POTION);
    let (scrolls, _) = class_share_and_mean_level(&at5, tval::SCROLL);
    assert!((mean5 - 3.71).abs() < 0.005, "{mean5}");
    assert!((potions - 0.156).abs() < 0.0005, "{potions}");
    assert!((scrolls - 0.138).abs() < 0.0005, "{scrolls}");
    let (_, mean50) = class_share_and_mean_level(&allocator.odds(50, false), tval::POTION);
    assert!((mean50 - 21.8).abs() < 0.05, "{mean50}");
    for level in [100, 127] {
        let (_, mean) = class_share_and_mean_level(&allocator.odds(level, false), tval::POTION);
        assert!((mean - 25.3).abs() < 0.05, "level {level}: {mean}");
    }
    for level in [0, 1, 5, 30, 80, 127] {
        for good in [false, true] {
            let odds = allocator.odds(level, good);
            let total: f64 = odds.kinds.iter().map(|o| o.probability).sum();
            assert!((total + odds.failure - 1.0).abs() < 1e-12, "level {level}");
            assert!(odds.failure < 1e-200, "level {level}: {}", odds.failure);
            if good {
                let kinds = allocator.kinds();
                assert!(
                    odds.kinds
                        .iter()
                        .all(|o| kinds.get(o.kind).unwrap().is_good())
                );
            }
        }
    }
}

/// Sampled counts of one draw (the weights, or the original's loop) against the exact
/// odds, or against odds made with the boost left out (a wrong rule the check must
/// reject).
fn p_value(seed: u64, level: i32, good: bool, rejection: bool, odds: &ObjectOdds) -> f64 {
    let mut allocator = allocator();
    let mut counts = vec![0u64; odds.kinds.len() + 1];
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("objects"));
    for _ in 0..60_000 {
        let drawn = if rejection {
            draw_kind_by_rejection(&allocator, &mut rng, level, good)
        } else {
            allocator.draw(&mut rng, level, good)
        };
        let cell = drawn.map_or(odds.kinds.len(), |kind| {
            odds.kinds
                .iter()
                .position(|o| o.kind == kind)
                .unwrap_or(odds.kinds.len())
        });
        counts[cell] += 1;
    }
    let probabilities = odds
        .kinds
        .iter()
        .map(|o| o.probability)
        .chain([odds.failure]);
    ChiSquared::against(&counts, probabilities).p_value()
}

#[test]
fn draws_sample_the_exact_odds_and_a_draw_without_the_boost_is_rejected() {
    let allocator = allocator();
    for (seed, level, good) in [(1, 5, false), (2, 40, false), (3, 20, true)] {
        let exact = allocator.odds(level, good);
        for rejection in [false, true] {
            let p = p_value(seed, level, good, rejection, &exact);
            assert!(
                p > 1e-6,
                "level {level}, good {good}, rejection {rejection}: p = {p}"
            );
        }
        // The wrong rule: the odds of the unboosted level alone.
        let unboosted = allocator.odds_at(level, good);
        let p = p_value(seed, level, good, true, &unboosted);
        assert!(
            p < 1e-9,
            "level {level}: draws without the boost fit, p = {p}"
        );
    }
}

#[test]
fn a_broken_object_file_names_the_entry_and_field() {
    let text = r#"(kinds: [(index: 1, name: "Ration", symbol: ',', colour: 'U', tval: 80, sval: 35,
        pval: 5000, level: 0, weight: 10, cost: 3, alloc: [(0, 0)], ac: 0, damage: "0d0",
        to_h: 0, to_d: 0, to_a: 0, flags: [])])"#;
    let error = ObjectKinds::from_file(DataFile::new("mine.objects.ron", text)).unwrap_err();
    let line = error.to_string();
    assert!(
        line.contains("mine.objects.ron") && line.contains("Ration") && line.contains("alloc"),
        "{line}"
    );
    assert!(!line.contains('\n'));
}
