//! The spec's and the source notes' own numbers, computed exactly from the shipped data.

use denizen_omega::select::PoolKind;
use denizen_omega::*;

use crate::{assert_close, id, level, omega};

#[test]
fn ordinary_pool_sizes_match_the_spec() {
    let rules = omega();
    let sizes: Vec<usize> = (0..=10).map(|d| rules.bestiary.pool_size(d)).collect();
    assert_eq!(sizes, [8, 30, 44, 58, 76, 90, 103, 117, 129, 137, 137]);
    assert_eq!(rules.bestiary.pool_size(25), 137);
}

#[test]
fn ordinary_pool_weights_are_bucket_counts_renormalised() {
    let rules = omega();
    let pool = Odds::of(&Selector::ordinary_pool(&rules.bestiary, 0).unwrap());
    // R(9): value 0 takes buckets 0..=1111 (1112 of them), every other value 1111. The
    // reserved Hiscore NPC (8) drops 1111, leaving the denominator of 8889 the source notes
    // give. (The notes' list of five templates at 1112 cannot sum to that denominator; the
    // bucket model gives 1112 to template 0 alone.)
    assert_close(pool.species(SpeciesId(0)), 1112.0 / 8889.0);
    for i in 1..8 {
        assert_close(pool.species(SpeciesId(i)), 1111.0 / 8889.0);
    }
    assert_eq!(pool.species(SpeciesId(8)), 0.0, "Hiscore NPC is reserved");
    assert_eq!(pool.nonzero().count(), 8);
}

#[test]
fn difficulty_per_depth_matches_the_source_notes() {
    let rules = omega();
    let by_depth = |key: &str| -> Vec<i64> {
        let env = rules.locations.get(key).unwrap();
        env.levels().iter().map(|l| l.difficulty).collect()
    };
    assert_eq!(by_depth("goblin-caves"), [1, 1, 2, 2, 2, 3, 3, 3, 4, 4]);
    let mut sewers = vec![3; 5];
    sewers.extend([4; 6]);
    sewers.extend([5; 6]);
    sewers.push(6);
    assert_eq!(by_depth("sewers"), sewers);
    let castle: Vec<i64> = (1..=16).map(|d| d / 4 + 4).collect();
    assert_eq!(by_depth("castle"), castle);
    assert_eq!(by_depth("castle")[15], 8);
    assert_eq!(by_depth("astral"), [8; 5]);
    let volcano = by_depth("volcano");
    assert_eq!(&volcano[..3], &[5, 5, 5]);
    assert_eq!(volcano[19], 10);
    let depths: Vec<u32> = rules
        .locations
        .dungeons()
        .map(|e| *e.depths().end())
        .collect();
    assert_eq!(depths, [10, 18, 16, 5, 20]);
    let fixed = |key: &str| rules.locations.get(key).unwrap().levels()[0].difficulty;
    assert_eq!(
        [
            "countryside",
            "city",
            "village",
            "arena",
            "temple",
            "star-peak",
            "abyss",
            "court"
        ]
        .map(fixed),
        [7, 3, 1, 5, 8, 9, 10, 3]
    );
    assert_eq!(rules.locations.default_difficulty(), 3);
    // Every environment the difficulty table names, the five dungeons and the countryside
    // terrains are listed, in file order.
    let keys: Vec<&str> = rules
        .locations
        .environments()
        .iter()
        .map(|e| e.key.as_str())
        .collect();
    for key in [
        "goblin-caves",
        "sewers",
        "castle",
        "astral",
        "volcano",
        "countryside",
        "city",
        "village",
        "arena",
        "temple",
        "star-peak",
        "abyss",
        "court",
        "countryside:plains",
        "countryside:road",
    ] {
        assert!(keys.contains(&key), "{key} in {keys:?}");
    }
}

fn branch(odds: &Odds, wanted: Branch) -> f64 {
    odds.branches()
        .iter()
        .find(|(b, _)| *b == wanted)
        .map_or(0.0, |(_, p)| *p)
}

