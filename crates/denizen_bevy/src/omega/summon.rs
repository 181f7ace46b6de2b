//! Summoning and waking statues, as messages the host sends.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::{Square, Tile};
use denizen_core::plan::{Origin, Plan, Spawn};
use denizen_core::rng::Generator;
use denizen_omega::construct::{Builder, Monster};
use denizen_omega::select::Selector;
use denizen_omega::species::SpeciesId;
use denizen_omega::wander::{Summoning, statues_woken, summon};

use super::populate::{spawn_monsters, with_builder};
use super::resources::{CurrentLocation, OmegaRuleset};
use crate::floor::FloorMap;
use crate::streams::DenizenRng;

/// What a summoning makes.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
pub enum SummonKind {
    /// Any template of the whole bestiary, hostile (items, traps, hostile magic).
    Hostile,
    /// The ordinary pool at the local difficulty, wandering (the spell, monsters' own
    /// summons).
    Ordinary,
    /// One species.
    Named(SpeciesId),
}

/// Summon a creature next to a square (usually the player's): it appears on the first
/// free floor neighbour in the source's fixed order, or nothing is made.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct Summon {
    /// The square to summon next to.
    pub at: Square,
    /// What to summon.
    pub kind: SummonKind,
}

/// A statue at a square comes alive: a [`Tile::Statue`] of [`FloorMap`] turns to floor and holds a creature of the ordinary
/// pool one difficulty above the local one, made hostile; then each statue among its eight
/// neighbours wakes the same way, and theirs, depth first in the source's direction order.
/// Every woken statue answers with a [`Summoned`]; a square that is not a statue makes
/// nothing and answers with an empty one (so the host leaves the statue tile in place for
/// the plugin to turn to floor).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct StatueWakes {
    /// The statue's square.
    pub at: Square,
}

/// What a [`Summon`] or [`StatueWakes`] made; `entity` is `None` when nothing could be.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct Summoned {
    /// The new monster, if any.
    pub entity: Option<Entity>,
    /// Where it stands.
    pub at: Option<Square>,
}

pub(crate) fn summon_creatures(world: &mut World, mut cursor: Local<MessageCursor<Summon>>) {
    let requests: Vec<Summon> = {
        let messages = world.resource::<Messages<Summon>>();
        cursor.read(messages).copied().collect()
    };
    for request in requests {
        let kind = match request.kind {
            SummonKind::Hostile => Summoning::Hostile,
            SummonKind::Ordinary => Summoning::Ordinary,
            SummonKind::Named(id) => Summoning::Named(id),
        };
        make(world, 0, "summon", |rng, pool, builder, world| {
            summon(
                rng,
                kind,
                &world.resource::<FloorMap>().0,
                request.at,
                pool,
                builder,
            )
        });
    }
}

pub(crate) fn wake_statues(world: &mut World, mut cursor: Local<MessageCursor<StatueWakes>>) {
    let requests: Vec<StatueWakes> = {
        let messages = world.resource::<Messages<StatueWakes>>();
        cursor.read(messages).copied().collect()
    };
    for request in requests {
        let woken = statues_woken(&world.resource::<FloorMap>().0, request.at);
        if woken.is_empty() {
            world.write_message(Summoned {
                entity: None,
                at: None,
            });
        }
        for at in woken {
            world.resource_mut::<FloorMap>().0.set(at, Tile::Floor);
            make(world, 1, "statue", |rng, pool, builder, _| {
                let species = pool.sample(rng);
                let mut monster = builder.build(rng, species);
                monster.hostile = true;
                Some(Spawn {
                    at,
                    origin: Origin::WakingStatue,
                    creature: monster,
                })
            });
        }
    }
}

/// Shared by summons and statues: the local pool at `difficulty + raise`, a stream per
/// event, spawn, and a [`Summoned`] message either way.
fn make(
    world: &mut World,
    raise: i64,
    kind: &str,
    maker: impl FnOnce(&mut Generator, &Selector, &mut Builder<'_>, &World) -> Option<Spawn<Monster>>,
) {
    let location = world.resource::<CurrentLocation>().clone();
    let difficulty = location.difficulty + raise;
    let rules = world.resource::<OmegaRuleset>().clone();
    let made = rules.ordinary_pool(difficulty).and_then(|pool| {
        let mut rng = world.resource_mut::<DenizenRng>().next_stream(
            kind,
            &location.environment,
            location.depth,
        );
        with_builder(world, &mut rng, difficulty, |rng, builder, world| {
            maker(rng, pool, builder, world)
        })
    });
    let message = match made {
        Some(spawn) => {
            let square = spawn.at;
            Summoned {
                entity: Some(spawn_monsters(world, Plan::one(spawn))[0]),
                at: Some(square),
            }
        }
        None => Summoned {
            entity: None,
            at: None,
        },
    };
    world.write_message(message);
}
