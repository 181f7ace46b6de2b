//! The current floor every rule set places its creatures on.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::FloorGrid;
use serde::{Deserialize, Serialize};

/// The current floor: tiles, rooms and occupied squares. The host fills it, then asks a
/// rule set to populate it; the apply step marks the squares creatures take and applies
/// the plan's tile changes.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorMap(pub FloorGrid);
