//! Whole starter floors pinned as text: every creature's square, species, hit points,
//! sleep, possession and leader, on reference floors at four depths, fresh and with each
//! unique gone, and wandering arrivals after a long stay. Any change to how a seed's
//! words are read (the stream, the order of draws, the choice of squares) shows as a
//! failing line, which the odds tests cannot see. The starter is a copy kept as a fixture
//! (`tests/fixtures/starter-0.3-pre`, the shipped files of 2026-12-07): a bestiary that
//! uses no field added since draws the same floors from the same seeds, whatever the
//! shipped starter becomes.

use std::fmt::Write as _;

use denizen_core::{DataFile, FloorGrid, SquareTags, StreamPurpose, Tile, WorldSeed};
use denizen_tables::reference::reference_floor;
use denizen_tables::{
    Bestiary, FloorPlan, FloorSite, FloorTerms, UniqueLedger, load, plan_floor, plan_wanderer,
};

fn describe(b: &Bestiary, made: &FloorPlan, out: &mut String) {
    for spawn in &made.plan.spawns {
        let c = &spawn.creature;
        let _ = writeln!(
            out,
            "  {},{} {} hp {} asleep {} carries {:?} follows {:?} out of depth {}",
            spawn.at.x,
            spawn.at.y,
            b.species_of(c.species).key,
            c.hit_points,
            c.asleep,
            c.carries,
            c.follows.map(|f| (f.leader, f.kind)),
            c.out_of_depth
        );
    }
    for (s, why) in &made.shortfalls {
        let _ = writeln!(out, "  not placed: {} ({why:?})", b.species_of(*s).key);
    }
    let _ = writeln!(
        out,
        "  placements {}, out of depth {}",
        made.placements, made.out_of_depth
    );
}

