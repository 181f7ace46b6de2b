//! The check every Tiled file (the map, and each tileset and template it names) passes
//! before the `tiled` crate reads it. `tiled` 0.16 trusts its input where a crafted file
//! would crash or exhaust the process: it indexes a layer's tiles without a bound, inflates
//! compressed data without a limit, reserves a tileset's `tilecount` up front, computes
//! columns by unchecked arithmetic, and recurses through groups, nested properties and
//! templates. So the file is read here first, as `tiled` would read it, and refused by name
//! where any of that could happen:
//!
//! - elements nested deeper than [`MAX_DEPTH`], group layers, namespaced names and CDATA;
//! - a layer whose size is not the map's, or whose data is compressed, XML tiles, or not
//!   exactly one tile per square;
//! - a tileset of more than [`MAX_TILES`] tiles, without `columns`, or with sizes, spacing
//!   or margin past [`MAX_PIXELS`];
//! - sizes that are not whole numbers, and maps past the floor limit.

use std::collections::BTreeMap;

use quick_xml::events::{BytesStart, Event};

use super::error;
use crate::MapError;

/// The deepest element nesting a file may have.
pub(super) const MAX_DEPTH: usize = 32;

/// The most tiles a tileset may declare.
pub(super) const MAX_TILES: u32 = 65_536;

/// The largest tile, image, spacing or margin, in pixels.
pub(super) const MAX_PIXELS: u32 = 65_536;

/// What the check is reading: the map's size, the layer being read and its squares, and
/// whether its data is open.
#[derive(Default)]
struct Reading {
    map: Option<(u32, u32)>,
    layer: Option<(String, u64)>,
    data: Option<String>,
    depth: usize,
}

