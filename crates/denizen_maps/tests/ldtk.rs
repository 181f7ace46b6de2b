//! The LDtk reader against hand-made projects: every layer kind, a region with fields and
//! tags, a point, a level's fields, an external level, and broken files refused in one
//! line naming the file, the layer or entity and the field.

use denizen_core::regions::FieldValue;
use denizen_core::{Square, Tile};
use denizen_maps::{LevelChoice, MapError, TileMapping, ldtk};
use serde_json::{Value, json};

/// An entity instance of `def` at pixel `px` with pivot `pivot` and size `size`.
fn entity(name: &str, iid: &str, def: i64, px: [f64; 2], pivot: [f64; 2], size: [f64; 2]) -> Value {
    json!({
        "__identifier": name, "iid": iid, "defUid": def, "px": px, "__pivot": pivot,
        "width": size[0], "height": size[1], "__tags": [], "fieldInstances": []
    })
}

/// A project of one 6 x 4 level of 16-pixel squares: walls round a floor, two water
/// squares and one of lava (a value no tile maps), a Lair region with fields and a tag,
/// a player start, a tile layer, and the level's depth and winter flag.
fn project() -> Value {
    #[rustfmt::skip]
    let cells = [
        1, 1, 1, 1, 1, 1,
        1, 2, 2, 3, 3, 1,
        1, 2, 4, 2, 2, 1,
        1, 1, 1, 1, 1, 1,
    ];
    let mut lair = entity("Lair", "lair-1", 20, [16.0, 16.0], [0.0, 0.0], [32.0, 32.0]);
    lair["__tags"] = json!(["camp"]);
    lair["fieldInstances"] = json!([
        {"__identifier": "count", "__type": "Int", "__value": 3},
        {"__identifier": "table", "__type": "String", "__value": "bog"},
        {"__identifier": "night", "__type": "Bool", "__value": true},
        {"__identifier": "speed", "__type": "Float", "__value": 1.5},
        {"__identifier": "empty", "__type": "String", "__value": null},
        {"__identifier": "mood", "__type": "LocalEnum.Mood", "__value": "Angry"}
    ]);
    json!({
        "defs": {
            "layers": [
                {"uid": 1, "intGridValues": [
                    {"value": 1, "identifier": "Wall"}, {"value": 2, "identifier": "floor"},
                    {"value": 3, "identifier": "water"}, {"value": 4, "identifier": "lava"}
                ]},
                {"uid": 2}, {"uid": 3}
            ],
            "entities": [
                {"uid": 20, "resizableX": true, "resizableY": true},
                {"uid": 21, "resizableX": false, "resizableY": false}
            ]
        },
        "levels": [{
            "identifier": "Marsh_1",
            "fieldInstances": [
                {"__identifier": "depth", "__type": "Int", "__value": 5},
                {"__identifier": "winter", "__type": "Bool", "__value": false}
            ],
            "layerInstances": [
                {"__identifier": "Creatures", "__type": "Entities", "__cWid": 6, "__cHei": 4,
                 "__gridSize": 16, "layerDefUid": 2, "entityInstances": [
                    lair,
                    entity("PlayerStart", "start-1", 21, [40.0, 24.0], [0.5, 0.5], [16.0, 16.0])
                 ]},
                {"__identifier": "Art", "__type": "Tiles", "__cWid": 6, "__cHei": 4,
                 "__gridSize": 16, "layerDefUid": 3, "gridTiles": []},
                {"__identifier": "Ground", "__type": "IntGrid", "__cWid": 6, "__cHei": 4,
                 "__gridSize": 16, "layerDefUid": 1, "intGridCsv": cells}
            ]
        }]
    })
}

fn read(project: &Value) -> Result<denizen_maps::EditorLevel, MapError> {
    ldtk::read(
        &project.to_string(),
        "marsh.ldtk",
        &LevelChoice::Name("Marsh_1".into()),
        &TileMapping::default(),
        &mut |name| panic!("no external file: {name}"),
    )
}

