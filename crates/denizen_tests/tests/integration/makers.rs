//! Who made a floor: each floor's maker is kept beside its id, so a rule set answers for
//! its own floors only, whatever the game names them.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::clock::GameClock;
use denizen::bevy::floor::{FloorMakers, Maker, maker_of};
use denizen::bevy::pipeline::NotOurFloor;
use denizen::bevy::prelude::*;
use denizen::bevy::save::{load, save};
use denizen::omega::reference::reference_floor;
use denizen::prelude::*;

use crate::{floors_refused, messages};

fn app(seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(seed),
        OmegaPlugin::default(),
        TablesPlugin::default().with_rules(denizen::tables::starter().unwrap()),
    ));
    app
}

/// Fills the map with Omega's reference floor of `location` at `depth`.
fn fill_map(app: &mut App, location: &str, depth: u32) {
    app.insert_resource(FloorMap(reference_floor(WorldSeed(1), location, depth)));
}

fn omega_floor(app: &mut App, location: &str, depth: u32) {
    fill_map(app, location, depth);
    let request = OmegaFloorRequested::new(location, depth);
    app.world_mut().write_message(request);
    app.update();
}

/// A tables floor on Omega's map of the same name.
fn tables_floor(app: &mut App, location: &str, depth: u32) {
    fill_map(app, location, depth);
    let request = TablesFloorRequested::new(location, depth);
    app.world_mut().write_message(request);
    app.update();
}

/// The Omega creatures on `floor`, awake or not.
fn omega_creatures_on(app: &mut App, floor: &FloorId) -> usize {
    let world = app.world_mut();
    (world
        .query_filtered::<&OnFloor, With<Species>>()
        .iter(world))
    .filter(|on| on.0 == *floor)
    .count()
}

/// A tables floor the game names like an Omega place (`sewers` 3), put away while an Omega
/// floor is visited, then brought back, is the tables': Omega's location does not follow
/// it, and ten hours bring no Omega wanderer and no Omega summons onto it.
#[test]
fn a_tables_floor_named_like_an_omega_place_gets_no_omega_arrival() {
    let mut app = app(3);
    let sewers = FloorId::new("sewers", 3);
    tables_floor(&mut app, "sewers", 3);
    assert_eq!(maker_of(app.world(), &sewers), Maker::rule_set("Tables"));
    put_floor_away(app.world_mut());
    omega_floor(&mut app, "astral", 2);
    let astral = FloorId::new("astral", 2);
    assert_eq!(maker_of(app.world(), &astral), Maker::rule_set("Omega"));
    put_floor_away(app.world_mut());
    // Put away, the Omega floor takes no summons, though the location still names it
    // and no floor is current: that is not the host's map before any floor.
    let player = Square { x: 1, y: 1 };
    let summons = OmegaSummonRequested::new(7, player, SummonKind::Ordinary);
    app.world_mut().write_message(summons);
    app.update();
    let summoned = crate::summoned(&app);
    assert!(
        matches!(summoned.as_slice(), [Err(OmegaNothingMade::NotOurFloor(NotOurFloor { floor, .. }))] if *floor == FloorId::default()),
        "{summoned:?}"
    );
    assert!(bring_floor_back(app.world_mut(), &sewers));
    assert_eq!(maker_of(app.world(), &sewers), Maker::rule_set("Tables"));
    assert_eq!(
        *app.world().resource::<OmegaCurrentLocation>(),
        OmegaCurrentLocation::default()
    );
    let mut skipped = Vec::new();
    for _ in 0..60 {
        app.world_mut()
            .resource_mut::<GameClock>()
            .advance_minutes(10);
        app.update();
        skipped.extend(crate::wandering_skips(&app));
    }
    assert!(!skipped.is_empty());
    assert!(
        skipped
            .iter()
            .all(|skip| matches!(skip, OmegaWanderingSkip::NotOurFloor(n) if n.maker.is("Tables"))),
        "{skipped:?}"
    );
    assert_eq!(omega_creatures_on(&mut app, &sewers), 0);
    let summons = OmegaSummonRequested::new(7, player, SummonKind::Ordinary);
    app.world_mut().write_message(summons);
    app.update();
    let summoned = crate::summoned(&app);
    assert!(
        matches!(summoned.as_slice(), [Err(OmegaNothingMade::NotOurFloor(NotOurFloor { floor, maker, .. }))] if *floor == sewers && maker.is("Tables")),
        "{summoned:?}"
    );
    assert_eq!(omega_creatures_on(&mut app, &sewers), 0);
    // Omega's own floor brought back is followed again.
    assert!(bring_floor_back(app.world_mut(), &astral));
    assert_eq!(
        app.world().resource::<OmegaCurrentLocation>().floor(),
        astral
    );
    // Emptied (despawned while current), it stays current and Omega's.
    despawn_floor(app.world_mut(), &astral);
    assert_eq!(maker_of(app.world(), &astral), Maker::rule_set("Omega"));
}

