//! The Angband rules the plugin uses, and the live-uniques ledger it keeps.

use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_angband::layout::VaultTemplates;
use denizen_angband::{Allocator, LevelOptions, UniqueLedger};
use serde::{Deserialize, Serialize};

/// The Angband rules in use: the allocation table of the races (with its weighted tables,
/// built as draws need them), the vault templates and the level switches. Rebuilt from data rather than saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct AngbandRules {
    /// The allocator over the races (2.7.9's by default).
    pub allocator: Allocator,
    /// The vault templates (2.7.9's by default).
    pub vaults: Arc<VaultTemplates>,
    /// The layout's and population's switches.
    pub options: LevelOptions,
}

/// The uniques the allocator refuses: alive (placed on a level) or killed. Saved. Call
/// `UniqueLedger::kill` when the player kills a unique: 2.7.9 never makes it again. A
/// ledger read from a save is put in order as it is read, and entries naming no unique
/// of the rules are dropped before the next level draws (a documented mend, not an
/// error).
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct AngbandUniques(pub UniqueLedger);