#[test]
fn a_level_becomes_a_grid_tags_regions_marks_and_fields() {
    let level = read(&project()).unwrap();
    assert_eq!(level.name, "Marsh_1");
    // Wall (any case), floor and water map; lava maps to no tile, so it is a wall.
    let rows = level.grid.render(|_| None);
    assert_eq!(rows, "######\n#..~~#\n#.#..#\n######\n");
    let lava: Vec<Square> = level.tags["lava"].iter().collect();
    assert_eq!(lava, [Square { x: 2, y: 2 }]);
    assert_eq!(level.tags["water"].len(), 2);
    // The lair's box, 16..48 pixels both ways, takes the squares 1..=2: its tag too.
    let lair = level.regions.get("lair-1").unwrap();
    assert_eq!(lair.kind, "lair", "kinds are lowercase");
    let squares: Vec<(u32, u32)> = lair.squares.iter().map(|s| (s.x, s.y)).collect();
    assert_eq!(squares, [(1, 1), (2, 1), (1, 2), (2, 2)]);
    assert_eq!(level.tags["camp"], lair.squares);
    // Whole numbers, flags, text and enums are read; a float and an empty field are not.
    let fields: Vec<(&str, &FieldValue)> =
        lair.fields.iter().map(|(k, v)| (k.as_str(), v)).collect();
    assert_eq!(
        fields,
        [
            ("count", &FieldValue::Int(3)),
            ("mood", &FieldValue::Text("Angry".into())),
            ("night", &FieldValue::Flag(true)),
            ("table", &FieldValue::Text("bog".into())),
        ]
    );
    // The start's pivot, (40, 24), is in square (2, 1).
    assert_eq!(level.marks.len(), 1);
    assert_eq!(
        (level.marks[0].kind.as_str(), level.marks[0].at),
        ("playerstart", Square { x: 2, y: 1 })
    );
    assert_eq!(level.fields["depth"], FieldValue::Int(5));
    assert_eq!(level.fields["winter"], FieldValue::Flag(false));
    // The same file reads the same level.
    assert_eq!(read(&project()).unwrap(), level);
}

/// A region whose edge runs through a column of centres takes that column on its left and
/// top and leaves it on its right and bottom.
#[test]
fn a_square_on_a_regions_edge_is_decided_by_the_rule() {
    let mut p = project();
    let lair = &mut p["levels"][0]["layerInstances"][0]["entityInstances"][0];
    // Pixels 8..40 across: centres 8 (in, left edge), 24 (in), 40 (out, right edge).
    lair["px"] = json!([8.0, 8.0]);
    let level = read(&p).unwrap();
    let squares: Vec<(u32, u32)> = level
        .regions
        .get("lair-1")
        .unwrap()
        .squares
        .iter()
        .map(|s| (s.x, s.y))
        .collect();
    assert_eq!(squares, [(0, 0), (1, 0), (0, 1), (1, 1)]);
}

#[test]
fn an_external_level_is_read_from_its_file() {
    let mut p = project();
    let level = p["levels"][0].take();
    p["levels"] = json!([{"identifier": "Marsh_1", "externalRelPath": "marsh/Marsh_1.ldtkl", "layerInstances": null}]);
    let mut asked = Vec::new();
    let read = ldtk::read(
        &p.to_string(),
        "marsh.ldtk",
        &LevelChoice::Index(0),
        &TileMapping::default(),
        &mut |name| {
            asked.push(name.to_owned());
            Ok(level.to_string())
        },
    )
    .unwrap();
    assert_eq!(asked, ["marsh/Marsh_1.ldtkl"]);
    assert_eq!(read.regions.len(), 1);
    assert_eq!(read.fields["depth"], FieldValue::Int(5));
}

/// A way to break the project: what it is, the change, the error's start.
type Broken = (&'static str, fn(&mut Value), &'static str);

