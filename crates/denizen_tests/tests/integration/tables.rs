//! A game's own bestiary through the tables plugin: floors with their answers, followers
//! linked to their leaders when `MonsterSpawned` fires, placement rules, uniques across
//! floors, wandering arrivals on the clock, kills, saves.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use denizen::bevy::save::{load, save};
use denizen::bevy::tables::resources::MAX_TAG_AREAS;
use denizen::floor::Rect;
use denizen::prelude::*;
use denizen::tables::{Datum, OddsError, RequestError, Shortfall, TimeUnit};

use crate::{floors_populated, floors_refused, messages};

/// A bestiary small enough to know what every floor holds: a pick-each floor table that
/// always brings the unique queen (while available), a howler with its escort of two
/// sleeping pups, and three eels that stand only in water; one gnat wanders in at every
/// check, out of the safe room and at least six squares from the player.
const BESTIARY: &str = r#"(
    species: [
        (key: "howler", name: "howler", glyph: 'h', level: 1, hit_points: "2d4",
         escort: Some("howler_pups")),
        (key: "pup", name: "howler pup", glyph: 'p', level: 1, hit_points: "1d3",
         asleep: Some("1/1")),
        (key: "queen", name: "the Bog Queen", glyph: 'Q', level: 2, hit_points: "6d6",
         unique: true, possessions: Some((loot: "crowns", chance: "1/1")),
         data: {"banner": Str("reeds"), "speed": Int(-9)}),
        (key: "eel", name: "marsh eel", glyph: 'e', level: 1, hit_points: "1d4",
         place: (stands_on: Some(["water"]))),
        (key: "gnat", name: "gnat", glyph: 'g', level: 1, hit_points: "1d1", tags: ["insect"]),
    ],
    groups: [
        (key: "howler_pups", followers: [(member: Species("pup"), count: "2d1", role: "pup")],
         radius: 2),
    ],
    tables: [
        (key: "floor", pick: Each, rows: [
            (what: Species("queen"), depth: (1, 5), chance: Some("1/1")),
            (what: Species("howler"), depth: (1, 5), chance: Some("1/1")),
            (what: Species("eel"), depth: (1, 5), chance: Some("1/1"), count: Some("3d1")),
        ]),
        (key: "wanderers", rows: [(what: Species("gnat"), depth: (1, 5))]),
    ],
    loot: [(key: "crowns", items: [(item: "reed crown", weight: 1)])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"),
                 place: (forbids: ["safe"]))),
    wandering: Some((table: "wanderers", chance: "1/1", every: 10,
                     place: (forbids: ["safe"], min_distance: Some(6)))),
)"#;

/// A floor with a pool, and a room on the left the requests tag `safe`.
const MAP: [&str; 9] = [
    "####################",
    "#....#.............#",
    "#....#.............#",
    "#..................#",
    "#....#......~~~~...#",
    "#....#......~~~~...#",
    "#....#......~~~~...#",
    "#....#.............#",
    "####################",
];

const SAFE: Rect = Rect {
    x: 1,
    y: 1,
    width: 4,
    height: 7,
};

fn bestiary() -> denizen::tables::Bestiary {
    denizen::tables::load(&[DataFile::new("test.tables.ron", BESTIARY)]).unwrap()
}

fn app(seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(seed),
        TablesPlugin::default().with_rules(bestiary()),
    ));
    app
}

/// Fills the map and asks for `location` at `depth`, with the player in the safe room.
fn request(app: &mut App, location: &str, depth: u32) {
    app.insert_resource(FloorMap(FloorGrid::from_rows(&MAP).unwrap()));
    let request = TablesFloorRequested::new(location, depth)
        .player(Square { x: 2, y: 4 })
        .tag("safe", SAFE);
    app.world_mut().write_message(request);
    app.update();
}

/// The species keys of the creatures awake on the current floor, sorted.
fn species(app: &mut App) -> Vec<String> {
    let world = app.world_mut();
    let mut keys: Vec<String> = world
        .query_filtered::<&TablesCreature, Without<Dormant>>()
        .iter(world)
        .map(|c| c.species.clone())
        .collect();
    keys.sort();
    keys
}

/// Every creature records, when its `MonsterSpawned` fires, the leader it follows then.
#[derive(Resource, Default)]
struct SeenAtSpawn(Vec<(Entity, Option<Entity>)>);

#[test]
fn a_floor_has_its_creatures_components_and_answer() {
    let mut app = app(3);
    app.init_resource::<SeenAtSpawn>().add_observer(
        |spawned: On<MonsterSpawned>, follows: Query<&Follows>, mut seen: ResMut<SeenAtSpawn>| {
            let leader = follows.get(spawned.entity).ok().map(|f| f.0);
            seen.0.push((spawned.entity, leader));
        },
    );
    request(&mut app, "bog", 2);
    let answers: Vec<TablesFloorPopulated> = floors_populated::<TablesFloorRequested>(&app);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let answer = &answers[0];
    assert_eq!((answer.placements, answer.out_of_depth), (1, 0));
    assert!(answer.unplaced.is_empty(), "{:?}", answer.unplaced);
    assert_eq!(
        answer.placed.len(),
        7,
        "queen, howler, two pups, three eels"
    );
    assert_eq!(
        species(&mut app),
        ["eel", "eel", "eel", "howler", "pup", "pup", "queen"]
    );

    let world = app.world_mut();
    let seen = world.resource::<SeenAtSpawn>().0.clone();
    assert_eq!(seen.len(), 7);
    let howler = answer.placed[1];
    assert_eq!(
        world.get::<TablesCreature>(howler).unwrap().species,
        "howler"
    );
    let pups: Vec<Entity> = seen
        .iter()
        .filter(|(_, leader)| leader.is_some())
        .map(|&(pup, leader)| {
            assert_eq!(
                leader,
                Some(howler),
                "the link is in place at MonsterSpawned"
            );
            pup
        })
        .collect();
    assert_eq!(pups.len(), 2);
    assert_eq!(world.get::<Followers>(howler).unwrap().followers(), pups);
    let leader_at = *world.get::<GridPos>(howler).unwrap();
    for &pup in &pups {
        assert_eq!(world.get::<TablesCreature>(pup).unwrap().species, "pup");
        assert!(world.get::<Asleep>(pup).is_some(), "pups always sleep");
        let role = world.get::<FollowerRole>(pup).unwrap();
        assert_eq!(
            (role.group.as_str(), role.role.as_str()),
            ("howler_pups", "pup")
        );
        let at = world.get::<GridPos>(pup).unwrap();
        assert!(at.x.abs_diff(leader_at.x) <= 2 && at.y.abs_diff(leader_at.y) <= 2);
    }
    assert!(world.get::<Asleep>(howler).is_none(), "howlers never sleep");
    let queen = answer.placed[0];
    assert_eq!(world.get::<Unique>(queen), Some(&Unique("queen".into())));
    let crown = world.get::<Possession>(queen).unwrap();
    assert_eq!(
        (crown.loot.as_str(), crown.item.as_str()),
        ("crowns", "reed crown")
    );
    let hp = world.get::<TablesHitPoints>(queen).unwrap().0;
    assert!((6..=36).contains(&hp), "6d6: {hp}");
    assert_eq!(world.get::<Glyph>(queen), Some(&Glyph('Q')));
    let data = &world.get::<CreatureData>(queen).unwrap().0;
    assert_eq!(data.len(), 2);
    assert_eq!(data["banner"], Datum::Str("reeds".into()));
    assert_eq!(data["speed"], Datum::Int(-9));
    assert!(
        world.get::<CreatureData>(howler).is_none(),
        "howlers have no data"
    );
    let gnats = world.query::<&CreatureTags>().iter(world).count();
    assert_eq!(gnats, 7, "every creature has its tags");
    assert_eq!(
        denizen::bevy::view::describe(world, queen).map(|d| d.name),
        Some("the Bog Queen".to_string())
    );
}

#[test]
fn water_dwellers_stand_in_water_and_nothing_in_the_safe_room() {
    for seed in 0..20 {
        let mut app = app(seed);
        request(&mut app, "bog", 1);
        let world = app.world_mut();
        for (creature, at) in world.query::<(&TablesCreature, &GridPos)>().iter(world) {
            let square = Square { x: at.x, y: at.y };
            let row = MAP[at.y as usize].as_bytes()[at.x as usize];
            assert_eq!(
                row == b'~',
                creature.species == "eel",
                "seed {seed}: {} at {square:?}",
                creature.species
            );
            assert!(!SAFE.contains(square), "seed {seed}: {square:?} is safe");
        }
    }
}

