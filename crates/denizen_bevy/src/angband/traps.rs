//! The trap system: a [`TrapSpringRequested`] springs the trap with the rules (its kind
//! chosen, rolled, a summoning rune's monsters placed round the player), then the
//! summoned monsters go through the apply step.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_angband::request::spring_trap;
use denizen_angband::streams;
use denizen_core::plan::Origin;

use super::level::spawn_monsters;
use super::messages::{TrapSpringRejected, TrapSpringRequested, TrapSprung};
use super::resources::{AngbandLastLevel, AngbandRuleset, AngbandUniques};
use crate::floor::FloorMap;
use crate::pipeline::{read_requests, rules_loading};
use crate::streams::DenizenRng;

/// Serves every new [`TrapSpringRequested`], each answered with a [`TrapSprung`] (or, while
/// the rules are still loading from data assets, a [`TrapSpringRejected`]).
pub(super) fn spring_traps(
    world: &mut World,
    mut cursor: Local<MessageCursor<TrapSpringRequested>>,
) {
    for trigger in read_requests(world, &mut cursor) {
        if rules_loading::<AngbandRuleset>(world) {
            world.write_message(TrapSpringRejected { at: trigger.at });
            continue;
        }
        let sprung = spring(world, trigger);
        world.write_message(sprung);
    }
}

/// Springs one trap on the last level made or brought back (depth 1 before any), on the
/// floor in `FloorMap`.
fn spring(world: &mut World, trigger: TrapSpringRequested) -> TrapSprung {
    let last = *world.resource::<AngbandLastLevel>();
    let depth = last.depth.clamp(1, 127);
    let mut rng =
        world
            .resource_mut::<DenizenRng>()
            .next_stream(streams::TRAP, streams::PLACE, depth);
    let grid = world.resource::<FloorMap>().0.clone();
    let (name, outcome, monsters) =
        world.resource_scope(|world, mut rules: Mut<AngbandRuleset>| {
            let rules = &mut *rules;
            let mut live = world.resource::<AngbandUniques>().0.clone();
            live.keep_only_uniques_of(rules.allocator.races());
            let sprung = spring_trap(
                &rules.traps,
                &mut rng,
                &grid,
                trigger.at,
                trigger.armour,
                (depth as i32, last.quest),
                &mut rules.allocator,
                &mut live,
            );
            world.resource_mut::<AngbandUniques>().0 = live;
            (sprung.kind.name.clone(), sprung.outcome, sprung.summoned)
        });
    let summoned = spawn_monsters(world, &monsters, Origin::Summoning);
    TrapSprung {
        at: trigger.at,
        name,
        outcome,
        summoned,
    }
}
