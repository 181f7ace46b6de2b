//! Resources the plugin keeps: the rules, where the player is, the floor, unique items,
//! the generator and the game's chronicle.

use std::collections::HashMap;
use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::floor::FloorGrid;
use denizen_core::objects::ItemLedger;
use denizen_core::rng::{Generator, StreamPurpose, WorldSeed};
use denizen_core::{Ruleset, Species as SpeciesTemplate, SpeciesId};
use serde::{Deserialize, Serialize};

/// The rules in use: species, items and locations. Shared, read-only.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Resource, Debug)]
pub struct Catalogue(pub Arc<Ruleset>);

impl Catalogue {
    /// One species template.
    pub fn species(&self, id: SpeciesId) -> &SpeciesTemplate {
        self.0.catalogue.get(id)
    }

    /// The rules.
    pub fn rules(&self) -> &Ruleset {
        &self.0
    }
}

/// Where the population rules last ran: the environment, the dungeon (when the
/// environment is one), the depth and the difficulty there.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurrentLocation {
    /// Environment key, such as `sewers` or `village`.
    pub environment: String,
    /// The dungeon key when the environment is a dungeon.
    pub dungeon: Option<String>,
    /// Depth (1 outside dungeons).
    pub depth: u32,
    /// Difficulty at this location and depth.
    pub difficulty: i64,
}

/// The current floor: tiles and occupied squares. The host fills it, then writes
/// [`FloorGenerated`](crate::FloorGenerated); population marks squares occupied and turns
/// water-only creatures' squares to water.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloorMap(pub FloorGrid);

/// Which unique items exist in the world (made, taken or unmade).
#[derive(Resource, Reflect, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Debug, PartialEq, Serialize, Deserialize)]
pub struct UniqueItems(pub ItemLedger);

/// The game's history read by the adventurer and officeholder constructors. The host
/// replaces it with its own log and offices; the default has none and stand-ins.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chronicle(pub denizen_core::construct::Chronicle);

/// The world seed, and how many times each floor was generated. A floor's stream is a
/// function of the seed, the location, the depth and that count only, so it never
/// depends on what was generated before it.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct DenizenRng {
    /// The world seed.
    pub seed: u64,
    /// Generations so far per location, then per depth.
    pub generations: HashMap<String, HashMap<u32, u64>>,
}

impl DenizenRng {
    /// A generator with this world seed and no floors generated yet.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            generations: HashMap::new(),
        }
    }

    /// The stream for the next generation of a floor (and counts it).
    pub fn next_floor(&mut self, location: &str, depth: u32) -> Generator {
        self.next_stream("floor", location, depth)
    }

    /// The stream for the next event of a kind (`"floor"`, `"wander"`, `"summon"`, ...)
    /// at a location and depth, counted per kind, location and depth.
    pub fn next_stream(&mut self, kind: &str, location: &str, depth: u32) -> Generator {
        let key = if kind == "floor" {
            location.to_owned()
        } else {
            format!("{kind}:{location}")
        };
        let depths = match self.generations.get_mut(&key) {
            Some(depths) => depths,
            None => self.generations.entry(key).or_default(),
        };
        let count = depths.entry(depth).or_default();
        let purpose = StreamPurpose::new(kind)
            .with_str(location)
            .with(depth.into())
            .with(*count);
        *count += 1;
        WorldSeed(self.seed).stream(purpose)
    }
}

/// Dungeons the player has completed: their fixed inhabitants are no longer placed.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletedDungeons(pub std::collections::BTreeSet<String>);

/// The moon phase (0-23), which the host advances; were-humans change on phase 6.
#[derive(
    Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoonPhase(pub u8);
