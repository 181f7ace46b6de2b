//! The living world through the plugin: the clock and its checks, wandering arrivals,
//! summoning, countryside encounters, fixed inhabitants and construction variants.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::{
    floors_populated, floors_refused, messages, populated, summoned, wandering_arrivals,
    wandering_skips,
};

#[derive(Resource, Default)]
struct Checks(Vec<&'static str>);

fn count_checks(app: &mut App) {
    app.init_resource::<Checks>()
        .add_systems(TenMinuteCheck, |mut c: ResMut<Checks>| c.0.push("ten"))
        .add_systems(HourlyCheck, |mut c: ResMut<Checks>| c.0.push("hour"));
}

#[test]
fn advancing_125_minutes_runs_12_checks_with_hourly_instead_of_every_sixth() {
    let mut app = populated(1, "goblin-caves", 2);
    count_checks(&mut app);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(125);
    app.update();
    let checks = app.world().resource::<Checks>().0.clone();
    assert_eq!(checks.len(), 12);
    let expected: Vec<&str> = (1..=12)
        .map(|n| if n % 6 == 0 { "hour" } else { "ten" })
        .collect();
    assert_eq!(checks, expected);
    // Nothing more until the next boundary; 5 more minutes reach minute 130.
    app.update();
    assert_eq!(app.world().resource::<Checks>().0.len(), 12);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(5);
    app.update();
    assert_eq!(app.world().resource::<Checks>().0.len(), 13);
    // The host can run the hourly check directly for a long action.
    app.world_mut().run_schedule(HourlyCheck);
    assert_eq!(app.world().resource::<Checks>().0.last(), Some(&"hour"));
}

/// A game that starts its day at 06:00 runs no checks for the night before, and the
/// clock reads its day, hour and minute.
#[test]
fn a_clock_can_start_at_any_time_without_the_past_checks() {
    let mut app = populated(1, "goblin-caves", 2);
    count_checks(&mut app);
    app.insert_resource(GameClock::at_time(0, 6, 0));
    app.update();
    assert!(app.world().resource::<Checks>().0.is_empty());
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(10);
    app.update();
    assert_eq!(app.world().resource::<Checks>().0, ["ten"]);
    let clock = GameClock::at(2 * 1440 + 13 * 60 + 7);
    assert_eq!((clock.day(), clock.hour(), clock.minute()), (2, 13, 7));
    assert_eq!(clock.to_string(), "day 2, 13:07");
    assert_eq!(GameClock::at_time(1, 0, 0).to_string(), "day 1, 00:00");
    assert_eq!(GameClock::at_time(u64::MAX, 23, 59).minutes, u64::MAX);
}

/// A clock from a save far behind (or at the end of time) runs the most recent
/// `MAX_CHECKS_PER_RUN` checks, says how many it skipped, and never overflows.
#[test]
fn a_clock_far_behind_skips_its_oldest_checks_and_says_so() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1));
    count_checks(&mut app);
    app.insert_resource(GameClock {
        minutes: u64::MAX,
        boundaries_checked: 0,
        ..GameClock::default()
    });
    app.update();
    let ran = app.world().resource::<Checks>().0.len() as u64;
    assert_eq!(ran, denizen::bevy::clock::MAX_CHECKS_PER_RUN);
    let skipped: Vec<ChecksSkipped> = messages(&app);
    assert_eq!(
        skipped,
        [ChecksSkipped {
            skipped: u64::MAX / 10 - ran
        }]
    );
    let clock = *app.world().resource::<GameClock>();
    assert_eq!(clock.boundaries_checked, u64::MAX / 10);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(1_000);
    assert_eq!(app.world().resource::<GameClock>().minutes, u64::MAX);
    app.update();
    assert_eq!(app.world().resource::<Checks>().0.len() as u64, ran);
}

