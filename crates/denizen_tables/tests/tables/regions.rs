//! Regions populated by their rules: each drawn from its own table inside its squares,
//! followers too; uniques floor-wide; fields overriding where the rule lets them; exact
//! odds per region against hand-worked figures, and a seeded sample that rejects wrong
//! rules.

use denizen_core::regions::{FieldValue, Region, Regions};
use denizen_core::{ChiSquared, FloorGrid, Rect, SquareSet, SquareTags, StreamPurpose, WorldSeed};
use denizen_tables::{
    Bestiary, Context, FloorPlan, FloorTerms, RequestError, Shortfall, UniqueLedger, plan_floor,
    region_odds,
};

use crate::{bestiary, by_key};

/// Rats on the floor; in a lair, the queen (unique, weight 1) or a den of a wolf and two
/// cubs (weight 3), one or two placements a lair.
pub(crate) const LAIRS: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1"),
        (key: "queen", name: "queen", glyph: 'Q', level: 1, hit_points: "1d1", unique: true),
        (key: "wolf", name: "wolf", glyph: 'w', level: 1, hit_points: "1d1"),
        (key: "cub", name: "cub", glyph: 'c', level: 1, hit_points: "1d1"),
        (key: "bat", name: "bat", glyph: 'b', level: 1, hit_points: "1d1"),
    ],
    groups: [(key: "den", leader: Some(Species("wolf")), followers: [(member: Species("cub"), count: "2d1")], radius: 3)],
    tables: [
        (key: "floor", rows: [(what: Species("rat"), depth: (1, 10))]),
        (key: "lair", rows: [(what: Species("queen"), depth: (1, 12)), (what: Group("den"), depth: (1, 12), weight: 3)]),
        (key: "roost", rows: [(what: Species("bat"), depth: (1, 12))]),
    ],
    floor: Some((table: "floor", depths: (1, 10), count: (dice: "2d1"), regions: [
        (kind: "lair", table: "lair", depths: (1, 12), count: (dice: "1d2"), overrides: [table, count, depth_offset]),
        (kind: "roost", table: "roost", depths: (1, 10), count: (dice: "1d1"), open: true),
    ])),
)"#;

fn lairs() -> Bestiary {
    bestiary(LAIRS)
}

/// A 30 x 12 room of open floor.
fn room() -> (FloorGrid, SquareTags) {
    let mut rows = vec!["#".repeat(30)];
    rows.extend((1..11).map(|_| format!("#{}#", ".".repeat(28))));
    rows.push("#".repeat(30));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let grid = FloorGrid::from_rows(&rows).unwrap();
    let tags = SquareTags::from_grid(&grid);
    (grid, tags)
}

fn area(x: u32, y: u32, width: u32, height: u32) -> SquareSet {
    SquareSet::from(Rect {
        x,
        y,
        width,
        height,
    })
}

/// Two lairs of 4 x 3, `lair-a` at the left and `lair-b` at the right.
pub(crate) fn two_lairs() -> Regions {
    let mut regions = Regions::default();
    regions
        .insert(Region::new("lair", "lair-b", area(22, 2, 4, 3)))
        .unwrap();
    regions
        .insert(Region::new("lair", "lair-a", area(2, 2, 4, 3)))
        .unwrap();
    regions
}

fn plan(b: &Bestiary, regions: Regions, depth: u32, seed: u64) -> Result<FloorPlan, RequestError> {
    let (grid, tags) = room();
    let request = FloorTerms {
        depth,
        regions,
        ..FloorTerms::default()
    };
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("regions").with(seed));
    plan_floor(b, &grid, &tags, request, &UniqueLedger::new(), &mut rng)
}

/// The species keys of a plan's creatures drawn for `region` (none: the floor's own).
fn drawn_for(b: &Bestiary, plan: &FloorPlan, region: Option<&str>) -> Vec<String> {
    (plan.plan.spawns.iter())
        .filter(|s| s.creature.region.as_deref() == region)
        .map(|s| b.species_of(s.creature.species).key.clone())
        .collect()
}

