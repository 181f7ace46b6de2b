//! The Tiled reader against hand-made maps: tile classes to tiles and tags, every object
//! shape (a square on a region's outline decided as documented), properties as fields,
//! an external tileset, and broken maps refused in one line naming the file, the layer
//! or object and what is wrong.

use denizen_core::Square;
use denizen_core::regions::FieldValue;
use denizen_maps::{MapError, TileMapping, tmx};

/// The tileset: four tiles, each of a class.
const TILESET: &str = r#"<tileset version="1.10" name="terrain" tilewidth="16" tileheight="16" tilecount="4" columns="4">
  <tile id="0" class="wall"/>
  <tile id="1" class="floor"/>
  <tile id="2" class="water"/>
  <tile id="3" class="lava"/>
 </tileset>"#;

/// A 6 x 4 map of 16-pixel tiles with `objects` in its object layer and `data` as its tile
/// layer's CSV.
fn map(objects: &str, data: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="6" height="4" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="9">
 <properties>
  <property name="depth" type="int" value="5"/>
  <property name="winter" type="bool" value="true"/>
  <property name="scale" type="float" value="1.5"/>
 </properties>
 <tileset firstgid="1" source="terrain.tsx"/>
 <layer id="1" name="Ground" width="6" height="4">
  <data encoding="csv">{data}</data>
 </layer>
 <objectgroup id="2" name="Regions">{objects}</objectgroup>
</map>"#
    )
}

const GROUND: &str = "1,1,1,1,1,1,\n1,2,2,3,3,1,\n1,2,4,2,2,1,\n1,1,1,1,1,1";

/// A lair rectangle with properties, a pool ellipse, a camp triangle and a start point.
const OBJECTS: &str = r#"
  <object id="1" type="lair" x="16" y="16" width="32" height="32">
   <properties>
    <property name="count" type="int" value="3"/>
    <property name="table" value="bog"/>
   </properties>
  </object>
  <object id="2" type="pool" x="48" y="16" width="32" height="32"><ellipse/></object>
  <object id="3" type="camp" x="0" y="0"><polygon points="0,0 48,0 0,48"/></object>
  <object id="4" type="start" x="40" y="24"><point/></object>
"#;

fn read(text: &str) -> Result<denizen_maps::EditorLevel, MapError> {
    tmx::read(text, "marsh.tmx", &TileMapping::default(), &mut |name| {
        assert_eq!(name, "terrain.tsx");
        Ok(TILESET.to_owned())
    })
}

fn squares(set: &denizen_core::SquareSet) -> Vec<(u32, u32)> {
    set.iter().map(|s| (s.x, s.y)).collect()
}

#[test]
fn a_map_becomes_a_grid_tags_regions_marks_and_fields() {
    let level = read(&map(OBJECTS, GROUND)).unwrap();
    assert_eq!(level.name, "marsh");
    let rows = level.grid.render(|_| None);
    assert_eq!(rows, "######\n#..~~#\n#.#..#\n######\n");
    assert_eq!(squares(&level.tags["lava"]), [(2, 2)]);
    let lair = level.regions.get("1").unwrap();
    assert_eq!(lair.kind, "lair");
    assert_eq!(squares(&lair.squares), [(1, 1), (2, 1), (1, 2), (2, 2)]);
    assert_eq!(lair.fields["count"], FieldValue::Int(3));
    assert_eq!(lair.fields["table"], FieldValue::Text("bog".into()));
    // The ellipse in the box 48..80 x 16..48: the four centres (56|72, 24|40) lie inside.
    assert_eq!(
        squares(&level.regions.get("2").unwrap().squares),
        [(3, 1), (4, 1), (3, 2), (4, 2)]
    );
    // The triangle (0,0) (48,0) (0,48): centres with x + y < 48, and (24, 24)... on the
    // hypotenuse x + y = 48 the shape lies up and left, so those centres are out.
    assert_eq!(
        squares(&level.regions.get("3").unwrap().squares),
        [(0, 0), (1, 0), (0, 1)]
    );
    assert_eq!(
        (level.marks[0].kind.as_str(), level.marks[0].at),
        ("start", Square { x: 2, y: 1 })
    );
    assert_eq!(level.fields["depth"], FieldValue::Int(5));
    assert_eq!(level.fields["winter"], FieldValue::Flag(true));
    assert!(!level.fields.contains_key("scale"), "floats are left out");
    assert_eq!(read(&map(OBJECTS, GROUND)).unwrap(), level);
}

