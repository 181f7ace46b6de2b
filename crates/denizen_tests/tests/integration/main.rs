//! Integration tests of denizen's plugins through the facade's public API, one binary with
//! a module per topic (the rules have their own tests in their crates). They live in their
//! own package, so running an example never builds what only tests need.

//!
//! Each module needs the rule sets it names: CI runs the binary with every feature, and
//! with each rule set alone (`--no-default-features --features omega`, `captive`,
//! `angband_data`, `tables`), where the modules of that rule set run.

#[cfg(feature = "angband_data")]
mod angband;
#[cfg(feature = "assets")]
mod asset_folder;
#[cfg(all(feature = "assets", feature = "omega", feature = "captive"))]
mod assets;
mod declared;
mod documents;
#[cfg(all(feature = "maps", feature = "assets", feature = "tables"))]
mod editor_maps;
#[cfg(feature = "captive")]
mod encounters;
#[cfg(all(feature = "omega", feature = "captive"))]
mod floors;
#[cfg(feature = "omega")]
mod gating;
mod layout;
#[cfg(all(feature = "omega", feature = "captive"))]
mod lifecycle;
#[cfg(all(feature = "omega", feature = "tables"))]
mod makers;
mod names;
#[cfg(feature = "omega")]
mod plugin;
#[cfg(all(feature = "omega", feature = "captive"))]
mod registration;
#[cfg(all(feature = "omega", feature = "captive"))]
mod saves;
#[cfg(feature = "tables")]
mod tables;
#[cfg(feature = "omega")]
mod world;
#[cfg(all(feature = "assets", feature = "omega"))]
mod world_serialization;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::pipeline::{FloorRequest, FloorServed};
#[cfg(feature = "omega")]
use denizen::prelude::*;

/// An app with every plugin whose reference floor of `location` and `depth` is populated.
#[cfg(feature = "omega")]
pub fn populated(seed: u64, location: &str, depth: u32) -> App {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(seed));
    let floor = denizen::omega::reference::reference_floor(WorldSeed(seed), location, depth);
    app.insert_resource(FloorMap(floor));
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

/// What the floor requests of type `R` populated in the last update, in order (the served
/// answers' outcomes).
pub fn floors_populated<R: FloorRequest>(app: &App) -> Vec<R::Populated> {
    let answers = messages::<FloorServed<R>>(app).into_iter();
    answers.filter_map(|answer| answer.outcome.ok()).collect()
}

/// Why the floor requests of type `R` refused in the last update, in order.
pub fn floors_refused<R: FloorRequest>(app: &App) -> Vec<R::Refusal> {
    let answers = messages::<FloorServed<R>>(app).into_iter();
    answers.filter_map(|answer| answer.outcome.err()).collect()
}

#[cfg(feature = "omega")]
/// What the summonings answered in the last update, in order: the creature and its square,
/// or why none was made.
pub fn summoned(app: &App) -> Vec<Result<OmegaSummon, OmegaNothingMade>> {
    messages::<OmegaSummoned>(app)
        .into_iter()
        .map(|answer| answer.outcome)
        .collect()
}

#[cfg(feature = "omega")]
/// The wandering creatures that arrived in the last update.
pub fn wandering_arrivals(app: &App) -> Vec<OmegaWanderingArrival> {
    messages::<OmegaWanderingChecked>(app)
        .iter()
        .filter_map(|answer| answer.arrival().copied())
        .collect()
}

#[cfg(feature = "omega")]
/// Why wandering checks of the last update could not run, as said (once a reason).
pub fn wandering_skips(app: &App) -> Vec<OmegaWanderingSkip> {
    messages::<OmegaWanderingChecked>(app)
        .iter()
        .filter_map(|answer| answer.refusal().cloned())
        .collect()
}

/// The workspace's folder (this package is `crates/denizen_tests`).
pub fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