#[test]
fn exact_odds_per_region_are_the_hand_worked_figures() {
    let b = lairs();
    let odds = region_odds(&b, 5, &two_lairs(), &UniqueLedger::new(), &Context::new()).unwrap();
    assert!(odds.floor.standard_errors.is_none(), "worked exactly");
    let near = |got: f64, want: f64| assert!((got - want).abs() < 1e-12, "{got} != {want}");
    // The floor's own: two rats, nothing of a lair.
    near(by_key(&b, &odds.general.expected, "rat"), 2.0);
    near(by_key(&b, &odds.general.expected, "wolf"), 0.0);
    let ids: Vec<&str> = odds.regions.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["lair-a", "lair-b"], "(kind, id) order");
    // lair-a, first: one placement (1/2) or two. The queen comes with 1/4 a placement
    // while she has not come: 1/4 + 1/2 * 3/4 * 1/4 = 0.34375. A den, 3/4 a placement,
    // and with certainty once the queen has come: 3/4 + 1/2 * (1/4 + 3/4 * 3/4).
    let a = &odds.regions[0].1.expected;
    near(by_key(&b, a, "queen"), 0.34375);
    near(by_key(&b, a, "wolf"), 1.15625);
    near(by_key(&b, a, "cub"), 2.3125);
    near(by_key(&b, a, "rat"), 0.0);
    // lair-b: the queen is the floor's, so she comes there only when lair-a did not take
    // her (0.65625); otherwise every placement is a den (1.5 placements on average).
    let b_ = &odds.regions[1].1.expected;
    near(by_key(&b, b_, "queen"), 0.65625 * 0.34375);
    near(by_key(&b, b_, "wolf"), 0.34375 * 1.5 + 0.65625 * 1.15625);
    near(
        by_key(&b, &odds.floor.expected, "queen"),
        0.34375 + 0.65625 * 0.34375,
    );
    near(by_key(&b, &odds.floor.expected, "rat"), 2.0);
    near(
        by_key(&b, &odds.floor.expected, "cub"),
        2.0 * (1.15625 + 0.34375 * 1.5 + 0.65625 * 1.15625),
    );
}

#[test]
fn sampled_regions_match_the_exact_odds_and_reject_wrong_rules() {
    let b = lairs();
    let floors = 4_000;
    // Per floor: how many dens lair-a holds (0, 1 or 2), and whether lair-b holds the queen.
    let (mut dens_a, mut queen_b) = ([0u64; 3], [0u64; 2]);
    let mut rats_in_lairs = 0;
    for seed in 0..floors {
        let plan = plan(&b, two_lairs(), 5, seed).unwrap();
        let a = drawn_for(&b, &plan, Some("lair-a"));
        dens_a[a.iter().filter(|k| *k == "wolf").count()] += 1;
        let in_b = drawn_for(&b, &plan, Some("lair-b"));
        queen_b[usize::from(in_b.iter().any(|k| k == "queen"))] += 1;
        rats_in_lairs += (a.iter().chain(&in_b)).filter(|k| *k == "rat").count();
    }
    // Hand-worked: no den when one placement brings the queen (1/2 * 1/4); two when two
    // placements both bring dens (1/2 * 3/4 * 3/4); one otherwise.
    let dens = [0.125, 0.59375, 0.28125];
    assert!(
        ChiSquared::against(&dens_a, dens).p_value() > 1e-3,
        "{dens_a:?}"
    );
    let queen = 0.65625 * 0.34375;
    assert!(ChiSquared::against(&queen_b, [1.0 - queen, queen]).p_value() > 1e-3);
    // Wrong: a region's creatures drawn from the floor's table (rats, never a den).
    assert_eq!(rats_in_lairs, 0);
    // Wrong: a region counted by the floor's count (always two placements): never no den,
    // one den when a placement brings the queen (1/4 + 3/4 * 1/4), else two.
    assert!(ChiSquared::against(&dens_a, [0.0, 0.4375, 0.5625]).p_value() < 1e-6);
    // Wrong: uniques kept per region, so lair-b's queen as likely as lair-a's.
    assert!(ChiSquared::against(&queen_b, [0.65625, 0.34375]).p_value() < 1e-6);
}

