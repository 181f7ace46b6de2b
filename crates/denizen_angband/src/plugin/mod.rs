//! Angband 2.7.9 in play: the classic level, its monsters, their uniques and its traps.
//!
//! An [`AngbandFloorRequested`] builds the classic level (or takes the host's floor) and
//! populates it through the [`pipeline`](denizen_bevy::pipeline), one entity per monster; a
//! level's end gives its living uniques back to the allocator; an
//! [`AngbandTrapSpringRequested`] springs a trap through the
//! [`arrivals`](denizen_bevy::arrivals) pipeline, answered with an [`AngbandTrapSprung`].
//!
//! Built on `denizen_bevy`'s public rule-set API alone: [`AngbandPlugin`] takes its place
//! among the rule sets with the sets [`AngbandSystems::Floors`] and
//! [`AngbandSystems::Arrivals`], and holds its switches in one [`AngbandSettings`]. Its
//! default rules are Angband 2.7.9's own (feature `shipped`, non-commercial data); without
//! it a game gives [`AngbandPlugin::new`] its own.

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
mod level;
pub mod messages;
mod registration;
pub mod resources;
mod traps;
pub mod view;

use std::sync::Arc;

use crate::layout::VaultTemplates;
use crate::{Allocator, AngbandRules, Autoscum, ObjectRules, Races, Traps};
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;

#[cfg(feature = "assets")]
pub use assets::AngbandDataAssets;
use components::{
    AngbandGold, AngbandMonster, AngbandObject, Energy, HitPoints, SleepCounter, Speed,
};
use denizen_bevy::rule_set::{RuleSetApp, RuleSetPlugin};
use denizen_bevy::save::GuessFrom;
use denizen_bevy::{RuleSet, SaveWithDenizen};
pub use level::AngbandFloorPlan;
pub use messages::{
    AngbandFloorPopulated, AngbandFloorRefusal, AngbandFloorRequested, AngbandFloorServed,
    AngbandLevelFeeling, AngbandObjectRequested, AngbandSprung, AngbandTrapRefusal,
    AngbandTrapSpringRequested, AngbandTrapSprung, LevelFloor,
};
pub use registration::AngbandTypes;
pub use resources::{
    AngbandAppraiser, AngbandArtifacts, AngbandLastLevel, AngbandRuleset, AngbandSettings,
    AngbandStoredLevels, AngbandTerrain, AngbandUniques, StoredLevel,
};
pub use traps::TrapPlan;

/// Angband's systems, each set inside a [`DenizenSystems`](denizen_bevy::DenizenSystems)
/// phase, after those of the rule sets added before Angband.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AngbandSystems {
    /// In [`DenizenSystems::Floors`](denizen_bevy::DenizenSystems::Floors): levels made
    /// through the [`pipeline`](denizen_bevy::pipeline).
    Floors,
    /// In [`DenizenSystems::Arrivals`](denizen_bevy::DenizenSystems::Arrivals): traps
    /// sprung, and their summons.
    Arrivals,
}

/// Angband 2.7.9's levels as a plugin: the host writes [`AngbandFloorRequested`] and, on
/// the next run of the plugins' schedule, gets the level in [`FloorMap`](denizen_bevy::FloorMap)
/// (unless it brought its own floor), an entity per monster with [`AngbandMonster`],
/// [`HitPoints`], [`Speed`], [`Energy`] and [`SleepCounter`], and the answer, an
/// [`AngbandFloorServed`] holding an [`AngbandFloorPopulated`]. Adds a default
/// [`DenizenPlugin`](denizen_bevy::DenizenPlugin) if the host has not.
///
/// The shipped races and vault templates are Angband 2.7.9's, under its non-commercial
/// notice; a game brings its own with [`with_races`](Self::with_races),
/// [`with_vaults`](Self::with_vaults) and [`with_traps`](Self::with_traps).
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_angband::plugin::AngbandPlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), AngbandPlugin::default()));
/// ```
#[derive(Clone, Debug)]
pub struct AngbandPlugin {
    rules: AngbandRules,
    settings: AngbandSettings,
    #[cfg(feature = "assets")]
    data: Option<assets::AngbandDataAssets>,
}