/// Minutes and turns are two counts: without a rate each advances alone (turns run no
/// check); with one, advancing either advances the other, turns left over from one advance
/// counting toward the next minute, and nothing overflows.
#[test]
fn minutes_and_turns_advance_apart_or_at_the_clocks_rate() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1));
    count_checks(&mut app);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_turns(5_000);
    app.update();
    let clock = *app.world().resource::<GameClock>();
    assert_eq!((clock.minutes, clock.turns), (0, 5_000));
    assert!(
        app.world().resource::<Checks>().0.is_empty(),
        "turns run no check"
    );
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(30);
    app.update();
    let clock = *app.world().resource::<GameClock>();
    assert_eq!((clock.minutes, clock.turns), (30, 5_000));
    assert_eq!(app.world().resource::<Checks>().0.len(), 3);

    let mut clock = GameClock::at(0).with_turns_per_minute(10);
    for _ in 0..7 {
        clock.advance_turns(3);
    }
    assert_eq!(
        (clock.minutes, clock.turns, clock.turns_into_minute),
        (2, 21, 1)
    );
    clock.advance_turns(19);
    assert_eq!((clock.minutes, clock.turns_into_minute), (4, 0));
    clock.advance_minutes(6);
    assert_eq!((clock.minutes, clock.turns), (10, 100));
    let mut huge = GameClock::at(0).with_turns_per_minute(u64::MAX);
    huge.advance_turns(u64::MAX - 1);
    huge.advance_turns(u64::MAX - 1);
    assert_eq!(
        (huge.minutes, huge.turns, huge.turns_into_minute),
        (1, u64::MAX, u64::MAX - 2)
    );
    huge.advance_minutes(u64::MAX);
    assert_eq!((huge.minutes, huge.turns), (u64::MAX, u64::MAX));
    let apart = GameClock::at(0)
        .with_turns_per_minute(10)
        .with_turns_per_minute(0);
    assert_eq!(apart.turns_per_minute, None);
}

fn monster_count(app: &mut App) -> usize {
    let world = app.world_mut();
    world.query::<&Species>().iter(world).count()
}

#[test]
fn the_astral_plane_always_brings_an_arrival_and_arrivals_wander() {
    let mut app = populated(2, "astral", 3);
    let before = monster_count(&mut app);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(60);
    app.update();
    let arrivals = wandering_arrivals(&app);
    assert_eq!(arrivals.len(), 6, "R(5) < 8 always");
    assert_eq!(monster_count(&mut app), before + 6);
    let rules = OmegaRules::shipped();
    for arrival in arrivals {
        let world = app.world();
        assert!(world.get::<Disposition>(arrival.entity).unwrap().wandering);
        let species = world.get::<Species>(arrival.entity).unwrap();
        assert!(
            rules.bestiary.is_ordinary(species.id),
            "from the ordinary pool"
        );
    }
}

#[test]
fn no_arrivals_outside_the_current_dungeon() {
    let mut app = populated(3, "astral", 2);
    // The player leaves for the countryside: the dungeon is still the current dungeon,
    // but the environment is not.
    app.world_mut()
        .resource_mut::<OmegaCurrentLocation>()
        .environment = "countryside".into();
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(600);
    app.update();
    assert!(wandering_arrivals(&app).is_empty());
    let location = app.world().resource::<OmegaCurrentLocation>().clone();
    assert_eq!(location.dungeon.as_deref(), Some("astral"));
}

#[test]
fn wandering_frequency_matches_the_exact_chance() {
    // Sewers depth 12: difficulty 5, R(18) < 5 has 2,778 buckets of 10,000.
    let mut app = populated(4, "sewers", 12);
    let checks = 3_000u32;
    let mut arrivals = 0;
    for _ in 0..checks / 60 {
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(600);
        app.update();
        arrivals += wandering_arrivals(&app).len() as u32;
        // Keep the floor from filling up: despawn the arrivals.
        let world = app.world_mut();
        let ids: Vec<Entity> = world
            .query_filtered::<Entity, With<Species>>()
            .iter(world)
            .collect();
        for id in ids {
            let at = *world.get::<GridPos>(id).unwrap();
            world
                .resource_mut::<FloorMap>()
                .0
                .set_occupied(Square { x: at.x, y: at.y }, false);
            world.despawn(id);
        }
    }
    let p = 0.2778;
    let n = f64::from(checks);
    let sigma = (n * p * (1.0 - p)).sqrt();
    assert!(
        (f64::from(arrivals) - n * p).abs() < 4.0 * sigma,
        "{arrivals} of {checks}"
    );
}

