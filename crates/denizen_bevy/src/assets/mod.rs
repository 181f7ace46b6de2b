//! Data files as Bevy assets (feature `assets`): every kind of data file has its own asset
//! type and loader, and a rule-set plugin given asset paths (or handles) takes its rules
//! from them, swapping them in whenever a file changes.
//!
//! A game adds `bevy_asset`'s `AssetPlugin` before the denizen plugins and gives a rule
//! set's plugin its files as paths under the asset folder (the `bevy_asset` crate is
//! re-exported here, so a game on Bevy's separate crates needs no line of its own for it).
//! With the facade and Omega:
//!
//! ```text
//! App::new().add_plugins((
//!     TaskPoolPlugin::default(),
//!     AssetPlugin::default(),
//!     DenizenPlugins::with_seed(7).set(OmegaPlugin::default().data_assets(
//!         OmegaDataAssets::new("my.bestiary.ron", "my.locations.ron"),
//!     )),
//! ));
//! ```
//!
//! A rule set's plugin follows its files with this module alone, as the shipped ones do:
//! a marker type per kind of file ([`data_kinds!`](crate::data_kinds)), a resource of
//! [`DataSlot`]s implementing [`DataSources`] (the files, and how the rules are built from
//! them), and [`follow`] in its `build`. `examples/custom_rule_set.rs` is such a rule set.
//!
//! How the rules follow the files:
//!
//! - A loader reads a file's text only (at most [`MAX_FILE_BYTES`] bytes are read, and it
//!   must be UTF-8). The rules are
//!   validated as a whole when every file of the rule set has loaded, by the same code as
//!   the files given to the plugin's builder, so an error names the file (its asset path),
//!   the entry and the field.
//! - Until the first valid set of files is in, the rule set serves nothing from the
//!   rules it was built with: floor requests are refused (each rule set's refusal has a
//!   `RulesLoading` case; see [`RulesLoading`](crate::pipeline::RulesLoading)), as are
//!   Omega's summonings, statues and arena bouts and Angband's traps, and Omega's
//!   wandering checks are skipped (`OmegaWanderingSkip::RulesLoading`). [`RulesLoaded`]
//!   says when the rules are in. Once a first load has been refused ([`DataRejected`]), the
//!   answer is that refusal instead (each refusal's `RulesRefused` case,
//!   [`RulesRefused`](crate::pipeline::RulesRefused)), the latest one, until a good set
//!   loads; while the asset server has not answered yet, it stays "still loading".
//! - With `bevy_asset`'s file watcher on (this crate's `file_watcher` feature turns on
//!   `bevy_asset`'s), an edited file is validated and, when the whole set is valid,
//!   swapped in before the next request is served, the plugin's switches kept. Omega's
//!   state is checked against the new rules as a save's is (a unique-item ledger that no
//!   longer fits is replaced, with `OmegaStateRejected`); Angband's uniques ledger drops
//!   races the new file lacks before the next level draws, and its artifact ledger is kept as it
//!   is. A broken edit keeps the rules in use and is reported once, with [`DataRejected`],
//!   until a file's text changes again (a file read again unchanged is nothing new).
//! - `examples/hot_reload.rs` writes a bestiary, populates a floor, edits the file and
//!   populates again.

use std::marker::PhantomData;
use std::sync::Arc;

use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetLoader, AssetPath, AsyncReadExt, Handle, LoadContext};
use bevy_ecs::prelude::*;
use bevy_reflect::TypePath;
use denizen_core::DataFile;
use denizen_core::data::MAX_FILE_BYTES;

pub use bevy_asset;

pub use crate::pipeline::DataRefusal;

mod follow;
#[cfg(feature = "maps")]
#[cfg_attr(docsrs, doc(cfg(feature = "maps")))]
pub mod maps;
mod regular;
pub use follow::{AnySlot, DataSlot, DataSources, SlotState, follow, follow_data, register_kind};
pub use regular::{RegularFilesOnly, RegularFilesReader};

/// A folder as `bevy_asset`'s `AssetPlugin::file_path` takes it. Bevy holds the asset folder
/// as a UTF-8 string, so a folder whose path is not UTF-8 (a temporary folder under such a
/// `TMPDIR`) cannot be one: this says so in one line, where a lossy conversion would name
/// another folder and load nothing.
pub fn asset_folder(folder: &std::path::Path) -> Result<String, NotUtf8Folder> {
    folder
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| NotUtf8Folder(denizen_core::data::excerpt(&folder.to_string_lossy(), 400)))
}

/// A folder whose path is not UTF-8, which `bevy_asset` cannot take as its asset folder
/// (see [`asset_folder`]); its path as far as it reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0}: the folder's path is not UTF-8, and bevy_asset's asset folder must be (choose another folder, or set TMPDIR to one)"
)]
pub struct NotUtf8Folder(pub String);

/// A kind of data file: the extensions its loader claims. Each rule set names its kinds
/// (Omega's bestiary, locations, variants and chronicle; Captive's encounter table;
/// Angband's races, vaults, traps, objects, ego items and artifacts).
pub trait DataKind: TypePath + std::fmt::Debug + Send + Sync + 'static {
    /// The extensions its files end with, without the leading dot: `bestiary.ron` for
    /// `omega.bestiary.ron`.
    const EXTENSIONS: &'static [&'static str];
}

