//! Populating a floor: the plugin against the code it replaces, per floor size.
//!
//! `cargo bench -p denizen_tests --bench plugin`. Every row replaces a floor's monsters: it despawns the
//! previous ones and clears the world's change trackers (as every frame of an app does)
//! inside the timed iteration, then makes a floor of 11, 21 or 31 monsters on the same
//! reference floor.
//!
//! - `spawn_batch`: `World::spawn_batch` of the same components prepared in advance (the
//!   monsters of one populated floor, cloned): the limit.
//! - `plain_system`: what a Bevy developer would write instead: a system that picks each
//!   species with `rand`'s `WeightedIndex` over the floor's exact odds, finds a square by
//!   random probing and spawns with `Commands` (the same components, from the template, with
//!   no construction), on a message.
//! - `planning_only`: the plugin's planning alone, through the rules crate: the floor's
//!   stream, the count, the square search, species, construction and possessions.
//! - `plugin`: message in, entities out: `OmegaFloorRequested`, the plugins' schedule, one
//!   `MonsterSpawned` per monster.
//!
//! The two rows that run systems run them the way a turn-based game does: in the host's
//! own `Turn` schedule (the plugins installed with `in_schedule(Turn)`), with a fresh copy
//! of the floor and the message buffers advanced each turn. The fixed cost of a whole
//! `App::update()` (the `Main` schedules), which a game pays once a frame whatever it
//! runs, is the separate `main_update` row.

use std::hint::black_box;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use denizen::omega::Stats;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;
use denizen::rng::Generator;
use divan::Bencher;
use rand::distr::Distribution;
use rand::distr::weighted::WeightedIndex;

#[path = "common/omega_planning.rs"]
mod omega_planning;
use omega_planning::{SEED, floor_of, planning_row};

fn main() {
    match instructions::requested() {
        Some(request) => instructions::run(request),
        None => divan::main(),
    }
}

/// The host's turn schedule the system rows run in.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Turn;

/// Despawns every creature and clears the change trackers (the removed-component buffers
/// an app clears every frame).
fn clear(world: &mut World) {
    let mut q = world.query_filtered::<Entity, With<Creature>>();
    let all: Vec<Entity> = q.iter(world).collect();
    for entity in all {
        world.despawn(entity);
    }
    world.clear_trackers();
}

/// One turn of the host: a fresh copy of the floor, the request, the `Turn` schedule, and
/// the message buffers of the request and its answer advanced.
fn turn<M: Message, A: Message>(app: &mut App, floor: &FloorGrid, request: M) {
    let world = app.world_mut();
    clear(world);
    world.insert_resource(FloorMap(floor.clone()));
    world.write_message(request);
    world.run_schedule(Turn);
    world.resource_mut::<Messages<M>>().update();
    world.resource_mut::<Messages<A>>().update();
}

/// The limit: `World::spawn_batch` of the same components prepared in advance.
#[divan::bench(args = [11, 21, 31], sample_count = 1000, sample_size = 10)]
fn spawn_batch(bencher: Bencher, monsters: usize) {
    bencher.bench_local(spawn_batch_row(monsters));
}

fn spawn_batch_row(monsters: usize) -> impl FnMut() -> usize {
    let (location, depth) = floor_of(monsters);
    let mut source =
        denizen::bevy::omega::scene::reference_scene(SEED, OmegaPlugin::default(), location, depth)
            .unwrap();
    let prepared: Vec<(Creature, GridPos, MonsterBundle)> =
        denizen::bevy::omega::scene::monsters(source.world_mut())
            .into_iter()
            .map(|(at, bundle)| (Creature, at, bundle))
            .collect();
    assert_eq!(prepared.len(), monsters);
    let mut world = World::new();
    move || {
        clear(&mut world);
        let ids: Vec<Entity> = world.spawn_batch(prepared.clone()).collect();
        black_box(ids.len())
    }
}

/// The request of the plain system.
#[derive(Message, Clone, Copy)]
struct PlainFloor;

/// The plain system's answer: a floor was populated.
#[derive(Message, Clone, Copy)]
struct PlainDone;

/// What the plain system draws from: the floor's odds as a `WeightedIndex`, the templates.
#[derive(Resource)]
struct PlainRules {
    species: Vec<SpeciesId>,
    weights: WeightedIndex<f64>,
    rules: OmegaRules,
    monsters: usize,
    rng: Generator,
}

/// The plain system: weighted species, random probing for a free floor square, `Commands`.
fn plain_populate(
    mut requests: MessageReader<PlainFloor>,
    mut plain: ResMut<PlainRules>,
    mut map: ResMut<FloorMap>,
    mut done: MessageWriter<PlainDone>,
    mut commands: Commands,
) {
    let plain = &mut *plain;
    for _ in requests.read() {
        for _ in 0..plain.monsters {
            let species = plain.species[plain.weights.sample(&mut plain.rng)];
            let (width, height) = (map.0.width(), map.0.height());
            let at = loop {
                let at = Square {
                    x: rand::RngExt::random_range(&mut plain.rng, 0..width),
                    y: rand::RngExt::random_range(&mut plain.rng, 0..height),
                };
                if map.0.is_acceptable(at) {
                    break at;
                }
            };
            map.0.set_occupied(at, true);
            let t = plain.rules.bestiary.get(species);
            commands.spawn((
                Creature,
                GridPos::from(at),
                (
                    Species {
                        id: species,
                        form: species,
                    },
                    Glyph(t.glyph),
                    Sleep {
                        rating: t.sleep,
                        awake: false,
                    },
                    Inventory::default(),
                    Awareness(t.awareness),
                    CombatStats(Stats::of(t)),
                    Disposition::default(),
                ),
            ));
        }
        done.write(PlainDone);
    }
}

