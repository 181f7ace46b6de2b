//! A day on a dungeon floor: the clock advances ten minutes at a time and every wandering
//! arrival is printed as it comes.
//!
//! `cargo run --release --example wandering -- [location] [depth] [--seed N]`
//! (default: sewers, depth 12).

use std::process::ExitCode;

use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen::bevy::DenizenPlugin;
use denizen::bevy::prelude::*;
use denizen::prelude::WorldSeed;

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut seed = 1u64;
    while let Some(word) = words.next() {
        match (word.as_str(), words.next()) {
            ("--seed", Some(n)) if n.parse::<u64>().is_ok() => seed = n.parse().unwrap_or(1),
            ("--seed", _) => return fail("--seed needs a number"),
            (_, next) => {
                positional.push(word);
                positional.extend(next);
            }
        }
    }
    let location = positional
        .first()
        .map_or("sewers", String::as_str)
        .to_owned();
    let Ok(depth) = positional.get(1).map_or(Ok(12), |d| d.parse::<u32>()) else {
        return fail("the depth is a whole number");
    };
    let plugin = DenizenPlugin::with_seed(seed);
    if let Err(e) = plugin
        .rules
        .locations
        .get(&location)
        .and_then(|env| env.level(depth))
    {
        return fail(&e.to_string());
    }

    let mut app = App::new();
    app.add_plugins(plugin);
    app.insert_resource(FloorMap(FloorGrid::reference(
        WorldSeed(seed),
        &location,
        depth,
    )));
    app.world_mut()
        .write_message(FloorGenerated::new(location.clone(), depth));
    app.update();
    let start = monsters(app.world_mut());
    println!("{location}, depth {depth}, seed {seed}: {start} monsters at dawn");

    let mut arrivals = 0;
    for step in 1..=144 {
        app.world_mut().resource_mut::<GameClock>().advance(10);
        app.update();
        let minute = step * 10;
        let catalogue = app.world().resource::<Catalogue>().clone();
        let messages = app.world().resource::<Messages<WanderingArrival>>();
        for arrival in messages.iter_current_update_messages() {
            arrivals += 1;
            let kind = if minute % 60 == 0 {
                "hourly"
            } else {
                "ten-minute"
            };
            println!(
                "{:02}:{:02}  {kind:<10}  {:<24} at ({:>2},{:>2})",
                minute / 60,
                minute % 60,
                catalogue.species(arrival.species).name,
                arrival.at.x,
                arrival.at.y
            );
        }
    }
    let end = monsters(app.world_mut());
    println!("{arrivals} arrivals in 144 checks; {end} monsters at the end of the day");
    ExitCode::SUCCESS
}

fn monsters(world: &mut World) -> usize {
    world.query::<&Species>().iter(world).count()
}

fn fail(message: &str) -> ExitCode {
    eprintln!("wandering: {message}");
    ExitCode::from(2)
}
