//! State read from a save is checked before the plugin uses it: a floor, ledger or
//! location that does not fit gives a message, never a panic in a system.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::{floors_populated, messages};

/// The audit's saves: a ledger with no states, a location that names nothing. Each is
/// replaced by a new game's value with a message, and the floor is populated as usual.
#[test]
fn a_ledger_or_location_from_other_data_is_replaced_and_reported() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(4));
    app.update();
    let empty: OmegaUniqueItems = ron::from_str("((states: []))").unwrap();
    app.insert_resource(empty);
    let no_offices: OmegaChronicle =
        ron::from_str("((adventurers: [], officeholders: []))").unwrap();
    app.insert_resource(no_offices);
    app.insert_resource(OmegaCurrentLocation {
        environment: "atlantis".into(),
        dungeon: None,
        depth: 1,
        difficulty: 3,
        deity: None,
    });
    app.insert_resource(FloorMap(reference_floor(WorldSeed(4), "sewers", 3)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 3));
    app.update();
    let rejected: Vec<OmegaStateRejected> = messages(&app);
    let resources: Vec<&str> = rejected.iter().map(|r| r.reason.resource()).collect();
    assert_eq!(
        resources,
        ["OmegaChronicle", "OmegaUniqueItems", "OmegaCurrentLocation"]
    );
    assert!(
        rejected[0]
            .reason
            .to_string()
            .contains("field `officeholders`: 0 holders"),
        "{}",
        rejected[0].reason
    );
    let rejected = &rejected[1..];
    assert!(
        rejected[0]
            .reason
            .to_string()
            .contains("it holds 0 items, the item table 217"),
        "{}",
        rejected[0].reason
    );
    assert!(
        rejected[1]
            .reason
            .to_string()
            .contains("unknown location `atlantis`")
    );
    let populated: Vec<OmegaFloorPopulated> = floors_populated::<OmegaFloorRequested>(&app);
    assert_eq!(populated.len(), 1);
    assert_eq!(
        app.world().resource::<OmegaCurrentLocation>().environment,
        "sewers"
    );
    let rules = OmegaRules::shipped();
    assert_eq!(
        app.world()
            .resource::<OmegaUniqueItems>()
            .0
            .check(rules.bestiary.items()),
        Ok(())
    );
    assert_eq!(
        app.world().resource::<OmegaChronicle>().0,
        Chronicle::new_game()
    );
    // A fitting state is left alone.
    app.update();
    assert!(messages::<OmegaStateRejected>(&app).is_empty());
}

/// A saved floor with fewer rows than its size (the audit's 10 x 10 floor with no
/// squares) is refused when it is read, so no system ever sees it.
#[test]
fn a_short_saved_floor_is_refused_when_read() {
    let short = "((width: 10, height: 10, rows: []))";
    let err = ron::from_str::<FloorMap>(short).unwrap_err().to_string();
    assert!(err.contains("needs 10 rows, not 0"), "{err}");
}

/// Everything the plugins own, saved through reflection and loaded into a fresh app,
/// goes on exactly as the original: two worlds, one reloaded mid-game, compared after
/// every turn of wandering arrivals, summons and a floor put away and brought back.
#[test]
fn a_saved_and_reloaded_world_goes_on_identically() {
    use denizen::bevy::save::{load, save};
    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(31));
        app
    }
    let mut original = app();
    original.insert_resource(FloorMap(reference_floor(WorldSeed(31), "sewers", 9)));
    original
        .world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 9));
    original.update();
    original
        .world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(300);
    original.update();
    // A floor put away is part of the save too.
    let sewers = put_floor_away(original.world_mut()).expect("a current floor");
    original.insert_resource(FloorMap(reference_floor(WorldSeed(31), "castle", 2)));
    original
        .world_mut()
        .write_message(OmegaFloorRequested::new("castle", 2));
    original.update();

    let text = save(original.world()).unwrap();
    assert!(!text.contains("OmegaRuleset"), "the rules are not saved");
    let mut reloaded = app();
    reloaded.update();
    load(reloaded.world_mut(), &text).unwrap();

    let state = |app: &mut App| {
        let world = app.world_mut();
        let mut monsters = denizen::bevy::omega::scene::monsters(world);
        monsters.sort_by_key(|(p, _)| *p);
        (
            monsters,
            world.resource::<FloorMap>().clone(),
            world.resource::<GameClock>().minutes,
            world.resource::<OmegaCurrentLocation>().clone(),
            world.resource::<OmegaUniqueItems>().clone(),
        )
    };
    let (a, b) = (state(&mut reloaded), state(&mut original));
    assert_eq!(a.0.len(), b.0.len(), "monsters");
    assert!(a.0 == b.0, "monsters differ");
    let occupied =
        |m: &FloorMap| -> Vec<Square> { m.0.squares().filter(|&s| m.0.is_occupied(s)).collect() };
    assert_eq!(occupied(&a.1), occupied(&b.1), "occupied squares");
    assert_eq!(a.1.0.render(|_| None), b.1.0.render(|_| None), "tiles");
    assert_eq!(a.1.0.rooms(), b.1.0.rooms(), "rooms");
    assert_eq!(a.1.0.free_squares(), b.1.0.free_squares(), "free squares");
    assert!(a.1 == b.1, "maps differ");
    assert_eq!((a.2, &a.3), (b.2, &b.3));
    assert!(a.4 == b.4, "ledgers differ");
    for turn in 0..12u64 {
        for app in [&mut original, &mut reloaded] {
            app.world_mut()
                .resource_mut::<GameClock>()
                .advance_minutes(20);
            if turn % 4 == 1 {
                let map = app.world().resource::<FloorMap>().0.clone();
                let at = map.squares().find(|&s| map.is_acceptable(s)).unwrap();
                app.world_mut().write_message(OmegaSummonRequested::new(
                    turn,
                    at,
                    SummonKind::Ordinary,
                ));
            }
            if turn == 6 {
                put_floor_away(app.world_mut());
                assert!(bring_floor_back(app.world_mut(), &sewers));
            }
            app.update();
        }
        assert_eq!(state(&mut reloaded), state(&mut original), "turn {turn}");
    }
}

