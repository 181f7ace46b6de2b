//! Resources the Omega plugin keeps: the rules with the plugin's switches, where the
//! player is, unique items, the game's chronicle, completed dungeons and the moon.

use std::sync::Arc;

use crate::construct::{Chronicle, Preference};
use crate::objects::ItemLedger;
use crate::place::Place;
use crate::select::Selector;
use crate::species::{SpeciesId, SpeciesTemplate};
use crate::{Environment, Level, OmegaRules};
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

use denizen_bevy::floor::{CurrentFloor, FloorId, Maker, maker_of};
use denizen_bevy::pipeline::NotOurFloor;

/// The Omega rules in use: bestiary, locations and variants, with the ordinary pool of
/// every difficulty compiled once (wandering checks, summonings and statues draw from
/// them), and the plugin's switches. Shared, read-only, configuration rather than state:
/// rebuilt from the plugin's builder, never saved, so no load overwrites a switch.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct OmegaRuleset {
    rules: Arc<OmegaRules>,
    pools: Arc<[Option<Selector>]>,
    settings: OmegaSettings,
}

impl OmegaRuleset {
    /// The rules, with their ordinary pools compiled, and the plugin's switches.
    pub fn new(rules: Arc<OmegaRules>, settings: OmegaSettings) -> Self {
        let bands = i64::from(rules.bestiary.band_count());
        let pools = (0..bands)
            .map(|difficulty| Selector::ordinary_pool(&rules.bestiary, difficulty).ok())
            .collect();
        Self {
            rules,
            pools,
            settings,
        }
    }

    /// The plugin's switches.
    pub fn settings(&self) -> OmegaSettings {
        self.settings
    }

    /// One species template, or `None` when the bestiary has no such id (an id from a
    /// save of another bestiary).
    pub fn species(&self, id: SpeciesId) -> Option<&SpeciesTemplate> {
        self.rules.bestiary.try_get(id)
    }

    /// The rules.
    pub fn rules(&self) -> &OmegaRules {
        &self.rules
    }

    /// The ordinary pool at a difficulty (`m_create`'s draw). Difficulties past the last
    /// band, and negative ones, draw from the whole bestiary, as in the source.
    pub fn ordinary_pool(&self, difficulty: i64) -> Option<&Selector> {
        let last = self.pools.len().checked_sub(1)?;
        let at = usize::try_from(difficulty).map_or(last, |d| d.min(last));
        self.pools[at].as_ref()
    }
}

/// Where the player is, for Omega's rules: the environment of the current floor, the
/// dungeon (when the environment is one), the depth and the difficulty there. It follows
/// the current floor: on a floor of another rule set (an Angband level, a Captive base)
/// it is back to its default, an empty environment, and Omega's wandering checks skip.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaCurrentLocation {
    /// Environment key, such as `sewers` or `village`.
    pub environment: String,
    /// The dungeon key when the environment is a dungeon.
    pub dungeon: Option<String>,
    /// Depth (1 outside dungeons).
    pub depth: u32,
    /// Difficulty at this location and depth.
    pub difficulty: i64,
    /// Inside a temple, its deity, whom angels made here serve (see
    /// [`OmegaFloorRequested::deity`](super::OmegaFloorRequested::deity)).
    #[serde(default)]
    pub deity: Option<u8>,
}

impl OmegaCurrentLocation {
    /// The place as the rules see it.
    pub fn place(&self) -> Place<'_> {
        Place {
            environment: &self.environment,
            dungeon: self.dungeon.as_deref(),
            depth: self.depth,
            difficulty: self.difficulty,
            deity: self.deity,
        }
    }

    /// Where the player is on `level` of `environment`, in a temple of `deity`.
    pub fn at(environment: &Environment, level: &Level, deity: Option<u8>) -> Self {
        Self {
            environment: environment.key.clone(),
            dungeon: environment.is_dungeon().then(|| environment.key.clone()),
            depth: level.depth,
            difficulty: level.difficulty,
            deity,
        }
    }

    /// The floor this place is (the floor's location and depth).
    pub fn floor(&self) -> FloorId {
        FloorId::new(self.environment.clone(), self.depth)
    }

    /// The floor Omega's arrivals come onto: the current floor, when it is this place's.
    /// The arrivals pipeline has checked that the current floor is Omega's, or that none
    /// is; with none, this must be no place either (the host's map before any floor), not
    /// an Omega floor put away, which the location still names until another is entered.
    pub(crate) fn arrival_floor(&self, world: &World) -> Result<FloorId, NotOurFloor> {
        let current = &world.resource::<CurrentFloor>().0;
        if self.floor() == *current {
            Ok(current.clone())
        } else {
            Err(NotOurFloor {
                floor: current.clone(),
                maker: maker_of(world, current),
                asked: Maker::rule_set(super::NAME),
            })
        }
    }
}

/// Which unique items exist in the world (made, taken or unmade).
#[derive(Resource, Reflect, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaUniqueItems(pub ItemLedger);

/// The game's history read by the adventurer and officeholder constructors: a new game's
/// by default (Omega's shipped hall of fame and log); the host replaces it with its own.
/// One read from a save is checked against [`Chronicle::check`]'s limits.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaChronicle(pub Chronicle);

/// Dungeons the player has completed: their fixed inhabitants are no longer placed.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaCompletedDungeons(pub std::collections::BTreeSet<String>);

/// The moon phase (0-23), which the host advances; were-humans change on phase 6.
#[derive(
    Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaMoonPhase(pub u8);

/// The Omega plugin's switches, from its builder, held by [`OmegaRuleset`].
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct OmegaSettings {
    /// Nymph or satyr.
    pub preference: Preference,
    /// Treat the player's square as occupied. Off by default, as in the source.
    pub exclude_player_square: bool,
    /// Keep the source's gap: a cavern-type level whose fixed inhabitant is marked for it
    /// (the volcano's bottom) ignores completion. On by default.
    pub cavern_gap: bool,
}

impl Default for OmegaSettings {
    fn default() -> Self {
        Self {
            preference: Preference::Either,
            exclude_player_square: false,
            cavern_gap: true,
        }
    }
}