#[test]
fn what_finds_no_square_is_answered_a_named_table_drawn_and_a_bad_request_refused() {
    let mut app = app(4);
    let mut grid = FloorGrid::from_rows(&MAP).unwrap();
    for y in 4..7 {
        for x in 12..16 {
            grid.set(Square { x, y }, Tile::Floor);
        }
    }
    app.insert_resource(FloorMap(grid));
    app.world_mut()
        .write_message(TablesFloorRequested::new("dry", 1));
    app.update();
    let answer = &floors_populated::<TablesFloorRequested>(&app)[0];
    let unplaced: Vec<(&str, Shortfall)> = answer
        .unplaced
        .iter()
        .map(|u| (u.species.as_str(), u.why))
        .collect();
    assert_eq!(unplaced, [("eel", Shortfall::NoSquare); 3]);
    assert_eq!(answer.placed.len(), 4);

    // A floor naming the wanderers' table: its one placement a gnat.
    app.insert_resource(FloorMap(FloorGrid::from_rows(&MAP).unwrap()));
    let gnats = TablesFloorRequested::new("swarm", 1).table("wanderers");
    app.world_mut().write_message(gnats);
    app.update();
    assert_eq!(species(&mut app), ["gnat"]);
    app.world_mut()
        .write_message(TablesFloorRequested::new("swarm", 2).table("wanderer"));
    app.update();
    let refused: Vec<TablesFloorRefusal> = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(
        refused[0],
        TablesFloorRefusal::UnknownTable("wanderer".into())
    );
    assert_eq!(
        refused[0].to_string(),
        "no table `wanderer` in the bestiary"
    );

    request(&mut app, "bog", 9);
    let refused: Vec<TablesFloorRefusal> = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(refused.len(), 1);
    assert_eq!(
        refused[0],
        TablesFloorRefusal::Request(RequestError::Draw(OddsError::Depth {
            depth: 9,
            min: 1,
            max: 5
        }))
    );
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("swarm", 1)
    );
    assert_eq!(species(&mut app), ["gnat"], "the floor before is untouched");
}

/// Whether the queen stands on the current floor.
fn queen_here(app: &mut App) -> bool {
    species(app).iter().any(|s| s == "queen")
}

/// The player kills the queen, as a game does: her creature despawned (wherever she
/// stands) and the kill reported.
fn kill_queen(app: &mut App) {
    let world = app.world_mut();
    let queens: Vec<Entity> = world
        .query::<(Entity, &Unique)>()
        .iter(world)
        .filter(|(_, u)| u.0 == "queen")
        .map(|(e, _)| e)
        .collect();
    for queen in queens {
        world.despawn(queen);
    }
    world.write_message(TablesUniqueKilled {
        unique: "queen".into(),
    });
}

#[test]
fn a_unique_returns_after_its_floor_ends_and_never_after_a_kill() {
    let mut app = app(5);
    request(&mut app, "bog", 1);
    assert!(queen_here(&mut app));
    // Left for another floor: the first floor ends and the queen goes back to the pool.
    request(&mut app, "bog", 2);
    assert!(queen_here(&mut app), "she returns once her floor ended");
    // Put away, her floor keeps her alive: no second queen.
    put_floor_away(app.world_mut());
    request(&mut app, "bog", 3);
    assert!(!queen_here(&mut app), "alive on a floor put away");
    assert_eq!(
        app.world()
            .resource::<TablesUniques>()
            .0
            .alive_keys()
            .collect::<Vec<_>>(),
        ["queen"]
    );
    // Her floor comes back and she is killed there.
    put_floor_away(app.world_mut());
    assert!(bring_floor_back(app.world_mut(), &FloorId::new("bog", 2)));
    assert!(queen_here(&mut app));
    kill_queen(&mut app);
    app.world_mut().write_message(TablesUniqueKilled {
        unique: "howler".into(),
    });
    app.update();
    let refused: Vec<TablesUniqueKillRefused> = messages(&app);
    assert_eq!(
        refused,
        [TablesUniqueKillRefused {
            unique: "howler".into()
        }]
    );
    for depth in [4, 2, 1] {
        request(&mut app, "bog", depth);
        assert!(!queen_here(&mut app), "never after a kill (depth {depth})");
    }
    let ledger = &app.world().resource::<TablesUniques>().0;
    assert_eq!(ledger.killed_keys().collect::<Vec<_>>(), ["queen"]);
    assert_eq!(ledger.alive_keys().count(), 0);
}

/// The gnats that arrived in the last update.
fn arrivals(app: &App) -> Vec<TablesArrival> {
    messages::<TablesWandered>(app)
        .iter()
        .filter_map(|answer| answer.arrival().cloned())
        .collect()
}

fn advance(app: &mut App, turns: u64) {
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_turns(turns);
    app.update();
}

#[test]
fn wanderers_arrive_on_the_clock_only_on_their_own_floor() {
    let mut app = app(6);
    request(&mut app, "bog", 1);
    advance(&mut app, 9);
    assert!(arrivals(&app).is_empty(), "the first check is at turn 10");
    advance(&mut app, 1);
    let came = arrivals(&app);
    assert_eq!(came.len(), 1);
    let gnat = came[0].entities[0];
    let world = app.world_mut();
    assert_eq!(world.get::<TablesCreature>(gnat).unwrap().species, "gnat");
    let player = Square { x: 2, y: 4 };
    let at = world.get::<GridPos>(gnat).unwrap();
    assert!(
        !SAFE.contains(Square { x: at.x, y: at.y }),
        "the wandering rules hold"
    );
    assert!(at.x.abs_diff(player.x).max(at.y.abs_diff(player.y)) >= 6);
    advance(&mut app, 35);
    assert_eq!(arrivals(&app).len(), 3, "turns 20, 30 and 40");

    // Put away, the floor's clock stops: no arrival anywhere.
    put_floor_away(app.world_mut());
    advance(&mut app, 100);
    assert!(arrivals(&app).is_empty());
    assert!(messages::<TablesWandered>(&app).is_empty());
    // Back on it, its own time goes on from turn 45.
    assert!(bring_floor_back(app.world_mut(), &FloorId::new("bog", 1)));
    advance(&mut app, 4);
    assert!(arrivals(&app).is_empty(), "turn 49 of the floor");
    advance(&mut app, 1);
    assert_eq!(arrivals(&app).len(), 1, "turn 50 of the floor");
    let gnats = species(&mut app).iter().filter(|s| *s == "gnat").count();
    assert_eq!(gnats, 5);
}

/// A tag area of any shape: eels that need `lava` land only on a diagonal river of it,
/// which no rectangle holds, and squares of it off the floor are left out.
#[test]
fn a_tag_area_may_be_any_set_of_squares() {
    let text = BESTIARY.replacen(
        "place: (stands_on: Some([\"water\"]))",
        "place: (stands_on: Some([\"floor\"]), needs: [\"lava\"])",
        1,
    );
    let files = [DataFile::new("bog.tables.ron", &text)];
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(3),
        TablesPlugin::default().with_rules(denizen::tables::load(&files).unwrap()),
    ));
    let river: SquareSet = (0..6)
        .map(|i| Square { x: 8 + i, y: 1 + i })
        .chain([Square { x: 500, y: 500 }])
        .collect();
    app.insert_resource(FloorMap(FloorGrid::from_rows(&MAP).unwrap()));
    let request = TablesFloorRequested::new("bog", 1)
        .player(Square { x: 2, y: 4 })
        .tag("safe", SAFE)
        .tag("lava", river.clone());
    app.world_mut().write_message(request);
    app.update();
    let world = app.world_mut();
    let eels: Vec<Square> = world
        .query::<(&TablesCreature, &GridPos)>()
        .iter(world)
        .filter(|(c, _)| c.species == "eel")
        .map(|(_, at)| Square { x: at.x, y: at.y })
        .collect();
    assert_eq!(eels.len(), 3);
    assert!(eels.iter().all(|&at| river.contains(at)), "{eels:?}");
    let record = &app.world().resource::<TablesFloors>().0[&FloorId::new("bog", 1)];
    assert_eq!(
        record.tags[1].squares,
        river.clipped(20, 9),
        "the record keeps the squares on the floor"
    );
    assert_eq!(record.tags[1].squares.len(), 6);
}

/// An app whose bestiary's wandering rules count `unit` (`Turns` or `Minutes`).
fn app_counting(seed: u64, unit: &str) -> App {
    let text = BESTIARY.replacen("every: 10,", &format!("every: 10, unit: {unit},"), 1);
    let files = [DataFile::new("bog.tables.ron", &text)];
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(seed),
        TablesPlugin::default().with_rules(denizen::tables::load(&files).unwrap()),
    ));
    app
}

fn advance_minutes(app: &mut App, minutes: u64) {
    app.world_mut()
        .resource_mut::<GameClock>()
        .advance_minutes(minutes);
    app.update();
}

/// Wandering rules that count minutes bring arrivals on a clock advanced in minutes, at
/// the same multiples turns would; turns alone bring none.
#[test]
fn wanderers_counting_minutes_arrive_on_minutes() {
    let mut app = app_counting(6, "Minutes");
    request(&mut app, "bog", 1);
    advance(&mut app, 40);
    assert!(arrivals(&app).is_empty(), "turns are not minutes");
    advance_minutes(&mut app, 9);
    assert!(arrivals(&app).is_empty(), "the first check is at minute 10");
    advance_minutes(&mut app, 1);
    assert_eq!(arrivals(&app).len(), 1);
    advance_minutes(&mut app, 35);
    assert_eq!(arrivals(&app).len(), 3, "minutes 20, 30 and 40");
}

/// The clock's warnings written in the last update.
fn clock_warnings(app: &App) -> Vec<TablesClockUnused> {
    messages::<TablesClockUnused>(app)
}

