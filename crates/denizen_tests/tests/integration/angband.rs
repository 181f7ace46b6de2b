//! Angband levels through the plugin: the level in `FloorMap`, one entity per monster with
//! every component, the live-uniques ledger, host floors, refusals and saves.

use std::collections::BTreeSet;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::angband::{ArtifactId, RaceFlags, Races};
use denizen::bevy::clock::GameClock;
use denizen::bevy::prelude::*;

use crate::{floors_populated, floors_refused, messages};

/// An app with the neutral and Angband plugins after one level request.
fn level(seed: u64, request: AngbandFloorRequested) -> App {
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
        assert_eq!(event.origin, Origin::FLOOR_POPULATION);
        counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    app.world_mut()
        .write_message(AngbandFloorRequested::new(12));
    app.update();
    let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
    assert_eq!(
        built.len(),
        1,
        "{:?}",
        floors_refused::<AngbandFloorRequested>(&app)
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
    let a = monsters(&mut level(9, AngbandFloorRequested::new(30)));
    let b = monsters(&mut level(9, AngbandFloorRequested::new(30)));
    let c = monsters(&mut level(10, AngbandFloorRequested::new(30)));
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
        .write_message(AngbandFloorRequested::on_host_floor(5));
    app.update();
    let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
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
    let app = level(1, AngbandFloorRequested::new(0));
    let rejected: Vec<AngbandFloorRefusal> = floors_refused::<AngbandFloorRequested>(&app);
    assert_eq!(rejected.len(), 1);
    assert!(rejected[0].to_string().contains("1-127"), "{}", rejected[0]);
    let app = level(1, AngbandFloorRequested::new(128));
    assert_eq!(floors_refused::<AngbandFloorRequested>(&app).len(), 1);
    // A greater vault needs depth 10.
    let forced =
        AngbandFloorRequested::new(7).with_room(denizen::angband::layout::RoomChoice::GreaterVault);
    let app = level(1, forced);
    let rejected: Vec<AngbandFloorRefusal> = floors_refused::<AngbandFloorRequested>(&app);
    assert!(
        rejected[0].to_string().contains("depth 10"),
        "{}",
        rejected[0]
    );
    // A host floor larger than Angband's level.
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(1), AngbandPlugin::default()));
    app.insert_resource(FloorMap(FloorGrid::new(300, 10).unwrap()));
    app.world_mut()
        .write_message(AngbandFloorRequested::on_host_floor(5));
    app.update();
    let rejected: Vec<AngbandFloorRefusal> = floors_refused::<AngbandFloorRequested>(&app);
    assert!(
        rejected[0].to_string().contains("larger"),
        "{}",
        rejected[0]
    );
    assert_eq!(monsters(&mut app).len(), 0);
}

#[test]
fn the_live_uniques_ledger_is_saved_and_a_foreign_one_is_mended() {
    let app = level(2, AngbandFloorRequested::new(20));
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
        .write_message(AngbandFloorRequested::new(3));
    other.update();
    assert_eq!(floors_populated::<AngbandFloorRequested>(&other).len(), 1);
    let races = Races::shipped();
    for race in other.world().resource::<AngbandUniques>().0.iter() {
        assert!(races.get(race).unwrap().is_unique());
    }
}

