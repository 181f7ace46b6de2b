//! The one pipeline every arrival on the current floor goes through: a summoning, a statue
//! waking, an arena bout, a trap's summons, a wandering creature on the clock. Each
//! request is served in one order:
//!
//! 1. **read** it ([`read_requests`]), or take it from a
//!    clock check ([`arrive`]);
//! 2. **refuse while loading**: while the rule set's data files load
//!    ([`RulesLoading`](crate::pipeline::RulesLoading)), nothing is drawn or made, and the
//!    answer says whether they are still loading or were refused
//!    ([`RulesNotReady`]);
//! 3. **claim** the floor: an arrival that comes onto its rule set's own floor (the
//!    default [`ArrivalFloor::Own`]) is refused with [`NotOurFloor`] when another rule
//!    set, or the game, made the current floor;
//! 4. **validate** it against the rules and the floor ([`ArrivalRequest::validate`]): the
//!    floor whose streams it draws (usually the current one) and what the rules resolved;
//! 5. **plan** with the rules and the floor's streams, reading the world only
//!    ([`ArrivalRequest::plan`]); the ledger counts the streams drawn;
//! 6. **spawn** through the one apply step ([`ArrivalRequest::apply`], with
//!    [`apply`](crate::apply::apply): occupancy, tiles, [`MonsterSpawned`](crate::MonsterSpawned));
//! 7. **answer**, once per request, success or not: an [`Arrived`] message holding the
//!    request and `Ok` with what arrived or `Err` with the typed reason
//!    ([`ArrivalRequest::answer`]).
//!
//! A rule set implements [`ArrivalRequest`] for its request and serves it with
//! [`RuleSetApp::serve_arrivals`](crate::RuleSetApp::serve_arrivals) (a message the host
//! writes), or calls [`arrive`] from a system of its own (a wandering check on the
//! [`TenMinuteCheck`](crate::clock::TenMinuteCheck) schedule).

use std::fmt::Debug;

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use bevy_reflect::{FromReflect, GetTypeRegistration, TypePath, Typed};

use crate::floor::{CurrentFloor, FloorId, Maker, maker_of, maker_of_rules};
use crate::pipeline::{FloorStreams, plan_with_streams, read_requests, rules_ready};

pub use crate::pipeline::{NotOurFloor, RulesNotReady, RulesRefused, RulesStillLoading};

/// The floors an arrival may come onto, checked by the pipeline before validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrivalFloor {
    /// The current floor, when the arrival's rule set made it: the default. Another rule
    /// set's floor, the game's own, or none (a floor put away) refuses it with
    /// [`NotOurFloor`].
    Own,
    /// As [`Own`](Self::Own), and also the host's map before any floor is entered
    /// (Omega's summons in a game that fills `FloorMap` and never asks for a floor).
    OwnOrNone,
    /// Any floor: the arrival keys its streams by a floor of its own (Omega's arena
    /// bouts).
    Any,
}

impl ArrivalFloor {
    /// Whether an arrival of `rule_set`'s may come while `current`, made by `maker`, is
    /// the current floor.
    pub fn admits(self, current: &FloorId, maker: &Maker, rule_set: &Maker) -> bool {
        let none = *current == FloorId::default();
        match self {
            Self::Any => true,
            Self::OwnOrNone if none => true,
            Self::Own | Self::OwnOrNone => !none && maker == rule_set,
        }
    }
}

