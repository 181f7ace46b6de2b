//! LDtk 1.5 projects (`.ldtk`): one level, chosen by identifier or place, read as an
//! [`EditorLevel`] (see the [crate docs](crate) for what each part becomes).
//!
//! - **IntGrid layers** give the grid and the tags: each cell's value is named by the
//!   layer's definition (`defs.layers[].intGridValues`), and the name is looked up in the
//!   [`TileMapping`] and tags the square. Every IntGrid layer of a level shares one grid
//!   size and one width and height; a later layer's tile wins where two map a square.
//! - **Entity layers** give regions (entities whose definition is resizable) and marks
//!   (the others); their layer's grid size must be the IntGrid layers'.
//! - **The level's fields** are the level's (`depth`, context flags).
//! - **External levels** (a project saved with "save levels separately") are read from
//!   their `.ldtkl` file, named relative to the project's.
//!
//! Tile and auto-layer layers are drawing, not floor, and are not read.

use std::collections::BTreeMap;
use std::path::Path;

use denizen_core::regions::{FieldValue, Region, Regions};
use denizen_core::{FloorGrid, Square, SquareSet, Tile};
use serde_json::Value;

use crate::raster::{point_square, rect_squares};
use crate::{EditorLevel, LevelChoice, MAX_SHAPES, MapError, Mark, TileMapping, short};

/// Reads a level of the project at `path`, and its external level file if it has one.
pub fn read_path(
    path: &Path,
    choice: &LevelChoice,
    mapping: &TileMapping,
) -> Result<EditorLevel, MapError> {
    let file = path.display().to_string();
    let text = read_file(path, &file)?;
    let folder = path.parent().unwrap_or(Path::new(""));
    read(&text, &file, choice, mapping, &mut |relative| {
        let external = folder.join(relative);
        read_file(&external, &external.display().to_string())
    })
}

/// Reads a level of the project `text` (named `file` in errors). `external` gives the text
/// of an external level file, named relative to the project's folder (a game's asset
/// loader reads it; [`read_path`] reads it from disk).
pub fn read(
    text: &str,
    file: &str,
    choice: &LevelChoice,
    mapping: &TileMapping,
    external: &mut dyn FnMut(&str) -> Result<String, MapError>,
) -> Result<EditorLevel, MapError> {
    let project = parse(text, file)?;
    let at = Place::file(file);
    let levels = at.array(&project, "levels")?;
    let level = chosen(levels, choice, &at)?;
    let defs = Definitions::read(&project, &at)?;
    one(level, (&defs, mapping), &at, external)
}

/// Reads every level of the project `text` (named `file` in errors), in the project's
/// order, each as [`read`] reads one: at most [`MAX_LEVELS`] of them.
pub fn read_all(
    text: &str,
    file: &str,
    mapping: &TileMapping,
    external: &mut dyn FnMut(&str) -> Result<String, MapError>,
) -> Result<Vec<EditorLevel>, MapError> {
    let project = parse(text, file)?;
    let at = Place::file(file);
    let levels = at.array(&project, "levels")?;
    if levels.len() > MAX_LEVELS {
        let many = format!(
            "has {} levels; a project read whole has at most {MAX_LEVELS}",
            levels.len()
        );
        return Err(at.error(Some("levels"), many));
    }
    let defs = Definitions::read(&project, &at)?;
    (levels.iter())
        .map(|level| one(level, (&defs, mapping), &at, external))
        .collect()
}

/// The most levels [`read_all`] reads from one project.
pub const MAX_LEVELS: usize = 256;

/// One level of a parsed project, through its external file when it has one.
fn one(
    level: &Value,
    (defs, mapping): (&Definitions, &TileMapping),
    at: &Place,
    external: &mut dyn FnMut(&str) -> Result<String, MapError>,
) -> Result<EditorLevel, MapError> {
    let name = at.string(level, "identifier")?.to_owned();
    let at = at.level(&name);
    let external_level;
    let level = match level.get("layerInstances") {
        Some(Value::Array(_)) => level,
        _ => {
            let relative = at.string(level, "externalRelPath")?;
            let text = external(relative)?;
            external_level = parse(&text, relative)?;
            &external_level
        }
    };
    let fields = at.fields(level)?;
    let mut reading = Reading::new(mapping, defs);
    for layer in at.array(level, "layerInstances")?.iter().rev() {
        reading.layer(layer, &at)?;
    }
    reading.finish(name, fields, &at)
}