#[test]
fn a_level_sends_its_feeling_and_a_quick_return_feels_like_any_other() {
    let mut app = level(21, AngbandFloorRequested::new(15));
    let feelings: Vec<AngbandLevelFeeling> = messages(&app);
    let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
    assert_eq!(feelings.len(), 1);
    assert_eq!(feelings[0].feeling, built[0].feeling);
    // The first level of a game has no previous level to have left too soon.
    assert_ne!(built[0].feeling, Feeling::LooksLikeAnyOther);
    // 999 game turns later the next level looks like any other; 1000 later it does not.
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_turns(999);
    app.world_mut()
        .write_message(AngbandFloorRequested::new(16));
    app.update();
    let feelings: Vec<AngbandLevelFeeling> = messages(&app);
    assert_eq!(feelings[0].feeling, Feeling::LooksLikeAnyOther);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_turns(1000);
    app.world_mut()
        .write_message(AngbandFloorRequested::new(17));
    app.update();
    let feelings: Vec<AngbandLevelFeeling> = messages(&app);
    assert_ne!(feelings[0].feeling, Feeling::LooksLikeAnyOther);
    // Game minutes are not game turns: a day of minutes with no turns is a quick return.
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(24 * 60);
    app.world_mut()
        .write_message(AngbandFloorRequested::new(18));
    app.update();
    let feelings: Vec<AngbandLevelFeeling> = messages(&app);
    assert_eq!(feelings[0].feeling, Feeling::LooksLikeAnyOther);
}

#[test]
fn the_autoscummer_keeps_interesting_levels_and_sometimes_stops_at_101() {
    for (autoscum, depth) in [(Autoscum::Sometimes, 30), (Autoscum::Always, 40)] {
        let mut app = App::new();
        app.add_plugins((
            DenizenPlugin::with_seed(6),
            AngbandPlugin::default().autoscum(autoscum),
        ));
        for _ in 0..3 {
            app.world_mut()
                .write_message(AngbandFloorRequested::new(depth));
            app.update();
            let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
            let built = &built[0];
            if autoscum == Autoscum::Sometimes {
                assert!(built.rejected_levels <= 100);
            }
            // What is kept meets the spoiler's chart (the least rating kept: 31 from depth
            // 20, 41 from 40), or is special or "like any other", or came after the 100
            // tries of "sometimes".
            let least_kept = if depth >= 40 { 41 } else { 31 };
            let passes = built.rating >= least_kept
                || matches!(built.feeling, Feeling::Special | Feeling::LooksLikeAnyOther);
            assert!(passes || built.rejected_levels == 100, "{built:?}");
            app.world_mut()
                .resource_mut::<GameClock>()
                .advance_turns(2000);
        }
    }
}

#[test]
fn rooms_ask_for_objects_and_an_appraiser_counts_them() {
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(8), AngbandPlugin::default()));
    // Every object an artifact worth 20: any level with objects is special.
    app.insert_resource(AngbandAppraiser(|_| Appraisal {
        rating: 20,
        artifact: true,
    }));
    let mut seen = 0;
    for depth in [20, 30, 40, 50, 60] {
        app.world_mut()
            .write_message(AngbandFloorRequested::new(depth));
        app.update();
        let objects: Vec<AngbandObjectRequested> = messages(&app);
        let built: Vec<AngbandFloorPopulated> = floors_populated::<AngbandFloorRequested>(&app);
        let map = &app.world().resource::<FloorMap>().0;
        for object in &objects {
            assert_eq!(object.depth, depth);
            assert_ne!(map.tile(object.at), Tile::Wall, "an object in the rock");
            assert!(object.level >= depth as i32);
        }
        if !objects.is_empty() {
            seen += 1;
            assert!(built[0].special);
            assert!(built[0].rating >= 20 * objects.len() as i32);
        }
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(2000);
    }
    assert!(seen > 0, "some room put down an object");
}

