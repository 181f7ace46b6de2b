//! The roster of a populated Omega floor: one line per monster.

use std::fmt::Write;

use bevy_ecs::prelude::*;

use super::components::{Inventory, MonsterName, Sleep, Species};
use super::resources::OmegaRuleset;
use crate::floor::{Dormant, Glyph, GridPos};

/// One line per Omega monster, in map order (top to bottom, left to right): glyph, name,
/// square, awake or asleep, possessions. Names come from the rules in use; an id they do
/// not have (a save from another bestiary) shows as `?`.
pub fn roster(world: &mut World) -> String {
    let rules = world.resource::<OmegaRuleset>().clone();
    let mut query = world.query_filtered::<(
        &Species,
        &Glyph,
        &GridPos,
        &Sleep,
        &Inventory,
        Option<&MonsterName>,
    ), Without<Dormant>>();
    let mut rows: Vec<_> = query.iter(world).collect();
    rows.sort_by_key(|(_, _, p, ..)| (p.y, p.x));
    let mut text = String::new();
    for (species, glyph, pos, sleep, inventory, name) in rows {
        let template = rules.species(species.form).map(|t| t.name.as_str());
        let name = name.map_or(template.unwrap_or("?"), |n| n.0.as_str());
        let items: Vec<&str> = inventory
            .0
            .iter()
            .map(|o| {
                let item = rules.rules().bestiary.items().get(o.item.index());
                item.map_or("?", |i| i.name.as_str())
            })
            .collect();
        let _ = writeln!(
            text,
            "{} {:<28} ({:>2},{:>2})  {:<6}  {}",
            glyph.0,
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
