//! Text views of a populated floor: the map with monster glyphs, and a roster.

use std::fmt::Write;

use bevy_ecs::prelude::*;
use denizen_core::floor::Square;

use crate::components::{GridPos, Inventory, MonsterName, Sleep, Species};
use crate::resources::{Catalogue, FloorMap};

/// The floor as text: tiles, with each monster's glyph on its square.
pub fn render_floor(world: &mut World) -> String {
    let catalogue = world.resource::<Catalogue>().clone();
    let mut query = world.query::<(&Species, &GridPos)>();
    let monsters: Vec<(GridPos, char)> = query
        .iter(world)
        .map(|(s, p)| (*p, catalogue.species(s.form).glyph))
        .collect();
    let map = &world.resource::<FloorMap>().0;
    map.render(|at: Square| {
        monsters
            .iter()
            .find(|(p, _)| p.x == at.x && p.y == at.y)
            .map(|&(_, glyph)| glyph)
    })
}

/// One line per monster, in map order (top to bottom, left to right): glyph, name,
/// square, awake or asleep, possessions.
pub fn roster(world: &mut World) -> String {
    let catalogue = world.resource::<Catalogue>().clone();
    let rules = catalogue.rules();
    let mut query = world.query::<(&Species, &GridPos, &Sleep, &Inventory, Option<&MonsterName>)>();
    let mut rows: Vec<_> = query.iter(world).collect();
    rows.sort_by_key(|(_, p, ..)| (p.y, p.x));
    let mut text = String::new();
    for (species, pos, sleep, inventory, name) in rows {
        let template = catalogue.species(species.form);
        let name = name.map_or(template.name.as_str(), |n| n.0.as_str());
        let items: Vec<&str> = inventory
            .0
            .iter()
            .map(|o| rules.catalogue.item(o.item).name.as_str())
            .collect();
        let _ = writeln!(
            text,
            "{} {:<28} ({:>2},{:>2})  {:<6}  {}",
            template.glyph,
            name,
            pos.x,
            pos.y,
            if sleep.awake { "awake" } else { "asleep" },
            if items.is_empty() {
                "-".to_owned()
            } else {
                items.join(", ")
            }
        );
    }
    text
}
