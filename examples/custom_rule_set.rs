//! A fourth rule set, written only against denizen's public rule-set API, as the shipped
//! ones are: depth-ranged weighted spawn tables with packs, read from a RON file
//! (`examples/custom_rule_set/spawn_table.ron`), the style many tutorial roguelikes use.
//!
//! It does what Omega's, Captive's and Angband's plugins do, with nothing crate-private:
//! its floors go through the floor pipeline (`FloorRequest`) and its wanderers through the
//! arrivals pipeline on the clock (`ArrivalRequest`, `arrive`); a pack's followers are
//! linked to their leader (`Batches::link`) before `MonsterSpawned` fires, with an origin of
//! its own (`PACK_FOLLOWER`); it takes its place among the rule sets (`add_rule_set`), is
//! saved by registration (`save_with_denizen`) and checks its loaded state (`SaveLoaded`);
//! and its table is a Bevy asset, followed and swapped in as it is edited
//! (`assets::follow`).
//!
//! `cargo run --features assets --example custom_rule_set -- [--seed N]`;
//! `cargo test --features assets --example custom_rule_set` runs its tests.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen::bevy::apply::apply;
use denizen::bevy::arrivals::{
    ArrivalRequest, Arrived, RulesNotReady, RulesRefused, RulesStillLoading, arrive,
};
use denizen::bevy::assets::bevy_asset::{AssetMetaCheck, AssetPlugin, AssetServer};
use denizen::bevy::assets::{
    AnySlot, DataRejected, DataSlot, DataSources, RulesLoaded, asset_folder, follow, register_kind,
};
use denizen::bevy::pipeline::{FloorHeld, FloorRequest, FloorServed, FloorStreams, NotOurFloor};
use denizen::bevy::rule_set::{RuleSetApp, RuleSetPlugin};
use denizen::bevy::save::{load, save};
use denizen::bevy::view::{Description, describe, render_floor};
use denizen::bevy::{RuleSet, data_kinds};
use denizen::data::{DataError, Entry, load_ron};
use denizen::layout::rooms_and_corridors;
use denizen::output::{fail, finish};
use denizen::plan::{Plan, Spawn as Planned};
use denizen::prelude::*;
use denizen::rng::{Generator, uniform};
use serde::Deserialize;

/// The rule set's data file, as shipped with the example.
const TABLE_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/custom_rule_set/spawn_table.ron"
);

/// The stream kinds this rule set draws, and the place of its floors.
const FLOOR_STREAM: &str = "spawn-table";
const WANDER_STREAM: &str = "spawn-table-wander";
const PLACE: &str = "tables";

/// The deepest depth, the most creatures per floor, the largest weight and the largest
/// pack a table may name: every number from the file is bounded when it is loaded.
const MAX_DEPTH: u32 = 1_000;
const MAX_COUNT: u32 = 10_000;
const MAX_WEIGHT: u32 = 1_000_000;
const MAX_PACK: u32 = 8;

/// Where a pack's follower came from: this rule set's own origin.
const PACK_FOLLOWER: Origin = Origin::new("PackFollower");

// ---- The rules: plain data and functions, no ECS. ----

/// How many leaders a floor gets: `base + depth / per_depths`.
#[derive(Clone, Copy, Debug, Deserialize)]
struct Count {
    base: u32,
    per_depths: u32,
}

/// One creature of the table, the depths it appears at, and its pack.
#[derive(Clone, Debug, Deserialize)]
struct TableEntry {
    name: String,
    glyph: char,
    hit_points: u32,
    /// First and last depth, inclusive.
    depths: (u32, u32),
    weight: u32,
    /// Followers of its kind that come with each one, next to it where there is room.
    pack: u32,
}

/// A depth-ranged weighted spawn table.
#[derive(Clone, Debug, Deserialize)]
struct SpawnTable {
    count: Count,
    entries: Vec<TableEntry>,
}

/// One planned creature: its entry, and the plan position of its pack's leader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    entry: usize,
    leader: Option<usize>,
}

