//! Floors planned on a grid: placement rules, groups near their leaders, shortfalls
//! reported and never placed elsewhere, uniques, wandering arrivals, determinism.

use denizen_core::{FloorGrid, Rect, Square, SquareTags, StreamPurpose, Tile, WorldSeed};
use denizen_tables::{
    FloorRequest, FloorSite, Shortfall, UniqueLedger, distance, plan_floor, plan_wanderer,
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
    let request = FloorRequest {
        depth: 3,
        point: Some(player),
        table: None,
    };
    for seed in 0..40 {
        let made = plan_floor(
            &b,
            &grid,
            &tags,
            request,
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
    let request = FloorRequest {
        depth: 2,
        point: None,
        table: None,
    };
    let plan = |seed| {
        plan_floor(
            &b,
            &grid,
            &tags,
            request,
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
    let request = FloorRequest {
        depth: 1,
        point: None,
        table: None,
    };
    let made = (0..50)
        .map(|seed| {
            plan_floor(
                &b,
                &grid,
                &tags,
                request,
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
    let made = plan_wanderer(&b, site, 2, &UniqueLedger::new(), &mut stream(1))
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
        let made = plan_wanderer(&b, site, 2, &UniqueLedger::new(), &mut stream(seed))
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
    let request = FloorRequest {
        depth: 1,
        point: None,
        table: None,
    };
    let king = b.species_by_key("king").unwrap();
    let mut ledger = UniqueLedger::new();
    let made = plan_floor(&b, &grid, &tags, request, &ledger, &mut stream(2)).unwrap();
    assert_eq!(made.uniques, vec![king]);
    let kings = made
        .plan
        .spawns
        .iter()
        .filter(|s| s.creature.species == king)
        .count();
    assert_eq!(kings, 1, "once per floor however heavy its row");
    ledger.alive("king");
    let next = plan_floor(&b, &grid, &tags, request, &ledger, &mut stream(3)).unwrap();
    assert!(next.uniques.is_empty() && next.plan.spawns.iter().all(|s| s.creature.species != king));
    ledger.floor_ended(["king"]);
    let back = plan_floor(&b, &grid, &tags, request, &ledger, &mut stream(3)).unwrap();
    assert_eq!(back.uniques, vec![king]);
    let e = plan_floor(
        &b,
        &grid,
        &tags,
        FloorRequest {
            depth: 9,
            point: None,
            table: None,
        },
        &ledger,
        &mut stream(3),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "depth 9 is outside the floor's depths, 1-5");
    let small = SquareTags::new(2, 2);
    assert!(plan_floor(&b, &grid, &small, request, &ledger, &mut stream(3)).is_err());
}

/// A least distance is met at exactly that many squares (a diagonal step counting one) and
/// not one nearer: on a row whose only open squares besides the player's lie 2 and 3
/// squares away, a creature that keeps 3 away stands on the farther every time; one that
/// keeps 4 away finds no square.
#[test]
fn a_least_distance_is_met_at_exactly_that_distance() {
    let text = |min: u32| {
        format!(
            r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
            tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"), place: (min_distance: Some({min})))))"#
        )
    };
    let grid = FloorGrid::from_rows(&["######", "#.#..#", "######"]).unwrap();
    let tags = SquareTags::from_grid(&grid);
    let player = Square { x: 1, y: 1 };
    assert_eq!(distance(player, Square { x: 4, y: 1 }), 3);
    assert_eq!(
        distance(Square { x: 1, y: 1 }, Square { x: 4, y: 3 }),
        3,
        "a diagonal step counts one"
    );
    let request = FloorRequest {
        depth: 1,
        point: Some(player),
        table: None,
    };
    let three = bestiary(&text(3));
    for seed in 0..60 {
        let made = plan_floor(
            &three,
            &grid,
            &tags,
            request,
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
        request,
        &UniqueLedger::new(),
        &mut stream(1),
    )
    .unwrap();
    assert!(made.plan.spawns.is_empty());
    assert_eq!(made.shortfalls.len(), 1);
    assert_eq!(made.shortfalls[0].1, Shortfall::NoSquare);
}
