//! Maps drawn in level editors as assets (features `assets` and `maps`): an LDtk project
//! (`.ldtk`, every level) or a Tiled map (`.tmx`) read with `denizen_maps` into an
//! [`EditorMap`], the files it names (LDtk's external levels, Tiled's tilesets and
//! templates) read through the asset server as the loader's dependencies, so an edit of
//! any of them loads the map again (with `bevy_asset`'s file watcher on).
//!
//! A named file is found beside the map (`tiles/terrain.tsx` under the map's folder;
//! `../` climbs no higher than the asset source's root) and must be of the map's own asset
//! source: a name with a source of its own (`other://`) is refused, so a map cannot read
//! outside the game's assets. Each file is read whole and then bounded as a data file is
//! ([`MAX_FILE_BYTES`]); a map names at most [`MAX_MAP_FILES`] files, of at most
//! [`MAX_FILE_BYTES`] together. A read that meets a file not fetched yet stops there, and
//! the map is read again once it is: the work is bounded by those two limits.

use std::collections::BTreeMap;

use bevy_app::App;
use bevy_asset::io::Reader;
use bevy_asset::{Asset, AssetApp as _, AssetLoader, AssetPlugin, AsyncReadExt, LoadContext};
use bevy_reflect::TypePath;
use denizen_core::data::MAX_FILE_BYTES;
use denizen_maps::{EditorLevel, MapError, TileMapping, ldtk, tmx};

/// The most other files one map may name (external levels, tilesets, templates).
pub const MAX_MAP_FILES: usize = 64;

/// A map drawn in a level editor, read: its asset path and its levels (an LDtk project's
/// every level, in the project's order; a Tiled map's one).
#[derive(Asset, TypePath, Debug)]
pub struct EditorMap {
    path: String,
    levels: Vec<EditorLevel>,
}

impl EditorMap {
    /// The map's asset path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Its levels, in the file's order.
    pub fn levels(&self) -> &[EditorLevel] {
        &self.levels
    }

    /// The level of a name (an LDtk level's identifier, a Tiled map's file stem), or the
    /// first when none is named.
    pub fn level(&self, name: Option<&str>) -> Option<&EditorLevel> {
        match name {
            Some(name) => self.levels.iter().find(|level| level.name == name),
            None => self.levels.first(),
        }
    }

    /// The first level whose `depth` field is `depth` ([`EditorLevel::depth`]): a project
    /// whose levels are a dungeon's floors.
    pub fn at_depth(&self, depth: u32) -> Option<&EditorLevel> {
        self.levels
            .iter()
            .find(|level| level.depth() == Some(depth))
    }
}

/// Why a map could not be loaded: the map's or a named file's problem, in one line.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct MapLoadError(pub String);

impl From<MapError> for MapLoadError {
    fn from(e: MapError) -> Self {
        Self(e.to_string())
    }
}

/// Loads `.ldtk` and `.tmx` files as [`EditorMap`]s, naming tiles with the default
/// [`TileMapping`].
#[derive(TypePath, Default)]
pub struct EditorMapLoader;

impl AssetLoader for EditorMapLoader {
    type Asset = EditorMap;
    type Settings = ();
    type Error = MapLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<EditorMap, MapLoadError> {
        let path = load_context.path().to_string();
        let text = bounded(&path, read_whole(reader).await)?;
        let mapping = TileMapping::default();
        let ldtk = path.to_ascii_lowercase().ends_with(".ldtk");
        // The readers ask for the files the map names as they meet them: each read that
        // asks for one not yet fetched stops there; the file is fetched (a dependency of
        // the map) and the map read again, until a read asks for nothing new.
        let mut fetched: BTreeMap<String, String> = BTreeMap::new();
        loop {
            let mut wanted = None;
            let mut external = |name: &str| match fetched.get(name) {
                Some(text) => Ok(text.clone()),
                None => {
                    wanted = Some(name.to_owned());
                    Err(MapError {
                        file: name.to_owned(),
                        place: String::new(),
                        field: None,
                        message: "not fetched yet".to_owned(),
                    })
                }
            };
            let read = match ldtk {
                true => ldtk::read_all(&text, &path, &mapping, &mut external),
                false => tmx::read(&text, &path, &mapping, &mut external).map(|level| vec![level]),
            };
            match (read, wanted) {
                (Ok(levels), _) => return Ok(EditorMap { path, levels }),
                (Err(e), None) => return Err(e.into()),
                (Err(_), Some(name)) => {
                    if fetched.len() >= MAX_MAP_FILES {
                        let many = format!("{path}: names more than {MAX_MAP_FILES} other files");
                        return Err(MapLoadError(many));
                    }
                    let text = fetch(load_context, &name).await?;
                    let total: usize =
                        fetched.values().map(String::len).sum::<usize>() + text.len();
                    if total as u64 > MAX_FILE_BYTES {
                        let much = format!(
                            "{path}: the files it names hold more than {MAX_FILE_BYTES} bytes together"
                        );
                        return Err(MapLoadError(much));
                    }
                    fetched.insert(name, text);
                }
            }
        }
    }

