//! Every component on every entity a full scenario spawns, and every resource the plugins
//! insert (message buffers included), is registered for reflection: inspectors and
//! reflection-based saves see all of denizen's state. The scenario, not a hand-kept list,
//! decides what is checked. An entity event (`MonsterSpawned`) leaves nothing in the world
//! for the scenario to find, so it is checked by name on its own.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::captive::reference_base;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

/// An app that has used every feature: a floor with a fixed inhabitant, renamed monsters,
/// summons, a statue, a countryside encounter, an arena bout, a were-human's change,
/// wandering arrivals, encounter groups and a dropped base map (and, with the `angband`
/// feature, an Angband level; with `tables`, a floor of the starter bestiary and its
/// wanderers).
fn scenario() -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(12));
    let world = app.world_mut();
    world.insert_resource(FloorMap(reference_floor(WorldSeed(12), "astral", 2)));
    world.write_message(OmegaFloorRequested::new("astral", 2));
    app.update();
    let rules = OmegaRules::shipped();
    let id = |key| rules.bestiary.species_id(key).unwrap();
    // A square in the open, so every summons finds a free neighbour.
    let at = {
        let map = &app.world().resource::<FloorMap>().0;
        let open = |at: Square| {
            (at.x.saturating_sub(1)..=at.x + 1).all(|x| {
                (at.y.saturating_sub(1)..=at.y + 1).all(|y| map.is_acceptable(Square { x, y }))
            })
        };
        map.squares().find(|&at| open(at)).unwrap()
    };
    for kind in [
        SummonKind::Named(id("archangel")),
        SummonKind::Named(id("hiscore_npc")),
        SummonKind::Named(id("were_human")),
        SummonKind::Hostile,
        SummonKind::Ordinary,
    ] {
        app.world_mut()
            .write_message(OmegaSummonRequested::new(0, at, kind));
    }
    app.world_mut()
        .resource_mut::<FloorMap>()
        .0
        .set(at, denizen::omega::tile::STATUE);
    app.world_mut()
        .write_message(OmegaStatueWakeRequested::new(0, at));
    app.world_mut().write_message(OmegaArenaBoutRequested {
        counter: 20,
        rank: 2,
        at,
    });
    app.update();
    let were = {
        let world = app.world_mut();
        let mut q = world.query::<(Entity, &Species)>();
        q.iter(world)
            .find(|(_, s)| s.id == id("were_human"))
            .map(|(e, _)| e)
            .unwrap()
    };
    app.world_mut().resource_mut::<OmegaMoonPhase>().0 = 6;
    app.world_mut().trigger(OmegaSpecialTurn { entity: were });
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(60);
    app.update();
    // Each floor is put away before the next, so its creatures stay in the world.
    put_floor_away(app.world_mut());
    app.insert_resource(FloorMap(FloorGrid::new(64, 16).unwrap()));
    app.world_mut()
        .write_message(OmegaCountrysideEncounterRequested {
            terrain: "countryside:plains".into(),
        });
    app.update();
    put_floor_away(app.world_mut());
    app.insert_resource(FloorMap(reference_base(WorldSeed(12), 4)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(4, 3));
    app.update();
    let bearer = {
        let world = app.world_mut();
        let mut q = world.query_filtered::<Entity, With<Carries>>();
        q.iter(world).next().unwrap()
    };
    app.world_mut().despawn(bearer);
    app.update();
    #[cfg(feature = "angband_data")]
    {
        use denizen::bevy::angband::prelude::AngbandFloorRequested;
        put_floor_away(app.world_mut());
        app.world_mut()
            .write_message(AngbandFloorRequested::new(15));
        app.update();
    }
    #[cfg(feature = "tables")]
    {
        // A floor of the starter bestiary with packs and an escort, then wanderers.
        put_floor_away(app.world_mut());
        let reference = denizen::tables::reference::reference_floor(WorldSeed(12), 64, 24).unwrap();
        let (room, player) = (reference.safe.unwrap(), reference.player.unwrap());
        app.insert_resource(FloorMap(reference.grid));
        let request = TablesFloorRequested::new("marsh", 12)
            .tag("safe", room)
            .player(player);
        app.world_mut().write_message(request);
        app.update();
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_turns(2_000);
        app.update();
        let world = app.world_mut();
        let follows = world.query::<&Follows>().iter(world).count();
        assert!(follows > 0, "the scenario has followers");
    }
    app
}