/// A save that is not one, or that names a type this world does not know, is an error
/// and changes nothing.
#[test]
fn a_bad_save_changes_nothing() {
    use denizen::bevy::save::{SaveError, load, save};
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(32));
    app.insert_resource(FloorMap(reference_floor(WorldSeed(32), "sewers", 2)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 2));
    app.update();
    let before = save(app.world()).unwrap();
    assert!(matches!(
        load(app.world_mut(), "not a save"),
        Err(SaveError::Read { .. })
    ));
    let alien = before.replacen("denizen_bevy::clock::GameClock", "elsewhere::Clock", 1);
    assert!(matches!(
        load(app.world_mut(), &alien),
        Err(SaveError::UnknownType(t)) if t == "elsewhere::Clock"
    ));
    assert_eq!(save(app.world()).unwrap(), before);
}

/// A member as a test compares it: its stats and what it carries.
type Member = (EncounterStats, Option<Carries>);

/// Encounter groups and their members come back related to each other (the new entities,
/// both ways), carrying what they carried.
#[test]
fn groups_come_back_with_their_members() {
    use denizen::bevy::save::{load, save};
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(33));
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(33), 6)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
    let shape = |app: &mut App| {
        let world = app.world_mut();
        let raw: Vec<(Entity, GridPos, Vec<Entity>)> = world
            .query::<(Entity, &GridPos, &GroupMembers)>()
            .iter(world)
            .map(|(g, p, m)| (g, *p, m.members().to_vec()))
            .collect();
        let mut groups: Vec<(GridPos, Vec<Member>)> = raw
            .into_iter()
            .map(|(group, p, members)| {
                let members = members
                    .into_iter()
                    .map(|e| {
                        assert_eq!(world.get::<MemberOf>(e).map(|m| m.0), Some(group));
                        (
                            *world.get::<EncounterStats>(e).unwrap(),
                            world.get::<Carries>(e).copied(),
                        )
                    })
                    .collect();
                (p, members)
            })
            .collect();
        groups.sort_by_key(|(p, _)| *p);
        groups
    };
    let before = shape(&mut app);
    assert!(before.len() > 5);
    let text = save(app.world()).unwrap();
    let mut fresh = App::new();
    fresh.add_plugins(DenizenPlugins::with_seed(33));
    fresh.update();
    load(fresh.world_mut(), &text).unwrap();
    assert_eq!(shape(&mut fresh), before);
}

