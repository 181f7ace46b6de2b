//! Floors and the creatures on them: the current floor every rule set places its creatures
//! on, the components every creature has (its square, its glyph, its floor), occupancy
//! that follows creatures by itself, and floors put away and brought back when the player
//! returns.

use std::any::TypeId;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::{FloorGrid, Square};
use serde::{Deserialize, Serialize};

mod occupancy;
mod per_floor;

pub use occupancy::{Occupants, enter_floor};
pub(crate) use occupancy::{close_batch, open_batch};
use occupancy::{occupy, vacate};
pub use per_floor::PerFloor;
pub(crate) use per_floor::{KeptStores, follow_floors};

/// Marks a creature of any rule set; it brings the square and the glyph every creature has.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
#[require(GridPos, Glyph)]
pub struct Creature;

/// The square a creature stands on. Immutable: a creature moves by inserting a new
/// `GridPos` (`commands.entity(e).insert(GridPos { x, y })`), and its hooks keep
/// [`FloorMap`]'s occupied squares right on every insert, move and despawn, so no square
/// is left marked by a creature that is gone (as long as floors change through
/// [`put_floor_away`] and [`bring_floor_back`], not by editing [`OnFloor`] or [`Dormant`]).
/// While [`apply`](crate::apply::apply) spawns a plan, the hooks stand aside and the
/// batch counts its creatures at the end, recounting the floor if observers of the spawns
/// (`On<Add>`, `On<Insert>` and the commands they queue) moved anything meanwhile: those
/// observers see the plan's squares marked in [`FloorMap`] but [`Occupants`] not yet
/// counted. [`MonsterSpawned`](crate::MonsterSpawned) observers run after the count.
#[derive(
    Component,
    Reflect,
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
#[component(
    immutable,
    on_insert = occupy,
    on_discard = vacate
)]
pub struct GridPos {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl From<Square> for GridPos {
    fn from(at: Square) -> Self {
        Self { x: at.x, y: at.y }
    }
}

impl From<GridPos> for Square {
    fn from(at: GridPos) -> Self {
        Self { x: at.x, y: at.y }
    }
}

/// The character a text map draws for the creature, as its rule set gives it.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glyph(pub char);

impl Default for Glyph {
    fn default() -> Self {
        Self('?')
    }
}

/// The current floor: tiles, rooms and occupied squares. The host fills it, then asks a
/// rule set to populate it: at a request it is the new floor as the host filled it (the
/// creatures of the floor it replaces or leaves do not unmark it), so a host that asks
/// again on the same map clears the old marks or fills it anew. Creatures of the current floor mark their squares themselves
/// (see [`GridPos`]); the host may mark squares of its own (the player) with
/// `set_occupied`.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorMap(pub FloorGrid);

/// Which floor: a place and a depth, such as Omega's `sewers` at 3, or Captive's `base` at
/// map 12.
///
/// Every entity of a floor carries its id ([`OnFloor`]), so the place is a shared string:
/// cloning an id for a spawned creature copies a pointer, not the name. Reflected as a
/// value, serialized as `(location: "sewers", depth: 3)`.
#[derive(
    Reflect, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[reflect(opaque)]
#[reflect(Clone, Default, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub struct FloorId {
    /// The place (a location key).
    pub location: Arc<str>,
    /// The depth (1 outside dungeons; a Captive map number).
    pub depth: u32,
}

impl FloorId {
    /// The floor at `depth` of `location`.
    pub fn new(location: impl Into<Arc<str>>, depth: u32) -> Self {
        Self {
            location: location.into(),
            depth,
        }
    }
}

/// As messages name a floor: `` `sewers` at depth 3 ``; a floor with no location is
/// "the unnamed floor at depth 2", and the default id (the current floor before any) is
/// "no floor".
///
/// ```
/// use denizen_bevy::FloorId;
///
/// assert_eq!(FloorId::new("sewers", 3).to_string(), "`sewers` at depth 3");
/// assert_eq!(FloorId::new("", 2).to_string(), "the unnamed floor at depth 2");
/// assert_eq!(FloorId::default().to_string(), "no floor");
/// ```
impl std::fmt::Display for FloorId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&*self.location, self.depth) {
            ("", 0) => f.write_str("no floor"),
            ("", depth) => write!(f, "the unnamed floor at depth {depth}"),
            (location, depth) => write!(f, "{} at depth {depth}", denizen_core::quoted(location)),
        }
    }
}

