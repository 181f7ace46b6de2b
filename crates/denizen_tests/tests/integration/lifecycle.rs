//! One floor lifecycle for every rule set, in one world: a floor asked for again is
//! replaced (never merged), ending a floor runs each rule set's step (Angband's uniques go
//! back to the allocator), clock-driven work runs only on its rule set's floors, each rule
//! set's "where the player is" follows floors put away and brought back, a save holds
//! state and never configuration, a request no plugin serves is refused at once, and every
//! answer is written by the end of `DenizenSystems::Arrivals`.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::clock::GameClock;
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::{floors_populated, messages};

/// An app with every plugin and the sewers' reference floor at depth 3 populated.
fn sewers(seed: u64) -> App {
    crate::populated(seed, "sewers", 3)
}

/// Fills `FloorMap` with the reference floor of an Omega location and asks for it.
fn omega_floor(app: &mut App, seed: u64, location: &str, depth: u32) {
    app.insert_resource(FloorMap(reference_floor(WorldSeed(seed), location, depth)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location, depth));
    app.update();
}

/// Creatures awake on a floor.
fn on_floor(app: &mut App, floor: &FloorId) -> Vec<(Entity, GridPos)> {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &GridPos, &OnFloor), (With<Creature>, Without<Dormant>)>()
        .iter(world)
        .filter(|(_, _, on)| on.0 == *floor)
        .map(|(e, at, _)| (e, *at))
        .collect()
}

/// Everything on a floor, awake or dormant.
fn everything_on(app: &mut App, floor: &FloorId) -> usize {
    let world = app.world_mut();
    world
        .query::<&OnFloor>()
        .iter(world)
        .filter(|on| on.0 == *floor)
        .count()
}

#[test]
fn an_omega_floor_asked_for_again_is_populated_afresh() {
    let mut app = sewers(5);
    let floor = FloorId::new("sewers", 3);
    let first = on_floor(&mut app, &floor).len();
    omega_floor(&mut app, 6, "sewers", 3);
    let populated: Vec<OmegaFloorPopulated> = floors_populated::<OmegaFloorRequested>(&app);
    let now = on_floor(&mut app, &floor);
    assert_eq!(
        now.len(),
        populated[0].placed as usize,
        "the old floor's {first} are gone"
    );
    let map = &app.world().resource::<FloorMap>().0;
    assert!(
        now.iter()
            .all(|(_, at)| map.tile(Square::from(*at)) != Tile::Wall)
    );
}

#[test]
fn a_replaced_floor_leaves_the_hosts_marks_on_the_new_map() {
    let mut app = sewers(5);
    let floor = FloorId::new("sewers", 3);
    let (_, old) = on_floor(&mut app, &floor)[0];
    // The host fills the map again and marks its player where an old monster stood.
    let mut map = reference_floor(WorldSeed(5), "sewers", 3);
    map.set_occupied(Square::from(old), true);
    app.insert_resource(FloorMap(map));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 3));
    app.update();
    assert!(
        app.world()
            .resource::<FloorMap>()
            .0
            .is_occupied(Square::from(old))
    );
    assert!(on_floor(&mut app, &floor).iter().all(|(_, at)| *at != old));
}

#[test]
fn a_floor_left_without_being_put_away_is_ended() {
    let mut app = sewers(6);
    let sewers = FloorId::new("sewers", 3);
    assert!(!on_floor(&mut app, &sewers).is_empty());
    omega_floor(&mut app, 6, "goblin-caves", 2);
    assert_eq!(
        everything_on(&mut app, &sewers),
        0,
        "nothing of it stays awake off the map"
    );
    assert!(!on_floor(&mut app, &FloorId::new("goblin-caves", 2)).is_empty());
}

#[test]
fn base_floors_replaced_drop_nothing() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    let bearers = |app: &mut App| {
        let world = app.world_mut();
        world
            .query_filtered::<Entity, With<Carries>>()
            .iter(world)
            .count()
    };
    for _ in 0..2 {
        app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(3), 4)));
        app.world_mut()
            .write_message(CaptiveFloorRequested::new(4, 3));
        app.update();
        assert!(
            bearers(&mut app) > 0,
            "the base's first groups carry its maps"
        );
    }
    assert!(messages::<CaptiveCarryDropped>(&app).is_empty());
    let mut bearers = app.world_mut().query_filtered::<Entity, With<Carries>>();
    let bearer = bearers.iter(app.world()).next().unwrap();
    app.world_mut().despawn(bearer);
    assert_eq!(
        messages::<CaptiveCarryDropped>(&app).len(),
        1,
        "a bearer's death still drops"
    );
}

