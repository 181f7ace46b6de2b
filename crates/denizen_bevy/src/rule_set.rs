//! How a rule set's plugin takes its place beside the others, declared by itself.
//!
//! [`FloorMap`](crate::FloorMap) holds one floor a run, so when two rule sets are asked for
//! floors in one run, which one claims the map must be fixed; and Bevy's ambiguity
//! detection asks for an order between their exclusive systems. Each rule set's plugin
//! therefore adds itself with [`RuleSetApp::add_rule_set`], naming its own sets: its
//! floors set is placed in [`DenizenSystems::Floors`] after the floors sets of every rule
//! set added before it, its arrivals set likewise in [`DenizenSystems::Arrivals`]. No rule
//! set names another: the order is the order the plugins were added (the facade's
//! `DenizenPlugins` adds Omega's, then Angband's, then Captive's), and a game's own rule
//! set added after them comes after them.
//!
//! A request written while no plugin serves it would vanish: a rule set declares its
//! requests with [`RuleSetApp::expect_served`] (the shipped plugins do it in
//! [`RuleSetPlugin::expect_requests`], which the facade's `DenizenPlugin` runs for every
//! rule set its features enable, added or not), and serves them with
//! [`RuleSetApp::serve_floors`], [`RuleSetApp::serve_arrivals`] and
//! [`RuleSetApp::serve_messages`]. A declared request written while nothing serves it
//! stops the app at its first run, naming the plugin to add. A rule set from outside
//! declares its own the same way, in its plugin or in a group of the game's
//! ([`ExpectRequests`]).

use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;

use bevy_app::prelude::*;
use bevy_ecs::intern::Interned;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedSystemSet, IntoScheduleConfigs, SystemSet};
use bevy_ecs::system::ScheduleSystem;
use bevy_reflect::{GetTypeRegistration, Reflect};

use crate::arrivals::{ArrivalRequest, Arrived, serve_arrival_requests};
use crate::floor::MakersByRules;
use crate::floor::{Maker, PerFloor};
use crate::pipeline::{FloorRequest, FloorServed, serve_floor_requests};
use crate::save::SaveWithDenizen;
use crate::view::{Describer, Describers};
use crate::{DenizenSystems, denizen_schedule};

/// What a rule set's plugin declares about itself: its name and its sets.
#[derive(Clone, Debug)]
pub struct RuleSet {
    name: &'static str,
    rules: Option<TypeId>,
    floors: Option<Interned<dyn SystemSet>>,
    arrivals: Option<Interned<dyn SystemSet>>,
    describer: Option<Describer>,
}

impl RuleSet {
    /// A rule set by its name in messages (`Omega`, a game's `Tables`). The name is also
    /// the [`Maker`] of the floors it makes, kept in saves: 1 to 64 bytes with no control
    /// character (a save holding another is refused), and renaming a rule set leaves its
    /// saved floors to a maker no plugin has. Its floors are those of the requests whose
    /// rules resource it declares ([`rules`](Self::rules)).
    pub fn new(name: &'static str) -> Self {
        Self {
            name,
            rules: None,
            floors: None,
            arrivals: None,
            describer: None,
        }
    }

    /// Its rules resource (`OmegaRuleset`, a game's own), the `Rules` of its
    /// [`FloorRequest`]s and [`ArrivalRequest`]s: the floors they populate are this rule
    /// set's, and its arrivals come only onto them. Without it, they are a rule set's
    /// named after the rules type. Two rule sets declaring one rules type: the first
    /// added makes the floors of both.
    pub fn rules<R: Resource>(mut self) -> Self {
        self.rules = Some(TypeId::of::<R>());
        self
    }

    /// The set that serves its floor requests, placed in [`DenizenSystems::Floors`].
    pub fn floors(mut self, set: impl SystemSet) -> Self {
        self.floors = Some(set.intern());
        self
    }

    /// The set that serves its arrivals, placed in [`DenizenSystems::Arrivals`].
    pub fn arrivals(mut self, set: impl SystemSet) -> Self {
        self.arrivals = Some(set.intern());
        self
    }

