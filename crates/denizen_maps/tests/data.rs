//! The project's own marsh, drawn once in LDtk and once in Tiled, reads as the same level:
//! the same squares, start, depth and lair, camp and safe regions (the Tiled map adds a
//! shore).

use std::path::PathBuf;

use denizen_core::Square;
use denizen_core::regions::FieldValue;
use denizen_maps::{LevelChoice, TileMapping, ldtk, tmx};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

#[test]
fn the_marsh_reads_the_same_from_both_editors() {
    let mapping = TileMapping::default();
    let from_ldtk = ldtk::read_path(
        &data("marsh.ldtk"),
        &LevelChoice::Name("Marsh_1".into()),
        &mapping,
    )
    .unwrap();
    let from_tmx = tmx::read_path(&data("marsh.tmx"), &mapping).unwrap();
    assert_eq!(from_ldtk.grid, from_tmx.grid);
    assert_eq!((from_ldtk.grid.width(), from_ldtk.grid.height()), (20, 10));
    for level in [&from_ldtk, &from_tmx] {
        assert_eq!(level.fields["depth"], FieldValue::Int(5));
        assert_eq!(level.marks.len(), 1);
        assert_eq!(level.marks[0].at, Square { x: 2, y: 2 });
        let kinds = |kind: &str| {
            level
                .regions
                .iter()
                .filter(|r| r.kind == kind)
                .map(|r| r.squares.len())
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds("lair"), [8], "4 x 2 squares");
        assert_eq!(kinds("camp"), [6], "3 x 2 squares");
        assert_eq!(
            kinds("safe"),
            [15],
            "the hut round the start, 5 x 3 squares"
        );
    }
    assert_eq!(from_tmx.regions.of_kind("shore").count(), 1);
}
