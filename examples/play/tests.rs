//! The game driven through ratatui's test backend, its screens read back as text: a
//! sleeping monster wakes, an Angband level's feeling is shown on arrival, a wanderer
//! arrives while the player rests, the drowned forest keeps its bestiary's rules, and a
//! loaded game shows what the saved one showed.

use bevy_ecs::prelude::{With, Without};
use denizen::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use crate::game::{Game, Place, Settings};
use crate::keys::Action;
use crate::view;

/// A save file of the test's own.
fn save_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("denizen-play-{name}-{}.ron", std::process::id()))
}

fn game(seed: u64, save: &str) -> Game {
    Game::new(Settings {
        seed,
        autoscum: Autoscum::Off,
        save_file: save_path(save),
    })
}

fn screen(game: &Game) -> Buffer {
    let (width, height) = view::SIZE;
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| view::draw(f, game))
        .unwrap()
        .buffer
        .clone()
}

/// The screen's cell showing the floor's square `at`.
fn cell_of(buffer: &Buffer, game: &Game, at: Square) -> (char, Modifier) {
    let [_, map, _, _] = view::areas(buffer.area);
    let origin = view::map_origin(game, map);
    let x = map.x + (at.x - origin.x) as u16;
    let y = map.y + (at.y - origin.y) as u16;
    let cell = &buffer[(x, y)];
    (cell.symbol().chars().next().unwrap(), cell.modifier)
}

/// The monsters-in-view line naming `name` (by its first ten letters), if any.
fn sidebar_line(text: &str, glyph: char, name: &str) -> Option<String> {
    let start: String = name.chars().take(10).collect();
    text.lines()
        .filter_map(|line| line.split_once('│').map(|(_, side)| side.to_owned()))
        .find(|side| side.starts_with(glyph) && side.contains(&start))
}