/// A floor the game leaves for its own (`enter_floor`) without ending it or putting it
/// away is no rule set's any more; one put away keeps its maker.
#[test]
fn a_floor_left_by_the_game_loses_its_maker() {
    let mut app = app(7);
    omega_floor(&mut app, "astral", 2);
    let astral = FloorId::new("astral", 2);
    enter_floor(app.world_mut(), FloorId::new("town", 1));
    assert_eq!(maker_of(app.world(), &astral), Maker::Host);
    assert!(app.world().resource::<FloorMakers>().0.is_empty());
    omega_floor(&mut app, "astral", 2);
    put_floor_away(app.world_mut());
    enter_floor(app.world_mut(), FloorId::new("town", 1));
    assert_eq!(maker_of(app.world(), &astral), Maker::rule_set("Omega"));
}

/// A request for a floor current or put away under another rule set is refused with the
/// pipeline's "not our floor", and changes nothing; once that floor ends, the name is free.
#[test]
fn a_floor_of_another_rule_set_is_not_served() {
    let mut app = app(4);
    let sewers = FloorId::new("sewers", 3);
    tables_floor(&mut app, "sewers", 3);
    let standing = app.world().resource::<FloorMakers>().clone();
    for put_away in [false, true] {
        if put_away {
            put_floor_away(app.world_mut());
        }
        omega_floor(&mut app, "sewers", 3);
        let answers: Vec<OmegaFloorRefusal> = floors_refused::<OmegaFloorRequested>(&app);
        let refusal = &answers[0];
        let expected = NotOurFloor {
            floor: sewers.clone(),
            maker: Maker::rule_set("Tables"),
            asked: Maker::rule_set("Omega"),
        };
        assert_eq!(
            *refusal,
            OmegaFloorRefusal::NotOurFloor(expected),
            "{refusal}"
        );
        assert_eq!(
            refusal.to_string(),
            "`sewers` at depth 3 is the rule set `Tables`'s floor, not the rule set `Omega`'s: \
             a rule set serves its own floors only"
        );
        assert_eq!(*app.world().resource::<FloorMakers>(), standing);
        assert_eq!(omega_creatures_on(&mut app, &sewers), 0);
    }
    despawn_floor(app.world_mut(), &sewers);
    enter_floor(app.world_mut(), FloorId::new("town", 1));
    assert!(app.world().resource::<FloorMakers>().0.is_empty());
    omega_floor(&mut app, "sewers", 3);
    assert_eq!(maker_of(app.world(), &sewers), Maker::rule_set("Omega"));
    assert!(omega_creatures_on(&mut app, &sewers) > 0);
}

/// Saved and loaded, every floor keeps its maker.
#[test]
fn a_save_keeps_each_floors_maker() {
    let mut app = app(5);
    tables_floor(&mut app, "sewers", 3);
    put_floor_away(app.world_mut());
    omega_floor(&mut app, "astral", 2);
    let makers = app.world().resource::<FloorMakers>().clone();
    assert_eq!(makers.0.len(), 2);
    let text = save(app.world()).unwrap();
    assert!(text.contains("RuleSet(\"Tables\")"), "{text}");
    let mut loaded = self::app(5);
    load(loaded.world_mut(), &text).unwrap();
    assert_eq!(*loaded.world().resource::<FloorMakers>(), makers);
    assert_eq!(save(loaded.world()).unwrap(), text);
    // A name past the bounds is refused by field, and the save changes nothing.
    let long = format!("RuleSet(\"{}\")", "x".repeat(65));
    let edited = text.replacen("RuleSet(\"Tables\")", &long, 1);
    let error = load(loaded.world_mut(), &edited).unwrap_err().to_string();
    let message =
        "`sewers` at depth 3's maker: a rule set's name is 1 to 64 bytes, no control characters";
    assert!(error.ends_with(message), "{error}");
    assert_eq!(save(loaded.world()).unwrap(), text);
    // A maker of a floor neither current nor put away (a game that set `CurrentFloor` by
    // hand leaves one) names no floor that stands: the save loads without it.
    let gone = "location: \"sewers\",\n                depth: 3,\n            ): RuleSet";
    assert!(text.contains(gone), "{text}");
    let edited = text.replacen(gone, "location: \"sewers\", depth: 4): RuleSet", 1);
    load(loaded.world_mut(), &edited).unwrap();
    let kept = &loaded.world().resource::<FloorMakers>().0;
    assert_eq!(kept.len(), 1, "{kept:?}");
    let edge = text.replacen(
        "RuleSet(\"Tables\")",
        &format!("RuleSet(\"{}\")", "x".repeat(64)),
        1,
    );
    load(loaded.world_mut(), &edge).unwrap();
}

