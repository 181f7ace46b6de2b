//! Countryside encounters on the tactical map.

use bevy_ecs::message::MessageCursor;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;

use super::messages::OmegaFloorRequested;
use crate::pipeline::{read_requests, serve};

/// Written by the host after it has filled [`FloorMap`](crate::FloorMap) with the tactical
/// map (64 x 16): make the encounter of a terrain (`countryside:plains`, ...,
/// `countryside:road` for terrain without a table). Creatures get awareness 64, their
/// coordinates are not checked (two may share a square), and water-only creatures'
/// squares become water. The same as an [`OmegaFloorRequested`] for the terrain's key,
/// served in `OmegaSystems::Floors`; an
/// [`OmegaFloorPopulated`](super::OmegaFloorPopulated) follows.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct CountrysideEncounterRequested {
    /// The terrain's location key.
    pub terrain: String,
}

/// Serves every new [`CountrysideEncounterRequested`] as the terrain's floor.
pub(crate) fn countryside_encounters(
    world: &mut World,
    mut cursor: Local<MessageCursor<CountrysideEncounterRequested>>,
) {
    for request in read_requests(world, &mut cursor) {
        serve(world, &OmegaFloorRequested::new(request.terrain, 1));
    }
}
