//! The roster of an Angband level (its monsters, then its objects and gold), and how
//! Angband describes its monsters to a game's views.

use std::fmt::Write;

use bevy_ecs::prelude::*;
use denizen_bevy::floor::{Dormant, Glyph, GridPos};
use denizen_bevy::view::Description;

use super::components::{AngbandGold, AngbandMonster, AngbandObject, HitPoints, SleepCounter};
use super::resources::AngbandRuleset;
use crate::MadeObject;
use crate::object::display_name;

/// One line per monster of the level, in map order (top to bottom, left to right): glyph,
/// race, square, awake or asleep, hit points; then one line per object and heap of gold
/// lying on it, likewise. Names come from the rules in use; an id they do not have (a save
/// of other data) shows as `?`.
pub fn roster(world: &mut World) -> String {
    let mut text = String::new();
    let mut monsters = world.query_filtered::<(
        &AngbandMonster,
        &Glyph,
        &GridPos,
        &HitPoints,
        &SleepCounter,
    ), Without<Dormant>>();
    let mut rows: Vec<_> = monsters.iter(world).collect();
    rows.sort_by_key(|(_, _, at, ..)| (at.y, at.x));
    let rules = world.resource::<AngbandRuleset>().rules();
    for (monster, glyph, at, hp, sleep) in rows {
        let race = rules
            .races()
            .get(monster.race)
            .map_or("?", |r| r.name.as_str());
        let _ = writeln!(
            text,
            "{} {race:<28} ({:>2},{:>2})  {:<6}  {} hp",
            glyph.0,
            at.x,
            at.y,
            if sleep.0 > 0 { "asleep" } else { "awake" },
            hp.0
        );
    }
    let mut objects = world.query_filtered::<(&AngbandObject, &GridPos), Without<Dormant>>();
    let mut lying: Vec<(GridPos, String)> = objects
        .iter(world)
        .map(|(object, at)| (*at, object_name(world, &object.0)))
        .collect();
    let mut gold = world.query_filtered::<(&AngbandGold, &GridPos), Without<Dormant>>();
    lying.extend(
        gold.iter(world)
            .map(|(gold, at)| (*at, format!("{} gold", gold.0.value))),
    );
    lying.sort_by_key(|(at, _)| (at.y, at.x));
    for (at, name) in lying {
        let _ = writeln!(text, "  {name:<28} ({:>2},{:>2})", at.x, at.y);
    }
    text
}

/// An object as the roster names it: the artifact, or the kind with its ego item, and
/// whether it is cursed.
fn object_name(world: &World, object: &MadeObject) -> String {
    let objects = &world.resource::<AngbandRuleset>().rules().objects;
    let artifact = object.artifact.and_then(|a| objects.artifacts.get(a));
    let kind = objects.allocator.kinds().get(object.kind).map_or_else(
        || "?".to_owned(),
        |k| display_name(&k.name, object.number.into(), artifact.is_some()),
    );
    let mut name = match artifact {
        Some(artifact) => format!("{kind} {}", artifact.name),
        None => kind,
    };
    if let Some(ego) = object.ego.and_then(|e| objects.egos.get(e)) {
        name = format!("{name} {}", ego.name);
    }
    if object.cursed {
        name.push_str(" (cursed)");
    }
    name
}

/// How Angband describes its monsters to a game's views (registered with the rule set):
/// the race's name and colour, its sleep and hit points.
pub(crate) fn describe(world: &World, entity: Entity) -> Option<Description> {
    let monster = world.get::<AngbandMonster>(entity)?;
    let race = world
        .resource::<AngbandRuleset>()
        .rules()
        .races()
        .get(monster.race);
    Some(Description {
        name: race.map_or_else(|| "?".into(), |r| r.name.clone()),
        colour: race.map_or("white", |r| colour_name(r.colour)),
        asleep: world.get::<SleepCounter>(entity).is_some_and(|s| s.0 > 0),
        hit_points: world.get::<HitPoints>(entity).map(|hp| hp.0),
    })
}

/// 2.7.9's colour letters among the names of [`COLOURS`](denizen_bevy::view::COLOURS).
pub fn colour_name(letter: char) -> &'static str {
    match letter {
        'd' => "black",
        'r' => "red",
        'g' => "green",
        'o' | 'u' => "yellow",
        'b' => "blue",
        'v' => "magenta",
        's' | 'D' => "grey",
        'R' => "light red",
        'G' => "light green",
        'y' | 'U' => "light yellow",
        'B' => "light blue",
        'W' => "bright white",
        _ => "white",
    }
}