/// The copy of the starter kept as a fixture, its base file and mod file merged.
fn fixture_starter() -> Bestiary {
    let fixture = |name| {
        let path = format!(
            "{}/tests/fixtures/starter-0.3-pre/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let (base, r#mod) = (
        fixture("starter.tables.ron"),
        fixture("starter_mod.tables.ron"),
    );
    load(&[
        DataFile::new("starter.tables.ron", &base),
        DataFile::new("starter_mod.tables.ron", &r#mod),
    ])
    .unwrap()
}

#[test]
fn starter_floors_match_their_golden_file() {
    let mut out = whole_floors(&fixture_starter());
    edges(&mut out);
    denizen_testing::golden(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/floors.txt"),
        &out,
    );
}

/// The shipped starter adds creatures that come only at night, in winter or at the fair:
/// with none of those flags set their rows are left out exactly as rows it does not
/// have, so its floors and wanderers are the fixture's, word for word.
#[test]
fn the_starter_outside_its_contexts_draws_the_fixtures_floors() {
    let shipped = denizen_tables::starter().unwrap();
    assert!(shipped.species().len() > fixture_starter().species().len());
    assert_eq!(whole_floors(&shipped), whole_floors(&fixture_starter()));
}

/// The golden file's floors and wanderers of `b`, as text.
fn whole_floors(b: &Bestiary) -> String {
    // Each unique gone alone: its rows hold less than half of any table's weight.
    let gone: Vec<UniqueLedger> = b
        .species()
        .iter()
        .filter(|s| s.unique)
        .map(|s| {
            let mut ledger = UniqueLedger::new();
            ledger.killed(&s.key);
            ledger
        })
        .collect();
    let mut out = String::new();
    for seed in [1u64, 2] {
        let floor = reference_floor(WorldSeed(seed), 64, 24).unwrap();
        let tags = floor.tags();
        for depth in [1, 5, 10, 20] {
            let ledgers = std::iter::once(UniqueLedger::new()).chain(gone.iter().cloned());
            for ledger in ledgers {
                let killed: Vec<&str> = ledger.killed_keys().collect();
                let _ = writeln!(out, "seed {seed} depth {depth} killed {killed:?}");
                let request = FloorTerms {
                    depth,
                    point: floor.player,
                    table: None,
                    context: Default::default(),
                    regions: Default::default(),
                };
                let mut rng = WorldSeed(seed).stream(StreamPurpose::new("golden floor"));
                let made = plan_floor(b, &floor.grid, &tags, request, &ledger, &mut rng).unwrap();
                describe(b, &made, &mut out);
            }
        }
        let rules = b.wandering().expect("the starter's wanderers");
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("golden wandering"));
        // After 0, 600 and 1,200 turns: the file's chance, halved 0, 1 and 2 times.
        let passed: Vec<u64> = (0..2_000u64)
            .filter(|i| rules.check(600 * (i % 3), &mut rng))
            .collect();
        let _ = writeln!(out, "seed {seed} wandering checks passed {passed:?}");
        let site = FloorSite {
            grid: &floor.grid,
            tags: &tags,
            point: floor.player,
        };
        for depth in [3, 12] {
            let made = plan_wanderer(
                b,
                site,
                depth,
                (&UniqueLedger::new(), &denizen_tables::Context::new()),
                &mut denizen_tables::FloorState::new(),
                &mut rng,
            )
            .expect("the starter's wanderers")
            .unwrap();
            let _ = writeln!(out, "seed {seed} wanderer at depth {depth}");
            describe(b, &made, &mut out);
        }
    }
    out
}

/// Draws the starter does not make: a unique holding more than half its table's weight
/// gone (the draw over the rows left), a species standing on a tag the floor lacks (no
/// square, no word read), a nested table with no row at the floor's depth (nothing); and
/// a creature needing two tags as common as each other (the first one's squares tried).
fn edges(out: &mut String) {
    let b = crate::bestiary(
        r#"(species: [
            (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d4"),
            (key: "u", name: "u", glyph: 'u', level: 1, hit_points: "1d4", unique: true),
            (key: "ghost", name: "ghost", glyph: 'g', level: 1, hit_points: "1d4", place: (stands_on: Some(["void"]))),
        ],
        tables: [
            (key: "floor", rows: [
                (what: Species("a"), depth: (1, 5)),
                (what: Species("u"), depth: (1, 5), weight: 4),
                (what: Species("ghost"), depth: (1, 5)),
                (what: Table("deep"), depth: (1, 5)),
            ]),
            (key: "deep", rows: [(what: Species("a"), depth: (5, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "12d1"))))"#,
    );
    let floor = reference_floor(WorldSeed(3), 64, 24).unwrap();
    let tags = floor.tags();
    let mut gone = UniqueLedger::new();
    gone.killed("u");
    let request = FloorTerms {
        depth: 1,
        point: floor.player,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let mut rng = WorldSeed(3).stream(StreamPurpose::new("golden edges"));
    let made = plan_floor(&b, &floor.grid, &tags, request, &gone, &mut rng).unwrap();
    let _ = writeln!(out, "edges: u gone, ghost on void, deep empty at 1");
    describe(&b, &made, out);

    let b = crate::bestiary(
        r#"(species: [(key: "pq", name: "pq", glyph: 'p', level: 1, hit_points: "1d4", place: (needs: ["p", "q"]))],
        tables: [(key: "floor", rows: [(what: Species("pq"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "8d1"))))"#,
    );
    let mut rows = vec!["#".repeat(12)];
    rows.extend((1..11).map(|_| format!("#{}#", ".".repeat(10))));
    rows.push("#".repeat(12));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = FloorGrid::from_rows(&rows).unwrap();
    let mut tags = SquareTags::from_grid(&grid);
    // `p` on columns 1-6, `q` on 5-10: 60 squares each, 20 of them both.
    for at in grid.squares().filter(|&at| grid.tile(at) == Tile::Floor) {
        if at.x <= 6 {
            tags.tag(at, "p").unwrap();
        }
        if at.x >= 5 {
            tags.tag(at, "q").unwrap();
        }
    }
    let request = FloorTerms {
        depth: 1,
        point: None,
        table: None,
        context: Default::default(),
        regions: Default::default(),
    };
    let made = plan_floor(&b, &grid, &tags, request, &UniqueLedger::new(), &mut rng).unwrap();
    let _ = writeln!(out, "edges: needing p and q, as common as each other");
    describe(&b, &made, out);
}
