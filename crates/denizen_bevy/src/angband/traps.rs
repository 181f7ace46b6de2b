//! The trap system: a [`TrapTriggered`] chooses the trap's kind, rolls it, and for a
//! summoning rune places its monsters round the player.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_angband::Monster;
use denizen_angband::cave::Pos;
use denizen_angband::level::cave_of_floor;
use denizen_angband::population::Populator;
use denizen_core::plan::Origin;

use super::ANGBAND_FLOOR;
use super::level::spawn_with_origin;
use super::messages::{TrapSprung, TrapTriggered};
use super::resources::{AngbandLastLevel, AngbandRules, AngbandUniques};
use crate::floor::FloorMap;
use crate::streams::DenizenRng;

/// Reads every [`TrapTriggered`] and answers each with a [`TrapSprung`].
pub(super) fn spring_traps(world: &mut World, mut cursor: Local<MessageCursor<TrapTriggered>>) {
    let triggered: Vec<TrapTriggered> = {
        let messages = world.resource::<Messages<TrapTriggered>>();
        cursor.read(messages).copied().collect()
    };
    for trigger in triggered {
        let sprung = spring(world, trigger);
        world.write_message(sprung);
    }
}

/// Rolls one trap on the last level made (depth 1 before any).
fn spring(world: &mut World, trigger: TrapTriggered) -> TrapSprung {
    let last = *world.resource::<AngbandLastLevel>();
    let depth = i32::try_from(last.depth.max(1)).unwrap_or(1).min(127);
    let mut rng =
        world
            .resource_mut::<DenizenRng>()
            .next_stream("trap", ANGBAND_FLOOR, depth as u32);
    let traps = world.resource::<AngbandRules>().traps.clone();
    let kind = traps.choose(&mut rng, last.quest || depth >= 127);
    let outcome = kind.spring(&mut rng, trigger.armour, depth);
    let summoned = match outcome.summons {
        Some((count, level)) => {
            let monsters = summon(world, &mut rng, trigger, depth, count, level);
            spawn_with_origin(world, &monsters, Origin::Summoning)
        }
        None => Vec::new(),
    };
    TrapSprung {
        at: trigger.at,
        name: kind.name.clone(),
        outcome,
        summoned,
    }
}

/// A summoning rune's calls round the player on the floor in `FloorMap` (squares taken
/// by creatures stay taken); a floor larger than Angband's, a square off it, or a full
/// floor gets none.
fn summon(
    world: &mut World,
    rng: &mut denizen_core::Generator,
    trigger: TrapTriggered,
    depth: i32,
    count: i32,
    level: i32,
) -> Vec<Monster> {
    let Some(Ok(mut cave)) = world
        .get_resource::<FloorMap>()
        .map(|map| cave_of_floor(&map.0))
    else {
        return Vec::new();
    };
    let (Ok(y), Ok(x)) = (i32::try_from(trigger.at.y), i32::try_from(trigger.at.x)) else {
        return Vec::new();
    };
    let player = Pos::new(y, x);
    if !denizen_angband::Cave::on_map(player) {
        return Vec::new();
    }
    cave.set_player(player);
    world.resource_scope(|world, mut rules: Mut<AngbandRules>| {
        let mut live = world.resource::<AngbandUniques>().0.clone();
        live.keep_only_uniques_of(rules.allocator.races());
        let monsters = {
            let mut populator = Populator::new(&mut rules.allocator, &mut live, depth);
            for _ in 0..count {
                populator.summon(&mut cave, rng, player, level);
            }
            populator.monsters
        };
        world.resource_mut::<AngbandUniques>().0 = live;
        monsters
    })
}