    /// How it describes its creatures to a game's views ([`describe`](crate::view::describe),
    /// [`roster`](crate::view::roster)).
    pub fn describer(mut self, describer: Describer) -> Self {
        self.describer = Some(describer);
        self
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// The rule sets added so far, in the order their sets run, and the requests their plugins
/// serve. Configuration, never saved.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(opaque, Debug)]
pub struct RuleSets {
    added: Vec<RuleSet>,
    /// The request types served.
    served: HashSet<TypeId>,
    /// The request types declared with [`RuleSetApp::expect_served`], each checked once
    /// however many times it is declared.
    expected: HashSet<TypeId>,
    /// The last server added to each set: the next one runs after it, so the requests of a
    /// rule set are served in the order its plugin asked to serve them (they are exclusive
    /// systems, and Bevy asks for an order between them).
    last_server: HashMap<InternedSystemSet, InternedSystemSet>,
}

impl RuleSets {
    /// The rule sets' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.added.iter().map(|rule_set| rule_set.name)
    }

    /// Whether a plugin serves requests of type `M`.
    pub fn serves<M: 'static>(&self) -> bool {
        self.served.contains(&TypeId::of::<M>())
    }
}

/// What a rule set's plugin calls on the app in its `build`.
pub trait RuleSetApp {
    /// Places the rule set's sets after those of every rule set added before it (see the
    /// [module](self)). Adding the same rule set twice (a name already added) changes
    /// nothing.
    fn add_rule_set(&mut self, rule_set: RuleSet) -> &mut Self;

    /// Serves floor requests of type `R` in `set` through the [`pipeline`](crate::pipeline):
    /// the request and its answer ([`FloorServed<R>`]) are added, and the system runs when
    /// one is written.
    fn serve_floors<R: FloorRequest>(&mut self, set: impl SystemSet) -> &mut Self;

    /// Serves arrival requests of type `R` in `set` through the
    /// [`arrivals`](crate::arrivals) pipeline: the request and its answer
    /// ([`Arrived<R>`]) are added, and the system runs when one is written.
    fn serve_arrivals<R: ArrivalRequest + Message>(&mut self, set: impl SystemSet) -> &mut Self;

    /// Serves requests of type `M` that the rule set reads with a system of its own (not a
    /// floor or an arrival: `TablesUniqueKilled`): the message is added and
    /// marked served, so a declaration of it ([`expect_served`](Self::expect_served)) is
    /// satisfied.
    fn serve_messages<M: Message>(&mut self) -> &mut Self;