#[test]
fn summoning_with_no_free_neighbour_makes_nothing() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(5));
    let closet = FloorGrid::from_rows(&["###", "#.#", "###"]).unwrap();
    app.insert_resource(FloorMap(closet));
    app.world_mut().write_message(OmegaSummonRequested::new(
        0,
        Square { x: 1, y: 1 },
        SummonKind::Hostile,
    ));
    app.update();
    assert_eq!(monster_count(&mut app), 0);
    assert_eq!(summoned(&app), [Err(OmegaNothingMade::NoFreeSquare)]);

    let open = FloorGrid::from_rows(&["#####", "#...#", "#...#", "#...#", "#####"]).unwrap();
    app.insert_resource(FloorMap(open));
    let rules = OmegaRules::shipped();
    let goblin = rules.bestiary.species_id("goblin").unwrap();
    app.world_mut().write_message(OmegaSummonRequested::new(
        0,
        Square { x: 2, y: 2 },
        SummonKind::Named(goblin),
    ));
    app.update();
    let made = summoned(&app)[0].clone().unwrap();
    assert_eq!(
        made.at,
        Square { x: 3, y: 3 },
        "the first neighbour in order"
    );
    let entity = made.entity;
    assert_eq!(app.world().get::<Species>(entity).unwrap().id, goblin);

    // A species id the bestiary does not hold makes nothing, without a panic.
    app.world_mut().write_message(OmegaSummonRequested::new(
        0,
        Square { x: 2, y: 2 },
        SummonKind::Named(SpeciesId(u16::MAX)),
    ));
    app.update();
    assert_eq!(summoned(&app), [Err(OmegaNothingMade::NothingEligible)]);
    assert_eq!(monster_count(&mut app), 1);
}

#[test]
fn countryside_encounters_scatter_with_awareness_64() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(6));
    let mut tactical = FloorGrid::new(64, 16).unwrap();
    for s in tactical.squares().collect::<Vec<_>>() {
        tactical.set(s, Tile::Floor);
    }
    let mut sizes = Vec::new();
    for _ in 0..40 {
        app.insert_resource(FloorMap(tactical.clone()));
        app.world_mut()
            .write_message(OmegaCountrysideEncounterRequested {
                terrain: "countryside:river".into(),
            });
        app.update();
        let world = app.world_mut();
        let found: Vec<(Entity, Awareness, GridPos)> = world
            .query::<(Entity, &Awareness, &GridPos)>()
            .iter(world)
            .map(|(e, a, p)| (e, *a, *p))
            .collect();
        sizes.push(found.len());
        for (id, awareness, at) in found {
            assert_eq!(awareness.0, 64);
            assert!(at.x < 64 && at.y < 16);
            world.despawn(id);
        }
        assert_eq!(world.resource::<OmegaCurrentLocation>().difficulty, 7);
    }
    assert!(
        sizes
            .iter()
            .all(|n| [1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15].contains(n)),
        "{sizes:?}"
    );
}