#[test]
fn a_regions_creatures_stand_inside_it_and_the_floors_own_stay_out() {
    let b = lairs();
    let regions = two_lairs();
    for seed in 0..200 {
        let plan = plan(&b, regions.clone(), 5, seed).unwrap();
        for spawn in &plan.plan.spawns {
            match &spawn.creature.region {
                Some(id) => assert!(regions.get(id).unwrap().squares.contains(spawn.at)),
                None => assert!(regions.iter().all(|r| !r.squares.contains(spawn.at))),
            }
        }
        assert_eq!(drawn_for(&b, &plan, None).len(), 2, "two rats");
        assert!(
            plan.shortfalls.is_empty(),
            "room for all: {:?}",
            plan.shortfalls
        );
    }
}

#[test]
fn an_open_region_lets_the_floors_own_placements_in() {
    // Roosts are open: across floors, some rat stands in one that covers half the room.
    let b = lairs();
    let mut regions = Regions::default();
    let half = area(1, 1, 14, 10);
    regions
        .insert(Region::new("roost", "roost-1", half.clone()))
        .unwrap();
    let inside = (0..50).any(|seed| {
        let plan = plan(&b, regions.clone(), 5, seed).unwrap();
        (plan.plan.spawns.iter()).any(|s| s.creature.region.is_none() && half.contains(s.at))
    });
    assert!(inside);
    // Closed lairs over the same half: never.
    let mut lairs = Regions::default();
    lairs
        .insert(Region::new("lair", "lair-1", half.clone()))
        .unwrap();
    for seed in 0..50 {
        let plan = plan(&b, lairs.clone(), 5, seed).unwrap();
        assert!(
            !(plan.plan.spawns.iter()).any(|s| s.creature.region.is_none() && half.contains(s.at))
        );
    }
}

#[test]
fn a_full_region_reports_its_shortfall_and_never_spills() {
    // A lair of two squares: a den's wolf and one cub fit, the other cub is reported.
    let b = lairs();
    let mut regions = Regions::default();
    let lair = Region::new("lair", "lair-1", area(10, 5, 2, 1))
        .with_field("table", FieldValue::Text("lair".into()))
        .with_field("count", FieldValue::Int(1));
    regions.insert(lair).unwrap();
    let mut dens = 0;
    for seed in 0..100 {
        let plan = plan(&b, regions.clone(), 5, seed).unwrap();
        let inside = drawn_for(&b, &plan, Some("lair-1"));
        let report = &plan.regions[0];
        assert_eq!(report.placements, 1);
        if inside.contains(&"wolf".to_owned()) {
            dens += 1;
            assert_eq!(inside.len(), 2, "the wolf and one cub");
            let cub = b.species_by_key("cub").unwrap();
            assert_eq!(report.shortfalls, [(cub, Shortfall::NoRoomNearLeader)]);
            assert_eq!(
                plan.shortfalls, report.shortfalls,
                "the floor's list holds it too"
            );
        }
        for s in plan
            .plan
            .spawns
            .iter()
            .filter(|s| s.creature.region.is_some())
        {
            assert!(regions.iter().next().unwrap().squares.contains(s.at));
        }
    }
    assert!(dens > 50, "a den most floors: {dens}");
}

