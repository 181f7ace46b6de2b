//! A game that saves its own world with Bevy's world serialization carries denizen's save
//! beside it in one plain RON file.
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::reflect::AppTypeRegistry;
use bevy_world_serialization::DynamicWorldBuilder;
use bevy_world_serialization::serde::WorldDeserializer;
use denizen::bevy::assets::bevy_asset::{AssetPlugin, AssetServer};
use denizen::bevy::save::{load, save_numbered};
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;
use serde::de::DeserializeSeed;

/// A game's own component, saved by the game in its own world file.
#[derive(Component, bevy_reflect::Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component)]
struct Health(i32);

/// A game's save file: its own world (a `DynamicWorld`) beside denizen's, both as RON in
/// place, neither inside a string.
#[derive(serde::Serialize, serde::Deserialize)]
struct GameSave {
    denizen: Box<ron::value::RawValue>,
    world: Box<ron::value::RawValue>,
}

fn game() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin::default(),
        DenizenPlugins::with_seed(39),
    ))
    .register_type::<Health>();
    app
}

/// Every creature's square and species with the game's health on it, if any.
fn roster(app: &mut App) -> Vec<(GridPos, u16, Option<Health>)> {
    let world = app.world_mut();
    let mut roster: Vec<_> = world
        .query::<(&GridPos, &Species, Option<&Health>)>()
        .iter(world)
        .map(|(p, s, h)| (*p, s.id.0, h.copied()))
        .collect();
    roster.sort_by_key(|(p, s, _)| (*p, *s));
    roster
}

/// After loading both parts the game's components are back on the same creatures:
/// `load`'s entity map, handed to the game's world, puts them there, and no creature of
/// the game's world is spawned anew.
#[test]
fn a_game_world_rides_beside_the_save() {
    let mut app = game();
    app.insert_resource(FloorMap(reference_floor(WorldSeed(39), "sewers", 6)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("sewers", 6));
    app.update();
    let world = app.world_mut();
    let creatures: Vec<(Entity, i32)> = world
        .query::<(Entity, &CombatStats)>()
        .iter(world)
        .map(|(e, s)| (e, s.0.hp))
        .collect();
    for (i, (entity, hp)) in creatures.iter().enumerate() {
        world.entity_mut(*entity).insert(Health(hp + i as i32));
    }
    let before = roster(&mut app);
    assert!(before.len() > 5 && before.iter().all(|(_, _, h)| h.is_some()));

    let world = app.world();
    // denizen numbers its entities in the save; the game's world uses the same numbers.
    let (denizen, numbering) = save_numbered(world).unwrap();
    let registry = world.resource::<AppTypeRegistry>().read();
    let mut dynamic = DynamicWorldBuilder::from_world(world, &registry)
        .deny_all()
        .allow_component::<Health>()
        .extract_entities(creatures.iter().map(|(e, _)| *e))
        .build();
    for entity in &mut dynamic.entities {
        entity.entity = numbering[&entity.entity];
    }
    let game_world = dynamic.serialize(&registry).unwrap();
    let file = GameSave {
        denizen: ron::value::RawValue::from_boxed_ron(denizen.into()).unwrap(),
        world: ron::value::RawValue::from_boxed_ron(game_world.into()).unwrap(),
    };
    let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::new()).unwrap();
    drop(registry);
    assert!(
        text.starts_with(&format!(
            "(\n    denizen: (\n    format: {},",
            denizen::bevy::save::SAVE_FORMAT
        )),
        "{}",
        &text[..60]
    );
    assert!(text.contains("\"integration::world_serialization::Health\": ("));

    let mut fresh = game();
    fresh.update();
    let file: GameSave = ron::from_str(&text).unwrap();
    let mut entities = load(fresh.world_mut(), file.denizen.get_ron()).unwrap();
    let registry = fresh.world().resource::<AppTypeRegistry>().clone();
    let mut assets = fresh.world().resource::<AssetServer>().clone();
    let mut reader = ron::Deserializer::from_str(file.world.get_ron()).unwrap();
    let game_world = WorldDeserializer {
        type_registry: &registry.read(),
        load_from_path: &mut assets,
    }
    .deserialize(&mut reader)
    .unwrap();
    let known = entities.len();
    game_world
        .write_to_world(fresh.world_mut(), &mut entities)
        .unwrap();
    assert_eq!(
        entities.len(),
        known,
        "no creature of the game's world is new"
    );
    assert_eq!(roster(&mut fresh), before);
}
