//! The rules of an Angband game as one value: what levels, their objects and traps are made
//! from.

use std::sync::Arc;

use crate::alloc::Allocator;
use crate::layout::VaultTemplates;
use crate::make::ObjectRules;
use crate::race::Races;
use crate::trap::Traps;

/// Everything Angband's levels are made from: the races' allocation table, the object
/// kinds, ego items and artifacts, the vault templates and the traps. Cheap to clone but
/// for the races.
#[derive(Clone, Debug)]
pub struct AngbandRules {
    /// The allocator over the races.
    pub allocator: Allocator,
    /// The object kinds, ego items and artifacts a level's objects are made from.
    pub objects: ObjectRules,
    /// The vault templates.
    pub vaults: Arc<VaultTemplates>,
    /// The traps.
    pub traps: Arc<Traps>,
}

impl AngbandRules {
    /// A game's own rules (see `Races::from_file`, `ObjectKinds::from_file`,
    /// `VaultTemplates::from_file`, `Traps::from_file`).
    pub fn new(races: Races, objects: ObjectRules, vaults: VaultTemplates, traps: Traps) -> Self {
        Self {
            allocator: Allocator::new(races),
            objects,
            vaults: Arc::new(vaults),
            traps: Arc::new(traps),
        }
    }

    /// Angband 2.7.9's races, objects, vault templates and traps (non-commercial data:
    /// feature `shipped`).
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        Self {
            allocator: Allocator::new(Races::shipped()),
            objects: ObjectRules::shipped(),
            vaults: Arc::new(crate::layout::shipped_vaults().clone()),
            traps: Arc::new(Traps::shipped().clone()),
        }
    }

    /// The races.
    pub fn races(&self) -> &Races {
        self.allocator.races()
    }
}
