//! A small headless roguelike built on the plugins the way a game uses them: its own floor
//! generator system answering its own level-change message, an observer that decorates
//! every monster as it spawns, its systems ordered around `DenizenSystems`, the clock
//! advanced by turns, wandering arrivals and a summon reacted to, a level left and
//! revisited, and a save and reload in the middle. It prints a short log.
//!
//! `cargo run --example roguelike -- [turns] [--save FILE]` (60 turns by default);
//! `--save FILE` also writes the mid-game save to `FILE`, so two runs can be compared.

use std::path::PathBuf;
use std::process::ExitCode;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::save;
use denizen::layout::rooms_and_corridors;
use denizen::output::{fail, finish};
use denizen::prelude::*;
use denizen::rng::uniform;

/// The game's own hit points, added to every monster by an observer.
#[derive(Component, Debug)]
struct Health(i32);

/// The game's own request: the player takes the stairs to a depth of the sewers.
#[derive(Message, Clone, Copy)]
struct ChangeLevel {
    depth: u32,
}

/// The game's own state: the turn and the player's depth.
#[derive(Resource, Default)]
struct Game {
    turn: u64,
    depth: u32,
    log: Vec<String>,
}

const DUNGEON: &str = "sewers";

/// What the command line asks for.
struct Args {
    turns: u64,
    save_to: Option<PathBuf>,
}

