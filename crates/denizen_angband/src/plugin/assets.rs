//! Angband's data files as assets (feature `assets`): any of the races, vault templates,
//! traps, object kinds, ego items and artifacts; a file not given keeps the plugin's (see
//! [`denizen_bevy::assets`]).

use std::sync::Arc;

use crate::layout::VaultTemplates;
use crate::{Allocator, Artifacts, Egos, ObjectAllocator, ObjectKinds, ObjectRules, Races, Traps};
use bevy_app::App;
use bevy_ecs::prelude::*;
use denizen_core::data::DataError;

use super::resources::AngbandRuleset;
use denizen_bevy::assets::{AnySlot, DataSlot, DataSource, DataSources, register_kind};

denizen_bevy::data_kinds! {
    /// A race file (`*.races.ron`).
    RacesFile = "races.ron";
    /// Vault templates (`*.vaults.ron`).
    VaultsFile = "vaults.ron";
    /// Traps (`*.traps.ron`).
    TrapsFile = "traps.ron";
    /// Object kinds (`*.objects.ron`).
    ObjectsFile = "objects.ron";
    /// Ego items (`*.egos.ron`).
    EgosFile = "egos.ron";
    /// Artifacts (`*.artifacts.ron`).
    ArtifactsFile = "artifacts.ron";
}

/// The loaders of every Angband kind.
pub(super) const KINDS: [fn(&mut App); 6] = [
    register_kind::<RacesFile>,
    register_kind::<VaultsFile>,
    register_kind::<TrapsFile>,
    register_kind::<ObjectsFile>,
    register_kind::<EgosFile>,
    register_kind::<ArtifactsFile>,
];

/// Angband's data files as assets, for
/// [`AngbandPlugin::data_assets`](super::AngbandPlugin::data_assets): each file is
/// optional, and one not given keeps what the plugin's builder set (2.7.9's by default).
#[derive(Resource, Clone, Debug, Default)]
pub struct AngbandDataAssets {
    races: Option<DataSlot<RacesFile>>,
    vaults: Option<DataSlot<VaultsFile>>,
    traps: Option<DataSlot<TrapsFile>>,
    objects: Option<DataSlot<ObjectsFile>>,
    egos: Option<DataSlot<EgosFile>>,
    artifacts: Option<DataSlot<ArtifactsFile>>,
}

impl AngbandDataAssets {
    /// The game's race file.
    pub fn races(mut self, races: impl Into<DataSource<RacesFile>>) -> Self {
        self.races = Some(DataSlot::new(races.into()));
        self
    }

    /// The game's vault templates.
    pub fn vaults(mut self, vaults: impl Into<DataSource<VaultsFile>>) -> Self {
        self.vaults = Some(DataSlot::new(vaults.into()));
        self
    }

    /// The game's traps.
    pub fn traps(mut self, traps: impl Into<DataSource<TrapsFile>>) -> Self {
        self.traps = Some(DataSlot::new(traps.into()));
        self
    }

    /// The game's object kinds.
    pub fn objects(mut self, objects: impl Into<DataSource<ObjectsFile>>) -> Self {
        self.objects = Some(DataSlot::new(objects.into()));
        self
    }

    /// The game's ego items.
    pub fn egos(mut self, egos: impl Into<DataSource<EgosFile>>) -> Self {
        self.egos = Some(DataSlot::new(egos.into()));
        self
    }

    /// The game's artifacts.
    pub fn artifacts(mut self, artifacts: impl Into<DataSource<ArtifactsFile>>) -> Self {
        self.artifacts = Some(DataSlot::new(artifacts.into()));
        self
    }
}

impl DataSources for AngbandDataAssets {
    const RULE_SET: &'static str = "Angband";
    type Ruleset = AngbandRuleset;

    fn slots(&mut self) -> Vec<&mut dyn AnySlot> {
        let mut slots: Vec<&mut dyn AnySlot> = Vec::new();
        if let Some(slot) = &mut self.races {
            slots.push(slot);
        }
        if let Some(slot) = &mut self.vaults {
            slots.push(slot);
        }
        if let Some(slot) = &mut self.traps {
            slots.push(slot);
        }
        if let Some(slot) = &mut self.objects {
            slots.push(slot);
        }
        if let Some(slot) = &mut self.egos {
            slots.push(slot);
        }
        if let Some(slot) = &mut self.artifacts {
            slots.push(slot);
        }
        slots
    }

    fn install(&self, world: &mut World) -> Result<(), DataError> {
        let ruleset = world.resource::<AngbandRuleset>();
        let (mut rules, settings) = (ruleset.rules().clone(), ruleset.settings());
        if let Some(slot) = &self.races {
            rules.allocator = Allocator::new(Races::from_file(slot.file(world)?)?);
        }
        if let Some(slot) = &self.vaults {
            let file = slot.file(world)?;
            rules.vaults = Arc::new(VaultTemplates::from_file(file)?);
        }
        if let Some(slot) = &self.traps {
            rules.traps = Arc::new(Traps::from_file(slot.file(world)?)?);
        }
        let ObjectRules {
            allocator,
            egos,
            artifacts,
        } = rules.objects;
        let kinds = match &self.objects {
            Some(slot) => ObjectAllocator::new(ObjectKinds::from_file(slot.file(world)?)?),
            None => allocator,
        };
        rules.objects = ObjectRules {
            allocator: kinds,
            egos: match &self.egos {
                Some(slot) => Egos::from_file(slot.file(world)?)?,
                None => egos,
            },
            artifacts: match &self.artifacts {
                Some(slot) => Artifacts::from_file(slot.file(world)?)?,
                None => artifacts,
            },
        };
        world.insert_resource(AngbandRuleset::new(rules, settings));
        Ok(())
    }
}