/// A tables floor the game names `angband` 5 is no Angband level: no trap springs on it,
/// and its end leaves Angband's records alone; Angband's own level on the host's floor
/// (`on_host_floor`) still springs the traps the host says.
#[cfg(feature = "angband_data")]
#[test]
fn a_tables_floor_named_angband_springs_no_trap() {
    let mut app = app(6);
    app.add_plugins(AngbandPlugin::default());
    let spring = || AngbandTrapSpringRequested {
        at: Square { x: 3, y: 2 },
        armour: 0,
    };
    tables_floor(&mut app, "angband", 5);
    let floor = FloorId::new("angband", 5);
    assert_eq!(maker_of(app.world(), &floor), Maker::rule_set("Tables"));
    app.world_mut().write_message(spring());
    app.update();
    let sprung: Vec<AngbandTrapSprung> = messages(&app);
    assert!(
        matches!(sprung[0].refusal(), Some(AngbandTrapRefusal::NotOurFloor(NotOurFloor { floor: f, maker, .. })) if *f == floor && maker.is("Tables")),
        "{sprung:?}"
    );
    // Emptied and left, the floor's name is free: Angband's level on the host's map is
    // Angband's.
    despawn_floor(app.world_mut(), &floor);
    enter_floor(app.world_mut(), FloorId::new("town", 1));
    app.insert_resource(FloorMap(
        FloorGrid::from_rows(&["#######", "#.....#", "#.....#", "#######"]).unwrap(),
    ));
    app.world_mut()
        .write_message(AngbandFloorRequested::on_host_floor(5));
    app.update();
    assert_eq!(maker_of(app.world(), &floor), Maker::rule_set("Angband"));
    app.world_mut().write_message(spring());
    app.update();
    let sprung: Vec<AngbandTrapSprung> = messages(&app);
    assert!(sprung[0].refusal().is_none(), "{sprung:?}");
}

/// Floors of three makers (the tables' and Captive's put away, Omega's current) save and
/// reload with the same makers and the same bytes. A maker no added plugin has (a rule set
/// renamed or left out) loads too, and its floor, brought back, takes no arrival: Omega's
/// summons is refused with the neutral "not our floor", and the tables' clock counts no
/// time on a floor the tables did not make.
#[cfg(feature = "captive")]
#[test]
fn floors_of_three_makers_and_of_one_gone_reload() {
    let three = || {
        let mut app = app(5);
        app.add_plugins(CaptivePlugin::default());
        app
    };
    let mut app = three();
    tables_floor(&mut app, "sewers", 3);
    put_floor_away(app.world_mut());
    fill_map(&mut app, "goblin-caves", 2);
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(3, 2));
    app.update();
    put_floor_away(app.world_mut());
    omega_floor(&mut app, "astral", 2);
    let makers = app.world().resource::<FloorMakers>().clone();
    let names: Vec<String> = makers.0.values().map(|m| m.to_string()).collect();
    assert_eq!(
        names,
        [
            "the rule set `Omega`",
            "the rule set `Captive`",
            "the rule set `Tables`"
        ],
        "{makers:?}"
    );
    let text = save(app.world()).unwrap();
    let mut loaded = three();
    load(loaded.world_mut(), &text).unwrap();
    assert_eq!(*loaded.world().resource::<FloorMakers>(), makers);
    assert_eq!(save(loaded.world()).unwrap(), text);

    let gone = text.replacen("RuleSet(\"Tables\")", "RuleSet(\"Gone\")", 1);
    let mut loaded = three();
    load(loaded.world_mut(), &gone).unwrap();
    assert_eq!(save(loaded.world()).unwrap(), gone);
    let sewers = FloorId::new("sewers", 3);
    assert!(bring_floor_back(loaded.world_mut(), &sewers));
    assert_eq!(maker_of(loaded.world(), &sewers), Maker::rule_set("Gone"));
    let on_sewers = |app: &mut App| {
        let world = app.world_mut();
        let mut on = world.query::<&OnFloor>();
        on.iter(world).filter(|on| on.0 == sewers).count()
    };
    let before = on_sewers(&mut loaded);
    assert!(before > 0);
    let player = Square { x: 1, y: 1 };
    let summons = OmegaSummonRequested::new(7, player, SummonKind::Ordinary);
    loaded.world_mut().write_message(summons);
    loaded
        .world_mut()
        .resource_mut::<GameClock>()
        .advance_turns(1_000);
    loaded.update();
    assert_eq!(on_sewers(&mut loaded), before);
    let summoned = crate::summoned(&loaded);
    assert!(
        matches!(summoned.as_slice(), [Err(OmegaNothingMade::NotOurFloor(NotOurFloor { floor, maker, .. }))] if *floor == sewers && maker.is("Gone")),
        "{summoned:?}"
    );
    // The tables' clock counts time only on the tables' own floors: none passes here.
    assert!(messages::<TablesWandered>(&loaded).is_empty());
}
