//! Floors with identity and occupancy that follows creatures: every spawned creature knows
//! its floor, a floor can be put away and brought back, and `FloorMap`'s occupied squares
//! are kept right by the creatures themselves through despawns, moves and kills.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use denizen::bevy::apply::apply;
use denizen::bevy::floor::Occupants;
use denizen::plan::{Plan, Spawn};

use crate::{floors_refused, messages, populated, summoned};

fn creatures(app: &mut App) -> Vec<(Entity, GridPos, OnFloor)> {
    let world = app.world_mut();
    world
        .query_filtered::<(Entity, &GridPos, &OnFloor), (With<Creature>, Without<Dormant>)>()
        .iter(world)
        .map(|(e, p, f)| (e, *p, f.clone()))
        .collect()
}

/// The squares `FloorMap` marks, and the squares creatures stand on, agree.
fn assert_occupancy_follows_creatures(app: &mut App) {
    let standing: std::collections::BTreeSet<Square> = creatures(app)
        .into_iter()
        .map(|(_, p, _)| Square::from(p))
        .collect();
    let map = &app.world().resource::<FloorMap>().0;
    let marked: std::collections::BTreeSet<Square> =
        map.squares().filter(|&s| map.is_occupied(s)).collect();
    assert_eq!(marked, standing);
}

#[test]
fn every_creature_knows_its_floor() {
    let mut app = populated(1, "sewers", 4);
    let all = creatures(&mut app);
    assert!(!all.is_empty());
    assert!(all.iter().all(|(_, _, f)| f.0 == FloorId::new("sewers", 4)));
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("sewers", 4)
    );
    let n = despawn_floor(app.world_mut(), &FloorId::new("sewers", 4));
    assert_eq!(n, all.len());
    assert!(creatures(&mut app).is_empty());
    assert_occupancy_follows_creatures(&mut app);
}

/// Despawning or moving a creature frees its square; a square two creatures share stays
/// marked until both are gone.
#[test]
fn despawns_and_moves_keep_the_map_right() {
    let mut app = populated(2, "goblin-caves", 3);
    assert_occupancy_follows_creatures(&mut app);
    let all = creatures(&mut app);
    let (victim, at, _) = all[0].clone();
    app.world_mut().despawn(victim);
    assert!(!app.world().resource::<FloorMap>().0.is_occupied(at.into()));
    assert_occupancy_follows_creatures(&mut app);

    let (walker, from, _) = all[1].clone();
    let map = app.world().resource::<FloorMap>().0.clone();
    let to = map.squares().find(|&s| map.is_acceptable(s)).unwrap();
    app.world_mut().entity_mut(walker).insert(GridPos::from(to));
    let map = &app.world().resource::<FloorMap>().0;
    assert!(!map.is_occupied(from.into()) && map.is_occupied(to));
    assert_occupancy_follows_creatures(&mut app);

    // A second creature steps onto the same square, then the first leaves.
    let (other, _, _) = all[2].clone();
    app.world_mut().entity_mut(other).insert(GridPos::from(to));
    app.world_mut().despawn(walker);
    assert!(app.world().resource::<FloorMap>().0.is_occupied(to));
    app.world_mut().despawn(other);
    assert!(!app.world().resource::<FloorMap>().0.is_occupied(to));
    assert_occupancy_follows_creatures(&mut app);
}