#[test]
fn fixed_inhabitants_until_completed_with_the_volcano_gap() {
    let rules = OmegaRules::shipped();
    let has = |app: &mut App, key: &str| {
        let id = rules.bestiary.species_id(key).unwrap();
        let world = app.world_mut();
        world
            .query_filtered::<&Species, With<Fixed>>()
            .iter(world)
            .any(|s| s.id == id)
    };
    let mut caves = populated(7, "goblin-caves", 10);
    assert!(has(&mut caves, "goblin_king"));
    // Population is still 11 on top of him.
    assert_eq!(monster_count(&mut caves), 12);

    let generate = |completed: bool, cavern: bool, gap: bool| {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(8).set(OmegaPlugin::default().cavern_gap(gap)));
        if completed {
            app.world_mut()
                .resource_mut::<OmegaCompletedDungeons>()
                .0
                .insert("volcano".into());
        }
        app.insert_resource(FloorMap(reference_floor(WorldSeed(8), "volcano", 20)));
        app.world_mut().write_message(OmegaFloorRequested {
            cavern,
            ..OmegaFloorRequested::new("volcano", 20)
        });
        app.update();
        app
    };
    assert!(has(&mut generate(false, false, true), "demon_emperor"));
    assert!(!has(&mut generate(true, false, true), "demon_emperor"));
    assert!(
        has(&mut generate(true, true, true), "demon_emperor"),
        "the cavern gap"
    );
    assert!(
        !has(&mut generate(true, true, false), "demon_emperor"),
        "gap switched off"
    );
}

#[test]
fn arena_bouts_and_were_turns() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(9));
    let arena = FloorGrid::from_rows(&["##########", "#........#", "##########"]).unwrap();
    app.insert_resource(FloorMap(arena));
    app.world_mut().write_message(OmegaArenaBoutRequested {
        counter: 3,
        rank: 0,
        at: Square { x: 8, y: 1 },
    });
    app.update();
    let world = app.world_mut();
    let (species, stats, awareness, sleep, name) = world
        .query_filtered::<(&Species, &CombatStats, &Awareness, &Sleep, &MonsterName), With<ArenaOpponent>>()
        .single(world)
        .map(|(a, b, c, d, e)| (*a, *b, *c, *d, e.clone()))
        .unwrap();
    let rules = OmegaRules::shipped();
    assert_eq!(rules.bestiary.get(species.id).key, "goblin");
    assert_eq!((stats.0.hp, stats.0.hit, stats.0.damage), (18, 20, 12));
    assert_eq!(awareness.0, 50);
    assert!(sleep.awake);
    assert!(name.0.ends_with(" the goblin"));
    let opponent = app
        .world_mut()
        .query_filtered::<&Statuses, With<ArenaOpponent>>()
        .single(app.world())
        .copied()
        .unwrap();
    assert_eq!(opponent.get(), StatusSet::MOBILE | StatusSet::GREEDY);

    // A peaceful were-human changes only on moon phase 6.
    let were = rules.bestiary.species_id("were_human").unwrap();
    app.world_mut().write_message(OmegaSummonRequested::new(
        0,
        Square { x: 1, y: 1 },
        SummonKind::Named(were),
    ));
    app.update();
    let entity = summoned(&app)[0].clone().unwrap().entity;
    app.world_mut()
        .get_mut::<Disposition>(entity)
        .unwrap()
        .hostile = false;
    let hp = app.world().get::<CombatStats>(entity).unwrap().0.hp;
    // The were-human's template is mobile, and nothing else.
    let before = app.world().get::<Statuses>(entity).unwrap().get();
    assert_eq!(before, StatusSet::MOBILE);
    let was_awake = app.world().get::<Sleep>(entity).unwrap().awake;
    app.world_mut().trigger(OmegaSpecialTurn { entity });
    assert_eq!(app.world().get::<Species>(entity).unwrap().form, were);
    app.world_mut().resource_mut::<OmegaMoonPhase>().0 = 6;
    app.world_mut().trigger(OmegaSpecialTurn { entity });
    app.world_mut().flush();
    let form = app.world().get::<Species>(entity).unwrap().form;
    assert_ne!(form, were);
    let body = rules.bestiary.get(form);
    assert_eq!(
        app.world().get::<CombatStats>(entity).unwrap().0.hp,
        hp + body.hp
    );
    let name = app.world().get::<MonsterName>(entity).unwrap().0.clone();
    assert_eq!(name, format!("were-{}", body.name));
    // Its own word gains the form's flags: awake in `Sleep`, hostile and wandering in
    // `Disposition`, the rest (mobile, flying, ...) in `Statuses`.
    let held = StatusSet::AWAKE | StatusSet::HOSTILE | StatusSet::WANDERING;
    assert_eq!(
        app.world().get::<Statuses>(entity).unwrap().get(),
        StatusSet::MOBILE | body.statuses().difference(held)
    );
    let disposition = *app.world().get::<Disposition>(entity).unwrap();
    assert!(disposition.hostile);
    assert_eq!(disposition.wandering, body.has(Status::Wandering));
    assert_eq!(
        app.world().get::<Sleep>(entity).unwrap().awake,
        was_awake || body.has(Status::Awake)
    );
}

