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
    let allocator = allocator();
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

/// A draw whose picks are nearly all refused: 4,095 plain kinds and one good one kept a
/// pick in 255. A good draw keeps a pick with chance `1 / (4,096 x 255)`, so all 10,000
/// picks fail with chance `(1 - 1 / 1,044,480)^10,000` = 0.9905 at every level; the odds
/// say so, and the draws fail as often.
#[test]
fn a_draw_of_mostly_refused_picks_fails_as_its_odds_say() {
    use denizen_angband::object::MAX_KINDS;
    let kind = |index: usize, tval: u8, chance: u8| {
        format!(
            "(index: {index}, name: \"Kind {index}\", symbol: '?', colour: 'w', tval: {tval}, \
             sval: 1, pval: 0, level: 0, weight: 1, cost: 1, alloc: [(0, {chance})], ac: 0, \
             damage: \"0d0\", to_h: 0, to_d: 0, to_a: 0, flags: [])"
        )
    };
    let mut kinds: Vec<String> = (1..MAX_KINDS).map(|i| kind(i, tval::SCROLL, 1)).collect();
    kinds.push(kind(MAX_KINDS, tval::SWORD, 255));
    let text = format!("(kinds: [{}])", kinds.join(", "));
    let kinds = ObjectKinds::from_file(DataFile::new("mine.objects.ron", &text)).unwrap();
    assert!(!kinds.is_empty());
    let allocator = ObjectAllocator::new(kinds);
    let failure = (1.0 - 1.0 / (4_096.0 * 255.0_f64)).powi(10_000);
    for level in [0, 5, 60] {
        let odds = allocator.odds(level, true);
        assert!((odds.failure - failure).abs() < 1e-12, "{}", odds.failure);
        assert_eq!(odds.kinds.len(), 1);
        assert!((odds.kinds[0].probability - (1.0 - failure)).abs() < 1e-12);
    }
    let mut rng = WorldSeed(14).stream(StreamPurpose::new("refused"));
    let n = 20_000;
    let made = (0..n)
        .filter(|_| allocator.draw(&mut rng, 5, true).is_some())
        .count() as f64;
    let expected = f64::from(n) * (1.0 - failure);
    assert!(
        (made - expected).abs() < 4.0 * expected.sqrt(),
        "{made} of {n} made"
    );
}

