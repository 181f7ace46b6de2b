//! The Angband rules the plugin uses, and the live-uniques ledger it keeps.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_angband::{Allocator, LevelOptions, LiveUniques};
use serde::{Deserialize, Serialize};

/// The Angband rules in use: the allocation table of the races (with its weighted tables,
/// built as draws need them) and the level switches. Rebuilt from data rather than saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct AngbandRules {
    /// The allocator over the races (2.7.9's by default).
    pub allocator: Allocator,
    /// The layout's and population's switches.
    pub options: LevelOptions,
}

/// The uniques alive in the world: a unique placed on a level joins it, and the allocator
/// refuses it while it is here. Saved; remove a unique when the player kills it. One read
/// from a save that names a race that is not a unique of the rules is replaced by an
/// empty ledger and reported with [`AngbandLevelRejected`](super::AngbandLevelRejected).
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandUniques(pub LiveUniques);