#[cfg(feature = "shipped")]
impl Default for AngbandPlugin {
    /// Angband 2.7.9's races, objects, vault templates and traps, every switch faithful
    /// (feature `shipped`).
    fn default() -> Self {
        Self::from_settings(AngbandSettings::default())
    }
}

impl AngbandPlugin {
    /// A game's own rules (its own data files), every switch faithful: what a game without
    /// the `shipped` feature starts from.
    pub fn new(rules: AngbandRules) -> Self {
        Self {
            rules,
            settings: AngbandSettings::default(),
            #[cfg(feature = "assets")]
            data: None,
        }
    }

    /// Angband 2.7.9's rules with these switches (feature `shipped`).
    #[cfg(feature = "shipped")]
    pub fn from_settings(settings: AngbandSettings) -> Self {
        Self {
            settings,
            ..Self::new(AngbandRules::shipped())
        }
    }

    /// A game's own rules: races, objects, vault templates and traps.
    pub fn with_rules(mut self, rules: AngbandRules) -> Self {
        self.rules = rules;
        self
    }

    /// A game's own races (see `Races::from_file`).
    pub fn with_races(mut self, races: Races) -> Self {
        self.rules.allocator = Allocator::new(races);
        self
    }

    /// A game's own object kinds, ego items and artifacts (see `ObjectKinds::from_file`,
    /// `Egos::from_file`, `Artifacts::from_file`; an ego item the class tables name and
    /// the file lacks makes none).
    pub fn with_objects(mut self, objects: ObjectRules) -> Self {
        self.rules.objects = objects;
        self
    }

    /// A game's own vault templates (see `VaultTemplates::from_file`).
    pub fn with_vaults(mut self, vaults: VaultTemplates) -> Self {
        self.rules.vaults = Arc::new(vaults);
        self
    }

    /// A game's own traps (see `Traps::from_file`).
    pub fn with_traps(mut self, traps: Traps) -> Self {
        self.rules.traps = Arc::new(traps);
        self
    }

    /// Takes any of the races, vaults, traps, object kinds, ego items and artifacts from
    /// data files loaded as assets (feature `assets`; see [`denizen_bevy::assets`]): requests are
    /// refused until they have loaded, and an edited file is swapped in while the game
    /// runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::AngbandDataAssets) -> Self {
        self.data = Some(files);
        self
    }

    /// 2.7.9's inner-room guard slip (on by default): see
    /// [`LevelOptions::guard_level_slip`](crate::LevelOptions::guard_level_slip).
    pub fn guard_level_slip(mut self, on: bool) -> Self {
        self.settings.guard_level_slip = on;
        self
    }

    /// Turns floor the player cannot reach (outside vaults) into rock (off by default:
    /// 2.7.9 does not check connectivity).
    pub fn seal_unreachable(mut self, on: bool) -> Self {
        self.settings.seal_unreachable = on;
        self
    }

    /// The autoscummer (off by default): classic levels whose feeling is below the
    /// chart's are made again, the number thrown away reported in `AngbandFloorPopulated`.
    /// A host's own floor is never made again (it has no rooms to rate).
    pub fn autoscum(mut self, autoscum: Autoscum) -> Self {
        self.settings.autoscum = autoscum;
        self
    }

    /// Preserve mode (off by default): no level feels special (the flag is still set),
    /// and artifacts left on a wiped level can be made again.
    pub fn preserve(mut self, on: bool) -> Self {
        self.settings.preserve = on;
        self
    }

    /// Whether a level's objects and gold become entities (`AngbandObject`,
    /// `AngbandGold`) on their squares (on by default). A game with its own item system
    /// turns it off and reads the same objects as data from `AngbandFloorPopulated`.
    pub fn object_entities(mut self, on: bool) -> Self {
        self.settings.object_entities = on;
        self
    }

    /// The rules this plugin makes levels with.
    pub fn rules(&self) -> &AngbandRules {
        &self.rules
    }

    /// The plugin's switches.
    pub fn settings(&self) -> AngbandSettings {
        self.settings
    }
}

