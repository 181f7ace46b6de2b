//! Your own monsters in ten minutes: the game of the guide's chapter 11, whole. A bestiary
//! in an asset folder (the tables' starter, base and mod file), a floor populated from it,
//! an edit made while the game runs and followed at the next floor, a broken edit refused
//! once while the rules in use stay, and the exact odds the `denizen tables` command prints
//! from the same folder. Headless; it prints what happened.
//!
//! `cargo run --features tables,file_watcher --example your_own_monsters -- [ASSET_FOLDER]`
//!
//! Without a folder it writes the starter files into a folder of its own first, and
//! removes it at the end; a folder given is used as it is (its `bestiary/` holds the
//! files) and edited as the chapter says.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};
use denizen::bevy::assets::{DataRejected, RulesLoaded, asset_folder};
use denizen::output::{fail, finish};
use denizen::prelude::*;
use denizen::tables::reference::reference_floor;
use denizen::tables::{Per, UniqueLedger, odds};

/// The bestiary's files under the asset folder, base first.
const BASE: &str = "bestiary/starter.tables.ron";
const MOD: &str = "bestiary/starter_mod.tables.ron";

/// The creature the edit adds to the mod file's species, and the row it appends to the
/// floor table, common at every depth.
const NEW_SPECIES: &str = r#"species: [
        (key: "bog_lantern", name: "bog lantern", glyph: 'b', level: 4, hit_points: "2d6",
         tags: ["spirit"]),"#;
const NEW_ROW: &str = r#"append: [
        (table: "floor", rows: [(what: Species("bog_lantern"), depth: (1, 20), weight: 400)]),"#;

fn main() -> ExitCode {
    let given = std::env::args().nth(1).map(PathBuf::from);
    let folder = given.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("denizen-your-own-{}", std::process::id()))
    });
    let result = starter_files(&folder, given.is_none()).and_then(|()| run(&folder));
    if given.is_none() {
        let _ = std::fs::remove_dir_all(&folder);
    }
    match result {
        Ok(lines) => finish("your_own_monsters", |out| {
            lines.iter().try_for_each(|line| writeln!(out, "{line}"))
        }),
        Err(why) => fail("your_own_monsters", &why),
    }
}

/// Step 1: the starter bestiary in `folder/bestiary/` (a game copies the two files there).
fn starter_files(folder: &Path, write: bool) -> Result<(), String> {
    if !write {
        return Ok(());
    }
    let bestiary = folder.join("bestiary");
    std::fs::create_dir_all(&bestiary).map_err(|e| format!("{}: {e}", bestiary.display()))?;
    edit(folder, BASE, denizen::tables::STARTER)?;
    edit(folder, MOD, denizen::tables::STARTER_MOD)
}

fn edit(folder: &Path, file: &str, text: &str) -> Result<(), String> {
    std::fs::write(folder.join(file), text).map_err(|e| format!("{file}: {e}"))
}

/// Steps 2 to 5: the game, a floor, an edit, a broken edit, the odds.
fn run(folder: &Path) -> Result<Vec<String>, String> {
    let mut app = game(asset_folder(folder).map_err(|e| e.to_string())?);
    let mut log = Vec::new();
    expect(&mut app, "the files load", "Tables rules loaded", &mut log)?;
    log.push(populate(&mut app, 5, false)?);

    // Step 3: the mod file edited while the game runs: a new creature, common everywhere.
    let modded = denizen::tables::STARTER_MOD
        .replacen("species: [", NEW_SPECIES, 1)
        .replacen("append: [", NEW_ROW, 1);
    edit(folder, MOD, &modded)?;
    expect(
        &mut app,
        "the edit is followed",
        "Tables rules loaded",
        &mut log,
    )?;
    log.push(populate(&mut app, 5, true)?);

    // A mistake: a row naming a species no file has. Refused once; the rules stay.
    let misspelt = modded.replacen("Species(\"bog_lantern\")", "Species(\"bog_lanturn\")", 1);
    edit(folder, MOD, &misspelt)?;
    expect(&mut app, "the broken edit", "refused: ", &mut log)?;
    log.push(populate(&mut app, 5, true)?);

    // Step 5: the exact odds, as `denizen tables odds FOLDER/bestiary --depth 5` prints them.
    let rules = app.world().resource::<TablesRuleset>().rules();
    let per_floor = odds(
        rules,
        5,
        &UniqueLedger::new(),
        &denizen_tables::Context::new(),
        Per::Floor,
    )
    .map_err(|e| e.to_string())?;
    let lantern = rules
        .species_by_key("bog_lantern")
        .ok_or("no bog lantern")?;
    log.push(format!(
        "bog lanterns per floor at depth 5: {:.6} (exact)",
        per_floor.expected[lantern.index()]
    ));
    Ok(log)
}