/// A save holding state no game can be in is refused whole, naming what cannot be, and
/// the world it was loaded into is left as it was: a clock that has checked boundaries it
/// has not reached (wandering would never run again), a creature off its floor's map, a
/// group link to an entity the save does not hold, a current floor that names none of the
/// creatures' floors (they would be awake off the map), a creature put away on a floor
/// not stored, and a current floor also put away.
#[test]
fn a_save_of_impossible_state_is_refused_whole() {
    use denizen::bevy::clock::GameClock;
    use denizen::bevy::save::{SaveError, load, save};
    let base = |seed| {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(seed));
        captive_base(&mut app, seed);
        app
    };
    /// The first entity with component `C`.
    fn first_with<C: Component>(app: &mut App) -> Entity {
        let world = app.world_mut();
        world
            .query_filtered::<Entity, With<C>>()
            .iter(world)
            .next()
            .unwrap()
    }
    let mut target = base(34);
    let before = save(target.world()).unwrap();
    /// What the source world is made into before it is saved.
    type Edit = fn(&mut App);
    let impossible: [(&str, Edit); 6] = [
        ("GameClock", |app| {
            app.world_mut()
                .resource_mut::<GameClock>()
                .boundaries_checked = u64::MAX;
        }),
        ("GridPos", |app| {
            let member = first_with::<EncounterMember>(app);
            let mut entity = app.world_mut().entity_mut(member);
            entity.remove::<GridPos>();
            entity.insert(GridPos { x: 4_000, y: 7 });
        }),
        ("OnFloor", |app| {
            app.world_mut().resource_mut::<CurrentFloor>().0 = FloorId::new("nowhere", 9);
        }),
        ("Dormant", |app| {
            let member = first_with::<EncounterMember>(app);
            app.world_mut().entity_mut(member).insert(Dormant);
        }),
        ("GridPos", |app| {
            // A creature put away with its floor, off that floor's stored map.
            let member = first_with::<EncounterMember>(app);
            let mut entity = app.world_mut().entity_mut(member);
            entity.remove::<GridPos>();
            entity.insert(GridPos { x: 4_000, y: 7 });
            put_floor_away(app.world_mut()).expect("a current floor");
        }),
        ("CurrentFloor", |app| {
            let world = app.world_mut();
            let floor = world.resource::<CurrentFloor>().0.clone();
            let map = world.resource::<FloorMap>().0.clone();
            world.insert_resource(denizen::bevy::floor::PerFloor([(floor, map)].into()));
        }),
    ];
    for (what, make) in impossible {
        let mut source = base(35);
        make(&mut source);
        let text = save(source.world()).unwrap();
        match load(target.world_mut(), &text) {
            Err(SaveError::Impossible { type_path, message }) => {
                assert_eq!(type_path, what, "{message}");
            }
            other => panic!("{what}: {other:?}"),
        }
        assert_eq!(
            save(target.world()).unwrap(),
            before,
            "{what}: the world changed"
        );
    }
    // A member linked to a group that is on no floor cannot be saved: no save holds the
    // group. A save edited to link a member to an entity it does not hold is refused.
    let mut source = base(35);
    let group = first_with::<GroupMembers>(&mut source);
    source.world_mut().entity_mut(group).remove::<OnFloor>();
    let err = save(source.world()).unwrap_err();
    assert!(
        matches!(&err, SaveError::Write { type_path, .. } if type_path.ends_with("MemberOf")),
        "{err}"
    );
    let text = save(base(35).world()).unwrap();
    let link = text.find("MemberOf\": (").unwrap();
    let number_at = link + text[link..].find('(').unwrap() + 1;
    let number_end = number_at + text[number_at..].find(')').unwrap();
    let edited = format!("{}999999{}", &text[..number_at], &text[number_end..]);
    match load(target.world_mut(), &edited) {
        Err(SaveError::Impossible { type_path, .. }) => assert_eq!(type_path, "a link"),
        other => panic!("a link: {other:?}"),
    }
    assert_eq!(
        save(target.world()).unwrap(),
        before,
        "a link: the world changed"
    );
}

