//! Ready-made headless scenes: a populated reference floor, many floors sampled through
//! the plugin, an arena bout (what the `dungeon` example and the `denizen` command use).

use std::ops::Range;

use crate::RequestError;
use crate::reference::reference_floor;
use crate::streams;
use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::rng::WorldSeed;

use super::OmegaPlugin;
use super::components::{
    ArenaOpponent, Awareness, CombatStats, Disposition, Fixed, Inventory, MonsterBundle,
    MonsterName, Sleep, Species, Statuses,
};
use super::messages::OmegaFloorRequested;
use super::resources::OmegaUniqueItems;
use super::variants::OmegaArenaBoutRequested;
use denizen_bevy::DenizenPlugin;
use denizen_bevy::floor::{Dormant, FloorMap, Glyph, GridPos};
use denizen_bevy::streams::DenizenRng;

/// An `App` with [`DenizenPlugin`] (this seed) and `omega`, whose reference floor for
/// `location` and `depth` has been generated and populated (one update). Fails on an
/// unknown location or depth.
pub fn reference_scene(
    seed: u64,
    omega: OmegaPlugin,
    location: &str,
    depth: u32,
) -> Result<App, RequestError> {
    reference_scene_for(seed, omega, OmegaFloorRequested::new(location, depth))
}

/// [`reference_scene`] for a whole request (a temple's deity, the player's square, a
/// cavern floor).
pub fn reference_scene_for(
    seed: u64,
    omega: OmegaPlugin,
    request: OmegaFloorRequested,
) -> Result<App, RequestError> {
    omega
        .rules()
        .locations
        .get(&request.location)?
        .level(request.depth)?;
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), omega));
    generate(&mut app, seed, request);
    Ok(app)
}

/// Fills the reference floor and asks for its population; the next update spawns it.
fn generate(app: &mut App, seed: u64, request: OmegaFloorRequested) {
    let world = app.world_mut();
    let floor = reference_floor(WorldSeed(seed), &request.location, request.depth);
    world.insert_resource(FloorMap(floor));
    world.write_message(request);
    app.update();
}

/// Populates the reference floor once for each floor number in `floors` through the
/// plugin and counts the spawned population by chosen template (fixed inhabitants are not
/// counted: they are not drawn). Floor `i` is the same whichever range holds it: it draws
/// the `i`-th streams of its location and depth and starts from a new game's unique
/// items, so ranges can be sampled apart (on several threads) and their counts added.
pub fn sample_floors(
    seed: u64,
    omega: OmegaPlugin,
    location: &str,
    depth: u32,
    floors: Range<u32>,
) -> Result<Vec<u64>, RequestError> {
    omega.rules().locations.get(location)?.level(depth)?;
    let species = omega.rules().bestiary.species().len();
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), omega));
    let new_game = app.world().resource::<OmegaUniqueItems>().clone();
    let mut counts = vec![0u64; species];
    for floor in floors {
        let world = app.world_mut();
        *world.resource_mut::<OmegaUniqueItems>() = new_game.clone();
        let mut ledger = world.resource_mut::<DenizenRng>();
        for kind in [streams::FLOOR, streams::FIXED] {
            ledger
                .generations
                .entry(kind.to_owned())
                .or_default()
                .entry(location.to_owned())
                .or_default()
                .insert(depth, u64::from(floor));
        }
        generate(&mut app, seed, OmegaFloorRequested::new(location, depth));
        let world = app.world_mut();
        let mut monsters = world.query::<(Entity, &Species, Has<Fixed>)>();
        let spawned: Vec<(Entity, Species, bool)> =
            monsters.iter(world).map(|(e, s, f)| (e, *s, f)).collect();
        for (entity, s, fixed) in spawned {
            if !fixed && let Some(count) = counts.get_mut(s.id.index()) {
                *count += 1;
            }
            world.despawn(entity);
        }
    }
    Ok(counts)
}

/// A copy of the square and components of every Omega monster not put away with its floor
/// (for a save, a comparison, or spawning the same monsters elsewhere).
pub fn monsters(world: &mut World) -> Vec<(GridPos, MonsterBundle)> {
    let mut query = world.query_filtered::<(
        &GridPos,
        &Species,
        &Glyph,
        &Sleep,
        &Inventory,
        &Awareness,
        &CombatStats,
        &Disposition,
        &Statuses,
    ), Without<Dormant>>();
    query
        .iter(world)
        .map(|(p, a, b, c, d, e, f, g, h)| (*p, (*a, *b, *c, d.clone(), *e, *f, *g, *h)))
        .collect()
}

/// The arena opponent the plugin sends for an opponent counter and the player's arena rank
/// (with this seed and a new game's chronicle): its name, species and combat numbers, as
/// spawned. `None` when the rules have no arena.
pub fn arena_opponent(
    seed: u64,
    omega: OmegaPlugin,
    counter: u32,
    rank: u32,
) -> Option<(MonsterName, Species, CombatStats)> {
    omega.rules().variants.as_ref()?;
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), omega));
    // Omega's arena is 64 x 16; the opponent enters at (60, 7).
    let mut arena = denizen_core::floor::FloorGrid::new(64, 16).expect("a small floor");
    for at in arena.squares().collect::<Vec<_>>() {
        arena.set(at, denizen_core::floor::Tile::Floor);
    }
    let world = app.world_mut();
    world.insert_resource(FloorMap(arena));
    world.write_message(OmegaArenaBoutRequested {
        counter,
        rank,
        at: denizen_core::floor::Square { x: 60, y: 7 },
    });
    app.update();
    let world = app.world_mut();
    let mut query =
        world.query_filtered::<(&MonsterName, &Species, &CombatStats), With<ArenaOpponent>>();
    query
        .iter(world)
        .next()
        .map(|(name, species, stats)| (name.clone(), *species, *stats))
}