impl SpawnTable {
    /// Reads and checks a table; errors name the file, the entry and the field.
    fn load(text: &str, file: &str) -> Result<Self, DataError> {
        let table: SpawnTable = load_ron(text, file)?;
        let whole = Entry::new(file, "count");
        if table.count.per_depths == 0 {
            return Err(whole.invalid("per_depths", "must be at least 1"));
        }
        if table.count.base > MAX_COUNT {
            return Err(whole.invalid("base", format!("is past the limit {MAX_COUNT}")));
        }
        for entry in &table.entries {
            let at = Entry::new(file, &entry.name);
            let (first, last) = entry.depths;
            if first == 0 || first > last || last > MAX_DEPTH {
                return Err(at.invalid(
                    "depths",
                    format!("must run from 1 to at most {MAX_DEPTH}, in order"),
                ));
            }
            if entry.weight == 0 || entry.weight > MAX_WEIGHT {
                return Err(at.invalid("weight", format!("must be 1 to {MAX_WEIGHT}")));
            }
            if entry.pack > MAX_PACK {
                return Err(at.invalid("pack", format!("must be at most {MAX_PACK}")));
            }
        }
        Ok(table)
    }

    /// The one description both the sampler and the exact odds read: the entries a depth
    /// draws from, with their weights.
    fn eligible(&self, depth: u32) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(move |(_, e)| (e.depths.0..=e.depths.1).contains(&depth))
            .map(|(i, e)| (i, e.weight))
    }

    /// The exact chance of each entry per draw at a depth.
    fn odds(&self, depth: u32) -> Vec<(usize, f64)> {
        let total: u32 = self.eligible(depth).map(|(_, w)| w).sum();
        self.eligible(depth)
            .map(|(i, w)| (i, f64::from(w) / f64::from(total)))
            .collect()
    }

    /// One draw at a depth (`None` where nothing appears).
    fn draw(&self, rng: &mut Generator, depth: u32) -> Option<usize> {
        let total: u32 = self.eligible(depth).map(|(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut roll = uniform(rng, total);
        self.eligible(depth)
            .find_map(|(i, w)| match roll.checked_sub(w) {
                Some(rest) => {
                    roll = rest;
                    None
                }
                None => Some(i),
            })
    }

    /// Leaders per floor at a depth.
    fn count(&self, depth: u32) -> u32 {
        self.count.base + depth / self.count.per_depths
    }

    /// A floor's plan: each leader drawn and put on a free square drawn among those left,
    /// then its pack on the free squares next to it, in a fixed order (a follower without
    /// room is not placed).
    fn plan(&self, rng: &mut Generator, depth: u32, grid: &FloorGrid) -> Plan<Placed> {
        let mut free: Vec<Square> = grid.squares().filter(|&s| grid.is_acceptable(s)).collect();
        let mut plan = Plan::default();
        for _ in 0..self.count(depth) {
            let Some(entry) = self.draw(rng, depth) else {
                break;
            };
            if free.is_empty() {
                break;
            }
            let at = free.swap_remove(uniform(rng, free.len() as u32) as usize);
            let leader = plan.spawns.len();
            let placed = Placed {
                entry,
                leader: None,
            };
            plan.spawns.push(Planned {
                at,
                origin: Origin::FLOOR_POPULATION,
                creature: placed,
            });
            for _ in 0..self.entries[entry].pack {
                let Some(i) = free.iter().position(|s| next_to(*s, at)) else {
                    break;
                };
                plan.spawns.push(Planned {
                    at: free.swap_remove(i),
                    origin: PACK_FOLLOWER,
                    creature: Placed {
                        entry,
                        leader: Some(leader),
                    },
                });
            }
        }
        plan
    }

    /// A wanderer at a depth on a free square, or nothing.
    fn wanderer(
        &self,
        rng: &mut Generator,
        depth: u32,
        grid: &FloorGrid,
    ) -> Option<Planned<Placed>> {
        let entry = self.draw(rng, depth)?;
        let free: Vec<Square> = grid.squares().filter(|&s| grid.is_acceptable(s)).collect();
        if free.is_empty() {
            return None;
        }
        let at = free[uniform(rng, free.len() as u32) as usize];
        let placed = Placed {
            entry,
            leader: None,
        };
        Some(Planned {
            at,
            origin: Origin::WANDERING_ARRIVAL,
            creature: placed,
        })
    }
}

/// Whether two squares touch (the eight neighbours).
fn next_to(a: Square, b: Square) -> bool {
    a != b && a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1
}

// ---- The plugin: a thin adapter over the rules, through denizen's public API. ----

/// The table in use (configuration, never saved).
#[derive(Resource, Clone)]
struct SpawnRules(Arc<SpawnTable>);

/// What a creature of this rule set is: its table entry.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[require(Creature)]
struct Beast {
    entry: u16,
}

/// Its hit points, from the table.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
struct BeastHealth(u32);

/// A follower's pack leader.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, PartialEq)]
#[relationship(relationship_target = Pack)]
struct Follows(Entity);

/// A leader's followers.
#[derive(Component, Reflect, Clone, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq)]
#[relationship_target(relationship = Follows)]
struct Pack(Vec<Entity>);

/// The request: populate the floor in `FloorMap` as this depth of the tables.
#[derive(Message, Clone, Copy, Debug)]
struct SpawnFloorRequested {
    depth: u32,
}

/// What a floor got: its creatures, leaders and followers in plan order.
#[derive(Clone, Debug)]
struct SpawnFloorPopulated {
    entities: Vec<Entity>,
}

/// The answer to a request: what the floor got, or why it was refused (the pipeline
/// writes it, as it does every rule set's).
type SpawnFloorServed = FloorServed<SpawnFloorRequested>;

/// Why a request was refused.
#[derive(Clone, Debug, thiserror::Error)]
enum SpawnRefusal {
    #[error("no entry of the table appears at depth {0}")]
    NothingAtDepth(u32),
    #[error("FloorMap is empty: fill it with the floor before requesting it")]
    EmptyMap,
    #[error("the table's file has not loaded yet")]
    RulesLoading,
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal (file, entry and field), until the files are mended. Nothing changed.
    #[error("{0}")]
    RulesRefused(RulesRefused),
    #[error("{0}")]
    FloorHeld(FloorHeld),
    /// The floor is current or put away under another rule set: nothing
    /// changed.
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
}

impl From<NotOurFloor> for SpawnRefusal {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<FloorHeld> for SpawnRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl From<RulesNotReady> for SpawnRefusal {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(_) => Self::RulesLoading,
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

impl FloorRequest for SpawnFloorRequested {
    type Rules = SpawnRules;
    type Valid = Arc<SpawnTable>;
    type Plan = Plan<Placed>;
    type Populated = SpawnFloorPopulated;
    type Refusal = SpawnRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, Arc<SpawnTable>), SpawnRefusal> {
        let table = world.resource::<SpawnRules>().0.clone();
        if table.eligible(self.depth).next().is_none() {
            return Err(SpawnRefusal::NothingAtDepth(self.depth));
        }
        let map = &world.resource::<FloorMap>().0;
        if map.width() == 0 || map.height() == 0 {
            return Err(SpawnRefusal::EmptyMap);
        }
        Ok((FloorId::new(PLACE, self.depth), table))
    }

    fn plan(
        &self,
        world: &World,
        table: Arc<SpawnTable>,
        streams: &mut FloorStreams<'_>,
    ) -> Plan<Placed> {
        let mut rng = streams.draw(FLOOR_STREAM);
        table.plan(&mut rng, self.depth, &world.resource::<FloorMap>().0)
    }

    fn apply(
        &self,
        world: &mut World,
        _floor: &FloorId,
        plan: Plan<Placed>,
    ) -> SpawnFloorPopulated {
        SpawnFloorPopulated {
            entities: spawn_beasts(world, plan),
        }
    }
}

/// Spawns planned beasts in one batch, then links each follower to its leader: the links
/// are on the entities when `MonsterSpawned` fires.
fn spawn_beasts(world: &mut World, plan: Plan<Placed>) -> Vec<Entity> {
    let table = world.resource::<SpawnRules>().0.clone();
    apply(world, plan, |batches, spawns| {
        let leaders: Vec<Option<usize>> = spawns.iter().map(|s| s.creature.leader).collect();
        let bundles = spawns
            .into_iter()
            .enumerate()
            .map(|(i, spawn)| {
                let entry = &table.entries[spawn.creature.entry];
                let beast = Beast {
                    entry: spawn.creature.entry as u16,
                };
                let bundle = (beast, BeastHealth(entry.hit_points), Glyph(entry.glyph));
                (i, spawn.at, bundle)
            })
            .collect();
        batches.spawn(bundles);
        let links: Vec<(Entity, Entity)> = leaders
            .iter()
            .enumerate()
            .filter_map(|(i, leader)| leader.map(|l| (batches.entity(i), batches.entity(l))))
            .collect();
        batches.link::<Follows>(links);
    })
}

/// One wandering check of the tables, on the hourly clock: a creature of the depth arrives
/// on a free square, only while the current floor is the tables'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct WanderIn;

/// Why no wanderer came.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum NoWanderer {
    #[error("{0}")]
    NotOurFloor(NotOurFloor),
    #[error("nothing appears here, or no square is free")]
    NoneArrived,
    #[error("{0}")]
    RulesLoading(RulesStillLoading),
    /// The rules' data files were refused before any good set loaded: the latest
    /// refusal, until the files are mended.
    #[error("{0}")]
    RulesRefused(RulesRefused),
}

impl From<NotOurFloor> for NoWanderer {
    fn from(not_ours: NotOurFloor) -> Self {
        Self::NotOurFloor(not_ours)
    }
}

impl From<RulesNotReady> for NoWanderer {
    fn from(not_ready: RulesNotReady) -> Self {
        match not_ready {
            RulesNotReady::Loading(loading) => Self::RulesLoading(loading),
            RulesNotReady::Refused(refused) => Self::RulesRefused(refused),
        }
    }
}

/// The answer to a wandering check.
type Wandered = Arrived<WanderIn>;

impl ArrivalRequest for WanderIn {
    type Rules = SpawnRules;
    type Valid = Arc<SpawnTable>;
    type Plan = Planned<Placed>;
    type Arrival = Entity;
    type Refusal = NoWanderer;

    fn validate(&self, world: &World) -> Result<(FloorId, Arc<SpawnTable>), NoWanderer> {
        // The pipeline checked that the current floor is the tables' (made by them).
        let floor = world.resource::<CurrentFloor>().0.clone();
        Ok((floor, world.resource::<SpawnRules>().0.clone()))
    }

    fn plan(
        &self,
        world: &World,
        table: Arc<SpawnTable>,
        streams: &mut FloorStreams<'_>,
    ) -> Result<Planned<Placed>, NoWanderer> {
        let depth = streams.floor().depth;
        let mut rng = streams.draw(WANDER_STREAM);
        let grid = &world.resource::<FloorMap>().0;
        table
            .wanderer(&mut rng, depth, grid)
            .ok_or(NoWanderer::NoneArrived)
    }

    fn apply(&self, world: &mut World, spawn: Planned<Placed>) -> Entity {
        spawn_beasts(world, Plan::one(spawn))[0]
    }
}

/// The check the hourly schedule runs.
fn wander(world: &mut World) {
    arrive(world, &WanderIn);
}

/// A saved beast names an entry of the table in use (a save of another table may not):
/// each one that does not is reported once the save is loaded.
#[derive(Message, Clone, Debug)]
struct BeastsRejected {
    unknown: usize,
}

fn check_loaded_beasts(
    _: On<SaveLoaded>,
    beasts: Query<&Beast>,
    rules: Res<SpawnRules>,
    mut rejected: MessageWriter<BeastsRejected>,
) {
    let entries = rules.0.entries.len();
    let unknown = beasts
        .iter()
        .filter(|b| usize::from(b.entry) >= entries)
        .count();
    if unknown > 0 {
        rejected.write(BeastsRejected { unknown });
    }
}

/// How the tables describe their creatures to a game's views.
fn describe_beast(world: &World, entity: Entity) -> Option<Description> {
    let beast = world.get::<Beast>(entity)?;
    let entry = world
        .resource::<SpawnRules>()
        .0
        .entries
        .get(usize::from(beast.entry));
    Some(Description {
        name: entry.map_or_else(|| "?".into(), |e| e.name.clone()),
        colour: "yellow",
        asleep: false,
        hit_points: world.get::<BeastHealth>(entity).map(|hp| hp.0 as i32),
    })
}

data_kinds! {
    /// A spawn table (`*.spawns.ron`).
    SpawnTableFile = "spawns.ron";
}

/// The table as an asset: the resource `follow` keeps.
#[derive(Resource, Clone, Debug)]
struct TableAsset(DataSlot<SpawnTableFile>);

impl DataSources for TableAsset {
    const RULE_SET: &'static str = "SpawnTables";
    type Ruleset = SpawnRules;

    fn slots(&mut self) -> Vec<&mut dyn AnySlot> {
        vec![&mut self.0]
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let file = self.0.file(world)?;
        let table = SpawnTable::load(file.text, file.name)?;
        world.insert_resource(SpawnRules(Arc::new(table)));
        Ok(())
    }
}

/// The rule set's sets: its floors, and its arrivals (none asked for by message here).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum SpawnTableSystems {
    Floors,
}