/// Checks one Tiled file (`file` names it in errors).
pub(super) fn check(text: &str, file: &str) -> Result<(), MapError> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut r = Reading::default();
    loop {
        let event = reader
            .read_event()
            .map_err(|e| error(file, "the file", format!("not Tiled XML: {e}")))?;
        match event {
            Event::Start(e) => {
                r.depth += 1;
                if r.depth > MAX_DEPTH {
                    return Err(error(
                        file,
                        "the file",
                        format!("nests elements deeper than {MAX_DEPTH}"),
                    ));
                }
                r.element(&e, file)?;
            }
            Event::Empty(e) => {
                r.element(&e, file)?;
                if e.local_name().as_ref() == b"data" {
                    r.text("", file)?;
                }
            }
            Event::End(e) => {
                r.depth = r.depth.saturating_sub(1);
                if e.local_name().as_ref() == b"data" && r.data.is_some() {
                    r.text("", file)?;
                }
            }
            Event::Text(t) if r.data.is_some() => {
                let text = t
                    .unescape()
                    .map_err(|e| error(file, &r.place(), format!("its data does not read: {e}")))?;
                r.text(&text, file)?;
            }
            Event::CData(_) => {
                return Err(error(
                    file,
                    &r.place(),
                    "holds CDATA, which is not read".into(),
                ));
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

impl Reading {
    /// Where the check is, for errors.
    fn place(&self) -> String {
        self.layer
            .as_ref()
            .map_or("the map".into(), |l| l.0.clone())
    }

    /// One element's start: its name and attributes checked.
    fn element(&mut self, e: &BytesStart, file: &str) -> Result<(), MapError> {
        let name = e.name();
        if name.as_ref().contains(&b':') {
            return Err(error(
                file,
                &self.place(),
                "holds a namespaced element, which is not read".into(),
            ));
        }
        let attrs = attributes(e, file, &self.place())?;
        let size = |key: &str| -> Result<u32, MapError> {
            match attrs.get(key) {
                None => Ok(0),
                Some(v) => v.trim().parse().map_err(|_| {
                    error(
                        file,
                        "the file",
                        format!("`{key}` {v:?} is not a whole number"),
                    )
                }),
            }
        };
        match name.as_ref() {
            b"map" => {
                let (width, height) = (size("width")?, size("height")?);
                if u64::from(width) * u64::from(height) > denizen_core::MAX_SQUARES {
                    return Err(error(
                        file,
                        "the map",
                        format!(
                            "is {width} x {height} squares; a floor holds at most {}",
                            denizen_core::MAX_SQUARES
                        ),
                    ));
                }
                if attrs.get("infinite").is_some_and(|v| v.trim() == "1") {
                    return Err(error(
                        file,
                        "the map",
                        "is infinite (chunked); only finite maps are read".into(),
                    ));
                }
                self.map = Some((width, height));
            }
            b"layer" => {
                let at = format!(
                    "layer `{}`",
                    crate::short(attrs.get("name").map_or("", String::as_str))
                );
                let size = (size("width")?, size("height")?);
                if Some(size) != self.map {
                    return Err(error(
                        file,
                        &at,
                        format!(
                            "is {} x {}; the map is {:?}",
                            size.0,
                            size.1,
                            self.map.unwrap_or_default()
                        ),
                    ));
                }
                offsets(&attrs, file, &at)?;
                self.layer = Some((at, u64::from(size.0) * u64::from(size.1)));
            }
            b"objectgroup" | b"imagelayer" => offsets(
                &attrs,
                file,
                &format!(
                    "layer `{}`",
                    crate::short(attrs.get("name").map_or("", String::as_str))
                ),
            )?,
            b"group" => {
                return Err(error(
                    file,
                    "a group layer",
                    "is a group; the layers inside groups are not read: move them out".into(),
                ));
            }
            b"chunk" => {
                return Err(error(
                    file,
                    "the map",
                    "is infinite (chunked); only finite maps are read".into(),
                ));
            }
            b"data" => {
                let at = self.place();
                if let Some(compression) = attrs.get("compression") {
                    return Err(error(
                        file,
                        &at,
                        format!(
                            "its data is {compression}-compressed; save the map with the CSV or uncompressed Base64 layer format"
                        ),
                    ));
                }
                let encoding = attrs.get("encoding").ok_or_else(|| {
                    error(
                        file,
                        &at,
                        "its data is XML tiles; save the map with the CSV or Base64 layer format"
                            .into(),
                    )
                })?;
                self.data = Some(encoding.clone());
            }
            b"tileset" => {
                let tiles = size("tilecount")?;
                if tiles > MAX_TILES {
                    return Err(error(
                        file,
                        "a tileset",
                        format!("declares {tiles} tiles; at most {MAX_TILES} are read"),
                    ));
                }
                if attrs.contains_key("tilecount") && !attrs.contains_key("columns") {
                    return Err(error(file, "a tileset", "gives no `columns`".into()));
                }
                for key in ["tilewidth", "tileheight", "spacing", "margin"] {
                    if size(key)? > MAX_PIXELS {
                        return Err(error(
                            file,
                            "a tileset",
                            format!("its `{key}` is past {MAX_PIXELS} pixels"),
                        ));
                    }
                }
            }
            b"image" => {
                for key in ["width", "height"] {
                    if size(key)? > MAX_PIXELS {
                        return Err(error(
                            file,
                            "an image",
                            format!("its `{key}` is past {MAX_PIXELS} pixels"),
                        ));
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The open data's text: one tile per square of its layer.
    fn text(&mut self, text: &str, file: &str) -> Result<(), MapError> {
        let (Some(encoding), Some((at, squares))) = (self.data.take(), &self.layer) else {
            return Ok(());
        };
        let count = match encoding.as_str() {
            "csv" => text.split(',').filter(|v| !v.trim().is_empty()).count() as u64,
            "base64" => {
                let chars = text.chars().filter(|c| !c.is_whitespace()).count() as u64;
                let padding = text
                    .trim_end()
                    .chars()
                    .rev()
                    .take_while(|&c| c == '=')
                    .count() as u64;
                (chars / 4 * 3).saturating_sub(padding) / 4
            }
            other => {
                return Err(error(
                    file,
                    at,
                    format!("its data's encoding {other:?} is not read"),
                ));
            }
        };
        if count != *squares {
            return Err(error(
                file,
                at,
                format!("its data holds {count} tiles; the layer has {squares} squares"),
            ));
        }
        Ok(())
    }
}

/// A layer's pixel offsets must be 0: they are not read.
fn offsets(attrs: &BTreeMap<String, String>, file: &str, at: &str) -> Result<(), MapError> {
    for key in ["offsetx", "offsety"] {
        if attrs
            .get(key)
            .is_some_and(|v| v.trim().parse::<f64>() != Ok(0.0))
        {
            return Err(error(
                file,
                at,
                format!("its `{key}` is not 0; layer offsets are not read"),
            ));
        }
    }
    Ok(())
}

/// An element's attributes by name; a namespaced or unreadable one is refused.
fn attributes(e: &BytesStart, file: &str, at: &str) -> Result<BTreeMap<String, String>, MapError> {
    let mut attrs = BTreeMap::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|e| error(file, at, format!("an attribute does not read: {e}")))?;
        let key = String::from_utf8(attr.key.as_ref().to_vec()).unwrap_or_default();
        if key.contains(':') && !key.starts_with("xmlns") {
            return Err(error(
                file,
                at,
                format!(
                    "its attribute `{}` is namespaced, which is not read",
                    crate::short(&key)
                ),
            ));
        }
        let value = attr
            .unescape_value()
            .map_err(|e| error(file, at, format!("an attribute does not read: {e}")))?;
        attrs.insert(key, value.into_owned());
    }
    Ok(attrs)
}