#[test]
fn traps_spring_and_a_full_floor_summons_nothing() {
    let mut app = level(5, AngbandFloorRequested::new(25));
    let player = floors_populated::<AngbandFloorRequested>(&app)[0]
        .player
        .unwrap();
    let terrain = app.world().resource::<AngbandTerrain>().clone();
    let trap = terrain
        .squares()
        .find(|&(_, t)| t == denizen::angband::Terrain::Trap)
        .map(|(at, _)| at)
        .expect("level 25 has a trap");
    // Where no trap lies (the player's square), nothing springs.
    app.world_mut().write_message(AngbandTrapSpringRequested {
        at: player,
        armour: 30,
    });
    app.update();
    let refused: Vec<AngbandTrapSprung> = messages(&app);
    assert_eq!(
        refused[0].refusal(),
        Some(&AngbandTrapRefusal::NoTrap { at: player })
    );
    let before = monsters(&mut app).len();
    let (mut summoned, mut runes, mut answered) = (0, 0, 0);
    for _ in 0..60 {
        app.world_mut().write_message(AngbandTrapSpringRequested {
            at: trap,
            armour: 30,
        });
        app.update();
        let answers: Vec<AngbandTrapSprung> = messages(&app);
        assert_eq!(answers.len(), 1);
        let sprung = [answers[0].arrival().cloned().unwrap()];
        let outcome = &sprung[0].outcome;
        if let Some((count, level)) = outcome.summons {
            assert!((3..=5).contains(&count) && level == 30);
            runes += 1;
            answered += usize::from(!sprung[0].summoned.is_empty());
        } else {
            assert!(sprung[0].summoned.is_empty());
        }
        // Summoned monsters are awake; the callers stand within 2 of the trap.
        for &entity in &sprung[0].summoned {
            let world = app.world();
            let monster = world.get::<AngbandMonster>(entity).unwrap();
            assert_eq!(world.get::<SleepCounter>(entity).unwrap().0, 0);
            if monster.placement == denizen::angband::Placement::Summoned {
                let at = Square::from(*world.get::<GridPos>(entity).unwrap());
                assert!(at.x.abs_diff(trap.x) <= 2 && at.y.abs_diff(trap.y) <= 2);
            }
        }
        summoned += sprung[0].summoned.len();
    }
    // Round a trap of an open level there is room: most runes bring
    // someone (a rune's 3 to 5 calls can all miss, or all draw nothing).
    assert!(runes > 0, "60 traps, no summoning rune among them");
    assert!(
        2 * answered >= runes,
        "{answered} of {runes} runes summoned anyone"
    );
    assert_eq!(monsters(&mut app).len(), before + summoned);
    // A floor with no free square: every trap still answers, nothing is summoned.
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(5), AngbandPlugin::default()));
    app.insert_resource(FloorMap(
        FloorGrid::from_rows(&["###", "#.#", "###"]).unwrap(),
    ));
    // Until it is an Angband level, a trap is refused; a host floor the game names
    // `angband` is no level either.
    let at = Square { x: 1, y: 1 };
    for current in [None, Some(FloorId::new("angband", 5))] {
        if let Some(floor) = current {
            app.insert_resource(CurrentFloor(floor));
        }
        app.world_mut()
            .write_message(AngbandTrapSpringRequested { at, armour: 0 });
        app.update();
        let refused: Vec<AngbandTrapSprung> = messages(&app);
        assert!(
            matches!(
                refused[0].refusal(),
                Some(AngbandTrapRefusal::NotOurFloor(NotOurFloor { asked, .. })) if asked.is("Angband")
            ),
            "{refused:?}"
        );
    }
    // Asked to serve it (its base population on the host's map), it is Angband's level.
    app.world_mut()
        .write_message(AngbandFloorRequested::on_host_floor(5));
    app.update();
    for i in 0..60 {
        // Half on the floor's one square, half on squares no floor has.
        let at = if i % 2 == 0 {
            Square { x: 1, y: 1 }
        } else {
            Square {
                x: u32::MAX - i,
                y: u32::MAX,
            }
        };
        app.world_mut()
            .write_message(AngbandTrapSpringRequested { at, armour: 0 });
        app.update();
        let sprung: Vec<AngbandTrapSprung> = messages(&app);
        assert!(sprung[0].arrival().unwrap().summoned.is_empty());
    }
}

