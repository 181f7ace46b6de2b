//! The one request pipeline every rule set's floor requests go through, in one order:
//!
//! 1. **read** the requests written since the system last ran ([`read_requests`]);
//! 2. **validate** each: while the rule set's data files load
//!    ([`RulesLoading`]) it is refused ([`RulesNotReady`]); then against the rules
//!    ([`FloorRequest::validate`]: the floor it is for and everything the plan will read
//!    from the rule set, resolved, or why the rules cannot serve it; nothing has changed
//!    yet);
//! 3. **claim** the floor: one current or put away under another rule set is refused with
//!    [`NotOurFloor`] (the [`Maker`] is the rule set that declared the request's rules
//!    resource, [`RuleSet::rules`](crate::RuleSet::rules)); then [`FloorMap`] for that
//!    floor in this run (it holds one floor: a second floor in one run is refused with
//!    [`FloorHeld`]);
//! 4. **settle** what came before: the current floor, if it is another one not put away,
//!    ends as [`FloorEnd::Left`]; a floor of the same id that already exists (current, put
//!    away, or made earlier in this run) ends as [`FloorEnd::Replaced`]. Every rule set's
//!    step runs and their creatures are despawned: a new floor is never merged into an old
//!    one, and no floor is left awake off the map. [`FloorMap`] is held aside meanwhile
//!    (empty to the observers of the end) and put back as the host filled it and
//!    validation read it: neither the old creatures' despawns nor an observer touch it;
//! 5. **plan** with what validation resolved and the floor's own streams
//!    ([`FloorRequest::plan`]): the world is read, never written, every stream the plan
//!    draws is keyed by the floor ([`FloorStreams`]), and planning cannot refuse: what
//!    could refuse was checked at step 2 and handed over, so an observer of step 4 cannot
//!    make it stale, and no floor is entered empty;
//! 6. **enter** the floor, once: a plan that brings its own map
//!    ([`FloorRequest::floor_map`], Angband's classic level) puts it in
//!    [`FloorMap`] first; it becomes the [`CurrentFloor`], its squares
//!    counted, its maker the rule set's ([`FloorMakers`]);
//! 7. **apply** the plan ([`FloorRequest::apply`], through
//!    [`apply`](crate::apply::apply): occupancy, tiles, one batch per shape, then
//!    [`MonsterSpawned`](crate::MonsterSpawned)), then [`FloorEntered`] with
//!    [`FloorEntry::New`];
//! 8. **answer**, once per request, served or not: a [`FloorServed`] holding the request,
//!    the floor, and `Ok` with what was populated or `Err` with the typed reason
//!    ([`FloorRequest::answer`]). A request refused at step 2 or 3 changed nothing.
//!
//! A rule set implements [`FloorRequest`] for its request message and serves it with
//! [`RuleSetApp::serve_floors`](crate::RuleSetApp::serve_floors); nothing in this crate
//! needs to know it (`examples/custom_rule_set.rs` is such a rule set, written outside
//! this crate). Validation checks everything a plan needs, and hands what it resolved to
//! planning, so a request is refused before anything changes or served whole (an observer
//! of the old floor's end that replaces the rules, or the tables' context, does not change
//! the plan: it was resolved before).

use std::fmt::Debug;
use std::marker::PhantomData;

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use bevy_reflect::{FromReflect, GetTypeRegistration, TypePath, Typed};
use denizen_core::data::DataError;
use denizen_core::floor::FloorGrid;
use denizen_core::rng::Generator;

use crate::floor::{
    CurrentFloor, FloorEnd, FloorId, FloorMakers, FloorMap, StoredFloors, claim_floor, end_floor,
    enter_floor, maker_of, maker_of_rules,
};

use crate::streams::DenizenRng;

pub use crate::floor::{FloorEnded, FloorEntered, FloorEntry, FloorHeld, Maker};

/// The new messages of type `M` since `cursor` last read, cloned out so the system can
/// change the world while it serves them: the one preamble of every request system.
pub fn read_requests<M: Message + Clone>(world: &World, cursor: &mut MessageCursor<M>) -> Vec<M> {
    world
        .get_resource::<Messages<M>>()
        .map(|messages| cursor.read(messages).cloned().collect())
        .unwrap_or_default()
}

