//! Per-floor caps on a species or a group: hand-worked odds, seeded samples that reject
//! the floor drawn without the cap, and the bounds a file's caps keep.

use denizen_core::ChiSquared;
use denizen_tables::{
    Context, FloorTerms, Per, UniqueLedger, floor_counts, odds, placement_counts, sample_stream,
};

use crate::{bestiary, by_key, error, species};

/// `SPECIES` with the golem capped at `CAP`, a group `band` (led by a rat, its followers
/// `FOLLOWERS` golems, itself capped at `BAND`), and a floor of `COUNT` placements drawn
/// from `ROWS`.
fn capped(cap: &str, band: &str, rows: &str, count: &str) -> denizen_tables::Bestiary {
    let text = format!(
        r#"(species: [
            (key: "golem", name: "golem", glyph: 'g', level: 1, hit_points: "1d1", max_per_floor: {cap}),
            {}
        ],
        groups: [(key: "band", leader: Some(Species("rat")), followers: [(member: Species("golem"), count: "3d1")], max_per_floor: {band})],
        tables: [(key: "floor", rows: [{rows}])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "{count}"))))"#,
        species(&["rat", "vole"])
    );
    bestiary(&text)
}

const GOLEM_OR_RAT: &str =
    r#"(what: Species("golem"), depth: (1, 5)), (what: Species("rat"), depth: (1, 5))"#;

/// By hand, two placements of golem or rat, the golem at most one a floor: the first
/// brings a golem half the time, the second only if the first did not (a half of a
/// half): 3/4 golems and 5/4 rats a floor. Uncapped (or the cap counted afresh each
/// placement, which a lone creature never reaches twice in one) it would be 1 and 1.
#[test]
fn a_species_cap_stops_its_rows_for_the_rest_of_the_floor() {
    let b = capped("Some(1)", "None", GOLEM_OR_RAT, "2d1");
    let floor = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert!((by_key(&b, &floor.expected, "golem") - 0.75).abs() < 1e-15);
    assert!((by_key(&b, &floor.expected, "rat") - 1.25).abs() < 1e-15);
    let golem = b.species_by_key("golem").unwrap().index();
    let mut seen = [0u64; 3];
    for i in 0..20_000 {
        let mut rng = sample_stream(41, 2, i);
        let counts = floor_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng);
        seen[counts.unwrap()[golem] as usize] += 1;
    }
    assert!(
        ChiSquared::against(&seen, [0.25, 0.75, 0.0]).p_value() > 1e-3,
        "{seen:?}"
    );
    assert!(
        ChiSquared::against(&seen, [0.25, 0.5, 0.25]).p_value() < 1e-6,
        "{seen:?}"
    );
}

/// The cap is checked as each creature is drawn, within one placement too: a band's
/// three golem slots bring two when the cap is 2 (the third slot skipped, not redrawn),
/// and the band's own cap of 1 leaves later placements the vole: three placements of
/// band or vole bring 1 - 1/8 bands a floor.
#[test]
fn caps_count_within_a_placement_and_a_group_cap_counts_its_placements() {
    let band_only = r#"(what: Group("band"), depth: (1, 5))"#;
    let b = capped("Some(2)", "None", band_only, "1d1");
    let one = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Placement).unwrap();
    assert_eq!(by_key(&b, &one.expected, "golem"), 2.0);
    let mut rng = sample_stream(3, 2, 0);
    let drawn = placement_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng);
    assert_eq!(
        drawn.unwrap()[b.species_by_key("golem").unwrap().index()],
        2
    );

    let band_or_vole =
        r#"(what: Group("band"), depth: (1, 5)), (what: Species("vole"), depth: (1, 5))"#;
    let b = capped("None", "Some(1)", band_or_vole, "3d1");
    let floor = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert!((by_key(&b, &floor.expected, "rat") - 7.0 / 8.0).abs() < 1e-15);
    assert!((by_key(&b, &floor.expected, "vole") - 17.0 / 8.0).abs() < 1e-15);
    let rat = b.species_by_key("rat").unwrap().index();
    let mut bands = 0u64;
    for i in 0..4_000 {
        let mut rng = sample_stream(43, 2, i);
        let counts = floor_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng);
        let n = counts.unwrap()[rat];
        assert!(n <= 1, "a band at most once a floor");
        bands += u64::from(n);
    }
    let (mean, se) = (bands as f64 / 4_000.0, (7.0 / 64.0f64 / 4_000.0).sqrt());
    assert!((mean - 0.875).abs() <= 5.0 * se, "{mean}");
}

