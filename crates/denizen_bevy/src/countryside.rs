//! Countryside encounters on the tactical map.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::populate::plan_scatter;

use crate::messages::{FloorPopulated, FloorRejected};
use crate::populate::{spawn, with_builder};
use crate::resources::{Catalogue, CurrentLocation, DenizenRng};

/// Written by the host after it has filled [`FloorMap`](crate::FloorMap) with the tactical
/// map (64 x 16): make the encounter of a terrain (`countryside:plains`, ...,
/// `countryside:road` for terrain without a table). Creatures get awareness 64, their
/// coordinates are not checked (two may share a square), and water-only creatures'
/// squares become water. A [`FloorPopulated`] follows.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CountrysideEncounter {
    /// The terrain's location key.
    pub terrain: String,
}

pub(crate) fn countryside_encounters(
    world: &mut World,
    mut cursor: Local<MessageCursor<CountrysideEncounter>>,
) {
    let requests: Vec<CountrysideEncounter> = {
        let messages = world.resource::<Messages<CountrysideEncounter>>();
        cursor.read(messages).cloned().collect()
    };
    for request in requests {
        let catalogue = world.resource::<Catalogue>().clone();
        let found = catalogue
            .rules()
            .locations
            .get(&request.terrain)
            .map_err(|e| e.to_string());
        let found = found.and_then(|env| match (env.scatter, env.levels().first()) {
            (Some(scatter), Some(level)) => Ok((env, scatter, level)),
            _ => Err(format!(
                "`{}` is not a scattered encounter",
                request.terrain
            )),
        });
        let (env, scatter, level) = match found {
            Ok(found) => found,
            Err(reason) => {
                world.write_message(FloorRejected {
                    location: request.terrain.clone(),
                    depth: 0,
                    reason,
                });
                continue;
            }
        };
        let mut rng = world
            .resource_mut::<DenizenRng>()
            .next_floor(&request.terrain, 0);
        let plan = with_builder(world, &mut rng, level.difficulty, |rng, builder, _| {
            plan_scatter(rng, level, &scatter, builder)
        });
        let mut location = world.resource_mut::<CurrentLocation>();
        location.environment = env.key.clone();
        location.depth = 1;
        location.difficulty = level.difficulty;
        let placed = plan.placements.len() as u32;
        spawn(world, plan);
        world.write_message(FloorPopulated {
            location: request.terrain.clone(),
            depth: 0,
            requested: placed,
            placed,
        });
    }
}