/// A host system kills a monster in the middle of an update, before the plugins run: a
/// summoning in the same update finds its square free.
#[test]
fn a_kill_in_the_same_update_frees_the_square_for_a_summon() {
    #[derive(Resource)]
    struct Doomed(Entity);
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    // A corridor of three squares: a summons at the middle one, (2,1), takes (1,1) or
    // (3,1). The floor is a goblin cave's level, made and then emptied.
    app.insert_resource(FloorMap(
        FloorGrid::from_rows(&["#####", "#...#", "#####"]).unwrap(),
    ));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 1));
    app.update();
    despawn_floor(app.world_mut(), &FloorId::new("goblin-caves", 1));
    let goblin = app
        .world()
        .resource::<OmegaRuleset>()
        .rules()
        .bestiary
        .species_id("goblin")
        .unwrap();
    let ends = [Square { x: 1, y: 1 }, Square { x: 3, y: 1 }];
    app.world_mut().write_message(OmegaSummonRequested::new(
        1,
        Square { x: 2, y: 1 },
        SummonKind::Named(goblin),
    ));
    app.update();
    let first = summoned(&app)[0].clone().unwrap();
    assert!(ends.contains(&first.at), "{:?}", first.at);
    // The second takes the other end; after a kill there, a third finds it free.
    app.world_mut().write_message(OmegaSummonRequested::new(
        2,
        Square { x: 2, y: 1 },
        SummonKind::Named(goblin),
    ));
    app.update();
    let second = summoned(&app)[0].clone().unwrap();
    assert!(ends.contains(&second.at) && second.at != first.at);
    app.insert_resource(Doomed(second.entity));
    app.add_systems(
        Update,
        (|mut commands: Commands, doomed: Res<Doomed>| commands.entity(doomed.0).despawn())
            .before(DenizenSystems::Floors),
    );
    app.world_mut().write_message(OmegaSummonRequested::new(
        3,
        Square { x: 2, y: 1 },
        SummonKind::Named(goblin),
    ));
    app.update();
    let third = messages::<OmegaSummoned>(&app).remove(0);
    assert_eq!(
        (third.request.request, third.arrival().map(|s| s.at)),
        (3, Some(second.at))
    );
}

/// A countryside encounter scatters its creatures over the 64 x 16 tactical map: on a
/// smaller floor (or none) it is refused, naming both sizes, and nothing is placed.
#[test]
fn a_countryside_encounter_needs_the_tactical_map() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    for rows in [vec!["#####", "#...#", "#####"], vec![]] {
        let map = if rows.is_empty() {
            FloorGrid::default()
        } else {
            FloorGrid::from_rows(&rows).unwrap()
        };
        let (width, height) = (map.width(), map.height());
        app.insert_resource(FloorMap(map));
        app.world_mut()
            .write_message(OmegaCountrysideEncounterRequested {
                terrain: "countryside:plains".into(),
            });
        app.update();
        let rejected = floors_refused::<OmegaCountrysideEncounterRequested>(&app);
        assert_eq!(
            rejected[0],
            OmegaFloorRefusal::MapTooSmall {
                width,
                height,
                needs_width: 64,
                needs_height: 16,
            }
        );
        assert_eq!(
            rejected[0].to_string(),
            format!(
                "FloorMap is {width} x {height}: this encounter scatters over a 64 x 16 map; \
                 fill FloorMap with it first"
            )
        );
        let world = app.world_mut();
        assert_eq!(world.query::<&Species>().iter(world).count(), 0);
    }
}

/// Despawning a Captive group despawns its members, and every member's square is freed.
#[test]
fn a_group_despawned_frees_its_cell() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(4));
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(4), 5)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(5, 3));
    app.update();
    assert_occupancy_follows_creatures(&mut app);
    let world = app.world_mut();
    let groups: Vec<(Entity, GridPos, usize)> = world
        .query::<(Entity, &GridPos, &GroupMembers)>()
        .iter(world)
        .map(|(e, p, m)| (e, *p, m.members().len()))
        .collect();
    let (group, cell, size) = groups.iter().find(|g| g.2 > 1).copied().unwrap();
    assert!(size > 1);
    assert!(
        app.world()
            .resource::<FloorMap>()
            .0
            .is_occupied(cell.into())
    );
    app.world_mut().despawn(group);
    assert!(
        !app.world()
            .resource::<FloorMap>()
            .0
            .is_occupied(cell.into())
    );
    assert_occupancy_follows_creatures(&mut app);
}