/// The same seed gives the same capped floor, and a floor plan keeps the cap.
#[test]
fn a_capped_floor_is_drawn_the_same_and_planned_within_its_cap() {
    let b = capped("Some(1)", "None", GOLEM_OR_RAT, "4d1");
    let grid = denizen_core::FloorGrid::from_rows(&["#######", "#.....#", "#######"]).unwrap();
    let tags = denizen_core::SquareTags::from_grid(&grid);
    for seed in 0..50 {
        let plan = |seed| {
            let mut rng = sample_stream(seed, 2, 0);
            let request = FloorTerms {
                depth: 2,
                ..FloorTerms::default()
            };
            denizen_tables::plan_floor(&b, &grid, &tags, request, &UniqueLedger::new(), &mut rng)
                .unwrap()
        };
        let made = plan(seed);
        assert_eq!(made, plan(seed));
        let golem = b.species_by_key("golem").unwrap();
        let golems = made
            .plan
            .spawns
            .iter()
            .filter(|s| s.creature.species == golem)
            .count();
        assert!(golems <= 1, "seed {seed}: {golems} golems");
    }
}

/// A cap is 1 to 200, and an escort (a group without a leader) takes none.
#[test]
fn caps_out_of_bounds_are_refused_by_field() {
    for (cap, said) in [
        ("Some(0)", "a cap is 1 to 200"),
        ("Some(201)", "a cap is 1 to 200"),
    ] {
        let e = error(&format!(
            r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1", max_per_floor: {cap})],
            tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#
        ));
        assert!(
            e.contains("species[0] `a`: field `max_per_floor`") && e.contains(said),
            "{e}"
        );
    }
    capped("Some(200)", "Some(1)", GOLEM_OR_RAT, "1d1");
    let e = error(&format!(
        r#"(species: [{}], groups: [(key: "guard", followers: [(member: Species("a"), count: "1d1")], max_per_floor: Some(1))],
        tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
        species(&["a"])
    ));
    assert!(
        e.contains("groups[0] `guard`: field `max_per_floor`: an escort"),
        "{e}"
    );
}

