//! The game driven through ratatui's test backend, its screens read back as text: a
//! sleeping monster wakes, an Angband level's feeling is shown on arrival, a wanderer
//! arrives while the player rests, and a loaded game shows what the saved one showed.

use denizen::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

use crate::game::{Game, Place, Settings};
use crate::keys::Action;
use crate::view;

fn game(seed: u64, save: &str) -> Game {
    Game::new(Settings {
        seed,
        autoscum: Autoscum::Off,
        save_file: std::env::temp_dir()
            .join(format!("denizen-play-{save}-{}.ron", std::process::id())),
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

/// The screen's cell showing `at`, found by the player's `@` at the known place.
fn cell_of(buffer: &Buffer, game: &Game, at: Square) -> (char, Modifier) {
    let text = view::text(buffer);
    let (row, column) = text
        .lines()
        .enumerate()
        .find_map(|(r, line)| line.find('@').map(|c| (r, c)))
        .expect("the player is on screen");
    let x = column as i64 + i64::from(at.x) - i64::from(game.player.at.x);
    let y = row as i64 + i64::from(at.y) - i64::from(game.player.at.y);
    let cell = &buffer[(x as u16, y as u16)];
    (cell.symbol().chars().next().unwrap(), cell.modifier)
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
    assert!(view::text(&before).contains(&format!("{:<14}asleep", short(&sleeper.name))));
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
        text.contains(&format!("The {} wakes up.", sleeper.name)),
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
}

fn short(name: &str) -> String {
    let mut short: String = name.chars().take(13).collect();
    if name.chars().count() > 13 {
        short.push('.');
    }
    short
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
    std::fs::copy(saved_path(14, "saved"), saved_path(14, "loaded")).unwrap();
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
    let _ = std::fs::remove_file(saved_path(14, "saved"));
    let _ = std::fs::remove_file(saved_path(14, "loaded"));
}

fn saved_path(_seed: u64, name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("denizen-play-{name}-{}.ron", std::process::id()))
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