/// The floor a creature (or an encounter group) belongs to: every entity the plugins spawn
/// has one, naming the [`CurrentFloor`] of the moment.
#[derive(
    Component, Reflect, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnFloor(pub FloorId);

/// The floor [`FloorMap`] holds. A rule set's floor request sets it; creatures on it mark
/// their squares, creatures of other floors do not.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurrentFloor(pub FloorId);

/// Who made a floor: a rule set, by the name it was added under
/// ([`RuleSet::new`](crate::RuleSet::new): `Omega`, `Tables`, a game's own), or the host
/// game (a floor it entered itself with [`enter_floor`], or one no rule set claimed).
/// Kept beside a floor's [`FloorId`], not in it: two rule sets may name floors alike, and
/// each answers only for its own.
#[derive(
    Reflect, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[reflect(Default, Debug, PartialEq, Hash, Serialize, Deserialize)]
pub enum Maker {
    /// The host game.
    #[default]
    Host,
    /// A rule set, by its name.
    RuleSet(Arc<str>),
}

impl Maker {
    /// The rule set of `name`.
    pub fn rule_set(name: &str) -> Self {
        Self::RuleSet(name.into())
    }

    /// Whether the rule set of `name` made the floor.
    pub fn is(&self, name: &str) -> bool {
        matches!(self, Self::RuleSet(n) if &**n == name)
    }
}

/// ```
/// use denizen_bevy::floor::Maker;
///
/// assert_eq!(Maker::rule_set("Omega").to_string(), "the rule set `Omega`");
/// assert_eq!(Maker::Host.to_string(), "the host game");
/// ```
impl std::fmt::Display for Maker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Host => f.write_str("the host game"),
            Self::RuleSet(name) => write!(f, "the rule set {}", denizen_core::quoted(name)),
        }
    }
}

/// The maker of the current floor and of every floor put away, by floor (saved). A floor
/// a rule set's request made is that rule set's from the moment it is entered until it
/// ends (replaced, left, or despawned once not current: the current floor despawned is
/// still current, emptied, and its maker's) or the game enters another floor itself
/// ([`enter_floor`]); putting it away and bringing it back keep it. A floor not listed
/// is the host's.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorMakers(pub BTreeMap<FloorId, Maker>);

/// The maker of `floor` ([`Maker::Host`] when no rule set made it, or it ended).
pub fn maker_of(world: &World, floor: &FloorId) -> Maker {
    world
        .get_resource::<FloorMakers>()
        .and_then(|makers| makers.0.get(floor).cloned())
        .unwrap_or_default()
}

/// The maker of each added rule set's floors and arrivals, by the type of the rules
/// resource it declared ([`RuleSet::rules`](crate::RuleSet::rules)). Configuration, never
/// saved.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(opaque, Debug)]
pub(crate) struct MakersByRules(pub(crate) HashMap<TypeId, Maker>);

/// The maker of the floors and arrivals of the rule set whose rules resource is `R`: the
/// added rule set that declared it, else one named after `R` (its name without path or
/// parameters, at most 64 bytes).
pub(crate) fn maker_of_rules<R: 'static>(world: &World) -> Maker {
    let declared = (world.get_resource::<MakersByRules>())
        .and_then(|makers| makers.0.get(&TypeId::of::<R>()).cloned());
    declared.unwrap_or_else(|| {
        let full = std::any::type_name::<R>();
        let bare = full.split('<').next().unwrap_or(full);
        let name = bare.rsplit("::").next().unwrap_or(bare);
        let end = (0..=name.len().min(64))
            .rev()
            .find(|&i| name.is_char_boundary(i));
        Maker::rule_set(&name[..end.unwrap_or(0)])
    })
}

/// An ended floor has no maker (the map is only touched when it had one, so its change
/// detection means a change), and no record in any store kept per floor.
fn forget_maker(world: &mut World, floor: &FloorId) {
    if let Some(mut makers) = world.get_resource_mut::<FloorMakers>()
        && makers.0.contains_key(floor)
    {
        makers.0.remove(floor);
    }
    per_floor::forget_records(world, floor);
}

