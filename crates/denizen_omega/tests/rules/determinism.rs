//! Same seed, same monsters: golden values pin the generator and the rules together.

use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::*;
use proptest::prelude::*;

use crate::{level, omega};

fn first_placements(seed: u64, key: &str, depth: u32, n: usize) -> Vec<u16> {
    let rules = omega();
    let l = level(&rules, key, depth);
    let mut rng =
        WorldSeed(seed).stream(StreamPurpose::new("floor").with_str(key).with(depth.into()));
    (0..n).map(|_| l.selector.sample(&mut rng).0).collect()
}

#[test]
fn same_seed_same_species_other_seed_differs() {
    let a = first_placements(2026, "volcano", 7, 64);
    assert_eq!(a, first_placements(2026, "volcano", 7, 64));
    assert_ne!(a, first_placements(2027, "volcano", 7, 64));
}

#[test]
fn golden_values_do_not_drift() {
    // Recorded from this implementation: a change here means saved seeds no longer give
    // the same floors (a new rand release, a changed stream derivation or rule order).
    assert_eq!(first_placements(42, "goblin-caves", 3, 12), GOLDEN_CAVES_3);
    assert_eq!(first_placements(42, "astral", 5, 12), GOLDEN_ASTRAL_5);
}

const GOLDEN_CAVES_3: [u16; 12] = [21, 15, 40, 40, 40, 37, 40, 40, 15, 14, 2, 40];
const GOLDEN_ASTRAL_5: [u16; 12] = [71, 89, 109, 105, 59, 114, 59, 101, 109, 87, 109, 115];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever the seed and depth, a sampled species is one the exact odds allow.
    #[test]
    fn samples_are_always_possible(seed in any::<u64>(), depth in 1u32..=20) {
        let rules = omega();
        for env in rules.locations.dungeons() {
            let l = env.level(depth.min(*env.depths().end())).unwrap();
            let odds = Odds::of(&l.selector);
            let mut rng = WorldSeed(seed).stream(StreamPurpose::new("prop"));
            for _ in 0..50 {
                let s = l.selector.sample(&mut rng);
                prop_assert!(odds.species(s) > 0.0, "{} {} {:?}", env.key, l.depth, s);
            }
        }
    }
}
