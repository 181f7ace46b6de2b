//! The one request pipeline every rule set's floor requests go through, in one order:
//!
//! 1. **read** the requests written since the system last ran ([`read_requests`]);
//! 2. **validate** each against the rules ([`FloorRequest::validate`]: the floor it is
//!    for, or why the rules cannot serve it; nothing has changed yet);
//! 3. **claim** [`FloorMap`](crate::FloorMap) for that floor in this run (it holds one
//!    floor: a second floor in one run is refused with [`FloorHeld`]);
//! 4. **settle** what came before: the current floor, if it is another one not put away,
//!    ends as [`FloorEnd::Left`]; a floor of the same id that already exists (current, put
//!    away, or made earlier in this run) ends as [`FloorEnd::Replaced`]. Every rule set's
//!    step runs and their creatures are despawned: a new floor is never merged into an old
//!    one, and no floor is left awake off the map. [`FloorMap`](crate::FloorMap) is the
//!    new floor as the host filled it: the old creatures' despawns leave its marks alone;
//! 5. **enter** it: it becomes the [`CurrentFloor`], its squares
//!    counted;
//! 6. **draw** the request's stream from the ledger ([`FloorRequest::stream`]);
//! 7. **plan** with the rules, without touching the world ([`FloorRequest::plan`]);
//! 8. **apply** the plan ([`apply`](crate::apply::apply): occupancy, tiles, one batch
//!    per shape, then [`MonsterSpawned`](crate::MonsterSpawned)) and **answer**
//!    ([`FloorRequest::apply`]), then [`FloorEntered`] with [`FloorEntry::New`]; or, at
//!    steps 2 and 3, **reject** ([`FloorRequest::reject`]).
//!
//! A rule set implements [`FloorRequest`] for its request message and adds
//! [`serve_floor_requests`] for it to its set; nothing in this crate needs to know it
//! (`examples/custom_rule_set.rs` is such a rule set, written outside this crate).
//! Validation checks everything a plan needs, so a request is refused before anything
//! changes or served whole. (A plan may still come out empty if an observer of the old
//! floor's end replaced the rules; the shipped rule sets then place nothing.)

use std::marker::PhantomData;

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use denizen_core::rng::Generator;

use crate::floor::{CurrentFloor, FloorEnd, FloorId, claim_floor, end_floor, enter_floor};
use crate::streams::{DenizenRng, StreamKey};

pub use crate::floor::{FloorEnded, FloorEntered, FloorEntry, FloorHeld};

/// The new messages of type `M` since `cursor` last read, cloned out so the system can
/// change the world while it serves them: the one preamble of every request system.
pub fn read_requests<M: Message + Clone>(world: &World, cursor: &mut MessageCursor<M>) -> Vec<M> {
    world
        .get_resource::<Messages<M>>()
        .map(|messages| cursor.read(messages).cloned().collect())
        .unwrap_or_default()
}

/// What a rule set's floor request tells the pipeline at each step (see the module docs
/// for the order). Implemented on the request message itself.
pub trait FloorRequest: Message + Clone {
    /// Why the rule set refuses a request; the pipeline's own refusal converts into it.
    type Rejection: From<FloorHeld>;
    /// What the rules planned, before it reaches the world.
    type Plan;

    /// Step 2: the floor this request populates, or why the rules cannot serve it. Reads
    /// the world only; everything that could make a later step fail is checked here.
    fn validate(&self, world: &World) -> Result<FloorId, Self::Rejection>;

    /// Step 6: the ledger entry the plan's stream is drawn from (the rule set's own
    /// stream kind, a place and a depth).
    fn stream<'a>(&'a self, floor: &'a FloorId) -> StreamKey<'a>;

    /// Step 7: plans the floor with the rules. The floor is current and empty of earlier
    /// creatures; the world is read (and a rule set may draw further streams of its own
    /// from [`DenizenRng`]), not populated.
    fn plan(&self, world: &mut World, floor: &FloorId, rng: &mut Generator) -> Self::Plan;

    /// Step 8: applies the plan through [`apply`](crate::apply::apply) and writes the
    /// answer.
    fn apply(&self, world: &mut World, floor: &FloorId, plan: Self::Plan);

    /// The answer to a request refused at step 2 or 3 (nothing changed).
    fn reject(&self, world: &mut World, rejection: Self::Rejection);
}

/// Serves one request through every step, in order.
pub fn serve<R: FloorRequest>(world: &mut World, request: &R) {
    let floor = match request.validate(world) {
        Ok(floor) => floor,
        Err(rejection) => return request.reject(world, rejection),
    };
    if let Err(held) = claim_floor(world, &floor) {
        return request.reject(world, held.into());
    }
    let current = world.resource::<CurrentFloor>().0.clone();
    if current != floor && current != FloorId::default() {
        end_floor(world, &current, FloorEnd::Left);
    }
    end_floor(world, &floor, FloorEnd::Replaced);
    enter_floor(world, floor.clone());
    let key = request.stream(&floor);
    let mut rng = world.resource_mut::<DenizenRng>().next(key);
    let plan = request.plan(world, &floor, &mut rng);
    request.apply(world, &floor, plan);
    world.trigger(FloorEntered {
        floor,
        entry: FloorEntry::New,
    });
}

/// The system that serves every new request of type `R`: a rule set adds it, with
/// `run_if(on_message::<R>)`, to its set.
pub fn serve_floor_requests<R: FloorRequest>(
    world: &mut World,
    mut cursor: Local<MessageCursor<R>>,
) {
    for request in read_requests(world, &mut cursor) {
        serve(world, &request);
    }
}

/// Present while a rule set's rules are still loading from its data files (the `assets`
/// feature: its plugin was given asset paths): the rule set refuses its floor requests
/// until the first valid set of files is in, and a game waits for `RulesLoaded`. `R` is the
/// rule set's rules resource (`OmegaRuleset`, ...). A game's own rule set may use it too.
#[derive(Resource)]
pub struct RulesLoading<R: Send + Sync + 'static>(PhantomData<fn() -> R>);

impl<R: Send + Sync + 'static> Default for RulesLoading<R> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

/// Whether the rule set whose rules resource is `R` is still loading its data files (see
/// [`RulesLoading`]).
pub fn rules_loading<R: Send + Sync + 'static>(world: &World) -> bool {
    world.contains_resource::<RulesLoading<R>>()
}

/// A request no added plugin serves is a mistake in how the app was put together (code
/// written for an earlier API, a plugin left out): the first such request stops the app
/// with a message naming the plugin to add, instead of being dropped without a word.
///
/// `DenizenPlugin` adds this for the request of every rule set compiled in, run while
/// that rule set's rules resource is missing; a game's own rule set may do the same.
pub fn refuse_unserved<M: Message>(
    plugin: &'static str,
) -> impl FnMut(Res<Messages<M>>) + Send + Sync + 'static {
    move |messages: Res<Messages<M>>| {
        assert!(
            messages.is_empty(),
            "a `{}` was written, but no plugin serves it: add `{plugin}` (or \
             `DenizenPlugins`, which brings every rule set's plugin); `DenizenPlugin` alone \
             is only the neutral part",
            std::any::type_name::<M>()
                .rsplit("::")
                .next()
                .unwrap_or_default(),
        );
    }
}
