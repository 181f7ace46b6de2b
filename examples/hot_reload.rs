//! Data files as Bevy assets, followed while the game runs (feature `file_watcher`:
//! `assets` with `bevy_asset`'s file watcher): writes a bestiary and locations into an asset folder,
//! populates a goblin-caves floor from them, renames the goblin in the file and populates
//! again, then makes a broken edit, which is refused once with its file, entry and field
//! while the rules in use stay. Headless; it prints what happened.
//!
//! `cargo run --features file_watcher --example hot_reload`

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};
use denizen::bevy::assets::{DataRejected, RulesLoaded};
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
    let mut app = game(folder.to_path_buf());
    let mut log = Vec::new();

    wait_for(&mut app, "the first load", |heard| !heard.is_empty())?;
    log.append(&mut app.world_mut().resource_mut::<Heard>().0);
    log.push(populate(&mut app));

    write(
        BESTIARY,
        &OMEGA_BESTIARY.replacen(r#"name: "goblin","#, r#"name: "goblin scout","#, 1),
    )?;
    log.push(format!(
        "edited {BESTIARY}: the goblin is now a goblin scout"
    ));
    wait_for(&mut app, "the edit", |heard| !heard.is_empty())?;
    log.append(&mut app.world_mut().resource_mut::<Heard>().0);
    log.push(populate(&mut app));

    write(
        BESTIARY,
        &OMEGA_BESTIARY.replacen(r#"Some("dagger")"#, r#"Some("daggr")"#, 1),
    )?;
    log.push(format!(
        "edited {BESTIARY}: the goblin's fixed item misspelt"
    ));
    wait_for(&mut app, "the broken edit", |heard| !heard.is_empty())?;
    log.append(&mut app.world_mut().resource_mut::<Heard>().0);
    log.push(populate(&mut app));
    Ok(log)
}

/// The game: the asset plugin over `folder`, watching it, and the plugins taking Omega's
/// rules from the two files.
fn game(folder: PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: folder.to_string_lossy().into_owned(),
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

/// Populates goblin-caves 1 afresh and says how many of each species came.
fn populate(app: &mut App) -> String {
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
    let mut names: Vec<&str> = species
        .iter()
        .filter_map(|id| rules.species(*id).map(|t| t.name.as_str()))
        .collect();
    names.sort_unstable();
    names.dedup();
    format!(
        "goblin-caves 1 populated: {} monsters ({})",
        species.len(),
        names.join(", ")
    )
}
