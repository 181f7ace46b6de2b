//! Integration tests of denizen's plugins through the facade's public API, one binary with
//! a module per topic (the rules have their own tests in their crates).

#[cfg(feature = "angband")]
mod angband;
#[cfg(feature = "assets")]
mod assets;
mod documents;
mod encounters;
mod floors;
mod gating;
mod layout;
mod lifecycle;
mod plugin;
mod registration;
mod saves;
mod world;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

/// An app with every plugin whose reference floor of `location` and `depth` is populated.
pub fn populated(seed: u64, location: &str, depth: u32) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(seed));
    app.insert_resource(FloorMap(reference_floor(WorldSeed(seed), location, depth)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location, depth));
    app.update();
    app
}

/// The messages of type `M` written in the last update.
pub fn messages<M: Message + Clone>(app: &App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}
