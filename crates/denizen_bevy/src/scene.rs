//! Ready-made headless scenes: a populated reference floor, and many floors sampled
//! through the plugin (what the `dungeon` example and the `denizen` command use).

use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::floor::FloorGrid;
use denizen_core::{RequestError, WorldSeed};

use crate::components::{
    Awareness, CombatStats, Disposition, Fixed, GridPos, Inventory, MonsterBundle, Sleep,
};
use crate::{DenizenPlugin, FloorGenerated, FloorMap, Species};

/// An `App` with the plugin whose reference floor for `location` and `depth` has been
/// generated and populated (one update). Fails on an unknown location or depth.
pub fn reference_scene(
    plugin: DenizenPlugin,
    location: &str,
    depth: u32,
) -> Result<App, RequestError> {
    plugin.rules.locations.get(location)?.level(depth)?;
    let seed = plugin.seed;
    let mut app = App::new();
    app.add_plugins(plugin);
    generate(&mut app, seed, location, depth);
    Ok(app)
}

/// Fills the reference floor and asks for its population; the next update spawns it.
fn generate(app: &mut App, seed: u64, location: &str, depth: u32) {
    let world = app.world_mut();
    world.insert_resource(FloorMap(FloorGrid::reference(
        WorldSeed(seed),
        location,
        depth,
    )));
    world.write_message(FloorGenerated::new(location, depth));
    app.update();
}

/// Populates the reference floor `floors` times through the plugin (clearing the floor
/// between generations) and counts the spawned population by chosen template (fixed
/// inhabitants are not counted: they are not drawn).
pub fn sample_floors(
    plugin: DenizenPlugin,
    location: &str,
    depth: u32,
    floors: u32,
) -> Result<Vec<u64>, RequestError> {
    let species = plugin.rules.catalogue.species().len();
    let seed = plugin.seed;
    let mut app = reference_scene(plugin, location, depth)?;
    let mut counts = vec![0u64; species];
    for floor in 0..floors {
        if floor > 0 {
            generate(&mut app, seed, location, depth);
        }
        let world = app.world_mut();
        let mut monsters = world.query::<(Entity, &Species, Has<Fixed>)>();
        let spawned: Vec<(Entity, Species, bool)> =
            monsters.iter(world).map(|(e, s, f)| (e, *s, f)).collect();
        for (entity, s, fixed) in spawned {
            if !fixed {
                counts[s.id.index()] += 1;
            }
            world.despawn(entity);
        }
    }
    Ok(counts)
}

/// A copy of every monster's components (for a save, a comparison, or spawning the same
/// monsters elsewhere).
pub fn monsters(world: &mut World) -> Vec<MonsterBundle> {
    let mut query = world.query::<(
        &Species,
        &Sleep,
        &Inventory,
        &Awareness,
        &GridPos,
        &CombatStats,
        &Disposition,
    )>();
    query
        .iter(world)
        .map(|(a, b, c, d, e, f, g)| (*a, *b, c.clone(), *d, *e, *f, *g))
        .collect()
}