/// A game that advances only the unit its wandering rules do not count is told once per
/// run, as soon as that unit moved `every` (10) while the counted one stood still; a clock
/// that turns one into the other never warns.
#[test]
fn a_clock_moving_only_in_the_uncounted_unit_warns_once() {
    for (unit, counted) in [("Turns", TimeUnit::Turns), ("Minutes", TimeUnit::Minutes)] {
        let mut app = app_counting(6, unit);
        request(&mut app, "bog", 1);
        let other = |app: &mut App, by: u64| match counted {
            TimeUnit::Turns => advance_minutes(app, by),
            TimeUnit::Minutes => advance(app, by),
        };
        other(&mut app, 9);
        assert!(clock_warnings(&app).is_empty(), "9 is less than `every`");
        other(&mut app, 1);
        let warned = clock_warnings(&app);
        assert_eq!(
            warned,
            [TablesClockUnused {
                floor: FloorId::new("bog", 1),
                counted,
                moved: 10,
                every: 10,
            }]
        );
        assert!(
            warned[0].to_string().starts_with(&format!(
                "the wandering rules count game {}, but on `bog` at depth 1 only the clock's {}",
                counted.name(),
                counted.other().name()
            )),
            "{}",
            warned[0]
        );
        other(&mut app, 100);
        assert!(clock_warnings(&app).is_empty(), "once per run");
        assert!(arrivals(&app).is_empty());
    }

    // Both units move, the counted one between every few of the other's: no warning.
    let mut app = app_counting(6, "Turns");
    request(&mut app, "bog", 1);
    for _ in 0..30 {
        advance_minutes(&mut app, 3);
        advance(&mut app, 1);
    }
    assert!(clock_warnings(&app).is_empty());

    // A clock with a rate turns minutes into turns: arrivals, and no warning.
    let mut app = app_counting(6, "Turns");
    app.insert_resource(GameClock::default().with_turns_per_minute(10));
    request(&mut app, "bog", 1);
    let mut came = 0;
    for _ in 0..10 {
        advance_minutes(&mut app, 1);
        came += arrivals(&app).len();
        assert!(clock_warnings(&app).is_empty());
    }
    assert_eq!(came, 10, "ten minutes are a hundred turns");

    // Counting minutes, with turns advanced one at a time under a rate of 100 a minute:
    // the minute has not moved after 20 turns, and still no warning.
    let mut app = app_counting(6, "Minutes");
    app.insert_resource(GameClock::default().with_turns_per_minute(100));
    request(&mut app, "bog", 1);
    for _ in 0..20 {
        advance(&mut app, 1);
        assert!(clock_warnings(&app).is_empty());
    }
}

/// The same requests, kills and turns, from the same seed.
fn played(seed: u64) -> App {
    let mut app = app(seed);
    request(&mut app, "bog", 1);
    put_floor_away(app.world_mut());
    request(&mut app, "bog", 2);
    advance(&mut app, 30);
    kill_queen(&mut app);
    app.update();
    app
}

#[test]
fn equal_worlds_save_the_same_bytes_and_a_save_is_checked_on_load() {
    let (first, second) = (played(8), played(8));
    let text = save(first.world()).unwrap();
    assert_eq!(text, save(second.world()).unwrap());
    assert!(text.contains("TablesUniques") && text.contains("Follows"));

    let mut loaded = app(8);
    load(loaded.world_mut(), &text).unwrap();
    assert_eq!(
        save(loaded.world()).unwrap(),
        text,
        "a reload saves the same bytes"
    );
    let world = loaded.world_mut();
    let links = world
        .query::<(&Follows, &FollowerRole)>()
        .iter(world)
        .count();
    assert_eq!(links, 4, "the pups of both floors follow their howlers");
    assert!(
        world
            .resource::<TablesUniques>()
            .0
            .killed_keys()
            .eq(["queen"])
    );

    // A save of other files: a killed unique this bestiary does not have is dropped from
    // the ledger, and said once.
    let other = text.replacen("\"queen\"", "\"king\"", 1);
    assert_ne!(other, text);
    let mut mended = app_hearing_mends(8);
    load(mended.world_mut(), &other).unwrap();
    mended.update();
    let said = &mended.world().resource::<Mended>().0;
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(
        said[0].misfits,
        ["TablesUniques: `king` is no unique of the bestiary; dropped"]
    );
    let ledger = &mended.world().resource::<TablesUniques>().0;
    assert_eq!(ledger.killed_keys().count(), 0);
    assert_eq!(ledger.alive_keys().count(), 0);
}

#[derive(Resource, Default)]
struct Mended(Vec<TablesStateMended>);

/// A mod file over [`BESTIARY`]: the howler drawn as `glyph`, with `escort` as its escort.
#[cfg(feature = "file_watcher")]
fn howler_mod(glyph: char, escort: &str) -> String {
    format!(
        r#"(replace: (species: [
            (key: "howler", name: "howler", glyph: '{glyph}', level: 1, hit_points: "2d4",
             escort: Some("{escort}")),
        ]))"#
    )
}

/// The glyphs of the howlers on the current floor.
#[cfg(feature = "file_watcher")]
fn howler_glyphs(app: &mut App) -> Vec<char> {
    let world = app.world_mut();
    world
        .query::<(&TablesCreature, &Glyph)>()
        .iter(world)
        .filter(|(c, _)| c.species == "howler")
        .map(|(_, g)| g.0)
        .collect()
}

/// The bestiary's files as assets, base then mod: requests wait for them; the mod applies
/// after the base; an edit is followed at the next request, a broken one refused once
/// (naming the file, entry and field) while the rules stay, and an edit the lint warns of
/// is swapped in with its warnings written as a message.
#[cfg(feature = "file_watcher")]
#[test]
fn tables_rules_follow_their_files() {
    use crate::asset_folder::{Folder, game, heard, hears_nothing_more, wait_for_answers};

    let folder = Folder::new("assets-tables");
    folder.write("bog.tables.ron", BESTIARY);
    folder.write("bog_mod.tables.ron", howler_mod('H', "howler_pups"));
    let files = TablesDataAssets::new("bog.tables.ron").with_mod("bog_mod.tables.ron");
    let plugins = DenizenPlugins::with_seed(9).set(TablesPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    // A kill reported while the files load is kept until they are in.
    app.world_mut().write_message(TablesUniqueKilled {
        unique: "queen".into(),
    });
    request(&mut app, "bog", 1);
    let refused: Vec<TablesFloorRefusal> = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(refused[0], TablesFloorRefusal::RulesLoading);
    assert!(
        species(&mut app).is_empty(),
        "nothing before the files load"
    );

    wait_for_answers(&mut app, 1);
    assert_eq!(heard(&app), [Ok("Tables")]);
    request(&mut app, "bog", 1);
    assert!(
        !queen_here(&mut app),
        "the kill reported while loading holds"
    );
    assert_eq!(
        howler_glyphs(&mut app),
        ['H'],
        "the mod applies after the base"
    );

    folder.write("bog_mod.tables.ron", howler_mod('J', "howler_pups"));
    wait_for_answers(&mut app, 2);
    request(&mut app, "bog", 1);
    assert_eq!(howler_glyphs(&mut app), ['J']);

    folder.write("bog_mod.tables.ron", howler_mod('K', "howler_pupz"));
    wait_for_answers(&mut app, 3);
    let Err(rejected) = &heard(&app)[2] else {
        panic!("the broken edit is refused: {:?}", heard(&app))
    };
    assert_eq!(
        (rejected.rule_set, rejected.error.to_string().as_str()),
        (
            "Tables",
            "bog_mod.tables.ron: replace.species[0] `howler`: field `escort`: no group `howler_pupz` is loaded"
        )
    );
    hears_nothing_more(&mut app);
    request(&mut app, "bog", 1);
    assert_eq!(howler_glyphs(&mut app), ['J'], "the rules stay");

    // A species no table reaches: the lint warns, and the files are in use.
    let lonely =
        r#"(species: [(key: "lonely", name: "lonely", glyph: 'l', level: 1, hit_points: "1d1")])"#;
    let warned = |app: &mut App| {
        let mut read = app
            .world_mut()
            .resource_mut::<Messages<TablesLintWarnings>>()
            .get_cursor();
        let said: Vec<TablesLintWarnings> = read
            .read(app.world().resource::<Messages<TablesLintWarnings>>())
            .cloned()
            .collect();
        said
    };
    folder.write("bog_mod.tables.ron", lonely);
    wait_for_answers(&mut app, 4);
    assert_eq!(heard(&app)[3], Ok("Tables"));
    let warnings = warned(&mut app);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].warnings[0].contains("lonely"), "{warnings:?}");
    request(&mut app, "bog", 1);
    assert_eq!(howler_glyphs(&mut app), ['h'], "the base's howler again");
}

