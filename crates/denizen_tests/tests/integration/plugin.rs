//! The Bevy plugin, headless: floors populated as entities through messages.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{LogLevel, ScheduleBuildSettings};
use denizen::bevy::omega::scene::{reference_scene, sample_floors};
use denizen::bevy::prelude::*;
use denizen::omega::reference::reference_floor;

use crate::{floors_populated, floors_refused};
use denizen::omega::{Status, Uniqueness, streams};

use denizen::prelude::*;

/// An app with the plugins whose update schedule refuses ambiguous system orders.
fn app(plugins: impl PluginGroup) -> App {
    let mut app = App::new();
    app.add_plugins(plugins);
    app.edit_schedule(Update, |s| {
        s.set_build_settings(ScheduleBuildSettings {
            ambiguity_detection: LogLevel::Error,
            ..Default::default()
        });
    });
    app
}

fn populate(app: &mut App, grid: FloorGrid, location: &str, depth: u32) {
    app.world_mut().insert_resource(FloorMap(grid));
    app.world_mut()
        .write_message(OmegaFloorRequested::new(location, depth));
    app.update();
}

fn monsters(world: &mut World) -> Vec<(Species, GridPos, Sleep, Inventory, Awareness)> {
    let mut q = world.query::<(&Species, &GridPos, &Sleep, &Inventory, &Awareness)>();
    q.iter(world)
        .map(|(s, p, z, i, a)| (*s, *p, *z, i.clone(), *a))
        .collect()
}

fn clear_monsters(world: &mut World) {
    let mut q = world.query_filtered::<Entity, With<Species>>();
    let all: Vec<Entity> = q.iter(world).collect();
    for e in all {
        world.despawn(e);
    }
}

#[test]
fn counts_follow_the_formula_and_squares_are_distinct() {
    let mut app = app(DenizenPlugins::with_seed(3));
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        clear_monsters(app.world_mut());
        populate(
            &mut app,
            reference_floor(WorldSeed(3), "castle", 8),
            "castle",
            8,
        );
        let found = monsters(app.world_mut());
        assert!(found.len() == 21 || found.len() == 24, "{}", found.len());
        seen.insert(found.len());
        let mut squares: Vec<GridPos> = found.iter().map(|m| m.1).collect();
        squares.sort();
        squares.dedup();
        assert_eq!(squares.len(), found.len(), "no two monsters share a square");
        let populated = floors_populated::<OmegaFloorRequested>(&app);
        assert_eq!(populated.len(), 1);
        assert_eq!(populated[0].placed as usize, found.len());
    }
    assert_eq!(seen.len(), 2, "both 21 and 24 occur");
    let mut caves = app_with_reference("goblin-caves", 4);
    assert_eq!(monsters(caves.world_mut()).len(), 11);
    let location = caves.world().resource::<OmegaCurrentLocation>().clone();
    assert_eq!(location.dungeon.as_deref(), Some("goblin-caves"));
    assert_eq!((location.depth, location.difficulty), (4, 2));
}

fn app_with_reference(location: &str, depth: u32) -> App {
    reference_scene(11, OmegaPlugin::default(), location, depth).unwrap()
}

#[test]
fn every_monster_has_the_required_components_and_one_event() {
    let mut app = app(DenizenPlugins::with_seed(5));
    app.init_resource::<Spawned>().add_observer(
        |ev: On<MonsterSpawned>, mut n: ResMut<Spawned>, q: Query<(&Species, &CombatStats)>| {
            // `Species` brings the other components with their defaults; what counts is
            // that the rules' values are in them by the time of the event.
            let (_, stats) = q.get(ev.entity).expect("a monster");
            assert!(
                stats.0.hp > 0 && stats.0.speed > 0,
                "stats before the event: {stats:?}"
            );
            assert!(matches!(
                ev.origin,
                Origin::FLOOR_POPULATION | denizen::omega::origin::FIXED_INHABITANT
            ));
            n.0 += 1;
        },
    );
    populate(
        &mut app,
        reference_floor(WorldSeed(5), "volcano", 20),
        "volcano",
        20,
    );
    let world = app.world_mut();
    let rules = world.resource::<OmegaRuleset>().clone();
    let monsters: Vec<(Species, CombatStats)> = world
        .query::<(&Species, &CombatStats)>()
        .iter(world)
        .map(|(s, c)| (*s, *c))
        .collect();
    let species = monsters.len();
    assert!(species >= 31);
    // Each monster keeps its template's level on this floor (none is an adventurer).
    for (kind, stats) in &monsters {
        let template = rules.species(kind.form).expect("a shipped species");
        assert_eq!(stats.0.level, template.level, "{}", template.name);
    }
    assert_eq!(world.resource::<Spawned>().0, species);
}