/// `AngbandFloorPopulated` lists the stairs: 3 or 4 down staircases and 1 or 2 up ones
/// (`rand_range(3, 4)` and `rand_range(1, 2)`), less any that found no grid; on a quest
/// level every staircase is an up one (4 to 6, none down). Each stands on a `Stairs`
/// tile of the map, and every `Stairs` tile is listed.
#[test]
fn a_level_lists_its_stairs() {
    for (depth, quest) in [(7, false), (30, false), (99, true)] {
        let request = AngbandFloorRequested {
            quest,
            ..AngbandFloorRequested::new(depth)
        };
        let app = level(5, request);
        let built = &floors_populated::<AngbandFloorRequested>(&app)[0];
        let (up, down) = (built.up_stairs.len(), built.down_stairs.len());
        if quest {
            assert!(
                (4..=6).contains(&up) && down == 0,
                "quest: {up} up, {down} down"
            );
        } else {
            assert!(
                (1..=2).contains(&up) && (3..=4).contains(&down),
                "{up} up, {down} down"
            );
        }
        let map = &app.world().resource::<FloorMap>().0;
        let mut listed: Vec<Square> = built
            .up_stairs
            .iter()
            .chain(&built.down_stairs)
            .copied()
            .collect();
        listed.sort_by_key(|s| (s.y, s.x));
        let tiles: Vec<Square> = map
            .squares()
            .filter(|&s| map.tile(s) == Tile::Stairs)
            .collect();
        assert_eq!(listed, tiles, "depth {depth}");
    }
}

/// Each level comes with the objects and gold the rules made, on floor squares; their
/// rating is part of the level's; the artifacts made are the ones `AngbandArtifacts`
/// (saved) keeps, each made once.
#[test]
fn a_level_brings_its_objects_and_gold_and_keeps_its_artifacts() {
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(12), AngbandPlugin::default()));
    let (mut objects, mut gold, mut artifacts) = (0usize, 0usize, Vec::new());
    let levels = 12;
    for depth in 1..=levels {
        app.world_mut()
            .write_message(AngbandFloorRequested::new(depth * 5));
        app.update();
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        let map = &app.world().resource::<FloorMap>().0;
        for (at, _) in built
            .objects
            .iter()
            .map(|(at, o)| (at, o.kind))
            .chain(built.gold.iter().map(|(at, g)| (at, g.kind)))
        {
            assert_eq!(
                map.tile(*at),
                Tile::Floor,
                "an object off the floor at {at:?}"
            );
        }
        let rating: i32 = built.objects.iter().map(|(_, o)| o.rating).sum();
        assert_eq!(built.object_rating, rating);
        assert!(built.rating >= built.monster_rating + rating);
        artifacts.extend(built.objects.iter().filter_map(|(_, o)| o.artifact));
        objects += built.objects.len();
        gold += built.gold.len();
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(2000);
    }
    // About 12 objects and 3 gold a level (object notes 1.1: 9.0 + 3.2 and 3.2).
    let per_level = |n: usize| n as f64 / f64::from(levels);
    assert!(
        (9.0..16.0).contains(&per_level(objects)),
        "{objects} objects"
    );
    assert!((1.5..5.5).contains(&per_level(gold)), "{gold} gold");
    let made: Vec<_> = app
        .world()
        .resource::<AngbandArtifacts>()
        .0
        .iter()
        .collect();
    let mut unique = artifacts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), artifacts.len(), "an artifact made twice");
    assert_eq!(made, unique);
}

