//! An asset folder for the data-file tests: a folder of its own, an app watching it, and
//! the `RulesLoaded` and `DataRejected` it heard.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin};
use denizen::bevy::assets::{DataRejected, RulesLoaded};
use denizen::prelude::*;

/// Every `RulesLoaded` and `DataRejected` the app wrote, in order.
#[derive(Resource, Default)]
pub struct Heard(Vec<Result<&'static str, DataRejected>>);

pub fn hear(
    mut loaded: MessageReader<RulesLoaded>,
    mut rejected: MessageReader<DataRejected>,
    mut heard: ResMut<Heard>,
) {
    heard.0.extend(loaded.read().map(|l| Ok(l.rule_set)));
    heard.0.extend(rejected.read().cloned().map(Err));
}

/// A folder of its own under the system's temporary folder, removed when dropped.
pub struct Folder(pub PathBuf);

impl Folder {
    pub fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!("denizen-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        Self(path)
    }

    pub fn write(&self, name: &str, text: impl AsRef<[u8]>) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The plugins over an asset folder that is watched, with `plugins` adjusted.
pub fn game(folder: &Path, plugins: bevy_app::PluginGroupBuilder) -> App {
    let mut app = watching(folder, plugins);
    app.init_resource::<Heard>()
        .add_systems(Update, hear.after(DenizenSystems::Arrivals));
    app
}

/// The plugins over an asset folder that is watched, hearing nothing.
pub fn watching(folder: &Path, plugins: bevy_app::PluginGroupBuilder) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path: folder.to_string_lossy().into_owned(),
            watch_for_changes_override: Some(cfg!(feature = "file_watcher")),
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
    ))
    .add_plugins(plugins);
    app
}

/// Updates until the app has heard `count` answers in all; a minute is far more than the
/// loader and the file watcher take (about a second), so this never waits it out unless
/// something is wrong.
pub fn wait_for_answers(app: &mut App, count: usize) {
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

pub fn heard(app: &App) -> Vec<Result<&'static str, DataRejected>> {
    app.world().resource::<Heard>().0.clone()
}

/// Updates a while, long past the file watcher's delay, hearing nothing new.
pub fn hears_nothing_more(app: &mut App) {
    let before = heard(app).len();
    for _ in 0..100 {
        app.update();
        std::thread::sleep(Duration::from_millis(15));
    }
    assert_eq!(heard(app).len(), before, "{:?}", heard(app));
}
