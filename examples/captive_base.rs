//! A base floor with Captive's encounter groups, placed by the plugin and printed as text.
//!
//! `cargo run --release --example captive_base -- [map-number] [--seed N]` (default map 3).
//! Groups show as their type's glyph on the map (`^` is fire, `H` a ladder); the roster
//! lists each group with its members' strength range and what its bearer carries.

use std::process::ExitCode;

use bevy_app::App;
use denizen::bevy::DenizenPlugin;
use denizen::bevy::encounters::Encounters;
use denizen::bevy::prelude::*;
use denizen::encounters::reference_base;
use denizen::prelude::WorldSeed;

fn main() -> ExitCode {
    let mut map = 3;
    let mut seed = 1;
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let number = if word == "--seed" {
            words.next()
        } else {
            Some(word.clone())
        };
        match (word == "--seed", number.and_then(|n| n.parse().ok())) {
            (true, Some(n)) => seed = n,
            (false, Some(n)) => map = n as u32,
            _ => {
                eprintln!("captive_base: expected [map-number] [--seed N], got `{word}`");
                return ExitCode::from(2);
            }
        }
    }

    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(seed));
    app.insert_resource(FloorMap(reference_base(WorldSeed(seed), map)));
    app.world_mut()
        .write_message(BaseFloorGenerated { map, floors: 3 });
    app.update();

    let world = app.world_mut();
    let table = world.resource::<Encounters>().table.clone();
    let mut groups = world.query::<(&EncounterGroup, &GridPos, &GroupMembers)>();
    let mut rows: Vec<_> = groups
        .iter(world)
        .map(|(g, p, m)| (*g, *p, m.members().to_vec()))
        .collect();
    rows.sort_by_key(|(_, p, _)| (p.y, p.x));
    let map_text = world.resource::<FloorMap>().0.render(|at| {
        rows.iter()
            .find(|(_, p, _)| p.x == at.x && p.y == at.y)
            .and_then(|(g, ..)| table.get(g.type_id).map(|t| t.glyph))
    });
    println!(
        "base map {map}, seed {seed}: {} groups\n\n{map_text}",
        rows.len()
    );
    for (group, at, members) in rows {
        let stats: Vec<EncounterStats> = members
            .iter()
            .filter_map(|&m| world.get::<EncounterStats>(m).copied())
            .collect();
        let strength: Vec<u32> = stats.iter().map(|s| s.0.strength).collect();
        let carried = members
            .iter()
            .find_map(|&m| world.get::<Carries>(m))
            .map(|c| format!("{:?}", c.0));
        println!(
            "{} {:<13} ({:>2},{:>2})  {} x  speed {:>2}  strength {}-{}  {}",
            table.get(group.type_id).map_or('?', |t| t.glyph),
            table.get(group.type_id).map_or("?", |t| t.name.as_str()),
            at.x,
            at.y,
            members.len(),
            group.speed,
            strength.iter().min().unwrap_or(&0),
            strength.iter().max().unwrap_or(&0),
            carried.unwrap_or_default(),
        );
    }
    ExitCode::SUCCESS
}
