//! Encounter groups on base maps (Captive's generator) as entities: a group entity with its
//! members related to it, and the base map or clipboard it drops when its bearer dies.

use std::sync::Arc;

use bevy_ecs::lifecycle::Despawn;
use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::SpeciesId;
use denizen_core::encounters::{
    BaseEncounters, Carry, EncounterSettings, EncounterTable, Member, Stop,
};
use serde::{Deserialize, Serialize};

use crate::components::{GridPos, Species};
use crate::resources::{DenizenRng, FloorMap};

/// The encounter table and the stage's settings.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Resource, Debug)]
pub struct Encounters {
    /// The table (Captive's by default).
    pub table: Arc<EncounterTable>,
    /// Attempts, entrance clearance, memory budget, overflow and growth switches.
    pub settings: EncounterSettings,
}

impl Default for Encounters {
    fn default() -> Self {
        Self {
            table: Arc::new(EncounterTable::captive()),
            settings: EncounterSettings::default(),
        }
    }
}

/// Written by the host after it has filled [`FloorMap`] with a base floor (fire squares,
/// and a dig order if it has one): place this map's encounter groups.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct BaseFloorGenerated {
    /// The global map number, `(mission - 1) x 11 + base`, from 0.
    pub map: u32,
    /// Floors of the base: the first groups get one base map each.
    pub floors: u32,
}

/// The groups of a base floor were placed.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct EncountersPlaced {
    /// The map number.
    pub map: u32,
    /// Groups placed.
    pub groups: u32,
    /// Why the stage stopped early, if it did.
    pub stopped: Option<Stop>,
}

/// A group: its type, speed and square. Its members point at it with [`MemberOf`].
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
#[require(GridPos)]
pub struct EncounterGroup {
    /// The type id.
    pub type_id: u8,
    /// Group speed.
    pub speed: u32,
}

/// A member's group.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[relationship(relationship_target = GroupMembers)]
pub struct MemberOf(pub Entity);

/// The members of a group; despawning the group despawns them.
#[derive(Component, Clone, Debug, Default, PartialEq, Eq)]
#[relationship_target(relationship = MemberOf, linked_spawn)]
pub struct GroupMembers(Vec<Entity>);

impl GroupMembers {
    /// The member entities.
    pub fn members(&self) -> &[Entity] {
        &self.0
    }
}

/// A member's strength, armature, skill and position code in its cell.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct EncounterStats(pub Member);

/// What a group's bearer (its first member) carries: a base map or a clipboard. It is
/// not an item of the object table, so it is its own component rather than [`Inventory`]
/// (crate::Inventory).
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[reflect(Component, Debug, PartialEq, Serialize, Deserialize)]
pub struct Carries(pub Carry);

/// A bearer died (was despawned) and dropped what it carried on its square.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CarryDropped {
    /// What was dropped.
    pub carry: Carry,
    /// Where.
    pub at: GridPos,
}

/// Observer: a despawned bearer drops its base map or clipboard.
pub(crate) fn drop_on_death(
    death: On<Despawn<Carries>>,
    bearers: Query<(&Carries, &GridPos)>,
    mut dropped: MessageWriter<CarryDropped>,
) {
    if let Ok((carries, at)) = bearers.get(death.entity) {
        dropped.write(CarryDropped {
            carry: carries.0,
            at: *at,
        });
    }
}

/// Reads every [`BaseFloorGenerated`] and spawns the map's groups.
pub(crate) fn place_encounters(
    world: &mut World,
    mut cursor: Local<MessageCursor<BaseFloorGenerated>>,
) {
    let requests: Vec<BaseFloorGenerated> = {
        let messages = world.resource::<Messages<BaseFloorGenerated>>();
        cursor.read(messages).copied().collect()
    };
    for request in requests {
        let encounters = world.resource::<Encounters>().clone();
        let mut rng = world
            .resource_mut::<DenizenRng>()
            .next_floor("captive-base", request.map);
        let plan = {
            let grid = &world.resource::<FloorMap>().0;
            BaseEncounters::new(
                &encounters.table,
                encounters.settings,
                request.map,
                request.floors,
            )
            .place(&mut rng, grid)
        };
        for group in &plan.groups {
            let at = GridPos {
                x: group.cell.x,
                y: group.cell.y,
            };
            world
                .resource_mut::<FloorMap>()
                .0
                .set_occupied(group.cell, true);
            let id = world
                .spawn((
                    EncounterGroup {
                        type_id: group.type_id,
                        speed: group.speed,
                    },
                    at,
                ))
                .id();
            let species = SpeciesId(u16::from(group.type_id));
            for (i, member) in group.members.iter().enumerate() {
                let mut entity = world.spawn((
                    Species {
                        id: species,
                        form: species,
                    },
                    at,
                    EncounterStats(*member),
                    MemberOf(id),
                ));
                if let (0, Some(carry)) = (i, group.carries) {
                    entity.insert(Carries(carry));
                }
            }
        }
        world.write_message(EncountersPlaced {
            map: request.map,
            groups: plan.groups.len() as u32,
            stopped: plan.stopped,
        });
    }
}
