//! Every plugin the enabled features bring, in one group.

use bevy_app::{PluginGroup, PluginGroupBuilder};
use bevy_ecs::schedule::ScheduleLabel;

use super::DenizenPlugin;

/// Every denizen plugin the enabled features bring: [`DenizenPlugin`] with the seed and
/// schedule, then each rule set's plugin with its defaults, in the order their floors are
/// served when several are asked for in one run (Omega's, Angband's, Captive's, then the
/// tables' with the starter bestiary: `.set(TablesPlugin::default().with_rules(..))` for a game's own). Angband's
/// comes with the `angband_data` feature; with `angband` alone the game adds
/// `AngbandPlugin::new` with its own rules. Replace one
/// with `.set(...)` to change its switches; a rule-set plugin disabled with
/// `.disable::<...>()` still has its requests declared (by [`DenizenPlugin`]), so one
/// written anyway stops the app naming the plugin.
///
/// ```
/// use bevy_app::prelude::*;
/// use denizen::prelude::*;
///
/// App::new().add_plugins(DenizenPlugins::with_seed(42));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DenizenPlugins {
    core: DenizenPlugin,
}

impl DenizenPlugins {
    /// Every plugin, with this world seed.
    pub fn with_seed(seed: u64) -> Self {
        Self {
            core: DenizenPlugin::with_seed(seed),
        }
    }

    /// Runs every plugin's systems in another schedule instead of `Update`.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.core = self.core.in_schedule(schedule);
        self
    }
}

impl PluginGroup for DenizenPlugins {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>().add(self.core);
        #[cfg(feature = "omega")]
        let group = group.add(denizen_omega::plugin::OmegaPlugin::default());
        // Without Angband 2.7.9's data there are no default rules: the game adds
        // `AngbandPlugin::new` with its own.
        #[cfg(feature = "angband_data")]
        let group = group.add(denizen_angband::plugin::AngbandPlugin::default());
        #[cfg(feature = "captive")]
        let group = group.add(denizen_captive::plugin::CaptivePlugin::default());
        #[cfg(feature = "tables")]
        let group = group.add(denizen_tables::plugin::TablesPlugin::default());
        group
    }
}
