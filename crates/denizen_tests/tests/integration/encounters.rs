//! Captive's encounter groups through the plugin: groups, members, and drops at death.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;

use denizen::captive::{Carry, SpecialCellRefused, reference_base};
use denizen::prelude::*;

fn base(map: u32, floors: u32, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(seed));
    app.insert_resource(FloorMap(reference_base(WorldSeed(seed), map)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(map, floors));
    app.update();
    app
}

#[test]
fn groups_and_members_are_related_entities() {
    let mut app = base(0, 1, 3);
    let placed: Vec<CaptiveFloorPopulated> = app
        .world()
        .resource::<Messages<CaptiveFloorServed>>()
        .iter_current_update_messages()
        .filter_map(|answer| answer.populated().cloned())
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
                world.get::<EncounterMember>(m).unwrap().type_id,
                group.type_id
            );
            assert_eq!(world.get::<GridPos>(m), Some(at));
            assert!(world.get::<EncounterStats>(m).is_some());
            // A member is a creature of its own rule set, never an Omega monster.
            assert!(world.get::<Creature>(m).is_some());
            #[cfg(feature = "omega")]
            assert!(world.get::<Species>(m).is_none() && world.get::<Sleep>(m).is_none());
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
            Carry::Clipboard { .. } | Carry::DoorClipboard { .. } => {
                panic!("regular groups carry base maps")
            }
        })
        .collect();
    floors.sort();
    assert_eq!(floors, [0, 1, 2]);
    let (bearer, carries, at) = bearers[0];
    world.despawn(bearer);
    let dropped: Vec<CaptiveCarryDropped> = world
        .resource::<Messages<CaptiveCarryDropped>>()
        .iter_current_update_messages()
        .cloned()
        .collect();
    assert_eq!(
        dropped,
        [CaptiveCarryDropped {
            carry: carries.0,
            at: at.into(),
            floor: FloorId::new("base", 4),
        }]
    );
}

#[test]
fn same_seed_same_groups() {
    let dump = |seed| {
        let mut app = base(9, 4, seed);
        let world = app.world_mut();
        let mut rows: Vec<String> = world
            .query::<(&EncounterMember, &GridPos, &EncounterStats)>()
            .iter(world)
            .map(|row| format!("{row:?}"))
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(dump(8), dump(8));
    assert_ne!(dump(8), dump(9));
}

/// Every member gets one `MonsterSpawned` with the encounter origin, after its components.
#[test]
fn members_are_announced_once_each_with_their_components() {
    #[derive(Resource, Default)]
    struct Seen(Vec<(Entity, Origin)>);
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(2))
        .init_resource::<Seen>()
        .add_observer(
            |ev: On<MonsterSpawned>,
             mut seen: ResMut<Seen>,
             members: Query<(&EncounterMember, &EncounterStats, &MemberOf, &Glyph)>| {
                assert!(
                    members.get(ev.entity).is_ok(),
                    "components before the event"
                );
                seen.0.push((ev.entity, ev.origin));
            },
        );
    app.insert_resource(FloorMap(reference_base(WorldSeed(2), 6)));
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(6, 3));
    app.update();
    let world = app.world_mut();
    let mut members: Vec<Entity> = world
        .query_filtered::<Entity, With<EncounterMember>>()
        .iter(world)
        .collect();
    let mut seen: Vec<Entity> = world.resource::<Seen>().0.iter().map(|s| s.0).collect();
    assert!(members.len() > 20);
    assert!(
        world
            .resource::<Seen>()
            .0
            .iter()
            .all(|s| s.1 == denizen::captive::ENCOUNTER_GROUP)
    );
    members.sort();
    seen.sort();
    assert_eq!(seen, members);
}

/// Group membership survives a reflection-based save: `MemberOf` and `GroupMembers` go
/// through the type registry and back.
#[test]
fn group_membership_round_trips_through_reflection() {
    use bevy_reflect::serde::{ReflectDeserializer, ReflectSerializer};
    use serde::de::DeserializeSeed;
    let mut app = base(3, 3, 4);
    let world = app.world_mut();
    let (member, of) = world
        .query::<(Entity, &MemberOf)>()
        .iter(world)
        .map(|(e, m)| (e, *m))
        .next()
        .unwrap();
    let members = world.get::<GroupMembers>(of.0).unwrap().clone();
    assert!(members.members().contains(&member));
    let registry = world.resource::<AppTypeRegistry>().read();
    let text = ron::to_string(&ReflectSerializer::new(&of, &registry)).unwrap();
    let mut de = ron::Deserializer::from_str(&text).unwrap();
    let back = ReflectDeserializer::new(&registry)
        .deserialize(&mut de)
        .unwrap();
    let back = <MemberOf as bevy_reflect::FromReflect>::from_reflect(back.as_ref()).unwrap();
    assert_eq!(back, of);
    let text = ron::to_string(&ReflectSerializer::new(&members, &registry)).unwrap();
    let mut de = ron::Deserializer::from_str(&text).unwrap();
    let back = ReflectDeserializer::new(&registry)
        .deserialize(&mut de)
        .unwrap();
    let back = <GroupMembers as bevy_reflect::FromReflect>::from_reflect(back.as_ref()).unwrap();
    assert_eq!(back, members);
}