/// A world with a floor put away, wandering arrivals and encounter groups: the stream
/// ledger and the stored floors both hold several entries, whose order a hash map would
/// change from one map to the next.
fn busy_world(seed: u64) -> App {
    let mut app = crate::populated(seed, "sewers", 4);
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(600);
    app.update();
    put_floor_away(app.world_mut());
    app.insert_resource(FloorMap(reference_floor(WorldSeed(seed), "castle", 2)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("castle", 2));
    app.update();
    put_floor_away(app.world_mut());
    captive_base(&mut app, seed);
    app
}

/// Places the encounter groups of map 6 on its reference base floor.
fn captive_base(app: &mut App, seed: u64) {
    app.insert_resource(FloorMap(denizen::captive::reference_base(
        WorldSeed(seed),
        6,
    )));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
}

/// Two equal worlds give the same bytes, and the save is plain nested RON: a format
/// number, and every value written in place (no RON inside a string), floors as rows of
/// glyphs.
#[test]
fn equal_worlds_save_the_same_bytes_as_plain_ron() {
    use denizen::bevy::save::{SAVE_FORMAT, save};
    let text = save(busy_world(36).world()).unwrap();
    let again = save(busy_world(36).world()).unwrap();
    assert!(text == again, "two equal worlds gave different saves");
    assert!(
        text != save(busy_world(37).world()).unwrap(),
        "seeds differ"
    );
    let stored = busy_world(36).world().resource::<StoredFloors>().0.len();
    assert_eq!(stored, 2, "the save holds two stored floors");

    let value: ron::Value = ron::from_str(&text).unwrap();
    let ron::Value::Map(save) = value else {
        panic!("a save is a struct")
    };
    let field = |name: &str| save.get(&ron::Value::String(name.into())).cloned();
    let format = field("format").and_then(|f| f.into_rust::<u32>().ok());
    assert_eq!(format, Some(SAVE_FORMAT));
    let Some(ron::Value::Map(resources)) = field("resources") else {
        panic!("resources are a map")
    };
    let clock = resources
        .get(&ron::Value::String("denizen_bevy::clock::GameClock".into()))
        .expect("the clock is saved");
    assert!(matches!(clock, ron::Value::Map(_)), "{clock:?}");
    assert!(
        resources
            .values()
            .all(|v| !matches!(v, ron::Value::String(_))),
        "no resource is a string of RON"
    );
    let Some(ron::Value::Map(entities)) = field("entities") else {
        panic!("entities are a map")
    };
    assert!(entities.len() > 20);
    for (id, components) in entities.iter() {
        assert!(matches!(id, ron::Value::Number(_)), "{id:?}");
        let ron::Value::Map(components) = components else {
            panic!("{components:?}")
        };
        assert!(
            components
                .keys()
                .all(|k| matches!(k, ron::Value::String(_)))
        );
    }
    assert!(text.contains("rows: [\n"), "floors are rows of glyphs");
    let app = busy_world(36);
    let map = app.world().resource::<FloorMap>().0.render(|_| None);
    for row in map.lines() {
        assert!(text.contains(&format!("\"{row}\",\n")), "row {row}");
    }
}

/// A world and its reload save to the same bytes, and so do equal worlds whose entities
/// got other ids: entities are numbered canonically (1, 2, 3, ...), their links (group
/// members) named by those numbers.
#[test]
fn a_world_and_its_reload_save_the_same_bytes() {
    use denizen::bevy::save::{load, save};
    let world = busy_world(40);
    let text = save(world.world()).unwrap();
    let mut reloaded = App::new();
    reloaded.add_plugins(DenizenPlugins::with_seed(40));
    reloaded.update();
    load(reloaded.world_mut(), &text).unwrap();
    assert_eq!(save(reloaded.world()).unwrap(), text);
    // A world whose entities were handed other ids (a game's own entities came first).
    let mut shifted = App::new();
    shifted.add_plugins(DenizenPlugins::with_seed(40));
    for _ in 0..7 {
        shifted.world_mut().spawn_empty();
    }
    let floor = reference_floor(WorldSeed(40), "sewers", 4);
    shifted.insert_resource(FloorMap(floor));
    shifted
        .world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 4));
    shifted.update();
    let mut plain = crate::populated(40, "sewers", 4);
    plain.update();
    shifted.update();
    assert_eq!(save(shifted.world()).unwrap(), save(plain.world()).unwrap());
    // The numbers run from 1, and a member's link names its group's number.
    let entities = text.split("entities: {").nth(1).unwrap();
    assert!(
        entities.trim_start().starts_with("1: {"),
        "{}",
        &entities[..40]
    );
    assert!(
        text.contains("MemberOf\": ("),
        "groups are linked in the save"
    );
}

/// A save of another format, or of denizen 0.2 (which held no format), is refused naming
/// both formats, and changes nothing.
#[test]
fn a_save_of_another_format_is_refused() {
    use denizen::bevy::save::{SAVE_FORMAT, SaveError, load, save};
    let mut app = crate::populated(38, "sewers", 2);
    let text = save(app.world()).unwrap();
    let next = text.replacen(
        &format!("format: {SAVE_FORMAT},"),
        &format!("format: {},", SAVE_FORMAT + 1),
        1,
    );
    assert_ne!(next, text);
    let err = load(app.world_mut(), &next).unwrap_err();
    assert!(
        matches!(err, SaveError::Version { found, supported } if found == SAVE_FORMAT + 1 && supported == SAVE_FORMAT),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "the save is format {}, but this build of denizen reads formats 2 to {SAVE_FORMAT}",
            SAVE_FORMAT + 1
        )
    );
    let format_1 = text.replacen(&format!("format: {SAVE_FORMAT},"), "format: 1,", 1);
    assert!(matches!(
        load(app.world_mut(), &format_1),
        Err(SaveError::Version { found: 1, .. })
    ));
    let old = r#"(resources: [(type_path: "denizen_bevy::clock::GameClock", ron: "(minutes:0,boundaries_checked:0)")], entities: [])"#;
    assert!(matches!(
        load(app.world_mut(), old),
        Err(SaveError::Version { found: 0, .. })
    ));
    assert_eq!(save(app.world()).unwrap(), text);
}

