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
use denizen_omega::streams;
use denizen_omega::wander::{SummonFailure, Summoning, statues_woken, summon};

use super::populate::{spawn_monsters, with_builder};
use super::resources::{CurrentLocation, OmegaRuleset};
use crate::floor::FloorMap;
use crate::pipeline::{read_requests, rules_loading};
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

/// SummonRequested a creature next to a square (usually the player's): it appears on the first
/// free floor neighbour in the source's fixed order, or nothing is made. The answer, a
/// [`Summoned`], carries `request`.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct SummonRequested {
    /// An id the host chooses, echoed in the [`Summoned`] that answers.
    pub request: u64,
    /// The square to summon next to.
    pub at: Square,
    /// What to summon.
    pub kind: SummonKind,
    /// Made friendly (not hostile) after construction: the source's blessed summoning,
    /// where the player calls a creature to their side.
    pub friendly: bool,
}

impl SummonRequested {
    /// A summoning of `kind` next to `at`, answered with `request`.
    pub fn new(request: u64, at: Square, kind: SummonKind) -> Self {
        Self {
            request,
            at,
            kind,
            friendly: false,
        }
    }

    /// The same summoning, made friendly.
    pub fn friendly(mut self) -> Self {
        self.friendly = true;
        self
    }
}

/// A statue at a square comes alive: a [`Tile::Statue`] of [`FloorMap`] turns to floor
/// and holds a creature of the ordinary pool one difficulty above the local one, made
/// hostile; then each statue among its eight neighbours wakes the same way, and theirs,
/// depth first in the source's direction order. Every woken statue answers with a
/// [`Summoned`] carrying `request`; a square that is not a statue makes nothing and
/// answers with [`NothingMade::NotAStatue`] (so the host leaves the statue tile in place
/// for the plugin to turn to floor).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct StatueWakeRequested {
    /// An id the host chooses, echoed in every [`Summoned`] that answers.
    pub request: u64,
    /// The statue's square.
    pub at: Square,
}

impl StatueWakeRequested {
    /// The statue at `at` wakes, answered with `request`.
    pub fn new(request: u64, at: Square) -> Self {
        Self { request, at }
    }
}

/// Why a [`SummonRequested`] or [`StatueWakeRequested`] made nothing.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq)]
pub enum NothingMade {
    /// No free floor square next to the summoning square.
    NoFreeSquare,
    /// The named species is not in the bestiary, or no species is eligible at the local
    /// difficulty.
    NothingEligible,
    /// The square of a [`StatueWakeRequested`] is not a statue.
    NotAStatue,
    /// The rules' data files (feature `assets`) have not loaded yet.
    RulesLoading,
}

/// What a [`SummonRequested`] or [`StatueWakeRequested`] made: the creature and its
/// square, or why nothing was made. Written in
/// [`DenizenSystems::Arrivals`](crate::DenizenSystems::Arrivals).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct Summoned {
    /// The request's id.
    pub request: u64,
    /// The new monster and its square, or why there is none.
    pub made: Result<(Entity, Square), NothingMade>,
}

impl Summoned {
    /// The new monster, if any.
    pub fn entity(&self) -> Option<Entity> {
        self.made.ok().map(|(entity, _)| entity)
    }

    /// Where it stands, if it was made.
    pub fn at(&self) -> Option<Square> {
        self.made.ok().map(|(_, at)| at)
    }
}

/// Serves every new [`SummonRequested`].
pub(crate) fn summon_creatures(
    world: &mut World,
    mut cursor: Local<MessageCursor<SummonRequested>>,
) {
    for request in read_requests(world, &mut cursor) {
        if rules_loading::<OmegaRuleset>(world) {
            world.write_message(Summoned {
                request: request.request,
                made: Err(NothingMade::RulesLoading),
            });
            continue;
        }
        let kind = match request.kind {
            SummonKind::Hostile => Summoning::Hostile,
            SummonKind::Ordinary => Summoning::Ordinary,
            SummonKind::Named(id) => Summoning::Named(id),
        };
        make(
            world,
            request.request,
            0,
            streams::SUMMON,
            |rng, pool, builder, world| {
                summon(
                    rng,
                    kind,
                    &world.resource::<FloorMap>().0,
                    request.at,
                    pool,
                    builder,
                )
                .map(|mut spawn| {
                    if request.friendly {
                        spawn.creature.hostile = false;
                    }
                    spawn
                })
                .map_err(|failure| match failure {
                    SummonFailure::NoFreeSquare => NothingMade::NoFreeSquare,
                    SummonFailure::NothingEligible => NothingMade::NothingEligible,
                })
            },
        );
    }
}

/// Serves every new [`StatueWakeRequested`].
pub(crate) fn wake_statues(
    world: &mut World,
    mut cursor: Local<MessageCursor<StatueWakeRequested>>,
) {
    for request in read_requests(world, &mut cursor) {
        let woken = statues_woken(&world.resource::<FloorMap>().0, request.at);
        let refusal = if rules_loading::<OmegaRuleset>(world) {
            Some(NothingMade::RulesLoading)
        } else {
            woken.is_empty().then_some(NothingMade::NotAStatue)
        };
        if let Some(why) = refusal {
            world.write_message(Summoned {
                request: request.request,
                made: Err(why),
            });
            continue;
        }
        for at in woken {
            world.resource_mut::<FloorMap>().0.set(at, Tile::Floor);
            make(
                world,
                request.request,
                1,
                streams::STATUE,
                |rng, pool, builder, _| {
                    let species = pool.sample(rng);
                    let mut monster = builder.build(rng, species);
                    monster.hostile = true;
                    Ok(Spawn {
                        at,
                        origin: Origin::WakingStatue,
                        creature: monster,
                    })
                },
            );
        }
    }
}

/// Shared by summons and statues: the local pool at `difficulty + raise`, a stream per
/// event, spawn, and a [`Summoned`] message either way.
fn make(
    world: &mut World,
    request: u64,
    raise: i64,
    kind: &str,
    maker: impl FnOnce(
        &mut Generator,
        &Selector,
        &mut Builder<'_>,
        &World,
    ) -> Result<Spawn<Monster>, NothingMade>,
) {
    let location = world.resource::<CurrentLocation>().clone();
    let difficulty = location.difficulty + raise;
    let rules = world.resource::<OmegaRuleset>().clone();
    let made = match rules.ordinary_pool(difficulty) {
        None => Err(NothingMade::NothingEligible),
        Some(pool) => {
            let mut rng = world.resource_mut::<DenizenRng>().next_stream(
                kind,
                &location.environment,
                location.depth,
            );
            with_builder(world, &mut rng, difficulty, |rng, builder, world| {
                maker(rng, pool, builder, world)
            })
        }
    };
    let made = made.map(|spawn| {
        let square = spawn.at;
        (spawn_monsters(world, Plan::one(spawn))[0], square)
    });
    world.write_message(Summoned { request, made });
}
