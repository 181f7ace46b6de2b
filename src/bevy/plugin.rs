//! The neutral plugin as the facade gives it: every request of the enabled rule sets
//! declared, so one written while its plugin is missing stops the app naming it.

use bevy_app::{App, Plugin};
use bevy_ecs::intern::Interned;
use bevy_ecs::schedule::ScheduleLabel;
#[cfg(any(
    feature = "omega",
    feature = "captive",
    feature = "angband",
    feature = "tables"
))]
use denizen_bevy::rule_set::RuleSetPlugin as _;

/// The neutral denizen plugin ([`denizen_bevy::DenizenPlugin`]: the world seed and its
/// streams, the floors, the clock, the [`DenizenSystems`](super::DenizenSystems) phases),
/// with every request of the rule sets this build's features enable declared
/// ([`expect_served`](super::RuleSetApp::expect_served)): a game that adds it with some
/// rule-set plugins and writes a request of one it left out (`AngbandFloorRequested`
/// without `AngbandPlugin`, a `TablesUniqueKilled` without `TablesPlugin`) has the app stop
/// at its next run with a message naming the plugin to add, where the request would vanish.
///
/// [`DenizenPlugins`](super::DenizenPlugins) holds it. A rule-set plugin added without it
/// brings `denizen_bevy`'s, which knows no rule set: only the requests of the plugins
/// added are then served, and those of the others are not declared.
///
/// ```
/// use bevy_app::App;
/// use denizen::prelude::*;
///
/// App::new().add_plugins((DenizenPlugin::with_seed(7), OmegaPlugin::default()));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DenizenPlugin(denizen_bevy::DenizenPlugin);

impl DenizenPlugin {
    /// A world seed: the same seed and inputs give the same creatures.
    pub fn with_seed(seed: u64) -> Self {
        Self(denizen_bevy::DenizenPlugin::with_seed(seed))
    }

    /// Runs the systems in another schedule (such as a turn schedule of the host's)
    /// instead of `Update`.
    pub fn in_schedule(self, schedule: impl ScheduleLabel) -> Self {
        Self(self.0.in_schedule(schedule))
    }

    /// The world seed.
    pub fn seed(&self) -> u64 {
        self.0.seed()
    }

    /// The schedule the plugins' systems run in.
    pub fn schedule(&self) -> Interned<dyn ScheduleLabel> {
        self.0.schedule()
    }
}

impl From<DenizenPlugin> for denizen_bevy::DenizenPlugin {
    fn from(plugin: DenizenPlugin) -> Self {
        plugin.0
    }
}

impl Plugin for DenizenPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(self.0.clone());
        #[cfg(feature = "omega")]
        denizen_omega::plugin::OmegaPlugin::expect_requests(app);
        #[cfg(feature = "angband")]
        denizen_angband::plugin::AngbandPlugin::expect_requests(app);
        #[cfg(feature = "captive")]
        denizen_captive::plugin::CaptivePlugin::expect_requests(app);
        #[cfg(feature = "tables")]
        denizen_tables::plugin::TablesPlugin::expect_requests(app);
    }

    /// Not unique, as `denizen_bevy`'s: a later one in the same schedule re-seeds.
    fn is_unique(&self) -> bool {
        false
    }
}
