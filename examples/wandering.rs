//! A day on a dungeon floor: the clock advances ten minutes at a time and every wandering
//! arrival is printed as it comes.
//!
//! `cargo run --release --example wandering -- [location] [depth] [--seed N]`
//! (default: sewers, depth 12).

use std::process::ExitCode;

use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::output::{fail, finish};
use denizen::prelude::*;

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut seed = 1u64;
    while let Some(word) = words.next() {
        match (word.as_str(), words.next()) {
            ("--seed", Some(n)) if n.parse::<u64>().is_ok() => seed = n.parse().unwrap_or(1),
            ("--seed", _) => return fail("wandering", "--seed needs a number"),
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
        return fail("wandering", "the depth is a whole number");
    };
    let omega = OmegaPlugin::default();
    if let Err(e) = omega
        .rules()
        .locations
        .get(&location)
        .and_then(|env| env.level(depth))
    {
        return fail("wandering", &e.to_string());
    }

    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), omega));
    app.insert_resource(FloorMap(reference_floor(WorldSeed(seed), &location, depth)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location.clone(), depth));
    app.update();
    let start = monsters(app.world_mut());
    finish("wandering", |out| {
        writeln!(
            out,
            "{location}, depth {depth}, seed {seed}: {start} monsters at dawn"
        )?;

        let mut arrivals = 0;
        for step in 1..=144 {
            app.world_mut()
                .resource_mut::<GameClock>()
                .advance_minutes(10);
            app.update();
            let minute = step * 10;
            let clock = *app.world().resource::<GameClock>();
            let rules = app.world().resource::<OmegaRuleset>().clone();
            let messages = app.world().resource::<Messages<OmegaWanderingChecked>>();
            let checks = messages.iter_current_update_messages();
            for arrival in checks.filter_map(|check| check.arrival()) {
                arrivals += 1;
                let kind = if minute % 60 == 0 {
                    "hourly"
                } else {
                    "ten-minute"
                };
                writeln!(
                    out,
                    "{clock}  {kind:<10}  {:<24} at ({:>2},{:>2})",
                    rules
                        .species(arrival.species)
                        .map_or("?", |t| t.name.as_str()),
                    arrival.at.x,
                    arrival.at.y
                )?;
            }
        }
        let end = monsters(app.world_mut());
        writeln!(
            out,
            "{arrivals} arrivals in 144 checks; {end} monsters at the end of the day"
        )?;
        Ok(())
    })
}

fn monsters(world: &mut World) -> usize {
    world.query::<&Species>().iter(world).count()
}