#[test]
fn a_new_floor_is_entered_once_it_is_populated() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(2));
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    app.add_observer(
        move |entered: On<FloorEntered>, creatures: Query<&OnFloor, With<Creature>>| {
            let here = creatures.iter().filter(|on| on.0 == entered.floor).count();
            log.lock().unwrap().push((entered.entry, here));
        },
    );
    omega_floor(&mut app, 2, "sewers", 3);
    put_floor_away(app.world_mut());
    // Nothing is current now: putting away again changes nothing.
    assert_eq!(put_floor_away(app.world_mut()), None);
    bring_floor_back(app.world_mut(), &FloorId::new("sewers", 3));
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].0, FloorEntry::New);
    assert_eq!(seen[1].0, FloorEntry::BroughtBack);
    assert!(seen[0].1 > 0 && seen[0].1 == seen[1].1, "{seen:?}");
}

#[test]
fn saves_hold_state_not_the_plugins_switches() {
    let mut plain = sewers(7);
    let text = denizen::bevy::save::save(plain.world_mut()).unwrap();
    let mut app = App::new();
    app.add_plugins(
        DenizenPlugins::with_seed(7).set(
            OmegaPlugin::default()
                .exclude_player_square(true)
                .cavern_gap(false),
        ),
    );
    app.update();
    denizen::bevy::save::load(app.world_mut(), &text).unwrap();
    app.update();
    let settings = app.world().resource::<OmegaRuleset>().settings();
    assert!(settings.exclude_player_square && !settings.cavern_gap);
}

/// "Where the player is" follows the current floor for every rule set: on a Captive base
/// the Omega location is no place at all (a new game's), not the sewers left behind; the
/// sewers brought back are the location again.
#[test]
fn the_omega_location_follows_the_current_floor() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(5));
    let sewers = FloorId::new("sewers", 3);
    omega_floor(&mut app, 5, "sewers", 3);
    assert_eq!(
        app.world().resource::<OmegaCurrentLocation>().floor(),
        sewers
    );
    put_floor_away(app.world_mut());
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(5), 2)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(2, 3));
    app.update();
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("base", 2)
    );
    assert_eq!(
        *app.world().resource::<OmegaCurrentLocation>(),
        OmegaCurrentLocation::default(),
        "no Omega place while the player is on a Captive base"
    );
    assert!(bring_floor_back(app.world_mut(), &sewers));
    assert_eq!(
        app.world().resource::<OmegaCurrentLocation>().floor(),
        sewers
    );
}

#[test]
#[should_panic(expected = "no plugin serves it: add `OmegaPlugin`")]
fn a_request_no_plugin_serves_stops_the_app_at_once() {
    // A game that disabled a rule set's plugin and still asks it for a floor.
    let mut app = App::new();
    app.add_plugins(
        DenizenPlugins::with_seed(1)
            .build()
            .disable::<OmegaPlugin>(),
    );
    omega_floor(&mut app, 1, "sewers", 3);
}

/// Arrivals seen by a reader ordered after `DenizenSystems::Arrivals`, as the README says.
#[derive(Resource, Default)]
struct Seen(usize);

#[test]
fn wandering_arrivals_reach_readers_after_arrivals_in_the_same_update() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    app.init_resource::<Seen>();
    app.add_systems(
        Update,
        (|mut checks: MessageReader<OmegaWanderingChecked>, mut seen: ResMut<Seen>| {
            seen.0 += checks
                .read()
                .filter(|check| check.arrival().is_some())
                .count();
        })
        .after(DenizenSystems::Arrivals),
    );
    let observed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = observed.clone();
    app.add_observer(
        move |arrival: On<OmegaWanderingArrival>, creatures: Query<&Species>| {
            assert!(creatures.get(arrival.entity).is_ok());
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        },
    );
    // The Astral Plane's difficulty passes every check.
    omega_floor(&mut app, 3, "astral", 2);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(30);
    app.update();
    let seen = app.world().resource::<Seen>().0;
    assert!(
        seen >= 1,
        "the reader saw {seen} arrivals in the update they came"
    );
    assert_eq!(
        observed.load(std::sync::atomic::Ordering::Relaxed),
        seen,
        "the same arrivals as entity events"
    );
}