/// A saved entity whose id a hand-edited save changed (its low 32 bits zero, or the
/// largest index) is never dropped: the save loads whole, or is refused with the id named
/// and the world unchanged.
#[test]
fn a_saved_entity_of_any_id_comes_back() {
    use denizen::bevy::save::{load, save};
    let source = busy_world(36);
    let text = save(source.world()).unwrap();
    let count = |app: &mut App| {
        let world = app.world_mut();
        world.query::<&Creature>().iter(world).count()
    };
    let mut reloaded = busy_world(37);
    load(reloaded.world_mut(), &text).unwrap();
    let creatures = count(&mut reloaded);
    assert!(creatures > 0);
    for id in [1u64 << 32, 5 << 32, u64::from(u32::MAX - 1)] {
        let edited = text.replacen("        1: {", &format!("        {id}: {{"), 1);
        assert_ne!(edited, text);
        let mut target = busy_world(37);
        let before = save(target.world()).unwrap();
        match load(target.world_mut(), &edited) {
            Ok(_) => assert_eq!(count(&mut target), creatures, "id {id}"),
            Err(e) => {
                assert_eq!(e.to_string().lines().count(), 1, "id {id}: {e}");
                assert!(e.to_string().contains(&id.to_string()), "id {id}: {e}");
                assert_eq!(save(target.world()).unwrap(), before, "id {id}: changed");
            }
        }
    }
}

/// `text` with the first `from` after `anchor` made `to`.
fn edited_after(text: &str, anchor: &str, from: &str, to: &str) -> String {
    let at = text.find(anchor).expect("the anchor is in the save") + anchor.len();
    let (head, tail) = text.split_at(at);
    assert!(tail.contains(from), "{from} after {anchor}");
    format!("{head}{}", tail.replacen(from, to, 1))
}

/// Group links that do not match, and encounter types the table does not have, are
/// refused whole, naming the type and the entity: a member naming a member, or itself; a
/// group not listing its member, listing a stranger or a member twice.
#[test]
fn inconsistent_group_links_and_foreign_types_are_refused() {
    use denizen::bevy::save::{SaveError, load, save};
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3));
    captive_base(&mut app, 3);
    let text = save(app.world()).unwrap();
    // Entity 1 is the one member of group 208; entity 2 is a member of group 210.
    let member = "        1: {";
    let group = "        208: {";
    assert!(text.contains("\"denizen_captive::plugin::components::MemberOf\": (208)"));
    let list = "\"denizen_captive::plugin::components::GroupMembers\": ([\n                1,\n            ])";
    assert!(text.contains(list), "group 208 lists entity 1");
    let lists = |members: &str| {
        format!("\"denizen_captive::plugin::components::GroupMembers\": ([{members}])")
    };
    let cases = [
        (
            edited_after(&text, member, "MemberOf\": (208)", "MemberOf\": (2)"),
            "MemberOf",
            "entity 1 names entity 2",
        ),
        (
            edited_after(&text, member, "MemberOf\": (208)", "MemberOf\": (1)"),
            "MemberOf",
            "entity 1 names itself",
        ),
        (
            edited_after(&text, group, list, &lists("")),
            "GroupMembers",
            "entity 208 lists [], but [1] name it",
        ),
        (
            edited_after(&text, group, list, &lists("1, 2")),
            "GroupMembers",
            "entity 208 lists [1, 2], but [1] name it",
        ),
        (
            edited_after(&text, group, list, &lists("1, 1")),
            "GroupMembers",
            "entity 208 lists [1, 1], but [1] name it",
        ),
        (
            edited_after(&text, group, "type_id: 0,", "type_id: 200,"),
            "EncounterGroup",
            "entity 208 is of encounter type 200",
        ),
    ];
    for (broken, type_path, says) in cases {
        assert_ne!(broken, text);
        let mut target = App::new();
        target.add_plugins(DenizenPlugins::with_seed(3));
        captive_base(&mut target, 4);
        let before = save(target.world()).unwrap();
        match load(target.world_mut(), &broken) {
            Err(SaveError::Impossible {
                type_path: t,
                message,
            }) => {
                assert_eq!(t, type_path);
                assert!(message.contains(says), "{message}");
            }
            other => panic!("{says}: {other:?}"),
        }
        assert_eq!(
            save(target.world()).unwrap(),
            before,
            "{says}: the world changed"
        );
    }
    load(app.world_mut(), &text).unwrap();
}