    fn extensions(&self) -> &[&str] {
        &["ldtk", "tmx"]
    }
}

/// A file the map names, relative to the map's folder, read as a dependency of the map.
async fn fetch(load_context: &mut LoadContext<'_>, name: &str) -> Result<String, MapLoadError> {
    let map = load_context.path().to_string();
    let refuse = |why: &str| MapLoadError(format!("{map}: names `{name}`, which {why}"));
    if name.contains("://") {
        return Err(refuse(
            "is of another asset source: a map reads its own source only",
        ));
    }
    let resolved = (load_context.path().resolve_embed_str(name))
        .map_err(|e| refuse(&format!("is not an asset path ({e})")))?;
    let shown = resolved.to_string();
    let bytes = (load_context.read_asset_bytes(resolved).await)
        .map_err(|e| MapLoadError(format!("{shown}: {e}")))?;
    bounded(&shown, Ok(bytes))
}

/// The whole of a reader.
async fn read_whole(reader: &mut dyn Reader) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut *reader)
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .await?;
    Ok(bytes)
}

/// A file's bytes as text, bounded as a data file is.
fn bounded(path: &str, bytes: std::io::Result<Vec<u8>>) -> Result<String, MapLoadError> {
    let bytes = bytes.map_err(|e| MapLoadError(format!("{path}: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(MapLoadError(format!(
            "{path}: larger than {MAX_FILE_BYTES} bytes"
        )));
    }
    denizen_core::data::text_of(bytes).map_err(|why| MapLoadError(format!("{path}: {why}")))
}

/// Registers [`EditorMap`] and its loader (once, however many plugins ask): the
/// [`DenizenPlugin`](crate::DenizenPlugin) does when `bevy_asset`'s `AssetPlugin` was
/// added before it.
pub fn register_maps(app: &mut App) {
    if app.is_plugin_added::<AssetPlugin>()
        && app
            .world()
            .get_resource::<bevy_asset::Assets<EditorMap>>()
            .is_none()
    {
        app.init_asset::<EditorMap>()
            .register_asset_loader(EditorMapLoader);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::FloorGrid;
    use denizen_core::regions::FieldValue;

    fn level(name: &str, depth: Option<i64>) -> EditorLevel {
        EditorLevel {
            name: name.to_owned(),
            grid: FloorGrid::from_rows(&["..."]).unwrap(),
            tags: Default::default(),
            regions: Default::default(),
            marks: Vec::new(),
            fields: depth
                .map(|d| ("depth".to_owned(), FieldValue::Int(d)))
                .into_iter()
                .collect(),
        }
    }

    /// A project's levels are found by name, by their `depth` field, or first.
    #[test]
    fn a_maps_levels_are_found_by_name_or_depth() {
        let map = EditorMap {
            path: "dungeon.ldtk".to_owned(),
            levels: vec![
                level("Top", Some(1)),
                level("Odd", None),
                level("Deep", Some(2)),
            ],
        };
        assert_eq!(map.level(Some("Deep")).unwrap().name, "Deep");
        assert!(map.level(Some("Cave")).is_none());
        assert_eq!(map.level(None).unwrap().name, "Top");
        assert_eq!(map.at_depth(2).unwrap().name, "Deep");
        assert_eq!(map.at_depth(1).unwrap().name, "Top");
        assert!(map.at_depth(3).is_none());
        assert_eq!(level("Negative", Some(-1)).depth(), None);
    }
}