#[test]
fn fields_override_where_the_rule_lets_them_and_are_refused_elsewhere() {
    let b = lairs();
    let one = |region: Region| {
        let mut regions = Regions::default();
        regions.insert(region).unwrap();
        regions
    };
    let lair = || Region::new("lair", "den-1", area(2, 2, 6, 6));
    // A table and a count of its own: three bats.
    let bats = lair()
        .with_field("table", FieldValue::Text("roost".into()))
        .with_field("count", FieldValue::Int(3));
    let bats = plan(&b, one(bats), 5, 1).unwrap();
    assert_eq!(drawn_for(&b, &bats, Some("den-1")), ["bat", "bat", "bat"]);
    // The rule's depths are 1-12: at floor depth 9, an offset of 3 is depth 12, in them;
    // at 10 it is 13, and refused by name.
    let deeper = || lair().with_field("depth_offset", FieldValue::Int(3));
    assert_eq!(plan(&b, one(deeper()), 9, 1).unwrap().regions[0].depth, 12);
    let e = plan(&b, one(deeper()), 10, 1).unwrap_err().to_string();
    assert_eq!(
        e,
        "region \"den-1\" (kind \"lair\"): field `depth_offset`: the region's depth, 10 +3, is outside its rule's depths 1-12"
    );
    let e = plan(
        &b,
        one(lair().with_field("table", FieldValue::Text("nest".into()))),
        5,
        1,
    );
    assert!(
        e.unwrap_err()
            .to_string()
            .contains("field `table`: \"nest\" names no table")
    );
    let e = plan(
        &b,
        one(lair().with_field("count", FieldValue::Int(501))),
        5,
        1,
    );
    assert!(
        e.unwrap_err()
            .to_string()
            .contains("field `count`: 501 can give more than 500")
    );
    // Dice past a file's (whose product would not fit a word) are refused, not rolled.
    let huge = lair().with_field("count", FieldValue::Text("65536d65536".into()));
    let e = plan(&b, one(huge), 5, 1).unwrap_err().to_string();
    assert!(
        e.contains("\"65536d65536\": at most 500 dice of 500 sides"),
        "{e}"
    );
    // The roost lets no field be set.
    let roost =
        Region::new("roost", "r-1", area(2, 2, 3, 3)).with_field("count", FieldValue::Int(2));
    let e = plan(&b, one(roost), 5, 1).unwrap_err().to_string();
    assert!(
        e.contains(
            "field `count`: the rule for `roost` does not let a region set it (it lets: none)"
        ),
        "{e}"
    );
    // A region of a kind no rule names is only tags: nothing drawn for it.
    let camp = one(Region::new("camp", "c-1", area(2, 2, 3, 3)));
    assert!(plan(&b, camp, 5, 1).unwrap().regions.is_empty());
}

#[test]
fn adding_a_region_moves_no_other_and_the_same_seed_gives_the_same_floor() {
    let b = lairs();
    let first = plan(&b, two_lairs(), 5, 9).unwrap();
    assert_eq!(first, plan(&b, two_lairs(), 5, 9).unwrap());
    // A roost (open: the floor's own placements keep their squares) added after the
    // lairs in (kind, id) order: the lairs' creatures are the same.
    let mut more = two_lairs();
    more.insert(Region::new("roost", "roost-1", area(12, 7, 4, 3)))
        .unwrap();
    let second = plan(&b, more, 5, 9).unwrap();
    let lairs = |p: &FloorPlan| -> Vec<_> {
        (p.plan.spawns.iter())
            .filter(|s| {
                s.creature
                    .region
                    .as_deref()
                    .is_some_and(|id| id.starts_with("lair"))
            })
            .cloned()
            .collect()
    };
    assert_eq!(lairs(&first), lairs(&second));
    assert_eq!(drawn_for(&b, &second, Some("roost-1")), ["bat"]);
}

#[test]
fn region_rules_are_checked_at_load() {
    let twice = LAIRS.replace("(kind: \"roost\"", "(kind: \"lair\"");
    let e = crate::error(&twice);
    assert!(
        e.contains("regions[1].kind") && e.contains("a second rule for `lair`"),
        "{e}"
    );
    let gap = LAIRS.replace(
        "depths: (1, 12), count: (dice: \"1d2\")",
        "depths: (1, 13), count: (dice: \"1d2\")",
    );
    let e = crate::error(&gap);
    assert!(
        e.contains("regions[0] `lair`")
            && e.contains("no row of table `lair` is eligible at region depths 13"),
        "{e}"
    );
    let unknown = LAIRS.replace("table: \"roost\", depths", "table: \"nest\", depths");
    assert!(crate::error(&unknown).contains("nest"));
    let capital = LAIRS.replace("(kind: \"roost\"", "(kind: \"Roost\"");
    let e = crate::error(&capital);
    let named = e.contains("regions[1].kind") && e.contains("kinds are lowercase");
    assert!(named && e.contains("`roost`"), "{e}");
}
