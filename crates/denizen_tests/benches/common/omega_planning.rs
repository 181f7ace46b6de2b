//! Omega's planning of a floor through the rules crate, shared by the benchmarks that
//! compare against it (`plugin`, `tables`).

use std::hint::black_box;

use denizen::omega::construct::Builder;
use denizen::omega::objects::ItemLedger;
use denizen::omega::populate::{LevelPlan, LevelRequest, plan_level};
use denizen::omega::reference::reference_floor;
use denizen::omega::streams;
use denizen::prelude::*;

pub const SEED: u64 = 1;

/// Locations whose count rule always gives the floor size: caves 11, castle 21
/// (depths 1-7), volcano 31 (depths 1-3).
pub fn floor_of(monsters: usize) -> (&'static str, u32) {
    match monsters {
        11 => ("goblin-caves", 4),
        21 => ("castle", 3),
        _ => ("volcano", 2),
    }
}

/// The planning of one floor of `monsters` (11, 21 or 31) per call, on the location's
/// reference floor, each call a new generation of its stream.
pub fn planning_row(monsters: usize) -> impl FnMut() -> LevelPlan {
    let (location, depth) = floor_of(monsters);
    let rules = OmegaRules::shipped();
    let environment = rules.locations.get(location).unwrap().clone();
    let level = environment.level(depth).unwrap().clone();
    let grid = reference_floor(WorldSeed(SEED), location, depth);
    let mut ledger = ItemLedger::new(rules.bestiary.items());
    let chronicle = Chronicle::default();
    let mut generation = 0;
    move || {
        let request = LevelRequest {
            environment: &environment,
            level: &level,
            grid: &grid,
            completed: false,
            cavern_gap: false,
            blocked: &[],
        };
        let purpose = StreamPurpose::event(streams::FLOOR, location, depth, generation);
        generation += 1;
        let mut rng = WorldSeed(SEED).stream(purpose);
        let mut builder = Builder {
            bestiary: &rules.bestiary,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty: level.difficulty,
        };
        let plan = plan_level(&mut rng, None, &request, &mut builder);
        assert_eq!(plan.population.plan.spawns.len(), monsters);
        black_box(plan)
    }
}
