//! The roster of a populated Omega floor (one line per monster), and how Omega describes
//! its monsters to a game's views.

use std::fmt::Write;

use bevy_ecs::prelude::*;

use super::components::{CombatStats, Inventory, MonsterName, Sleep, Species};
use super::resources::OmegaRuleset;
use crate::items::Colour;
use denizen_bevy::floor::{Dormant, Glyph, GridPos};
use denizen_bevy::view::Description;

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

/// How Omega describes its monsters to a game's views (registered with the rule set): the
/// name construction gave it or its template's, the template's colour, its sleep and hit
/// points.
pub(crate) fn describe(world: &World, entity: Entity) -> Option<Description> {
    let species = world.get::<Species>(entity)?;
    let template = world.resource::<OmegaRuleset>().species(species.form);
    let name = world
        .get::<MonsterName>(entity)
        .map(|n| n.0.clone())
        .or_else(|| template.map(|t| t.name.clone()))
        .unwrap_or_else(|| "?".into());
    Some(Description {
        name,
        colour: template.map_or("white", |t| colour_name(t.colour)),
        asleep: world.get::<Sleep>(entity).is_some_and(|s| !s.awake),
        hit_points: world.get::<CombatStats>(entity).map(|s| s.0.hp),
    })
}

/// An Omega colour among the names of [`COLOURS`](denizen_bevy::view::COLOURS).
pub fn colour_name(colour: Colour) -> &'static str {
    match colour {
        Colour::Black => "black",
        Colour::Blue => "blue",
        Colour::BrightWhite => "bright white",
        Colour::Brown => "yellow",
        Colour::Cyan => "cyan",
        Colour::Green => "green",
        Colour::Grey => "grey",
        Colour::LightBlue => "light blue",
        Colour::LightGreen => "light green",
        Colour::LightRed => "light red",
        Colour::Purple => "magenta",
        Colour::Red => "red",
        Colour::White => "white",
        Colour::Yellow => "light yellow",
    }
}
