//! Populating a floor through the plugin against spawning the same number of prepared
//! bundles, per floor size.
//!
//! `cargo bench --bench plugin`. Both sides despawn the previous floor's monsters inside
//! the timed iteration, so each iteration is "replace a floor's monsters".

use std::hint::black_box;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::prelude::*;
use denizen::bevy::{DenizenPlugin, Disposition};
use denizen::prelude::WorldSeed;
use divan::Bencher;

fn main() {
    divan::main();
}

/// Locations whose count rule always gives the floor size: caves 11, castle 21
/// (depths 1-7), volcano 31 (depths 1-3).
fn floor_of(monsters: usize) -> (&'static str, u32) {
    match monsters {
        11 => ("goblin-caves", 4),
        21 => ("castle", 3),
        _ => ("volcano", 2),
    }
}

fn clear(world: &mut World) {
    let mut q = world.query_filtered::<Entity, With<Species>>();
    let all: Vec<Entity> = q.iter(world).collect();
    for e in all {
        world.despawn(e);
    }
}

/// Message in, entities out: the full update of an app with the plugin.
#[divan::bench(args = [11, 21, 31])]
fn plugin_populates_a_floor(bencher: Bencher, monsters: usize) {
    let (location, depth) = floor_of(monsters);
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1));
    let grid = FloorGrid::reference(WorldSeed(1), location, depth);
    bencher.bench_local(|| {
        let world = app.world_mut();
        clear(world);
        world.insert_resource(FloorMap(grid.clone()));
        world.write_message(FloorGenerated::new(location, depth));
        app.update();
        black_box(app.world().entities().len())
    });
}

/// The baseline: `World::spawn_batch` of the same number of component bundles prepared
/// in advance (the monsters of one populated floor, cloned each time).
#[divan::bench(args = [11, 21, 31])]
fn spawn_batch_of_prepared_bundles(bencher: Bencher, monsters: usize) {
    let (location, depth) = floor_of(monsters);
    let mut source =
        denizen::bevy::scene::reference_scene(DenizenPlugin::with_seed(1), location, depth)
            .unwrap();
    let bundles = denizen::bevy::scene::monsters(source.world_mut());
    assert_eq!(bundles.len(), monsters);
    let mut world = World::new();
    bencher.bench_local(|| {
        clear(&mut world);
        let ids: Vec<Entity> = world.spawn_batch(bundles.clone()).collect();
        black_box(ids.len())
    });
}

/// A game day (144 checks, 24 of them hourly) on a populated sewers floor of depth 12,
/// where about a quarter of the checks bring an arrival. The day's arrivals are removed
/// again inside the timed iteration, so every iteration starts from the same floor.
#[divan::bench]
fn clock_advances_one_game_day(bencher: Bencher) {
    let mut app =
        denizen::bevy::scene::reference_scene(DenizenPlugin::with_seed(1), "sewers", 12).unwrap();
    bencher.bench_local(|| {
        app.world_mut().resource_mut::<GameClock>().advance(24 * 60);
        app.update();
        let world = app.world_mut();
        let mut arrivals = world.query::<(Entity, &Disposition, &GridPos)>();
        let gone: Vec<(Entity, GridPos)> = arrivals
            .iter(world)
            .filter(|(_, d, _)| d.wandering)
            .map(|(e, _, p)| (e, *p))
            .collect();
        for (entity, at) in &gone {
            world
                .resource_mut::<FloorMap>()
                .0
                .set_occupied(Square { x: at.x, y: at.y }, false);
            world.despawn(*entity);
        }
        black_box(gone.len())
    });
}