/// What an arrival request tells the pipeline at each step (see the module docs).
pub trait ArrivalRequest: Clone + Debug + Send + Sync + 'static {
    /// The rule set's rules resource, whose loading refuses every request.
    type Rules: Resource;
    /// What validation resolved, handed to planning.
    type Valid;
    /// What the rules planned, before it reaches the world.
    type Plan;
    /// What arrived: the entities and whatever the rule set reports with them.
    type Arrival: Clone + Debug + Send + Sync + 'static;
    /// Why nothing arrived.
    type Refusal: From<RulesNotReady> + From<NotOurFloor> + Clone + Debug + Send + Sync + 'static;

    /// Step 3: the floors it may come onto ([`ArrivalFloor::Own`] unless said otherwise).
    fn comes_onto(&self) -> ArrivalFloor {
        ArrivalFloor::Own
    }

    /// Step 4: the floor whose streams the arrival draws, and what the rules resolved; or
    /// why it cannot be served (nothing is drawn then).
    fn validate(&self, world: &World) -> Result<(FloorId, Self::Valid), Self::Refusal>;

    /// Step 5: plans the arrival; every stream comes from `streams`, keyed by the floor
    /// validation named. A refusal here still counts the streams drawn.
    fn plan(
        &self,
        world: &World,
        valid: Self::Valid,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Self::Plan, Self::Refusal>;

    /// Step 6: spawns what was planned through [`apply`](crate::apply::apply) and says
    /// what arrived.
    fn apply(&self, world: &mut World, plan: Self::Plan) -> Self::Arrival;

    /// Step 7: the answer. By default an [`Arrived`] message (which the rule set's plugin
    /// adds, as [`RuleSetApp::serve_arrivals`](crate::RuleSetApp::serve_arrivals) does).
    fn answer(&self, world: &mut World, outcome: Result<Self::Arrival, Self::Refusal>) {
        world.write_message(Arrived {
            request: self.clone(),
            outcome,
        });
    }
}

/// The answer to an arrival request, success or not: the request as it was written, and
/// what arrived or why nothing did. A rule set names its answers with a type alias
/// (`OmegaSummoned` is `Arrived<OmegaSummonRequested>`).
#[derive(Message, Reflect, Clone, Debug)]
#[reflect(Debug, where
    R: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed,
    R::Arrival: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed,
    R::Refusal: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed)]
pub struct Arrived<R: ArrivalRequest> {
    /// The request answered.
    pub request: R,
    /// What arrived, or why nothing did.
    pub outcome: Result<R::Arrival, R::Refusal>,
}

impl<R: ArrivalRequest + PartialEq> PartialEq for Arrived<R>
where
    R::Arrival: PartialEq,
    R::Refusal: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.request == other.request && self.outcome == other.outcome
    }
}

impl<R: ArrivalRequest> Arrived<R> {
    /// What arrived, if anything did.
    pub fn arrival(&self) -> Option<&R::Arrival> {
        self.outcome.as_ref().ok()
    }

    /// Why nothing arrived, if nothing did.
    pub fn refusal(&self) -> Option<&R::Refusal> {
        self.outcome.as_ref().err()
    }
}

/// Serves one arrival request now, through every step (the same as a request message):
/// what a clock check calls for its wandering arrival.
pub fn arrive<R: ArrivalRequest>(world: &mut World, request: &R) {
    let outcome = outcome(world, request);
    request.answer(world, outcome);
}

/// Steps 2 to 6 of one request.
fn outcome<R: ArrivalRequest>(world: &mut World, request: &R) -> Result<R::Arrival, R::Refusal> {
    rules_ready::<R::Rules>(world)?;
    let current = &world.resource::<CurrentFloor>().0;
    let (maker, ours) = (maker_of(world, current), maker_of_rules::<R::Rules>(world));
    if !request.comes_onto().admits(current, &maker, &ours) {
        return Err(NotOurFloor {
            floor: current.clone(),
            maker,
            asked: ours,
        }
        .into());
    }
    let (floor, valid) = request.validate(world)?;
    let plan = plan_with_streams(world, &floor, |world, streams| {
        request.plan(world, valid, streams)
    });
    Ok(request.apply(world, plan?))
}

/// The system that serves every new request of type `R` (added by
/// [`RuleSetApp::serve_arrivals`](crate::RuleSetApp::serve_arrivals)).
pub fn serve_arrival_requests<R: ArrivalRequest + Message>(
    world: &mut World,
    mut cursor: Local<MessageCursor<R>>,
) {
    for request in read_requests(world, &mut cursor) {
        arrive(world, &request);
    }
}