#[derive(Resource, Default)]
struct Spawned(usize);

#[test]
fn water_only_creatures_stand_in_water() {
    let mut app = app(DenizenPlugins::with_seed(8));
    let mut water_only = 0;
    for _ in 0..30 {
        clear_monsters(app.world_mut());
        populate(
            &mut app,
            reference_floor(WorldSeed(8), "sewers", 14),
            "sewers",
            14,
        );
        let rules = app.world().resource::<OmegaRuleset>().clone();
        for (species, pos, ..) in monsters(app.world_mut()) {
            if rules.species(species.form).unwrap().has(Status::WaterOnly) {
                water_only += 1;
                let map = &app.world().resource::<FloorMap>().0;
                assert_eq!(map.tile(Square { x: pos.x, y: pos.y }), Tile::Water);
            }
        }
    }
    assert!(water_only > 5, "{water_only}");
}

#[test]
fn a_full_floor_stops_and_says_how_many_are_missing() {
    let mut app = app(DenizenPlugins::with_seed(1));
    let five = FloorGrid::from_rows(&["#######", "#.....#", "#######"]).unwrap();
    populate(&mut app, five, "goblin-caves", 2);
    assert_eq!(monsters(app.world_mut()).len(), 5);
    let failed = floors_populated::<OmegaFloorRequested>(&app);
    assert_eq!(failed.len(), 1);
    assert_eq!((failed[0].placed, failed[0].missing), (5, 6));

    clear_monsters(app.world_mut());
    populate(&mut app, FloorGrid::new(20, 10).unwrap(), "goblin-caves", 2);
    assert!(monsters(app.world_mut()).is_empty());
    let failed = floors_populated::<OmegaFloorRequested>(&app);
    assert_eq!((failed[0].placed, failed[0].missing), (0, 11));
    assert!(
        failed[0].fixed_missing.is_empty(),
        "no fixed inhabitant at depth 2"
    );

    // The Goblin King's level with no free square: the king is reported too.
    populate(
        &mut app,
        FloorGrid::new(20, 10).unwrap(),
        "goblin-caves",
        10,
    );
    let failed = floors_populated::<OmegaFloorRequested>(&app);
    let king = OmegaRules::shipped()
        .bestiary
        .species_id("goblin_king")
        .unwrap();
    assert_eq!(failed[0].fixed_missing, [king]);
}

#[test]
fn unknown_floors_are_rejected_without_changes() {
    let mut app = app(DenizenPlugins::with_seed(1));
    populate(
        &mut app,
        reference_floor(WorldSeed(1), "sewers", 1),
        "sewers",
        40,
    );
    assert!(monsters(app.world_mut()).is_empty());
    let rejected = floors_refused::<OmegaFloorRequested>(&app);
    assert!(matches!(rejected[0], OmegaFloorRefusal::Rules(_)));
    assert_eq!(
        rejected[0].to_string(),
        "`sewers` has depths 1 to 18, not 40"
    );
    assert_eq!(
        *app.world().resource::<OmegaCurrentLocation>(),
        OmegaCurrentLocation::default()
    );
}