/// A claims file checked as the bestiary loads: a claim that fails is a lint warning; an
/// edit that makes it hold clears it; a claims file that does not load is a warning naming
/// it, field and all, and the bestiary loads all the same.
#[cfg(feature = "file_watcher")]
#[test]
fn balance_claims_are_checked_as_the_rules_load() {
    use crate::asset_folder::{Folder, game, heard, wait_for_answers};

    // Every floor has its howler: P(at least one) is 1.
    let claim = |bound: &str| {
        format!(
            r#"(claims: [(name: "howlers", figure: AtLeastOne(Species("howler")), depths: (1, 2), bound: {bound})])"#
        )
    };
    let folder = Folder::new("assets-tables-checks");
    folder.write("bog.tables.ron", BESTIARY);
    folder.write("bog.checks.ron", claim("AtMost(\"1/2\")"));
    let files = TablesDataAssets::new("bog.tables.ron").with_checks("bog.checks.ron");
    let plugins = DenizenPlugins::with_seed(9).set(TablesPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    let warned = |app: &mut App| -> Vec<String> {
        let mut read = (app.world_mut())
            .resource_mut::<Messages<TablesLintWarnings>>()
            .get_cursor();
        read.read(app.world().resource::<Messages<TablesLintWarnings>>())
            .flat_map(|w| w.warnings.clone())
            .collect()
    };
    wait_for_answers(&mut app, 1);
    assert_eq!(heard(&app), [Ok("Tables")]);
    assert_eq!(
        warned(&mut app),
        ["bog.checks.ron: claim `howlers` fails: 1 at depth 1, bound <= 1/2"]
    );
    folder.write("bog.checks.ron", claim("AtLeast(\"1\")"));
    wait_for_answers(&mut app, 2);
    assert_eq!(heard(&app)[1], Ok("Tables"));
    assert!(warned(&mut app).iter().all(|w| !w.contains("howlers")));
    // Claims that do not load: a warning, and the bestiary (edited too) is in use.
    folder.write("bog.checks.ron", claim("AtLeast(\"lots\")"));
    wait_for_answers(&mut app, 3);
    assert_eq!(heard(&app)[2], Ok("Tables"));
    let said = warned(&mut app);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(
            "the claims were not checked: bog.checks.ron: claims[0] `howlers`: field `bound`: `lots`"
        ),
        "{said:?}"
    );
}

/// A tag area larger than the floor costs no more than the floor (it is clipped: here it
/// makes every square safe, so nothing finds a square); more areas than a floor holds are
/// refused, and a save's record holding more is cut down, and said.
#[test]
fn tag_areas_are_bounded() {
    let mut app = app(10);
    app.insert_resource(FloorMap(FloorGrid::from_rows(&MAP).unwrap()));
    let everything = Rect {
        x: 0,
        y: 0,
        width: u32::MAX,
        height: u32::MAX,
    };
    let request = TablesFloorRequested::new("bog", 1).tag("safe", everything);
    app.world_mut().write_message(request);
    app.update();
    let answer = &floors_populated::<TablesFloorRequested>(&app)[0];
    assert!(answer.placed.is_empty());
    assert_eq!(answer.unplaced.len(), 7, "{:?}", answer.unplaced);

    let one = Rect {
        x: 1,
        y: 1,
        width: 1,
        height: 1,
    };
    let mut crowded = TablesFloorRequested::new("bog", 2);
    for _ in 0..MAX_TAG_AREAS {
        crowded = crowded.tag("safe", one);
    }
    app.world_mut().write_message(crowded.clone());
    app.update();
    assert_eq!(
        floors_populated::<TablesFloorRequested>(&app).len(),
        1,
        "256 areas are held"
    );
    put_floor_away(app.world_mut());
    app.world_mut().write_message(crowded.tag("safe", one));
    app.update();
    let refused: Vec<TablesFloorRefusal> = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(
        refused[0],
        TablesFloorRefusal::TooManyAreas(MAX_TAG_AREAS + 1)
    );

    // Only the floor put away has a record: the first ended (left) when the second came.
    let second = FloorId::new("bog", 2);
    let floors = &app.world().resource::<TablesFloors>().0;
    assert_eq!(floors.keys().collect::<Vec<_>>(), [&second]);
    // A save whose record holds one area too many (as an edited save would): written from
    // a world changed by hand.
    let mut floors = app.world_mut().resource_mut::<TablesFloors>();
    floors.0.get_mut(&second).unwrap().tags.push(TagArea {
        name: "shrine".into(),
        squares: one.into(),
    });
    let crowded_save = save(app.world()).unwrap();
    let mut loaded = app_hearing_mends(10);
    load(loaded.world_mut(), &crowded_save).unwrap();
    loaded.update();
    let said = &loaded.world().resource::<Mended>().0;
    assert_eq!(
        said[0].misfits,
        [format!(
            "TablesFloors: `bog` at depth 2 has {} tag areas; the first {MAX_TAG_AREAS} kept",
            MAX_TAG_AREAS + 1
        )]
    );
    let floors = &loaded.world().resource::<TablesFloors>().0;
    assert_eq!(floors[&second].tags.len(), MAX_TAG_AREAS);
}

/// An app that keeps every [`TablesStateMended`] it hears.
fn app_hearing_mends(seed: u64) -> App {
    let mut app = app(seed);
    hear_mends(&mut app);
    app
}

/// Keeps every [`TablesStateMended`] the app writes.
fn hear_mends(app: &mut App) {
    app.init_resource::<Mended>().add_systems(
        Update,
        (|mut read: MessageReader<TablesStateMended>, mut seen: ResMut<Mended>| {
            seen.0.extend(read.read().cloned());
        })
        .after(DenizenSystems::Arrivals),
    );
}

