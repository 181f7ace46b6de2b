//! `denizen tables floor --map`: a level drawn in LDtk (`.ldtk`) or Tiled (`.tmx`) as the
//! floor a bestiary populates: its grid, its tags and its regions' kinds as tags, the
//! player on its start mark, and its fields as the request's depth and context.

use std::path::Path;

use denizen_core::regions::{FieldValue, Regions};
use denizen_core::{FloorGrid, Square, SquareTags};
use denizen_maps::{EditorLevel, LevelChoice, TileMapping, ldtk, tmx};
use denizen_tables::{Bestiary, Context, ContextError};

use crate::error::CliError;

/// A level read for populating.
pub(crate) struct MapFloor {
    /// Its squares.
    pub(crate) grid: FloorGrid,
    /// Its tags: the grid's, the level's, and each region's kind.
    pub(crate) tags: SquareTags,
    /// Its start mark's square ([`EditorLevel::start`]).
    pub(crate) player: Option<Square>,
    /// Its `depth` field, when it has one.
    pub(crate) depth: Option<u32>,
    /// Its fields the bestiary's context declares: flags set, integers given.
    pub(crate) context: Context,
    /// Its regions.
    pub(crate) regions: Regions,
}

/// Reads `path` (its format by its extension) and the LDtk level `level` names (the first
/// when none is named; a Tiled map has one); `depth`, when given, is the floor's depth.
pub(crate) fn read(
    path: &Path,
    level: Option<&str>,
    depth: Option<u32>,
    b: &Bestiary,
) -> Result<MapFloor, CliError> {
    let mapping = TileMapping::default();
    let usage = |e: denizen_maps::MapError| CliError::Usage(e.to_string());
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let read = match extension.as_deref() {
        Some("ldtk") => {
            let choice = level.map_or(LevelChoice::Index(0), |name| LevelChoice::Name(name.into()));
            ldtk::read_path(path, &choice, &mapping).map_err(usage)?
        }
        Some("tmx") if level.is_none() => tmx::read_path(path, &mapping).map_err(usage)?,
        Some("tmx") => {
            return Err(CliError::Usage(format!(
                "{}: a Tiled map has one level; --level is for LDtk projects",
                path.display()
            )));
        }
        _ => {
            return Err(CliError::Usage(format!(
                "{}: a map is an LDtk project (.ldtk) or a Tiled map (.tmx)",
                path.display()
            )));
        }
    };
    floor_of(read, depth, b, path)
}

/// The floor, tags, start and request terms of a level read.
fn floor_of(
    level: EditorLevel,
    given: Option<u32>,
    b: &Bestiary,
    path: &Path,
) -> Result<MapFloor, CliError> {
    let usage = |message: String| {
        CliError::Usage(format!(
            "{}: level `{}`: {message}",
            path.display(),
            level.name
        ))
    };
    let mut tags = SquareTags::from_grid(&level.grid);
    for (name, squares) in &level.tag_areas() {
        tags.tag_set(squares, name)
            .map_err(|e| usage(e.to_string()))?;
    }
    let player = level.start();
    // A depth given on the command line wins: the level's is not read.
    let depth = match level.fields.get("depth").filter(|_| given.is_none()) {
        None => given,
        Some(FieldValue::Int(n)) => {
            Some(u32::try_from(*n).map_err(|_| usage(format!("its depth {n} is not a depth")))?)
        }
        Some(other) => return Err(usage(format!("its depth {other} is not a whole number"))),
    };
    let mut context = Context::new();
    for (name, value) in &level.fields {
        let one = match value {
            FieldValue::Flag(true) => Context::new().with_flag(name.as_str()),
            FieldValue::Int(n) if name != "depth" => Context::new().with_value(name.as_str(), *n),
            _ => continue,
        };
        match b.context().check(&one) {
            Ok(()) => {}
            // A field the bestiary does not declare is the game's own (music, a title).
            Err(ContextError::Flag(_) | ContextError::Value(_)) => continue,
            Err(e) => return Err(usage(format!("field `{name}`: {e}"))),
        }
        context = match value {
            FieldValue::Int(n) => context.with_value(name.as_str(), *n),
            _ => context.with_flag(name.as_str()),
        };
    }
    Ok(MapFloor {
        grid: level.grid,
        tags,
        player,
        depth,
        context,
        regions: level.regions,
    })
}

/// The level's context with what the command line gives added over it.
pub(crate) fn with_given(level: Context, given: &Context) -> Context {
    let flagged = given.flags().fold(level, |c, flag| c.with_flag(flag));
    given
        .values()
        .fold(flagged, |c, (name, value)| c.with_value(name, value))
}