/// A floor the game left for another without ending it or putting it away (its own
/// [`enter_floor`]) is no longer any rule set's: its maker goes with it.
pub(crate) fn leave_maker(world: &mut World, left: &FloorId) {
    let stored = (world.get_resource::<StoredFloors>()).is_some_and(|s| s.0.contains_key(left));
    if !stored {
        forget_maker(world, left);
    }
}

/// Keeps the makers of the current and the stored floors only (a loaded save's others,
/// left by a game that set [`CurrentFloor`] by hand, name no floor that stands).
pub(crate) fn keep_standing_makers(world: &mut World) {
    let current = world.resource::<CurrentFloor>().0.clone();
    let stored: Vec<FloorId> = (world.get_resource::<StoredFloors>().into_iter())
        .flat_map(|s| s.0.keys().cloned())
        .collect();
    let mut makers = world.get_resource_or_init::<FloorMakers>();
    let gone = |floor: &FloorId| *floor != current && !stored.contains(floor);
    if makers.0.keys().any(gone) {
        makers.0.retain(|floor, _| !gone(floor));
    }
}

/// The maker of the current floor.
pub fn current_maker(world: &World) -> Maker {
    maker_of(world, &world.resource::<CurrentFloor>().0)
}

/// Marks the creatures of a floor that was put away ([`put_floor_away`]): they keep
/// every component and relationship but belong to no map until the floor is brought
/// back. A game's own systems skip them with `Without<Dormant>`.
#[derive(
    Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize,
)]
#[reflect(Component, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dormant;

/// The floor a rule set populated in this run of the plugins' schedule: [`FloorMap`]
/// holds one floor, so a request for another floor in the same run is refused.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub(crate) struct FloorClaim(Option<FloorId>);

/// The pipeline's own refusal: another floor was populated in this run of the plugins'
/// schedule, and [`FloorMap`] holds one floor.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
#[error(
    "{held} was populated in this update, and FloorMap holds one floor: send this request \
     after filling FloorMap again"
)]
pub struct FloorHeld {
    /// The floor populated earlier in this run.
    pub held: FloorId,
}

/// Claims [`FloorMap`] for `floor` in this run: fine for the first floor and for the same
/// floor again (a second request for it replaces what the first made); another floor is
/// refused with the floor that holds the map.
pub(crate) fn claim_floor(world: &mut World, floor: &FloorId) -> Result<(), FloorHeld> {
    let mut claim = world.get_resource_or_insert_with(FloorClaim::default);
    match &claim.0 {
        Some(held) if held != floor => Err(FloorHeld { held: held.clone() }),
        _ => {
            claim.0 = Some(floor.clone());
            Ok(())
        }
    }
}

/// Ends a run of the plugins' schedule: the next run may populate a new floor.
pub(crate) fn release_floor_claim(mut claim: ResMut<FloorClaim>) {
    claim.0 = None;
}

/// The floors put away, each with its map: brought back by [`bring_floor_back`]. The
/// neutral per-floor store ([`PerFloor`]) of maps, kept by the floor functions themselves.
pub type StoredFloors = PerFloor<FloorGrid>;

/// How a floor ended, told to every rule set with [`FloorEnded`].
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq, Hash)]
pub enum FloorEnd {
    /// A request made the floor anew (2.7.9 makes a new level on every entry; an Omega or
    /// Captive floor asked for again is populated afresh): its creatures are despawned
    /// and its stored map forgotten, then the new floor is made.
    Replaced,
    /// Left for another floor without being put away: a request for another floor found
    /// it current, so its creatures are despawned (2.7.9 wipes a level on leaving; put a
    /// floor away first to come back to it).
    Left,
    /// Put away for a return later ([`put_floor_away`]): its creatures sleep as
    /// [`Dormant`], alive.
    PutAway,
    /// Despawned for good ([`despawn_floor`]).
    Despawned,
}

/// Triggered when a floor ends, before its creatures are despawned or put to sleep, so
/// an observer still sees them: each rule set takes its step here (Angband gives the
/// level's living uniques back to the allocator when they are despawned, and keeps the
/// level's record when it is put away). While its entities are despawned,
/// [`FloorEnding`] names it. An observer must not change floors itself. A floor ended by
/// an observer of its own plan's spawns is told again, with [`FloorEnd::Despawned`], after
/// each later batch of the plan (an Angband level after its monsters and again after its
/// objects), and everything then on the floor goes: an observer may see several ends of
/// one floor.
#[derive(Event, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct FloorEnded {
    /// The floor.
    pub floor: FloorId,
    /// Who made it.
    pub maker: Maker,
    /// How it ended.
    pub end: FloorEnd,
}

