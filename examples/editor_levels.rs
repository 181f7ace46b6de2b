//! Floors drawn in level editors, populated: the project's marsh, drawn in LDtk and in
//! Tiled, read with `denizen::maps` and populated by the tables' plugin with the starter
//! bestiary. Each level's lair and camp is drawn from its own table, inside its squares;
//! the example prints each floor's map and roster (a region's creatures name it), what
//! each region drew, and the exact odds of the floor, its own placements and each region.
//! Headless; it prints what happened.
//!
//! `cargo run --features tables,maps --example editor_levels -- [--seed N]`

use std::path::Path;
use std::process::ExitCode;

use bevy_app::prelude::*;
use bevy_ecs::message::Messages;
use denizen::bevy::view::render_floor;
use denizen::maps::{EditorLevel, LevelChoice, TileMapping, ldtk, tmx};
use denizen::output::{fail, finish};
use denizen::prelude::*;
use denizen::tables::plugin::prelude::tables_roster;
use denizen::tables::{Context, UniqueLedger, region_odds, starter};

/// The project's levels, under `crates/denizen_maps/data`.
const LEVELS: [&str; 2] = ["marsh.ldtk", "marsh.tmx"];

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let seed = match (words.next().as_deref(), words.next()) {
        (None, _) => 1,
        (Some("--seed"), Some(n)) => match n.parse() {
            Ok(n) => n,
            Err(_) => return fail("editor_levels", "--seed needs a number"),
        },
        _ => return fail("editor_levels", "usage: editor_levels [--seed N]"),
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/denizen_maps/data");
    let mut lines = Vec::new();
    for name in LEVELS {
        match populate(&data.join(name), seed) {
            Ok(text) => lines.push(text),
            Err(why) => return fail("editor_levels", &why),
        }
    }
    finish("editor_levels", |out| {
        lines.iter().try_for_each(|text| write!(out, "{text}"))
    })
}

/// One level read, populated through the plugin at its `depth` field, and described.
fn populate(path: &Path, seed: u64) -> Result<String, String> {
    let level = read(path)?;
    let depth = match level.fields.get("depth") {
        Some(denizen::regions::FieldValue::Int(d)) => {
            u32::try_from(*d).map_err(|e| e.to_string())?
        }
        _ => {
            return Err(format!(
                "{}: the level has no `depth` field",
                path.display()
            ));
        }
    };
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), TablesPlugin::default()));
    app.update();
    let request = TablesFloorRequested::on_level("the marsh", depth, &level);
    app.world_mut().write_message(request);
    app.update();
    let served = app.world().resource::<Messages<TablesFloorServed>>();
    let answer = served.iter_current_update_messages().last().cloned();
    let populated = match answer.map(|a| a.outcome) {
        Some(Ok(populated)) => populated,
        Some(Err(refused)) => return Err(format!("{}: refused: {refused}", path.display())),
        None => return Err(format!("{}: no answer", path.display())),
    };
    let mut text = format!(
        "{}, level `{}`, depth {depth}, seed {seed}: {} creatures\n\n",
        path.file_name().unwrap_or_default().to_string_lossy(),
        level.name,
        populated.placed.len()
    );
    let world = app.world_mut();
    text += &render_floor(world);
    text += "\n";
    text += &tables_roster(world);
    text += "\n";
    for r in &populated.regions {
        text += &format!(
            "{} `{}` at depth {}: placements {} from `{}`, danger {} of {} drawn, not placed {}\n",
            r.kind,
            r.id,
            r.depth,
            r.placements,
            r.table,
            r.danger.placed,
            r.danger.drawn,
            r.unplaced.len()
        );
    }
    text += &odds(&level, depth)?;
    Ok(text + "\n")
}

/// A level of the project's: an LDtk project's first level, or a Tiled map.
fn read(path: &Path) -> Result<EditorLevel, String> {
    let mapping = TileMapping::default();
    let read = match path.extension().and_then(|e| e.to_str()) {
        Some("ldtk") => ldtk::read_path(path, &LevelChoice::Index(0), &mapping),
        _ => tmx::read_path(path, &mapping),
    };
    read.map_err(|e| e.to_string())
}

/// The three species each draw is likeliest to bring, with their expected counts.
fn odds(level: &EditorLevel, depth: u32) -> Result<String, String> {
    let b = starter().map_err(|e| e.to_string())?;
    let odds = region_odds(
        &b,
        depth,
        &level.regions,
        &UniqueLedger::new(),
        &Context::new(),
    )
    .map_err(|e| e.to_string())?;
    let top = |expected: &[f64]| {
        let mut by: Vec<(usize, f64)> = expected.iter().copied().enumerate().collect();
        by.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        (by.iter().take(3))
            .map(|&(s, e)| format!("{} {e:.3}", b.species()[s].key))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let how = match odds.floor.standard_errors {
        Some(_) => "sampled",
        None => "exact",
    };
    let mut text = format!("Expected ({how}), likeliest three:\n");
    text += &format!("  whole floor: {}\n", top(&odds.floor.expected));
    text += &format!("  its own placements: {}\n", top(&odds.general.expected));
    for (id, o) in &odds.regions {
        text += &format!("  region `{id}`: {}\n", top(&o.expected));
    }
    Ok(text)
}