/// A save of another bestiary (a species past the bestiary's) is refused whole, naming the
/// entity, rather than loaded as unknown monsters.
#[test]
fn a_species_the_bestiary_does_not_have_is_refused() {
    use denizen::bevy::save::{SaveError, load, save};
    let text = save(busy_world(36).world()).unwrap();
    let species = OmegaRules::shipped().bestiary.species().len();
    // The first monster's body, `form: (N)`, made `form: (<the species count>)`.
    let anchor = text.find("components::Species\": (").unwrap();
    let form = anchor + text[anchor..].find("form: (").unwrap() + "form: (".len();
    let close = form + text[form..].find(')').unwrap();
    let broken = format!("{}{species}{}", &text[..form], &text[close..]);
    let mut target = busy_world(37);
    let before = save(target.world()).unwrap();
    match load(target.world_mut(), &broken) {
        Err(SaveError::Impossible { type_path, message }) => {
            assert_eq!(type_path, "Species");
            assert_eq!(
                message,
                format!("entity 1 is of species {species}, and the bestiary has {species}")
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(save(target.world()).unwrap(), before);
}

/// A saved monster's own status word holds only what `Statuses` keeps, and every Omega
/// monster has one: a word with awake (which `Sleep` holds), one with an unknown flag, and
/// a monster whose word was taken out are each refused whole, naming the entity.
#[test]
fn an_impossible_status_word_is_refused() {
    use denizen::bevy::save::{SaveError, load, save};
    let text = save(busy_world(38).world()).unwrap();
    let anchor = text.find("components::Statuses\": ").unwrap();
    let value = anchor + "components::Statuses\": ".len();
    let word_start = value + text[value..].find('"').unwrap() + 1;
    let word_end = word_start + text[word_start..].find('"').unwrap();
    let with_word = |word: &str| format!("{}{word}{}", &text[..word_start], &text[word_end..]);
    let line_start = text[..anchor].rfind('\n').unwrap();
    let line_end = anchor + text[anchor..].find('\n').unwrap();
    let without = format!("{}{}", &text[..line_start], &text[line_end..]);
    let cases = [
        (with_word("AWAKE | MOBILE"), "has the status word"),
        (with_word("0x4000"), "has the status word"),
        (without, "without its own status word"),
    ];
    for (broken, says) in cases {
        assert_ne!(broken, text);
        let mut target = busy_world(39);
        let before = save(target.world()).unwrap();
        match load(target.world_mut(), &broken) {
            Err(SaveError::Impossible { type_path, message }) => {
                assert_eq!(type_path, "Statuses");
                assert!(message.contains(says), "{message}");
                assert!(message.starts_with("entity "), "{message}");
            }
            other => panic!("{says}: {other:?}"),
        }
        assert_eq!(
            save(target.world()).unwrap(),
            before,
            "{says}: the world changed"
        );
    }
}

/// A holder no value tells apart from another (a test's own saved component).
#[derive(Component, Reflect, Default)]
#[reflect(Component, Default)]
struct Holder;

/// An item of a kind, held by an entity.
#[derive(Component, Reflect)]
#[reflect(Component)]
struct Held {
    kind: u32,
    by: Entity,
}

/// A charm on an item: two charms differ only in the item they are on.
#[derive(Component, Reflect)]
#[reflect(Component)]
struct Charm(Entity);

/// A world of two like holders, each holding an item of its own kind, each item wearing a
/// like charm: the holder spawned first holds the kind-1 item, and the charm on it is
/// spawned first, unless `reversed`, where both go to the kind-2 item.
fn held_world(reversed: bool) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1))
        .save_with_denizen::<Holder>()
        .save_with_denizen::<Held>()
        .save_with_denizen::<Charm>();
    let world = app.world_mut();
    let on = || OnFloor(FloorId::default());
    let first = world.spawn((Holder, on())).id();
    let second = world.spawn((Holder, on())).id();
    let (one, two) = if reversed {
        (second, first)
    } else {
        (first, second)
    };
    let kind_one = world.spawn((Held { kind: 1, by: one }, on())).id();
    let kind_two = world.spawn((Held { kind: 2, by: two }, on())).id();
    let charmed = if reversed {
        [kind_two, kind_one]
    } else {
        [kind_one, kind_two]
    };
    for item in charmed {
        world.spawn((Charm(item), on()));
    }
    app
}

/// Two like holders, each holding a like item: alike in everything, the holders swapped by
/// the order the items were spawned in (the first item goes to the second holder when
/// `reversed`).
fn alike_world(reversed: bool) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1))
        .save_with_denizen::<Holder>()
        .save_with_denizen::<Held>();
    let world = app.world_mut();
    let on = || OnFloor(FloorId::default());
    let first = world.spawn((Holder, on())).id();
    let second = world.spawn((Holder, on())).id();
    let holders = if reversed {
        [second, first]
    } else {
        [first, second]
    };
    for by in holders {
        world.spawn((Held { kind: 7, by }, on()));
    }
    app
}

/// Entities alike in every value but their links are numbered by what they link to and
/// what links to them, so the same world spawned in two orders saves the same bytes: the
/// holders are told apart by the items they hold (links into them), the charms by the
/// items they are on (links out of them).
#[test]
fn the_same_world_spawned_in_two_orders_saves_the_same_bytes() {
    use denizen::bevy::save::save;
    let text = save(held_world(false).world()).unwrap();
    assert_eq!(save(held_world(true).world()).unwrap(), text);
    // Alike in everything, links included: one is set first, and its partner follows it.
    let alike = save(alike_world(false).world()).unwrap();
    assert_eq!(save(alike_world(true).world()).unwrap(), alike);
    // The holder of the kind-1 item and the charm on it come first among theirs.
    let first_charm = text.find("saves::Charm\": (").unwrap();
    let first_item = text.find("kind: 1").unwrap();
    assert!(first_item < text.find("kind: 2").unwrap(), "{text}");
    assert!(first_charm < text.rfind("saves::Charm\": (").unwrap());
}