/// How a floor became the current one, told with [`FloorEntered`].
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, PartialEq, Hash)]
pub enum FloorEntry {
    /// A request populated it (its earlier creatures, if any, were ended first); told once
    /// the request is applied and answered.
    New,
    /// Brought back from [`StoredFloors`] ([`bring_floor_back`]) with its creatures.
    BroughtBack,
}

/// Triggered when a floor becomes the current one: brought back, once its creatures are
/// awake and its squares counted, and a rule set's "where the player is" state follows it
/// here (`OmegaCurrentLocation` on every floor; `AngbandLastLevel` when
/// one of its levels comes back); new, once the request that made it is applied and
/// answered.
#[derive(Event, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct FloorEntered {
    /// The floor.
    pub floor: FloorId,
    /// Who made it: a rule set follows only its own floors.
    pub maker: Maker,
    /// How it was entered.
    pub entry: FloorEntry,
}

/// The entities of `floor`, awake or put away, dormant ones only when `dormant` says so.
fn entities_on(world: &mut World, floor: &FloorId, dormant: Option<bool>) -> Vec<Entity> {
    let mut cache = FloorQueries::take(world);
    let query = cache.members.get_or_insert_with(|| world.query());
    let found = query
        .iter(world)
        .filter(|(_, on, asleep)| on.0 == *floor && dormant.is_none_or(|d| d == *asleep))
        .map(|(e, ..)| e)
        .collect();
    cache.put_back(world);
    found
}

/// The floor helpers' queries, built on first use and kept: building a query's state
/// costs more than the floor change it serves. A cache: a clone is empty (and rebuilt
/// when used), so it is reflected as one opaque value and never saved.
#[derive(Resource, Reflect, Default)]
#[reflect(opaque)]
pub(crate) struct FloorQueries {
    /// Every entity of any floor, and whether it is dormant.
    members: Option<QueryState<(Entity, &'static OnFloor, Has<Dormant>)>>,
    /// Creatures awake, with their squares and floors.
    standing: Option<StandingQuery>,
}

/// The creatures awake, with their squares and floors.
type StandingQuery =
    QueryState<(&'static GridPos, Option<&'static OnFloor>), (With<Creature>, Without<Dormant>)>;

impl Clone for FloorQueries {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl FloorQueries {
    /// The world's cache, taken out to use with the world (an empty one in a world
    /// without `DenizenPlugin`).
    fn take(world: &mut World) -> Self {
        world
            .get_resource_mut::<FloorQueries>()
            .map(|mut cache| std::mem::take(&mut *cache))
            .unwrap_or_default()
    }