/// Step 2: the game. The asset folder, watched; denizen with the tables' plugin taking its
/// bestiary from the two files, base then mod.
fn game(folder: String) -> App {
    let mut app = App::new();
    let files = TablesDataAssets::new(BASE).with_mod(MOD);
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: folder,
            watch_for_changes_override: Some(true),
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
        DenizenPlugin::with_seed(10),
        TablesPlugin::default().data_assets(files),
    ))
    .init_resource::<Heard>()
    .add_systems(Update, hear.after(DenizenSystems::Arrivals));
    app
}

/// What the asset side said, in order.
#[derive(Resource, Default)]
struct Heard(Vec<String>);

fn hear(
    mut loaded: MessageReader<RulesLoaded>,
    mut rejected: MessageReader<DataRejected>,
    mut warned: MessageReader<TablesLintWarnings>,
    mut heard: ResMut<Heard>,
) {
    heard.0.extend(
        loaded
            .read()
            .map(|l| format!("{} rules loaded", l.rule_set)),
    );
    heard
        .0
        .extend(rejected.read().map(|r| format!("refused: {}", r.error)));
    heard
        .0
        .extend(warned.read().flat_map(|w| w.warnings.clone()));
}

/// Updates until the asset side says something, which must start with `answer`; a minute
/// is far more than the loader and the file watcher take.
fn expect(app: &mut App, what: &str, answer: &str, log: &mut Vec<String>) -> Result<(), String> {
    let start = Instant::now();
    while app.world().resource::<Heard>().0.is_empty() {
        if start.elapsed() > Duration::from_secs(60) {
            return Err(format!("waited a minute for {what}"));
        }
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    let heard = std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0);
    if !heard[0].starts_with(answer) {
        return Err(format!("{what}: expected \"{answer}...\", heard {heard:?}"));
    }
    log.push(format!("{what}: {}", heard.join("; ")));
    Ok(())
}

/// Step 2 again: a floor of rooms and corridors at `depth`, its first room safe with the
/// player in it, populated; the map and its creatures as text. `lanterns`: whether the
/// rules in use have the edit's bog lanterns (common enough that a floor without one
/// means the rules are not the ones expected).
fn populate(app: &mut App, depth: u32, lanterns: bool) -> Result<String, String> {
    let reference = reference_floor(WorldSeed(depth.into()), 64, 24).map_err(|e| e.to_string())?;
    let mut request = TablesFloorRequested::new("the marsh", depth);
    if let (Some(room), Some(player)) = (reference.safe, reference.player) {
        request = request.tag("safe", room).player(player);
    }
    app.insert_resource(FloorMap(reference.grid));
    app.world_mut().write_message(request);
    app.update();
    let world = app.world_mut();
    let answer = world
        .resource::<Messages<TablesFloorServed>>()
        .iter_current_update_messages()
        .last()
        .cloned()
        .ok_or("the floor was not answered")?;
    let populated = match answer.outcome {
        Ok(populated) => populated,
        Err(refusal) => return Err(format!("the floor was refused: {refusal}")),
    };
    let roster = tables_roster(world);
    if roster.contains("bog lantern") != lanterns {
        return Err(format!(
            "bog lanterns expected: {lanterns}; the floor has\n{roster}"
        ));
    }
    Ok(format!(
        "{} at depth {depth}: {} creatures, {} not placed\n{}{roster}",
        answer.request.location,
        populated.placed.len(),
        populated.unplaced.len(),
        render_floor(world),
    ))
}
