//! Data files as assets (feature `assets`): rules taken from files under an asset folder,
//! requests refused until they load, an edited file swapped in while the game runs (with
//! `bevy_asset`'s file watcher), a broken edit refused once while the rules stay.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};
use denizen::bevy::assets::{DataRefusal, DataRejected, RulesLoaded};
use denizen::omega::bestiary::OMEGA_BESTIARY;
use denizen::omega::location::OMEGA_LOCATIONS;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::messages;

/// Every `RulesLoaded` and `DataRejected` the app wrote, in order.
#[derive(Resource, Default)]
struct Heard(Vec<Result<&'static str, DataRejected>>);

fn hear(
    mut loaded: MessageReader<RulesLoaded>,
    mut rejected: MessageReader<DataRejected>,
    mut heard: ResMut<Heard>,
) {
    heard.0.extend(loaded.read().map(|l| Ok(l.rule_set)));
    heard.0.extend(rejected.read().cloned().map(Err));
}

/// A folder of its own under the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("denizen-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    fn write(&self, name: &str, text: impl AsRef<[u8]>) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The plugins over an asset folder that is watched, with `plugins` adjusted.
fn game(folder: &Path, plugins: bevy_app::PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: folder.to_string_lossy().into_owned(),
            watch_for_changes_override: Some(true),
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
    ))
    .add_plugins(plugins)
    .init_resource::<Heard>()
    .add_systems(Update, hear.after(DenizenSystems::Arrivals));
    app
}

/// Updates until the app has heard `count` answers in all; a minute is far more than the
/// loader and the file watcher take (about a second), so this never waits it out unless
/// something is wrong.
fn wait_for_answers(app: &mut App, count: usize) {
    let start = Instant::now();
    while app.world().resource::<Heard>().0.len() < count {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "only {} answers after a minute",
            app.world().resource::<Heard>().0.len()
        );
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn heard(app: &App) -> Vec<Result<&'static str, DataRejected>> {
    app.world().resource::<Heard>().0.clone()
}

fn species_names(app: &mut App) -> Vec<String> {
    let world = app.world_mut();
    let ids: Vec<SpeciesId> = world
        .query::<&Species>()
        .iter(world)
        .map(|s| s.id)
        .collect();
    let rules = world.resource::<OmegaRuleset>();
    ids.iter()
        .map(|id| rules.species(*id).unwrap().name.clone())
        .collect()
}

fn request_caves(app: &mut App) {
    app.insert_resource(FloorMap(reference_floor(WorldSeed(41), "goblin-caves", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 1));
    app.update();
}

/// The whole life of Omega's files as assets: a request before they load is refused and
/// changes nothing; once loaded the floor is populated from the files (a renamed goblin);
/// an edit is swapped in; a broken edit is refused once, naming the file, entry and field,
/// and the rules in use stay; mending the file swaps it in again.
#[test]
fn omega_rules_follow_their_files() {
    let folder = Folder::new("assets-omega");
    let renamed = |name: &str| {
        OMEGA_BESTIARY.replacen(r#"name: "goblin","#, &format!(r#"name: "{name}","#), 1)
    };
    folder.write("game.bestiary.ron", renamed("goblin of the file"));
    folder.write("game.locations.ron", OMEGA_LOCATIONS);
    let files = OmegaDataAssets::new("game.bestiary.ron", "game.locations.ron");
    let plugins = DenizenPlugins::with_seed(41).set(OmegaPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);

    // The first update asks for the files, so they cannot have loaded during it.
    request_caves(&mut app);
    let refused: Vec<OmegaFloorRejected> = messages(&app);
    assert!(heard(&app).is_empty());
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].reason, OmegaFloorRefusal::RulesLoading);
    assert!(species_names(&mut app).is_empty(), "nothing is populated");
    wait_for_answers(&mut app, 1);
    request_caves(&mut app);
    assert_eq!(heard(&app), [Ok("Omega")]);
    let names = species_names(&mut app);
    assert_eq!(names.len(), 11);
    assert!(
        names.contains(&"goblin of the file".to_owned()),
        "{names:?}"
    );
    assert!(!names.contains(&"goblin".to_owned()));

    folder.write("game.bestiary.ron", renamed("edited goblin"));
    wait_for_answers(&mut app, 2);
    assert_eq!(heard(&app)[1], Ok("Omega"));
    request_caves(&mut app);
    assert!(species_names(&mut app).contains(&"edited goblin".to_owned()));

    let broken = renamed("broken goblin").replacen(r#"Some("dagger")"#, r#"Some("daggr")"#, 1);
    folder.write("game.bestiary.ron", broken);
    wait_for_answers(&mut app, 3);
    let Err(rejected) = &heard(&app)[2] else {
        panic!("the broken edit is refused: {:?}", heard(&app))
    };
    assert_eq!(rejected.rule_set, "Omega");
    assert_eq!(
        rejected.error.to_string(),
        r#"game.bestiary.ron: species[15] "goblin": field `fixed_item`: no item has the key "daggr""#
    );
    for _ in 0..50 {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(heard(&app).len(), 3, "a broken edit is reported once");
    request_caves(&mut app);
    let names = species_names(&mut app);
    assert!(
        names.contains(&"edited goblin".to_owned()),
        "the rules stay: {names:?}"
    );

    folder.write("game.bestiary.ron", renamed("mended goblin"));
    wait_for_answers(&mut app, 4);
    assert_eq!(heard(&app)[3], Ok("Omega"));
}

/// A file that is not text is refused when it loads, once, naming it; the rules wait.
#[test]
fn a_file_that_is_not_text_is_refused_once() {
    let folder = Folder::new("assets-bytes");
    folder.write("game.encounters.ron", [0x28, 0xff, 0xfe, 0x29]);
    let files = CaptiveDataAssets::new("game.encounters.ron");
    let plugins = DenizenPlugins::with_seed(42).set(CaptivePlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    wait_for_answers(&mut app, 1);
    for _ in 0..20 {
        app.update();
    }
    let heard = heard(&app);
    assert_eq!(heard.len(), 1, "{heard:?}");
    let Err(DataRejected {
        rule_set: "Captive",
        error: DataRefusal::Load(message),
    }) = &heard[0]
    else {
        panic!("{heard:?}")
    };
    assert!(
        message.contains("game.encounters.ron") && message.contains("not UTF-8 text (byte 1)"),
        "{message}"
    );
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(42), 6)));
    app.world_mut()
        .write_message(EncountersRequested::new(6, 3));
    app.update();
    let refused: Vec<EncountersRejected> = messages(&app);
    assert_eq!(refused[0].reason, EncounterRefusal::RulesLoading);
}