/// A floor put away and brought back: the same creatures with the same state on the same
/// squares, its map and occupancy, and the current location; several floors at once.
#[test]
fn floors_put_away_come_back_as_they_were() {
    let mut app = populated(5, "sewers", 2);
    let before = denizen::bevy::omega::scene::monsters(app.world_mut());
    let sewers = put_floor_away(app.world_mut()).expect("a current floor");
    assert_eq!(sewers, FloorId::new("sewers", 2));
    assert!(
        creatures(&mut app).is_empty(),
        "the sewers' creatures sleep"
    );

    app.insert_resource(FloorMap(reference_floor(WorldSeed(5), "castle", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("castle", 1));
    app.update();
    assert!(!creatures(&mut app).is_empty());
    assert_occupancy_follows_creatures(&mut app);
    let castle = put_floor_away(app.world_mut()).expect("a current floor");

    assert!(bring_floor_back(app.world_mut(), &sewers));
    let location = app.world().resource::<OmegaCurrentLocation>().clone();
    assert_eq!(
        (location.environment.as_str(), location.depth),
        ("sewers", 2)
    );
    let mut after = denizen::bevy::omega::scene::monsters(app.world_mut());
    let mut before = before;
    before.sort_by_key(|(p, _)| *p);
    after.sort_by_key(|(p, _)| *p);
    assert_eq!(after, before);
    assert_occupancy_follows_creatures(&mut app);
    // A floor never stored does not come back.
    assert!(!bring_floor_back(
        app.world_mut(),
        &FloorId::new("volcano", 3)
    ));
    // The castle is still stored.
    put_floor_away(app.world_mut());
    assert!(bring_floor_back(app.world_mut(), &castle));
    assert!(creatures(&mut app).iter().all(|(_, _, f)| f.0 == castle));
    assert_occupancy_follows_creatures(&mut app);
}

/// Edges of putting floors away: the host's own marks are not stored, bringing a floor
/// back puts the current one away first, a floor despawned while put away is gone for
/// good, and a second rule set's floor in the same update is refused.
#[test]
fn floors_put_away_at_the_edges() {
    let mut app = populated(6, "sewers", 3);
    let player = Square { x: 0, y: 0 };
    app.world_mut()
        .resource_mut::<FloorMap>()
        .0
        .set_occupied(player, true);
    let sewers = put_floor_away(app.world_mut()).expect("a current floor");
    assert_eq!(app.world().resource::<CurrentFloor>().0, FloorId::default());
    assert_eq!(
        app.world().resource::<FloorMap>().0.width(),
        0,
        "left empty"
    );

    app.insert_resource(FloorMap(reference_floor(WorldSeed(6), "castle", 1)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("castle", 1));
    app.update();
    // Brought back without putting the castle away first: the castle is stored for us.
    assert!(bring_floor_back(app.world_mut(), &sewers));
    assert!(!app.world().resource::<FloorMap>().0.is_occupied(player));
    assert_occupancy_follows_creatures(&mut app);
    let castle = FloorId::new("castle", 1);
    assert!(
        app.world()
            .resource::<StoredFloors>()
            .0
            .contains_key(&castle)
    );
    // The castle, despawned while put away, cannot come back.
    assert!(despawn_floor(app.world_mut(), &castle) > 0);
    assert!(!bring_floor_back(app.world_mut(), &castle));

    // A Captive base in the same update as an Omega floor is refused.
    put_floor_away(app.world_mut());
    app.insert_resource(FloorMap(reference_floor(WorldSeed(6), "goblin-caves", 2)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("goblin-caves", 2));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(3, 2));
    app.update();
    let rejected = floors_refused::<CaptiveFloorRequested>(&app);
    assert_eq!(rejected.len(), 1);
    assert!(
        rejected[0]
            .to_string()
            .contains("`goblin-caves` at depth 2 was populated"),
        "{rejected:?}"
    );
}

/// Observers of the spawns that move, despawn and add creatures, or apply a plan of their
/// own, while a floor's creatures are spawned in one batch: the map still marks exactly
/// the squares creatures stand on, and the counts are right (despawning everyone frees
/// every square).
#[test]
fn observers_of_the_spawns_leave_the_map_right() {
    /// Which new creatures the observer has seen.
    #[derive(Resource, Default)]
    struct Seen(u32);
    let (location, depth) = ("goblin-caves", 3);
    let grid = reference_floor(WorldSeed(4), location, depth);
    let mut free = grid.squares().filter(|&s| grid.is_acceptable(s));
    let (haven, extra, nested) = (
        free.next().unwrap(),
        free.next().unwrap(),
        free.next().unwrap(),
    );
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(4))
        .init_resource::<Seen>()
        .insert_resource(FloorMap(grid));
    app.add_observer(
        move |added: On<Add<Creature>>, mut seen: ResMut<Seen>, mut commands: Commands| {
            seen.0 += 1;
            match seen.0 {
                1 => commands.entity(added.entity).despawn(),
                2 | 3 => {
                    commands.entity(added.entity).insert(GridPos::from(haven));
                }
                4 => {
                    commands.spawn((
                        Creature,
                        GridPos::from(extra),
                        OnFloor(FloorId::new(location, depth)),
                    ));
                }
                6 => commands.queue(move |world: &mut World| {
                    let plan = Plan {
                        spawns: vec![Spawn {
                            at: nested,
                            origin: Origin::SUMMONING,
                            creature: (),
                        }],
                        tiles: Vec::new(),
                    };
                    apply(world, plan, |batches, spawns| {
                        batches.spawn(spawns.into_iter().map(|s| (0, s.at, Glyph('n'))).collect());
                    });
                }),
                _ => {}
            }
        },
    );
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location, depth));
    app.update();
    assert!(
        app.world().resource::<Seen>().0 > 6,
        "the floor has enough creatures"
    );
    let standing: Vec<Square> = creatures(&mut app)
        .iter()
        .map(|(_, p, _)| (*p).into())
        .collect();
    assert!(standing.iter().filter(|&&s| s == haven).count() >= 2);
    assert!(standing.contains(&extra) && standing.contains(&nested));
    assert_occupancy_follows_creatures(&mut app);
    let occupants = app.world().resource::<Occupants>();
    for &at in &standing {
        let here = standing.iter().filter(|&&s| s == at).count();
        assert_eq!(usize::from(occupants.on(at)), here, "{at:?}");
    }
    for (entity, ..) in creatures(&mut app) {
        app.world_mut().despawn(entity);
    }
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!(map.squares().filter(|&s| map.is_occupied(s)).count(), 0);
}

