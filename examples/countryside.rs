//! One countryside encounter per terrain, on an open 64 x 16 tactical map.
//!
//! `cargo run --release --example countryside -- [--seed N]`

use std::process::ExitCode;

use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen::output::finish;
use denizen::prelude::*;

const TERRAINS: [&str; 9] = [
    "plains",
    "forest",
    "jungle",
    "river",
    "swamp",
    "desert",
    "tundra",
    "mountains",
    "road",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let seed = args
        .iter()
        .position(|a| a == "--seed")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(seed));
    let mut open = FloorGrid::new(64, 16).expect("a 64 x 16 map is within the size limit");
    for square in open.squares().collect::<Vec<_>>() {
        open.set(square, Tile::Floor);
    }
    finish("countryside", |out| {
        for terrain in TERRAINS {
            app.insert_resource(FloorMap(open.clone()));
            app.world_mut()
                .write_message(OmegaCountrysideEncounterRequested {
                    terrain: format!("countryside:{terrain}"),
                });
            app.update();
            let world = app.world_mut();
            let rules = world.resource::<OmegaRuleset>().clone();
            let mut found: Vec<(Entity, Species, GridPos)> = world
                .query::<(Entity, &Species, &GridPos)>()
                .iter(world)
                .map(|(e, s, p)| (e, *s, *p))
                .collect();
            found.sort_by_key(|(_, _, p)| (p.y, p.x));
            let names: Vec<String> = found
                .iter()
                .map(|(_, s, p)| {
                    let name = rules.species(s.form).map_or("?", |t| t.name.as_str());
                    format!("{name} ({},{})", p.x, p.y)
                })
                .collect();
            writeln!(
                out,
                "{terrain:<10} {:>2}: {}",
                found.len(),
                names.join(", ")
            )?;
            for (entity, ..) in found {
                world.despawn(entity);
            }
        }
        Ok(())
    })
}
