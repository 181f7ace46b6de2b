//! The main scene: a reference floor populated by the plugin, printed as text.
//!
//! `cargo run --release --example dungeon -- [location] [depth] [--seed N]`
//! (default: goblin-caves, depth 3, seed 1).

use std::process::ExitCode;

use denizen::bevy::omega::OmegaPlugin;
use denizen::bevy::omega::scene::reference_scene;
use denizen::bevy::omega::view::roster;
use denizen::bevy::view::render_floor;
use denizen::output::{fail, finish};

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let mut positional = Vec::new();
    let mut seed = 1u64;
    while let Some(word) = words.next() {
        if word == "--seed" {
            match words.next().and_then(|s| s.parse().ok()) {
                Some(s) => seed = s,
                None => return fail("dungeon", "--seed needs a number"),
            }
        } else {
            positional.push(word);
        }
    }
    let location = positional.first().map_or("goblin-caves", String::as_str);
    let depth = match positional.get(1).map(|d| d.parse::<u32>()) {
        None => 3,
        Some(Ok(d)) => d,
        Some(Err(_)) => return fail("dungeon", "the depth is a whole number"),
    };
    let mut app = match reference_scene(seed, OmegaPlugin::default(), location, depth) {
        Ok(app) => app,
        Err(e) => return fail("dungeon", &e.to_string()),
    };
    let world = app.world_mut();
    finish("dungeon", |out| {
        writeln!(out, "{location}, depth {depth}, seed {seed}\n")?;
        write!(out, "{}", render_floor(world))?;
        writeln!(out)?;
        write!(out, "{}", roster(world))?;
        Ok(())
    })
}