#[test]
fn goblin_caves_depth_one_branches() {
    let rules = omega();
    let odds = Odds::of(&level(&rules, "goblin-caves", 1).selector);
    let species = |key| Branch::Species(id(&rules, key));
    assert_eq!(branch(&odds, species("goblin_shaman")), 0.0);
    assert_close(branch(&odds, species("goblin_chieftain")), 0.09);
    assert_close(branch(&odds, species("goblin")), 0.4459);
    assert_close(
        branch(&odds, Branch::Pool(PoolKind::Ordinary { difficulty: 1 })),
        0.4641,
    );
    // The pool adds goblin weight: 0.461391 in the source notes.
    assert!((odds.species(id(&rules, "goblin")) - 0.461391).abs() < 5e-7);
    let total: f64 = odds.by_species().iter().sum();
    assert_close(total, 1.0);
}

#[test]
fn goblin_caves_shaman_and_chieftain_follow_s_and_c() {
    let rules = omega();
    for depth in 1..=10 {
        let odds = Odds::of(&level(&rules, "goblin-caves", depth).selector);
        let d = f64::from(depth);
        let s = (10.0 * d - 51.0).clamp(0.0, 100.0) / 100.0;
        let c = (10.0 * d - 1.0).clamp(0.0, 100.0) / 100.0;
        let species = |key| Branch::Species(id(&rules, key));
        assert_close(branch(&odds, species("goblin_shaman")), s);
        assert_close(branch(&odds, species("goblin_chieftain")), (1.0 - s) * c);
        assert_close(
            branch(&odds, species("goblin")),
            (1.0 - s) * (1.0 - c) * 0.49,
        );
    }
}

#[test]
fn goblin_caves_always_place_eleven() {
    let rules = omega();
    for depth in 1..=10 {
        let population = level(&rules, "goblin-caves", depth).population;
        assert_eq!(population.distribution(), [(11, 1.0)], "depth {depth}");
    }
}

#[test]
fn population_counts_match_the_source_notes() {
    let rules = omega();
    let counts = |key, depth| level(&rules, key, depth).population.distribution();
    assert_eq!(counts("sewers", 17), [(11, 1.0)]);
    assert_eq!(counts("sewers", 18), [(11, 0.5), (14, 0.5)]);
    assert_eq!(counts("castle", 7), [(21, 1.0)]);
    assert_eq!(counts("castle", 8), [(21, 0.5), (24, 0.5)]);
    assert_eq!(counts("astral", 3), [(21, 0.5), (24, 0.5)]);
    assert_eq!(counts("volcano", 3), [(31, 1.0)]);
    assert_eq!(counts("volcano", 15), [(31, 0.5), (34, 0.5)]);
    for depth in 16..=20 {
        assert_eq!(
            counts("volcano", depth),
            [(31, 0.3334), (34, 0.3333), (37, 0.3333)]
        );
    }
}

#[test]
fn sewers_first_branch_and_index_table() {
    let rules = omega();
    let odds = Odds::of(&level(&rules, "sewers", 1).selector);
    let pool = Branch::Pool(PoolKind::Ordinary { difficulty: 3 });
    assert_close(branch(&odds, pool), 0.3334);
    // Indices 0..=3 each: the remaining 0.6666 over R(4), which is exactly uniform.
    for key in ["sewer_rat", "aggravator_fungus", "blipper", "night_gaunt"] {
        assert_close(
            branch(&odds, Branch::Species(id(&rules, key))),
            0.6666 / 4.0,
        );
    }
    assert_eq!(
        branch(&odds, Branch::Species(id(&rules, "transparent_nasty"))),
        0.0
    );
    // At depth 14 the index reaches 16, past the table: extra pool weight.
    let deep = Odds::of(&level(&rules, "sewers", 14).selector);
    let pool = Branch::Pool(PoolKind::Ordinary { difficulty: 5 });
    let exact_16 = f64::from(denizen_omega::rng::bucket_weight(16, 17)) / 10000.0;
    assert_close(branch(&deep, pool), 0.3334 + 0.6666 * exact_16);
}