    /// Declares a request of the rule set: written while no plugin serves it, it stops the
    /// app at its first run with a message naming `plugin`, instead of vanishing (Bevy
    /// would drop a message nothing added, and a system writing it would fail naming no
    /// plugin). Declaring a request again changes nothing.
    fn expect_served<M: Message>(&mut self, plugin: &'static str) -> &mut Self;

    /// Keeps the rule set's per-floor records of type `T` in the neutral store
    /// [`PerFloor<T>`] (initialized and saved), following their floors: a record is
    /// forgotten when its floor ends other than put away
    /// ([`FloorEnd::PutAway`](crate::floor::FloorEnd::PutAway)), told or not (a floor that
    /// held nothing ends silently), when the game leaves its floor for one of its own, and
    /// when a floor of its id made by a maker other than the rule set named `maker` (its
    /// name in [`RuleSet::new`]) becomes current. When a record is written, and what it
    /// holds while its floor is current or put away, is the rule set's to say. Keeping
    /// the same store again changes nothing.
    ///
    /// # Panics
    ///
    /// If another maker keeps records of type `T` already (the maps put away,
    /// `PerFloor<FloorGrid>`, are the floor functions'): a rule set keeps a type of its
    /// own.
    fn keep_per_floor<T>(&mut self, maker: &'static str) -> &mut Self
    where
        PerFloor<T>: GetTypeRegistration,
        T: Send + Sync + 'static;
}

impl RuleSetApp for App {
    fn keep_per_floor<T>(&mut self, maker: &'static str) -> &mut Self
    where
        PerFloor<T>: GetTypeRegistration,
        T: Send + Sync + 'static,
    {
        self.init_resource::<PerFloor<T>>()
            .save_with_denizen::<PerFloor<T>>();
        crate::floor::follow_floors::<T>(self, Maker::rule_set(maker));
        self
    }

    fn add_rule_set(&mut self, rule_set: RuleSet) -> &mut Self {
        let schedule = denizen_schedule(self);
        let mut rule_sets = self.world_mut().get_resource_or_init::<RuleSets>().clone();
        if rule_sets.names().any(|name| name == rule_set.name) {
            return self;
        }
        let phases = [
            (rule_set.floors, DenizenSystems::Floors, 0),
            (rule_set.arrivals, DenizenSystems::Arrivals, 1),
        ];
        for (set, phase, which) in phases {
            let Some(set) = set else { continue };
            self.configure_sets(schedule, set.in_set(phase));
            for earlier in &rule_sets.added {
                let earlier = [earlier.floors, earlier.arrivals][which];
                if let Some(earlier) = earlier {
                    self.configure_sets(schedule, set.after(earlier));
                }
            }
        }
        if let Some(rules) = rule_set.rules {
            let maker = Maker::rule_set(rule_set.name);
            let mut makers = self.world_mut().get_resource_or_init::<MakersByRules>();
            makers.0.entry(rules).or_insert(maker);
        }
        if let Some(describer) = rule_set.describer {
            self.world_mut()
                .get_resource_or_init::<Describers>()
                .0
                .push(describer);
        }
        rule_sets.added.push(rule_set);
        self.insert_resource(rule_sets);
        self
    }

    fn serve_floors<R: FloorRequest>(&mut self, set: impl SystemSet) -> &mut Self {
        self.add_message::<R>().add_message::<FloorServed<R>>();
        serve_in_order::<R, _>(
            self,
            set,
            serve_floor_requests::<R>.into_system_set().intern(),
            serve_floor_requests::<R>.run_if(on_message::<R>),
        )
    }

    fn serve_arrivals<R: ArrivalRequest + Message>(&mut self, set: impl SystemSet) -> &mut Self {
        self.add_message::<R>().add_message::<Arrived<R>>();
        serve_in_order::<R, _>(
            self,
            set,
            serve_arrival_requests::<R>.into_system_set().intern(),
            serve_arrival_requests::<R>.run_if(on_message::<R>),
        )
    }

    fn serve_messages<M: Message>(&mut self) -> &mut Self {
        let mut rule_sets = self.world_mut().get_resource_or_init::<RuleSets>();
        rule_sets.served.insert(TypeId::of::<M>());
        self.add_message::<M>()
    }

    fn expect_served<M: Message>(&mut self, plugin: &'static str) -> &mut Self {
        let schedule = denizen_schedule(self);
        let mut rule_sets = self.world_mut().get_resource_or_init::<RuleSets>();
        if !rule_sets.expected.insert(TypeId::of::<M>()) {
            return self;
        }
        self.add_message::<M>().add_systems(
            schedule,
            refuse_unserved::<M>(plugin)
                .run_if(|rule_sets: Res<RuleSets>| !rule_sets.serves::<M>())
                .after(DenizenSystems::Arrivals),
        )
    }
}

/// Adds the server `system` of requests `R` (whose own set is `this`) to `set`, after the
/// set's last one, and marks `R` served.
fn serve_in_order<R: 'static, M>(
    app: &mut App,
    set: impl SystemSet,
    this: InternedSystemSet,
    system: impl IntoScheduleConfigs<ScheduleSystem, M>,
) -> &mut App {
    let schedule = denizen_schedule(app);
    let set = set.intern();
    let mut rule_sets = app.world_mut().get_resource_or_init::<RuleSets>();
    rule_sets.served.insert(TypeId::of::<R>());
    let last = rule_sets.last_server.insert(set, this);
    let system = system.in_set(set);
    match last {
        Some(last) => app.add_systems(schedule, system.after(last)),
        None => app.add_systems(schedule, system),
    }
}

/// The check [`RuleSetApp::expect_served`] adds: a request no added plugin serves is a
/// mistake in how the app was put together (a plugin left out or disabled), so the first
/// one stops the app with a message naming the plugin to add.
fn refuse_unserved<M: Message>(
    plugin: &'static str,
) -> impl FnMut(Res<Messages<M>>) + Send + Sync + 'static {
    move |messages: Res<Messages<M>>| {
        assert!(
            messages.is_empty(),
            "a `{}` was written, but no plugin serves it: add `{plugin}` (or the facade's \
             `DenizenPlugins`, which brings every rule set's plugin); `DenizenPlugin` alone \
             is only the neutral part",
            std::any::type_name::<M>()
                .rsplit("::")
                .next()
                .unwrap_or_default(),
        );
    }
}

/// A rule set's plugin, as a plugin group sees it: it declares the requests it serves, so
/// a group can declare them even when the game disables the plugin.
pub trait RuleSetPlugin: Plugin {
    /// Declares every request the plugin serves with [`RuleSetApp::expect_served`].
    fn expect_requests(app: &mut App);
}

/// Declares the requests of `P` (see [`RuleSetPlugin`]): added beside `P` in a plugin
/// group, it keeps a request of `P` from vanishing when the game disables `P`.
pub struct ExpectRequests<P>(PhantomData<fn() -> P>);

impl<P> Default for ExpectRequests<P> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<P: RuleSetPlugin> Plugin for ExpectRequests<P> {
    fn build(&self, app: &mut App) {
        P::expect_requests(app);
    }
}