/// The spawn-table rule set as a plugin: its table given, or a file under the asset
/// folder followed as it is edited.
enum SpawnTablePlugin {
    Table(Arc<SpawnTable>),
    Asset(&'static str),
}

impl Plugin for SpawnTablePlugin {
    fn build(&self, app: &mut App) {
        let rules = match self {
            SpawnTablePlugin::Table(table) => table.clone(),
            // Until the file loads nothing is served (`RulesLoading`).
            SpawnTablePlugin::Asset(_) => Arc::new(SpawnTable {
                count: Count {
                    base: 0,
                    per_depths: 1,
                },
                entries: Vec::new(),
            }),
        };
        app.add_rule_set(
            RuleSet::new("SpawnTables")
                .rules::<SpawnRules>()
                .floors(SpawnTableSystems::Floors)
                .describer(describe_beast),
        )
        .insert_resource(SpawnRules(rules))
        .serve_floors::<SpawnFloorRequested>(SpawnTableSystems::Floors)
        .add_message::<Wandered>()
        .add_message::<BeastsRejected>()
        .save_with_denizen::<Beast>()
        .save_with_denizen::<BeastHealth>()
        .save_with_denizen::<Follows>()
        .save_with_denizen::<Pack>()
        .add_systems(HourlyCheck, wander)
        .add_observer(check_loaded_beasts);
        if let SpawnTablePlugin::Asset(path) = self {
            let source = TableAsset(DataSlot::new((*path).into()));
            follow(
                app,
                source,
                &[register_kind::<SpawnTableFile>],
                SpawnTableSystems::Floors,
            );
        }
    }
}

impl RuleSetPlugin for SpawnTablePlugin {
    fn expect_requests(app: &mut App) {
        app.expect_served::<SpawnFloorRequested>("SpawnTablePlugin");
    }
}

// ---- A headless game on it. ----

/// The table file's name under the game's asset folder.
const ASSET: &str = "game.spawns.ron";

/// A 48 x 20 floor of rooms and corridors for a depth.
fn floor_for(seed: u64, depth: u32) -> FloorGrid {
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("example-floor").with(depth.into()));
    rooms_and_corridors(&mut |k| uniform(&mut rng, k), 48, 20).expect("48 x 20 is a valid size")
}