/// `[turns] [--save FILE]`, or why not.
fn args() -> Result<Args, String> {
    let mut args = Args {
        turns: 60,
        save_to: None,
    };
    let mut given = std::env::args_os().skip(1);
    while let Some(arg) = given.next() {
        if arg == "--save" {
            let file = given.next().ok_or("--save needs a file")?;
            args.save_to = Some(PathBuf::from(file));
        } else {
            let turns = arg.to_str().and_then(|t| t.parse().ok());
            args.turns = turns.ok_or("usage: roguelike [turns] [--save FILE]")?;
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let Args { turns, save_to } = match args() {
        Ok(args) => args,
        Err(usage) => return fail("roguelike", &usage),
    };
    if save_to.is_some() && turns < 2 {
        return fail(
            "roguelike",
            "--save needs at least 2 turns: the save is made at the middle turn",
        );
    }
    let mut app = game();
    app.world_mut().write_message(ChangeLevel { depth: 1 });
    for turn in 1..=turns {
        app.world_mut().resource_mut::<Game>().turn = turn;
        if turn == turns / 2 {
            match save_and_reload(app, save_to.as_deref()) {
                Ok(reloaded) => app = reloaded,
                Err(why) => return fail("roguelike", &why),
            }
        }
        let stairs = match turn {
            10 => Some(2),
            20 => Some(1),
            _ => None,
        };
        if let Some(depth) = stairs {
            app.world_mut().write_message(ChangeLevel { depth });
        }
        app.update();
    }
    finish("roguelike", |out| {
        for line in &app.world().resource::<Game>().log {
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}

/// Saves mid-game (to `file` too, when given), then goes on in a fresh app loaded from
/// the save.
fn save_and_reload(mut app: App, file: Option<&std::path::Path>) -> Result<App, String> {
    let text = save::save(app.world()).map_err(|e| e.to_string())?;
    if let Some(file) = file {
        std::fs::write(file, &text).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    let game = app
        .world_mut()
        .remove_resource::<Game>()
        .unwrap_or_default();
    let mut app = self::game();
    app.update();
    save::load(app.world_mut(), &text).map_err(|e| e.to_string())?;
    // The game's own components are the game's to save; this one is derived, so it is
    // simply made again.
    let world = app.world_mut();
    let undecorated: Vec<(Entity, i32)> = world
        .query_filtered::<(Entity, &CombatStats), Without<Health>>()
        .iter(world)
        .map(|(e, s)| (e, s.0.hp))
        .collect();
    for (entity, hp) in undecorated {
        world.entity_mut(entity).insert(Health(hp));
    }
    app.insert_resource(game);
    log(
        &mut app,
        format!("saved and reloaded ({} bytes)", text.len()),
    );
    Ok(app)
}

/// The game's app: the plugins, its own systems around theirs, and its observer.
fn game() -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(2026))
        .init_resource::<Game>()
        .add_message::<ChangeLevel>()
        .add_observer(decorate)
        .add_systems(
            Update,
            (
                (take_turn, change_level)
                    .chain()
                    .before(DenizenSystems::Floors),
                (report_floors, report_arrivals, summon_help, report_summons)
                    .chain()
                    .after(DenizenSystems::Arrivals),
            ),
        );
    app
}

/// Each turn is ten game minutes: the plugin runs the wandering check of each boundary.
fn take_turn(mut clock: ResMut<GameClock>) {
    clock.advance_minutes(10);
}

/// The game's floor generator: leaving a level puts it away; a level seen before comes
/// back as it was, a new one is dug and populated. An ordinary system: the floor helpers
/// run as commands, applied before the plugins serve the request.
fn change_level(
    mut changes: MessageReader<ChangeLevel>,
    stored: Res<StoredFloors>,
    mut game: ResMut<Game>,
    mut requests: MessageWriter<OmegaFloorRequested>,
    mut commands: Commands,
) {
    for &ChangeLevel { depth } in changes.read() {
        if game.depth != 0 {
            commands.put_floor_away();
        }
        game.depth = depth;
        let floor = FloorId::new(DUNGEON, depth);
        let line = if stored.0.contains_key(&floor) {
            commands.bring_floor_back(floor);
            format!("back on sewers {depth}")
        } else {
            let mut rng = WorldSeed(u64::from(depth)).stream(StreamPurpose::new("dig"));
            let map = rooms_and_corridors(&mut |k| uniform(&mut rng, k), 64, 24)
                .expect("a 64 x 24 floor");
            commands.insert_resource(FloorMap(map));
            requests.write(OmegaFloorRequested::new(DUNGEON, depth));
            format!("down to sewers {depth}: a new level")
        };
        let line = format!("turn {:>3}: {line}", game.turn);
        game.log.push(line);
    }
}

/// The game's observer: every monster gets the game's own hit points as it spawns.
fn decorate(spawned: On<MonsterSpawned>, stats: Query<&CombatStats>, mut commands: Commands) {
    if let Ok(stats) = stats.get(spawned.entity) {
        commands.entity(spawned.entity).insert(Health(stats.0.hp));
    }
}

fn report_floors(mut served: MessageReader<OmegaFloorServed>, mut game: ResMut<Game>) {
    for answer in served.read() {
        let (location, depth) = (&answer.request.location, answer.request.depth);
        let line = match &answer.outcome {
            Ok(floor) => format!("populated with {} monsters", floor.placed),
            Err(refusal) => format!("refused: {refusal}"),
        };
        let turn = game.turn;
        game.log
            .push(format!("turn {turn:>3}: {location} {depth} {line}"));
    }
}

fn report_arrivals(
    mut checks: MessageReader<OmegaWanderingChecked>,
    rules: Res<OmegaRuleset>,
    health: Query<&Health>,
    clock: Res<GameClock>,
    mut game: ResMut<Game>,
) {
    let clock = *clock;
    for arrival in checks.read().filter_map(|check| check.arrival()) {
        let name = rules
            .species(arrival.species)
            .map_or("?", |t| t.name.as_str());
        let hp = health.get(arrival.entity).map_or(0, |h| h.0);
        let line = format!(
            "turn {:>3} ({clock}): a {name} wanders in at ({}, {}), {hp} hp",
            game.turn, arrival.at.x, arrival.at.y
        );
        game.log.push(line);
    }
}

/// On turn 15 the player reads a scroll of summoning next to the stairs.
fn summon_help(
    game: Res<Game>,
    map: Res<FloorMap>,
    mut summon: MessageWriter<OmegaSummonRequested>,
) {
    if game.turn == 15
        && let Some(at) = map.0.squares().find(|&s| map.0.is_acceptable(s))
    {
        summon.write(OmegaSummonRequested::new(15, at, SummonKind::Ordinary).friendly());
    }
}

fn report_summons(mut summoned: MessageReader<OmegaSummoned>, mut game: ResMut<Game>) {
    for answer in summoned.read() {
        let id = answer.request.request;
        let line = match &answer.outcome {
            Ok(summon) => format!(
                "turn {:>3}: summoning {id} brought a friend to ({}, {})",
                game.turn, summon.at.x, summon.at.y
            ),
            Err(why) => format!("turn {:>3}: summoning {id} failed: {why:?}", game.turn),
        };
        game.log.push(line);
    }
}

fn log(app: &mut App, line: String) {
    log_world(app.world_mut(), line);
}

fn log_world(world: &mut World, line: String) {
    let mut game = world.resource_mut::<Game>();
    let line = format!("turn {:>3}: {line}", game.turn);
    game.log.push(line);
}
