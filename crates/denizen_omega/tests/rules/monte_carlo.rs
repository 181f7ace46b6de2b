//! Seeded sampling against the exact odds: chi-squared checks with fixed seeds.

use denizen_core::ChiSquared;
use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::*;

use crate::{level, omega};

/// Draws `n` placements from a level and returns counts per species.
fn sample(level: &Level, seed: u64, n: u64) -> Vec<u64> {
    let mut rng =
        WorldSeed(seed).stream(StreamPurpose::new("monte-carlo").with(level.depth.into()));
    let mut counts = vec![0u64; Odds::of(&level.selector).by_species().len()];
    for _ in 0..n {
        counts[level.selector.sample(&mut rng).index()] += 1;
    }
    counts
}

/// The p-value of observed counts against probabilities (scaled to the total observed).
fn p_of(counts: &[u64], probabilities: impl Iterator<Item = f64>) -> f64 {
    ChiSquared::against(counts, probabilities).p_value()
}

/// The p-value of observed counts against a level's exact odds.
fn p_value(counts: &[u64], odds: &Odds) -> f64 {
    p_of(counts, odds.by_species().iter().copied())
}

/// The p-value of `n` sampled counts of a population rule against its distribution.
fn population_p(rule: PopulationRule, seed: u64, n: u32) -> f64 {
    let dist = rule.distribution();
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("population"));
    let mut counts = vec![0u64; dist.len()];
    for _ in 0..n {
        let count = rule.sample(&mut rng);
        let at = dist.iter().position(|&(c, _)| c == count);
        counts[at.expect("a listed count")] += 1;
    }
    p_of(&counts, dist.iter().map(|&(_, p)| p))
}

/// Bound on the p-value: a correct rule falls below it once in a million seeds, while a
/// wrong branch weight of a few percent at this sample size lands far below it.
const P_FLOOR: f64 = 1e-6;
const PLACEMENTS: u64 = 200_000;

#[test]
fn sampler_matches_exact_odds_in_every_dungeon() {
    let rules = omega();
    let cases = [
        ("goblin-caves", [1, 6, 10]),
        ("sewers", [1, 9, 18]),
        ("castle", [1, 8, 16]),
        ("astral", [1, 3, 5]),
        ("volcano", [1, 12, 20]),
    ];
    for (seed, (key, depths)) in cases.into_iter().enumerate() {
        for depth in depths {
            let l = level(&rules, key, depth);
            let counts = sample(l, 1000 + seed as u64, PLACEMENTS);
            let p = p_value(&counts, &Odds::of(&l.selector));
            assert!(p > P_FLOOR, "{key} depth {depth}: p = {p}");
        }
    }
}

#[test]
fn the_check_rejects_a_wrong_rule() {
    // Samples of one depth judged against another depth's odds must fail: the test above
    // can tell a wrong rule from a right one.
    let rules = omega();
    let pairs = [
        ("goblin-caves", 5, 6),
        ("sewers", 2, 3),
        ("castle", 3, 4),
        ("astral", 1, 2),
        ("volcano", 1, 2),
    ];
    for (key, sampled, judged) in pairs {
        let counts = sample(level(&rules, key, sampled), 7, PLACEMENTS);
        let p = p_value(&counts, &Odds::of(&level(&rules, key, judged).selector));
        assert!(p < P_FLOOR, "{key} {sampled} vs {judged}: p = {p}");
    }
}

#[test]
fn population_counts_match_their_distribution() {
    let rules = omega();
    let p = population_p(level(&rules, "volcano", 18).population, 5, 60_000);
    assert!(p > P_FLOOR, "p = {p}");
}

#[test]
fn omegas_range_helper_matches_its_bucket_weights() {
    let mut rng = WorldSeed(11).stream(StreamPurpose::new("range"));
    for k in [3u32, 12, 132] {
        let mut counts = vec![0u64; k as usize];
        let n = 100_000;
        for _ in 0..n {
            counts[denizen_omega::rng::range(&mut rng, k) as usize] += 1;
        }
        let weights = (0..k).map(|v| f64::from(denizen_omega::rng::bucket_weight(v, k)) / 10_000.0);
        let p = p_of(&counts, weights);
        assert!(p > P_FLOOR, "k = {k}: p = {p}");
    }
}

#[test]
fn countryside_terrains_match_their_exact_odds_and_sizes() {
    let rules = omega();
    for (seed, terrain) in ["plains", "river", "swamp", "mountains", "road"]
        .iter()
        .enumerate()
    {
        let key = format!("countryside:{terrain}");
        let l = level(&rules, &key, 0);
        let counts = sample(l, 3000 + seed as u64, PLACEMENTS);
        let p = p_value(&counts, &Odds::of(&l.selector));
        assert!(p > P_FLOOR, "{key}: p = {p}");
    }
    // Encounter sizes: the product (R(5)+1)(R(3)+1) against its exact distribution.
    let p = population_p(
        level(&rules, "countryside:desert", 0).population,
        17,
        60_000,
    );
    assert!(p > P_FLOOR, "sizes: p = {p}");
}

/// Random possessions drawn by `create_object` with uniques put back, against their exact
/// odds at item levels 0, 3, 7 and 11; and the same samples judged against another level's
/// odds (a level apart), which the check must reject.
#[test]
fn possessions_match_their_exact_odds() {
    use denizen_omega::objects::ItemLedger;
    let rules = omega();
    let items = rules.bestiary.items();
    let table = rules.bestiary.object_table();
    for (seed, (level, other)) in [(0, 1), (3, 4), (7, 8), (11, 10)].into_iter().enumerate() {
        let mut ledger = ItemLedger::new(items);
        let mut rng = WorldSeed(500 + seed as u64).stream(StreamPurpose::new("possessions"));
        let mut counts = vec![0u64; items.len()];
        for object in table.possessions(&mut rng, items, &mut ledger, level, PLACEMENTS as u32) {
            counts[object.item.index()] += 1;
        }
        assert_eq!(
            counts.iter().sum::<u64>(),
            PLACEMENTS,
            "every draw makes an object"
        );
        assert_eq!(ledger, ItemLedger::new(items), "uniques are put back");
        let exact = table.possession_odds(items, &ledger, level);
        let p = p_of(&counts, exact.iter().copied());
        assert!(p > P_FLOOR, "level {level}: p = {p}");
        let wrong = table.possession_odds(items, &ledger, other);
        let wrong = p_of(&counts, wrong.iter().copied());
        assert!(
            wrong < P_FLOOR,
            "level {level} judged as {other}: p = {wrong}"
        );
    }
}
