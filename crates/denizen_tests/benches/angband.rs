//! Angband 2.7.9 (rules core, no ECS): allocator draws from the weighted table against the
//! original's rejection loop, and whole levels (layout and base population, then with
//! their objects).
//!
//! `cargo bench --features angband --bench angband`. Each allocator iteration makes 1,000
//! draws from one seeded stream with no unique alive; each level iteration builds and
//! populates one level, carrying the live uniques from level to level as a game would
//! (they are cleared when half the uniques are alive, so deep levels keep drawing). The
//! greater-vault levels force one greater vault; the autoscummed level is one kept by
//! the "always" setting at depth 40.

use std::hint::black_box;

use denizen::angband::alloc::{Allocator, DrawRequest, UniqueLedger, draw_by_rejection};
use denizen::angband::layout::{ObjectSpot, RoomChoice, shipped_vaults};
use denizen::angband::request::{Judge, Stock, keep_classic_level};
use denizen::angband::{ArtifactLedger, Autoscum, Level, LevelOptions, ObjectRules, Races};
use denizen::prelude::{StreamPurpose, WorldSeed};
use denizen::rng::Generator;
use divan::Bencher;

fn main() {
    divan::main();
}

const DRAWS: usize = 1_000;

/// Times `DRAWS` draws at `level` with one of the two ways of drawing.
fn draws(
    bencher: Bencher,
    level: i32,
    mut draw: impl FnMut(&mut Allocator, &mut Generator, &DrawRequest<'_>),
) {
    let mut allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("bench"));
    let request = DrawRequest::new(level, level, &live);
    bencher
        .counter(divan::counter::ItemsCount::new(DRAWS))
        .bench_local(|| {
            for _ in 0..DRAWS {
                draw(&mut allocator, &mut rng, &request);
            }
        });
}

#[divan::bench(args = [1, 10, 40, 100])]
fn draws_weighted_table(bencher: Bencher, level: i32) {
    draws(bencher, level, |allocator, rng, request| {
        black_box(allocator.draw(rng, request));
    });
}

#[divan::bench(args = [1, 10, 40, 100])]
fn draws_rejection_loop(bencher: Bencher, level: i32) {
    draws(bencher, level, |allocator, rng, request| {
        black_box(draw_by_rejection(allocator, rng, request));
    });
}

/// A level's layout and monsters, without its objects.
#[divan::bench(args = [1, 5, 10, 30, 40, 80, 100])]
fn whole_level(bencher: Bencher, depth: i32) {
    level_bench(bencher, depth, false);
}

/// The same with its objects and gold made (`Level::furnish`), every artifact unmade
/// for each level: the level as 2.7.9 makes it.
#[divan::bench(args = [5, 30, 80])]
fn furnished_level(bencher: Bencher, depth: i32) {
    level_bench(bencher, depth, true);
}

fn level_bench(bencher: Bencher, depth: i32, furnished: bool) {
    let allocator = Allocator::new(Races::shipped());
    let objects = ObjectRules::shipped();
    let mut live = UniqueLedger::new();
    let options = LevelOptions::default();
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("bench"));
    bencher.bench_local(|| {
        if live.len() > 45 {
            live = UniqueLedger::new();
        }
        let mut level = Level::build(&mut rng, depth, &options, &allocator, &mut live);
        if furnished {
            level.furnish(&mut rng, &objects, &mut ArtifactLedger::new());
        }
        black_box((level.monsters.len(), level.objects.len()))
    });
}

#[divan::bench(args = [20, 40, 80])]
fn greater_vault_level(bencher: Bencher, depth: i32) {
    let allocator = Allocator::new(Races::shipped());
    let mut live = UniqueLedger::new();
    let mut options = LevelOptions::default();
    options.layout.force_room = Some(RoomChoice::GreaterVault);
    let mut rng = WorldSeed(2).stream(StreamPurpose::new("bench"));
    bencher.bench_local(|| {
        if live.len() > 45 {
            live = UniqueLedger::new();
        }
        let level = Level::build(&mut rng, depth, &options, &allocator, &mut live);
        black_box(level.monsters.len())
    });
}

/// One level kept by the "always" autoscummer at depth 40, its objects made and judged
/// with the rest (every artifact unmade for each level). Before timing, prints the mean
/// number of levels thrown away per level kept, over 200 kept levels.
#[divan::bench]
fn autoscummed_level_at_40(bencher: Bencher) {
    let mut allocator = Allocator::new(Races::shipped());
    let mut objects = ObjectRules::shipped();
    let options = LevelOptions::default();
    let mut rng = WorldSeed(3).stream(StreamPurpose::new("bench"));
    let live = UniqueLedger::new();
    let mut keep = |rng: &mut Generator| {
        let mut judge = Judge {
            autoscum: Autoscum::Always,
            preserve: false,
            turns_since_last: None,
            appraise: |_: &ObjectSpot| None,
        };
        let stock = Stock {
            allocator: &mut allocator,
            uniques: &live,
            objects: &mut objects,
            artifacts: &mut ArtifactLedger::new(),
        };
        let kept = keep_classic_level(rng, 40, &options, shipped_vaults(), stock, &mut judge);
        (kept.level.monsters.len(), kept.rejected)
    };
    let rejected: u32 = (0..200).map(|_| keep(&mut rng).1).sum();
    eprintln!(
        "autoscum always at depth 40: {:.2} levels thrown away per level kept",
        f64::from(rejected) / 200.0
    );
    bencher.bench_local(|| black_box(keep(&mut rng)));
}
