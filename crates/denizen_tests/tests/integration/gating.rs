//! A game that runs the plugins only in one `bevy_state` state (their sets gated with
//! `run_if(in_state(..))`): what is kept while they are gated, and what happens to the
//! clock's checks and to requests.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::app::StatesPlugin;
use bevy_state::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::{floors_populated, wandering_arrivals};

#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
enum Place {
    #[default]
    Dungeon,
    Town,
}

/// How many check schedules ran.
#[derive(Resource, Default)]
struct ChecksRun(u64);

/// The plugins, gated to the dungeon, with a populated sewers level and a count of the
/// checks that run.
fn gated_game() -> App {
    let mut app = App::new();
    app.add_plugins((StatesPlugin, DenizenPlugins::with_seed(40)))
        .init_state::<Place>()
        .init_resource::<ChecksRun>()
        .configure_sets(
            Update,
            (
                DenizenSystems::Floors,
                DenizenSystems::Clock,
                DenizenSystems::Arrivals,
            )
                .run_if(in_state(Place::Dungeon)),
        )
        .add_systems(TenMinuteCheck, |mut run: ResMut<ChecksRun>| run.0 += 1)
        .add_systems(HourlyCheck, |mut run: ResMut<ChecksRun>| run.0 += 1);
    app.insert_resource(FloorMap(reference_floor(WorldSeed(40), "sewers", 5)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 5));
    app.update();
    app
}

fn go(app: &mut App, place: Place) {
    app.world_mut()
        .resource_mut::<NextState<Place>>()
        .set(place);
    app.update();
}

/// Everything denizen holds (its save) but the clock.
fn all_but_the_clock(app: &App) -> ron::Value {
    let text = denizen::bevy::save::save(app.world()).unwrap();
    let mut save: ron::Value = ron::from_str(&text).unwrap();
    if let ron::Value::Map(fields) = &mut save
        && let Some(ron::Value::Map(resources)) =
            fields.get_mut(&ron::Value::String("resources".into()))
    {
        resources.remove(&ron::Value::String("denizen_bevy::clock::GameClock".into()));
    }
    save
}

/// Every creature with its square and stats, sorted.
fn creatures(app: &mut App) -> Vec<(GridPos, Species, CombatStats)> {
    let world = app.world_mut();
    let mut all: Vec<_> = world
        .query::<(&GridPos, &Species, &CombatStats)>()
        .iter(world)
        .map(|(p, s, c)| (*p, *s, *c))
        .collect();
    all.sort_by_key(|(p, s, _)| (*p, s.id.0));
    all
}

/// While gated nothing of denizen's changes but the clock: the floor, its creatures and
/// their squares stay; no check runs, so nothing wanders in. Back in the dungeon the
/// checks of the boundaries crossed meanwhile all run on the first update, unless the
/// game skips them first (`GameClock::skip_pending_checks`).
#[test]
fn gated_plugins_keep_the_floor_and_their_checks_wait() {
    for skip in [false, true] {
        let mut app = gated_game();
        let before = creatures(&mut app);
        let saved = all_but_the_clock(&app);
        assert!(before.len() > 5);
        go(&mut app, Place::Town);
        for _ in 0..30 {
            app.world_mut()
                .resource_mut::<GameClock>()
                .advance_minutes(10);
            app.update();
            assert!(wandering_arrivals(&app).is_empty());
        }
        let clock = *app.world().resource::<GameClock>();
        assert_eq!((clock.minutes, clock.boundaries_checked), (300, 0));
        assert_eq!(app.world().resource::<ChecksRun>().0, 0);
        assert_eq!(creatures(&mut app), before, "the creatures are kept");
        assert!(
            all_but_the_clock(&app) == saved,
            "everything denizen holds is kept but the clock"
        );
        if skip {
            app.world_mut()
                .resource_mut::<GameClock>()
                .skip_pending_checks();
        }
        go(&mut app, Place::Dungeon);
        let ran = app.world().resource::<ChecksRun>().0;
        assert_eq!(ran, if skip { 0 } else { 30 }, "skip: {skip}");
        assert_eq!(app.world().resource::<GameClock>().boundaries_checked, 30);
    }
}

/// A request written while gated is served only if the gate opens on the next update:
/// Bevy keeps a message two updates. A game writes its requests in the dungeon state, or
/// on entering it (`OnEnter` runs before `Update`, so it is served on the same update).
#[test]
fn requests_are_served_on_entering_but_not_kept_while_gated() {
    let mut app = gated_game();
    go(&mut app, Place::Town);
    app.insert_resource(FloorMap(reference_floor(WorldSeed(40), "castle", 2)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("castle", 2));
    app.update();
    app.update();
    go(&mut app, Place::Dungeon);
    assert!(floors_populated::<OmegaFloorRequested>(&app).is_empty());
    let current = app.world().resource::<CurrentFloor>().0.clone();
    assert_eq!(
        current,
        FloorId::new("sewers", 5),
        "the old request is gone"
    );

    app.add_systems(
        OnEnter(Place::Dungeon),
        |mut requests: MessageWriter<OmegaFloorRequested>| {
            requests.write(OmegaFloorRequested::new("castle", 2));
        },
    );
    go(&mut app, Place::Town);
    go(&mut app, Place::Dungeon);
    let populated: Vec<OmegaFloorPopulated> = floors_populated::<OmegaFloorRequested>(&app);
    assert_eq!(
        populated.len(),
        1,
        "served on the update that entered the state"
    );
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("castle", 2)
    );
}