#[test]
fn a_sleeping_monster_wakes_on_screen() {
    let mut game = game(11, "wake");
    let sleeper = game
        .creatures()
        .into_iter()
        .find(|c| c.asleep)
        .expect("the sewers hold a sleeper");
    // The player steps up beside it, on an open square.
    let map = game.world().resource::<FloorMap>().0.clone();
    let beside = [
        (-1, 0),
        (1, 0),
        (0, -1),
        (0, 1),
        (-1, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
    ]
    .into_iter()
    .filter_map(|(dx, dy)| {
        Some(Square {
            x: sleeper.at.x.checked_add_signed(dx)?,
            y: sleeper.at.y.checked_add_signed(dy)?,
        })
    })
    .find(|&s| map.is_acceptable(s))
    .expect("an open square beside the sleeper");
    game.player.at = beside;
    let before = screen(&game);
    assert_eq!(
        cell_of(&before, &game, sleeper.at),
        (sleeper.glyph, Modifier::DIM)
    );
    let line = sidebar_line(&view::text(&before), sleeper.glyph, &sleeper.name).unwrap();
    assert!(line.ends_with("asleep"), "{line}");
    for _ in 0..40 {
        game.act(Action::Wait);
        if game
            .creatures()
            .iter()
            .any(|c| c.entity == sleeper.entity && !c.asleep)
        {
            break;
        }
    }
    let after = screen(&game);
    let text = view::text(&after);
    assert!(
        text.contains(&format!(
            "{} wakes up.",
            crate::game::article(&sleeper.name, "The")
        )),
        "{text}"
    );
    let now = game
        .creatures()
        .into_iter()
        .find(|c| c.entity == sleeper.entity)
        .unwrap();
    assert_eq!(
        cell_of(&after, &game, now.at),
        (now.glyph, Modifier::BOLD),
        "{text}"
    );
    let line = sidebar_line(&text, now.glyph, &now.name).unwrap();
    assert!(line.ends_with("awake"), "{line}");
}

/// On arrival in the marsh drawn in Tiled, the bottom floor: its camp's and lair's
/// creatures (drawn from their own tables) stand inside them, the floor's own outside, and
/// the view shows the level's pool.
#[test]
fn the_marsh_drawn_in_tiled_is_populated_region_by_region() {
    let mut game = game(2026, "marsh");
    for _ in 0..600 {
        if matches!(game.place(), Place::Drawn(..)) {
            break;
        }
        game.act(Action::Down);
    }
    assert!(matches!(game.place(), Place::Drawn(..)), "{:?}", game.log);
    let level = super::game::marsh().unwrap();
    let world = game.world();
    let homes: Vec<(Square, String)> = (world.try_query::<(&GridPos, &HomeRegion)>())
        .unwrap()
        .iter(world)
        .map(|(&p, home)| (Square::from(p), home.id.clone()))
        .collect();
    assert!(!homes.is_empty(), "the camp holds one placement at least");
    for (at, id) in &homes {
        assert!(level.regions.get(id).unwrap().squares.contains(*at));
    }
    let others: Vec<Square> = (world
        .try_query_filtered::<&GridPos, (With<TablesCreature>, Without<HomeRegion>)>())
    .unwrap()
    .iter(world)
    .map(|&p| Square::from(p))
    .collect();
    let closed =
        |at: &Square| (level.regions.iter()).any(|r| r.kind != "shore" && r.squares.contains(*at));
    assert!(!others.iter().any(closed));
    assert_eq!(
        game.world()
            .resource::<FloorMap>()
            .0
            .tile(Square { x: 7, y: 1 }),
        Tile::Water
    );
}

/// The game walked down to the drowned forest.
fn in_the_forest(seed: u64, save: &str) -> Game {
    let mut game = game(seed, save);
    for _ in 0..400 {
        if matches!(game.place(), Place::Tables(..)) {
            break;
        }
        game.act(Action::Down);
    }
    assert!(matches!(game.place(), Place::Tables(..)), "{:?}", game.log);
    game
}

/// On arrival in the drowned forest: water dwellers stand only in water (and one does),
/// nothing stands in the safe room around the stairs, a pack's followers show whom they
/// follow and an escort is there (the tour's seed brings Sunkenbough with its retinue).
#[test]
fn the_drowned_forest_keeps_its_placement_rules_and_shows_its_packs() {
    let game = in_the_forest(2026, "forest");
    let world = game.world();
    let rules = world.resource::<TablesRuleset>().rules();
    let floor = &world.resource::<CurrentFloor>().0;
    let record = &world.resource::<TablesFloors>().0[floor];
    let safe = record
        .tags
        .iter()
        .find(|t| t.name == "safe")
        .unwrap()
        .squares
        .clone();
    let map = &world.resource::<FloorMap>().0;
    let creatures = game.creatures();
    assert!(creatures.len() > 10, "{creatures:?}");
    let mut swimmers = 0;
    for creature in &creatures {
        let key = &world
            .get::<TablesCreature>(creature.entity)
            .unwrap()
            .species;
        let species = rules.species_of(rules.species_by_key(key).unwrap());
        let swims = species.place.stands_on == ["water"];
        let in_water = map.tile(creature.at) == Tile::Water;
        assert_eq!(swims, in_water, "{key} at {:?}", creature.at);
        assert!(!safe.contains(creature.at), "{key} in the safe room");
        swimmers += usize::from(swims);
    }
    assert!(swimmers > 0, "the pool holds a water dweller");
    let text = view::text(&screen(&game));
    assert!(text.contains("follows the"), "{text}");
    let escorts = creatures.iter().filter(|c| {
        world
            .get::<FollowerRole>(c.entity)
            .is_some_and(|r| r.group == "sunkenbough_retinue")
    });
    assert!(escorts.count() > 0, "Sunkenbough comes with its retinue");
}

/// Sunkenbough, left alive when the player goes back up, goes back to the pool: the floor
/// is made anew on the next visit and may bring it again, as one of the next visits does.
#[test]
fn a_unique_left_alive_returns_to_the_pool() {
    let mut game = in_the_forest(2026, "unique");
    let alive = |game: &Game| -> Vec<String> {
        let ledger = &game.world().resource::<TablesUniques>().0;
        ledger.alive_keys().map(str::to_owned).collect()
    };
    assert_eq!(alive(&game), ["sunkenbough"]);
    let up = game.player.place - 1;
    while game.player.place != up {
        game.act(Action::Up);
    }
    assert!(
        alive(&game).is_empty(),
        "back in the pool once its floor ended"
    );
    let ledger = &game.world().resource::<TablesUniques>().0;
    assert!(ledger.is_available("sunkenbough"));
    // Down again: each visit makes the forest anew, and one soon brings it back.
    let mut visits = 0;
    while alive(&game).is_empty() {
        visits += 1;
        assert!(
            visits <= 6,
            "six visits without Sunkenbough: {:?}",
            game.log
        );
        while game.player.place == up {
            game.act(Action::Down);
        }
        if alive(&game).is_empty() {
            while game.player.place != up {
                game.act(Action::Up);
            }
        }
    }
    let text = view::text(&screen(&game));
    assert!(text.contains("Tables: drowned forest 8"), "{text}");
}

/// Resting in the drowned forest brings the bestiary's wanderers on the game clock.
#[test]
fn wanderers_arrive_in_the_forest_while_the_player_rests() {
    let mut game = in_the_forest(2026, "forest-rest");
    let before = game.creatures().len();
    for _ in 0..20 {
        game.act(Action::Rest);
        if game.log.iter().any(|l| l.ends_with("wanders in.")) {
            break;
        }
    }
    assert!(matches!(game.place(), Place::Tables(..)));
    let text = view::text(&screen(&game));
    assert!(text.contains("wanders in."), "{text}");
    // The player only rested: nothing was killed, so more creatures stand there now.
    assert!(game.creatures().len() > before);
}

#[test]
fn an_angband_level_shows_its_feeling_on_arrival() {
    let mut game = game(12, "feeling");
    for _ in 0..60 {
        if matches!(game.place(), Place::Angband(_)) {
            break;
        }
        game.act(Action::Down);
    }
    assert!(matches!(game.place(), Place::Angband(5)), "{:?}", game.log);
    let text = view::text(&screen(&game));
    assert!(text.contains("You arrive on Angband: level 5."), "{text}");
    let feelings = [
        Feeling::LooksLikeAnyOther,
        Feeling::Special,
        Feeling::Superb,
        Feeling::Excellent,
        Feeling::VeryGood,
        Feeling::Good,
        Feeling::StrangelyLucky,
        Feeling::LuckTurning,
        Feeling::LikeTheLook,
        Feeling::NotAllBad,
        Feeling::Boring,
    ];
    assert!(
        feelings.iter().any(|f| text.contains(f.message())),
        "no feeling on screen:\n{text}"
    );
}

#[test]
fn a_wanderer_arrives_while_the_player_rests() {
    let mut game = game(13, "rest");
    for _ in 0..60 {
        game.act(Action::Rest);
        if game.log.iter().any(|l| l.ends_with("wanders in.")) {
            break;
        }
    }
    let text = view::text(&screen(&game));
    assert!(text.contains("wanders in."), "{text}");
}

/// The screen without the message log: status, map and the monsters in view.
fn without_log(text: &str) -> String {
    text.lines().take(18).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_loaded_game_shows_what_the_saved_one_showed() {
    let mut saved = game(14, "saved");
    for action in [
        Action::Down,
        Action::Rest,
        Action::Move(1, 0),
        Action::Move(0, 1),
    ] {
        saved.act(action);
    }
    saved.act(Action::Save);
    assert_eq!(saved.log.last().map(String::as_str), Some("Game saved."));
    let mut loaded = game(14, "loaded");
    std::fs::copy(save_path("saved"), save_path("loaded")).unwrap();
    loaded.act(Action::Load);
    assert_eq!(loaded.log.last().map(String::as_str), Some("Game loaded."));
    assert_eq!(
        without_log(&view::text(&screen(&loaded))),
        without_log(&view::text(&screen(&saved)))
    );
    for action in [
        Action::Rest,
        Action::Down,
        Action::Down,
        Action::Move(-1, 0),
        Action::Rest,
    ] {
        saved.act(action);
        loaded.act(action);
        assert_eq!(
            without_log(&view::text(&screen(&loaded))),
            without_log(&view::text(&screen(&saved))),
            "after {action:?}"
        );
    }
    let _ = std::fs::remove_file(save_path("saved"));
    let _ = std::fs::remove_file(save_path("loaded"));
}

/// A save that names a place the game does not have, or puts the player off the floor,
/// is refused and changes nothing.
#[test]
fn a_broken_save_is_refused_and_changes_nothing() {
    let mut game = game(15, "broken");
    game.act(Action::Save);
    let text = std::fs::read_to_string(save_path("broken")).unwrap();
    let before = view::text(&screen(&game));
    for (broken, why) in [
        (
            text.replacen("place: 0,", "place: 9,", 1),
            "on place 9, of 6",
        ),
        (
            text.replacen("at: (", "at: (x: 4000, y: 4000), was: (", 1),
            "off the",
        ),
    ] {
        std::fs::write(save_path("broken"), broken).unwrap();
        game.act(Action::Load);
        let last = game.log.last().unwrap();
        assert!(
            last.contains("could not be loaded") && last.contains(why),
            "{last}"
        );
        assert_eq!(
            without_log(&view::text(&screen(&game))),
            without_log(&before)
        );
    }
    let _ = std::fs::remove_file(save_path("broken"));
}

/// A save at the last turn a count can hold loads, and the turns after it stay there
/// (the next turn once overflowed).
#[test]
fn a_game_saved_at_the_last_turn_goes_on() {
    let mut game = game(16, "last-turn");
    game.act(Action::Wait);
    game.act(Action::Save);
    let text = std::fs::read_to_string(save_path("last-turn")).unwrap();
    let turn = format!("turn: {},", game.player.turn);
    assert!(text.contains(&turn), "the save names the turn");
    let last = text.replacen(&turn, &format!("turn: {},", u64::MAX), 1);
    std::fs::write(save_path("last-turn"), last).unwrap();
    game.act(Action::Load);
    assert_eq!(game.player.turn, u64::MAX, "{:?}", game.log.last());
    game.act(Action::Wait);
    game.act(Action::Rest);
    assert_eq!(game.player.turn, u64::MAX);
    let _ = std::fs::remove_file(save_path("last-turn"));
}

/// The tour CI plays goes where it says: down through both rule sets below the sewers,
/// a save and a load, and back up to the top floor, every screen written as a frame.
#[test]
fn the_tour_goes_down_to_every_rule_set_and_back() {
    let actions = crate::keys::script(include_str!("tour.keys")).unwrap();
    let frames = std::env::temp_dir().join(format!("denizen-play-tour-{}", std::process::id()));
    let last = crate::play_script(game(2026, "tour"), &actions, Some(&frames)).unwrap();
    let mut written: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    written.sort();
    let status = |frame: &String| frame.lines().next().unwrap_or_default().to_owned();
    for place in [
        "Omega: sewers 2",
        "Angband: level 5",
        "Captive: base map 4",
        "Tables: drowned forest 8",
        "Tables: the marsh 5 (drawn in Tiled)",
    ] {
        assert!(
            written.iter().any(|f| status(f).starts_with(place)),
            "never on {place}"
        );
    }
    assert!(written.iter().any(|f| f.contains("Game loaded.")));
    assert!(
        status(&last.to_string()).starts_with("Omega: sewers 1"),
        "{last}"
    );
    let _ = std::fs::remove_dir_all(&frames);
    let _ = std::fs::remove_file(save_path("tour"));
}

/// A name too long for the column of creatures in view runs on, whole (names were cut at
/// 13 characters).
#[test]
fn a_long_name_is_shown_whole_beside_the_map() {
    let game = game(18, "long-name");
    let mut seen = game
        .creatures()
        .into_iter()
        .next()
        .expect("a creature in view");
    seen.name = "Grip, Farmer Maggot's Dog".into();
    let [_, _, side, _] = view::areas(Rect::new(0, 0, view::SIZE.0, view::SIZE.1));
    let mut terminal = Terminal::new(TestBackend::new(side.width, side.height)).unwrap();
    let buffer = terminal
        .draw(|f| f.render_widget(view::sidebar(&[&seen]), f.area()))
        .unwrap()
        .buffer
        .clone();
    // The column's left border stands on every row; the wrapped rows read as one text.
    let text: String = view::text(&buffer)
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || ",'".contains(c) {
                c
            } else {
                ' '
            }
        })
        .collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("Grip, Farmer Maggot's Dog"), "{text}");
}

