//! Summoning and waking statues: arrivals the host asks for, through the
//! [`arrivals`](denizen_bevy::arrivals) pipeline.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::arrivals::{
    ArrivalFloor, ArrivalRequest, Arrived, NotOurFloor, RulesNotReady, RulesRefused,
    RulesStillLoading,
};
use denizen_bevy::floor::{FloorId, FloorMap};
use denizen_bevy::pipeline::FloorStreams;
use denizen_core::floor::{Square, Tile};
use denizen_core::plan::{Plan, Spawn};

use super::populate::{construct, keep_ledger, spawn_monsters};
use super::resources::{OmegaCurrentLocation, OmegaRuleset};
use crate::construct::Monster;
use crate::objects::ItemLedger;
use crate::species::{SpeciesId, StatusSet};
use crate::streams;
use crate::wander::{SummonFailure, Summoning, statues_woken, summon};

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

/// Summon a creature next to a square (usually the player's): it appears on the first free
/// floor neighbour in the source's fixed order, or nothing is made. Answered with a
/// [`OmegaSummoned`] (in `OmegaSystems::Arrivals`).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaSummonRequested {
    /// An id the host chooses, to tell its answers apart.
    pub request: u64,
    /// The square to summon next to.
    pub at: Square,
    /// What to summon.
    pub kind: SummonKind,
    /// Made friendly (not hostile) after construction: the source's blessed summoning,
    /// where the player calls a creature to their side.
    pub friendly: bool,
}

impl OmegaSummonRequested {
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

/// A statue at a square comes alive: a [`crate::tile::STATUE`] of [`FloorMap`] turns to
/// floor and holds a creature of the ordinary pool one difficulty above the local one, made
/// hostile; then each statue among its eight neighbours wakes the same way, and theirs,
/// depth first in the source's direction order. Answered with an [`OmegaStatuesWoken`]
/// listing every woken statue's creature; a square that is not a statue makes nothing and
/// answers [`OmegaNothingMade::NotAStatue`] (so the host leaves the statue tile in place
/// for the plugin to turn to floor).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaStatueWakeRequested {
    /// An id the host chooses, to tell its answers apart.
    pub request: u64,
    /// The statue's square.
    pub at: Square,
}

impl OmegaStatueWakeRequested {
    /// The statue at `at` wakes, answered with `request`.
    pub fn new(request: u64, at: Square) -> Self {
        Self { request, at }
    }
}

/// Why an [`OmegaSummonRequested`] or [`OmegaStatueWakeRequested`] made nothing.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum OmegaNothingMade {
    /// No free floor square next to the summoning square.
    #[error("no free floor square next to the summoning square")]
    NoFreeSquare,
    /// The named species is not in the bestiary, or no species is eligible at the local
    /// difficulty.
    #[error("no species is eligible: the named one is not in the bestiary, or the pool is empty")]
    NothingEligible,
    /// The square of an [`OmegaStatueWakeRequested`] is not a statue.
    #[error("the square is not a statue")]
    NotAStatue,
    /// The rules' data files (feature `assets`) have not loaded yet.
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    /// The current floor is not Omega's (another rule set's, the game's own, or none: a
    /// floor put away): nothing is summoned onto it.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
}

impl From<NotOurFloor> for OmegaNothingMade {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for OmegaNothingMade {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// A creature that arrived, and its square.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaSummon {
    /// The new monster.
    pub entity: Entity,
    /// Where it stands.
    pub at: Square,
}

/// The answer to an [`OmegaSummonRequested`]: the creature made, or why none was. Written
/// in [`DenizenSystems::Arrivals`](denizen_bevy::DenizenSystems::Arrivals).
pub type OmegaSummoned = Arrived<OmegaSummonRequested>;

/// The answer to an [`OmegaStatueWakeRequested`]: every woken statue's creature, in waking
/// order, or why none woke.
pub type OmegaStatuesWoken = Arrived<OmegaStatueWakeRequested>;

/// The local place and its ordinary pool at a difficulty: what every summons and statue
/// draws from, resolved before any stream is drawn.
pub struct LocalPool {
    ruleset: OmegaRuleset,
    location: OmegaCurrentLocation,
    difficulty: i64,
}

impl LocalPool {
    /// The pool at the current location's difficulty plus `raise`, with the floor whose
    /// streams it draws (the location's, which must be the current floor); none when no
    /// species is eligible there.
    fn of(world: &World, raise: i64) -> Result<(FloorId, Self), OmegaNothingMade> {
        let ruleset = world.resource::<OmegaRuleset>().clone();
        let location = world.resource::<OmegaCurrentLocation>().clone();
        let floor = location.arrival_floor(world)?;
        let difficulty = location.difficulty + raise;
        ruleset
            .ordinary_pool(difficulty)
            .ok_or(OmegaNothingMade::NothingEligible)?;
        let pool = Self {
            ruleset,
            location,
            difficulty,
        };
        Ok((floor, pool))
    }
}

/// Creatures planned by a summons or statues, with the unique-item ledger as construction
/// left it.
pub struct Arrivals {
    plan: Plan<Monster>,
    ledger: ItemLedger,
}

impl Arrivals {
    /// Applies the creatures, keeps the ledger, and gives back each creature and square.
    fn apply(self, world: &mut World) -> Vec<OmegaSummon> {
        keep_ledger(world, self.ledger);
        let squares: Vec<Square> = self.plan.spawns.iter().map(|s| s.at).collect();
        let entities = spawn_monsters(world, self.plan);
        entities
            .into_iter()
            .zip(squares)
            .map(|(entity, at)| OmegaSummon { entity, at })
            .collect()
    }
}

impl ArrivalRequest for OmegaSummonRequested {
    type Rules = OmegaRuleset;
    type Valid = LocalPool;
    type Plan = Arrivals;
    type Arrival = OmegaSummon;
    type Refusal = OmegaNothingMade;