/// The special stages through the plugin (source notes, sections 5 and 7): made before the
/// regular groups at the host's cells (floor cells of this base), the prisoner (type 31) with the base's one map, a
/// laser door's guard (type 6) with that door's clipboard, the dead-end stage's group
/// (type 8) with its first clipboard; no regular group stands on their cells.
#[test]
fn special_groups_carry_their_own_items() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(21));
    app.insert_resource(FloorMap(reference_base(WorldSeed(21), 10)));
    let at = |x, y| Square { x, y };
    app.world_mut().write_message(
        CaptiveFloorRequested::new(10, 1)
            .with_special(at(27, 3), SpecialStage::Prisoner)
            .with_special(at(51, 9), SpecialStage::DoorGuard { door: 3 })
            .with_special(at(14, 15), SpecialStage::DeadEnd),
    );
    app.update();
    let world = app.world_mut();
    let groups: Vec<(EncounterGroup, GridPos, Vec<Entity>)> = world
        .query::<(&EncounterGroup, &GridPos, &GroupMembers)>()
        .iter(world)
        .map(|(g, p, m)| (*g, *p, m.members().to_vec()))
        .collect();
    let carried = |cell: GridPos| -> (u8, Option<Carry>) {
        let (group, _, members) = groups.iter().find(|(_, p, _)| *p == cell).unwrap();
        let carry = world.get::<Carries>(members[0]).map(|c| c.0);
        (group.type_id, carry)
    };
    assert_eq!(
        carried(GridPos { x: 27, y: 3 }),
        (31, Some(Carry::BaseMap { floor: 0 }))
    );
    assert_eq!(
        carried(GridPos { x: 51, y: 9 }),
        (6, Some(Carry::DoorClipboard { door: 3 }))
    );
    assert_eq!(
        carried(GridPos { x: 14, y: 15 }),
        (8, Some(Carry::Clipboard { index: 0 }))
    );
    let on_special_cells = groups
        .iter()
        .filter(|(_, p, _)| [(27, 3), (51, 9), (14, 15)].contains(&(p.x, p.y)))
        .count();
    assert_eq!(on_special_cells, 3, "one group per cell");
    // The base's one map went to the prisoner: no regular group carries one.
    let maps = groups
        .iter()
        .filter_map(|(_, _, m)| world.get::<Carries>(m[0]))
        .filter(|c| matches!(c.0, Carry::BaseMap { .. }))
        .count();
    assert_eq!(maps, 1);
}

/// A special stage's cell off the floor or on a wall refuses the whole request: a
/// rejection naming the stage and the cell, and no group or member spawned (not even the
/// specials before it).
#[test]
fn a_special_cell_off_the_floor_refuses_the_request() {
    let at = |x, y| Square { x, y };
    for (cell, tile) in [(at(u32::MAX, u32::MAX), None), (at(0, 0), Some(Tile::Wall))] {
        let mut app = App::new();
        app.add_plugins(DenizenPlugins::with_seed(21));
        app.insert_resource(FloorMap(reference_base(WorldSeed(21), 10)));
        app.world_mut().write_message(
            CaptiveFloorRequested::new(10, 1)
                .with_special(at(27, 3), SpecialStage::Prisoner)
                .with_special(cell, SpecialStage::DeadEnd),
        );
        app.update();
        let world = app.world_mut();
        let rejected: Vec<(u32, Result<_, _>)> = world
            .resource_mut::<Messages<CaptiveFloorServed>>()
            .drain()
            .map(|answer| (answer.request.map, answer.outcome))
            .collect();
        assert_eq!(
            rejected,
            [(
                10,
                Err(CaptiveFloorRefusal::SpecialCell(SpecialCellRefused {
                    index: 1,
                    cell,
                    tile
                })),
            )]
        );
        let groups = world.query::<&EncounterGroup>().iter(world).count();
        let members = world.query::<&EncounterMember>().iter(world).count();
        assert_eq!((groups, members), (0, 0));
    }
}
