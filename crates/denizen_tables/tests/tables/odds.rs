//! Exact odds against hand-worked figures, and against seeded samples with a chi-squared
//! or normal bound that also rejects a deliberately wrong rule.

use denizen_core::ChiSquared;
use denizen_tables::{
    Context, Per, UniqueLedger, floor_counts, odds, placement_counts, sample_stream,
};

use crate::{bestiary, by_key, species};

/// Per-placement counts of `draws` placements, as a floor's first, by species index.
fn placements(
    b: &denizen_tables::Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    draws: u32,
) -> Vec<u64> {
    let mut totals = vec![0u64; b.species().len()];
    for i in 0..draws {
        let counts = placement_counts(
            b,
            depth,
            ledger,
            &Context::new(),
            &mut sample_stream(11, depth, u64::from(i)),
        )
        .unwrap();
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += u64::from(c);
        }
    }
    totals
}

/// Means and standard errors of each species' count per floor over `floors` floors.
fn floors(
    b: &denizen_tables::Bestiary,
    depth: u32,
    ledger: &UniqueLedger,
    floors: u32,
) -> Vec<(f64, f64)> {
    let n = b.species().len();
    let (mut sum, mut squares) = (vec![0.0; n], vec![0.0; n]);
    for i in 0..floors {
        let counts = floor_counts(
            b,
            depth,
            ledger,
            &Context::new(),
            &mut sample_stream(5, depth, u64::from(i)),
        )
        .unwrap();
        for (s, c) in counts.into_iter().enumerate() {
            sum[s] += f64::from(c);
            squares[s] += f64::from(c) * f64::from(c);
        }
    }
    let f = f64::from(floors);
    (0..n)
        .map(|s| {
            let mean = sum[s] / f;
            (
                mean,
                ((squares[s] / f - mean * mean).max(0.0) / (f - 1.0)).sqrt(),
            )
        })
        .collect()
}

/// Whether every sampled mean lies within 5 standard errors (at least 0.005) of `expected`.
fn agrees(sampled: &[(f64, f64)], expected: &[f64]) -> bool {
    sampled
        .iter()
        .zip(expected)
        .all(|(&(mean, se), &e)| (mean - e).abs() <= 5.0 * se.max(0.001))
}

const SHAPES: &str = r#"(
    species: [SPECIES],
    tables: [(key: "floor", rows: [
        (what: Species("a"), depth: (1, 10), weight: 10),
        (what: Species("b"), depth: (1, 10), weight: 10, shape: Rise),
        (what: Species("c"), depth: (1, 10), weight: 10, shape: Fall),
        (what: Species("d"), depth: (1, 10), weight: 12, shape: Peak),
    ])],
    floor: Some((table: "floor", depths: (1, 10), count: (dice: "1d1"))),
)"#;