/// The type paths of denizen's own types inside a component or resource name, generic
/// arguments and all: `bevy_ecs::message::Messages<denizen_omega::plugin::messages::OmegaFloorRequested>`
/// holds one, and `...Messages<denizen_bevy::arrivals::Arrived<denizen_omega::...::OmegaSummonRequested>>`
/// holds `Arrived<...>` whole and its argument.
fn denizen_paths(name: &str) -> Vec<&str> {
    let mut paths = Vec::new();
    let mut from = 0;
    while let Some(at) = name[from..].find("denizen").map(|i| i + from) {
        let starts_a_path =
            at == 0 || !name[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
        let mut depth = 0usize;
        let mut end = name.len();
        for (i, c) in name[at..].char_indices() {
            match c {
                '<' => depth += 1,
                '>' if depth == 0 => {
                    end = at + i;
                    break;
                }
                '>' => depth -= 1,
                ',' | ' ' if depth == 0 => {
                    end = at + i;
                    break;
                }
                _ => {}
            }
        }
        if starts_a_path {
            paths.push(&name[at..end]);
        }
        from = at + 1;
    }
    paths
}

#[test]
fn every_component_and_resource_of_a_full_scenario_is_registered() {
    let app = scenario();
    let world = app.world();
    let registry = world.resource::<AppTypeRegistry>().read();
    let mut checked = std::collections::BTreeSet::new();
    let mut missing = std::collections::BTreeSet::new();
    for entity in world.iter_entities() {
        for (_, info) in world.inspect_entity(entity.id()).unwrap() {
            let name = info.name().to_string();
            for path in denizen_paths(&name) {
                checked.insert(path.to_owned());
                if registry.get_with_type_path(path).is_none() {
                    missing.insert(path.to_owned());
                }
            }
        }
    }
    assert!(missing.is_empty(), "not registered: {missing:?}");
    drop(registry);
    // Everything the scenario made saves and loads: no type the plugins register is one
    // a save cannot hold.
    let text = denizen::bevy::save::save(app.world()).unwrap();
    let mut fresh = App::new();
    fresh.add_plugins(DenizenPlugins::with_seed(1));
    fresh.update();
    denizen::bevy::save::load(fresh.world_mut(), &text).unwrap();
    assert_eq!(denizen::bevy::save::save(fresh.world()).unwrap(), text);
    // The scenario did reach every kind of state (a sanity check of the scenario itself).
    #[cfg(feature = "angband")]
    let angband = [
        "denizen_angband::plugin::components::AngbandMonster",
        "denizen_bevy::pipeline::FloorServed<denizen_angband::plugin::messages::AngbandFloorRequested>",
    ];
    #[cfg(not(feature = "angband"))]
    let angband = [];
    #[cfg(feature = "tables")]
    let tables = [
        "denizen_tables::plugin::components::TablesCreature",
        "denizen_bevy::pipeline::FloorServed<denizen_tables::plugin::messages::TablesFloorRequested>",
    ];
    #[cfg(not(feature = "tables"))]
    let tables = [];
    let classic = [
        "denizen_bevy::floor::Creature",
        "denizen_bevy::floor::OnFloor",
        "denizen_bevy::floor::occupancy::Occupants",
        "denizen_omega::plugin::components::Fixed",
        "denizen_omega::plugin::components::MonsterIdentity",
        "denizen_omega::plugin::components::ArenaOpponent",
        "denizen_omega::plugin::messages::OmegaFloorRequested",
        "denizen_bevy::arrivals::Arrived<denizen_omega::plugin::wander::OmegaWanderingCheck>",
        "denizen_captive::plugin::components::MemberOf",
        "denizen_captive::plugin::components::GroupMembers",
        "denizen_captive::plugin::messages::CaptiveCarryDropped",
        "denizen_bevy::streams::DenizenRng",
        "denizen_bevy::pipeline::FloorServed<denizen_omega::plugin::messages::OmegaFloorRequested>",
    ];
    for expected in classic.into_iter().chain(angband).chain(tables) {
        assert!(
            checked.contains(expected),
            "the scenario has no {expected}: {checked:?}"
        );
    }
}

#[test]
fn the_spawn_event_is_registered() {
    let app = scenario();
    let registry = app.world().resource::<AppTypeRegistry>().read();
    assert!(
        registry
            .get_with_type_path("denizen_bevy::apply::MonsterSpawned")
            .is_some()
    );
}