/// The good filter's weapons (object notes 3.3): a bow, weapon or digger is good only
/// when both its base to-hit and to-dam are at least 0.
#[test]
fn a_weapon_is_good_only_without_a_negative_base_bonus() {
    let sword = |to_h: i32, to_d: i32| {
        let text = format!(
            "(kinds: [(index: 1, name: \"Sword\", symbol: '|', colour: 'W', tval: 23, \
             sval: 1, pval: 0, level: 1, weight: 1, cost: 1, alloc: [(1, 1)], ac: 0, \
             damage: \"1d1\", to_h: {to_h}, to_d: {to_d}, to_a: 0, flags: [])])"
        );
        let kinds = ObjectKinds::from_file(DataFile::new("mine.objects.ron", &text)).unwrap();
        kinds.all()[0].is_good()
    };
    assert!(sword(0, 0) && sword(3, 2));
    assert!(!sword(0, -1) && !sword(-1, 0) && !sword(-1, -1));
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
    // The town's draws are never boosted: a boost would reach level 1's kinds.
    let town = allocator.odds(0, false);
    for rejection in [false, true] {
        let p = p_value(4, 0, false, rejection, &town);
        assert!(p > 1e-6, "level 0, rejection {rejection}: p = {p}");
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

/// The shipped ego items and artifacts load: 87 and 113, 12 special artifacts, 46 that
/// cost more than 50,000 (object notes 5, 6).
#[test]
fn the_ego_items_and_artifacts_load() {
    let egos = denizen_angband::Egos::shipped();
    let artifacts = denizen_angband::Artifacts::shipped();
    assert_eq!(egos.all().len(), 87);
    assert_eq!(artifacts.all().len(), 113);
    assert_eq!(
        artifacts.all().iter().filter(|a| a.is_special()).count(),
        12
    );
    assert_eq!(
        artifacts.all().iter().filter(|a| a.rating() == 20).count(),
        46
    );
    // Cursed by the files' `CURSED` flag: seven artifacts and one ego item.
    let cursed: Vec<&str> = artifacts
        .all()
        .iter()
        .filter(|a| a.is_cursed())
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(
        cursed,
        [
            "of Power (The One Ring)",
            "of Morgoth",
            "of Beruthiel",
            "of Gorlim",
            "'Camlost'",
            "'Calris'",
            "'Mormegil'"
        ]
    );
    assert_eq!(egos.all().iter().filter(|e| e.is_cursed()).count(), 1);
}

/// `randnor(9, 3)` lies in -2..=20 and `randnor(3, 3)` in -8..=14, and the counts they
/// place (none when negative) average 9.000488 and 3.177322, worked out from the table
/// as layout notes 8.5 and the source read it (the first step whose end is at least the
/// roll). Object notes 1.1 give 9.000519 and 3.177444: they read the table's differences
/// as the steps' weights, one value off at every step; the sample cannot tell the two
/// apart, so the notes' figures are not used.
#[test]
fn randnor_counts_match_the_notes() {
    use denizen_angband::rng::randnor;
    let mut rng = WorldSeed(8).stream(StreamPurpose::new("randnor"));
    for (mean, low, high, placed) in [(9, -2, 20, 9.000488), (3, -8, 14, 3.177322)] {
        let n = 200_000;
        let mut sum = 0i64;
        let (mut seen_low, mut seen_high) = (i32::MAX, i32::MIN);
        for _ in 0..n {
            let x = randnor(&mut rng, mean, 3);
            assert!((low..=high).contains(&x), "randnor({mean}, 3) gave {x}");
            seen_low = seen_low.min(x);
            seen_high = seen_high.max(x);
            sum += i64::from(x.max(0));
        }
        let sampled = sum as f64 / f64::from(n);
        // The spread is about 3: four standard errors.
        assert!(
            (sampled - placed).abs() < 4.0 * 3.2 / f64::from(n).sqrt(),
            "{sampled}"
        );
        assert!(seen_low < mean - 6 && seen_high > mean + 6);
    }
}

/// The power roll against the object notes' table 4.1 (plain calls at magic levels 5, 30
/// and 65, a good call at 30), and against the same table with `f2` not held to 20 (a
/// wrong rule the check must reject at 65).
#[test]
fn the_power_roll_matches_the_notes_table() {
    use denizen_angband::Call;
    use denizen_angband::make::roll_power;
    // P(-2), P(-1), P(0), P(1), P(2).
    let cases = [
        (5, Call::default(), [0.0089, 0.1186, 0.7225, 0.1395, 0.0105]),
        (
            30,
            Call::default(),
            [0.0480, 0.1920, 0.3600, 0.3200, 0.0800],
        ),
        (
            65,
            Call::default(),
            [0.0375, 0.1500, 0.0625, 0.6000, 0.1500],
        ),
        (
            30,
            Call {
                good: true,
                great: false,
            },
            [0.0, 0.0, 0.0, 0.80, 0.20],
        ),
        // Past 65 the levels hold (f1 = min(lev + 10, 75)): level 127 rolls as 65 does.
        (
            127,
            Call::default(),
            [0.0375, 0.1500, 0.0625, 0.6000, 0.1500],
        ),
    ];
    // The table for f1 (in hundredths) and f2 = 20, as the notes build it.
    let table_of = |a: f64, b: f64| {
        [
            (1.0 - a) * a * b,
            (1.0 - a) * a * (1.0 - b),
            (1.0 - a) * (1.0 - a),
            a * (1.0 - b),
            a * b,
        ]
    };
    let mut rng = WorldSeed(9).stream(StreamPurpose::new("power"));
    for (level, call, table) in cases {
        // Level 127 rolls 400,000 times: against f1 = 76 the chi-squared's noncentrality is
        // then about 280, far past the bound (at 100,000, about 70, it is not sure to be).
        let n = if level == 127 { 400_000 } else { 100_000 };
        let mut counts = [0u64; 5];
        for _ in 0..n {
            counts[(roll_power(&mut rng, level, call) + 2) as usize] += 1;
        }
        // The notes round to 4 places: their cells are held to 1e-4 of the rule's.
        let p = ChiSquared::against(&counts, table.iter().copied()).p_value();
        assert!(p > 1e-4, "level {level}, {call:?}: {counts:?}, p = {p}");
        if level == 65 {
            // f2 = min(f1 / 2, 20) = 20; without the hold it would be 37.
            let wrong = table_of(0.75, 0.37);
            let p = ChiSquared::against(&counts, wrong.iter().copied()).p_value();
            assert!(p < 1e-9, "an unheld f2 fits: p = {p}");
        }
        if level == 127 {
            // f1 held at 76 instead of 75 would read 0.0576 for P(0), not 0.0625.
            let wrong = table_of(0.76, 0.20);
            let p = ChiSquared::against(&counts, wrong.iter().copied()).p_value();
            assert!(p < 1e-9, "f1 held at 76 fits: p = {p}");
        }
    }
}

/// One object at a time, every artifact unmade, against the object notes' table 5.3: the
/// chance it is an artifact, the chance it is cursed or broken, and its mean rating, for
/// plain calls at depths 5, 30 and 80 and the vault calls at depth 5. Without the
/// out-of-depth bonus (a wrong rule) depth 5's plain mean would be 0.05.
#[test]
fn one_objects_artifact_curse_and_rating_match_the_notes() {
    use denizen_angband::{ArtifactLedger, Call, ObjectRules};
    let plain = Call::default();
    let good = Call {
        good: true,
        great: false,
    };
    let great = Call {
        good: true,
        great: true,
    };
    // depth, object level, call, P(artifact), P(cursed or broken), mean rating.
    let cases = [
        (5, 5, plain, 0.0011, 0.299, 0.218),
        (30, 30, plain, 0.0032, 0.222, 0.462),
        (80, 80, plain, 0.0050, 0.191, 0.804),
        (5, 12, good, 0.1027, 0.000, 7.000),
        (5, 25, great, 0.1568, 0.001, 13.902),
    ];
    let rules = ObjectRules::shipped();
    let mut rng = WorldSeed(10).stream(StreamPurpose::new("objects-made"));
    const N: usize = 20_000;
    for (depth, level, call, artifact, spoiled, rating) in cases {
        let (mut artifacts, mut spoilt, mut ratings, mut squares) = (0usize, 0usize, 0.0, 0.0);
        for _ in 0..N {
            let mut ledger = ArtifactLedger::new();
            let object = rules
                .place_object(&mut rng, level, depth, call, &mut ledger)
                .expect("a draw fails below 1e-200");
            artifacts += usize::from(object.artifact.is_some());
            spoilt += usize::from(object.cursed || object.broken);
            let r = f64::from(object.rating);
            ratings += r;
            squares += r * r;
        }
        let n = N as f64;
        let share = |count: usize, p: f64| {
            let sampled = count as f64 / n;
            let bound = 4.0 * (p * (1.0 - p) / n).sqrt() + 0.001;
            assert!(
                (sampled - p).abs() < bound,
                "depth {depth}, {call:?}: {sampled:.4} against the notes' {p}"
            );
        };
        share(artifacts, artifact);
        share(spoilt, spoiled);
        let mean = ratings / n;
        let sd = (squares / n - mean * mean).max(0.0).sqrt();
        assert!(
            (mean - rating).abs() < 4.0 * sd / n.sqrt() + 0.001,
            "depth {depth}, {call:?}: mean rating {mean:.3} (sd {sd:.2}) against the notes' {rating}"
        );
    }
}

/// An artifact is made once: with one ledger over many good calls, every artifact made
/// is a new one, and the Phial (the first special artifact, level 1, rarity 1) is the
/// first special one made and never again (object notes 5.1).
#[test]
fn an_artifact_is_made_once() {
    use denizen_angband::artifact::ArtifactId;
    use denizen_angband::{ArtifactLedger, Call, ObjectRules};
    let rules = ObjectRules::shipped();
    let mut ledger = ArtifactLedger::new();
    let mut rng = WorldSeed(11).stream(StreamPurpose::new("artifacts"));
    let call = Call {
        good: true,
        great: true,
    };
    let mut made = Vec::new();
    for _ in 0..2_000 {
        let Some(object) = rules.place_object(&mut rng, 50, 40, call, &mut ledger) else {
            continue;
        };
        if let Some(id) = object.artifact {
            assert!(!made.contains(&id), "{id:?} made twice");
            made.push(id);
            // Made on its own base kind (the artifact file's class and subclass).
            let artifact = rules.artifacts.get(id).unwrap();
            let kind = rules.allocator.kinds().get(object.kind).unwrap();
            assert_eq!((kind.tval, kind.sval), (artifact.tval, artifact.sval));
        }
    }
    assert!(made.len() > 10, "{} artifacts", made.len());
    let specials: Vec<ArtifactId> = made.iter().copied().filter(|a| a.0 < 16).collect();
    assert_eq!(specials.first(), Some(&ArtifactId(1)), "{specials:?}");
    assert_eq!(ledger.iter().collect::<Vec<_>>().len(), made.len());
    // Given back (its level wiped), the Phial can be made again.
    ledger.give_back(ArtifactId(1));
    assert!(!ledger.is_made(ArtifactId(1)));
    assert_eq!(ledger.iter().count(), made.len() - 1);
}

/// A game's own ego file that lacks the ego items the class tables name: those objects
/// get none (no panic), the ones it has are made.
#[test]
fn an_ego_file_without_the_tables_egos_makes_none_of_them() {
    use denizen_angband::{
        ArtifactLedger, Artifacts, Call, EgoId, Egos, ObjectAllocator, ObjectRules,
    };
    let text = r#"(egos: [(index: 4, name: "of Resist Acid", rating: 16, cost: 1000, max_to_h: 0,
        max_to_d: 0, max_to_a: 0, max_pval: 0, flags: ["RES_ACID"])])"#;
    let egos = Egos::from_file(DataFile::new("mine.egos.ron", text)).unwrap();
    let rules = ObjectRules {
        allocator: ObjectAllocator::new(ObjectKinds::shipped()),
        egos,
        artifacts: Artifacts::shipped(),
    };
    let mut rng = WorldSeed(12).stream(StreamPurpose::new("own-egos"));
    let great = Call {
        good: true,
        great: true,
    };
    let mut seen = 0;
    for _ in 0..3_000 {
        let mut ledger = ArtifactLedger::new();
        if let Some(object) = rules.place_object(&mut rng, 40, 40, great, &mut ledger) {
            assert!(object.ego.is_none_or(|e| e == EgoId(4)), "{:?}", object.ego);
            seen += usize::from(object.ego.is_some());
        }
    }
    assert!(seen > 0, "body armour of power 2 still resists acid");
}