/// What a rule set's floor request tells the pipeline at each step (see the module docs
/// for the order). Implemented on the request message itself; the answer is a
/// [`FloorServed`] of it, as an arrival's is an [`Arrived`](crate::arrivals::Arrived).
pub trait FloorRequest: Message + Clone + Debug {
    /// The rule set's rules resource: while it loads the request is refused, and the rule
    /// set that declared it ([`RuleSet::rules`](crate::RuleSet::rules)) makes the floor.
    type Rules: Resource;
    /// What validation resolved (the rules in use and everything the plan reads from the
    /// rule set), handed to planning so it never resolves the request again.
    type Valid;
    /// What the rules planned, before it reaches the world.
    type Plan;
    /// What was populated: the entities and whatever the rule set reports with them.
    type Populated: Clone + Debug + Send + Sync + 'static;
    /// Why the rule set refuses a request; the pipeline's own refusals convert into it.
    type Refusal: From<FloorHeld>
        + From<NotOurFloor>
        + From<RulesNotReady>
        + Clone
        + Debug
        + Send
        + Sync
        + 'static;

    /// Step 2: the floor this request populates and what the rules resolved for it, or
    /// why they cannot serve it. Reads the world only; everything that could make a later
    /// step fail is checked here.
    fn validate(&self, world: &World) -> Result<(FloorId, Self::Valid), Self::Refusal>;

    /// Step 5: plans the floor with the rules. The world is read (the new map as the host
    /// filled it, the rule set's state), never written; streams come from `streams`, keyed
    /// by the floor.
    fn plan(&self, world: &World, valid: Self::Valid, streams: &mut FloorStreams<'_>)
    -> Self::Plan;

    /// Step 6: the map a plan brings with it (a rule set that lays out its own floor), put
    /// in [`FloorMap`] before the floor is entered. `None`, the default: the host's map.
    fn floor_map(&self, _plan: &mut Self::Plan) -> Option<FloorGrid> {
        None
    }

    /// Step 7: applies the plan through [`apply`](crate::apply::apply) and says what was
    /// populated. The floor is current and entered.
    fn apply(&self, world: &mut World, floor: &FloorId, plan: Self::Plan) -> Self::Populated;

    /// Step 8: the answer. By default a [`FloorServed`] message (which
    /// [`RuleSetApp::serve_floors`](crate::RuleSetApp::serve_floors) adds).
    fn answer(
        &self,
        world: &mut World,
        floor: Option<FloorId>,
        outcome: Result<Self::Populated, Self::Refusal>,
    ) {
        world.write_message(FloorServed {
            request: self.clone(),
            floor,
            outcome,
        });
    }
}

/// The answer to a floor request, served or not: the request as it was written, the floor
/// it named (`None` when the rules could not resolve one), and what was populated or why
/// nothing was. Every rule set answers its floors with it (a rule set names its answers
/// with a type alias: `OmegaFloorServed` is `FloorServed<OmegaFloorRequested>`),
/// as it answers arrivals with [`Arrived`](crate::arrivals::Arrived).
#[derive(Message, Reflect, Clone, Debug)]
#[reflect(Debug, where
    R: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed,
    R::Populated: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed,
    R::Refusal: Reflect + TypePath + FromReflect + GetTypeRegistration + Typed)]
pub struct FloorServed<R: FloorRequest> {
    /// The request answered.
    pub request: R,
    /// The floor it named, once the rules resolved it.
    pub floor: Option<FloorId>,
    /// What was populated, or why nothing was (and nothing changed).
    pub outcome: Result<R::Populated, R::Refusal>,
}

impl<R: FloorRequest + PartialEq> PartialEq for FloorServed<R>
where
    R::Populated: PartialEq,
    R::Refusal: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.request == other.request && self.floor == other.floor && self.outcome == other.outcome
    }
}

impl<R: FloorRequest> FloorServed<R> {
    /// What was populated, if the request was served.
    pub fn populated(&self) -> Option<&R::Populated> {
        self.outcome.as_ref().ok()
    }

    /// Why nothing was populated, if the request was refused.
    pub fn refusal(&self) -> Option<&R::Refusal> {
        self.outcome.as_ref().err()
    }
}

/// The streams a plan draws, each keyed by the floor it serves: the stream of a kind is
/// the ledger's next one for `(kind, floor location, floor depth)`. The ledger counts what
/// was drawn once planning ends, so planning reads the world only.
pub struct FloorStreams<'w> {
    ledger: &'w DenizenRng,
    floor: &'w FloorId,
    drawn: Vec<&'static str>,
}

impl<'w> FloorStreams<'w> {
    /// The streams of `floor`, as `ledger` counts them.
    pub fn new(ledger: &'w DenizenRng, floor: &'w FloorId) -> Self {
        Self {
            ledger,
            floor,
            drawn: Vec::new(),
        }
    }

