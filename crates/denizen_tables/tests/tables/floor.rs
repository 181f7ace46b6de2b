//! Floors planned on a grid: placement rules, groups near their leaders, shortfalls
//! reported and never placed elsewhere, uniques, wandering arrivals, determinism.

use denizen_core::{FloorGrid, Rect, Square, SquareTags, StreamPurpose, Tile, WorldSeed};
use denizen_tables::{
    Context, FloorSite, FloorTerms, Shortfall, UniqueLedger, distance, plan_floor, plan_wanderer,
};

use crate::bestiary;

const ROOMY: &str = r#"(
    species: [
        (key: "pike", name: "pike", glyph: 'p', level: 1, hit_points: "2d4", place: (stands_on: Some(["water"]))),
        (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "3d4", asleep: Some("1/2")),
        (key: "runner", name: "runner", glyph: 'r', level: 1, hit_points: "1d4"),
        (key: "moth", name: "moth", glyph: 'm', level: 1, hit_points: "1d1", place: (needs: ["lava"])),
    ],
    groups: [(key: "band", leader: Some(Species("chief")), followers: [(member: Species("runner"), count: "4d1", role: "pack")], radius: 2)],
    tables: [
        (key: "floor", rows: [(what: Species("pike"), depth: (1, 5)), (what: Group("band"), depth: (1, 5))]),
        (key: "night", rows: [(what: Species("moth"), depth: (1, 5))]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "6d1"), place: (forbids: ["safe"], min_distance: Some(4)))),
    wandering: Some((table: "night", chance: "1/2", every: 10, place: (min_distance: Some(8)))),
)"#;

/// A floor of 30 x 12: open floor, a pool of water at the left, the left third a safe room.
fn floor() -> (FloorGrid, SquareTags) {
    let mut rows = vec!["#".repeat(30)];
    for y in 1..11 {
        let mut row = String::from("#");
        for x in 1..29 {
            row.push(if x < 5 && y < 5 { '~' } else { '.' });
        }
        row.push('#');
        rows.push(row);
    }
    rows.push("#".repeat(30));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = FloorGrid::from_rows(&rows).unwrap();
    let mut tags = SquareTags::from_grid(&grid);
    tags.tag_rect(
        Rect {
            x: 1,
            y: 5,
            width: 9,
            height: 6,
        },
        "safe",
    )
    .unwrap();
    (grid, tags)
}

fn stream(seed: u64) -> denizen_core::Generator {
    WorldSeed(seed).stream(StreamPurpose::new("floor").with(3))
}