#[test]
fn the_players_square_is_excluded_only_when_asked() {
    let one = || FloorGrid::from_rows(&["###", "#.#", "###"]).unwrap();
    let player = Some(Square { x: 1, y: 1 });
    for (exclude, expected) in [(false, 1), (true, 0)] {
        let plugins =
            DenizenPlugins::with_seed(2).set(OmegaPlugin::default().exclude_player_square(exclude));
        let mut app = app(plugins);
        app.world_mut().insert_resource(FloorMap(one()));
        app.world_mut().write_message(OmegaFloorRequested {
            player,
            ..OmegaFloorRequested::new("sewers", 1)
        });
        app.update();
        assert_eq!(
            monsters(app.world_mut()).len(),
            expected,
            "exclude = {exclude}"
        );
    }
}

/// A sorted dump of every monster's components.
fn dump(seed: u64) -> Vec<String> {
    let mut app = reference_scene(seed, OmegaPlugin::default(), "volcano", 12).unwrap();
    let world = app.world_mut();
    let mut q = world.query::<(
        &Species,
        &GridPos,
        &Sleep,
        &Inventory,
        &Awareness,
        &CombatStats,
        &Disposition,
        Option<&MonsterName>,
    )>();
    let mut rows: Vec<String> = q.iter(world).map(|row| format!("{row:?}")).collect();
    rows.sort();
    rows
}

#[test]
fn same_seed_same_world_other_seed_differs() {
    let a = dump(42);
    assert_eq!(a, dump(42));
    assert_ne!(a, dump(43));
}