/// A group's cap holds within a pick-each row that draws it several times: three draws
/// of the band capped at 2 bring two bands (two rats), where a cap counted on each of
/// the band's creatures would stop at one band and no cap would give three.
#[test]
fn a_group_cap_holds_within_a_pick_each_row() {
    let text = format!(
        r#"(species: [{}],
        groups: [(key: "band", leader: Some(Species("rat")), followers: [(member: Species("vole"), count: "3d1")], max_per_floor: Some(2))],
        tables: [(key: "floor", pick: Each, rows: [(what: Group("band"), depth: (1, 5), count: Some("3d1"))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
        species(&["rat", "vole"])
    );
    let b = bestiary(&text);
    let floor = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert_eq!(by_key(&b, &floor.expected, "rat"), 2.0);
    assert_eq!(by_key(&b, &floor.expected, "vole"), 6.0);
    let mut rng = sample_stream(5, 2, 0);
    let counts = floor_counts(&b, 2, &UniqueLedger::new(), &Context::new(), &mut rng).unwrap();
    assert_eq!(counts[b.species_by_key("rat").unwrap().index()], 2);
}

/// Caps are a floor's: each of the drawer's placements starts from none counted (with a
/// cap of 4 every placement brings the band's three golems; counts carried over would
/// leave the second one golem), and a second floor planned with the same ledger brings
/// the capped golem again (a cap counted per game would not).
#[test]
fn caps_start_afresh_each_placement_and_each_floor() {
    let band = r#"(what: Group("band"), depth: (1, 5))"#;
    let b = capped("Some(4)", "None", band, "1d1");
    let golem = b.species_by_key("golem").unwrap();
    let mut drawer = denizen_tables::Drawer::new(&b, &UniqueLedger::new());
    let mut rng = sample_stream(1, 2, 0);
    for _ in 0..3 {
        let units = drawer.placement(2, &mut rng).unwrap();
        let golems = units[0]
            .followers
            .iter()
            .filter(|m| m.species == golem)
            .count();
        assert_eq!(golems, 3);
    }
    let b = capped(
        "Some(1)",
        "None",
        r#"(what: Species("golem"), depth: (1, 5))"#,
        "2d1",
    );
    let grid = denizen_core::FloorGrid::from_rows(&["#######", "#.....#", "#######"]).unwrap();
    let tags = denizen_core::SquareTags::from_grid(&grid);
    let ledger = UniqueLedger::new();
    for floor in 0..2 {
        let request = FloorTerms {
            depth: 2,
            ..FloorTerms::default()
        };
        let mut rng = sample_stream(9, 2, floor);
        let made =
            denizen_tables::plan_floor(&b, &grid, &tags, request, &ledger, &mut rng).unwrap();
        assert_eq!(
            made.plan.spawns.len(),
            1,
            "floor {floor}: one golem, the second draw empty"
        );
    }
}

/// Caps allowing more sets of counts than the exact work takes (two caps of 20: 441) are
/// sampled, with standard errors.
#[test]
fn caps_past_the_exact_bound_are_sampled() {
    let text = format!(
        r#"(species: [
            (key: "golem", name: "golem", glyph: 'g', level: 1, hit_points: "1d1", max_per_floor: Some(20)),
            (key: "imp", name: "imp", glyph: 'i', level: 1, hit_points: "1d1", max_per_floor: Some(20)),
            {}],
        tables: [(key: "floor", rows: [(what: Species("golem"), depth: (1, 5)), (what: Species("imp"), depth: (1, 5)), (what: Species("rat"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "2d1"))))"#,
        species(&["rat"])
    );
    let b = bestiary(&text);
    let sampled = odds(&b, 2, &UniqueLedger::new(), &Context::new(), Per::Floor).unwrap();
    assert!(sampled.standard_errors.is_some());
    let golems = by_key(&b, &sampled.expected, "golem");
    assert!((golems - 2.0 / 3.0).abs() < 0.03, "{golems}");
}

/// A floor's wandering arrivals count towards its caps: after a floor of one golem (cap
/// 1), arrivals from golem-or-rat that go on from the floor's state bring rats only, and
/// one that goes on from a fresh state (the cap counted per arrival) brings a golem half
/// the time: 200 arrivals with none is a chance of 2^-200 under that wrong rule.
#[test]
fn wandering_arrivals_count_towards_the_floors_caps() {
    let text = format!(
        r#"(species: [
            (key: "golem", name: "golem", glyph: 'g', level: 1, hit_points: "1d1", max_per_floor: Some(1)),
            {}
        ],
        tables: [
            (key: "floor", rows: [(what: Species("golem"), depth: (1, 5))]),
            (key: "wanderers", rows: [{GOLEM_OR_RAT}]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1"))),
        wandering: Some((table: "wanderers", chance: "1/1", every: 1)))"#,
        species(&["rat"])
    );
    let b = bestiary(&text);
    let grid =
        denizen_core::FloorGrid::from_rows(&["#########", "#.......#", "#########"]).unwrap();
    let tags = denizen_core::SquareTags::from_grid(&grid);
    let ledger = UniqueLedger::new();
    let request = FloorTerms {
        depth: 2,
        ..FloorTerms::default()
    };
    let made = denizen_tables::plan_floor(
        &b,
        &grid,
        &tags,
        request,
        &ledger,
        &mut sample_stream(1, 2, 0),
    )
    .unwrap();
    let golem = b.species_by_key("golem").unwrap();
    assert_eq!(
        made.state.species_counts().collect::<Vec<_>>(),
        [(golem, 1)]
    );
    let site = denizen_tables::FloorSite {
        grid: &grid,
        tags: &tags,
        point: None,
    };
    let golems = |fresh: bool| {
        (0..200)
            .filter(|&i| {
                let mut state = if fresh {
                    denizen_tables::FloorState::new()
                } else {
                    made.state.clone()
                };
                let mut rng = sample_stream(2, 2, i);
                let none = Context::new();
                let arrival = denizen_tables::plan_wanderer(
                    &b,
                    site,
                    2,
                    (&ledger, &none),
                    &mut state,
                    &mut rng,
                );
                let arrival = arrival.unwrap().unwrap();
                arrival
                    .plan
                    .spawns
                    .iter()
                    .any(|s| s.creature.species == golem)
            })
            .count()
    };
    assert_eq!(golems(false), 0);
    assert!((60..=140).contains(&golems(true)), "{}", golems(true));
}