/// A rectangle whose left edge runs through a column of centres takes it; its right edge
/// through the next column leaves that one.
#[test]
fn a_square_on_a_regions_edge_is_decided_by_the_rule() {
    let objects = r#"<object id="1" type="lair" x="8" y="8" width="32" height="32"/>"#;
    let level = read(&map(objects, GROUND)).unwrap();
    assert_eq!(
        squares(&level.regions.get("1").unwrap().squares),
        [(0, 0), (1, 0), (0, 1), (1, 1)]
    );
}

/// Each broken map is refused in one line naming the file, the layer or object, and why.
#[test]
fn broken_maps_are_refused_by_name() {
    let cases = [
        (
            "a polyline",
            map(
                r#"<object id="7" type="river" x="0" y="0"><polyline points="0,0 16,16"/></object>"#,
                GROUND,
            ),
            "marsh.tmx: layer `Regions`, object `river` (id 7): is a polyline; a region is a rectangle, ellipse or polygon",
        ),
        (
            "text",
            map(
                r#"<object id="7" type="sign" x="0" y="0" width="16" height="16"><text>hi</text></object>"#,
                GROUND,
            ),
            "marsh.tmx: layer `Regions`, object `sign` (id 7): is text",
        ),
        (
            "a rotated object",
            map(
                r#"<object id="7" type="lair" x="16" y="16" width="16" height="16" rotation="45"/>"#,
                GROUND,
            ),
            "marsh.tmx: layer `Regions`, object `lair` (id 7): is rotated",
        ),
        (
            "an object past the map",
            map(
                r#"<object id="7" type="lair" x="80" y="16" width="32" height="16"/>"#,
                GROUND,
            ),
            "marsh.tmx: layer `Regions`, object `lair` (id 7): lies past the map",
        ),
        (
            "a short layer",
            map("", "1,1,1"),
            "marsh.tmx: layer `Ground`: its data holds 3 tiles; the layer has 24 squares",
        ),
        (
            "compressed data",
            map("", GROUND).replace(
                r#"encoding="csv""#,
                r#"encoding="base64" compression="zstd""#,
            ),
            "marsh.tmx: layer `Ground`: its data is zstd-compressed",
        ),
        (
            "a huge map",
            map("", GROUND).replace(
                r#"width="6" height="4" tilewidth"#,
                r#"width="100000" height="100000" tilewidth"#,
            ),
            "marsh.tmx: the map: is 100000 x 100000 squares",
        ),
        (
            "an infinite map",
            map("", GROUND).replace(r#"infinite="0""#, r#"infinite="1""#),
            "marsh.tmx: the map: is infinite",
        ),
        (
            "truncated XML",
            map(OBJECTS, GROUND)[..300].to_owned(),
            "marsh.tmx: the file: not Tiled XML",
        ),
    ];
    for (what, text, expected) in cases {
        let error = read(&text).unwrap_err().to_string();
        assert!(error.starts_with(expected), "{what}: {error}");
        assert!(!error.contains('\n'), "{what}: {error}");
    }
    let missing = tmx::read(
        &map("", GROUND),
        "marsh.tmx",
        &TileMapping::default(),
        &mut |name| {
            Err(MapError {
                file: name.into(),
                place: "the file".into(),
                field: None,
                message: "not found".into(),
            })
        },
    )
    .unwrap_err();
    assert_eq!(missing.to_string(), "terrain.tsx: the file: not found");
}

/// The map cut short at every byte, and with each byte of its layer data and objects
/// changed, reads or is refused, never panics.
#[test]
fn a_damaged_map_never_panics() {
    let read = |text: &str| {
        tmx::read(
            text,
            "marsh.tmx",
            &TileMapping::default(),
            &mut |name| match name {
                "terrain.tsx" => Ok(TILESET.to_owned()),
                _ => Err(MapError {
                    file: name.into(),
                    place: "the file".into(),
                    field: None,
                    message: "none".into(),
                }),
            },
        )
    };
    let text = map(OBJECTS, GROUND);
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = read(&text[..end]);
    }
    let bytes = text.as_bytes();
    for at in 0..bytes.len() {
        for replacement in [b'0', b'9', b'-', b'"', b'<', b','] {
            let mut damaged = bytes.to_vec();
            damaged[at] = replacement;
            if let Ok(damaged) = String::from_utf8(damaged) {
                let _ = read(&damaged);
            }
        }
    }
}