/// A world holding floors of all four rule sets (Omega's and Captive's put away, an
/// Angband level, a tables floor current) saves, loads and saves the same bytes.
#[cfg(all(feature = "angband_data", feature = "tables"))]
#[test]
fn a_world_of_all_four_rule_sets_saves_loads_and_saves_the_same_bytes() {
    use denizen::bevy::save::{load, save};
    let mut app = busy_world(44);
    put_floor_away(app.world_mut());
    app.world_mut().write_message(AngbandFloorRequested::new(7));
    app.update();
    put_floor_away(app.world_mut());
    let reference = denizen::tables::reference::reference_floor(WorldSeed(44), 64, 24).unwrap();
    app.insert_resource(FloorMap(reference.grid));
    app.world_mut()
        .write_message(TablesFloorRequested::new("the marsh", 5));
    app.update();
    let made = |app: &mut App| {
        let world = app.world_mut();
        (
            world.query::<&Species>().iter(world).count(),
            world.query::<&EncounterGroup>().iter(world).count(),
            world.query::<&AngbandMonster>().iter(world).count(),
            world.query::<&TablesCreature>().iter(world).count(),
        )
    };
    let (omega, groups, angband, tables) = made(&mut app);
    assert!(
        omega > 0 && groups > 0 && angband > 0 && tables > 0,
        "{:?}",
        made(&mut app)
    );
    let text = save(app.world()).unwrap();
    let mut reloaded = App::new();
    reloaded.add_plugins(DenizenPlugins::with_seed(44));
    reloaded.update();
    load(reloaded.world_mut(), &text).unwrap();
    assert_eq!(save(reloaded.world()).unwrap(), text);
}

/// A format 2 save, written by the `main` of 2026-12-06 (before the tables' tag areas
/// became sets of squares and their floors counted minutes), with floors of all four rule
/// sets: it loads, its rectangle read as its squares and the minutes not yet counted, and
/// is written back as the current format, which loads and saves the same bytes.
#[cfg(all(feature = "angband_data", feature = "tables"))]
#[test]
fn a_format_2_save_of_every_rule_set_loads() {
    use denizen::bevy::save::{SAVE_FORMAT, load, save};
    use denizen::floor::Rect;
    let old = include_str!("saves/format-2.ron");
    assert!(old.contains("format: 2,") && old.contains("rect: ("));
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(44));
    app.update();
    load(app.world_mut(), old).unwrap();
    let marsh = FloorId::new("the marsh", 5);
    let record = &app.world().resource::<TablesFloors>().0[&marsh];
    let safe = Rect {
        x: 2,
        y: 9,
        width: 5,
        height: 4,
    };
    assert_eq!(record.tags[0].squares, SquareSet::from(safe));
    assert_eq!(
        (record.elapsed, record.seen_turn, record.seen_minute),
        (25, 25, None)
    );
    // Once the floor is seen, its minutes count from the clock's minute.
    app.update();
    let record = &app.world().resource::<TablesFloors>().0[&marsh];
    assert_eq!(record.seen_minute, Some(600));
    let stored = &app.world().resource::<StoredFloors>().0;
    assert_eq!(
        stored.len(),
        4,
        "two Omega floors, a Captive base, an Angband level"
    );
    let text = save(app.world()).unwrap();
    assert!(text.contains(&format!("format: {SAVE_FORMAT},")));
    let mut again = App::new();
    again.add_plugins(DenizenPlugins::with_seed(44));
    again.update();
    load(again.world_mut(), &text).unwrap();
    assert_eq!(save(again.world()).unwrap(), text);
}

/// A save of format 3 (written by the main branch before the tables' context was saved,
/// kept in `saves/format-3.ron`) loads: the context it lacks starts empty, whatever the
/// world held before; each floor's maker, which it does not keep, is the rule set that
/// took the floor for its own then (the tables by their floor records, Angband, Captive
/// and Omega by their places' names); and the world is written back as the current format
/// with both.
#[cfg(all(feature = "angband_data", feature = "tables"))]
#[test]
fn a_format_3_save_loads_with_the_context_it_lacks_empty() {
    use denizen::bevy::save::load;
    use denizen::tables::Context;
    let old = include_str!("saves/format-3.ron");
    assert!(old.contains("format: 3,") && !old.contains("TablesContext"));
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(44));
    app.update();
    app.world_mut().resource_mut::<TablesContext>().0 = Context::new().with_flag("night");
    load(app.world_mut(), old).unwrap();
    assert_eq!(app.world().resource::<TablesContext>().0, Context::new());
    assert_makers_guessed_and_kept(&mut app);
}

