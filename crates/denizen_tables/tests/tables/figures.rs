//! A floor's figures for designers: the distribution of a species', a tag's or the
//! danger's count over a floor, and the paths that bring a species, against hand-worked
//! figures; P(at least one) against a seeded sample that rejects the per-placement chance
//! taken for the per-floor one.

use denizen_core::regions::Regions;
use denizen_tables::{
    Came, Context, Counted, UniqueLedger, explain, floor_counts, floor_distribution, region_odds,
    sample_stream,
};

use crate::bestiary;

/// One or two placements a floor, each from `floor`: a rat (2 in 5), an ogre (1 in 5), a
/// pack of a wolf and one or two cubs (1 in 5), or a nursery's cub or rat (1 in 5, half
/// each). Costs: rat 1, ogre 5, wolf 2, cub 1.
const WOODS: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1", cost: Some(1)),
        (key: "ogre", name: "ogre", glyph: 'O', level: 1, hit_points: "1d1", cost: Some(5), tags: ["big"]),
        (key: "wolf", name: "wolf", glyph: 'w', level: 1, hit_points: "1d1", cost: Some(2)),
        (key: "cub", name: "cub", glyph: 'c', level: 1, hit_points: "1d1", cost: Some(1), tags: ["young"]),
    ],
    groups: [(key: "pack", leader: Some(Species("wolf")), followers: [(member: Species("cub"), count: "1d2", role: "pup")], radius: 2)],
    tables: [
        (key: "floor", rows: [
            (what: Species("rat"), depth: (1, 5), weight: 2),
            (what: Species("ogre"), depth: (1, 5)),
            (what: Group("pack"), depth: (1, 5)),
            (what: Table("nursery"), depth: (1, 5)),
        ]),
        (key: "nursery", rows: [(what: Species("cub"), depth: (1, 5)), (what: Species("rat"), depth: (1, 5))]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d2"))),
)"#;

fn distribution(counted: Counted) -> denizen_tables::Distribution {
    let b = bestiary(WOODS);
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    floor_distribution(&b, 1, &Regions::default(), &ledger, &context, &counted).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn a_species_count_over_a_floor_is_worked_by_hand() {
    let b = bestiary(WOODS);
    let ogre = b.species_by_key("ogre").unwrap();
    let d = distribution(Counted::Species(ogre));
    // One placement (1/2): an ogre with 1/5; two (1/2): binomial(2, 1/5).
    assert!(!d.sampled);
    assert!(close(d.none(), 0.5 * 0.8 + 0.5 * 0.64), "{d:?}");
    assert!(
        close(d.chance(1), 0.5 * 0.2 + 0.5 * 2.0 * 0.2 * 0.8),
        "{d:?}"
    );
    assert!(close(d.chance(2), 0.5 * 0.04), "{d:?}");
    assert!(close(d.at_least(1), 0.28), "{d:?}");
    // The mean is the expected count: 1.5 placements of 1/5.
    assert!(close(d.mean(), 0.3), "{d:?}");
    assert_eq!(
        (d.quantile(0.72), d.quantile(0.73), d.quantile(1.0)),
        (0, 1, 2)
    );
}

#[test]
fn a_tag_counts_each_species_that_carries_it_by_every_route() {
    // Cubs per placement: none 7/10, one 2/10 (a pack's one, a nursery's), two 1/10.
    let d = distribution(Counted::Tag("young".into()));
    let want = [0.595, 0.24, 0.14, 0.02, 0.005];
    for (k, p) in want.iter().enumerate() {
        assert!(close(d.chance(k as u64), *p), "{k}: {d:?}");
    }
    assert!(close(d.mean(), 0.6), "{d:?}");
    assert!(close(distribution(Counted::Tag("none".into())).none(), 1.0));
}

#[test]
fn the_danger_over_a_floor_sums_each_creatures_cost() {
    // A placement's danger: 1 (6/10), 3 or 4 (a pack, 1/10 each), 5 (an ogre, 2/10).
    let d = distribution(Counted::Danger);
    assert!(close(d.chance(1), 0.5 * 0.6), "{d:?}");
    assert!(close(d.chance(2), 0.5 * 0.36), "{d:?}");
    assert!(close(d.chance(10), 0.5 * 0.04), "{d:?}");
    assert!(close(d.mean(), 1.5 * 2.3), "{d:?}");
}

#[test]
fn p_at_least_one_agrees_with_a_seeded_sample_and_rejects_the_per_placement_chance() {
    let b = bestiary(WOODS);
    let ogre = b.species_by_key("ogre").unwrap();
    let exact = distribution(Counted::Species(ogre)).at_least(1);
    let n = 20_000u64;
    let hits = (0..n)
        .filter(|&i| {
            let mut rng = sample_stream(7, 1, i);
            let counts = floor_counts(&b, 1, &UniqueLedger::new(), &Context::new(), &mut rng);
            counts.unwrap()[ogre.index()] > 0
        })
        .count() as f64;
    // Within 4 standard deviations of the binomial count.
    let within = |p: f64| (hits - n as f64 * p).abs() <= 4.0 * (n as f64 * p * (1.0 - p)).sqrt();
    assert!(within(exact), "{hits} floors of {n} against {exact}");
    // The wrong rule: one placement's chance taken for the floor's.
    assert!(!within(0.2), "{hits} floors of {n} also fit 1/5");
}

#[test]
fn an_explanation_names_each_path_and_its_share_summing_to_the_total() {
    let b = bestiary(WOODS);
    let cub = b.species_by_key("cub").unwrap();
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let e = explain(&b, 1, &Regions::default(), &ledger, &context, cub)
        .unwrap()
        .unwrap();
    // A pack's pups: 1.5 placements x 1/5 x 1.5 pups; the nursery's: 1.5 x 1/5 x 1/2.
    assert_eq!(e.paths.len(), 2, "{e:?}");
    assert!(
        close(e.paths[0].1, 0.45) && close(e.paths[1].1, 0.15),
        "{e:?}"
    );
    assert!(close(e.total, 0.6), "{e:?}");
    assert!(matches!(e.paths[0].0.came, Came::Follower { kind: 0, .. }));
    assert_eq!(
        e.paths[0].0.describe(&b),
        "t.ron: tables[0] `floor`: rows[2] > follower `pup` of `pack`"
    );
    assert_eq!(
        e.paths[1].0.describe(&b),
        "t.ron: tables[0] `floor`: rows[3] > t.ron: tables[1] `nursery`: rows[0] > drawn"
    );
}

#[test]
fn a_floor_with_regions_is_explained_draw_by_draw() {
    let b = bestiary(crate::regions::LAIRS);
    let regions = crate::regions::two_lairs();
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let odds = region_odds(&b, 3, &regions, &ledger, &context).unwrap();
    for s in b.species_ids() {
        let e = explain(&b, 3, &regions, &ledger, &context, s)
            .unwrap()
            .unwrap();
        let want = odds.floor.expected[s.index()];
        assert!(
            (e.total - want).abs() < 1e-12,
            "{}: {e:?}",
            b.species_of(s).key
        );
        let summed: f64 = e.paths.iter().map(|p| p.1).sum();
        assert!((summed - want).abs() < 1e-12);
    }
    let queen = b.species_by_key("queen").unwrap();
    let e = explain(&b, 3, &regions, &ledger, &context, queen)
        .unwrap()
        .unwrap();
    let lairs: Vec<_> = e.paths.iter().map(|p| p.0.region.clone()).collect();
    assert_eq!(
        lairs,
        [Some("lair-a".to_owned()), Some("lair-b".to_owned())]
    );
}

/// One placement a floor at depth 1, out of depth (one deeper) with 1/2: a band (its
/// chief or boss drawn from a creature table, a guard following, drawn from a creature
/// table of its own) comes at either depth, a wolf with its litter's pup only at depth 2.
const CAMP: &str = r#"(
    species: [
        (key: "chief", name: "chief", glyph: 'C', level: 1, hit_points: "1d1"),
        (key: "boss", name: "boss", glyph: 'B', level: 1, hit_points: "1d1"),
        (key: "guard", name: "guard", glyph: 'g', level: 1, hit_points: "1d1"),
        (key: "wolf", name: "wolf", glyph: 'w', level: 1, hit_points: "1d1", escort: Some("litter")),
        (key: "pup", name: "pup", glyph: 'p', level: 1, hit_points: "1d1"),
    ],
    groups: [
        (key: "band", leader: Some(Table("chiefs")), followers: [(member: Table("guards"), count: "1d1", role: "guard")], radius: 2),
        (key: "litter", followers: [(member: Species("pup"), count: "1d1", role: "pup")], radius: 2),
    ],
    tables: [
        (key: "floor", rows: [(what: Group("band"), depth: (1, 5)), (what: Species("wolf"), depth: (2, 5))]),
        (key: "chiefs", rows: [(what: Species("chief"), depth: (1, 5)), (what: Species("boss"), depth: (1, 5))]),
        (key: "guards", rows: [(what: Species("guard"), depth: (1, 5))]),
    ],
    floor: Some((table: "floor", depths: (1, 4), count: (dice: "1d1"),
        out_of_depth: Some((chance: "1/2", divisor: 1000, bonus: 1, cap: 1, fairness: 1)))),
)"#;

/// Each path of `key` on a camp floor at depth 1, described, with its share.
fn camp_paths(key: &str) -> Vec<(String, f64)> {
    let b = bestiary(CAMP);
    let s = b.species_by_key(key).unwrap();
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let e = explain(&b, 1, &Regions::default(), &ledger, &context, s)
        .unwrap()
        .unwrap();
    e.paths
        .iter()
        .map(|(p, share)| (p.describe(&b), *share))
        .collect()
}

#[test]
fn followers_leaders_and_out_of_depth_draws_have_paths_worked_by_hand() {
    let floor = |row: u32| format!("t.ron: tables[0] `floor`: rows[{row}]");
    let deep = " > out of depth";
    // A band comes with 1/2 at depth 1 and 1/4 at depth 2 (half the deep draws); its
    // guard follows it by the floor's row and its own table's, whichever leader the
    // chiefs' table drew.
    let guard = format!(
        "{} > t.ron: tables[2] `guards`: rows[0] > follower `guard` of `band`",
        floor(0)
    );
    assert_eq!(
        camp_paths("guard"),
        [(guard.clone(), 0.5), (format!("{guard}{deep}"), 0.25)]
    );
    // The chief is the chiefs' table's first row, half the bands.
    let chief = format!(
        "{} > t.ron: tables[1] `chiefs`: rows[0] > leader of group `band`",
        floor(0)
    );
    assert_eq!(
        camp_paths("chief"),
        [(chief.clone(), 0.25), (format!("{chief}{deep}"), 0.125)]
    );
    // The wolf, eligible only deeper, comes only out of depth, its pup as its escort.
    assert_eq!(
        camp_paths("wolf"),
        [(format!("{} > drawn{deep}", floor(1)), 0.25)]
    );
    assert_eq!(
        camp_paths("pup"),
        [(
            format!("{} > follower `pup` of `litter`{deep}", floor(1)),
            0.25
        )]
    );
}

/// A budgeted floor's figures come out to the last bit the same in every run: its walk's
/// outcomes are joined in an order of their own, not a hash map's (each of which orders
/// its keys its own way).
#[test]
fn a_budgeted_floors_figures_are_the_same_to_the_last_bit() {
    let b = denizen_tables::starter().unwrap();
    let b = b.in_branch(b.branch_by_key("foundry_deeps"));
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let bits = |depth| {
        let o = denizen_tables::floor_odds(&b, depth, &ledger, &context, None).unwrap();
        let expected = o.odds.expected.iter().map(|e| e.to_bits());
        let danger = o.danger.iter().map(|d| d.1.to_bits());
        expected.chain(danger).collect::<Vec<u64>>()
    };
    for depth in 14..=20 {
        assert_eq!(bits(depth), bits(depth), "depth {depth}");
    }
}

#[test]
fn a_budgeted_floors_danger_distribution_is_its_floor_odds_danger() {
    // The starter's foundry deeps are budgeted: the distribution follows the danger in its
    // own field beside the budget's, and must agree with the budget walk's own figure.
    let b = denizen_tables::starter().unwrap();
    let b = b.in_branch(b.branch_by_key("foundry_deeps"));
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    for depth in [14, 17, 20] {
        let odds = denizen_tables::floor_odds(&b, depth, &ledger, &context, None).unwrap();
        let d = floor_distribution(
            &b,
            depth,
            &Regions::default(),
            &ledger,
            &context,
            &Counted::Danger,
        )
        .unwrap();
        assert!(!d.sampled && odds.odds.standard_errors.is_none());
        assert_eq!(d.chances.len(), odds.danger.len());
        for ((k, p), (j, q)) in d.chances.iter().zip(&odds.danger) {
            assert!(
                k == j && (p - q).abs() < 1e-12,
                "depth {depth}: {k} {p} against {j} {q}"
            );
        }
    }
}

#[test]
fn past_the_exact_limits_a_distribution_is_sampled() {
    // Thirteen uniques, one a floor: past the twelve tracked, so sampled; every floor
    // still has exactly one.
    let b = crate::thirteen_uniques("1d1");
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let d = floor_distribution(
        &b,
        1,
        &Regions::default(),
        &ledger,
        &context,
        &Counted::Uniques,
    )
    .unwrap();
    assert!(d.sampled);
    assert_eq!(d.chances, [(1, 1.0)]);
    let u0 = b.species_by_key("u0").unwrap();
    assert!(
        explain(&b, 1, &Regions::default(), &ledger, &context, u0)
            .unwrap()
            .is_none()
    );
}

/// Twelve tables, each of eight rows naming the next: 8^12 ways to the one species `y`.
/// The odds remember each table's walk and are exact; an explanation of `x` (which never
/// comes, so no path is ever counted) remembers nothing, stops at its bound of steps and
/// gives none.
#[test]
fn an_explanation_past_its_bound_of_steps_stops_and_gives_none() {
    let table = |i: usize| {
        let what = match i {
            11 => "Species(\"y\")".to_owned(),
            _ => format!("Table(\"t{}\")", i + 1),
        };
        let rows: String = (0..8)
            .map(|_| format!("(what: {what}, depth: (1, 5)),"))
            .collect();
        format!("(key: \"t{i}\", rows: [{rows}]),")
    };
    let tables: String = (0..12).map(table).collect();
    let b = bestiary(&format!(
        "(species: [(key: \"x\", name: \"x\", glyph: 'x', level: 1, hit_points: \"1d1\"), (key: \"y\", name: \"y\", glyph: 'y', level: 1, hit_points: \"1d1\")], tables: [{tables}], floor: Some((table: \"t0\", depths: (1, 5), count: (dice: \"1d1\"))))"
    ));
    let (ledger, context) = (UniqueLedger::new(), Context::new());
    let odds = denizen_tables::odds(&b, 1, &ledger, &context, denizen_tables::Per::Floor).unwrap();
    assert_eq!(
        (odds.expected, odds.standard_errors),
        (vec![0.0, 1.0], None)
    );
    let x = b.species_by_key("x").unwrap();
    let started = std::time::Instant::now();
    assert!(
        explain(&b, 1, &Regions::default(), &ledger, &context, x)
            .unwrap()
            .is_none()
    );
    // Not a timed test of speed: a walk that did not stop would take days, not minutes.
    assert!(started.elapsed().as_secs() < 300);
}
