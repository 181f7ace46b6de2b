//! A game that runs denizen only in its dungeon state (`bevy_state`): the plugins' sets are
//! gated with `run_if(in_state(Place::Dungeon))`. Entering the dungeon brings its level
//! back (or digs and populates it the first time), leaving puts it away; time passes in
//! the town too, and the wandering checks of the hours spent there are skipped on the way
//! back down rather than run all at once. It prints a short log.
//!
//! `cargo run --example dungeon_state`

use std::process::ExitCode;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::app::StatesPlugin;
use bevy_state::prelude::*;
use denizen::layout::rooms_and_corridors;
use denizen::output::finish;
use denizen::prelude::*;
use denizen::rng::uniform;

/// Where the player is: the plugins run only in the dungeon.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
enum Place {
    #[default]
    Town,
    Dungeon,
}

/// The game's turn and log.
#[derive(Resource, Default)]
struct Game {
    turn: u64,
    log: Vec<String>,
}

const DUNGEON: &str = "goblin-caves";
const DEPTH: u32 = 2;

fn main() -> ExitCode {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, DenizenPlugins::with_seed(7)))
        .init_state::<Place>()
        .init_resource::<Game>()
        // The one line that gates denizen: every phase runs only in the dungeon.
        .configure_sets(
            Update,
            (
                DenizenSystems::Floors,
                DenizenSystems::Clock,
                DenizenSystems::Arrivals,
            )
                .run_if(in_state(Place::Dungeon)),
        )
        .add_systems(OnEnter(Place::Dungeon), go_down)
        .add_systems(OnExit(Place::Dungeon), go_up)
        .add_systems(
            Update,
            (
                pass_time.before(DenizenSystems::Floors),
                (report_floor, report_arrivals).after(DenizenSystems::Arrivals),
            ),
        );
    for turn in 1..=80 {
        app.world_mut().resource_mut::<Game>().turn = turn;
        let next = match turn {
            5 | 60 => Some(Place::Dungeon),
            30 => Some(Place::Town),
            _ => None,
        };
        if let Some(place) = next {
            app.world_mut()
                .resource_mut::<NextState<Place>>()
                .set(place);
        }
        app.update();
    }
    finish("dungeon_state", |out| {
        for line in &app.world().resource::<Game>().log {
            writeln!(out, "{line}")?;
        }
        Ok(())
    })
}

/// Every turn is ten game minutes, in the town as in the dungeon.
fn pass_time(mut clock: ResMut<GameClock>) {
    clock.advance_minutes(10);
}

/// Entering the dungeon: its level comes back as it was left, or is dug and populated the
/// first time. Runs in `StateTransition`, before `Update`, so the plugins serve the
/// request on the same update. The checks of the time spent in town are skipped.
fn go_down(
    stored: Res<StoredFloors>,
    mut clock: ResMut<GameClock>,
    mut game: ResMut<Game>,
    mut requests: MessageWriter<OmegaFloorRequested>,
    mut commands: Commands,
) {
    let floor = FloorId::new(DUNGEON, DEPTH);
    let pending = (clock.minutes / 10).saturating_sub(clock.boundaries_checked);
    clock.skip_pending_checks();
    let line = if stored.0.contains_key(&floor) {
        commands.bring_floor_back(floor);
        format!("down again; {pending} wandering checks of the time away skipped")
    } else {
        let mut rng = WorldSeed(7).stream(StreamPurpose::new("dig"));
        let map =
            rooms_and_corridors(&mut |k| uniform(&mut rng, k), 64, 24).expect("a 64 x 24 floor");
        commands.insert_resource(FloorMap(map));
        requests.write(OmegaFloorRequested::new(DUNGEON, DEPTH));
        format!("down into {DUNGEON} {DEPTH} for the first time")
    };
    log(&mut game, line);
}

/// Leaving the dungeon puts its level away with its monsters.
fn go_up(mut game: ResMut<Game>, mut commands: Commands) {
    commands.put_floor_away();
    log(
        &mut game,
        "up to the town: the level is put away".to_owned(),
    );
}

fn report_floor(mut served: MessageReader<OmegaFloorServed>, mut game: ResMut<Game>) {
    for answer in served.read() {
        let line = match &answer.outcome {
            Ok(floor) => format!("the level is populated with {} monsters", floor.placed),
            Err(refusal) => format!("the level is refused: {refusal}"),
        };
        log(&mut game, line);
    }
}

fn report_arrivals(
    mut checks: MessageReader<OmegaWanderingChecked>,
    rules: Res<OmegaRuleset>,
    clock: Res<GameClock>,
    awake: Query<(), (With<Species>, Without<Dormant>)>,
    mut game: ResMut<Game>,
) {
    for arrival in checks.read().filter_map(|check| check.arrival()) {
        let name = rules
            .species(arrival.species)
            .map_or("?", |t| t.name.as_str());
        let line = format!(
            "({}) a {name} wanders in; {} monsters on the level",
            *clock,
            awake.iter().count()
        );
        log(&mut game, line);
    }
}

fn log(game: &mut Game, line: String) {
    let line = format!("turn {:>2}: {line}", game.turn);
    game.log.push(line);
}