/// A dead logged adventurer in play: Caspar returns in a ghost's body (mobile, wandering,
/// intangible) with the behaviour step's own status word, awake, mobile and wandering, so
/// a game reading its statuses finds it solid, as Omega 0.90.4 does.
#[test]
fn a_dead_adventurer_in_play_is_not_intangible() {
    let mut app = populated(11, "goblin-caves", 1);
    let rules = OmegaRules::shipped();
    let ghost = rules.bestiary.species_id("ghost").unwrap();
    assert!(rules.bestiary.get(ghost).has(Status::Intangible));
    let log_npc = rules.bestiary.species_id("log_npc").unwrap();
    let mut open = FloorGrid::new(32, 16).unwrap();
    for s in open.squares().collect::<Vec<_>>() {
        open.set(s, Tile::Floor);
    }
    app.insert_resource(FloorMap(open));
    let mut dead = 0;
    for request in 0..40u64 {
        // Each summoned beside its own square of an open floor.
        let at = Square {
            x: 1 + 3 * (request % 10) as u32,
            y: 1 + 3 * (request / 10) as u32,
        };
        app.world_mut().write_message(OmegaSummonRequested::new(
            request,
            at,
            SummonKind::Named(log_npc),
        ));
        app.update();
        let made = summoned(&app)[0].clone().unwrap();
        let world = app.world();
        if world.get::<Species>(made.entity).unwrap().form != ghost {
            continue;
        }
        dead += 1;
        let statuses = world.get::<Statuses>(made.entity).unwrap();
        assert_eq!(statuses.get(), StatusSet::MOBILE);
        assert!(!statuses.has(Status::Intangible));
        assert!(world.get::<Sleep>(made.entity).unwrap().awake);
        assert!(world.get::<Disposition>(made.entity).unwrap().wandering);
    }
    assert!(dead >= 3, "Caspar came {dead} times in 40");
}

#[test]
fn a_statue_wakes_one_difficulty_up_and_hostile() {
    let mut app = populated(10, "goblin-caves", 1);
    let at = Square { x: 0, y: 0 };
    let mut band_two = false;
    for _ in 0..30 {
        app.world_mut()
            .resource_mut::<FloorMap>()
            .0
            .set(at, denizen::omega::tile::STATUE);
        app.world_mut()
            .write_message(OmegaStatueWakeRequested::new(0, at));
        app.update();
        let woken = messages::<OmegaStatuesWoken>(&app);
        let made = woken[0].arrival().unwrap();
        let entity = made[0].entity;
        assert_eq!(made[0].at, at);
        let world = app.world();
        assert!(world.get::<Disposition>(entity).unwrap().hostile);
        // Caves depth 1 is difficulty 1: the statue draws from the difficulty-2 pool.
        let id = world.get::<Species>(entity).unwrap().id.0;
        assert!(id < 45);
        band_two |= id >= 31;
    }
    assert!(band_two, "band 2 (beyond the difficulty-1 pool) appears");
}

