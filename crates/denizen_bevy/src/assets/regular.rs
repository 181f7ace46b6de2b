//! An asset source that reads regular files only, for a game that opts in.
//!
//! `bevy_asset`'s file reader opens whatever the asset path names. A pipe (FIFO) with no
//! writer blocks that open for ever, on the main thread in a single-threaded build, and a
//! device such as `/dev/zero` never ends; denizen's loaders only see a file once it is
//! open, too late to refuse it. A game that takes data files from players (mods) adds
//! [`RegularFilesOnly`] before `AssetPlugin`: its default source is then the same folder
//! read through [`RegularFilesReader`], which looks at what a path is first and refuses
//! anything but a regular file with an error naming it (a `DataRejected`, then each
//! request's `RulesRefused`). Without it, the limit stands: guide chapter 8 says so.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy_app::{App, Plugin};
use bevy_asset::io::file::FileAssetReader;
use bevy_asset::io::{
    AssetReader, AssetReaderError, AssetSourceBuilder, AssetSourceId, PathStream, Reader,
};
use bevy_asset::{AssetApp as _, AssetPlugin};

/// `bevy_asset`'s file reader over a folder, refusing every path that is not a regular
/// file before it opens it (see [`RegularFilesOnly`] for why).
pub struct RegularFilesReader {
    files: FileAssetReader,
}

impl RegularFilesReader {
    /// Reads the files of `folder` (as `AssetPlugin::file_path` names it: relative to the
    /// game's folder, or absolute).
    pub fn new(folder: impl AsRef<Path>) -> Self {
        Self {
            files: FileAssetReader::new(folder),
        }
    }

    /// Whether `path` (under the folder) names a regular file: the error says what it is
    /// otherwise.
    fn check(&self, path: &Path) -> Result<(), AssetReaderError> {
        let full = self.files.root_path().join(path);
        match std::fs::metadata(&full) {
            Ok(meta) if meta.is_file() => Ok(()),
            Ok(_) => Err(AssetReaderError::Io(Arc::new(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: not a regular file (a data file is read only from a file on disk)",
                    denizen_core::data::excerpt(&path.to_string_lossy(), 400)
                ),
            )))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(AssetReaderError::NotFound(full)),
            Err(e) => Err(AssetReaderError::Io(Arc::new(e))),
        }
    }
}

/// The path of an asset's meta file (`x.ron.meta`), as `bevy_asset` names it.
fn meta_path(path: &Path) -> PathBuf {
    let mut meta = path.as_os_str().to_owned();
    meta.push(".meta");
    PathBuf::from(meta)
}

impl AssetReader for RegularFilesReader {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        self.check(path)?;
        self.files.read(path).await
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        self.check(&meta_path(path))?;
        self.files.read_meta(path).await
    }

    async fn read_directory<'a>(
        &'a self,
        path: &'a Path,
    ) -> Result<Box<PathStream>, AssetReaderError> {
        self.files.read_directory(path).await
    }

    async fn is_directory<'a>(&'a self, path: &'a Path) -> Result<bool, AssetReaderError> {
        self.files.is_directory(path).await
    }
}

/// Makes `bevy_asset`'s default source the folder `folder` read through
/// [`RegularFilesReader`], its writer and watcher as `AssetPlugin` would make them. Add it
/// before `AssetPlugin`, with the folder `AssetPlugin::file_path` names:
///
/// ```
/// use bevy_app::prelude::*;
/// use denizen_bevy::assets::RegularFilesOnly;
/// use denizen_bevy::assets::bevy_asset::AssetPlugin;
///
/// App::new().add_plugins((
///     TaskPoolPlugin::default(),
///     RegularFilesOnly::new("assets"),
///     AssetPlugin {
///         file_path: "assets".into(),
///         ..AssetPlugin::default()
///     },
/// ));
/// ```
#[derive(Clone, Debug)]
pub struct RegularFilesOnly {
    folder: String,
}

impl RegularFilesOnly {
    /// The asset folder, as `AssetPlugin::file_path` names it.
    pub fn new(folder: impl Into<String>) -> Self {
        Self {
            folder: folder.into(),
        }
    }
}

impl Plugin for RegularFilesOnly {
    fn build(&self, app: &mut App) {
        assert!(
            !app.is_plugin_added::<AssetPlugin>(),
            "RegularFilesOnly sets bevy_asset's default source: add it before AssetPlugin"
        );
        let folder = self.folder.clone();
        let source = AssetSourceBuilder::platform_default(&folder, None)
            .with_reader(move || Box::new(RegularFilesReader::new(&folder)));
        app.register_asset_source(AssetSourceId::Default, source);
    }
}
