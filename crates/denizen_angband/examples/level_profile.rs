//! Builds whole levels with their objects, one after another, for a profiler to look
//! into: `cargo run --release -p denizen_angband --example level_profile -- <depth>
//! <levels>` (30 and 1,000 unless given). The levels are made as the `furnished_level`
//! benchmark makes them (the live uniques carried from level to level, every artifact
//! unmade for each level). It prints the mean time per level and the mean number of
//! generator words each level draws. docs/BENCHMARKS.md shows how to read where the time
//! goes with callgrind.

use std::process::ExitCode;
use std::time::Instant;

use denizen_angband::{
    Allocator, ArtifactLedger, Level, LevelOptions, ObjectRules, Races, UniqueLedger,
};
use denizen_core::output::{fail, finish};
use denizen_core::{StreamPurpose, WorldSeed};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u32, what: &str| match args.next() {
        None => Ok(default),
        Some(text) => text
            .parse()
            .map_err(|_| format!("{what} must be a whole number, not {text:?}")),
    };
    let (depth, levels) = match (
        number(30, "the depth"),
        number(1_000, "the number of levels"),
    ) {
        (Ok(depth), Ok(levels)) => (depth.clamp(1, 127) as i32, levels.max(1)),
        (Err(e), _) | (_, Err(e)) => return fail("level_profile", &e),
    };

    let allocator = Allocator::new(Races::shipped());
    let objects = ObjectRules::shipped();
    let mut live = UniqueLedger::new();
    let options = LevelOptions::default();
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("bench"));
    let words_before = rng.get_word_pos();
    let start = Instant::now();
    for _ in 0..levels {
        if live.len() > 45 {
            live = UniqueLedger::new();
        }
        let mut level = Level::build(&mut rng, depth, &options, &allocator, &mut live);
        level.furnish(&mut rng, &objects, &mut ArtifactLedger::new());
        std::hint::black_box(&level);
    }
    let elapsed = start.elapsed();
    let words = rng.get_word_pos() - words_before;
    finish("level_profile", |out| {
        writeln!(
            out,
            "depth {depth}: {levels} levels, {:.1} µs and {:.0} words per level",
            elapsed.as_secs_f64() * 1e6 / f64::from(levels),
            words as f64 / f64::from(levels)
        )
    })
}