/// The help box shows every key's line whole on the game's screen.
#[test]
fn the_help_shows_every_line_whole() {
    let mut game = game(17, "help");
    game.act(Action::Help);
    let text = view::text(&screen(&game));
    for (keys, what) in crate::keys::HELP {
        assert!(text.contains(what) && text.contains(keys), "{what}\n{text}");
    }
}

/// A kind's name takes its article, "an" before a vowel; a unique's proper name none.
#[test]
fn names_take_their_articles() {
    use crate::game::article;
    assert_eq!(article("goblin", "The"), "The goblin");
    assert_eq!(
        article("Grip, Farmer Maggot's Dog", "The"),
        "Grip, Farmer Maggot's Dog"
    );
    assert_eq!(article("enchanter", "An"), "An enchanter");
}

#[test]
fn key_scripts_read_arrows_and_refuse_unknown_keys() {
    use crate::keys::script;
    assert_eq!(
        script("# a comment\nhj {left}{down} >\n.").unwrap(),
        [
            Action::Move(-1, 0),
            Action::Move(0, 1),
            Action::Move(-1, 0),
            Action::Move(0, 1),
            Action::Down,
            Action::Wait
        ]
    );
    assert_eq!(
        script("hx").unwrap_err().0,
        "line 1: `x` is not a key of the game"
    );
    assert_eq!(
        script("{jump}").unwrap_err().0,
        "line 1: `{jump}` is not a key (left, right, up, down)"
    );
    assert_eq!(script("h{left").unwrap_err().0, "line 1: an unclosed `{`");
}

/// A floor made anew on every entry (an Angband level, the drowned forest) is: back on it
/// after going up, it has creatures again (it was once brought back empty, its map stored
/// by the next floor change).
#[test]
fn a_level_left_is_made_anew_on_return() {
    let mut game = game(16, "anew");
    for _ in 0..60 {
        if matches!(game.place(), Place::Angband(_)) {
            break;
        }
        game.act(Action::Down);
    }
    assert!(matches!(game.place(), Place::Angband(5)), "{:?}", game.log);
    let level = game.player.place;
    while game.player.place == level {
        game.act(Action::Up);
    }
    while game.player.place != level {
        game.act(Action::Down);
    }
    assert!(!game.creatures().is_empty(), "{:?}", game.log);
    let arrivals = game
        .log
        .iter()
        .filter(|l| *l == "You arrive on Angband: level 5.")
        .count();
    assert_eq!(arrivals, 2);
}