/// Reads a file's text, bounded as a data file is.
fn read_file(path: &Path, file: &str) -> Result<String, MapError> {
    denizen_core::read_data_file(path).map_err(|e| Place::file(file).error(None, e.to_string()))
}

/// Parses JSON text, an error naming the file, line and column.
fn parse(text: &str, file: &str) -> Result<Value, MapError> {
    serde_json::from_str(text)
        .map_err(|e| Place::file(file).error(None, format!("not LDtk JSON: {e}")))
}

/// The level `choice` names.
fn chosen<'a>(
    levels: &'a [Value],
    choice: &LevelChoice,
    at: &Place,
) -> Result<&'a Value, MapError> {
    let found = match choice {
        LevelChoice::Index(i) => levels.get(*i),
        LevelChoice::Name(name) => (levels.iter())
            .find(|level| level.get("identifier").and_then(Value::as_str) == Some(name)),
    };
    found.ok_or_else(|| {
        let names: Vec<&str> = (levels.iter())
            .filter_map(|l| l.get("identifier").and_then(Value::as_str))
            .take(20)
            .collect();
        let asked = match choice {
            LevelChoice::Name(name) => format!("`{}`", short(name)),
            LevelChoice::Index(i) => format!("at place {i}"),
        };
        at.error(None, format!("no level {asked}; it has {names:?}"))
    })
}

/// What the project's definitions say: each IntGrid layer's value names, and which
/// entities are resizable.
struct Definitions {
    /// Per layer definition uid: value to name.
    values: BTreeMap<i64, BTreeMap<i64, String>>,
    /// Per entity definition uid: whether it has a size.
    resizable: BTreeMap<i64, bool>,
}

impl Definitions {
    fn read(project: &Value, at: &Place) -> Result<Self, MapError> {
        let at = at.within("defs");
        let defs = project
            .get("defs")
            .ok_or_else(|| at.error(None, "missing".into()))?;
        let mut values = BTreeMap::new();
        for layer in at.array(defs, "layers")? {
            let uid = at.int(layer, "uid")?;
            let named = match layer.get("intGridValues") {
                Some(Value::Array(list)) => list
                    .iter()
                    .map(|v| {
                        Ok((
                            at.int(v, "value")?,
                            at.string(v, "identifier").unwrap_or("").to_owned(),
                        ))
                    })
                    .collect::<Result<_, MapError>>()?,
                _ => BTreeMap::new(),
            };
            values.insert(uid, named);
        }
        let mut resizable = BTreeMap::new();
        for entity in at.array(defs, "entities")? {
            let flag = |key| entity.get(key).and_then(Value::as_bool).unwrap_or(false);
            resizable.insert(
                at.int(entity, "uid")?,
                flag("resizableX") || flag("resizableY"),
            );
        }
        Ok(Self { values, resizable })
    }
}

/// A level being read: its grid's size, the tiles and tags its IntGrid layers gave, its
/// shapes.
struct Reading<'a> {
    mapping: &'a TileMapping,
    defs: &'a Definitions,
    /// Width, height and grid size of the level's squares, from its first grid layer.
    size: Option<(u32, u32, u32)>,
    tiles: BTreeMap<Square, Tile>,
    tags: BTreeMap<String, SquareSet>,
    regions: Regions,
    marks: Vec<Mark>,
    /// Entity layers, read once the grid's size is known.
    entities: Vec<&'a Value>,
}

impl<'a> Reading<'a> {
    fn new(mapping: &'a TileMapping, defs: &'a Definitions) -> Self {
        Self {
            mapping,
            defs,
            size: None,
            tiles: BTreeMap::new(),
            tags: BTreeMap::new(),
            regions: Regions::default(),
            marks: Vec::new(),
            entities: Vec::new(),
        }
    }