#[test]
fn creatures_keep_their_placement_rules_and_followers_their_leader() {
    let b = bestiary(ROOMY);
    let (grid, tags) = floor();
    let player = Square { x: 20, y: 6 };
    let request = FloorTerms {
        depth: 3,
        point: Some(player),
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    for seed in 0..40 {
        let made = plan_floor(
            &b,
            &grid,
            &tags,
            request.clone(),
            &UniqueLedger::new(),
            &mut stream(seed),
        )
        .unwrap();
        assert_eq!(made.placements, 6);
        for (i, spawn) in made.plan.spawns.iter().enumerate() {
            let key = &b.species_of(spawn.creature.species).key;
            assert!(!tags.has(spawn.at, "safe"), "{key} in the safe room");
            assert!(distance(spawn.at, player) >= 4, "{key} next to the player");
            assert_eq!(
                grid.tile(spawn.at) == Tile::Water,
                key == "pike",
                "{key} on {:?}",
                grid.tile(spawn.at)
            );
            match &spawn.creature.follows {
                Some(f) => {
                    let leader = &made.plan.spawns[f.leader];
                    assert_eq!(b.species_of(leader.creature.species).key, "chief");
                    assert!(leader.creature.follows.is_none());
                    assert!(distance(leader.at, spawn.at) <= 2);
                    assert_eq!(b.role(f.group, f.kind), "pack");
                    assert!(f.leader < i);
                }
                None => assert_ne!(key, "runner", "a runner always follows"),
            }
        }
        let squares: std::collections::BTreeSet<Square> =
            made.plan.spawns.iter().map(|s| s.at).collect();
        assert_eq!(
            squares.len(),
            made.plan.spawns.len(),
            "one creature a square"
        );
        // Every creature drawn is placed or reported: 6 placements, pikes 1 each, bands 5
        // each (a runner may find no square near a chief on the safe room's edge).
        let key_of = |s: denizen_tables::SpeciesId| b.species_of(s).key.as_str();
        let placed_pikes = made
            .plan
            .spawns
            .iter()
            .filter(|s| key_of(s.creature.species) == "pike")
            .count();
        let short_pikes = made
            .shortfalls
            .iter()
            .filter(|(s, _)| key_of(*s) == "pike")
            .count();
        let pikes = placed_pikes + short_pikes;
        assert_eq!(
            made.plan.spawns.len() + made.shortfalls.len(),
            pikes + 5 * (6 - pikes)
        );
        assert!(
            made.shortfalls
                .iter()
                .all(|(s, why)| key_of(*s) == "runner" && *why == Shortfall::NoRoomNearLeader),
            "{:?}",
            made.shortfalls
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_floor() {
    let b = bestiary(ROOMY);
    let (grid, tags) = floor();
    let request = FloorTerms {
        depth: 2,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let plan = |seed| {
        plan_floor(
            &b,
            &grid,
            &tags,
            request.clone(),
            &UniqueLedger::new(),
            &mut stream(seed),
        )
        .unwrap()
    };
    assert_eq!(plan(9), plan(9));
    assert_ne!(plan(9).plan, plan(10).plan);
}

#[test]
fn without_room_fewer_followers_come_and_the_shortfall_is_reported() {
    let b = bestiary(ROOMY);
    // Three open squares in a row, walled in: a chief and two of its four runners.
    let grid = FloorGrid::from_rows(&["#####", "#...#", "#####"]).unwrap();
    let tags = SquareTags::from_grid(&grid);
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let made = (0..50)
        .map(|seed| {
            plan_floor(
                &b,
                &grid,
                &tags,
                request.clone(),
                &UniqueLedger::new(),
                &mut stream(seed),
            )
            .unwrap()
        })
        .find(|m| {
            m.plan
                .spawns
                .first()
                .is_some_and(|s| b.species_of(s.creature.species).key == "chief")
        })
        .expect("a band is drawn first on some seed");
    assert_eq!(made.plan.spawns.len(), 3, "the floor holds three");
    let short: Vec<_> = made
        .shortfalls
        .iter()
        .map(|(s, why)| (b.species_of(*s).key.as_str(), *why))
        .collect();
    assert!(
        short
            .iter()
            .filter(|(k, w)| *k == "runner" && *w == Shortfall::NoRoomNearLeader)
            .count()
            >= 2,
        "{short:?}"
    );
    // The pikes find no water: never placed on floor instead.
    assert!(
        short
            .iter()
            .all(|(k, w)| *k != "pike" || *w == Shortfall::NoSquare),
        "{short:?}"
    );
}

#[test]
fn a_placement_no_square_satisfies_fails_and_is_reported() {
    let b = bestiary(ROOMY);
    let (grid, tags) = floor();
    let site = FloorSite {
        grid: &grid,
        tags: &tags,
        point: Some(Square { x: 3, y: 3 }),
    };
    let made = plan_wanderer(
        &b,
        site,
        2,
        (&UniqueLedger::new(), &Context::new()),
        &mut denizen_tables::FloorState::new(),
        &mut stream(1),
    )
    .unwrap()
    .unwrap();
    assert!(made.plan.spawns.is_empty());
    assert_eq!(
        made.shortfalls,
        vec![(b.species_by_key("moth").unwrap(), Shortfall::NoSquare)]
    );
    // With lava, the moth comes, at least 8 from the player.
    let mut lava = tags.clone();
    lava.tag_rect(
        Rect {
            x: 1,
            y: 1,
            width: 28,
            height: 10,
        },
        "lava",
    )
    .unwrap();
    let site = FloorSite {
        tags: &lava,
        ..site
    };
    for seed in 0..20 {
        let made = plan_wanderer(
            &b,
            site,
            2,
            (&UniqueLedger::new(), &Context::new()),
            &mut denizen_tables::FloorState::new(),
            &mut stream(seed),
        )
        .unwrap()
        .unwrap();
        let at = made.plan.spawns[0].at;
        assert!(distance(at, Square { x: 3, y: 3 }) >= 8);
        assert_eq!(
            made.plan.spawns[0].origin,
            denizen_core::Origin::WANDERING_ARRIVAL
        );
    }
}

#[test]
fn placed_uniques_are_named_for_the_ledger() {
    let b = bestiary(
        r#"(species: [(key: "king", name: "King", glyph: 'K', level: 1, hit_points: "1d1", unique: true), (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1")],
        tables: [(key: "floor", rows: [(what: Species("king"), depth: (1, 5), weight: 100), (what: Species("rat"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "3d1"))))"#,
    );
    let (grid, tags) = floor();
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let king = b.species_by_key("king").unwrap();
    let mut ledger = UniqueLedger::new();
    let made = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut stream(2)).unwrap();
    assert_eq!(made.uniques, vec![king]);
    let kings = made
        .plan
        .spawns
        .iter()
        .filter(|s| s.creature.species == king)
        .count();
    assert_eq!(kings, 1, "once per floor however heavy its row");
    ledger.alive("king");
    let next = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut stream(3)).unwrap();
    assert!(next.uniques.is_empty() && next.plan.spawns.iter().all(|s| s.creature.species != king));
    ledger.floor_ended(["king"]);
    let back = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut stream(3)).unwrap();
    assert_eq!(back.uniques, vec![king]);
    let e = plan_floor(
        &b,
        &grid,
        &tags,
        FloorTerms {
            depth: 9,
            point: None,
            table: None,
            context: Default::default(),
            regions: Default::default(),
        },
        &ledger,
        &mut stream(3),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "depth 9 is outside the floor's depths, 1-5");
    let small = SquareTags::new(2, 2);
    assert!(plan_floor(&b, &grid, &small, request.clone(), &ledger, &mut stream(3)).is_err());
}

/// A least distance is met at exactly that many squares (a diagonal step counting one) and
/// not one nearer: on a row whose only open squares besides the player's lie 2 and 3
/// squares away, a creature that keeps 3 away stands on the farther every time; one that
/// keeps 4 away finds no square. A row's least distance, its only rule, is kept as well.
#[test]
fn a_least_distance_is_met_at_exactly_that_distance() {
    for on_row in [false, true] {
        least_distance(|min| {
            let (row, floor) = if on_row {
                (
                    format!(", place: (min_distance: Some({min}))"),
                    String::new(),
                )
            } else {
                (
                    String::new(),
                    format!(", place: (min_distance: Some({min}))"),
                )
            };
            format!(
                r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
                tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5){row})])],
                floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"){floor})))"#
            )
        });
    }
}