#[test]
fn volcano_band_branch_is_uniform_over_79_templates() {
    let rules = omega();
    for depth in [1, 10, 20] {
        let odds = Odds::of(&level(&rules, "volcano", depth).selector);
        let bands = Branch::Pool(PoolKind::Bands { from: 4, to: 9 });
        assert_close(branch(&odds, bands), 0.5);
    }
    // At depth 1 the index runs 0..=1: haunt and incubus only; every other ordinary
    // template of bands 4-9 comes from the band branch alone: exactly 1/79 of 1/2.
    let odds = Odds::of(&level(&rules, "volcano", 1).selector);
    let table = ["haunt", "incubus_succubus"].map(|k| id(&rules, k));
    let mut uniform = 0;
    for i in 60..140 {
        let s = SpeciesId(i);
        if table.contains(&s) {
            assert!(odds.species(s) > 0.5 / 79.0);
        } else if rules.bestiary.is_ordinary(s) {
            assert_close(odds.species(s), 0.5 / 79.0);
            uniform += 1;
        } else {
            assert_eq!(odds.species(s), 0.0, "Great Wyrm is reserved");
        }
    }
    assert_eq!(uniform, 77);
    assert_eq!(odds.species(SpeciesId(59)), 0.0, "below band 4");
    // Each index of 0..=D/2+1 has nominal weight 1 / (2 * (D/2 + 2)); R(2) is exact.
    for key in ["haunt", "incubus_succubus"] {
        assert_close(branch(&odds, Branch::Species(id(&rules, key))), 0.5 / 2.0);
    }
    assert_eq!(
        branch(&odds, Branch::Species(id(&rules, "dragonette"))),
        0.0
    );
    let third = Odds::of(&level(&rules, "volcano", 3).selector);
    // R(3) is uneven: index 2 has 3333 buckets.
    assert_close(
        branch(&third, Branch::Species(id(&rules, "dragonette"))),
        0.5 * 0.3333,
    );
    let deepest = Odds::of(&level(&rules, "volcano", 20).selector);
    assert!(deepest.species(id(&rules, "flame_devil")) > 0.0);
    assert_eq!(
        branch(&deepest, Branch::Species(id(&rules, "loathly_serpent"))),
        0.0,
        "index 12 is never reached"
    );
}

#[test]
fn astral_lists_and_coin_order() {
    let rules = omega();
    let odds = Odds::of(&level(&rules, "astral", 1).selector);
    let species = |key| Branch::Species(id(&rules, key));
    // R(12) is uneven: entries 0, 3, 6, 9 get 834 buckets, the others 833.
    assert_close(branch(&odds, species("thought_form")), 0.5 * 0.0834);
    assert_close(branch(&odds, species("astral_fuzzy")), 0.5 * 0.0833);
    assert_close(branch(&odds, species("earth_elemental")), 0.25);
    assert_eq!(branch(&odds, species("air_elemental")), 0.0);
    assert_close(
        branch(&odds, Branch::Pool(PoolKind::Ordinary { difficulty: 8 })),
        0.25,
    );
    let deep = Odds::of(&level(&rules, "astral", 5).selector);
    assert_close(branch(&deep, species("night_gaunt")), 417.0 / 20000.0);
    assert_close(branch(&deep, species("servant_of_law")), 833.0 / 40000.0);
    assert_eq!(branch(&deep, species("fire_elemental")), 0.0);
    for depth in 2..=4 {
        let odds = Odds::of(&level(&rules, "astral", depth).selector);
        let elemental =
            ["", "", "air_elemental", "water_elemental", "fire_elemental"][depth as usize];
        assert_close(branch(&odds, species(elemental)), 0.25);
    }
}

