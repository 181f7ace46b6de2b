//! Corrupted data never panics, hangs or wraps: the shipped files, mutated (a byte
//! changed, a line deleted or repeated, a number made extreme, a formula nested deep), are
//! either refused with an error that names the file and a position or an entry and field,
//! or load, and then a floor populates at the first and last depth of every environment.
//!
//! A small budget of cases runs with the suite; `DENIZEN_FUZZ_CASES=100000` runs a long
//! campaign with the same properties.

use denizen_core::DataFile;
use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::bestiary::{OMEGA_BESTIARY, OMEGA_BESTIARY_FILE};
use denizen_omega::construct::CHAMPION;
use denizen_omega::location::{OMEGA_LOCATIONS, OMEGA_LOCATIONS_FILE};
use denizen_omega::variants::{OMEGA_VARIANTS, OMEGA_VARIANTS_FILE};
use denizen_omega::*;
use denizen_testing::corrupt::{assert_clear, fuzz_cases, mutate, mutation};
use proptest::prelude::*;

use crate::golden::floor_text;

/// Populates a floor at the first and the last depth of every environment (the way the
/// golden floors are made: fixed inhabitants, then the population).
fn populate_everywhere(rules: &OmegaRules) {
    for environment in rules.locations.environments() {
        for depth in [*environment.depths().start(), *environment.depths().end()] {
            let text = floor_text(rules, &environment.key, depth, 1);
            assert!(text.starts_with('#'), "{text}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

    /// A corrupted bestiary is refused clearly, or loads and populates every level of
    /// the shipped locations (when they still fit it) with the shipped variants.
    #[test]
    fn corrupted_bestiaries(mutations in prop::collection::vec(mutation(), 1..4)) {
        let text = mutate(OMEGA_BESTIARY, &mutations);
        match Bestiary::from_file(DataFile::new(OMEGA_BESTIARY_FILE, &text)) {
            Err(error) => assert_clear(&error, OMEGA_BESTIARY_FILE),
            Ok(bestiary) => {
                let locations = Locations::from_file(DataFile::new(OMEGA_LOCATIONS_FILE, OMEGA_LOCATIONS), &bestiary);
                let variants = Variants::from_file(DataFile::new(OMEGA_VARIANTS_FILE, OMEGA_VARIANTS), &bestiary);
                if let (Ok(locations), Ok(variants)) = (locations, variants) {
                    let rules = OmegaRules { bestiary, locations, variants: Some(variants) };
                    populate_everywhere(&rules);
                }
            }
        }
    }

    /// A corrupted locations file is refused clearly, or loads and populates a floor at
    /// the first and last depth of every environment.
    #[test]
    fn corrupted_locations(mutations in prop::collection::vec(mutation(), 1..4)) {
        let bestiary = Bestiary::shipped();
        let text = mutate(OMEGA_LOCATIONS, &mutations);
        match Locations::from_file(DataFile::new(OMEGA_LOCATIONS_FILE, &text), &bestiary) {
            Err(error) => assert_clear(&error, OMEGA_LOCATIONS_FILE),
            Ok(locations) => populate_everywhere(&OmegaRules { bestiary, locations, variants: None }),
        }
    }

    /// Corrupted variants are refused clearly, or make every arena opponent and every
    /// were-form.
    #[test]
    fn corrupted_variants(mutations in prop::collection::vec(mutation(), 1..4)) {
        let bestiary = Bestiary::shipped();
        let text = mutate(OMEGA_VARIANTS, &mutations);
        match Variants::from_file(DataFile::new(OMEGA_VARIANTS_FILE, &text), &bestiary) {
            Err(error) => assert_clear(&error, OMEGA_VARIANTS_FILE),
            Ok(variants) => {
                let mut rng = WorldSeed(2).stream(StreamPurpose::new("fuzz"));
                for counter in 0..40 {
                    let mut monster = variants.arena_opponent(&mut rng, &bestiary, counter, counter % 6, &Chronicle::new_game().holder(CHAMPION));
                    variants.change_form(&mut rng, &bestiary, &mut monster);
                }
            }
        }
    }
}