/// At depth 3 of a range 1-10 (s = 9): flat 10; rise 10 x 3 / 10 = 3; fall 10 x 8 / 10 = 8;
/// peak 12 x (1 + min(2, 7)) / (1 + 9 / 2) = 36 / 5 = 7. A rise off by one (d - min
/// instead of d - min + 1) would weigh 2.
#[test]
fn shapes_give_their_integer_weights_and_a_shape_off_by_one_is_rejected() {
    let b = bestiary(&SHAPES.replace("SPECIES", &species(&["a", "b", "c", "d"])));
    let exact = odds(&b, 3, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    let hand = [10.0 / 28.0, 3.0 / 28.0, 8.0 / 28.0, 7.0 / 28.0];
    for (key, p) in ["a", "b", "c", "d"].iter().zip(hand) {
        assert!(
            (by_key(&b, &exact.expected, key) - p).abs() < 1e-15,
            "{key}"
        );
    }
    let observed = placements(&b, 3, &UniqueLedger::new(), 20_000);
    assert!(ChiSquared::against(&observed, hand).p_value() > 1e-3);
    let off_by_one = [10.0 / 27.0, 2.0 / 27.0, 8.0 / 27.0, 7.0 / 27.0];
    assert!(ChiSquared::against(&observed, off_by_one).p_value() < 1e-6);
}

const NESTED: &str = r#"(
    species: [SPECIES],
    tables: [
        (key: "floor", rows: [
            (what: Species("a"), depth: (1, 5), weight: 1),
            (what: Table("inner"), depth: (1, 5), weight: 3),
        ]),
        (key: "inner", rows: [
            (what: Species("b"), depth: (1, 5), weight: 1),
            (what: Species("c"), depth: (1, 5), weight: 1),
            (what: Species("d"), depth: (1, 5), weight: 2),
        ]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
)"#;

/// The inner table gets 3/4 of the draw and shares it 1:1:2; flattened, the four rows
/// would weigh 1:1:1:2.
#[test]
fn nesting_multiplies_and_flattened_weights_are_rejected() {
    let b = bestiary(&NESTED.replace("SPECIES", &species(&["a", "b", "c", "d"])));
    let exact = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    let hand = [1.0 / 4.0, 3.0 / 16.0, 3.0 / 16.0, 6.0 / 16.0];
    for (key, p) in ["a", "b", "c", "d"].iter().zip(hand) {
        assert!(
            (by_key(&b, &exact.expected, key) - p).abs() < 1e-15,
            "{key}"
        );
    }
    let observed = placements(&b, 2, &UniqueLedger::new(), 20_000);
    assert!(ChiSquared::against(&observed, hand).p_value() > 1e-3);
    let flattened = [0.2, 0.2, 0.2, 0.4];
    assert!(ChiSquared::against(&observed, flattened).p_value() < 1e-6);
}

const FAIRNESS: &str = r#"(
    species: [SPECIES],
    tables: [(key: "floor", rows: [
        (what: Species("shallow"), depth: (1, 5)),
        (what: Species("deep"), depth: (6, 20)),
    ])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "10d1"),
        out_of_depth: Some((chance: "1/2", divisor: 4, bonus: 2, cap: 10, fairness: FAIR)))),
)"#;

/// Ten placements at depth 5, each out of depth (to 5 + min(5/4 + 2, 10) = 8, where only
/// `deep` lives) with chance 1/2 until one has: `deep` comes 1 - 2^-10 times per floor.
/// Without the cap it would come 5 times.
#[test]
fn the_fairness_cap_stops_later_placements_going_deep_and_ignoring_it_is_rejected() {
    let b = bestiary(
        &FAIRNESS
            .replace("SPECIES", &species(&["shallow", "deep"]))
            .replace("FAIR", "1"),
    );
    let exact = odds(&b, 5, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    let deep = 1.0 - 0.5f64.powi(10);
    assert!((by_key(&b, &exact.expected, "deep") - deep).abs() < 1e-12);
    assert!((by_key(&b, &exact.expected, "shallow") - (10.0 - deep)).abs() < 1e-12);
    let sampled = floors(&b, 5, &UniqueLedger::new(), 4_000);
    assert!(agrees(&sampled, &exact.expected), "{sampled:?}");
    let ignored = [5.0, 5.0];
    let ignored: Vec<f64> = b.species_ids().map(|s| ignored[s.index()]).collect();
    assert!(!agrees(&sampled, &ignored));
    // With a cap of 10 the exact odds are the uncapped ones.
    let uncapped = bestiary(
        &FAIRNESS
            .replace("SPECIES", &species(&["shallow", "deep"]))
            .replace("FAIR", "10"),
    );
    let exact = odds(
        &uncapped,
        5,
        &UniqueLedger::new(),
        &Context::new(),
        Per::Floor,
    )
    .unwrap();
    assert!((by_key(&uncapped, &exact.expected, "deep") - 5.0).abs() < 1e-12);
}

const UNIQUE: &str = r#"(
    species: [
        (key: "king", name: "King", glyph: 'K', level: 3, hit_points: "4d4", unique: true),
        (key: "rat", name: "Rat", glyph: 'r', level: 1, hit_points: "1d2"),
    ],
    tables: [(key: "floor", rows: [
        (what: Species("king"), depth: (1, 5)),
        (what: Species("rat"), depth: (1, 5)),
    ])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "4d1"))),
)"#;