/// An observer of the spawns that puts the floor away after the first of a plan's
/// batches (Captive's bearers, then the other members): the members spawned after it go
/// with their floor, put away too, and the world saves and loads.
#[test]
fn creatures_spawned_after_their_floor_is_put_away_go_with_it() {
    use denizen::bevy::save::{load, save};
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(33));
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(33), 6)));
    app.add_observer(
        |_: On<Add<EncounterMember>>, mut commands: Commands, mut once: Local<bool>| {
            if !std::mem::replace(&mut *once, true) {
                commands.put_floor_away();
            }
        },
    );
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
    let world = app.world_mut();
    let bearers = world
        .query_filtered::<(), With<Carries>>()
        .iter(world)
        .count();
    let members = world
        .query_filtered::<(), With<EncounterMember>>()
        .iter(world)
        .count();
    assert!(
        0 < bearers && bearers < members,
        "two batches: {bearers} of {members}"
    );
    let awake = world
        .query_filtered::<(), (With<OnFloor>, Without<Dormant>)>()
        .iter(world)
        .count();
    assert_eq!(awake, 0, "every entity went with its floor");
    let text = save(app.world()).unwrap();
    let mut fresh = App::new();
    fresh.add_plugins(DenizenPlugins::with_seed(33));
    fresh.update();
    load(fresh.world_mut(), &text).unwrap();
}

/// An observer of the spawns that despawns the floor after the first group or the first
/// member: the groups and members spawned go with it, whichever batch they were in,
/// nothing is left on the floor, and no bearer drops its carry (they went with their
/// floor; they did not die).
#[test]
fn creatures_spawned_after_their_floor_is_despawned_go_with_it() {
    fn despawn_once(floor: Res<CurrentFloor>, mut commands: Commands, mut once: Local<bool>) {
        if !std::mem::replace(&mut *once, true) {
            commands.despawn_floor(floor.0.clone());
        }
    }
    for on_groups in [false, true] {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(33));
        app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(33), 6)));
        if on_groups {
            app.add_observer(
                |_: On<Add<EncounterGroup>>,
                 floor: Res<CurrentFloor>,
                 commands: Commands,
                 once: Local<bool>| { despawn_once(floor, commands, once) },
            );
        } else {
            app.add_observer(
                |_: On<Add<EncounterMember>>,
                 floor: Res<CurrentFloor>,
                 commands: Commands,
                 once: Local<bool>| { despawn_once(floor, commands, once) },
            );
        }
        app.world_mut()
            .write_message(CaptiveFloorRequested::new(6, 3));
        app.update();
        let world = app.world_mut();
        let left = world
            .query_filtered::<(), Or<(With<OnFloor>, With<EncounterGroup>, With<EncounterMember>)>>(
            )
            .iter(world)
            .count();
        assert_eq!(
            left, 0,
            "every entity went with its floor (groups: {on_groups})"
        );
        let dropped: Vec<CaptiveCarryDropped> = messages(&app);
        assert_eq!(dropped, [], "groups: {on_groups}");
        let map = &app.world().resource::<FloorMap>().0;
        assert_eq!(map.squares().filter(|&s| map.is_occupied(s)).count(), 0);
    }
}

