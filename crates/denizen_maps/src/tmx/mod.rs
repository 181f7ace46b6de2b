//! Tiled maps (`.tmx`, orthogonal, finite), read with the `tiled` crate (its default
//! features off: no C library) as an [`EditorLevel`] (see the [crate docs](crate) for
//! what each part becomes).
//!
//! - **Tile layers** give the grid and the tags: a tile's class (its `class`, or the older
//!   `type`) is the name looked up in the [`TileMapping`] and tagging the square; a later
//!   layer's tile wins where two map a square.
//! - **Object layers** give regions (rectangles, ellipses and polygons: the object's class
//!   is the kind, its id the region's id, its properties the fields) and marks (points).
//! - **The map's properties** are the level's fields.
//! - **External tilesets** (`.tsx`) and **templates** (`.tx`) are read through the closure
//!   that hands over other files.
//!
//! Image layers are drawing and are not read. Refused by name: a group layer (move its
//! layers out), a map that is not orthogonal, an infinite (chunked) map, compressed
//! layer data (save the map with the CSV or uncompressed Base64 layer format), a layer
//! whose data does not fill it, a rotated object, and a polyline, text, capsule or tile
//! object where a region is expected.

use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use denizen_core::regions::{FieldValue, Region, Regions};
use denizen_core::{FloorGrid, Square, SquareSet};
use tiled::{LayerType, Loader, ObjectShape, PropertyValue, TileLayer};

use crate::raster::{Shape, point_square, rect_squares, shape_squares};
use crate::{EditorLevel, MAX_SHAPES, MapError, Mark, TileMapping, short};

mod check;

/// Reads the map at `path`, and the tilesets and templates it names.
pub fn read_path(path: &Path, mapping: &TileMapping) -> Result<EditorLevel, MapError> {
    let file = path.display().to_string();
    let text =
        denizen_core::read_data_file(path).map_err(|e| error(&file, "the map", e.to_string()))?;
    let folder = path.parent().unwrap_or(Path::new("")).to_owned();
    read(&text, &file, mapping, &mut |relative| {
        let other = folder.join(relative);
        denizen_core::read_data_file(&other)
            .map_err(|e| error(&other.display().to_string(), "the file", e.to_string()))
    })
}

/// Reads the map `text` (named `file` in errors). `external` gives the text of a tileset
/// or template file, named relative to the map's folder.
pub fn read(
    text: &str,
    file: &str,
    mapping: &TileMapping,
    external: &mut dyn FnMut(&str) -> Result<String, MapError>,
) -> Result<EditorLevel, MapError> {
    check::check(text, file)?;
    let name = Path::new(file)
        .file_stem()
        .map_or(file.to_owned(), |s| s.to_string_lossy().into_owned());
    let main = PathBuf::from(format!("{name}.tmx"));
    let mut files = Files {
        main: (main.clone(), text.to_owned()),
        external,
        failed: None,
        read: Default::default(),
    };
    let loaded = Loader::with_reader(&mut files).load_tmx_map(&main);
    let map = match (loaded, files.failed) {
        (_, Some(failed)) => return Err(failed),
        (Err(e), None) => return Err(error(file, "the map", e.to_string())),
        (Ok(map), None) => map,
    };
    if map.orientation != tiled::Orientation::Orthogonal {
        return Err(error(
            file,
            "the map",
            format!("is {:?}; only orthogonal maps are read", map.orientation),
        ));
    }
    if map.infinite() {
        return Err(error(
            file,
            "the map",
            "is infinite (chunked); only finite maps are read".into(),
        ));
    }
    let (width, height) = (map.width, map.height);
    let mut grid =
        FloorGrid::new(width, height).map_err(|e| error(file, "the map", e.to_string()))?;
    if map.tile_width == 0 || map.tile_width != map.tile_height {
        return Err(error(
            file,
            "the map",
            format!(
                "its tiles are {} x {}; square tiles are read",
                map.tile_width, map.tile_height
            ),
        ));
    }
    let pixels = f64::from(map.tile_width);
    let mut level = Level {
        tags: BTreeMap::new(),
        regions: Regions::default(),
        marks: Vec::new(),
    };
    for layer in map.layers() {
        let at = format!("layer `{}`", short(&layer.name));
        match layer.layer_type() {
            LayerType::Tiles(TileLayer::Finite(tiles)) => {
                // The check made every layer the map's size, its data one tile a square.
                let mut named: BTreeMap<String, Vec<Square>> = BTreeMap::new();
                for y in 0..height.min(tiles.height()) {
                    for x in 0..width.min(tiles.width()) {
                        let Some(class) = tiles
                            .get_tile(x as i32, y as i32)
                            .and_then(|t| t.get_tile())
                            .map(|t| t.user_type.clone())
                        else {
                            continue;
                        };
                        if class.is_empty() {
                            continue;
                        }
                        let square = Square { x, y };
                        if let Some(tile) = mapping.tile(&class) {
                            grid.set(square, tile);
                        }
                        named.entry(class.to_lowercase()).or_default().push(square);
                    }
                }
                for (name, squares) in named {
                    let tagged = level.tags.entry(name).or_default();
                    *tagged = tagged.union(&squares.into_iter().collect());
                }
            }
            LayerType::Tiles(TileLayer::Infinite(_)) => {
                return Err(error(
                    file,
                    &at,
                    "is infinite (chunked); only finite layers are read".into(),
                ));
            }
            LayerType::Objects(objects) => {
                for object in objects.objects() {
                    level.object(&object, (width, height, pixels), file, &at)?;
                }
            }
            LayerType::Image(_) => {}
            LayerType::Group(_) => {
                return Err(error(
                    file,
                    &at,
                    "is a group; the layers inside groups are not read: move them out".into(),
                ));
            }
        }
    }
    level
        .marks
        .sort_by(|a, b| (&a.kind, &a.id).cmp(&(&b.kind, &b.id)));
    Ok(EditorLevel {
        name,
        grid,
        tags: level.tags,
        regions: level.regions,
        marks: level.marks,
        fields: fields(&map.properties, file, "the map")?,
    })
}