#[test]
fn a_floor_does_not_depend_on_what_came_before() {
    // Generating the sewers first must not change the volcano's first floor.
    let mut fresh = reference_scene(9, OmegaPlugin::default(), "volcano", 2).unwrap();
    let mut other = app(DenizenPlugins::with_seed(9));
    populate(
        &mut other,
        reference_floor(WorldSeed(9), "sewers", 3),
        "sewers",
        3,
    );
    clear_monsters(other.world_mut());
    populate(
        &mut other,
        reference_floor(WorldSeed(9), "volcano", 2),
        "volcano",
        2,
    );
    let key = |m: &(Species, GridPos, Sleep, Inventory, Awareness)| (m.1, m.0.id);
    let mut a: Vec<_> = monsters(fresh.world_mut()).iter().map(key).collect();
    let mut b: Vec<_> = monsters(other.world_mut()).iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn sampled_species_through_the_plugin_match_the_exact_odds() {
    let rules = OmegaRules::shipped();
    for (location, depth) in [("goblin-caves", 6), ("astral", 5)] {
        let counts = sample_floors(77, OmegaPlugin::default(), location, depth, 0..150).unwrap();
        // Floor `i` is the same in any range: two halves add up to the whole.
        let halves: Vec<u64> = [0..70, 70..150]
            .into_iter()
            .map(|floors| sample_floors(77, OmegaPlugin::default(), location, depth, floors))
            .map(Result::unwrap)
            .reduce(|a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect())
            .unwrap();
        assert_eq!(halves, counts);
        let n: u64 = counts.iter().sum();
        let level = rules.locations.get(location).unwrap().level(depth).unwrap();
        let odds = Odds::of(&level.selector);
        let expected: Vec<f64> = odds.by_species().iter().map(|p| p * n as f64).collect();
        let p = ChiSquared::test(&counts, &expected).p_value();
        assert!(p > 1e-6, "{location} {depth}: p = {p}");
    }
}

#[test]
fn a_sleep_zero_species_is_awake_about_99_percent() {
    // Goblins have sleep rating 0: awake when 0 < R(100), 9,900 buckets of 10,000.
    let rules = OmegaRules::shipped();
    let goblin = rules.bestiary.species_id("goblin").unwrap();
    let mut app = app(DenizenPlugins::with_seed(21));
    let (mut awake, mut total) = (0u32, 0u32);
    for _ in 0..500 {
        clear_monsters(app.world_mut());
        populate(
            &mut app,
            reference_floor(WorldSeed(21), "goblin-caves", 1),
            "goblin-caves",
            1,
        );
        for (species, _, sleep, ..) in monsters(app.world_mut()) {
            if species.id == goblin {
                total += 1;
                awake += u32::from(sleep.awake);
            }
        }
    }
    let share = f64::from(awake) / f64::from(total);
    let sigma = (0.99 * 0.01 / f64::from(total)).sqrt();
    assert!(total > 2000, "{total}");
    // Within 4 standard deviations of 0.99; "awake when rating <= R(100)" (always awake)
    // would sit more than 5 away.
    assert!((share - 0.99).abs() < 4.0 * sigma, "{share} of {total}");
}

#[test]
fn no_unique_item_is_ever_random_loot() {
    let rules = OmegaRules::shipped();
    let mut app = app(DenizenPlugins::with_seed(31));
    let mut objects = 0;
    for _ in 0..60 {
        clear_monsters(app.world_mut());
        populate(
            &mut app,
            reference_floor(WorldSeed(31), "volcano", 20),
            "volcano",
            20,
        );
        let world = app.world_mut();
        let mut q = world.query::<(&Species, &Inventory, Option<&MonsterIdentity>)>();
        for (species, inventory, identity) in q.iter(world) {
            if matches!(
                identity,
                Some(MonsterIdentity(Identity::Officeholder { .. }))
            ) {
                continue;
            }
            let fixed = rules.bestiary.fixed_item(species.id);
            let random = match (fixed, inventory.0.last()) {
                (Some(f), Some(last)) if last.item == f => &inventory.0[..inventory.0.len() - 1],
                _ => &inventory.0[..],
            };
            for object in random {
                objects += 1;
                assert_eq!(
                    rules.bestiary.item(object.item).uniqueness,
                    Uniqueness::Common
                );
            }
        }
    }
    assert!(objects > 200, "{objects}");
}

#[test]
fn components_round_trip_through_serde_and_reflection() {
    let mut app = reference_scene(4, OmegaPlugin::default(), "volcano", 16).unwrap();
    let rows = denizen::bevy::omega::scene::monsters(app.world_mut());
    assert!(
        rows.iter().any(|r| !r.1.3.0.is_empty()),
        "some monster carries something"
    );
    for row in &rows {
        let text = ron::to_string(row).unwrap();
        let back: (GridPos, MonsterBundle) = ron::from_str(&text).unwrap();
        assert_eq!(&back, row);
    }
    // Through the type registry, as an inspector or a reflection-based save would.
    use bevy_reflect::serde::{ReflectDeserializer, ReflectSerializer};
    use serde::de::DeserializeSeed;
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    let inventory = rows
        .iter()
        .map(|r| r.1.3.clone())
        .max_by_key(|i| i.0.len())
        .unwrap();
    let text = ron::to_string(&ReflectSerializer::new(&inventory, &registry)).unwrap();
    let mut de = ron::Deserializer::from_str(&text).unwrap();
    let dynamic = ReflectDeserializer::new(&registry)
        .deserialize(&mut de)
        .unwrap();
    let back = <Inventory as bevy_reflect::FromReflect>::from_reflect(dynamic.as_ref()).unwrap();
    assert_eq!(back, inventory);
}

/// The plugin spawns exactly the plan the rules make from the floor's first-generation
/// stream: the same squares, species, sleep and possessions (so the rules' golden floors
/// are what a game gets).
#[test]
fn the_plugin_spawns_the_rules_plan() {
    use denizen::omega::construct::Builder;
    use denizen::omega::objects::ItemLedger;
    use denizen::omega::populate::{LevelRequest, plan_level};
    let rules = OmegaRules::shipped();
    for (location, depth, seed) in [
        ("goblin-caves", 10, 3),
        ("volcano", 20, 3),
        ("castle", 8, 2),
    ] {
        let level = level_of(&rules, location, depth);
        let grid = reference_floor(WorldSeed(seed), location, depth);
        let mut ledger = ItemLedger::new(rules.bestiary.items());
        let chronicle = Chronicle::default();
        let mut builder = Builder {
            bestiary: &rules.bestiary,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty: level.difficulty,
        };
        let stream = |kind| WorldSeed(seed).stream(StreamPurpose::event(kind, location, depth, 0));
        let env = rules.locations.get(location).unwrap();
        let request = LevelRequest {
            environment: env,
            level,
            grid: &grid,
            completed: false,
            cavern_gap: false,
            blocked: &[],
        };
        let mut fixed_rng = env.has_fixed_at(depth).then(|| stream(streams::FIXED));
        let plan = plan_level(
            &mut stream(streams::FLOOR),
            fixed_rng.as_mut(),
            &request,
            &mut builder,
        );
        let (fixed, floor) = (plan.fixed, plan.population);
        let mut planned: Vec<String> = fixed
            .iter()
            .chain(&floor.plan.spawns)
            .map(|s| {
                let m = &s.creature;
                format!(
                    "{:?} {:?} {} {:?}",
                    GridPos::from(s.at),
                    m.species,
                    m.awake(),
                    m.possessions
                )
            })
            .collect();
        let mut app = reference_scene(seed, OmegaPlugin::default(), location, depth).unwrap();
        let world = app.world_mut();
        let mut spawned: Vec<String> = world
            .query::<(&GridPos, &Species, &Sleep, &Inventory)>()
            .iter(world)
            .map(|(p, s, z, i)| format!("{p:?} {:?} {} {:?}", s.id, z.awake, i.0))
            .collect();
        planned.sort();
        spawned.sort();
        assert!(!fixed.is_empty() || location == "castle");
        assert_eq!(spawned, planned, "{location} {depth}");
    }
}

fn level_of<'a>(rules: &'a OmegaRules, location: &str, depth: u32) -> &'a Level {
    rules.locations.get(location).unwrap().level(depth).unwrap()
}