/// The least-distance test of a bestiary whose `text(min)` keeps `min` squares away.
fn least_distance(text: impl Fn(u32) -> String) {
    let grid = FloorGrid::from_rows(&["######", "#.#..#", "######"]).unwrap();
    let tags = SquareTags::from_grid(&grid);
    let player = Square { x: 1, y: 1 };
    assert_eq!(distance(player, Square { x: 4, y: 1 }), 3);
    assert_eq!(
        distance(Square { x: 1, y: 1 }, Square { x: 4, y: 3 }),
        3,
        "a diagonal step counts one"
    );
    let request = FloorTerms {
        depth: 1,
        point: Some(player),
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let three = bestiary(&text(3));
    for seed in 0..60 {
        let made = plan_floor(
            &three,
            &grid,
            &tags,
            request.clone(),
            &UniqueLedger::new(),
            &mut stream(seed),
        )
        .unwrap();
        let at: Vec<Square> = made.plan.spawns.iter().map(|s| s.at).collect();
        assert_eq!(at, [Square { x: 4, y: 1 }], "seed {seed}");
    }
    let four = bestiary(&text(4));
    let made = plan_floor(
        &four,
        &grid,
        &tags,
        request.clone(),
        &UniqueLedger::new(),
        &mut stream(1),
    )
    .unwrap();
    assert!(made.plan.spawns.is_empty());
    assert_eq!(made.shortfalls.len(), 1);
    assert_eq!(made.shortfalls[0].1, Shortfall::NoSquare);
}

/// A bestiary of one group: a leader and `followers` of one kind within `radius`, and
/// `extra` species lines and rows, drawn `count` times a floor.
fn band(followers: &str, radius: u32, count: &str) -> denizen_tables::Bestiary {
    bestiary(&format!(
        r#"(species: [
            (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1"),
            (key: "kin", name: "kin", glyph: 'k', level: 1, hit_points: "1d1"),
        ],
        groups: [(key: "band", leader: Some(Species("chief")), followers: [(member: Species("kin"), count: "{followers}")], radius: {radius})],
        tables: [(key: "floor", rows: [(what: Group("band"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "{count}"))))"#
    ))
}

/// Plans `b` at depth 1 on `rows` with the stream of `seed`.
fn planned(b: &denizen_tables::Bestiary, rows: &[&str], seed: u64) -> denizen_tables::FloorPlan {
    planned_tagged(b, rows, &[], seed)
}

/// [`planned`] with `tagged` squares besides the grid's tags (a tag and its square).
fn planned_tagged(
    b: &denizen_tables::Bestiary,
    rows: &[&str],
    tagged: &[(&str, Square)],
    seed: u64,
) -> denizen_tables::FloorPlan {
    let grid = FloorGrid::from_rows(rows).unwrap();
    let mut tags = SquareTags::from_grid(&grid);
    for &(tag, at) in tagged {
        tags.tag(at, tag).unwrap();
    }
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    plan_floor(
        b,
        &grid,
        &tags,
        request.clone(),
        &UniqueLedger::new(),
        &mut stream(seed),
    )
    .unwrap()
}

/// Followers take the nearest free squares to their leader, breadth first over open
/// squares: in a corridor, the leader's two neighbours, then one square two away; a
/// leader at the corridor's end has room for two within 2, and the third is reported.
#[test]
fn followers_take_the_nearest_squares_breadth_first() {
    let b = band("3d1", 2, "1d1");
    let corridor = ["#########", "#.......#", "#########"];
    let (mut interior, mut ends) = (0, 0);
    for seed in 0..60 {
        let made = planned(&b, &corridor, seed);
        let leader = made.plan.spawns[0].at;
        let mut apart: Vec<u32> = made.plan.spawns[1..]
            .iter()
            .map(|s| distance(leader, s.at))
            .collect();
        apart.sort_unstable();
        let squares: std::collections::BTreeSet<Square> =
            made.plan.spawns.iter().map(|s| s.at).collect();
        assert_eq!(
            squares.len(),
            made.plan.spawns.len(),
            "one creature a square"
        );
        match leader.x {
            1 | 7 => {
                ends += 1;
                assert_eq!(apart, [1, 2], "seed {seed}");
                assert_eq!(made.shortfalls.len(), 1);
                assert_eq!(made.shortfalls[0].1, Shortfall::NoRoomNearLeader);
            }
            2 | 6 => {
                assert_eq!(apart, [1, 1, 2], "seed {seed}");
                assert!(made.shortfalls.is_empty());
            }
            _ => {
                interior += 1;
                assert_eq!(apart, [1, 1, 2], "seed {seed}");
                assert!(made.shortfalls.is_empty());
            }
        }
    }
    assert!(interior > 0 && ends > 0, "{interior} {ends}");
}

/// A square within the radius but cut off by a wall is no follower's: a leader in one of
/// two closets finds no room for its follower.
#[test]
fn followers_stand_only_where_the_leader_reaches() {
    let b = band("1d1", 2, "1d1");
    for seed in 0..20 {
        let made = planned(&b, &["#####", "#.#.#", "#####"], seed);
        assert_eq!(made.plan.spawns.len(), 1, "seed {seed}");
        assert_eq!(made.shortfalls[0].1, Shortfall::NoRoomNearLeader);
    }
    // A second band on the same floor searches round its own leader.
    let b = band("1d1", 1, "2d1");
    for seed in 0..30 {
        let made = planned(&b, &["##########", "#..####..#", "##########"], seed);
        let spawns = &made.plan.spawns;
        assert_eq!(spawns.len(), 4, "seed {seed}: {:?}", made.shortfalls);
        for (leader, follower) in [(0, 1), (2, 3)] {
            assert_eq!(
                distance(spawns[leader].at, spawns[follower].at),
                1,
                "seed {seed}"
            );
        }
    }
}

/// The tag layer of a 12 x 12 floor of open squares, its first column water (tagged
/// `water`, not `floor`) and the rest floor: `a` on the left half, `b` on the top half, `x`
/// on all but (10, 10) and (10, 1), `y` on all but (1, 10) and (2, 10).
fn tagged() -> (FloorGrid, SquareTags) {
    let mut rows = vec!["#".repeat(12)];
    for _ in 1..11 {
        rows.push(format!("#~{}#", ".".repeat(9)));
    }
    rows.push("#".repeat(12));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = FloorGrid::from_rows(&rows).unwrap();
    let mut tags = SquareTags::from_grid(&grid);
    for at in grid
        .squares()
        .filter(|&at| matches!(grid.tile(at), Tile::Floor | Tile::Water))
    {
        if at.x <= 5 {
            tags.tag(at, "a").unwrap();
        }
        if at.y <= 5 {
            tags.tag(at, "b").unwrap();
        }
        if ![(10, 10), (10, 1)].contains(&(at.x, at.y)) {
            tags.tag(at, "x").unwrap();
        }
        if ![(1, 10), (2, 10)].contains(&(at.x, at.y)) {
            tags.tag(at, "y").unwrap();
        }
    }
    (grid, tags)
}

/// Every placement rule holds together: a species' `needs` and its row's add up (both
/// tags), a row's and a follower's rules hold for what they draw, a creature that stands
/// on either of two tags stands on both kinds of square, two rules that rarely fit each
/// keep to their own squares, and no two creatures share a square.
#[test]
fn rules_of_species_rows_and_followers_hold_together() {
    let b = bestiary(
        r#"(species: [
            (key: "both", name: "both", glyph: 'o', level: 1, hit_points: "1d1", place: (needs: ["a"])),
            (key: "amphibian", name: "amphibian", glyph: 'p', level: 1, hit_points: "1d1", place: (stands_on: Some(["floor", "water"]))),
            (key: "shy_x", name: "shy x", glyph: 's', level: 1, hit_points: "1d1", place: (forbids: ["x"])),
            (key: "shy_y", name: "shy y", glyph: 'S', level: 1, hit_points: "1d1", place: (forbids: ["y"])),
            (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1"),
            (key: "kin", name: "kin", glyph: 'k', level: 1, hit_points: "1d1"),
        ],
        groups: [(key: "band", leader: Some(Species("chief")), followers: [(member: Species("kin"), count: "2d1", place: (needs: ["b"]))], radius: 11)],
        tables: [(key: "floor", pick: Each, rows: [
            (what: Species("shy_x"), depth: (1, 5)),
            (what: Species("shy_y"), depth: (1, 5)),
            (what: Species("both"), depth: (1, 5), count: Some("3d1"), place: (needs: ["b"])),
            (what: Species("amphibian"), depth: (1, 5), count: Some("6d1")),
            (what: Group("band"), depth: (1, 5), place: (forbids: ["a"])),
        ])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
    );
    let (grid, tags) = tagged();
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let (mut on_water, mut on_floor) = (0, 0);
    for seed in 0..40 {
        let made = plan_floor(
            &b,
            &grid,
            &tags,
            request.clone(),
            &UniqueLedger::new(),
            &mut stream(seed),
        )
        .unwrap();
        let mut squares = std::collections::BTreeSet::new();
        for (i, spawn) in made.plan.spawns.iter().enumerate() {
            assert!(
                squares.insert(spawn.at),
                "seed {seed}: two on {:?}",
                spawn.at
            );
            let has = |tag| tags.has(spawn.at, tag);
            match b.species_of(spawn.creature.species).key.as_str() {
                "both" => assert!(has("a") && has("b"), "seed {seed}: {:?}", spawn.at),
                "amphibian" if has("water") => on_water += 1,
                "amphibian" => on_floor += 1,
                "shy_x" => assert!(!has("x"), "seed {seed}: {:?}", spawn.at),
                "shy_y" => assert!(!has("y"), "seed {seed}: {:?}", spawn.at),
                // The row forbids `a` for the whole band; the followers also need `b`.
                "chief" => assert!(!has("a"), "seed {seed}"),
                "kin" => assert!(
                    !has("a") && has("b"),
                    "seed {seed}: kin {i} at {:?}",
                    spawn.at
                ),
                other => panic!("{other}"),
            }
        }
        assert!(
            made.shortfalls.is_empty(),
            "seed {seed}: {:?}",
            made.shortfalls
        );
    }
    // The water is a tenth of the open squares: most amphibians stand on plain floor.
    assert!(
        on_water > 0 && on_floor > 4 * on_water,
        "{on_water} {on_floor}"
    );
}

/// A table whose every row is a unique gone draws nothing, and the draw ends (the compiled
/// draw is drawn again past gone rows only while they hold at most half the weight).
#[test]
fn a_table_of_uniques_all_gone_draws_nothing() {
    let b = bestiary(
        r#"(species: [(key: "king", name: "king", glyph: 'K', level: 1, hit_points: "1d1", unique: true),
            (key: "queen", name: "queen", glyph: 'Q', level: 1, hit_points: "1d1", unique: true)],
        tables: [(key: "floor", rows: [(what: Species("king"), depth: (1, 5), weight: 3), (what: Species("queen"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "3d1"))))"#,
    );
    let (grid, tags) = floor();
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let mut ledger = UniqueLedger::new();
    ledger.killed("king");
    ledger.alive("queen");
    let made = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut stream(2)).unwrap();
    assert!(made.plan.spawns.is_empty());
    assert_eq!(made.placements, 3);
    // With only the king gone (three quarters of the weight), the queen comes once.
    let mut ledger = UniqueLedger::new();
    ledger.killed("king");
    let made = plan_floor(&b, &grid, &tags, request.clone(), &ledger, &mut stream(2)).unwrap();
    let queens = made.plan.spawns.len();
    assert_eq!(queens, 1);
}

/// The reference floor's player stands in the middle of its first room, which is `safe`.
#[test]
fn the_reference_floors_player_stands_in_the_middle_of_the_safe_room() {
    for seed in 0..10 {
        let reference =
            denizen_tables::reference::reference_floor(WorldSeed(seed), 64, 24).unwrap();
        let (safe, player) = (reference.safe.unwrap(), reference.player.unwrap());
        assert_eq!(
            player,
            Square {
                x: safe.x + safe.width / 2,
                y: safe.y + safe.height / 2
            }
        );
        assert!(reference.tags().has(player, "safe"));
        assert_eq!(reference.grid.rooms()[0].rect, safe);
    }
}

/// A tag no square of the floor has makes a rule no square meets, whatever other rule
/// comes with it: a row that needs `ghost` for a species that stands on plain floor (or
/// the floor's rules needing it) places nothing, and the shortfalls say so.
#[test]
fn a_tag_the_floor_lacks_fails_the_placement_with_any_other_rule() {
    let text = |row: &str, floor: &str| {
        format!(
            r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1", place: (stands_on: Some(["floor"])))],
            tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5), place: ({row}))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "4d1"), place: ({floor}))))"#
        )
    };
    let (grid, tags) = tagged();
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    for (row, floor) in [(r#"needs: ["ghost"]"#, ""), ("", r#"needs: ["ghost"]"#)] {
        let b = bestiary(&text(row, floor));
        let made = plan_floor(
            &b,
            &grid,
            &tags,
            request.clone(),
            &UniqueLedger::new(),
            &mut stream(1),
        )
        .unwrap();
        assert!(made.plan.spawns.is_empty(), "{row} {floor}");
        assert_eq!(made.shortfalls.len(), 4, "{row} {floor}");
    }
}