/// An observer of the spawns that puts the floor away in the middle of the batch: the
/// batch counts nothing on the emptied map, and the floor comes back with every creature
/// counted once.
#[test]
fn a_floor_put_away_during_its_spawns_comes_back_counted() {
    let (location, depth) = ("goblin-caves", 3);
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(6))
        .insert_resource(FloorMap(reference_floor(WorldSeed(6), location, depth)));
    app.add_observer(
        |_: On<Add<Creature>>, mut commands: Commands, mut once: Local<bool>| {
            if !std::mem::replace(&mut *once, true) {
                commands.put_floor_away();
            }
        },
    );
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location, depth));
    app.update();
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!(map.squares().filter(|&s| map.is_occupied(s)).count(), 0);
    assert!(bring_floor_back(
        app.world_mut(),
        &FloorId::new(location, depth)
    ));
    assert!(!creatures(&mut app).is_empty());
    assert_occupancy_follows_creatures(&mut app);
    for (entity, ..) in creatures(&mut app) {
        app.world_mut().despawn(entity);
    }
    let map = &app.world().resource::<FloorMap>().0;
    assert_eq!(map.squares().filter(|&s| map.is_occupied(s)).count(), 0);
}

/// A floor id is saved as its place and depth, through reflection as through serde: the
/// shared string it holds is an implementation detail no save shows.
#[test]
fn a_floor_id_saves_as_its_place_and_depth() {
    use bevy_reflect::serde::{TypedReflectDeserializer, TypedReflectSerializer};
    use serde::de::DeserializeSeed;

    let id = FloorId::new("sewers", 3);
    let mut registry = bevy_reflect::TypeRegistry::new();
    registry.register::<FloorId>();
    let text = ron::to_string(&TypedReflectSerializer::new(&id, &registry)).unwrap();
    assert_eq!(text, r#"(location:"sewers",depth:3)"#);
    assert_eq!(ron::to_string(&id).unwrap(), text);
    let registration = registry.get(std::any::TypeId::of::<FloorId>()).unwrap();
    let mut de = ron::Deserializer::from_str(&text).unwrap();
    let back = TypedReflectDeserializer::new(registration, &registry)
        .deserialize(&mut de)
        .unwrap();
    assert_eq!(
        <FloorId as bevy_reflect::FromReflect>::from_reflect(&*back),
        Some(id)
    );
}

/// Two rule sets asked for floors in one run: the one added first serves, the other is
/// answered `FloorHeld` naming the floor served; added the other way round, the other
/// serves. The order is `add_plugins`'s, not a rule set's name.
#[test]
fn the_rule_set_added_first_serves_and_the_other_is_held() {
    let goblins = FloorId::new("goblin-caves", 2);
    let base = FloorId::new("base", 3);
    for omega_first in [true, false] {
        let mut app = App::new();
        app.add_plugins(DenizenPlugin::with_seed(6));
        if omega_first {
            app.add_plugins((OmegaPlugin::default(), CaptivePlugin::default()));
        } else {
            app.add_plugins((CaptivePlugin::default(), OmegaPlugin::default()));
        }
        app.insert_resource(FloorMap(reference_floor(WorldSeed(6), "goblin-caves", 2)));
        app.world_mut()
            .write_message(OmegaFloorRequested::new("goblin-caves", 2));
        app.world_mut()
            .write_message(CaptiveFloorRequested::new(3, 2));
        app.update();
        let omega: Vec<OmegaFloorServed> = messages(&app);
        let captive: Vec<CaptiveFloorServed> = messages(&app);
        assert_eq!((omega.len(), captive.len()), (1, 1));
        let served = if omega_first { &goblins } else { &base };
        let held = FloorHeld {
            held: served.clone(),
        };
        if omega_first {
            assert!(omega[0].populated().is_some(), "{omega:?}");
            let refused = captive[0].refusal();
            assert_eq!(refused, Some(&CaptiveFloorRefusal::FloorHeld(held)));
        } else {
            assert!(captive[0].populated().is_some(), "{captive:?}");
            let refused = omega[0].refusal();
            assert_eq!(refused, Some(&OmegaFloorRefusal::FloorHeld(held)));
        }
        assert_eq!(&app.world().resource::<CurrentFloor>().0, served);
        assert_eq!(omega[0].floor.as_ref(), Some(&goblins));
        assert_eq!(captive[0].floor.as_ref(), Some(&base));
    }
}

/// An app whose rule set `Mine` keeps a `Note` per floor.
fn app_keeping_notes() -> App {
    use denizen::bevy::rule_set::RuleSetApp;
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    app.keep_per_floor::<Note>("Mine");
    app.update();
    app
}

/// A rule set's own record of each floor, kept in the neutral per-floor store.
#[derive(bevy_reflect::Reflect, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Note(u32);

/// The one rule every per-floor store follows, for a rule set from outside as for the
/// four: a record stays while its floor is put away and while the rule set's own floor of
/// its id is entered, and is forgotten when its floor ends otherwise or when another
/// maker's floor of its id becomes current.
#[test]
fn records_in_the_per_floor_store_follow_their_floors() {
    use denizen::bevy::floor::{FloorEntry, Maker, PerFloor};
    let mut app = app_keeping_notes();
    let floors = ["put away", "despawned", "replaced", "left", "host", "mine"]
        .map(|name| FloorId::new(name, 1));
    app.world_mut().resource_mut::<PerFloor<Note>>().0 =
        (floors.iter().cloned()).zip((0..).map(Note)).collect();
    let ends = [
        FloorEnd::PutAway,
        FloorEnd::Despawned,
        FloorEnd::Replaced,
        FloorEnd::Left,
    ];
    for (floor, end) in floors.iter().zip(ends) {
        app.world_mut().trigger(FloorEnded {
            floor: floor.clone(),
            maker: Maker::rule_set("Mine"),
            end,
        });
    }
    for (floor, maker) in [
        (&floors[4], Maker::Host),
        (&floors[5], Maker::rule_set("Mine")),
    ] {
        app.world_mut().trigger(FloorEntered {
            floor: floor.clone(),
            maker,
            entry: FloorEntry::BroughtBack,
        });
    }
    let kept: Vec<&str> = (app.world().resource::<PerFloor<Note>>().0.keys())
        .map(|floor| &*floor.location)
        .collect();
    assert_eq!(kept, ["mine", "put away"]);
    let text = denizen::bevy::save::save(app.world()).unwrap();
    assert!(
        text.contains("PerFloor<integration::floors::Note>"),
        "{text}"
    );
}

/// A floor that held nothing ends without a `FloorEnded`: its record goes all the same.
#[test]
fn a_record_of_a_floor_that_held_nothing_goes_when_it_ends() {
    use denizen::bevy::floor::PerFloor;
    let mut app = app_keeping_notes();
    let (empty, other) = (FloorId::new("empty", 2), FloorId::new("other", 2));
    app.world_mut().resource_mut::<PerFloor<Note>>().0 =
        [(empty.clone(), Note(1)), (other.clone(), Note(2))].into();
    assert_eq!(despawn_floor(app.world_mut(), &empty), 0);
    let kept: Vec<FloorId> = (app.world().resource::<PerFloor<Note>>().0.keys().cloned()).collect();
    assert_eq!(kept, [other]);
}

/// Each rule set keeps records of a type of its own: a second maker asking for the same
/// store is stopped at build, naming both.
#[test]
#[should_panic(expected = "the rule set `Theirs` cannot keep per-floor records")]
fn two_makers_cannot_keep_one_store() {
    use denizen::bevy::rule_set::RuleSetApp;
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    app.keep_per_floor::<Note>("Mine")
        .keep_per_floor::<Note>("Mine");
    app.keep_per_floor::<Note>("Theirs");
}