/// What could crash or exhaust the `tiled` crate is refused before it reads the file: an
/// empty or CDATA layer, namespaced names, a huge tile count, a tileset without columns,
/// deep nesting, groups, a template that names itself, sizes past 32 bits, a layer of
/// another size and layer offsets.
#[test]
fn crafted_maps_are_refused_before_tiled_reads_them() {
    let plain = map("", GROUND);
    let ground = r#"<data encoding="csv">"#;
    let cases = [
        (
            "an empty data element",
            plain.replace(
                &format!("{ground}{GROUND}</data>"),
                r#"<data encoding="base64"/>"#,
            ),
            "layer `Ground`: its data holds 0 tiles; the layer has 24 squares",
        ),
        (
            "CDATA",
            plain.replace(ground, &format!("{ground}<![CDATA[1]]>")),
            "holds CDATA",
        ),
        (
            "a namespaced attribute",
            plain.replace(
                r#"<data encoding="csv">"#,
                r#"<data xmlns:x="x" x:compression="zlib" encoding="csv">"#,
            ),
            "is namespaced",
        ),
        (
            "a namespaced element",
            plain
                .replace("<layer ", r#"<x:layer xmlns:x="x" "#)
                .replace("</layer>", "</x:layer>"),
            "a namespaced element",
        ),
        (
            "a layer of another size",
            plain.replace(r#"name="Ground" width="6""#, r#"name="Ground" width="5""#),
            "layer `Ground`: is 5 x 4; the map is (6, 4)",
        ),
        (
            "a layer offset",
            plain.replace(r#"name="Ground""#, r#"name="Ground" offsetx="3""#),
            "its `offsetx` is not 0",
        ),
        (
            "sizes past 32 bits",
            plain.replace(
                r#"width="6" height="4" tilewidth"#,
                r#"width="4294967296" height="4294967296" tilewidth"#,
            ),
            "`width` \"4294967296\" is not a whole number",
        ),
        (
            "a group",
            plain
                .replace("<objectgroup", "<group><objectgroup")
                .replace("</objectgroup>", "</objectgroup></group>"),
            "is a group",
        ),
        (
            "deep nesting",
            plain.replace(
                "</map>",
                &format!(
                    "{}{}</map>",
                    "<properties>".repeat(40),
                    "</properties>".repeat(40)
                ),
            ),
            "nests elements deeper than 32",
        ),
    ];
    for (what, text, expected) in cases {
        let error = read(&text).unwrap_err().to_string();
        assert!(error.contains(expected), "{what}: {error}");
    }
    let tileset = |text: &'static str| {
        tmx::read(
            &plain,
            "marsh.tmx",
            &TileMapping::default(),
            &mut move |_| Ok(text.to_owned()),
        )
        .unwrap_err()
        .to_string()
    };
    let huge = tileset(
        r#"<tileset name="t" tilewidth="16" tileheight="16" tilecount="4294967295" columns="1"/>"#,
    );
    assert!(huge.contains("declares 4294967295 tiles"), "{huge}");
    let no_columns = tileset(
        r#"<tileset name="t" tilewidth="16" tileheight="16" tilecount="4"><image source="t.png" width="8" height="8"/></tileset>"#,
    );
    assert!(no_columns.contains("gives no `columns`"), "{no_columns}");
    // A template naming itself: the second read of the same file is a cycle.
    let objects = r#"<object id="7" template="loop.tx" x="0" y="0"/>"#;
    let cycle = tmx::read(
        &map(objects, GROUND),
        "marsh.tmx",
        &TileMapping::default(),
        &mut |name| match name {
            "terrain.tsx" => Ok(TILESET.to_owned()),
            _ => Ok(r#"<template><object id="1" template="loop.tx"/></template>"#.to_owned()),
        },
    )
    .unwrap_err()
    .to_string();
    assert!(cycle.contains("names itself"), "{cycle}");
}