    /// Puts the cache back.
    fn put_back(self, world: &mut World) {
        if let Some(mut cache) = world.get_resource_mut::<FloorQueries>() {
            *cache = self;
        }
    }
}

/// The floor whose entities are being despawned because it ended (not because they died):
/// observers of despawns (a Captive bearer dropping what it carries) leave them alone.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, PartialEq)]
pub struct FloorEnding(pub Option<FloorId>);

impl FloorEnding {
    /// Whether an entity of `floor` is going because its floor ended.
    pub fn ends(&self, floor: &FloorId) -> bool {
        self.0.as_ref() == Some(floor)
    }
}

/// Ends `floor` for good (replaced, left or despawned): tells every rule set with
/// [`FloorEnded`], then despawns its entities and forgets its stored map. A floor that
/// holds nothing ends without a word. Returns how many entities it had.
///
/// Replaced or left by a request, the floor is no longer counted: the despawns mark no
/// square (the pipeline holds the next floor's [`FloorMap`] aside meanwhile, so observers
/// see it empty), and entering the next floor counts its squares afresh. Despawned while
/// current, its creatures' squares are freed on the map.
pub(crate) fn end_floor(world: &mut World, floor: &FloorId, end: FloorEnd) -> usize {
    let doomed = entities_on(world, floor, None);
    let stored = world
        .get_resource::<StoredFloors>()
        .is_some_and(|stored| stored.0.contains_key(floor));
    if doomed.is_empty() && !stored {
        if end != FloorEnd::Despawned || world.resource::<CurrentFloor>().0 != *floor {
            forget_maker(world, floor);
        }
        return 0;
    }
    // A floor ended again while its plan is applied (its later batches) keeps the maker
    // it had when it first ended.
    let logged = (world.get_resource::<EndedWhileApplying>())
        .and_then(|log| log.0.as_ref())
        .and_then(|ended| ended.iter().find(|(f, _)| f == floor))
        .map(|(_, maker)| maker.clone());
    let maker = match maker_of(world, floor) {
        Maker::Host => logged.unwrap_or_default(),
        maker => maker,
    };
    if let Some(ended) = world
        .get_resource_mut::<EndedWhileApplying>()
        .and_then(|log| log.into_inner().0.as_mut())
    {
        ended.push((floor.clone(), maker.clone()));
    }
    world.trigger(FloorEnded {
        floor: floor.clone(),
        maker,
        end,
    });
    if end != FloorEnd::Despawned && world.resource::<CurrentFloor>().0 == *floor {
        world.resource_mut::<Occupants>().forget();
    }
    // Kept and restored, so a floor ended from inside a despawn (an observer's queued
    // command) leaves the outer one marked.
    let outer = world
        .get_resource_or_init::<FloorEnding>()
        .0
        .replace(floor.clone());
    // A group's members go with it (linked spawn): the rest are despawned one by one.
    for &entity in &doomed {
        let _ = world.try_despawn(entity);
    }
    world.resource_mut::<FloorEnding>().0 = outer;
    if let Some(mut stored) = world.get_resource_mut::<StoredFloors>() {
        stored.0.remove(floor);
    }
    // The current floor despawned stays current, emptied, and its maker's.
    if end != FloorEnd::Despawned || world.resource::<CurrentFloor>().0 != *floor {
        forget_maker(world, floor);
    }
    doomed.len()
}

/// Despawns every entity of `floor` (its creatures and encounter groups, awake or put
/// away) and forgets its stored map, after telling every rule set ([`FloorEnded`] with
/// [`FloorEnd::Despawned`]); their squares are freed if it is the current floor.
/// Returns how many entities the floor had.
pub fn despawn_floor(world: &mut World, floor: &FloorId) -> usize {
    end_floor(world, floor, FloorEnd::Despawned)
}

/// Puts the current floor away for a return later: every rule set is told
/// ([`FloorEnded`] with [`FloorEnd::PutAway`]), its map is kept in [`StoredFloors`] and
/// its creatures become [`Dormant`] (every component, relationship and possession
/// kept); [`FloorMap`] is left empty and [`CurrentFloor`] names no floor until the next
/// request or [`bring_floor_back`]. Several floors can be stored at once; storing a floor
/// again replaces its map. The floor put away, or `None` when there was no current floor
/// (one put away already, or none asked for yet): then nothing changes.
pub fn put_floor_away(world: &mut World) -> Option<FloorId> {
    let floor = world.resource::<CurrentFloor>().0.clone();
    if floor == FloorId::default() {
        return None;
    }
    world.trigger(FloorEnded {
        floor: floor.clone(),
        maker: maker_of(world, &floor),
        end: FloorEnd::PutAway,
    });
    world.resource_mut::<CurrentFloor>().0 = FloorId::default();
    // The map is stored with no square marked: its creatures mark theirs again when the
    // floor comes back (one despawned meanwhile leaves no stale square), and the host
    // marks its own (the player) again.
    let mut map = std::mem::take(&mut world.resource_mut::<FloorMap>().0);
    for square in map.squares().collect::<Vec<_>>() {
        map.set_occupied(square, false);
    }
    world
        .get_resource_or_insert_with(StoredFloors::default)
        .0
        .insert(floor.clone(), map);
    for entity in entities_on(world, &floor, Some(false)) {
        world.entity_mut(entity).insert(Dormant);
    }
    world.resource_mut::<Occupants>().forget();
    Some(floor)
}

/// The floors ended while a plan was being applied (`None` outside the apply step):
/// [`end_floor`] writes to it, and the entities a plan spawned after their floor ended go
/// with it, even when it is still the current floor.
#[derive(Resource, Reflect, Default)]
#[reflect(Default)]
pub(crate) struct EndedWhileApplying(Option<Vec<(FloorId, Maker)>>);

/// Runs `spawn` with the floors that end meanwhile logged for [`settle_late_spawns`]
/// (nested calls share the outermost one's log).
pub(crate) fn logging_floor_ends<R>(world: &mut World, spawn: impl FnOnce(&mut World) -> R) -> R {
    let mut log = world.get_resource_or_init::<EndedWhileApplying>();
    let outer = log.0.is_none();
    if outer {
        log.0 = Some(Vec::new());
    }
    let spawned = spawn(world);
    if outer {
        world.resource_mut::<EndedWhileApplying>().0 = None;
    }
    spawned
}

/// Entities spawned for `floor` after it stopped being the current floor or ended (an
/// observer of their spawns put it away or despawned it, inside [`logging_floor_ends`])
/// follow their floor: put away with it ([`Dormant`]) if it is stored; otherwise the floor
/// ends again ([`FloorEnded`] with [`FloorEnd::Despawned`]), so each rule set takes its
/// step for them as for the rest (Angband's artifacts in preserve mode go back, no
/// Captive bearer drops its carry), and everything on it is despawned. No creature, group or
/// object is left awake off the map, nor a part of a plan on a floor that was despawned.
pub(crate) fn settle_late_spawns(world: &mut World, floor: &FloorId, entities: &[Entity]) {
    let ended = world
        .get_resource::<EndedWhileApplying>()
        .and_then(|log| log.0.as_ref())
        .is_some_and(|ended| ended.iter().any(|(f, _)| f == floor));
    if !ended && world.resource::<CurrentFloor>().0 == *floor {
        return;
    }
    let stored = world
        .get_resource::<StoredFloors>()
        .is_some_and(|stored| stored.0.contains_key(floor));
    if !stored {
        end_floor(world, floor, FloorEnd::Despawned);
        return;
    }
    for &entity in entities {
        let Ok(mut spawned) = world.get_entity_mut(entity) else {
            continue;
        };
        if spawned.get::<OnFloor>().is_some_and(|on| on.0 == *floor) {
            spawned.insert(Dormant);
        }
    }
}

/// Brings a stored floor back as the current one: its map into [`FloorMap`], its creatures
/// awake from [`Dormant`] on their squares, then every rule set's state follows it
/// ([`FloorEntered`] with [`FloorEntry::BroughtBack`]: Omega's location, Angband's last
/// level). A current floor not put away yet is put away first. `false` (and nothing
/// changed) when the floor was never stored.
pub fn bring_floor_back(world: &mut World, floor: &FloorId) -> bool {
    if !world
        .get_resource::<StoredFloors>()
        .is_some_and(|stored| stored.0.contains_key(floor))
    {
        return false;
    }
    if world.resource::<CurrentFloor>().0 != FloorId::default() {
        put_floor_away(world);
    }
    let Some(map) = world
        .get_resource_mut::<StoredFloors>()
        .and_then(|mut stored| stored.0.remove(floor))
    else {
        return false;
    };
    world.insert_resource(FloorMap(map));
    for entity in entities_on(world, floor, Some(true)) {
        world.entity_mut(entity).remove::<Dormant>();
    }
    enter_floor(world, floor.clone());
    world.trigger(FloorEntered {
        floor: floor.clone(),
        maker: maker_of(world, floor),
        entry: FloorEntry::BroughtBack,
    });
    true
}

/// The floor helpers as commands, so a level change can be an ordinary system:
/// `commands.put_floor_away()`, `commands.bring_floor_back(floor)`,
/// `commands.despawn_floor(floor)`. Each runs when commands are applied, with the same
/// effect as the function of the same name.
pub trait FloorCommands {
    /// [`put_floor_away`], queued.
    fn put_floor_away(&mut self);
    /// [`bring_floor_back`], queued (a floor never stored changes nothing).
    fn bring_floor_back(&mut self, floor: FloorId);
    /// [`despawn_floor`], queued.
    fn despawn_floor(&mut self, floor: FloorId);
}

impl FloorCommands for Commands<'_, '_> {
    fn put_floor_away(&mut self) {
        self.queue(|world: &mut World| {
            put_floor_away(world);
        });
    }

    fn bring_floor_back(&mut self, floor: FloorId) {
        self.queue(move |world: &mut World| {
            bring_floor_back(world, &floor);
        });
    }

    fn despawn_floor(&mut self, floor: FloorId) {
        self.queue(move |world: &mut World| {
            despawn_floor(world, &floor);
        });
    }
}
