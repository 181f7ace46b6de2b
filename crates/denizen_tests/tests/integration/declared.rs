//! Every request a game writes to a shipped rule set is declared by the facade's
//! `DenizenPlugin`: written while the rule set's plugin is missing, it stops the app at
//! its next run with a message naming the plugin, where Bevy would drop it without a word
//! (or fail a system writing it naming no plugin).

use std::panic::{AssertUnwindSafe, catch_unwind};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::prelude::*;

/// What stopped an app with the facade's `DenizenPlugin` (and `more`) when `write` wrote
/// its request and the app ran twice (a game's system unordered with the plugins' may
/// write after the check of its run); `None` when it ran on.
fn stop(more: impl FnOnce(&mut App), write: impl FnOnce(&mut World)) -> Option<String> {
    let mut app = App::new();
    app.add_plugins(DenizenPlugin::with_seed(1));
    more(&mut app);
    write(app.world_mut());
    let panic = catch_unwind(AssertUnwindSafe(|| {
        app.update();
        app.update();
    }))
    .err()?;
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
}

/// Asserts that writing `message` with `DenizenPlugin` alone stops the app naming `plugin`.
fn names<M: Message>(plugin: &str, message: M) {
    let said = stop(
        |_| {},
        |world| {
            assert!(
                world.write_message(message).is_some(),
                "{} was not declared: the write vanished",
                std::any::type_name::<M>()
            );
        },
    );
    let said = said.unwrap_or_else(|| panic!("{} ran on", std::any::type_name::<M>()));
    assert!(
        said.contains(&format!("no plugin serves it: add `{plugin}`")),
        "{said}"
    );
}

#[cfg(feature = "omega")]
#[test]
fn every_omega_request_names_omega_plugin() {
    let at = Square { x: 2, y: 2 };
    names("OmegaPlugin", OmegaFloorRequested::new("sewers", 3));
    names(
        "OmegaPlugin",
        OmegaCountrysideEncounterRequested {
            terrain: "forest".into(),
        },
    );
    names(
        "OmegaPlugin",
        OmegaSummonRequested::new(1, at, SummonKind::Ordinary),
    );
    names("OmegaPlugin", OmegaStatueWakeRequested::new(1, at));
    names(
        "OmegaPlugin",
        OmegaArenaBoutRequested {
            counter: 0,
            rank: 0,
            at,
        },
    );
}

#[cfg(feature = "angband")]
#[test]
fn every_angband_request_names_angband_plugin() {
    names("AngbandPlugin", AngbandFloorRequested::new(5));
    names(
        "AngbandPlugin",
        AngbandTrapSpringRequested {
            at: Square { x: 2, y: 2 },
            armour: 0,
        },
    );
}

#[cfg(feature = "captive")]
#[test]
fn every_captive_request_names_captive_plugin() {
    names("CaptivePlugin", CaptiveFloorRequested::new(2, 3));
}

#[cfg(feature = "tables")]
#[test]
fn every_tables_request_names_tables_plugin() {
    names("TablesPlugin", TablesFloorRequested::new("caves", 3));
    names(
        "TablesPlugin",
        TablesUniqueKilled {
            unique: "someone".into(),
        },
    );
}

/// A game's system writing the request of a plugin it left out, beside one it added:
/// the app stops naming the missing one, not with Bevy's "not initialized".
#[cfg(all(feature = "omega", feature = "captive"))]
#[test]
fn a_system_writing_a_left_out_rule_sets_request_names_its_plugin() {
    let said = stop(
        |app| {
            app.add_plugins(OmegaPlugin::default()).add_systems(
                Update,
                |mut requests: MessageWriter<CaptiveFloorRequested>| {
                    requests.write(CaptiveFloorRequested::new(2, 3));
                },
            );
        },
        |_| {},
    );
    let said = said.expect("the app stops");
    assert!(said.contains("add `CaptivePlugin`"), "{said}");
}

/// With the plugin added the same request is served, and nothing stops.
#[cfg(feature = "captive")]
#[test]
fn a_served_request_does_not_stop_the_app() {
    let said = stop(
        |app| {
            app.add_plugins(CaptivePlugin::default());
            app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(1), 2)));
        },
        |world| {
            world.write_message(CaptiveFloorRequested::new(2, 3));
        },
    );
    assert_eq!(said, None);
}