/// A statue wakes its statue neighbours, and theirs (source notes, waking statues): each
/// turns to floor and answers with its creature; a square that is not a statue answers
/// with nothing.
#[test]
fn statues_wake_their_neighbours() {
    let mut app = populated(10, "goblin-caves", 1);
    let at = |x, y| Square { x, y };
    let statues = [at(10, 10), at(11, 11), at(12, 11), at(14, 14)];
    {
        let mut map = app.world_mut().resource_mut::<FloorMap>();
        for y in 9..16 {
            for x in 9..16 {
                map.0.set(at(x, y), Tile::Floor);
                map.0.set_occupied(at(x, y), false);
            }
        }
        for &s in &statues {
            map.0.set(s, denizen::omega::tile::STATUE);
        }
    }
    app.world_mut()
        .write_message(OmegaStatueWakeRequested::new(0, at(11, 11)));
    app.update();
    let woken = messages::<OmegaStatuesWoken>(&app);
    let made: Vec<Square> = woken[0].arrival().unwrap().iter().map(|m| m.at).collect();
    // (11,11) first; its neighbours in the source's order: (12,12) floor, (12,10) floor,
    // (10,12) floor, (10,10) statue, then (12,11) statue. (14,14) touches none.
    assert_eq!(made, [at(11, 11), at(10, 10), at(12, 11)]);
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!(map.tile(at(10, 10)), Tile::Floor);
    assert!(map.is_occupied(at(12, 11)));
    assert_eq!(map.tile(at(14, 14)), denizen::omega::tile::STATUE);
    app.world_mut()
        .write_message(OmegaStatueWakeRequested::new(0, at(9, 9)));
    app.update();
    let woken = messages::<OmegaStatuesWoken>(&app);
    assert_eq!(
        (woken.len(), woken[0].refusal()),
        (1, Some(&OmegaNothingMade::NotAStatue))
    );
}

/// An observer of `MonsterSpawned` sees `Fixed` on fixed inhabitants and `ArenaOpponent`
/// on arena opponents: the event fires once every component is in place.
#[test]
fn spawn_events_come_after_the_markers() {
    #[derive(Resource, Default)]
    struct Seen(Vec<(Origin, bool)>);
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(7))
        .init_resource::<Seen>()
        .add_observer(
            |ev: On<MonsterSpawned>,
             mut seen: ResMut<Seen>,
             markers: Query<(Has<Fixed>, Has<ArenaOpponent>)>| {
                let (fixed, arena) = markers.get(ev.entity).unwrap();
                let marked = match ev.origin {
                    denizen::omega::origin::FIXED_INHABITANT => fixed,
                    denizen::omega::origin::ARENA => arena,
                    _ => !fixed && !arena,
                };
                seen.0.push((ev.origin, marked));
            },
        );
    app.insert_resource(FloorMap(reference_floor(WorldSeed(7), "goblin-caves", 10)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 10));
    app.world_mut().write_message(OmegaArenaBoutRequested {
        counter: 1,
        rank: 0,
        at: Square { x: 1, y: 1 },
    });
    app.update();
    let seen = &app.world().resource::<Seen>().0;
    assert!(seen.iter().all(|&(_, marked)| marked), "{seen:?}");
    for origin in [
        denizen::omega::origin::FIXED_INHABITANT,
        denizen::omega::origin::ARENA,
        Origin::FLOOR_POPULATION,
    ] {
        assert!(
            seen.iter().any(|&(o, _)| o == origin),
            "{origin:?}: {seen:?}"
        );
    }
}

