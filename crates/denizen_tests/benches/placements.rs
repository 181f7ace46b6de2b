//! Placements per second: the species choice of one placement, per recipe.
//!
//! `cargo bench --bench placements`. Each iteration draws 10,000 placements from one
//! seeded stream; divan reports the throughput in items (placements) per second.

use std::hint::black_box;

use denizen::prelude::*;
use divan::{Bencher, counter::ItemsCount};

fn main() {
    divan::main();
}

const BATCH: usize = 10_000;

fn run(bencher: Bencher, selector: &Selector) {
    let mut rng = WorldSeed(7).stream(StreamPurpose::new("bench"));
    bencher.counter(ItemsCount::new(BATCH)).bench_local(|| {
        let mut last = SpeciesId(0);
        for _ in 0..BATCH {
            last = selector.sample(&mut rng);
        }
        black_box(last)
    });
}

/// The ordinary pool at each difficulty band edge.
#[divan::bench(args = [0, 3, 7, 10])]
fn ordinary_pool(bencher: Bencher, difficulty: i64) {
    let rules = OmegaRules::shipped();
    let selector = Selector::ordinary_pool(&rules.bestiary, difficulty).unwrap();
    run(bencher, &selector);
}

/// Each dungeon's themed recipe at a shallow, a middle and its deepest level.
#[divan::bench(args = [
    "goblin-caves:1", "goblin-caves:5", "goblin-caves:10",
    "sewers:1", "sewers:9", "sewers:18",
    "castle:1", "castle:8", "castle:16",
    "astral:1", "astral:3", "astral:5",
    "volcano:1", "volcano:10", "volcano:20",
])]
fn themed_recipe(bencher: Bencher, at: &str) {
    let rules = OmegaRules::shipped();
    let (key, depth) = at.split_once(':').unwrap();
    let level = rules
        .locations
        .get(key)
        .unwrap()
        .level(depth.parse().unwrap())
        .unwrap();
    run(bencher, &level.selector);
}

/// A square search on a full floor (every square wall), as a wandering check makes one:
/// the cost must not grow with the floor (the free-square count is kept as squares
/// change, so nothing is copied or scanned). Sides 64, 2,000 and 8,192 (the largest
/// floor allowed).
#[divan::bench(args = [64, 2_000, 8_192])]
fn find_space_on_a_full_floor(bencher: Bencher, side: u32) {
    let grid = FloorGrid::new(side, side).expect("within the size limit");
    let mut rng = WorldSeed(7).stream(StreamPurpose::new("bench"));
    bencher.bench_local(|| black_box(denizen::omega::findspace::find_space(&grid, &mut rng)));
}