    fn comes_onto(&self) -> ArrivalFloor {
        ArrivalFloor::OwnOrNone
    }

    fn validate(&self, world: &World) -> Result<(FloorId, LocalPool), OmegaNothingMade> {
        LocalPool::of(world, 0)
    }

    fn plan(
        &self,
        world: &World,
        local: LocalPool,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Arrivals, OmegaNothingMade> {
        let kind = match self.kind {
            SummonKind::Hostile => Summoning::Hostile,
            SummonKind::Ordinary => Summoning::Ordinary,
            SummonKind::Named(id) => Summoning::Named(id),
        };
        let mut rng = streams.draw(streams::SUMMON);
        let pool = local
            .ruleset
            .ordinary_pool(local.difficulty)
            .ok_or(OmegaNothingMade::NothingEligible)?;
        let grid = &world.resource::<FloorMap>().0;
        let (made, ledger) = construct(
            world,
            &local.ruleset,
            local.location.deity,
            local.difficulty,
            |builder| summon(&mut rng, kind, grid, self.at, pool, builder),
        );
        let mut spawn = made.map_err(|failure| match failure {
            SummonFailure::NoFreeSquare => OmegaNothingMade::NoFreeSquare,
            SummonFailure::NothingEligible => OmegaNothingMade::NothingEligible,
        })?;
        if self.friendly {
            spawn.creature.status.remove(StatusSet::HOSTILE);
        }
        Ok(Arrivals {
            plan: Plan::one(spawn),
            ledger,
        })
    }

    fn apply(&self, world: &mut World, plan: Arrivals) -> OmegaSummon {
        plan.apply(world)[0]
    }
}

impl ArrivalRequest for OmegaStatueWakeRequested {
    type Rules = OmegaRuleset;
    type Valid = (Vec<Square>, LocalPool);
    type Plan = Arrivals;
    type Arrival = Vec<OmegaSummon>;
    type Refusal = OmegaNothingMade;

    fn comes_onto(&self) -> ArrivalFloor {
        ArrivalFloor::OwnOrNone
    }

    fn validate(&self, world: &World) -> Result<(FloorId, Self::Valid), OmegaNothingMade> {
        let woken = statues_woken(&world.resource::<FloorMap>().0, self.at);
        if woken.is_empty() {
            return Err(OmegaNothingMade::NotAStatue);
        }
        let (floor, pool) = LocalPool::of(world, 1)?;
        Ok((floor, (woken, pool)))
    }

    fn plan(
        &self,
        world: &World,
        (woken, local): Self::Valid,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Arrivals, OmegaNothingMade> {
        let pool = local
            .ruleset
            .ordinary_pool(local.difficulty)
            .ok_or(OmegaNothingMade::NothingEligible)?;
        let (plan, ledger) = construct(
            world,
            &local.ruleset,
            local.location.deity,
            local.difficulty,
            |builder| {
                let mut plan = Plan::default();
                for at in woken {
                    // Each statue draws its own stream, in waking order.
                    let mut rng = streams.draw(streams::STATUE);
                    let species = pool.sample(&mut rng);
                    let mut monster = builder.build(&mut rng, species);
                    monster.status.insert(StatusSet::HOSTILE);
                    plan.tiles.push((at, Tile::Floor));
                    plan.spawns.push(Spawn {
                        at,
                        origin: crate::origin::WAKING_STATUE,
                        creature: monster,
                    });
                }
                plan
            },
        );
        Ok(Arrivals { plan, ledger })
    }

    fn apply(&self, world: &mut World, plan: Arrivals) -> Vec<OmegaSummon> {
        plan.apply(world)
    }
}