/// Four placements of a unique and a rat, one each by weight until the unique comes: the
/// unique comes with chance 1 - (1/2)^4 = 15/16, never twice; drawn twice it would come
/// twice on average. Killed, it never comes and the rat takes every placement.
#[test]
fn a_unique_comes_once_and_drawing_it_twice_is_rejected() {
    let b = bestiary(UNIQUE);
    let exact = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert!((by_key(&b, &exact.expected, "king") - 15.0 / 16.0).abs() < 1e-15);
    assert!((by_key(&b, &exact.expected, "rat") - 49.0 / 16.0).abs() < 1e-15);
    let sampled = floors(&b, 2, &UniqueLedger::new(), 4_000);
    assert!(agrees(&sampled, &exact.expected), "{sampled:?}");
    assert!(!agrees(&sampled, &[2.0, 2.0]));
    let mut ledger = UniqueLedger::new();
    ledger.killed("king");
    let exact = odds(&b, 2, &ledger, &Context::new(), Per::Floor).unwrap();
    assert_eq!(exact.expected, vec![0.0, 4.0]);
    ledger.floor_ended(["king"]);
    assert_eq!(
        odds(&b, 2, &ledger, &Context::new(), Per::Placement)
            .unwrap()
            .expected,
        vec![0.0, 1.0]
    );
}

