//! A game's own bestiary in play: floors populated from its tables through
//! `TablesFloorRequested`, uniques kept across floors, wandering arrivals on the game
//! clock, the files as assets followed while the game runs, and saves.
//!
//! Built on `denizen_bevy`'s public rule-set API alone, as the shipped rule sets are:
//! [`TablesPlugin`] takes its place among the rule sets with the sets
//! [`TablesSystems::Floors`] and [`TablesSystems::Arrivals`], serves its floors through the
//! [`pipeline`](denizen_bevy::pipeline) and its arrivals through the
//! [`arrivals`](denizen_bevy::arrivals) pipeline.

#[cfg(feature = "assets")]
pub mod assets;
pub mod components;
pub mod messages;
mod place;
mod records;
mod registration;
pub mod resources;
mod saves;
mod uniques;
pub mod view;
pub mod wander;

use std::sync::Arc;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen_bevy::pipeline::{RulesLoading, serve_floor_requests};
use denizen_bevy::rule_set::{RuleSetApp, RuleSetPlugin};
use denizen_bevy::save::GuessFrom;
use denizen_bevy::{RuleSet, SaveWithDenizen};

use crate::Bestiary;
#[cfg(feature = "assets")]
pub use assets::TablesDataAssets;
use components::{
    Asleep, CreatureData, CreatureTags, FollowerRole, Followers, Follows, HomeRegion, OutOfDepth,
    Possession, TablesCreature, TablesHitPoints, Unique,
};
pub use messages::{
    PopulatedRegion, TablesFloorPopulated, TablesFloorRefusal, TablesFloorRequested,
    TablesFloorServed, TablesLintWarnings, TablesStateMended, TablesUniqueKillRefused,
    TablesUniqueKilled, Unplaced,
};
pub use registration::TablesTypes;
pub use resources::{TablesContext, TablesFloors, TablesRuleset, TablesUniques, TagArea};
pub use wander::{
    TablesArrival, TablesClockUnused, TablesWandered, TablesWanderingCheck, TablesWanderingSkip,
};

/// A game's own bestiary as a plugin: the host fills
/// [`FloorMap`](denizen_bevy::FloorMap), writes a [`TablesFloorRequested`] naming the
/// floor's location and depth, and gets one entity per creature placed, with
/// [`TablesCreature`], [`TablesHitPoints`], [`CreatureTags`] and, when they apply, [`CreatureData`], [`Asleep`],
/// [`Possession`], [`Unique`], [`OutOfDepth`], [`HomeRegion`] (a creature of a region's
/// draw), and for a follower [`Follows`] (its leader, whose [`Followers`] list it) and
/// [`FollowerRole`]. Adds a default
/// [`DenizenPlugin`](denizen_bevy::DenizenPlugin) if the host has not.
///
/// ```
/// use bevy_app::App;
/// use denizen_bevy::DenizenPlugin;
/// use denizen_tables::plugin::TablesPlugin;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), TablesPlugin::default()));
/// ```
#[derive(Clone, Debug)]
pub struct TablesPlugin {
    rules: Arc<Bestiary>,
    #[cfg(feature = "assets")]
    data: Option<assets::TablesDataAssets>,
}

impl Default for TablesPlugin {
    /// The starter bestiary ([`starter`](crate::starter)): forty-odd creatures of this
    /// project's own, to play with before writing one's own.
    fn default() -> Self {
        // The starter files are compiled in and their load is tested (`starter_loads`).
        let starter = crate::starter().expect("the starter bestiary loads");
        Self {
            rules: Arc::new(starter),
            #[cfg(feature = "assets")]
            data: None,
        }
    }
}

impl TablesPlugin {
    /// A game's own bestiary (from [`load`](crate::load)).
    pub fn with_rules(mut self, bestiary: Bestiary) -> Self {
        self.rules = Arc::new(bestiary);
        self
    }

    /// Takes the bestiary from files loaded as assets (feature `assets`; see
    /// [`TablesDataAssets`]): requests are refused until they have loaded, and edited files
    /// are swapped in while the game runs.
    #[cfg(feature = "assets")]
    pub fn data_assets(mut self, files: assets::TablesDataAssets) -> Self {
        self.data = Some(files);
        self
    }

    /// The bestiary this plugin starts with.
    pub fn rules(&self) -> &Bestiary {
        &self.rules
    }
}

/// The tables plugin's systems, each set inside a
/// [`DenizenSystems`](denizen_bevy::DenizenSystems) phase.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TablesSystems {
    /// In [`DenizenSystems::Floors`](denizen_bevy::DenizenSystems::Floors), after the
    /// floors of the rule sets added before it: the kills reported
    /// ([`TablesUniqueKilled`]), the saved state checked when it or the rules changed
    /// ([`TablesStateMended`]), then the floors asked for, through the
    /// [`pipeline`](denizen_bevy::pipeline).
    Floors,
    /// In [`DenizenSystems::Arrivals`](denizen_bevy::DenizenSystems::Arrivals): the
    /// wandering checks of the game turns spent on the current floor, if the plugin made
    /// it, through the [`arrivals`](denizen_bevy::arrivals) pipeline.
    Arrivals,
}

