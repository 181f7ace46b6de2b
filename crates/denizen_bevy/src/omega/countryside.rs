//! Countryside encounters on the tactical map.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;

use super::messages::FloorGenerated;
use super::populate::populate;

/// Written by the host after it has filled [`FloorMap`](crate::FloorMap) with the tactical
/// map (64 x 16): make the encounter of a terrain (`countryside:plains`, ...,
/// `countryside:road` for terrain without a table). Creatures get awareness 64, their
/// coordinates are not checked (two may share a square), and water-only creatures'
/// squares become water. The same as a [`FloorGenerated`] for the terrain's key; a
/// [`FloorPopulated`](super::FloorPopulated) follows.
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
        populate(world, &FloorGenerated::new(request.terrain, 1));
    }
}