/// A save of format 4 (written by the main branch before floors kept their makers, at
/// 2b633a6, by the test of a world of all four rule sets: kept in `saves/format-4.ron`)
/// loads with each floor's maker as that code took its floors (the tables' floor by its
/// record, Angband's level, Captive's base and Omega's two floors by their places), and is
/// written back as the current format with the makers.
#[cfg(all(feature = "angband_data", feature = "tables"))]
#[test]
fn a_format_4_save_loads_with_its_floors_makers() {
    let old = include_str!("saves/format-4.ron");
    assert!(old.contains("format: 4,") && !old.contains("FloorMakers"));
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(44));
    app.update();
    denizen::bevy::save::load(app.world_mut(), old).unwrap();
    // Its Angband level put away was kept by depth alone: it is the `angband` floor's.
    let levels = &app.world().resource::<AngbandStoredLevels>().0;
    let level = &levels[&FloorId::new("angband", 7)];
    assert_eq!((levels.len(), level.terrain.depth), (1, 7));
    assert_makers_guessed_and_kept(&mut app);
}

/// The makers a save of the floors of all four rule sets gets when it holds none, and the
/// world written back with them, which loads and saves the same bytes.
#[cfg(all(feature = "angband_data", feature = "tables"))]
fn assert_makers_guessed_and_kept(app: &mut App) {
    use denizen::bevy::floor::{FloorMakers, Maker};
    use denizen::bevy::save::{SAVE_FORMAT, load, save};
    let makers = &app.world().resource::<FloorMakers>().0;
    let expected = [
        (FloorId::new("the marsh", 5), "Tables"),
        (FloorId::new("angband", 7), "Angband"),
        (FloorId::new("base", 6), "Captive"),
        (FloorId::new("castle", 2), "Omega"),
        (FloorId::new("sewers", 4), "Omega"),
    ];
    assert_eq!(makers.len(), expected.len(), "{makers:?}");
    for (floor, maker) in expected {
        assert_eq!(makers[&floor], Maker::rule_set(maker), "{floor}");
    }
    let text = save(app.world()).unwrap();
    assert!(text.contains(&format!("format: {SAVE_FORMAT},")) && text.contains("TablesContext"));
    assert!(text.contains("FloorMakers"));
    for former in [
        "AngbandStoredLevels",
        "TablesFloors",
        "StoredFloors",
        "MoonPhase\"",
    ] {
        assert!(!text.contains(&format!("::{former}")), "{former}");
    }
    let mut again = App::new();
    again.add_plugins(DenizenPlugins::with_seed(44));
    again.update();
    load(again.world_mut(), &text).unwrap();
    assert_eq!(save(again.world()).unwrap(), text);
}

/// Omega's saved resources were renamed with its prefix (`MoonPhase` is `OmegaMoonPhase`,
/// and so on): a save naming them by their former paths loads them, values and all, and
/// is written back under the new paths; a save naming one both ways is refused.
#[test]
fn a_save_naming_omegas_resources_by_their_former_paths_loads() {
    use denizen::bevy::save::{SaveError, load, save};
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(45));
    app.update();
    app.insert_resource(OmegaMoonPhase(7));
    app.world_mut()
        .resource_mut::<OmegaCompletedDungeons>()
        .0
        .insert("castle".into());
    let text = save(app.world()).unwrap();
    let renamed = [
        "CompletedDungeons",
        "CurrentLocation",
        "MoonPhase",
        "UniqueItems",
    ];
    let mut former = text.clone();
    for name in renamed {
        let path = format!("\"denizen_omega::plugin::resources::Omega{name}\"");
        assert!(former.contains(&path), "{path}");
        former = former.replace(
            &path,
            &format!("\"denizen_omega::plugin::resources::{name}\""),
        );
    }
    let mut again = App::new();
    again.add_plugins(DenizenPlugins::with_seed(45));
    again.update();
    load(again.world_mut(), &former).unwrap();
    assert_eq!(again.world().resource::<OmegaMoonPhase>().0, 7);
    assert!(
        again
            .world()
            .resource::<OmegaCompletedDungeons>()
            .0
            .contains("castle")
    );
    assert_eq!(save(again.world()).unwrap(), text);

    let both = text.replacen(
        "resources: {",
        "resources: {\n        \"denizen_omega::plugin::resources::MoonPhase\": (3),",
        1,
    );
    let error = load(again.world_mut(), &both).unwrap_err();
    assert!(matches!(error, SaveError::Read { .. }), "{error}");
    assert!(error.to_string().contains("given twice"), "{error}");
    assert_eq!(again.world().resource::<OmegaMoonPhase>().0, 7);
}
