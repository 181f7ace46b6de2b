//! State read from a save is checked before the plugin uses it: a floor, ledger or
//! location that does not fit gives a message, never a panic in a system.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

fn messages<M: Message + Clone>(app: &App) -> Vec<M> {
    let messages = app.world().resource::<Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// The audit's saves: a ledger with no states, a location that names nothing. Each is
/// replaced by a new game's value with a message, and the floor is populated as usual.
#[test]
fn a_ledger_or_location_from_other_data_is_replaced_and_reported() {
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(4));
    app.update();
    let empty: UniqueItems = ron::from_str("((states: []))").unwrap();
    app.insert_resource(empty);
    let no_offices: OmegaChronicle =
        ron::from_str("((adventurers: [], officeholders: []))").unwrap();
    app.insert_resource(no_offices);
    app.insert_resource(CurrentLocation {
        environment: "atlantis".into(),
        dungeon: None,
        depth: 1,
        difficulty: 3,
        deity: None,
    });
    app.insert_resource(FloorMap(reference_floor(WorldSeed(4), "sewers", 3)));
    app.world_mut()
        .write_message(FloorGenerated::new("sewers", 3));
    app.update();
    let rejected: Vec<StateRejected> = messages(&app);
    let resources: Vec<&str> = rejected.iter().map(|r| r.resource.as_str()).collect();
    assert_eq!(
        resources,
        ["OmegaChronicle", "UniqueItems", "CurrentLocation"]
    );
    assert!(
        rejected[0]
            .reason
            .contains("field `officeholders`: 0 holders"),
        "{}",
        rejected[0].reason
    );
    let rejected = &rejected[1..];
    assert!(
        rejected[0]
            .reason
            .contains("it holds 0 items, the item table 217"),
        "{}",
        rejected[0].reason
    );
    assert!(rejected[1].reason.contains("unknown location `atlantis`"));
    let populated: Vec<FloorPopulated> = messages(&app);
    assert_eq!(populated.len(), 1);
    assert_eq!(
        app.world().resource::<CurrentLocation>().environment,
        "sewers"
    );
    let rules = OmegaRules::shipped();
    assert_eq!(
        app.world()
            .resource::<UniqueItems>()
            .0
            .check(rules.bestiary.items()),
        Ok(())
    );
    assert_eq!(
        app.world().resource::<OmegaChronicle>().0,
        Chronicle::new_game()
    );
    // A fitting state is left alone.
    app.update();
    assert!(messages::<StateRejected>(&app).is_empty());
}

/// A saved floor whose lists are short (the audit's `(width: 10, height: 10, tiles: [],
/// occupied: [])`) is refused when it is read, so no system ever sees it.
#[test]
fn a_short_saved_floor_is_refused_when_read() {
    let short = "((width: 10, height: 10, tiles: [], occupied: []))";
    let err = ron::from_str::<FloorMap>(short).unwrap_err().to_string();
    assert!(err.contains("needs 100 tiles"), "{err}");
}