/// The most corners a polygon may have.
const MAX_CORNERS: usize = 1024;

/// The tags, regions and marks read so far.
struct Level {
    tags: BTreeMap<String, SquareSet>,
    regions: Regions,
    marks: Vec<Mark>,
}

impl Level {
    /// One object: a region if it has an area, a mark if it is a point.
    fn object(
        &mut self,
        object: &tiled::Object,
        (width, height, pixels): (u32, u32, f64),
        file: &str,
        layer: &str,
    ) -> Result<(), MapError> {
        let kind = object.user_type.to_lowercase();
        let id = object.id().to_string();
        let at = format!("{layer}, object `{}` (id {id})", short(&kind));
        if self.regions.len() + self.marks.len() >= MAX_SHAPES {
            return Err(error(
                file,
                &at,
                format!("a map holds at most {MAX_SHAPES} objects"),
            ));
        }
        if kind.is_empty() {
            return Err(error(
                file,
                &at,
                "has no class: its class is its kind".into(),
            ));
        }
        if object.rotation != 0.0 {
            return Err(error(
                file,
                &at,
                "is rotated; rotated objects are not read".into(),
            ));
        }
        if object.tile_data().is_some() {
            return Err(error(
                file,
                &at,
                "is a tile object; a region is a rectangle, ellipse or polygon".into(),
            ));
        }
        let (x, y) = (f64::from(object.x), f64::from(object.y));
        let (level_w, level_h) = (f64::from(width) * pixels, f64::from(height) * pixels);
        let fields = fields(&object.properties, file, &at)?;
        let outline: Vec<(f64, f64)> = match &object.shape {
            ObjectShape::Point(..) => {
                if !(0.0..level_w).contains(&x) || !(0.0..level_h).contains(&y) {
                    return Err(error(
                        file,
                        &at,
                        format!("its point ({x}, {y}) lies past the map"),
                    ));
                }
                let square = point_square(x, y, pixels);
                self.marks.push(Mark {
                    kind,
                    id,
                    at: square,
                    fields,
                });
                return Ok(());
            }
            ObjectShape::Rect { width, height } | ObjectShape::Ellipse { width, height } => {
                let (w, h) = (f64::from(*width), f64::from(*height));
                vec![(x, y), (x + w, y + h)]
            }
            ObjectShape::Polygon { points } if points.len() > MAX_CORNERS => {
                let message = format!(
                    "is a polygon of {} corners; at most {MAX_CORNERS} are read",
                    points.len()
                );
                return Err(error(file, &at, message));
            }
            ObjectShape::Polygon { points } => points
                .iter()
                .map(|&(px, py)| (x + f64::from(px), y + f64::from(py)))
                .collect(),
            ObjectShape::Polyline { .. } => {
                return Err(error(
                    file,
                    &at,
                    "is a polyline; a region is a rectangle, ellipse or polygon".into(),
                ));
            }
            ObjectShape::Text { .. } => {
                return Err(error(
                    file,
                    &at,
                    "is text; a region is a rectangle, ellipse or polygon".into(),
                ));
            }
            _ => {
                return Err(error(
                    file,
                    &at,
                    "is not a rectangle, ellipse, polygon or point".into(),
                ));
            }
        };
        if outline
            .iter()
            .any(|&(px, py)| !(0.0..=level_w).contains(&px) || !(0.0..=level_h).contains(&py))
        {
            return Err(error(file, &at, "lies past the map".into()));
        }
        let squares = match &object.shape {
            ObjectShape::Rect { .. } => rect_squares(
                outline[0].0,
                outline[0].1,
                outline[1].0,
                outline[1].1,
                pixels,
            ),
            ObjectShape::Ellipse { .. } => shape_squares(
                &Shape::Ellipse {
                    left: outline[0].0,
                    top: outline[0].1,
                    right: outline[1].0,
                    bottom: outline[1].1,
                },
                pixels,
            ),
            _ => shape_squares(&Shape::Polygon(&outline), pixels),
        };
        if squares.is_empty() {
            return Err(error(file, &at, "covers no square's centre".into()));
        }
        let mut region = Region::new(kind, id, squares);
        region.fields = fields;
        self.regions
            .insert(region)
            .map_err(|e| error(file, &at, e.to_string()))
    }
}