    /// The floor's next stream of `kind` (a constant of the rule set's `streams` module).
    pub fn draw(&mut self, kind: &'static str) -> Generator {
        let before = self.drawn.iter().filter(|&&k| k == kind).count() as u64;
        self.drawn.push(kind);
        let generation = self
            .ledger
            .generation(kind, &self.floor.location, self.floor.depth)
            .saturating_add(before);
        self.ledger
            .stream_at(kind, &self.floor.location, self.floor.depth, generation)
    }

    /// The floor the streams serve.
    pub fn floor(&self) -> &FloorId {
        self.floor
    }
}

/// Plans with `floor`'s streams, reading the world only, then counts the streams the plan
/// drew in the ledger: the planning step of both pipelines (floors and arrivals).
pub(crate) fn plan_with_streams<P>(
    world: &mut World,
    floor: &FloorId,
    plan: impl FnOnce(&World, &mut FloorStreams<'_>) -> P,
) -> P {
    let (planned, drawn) = {
        let mut streams = FloorStreams::new(world.resource::<DenizenRng>(), floor);
        let planned = plan(world, &mut streams);
        (planned, streams.drawn)
    };
    let mut ledger = world.resource_mut::<DenizenRng>();
    for kind in drawn {
        ledger.count_drawn(kind, &floor.location, floor.depth);
    }
    planned
}

/// The pipelines' refusal of a request for another rule set's floor: a floor request for
/// a floor current or put away under another maker, or an arrival on a current floor
/// another made (see [`ArrivalFloor`](crate::arrivals::ArrivalFloor)). A rule set answers
/// for its own floors only, and two may name floors alike. (A floor of the host's may be
/// served by any rule set.) Every rule set's floor and arrival refusals convert from it.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[reflect(Debug, PartialEq, Hash)]
#[error("{}", not_ours(.floor, .maker, .asked))]
pub struct NotOurFloor {
    /// The floor.
    pub floor: FloorId,
    /// Who made it.
    pub maker: Maker,
    /// The rule set asked to serve it.
    pub asked: Maker,
}

/// The one line of a [`NotOurFloor`].
fn not_ours(floor: &FloorId, maker: &Maker, asked: &Maker) -> String {
    if *floor == FloorId::default() {
        format!(
            "{asked} serves its own floors only, and none is current (none entered, or put away)"
        )
    } else if maker == asked {
        format!("{floor} is not {asked}'s current floor: it serves its current floor only")
    } else {
        format!("{floor} is {maker}'s floor, not {asked}'s: a rule set serves its own floors only")
    }
}

/// Refuses `maker`'s request for `floor` when it is current or put away under another
/// rule set. A host floor may be populated by any rule set.
fn check_maker(world: &World, floor: &FloorId, maker: &Maker) -> Result<(), NotOurFloor> {
    let current = world.resource::<CurrentFloor>().0 == *floor;
    let stored = (world.get_resource::<StoredFloors>()).is_some_and(|s| s.0.contains_key(floor));
    let made_by = maker_of(world, floor);
    match made_by {
        Maker::RuleSet(_) if (current || stored) && made_by != *maker => Err(NotOurFloor {
            floor: floor.clone(),
            maker: made_by,
            asked: maker.clone(),
        }),
        _ => Ok(()),
    }
}

/// Serves one request through every step, in order, and answers it.
pub fn serve<R: FloorRequest>(world: &mut World, request: &R) {
    let validated = rules_ready::<R::Rules>(world)
        .map_err(R::Refusal::from)
        .and_then(|()| request.validate(world));
    let (floor, valid) = match validated {
        Ok(valid) => valid,
        Err(refusal) => return request.answer(world, None, Err(refusal)),
    };
    let maker = maker_of_rules::<R::Rules>(world);
    let claimed = check_maker(world, &floor, &maker)
        .map_err(R::Refusal::from)
        .and_then(|()| claim_floor(world, &floor).map_err(R::Refusal::from));
    if let Err(refusal) = claimed {
        return request.answer(world, Some(floor), Err(refusal));
    }
    // The new map is kept out of the old floor's end: what validation checked on it is
    // what planning reads.
    let map = std::mem::take(&mut world.resource_mut::<FloorMap>().0);
    let current = world.resource::<CurrentFloor>().0.clone();
    if current != floor && current != FloorId::default() {
        end_floor(world, &current, FloorEnd::Left);
    }
    end_floor(world, &floor, FloorEnd::Replaced);
    world.resource_mut::<FloorMap>().0 = map;
    let mut plan = plan_with_streams(world, &floor, |world, streams| {
        request.plan(world, valid, streams)
    });
    if let Some(map) = request.floor_map(&mut plan) {
        world.resource_mut::<FloorMap>().0 = map;
    }
    enter_floor(world, floor.clone());
    (world.get_resource_or_init::<FloorMakers>().0).insert(floor.clone(), maker.clone());
    let populated = request.apply(world, &floor, plan);
    world.trigger(FloorEntered {
        floor: floor.clone(),
        maker,
        entry: FloorEntry::New,
    });
    request.answer(world, Some(floor), Ok(populated));
}

/// The system that serves every new request of type `R` (added by
/// [`RuleSetApp::serve_floors`](crate::RuleSetApp::serve_floors)).
pub fn serve_floor_requests<R: FloorRequest>(
    world: &mut World,
    mut cursor: Local<MessageCursor<R>>,
) {
    for request in read_requests(world, &mut cursor) {
        serve(world, &request);
    }
}

/// Present while a rule set's rules are still loading from its data files (the `assets`
/// feature: its plugin was given asset paths): the rule set refuses its requests until the
/// first valid set of files is in, and a game waits for `RulesLoaded`. `R` is the rule
/// set's rules resource (`OmegaRuleset`, ...). Once a load has been refused (a file
/// missing, unreadable or invalid), it holds the latest refusal, which requests are
/// answered with ([`RulesNotReady::Refused`]) until a good set loads.
#[derive(Resource)]
pub struct RulesLoading<R: Send + Sync + 'static> {
    refused: Option<DataRefusal>,
    _rules: PhantomData<fn() -> R>,
}