/// The rule set's name: the [`Maker`](denizen_bevy::floor::Maker) of its levels.
pub const NAME: &str = "Angband";

impl Plugin for AngbandPlugin {
    fn build(&self, app: &mut App) {
        app.add_rule_set(
            RuleSet::new(NAME)
                .rules::<AngbandRuleset>()
                .floors(AngbandSystems::Floors)
                .arrivals(AngbandSystems::Arrivals)
                .describer(view::describe),
        )
        .insert_resource(AngbandRuleset::new(self.rules.clone(), self.settings))
        .init_resource::<AngbandUniques>()
        .init_resource::<AngbandArtifacts>()
        .init_resource::<AngbandLastLevel>()
        .init_resource::<AngbandTerrain>()
        .serve_floors::<AngbandFloorRequested>(AngbandSystems::Floors)
        .serve_arrivals::<AngbandTrapSpringRequested>(AngbandSystems::Arrivals)
        .add_message::<AngbandObjectRequested>()
        .add_message::<AngbandLevelFeeling>()
        .save_with_denizen::<AngbandUniques>()
        .save_with_denizen::<AngbandArtifacts>()
        .save_with_denizen::<AngbandLastLevel>()
        .keep_per_floor::<StoredLevel>(NAME)
        .saved_before_as::<AngbandStoredLevels, _>(
            "denizen_angband::plugin::resources::AngbandStoredLevels",
            resources::LevelsByDepth::by_floor,
        )
        .save_with_denizen::<AngbandTerrain>()
        .save_with_denizen::<AngbandMonster>()
        .check_saves_with(resources::check_ids)
        .guess_makers_with(NAME, GuessFrom::Name, |_, floor| {
            *floor.location == *crate::streams::PLACE
        })
        .save_with_denizen::<AngbandObject>()
        .save_with_denizen::<AngbandGold>()
        .save_with_denizen::<HitPoints>()
        .save_with_denizen::<Speed>()
        .save_with_denizen::<Energy>()
        .save_with_denizen::<SleepCounter>()
        .add_plugins(AngbandTypes)
        .add_observer(level::level_ended)
        .add_observer(level::level_wiped)
        .add_observer(level::level_entered);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            denizen_bevy::assets::follow(
                app,
                files.clone(),
                &assets::KINDS,
                AngbandSystems::Floors,
            );
        }
    }
}

impl RuleSetPlugin for AngbandPlugin {
    fn expect_requests(app: &mut App) {
        app.expect_served::<AngbandFloorRequested>("AngbandPlugin")
            .expect_served::<AngbandTrapSpringRequested>("AngbandPlugin");
    }
}

/// The Angband types most games need: `use denizen_angband::plugin::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::AngbandDataAssets;
    pub use super::components::{
        AngbandGold, AngbandMonster, AngbandObject, Energy, HitPoints, SleepCounter, Speed,
    };
    pub use super::messages::{
        AngbandFloorPopulated, AngbandFloorRefusal, AngbandFloorRequested, AngbandFloorServed,
        AngbandLevelFeeling, AngbandObjectRequested, AngbandSprung, AngbandTrapRefusal,
        AngbandTrapSpringRequested, AngbandTrapSprung, LevelFloor,
    };
    pub use super::resources::{
        AngbandAppraiser, AngbandArtifacts, AngbandLastLevel, AngbandRuleset, AngbandStoredLevels,
        AngbandTerrain, AngbandUniques, StoredLevel,
    };
    pub use super::view::roster as angband_roster;
    pub use super::{AngbandPlugin, AngbandSystems};
    pub use crate::{
        Appraisal, Autoscum, Feeling, LevelRefusal, MadeGold, MadeObject, QUEST_DEPTHS, Terrain,
    };
}