#[test]
fn floor_commands_change_levels_from_an_ordinary_system() {
    let mut app = sewers(8);
    let sewers = FloorId::new("sewers", 3);
    let count = on_floor(&mut app, &sewers).len();
    app.world_mut()
        .run_system_once(|mut commands: Commands| commands.put_floor_away())
        .unwrap();
    assert!(on_floor(&mut app, &sewers).is_empty());
    assert_eq!(everything_on(&mut app, &sewers), count);
    let back = sewers.clone();
    app.world_mut()
        .run_system_once(move |mut commands: Commands| commands.bring_floor_back(back.clone()))
        .unwrap();
    assert_eq!(on_floor(&mut app, &sewers).len(), count);
    assert_eq!(app.world().resource::<CurrentFloor>().0, sewers);
    let gone = sewers.clone();
    app.world_mut()
        .run_system_once(move |mut commands: Commands| commands.despawn_floor(gone.clone()))
        .unwrap();
    assert_eq!(everything_on(&mut app, &sewers), 0);
}

use bevy_ecs::system::RunSystemOnce;

#[cfg(feature = "angband_data")]
mod angband {
    use super::*;
    use denizen::angband::Races;

    fn level(app: &mut App, depth: u32) {
        app.world_mut()
            .write_message(AngbandFloorRequested::new(depth));
        app.update();
    }

    /// The uniques alive on a floor.
    fn uniques_on(app: &mut App, floor: &FloorId) -> Vec<denizen::angband::RaceId> {
        let races = Races::shipped();
        let world = app.world_mut();
        world
            .query::<(&AngbandMonster, &OnFloor)>()
            .iter(world)
            .filter(|(m, on)| on.0 == *floor && races.get(m.race).is_some_and(|r| r.is_unique()))
            .map(|(m, _)| m.race)
            .collect()
    }