impl<R: Send + Sync + 'static> Default for RulesLoading<R> {
    fn default() -> Self {
        Self {
            refused: None,
            _rules: PhantomData,
        }
    }
}

impl<R: Send + Sync + 'static> RulesLoading<R> {
    /// The latest refusal of the rule set's files, if a load was refused.
    pub fn refused(&self) -> Option<&DataRefusal> {
        self.refused.as_ref()
    }

    /// Records a refusal of the files: requests are answered with it from now on.
    pub fn refuse(&mut self, refusal: DataRefusal) {
        self.refused = Some(refusal);
    }
}

/// Whether the rule set whose rules resource is `R` is still loading its data files (see
/// [`RulesLoading`]), refused or not.
pub fn rules_loading<R: Send + Sync + 'static>(world: &World) -> bool {
    world.contains_resource::<RulesLoading<R>>()
}

/// Whether the rule set whose rules resource is `R` can serve requests: `Ok` once a good
/// set of its files is in (or it was given no files), else why not. Every rule set's
/// floor and arrival refusals convert from [`RulesNotReady`].
pub fn rules_ready<R: Send + Sync + 'static>(world: &World) -> Result<(), RulesNotReady> {
    let Some(loading) = world.get_resource::<RulesLoading<R>>() else {
        return Ok(());
    };
    Err(match &loading.refused {
        Some(refusal) => RulesNotReady::Refused(RulesRefused(refusal.clone())),
        None => RulesNotReady::Loading(RulesStillLoading),
    })
}

/// Why a rule set cannot serve requests yet (see [`rules_ready`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesNotReady {
    /// Its data files have not loaded yet.
    #[error("{0}")]
    Loading(RulesStillLoading),
    /// Its data files were refused, and no good set has loaded since.
    #[error("{0}")]
    Refused(RulesRefused),
}

/// A rule set's data files have not loaded yet (feature `assets`), and none was refused:
/// a game waits for `RulesLoaded`.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, thiserror::Error)]
#[reflect(Debug, PartialEq)]
#[error("the rules' data files have not loaded yet (wait for RulesLoaded)")]
pub struct RulesStillLoading;

/// A rule set's data files were refused before any good set of them loaded (feature
/// `assets`): the latest refusal, naming the file, the entry and the field. Nothing can be
/// served until the files are mended (a `RulesLoaded` follows).
#[derive(Reflect, Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[reflect(opaque, Debug, PartialEq, Hash)]
#[error("the rules' data files were refused, and none has loaded since: {0}")]
pub struct RulesRefused(pub DataRefusal);

/// Why a rule set's data files were refused.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DataRefusal {
    /// A file could not be loaded as text (missing, unreadable, too large, not UTF-8).
    #[error("{0}")]
    Load(String),
    /// The files loaded but do not make valid rules: the file, entry and field.
    #[error("{0}")]
    Data(DataError),
}
