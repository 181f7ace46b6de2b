//! Data files as Bevy assets, followed while the game runs (feature `file_watcher`:
//! `assets` with `bevy_asset`'s file watcher): writes a bestiary and locations into an asset folder,
//! populates a goblin-caves floor from them, renames the goblin in the file and populates
//! again, then makes a broken edit, which is refused once with its file, entry and field
//! while the rules in use stay. Headless; it prints what happened.
//!
//! `cargo run --features file_watcher --example hot_reload`

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};
use denizen::bevy::assets::{DataRejected, RulesLoaded, asset_folder};
use denizen::omega::bestiary::OMEGA_BESTIARY;
use denizen::omega::location::OMEGA_LOCATIONS;
use denizen::omega::reference::reference_floor;
use denizen::output::{fail, finish};
use denizen::prelude::*;

const BESTIARY: &str = "game.bestiary.ron";
const LOCATIONS: &str = "game.locations.ron";

/// What the example saw: every answer of the plugins' asset side, in order.
#[derive(Resource, Default)]
struct Heard(Vec<String>);

fn main() -> ExitCode {
    let folder = std::env::temp_dir().join(format!("denizen-hot-reload-{}", std::process::id()));
    let result = run(&folder);
    let _ = std::fs::remove_dir_all(&folder);
    match result {
        Ok(lines) => finish("hot_reload", |out| {
            for line in &lines {
                writeln!(out, "{line}")?;
            }
            Ok(())
        }),
        Err(why) => fail("hot_reload", &why),
    }
}

fn run(folder: &Path) -> Result<Vec<String>, String> {
    let write = |name: &str, text: &str| {
        std::fs::write(folder.join(name), text).map_err(|e| format!("{name}: {e}"))
    };
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    write(BESTIARY, OMEGA_BESTIARY)?;
    write(LOCATIONS, OMEGA_LOCATIONS)?;
    let mut app = game(asset_folder(folder).map_err(|e| e.to_string())?);
    let mut log = Vec::new();
    let scout = OMEGA_BESTIARY.replacen(r#"name: "goblin","#, r#"name: "goblin scout","#, 1);
    let misspelt = scout.replacen(r#"Some("dagger")"#, r#"Some("daggr")"#, 1);
    // Each step: an edit (if any), what it is, the answer it must bring, and a species the
    // next floor must hold.
    let steps = [
        (None, "the first load", "rules loaded", "goblin"),
        (
            Some((scout, "the goblin is now a goblin scout")),
            "the edit",
            "rules loaded",
            "goblin scout",
        ),
        (
            Some((misspelt, "the goblin's fixed item misspelt")),
            "the broken edit",
            "refused, the rules in use kept",
            "goblin scout",
        ),
    ];
    for (edit, what, answer, species) in steps {
        if let Some((text, change)) = edit {
            write(BESTIARY, &text)?;
            log.push(format!("edited {BESTIARY}: {change}"));
        }
        wait_for(&mut app, what, |heard| !heard.is_empty())?;
        let heard = std::mem::take(&mut app.world_mut().resource_mut::<Heard>().0);
        if !heard.iter().any(|line| line.contains(answer)) {
            return Err(format!(
                "after {what}, expected \"{answer}\", heard {heard:?}"
            ));
        }
        log.extend(heard);
        let names = populate(&mut app);
        if !names.iter().any(|name| name == species) {
            return Err(format!(
                "after {what}, no {species} on the floor: {names:?}"
            ));
        }
        log.push(format!("goblin-caves 1 populated: {}", names.join(", ")));
    }
    Ok(log)
}

/// The game: the asset plugin over `folder`, watching it, and the plugins taking Omega's
/// rules from the two files.
fn game(folder: String) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: folder,
            watch_for_changes_override: Some(true),
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
        DenizenPlugins::with_seed(5)
            .set(OmegaPlugin::default().data_assets(OmegaDataAssets::new(BESTIARY, LOCATIONS))),
    ))
    .init_resource::<Heard>()
    .add_systems(Update, hear.after(DenizenSystems::Arrivals));
    app
}

fn hear(
    mut loaded: MessageReader<RulesLoaded>,
    mut rejected: MessageReader<DataRejected>,
    mut heard: ResMut<Heard>,
) {
    for RulesLoaded { rule_set } in loaded.read() {
        heard
            .0
            .push(format!("{rule_set} rules loaded from the files"));
    }
    for DataRejected { rule_set, error } in rejected.read() {
        heard.0.push(format!(
            "{rule_set} files refused, the rules in use kept: {error}"
        ));
    }
}

/// Updates the app until `done` holds for what it heard, or gives up after a minute (the
/// file watcher reports an edit within a second or so).
fn wait_for(app: &mut App, what: &str, done: impl Fn(&[String]) -> bool) -> Result<(), String> {
    let start = Instant::now();
    while !done(&app.world().resource::<Heard>().0) {
        if start.elapsed() > Duration::from_secs(60) {
            return Err(format!("no answer to {what} within a minute"));
        }
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    Ok(())
}

/// Populates goblin-caves 1 afresh; the names of the species that came.
fn populate(app: &mut App) -> Vec<String> {
    app.insert_resource(FloorMap(reference_floor(WorldSeed(5), "goblin-caves", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 1));
    app.update();
    let world = app.world_mut();
    let species: Vec<SpeciesId> = world
        .query::<&Species>()
        .iter(world)
        .map(|s| s.id)
        .collect();
    let rules = world.resource::<OmegaRuleset>();
    let mut names: Vec<String> = species
        .iter()
        .filter_map(|id| rules.species(*id).map(|t| t.name.clone()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}
