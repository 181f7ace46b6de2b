//! Countryside encounters on the tactical map.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::floor::FloorId;
use denizen_bevy::pipeline::{FloorRequest, FloorServed, FloorStreams};

use super::messages::{OmegaFloorPopulated, OmegaFloorRefusal, OmegaFloorRequested};
use super::populate::{OmegaFloor, OmegaFloorPlan};
use super::resources::OmegaRuleset;

/// Written by the host after it has filled [`FloorMap`](denizen_bevy::FloorMap) with the
/// tactical map (64 x 16): make the encounter of a terrain (`countryside:plains`, ...,
/// `countryside:road` for terrain without a table). Creatures get awareness 64, their
/// coordinates are not checked (two may share a square), and water-only creatures' squares
/// become water. A `FloorMap` smaller than the tactical map is refused
/// ([`OmegaFloorRefusal::MapTooSmall`]): the creatures would stand off the floor. The same
/// as an [`OmegaFloorRequested`] for the terrain's key, answered alike (a
/// [`OmegaCountrysideEncounterServed`]), served in `OmegaSystems::Floors` after the floors.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaCountrysideEncounterRequested {
    /// The terrain's location key.
    pub terrain: String,
}

impl OmegaCountrysideEncounterRequested {
    /// The terrain's floor request.
    fn floor(&self) -> OmegaFloorRequested {
        OmegaFloorRequested::new(self.terrain.clone(), 1)
    }
}

/// The answer to an [`OmegaCountrysideEncounterRequested`]: what was populated, or why
/// nothing was.
pub type OmegaCountrysideEncounterServed = FloorServed<OmegaCountrysideEncounterRequested>;

/// Every step is the terrain's floor request's.
impl FloorRequest for OmegaCountrysideEncounterRequested {
    type Rules = OmegaRuleset;
    type Valid = OmegaFloor;
    type Plan = OmegaFloorPlan;
    type Populated = OmegaFloorPopulated;
    type Refusal = OmegaFloorRefusal;

    fn validate(&self, world: &World) -> Result<(FloorId, OmegaFloor), OmegaFloorRefusal> {
        self.floor().validate(world)
    }

    fn plan(
        &self,
        world: &World,
        valid: OmegaFloor,
        streams: &mut FloorStreams<'_>,
    ) -> OmegaFloorPlan {
        self.floor().plan(world, valid, streams)
    }

    fn apply(
        &self,
        world: &mut World,
        floor: &FloorId,
        plan: OmegaFloorPlan,
    ) -> OmegaFloorPopulated {
        self.floor().apply(world, floor, plan)
    }
}