#[test]
fn castle_quarter_by_difficulty() {
    let rules = omega();
    let species = |key| Branch::Species(id(&rules, key));
    for (depth, key) in [
        (1, "enchanter"),
        (4, "necromancer"),
        (8, "fire_elemental"),
        (12, "fire_elemental"),
        (16, "high_thaumaturgist"),
    ] {
        let odds = Odds::of(&level(&rules, "castle", depth).selector);
        assert_close(branch(&odds, species(key)), 0.25);
    }
}

#[test]
fn every_level_sums_to_one_and_never_names_a_reserved_species_by_pool() {
    let rules = omega();
    for env in rules.locations.environments() {
        for l in env.levels() {
            let odds = Odds::of(&l.selector);
            let total: f64 = odds.by_species().iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "{} {}", env.key, l.depth);
            if env.key.starts_with("countryside:") {
                continue; // the wildcard keeps reserved templates (tested below)
            }
            for (s, _) in odds.nonzero() {
                assert!(
                    rules.bestiary.is_ordinary(s),
                    "{} {} {s:?}",
                    env.key,
                    l.depth
                );
            }
        }
    }
}

/// Buckets of 10,000 that make `R(k)` return `v`, counted from the definition.
fn buckets(v: u32, k: u32) -> f64 {
    f64::from((0..10_000u32).filter(|b| b * k / 10_000 == v).count() as u32) / 10_000.0
}

#[test]
fn countryside_terrain_odds() {
    let rules = omega();
    let odds = |key: &str| Odds::of(&level(&rules, key, 0).selector);
    let wild = |key: &str| buckets(id(&rules, key).0.into(), 132) / 10.0;
    // Plains: rabbit x2 of ten slots, plus the wildcard's R(132) share.
    let plains = odds("countryside:plains");
    assert_close(plains.species(id(&rules, "rabbit")), 0.2 + wild("rabbit"));
    assert_close(plains.species(id(&rules, "lion")), 0.1 + wild("lion"));
    // The wildcard can produce what the ordinary pool never does.
    for reserved in ["goblin_king", "great_wyrm", "hiscore_npc"] {
        assert_close(plains.species(id(&rules, reserved)), wild(reserved));
    }
    assert_eq!(
        plains.species(id(&rules, "jotun")),
        0.0,
        "band 9 is beyond the wildcard"
    );
    // Tundra: four wildcards of ten.
    let tundra = odds("countryside:tundra");
    assert_close(tundra.species(id(&rules, "bear")), 0.2 + 4.0 * wild("bear"));
    assert_close(
        tundra.species(id(&rules, "goblin_king")),
        4.0 * wild("goblin_king"),
    );
    // Passes and volcano terrain share the mountains' table.
    assert_eq!(odds("countryside:pass"), odds("countryside:mountains"));
    assert_eq!(odds("countryside:volcano"), odds("countryside:mountains"));
    // Roads: the difficulty-7 ordinary pool, 117 species.
    let road = odds("countryside:road");
    assert_eq!(road.nonzero().count(), 117);
    assert_eq!(road.species(id(&rules, "goblin_king")), 0.0);
    let all = |o: &Odds| o.by_species().iter().sum::<f64>();
    for key in [
        "countryside:river",
        "countryside:swamp",
        "countryside:desert",
        "countryside:jungle",
        "countryside:forest",
    ] {
        assert_close(all(&odds(key)), 1.0);
    }
}

#[test]
fn countryside_encounter_sizes_are_a_product() {
    let rules = omega();
    let sizes = level(&rules, "countryside:swamp", 0)
        .population
        .distribution();
    let counts: Vec<u32> = sizes.iter().map(|&(c, _)| c).collect();
    assert_eq!(counts, [1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15]);
    assert_close(sizes[0].1, 0.2 * 0.3334);
    assert_close(sizes[5].1, 0.2 * 0.3333 + 0.2 * 0.3333);
}