/// Angels in a temple serve its deity (source notes, section 4): the host names the
/// temple's deity with the floor, and every angel made there, on the floor or summoned
/// later, serves it; a deity the bestiary does not have is refused.
#[test]
fn angels_in_a_temple_serve_its_deity() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(12));
    app.insert_resource(FloorMap(reference_floor(WorldSeed(12), "temple", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("temple", 1).in_temple(3));
    app.update();
    assert_eq!(
        app.world().resource::<OmegaCurrentLocation>().deity,
        Some(3)
    );
    let archangel = app
        .world()
        .resource::<OmegaRuleset>()
        .rules()
        .bestiary
        .species_id("archangel")
        .unwrap();
    let map = app.world().resource::<FloorMap>().0.clone();
    let at = map.squares().find(|&s| map.is_acceptable(s)).unwrap();
    for _ in 0..6 {
        app.world_mut().write_message(OmegaSummonRequested::new(
            0,
            at,
            SummonKind::Named(archangel),
        ));
    }
    app.update();
    let made = summoned(&app);
    assert!(made.len() == 6 && made.iter().filter(|m| m.is_ok()).count() >= 2);
    for entity in made
        .iter()
        .filter_map(|m| m.as_ref().ok())
        .map(|m| m.entity)
    {
        let identity = &app.world().get::<MonsterIdentity>(entity).unwrap().0;
        assert_eq!(*identity, Identity::Angel { deity: 3 });
        let name = &app.world().get::<MonsterName>(entity).unwrap().0;
        assert_eq!(name, "archangel of Athena");
    }
    app.world_mut()
        .write_message(OmegaFloorRequested::new("temple", 1).in_temple(7));
    app.update();
    let rejected = floors_refused::<OmegaFloorRequested>(&app);
    assert!(
        rejected[0]
            .to_string()
            .contains("deity 7 is not one of the bestiary's 6 deities"),
        "{rejected:?}"
    );
}

/// A nymph or satyr is drawn with its own glyph, `n` or `s`, not its template's `!`.
#[test]
fn nymphs_and_satyrs_show_their_own_glyph() {
    let mut app = populated(13, "goblin-caves", 1);
    let lover = app
        .world()
        .resource::<OmegaRuleset>()
        .rules()
        .bestiary
        .species_id("incubus_succubus")
        .unwrap();
    let map = app.world().resource::<FloorMap>().0.clone();
    let at = map.squares().find(|&s| map.is_acceptable(s)).unwrap();
    app.world_mut()
        .write_message(OmegaSummonRequested::new(0, at, SummonKind::Named(lover)));
    app.update();
    let entity = summoned(&app)[0].clone().unwrap().entity;
    let name = app.world().get::<MonsterName>(entity).unwrap().0.clone();
    let glyph = app.world().get::<Glyph>(entity).unwrap().0;
    let expected = if name == "nymph" { 'n' } else { 's' };
    assert_eq!(glyph, expected, "{name}");
}

/// Every answer carries its request's id, so a host matches answers to requests without
/// counting; a friendly summoning clears hostility; a statue request on a plain square
/// says so.
#[test]
fn answers_name_their_requests_and_reasons() {
    let mut app = populated(14, "goblin-caves", 1);
    let map = app.world().resource::<FloorMap>().0.clone();
    let at = map
        .squares()
        .find(|&s| map.is_acceptable(s) && wander_neighbours_free(&map, s))
        .unwrap();
    app.world_mut()
        .write_message(OmegaSummonRequested::new(7, at, SummonKind::Hostile).friendly());
    app.world_mut()
        .write_message(OmegaSummonRequested::new(8, at, SummonKind::Hostile));
    app.world_mut()
        .write_message(OmegaStatueWakeRequested::new(9, Square { x: 0, y: 0 }));
    app.update();
    let answers = messages::<OmegaSummoned>(&app);
    let ids: Vec<u64> = answers.iter().map(|a| a.request.request).collect();
    assert_eq!(ids, [7, 8]);
    let friend = answers[0].arrival().unwrap().entity;
    let foe = answers[1].arrival().unwrap().entity;
    assert!(!app.world().get::<Disposition>(friend).unwrap().hostile);
    assert!(app.world().get::<Disposition>(foe).unwrap().hostile);
    let statues = messages::<OmegaStatuesWoken>(&app);
    assert_eq!(statues[0].request.request, 9);
    assert_eq!(statues[0].outcome, Err(OmegaNothingMade::NotAStatue));
}

/// Whether two of a square's neighbours are free floor (room for two summons).
fn wander_neighbours_free(map: &FloorGrid, at: Square) -> bool {
    let free = (at.y.saturating_sub(1)..=at.y + 1)
        .flat_map(|y| (at.x.saturating_sub(1)..=at.x + 1).map(move |x| Square { x, y }))
        .filter(|&s| s != at && map.is_acceptable(s))
        .count();
    free >= 2
}

/// Nothing the host asks for is silently dropped: a second floor in one update, a floor
/// request before the map is filled, wandering checks outside a dungeon (said once), and
/// an arena bout with rules that have no arena each get a message with a reason.
#[test]
fn no_request_is_silently_dropped() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(15));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 2));
    app.update();
    let rejected = floors_refused::<OmegaFloorRequested>(&app);
    assert!(
        rejected[0].to_string().contains("FloorMap is empty"),
        "{rejected:?}"
    );

    app.insert_resource(FloorMap(reference_floor(WorldSeed(15), "sewers", 2)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 2));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 3));
    app.update();
    assert_eq!(floors_populated::<OmegaFloorRequested>(&app).len(), 1);
    let rejected: Vec<OmegaFloorServed> = messages(&app);
    let rejected: Vec<_> = rejected.iter().filter(|a| a.refusal().is_some()).collect();
    assert_eq!(
        (
            rejected[0].request.location.as_str(),
            rejected[0].request.depth
        ),
        ("sewers", 3)
    );
    assert_eq!(rejected[0].floor, Some(FloorId::new("sewers", 3)));
    assert!(
        rejected[0]
            .refusal()
            .unwrap()
            .to_string()
            .contains("`sewers` at depth 2 was populated in this update"),
        "{rejected:?}"
    );

    // The village is no dungeon: a day of checks says so once.
    app.insert_resource(FloorMap(reference_floor(WorldSeed(15), "village", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("village", 1));
    app.update();
    let mut skipped = 0;
    for _ in 0..20 {
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(60);
        app.update();
        skipped += wandering_skips(&app).len();
    }
    assert_eq!(skipped, 1);

    // A game's own bestiary without Omega's arena species has no arena.
    let own = OmegaRules::from_files(OmegaFiles {
        bestiary: DataFile::new(
            "own.bestiary.ron",
            include_str!(
                "../../../denizen_cli/tests/reliability/ok_objects_reachable.bestiary.ron"
            ),
        ),
        locations: DataFile::new(
            "own.locations.ron",
            include_str!("../../../denizen_cli/tests/reliability/small.locations.ron"),
        ),
        variants: None,
    })
    .unwrap();
    assert!(own.variants.is_none());
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(15),
        OmegaPlugin::default().with_rules(own),
    ));
    app.insert_resource(FloorMap(FloorGrid::from_rows(&["..."]).unwrap()));
    app.world_mut().write_message(OmegaArenaBoutRequested {
        counter: 2,
        rank: 0,
        at: Square { x: 1, y: 0 },
    });
    app.update();
    let bouts = messages::<OmegaArenaBout>(&app);
    assert_eq!(bouts[0].request.counter, 2);
    let refusal = bouts[0].refusal().unwrap();
    assert!(refusal.to_string().contains("no arena"));
}

/// A game that extends Omega's bestiary keeps the shipped arena and were-forms.
#[test]
fn own_locations_over_omegas_bestiary_keep_the_variants() {
    let rules = OmegaRules::from_files(OmegaFiles {
        bestiary: DataFile::new(
            "omega.bestiary.ron",
            denizen::omega::bestiary::OMEGA_BESTIARY,
        ),
        locations: DataFile::new(
            "own.locations.ron",
            include_str!("../../../denizen_cli/tests/reliability/small.locations.ron"),
        ),
        variants: None,
    })
    .unwrap();
    assert!(rules.variants.is_some());
}
