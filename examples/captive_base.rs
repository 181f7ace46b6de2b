//! A base floor with Captive's encounter groups, placed by the plugin and printed as text.
//!
//! `cargo run --release --example captive_base -- [map-number] [--seed N]` (default map 3).
//! Groups show as their type's glyph on the map (`^` is fire, `H` a ladder); the roster
//! lists each group with its members' strength range and what its bearer carries.

use std::process::ExitCode;

use bevy_app::App;
use denizen::captive::reference_base;
use denizen::output::{fail, finish};
use denizen::prelude::*;

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
                return fail(
                    "captive_base",
                    &format!("expected [map-number] [--seed N], got `{word}`"),
                );
            }
        }
    }

    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), CaptivePlugin::default()));
    app.insert_resource(FloorMap(reference_base(WorldSeed(seed), map)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(map, 3));
    app.update();

    let world = app.world_mut();
    let groups = world.query::<&EncounterGroup>().iter(world).count();
    finish("captive_base", |out| {
        writeln!(
            out,
            "base map {map}, seed {seed}: {groups} groups\n\n{}",
            render_floor(world)
        )?;
        write!(out, "{}", captive_roster(world))?;
        Ok(())
    })
}
