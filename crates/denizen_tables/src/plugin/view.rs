//! The roster of a floor's tables creatures, and how the plugin describes them to a game's
//! views.

use std::fmt::Write;

use bevy_ecs::prelude::*;
use denizen_bevy::floor::{Dormant, GridPos};
use denizen_bevy::view::Description;

use super::components::{Asleep, Follows, HomeRegion, Possession, TablesCreature, TablesHitPoints};
use super::resources::TablesRuleset;

/// One line per creature awake on a floor, in map order: its glyph and name, its square,
/// hit points, whether it sleeps, whom it follows and what it carries, then its species'
/// cost and data (`cost 3 speed=12`), and the region it was drawn for (`in lair den-1`).
/// A species the bestiary does not have shows as `?`.
pub fn roster(world: &mut World) -> String {
    let rules = world.resource::<TablesRuleset>().clone();
    let mut query = world.query_filtered::<(
        Entity,
        &TablesCreature,
        &GridPos,
        &TablesHitPoints,
        Has<Asleep>,
        Option<&Follows>,
        Option<&Possession>,
        Option<&HomeRegion>,
    ), Without<Dormant>>();
    let mut rows: Vec<_> = query.iter(world).collect();
    rows.sort_by_key(|row| (row.2.y, row.2.x));
    let mut text = String::new();
    for (_, creature, at, hp, asleep, follows, carries, home) in rows {
        let species = rules.rules().species_by_key(&creature.species);
        let species = species.map(|s| rules.rules().species_of(s));
        let leader = follows
            .and_then(|f| world.get::<GridPos>(f.0))
            .map(|p| format!("follows ({},{})", p.x, p.y));
        let mut about = species.map(crate::Species::about).unwrap_or_default();
        if let Some(home) = home {
            about.push_str(&format!(" in {} {}", home.kind, home.id));
        }
        let _ = writeln!(
            text,
            "{} {:<22} ({:>2},{:>2})  {:>3} hp  {:<6} {:<16} {:<24} {about}",
            species.map_or('?', |s| s.glyph),
            species.map_or("?", |s| s.name.as_str()),
            at.x,
            at.y,
            hp.0,
            if asleep { "asleep" } else { "awake" },
            leader.unwrap_or_default(),
            carries.map(|c| c.item.as_str()).unwrap_or_default(),
        );
    }
    text
}

/// How the plugin describes its creatures (registered with the rule set): the species'
/// name, whether it sleeps, its hit points.
pub(crate) fn describe(world: &World, entity: Entity) -> Option<Description> {
    let creature = world.get::<TablesCreature>(entity)?;
    let rules = world.resource::<TablesRuleset>();
    let name = rules
        .rules()
        .species_by_key(&creature.species)
        .map_or_else(|| "?".into(), |s| rules.rules().species_of(s).name.clone());
    Some(Description {
        name,
        colour: "light green",
        asleep: world.get::<Asleep>(entity).is_some(),
        hit_points: world
            .get::<TablesHitPoints>(entity)
            .map(|h| i32::try_from(h.0).unwrap_or(i32::MAX)),
    })
}
