//! Captive's encounter groups through the plugin: groups, members, and drops at death.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::DenizenPlugin;
use denizen::bevy::prelude::*;
use denizen::encounters::{Carry, reference_base};
use denizen::prelude::WorldSeed;

fn base(map: u32, floors: u32, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(seed));
    app.insert_resource(FloorMap(reference_base(WorldSeed(seed), map)));
    app.world_mut()
        .write_message(BaseFloorGenerated { map, floors });
    app.update();
    app
}

#[test]
fn groups_and_members_are_related_entities() {
    let mut app = base(0, 1, 3);
    let placed: Vec<EncountersPlaced> = app
        .world()
        .resource::<Messages<EncountersPlaced>>()
        .iter_current_update_messages()
        .copied()
        .collect();
    let world = app.world_mut();
    let groups: Vec<(Entity, EncounterGroup, GridPos, Vec<Entity>)> = world
        .query::<(Entity, &EncounterGroup, &GridPos, &GroupMembers)>()
        .iter(world)
        .map(|(e, g, p, m)| (e, *g, *p, m.members().to_vec()))
        .collect();
    assert_eq!(placed[0].groups as usize, groups.len());
    assert!(groups.len() > 10);
    let mut cells: Vec<GridPos> = groups.iter().map(|g| g.2).collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), groups.len(), "one group per cell");
    for (entity, group, at, members) in &groups {
        // Map 0: normal cells get types 2 and 12, fire cells type 3.
        assert!([2, 3, 12].contains(&group.type_id), "{}", group.type_id);
        assert!(!members.is_empty());
        for &m in members {
            assert_eq!(world.get::<MemberOf>(m).unwrap().0, *entity);
            assert_eq!(
                world.get::<Species>(m).unwrap().id.0,
                u16::from(group.type_id)
            );
            assert_eq!(world.get::<GridPos>(m), Some(at));
            assert!(world.get::<EncounterStats>(m).is_some());
        }
    }
    let bearers = world.query::<&Carries>().iter(world).count();
    assert_eq!(bearers, 1, "one floor: one base map");
}

#[test]
fn a_bearer_drops_its_base_map_when_it_dies() {
    let mut app = base(4, 3, 5);
    let world = app.world_mut();
    let bearers: Vec<(Entity, Carries, GridPos)> = world
        .query::<(Entity, &Carries, &GridPos)>()
        .iter(world)
        .map(|(e, c, p)| (e, *c, *p))
        .collect();
    let mut floors: Vec<u32> = bearers
        .iter()
        .map(|(_, c, _)| match c.0 {
            Carry::BaseMap { floor } => floor,
            Carry::Clipboard { .. } => panic!("regular groups carry base maps"),
        })
        .collect();
    floors.sort();
    assert_eq!(floors, [0, 1, 2]);
    let (bearer, carries, at) = bearers[0];
    world.despawn(bearer);
    let dropped: Vec<CarryDropped> = world
        .resource::<Messages<CarryDropped>>()
        .iter_current_update_messages()
        .copied()
        .collect();
    assert_eq!(
        dropped,
        [CarryDropped {
            carry: carries.0,
            at
        }]
    );
}

#[test]
fn same_seed_same_groups() {
    let dump = |seed| {
        let mut app = base(9, 4, seed);
        let world = app.world_mut();
        let mut rows: Vec<String> = world
            .query::<(&Species, &GridPos, &EncounterStats)>()
            .iter(world)
            .map(|row| format!("{row:?}"))
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(dump(8), dump(8));
    assert_ne!(dump(8), dump(9));
}