/// A floor with no wall round it: its top row and left column hold creatures like any
/// other squares, each on a square of its own.
#[test]
fn creatures_stand_on_the_edges_of_a_floor_without_walls() {
    let b = bestiary(
        r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
        tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "6d1"))))"#,
    );
    let grid = FloorGrid::from_rows(&["...", "..."]).unwrap();
    let tags = SquareTags::from_grid(&grid);
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let made = plan_floor(
        &b,
        &grid,
        &tags,
        request.clone(),
        &UniqueLedger::new(),
        &mut stream(2),
    )
    .unwrap();
    let mut at: Vec<Square> = made.plan.spawns.iter().map(|s| s.at).collect();
    at.sort_by_key(|s| (s.y, s.x));
    let every: Vec<Square> = (0..2)
        .flat_map(|y| (0..3).map(move |x| Square { x, y }))
        .collect();
    assert_eq!(at, every);
}

/// A leader on `throne` (the one square so tagged) with `followers` within `radius`.
fn enthroned(followers: &str, radius: u32) -> denizen_tables::Bestiary {
    bestiary(&format!(
        r#"(species: [
            (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1", place: (needs: ["throne"])),
            (key: "kin", name: "kin", glyph: 'k', level: 1, hit_points: "1d1"),
        ],
        groups: [(key: "band", leader: Some(Species("chief")), followers: [{followers}], radius: {radius})],
        tables: [(key: "floor", rows: [(what: Group("band"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#
    ))
}

/// Every square of the box round the leader is open to its followers: in a room of 5 by
/// 5, a leader at the middle has room for 24 within 2, the corners included.
#[test]
fn followers_reach_every_square_of_the_leaders_box() {
    let b = enthroned(r#"(member: Species("kin"), count: "24d1")"#, 2);
    let room = [
        "#######", "#.....#", "#.....#", "#.....#", "#.....#", "#.....#", "#######",
    ];
    let plan = planned_tagged(&b, &room, &[("throne", Square { x: 3, y: 3 })], 4);
    let mut at: Vec<Square> = plan.plan.spawns.iter().map(|s| s.at).collect();
    at.sort_by_key(|s| (s.y, s.x));
    let every: Vec<Square> = (1..6)
        .flat_map(|y| (1..6).map(move |x| Square { x, y }))
        .collect();
    assert_eq!(at, every);
}

/// A follower whose rule passes over the nearest free square leaves it to the next: in a
/// corridor from the leader, one follower needs `b` (2 squares away), one needs `c` (3
/// away) and one has no rule: that one takes the square beside the leader.
#[test]
fn a_square_one_follower_passes_over_is_the_next_ones() {
    let b = enthroned(
        r#"(member: Species("kin"), count: "1d1", place: (needs: ["b"])), (member: Species("kin"), count: "1d1", place: (needs: ["c"])), (member: Species("kin"), count: "1d1")"#,
        5,
    );
    let square = |x| Square { x, y: 1 };
    let plan = planned_tagged(
        &b,
        &["########", "#......#", "########"],
        &[("throne", square(1)), ("b", square(3)), ("c", square(4))],
        4,
    );
    let at: Vec<Square> = plan.plan.spawns.iter().map(|s| s.at).collect();
    assert_eq!(at, [square(1), square(3), square(4), square(2)]);
}

/// Costs add up to a floor's danger. By hand: each of 6 placements is the pike (cost 3)
/// or the chief (5) with 4 runners (1 each, unset), half and half: 6 a placement, 36 a
/// floor, which the exact odds give and 2,000 sampled floors agree with; a rule that
/// counted an unset cost as 0 (24 a floor) is rejected. Drawn danger is the placed
/// creatures' costs plus those not placed.
#[test]
fn a_floors_danger_sums_its_costs_as_drawn_and_as_placed() {
    let text = ROOMY
        .replace(
            "hit_points: \"2d4\",",
            "hit_points: \"2d4\", cost: Some(3),",
        )
        .replace(
            "hit_points: \"3d4\",",
            "hit_points: \"3d4\", cost: Some(5),",
        );
    let b = bestiary(&text);
    let (grid, tags) = floor();
    let ledger = UniqueLedger::new();
    let exact = denizen_tables::odds(&b, 2, &ledger, &Context::new(), denizen_tables::Per::Floor);
    assert!((exact.unwrap().danger(&b) - 36.0).abs() < 1e-12);
    let (mut sum, mut squares) = (0.0, 0.0);
    for seed in 0..2_000 {
        let request = FloorTerms {
            depth: 2,
            ..FloorTerms::default()
        };
        let made = plan_floor(&b, &grid, &tags, request, &ledger, &mut stream(seed)).unwrap();
        let cost = |s| u64::from(b.species_of(s).cost);
        let placed: u64 = made
            .plan
            .spawns
            .iter()
            .map(|s| cost(s.creature.species))
            .sum();
        let unplaced: u64 = made.shortfalls.iter().map(|&(s, _)| cost(s)).sum();
        assert_eq!(made.danger.placed, placed);
        assert_eq!(made.danger.drawn, placed + unplaced);
        let d = made.danger.drawn as f64;
        (sum, squares) = (sum + d, squares + d * d);
    }
    let mean = sum / 2_000.0;
    let se = ((squares / 2_000.0 - mean * mean) / 1_999.0).sqrt();
    assert!((mean - 36.0).abs() <= 5.0 * se, "{mean} ({se})");
    assert!((mean - 24.0).abs() > 5.0 * se, "{mean} ({se})");
}

/// A cost is 0 to 10,000: 10,000 loads, 10,001 is refused by field.
#[test]
fn a_cost_past_its_bound_is_refused() {
    let with = |cost: u32| {
        ROOMY.replace(
            "hit_points: \"2d4\",",
            &format!("hit_points: \"2d4\", cost: Some({cost}),"),
        )
    };
    bestiary(&with(10_000));
    bestiary(&with(0));
    let e = crate::error(&with(10_001));
    assert!(
        e.contains("t.ron: species[0] `pike`: field `cost`: a cost is at most 10000"),
        "{e}"
    );
}
