//! A small terminal roguelike on denizen's plugins, drawn with ratatui over crossterm: walk
//! down through two floors of Omega's sewers (kept as you left them), an Angband 2.7.9
//! level (made anew on each entry, its feeling shown on arrival, its hidden traps
//! springing), a Captive base with its encounter groups, and the drowned forest of the
//! tables' starter bestiary (packs moving with their leaders, water dwellers in its pool,
//! nothing in the safe room by the stairs, uniques back in the pool when it is left), the
//! marsh drawn in Tiled (read with `denizen::maps`, its lair and camp each populated from
//! its own table, inside it), and back up. Monsters wake,
//! close in and fight; wanderers arrive while you rest; a scroll calls a friend; the game
//! saves and loads. `?` shows the keys.
//!
//! `cargo run --all-features --example play -- [--seed N] [--autoscum off|sometimes|always]
//! [--save FILE] [--keys FILE-OR-KEYS] [--frames DIR]`
//!
//! Without a terminal it plays a key script instead (`--keys`: a file, or the keys
//! themselves), prints the last screen, and with `--frames DIR` writes every screen as
//! text (`DIR/frame-0000.txt`, ...). CI plays `examples/play/tour.keys` to the end.

mod game;
mod keys;
#[cfg(test)]
mod tests;
mod view;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use denizen::output::{fail, finish};
use denizen::prelude::Autoscum;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{self, Event, KeyEventKind};

use game::{Game, Settings};
use keys::Action;

/// What the command line asks for.
struct Args {
    settings: Settings,
    keys: Option<String>,
    frames: Option<PathBuf>,
}

const USAGE: &str = "usage: play [--seed N] [--autoscum off|sometimes|always] [--save FILE] \
                     [--keys FILE-OR-KEYS] [--frames DIR]";

fn args() -> Result<Args, String> {
    let mut args = Args {
        settings: Settings {
            seed: 2026,
            autoscum: Autoscum::Off,
            save_file: std::env::temp_dir().join("denizen-play.ron"),
        },
        keys: None,
        frames: None,
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let mut value = || {
            given
                .next()
                .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))
        };
        match flag.as_str() {
            "--seed" => {
                let seed = value()?;
                args.settings.seed = seed
                    .parse()
                    .map_err(|_| format!("--seed: `{seed}` is not a number"))?;
            }
            "--autoscum" => {
                args.settings.autoscum = match value()?.as_str() {
                    "off" => Autoscum::Off,
                    "sometimes" => Autoscum::Sometimes,
                    "always" => Autoscum::Always,
                    other => {
                        return Err(format!(
                            "--autoscum: `{other}` is not off, sometimes or always"
                        ));
                    }
                };
            }
            "--save" => args.settings.save_file = PathBuf::from(value()?),
            "--keys" => args.keys = Some(value()?),
            "--frames" => args.frames = Some(PathBuf::from(value()?)),
            _ => return Err(USAGE.to_owned()),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match args() {
        Ok(args) => args,
        Err(why) => return fail("play", &why),
    };
    match args.keys {
        Some(keys) => {
            let played = script_of(&keys).and_then(|actions| {
                play_script(Game::new(args.settings), &actions, args.frames.as_deref())
            });
            match played {
                Ok(last) => finish("play", |out| out.write_all(last.as_bytes())),
                Err(why) => fail("play", &why),
            }
        }
        None if std::io::stdout().is_terminal() => match play_on_terminal(Game::new(args.settings))
        {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => fail("play", &why),
        },
        None => fail(
            "play",
            "standard output is not a terminal: give --keys FILE (or the keys) to play a script",
        ),
    }
}

/// The actions of `--keys`: the file's keys when it names a file (or looks like a path: a
/// `/` or a `.keys` ending), else the text itself.
fn script_of(keys: &str) -> Result<Vec<Action>, String> {
    let path_like = keys.contains('/') || keys.ends_with(".keys");
    let text = if Path::new(keys).is_file() || path_like {
        denizen::data::read_data_file(Path::new(keys)).map_err(|e| format!("{keys}: {e}"))?
    } else {
        keys.to_owned()
    };
    keys::script(&text).map_err(|e| format!("--keys: {}", e.0))
}

/// Plays a key script on a screen of its own and returns the last screen as text,
/// writing every screen to `frames` when given.
pub fn play_script(
    mut game: Game,
    actions: &[Action],
    frames: Option<&Path>,
) -> Result<String, String> {
    if let Some(folder) = frames {
        clear_frames(folder)?;
    }
    let (width, height) = view::SIZE;
    let mut terminal = Terminal::new(TestBackend::new(width, height)).map_err(|e| e.to_string())?;
    let mut last = String::new();
    for number in 0..=actions.len() {
        if number > 0 {
            game.act(actions[number - 1]);
        }
        let frame = terminal
            .draw(|f| view::draw(f, &game))
            .map_err(|e| e.to_string())?;
        last = view::text(frame.buffer);
        if let Some(folder) = frames {
            let path = folder.join(format!("frame-{number:04}.txt"));
            std::fs::write(&path, &last).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if game.over {
            break;
        }
    }
    Ok(last)
}

/// Makes `folder` hold no frames of an earlier run (other files are left alone).
fn clear_frames(folder: &Path) -> Result<(), String> {
    let failed = |e: std::io::Error| format!("{}: {e}", folder.display());
    std::fs::create_dir_all(folder).map_err(failed)?;
    for entry in std::fs::read_dir(folder).map_err(failed)? {
        let path = entry.map_err(failed)?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("frame-") && name.ends_with(".txt") {
            std::fs::remove_file(&path).map_err(failed)?;
        }
    }
    Ok(())
}

/// Plays on the terminal until the player quits; the terminal is restored however the game
/// ends.
fn play_on_terminal(mut game: Game) -> Result<(), String> {
    let mut terminal = ratatui::try_init().map_err(|e| e.to_string())?;
    let played = (|| -> std::io::Result<()> {
        while !game.over {
            terminal.draw(|f| view::draw(f, &game))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                match keys::action_of(key) {
                    Some(action) => game.act(action),
                    // Any key closes the help screen, one of the game's or not.
                    None => game.help = false,
                }
            }
        }
        Ok(())
    })();
    ratatui::restore();
    played.map_err(|e| e.to_string())
}