/// Each broken file is refused in one line naming the file, where in it, and the field.
#[test]
fn broken_files_are_refused_by_name() {
    let text = project().to_string();
    let truncated = ldtk::read(
        &text[..text.len() / 2],
        "marsh.ldtk",
        &LevelChoice::Index(0),
        &TileMapping::default(),
        &mut |_| unreachable!(),
    )
    .unwrap_err();
    assert!(
        truncated
            .to_string()
            .starts_with("marsh.ldtk: the project: not LDtk JSON: EOF while parsing"),
        "{truncated}"
    );

    let cases: [Broken; 6] = [
        (
            "an unknown layer type",
            |p| p["levels"][0]["layerInstances"][1]["__type"] = json!("Sketch"),
            "marsh.ldtk: level `Marsh_1`, layer `Art`, field `__type`: unknown layer type \"Sketch\"",
        ),
        (
            "a grid of the wrong length",
            |p| {
                p["levels"][0]["layerInstances"][2]["intGridCsv"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
            },
            "marsh.ldtk: level `Marsh_1`, layer `Ground`, field `intGridCsv`: has 23 values; a 6 x 4 layer has 24",
        ),
        (
            "a region past the level",
            |p| {
                p["levels"][0]["layerInstances"][0]["entityInstances"][0]["px"] =
                    json!([80.0, 16.0])
            },
            "marsh.ldtk: level `Marsh_1`, layer `Creatures`, entity `Lair` (lair-1): its box (80, 16) 32 x 32 lies past the level",
        ),
        (
            "a point past the level",
            |p| {
                p["levels"][0]["layerInstances"][0]["entityInstances"][1]["px"] = json!([96.0, 8.0])
            },
            "marsh.ldtk: level `Marsh_1`, layer `Creatures`, entity `PlayerStart` (start-1), field `px`: its centre (96.0, 8.0) lies past the level",
        ),
        (
            "a huge level",
            |p| {
                let l = &mut p["levels"][0]["layerInstances"][2];
                l["__cWid"] = json!(100_000);
                l["__cHei"] = json!(100_000);
            },
            "marsh.ldtk: level `Marsh_1`, layer `Ground`: a 100000 x 100000 floor has more than",
        ),
        (
            "a value with no name",
            |p| p["defs"]["layers"][0]["intGridValues"][3]["identifier"] = json!(""),
            "marsh.ldtk: level `Marsh_1`, layer `Ground`, field `intGridCsv`: value 4 has no identifier in the layer's definition",
        ),
    ];
    for (what, break_it, expected) in cases {
        let mut p = project();
        break_it(&mut p);
        let error = read(&p).unwrap_err().to_string();
        assert!(error.starts_with(expected), "{what}: {error}");
        assert!(!error.contains('\n'), "{what}: {error}");
    }
    let missing = ldtk::read(
        &text,
        "marsh.ldtk",
        &LevelChoice::Name("Cave".into()),
        &TileMapping::default(),
        &mut |_| unreachable!(),
    )
    .unwrap_err();
    assert_eq!(
        missing.to_string(),
        "marsh.ldtk: the project: no level `Cave`; it has [\"Marsh_1\"]"
    );
}

/// A game's own mapping decides which values are which tiles.
#[test]
fn the_games_mapping_decides_the_tiles() {
    let mapping = TileMapping::empty()
        .with("Floor", Tile::Floor)
        .with("lava", Tile::Water);
    let level = ldtk::read(
        &project().to_string(),
        "marsh.ldtk",
        &LevelChoice::Index(0),
        &mapping,
        &mut |_| unreachable!(),
    )
    .unwrap();
    assert_eq!(level.grid.tile(Square { x: 2, y: 2 }), Tile::Water);
    assert_eq!(
        level.grid.tile(Square { x: 3, y: 1 }),
        Tile::Wall,
        "water maps to nothing here"
    );
}

/// The project cut short at every byte, and with each byte changed, reads or is refused,
/// never panics; a grid size whose level overflows 32 bits of pixels too.
#[test]
fn a_damaged_project_never_panics() {
    let text = project().to_string();
    let read = |text: &str| {
        ldtk::read(
            text,
            "marsh.ldtk",
            &LevelChoice::Index(0),
            &TileMapping::default(),
            &mut |_| {
                Err(MapError {
                    file: "x".into(),
                    place: "the file".into(),
                    field: None,
                    message: "none".into(),
                })
            },
        )
    };
    for end in 0..text.len() {
        let _ = read(&text[..end]);
    }
    let bytes = text.as_bytes();
    for at in 0..bytes.len() {
        for replacement in [b'0', b'9', b'-', b'"', b'[', b'}'] {
            let mut damaged = bytes.to_vec();
            damaged[at] = replacement;
            let _ = read(&String::from_utf8(damaged).unwrap());
        }
    }
    let mut wide = project();
    for layer in wide["levels"][0]["layerInstances"].as_array_mut().unwrap() {
        layer["__gridSize"] = json!(u32::MAX);
    }
    assert!(read(&wide.to_string()).is_err());
}

/// A point entity is the square holding its box's centre, whatever its pivot: a start with
/// its pivot at its bottom middle, on the bottom edge of square (2, 1), is still in (2, 1),
/// and one on the level's bottom row is on the level.
#[test]
fn a_marks_square_is_its_boxs_centre_whatever_its_pivot() {
    for (px, pivot, expected) in [
        ([40.0, 32.0], [0.5, 1.0], Square { x: 2, y: 1 }),
        ([32.0, 16.0], [0.0, 0.0], Square { x: 2, y: 1 }),
        ([40.0, 64.0], [0.5, 1.0], Square { x: 2, y: 3 }),
    ] {
        let mut p = project();
        let start = &mut p["levels"][0]["layerInstances"][0]["entityInstances"][1];
        start["px"] = json!(px);
        start["__pivot"] = json!(pivot);
        let level = read(&p).unwrap();
        assert_eq!(level.marks[0].at, expected, "{px:?} {pivot:?}");
    }
}