const GROUPS: &str = r#"(
    species: [
        (key: "chief", name: "Chief", glyph: 'C', level: 2, hit_points: "2d4"),
        (key: "runner", name: "Runner", glyph: 'r', level: 1, hit_points: "1d4"),
        (key: "envoy", name: "Envoy", glyph: 'E', level: 2, hit_points: "2d4", escort: Some("guard")),
        (key: "warden", name: "Warden", glyph: 'w', level: 2, hit_points: "2d4"),
    ],
    groups: [
        (key: "band", leader: Some(Species("chief")), followers: [(member: Species("runner"), count: "1d3", role: "pack")]),
        (key: "guard", followers: [(member: Species("warden"), count: "2d1", role: "guard")]),
    ],
    tables: [
        (key: "floor", rows: [
            (what: Group("band"), depth: (1, 5)),
            (what: Species("envoy"), depth: (1, 5)),
            (what: Table("patch"), depth: (1, 5), weight: 2),
        ]),
        (key: "patch", pick: Each, rows: [
            (what: Species("runner"), depth: (1, 5), chance: Some("1/2"), count: Some("1d2")),
            (what: Species("warden"), depth: (1, 5), chance: Some("1/3"), count: Some("2d1")),
        ]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d2", per_depth: Some("1/2")))),
)"#;

/// One placement: the band (1/4) brings its chief and 1d3 runners (2 on average); the
/// envoy (1/4) brings its escort of 2 wardens; the pick-each patch (1/2) brings runners
/// with chance 1/2 (1.5 of them) and wardens with chance 1/3 (2 of them). A floor at depth
/// 5 has 1d2 + 5/2 = 3.5 placements on average.
#[test]
fn groups_escorts_and_pick_each_rows_give_their_expected_members() {
    let b = bestiary(GROUPS);
    let exact = odds(&b, 5, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    let hand = [
        ("chief", 0.25),
        ("runner", 0.25 * 2.0 + 0.5 * 0.5 * 1.5),
        ("envoy", 0.25),
        ("warden", 0.25 * 2.0 + 0.5 * (1.0 / 3.0) * 2.0),
    ];
    for (key, e) in hand {
        assert!(
            (by_key(&b, &exact.expected, key) - e).abs() < 1e-15,
            "{key}"
        );
    }
    let floor = odds(&b, 5, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    for (key, e) in hand {
        assert!(
            (by_key(&b, &floor.expected, key) - 3.5 * e).abs() < 1e-12,
            "{key}"
        );
    }
    let sampled = floors(&b, 5, &UniqueLedger::new(), 4_000);
    assert!(agrees(&sampled, &floor.expected), "{sampled:?}");
    // Escorts left out (a wrong rule): the envoy's wardens missing.
    let mut no_escort = floor.expected.clone();
    no_escort[b.species_by_key("warden").unwrap().index()] -= 3.5 * 0.5;
    assert!(!agrees(&sampled, &no_escort));
}

/// Thirteen uniques a floor can bring: the figures are sampled, with their standard
/// errors, per floor and per placement alike.
#[test]
fn too_many_uniques_give_sampled_figures_with_their_errors() {
    let b = crate::thirteen_uniques("2d1");
    for (per, each) in [(Per::Floor, 2.0 / 13.0), (Per::Placement, 1.0 / 13.0)] {
        let sampled = odds(&b, 1, &UniqueLedger::new(), &Context::new(), per).unwrap();
        let errors = sampled.standard_errors.expect("sampled");
        for (e, se) in sampled.expected.iter().zip(&errors) {
            assert!((e - each).abs() <= 5.0 * se, "{per:?}: {e} {se}");
        }
    }
    // Two different uniques per floor, every time.
    let floor = odds(&b, 1, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert!((floor.expected.iter().sum::<f64>() - 2.0).abs() < 1e-12);
    // With one killed, twelve are left: exact again.
    let mut ledger = UniqueLedger::new();
    ledger.killed("u0");
    let exact = odds(&b, 1, &ledger, &Context::new(), Per::Placement).unwrap();
    assert!(exact.standard_errors.is_none());
    assert!(
        exact.expected[1..]
            .iter()
            .all(|&p| (p - 1.0 / 12.0).abs() < 1e-15)
    );
}

/// Pick-each tables nested in each other multiply their counts: past 200 creatures a
/// draw, the file is refused. Sampling at a depth off the floor is refused too.
#[test]
fn a_draw_too_large_and_a_depth_off_the_floor_are_refused() {
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Table(\"a\"), depth: (1, 3))]), (key: \"a\", pick: Each, rows: [(what: Table(\"b\"), depth: (1, 3), count: Some(\"3d5\"))]), (key: \"b\", pick: Each, rows: [(what: Species(\"x\"), depth: (1, 3), count: Some(\"2d7\"))])], floor: Some((table: \"floor\", depths: (1, 3), count: (dice: \"1d1\"))))",
        species(&["x"])
    );
    // 15 draws of b, each 14 creatures: 210.
    assert_eq!(
        crate::error(&text),
        "t.ron: tables[0] `floor`: field `rows`: one draw of it can bring 210 creatures, more than the 200 a placement may"
    );
    let b = bestiary(&text.replace("2d7", "2d6"));
    let mut rng = sample_stream(1, 9, 0);
    assert!(floor_counts(&b, 9, &UniqueLedger::new(), &Context::new(), &mut rng).is_err());
    assert!(placement_counts(&b, 0, &UniqueLedger::new(), &Context::new(), &mut rng).is_err());
    let drawn = floor_counts(&b, 3, &UniqueLedger::new(), &Context::new(), &mut rng).unwrap();
    assert!((6..=180).contains(&drawn[0]), "{drawn:?}");
}

#[test]
fn a_depth_off_the_floor_is_refused() {
    let b = bestiary(UNIQUE);
    let e = odds(&b, 6, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap_err();
    assert_eq!(e.to_string(), "depth 6 is outside the floor's depths, 1-5");
}

const CELLAR: &str = r#"(
    species: [SPECIES],
    tables: [
        (key: "floor", rows: [
            (what: Species("a"), depth: (1, 10)),
            (what: Species("b"), depth: (1, 10)),
        ]),
        (key: "cellar", rows: [
            (what: Species("c"), depth: (1, 5), weight: 3),
            (what: Species("d"), depth: (1, 5), weight: 1),
        ]),
    ],
    floor: Some((table: "floor", depths: (1, 10), count: (dice: "1d1"),
        out_of_depth: Some((chance: "1/2", divisor: 1, bonus: 0, cap: 5, fairness: 1)))),
)"#;

/// A floor naming its own table draws from it alone, and its out-of-depth branch asks that
/// table for a boosted depth: at depth 5 the boost is to 10, where the cellar has no row,
/// so no placement goes deep and the odds are the cellar's 3:1 (0.75 and 0.25). Asking
/// the floor's table instead (a wrong rule) would go deep half the time and draw nothing
/// there: 0.375 and 0.125. Planned floors agree with the first and reject the second.
#[test]
fn a_floor_of_a_named_table_draws_from_it_and_its_boost_asks_it() {
    use denizen_core::{FloorGrid, SquareTags};
    use denizen_tables::{FloorTerms, plan_floor, table_odds};

    let b = bestiary(&CELLAR.replace("SPECIES", &species(&["a", "b", "c", "d"])));
    let cellar = b.table_by_key("cellar").unwrap();
    let ledger = UniqueLedger::new();
    let exact = table_odds(&b, cellar, 5, &ledger, &Context::new(), Per::Floor).unwrap();
    let hand = [("a", 0.0), ("b", 0.0), ("c", 0.75), ("d", 0.25)];
    for (key, e) in hand {
        assert!(
            (by_key(&b, &exact.expected, key) - e).abs() < 1e-15,
            "{key}"
        );
    }
    let floor_table = b.table_by_key("floor").unwrap();
    let same = table_odds(&b, floor_table, 5, &ledger, &Context::new(), Per::Floor).unwrap();
    assert_eq!(
        same,
        odds(&b, 5, &ledger, &Context::new(), Per::Floor).unwrap()
    );

    let grid = FloorGrid::from_rows(&["#####", "#...#", "#####"]).unwrap();
    let tags = SquareTags::from_grid(&grid);
    let request = FloorTerms {
        depth: 5,
        point: None,
        table: Some(cellar),
        context: Default::default(),
        regions: Default::default(),
    };
    let mut observed = [0u64; 3];
    for i in 0..4_000 {
        let mut rng = sample_stream(21, 5, i);
        let made = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut rng).unwrap();
        let key = made
            .plan
            .spawns
            .first()
            .map(|s| b.species_of(s.creature.species).key.as_str());
        let slot = match key {
            Some("c") => 0,
            Some("d") => 1,
            None => 2,
            Some(other) => panic!("{other} is not the cellar's"),
        };
        observed[slot] += 1;
    }
    let right = [0.75, 0.25, 0.0];
    let wrong = [0.375, 0.125, 0.5];
    assert!(
        ChiSquared::against(&observed, right).p_value() > 1e-3,
        "{observed:?}"
    );
    assert!(ChiSquared::against(&observed, wrong).p_value() < 1e-6);

    // An id past these files' tables (the third of other files) is refused, by the odds
    // and by the plan.
    let three = bestiary(&THREE_TABLES.replace("SPECIES", &species(&["a"])));
    let third = three.table_by_key("third").unwrap();
    let err = plan_floor(
        &b,
        &grid,
        &tags,
        FloorTerms {
            table: Some(third),
            ..request
        },
        &ledger,
        &mut sample_stream(1, 5, 0),
    );
    assert_eq!(
        err.unwrap_err().to_string(),
        "table 2 is not one of the bestiary's"
    );
    assert_eq!(
        table_odds(&b, third, 5, &ledger, &Context::new(), Per::Floor)
            .unwrap_err()
            .to_string(),
        "table 2 is not one of the bestiary's"
    );
}

const THREE_TABLES: &str = r#"(
    species: [SPECIES],
    tables: [
        (key: "first", rows: [(what: Species("a"), depth: (1, 10))]),
        (key: "second", rows: [(what: Table("first"), depth: (1, 10))]),
        (key: "third", rows: [(what: Table("second"), depth: (1, 10))]),
    ],
    floor: Some((table: "third", depths: (1, 10), count: (dice: "1d1"))),
)"#;

const LED_BY_A_UNIQUE: &str = r#"(
    species: [
        (key: "chief", name: "Chief", glyph: 'C', level: 3, hit_points: "4d4", unique: true),
        (key: "guard", name: "guard", glyph: 'g', level: 1, hit_points: "1d2"),
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d2"),
    ],
    groups: [(key: "court", leader: Some(Species("chief")), followers: [(member: Species("guard"), count: "2d1")])],
    tables: [(key: "floor", rows: [
        (what: Group("court"), depth: (1, 5), weight: 3),
        (what: Species("rat"), depth: (1, 5)),
    ])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
)"#;

/// A group led by a unique is a row the ledger governs as the unique itself: with the
/// chief available the court comes 3 in 4 (its guards with it); alive on another floor or
/// killed, the court's row weighs nothing, exactly and drawn, and the rat takes every
/// placement, guards and all.
#[test]
fn a_group_led_by_a_unique_goes_with_its_unique() {
    let b = bestiary(LED_BY_A_UNIQUE);
    let fresh = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    assert!((by_key(&b, &fresh.expected, "chief") - 0.75).abs() < 1e-15);
    assert!((by_key(&b, &fresh.expected, "guard") - 1.5).abs() < 1e-15);
    assert!((by_key(&b, &fresh.expected, "rat") - 0.25).abs() < 1e-15);
    for gone in ["alive", "killed"] {
        let mut ledger = UniqueLedger::new();
        match gone {
            "alive" => ledger.alive("chief"),
            _ => ledger.killed("chief"),
        }
        let exact = odds(&b, 2, &ledger, &Context::new(), Per::Placement).unwrap();
        assert_eq!(exact.expected, vec![0.0, 0.0, 1.0], "{gone}");
        let drawn = placements(&b, 2, &ledger, 400);
        assert_eq!(drawn, vec![0, 0, 400], "{gone}");
    }
    // Once its floor ends alive, the chief is in the pool again, and so is the court.
    let mut ledger = UniqueLedger::new();
    ledger.alive("chief");
    ledger.floor_ended(["chief"]);
    assert_eq!(
        odds(&b, 2, &ledger, &Context::new(), Per::Placement)
            .unwrap()
            .expected,
        fresh.expected
    );
}

const KIN: &str = r#"(
    species: [
        (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1"),
        (key: "heir", name: "heir", glyph: 'H', level: 1, hit_points: "1d1", unique: true),
        (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
        (key: "b", name: "b", glyph: 'b', level: 1, hit_points: "1d1"),
        (key: "c", name: "c", glyph: 'c', level: 1, hit_points: "1d1"),
    ],
    groups: [(key: "band", leader: Some(Species("chief")), followers: [
        (member: Table("kin"), count: "1d2"),
        (member: Species("heir"), count: "2d1"),
    ])],
    tables: [
        (key: "floor", rows: [(what: Group("band"), depth: (1, 5))]),
        (key: "kin", rows: [(what: Species("a"), depth: (1, 5)), (what: Table("inner"), depth: (1, 5), weight: 3)]),
        (key: "inner", rows: [(what: Species("b"), depth: (1, 5)), (what: Species("c"), depth: (1, 5))]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
)"#;

/// A group's draw, worked by hand: its leader once; one or two followers from a table that
/// nests a table (a 1 in 4, b and c 3 in 8 each), so 1.5 followers, a 0.375, b and c
/// 0.5625; and a unique follower asked for twice comes once.
#[test]
fn a_groups_followers_multiply_through_nested_tables_and_take_a_unique_once() {
    let b = bestiary(KIN);
    let exact = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    for (key, expected) in [
        ("chief", 1.0),
        ("heir", 1.0),
        ("a", 0.375),
        ("b", 0.5625),
        ("c", 0.5625),
    ] {
        let got = by_key(&b, &exact.expected, key);
        assert!((got - expected).abs() < 1e-12, "{key}: {got}");
    }
    let sampled = floors(&b, 2, &UniqueLedger::new(), 4_000);
    assert!(agrees(&sampled, &exact.expected), "{sampled:?}");
}

/// Sampled figures (past the uniques exact odds follow) carry their standard errors. Each
/// count is 0 or 1 (one creature a placement, one of 13 uniques), so the sample's variance
/// is `p (1 - p)` exactly for its mean `p`, and the error of the mean `sqrt(p (1 - p) /
/// (n - 1))`; the means themselves lie near 1/13.
#[test]
fn sampled_figures_carry_the_standard_errors_of_their_means() {
    let uniques: String = (0..13)
        .map(|i| format!("(key: \"u{i}\", name: \"U\", glyph: 'U', level: 1, hit_points: \"1d1\", unique: true),"))
        .collect();
    let rows: String = (0..13)
        .map(|i| format!("(what: Species(\"u{i}\"), depth: (1, 3)),"))
        .collect();
    let text = format!(
        "(species: [{uniques}], tables: [(key: \"floor\", rows: [{rows}])], floor: Some((table: \"floor\", depths: (1, 3), count: (dice: \"1d1\"))))"
    );
    let b = bestiary(&text);
    let sampled = odds(&b, 1, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    let errors = sampled.standard_errors.expect("sampled");
    let n = f64::from(denizen_tables::odds::SAMPLED_FLOORS);
    for (&p, se) in sampled.expected.iter().zip(errors) {
        assert!((p - 1.0 / 13.0).abs() < 0.01, "{p}");
        let expected = (p * (1.0 - p) / (n - 1.0)).sqrt();
        assert!(
            (se - expected).abs() < 1e-9 * expected,
            "{se} against {expected}"
        );
    }
}

/// A bestiary cloned draws as the one it was cloned from.
#[test]
fn a_cloned_bestiary_draws_the_same() {
    let b = bestiary(KIN);
    let clone = b.clone();
    assert_eq!(
        placements(&clone, 2, &UniqueLedger::new(), 200),
        placements(&b, 2, &UniqueLedger::new(), 200)
    );
}

/// A group whose follower is a unique only some of the time splits the ledger's states:
/// the chief comes every placement whichever follower came, and a second placement finds
/// the unique gone half the time. Worked by hand, two placements at depth 2: the chief 2,
/// the unique 1/2 + 1/2 x 1/2 = 3/4, the other follower 1/2 + (1/2 x 1 + 1/2 x 1/2) = 5/4.
#[test]
fn a_leader_counts_once_across_its_followers_ledger_states() {
    let b = bestiary(
        r#"(
        species: [
            (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1"),
            (key: "u", name: "u", glyph: 'U', level: 1, hit_points: "1d1", unique: true),
            (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
        ],
        groups: [(key: "band", leader: Some(Species("chief")), followers: [(member: Table("maybe"), count: "1d1")])],
        tables: [
            (key: "floor", rows: [(what: Group("band"), depth: (1, 5))]),
            (key: "maybe", rows: [(what: Species("u"), depth: (1, 5)), (what: Species("a"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "2d1"))),
    )"#,
    );
    let placement = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    let floor = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    for (key, one, two) in [("chief", 1.0, 2.0), ("u", 0.5, 0.75), ("a", 0.5, 1.25)] {
        let got = by_key(&b, &placement.expected, key);
        assert!((got - one).abs() < 1e-12, "{key} a placement: {got}");
        let got = by_key(&b, &floor.expected, key);
        assert!((got - two).abs() < 1e-12, "{key} a floor: {got}");
    }
    let sampled = floors(&b, 2, &UniqueLedger::new(), 4_000);
    assert!(agrees(&sampled, &floor.expected), "{sampled:?}");
}