/// The level's objects and gold are entities on their squares (never creatures: they
/// mark no square), end with their level, and a game with its own items can turn them
/// off and keep the data.
#[test]
fn objects_are_entities_unless_turned_off() {
    for entities in [true, false] {
        let mut app = App::new();
        app.add_plugins((
            DenizenPlugin::with_seed(14),
            AngbandPlugin::default().object_entities(entities),
        ));
        app.world_mut()
            .write_message(AngbandFloorRequested::new(30));
        app.update();
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        assert!(!built.objects.is_empty() && !built.gold.is_empty());
        let world = app.world_mut();
        let mut objects: Vec<(Square, AngbandObject)> = world
            .query_filtered::<(&GridPos, &AngbandObject), Without<Creature>>()
            .iter(world)
            .map(|(at, o)| (Square::from(*at), o.clone()))
            .collect();
        let gold = world.query::<&AngbandGold>().iter(world).count();
        if !entities {
            assert_eq!((objects.len(), gold), (0, 0));
            continue;
        }
        let mut expected: Vec<(Square, AngbandObject)> = built
            .objects
            .iter()
            .map(|(at, o)| (*at, AngbandObject(o.clone())))
            .collect();
        objects.sort_by_key(|(at, o)| (at.y, at.x, o.0.kind));
        expected.sort_by_key(|(at, o)| (at.y, at.x, o.0.kind));
        assert_eq!(objects, expected);
        assert_eq!(gold, built.gold.len());
        let map = &world.resource::<FloorMap>().0;
        let marked = map.squares().filter(|&s| map.is_occupied(s)).count();
        assert_eq!(marked, built.monsters as usize, "objects mark no square");
        // The next level ends this one's objects with its monsters.
        world.write_message(AngbandFloorRequested::new(31));
        app.update();
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        let world = app.world_mut();
        let left = world.query::<&AngbandObject>().iter(world).count();
        assert_eq!(left, built.objects.len());
    }
}

/// An observer of the monsters' spawns that despawns the level: the monsters spawned
/// after, and the objects and gold spawned after the monsters, go with it.
#[test]
fn a_level_despawned_while_it_is_spawned_takes_its_objects() {
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(14), AngbandPlugin::default()));
    app.add_observer(
        |_: On<Add<Creature>>,
         floor: Res<CurrentFloor>,
         mut commands: Commands,
         mut once: Local<bool>| {
            if !std::mem::replace(&mut *once, true) {
                commands.despawn_floor(floor.0.clone());
            }
        },
    );
    app.world_mut()
        .write_message(AngbandFloorRequested::new(30));
    app.update();
    let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
    assert!(built.monsters > 1 && !built.objects.is_empty());
    let world = app.world_mut();
    let left = world
        .query_filtered::<(), Or<(With<OnFloor>, With<AngbandObject>, With<AngbandGold>)>>()
        .iter(world)
        .count();
    assert_eq!(left, 0, "everything went with its level");
}

/// In preserve mode, a level despawned by an observer of its monsters' spawns gives back
/// the artifacts among the objects spawned after the monsters, as a level left does: no
/// artifact stays made.
#[test]
fn a_level_despawned_while_it_is_spawned_gives_its_artifacts_back_in_preserve_mode() {
    use denizen::angband::layout::RoomChoice;
    #[derive(Resource, Default)]
    struct Armed(bool);
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(16),
        AngbandPlugin::default().preserve(true),
    ))
    .init_resource::<Armed>();
    app.add_observer(
        |_: On<Add<Creature>>,
         floor: Res<CurrentFloor>,
         mut armed: ResMut<Armed>,
         mut commands: Commands| {
            if std::mem::take(&mut armed.0) {
                commands.despawn_floor(floor.0.clone());
            }
        },
    );
    for depth in 60..80 {
        app.world_mut().resource_mut::<Armed>().0 = true;
        app.world_mut()
            .write_message(AngbandFloorRequested::new(depth).with_room(RoomChoice::GreaterVault));
        app.update();
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        let made: Vec<ArtifactId> = app
            .world()
            .resource::<AngbandArtifacts>()
            .0
            .iter()
            .collect();
        assert_eq!(made, [], "depth {depth}");
        if built.objects.iter().any(|(_, o)| o.artifact.is_some()) {
            return;
        }
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(2000);
    }
    panic!("no greater vault of depth 60 to 79 made an artifact");
}