/// Captive's table and Angband's races and traps load from files as Omega's do, and the
/// rule sets then serve their requests from them.
#[test]
fn captive_and_angband_rules_load_from_their_files() {
    let folder = Folder::new("assets-others");
    folder.write(
        "game.encounters.ron",
        denizen::captive::table::CAPTIVE_ENCOUNTERS,
    );
    let captive = CaptiveDataAssets::new("game.encounters.ron");
    let plugins = DenizenPlugins::with_seed(43).set(CaptivePlugin::default().data_assets(captive));
    #[cfg(feature = "angband")]
    let plugins = {
        folder.write(
            "game.races.ron",
            include_str!("../../crates/denizen_angband/data/angband.races.ron"),
        );
        folder.write(
            "game.traps.ron",
            include_str!("../../crates/denizen_angband/data/angband.traps.ron"),
        );
        let angband = AngbandDataAssets::default()
            .races("game.races.ron")
            .traps("game.traps.ron");
        plugins.set(AngbandPlugin::default().data_assets(angband))
    };
    let mut app = game(&folder.0, plugins);
    let rule_sets = if cfg!(feature = "angband") { 2 } else { 1 };
    wait_for_answers(&mut app, rule_sets);
    let mut loaded: Vec<_> = heard(&app).into_iter().map(Result::unwrap).collect();
    loaded.sort_unstable();
    let expected: &[&str] = if cfg!(feature = "angband") {
        &["Angband", "Captive"]
    } else {
        &["Captive"]
    };
    assert_eq!(loaded, expected);
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(43), 6)));
    app.world_mut()
        .write_message(EncountersRequested::new(6, 3));
    app.update();
    let placed: Vec<EncountersPlaced> = messages(&app);
    assert_eq!(placed.len(), 1);
    #[cfg(feature = "angband")]
    {
        app.world_mut()
            .write_message(AngbandLevelRequested::new(10));
        app.update();
        let built: Vec<AngbandLevelBuilt> = messages(&app);
        assert_eq!(built.len(), 1);
    }
}

/// The asset side needs `bevy_asset`'s plugin: without it the app stops at setup, saying
/// so.
#[test]
#[should_panic(expected = "add it before the denizen plugins")]
fn data_assets_without_the_asset_plugin_stop_at_setup() {
    let files = CaptiveDataAssets::new("game.encounters.ron");
    App::new().add_plugins(
        DenizenPlugins::with_seed(44).set(CaptivePlugin::default().data_assets(files)),
    );
}