    /// Reads one layer instance (layers are read bottom first, so an upper layer's tile
    /// wins).
    fn layer(&mut self, layer: &'a Value, at: &Place) -> Result<(), MapError> {
        let name = at.string(layer, "__identifier")?;
        let at = at.layer(name);
        for key in ["__pxTotalOffsetX", "__pxTotalOffsetY"] {
            if layer.get(key).and_then(Value::as_i64).unwrap_or(0) != 0 {
                return Err(at.error(
                    Some(key),
                    "layer offsets are not read: set them to 0".into(),
                ));
            }
        }
        match at.string(layer, "__type")? {
            "IntGrid" => self.grid_layer(layer, &at),
            "Entities" => {
                self.entities.push(layer);
                Ok(())
            }
            "Tiles" | "AutoLayer" => Ok(()),
            other => Err(at.error(Some("__type"), format!("unknown layer type {other:?}"))),
        }
    }

    /// An IntGrid layer: its values' names to tiles and tags.
    fn grid_layer(&mut self, layer: &Value, at: &Place) -> Result<(), MapError> {
        let size = at.grid_size(layer)?;
        match self.size {
            None => {
                FloorGrid::new(size.0, size.1).map_err(|e| at.error(None, e.to_string()))?;
                self.size = Some(size);
            }
            Some(first) if first != size => {
                return Err(at.error(
                    None,
                    format!(
                        "its grid is {size:?} (width, height, pixels); the level's is {first:?}"
                    ),
                ));
            }
            Some(_) => {}
        }
        let (width, height, _) = size;
        let cells = at.array(layer, "intGridCsv")?;
        let expected = width as usize * height as usize;
        if cells.len() != expected {
            return Err(at.error(
                Some("intGridCsv"),
                format!(
                    "has {} values; a {width} x {height} layer has {expected}",
                    cells.len()
                ),
            ));
        }
        let uid = at.int(layer, "layerDefUid")?;
        let names = self.defs.values.get(&uid);
        let mut named: BTreeMap<&str, Vec<Square>> = BTreeMap::new();
        for (i, cell) in cells.iter().enumerate() {
            let value = cell.as_i64().ok_or_else(|| {
                at.error(
                    Some("intGridCsv"),
                    format!("value {i} is not a whole number"),
                )
            })?;
            if value == 0 {
                continue;
            }
            let name = names.and_then(|n| n.get(&value)).map(String::as_str);
            let name = name.filter(|n| !n.is_empty()).ok_or_else(|| {
                at.error(
                    Some("intGridCsv"),
                    format!("value {value} has no identifier in the layer's definition"),
                )
            })?;
            let square = Square {
                x: (i % width as usize) as u32,
                y: (i / width as usize) as u32,
            };
            named.entry(name).or_default().push(square);
        }
        for (name, squares) in named {
            if let Some(tile) = self.mapping.tile(name) {
                self.tiles.extend(squares.iter().map(|&s| (s, tile)));
            }
            let set: SquareSet = squares.into_iter().collect();
            let tagged = self.tags.entry(name.to_lowercase()).or_default();
            *tagged = tagged.union(&set);
        }
        Ok(())
    }

    /// The level: its grid, and its entity layers read into regions and marks.
    fn finish(
        mut self,
        name: String,
        fields: BTreeMap<String, FieldValue>,
        at: &Place,
    ) -> Result<EditorLevel, MapError> {
        let (width, height, pixels) = self
            .size
            .ok_or_else(|| at.error(None, "has no IntGrid layer to give its squares".into()))?;
        let mut grid = FloorGrid::new(width, height).map_err(|e| at.error(None, e.to_string()))?;
        for (&square, &tile) in &self.tiles {
            grid.set(square, tile);
        }
        for layer in std::mem::take(&mut self.entities) {
            let at = at.layer(at.string(layer, "__identifier")?);
            let size = at.grid_size(layer)?;
            if size.2 != pixels {
                return Err(at.error(
                    Some("__gridSize"),
                    format!("is {}; the level's squares are {pixels} pixels", size.2),
                ));
            }
            for entity in at.array(layer, "entityInstances")? {
                self.entity(entity, (width, height, pixels), &at)?;
            }
        }
        self.marks
            .sort_by(|a, b| (&a.kind, &a.id).cmp(&(&b.kind, &b.id)));
        Ok(EditorLevel {
            name,
            grid,
            tags: self.tags,
            regions: self.regions,
            marks: self.marks,
            fields,
        })
    }