/// The rule set's name: the [`Maker`](denizen_bevy::floor::Maker) of its floors.
pub const NAME: &str = "Tables";

impl Plugin for TablesPlugin {
    fn build(&self, app: &mut App) {
        let schedule = denizen_bevy::denizen_schedule(app);
        app.add_rule_set(
            RuleSet::new(NAME)
                .rules::<TablesRuleset>()
                .floors(TablesSystems::Floors)
                .arrivals(TablesSystems::Arrivals)
                .describer(view::describe),
        )
        .insert_resource(TablesRuleset::new(self.rules.clone()))
        .serve_floors::<TablesFloorRequested>(TablesSystems::Floors)
        .serve_messages::<TablesUniqueKilled>()
        .add_systems(
            schedule,
            (
                (
                    uniques::kills,
                    saves::check_saved_state
                        .run_if(saves::state_changed)
                        .run_if(not(resource_exists::<RulesLoading<TablesRuleset>>)),
                )
                    .chain()
                    .in_set(TablesSystems::Floors)
                    .before(serve_floor_requests::<TablesFloorRequested>),
                wander::wandering_checks.in_set(TablesSystems::Arrivals),
            ),
        );
        register(app);
        #[cfg(feature = "assets")]
        if let Some(files) = &self.data {
            let set = TablesSystems::Floors;
            denizen_bevy::assets::follow(app, files.clone(), &assets::KINDS, set);
        }
    }
}

/// The plugin's messages, observers, saved types and reflected types.
fn register(app: &mut App) {
    app.add_message::<TablesUniqueKillRefused>()
        .add_message::<TablesLintWarnings>()
        .add_message::<TablesStateMended>()
        .add_message::<TablesWandered>()
        .add_message::<TablesClockUnused>()
        .init_resource::<wander::ClockWatch>()
        .init_resource::<TablesUniques>()
        .init_resource::<TablesContext>()
        .init_resource::<uniques::PendingKills>()
        .save_with_denizen::<TablesCreature>()
        .save_with_denizen::<TablesHitPoints>()
        .save_with_denizen::<CreatureTags>()
        .save_with_denizen::<CreatureData>()
        .save_with_denizen::<Asleep>()
        .save_with_denizen::<Possession>()
        .save_with_denizen::<Unique>()
        .save_with_denizen::<OutOfDepth>()
        .save_with_denizen::<Follows>()
        .save_with_denizen::<Followers>()
        .save_with_denizen::<FollowerRole>()
        .save_with_denizen::<HomeRegion>()
        .save_with_denizen::<TablesUniques>()
        .save_with_denizen::<TablesContext>()
        .keep_per_floor::<resources::TablesFloor>(NAME)
        .saved_before::<TablesFloors>("denizen_tables::plugin::resources::TablesFloors")
        .check_saves_with(saves::check)
        .guess_makers_with(NAME, GuessFrom::Record, |world, floor| {
            (world.get_resource::<TablesFloors>()).is_some_and(|f| f.0.contains_key(floor))
        })
        .add_plugins(TablesTypes)
        .add_observer(records::floor_entered)
        .add_observer(uniques::unique_gone);
}

impl RuleSetPlugin for TablesPlugin {
    fn expect_requests(app: &mut App) {
        app.expect_served::<TablesFloorRequested>("TablesPlugin")
            .expect_served::<TablesUniqueKilled>("TablesPlugin");
    }
}

/// The tables types most games need: `use denizen_tables::plugin::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "assets")]
    pub use super::assets::TablesDataAssets;
    pub use super::components::{
        Asleep, CreatureData, CreatureTags, FollowerRole, Followers, Follows, HomeRegion,
        OutOfDepth, Possession, TablesCreature, TablesHitPoints, Unique,
    };
    pub use super::messages::{
        PopulatedRegion, TablesFloorPopulated, TablesFloorRefusal, TablesFloorRequested,
        TablesFloorServed, TablesLintWarnings, TablesStateMended, TablesUniqueKillRefused,
        TablesUniqueKilled, Unplaced,
    };
    pub use super::resources::{
        TablesContext, TablesFloors, TablesRuleset, TablesUniques, TagArea,
    };
    pub use super::view::roster as tables_roster;
    pub use super::wander::{
        TablesArrival, TablesClockUnused, TablesWandered, TablesWanderingSkip,
    };
    pub use super::{TablesPlugin, TablesSystems};
}

#[cfg(test)]
mod tests {
    #[test]
    fn starter_loads() {
        assert!(crate::starter().is_ok());
    }
}