/// `AngbandTerrain` names what `FloorMap` flattens: each wall, vein and rubble square is
/// rock of its kind, each door its kind, the stairs up or down; veins show treasure now
/// and then. It follows a level put away and brought back.
#[test]
fn the_terrain_layer_names_what_the_map_flattens() {
    use denizen::angband::terrain::Terrain;
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(15), AngbandPlugin::default()));
    let mut treasure = 0;
    let mut first = None;
    for depth in [10, 11, 12] {
        app.world_mut()
            .write_message(AngbandFloorRequested::new(depth));
        app.update();
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        let terrain = app.world().resource::<AngbandTerrain>().clone();
        assert_eq!(terrain.depth, depth);
        let map = &app.world().resource::<FloorMap>().0;
        for (at, kind) in terrain.squares() {
            let rock = matches!(
                kind,
                Terrain::Rubble
                    | Terrain::Magma { .. }
                    | Terrain::Quartz { .. }
                    | Terrain::Granite(_)
                    | Terrain::Permanent(_)
            );
            assert_eq!(map.tile(at) == Tile::Wall, rock, "{at:?}: {kind:?}");
            let door = matches!(
                kind,
                Terrain::OpenDoor
                    | Terrain::BrokenDoor
                    | Terrain::ClosedDoor
                    | Terrain::LockedDoor(_)
                    | Terrain::JammedDoor(_)
            );
            assert_eq!(map.tile(at) == Tile::Door, door, "{at:?}: {kind:?}");
            assert_eq!(map.tile(at) == Tile::Secret, kind == Terrain::SecretDoor);
            treasure += usize::from(matches!(
                kind,
                Terrain::Magma { treasure: true } | Terrain::Quartz { treasure: true }
            ));
        }
        for at in &built.up_stairs {
            assert_eq!(terrain.at(*at), Some(Terrain::UpStairs));
        }
        for at in &built.down_stairs {
            assert_eq!(terrain.at(*at), Some(Terrain::DownStairs));
        }
        for at in &built.rubble {
            assert_eq!(terrain.at(*at), Some(Terrain::Rubble));
        }
        assert_eq!(
            terrain.at(Square { x: 0, y: 0 }),
            Some(Terrain::Permanent(
                denizen::angband::terrain::Permanent::Solid
            ))
        );
        assert_eq!(terrain.at(Square { x: 198, y: 0 }), None);
        if first.is_none() {
            first = Some(terrain);
            put_floor_away(app.world_mut());
        }
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(2000);
    }
    assert!(treasure > 0, "veins show treasure one time in 90 or 40");
    let first = first.unwrap();
    put_floor_away(app.world_mut());
    assert!(bring_floor_back(
        app.world_mut(),
        &FloorId::new("angband", 10)
    ));
    assert_eq!(*app.world().resource::<AngbandTerrain>(), first);
}

/// Greater vaults make artifacts: each is kept in `AngbandArtifacts` and never made
/// again; in preserve mode those still lying on a level that is left can be made again.
#[test]
fn artifacts_are_made_once_and_preserve_mode_gives_back_the_ones_left_lying() {
    use denizen::angband::layout::RoomChoice;
    for preserve in [false, true] {
        let mut app = App::new();
        app.add_plugins((
            DenizenPlugin::with_seed(16),
            AngbandPlugin::default().preserve(preserve),
        ));
        let mut made: Vec<ArtifactId> = Vec::new();
        let mut last_level = Vec::new();
        for depth in 60..66 {
            app.world_mut().write_message(
                AngbandFloorRequested::new(depth).with_room(RoomChoice::GreaterVault),
            );
            app.update();
            let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
            last_level = built
                .objects
                .iter()
                .filter_map(|(_, o)| o.artifact)
                .collect();
            for artifact in &last_level {
                assert!(
                    preserve || !made.contains(artifact),
                    "{artifact:?} made twice"
                );
                made.push(*artifact);
            }
            app.world_mut()
                .resource_mut::<GameClock>()
                .advance_turns(2000);
        }
        assert!(made.len() > 2, "greater vaults make artifacts: {made:?}");
        let ledger: Vec<ArtifactId> = app
            .world()
            .resource::<AngbandArtifacts>()
            .0
            .iter()
            .collect();
        let mut expected = if preserve { last_level } else { made };
        expected.sort();
        expected.dedup();
        assert_eq!(ledger, expected, "preserve {preserve}");
    }
}

