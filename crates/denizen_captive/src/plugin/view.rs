//! The roster of a base floor's encounter groups (one line per group), and how Captive
//! describes its members to a game's views.

use std::fmt::Write;

use bevy_ecs::prelude::*;

use super::components::{Carries, EncounterGroup, EncounterMember, EncounterStats, GroupMembers};
use super::resources::CaptiveRuleset;
use denizen_bevy::floor::{Dormant, GridPos};
use denizen_bevy::view::Description;

/// One line per group, in map order: the type's glyph and name, the cell, the number of
/// members, speed, the members' strength range and what the bearer carries. A type the
/// table does not have shows as `?`.
pub fn roster(world: &mut World) -> String {
    let rules = world.resource::<CaptiveRuleset>().clone();
    let mut groups =
        world.query_filtered::<(&EncounterGroup, &GridPos, &GroupMembers), Without<Dormant>>();
    let mut rows: Vec<_> = groups
        .iter(world)
        .map(|(g, p, m)| (*g, *p, m.members().to_vec()))
        .collect();
    rows.sort_by_key(|(_, p, _)| (p.y, p.x));
    let mut text = String::new();
    for (group, at, members) in rows {
        let strength: Vec<u32> = members
            .iter()
            .filter_map(|&m| world.get::<EncounterStats>(m).map(|s| s.0.strength))
            .collect();
        let carried = members
            .iter()
            .find_map(|&m| world.get::<Carries>(m))
            .map(|c| c.0.to_string());
        let kind = rules.rules().get(group.type_id);
        let _ = writeln!(
            text,
            "{} {:<13} ({:>2},{:>2})  {} x  speed {:>2}  strength {}-{}  {}",
            kind.map_or('?', |t| t.glyph),
            kind.map_or("?", |t| t.name.as_str()),
            at.x,
            at.y,
            members.len(),
            group.speed,
            strength.iter().min().unwrap_or(&0),
            strength.iter().max().unwrap_or(&0),
            carried.unwrap_or_default(),
        );
    }
    text
}

/// How Captive describes its members to a game's views (registered with the rule set):
/// the encounter type's name, always awake (Captive's guards do not sleep), and a member's
/// strength, which is what a blow wears down, as its hit points.
pub(crate) fn describe(world: &World, entity: Entity) -> Option<Description> {
    let member = world.get::<EncounterMember>(entity)?;
    let rules = world.resource::<CaptiveRuleset>();
    let name = rules
        .rules()
        .get(member.type_id)
        .map_or_else(|| "?".into(), |t| t.name.clone());
    Some(Description {
        name,
        colour: "light red",
        asleep: false,
        hit_points: world
            .get::<EncounterStats>(entity)
            .map(|s| i32::try_from(s.0.strength).unwrap_or(i32::MAX)),
    })
}
