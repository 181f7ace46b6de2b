//! A fourth rule set, written only against denizen's public API: depth-ranged weighted
//! spawn tables read from a RON file (`examples/custom_rule_set/spawn_table.ron`), the
//! style many tutorial roguelikes use. Its floors go through the same pipeline as
//! Omega's, Captive's and Angband's: `MonsterSpawned`, occupancy, floors put away and
//! brought back, and saves work for it unchanged.
//!
//! `cargo run --example custom_rule_set -- [--seed N]`; `cargo test --example
//! custom_rule_set` runs its tests.

use std::process::ExitCode;
use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen::bevy::apply::apply;
use denizen::bevy::denizen_schedule;
use denizen::bevy::pipeline::{FloorHeld, FloorRequest, serve_floor_requests};
use denizen::bevy::save::{SaveWithDenizen, load, save};
use denizen::bevy::view::render_floor;
use denizen::data::{DataError, Entry, load_ron, read_data_file};
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

/// The stream kind this rule set draws its floors from, and the place of its floors.
const STREAM_KIND: &str = "spawn-table";
const PLACE: &str = "tables";

/// The deepest depth, the most creatures per floor and the largest weight a table may
/// name: every number from the file is bounded when it is loaded.
const MAX_DEPTH: u32 = 1_000;
const MAX_COUNT: u32 = 10_000;
const MAX_WEIGHT: u32 = 1_000_000;

// ---- The rules: plain data and functions, no ECS. ----

/// How many creatures a floor gets: `base + depth / per_depths`.
#[derive(Clone, Copy, Debug, Deserialize)]
struct Count {
    base: u32,
    per_depths: u32,
}

/// One creature of the table and the depths it appears at.
#[derive(Clone, Debug, Deserialize)]
struct TableEntry {
    name: String,
    glyph: char,
    hit_points: u32,
    /// First and last depth, inclusive.
    depths: (u32, u32),
    weight: u32,
}

/// A depth-ranged weighted spawn table.
#[derive(Clone, Debug, Deserialize)]
struct SpawnTable {
    count: Count,
    entries: Vec<TableEntry>,
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

    /// Creatures per floor at a depth.
    fn count(&self, depth: u32) -> u32 {
        self.count.base + depth / self.count.per_depths
    }

    /// A floor's plan: each creature drawn, then a free square drawn among those left.
    fn plan(&self, rng: &mut Generator, depth: u32, grid: &FloorGrid) -> Plan<usize> {
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
            plan.spawns.push(Planned {
                at,
                origin: Origin::FloorPopulation,
                creature: entry,
            });
        }
        plan
    }
}

// ---- The plugin: a thin adapter over the rules, through denizen's pipeline. ----

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

/// The request: populate the floor in `FloorMap` as this depth of the tables.
#[derive(Message, Clone, Copy, Debug)]
struct SpawnFloorRequested {
    depth: u32,
}

/// The answer: how many creatures the floor got.
#[derive(Message, Clone, Copy, Debug)]
struct SpawnFloorPopulated {
    placed: u32,
}

/// A refused request, and why.
#[derive(Message, Clone, Debug)]
struct SpawnFloorRejected {
    reason: SpawnRefusal,
}

/// Why a request was refused.
#[derive(Clone, Debug, thiserror::Error)]
enum SpawnRefusal {
    #[error("no entry of the table appears at depth {0}")]
    NothingAtDepth(u32),
    #[error("FloorMap is empty: fill it with the floor before requesting it")]
    EmptyMap,
    #[error("{0}")]
    FloorHeld(FloorHeld),
}

impl From<FloorHeld> for SpawnRefusal {
    fn from(held: FloorHeld) -> Self {
        Self::FloorHeld(held)
    }
}

impl FloorRequest for SpawnFloorRequested {
    type Rejection = SpawnRefusal;
    type Plan = Plan<usize>;

    fn validate(&self, world: &World) -> Result<FloorId, SpawnRefusal> {
        let table = &world.resource::<SpawnRules>().0;
        if table.eligible(self.depth).next().is_none() {
            return Err(SpawnRefusal::NothingAtDepth(self.depth));
        }
        let map = &world.resource::<FloorMap>().0;
        if map.width() == 0 || map.height() == 0 {
            return Err(SpawnRefusal::EmptyMap);
        }
        Ok(FloorId::new(PLACE, self.depth))
    }

    fn stream<'a>(&'a self, _floor: &'a FloorId) -> StreamKey<'a> {
        StreamKey {
            kind: STREAM_KIND,
            place: PLACE,
            depth: self.depth,
        }
    }