/// The plugin's first level at a depth is the rules' first new-game level from the same
/// world seed (`NewGameLevels`, `streams::level_stream`): the golden levels of
/// `denizen_angband` are what a game gets.
#[test]
fn the_plugin_makes_the_rules_new_game_levels() {
    use denizen::angband::sample::NewGameLevels;
    use denizen::angband::{Allocator, Autoscum, ObjectRules};
    use denizen::prelude::WorldSeed;
    for (seed, depth) in [(1u64, 5u32), (2, 30), (3, 60)] {
        let mut app = level(seed, AngbandFloorRequested::new(depth));
        let built = floors_populated::<AngbandFloorRequested>(&app).remove(0);
        let kept = NewGameLevels {
            depth: depth as i32,
            autoscum: Autoscum::Off,
            preserve: false,
            seed: WorldSeed(seed),
        }
        .level(
            0,
            &Allocator::new(Races::shipped()),
            &ObjectRules::shipped(),
        );
        let mut expected: Vec<_> = kept
            .level
            .monsters
            .iter()
            .map(|m| (m.race.0, m.at.square(), m.hp, m.speed, m.energy, m.sleep))
            .collect();
        let mut made = monsters(&mut app);
        for list in [&mut expected, &mut made] {
            list.sort_by_key(|m| (m.1.y, m.1.x));
        }
        assert_eq!(made, expected, "seed {seed}, depth {depth}");
        let objects: Vec<Square> = kept.level.objects.iter().map(|o| o.at.square()).collect();
        let made: Vec<Square> = built.objects.iter().map(|(at, _)| *at).collect();
        assert_eq!(made, objects, "seed {seed}, depth {depth}");
        assert_eq!(built.rating, kept.rating);
    }
}

/// `text` with the number after the first `key` following `anchor` made `value`.
fn with_number(text: &str, (anchor, key): (&str, &str), value: usize) -> String {
    let at = text.find(anchor).expect("the anchor is in the save");
    let start = at + text[at..].find(key).expect("the key follows") + key.len();
    let end = start + text[start..].find(|c: char| !c.is_ascii_digit()).unwrap();
    format!("{}{value}{}", &text[..start], &text[end..])
}

/// A save of other data (a race past the rules' last, an object kind past theirs) is
/// refused whole, naming the entity, rather than loaded as unknown monsters and objects;
/// the world is unchanged.
#[test]
fn a_race_or_object_the_rules_do_not_have_is_refused() {
    use denizen::bevy::save::{SaveError, load, save};
    let app = level(6, AngbandFloorRequested::new(10));
    let text = save(app.world()).unwrap();
    let race = Races::shipped().len() + 1;
    let cases = [
        (
            with_number(&text, ("components::AngbandMonster\": (", "race: ("), race),
            "AngbandMonster",
            format!("is of race {race}, which the rules do not have"),
        ),
        (
            with_number(&text, ("components::AngbandObject\": (", "kind: ("), 9999),
            "AngbandObject",
            "is of kind 9999, which the rules do not have".to_owned(),
        ),
    ];
    for (broken, path, says) in cases {
        assert_ne!(broken, text);
        let mut target = level(7, AngbandFloorRequested::new(10));
        let before = save(target.world()).unwrap();
        match load(target.world_mut(), &broken) {
            Err(SaveError::Impossible { type_path, message }) => {
                assert_eq!(type_path, path);
                assert!(message.ends_with(&says), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(save(target.world()).unwrap(), before);
    }
}