/// An app with every shipped rule set and the spawn tables, their table given.
fn game(seed: u64, table: Arc<SpawnTable>) -> App {
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugins::with_seed(seed),
        SpawnTablePlugin::Table(table),
    ));
    app
}

/// The same, the table a file under `folder` followed as it is edited (a folder whose path
/// is not UTF-8, which Bevy cannot take, said in one line).
fn game_on_assets(seed: u64, folder: &Path) -> Result<App, String> {
    let file_path = asset_folder(folder).map_err(|e| e.to_string())?;
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin {
            file_path,
            meta_check: AssetMetaCheck::Never,
            ..AssetPlugin::default()
        },
        DenizenPlugins::with_seed(seed),
        SpawnTablePlugin::Asset(ASSET),
    ));
    Ok(app)
}

/// Fills `FloorMap` with the depth's floor and asks for it.
fn descend(app: &mut App, seed: u64, depth: u32) {
    app.insert_resource(FloorMap(floor_for(seed, depth)));
    app.world_mut().write_message(SpawnFloorRequested { depth });
    app.update();
}

/// The beasts awake on the current floor: entry, square, hit points.
fn beasts(app: &mut App) -> Vec<(u16, GridPos, u32)> {
    let world = app.world_mut();
    let mut all: Vec<_> = world
        .query_filtered::<(&Beast, &GridPos, &BeastHealth), Without<Dormant>>()
        .iter(world)
        .map(|(b, at, hp)| (b.entry, *at, hp.0))
        .collect();
    all.sort_by_key(|&(entry, at, _)| (at, entry));
    all
}

