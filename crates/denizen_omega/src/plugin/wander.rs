//! Wandering arrivals: the check both clock schedules run, an arrival on the clock through
//! the [`arrivals`](denizen_bevy::arrivals) pipeline.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::arrivals::{
    ArrivalFloor, ArrivalRequest, Arrived, NotOurFloor, RulesNotReady, RulesRefused,
    RulesStillLoading, arrive,
};
use denizen_bevy::floor::{FloorId, FloorMap};
use denizen_bevy::pipeline::FloorStreams;
use denizen_core::floor::Square;
use denizen_core::plan::Plan;

use super::populate::{construct, keep_ledger, spawn_monsters};
use super::resources::{OmegaCurrentLocation, OmegaRuleset};
use crate::construct::Monster;
use crate::objects::ItemLedger;
use crate::place::NoWandering;
use crate::species::SpeciesId;
use crate::streams;
use crate::wander::WanderRule;

/// One wandering check of the clock: the
/// [`TenMinuteCheck`](denizen_bevy::clock::TenMinuteCheck) and
/// [`HourlyCheck`](denizen_bevy::clock::HourlyCheck) schedules run one per boundary. It
/// runs only while the current floor is the Omega dungeon the player is in; the chance is
/// `R(dungeon depth) < difficulty`, the creature comes from the ordinary pool (not the
/// themed recipe), placed by the floor search, marked wandering, and its square is not
/// turned to water (as in the source). Answered with an [`OmegaWanderingChecked`] when a
/// creature arrives, and when the check cannot run, once until the reason changes (a check
/// runs every ten game minutes; the host hears it when the player leaves a dungeon, not
/// every check after); a check whose roll brings nothing is not answered.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaWanderingCheck;

/// A wandering creature arrived on the current floor: what [`OmegaWanderingChecked`] holds,
/// and also triggered on the new monster, so batch readers and observers both see it.
#[derive(EntityEvent, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaWanderingArrival {
    /// The new monster.
    pub entity: Entity,
    /// Its template.
    pub species: SpeciesId,
    /// Where it arrived.
    pub at: Square,
}

/// The answer to an [`OmegaWanderingCheck`], written in
/// [`DenizenSystems::Clock`](denizen_bevy::DenizenSystems::Clock).
pub type OmegaWanderingChecked = Arrived<OmegaWanderingCheck>;

/// Why a wandering check brought nothing.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum OmegaWanderingSkip {
    /// The current floor is not Omega's (another rule set's, the game's own, or none: a
    /// floor put away): wandering monsters arrive only on the Omega floor the player is
    /// on, or on the host's map before any floor.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    /// The rules' data files (feature `assets`) have not loaded yet.
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    /// The rules allow no wandering here (not a dungeon).
    #[error("{0}")]
    Rules(NoWandering),
    /// The ordinary pool at the difficulty is empty.
    #[error("no ordinary species at difficulty {0}: nothing can wander in")]
    NothingToDraw(i64),
    /// The check ran and brought nothing (its roll failed, or the floor is full): not
    /// answered.
    #[error("the check brought nothing")]
    NoneArrived,
}

impl From<NotOurFloor> for OmegaWanderingSkip {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for OmegaWanderingSkip {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// The reason last answered (shared by the ten-minute and hourly checks, so the host hears
/// it once).
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(crate) struct SkipSaid(Option<OmegaWanderingSkip>);

/// What a check resolved: the rules, the place, and its rule.
pub struct WanderingPlace {
    ruleset: OmegaRuleset,
    location: OmegaCurrentLocation,
    rule: WanderRule,
}

/// An arrival as planned, with the unique-item ledger as construction left it.
pub struct WanderingPlan {
    plan: Plan<Monster>,
    ledger: ItemLedger,
}

impl ArrivalRequest for OmegaWanderingCheck {
    type Rules = OmegaRuleset;
    type Valid = WanderingPlace;
    type Plan = WanderingPlan;
    type Arrival = OmegaWanderingArrival;
    type Refusal = OmegaWanderingSkip;

    fn comes_onto(&self) -> ArrivalFloor {
        ArrivalFloor::OwnOrNone
    }

    fn validate(&self, world: &World) -> Result<(FloorId, WanderingPlace), OmegaWanderingSkip> {
        let location = world.resource::<OmegaCurrentLocation>().clone();
        let ruleset = world.resource::<OmegaRuleset>().clone();
        let current = location.arrival_floor(world)?;
        let rule = ruleset
            .rules()
            .wandering(location.place())
            .map_err(OmegaWanderingSkip::Rules)?;
        if ruleset.ordinary_pool(location.difficulty).is_none() {
            return Err(OmegaWanderingSkip::NothingToDraw(location.difficulty));
        }
        let place = WanderingPlace {
            ruleset,
            location,
            rule,
        };
        Ok((current, place))
    }

    fn plan(
        &self,
        world: &World,
        place: WanderingPlace,
        streams: &mut FloorStreams<'_>,
    ) -> Result<WanderingPlan, OmegaWanderingSkip> {
        let WanderingPlace {
            ruleset,
            location,
            rule,
        } = place;
        let mut rng = streams.draw(streams::WANDER);
        let pool = ruleset
            .ordinary_pool(location.difficulty)
            .ok_or(OmegaWanderingSkip::NothingToDraw(location.difficulty))?;
        let grid = &world.resource::<FloorMap>().0;
        let (arrival, ledger) = construct(
            world,
            &ruleset,
            location.deity,
            location.difficulty,
            |builder| rule.check(&mut rng, grid, pool, builder),
        );
        let spawn = arrival.ok_or(OmegaWanderingSkip::NoneArrived)?;
        Ok(WanderingPlan {
            plan: Plan::one(spawn),
            ledger,
        })
    }

    fn apply(&self, world: &mut World, plan: WanderingPlan) -> OmegaWanderingArrival {
        keep_ledger(world, plan.ledger);
        let spawn = &plan.plan.spawns[0];
        let (at, species) = (spawn.at, spawn.creature.species);
        let entity = spawn_monsters(world, plan.plan)[0];
        OmegaWanderingArrival {
            entity,
            species,
            at,
        }
    }

    fn answer(
        &self,
        world: &mut World,
        outcome: Result<OmegaWanderingArrival, OmegaWanderingSkip>,
    ) {
        match outcome {
            Ok(arrival) => {
                world.resource_mut::<SkipSaid>().0 = None;
                world.write_message(OmegaWanderingChecked {
                    request: *self,
                    outcome: Ok(arrival),
                });
                world.trigger(arrival);
            }
            Err(OmegaWanderingSkip::NoneArrived) => {
                world.resource_mut::<SkipSaid>().0 = None;
            }
            Err(reason) => {
                let mut said = world.resource_mut::<SkipSaid>();
                if said.0.as_ref() != Some(&reason) {
                    said.0 = Some(reason.clone());
                    world.write_message(OmegaWanderingChecked {
                        request: *self,
                        outcome: Err(reason),
                    });
                }
            }
        }
    }
}

/// The system both check schedules run: one [`OmegaWanderingCheck`] through the arrivals
/// pipeline.
pub(crate) fn wandering_check(world: &mut World) {
    arrive(world, &OmegaWanderingCheck);
}