    /// One entity: a region if its definition has a size, a mark if not.
    fn entity(
        &mut self,
        entity: &Value,
        (width, height, pixels): (u32, u32, u32),
        at: &Place,
    ) -> Result<(), MapError> {
        let kind = at.string(entity, "__identifier")?;
        let id = at.string(entity, "iid")?;
        let at = at.entity(kind, id);
        if self.regions.len() + self.marks.len() >= MAX_SHAPES {
            return Err(at.error(None, format!("a level holds at most {MAX_SHAPES} entities")));
        }
        let fields = at.fields(entity)?;
        let position = at.pair(entity, "px")?;
        let pivot = at.pair(entity, "__pivot")?;
        let (w, h) = (at.number(entity, "width")?, at.number(entity, "height")?);
        let left = position.0 - pivot.0 * w;
        let top = position.1 - pivot.1 * h;
        let (level_w, level_h) = (
            f64::from(width) * f64::from(pixels),
            f64::from(height) * f64::from(pixels),
        );
        let resizable = at
            .int(entity, "defUid")
            .ok()
            .and_then(|uid| self.defs.resizable.get(&uid).copied());
        if resizable.unwrap_or(false) {
            if left < 0.0
                || top < 0.0
                || left + w > level_w
                || top + h > level_h
                || w < 0.0
                || h < 0.0
            {
                return Err(at.error(
                    None,
                    format!("its box ({left}, {top}) {w} x {h} lies past the level"),
                ));
            }
            let squares = rect_squares(left, top, left + w, top + h, f64::from(pixels));
            if squares.is_empty() {
                return Err(at.error(None, "its box covers no square's centre".into()));
            }
            for tag in at.tags(entity)? {
                let tagged = self.tags.entry(tag.to_lowercase()).or_default();
                *tagged = tagged.union(&squares);
            }
            let mut region = Region::new(kind.to_lowercase(), id, squares);
            region.fields = fields;
            self.regions
                .insert(region)
                .map_err(|e| at.error(None, e.to_string()))
        } else {
            // A point is where its box's centre is, whatever its pivot.
            let centre = (left + w / 2.0, top + h / 2.0);
            if !(0.0..level_w).contains(&centre.0) || !(0.0..level_h).contains(&centre.1) {
                return Err(at.error(
                    Some("px"),
                    format!("its centre {centre:?} lies past the level"),
                ));
            }
            let at_square = point_square(centre.0, centre.1, f64::from(pixels));
            self.marks.push(Mark {
                kind: kind.to_lowercase(),
                id: id.to_owned(),
                at: at_square,
                fields,
            });
            Ok(())
        }
    }
}

/// Where in a file a value is, for errors: "level `Cave`, layer `Walls`, entity `Lair`
/// (iid ...)".
#[derive(Clone)]
struct Place {
    file: String,
    path: Vec<String>,
}

impl Place {
    fn file(file: &str) -> Self {
        Self {
            file: file.to_owned(),
            path: Vec::new(),
        }
    }

    fn within(&self, part: &str) -> Self {
        let mut next = self.clone();
        next.path.push(part.to_owned());
        next
    }

    fn level(&self, name: &str) -> Self {
        self.within(&format!("level `{}`", short(name)))
    }

    fn layer(&self, name: &str) -> Self {
        self.within(&format!("layer `{}`", short(name)))
    }

    fn entity(&self, kind: &str, id: &str) -> Self {
        self.within(&format!("entity `{}` ({})", short(kind), short(id)))
    }

    fn error(&self, field: Option<&str>, message: String) -> MapError {
        MapError {
            file: self.file.clone(),
            place: if self.path.is_empty() {
                "the project".into()
            } else {
                self.path.join(", ")
            },
            field: field.map(str::to_owned),
            message,
        }
    }