/// The messages of a kind written in the last update.
fn last<M: Message + Clone>(app: &App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// Updates the app until a message of kind `M` comes, for at most a minute.
fn wait_for<M: Message + Clone>(app: &mut App, what: &str) -> Result<M, String> {
    let start = Instant::now();
    loop {
        app.update();
        if let Some(found) = last::<M>(app).pop() {
            return Ok(found);
        }
        if start.elapsed() > Duration::from_secs(60) {
            return Err(format!("{what}: no answer within a minute"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What a `MonsterSpawned` observer saw of the followers: how many, and how many already
/// linked to their leader when it fired.
#[derive(Resource, Default)]
struct FollowersSeen {
    followers: usize,
    linked: usize,
}

fn watch_followers(
    spawned: On<MonsterSpawned>,
    follows: Query<&Follows>,
    mut seen: ResMut<FollowersSeen>,
) {
    if spawned.origin == PACK_FOLLOWER {
        seen.followers += 1;
        seen.linked += usize::from(follows.get(spawned.entity).is_ok());
    }
}

fn main() -> ExitCode {
    let mut seed = 1u64;
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match (word.as_str(), words.next().and_then(|s| s.parse().ok())) {
            ("--seed", Some(s)) => seed = s,
            _ => return fail("custom_rule_set", "usage: custom_rule_set [--seed N]"),
        }
    }
    let folder = std::env::temp_dir().join(format!("denizen-custom-{}", std::process::id()));
    let result = play(seed, &folder);
    let _ = std::fs::remove_dir_all(&folder);
    match result {
        Ok(report) => finish("custom_rule_set", |out| {
            report.iter().try_for_each(|line| writeln!(out, "{line}"))
        }),
        Err(e) => fail("custom_rule_set", &e),
    }
}

/// The table file written into an asset folder, followed by the game: a floor with its
/// packs, a day of wanderers, an edit of the file swapped in, a broken edit refused, a
/// save and a load. Each step is checked; gives back the lines to print.
fn play(seed: u64, folder: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(TABLE_FILE).map_err(|e| format!("{TABLE_FILE}: {e}"))?;
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let write =
        |text: &str| std::fs::write(folder.join(ASSET), text).map_err(|e| format!("{ASSET}: {e}"));
    write(&text)?;
    let mut app = game_on_assets(seed, folder)?;
    app.init_resource::<FollowersSeen>()
        .add_observer(watch_followers);
    let mut report = Vec::new();
    wait_for::<RulesLoaded>(&mut app, "the first load")?;
    report.push(format!("{ASSET} loaded"));
    report.extend(first_floor(&mut app, seed)?);
    report.extend(a_day_of_wanderers(&mut app)?);
    report.extend(edits(&mut app, seed, &text, &write)?);
    report.extend(save_and_load(&mut app, seed, folder)?);
    Ok(report)
}

/// Depth 1: its creatures and packs, the odds, the followers linked when they spawned.
fn first_floor(app: &mut App, seed: u64) -> Result<Vec<String>, String> {
    descend(app, seed, 1);
    let placed = last::<SpawnFloorServed>(app)
        .pop()
        .and_then(|answer| Some(answer.populated()?.entities.len()))
        .unwrap_or(0);
    let mut report = vec![format!(
        "depth 1 of the spawn tables, seed {seed}: {placed} creatures"
    )];
    let table = app.world().resource::<SpawnRules>().0.clone();
    for (entry, p) in table.odds(1) {
        report.push(format!(
            "  {:>8}  {:.4} a draw",
            table.entries[entry].name, p
        ));
    }
    report.push(String::new());
    report.push(render_floor(app.world_mut()).trim_end().to_owned());
    report.push(
        denizen::bevy::view::roster(app.world_mut())
            .trim_end()
            .to_owned(),
    );
    let seen = app.world().resource::<FollowersSeen>();
    if seen.followers == 0 || seen.linked != seen.followers {
        return Err(format!(
            "{} of {} followers were linked to their leader when they spawned",
            seen.linked, seen.followers
        ));
    }
    report.push(format!(
        "{} followers, each already following its leader when MonsterSpawned fired",
        seen.followers
    ));
    app.world_mut()
        .write_message(SpawnFloorRequested { depth: 11 });
    app.update();
    match last::<SpawnFloorServed>(app)
        .pop()
        .map(|answer| answer.outcome)
    {
        Some(Err(refusal)) => report.push(format!("depth 11 refused: {refusal}")),
        _ => return Err("depth 11 was not refused".into()),
    }
    Ok(report)
}

/// A day on the clock: wanderers arrive hourly on the tables' floor.
fn a_day_of_wanderers(app: &mut App) -> Result<Vec<String>, String> {
    let before = beasts(app).len();
    let mut came = 0;
    for _ in 0..24 {
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(60);
        app.update();
        came += last::<Wandered>(app)
            .iter()
            .filter(|w| w.arrival().is_some())
            .count();
    }
    if beasts(app).len() != before + came || came == 0 {
        return Err(format!(
            "{came} wanderers came, but the floor went from {before} to {}",
            beasts(app).len()
        ));
    }
    Ok(vec![format!(
        "\na day on the clock: {came} wanderers arrived"
    )])
}

/// The rat renamed in the file and swapped in; then a broken edit, refused and the rules
/// kept.
fn edits(
    app: &mut App,
    seed: u64,
    text: &str,
    write: &dyn Fn(&str) -> Result<(), String>,
) -> Result<Vec<String>, String> {
    let mut report = Vec::new();
    write(&text.replacen("name: \"rat\"", "name: \"giant rat\"", 1))?;
    app.world().resource::<AssetServer>().reload(ASSET);
    wait_for::<RulesLoaded>(app, "the edit")?;
    descend(app, seed, 1);
    let world = app.world_mut();
    let rat = world
        .query_filtered::<Entity, With<Beast>>()
        .iter(world)
        .find_map(|e| describe(world, e).filter(|d| d.name == "giant rat"));
    if rat.is_none() {
        return Err("the renamed rat did not come".into());
    }
    report.push(format!(
        "\n{ASSET} edited: the rat is now a giant rat, and depth 1 holds one"
    ));
    write(&text.replacen("depths: (4, 10)", "depths: (10, 4)", 1))?;
    app.world().resource::<AssetServer>().reload(ASSET);
    let refused = wait_for::<DataRejected>(app, "the broken edit")?;
    report.push(format!(
        "a broken edit refused, the rules in use kept: {}",
        refused.error
    ));
    write(&text.replacen("name: \"rat\"", "name: \"giant rat\"", 1))?;
    app.world().resource::<AssetServer>().reload(ASSET);
    wait_for::<RulesLoaded>(app, "the mended file")?;
    report.push("the file mended, and swapped in again".into());
    Ok(report)
}

/// A save, and the same world loaded from it into a new game: the same creatures, linked
/// as they were, and the same save bytes.
fn save_and_load(app: &mut App, seed: u64, folder: &Path) -> Result<Vec<String>, String> {
    let text = save(app.world()).map_err(|e| e.to_string())?;
    let mut loaded = game_on_assets(seed, folder)?;
    wait_for::<RulesLoaded>(&mut loaded, "the load's table")?;
    load(loaded.world_mut(), &text).map_err(|e| e.to_string())?;
    if beasts(&mut loaded) != beasts(app) {
        return Err("the save did not bring the floor back".into());
    }
    let world = loaded.world_mut();
    let packs = world.query::<&Pack>().iter(world).count();
    if save(loaded.world()).map_err(|e| e.to_string())? != text {
        return Err("the loaded world saves to other bytes".into());
    }
    let mut report = vec![format!(
        "saved and loaded: the same {} creatures, {packs} packs, the same save bytes",
        beasts(&mut loaded).len()
    )];
    // Loaded into a game whose table holds only its first entry, the other beasts name
    // entries it lacks: the rule set's check of its loaded state says so.
    let mut table = app.world().resource::<SpawnRules>().0.as_ref().clone();
    table.entries.truncate(1);
    let mut smaller = game(seed, Arc::new(table));
    smaller.update();
    load(smaller.world_mut(), &text).map_err(|e| e.to_string())?;
    let Some(rejected) = last::<BeastsRejected>(&smaller).pop() else {
        return Err("a save of a larger table loaded without a word".into());
    };
    report.push(format!(
        "loaded with a one-entry table: {} beasts name entries it lacks",
        rejected.unknown
    ));
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Arc<SpawnTable> {
        let text = std::fs::read_to_string(TABLE_FILE).unwrap();
        Arc::new(SpawnTable::load(&text, TABLE_FILE).unwrap())
    }

    #[test]
    fn the_odds_are_the_tables_weights() {
        // Depth 5: kobold 6, goblin 5, orc 4 (the rat ends at 4, the troll starts at 7).
        let odds = table().odds(5);
        assert_eq!(odds.iter().map(|&(i, _)| i).collect::<Vec<_>>(), [1, 2, 3]);
        for ((_, p), expected) in odds.iter().zip([6.0 / 15.0, 5.0 / 15.0, 4.0 / 15.0]) {
            assert!((p - expected).abs() < 1e-12);
        }
    }

    /// Each entry's count within five standard deviations of its binomial mean, and a
    /// uniform pick (one third each) outside them.
    #[test]
    fn draws_follow_the_odds_and_not_a_uniform_pick() {
        let table = table();
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("spawn-table-test"));
        let odds = table.odds(5);
        let n = 30_000u32;
        let mut counts = vec![0u32; odds.len()];
        for _ in 0..n {
            let entry = table.draw(&mut rng, 5).unwrap();
            counts[odds.iter().position(|&(i, _)| i == entry).unwrap()] += 1;
        }
        let within = |count: u32, p: f64| {
            let (mean, n) = (f64::from(n) * p, f64::from(n));
            (f64::from(count) - mean).abs() < 5.0 * (n * p * (1.0 - p)).sqrt()
        };
        assert!(
            counts.iter().zip(&odds).all(|(&c, &(_, p))| within(c, p)),
            "{counts:?}"
        );
        assert!(!counts.iter().all(|&c| within(c, 1.0 / 3.0)), "{counts:?}");
    }

    #[test]
    fn a_broken_table_names_its_file_entry_and_field() {
        let text = std::fs::read_to_string(TABLE_FILE).unwrap();
        let broken = text.replace("depths: (4, 10)", "depths: (10, 4)");
        let e = SpawnTable::load(&broken, "mine.ron")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mine.ron") && e.contains("orc") && e.contains("depths"),
            "{e}"
        );
        let big = text.replacen("pack: 2", "pack: 9", 1);
        let e = SpawnTable::load(&big, "mine.ron").unwrap_err().to_string();
        assert!(e.contains("rat") && e.contains("pack"), "{e}");
    }

    #[test]
    fn floors_go_through_the_pipeline_with_their_packs() {
        let table = table();
        let mut app = game(3, table.clone());
        descend(&mut app, 3, 2);
        let first = beasts(&mut app);
        let answer = last::<SpawnFloorServed>(&app).pop().unwrap();
        assert_eq!(answer.floor, Some(FloorId::new(PLACE, 2)));
        let placed = answer.populated().map(|p| p.entities.len());
        assert_eq!(Some(first.len()), placed);
        let leaders = table.count(2) as usize;
        assert!(first.len() > leaders, "packs come with their leaders");
        let world = app.world_mut();
        let mut follows = world.query::<(&Follows, &GridPos, &Beast)>();
        for (leader, at, beast) in follows.iter(world) {
            let (lead_at, lead) = (world.get::<GridPos>(leader.0), world.get::<Beast>(leader.0));
            assert!(next_to(Square::from(*at), Square::from(*lead_at.unwrap())));
            assert_eq!(lead, Some(beast), "a pack is of one kind");
        }
        let map = &app.world().resource::<FloorMap>().0;
        assert!(
            first
                .iter()
                .all(|(_, at, _)| map.is_occupied(Square::from(*at)))
        );
        // A depth the table does not reach is refused, and nothing changes.
        descend(&mut app, 3, 11);
        let reason = last::<SpawnFloorServed>(&app)
            .pop()
            .and_then(|answer| Some(answer.refusal()?.to_string()));
        assert_eq!(
            reason.as_deref(),
            Some("no entry of the table appears at depth 11")
        );
        assert_eq!(beasts(&mut app), first);
    }

    /// The followers are linked before `MonsterSpawned` fires, and carry the rule set's
    /// own origin.
    #[test]
    fn followers_are_linked_when_they_spawn() {
        let mut app = game(4, table());
        app.init_resource::<FollowersSeen>()
            .add_observer(watch_followers);
        descend(&mut app, 4, 1);
        let seen = app.world().resource::<FollowersSeen>();
        assert!(seen.followers > 0);
        assert_eq!(seen.linked, seen.followers);
    }

    /// Wanderers come on the clock only while the tables' floor is current.
    #[test]
    fn wanderers_come_only_to_the_tables_floor() {
        let mut app = game(6, table());
        descend(&mut app, 6, 1);
        put_floor_away(app.world_mut());
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(60 * 5);
        app.update();
        let refused = last::<Wandered>(&app);
        assert_eq!(refused.len(), 5);
        assert!(
            refused
                .iter()
                .all(|w| matches!(w.refusal(), Some(NoWanderer::NotOurFloor(n)) if n.floor == FloorId::default()))
        );
        bring_floor_back(app.world_mut(), &FloorId::new(PLACE, 1));
        let before = beasts(&mut app).len();
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(60 * 5);
        app.update();
        let came = last::<Wandered>(&app)
            .iter()
            .filter(|w| w.arrival().is_some())
            .count();
        assert!(came > 0);
        assert_eq!(beasts(&mut app).len(), before + came);
    }

    #[test]
    fn the_same_seed_gives_the_same_floor() {
        let mut a = game(9, table());
        let mut b = game(9, table());
        descend(&mut a, 9, 3);
        descend(&mut b, 9, 3);
        assert_eq!(beasts(&mut a), beasts(&mut b));
    }

    /// The game as `main` plays it, against a real asset folder.
    #[test]
    fn the_game_plays_through() {
        let folder =
            std::env::temp_dir().join(format!("denizen-custom-test-{}", std::process::id()));
        let result = play(7, &folder);
        let _ = std::fs::remove_dir_all(&folder);
        let report = result.unwrap();
        assert!(report.iter().any(|l| l.contains("giant rat")));
    }
}