/// Declares data kinds: for each, a marker type (with its doc) and its extension.
///
/// ```
/// denizen_bevy::data_kinds! {
///     /// A game's spawn table (`*.spawns.ron`).
///     SpawnsFile = "spawns.ron";
/// }
/// # use denizen_bevy::assets::DataKind;
/// assert_eq!(SpawnsFile::EXTENSIONS, ["spawns.ron"]);
/// ```
#[macro_export]
macro_rules! data_kinds {
    ($($(#[$doc:meta])* $kind:ident = $extension:literal;)*) => {
        $(
            $(#[$doc])*
            #[derive(bevy_reflect::TypePath, Debug)]
            pub struct $kind;

            impl $crate::assets::DataKind for $kind {
                const EXTENSIONS: &'static [&'static str] = &[$extension];
            }
        )*
    };
}

/// One data file of kind `K` as an asset: its path, which errors name, and its text.
#[derive(Asset, TypePath, Debug)]
pub struct DataText<K: DataKind> {
    path: String,
    text: Arc<str>,
    _kind: PhantomData<fn() -> K>,
}

impl<K: DataKind> DataText<K> {
    /// The file's asset path, as errors name it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file as the rule-set crates' loaders take it.
    pub fn file(&self) -> DataFile<'_> {
        DataFile::new(&self.path, &self.text)
    }
}

/// Why a data file could not be loaded as text (its contents are checked later, with the
/// rest of its rule set's files).
#[derive(Debug, thiserror::Error)]
pub enum DataLoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The asset path.
        path: String,
        /// What the reader said.
        source: std::io::Error,
    },
    /// The file is larger than any data file may be.
    #[error("{path}: larger than {MAX_FILE_BYTES} bytes")]
    TooLarge {
        /// The asset path.
        path: String,
    },
    /// The file is not UTF-8 text.
    #[error("{path}: {why}")]
    NotText {
        /// The asset path.
        path: String,
        /// Where the first byte that is not text is: `not UTF-8 text (byte 12, line 2)`.
        why: String,
    },
}

/// Loads every file of kind `K` as a [`DataText<K>`].
#[derive(TypePath)]
pub struct DataLoader<K>(PhantomData<fn() -> K>);

impl<K> Default for DataLoader<K> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<K: DataKind> AssetLoader for DataLoader<K> {
    type Asset = DataText<K>;
    type Settings = ();
    type Error = DataLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<DataText<K>, DataLoadError> {
        let path = load_context.path().to_string();
        let mut bytes = Vec::new();
        let read = (&mut *reader)
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .await;
        if let Err(source) = read {
            return Err(DataLoadError::Read { path, source });
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(DataLoadError::TooLarge { path });
        }
        let text = denizen_core::data::text_of(bytes).map_err(|why| DataLoadError::NotText {
            path: path.clone(),
            why,
        })?;
        Ok(DataText {
            path,
            text: text.into(),
            _kind: PhantomData,
        })
    }

    fn extensions(&self) -> &[&str] {
        K::EXTENSIONS
    }
}

/// Where one data file comes from: a path under the asset folder, or a handle the game
/// already holds.
#[derive(Debug)]
pub enum DataSource<K: DataKind> {
    /// A path, loaded by the plugin.
    Path(AssetPath<'static>),
    /// A handle the game loaded itself.
    Handle(Handle<DataText<K>>),
}

impl<K: DataKind> Clone for DataSource<K> {
    fn clone(&self) -> Self {
        match self {
            Self::Path(path) => Self::Path(path.clone()),
            Self::Handle(handle) => Self::Handle(handle.clone()),
        }
    }
}

impl<K: DataKind> From<&'static str> for DataSource<K> {
    fn from(path: &'static str) -> Self {
        Self::Path(path.into())
    }
}

impl<K: DataKind> From<String> for DataSource<K> {
    fn from(path: String) -> Self {
        Self::Path(path.into())
    }
}

impl<K: DataKind> From<Handle<DataText<K>>> for DataSource<K> {
    fn from(handle: Handle<DataText<K>>) -> Self {
        Self::Handle(handle)
    }
}

/// A rule set's data files loaded (or edited) into valid rules, now in use. Written in
/// [`DenizenSystems::Floors`](crate::DenizenSystems::Floors), before the rule set serves
/// requests.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct RulesLoaded {
    /// The rule set, by the name its plugin registered (such as `Omega`).
    pub rule_set: &'static str,
}

/// A rule set's data files were refused: the rules in use stay as they were. Written once
/// per edit, in [`DenizenSystems::Floors`](crate::DenizenSystems::Floors).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct DataRejected {
    /// The rule set, by the name its plugin registered (such as `Omega`).
    pub rule_set: &'static str,
    /// Why.
    pub error: DataRefusal,
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::*;

    /// A folder named by bytes that are not UTF-8 is refused in one line; a UTF-8 one is
    /// taken whole.
    #[test]
    fn an_asset_folder_must_be_utf8() {
        let bad = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/denizen-\xff\xfe"));
        let error = asset_folder(bad).unwrap_err();
        assert_eq!(
            error.to_string(),
            "/tmp/denizen-\u{fffd}\u{fffd}: the folder's path is not UTF-8, and bevy_asset's \
             asset folder must be (choose another folder, or set TMPDIR to one)"
        );
        assert_eq!(asset_folder(Path::new("/tmp/é")).unwrap(), "/tmp/é");
    }
}