    #[test]
    fn a_level_asked_for_again_replaces_the_old_one() {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(11));
        let floor = FloorId::new("angband", 5);
        level(&mut app, 5);
        // Away and back again through another level, as stairs would.
        put_floor_away(app.world_mut());
        level(&mut app, 6);
        level(&mut app, 5);
        let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
        let now = on_floor(&mut app, &floor);
        assert_eq!(now.len(), built[0].monsters as usize);
        assert_eq!(
            everything_on(&mut app, &floor),
            now.len() + built[0].objects.len() + built[0].gold.len(),
            "nothing dormant kept: the new level's creatures, objects and gold"
        );
        let map = &app.world().resource::<FloorMap>().0;
        assert!(
            now.iter()
                .all(|(_, at)| map.tile(Square::from(*at)) != Tile::Wall),
            "every creature stands on the new level's floor"
        );
        assert!(
            !app.world()
                .resource::<StoredFloors>()
                .0
                .contains_key(&floor)
        );
    }

    /// Levels at `depth` until one holds at least `n` uniques; its uniques.
    fn level_with_uniques(app: &mut App, depth: u32, n: usize) -> Vec<denizen::angband::RaceId> {
        let floor = FloorId::new("angband", depth);
        for _ in 0..100 {
            level(app, depth);
            let uniques = uniques_on(app, &floor);
            if uniques.len() >= n {
                return uniques;
            }
        }
        panic!("no level of depth {depth} in 100 has {n} uniques");
    }

    #[test]
    fn an_ended_level_gives_its_living_uniques_back() {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(2));
        let floor = FloorId::new("angband", 40);
        let uniques = level_with_uniques(&mut app, 40, 2);
        let ledger = |app: &App| app.world().resource::<AngbandUniques>().0.clone();
        assert!(uniques.iter().all(|&u| ledger(&app).is_alive(u)));
        // Put away, they live on there.
        put_floor_away(app.world_mut());
        assert!(uniques.iter().all(|&u| ledger(&app).is_alive(u)));
        bring_floor_back(app.world_mut(), &floor);
        // Despawned, they can appear again; a killed one cannot.
        app.world_mut()
            .resource_mut::<AngbandUniques>()
            .0
            .kill(uniques[0]);
        despawn_floor(app.world_mut(), &floor);
        let after = ledger(&app);
        assert!(uniques[1..].iter().all(|&u| !after.refuses(u)));
        assert!(after.is_killed(uniques[0]));
    }

    /// After a level is made, exactly its uniques are alive.
    fn alive_are_those_of(app: &mut App, floor: &FloorId) {
        let alive: Vec<_> = app.world().resource::<AngbandUniques>().0.iter().collect();
        let mut expected = uniques_on(app, floor);
        expected.sort();
        assert_eq!(alive, expected, "only the new level's uniques are alive");
    }

    #[test]
    fn replacing_or_leaving_a_level_gives_its_uniques_back_too() {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(2));
        let floor = FloorId::new("angband", 30);
        level_with_uniques(&mut app, 30, 1);
        // Replaced.
        level(&mut app, 30);
        alive_are_those_of(&mut app, &floor);
        // Put away, then replaced.
        level_with_uniques(&mut app, 30, 1);
        put_floor_away(app.world_mut());
        level(&mut app, 30);
        alive_are_those_of(&mut app, &floor);
        // Left for another depth without being put away.
        level_with_uniques(&mut app, 30, 1);
        level(&mut app, 31);
        alive_are_those_of(&mut app, &FloorId::new("angband", 31));
    }

    #[test]
    fn omega_wanders_only_on_omega_floors() {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(4));
        omega_floor(&mut app, 4, "astral", 2);
        put_floor_away(app.world_mut());
        level(&mut app, 5);
        let angband = FloorId::new("angband", 5);
        let monsters = on_floor(&mut app, &angband).len();
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(300);
        app.update();
        let skipped = crate::wandering_skips(&app);
        assert!(
            matches!(skipped.as_slice(), [OmegaWanderingSkip::NotOurFloor(_)]),
            "{skipped:?}"
        );
        // On an Angband level the player is in no Omega place.
        assert_eq!(
            *app.world().resource::<OmegaCurrentLocation>(),
            OmegaCurrentLocation::default()
        );
        let world = app.world_mut();
        let omega_here = world
            .query_filtered::<&OnFloor, With<Species>>()
            .iter(world)
            .filter(|on| on.0 == angband)
            .count();
        assert_eq!(omega_here, 0);
        assert_eq!(on_floor(&mut app, &angband).len(), monsters);
        // Nor is an Omega summons served on it.
        let player = Square { x: 1, y: 1 };
        app.world_mut()
            .write_message(OmegaSummonRequested::new(7, player, SummonKind::Ordinary));
        app.update();
        let summons = crate::summoned(&app);
        assert!(
            matches!(summons.as_slice(), [Err(OmegaNothingMade::NotOurFloor(NotOurFloor { floor, .. }))] if *floor == angband),
            "{summons:?}"
        );
        assert_eq!(on_floor(&mut app, &angband).len(), monsters);

        // Back on the Astral Plane, its wanderers come again, and no Angband trap springs.
        let astral = FloorId::new("astral", 2);
        bring_floor_back(app.world_mut(), &astral);
        assert_eq!(
            app.world().resource::<OmegaCurrentLocation>().floor(),
            astral
        );
        app.world_mut().write_message(AngbandTrapSpringRequested {
            at: player,
            armour: 0,
        });
        app.update();
        let traps: Vec<AngbandTrapSprung> = messages(&app);
        assert!(
            matches!(traps[0].refusal(), Some(AngbandTrapRefusal::NotOurFloor(NotOurFloor { floor, maker, .. })) if *floor == astral && maker.is("Omega")),
            "{traps:?}"
        );
        let before = on_floor(&mut app, &astral).len();
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(30);
        app.update();
        assert!(on_floor(&mut app, &astral).len() > before);
    }

    #[test]
    fn a_level_brought_back_is_the_one_traps_spring_on() {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(9));
        level(&mut app, 5);
        put_floor_away(app.world_mut());
        // Sauron's level after his quest is won is no quest level, as the host said.
        app.world_mut()
            .write_message(AngbandFloorRequested::new(99).with_quest(false));
        app.update();
        put_floor_away(app.world_mut());
        // A quest level by request, at a depth that is none.
        app.world_mut()
            .write_message(AngbandFloorRequested::new(40).with_quest(true));
        app.update();
        put_floor_away(app.world_mut());
        level(&mut app, 60);
        assert_eq!(app.world().resource::<AngbandLastLevel>().depth, 60);
        for (depth, quest) in [(5, false), (99, false), (40, true)] {
            bring_floor_back(app.world_mut(), &FloorId::new("angband", depth));
            let last = *app.world().resource::<AngbandLastLevel>();
            assert_eq!((last.depth, last.quest), (depth, quest));
        }
    }
}
