//! Generating the encounter groups of one 64 x 32 base floor (rules core, no ECS).
//!
//! `cargo bench --bench encounters`. The floor is the reference base floor of each map;
//! every iteration runs the whole stage (300 attempts) from a fresh cursor.

use std::hint::black_box;

use denizen::captive::{BaseEncounters, EncounterSettings, EncounterTable, reference_base};
use denizen::prelude::{StreamPurpose, WorldSeed};
use divan::Bencher;

fn main() {
    divan::main();
}

#[divan::bench(args = [0, 5, 37, 120])]
fn one_base_floor(bencher: Bencher, map: u32) {
    let table = EncounterTable::shipped();
    let grid = reference_base(WorldSeed(1), map);
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("bench"));
    bencher.bench_local(|| {
        let plan = BaseEncounters::new(&table, EncounterSettings::default(), map, 3)
            .place(&mut rng, &grid);
        black_box(plan.groups.len())
    });
}