/// The special artifacts come in index order because a failed rarity roll ends the
/// search (object notes 5.1): with the Phial made, a good call at depth 100 tries a
/// special one time in 10, and the Star (rarity 25) ends each try but one in 25, so it is
/// made one call in 250 and no later special ever is. Were a failed roll to go on to the
/// next (the Arkenstone, rarity 50, and so on), about one call in 500 would make a later
/// one.
#[test]
fn a_failed_rarity_roll_ends_the_special_artifacts_search() {
    use denizen_angband::artifact::ArtifactId;
    use denizen_angband::{ArtifactLedger, Call, ObjectRules};
    let rules = ObjectRules::shipped();
    let mut rng = WorldSeed(13).stream(StreamPurpose::new("specials"));
    let good = Call {
        good: true,
        great: false,
    };
    const CALLS: usize = 20_000;
    let (mut stars, mut later) = (0usize, 0usize);
    for _ in 0..CALLS {
        let mut ledger = ArtifactLedger::new();
        ledger.make(ArtifactId(1));
        let made = rules
            .place_object(&mut rng, 100, 100, good, &mut ledger)
            .and_then(|o| o.artifact);
        match made {
            Some(ArtifactId(2)) => stars += 1,
            Some(id) if id.0 < 16 => later += 1,
            _ => {}
        }
    }
    assert_eq!(later, 0, "a special past the Star was made");
    let p = 1.0 / 250.0;
    let n = CALLS as f64;
    let sd = (n * p * (1.0 - p)).sqrt();
    assert!(
        (stars as f64 - n * p).abs() < 4.0 * sd,
        "{stars} Stars in {CALLS} calls"
    );
}