    fn get<'v>(&self, value: &'v Value, key: &str) -> Result<&'v Value, MapError> {
        value
            .get(key)
            .ok_or_else(|| self.error(Some(key), "missing".into()))
    }

    fn string<'v>(&self, value: &'v Value, key: &str) -> Result<&'v str, MapError> {
        self.get(value, key)?
            .as_str()
            .ok_or_else(|| self.error(Some(key), "is not text".into()))
    }

    fn int(&self, value: &Value, key: &str) -> Result<i64, MapError> {
        self.get(value, key)?
            .as_i64()
            .ok_or_else(|| self.error(Some(key), "is not a whole number".into()))
    }

    fn number(&self, value: &Value, key: &str) -> Result<f64, MapError> {
        (self.get(value, key)?.as_f64())
            .filter(|n| n.is_finite() && n.abs() < 1e9)
            .ok_or_else(|| self.error(Some(key), "is not a number within a billion".into()))
    }

    fn array<'v>(&self, value: &'v Value, key: &str) -> Result<&'v [Value], MapError> {
        self.get(value, key)?
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| self.error(Some(key), "is not a list".into()))
    }

    fn pair(&self, value: &Value, key: &str) -> Result<(f64, f64), MapError> {
        let list = self.array(value, key)?;
        let number = |v: &Value| v.as_f64().filter(|n| n.is_finite() && n.abs() < 1e9);
        match list {
            [x, y] => number(x).zip(number(y)),
            _ => None,
        }
        .ok_or_else(|| self.error(Some(key), "is not a pair of numbers".into()))
    }

    /// A layer's width, height and grid size, each a positive whole number.
    fn grid_size(&self, layer: &Value) -> Result<(u32, u32, u32), MapError> {
        let positive = |key| {
            let n = self.int(layer, key)?;
            u32::try_from(n)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| self.error(Some(key), format!("{n} is not a size")))
        };
        Ok((
            positive("__cWid")?,
            positive("__cHei")?,
            positive("__gridSize")?,
        ))
    }

    /// An entity's editor tags.
    fn tags<'v>(&self, entity: &'v Value) -> Result<Vec<&'v str>, MapError> {
        match entity.get("__tags") {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(tags)) => tags
                .iter()
                .map(|t| {
                    t.as_str().ok_or_else(|| {
                        self.error(Some("__tags"), "holds a tag that is not text".into())
                    })
                })
                .collect(),
            Some(_) => Err(self.error(Some("__tags"), "is not a list".into())),
        }
    }

    /// The typed fields of a level or entity: text, whole numbers and flags; fields of
    /// other types, and empty ones, are left out.
    fn fields(&self, value: &Value) -> Result<BTreeMap<String, FieldValue>, MapError> {
        let mut fields = BTreeMap::new();
        let Some(list) = value.get("fieldInstances") else {
            return Ok(fields);
        };
        let list = list
            .as_array()
            .ok_or_else(|| self.error(Some("fieldInstances"), "is not a list".into()))?;
        for field in list {
            let name = self.string(field, "__identifier")?;
            let kind = self.string(field, "__type")?;
            let value = field.get("__value").unwrap_or(&Value::Null);
            let read = match (kind, value) {
                (_, Value::Null) => None,
                ("Int", v) => {
                    Some(FieldValue::Int(v.as_i64().ok_or_else(|| {
                        self.error(Some(name), "is not a whole number".into())
                    })?))
                }
                ("Bool", v) => {
                    Some(FieldValue::Flag(v.as_bool().ok_or_else(|| {
                        self.error(Some(name), "is not a flag".into())
                    })?))
                }
                ("String" | "Multilines" | "FilePath" | "Color", v) => {
                    Some(FieldValue::Text(self.text(v, name)?))
                }
                (enumeration, v)
                    if enumeration.starts_with("LocalEnum.")
                        || enumeration.starts_with("ExternEnum.") =>
                {
                    Some(FieldValue::Text(self.text(v, name)?))
                }
                _ => None,
            };
            if let Some(read) = read {
                fields.insert(name.to_owned(), read);
            }
        }
        if fields.len() > denizen_core::regions::MAX_FIELDS {
            let most = denizen_core::regions::MAX_FIELDS;
            return Err(self.error(
                Some("fieldInstances"),
                format!("has {} fields; at most {most} are read", fields.len()),
            ));
        }
        Ok(fields)
    }

    fn text(&self, value: &Value, field: &str) -> Result<String, MapError> {
        value
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.error(Some(field), "is not text".into()))
    }
}
