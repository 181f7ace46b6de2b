//! `denizen tables floor -o FILE`: a populated floor drawn as SVG: each square by its
//! tile, each region tinted by its kind and outlined, each creature by its glyph (a
//! region's in the region's colour), the player as `@`, and a legend of the regions.

use std::collections::BTreeMap;
use std::fmt::Write;

use denizen_core::regions::Regions;
use denizen_core::{FloorGrid, Square, Tile};
use denizen_tables::{Bestiary, FloorPlan};

/// A square's side, in pixels.
const SIDE: u32 = 24;
/// The height of the title above the map and of each legend line below it.
const LINE: u32 = 22;

/// The most squares a picture draws (at 24 pixels a square, a PNG of 57.6 million pixels).
pub(crate) const MAX_PICTURE_SQUARES: u64 = 100_000;

/// The colours regions are tinted with, one per kind in name order (then again).
const KINDS: [&str; 6] = [
    "#d1495b", "#edae49", "#00798c", "#8f5bb6", "#66a182", "#2e4057",
];

/// The floor `made` on `grid`, its `regions`, the player on `player`, under `title`.
pub(crate) fn floor_svg(
    b: &Bestiary,
    (grid, regions): (&FloorGrid, &Regions),
    (made, player): (&FloorPlan, Option<Square>),
    title: &str,
) -> String {
    let kinds: BTreeMap<&str, &str> = {
        let mut names: Vec<&str> = regions.iter().map(|r| r.kind.as_str()).collect();
        names.dedup();
        names
            .into_iter()
            .zip(KINDS.iter().cycle().copied())
            .collect()
    };
    let (width, height) = (grid.width() * SIDE, grid.height() * SIDE);
    let total = LINE + height + LINE * regions.len() as u32 + 8;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" viewBox=\"0 0 {width} {total}\">\n\
         <rect width=\"{width}\" height=\"{total}\" fill=\"white\"/>\n\
         <text x=\"4\" y=\"16\" font-family=\"sans-serif\" font-size=\"13\">{}</text>\n",
        escape(title)
    );
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let fill = tile_colour(grid.tile(Square { x, y }));
            square(&mut svg, Square { x, y }, format_args!("fill=\"{fill}\""));
        }
    }
    for region in regions.iter() {
        let colour = kinds[region.kind.as_str()];
        let on_floor = region.squares.clipped(grid.width(), grid.height());
        for at in on_floor.iter() {
            let paint = format_args!("fill=\"{colour}\" fill-opacity=\"0.3\" stroke=\"{colour}\"");
            square(&mut svg, at, paint);
        }
    }
    let glyphs = made.plan.spawns.iter().map(|s| {
        let glyph = b.species_of(s.creature.species).glyph;
        let home = s.creature.region.as_deref().and_then(|id| regions.get(id));
        let colour = home.map_or("black", |r| kinds[r.kind.as_str()]);
        (s.at, glyph, colour)
    });
    for (at, glyph, colour) in glyphs.chain(player.map(|at| (at, '@', "#b00020"))) {
        let (cx, cy) = (at.x * SIDE + SIDE / 2, LINE + at.y * SIDE + SIDE / 2 + 5);
        let _ = writeln!(
            svg,
            "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\" fill=\"{colour}\">{}</text>",
            escape(&glyph.to_string())
        );
    }
    for (i, region) in regions.iter().enumerate() {
        let y = LINE + height + LINE * i as u32 + 16;
        let colour = kinds[region.kind.as_str()];
        let drawn = (made.plan.spawns.iter())
            .filter(|s| s.creature.region.as_deref() == Some(region.id.as_str()))
            .count();
        let _ = writeln!(
            svg,
            "<rect x=\"4\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"22\" y=\"{y}\" font-family=\"sans-serif\" font-size=\"12\">{} {}: {drawn} creatures</text>",
            y - 11,
            escape(&region.kind),
            escape(&region.id)
        );
    }
    svg + "</svg>\n"
}

/// One square's rectangle, painted.
fn square(svg: &mut String, at: Square, paint: std::fmt::Arguments<'_>) {
    let (x, y) = (at.x * SIDE, LINE + at.y * SIDE);
    let _ = writeln!(
        svg,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{SIDE}\" height=\"{SIDE}\" {paint}/>"
    );
}

fn tile_colour(tile: Tile) -> &'static str {
    match tile {
        Tile::Wall | Tile::Secret => "#4a4a4a",
        Tile::Floor => "#efebe0",
        Tile::Water => "#8cc0de",
        Tile::Door => "#a0703c",
        Tile::Stairs => "#c8c8c8",
        Tile::Feature(_) => "#d8d0b8",
    }
}

/// Text as XML holds it.
fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '&' => "&amp;".to_owned(),
            '<' => "&lt;".to_owned(),
            '>' => "&gt;".to_owned(),
            '"' => "&quot;".to_owned(),
            c if c.is_control() => "?".to_owned(),
            c => c.to_string(),
        })
        .collect()
}