#[cfg(feature = "captive")]
/// The text views never panic, whatever the bestiary: a game's own bestiary smaller than
/// the encounter table, encounter members in the same world, and a monster whose species
/// the rules do not have (a save from another bestiary).
#[test]
fn views_never_panic_on_a_small_bestiary() {
    const BESTIARY: &str = r#"(
        band_count: 1,
        species: [(
            key: "rat", name: "rat", band: 0, level: 1, hp: 2, hit: 1, ac: 1, damage: 1,
            awareness: 5, wakeup: 1, speed: 5, sleep: 50, treasure: 0, xp: 1,
            fixed_item: None, uniqueness: Common, status: [Mobile], immunities: [],
            behaviour: (talk: "", movement: "", melee: "", strike: "", special: ""),
            melee_pattern: "", glyph: 'r', colour: Brown, construction: None,
        )],
        items: [],
    )"#;
    const LOCATIONS: &str = r#"(
        default_difficulty: "0",
        environments: [(key: "cellar", name: "Cellar",
            dungeon: Some((depths: 1, recipe: Pool)))],
    )"#;
    let omega = OmegaPlugin::from_files(OmegaFiles {
        bestiary: DataFile::new("small.ron", BESTIARY),
        locations: DataFile::new("cellar.ron", LOCATIONS),
        variants: None,
    })
    .unwrap();
    let mut app = App::new();
    app.add_plugins(DenizenPlugins::with_seed(3).set(omega));
    app.insert_resource(FloorMap(denizen::captive::reference_base(WorldSeed(3), 7)));
    app.world_mut()
        .write_message(OmegaFloorRequested::new("cellar", 1));
    app.update();
    let stranger = Species {
        id: SpeciesId(400),
        form: SpeciesId(400),
    };
    app.world_mut()
        .spawn((stranger, Glyph('X'), GridPos { x: 0, y: 0 }));
    let world = app.world_mut();
    let map = render_floor(world);
    assert!(map.contains('r') && map.starts_with('X'), "{map}");
    let roster = omega_roster(world);
    assert_eq!(
        roster.lines().count(),
        12,
        "11 rats and the stranger:\n{roster}"
    );
    assert!(roster.lines().any(|l| l.starts_with("X ?")), "{roster}");
    // The encounter groups on the next floor, whose types the bestiary does not have: the
    // cellar is left (its rats despawned), the stranger, on no floor, stays.
    app.world_mut()
        .write_message(CaptiveFloorRequested::new(7, 3));
    app.update();
    let world = app.world_mut();
    let members = world.query::<&EncounterMember>().iter(world).count();
    assert!(members > 20);
    assert!(!captive_roster(world).is_empty());
    assert_eq!(omega_roster(world).lines().count(), 1, "the stranger alone");
}