#[divan::bench(args = [11, 21, 31], sample_count = 1000, sample_size = 10)]
fn plain_system(bencher: Bencher, monsters: usize) {
    let (location, depth) = floor_of(monsters);
    let rules = OmegaRules::shipped();
    let level = rules.locations.get(location).unwrap().level(depth).unwrap();
    let odds = Odds::of(&level.selector);
    let (species, weights): (Vec<SpeciesId>, Vec<f64>) = odds.nonzero().unzip();
    let floor = reference_floor(WorldSeed(SEED), location, depth);
    let mut app = App::new();
    app.init_schedule(Turn)
        .add_message::<PlainFloor>()
        .add_message::<PlainDone>()
        .insert_resource(PlainRules {
            species,
            weights: WeightedIndex::new(weights).unwrap(),
            rules: rules.clone(),
            monsters,
            rng: WorldSeed(SEED).stream(StreamPurpose::new("plain")),
        })
        .add_systems(Turn, plain_populate);
    bencher.bench_local(|| {
        turn::<PlainFloor, PlainDone>(&mut app, &floor, PlainFloor);
        black_box(app.world().entities().len())
    });
}

#[divan::bench(args = [11, 21, 31], sample_count = 1000, sample_size = 10)]
fn planning_only(bencher: Bencher, monsters: usize) {
    bencher.bench_local(planning_row(monsters));
}

#[divan::bench(args = [11, 21, 31], sample_count = 1000, sample_size = 10)]
fn plugin(bencher: Bencher, monsters: usize) {
    bencher.bench_local(plugin_row(monsters));
}

fn plugin_row(monsters: usize) -> impl FnMut() -> u32 {
    let (location, depth) = floor_of(monsters);
    let floor = reference_floor(WorldSeed(SEED), location, depth);
    let mut app = App::new();
    app.init_schedule(Turn)
        .add_plugins(DenizenPlugins::with_seed(SEED).in_schedule(Turn));
    move || {
        let request = OmegaFloorRequested::new(location, depth);
        turn::<OmegaFloorRequested, OmegaFloorServed>(&mut app, &floor, request);
        black_box(app.world().entities().len())
    }
}

/// Instructions per floor, for callgrind: `plugin --instructions <row> <monsters> <floors>`
/// runs one row's iteration `floors` times instead of the benchmarks, so the difference
/// between two counts (with 1000 floors and with none) is the row's instructions per floor
/// (docs/BENCHMARKS.md has the command).
mod instructions {
    /// A row, its floor size and how many floors to make.
    pub struct Request {
        row: String,
        monsters: usize,
        floors: u32,
    }

    /// The request on the command line, if there is one.
    pub fn requested() -> Option<Request> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.as_slice() {
            [flag, row, monsters, floors] if flag == "--instructions" => Some(Request {
                row: row.clone(),
                monsters: monsters.parse().expect("monsters: 11, 21 or 31"),
                floors: floors.parse().expect("floors: a count"),
            }),
            _ => None,
        }
    }

    /// Makes the floors of the row.
    pub fn run(request: Request) {
        let Request {
            row,
            monsters,
            floors,
        } = request;
        match row.as_str() {
            "plugin" => repeat(super::plugin_row(monsters), floors),
            "planning_only" => repeat(super::planning_row(monsters), floors),
            "spawn_batch" => repeat(super::spawn_batch_row(monsters), floors),
            other => panic!("no row {other}: plugin, planning_only or spawn_batch"),
        }
    }

    fn repeat<T>(mut iteration: impl FnMut() -> T, floors: u32) {
        for _ in 0..floors {
            std::hint::black_box(iteration());
        }
    }
}

/// The fixed cost of a frame: one `App::update()` with the plugins installed and nothing to
/// do (the `Main` schedules, message buffers, change trackers).
#[divan::bench(sample_count = 1000, sample_size = 10)]
fn main_update(bencher: Bencher) {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(SEED));
    bencher.bench_local(|| {
        app.update();
        black_box(app.world().entities().len())
    });
}

/// A game day (144 checks, 24 of them hourly) on a populated sewers floor of depth 12,
/// where about a quarter of the checks bring an arrival. The day's arrivals are removed
/// again inside the timed iteration, so every iteration starts from the same floor.
#[divan::bench]
fn clock_advances_one_game_day(bencher: Bencher) {
    let mut app =
        denizen::bevy::omega::scene::reference_scene(SEED, OmegaPlugin::default(), "sewers", 12)
            .unwrap();
    bencher.bench_local(|| {
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(24 * 60);
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
                .set_occupied(Square::from(*at), false);
            world.despawn(*entity);
        }
        black_box(gone.len())
    });
}
