//! What the player can do, the keys that say it (arrow keys and vi keys), and key scripts
//! for playing without a terminal.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One thing the player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A step (or, into a monster, an attack) by `(dx, dy)`.
    Move(i32, i32),
    /// Take the down stairs, walking to them first.
    Down,
    /// Take the up stairs, walking to them first.
    Up,
    /// Wait a turn.
    Wait,
    /// Rest up to an hour, until something happens.
    Rest,
    /// Read a scroll of summoning (Omega floors): a friend answers.
    Summon,
    /// Save the game.
    Save,
    /// Load the saved game.
    Load,
    /// Show or hide the help screen.
    Help,
    /// Quit.
    Quit,
}

/// The action of a key press, if it has one.
pub fn action_of(key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Left => Action::Move(-1, 0),
        KeyCode::Right => Action::Move(1, 0),
        KeyCode::Up => Action::Move(0, -1),
        KeyCode::Down => Action::Move(0, 1),
        KeyCode::Char(c) => return action_of_char(c),
        KeyCode::Esc => Action::Help,
        _ => return None,
    })
}

/// The action of a typed character (vi keys and commands).
pub fn action_of_char(c: char) -> Option<Action> {
    Some(match c {
        'h' => Action::Move(-1, 0),
        'l' => Action::Move(1, 0),
        'k' => Action::Move(0, -1),
        'j' => Action::Move(0, 1),
        'y' => Action::Move(-1, -1),
        'u' => Action::Move(1, -1),
        'b' => Action::Move(-1, 1),
        'n' => Action::Move(1, 1),
        '>' => Action::Down,
        '<' => Action::Up,
        '.' => Action::Wait,
        'R' => Action::Rest,
        'z' => Action::Summon,
        'S' => Action::Save,
        'L' => Action::Load,
        '?' => Action::Help,
        'q' => Action::Quit,
        _ => return None,
    })
}

/// Why a key script cannot be read.
#[derive(Debug, PartialEq, Eq)]
pub struct ScriptError(pub String);

/// A key script's actions: each character is a key (vi keys and commands, as typed);
/// `{left}`, `{right}`, `{up}` and `{down}` are the arrow keys; whitespace and lines
/// starting with `#` are ignored.
pub fn script(text: &str) -> Result<Vec<Action>, ScriptError> {
    let mut actions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut rest = line;
        while let Some(c) = rest.chars().next() {
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
                continue;
            }
            if c == '{' {
                let end = rest
                    .find('}')
                    .ok_or_else(|| ScriptError(format!("line {}: an unclosed `{{`", number + 1)))?;
                let code = match &rest[1..end] {
                    "left" => KeyCode::Left,
                    "right" => KeyCode::Right,
                    "up" => KeyCode::Up,
                    "down" => KeyCode::Down,
                    other => {
                        return Err(ScriptError(format!(
                            "line {}: `{{{other}}}` is not a key (left, right, up, down)",
                            number + 1
                        )));
                    }
                };
                actions.extend(action_of(KeyEvent::from(code)));
                rest = &rest[end + 1..];
                continue;
            }
            let action = action_of_char(c).ok_or_else(|| {
                ScriptError(format!(
                    "line {}: `{c}` is not a key of the game",
                    number + 1
                ))
            })?;
            actions.push(action);
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(actions)
}

/// The keys, as the help screen lists them.
pub const HELP: &[(&str, &str)] = &[
    ("arrows, h j k l y u b n", "walk; into a monster: attack"),
    (">", "walk to the down stairs and take them"),
    ("<", "walk to the up stairs and take them"),
    (".", "wait a turn"),
    ("R", "rest up to an hour (wanderers may arrive)"),
    ("z", "read a scroll of summoning (Omega floors)"),
    ("S / L", "save / load the game"),
    ("?", "this help (any key closes it)"),
    ("q", "quit"),
];