    fn plan(&self, world: &mut World, _floor: &FloorId, rng: &mut Generator) -> Plan<usize> {
        let table = world.resource::<SpawnRules>().0.clone();
        table.plan(rng, self.depth, &world.resource::<FloorMap>().0)
    }

    fn apply(&self, world: &mut World, _floor: &FloorId, plan: Plan<usize>) {
        let table = world.resource::<SpawnRules>().0.clone();
        let placed = plan.spawns.len() as u32;
        apply(world, plan, |batches, spawns| {
            batches.spawn(
                spawns
                    .into_iter()
                    .enumerate()
                    .map(|(i, spawn)| {
                        let entry = &table.entries[spawn.creature];
                        let beast = Beast {
                            entry: spawn.creature as u16,
                        };
                        (
                            i,
                            spawn.at,
                            (beast, BeastHealth(entry.hit_points), Glyph(entry.glyph)),
                        )
                    })
                    .collect(),
            );
        });
        world.write_message(SpawnFloorPopulated { placed });
    }

    fn reject(&self, world: &mut World, reason: SpawnRefusal) {
        world.write_message(SpawnFloorRejected { reason });
    }
}

/// The rule set's set, inside `DenizenSystems::Floors` (a game sending requests of two
/// rule sets in one update orders the sets, since `FloorMap` holds one floor a run).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct SpawnTableSystems;

/// The spawn-table rule set as a plugin.
struct SpawnTablePlugin(Arc<SpawnTable>);

impl Plugin for SpawnTablePlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_schedule(app);
        app.insert_resource(SpawnRules(self.0.clone()))
            .add_message::<SpawnFloorRequested>()
            .add_message::<SpawnFloorPopulated>()
            .add_message::<SpawnFloorRejected>()
            .save_with_denizen::<Beast>()
            .save_with_denizen::<BeastHealth>()
            .configure_sets(schedule, SpawnTableSystems.in_set(DenizenSystems::Floors))
            .add_systems(
                schedule,
                serve_floor_requests::<SpawnFloorRequested>
                    .run_if(on_message::<SpawnFloorRequested>)
                    .in_set(SpawnTableSystems),
            );
    }
}

// ---- A headless game on it. ----

/// A 48 x 20 floor of rooms and corridors for a depth.
fn floor_for(seed: u64, depth: u32) -> FloorGrid {
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("example-floor").with(depth.into()));
    rooms_and_corridors(&mut |k| uniform(&mut rng, k), 48, 20).expect("48 x 20 is a valid size")
}

/// An app with every shipped rule set and the spawn tables.
fn game(seed: u64, table: Arc<SpawnTable>) -> App {
    let mut app = App::new();
    app.add_plugins((DenizenPlugins::with_seed(seed), SpawnTablePlugin(table)));
    app
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

fn main() -> ExitCode {
    let mut seed = 1u64;
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        match (word.as_str(), words.next().and_then(|s| s.parse().ok())) {
            ("--seed", Some(s)) => seed = s,
            _ => return fail("custom_rule_set", "usage: custom_rule_set [--seed N]"),
        }
    }
    let text = match read_data_file(std::path::Path::new(TABLE_FILE)) {
        Ok(text) => text,
        Err(e) => return fail("custom_rule_set", &format!("{TABLE_FILE}: {e}")),
    };
    let table = match SpawnTable::load(&text, TABLE_FILE) {
        Ok(table) => Arc::new(table),
        Err(e) => return fail("custom_rule_set", &e.to_string()),
    };
    match play(seed, table) {
        Ok(report) => finish("custom_rule_set", |out| {
            report.iter().try_for_each(|line| writeln!(out, "{line}"))
        }),
        Err(e) => fail("custom_rule_set", &e),
    }
}