/// Properties as fields: text (strings, files, colours), whole numbers and flags; others
/// (floats, object references, lists, classes) are left out.
fn fields(
    properties: &tiled::Properties,
    file: &str,
    at: &str,
) -> Result<BTreeMap<String, FieldValue>, MapError> {
    let mut fields = BTreeMap::new();
    for (name, value) in properties {
        let read = match value {
            PropertyValue::BoolValue(flag) => FieldValue::Flag(*flag),
            PropertyValue::IntValue(n) => FieldValue::Int(i64::from(*n)),
            PropertyValue::StringValue(text) | PropertyValue::FileValue(text) => {
                FieldValue::Text(text.clone())
            }
            _ => continue,
        };
        fields.insert(name.clone(), read);
    }
    if fields.len() > denizen_core::regions::MAX_FIELDS {
        return Err(error(
            file,
            at,
            format!(
                "has {} properties; at most {} are read",
                fields.len(),
                denizen_core::regions::MAX_FIELDS
            ),
        ));
    }
    Ok(fields)
}

/// Hands `tiled` the map's text and the other files it names, keeping the first failure
/// to report it by name.
struct Files<'a> {
    main: (PathBuf, String),
    external: &'a mut dyn FnMut(&str) -> Result<String, MapError>,
    failed: Option<MapError>,
    /// The other files read so far: a file is read once (`tiled` keeps what it read), so
    /// a second read is a cycle of templates or tilesets.
    read: std::collections::BTreeSet<PathBuf>,
}

/// The most other files (tilesets and templates) one map may name.
const MAX_FILES: usize = 256;

impl tiled::ResourceReader for &mut Files<'_> {
    type Resource = Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        if path == self.main.0 {
            return Ok(Cursor::new(self.main.1.clone().into_bytes()));
        }
        let name = path.to_string_lossy().into_owned();
        let read = match (
            self.read.len() >= MAX_FILES,
            self.read.insert(path.to_owned()),
        ) {
            (true, _) => Err(error(
                &name,
                "the file",
                format!("is one file past the {MAX_FILES} a map may name"),
            )),
            (false, false) => Err(error(
                &name,
                "the file",
                "names itself through its templates or tilesets".into(),
            )),
            (false, true) => {
                (self.external)(&name).and_then(|text| check::check(&text, &name).map(|()| text))
            }
        };
        match read {
            Ok(text) => Ok(Cursor::new(text.into_bytes())),
            Err(failed) => {
                let message = failed.to_string();
                self.failed.get_or_insert(failed);
                Err(std::io::Error::other(message))
            }
        }
    }
}

pub(super) fn error(file: &str, place: &str, message: String) -> MapError {
    MapError {
        file: file.to_owned(),
        place: place.to_owned(),
        field: None,
        message,
    }
}