/// Both preludes glob-import together, and each name that used to clash (the rules' type
/// against the plugin's component or resource of the same name) now means one thing: this
/// test fails by not compiling.
#[test]
fn the_preludes_glob_import_together() {
    let components: Option<(Species, MonsterIdentity, OmegaChronicle, OmegaRuleset)> = None;
    let rules: Option<(SpeciesTemplate, Identity, Chronicle, Bestiary)> = None;
    // Names a rule set shares with Bevy's preludes (`Spawn`, `Rect`) stay out of ours.
    let neutral: Option<(Origin, Room, Tile, Square, Glyph, Creature, FloorGrid)> = None;
    let ecs: Option<(Entity, Spawn<()>)> = None;
    assert!(components.is_none() && rules.is_none() && neutral.is_none() && ecs.is_none());
}

#[test]
fn the_seed_plugin_may_come_after_a_rule_set_plugin() {
    let floor = || reference_floor(WorldSeed(7), "volcano", 5);
    let mut first = App::new();
    first.add_plugins((DenizenPlugin::with_seed(7), OmegaPlugin::default()));
    let mut after = App::new();
    after.add_plugins((OmegaPlugin::default(), DenizenPlugin::with_seed(7)));
    assert_eq!(after.world().resource::<DenizenRng>().seed, 7);
    populate(&mut first, floor(), "volcano", 5);
    populate(&mut after, floor(), "volcano", 5);
    let key = |m: &(Species, GridPos, Sleep, Inventory, Awareness)| (m.1, m.0.id, m.2.awake);
    let mut a: Vec<_> = monsters(first.world_mut()).iter().map(key).collect();
    let mut b: Vec<_> = monsters(after.world_mut()).iter().map(key).collect();
    a.sort();
    b.sort();
    assert!(!a.is_empty());
    assert_eq!(a, b);
}

#[test]
#[should_panic(expected = "add DenizenPlugin, or DenizenPlugins::in_schedule, before")]
fn a_later_seed_plugin_in_another_schedule_is_refused_at_setup() {
    App::new().add_plugins((
        OmegaPlugin::default(),
        DenizenPlugin::with_seed(7).in_schedule(PostUpdate),
    ));
}

#[cfg(feature = "captive")]
/// A creature drawn over a text map is never mistaken for a tile: no glyph of a shipped
/// Omega species or Captive type is a tile's, and a rendered map names its tiles.
#[test]
fn creature_glyphs_never_look_like_tiles() {
    let omega = OmegaRules::shipped();
    let captive = denizen::captive::EncounterTable::shipped();
    let glyphs = omega
        .bestiary
        .species()
        .iter()
        .map(|s| s.glyph)
        .chain((0..64).filter_map(|id| captive.get(id).map(|t| t.glyph)));
    for glyph in glyphs {
        assert_eq!(Tile::from_glyph(glyph), None, "`{glyph}` is a tile's glyph");
    }
    let mut app = reference_scene(3, OmegaPlugin::default(), "sewers", 2).unwrap();
    let map = render_floor(app.world_mut());
    let legend = map.lines().last().unwrap();
    assert!(
        legend.contains("# wall") && legend.contains(". floor"),
        "{legend}"
    );
}
