//! Maps drawn in level editors as assets (features `maps` and `assets`): a request on a
//! level of a map asset, refused while it loads, populated from the level once it has
//! loaded, refused by name for a level it lacks or a map that failed; and (feature
//! `file_watcher`) an edit of a file the map names loads the map again.

use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetServer, Assets, Handle, LoadState};
use denizen::bevy::assets::maps::EditorMap;
use denizen::floor::Tile;
use denizen::prelude::*;

use crate::asset_folder::{Folder, watching};
use crate::{floors_populated, floors_refused};

/// The project's marsh, in both formats, in an asset folder of its own.
fn marsh_folder(name: &str) -> Folder {
    let folder = Folder::new(name);
    let data = crate::workspace().join("crates/denizen_maps/data");
    for file in ["marsh.tmx", "terrain.tsx", "marsh.ldtk"] {
        folder.write(file, std::fs::read(data.join(file)).unwrap());
    }
    folder
}

/// Updates until `done`, for at most a minute (loading takes milliseconds).
fn until(app: &mut App, done: impl Fn(&App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "not done after a minute"
        );
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn load(app: &App, path: &'static str) -> Handle<EditorMap> {
    app.world().resource::<AssetServer>().load(path)
}

fn loaded(handle: &Handle<EditorMap>) -> impl Fn(&App) -> bool + '_ {
    move |app| app.world().resource::<Assets<EditorMap>>().contains(handle)
}

fn request(app: &mut App, request: TablesFloorRequested) {
    app.world_mut().write_message(request);
    app.update();
}

#[test]
fn a_request_on_a_level_of_a_map_asset_is_served_once_it_has_loaded() {
    let folder = marsh_folder("maps-request");
    let mut app = watching(
        &folder.0,
        DenizenPlugins::with_seed(3).set(TablesPlugin::default()),
    );
    app.update();
    // A handle of no map loading: refused, nothing changed.
    request(
        &mut app,
        TablesFloorRequested::on_map_level("the marsh", 5, Handle::default(), None),
    );
    let refused = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(refused, [TablesFloorRefusal::MapNotLoaded]);
    assert_eq!(
        app.world().resource::<FloorMap>().0.width(),
        0,
        "no map put in"
    );

    let tiled = load(&app, "marsh.tmx");
    until(&mut app, loaded(&tiled));
    request(
        &mut app,
        TablesFloorRequested::on_map_level("the marsh", 5, tiled.clone(), None),
    );
    let populated = floors_populated::<TablesFloorRequested>(&app);
    assert_eq!(
        populated.len(),
        1,
        "{:?}",
        floors_refused::<TablesFloorRequested>(&app)
    );
    let kinds: Vec<&str> = populated[0]
        .regions
        .iter()
        .map(|r| r.kind.as_str())
        .collect();
    assert_eq!(kinds, ["camp", "lair"]);
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!((map.width(), map.height()), (20, 10));
    assert_eq!(
        map.tile(Square { x: 7, y: 1 }),
        Tile::Water,
        "the tileset's class, read through it"
    );
    let record = &app.world().resource::<TablesFloors>().0[&FloorId::new("the marsh", 5)];
    assert_eq!(record.player, Some(Square { x: 2, y: 2 }), "the start mark");

    // An LDtk project's level by name; a name it lacks is refused, naming its levels.
    let project = load(&app, "marsh.ldtk");
    until(&mut app, loaded(&project));
    request(
        &mut app,
        TablesFloorRequested::on_map_level("the fen", 5, project.clone(), Some("Cave".into())),
    );
    assert_eq!(
        floors_refused::<TablesFloorRequested>(&app),
        [TablesFloorRefusal::NoSuchLevel {
            map: "marsh.ldtk".into(),
            level: "Cave".into(),
            levels: vec!["Marsh_1".into()],
        }]
    );
    request(
        &mut app,
        TablesFloorRequested::on_map_level("the fen", 5, project, Some("Marsh_1".into())),
    );
    assert_eq!(floors_populated::<TablesFloorRequested>(&app).len(), 1);
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("the fen", 5)
    );

    // A map that failed to load: refused with its error, naming the file.
    folder.write(
        "broken.tmx",
        "<map version=\"1.10\" orientation=\"orthogonal\"",
    );
    let broken = load(&app, "broken.tmx");
    let failed = |app: &App| {
        let state = app.world().resource::<AssetServer>().load_state(&broken);
        matches!(state, LoadState::Failed(_))
    };
    until(&mut app, failed);
    request(
        &mut app,
        TablesFloorRequested::on_map_level("the bog", 5, broken.clone(), None),
    );
    let refused = floors_refused::<TablesFloorRequested>(&app);
    match &refused[..] {
        [TablesFloorRefusal::MapRefused(why)] => assert!(why.contains("broken.tmx"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("the fen", 5)
    );
}

/// An edit of the tileset the Tiled map names loads the map again: the water's class
/// made `floor`, the pool is floor.
#[cfg(feature = "file_watcher")]
#[test]
fn an_edit_of_a_file_the_map_names_loads_it_again() {
    let folder = marsh_folder("maps-reload");
    let mut app = watching(
        &folder.0,
        DenizenPlugins::with_seed(3).set(TablesPlugin::default()),
    );
    let tiled = load(&app, "marsh.tmx");
    until(&mut app, loaded(&tiled));
    let pool = Square { x: 7, y: 1 };
    let tile = |app: &App| {
        let maps = app.world().resource::<Assets<EditorMap>>();
        maps.get(&tiled).map(|m| m.levels()[0].grid.tile(pool))
    };
    assert_eq!(tile(&app), Some(Tile::Water));
    let tileset = std::fs::read_to_string(folder.0.join("terrain.tsx")).unwrap();
    folder.write(
        "terrain.tsx",
        tileset.replace("class=\"water\"", "class=\"floor\""),
    );
    until(&mut app, |app| tile(app) == Some(Tile::Floor));
}
