//! Angband levels through the plugin: the level in `FloorMap`, one entity per monster with
//! every component, the live-uniques ledger, host floors, refusals and saves.

use std::collections::BTreeSet;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::angband::{RaceFlags, Races};
use denizen::bevy::prelude::*;

use crate::messages;

/// An app with the neutral and Angband plugins after one level request.
fn level(seed: u64, request: DungeonLevelRequested) -> App {
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), AngbandPlugin::default()));
    app.world_mut().write_message(request);
    app.update();
    app
}

/// Each monster's race, square, hit points, speed, energy and sleep.
fn monsters(app: &mut App) -> Vec<(u16, Square, i32, i32, i32, i32)> {
    let mut query = app.world_mut().query::<(
        &AngbandMonster,
        &GridPos,
        &HitPoints,
        &Speed,
        &Energy,
        &SleepCounter,
    )>();
    let mut all: Vec<_> = query
        .iter(app.world())
        .map(|(m, at, hp, speed, energy, sleep)| {
            (
                m.race.0,
                Square::from(*at),
                hp.0,
                speed.0,
                energy.0,
                sleep.0,
            )
        })
        .collect();
    all.sort_by_key(|m| (m.1.y, m.1.x, m.0));
    all
}

#[test]
fn a_requested_level_fills_the_map_and_spawns_every_monster() {
    let spawned = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(3), AngbandPlugin::default()));
    let counter = spawned.clone();
    app.add_observer(move |event: On<MonsterSpawned>| {
        assert_eq!(event.origin, Origin::FloorPopulation);
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    app.world_mut()
        .write_message(DungeonLevelRequested::new(12));
    app.update();
    let built: Vec<AngbandLevelBuilt> = messages(&app);
    assert_eq!(
        built.len(),
        1,
        "{:?}",
        messages::<AngbandLevelRejected>(&app)
    );
    let built = &built[0];
    let all = monsters(&mut app);
    assert_eq!(all.len(), built.monsters as usize);
    assert_eq!(
        spawned.load(std::sync::atomic::Ordering::Relaxed),
        all.len()
    );
    // 14 + randint(8) + k, k = 4 at depth 12: at least 19 drawn, groups add more.
    assert!(all.len() >= 19, "{} monsters", all.len());
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!((map.width(), map.height()), (198, 66));
    assert_eq!(map.rooms().len(), built.rooms.len());
    let squares: BTreeSet<Square> = all.iter().map(|m| m.1).collect();
    assert_eq!(squares.len(), all.len(), "one monster per square");
    let races = Races::shipped();
    for &(race, at, hp, speed, energy, sleep) in &all {
        assert_ne!(map.tile(at), Tile::Wall, "a monster in the rock at {at:?}");
        assert!(map.is_occupied(at));
        let race = races.get(denizen::angband::RaceId(race)).unwrap();
        let (low, high) = race.hit_dice.bounds();
        assert!(
            (low as i32..=high as i32).contains(&hp),
            "{}: {hp}",
            race.name
        );
        if race.flags.contains(RaceFlags::FORCE_MAXHP) {
            assert_eq!(hp, high as i32);
        }
        assert!(
            // At most +-4: energy 49 at the fastest speeds.
            (speed - i32::from(race.speed)).abs() <= 4,
            "{}: {speed}",
            race.name
        );
        assert!((0..100).contains(&energy));
        let s = i32::from(race.sleep);
        assert!(
            sleep == 0 && s == 0 || (2 * s + 1..=12 * s).contains(&sleep),
            "{}: {sleep}",
            race.name
        );
    }
    let uniques = &app.world().resource::<AngbandUniques>().0;
    let placed: BTreeSet<u16> = all
        .iter()
        .filter(|m| {
            races
                .get(denizen::angband::RaceId(m.0))
                .unwrap()
                .is_unique()
        })
        .map(|m| m.0)
        .collect();
    assert_eq!(uniques.iter().map(|r| r.0).collect::<BTreeSet<_>>(), placed);
}

#[test]
fn the_same_seed_gives_the_same_level() {
    let a = monsters(&mut level(9, DungeonLevelRequested::new(30)));
    let b = monsters(&mut level(9, DungeonLevelRequested::new(30)));
    let c = monsters(&mut level(10, DungeonLevelRequested::new(30)));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn a_host_floor_is_populated_on_its_own_squares() {
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(5), AngbandPlugin::default()));
    let rows: Vec<String> = (0..20)
        .map(|y| {
            (0..40)
                .map(|x| {
                    if x == 0 || y == 0 || x == 39 || y == 19 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let floor = FloorGrid::from_rows(&rows).unwrap();
    app.insert_resource(FloorMap(floor));
    app.world_mut()
        .write_message(DungeonLevelRequested::on_host_floor(5));
    app.update();
    let built: Vec<AngbandLevelBuilt> = messages(&app);
    assert_eq!(built.len(), 1);
    assert!(built[0].rooms.is_empty() && built[0].player.is_none());
    let all = monsters(&mut app);
    assert_eq!(all.len(), built[0].monsters as usize);
    assert!(all.len() >= 14 + 1 + 2);
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!(map.width(), 40);
    for m in &all {
        assert_eq!(map.tile(m.1), Tile::Floor);
    }
}

#[test]
fn impossible_requests_are_refused_with_a_reason() {
    let app = level(1, DungeonLevelRequested::new(0));
    let rejected: Vec<AngbandLevelRejected> = messages(&app);
    assert_eq!(rejected.len(), 1);
    assert!(
        rejected[0].reason.contains("1-127"),
        "{}",
        rejected[0].reason
    );
    let app = level(1, DungeonLevelRequested::new(128));
    assert_eq!(messages::<AngbandLevelRejected>(&app).len(), 1);
    // A host floor larger than Angband's level.
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(1), AngbandPlugin::default()));
    app.insert_resource(FloorMap(FloorGrid::new(300, 10).unwrap()));
    app.world_mut()
        .write_message(DungeonLevelRequested::on_host_floor(5));
    app.update();
    let rejected: Vec<AngbandLevelRejected> = messages(&app);
    assert!(
        rejected[0].reason.contains("larger"),
        "{}",
        rejected[0].reason
    );
    assert_eq!(monsters(&mut app).len(), 0);
}

#[test]
fn the_live_uniques_ledger_is_saved_and_a_foreign_one_is_mended() {
    let app = level(2, DungeonLevelRequested::new(20));
    let saved = denizen::bevy::save::save(app.world()).unwrap();
    let before = app.world().resource::<AngbandUniques>().clone();
    let mut other = App::new();
    other.add_plugins((DenizenPlugin::with_seed(2), AngbandPlugin::default()));
    other.update();
    denizen::bevy::save::load(other.world_mut(), &saved).unwrap();
    assert_eq!(*other.world().resource::<AngbandUniques>(), before);
    // A ledger naming a race that is not a unique (1, the urchin) and one that does not
    // exist is mended before the next level draws.
    let foreign: AngbandUniques = ron::from_str("((alive: [(9000), (1), (1)]))").unwrap();
    other.insert_resource(foreign);
    other
        .world_mut()
        .write_message(DungeonLevelRequested::new(3));
    other.update();
    assert_eq!(messages::<AngbandLevelBuilt>(&other).len(), 1);
    let races = Races::shipped();
    for race in other.world().resource::<AngbandUniques>().0.iter() {
        assert!(races.get(race).unwrap().is_unique());
    }
}