/// Down two floors, back up to the first, a save and a load: each step checked. Gives
/// back the lines to print.
fn play(seed: u64, table: Arc<SpawnTable>) -> Result<Vec<String>, String> {
    let mut report = Vec::new();
    let mut app = game(seed, table.clone());
    let spawned = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = spawned.clone();
    app.add_observer(move |_: On<MonsterSpawned>| {
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    descend(&mut app, seed, 1);
    let first = beasts(&mut app);
    let placed = last::<SpawnFloorPopulated>(&app).map_or(0, |p| p.placed);
    report.push(format!(
        "depth 1 of the spawn tables, seed {seed}: {placed} creatures"
    ));
    for (entry, p) in table.odds(1) {
        report.push(format!(
            "  {:>8}  {:.4} a draw",
            table.entries[entry].name, p
        ));
    }
    report.push(String::new());
    report.push(render_floor(app.world_mut()).trim_end().to_owned());
    for (entry, at, hp) in &first {
        report.push(format!(
            "{:>8} at ({:>2}, {:>2}), {hp} hp",
            table.entries[usize::from(*entry)].name,
            at.x,
            at.y
        ));
    }
    let depth_one = FloorId::new(PLACE, 1);
    put_floor_away(app.world_mut());
    app.world_mut()
        .write_message(SpawnFloorRequested { depth: 11 });
    app.update();
    match last::<SpawnFloorRejected>(&app) {
        Some(rejected) => report.push(format!("\ndepth 11 refused: {}", rejected.reason)),
        None => return Err("depth 11 was not refused".into()),
    }
    descend(&mut app, seed, 7);
    report.push(format!("\ndepth 7: {} creatures", beasts(&mut app).len()));
    bring_floor_back(app.world_mut(), &depth_one);
    if beasts(&mut app) != first {
        return Err("depth 1 did not come back as it was".into());
    }
    let text = save(app.world()).map_err(|e| e.to_string())?;
    let mut loaded = game(seed, table);
    loaded.update();
    load(loaded.world_mut(), &text).map_err(|e| e.to_string())?;
    if beasts(&mut loaded) != first {
        return Err("the save did not bring depth 1 back".into());
    }
    let seen = spawned.load(std::sync::atomic::Ordering::Relaxed);
    report.push(format!(
        "\n{seen} MonsterSpawned events; depth 1 came back from its stairs and from a save"
    ));
    Ok(report)
}

/// The last message of a kind written in the last update.
fn last<M: Message + Clone>(app: &App) -> Option<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().last().cloned()
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

    #[test]
    fn draws_follow_the_odds_and_not_a_uniform_pick() {
        let table = table();
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("spawn-table-test"));
        let odds = table.odds(5);
        let mut counts = vec![0u64; odds.len()];
        for _ in 0..30_000 {
            let entry = table.draw(&mut rng, 5).unwrap();
            counts[odds.iter().position(|&(i, _)| i == entry).unwrap()] += 1;
        }
        let right = ChiSquared::against(&counts, odds.iter().map(|&(_, p)| p)).p_value();
        let uniform = ChiSquared::against(&counts, [1.0 / 3.0; 3]).p_value();
        assert!(right > 0.001, "p = {right}");
        assert!(uniform < 1e-6, "a uniform pick is rejected: p = {uniform}");
    }

    #[test]
    fn a_broken_table_names_its_file_entry_and_field() {
        let broken = std::fs::read_to_string(TABLE_FILE)
            .unwrap()
            .replace("depths: (4, 10)", "depths: (10, 4)");
        let e = SpawnTable::load(&broken, "mine.ron")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mine.ron") && e.contains("orc") && e.contains("depths"),
            "{e}"
        );
    }

    #[test]
    fn floors_go_through_the_pipeline() {
        let table = table();
        let mut app = game(3, table.clone());
        descend(&mut app, 3, 2);
        let first = beasts(&mut app);
        assert_eq!(
            Some(first.len() as u32),
            last::<SpawnFloorPopulated>(&app).map(|p| p.placed)
        );
        assert_eq!(first.len() as u32, table.count(2));
        let map = &app.world().resource::<FloorMap>().0;
        assert!(
            first
                .iter()
                .all(|(_, at, _)| map.is_occupied(Square::from(*at)))
        );
        // The same floor asked for again is made afresh, never merged.
        descend(&mut app, 3, 2);
        assert_eq!(beasts(&mut app).len() as u32, table.count(2));
        // A depth the table does not reach is refused, and nothing changes.
        let before = beasts(&mut app);
        descend(&mut app, 3, 11);
        let rejected = app.world().resource::<Messages<SpawnFloorRejected>>();
        let reason = rejected
            .iter_current_update_messages()
            .next()
            .map(|r| r.reason.to_string());
        assert_eq!(
            reason.as_deref(),
            Some("no entry of the table appears at depth 11")
        );
        assert_eq!(beasts(&mut app), before);
        // So is an empty map.
        app.insert_resource(FloorMap::default());
        app.world_mut()
            .write_message(SpawnFloorRequested { depth: 2 });
        app.update();
        let reason = last::<SpawnFloorRejected>(&app).map(|r| r.reason.to_string());
        assert!(reason.is_some_and(|r| r.contains("FloorMap is empty")));
        assert_eq!(beasts(&mut app), before);
    }

    #[test]
    fn the_game_runs_and_is_the_same_from_the_same_seed() {
        play(4, table()).unwrap();
        let mut a = game(9, table());
        let mut b = game(9, table());
        descend(&mut a, 9, 3);
        descend(&mut b, 9, 3);
        assert_eq!(beasts(&mut a), beasts(&mut b));
    }
}