/// Rules swapped by an observer of the old floor's end (a reload at that moment) do not
/// change a plan already resolved: the new floor is the old rules' whole, and every
/// creature is named by them, though the new rules have one species.
#[test]
fn rules_swapped_while_a_floor_is_made_do_not_change_its_plan() {
    let mut app = app(11);
    request(&mut app, "bog", 1);
    app.add_observer(|_: On<FloorEnded>, mut commands: Commands| {
        let one = r#"(species: [(key: "newt", name: "newt", glyph: 'n', level: 1, hit_points: "1d1")],
            tables: [(key: "floor", rows: [(what: Species("newt"), depth: (1, 5))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#;
        let rules = denizen::tables::load(&[DataFile::new("one.tables.ron", one)]).unwrap();
        commands.insert_resource(TablesRuleset::new(std::sync::Arc::new(rules)));
    });
    request(&mut app, "bog", 2);
    assert_eq!(
        species(&mut app),
        ["eel", "eel", "eel", "howler", "pup", "pup", "queen"]
    );
    let answer = &floors_populated::<TablesFloorRequested>(&app)[0];
    assert_eq!(answer.placed.len(), 7);
}

/// What validation checked cannot go stale before planning: an observer of the old floor's
/// end that sets a context the bestiary refuses and puts a one-square map in `FloorMap`
/// changes neither the new floor's plan (the same creatures as without it) nor its map,
/// and no floor is entered empty; the context it set refuses the next request.
#[test]
fn an_observer_of_the_old_floors_end_cannot_make_validation_stale() {
    let mut app = app(11);
    request(&mut app, "bog", 1);
    app.add_observer(|_: On<FloorEnded>, mut commands: Commands| {
        commands.insert_resource(TablesContext(
            denizen::tables::Context::new().with_flag("dusk"),
        ));
        commands.insert_resource(FloorMap(FloorGrid::from_rows(&["."]).unwrap()));
    });
    request(&mut app, "bog", 2);
    assert_eq!(
        species(&mut app),
        ["eel", "eel", "eel", "howler", "pup", "pup", "queen"]
    );
    let answer = &floors_populated::<TablesFloorRequested>(&app)[0];
    assert_eq!(answer.placed.len(), 7);
    assert_eq!(app.world().resource::<FloorMap>().0.width(), 20);
    let dusk = denizen::tables::Context::new().with_flag("dusk");
    assert_eq!(app.world().resource::<TablesContext>().0, dusk);
    request(&mut app, "bog", 3);
    let refused = floors_refused::<TablesFloorRequested>(&app);
    assert!(
        matches!(refused.as_slice(), [TablesFloorRefusal::Request(_)]),
        "{refused:?}"
    );
}

/// A unique the game despawns without reporting a kill (it fled, say) is no longer alive:
/// the next floor may bring it again.
#[test]
fn a_unique_despawned_without_a_kill_goes_back_to_the_pool() {
    let mut app = app(12);
    request(&mut app, "bog", 1);
    let world = app.world_mut();
    let queen = world
        .query_filtered::<Entity, With<Unique>>()
        .single(world)
        .unwrap();
    world.despawn(queen);
    assert_eq!(world.resource::<TablesUniques>().0.alive_keys().count(), 0);
    put_floor_away(app.world_mut());
    request(&mut app, "bog", 2);
    assert!(queen_here(&mut app));
}

/// With another floor current (entered by the game, or made by another rule set with the
/// id of a floor of the plugin's once that floor ended), no wanderer of the tables
/// arrives; while the plugin's floor stands, even emptied, the other rule set is refused.
#[test]
fn no_wanderer_arrives_while_another_floor_is_current() {
    let mut app = app(13);
    app.add_plugins(Other);
    request(&mut app, "bog", 1);
    put_floor_away(app.world_mut());
    enter_floor(app.world_mut(), FloorId::new("elsewhere", 1));
    advance(&mut app, 100);
    assert!(messages::<TablesWandered>(&app).is_empty());

    // A floor of the plugin's emptied by the game is still the plugin's: another rule set
    // asked for a floor of its id is refused. Ended, it is made anew by the other.
    request(&mut app, "base", 1);
    let world = app.world_mut();
    let all: Vec<Entity> = world
        .query_filtered::<Entity, (With<TablesCreature>, Without<Dormant>)>()
        .iter(world)
        .collect();
    for creature in all {
        world.despawn(creature);
    }
    let base = FloorId::new("base", 1);
    app.world_mut().write_message(OtherFloor);
    app.update();
    let maker = denizen::bevy::floor::maker_of(app.world(), &base);
    assert_eq!(maker, denizen::bevy::floor::Maker::rule_set("Tables"));
    despawn_floor(app.world_mut(), &base);
    enter_floor(app.world_mut(), FloorId::new("elsewhere", 1));
    app.world_mut().write_message(OtherFloor);
    app.update();
    let maker = denizen::bevy::floor::maker_of(app.world(), &base);
    assert_eq!(maker, denizen::bevy::floor::Maker::rule_set("Other"));
    assert_eq!(
        app.world().resource::<CurrentFloor>().0,
        FloorId::new("base", 1)
    );
    assert!(
        !app.world()
            .resource::<TablesFloors>()
            .0
            .contains_key(&FloorId::new("base", 1))
    );
    advance(&mut app, 100);
    assert!(
        messages::<TablesWandered>(&app).is_empty(),
        "not the plugin's floor"
    );
}

/// Another rule set, of one empty floor `("base", 1)`.
struct Other;

#[derive(Message, Clone, Debug)]
struct OtherFloor;

/// The other rule set's rules: none.
#[derive(Resource)]
struct OtherRules;

impl Plugin for Other {
    fn build(&self, app: &mut App) {
        use denizen::bevy::rule_set::RuleSetApp;
        let rule_set = denizen::bevy::RuleSet::new("Other").rules::<OtherRules>();
        app.add_rule_set(rule_set.floors(OtherSystems))
            .insert_resource(OtherRules)
            .serve_floors::<OtherFloor>(OtherSystems);
    }
}

#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct OtherSystems;

/// Why the other rule set refuses: only the pipeline's own reasons.
#[derive(Clone, Debug)]
enum OtherRefusal {
    Held,
    NotOurs,
    NotReady,
}

impl From<denizen::bevy::pipeline::RulesNotReady> for OtherRefusal {
    fn from(_: denizen::bevy::pipeline::RulesNotReady) -> Self {
        Self::NotReady
    }
}

impl From<denizen::bevy::floor::FloorHeld> for OtherRefusal {
    fn from(_: denizen::bevy::floor::FloorHeld) -> Self {
        Self::Held
    }
}

impl From<denizen::bevy::pipeline::NotOurFloor> for OtherRefusal {
    fn from(_: denizen::bevy::pipeline::NotOurFloor) -> Self {
        Self::NotOurs
    }
}

impl denizen::bevy::pipeline::FloorRequest for OtherFloor {
    type Rules = OtherRules;
    type Valid = ();
    type Plan = ();
    type Populated = ();
    type Refusal = OtherRefusal;

    fn validate(&self, _: &World) -> Result<(FloorId, ()), Self::Refusal> {
        Ok((FloorId::new("base", 1), ()))
    }

    fn plan(&self, _: &World, (): (), _: &mut denizen::bevy::pipeline::FloorStreams<'_>) {}

    fn apply(&self, _: &mut World, _: &FloorId, (): ()) {}
}

/// Files refused at their first load: a floor asked for is answered with the refusal,
/// naming the file, entry and field, not "still loading" (no `RulesLoaded` would come).
#[cfg(feature = "assets")]
#[test]
fn a_refused_first_load_answers_with_the_refusal() {
    use crate::asset_folder::{Folder, game, heard, wait_for_answers};
    use denizen::bevy::assets::DataRefusal;

    let folder = Folder::new("assets-tables-refused");
    folder.write("bog.tables.ron", BESTIARY);
    folder.write("bog_mod.tables.ron", howler_mod('K', "howler_pupz"));
    let files = TablesDataAssets::new("bog.tables.ron").with_mod("bog_mod.tables.ron");
    let plugins = DenizenPlugins::with_seed(9).set(TablesPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    wait_for_answers(&mut app, 1);
    let Err(rejected) = &heard(&app)[0] else {
        panic!("{:?}", heard(&app))
    };
    request(&mut app, "bog", 1);
    let refused: Vec<TablesFloorRefusal> = floors_refused::<TablesFloorRequested>(&app);
    let TablesFloorRefusal::RulesRefused(refusal) = &refused[0] else {
        panic!("{:?}", refused[0])
    };
    assert_eq!(refusal.0, rejected.error);
    let DataRefusal::Data(error) = &refusal.0 else {
        panic!("{refusal:?}")
    };
    assert_eq!(
        error.to_string(),
        "bog_mod.tables.ron: replace.species[0] `howler`: field `escort`: no group `howler_pupz` is loaded"
    );
}

/// A save loaded while the files load is checked once they are in, against them (not
/// against the rules the plugin was built with, which lack the save's unique).
#[cfg(feature = "file_watcher")]
#[test]
fn a_save_loaded_while_the_files_load_is_checked_against_them() {
    use crate::asset_folder::{Folder, game, heard, wait_for_answers};

    let text = save(played(8).world()).unwrap();
    let folder = Folder::new("assets-tables-save");
    folder.write("bog.tables.ron", BESTIARY);
    let files = TablesDataAssets::new("bog.tables.ron");
    let plugins = DenizenPlugins::with_seed(8).set(TablesPlugin::default().data_assets(files));
    let mut app = game(&folder.0, plugins);
    hear_mends(&mut app);
    app.update();
    load(app.world_mut(), &text).unwrap();
    wait_for_answers(&mut app, 1);
    assert_eq!(heard(&app), [Ok("Tables")]);
    app.update();
    let ledger = &app.world().resource::<TablesUniques>().0;
    assert!(ledger.killed_keys().eq(["queen"]), "{ledger:?}");
    assert!(app.world().resource::<Mended>().0.is_empty());
}

/// A follower naming itself as its leader, in an edited save, is refused whole, naming the
/// entity; the world is unchanged.
#[test]
fn a_follower_that_follows_itself_is_refused() {
    let text = save(played(8).world()).unwrap();
    let at = text.find("components::Follows\": (").unwrap();
    let header = text[..at].rfind(": {\n").unwrap();
    let line = text[..header].rfind('\n').unwrap() + 1;
    let id: u64 = text[line..header].trim().parse().unwrap();
    let value = at + "components::Follows\": (".len();
    let close = value + text[value..].find(')').unwrap();
    let broken = format!("{}{id}{}", &text[..value], &text[close..]);
    let mut target = played(9);
    let before = save(target.world()).unwrap();
    match load(target.world_mut(), &broken) {
        Err(denizen::bevy::save::SaveError::Impossible { type_path, message }) => {
            assert_eq!(type_path, "Follows");
            assert_eq!(message, format!("entity {id} names itself"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(save(target.world()).unwrap(), before);
}

/// A save of other files (a creature of a species this bestiary does not have) is refused
/// whole, naming the entity and the species; the world is unchanged.
#[test]
fn a_species_the_bestiary_does_not_have_is_refused() {
    let text = save(played(8).world()).unwrap();
    let broken = text.replacen("species: \"howler\"", "species: \"howlr\"", 1);
    assert_ne!(broken, text);
    let mut target = played(9);
    let before = save(target.world()).unwrap();
    match load(target.world_mut(), &broken) {
        Err(denizen::bevy::save::SaveError::Impossible { type_path, message }) => {
            assert_eq!(type_path, "TablesCreature");
            assert!(
                message.ends_with("is of species `howlr`, which the bestiary does not have"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(save(target.world()).unwrap(), before);
}

/// A save of the bog's first floor, the queen standing with her crown, the howler leading
/// its pups: every value a case below edits is in it.
fn queen_standing() -> String {
    let mut app = app(8);
    request(&mut app, "bog", 1);
    let text = save(app.world()).unwrap();
    for needle in [
        "\"queen\"",
        "Possession\": (",
        "role: \"pup\"",
        "Glyph\": ('Q')",
        "CreatureTags\": ([])",
        "CreatureData\": ({\n",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
    text
}

/// The block of the saved entity whose line `marker` is (`Glyph": ('Q')`): its start and
/// end in `text`.
fn entity_block(text: &str, marker: &str) -> (usize, usize) {
    let at = text.find(marker).unwrap();
    let start = text[..at].rfind(": {\n").unwrap();
    let start = text[..start].rfind('\n').unwrap() + 1;
    let end = at + text[at..].find("\n        },").unwrap();
    (start, end)
}

/// `text` with the first `from` inside the block of the entity `marker` names made `to`.
fn edited_in(text: &str, marker: &str, from: &str, to: &str) -> String {
    let (start, end) = entity_block(text, marker);
    let block = text[start..end].replacen(from, to, 1);
    assert_ne!(block, text[start..end], "{from} is in the entity");
    format!("{}{block}{}", &text[..start], &text[end..])
}

/// Saves a tables world accepts only what its files could hold: glyphs that show, tags,
/// roles, unique keys, loot tables and items within the files' bounds and of the
/// bestiary, and a `Unique` marker exactly on a standing unique of its species, never
/// killed and never twice. Each is refused naming the type, the entity and the field, and
/// the world is left as it was.
#[test]
fn saves_hold_only_what_the_files_could() {
    let text = queen_standing();
    let queen = "Glyph\": ('Q')";
    let (start, _) = entity_block(&text, queen);
    let id: u64 = text[start..]
        .trim()
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let long = "x".repeat(65);
    let fits = "x".repeat(64);
    let tags_33 = (0..33)
        .map(|i| format!("\"t{i}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let cases: Vec<(String, &str, String)> = vec![
        (
            text.replacen(queen, "Glyph\": ('\\n')", 1),
            "Glyph",
            format!(
                "entity {id}: field `0`: a glyph is a visible character that takes its own cell, not \\u{{a}}"
            ),
        ),
        (
            text.replacen(queen, "Glyph\": ('\\u{1b}')", 1),
            "Glyph",
            format!(
                "entity {id}: field `0`: a glyph is a visible character that takes its own cell, not \\u{{1b}}"
            ),
        ),
        (
            text.replacen(queen, "Glyph\": ('\\u{0}')", 1),
            "Glyph",
            format!(
                "entity {id}: field `0`: a glyph is a visible character that takes its own cell, not \\u{{0}}"
            ),
        ),
        (
            edited_in(
                &text,
                queen,
                "CreatureTags\": ([])",
                &format!("CreatureTags\": ([{tags_33}])"),
            ),
            "CreatureTags",
            format!("entity {id}: field `0`: at most 32 tags"),
        ),
        (
            edited_in(
                &text,
                queen,
                "CreatureTags\": ([])",
                &format!("CreatureTags\": ([\"{long}\"])"),
            ),
            "CreatureTags",
            format!("entity {id}: field `0[0]`: at most 64 bytes, no control characters"),
        ),
        (
            edited_in(
                &text,
                queen,
                "CreatureTags\": ([])",
                "CreatureTags\": ([\"a\\u{1b}[2J\"])",
            ),
            "CreatureTags",
            format!("entity {id}: field `0[0]`: at most 64 bytes, no control characters"),
        ),
        (
            edited_in(
                &text,
                queen,
                "Unique\": (\"queen\")",
                &format!("Unique\": (\"{long}\")"),
            ),
            "Unique",
            format!("entity {id}: field `0`: a key is 1 to 64 letters, digits, `_` or `-`"),
        ),
        (
            text.replacen("role: \"pup\"", &format!("role: \"{long}\""), 1),
            "FollowerRole",
            String::from("field `role`: at most 64 bytes, no control characters"),
        ),
        (
            edited_in(&text, queen, "loot: \"crowns\"", "loot: \"crownz\""),
            "Possession",
            format!(
                "entity {id} carries `reed crown` of loot table `crownz`, which the bestiary does not have"
            ),
        ),
        (
            edited_in(&text, queen, "item: \"reed crown\"", "item: \"gold crown\""),
            "Possession",
            format!(
                "entity {id} carries `gold crown` of loot table `crowns`, which the bestiary does not have"
            ),
        ),
        (
            edited_in(&text, queen, "species: \"queen\"", "species: \"howler\""),
            "Unique",
            format!(
                "entity {id} is marked Unique(`queen`) but is of species `howler`"
            ),
        ),
        (
            edited_in(
                &text,
                queen,
                "Unique\": (\"queen\")",
                "Unique\": (\"howler\")",
            ),
            "Unique",
            format!("entity {id} is marked Unique(`howler`) but is of species `queen`"),
        ),
        (
            edited_in(
                &text,
                queen,
                "\n            \"denizen_tables::plugin::components::Unique\": (\"queen\"),",
                "",
            ),
            "Unique",
            format!(
                "entity {id} is of the unique species `queen` but is not marked Unique(`queen`)"
            ),
        ),
        (
            text.replacen(
                "TablesCreature\": (\n                species: \"howler\",\n            ),",
                "TablesCreature\": (\n                species: \"howler\",\n            ),\n            \"denizen_tables::plugin::components::Unique\": (\"howler\"),",
                1,
            ),
            "Unique",
            String::from("is marked Unique(`howler`), which is no unique"),
        ),
        (
            edited_in(&text, queen, "\"reeds\"", &format!("\"{}\"", "x".repeat(201))),
            "CreatureData",
            format!("entity {id}: field `0[\"banner\"]`: at most 200 bytes, no control characters"),
        ),
        (
            edited_in(&text, queen, "\"banner\"", "\"ban ner\""),
            "CreatureData",
            format!("entity {id}: field `0[\"ban ner\"]`: a key is 1 to 64 letters, digits, `_` or `-`"),
        ),
        (
            text.replacen("name: \"safe\"", &format!("name: \"{long}\""), 1),
            "TablesFloors",
            String::from("tags[0]: field `name`: at most 64 bytes, no control characters"),
        ),
        (
            text.replacen("killed: []", "killed: [\"queen\"]", 1),
            "Unique",
            format!("entity {id} is the unique `queen`, which the saved ledger has killed"),
        ),
    ];
    let mut target = played(9);
    let before = save(target.world()).unwrap();
    for (broken, type_path, message) in cases {
        match load(target.world_mut(), &broken) {
            Err(denizen::bevy::save::SaveError::Impossible {
                type_path: t,
                message: m,
            }) => {
                assert_eq!(t, type_path, "{m}");
                assert!(m.ends_with(&message), "{m}\nexpected {message}");
            }
            other => panic!("{type_path}: {message}: {other:?}"),
        }
        assert_eq!(save(target.world()).unwrap(), before, "{message}");
    }
    // At the bounds, not past them: a 64-byte tag loads.
    let edge = edited_in(
        &text,
        queen,
        "CreatureTags\": ([])",
        &format!("CreatureTags\": ([\"{fits}\"])"),
    );
    load(target.world_mut(), &edge).unwrap();
}

/// Two creatures of one unique in a save (a howler edited into a second queen) are refused:
/// the ledger follows the species, so a save cannot stand two of one unique at once.
#[test]
fn a_save_with_two_of_one_unique_is_refused() {
    let text = queen_standing();
    let howler = "TablesCreature\": (\n                species: \"howler\",\n            ),";
    let second = text.replacen(
        howler,
        "TablesCreature\": (\n                species: \"queen\",\n            ),\n            \"denizen_tables::plugin::components::Unique\": (\"queen\"),",
        1,
    );
    assert_ne!(second, text);
    let mut target = app(9);
    match load(target.world_mut(), &second) {
        Err(denizen::bevy::save::SaveError::Impossible { type_path, message }) => {
            assert_eq!(type_path, "Unique");
            assert!(message.contains("are both the unique `queen`"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

/// The ledger follows the species standing: a save whose ledger forgot the queen standing
/// on her floor marks her alive again, and says so.
#[test]
fn the_ledger_follows_the_uniques_standing() {
    let text = queen_standing();
    let alive = "alive: [\n                \"queen\",\n            ],";
    let forgot = text.replacen(alive, "alive: [],", 1);
    assert_ne!(forgot, text);
    let mut loaded = app_hearing_mends(8);
    load(loaded.world_mut(), &forgot).unwrap();
    loaded.update();
    let said = &loaded.world().resource::<Mended>().0;
    assert_eq!(
        said[0].misfits,
        ["TablesUniques: `queen` stands on a floor but was not alive; marked alive"]
    );
    assert!(
        loaded
            .world()
            .resource::<TablesUniques>()
            .0
            .alive_keys()
            .eq(["queen"])
    );
}

/// The owls come only at night, on the floor and among the wanderers.
const NIGHT: &str = r#"(
    species: [
        (key: "owl", name: "owl", glyph: 'o', level: 1, hit_points: "1d4"),
        (key: "gnat", name: "gnat", glyph: 'g', level: 1, hit_points: "1d1"),
    ],
    context: Some((flags: ["night"])),
    tables: [
        (key: "floor", pick: Each, rows: [
            (what: Species("gnat"), depth: (1, 5), chance: Some("1/1")),
            (what: Species("owl"), depth: (1, 5), chance: Some("1/1"), when: Some((all: ["night"]))),
        ]),
        (key: "wanderers", rows: [
            (what: Species("gnat"), depth: (1, 5), when: Some((none: ["night"]))),
            (what: Species("owl"), depth: (1, 5), when: Some((all: ["night"]))),
        ]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    wandering: Some((table: "wanderers", chance: "1/1", every: 10)),
)"#;

fn night_app() -> App {
    let rules = denizen::tables::load(&[DataFile::new("night.tables.ron", NIGHT)]).unwrap();
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(3),
        TablesPlugin::default().with_rules(rules),
    ));
    app
}

fn set_context(app: &mut App, context: denizen::tables::Context) {
    app.world_mut().resource_mut::<TablesContext>().0 = context;
}

/// Floors and wanderers are drawn in the game's `TablesContext`: by day a gnat and gnats
/// wandering in, at night an owl too and owls wandering in; a flag the files do not
/// declare refuses the floor by name. The context is saved and loaded back.
#[test]
fn floors_and_wanderers_are_drawn_in_the_games_context() {
    use denizen::tables::{Context, ContextError};
    let mut app = night_app();
    request(&mut app, "wood", 1);
    assert_eq!(species(&mut app), ["gnat"]);
    advance(&mut app, 10);
    assert_eq!(species(&mut app), ["gnat", "gnat"]);

    set_context(&mut app, Context::new().with_flag("night"));
    request(&mut app, "wood", 2);
    assert_eq!(species(&mut app), ["gnat", "owl"]);
    advance(&mut app, 10);
    assert_eq!(species(&mut app), ["gnat", "owl", "owl"]);

    let text = save(app.world()).unwrap();
    let mut other = night_app();
    other.update();
    load(other.world_mut(), &text).unwrap();
    let night = Context::new().with_flag("night");
    assert_eq!(other.world().resource::<TablesContext>().0, night);
    assert_eq!(save(other.world()).unwrap(), text);

    // An edited save whose context no bestiary could declare is refused, the world kept.
    let flags: Vec<String> = (0..65).map(|i| format!("\"f{i}\"")).collect();
    for (edit, said) in [
        ("\"night fall\"".to_owned(), "`night fall`: a key is"),
        (flags.join(", "), "more than 64 flags"),
    ] {
        let edited = text.replacen("\"night\"", &edit, 1);
        assert_ne!(edited, text);
        let err = load(other.world_mut(), &edited).unwrap_err().to_string();
        assert!(err.contains("TablesContext") && err.contains(said), "{err}");
        assert_eq!(other.world().resource::<TablesContext>().0, night);
    }

    set_context(&mut app, Context::new().with_flag("dusk"));
    request(&mut app, "wood", 3);
    let refused = floors_refused::<TablesFloorRequested>(&app);
    let dusk = ContextError::Flag("dusk".to_owned());
    assert_eq!(
        refused.last().cloned(),
        Some(TablesFloorRefusal::Request(RequestError::Draw(
            OddsError::Context(dusk)
        )))
    );
}

/// A budgeted floor's answer reports the budget it rolled and a danger drawn within it.
#[test]
fn a_budgeted_floors_answer_reports_its_budget_and_danger() {
    let text = BESTIARY.replace(r#"count: (dice: "1d1")"#, r#"budget: Some((dice: "7"))"#);
    assert_ne!(text, BESTIARY);
    let rules = denizen::tables::load(&[DataFile::new("test.tables.ron", &text)]).unwrap();
    for seed in 0..5 {
        let mut app = App::new();
        app.add_plugins((
            DenizenPlugin::with_seed(seed),
            TablesPlugin::default().with_rules(rules.clone()),
        ));
        request(&mut app, "bog", 2);
        let answers: Vec<TablesFloorPopulated> = floors_populated::<TablesFloorRequested>(&app);
        let danger = answers[0].danger;
        assert_eq!(danger.budget, Some(7));
        assert!(
            danger.placed <= danger.drawn && danger.drawn <= 7,
            "{danger:?}"
        );
        assert!(danger.drawn > 0, "{danger:?}");
    }
}

/// The bestiary with a branch `mines`: two moles a floor, and a mole wandering in every 5
/// turns (the default floor's gnats come every 10).
fn with_mines() -> String {
    let text = BESTIARY
        .replacen(
            "    ],\n    groups:",
            "        (key: \"mole\", name: \"mole\", glyph: 'm', level: 1, hit_points: \"1d1\"),\n    ],\n    groups:",
            1,
        )
        .replacen(
            "(key: \"wanderers\", rows:",
            "(key: \"mines\", rows: [(what: Species(\"mole\"), depth: (1, 5))]),\n        (key: \"wanderers\", rows:",
            1,
        )
        .replacen(
            "    wandering: Some((table: \"wanderers\"",
            "    branches: [(key: \"mines\", floor: (table: \"mines\", depths: (1, 5), count: (dice: \"2\")),\n        wandering: Some((table: \"mines\", chance: \"1/1\", every: 5)))],\n    wandering: Some((table: \"wanderers\"",
            1,
        );
    assert_eq!(text.matches("mole").count(), 3, "{text}");
    text
}

fn app_with(text: &str, seed: u64) -> App {
    let rules = denizen::tables::load(&[DataFile::new("test.tables.ron", text)]).unwrap();
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(seed),
        TablesPlugin::default().with_rules(rules),
    ));
    app
}

/// A floor of a branch is drawn from the branch's rules, its record keeps the branch, and
/// its wandering arrivals are the branch's, also once the floor is brought back. A branch
/// the bestiary lacks is refused by name, and one a reload removed refuses the floor's
/// checks by name.
#[test]
fn a_branchs_floor_and_its_wanderers_follow_the_branch() {
    let mut app = app_with(&with_mines(), 21);
    app.insert_resource(FloorMap(FloorGrid::from_rows(&MAP).unwrap()));
    let asked = TablesFloorRequested::new("mine", 1)
        .branch("mines")
        .player(Square { x: 2, y: 4 });
    app.world_mut().write_message(asked);
    app.update();
    assert_eq!(species(&mut app), ["mole", "mole"]);
    let floor = FloorId::new("mine", 1);
    let record = &app.world().resource::<TablesFloors>().0[&floor];
    assert_eq!(record.branch.as_deref(), Some("mines"));
    advance(&mut app, 5);
    assert_eq!(
        arrivals(&app).len(),
        1,
        "the mines' every 5, not the default's 10"
    );
    assert_eq!(species(&mut app), ["mole", "mole", "mole"]);

    put_floor_away(app.world_mut());
    advance(&mut app, 50);
    assert!(bring_floor_back(app.world_mut(), &floor));
    advance(&mut app, 5);
    assert_eq!(arrivals(&app).len(), 1);
    assert_eq!(species(&mut app).iter().filter(|s| *s == "mole").count(), 4);

    // Saved and loaded, the record keeps its branch; a branch key past the bounds is
    // refused by field.
    let text = save(app.world()).unwrap();
    assert!(text.contains("branch: Some(\"mines\")"), "{text}");
    let mut loaded = app_with(&with_mines(), 21);
    load(loaded.world_mut(), &text).unwrap();
    let record = &loaded.world().resource::<TablesFloors>().0[&floor];
    assert_eq!(record.branch.as_deref(), Some("mines"));
    let long = text.replacen(
        "branch: Some(\"mines\")",
        &format!("branch: Some(\"{}\")", "m".repeat(300)),
        1,
    );
    let e = load(app_with(&with_mines(), 21).world_mut(), &long)
        .unwrap_err()
        .to_string();
    assert!(e.contains("field `branch`"), "{e}");

    // The files reloaded without the branch: the floor's checks are refused by name.
    let rules = denizen::tables::load(&[DataFile::new("t.ron", BESTIARY)]).unwrap();
    app.insert_resource(TablesRuleset::new(std::sync::Arc::new(rules)));
    advance(&mut app, 1);
    let told = messages::<TablesWandered>(&app);
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(
        told[0].outcome,
        Err(denizen::bevy::tables::TablesWanderingSkip::BranchGone(
            "mines".into()
        ))
    );

    let asked = TablesFloorRequested::new("cave", 1).branch("caves");
    app.world_mut().write_message(asked);
    app.update();
    let refused = floors_refused::<TablesFloorRequested>(&app);
    assert_eq!(
        refused[0],
        TablesFloorRefusal::UnknownBranch("caves".into())
    );
}

/// The bestiary with its wanderers dealt from a bag of one gnat and one midge.
fn with_bagged_wanderers() -> String {
    let text = BESTIARY
        .replacen(
            "    ],\n    groups:",
            "        (key: \"midge\", name: \"midge\", glyph: 'i', level: 1, hit_points: \"1d1\"),\n    ],\n    groups:",
            1,
        )
        .replacen(
            "(key: \"wanderers\", rows: [(what: Species(\"gnat\"), depth: (1, 5))]),",
            "(key: \"wanderers\", pick: Bag, rows: [(what: Species(\"gnat\"), depth: (1, 5)), (what: Species(\"midge\"), depth: (1, 5))]),",
            1,
        );
    assert_eq!(text.matches("midge").count(), 3, "{text}");
    text
}

/// The species of the creatures that arrived in the last update.
fn arrived_species(app: &mut App) -> Vec<String> {
    let came = arrivals(app);
    let world = app.world_mut();
    came.iter()
        .flat_map(|a| a.entities.clone())
        .map(|e| world.get::<TablesCreature>(e).unwrap().species.clone())
        .collect()
}

/// Wandering arrivals from a bag go on with the floor's bag: two checks deal a gnat and a
/// midge, one each, whatever the order; the bag is saved with the floor, so a game loaded
/// between the two deals the other; a reload that changes the bag's table empties it.
#[test]
fn wandering_arrivals_deal_the_floors_bag_and_a_save_keeps_it() {
    for seed in 0..6 {
        let mut app = app_with(&with_bagged_wanderers(), seed);
        request(&mut app, "bog", 1);
        advance(&mut app, 10);
        let first = arrived_species(&mut app);
        assert_eq!(first.len(), 1);
        let floor = FloorId::new("bog", 1);
        let bags = &app.world().resource::<TablesFloors>().0[&floor].bags;
        assert_eq!(bags.len(), 1);
        assert_eq!(
            (bags[0].table.as_str(), bags[0].copies.len()),
            ("wanderers", 1)
        );

        let text = save(app.world()).unwrap();
        let mut loaded = app_with(&with_bagged_wanderers(), seed);
        load(loaded.world_mut(), &text).unwrap();
        advance(&mut loaded, 10);
        let second = arrived_species(&mut loaded);
        assert_eq!(second.len(), 1);
        assert_ne!(first, second, "seed {seed}: the bag deals the other");
        if seed == 0 {
            bags_past_their_bounds_are_refused(&text);
        }
    }
    // Reloaded with the bag's table changed, the bag is emptied: a refill, not the copy
    // left, deals the next arrival (with three rows, the saved copy alone would give one).
    let mut app = app_with(&with_bagged_wanderers(), 0);
    request(&mut app, "bog", 1);
    advance(&mut app, 10);
    let changed = with_bagged_wanderers().replacen(
        "(what: Species(\"midge\"), depth: (1, 5))]",
        "(what: Species(\"midge\"), depth: (1, 5), weight: 2)]",
        1,
    );
    let rules = denizen::tables::load(&[DataFile::new("t.ron", &changed)]).unwrap();
    app.insert_resource(TablesRuleset::new(std::sync::Arc::new(rules)));
    advance(&mut app, 10);
    let floor = FloorId::new("bog", 1);
    let bags = &app.world().resource::<TablesFloors>().0[&floor].bags;
    let left: u32 = bags[0].copies.iter().map(|&(_, n)| n).sum();
    assert_eq!(left, 2, "refilled with 3 copies, one dealt");
}

/// A saved bag's depth, row and copies past what a draw keeps are refused by field.
fn bags_past_their_bounds_are_refused(text: &str) {
    let copies = "copies: [\n                            (0, 1),";
    let depth = "\"wanderers\",\n                        depth: 1,";
    let cases = [
        (
            depth,
            "\"wanderers\", depth: 251,",
            "bags[0].depth`: at most 250",
        ),
        (depth, "\"wanderers\", depth: 250,", ""),
        (
            copies,
            "copies: [\n (0, 0),",
            "bags[0].copies[0]`: a row index below 10000 with 1 to 100 copies",
        ),
        (
            copies,
            "copies: [\n (0, 101),",
            "bags[0].copies[0]`: a row index",
        ),
        (
            copies,
            "copies: [\n (10000, 1),",
            "bags[0].copies[0]`: a row index",
        ),
        (copies, "copies: [\n (0, 100),", ""),
    ];
    for (from, to, refused) in cases {
        assert!(text.contains(from), "{from}");
        let edited = text.replacen(from, to, 1);
        let loaded = load(app_with(&with_bagged_wanderers(), 0).world_mut(), &edited);
        match refused {
            "" => assert!(loaded.is_ok(), "{to}: {loaded:?}"),
            _ => {
                let e = loaded.unwrap_err().to_string();
                assert!(e.contains(refused), "{to}: {e}");
            }
        }
    }
}

/// Wandering arrivals count towards the floor's caps, and the floor's record keeps the
/// counts (saved): with gnats capped at one a floor, the first check brings one and no
/// later check another, also after a save is loaded.
#[test]
fn wandering_arrivals_keep_to_the_floors_caps_across_a_save() {
    let text = BESTIARY.replacen(
        "hit_points: \"1d1\", tags: [\"insect\"])",
        "hit_points: \"1d1\", tags: [\"insect\"], max_per_floor: Some(1))",
        1,
    );
    assert_ne!(text, BESTIARY);
    let mut app = app_with(&text, 4);
    request(&mut app, "bog", 1);
    advance(&mut app, 10);
    assert_eq!(arrived_species(&mut app), ["gnat"]);
    let floor = FloorId::new("bog", 1);
    let counts = &app.world().resource::<TablesFloors>().0[&floor].species_counts;
    assert_eq!(counts, &[("gnat".to_owned(), 1)]);
    let saved = save(app.world()).unwrap();
    let mut loaded = app_with(&text, 4);
    load(loaded.world_mut(), &saved).unwrap();
    for _ in 0..5 {
        advance(&mut loaded, 10);
        assert!(arrived_species(&mut loaded).is_empty());
    }
    let gnats = species(&mut loaded).iter().filter(|s| *s == "gnat").count();
    assert_eq!(gnats, 1);
    // A count past the largest cap (200) is refused by field; 200 loads.
    assert!(saved.contains("(\"gnat\", 1)"), "{saved}");
    let edited = |n: u32| saved.replacen("(\"gnat\", 1)", &format!("(\"gnat\", {n})"), 1);
    assert!(load(app_with(&text, 4).world_mut(), &edited(200)).is_ok());
    let e = load(app_with(&text, 4).world_mut(), &edited(201))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("field `species_counts[0]`: a count is at most 200"),
        "{e}"
    );
}

/// The project's marsh, drawn in Tiled.
#[cfg(feature = "maps")]
fn marsh() -> denizen::maps::EditorLevel {
    let path = crate::workspace().join("crates/denizen_maps/data/marsh.tmx");
    denizen::maps::tmx::read_path(&path, &denizen::maps::TileMapping::default()).unwrap()
}

/// A level drawn in an editor is populated where the request brings it: `FloorMap` becomes
/// its grid, the creatures stand on its open squares, and the floor's record keeps its
/// names and regions as tag areas, the player on its start mark.
#[cfg(feature = "maps")]
#[test]
fn a_request_on_an_editor_level_brings_its_map() {
    let level = marsh();
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(3), TablesPlugin::default()));
    app.update();
    let request = TablesFloorRequested::on_level("the marsh", 5, &level);
    assert_eq!(request.player, Some(Square { x: 2, y: 2 }));
    app.world_mut().write_message(request);
    app.update();
    assert!(!floors_populated::<TablesFloorRequested>(&app).is_empty());
    let map = &app.world().resource::<FloorMap>().0;
    let tiles = |grid: &FloorGrid| {
        (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| grid.tile(Square { x, y })))
            .collect::<Vec<Tile>>()
    };
    assert_eq!(
        tiles(map),
        tiles(&level.grid),
        "the level's tiles are the floor's"
    );
    let world = app.world_mut();
    let squares: Vec<Square> = world
        .query_filtered::<&GridPos, With<TablesCreature>>()
        .iter(world)
        .map(|&p| Square::from(p))
        .collect();
    assert!(!squares.is_empty());
    assert!(squares.iter().all(|&at| level.grid.tile(at) != Tile::Wall));
    let record = &app.world().resource::<TablesFloors>().0[&FloorId::new("the marsh", 5)];
    let lair = record.tags.iter().find(|area| area.name == "lair").unwrap();
    assert_eq!(lair.squares.len(), 8);
    assert_eq!(record.player, Some(Square { x: 2, y: 2 }));
}

/// A level's regions are populated by the starter's region rules: each creature of a
/// region's draw carries its [`HomeRegion`] and stands inside it, the answer lists each
/// region with its table and depth (the lair one deeper, by its `depth_offset`), and a save
/// keeps the homes: it reloads to the same bytes.
#[cfg(feature = "maps")]
#[test]
fn a_levels_regions_are_populated_and_their_creatures_keep_their_home() {
    let level = marsh();
    let made = |seed: u64| {
        let mut app = App::new();
        app.add_plugins((DenizenPlugin::with_seed(seed), TablesPlugin::default()));
        app.update();
        let request = TablesFloorRequested::on_level("the marsh", 5, &level);
        app.world_mut().write_message(request);
        app.update();
        app
    };
    let mut app = made(3);
    let populated = floors_populated::<TablesFloorRequested>(&app);
    let regions = &populated[0].regions;
    let drawn: Vec<(&str, &str, u32, &str)> = (regions.iter())
        .map(|r| (r.id.as_str(), r.kind.as_str(), r.depth, r.table.as_str()))
        .collect();
    assert_eq!(
        drawn,
        [
            ("2", "camp", 5, "camp_folk"),
            ("1", "lair", 6, "lair_dwellers")
        ],
        "(kind, id) order; the shore has no rule"
    );
    let world = app.world_mut();
    let homes: Vec<(Square, HomeRegion)> = world
        .query::<(&GridPos, &HomeRegion)>()
        .iter(world)
        .map(|(&p, home)| (Square::from(p), home.clone()))
        .collect();
    for (at, home) in &homes {
        let region = level.regions.get(&home.id).unwrap();
        assert_eq!(region.kind, home.kind);
        assert!(region.squares.contains(*at), "{home:?} at {at:?}");
    }
    let others = world
        .query_filtered::<&GridPos, (With<TablesCreature>, Without<HomeRegion>)>()
        .iter(world)
        .map(|&p| Square::from(p))
        .collect::<Vec<_>>();
    let closed =
        |at: &Square| (level.regions.iter()).any(|r| r.kind != "shore" && r.squares.contains(*at));
    assert!(!others.is_empty() && !others.iter().any(closed));
    assert_eq!(homes.len() + others.len(), populated[0].placed.len());
    let text = save(app.world()).unwrap();
    assert!(
        text.contains("HomeRegion") && text.contains("format: 6"),
        "{text}"
    );
    let mut loaded = made(3);
    load(loaded.world_mut(), &text).unwrap();
    assert_eq!(save(loaded.world()).unwrap(), text);
}

/// A request whose region sets a field its rule does not allow is refused before anything
/// changes: no floor entered, no creature, no map put in.
#[cfg(feature = "maps")]
#[test]
fn a_region_field_its_rule_refuses_changes_nothing() {
    use denizen::regions::{FieldValue, Region, Regions};
    let level = marsh();
    let mut regions = Regions::default();
    let camp = level.regions.of_kind("camp").next().unwrap().clone();
    let camp = Region {
        id: "camp-x".into(),
        ..camp
    };
    regions
        .insert(camp.with_field("table", FieldValue::Text("vermin".into())))
        .unwrap();
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(3), TablesPlugin::default()));
    app.update();
    let request = TablesFloorRequested::on_level("the marsh", 5, &level).regions(regions);
    app.world_mut().write_message(request);
    app.update();
    let refused = floors_refused::<TablesFloorRequested>(&app);
    let said = refused.iter().map(|r| r.to_string()).collect::<Vec<_>>();
    assert_eq!(
        said,
        [
            "region \"camp-x\" (kind \"camp\"): field `table`: the rule for `camp` does not let a region set it (it lets: count)"
        ]
    );
    assert_eq!(app.world().resource::<CurrentFloor>().0, FloorId::default());
    assert_eq!(app.world().resource::<FloorMap>().0.width(), 0);
    let world = app.world_mut();
    assert_eq!(world.query::<&TablesCreature>().iter(world).count(), 0);
}
