//! The screen: a status line, the map around the player with the monsters in their
//! colours (sleepers dim, the awake bold), the monsters in view beside it, the message
//! log below, and the help screen over it all.

use denizen::angband::Terrain;
use denizen::prelude::*;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::game::{Game, MAX_HP, Place, Seen};
use crate::keys::HELP;

/// The screen's size: every frame, on a terminal or not, is drawn at this size.
pub const SIZE: (u16, u16) = (80, 24);

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, game: &Game) {
    let [status, map, side, log] = areas(frame.area());
    let creatures = game.creatures();
    frame.render_widget(Paragraph::new(status_line(game)), status);
    let shown = draw_map(frame.buffer_mut(), map, game, &creatures);
    frame.render_widget(sidebar(&shown), side);
    let lines: Vec<Line> = game
        .log
        .iter()
        .rev()
        .take(log.height as usize)
        .rev()
        .map(|l| Line::raw(l.as_str()))
        .collect();
    frame.render_widget(Paragraph::new(lines), log);
    if game.help {
        draw_help(frame);
    }
}

fn status_line(game: &Game) -> Line<'static> {
    let clock = *game.world().resource::<GameClock>();
    let hp_style = if game.player.hp * 3 < MAX_HP {
        Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    Line::from(vec![
        Span::styled(
            game.place().title(),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        Span::raw(" | HP "),
        Span::styled(format!("{}/{MAX_HP}", game.player.hp), hp_style),
        Span::raw(format!(" | turn {} | {clock}", game.player.turn)),
    ])
}

/// The floor's square drawn at the map area's top left corner: the player kept in the
/// middle, the view kept on the floor.
pub fn map_origin(game: &Game, area: Rect) -> Square {
    let map = &game.world().resource::<FloorMap>().0;
    let origin = |player: u32, size: u32, view: u16| {
        player
            .saturating_sub(u32::from(view) / 2)
            .min(size.saturating_sub(u32::from(view)))
    };
    Square {
        x: origin(game.player.at.x, map.width(), area.width),
        y: origin(game.player.at.y, map.height(), area.height),
    }
}

/// The screen's areas: the status line, the map, the monsters in view, the log.
pub fn areas(screen: Rect) -> [Rect; 4] {
    let [status, middle, log] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(10),
        Constraint::Length(6),
    ])
    .areas(screen);
    let [map, side] =
        Layout::horizontal([Constraint::Min(40), Constraint::Length(24)]).areas(middle);
    [status, map, side, log]
}

/// Draws the floor around the player and returns the creatures it shows.
fn draw_map<'a>(
    buffer: &mut Buffer,
    area: Rect,
    game: &Game,
    creatures: &'a [Seen],
) -> Vec<&'a Seen> {
    let world = game.world();
    let map = &world.resource::<FloorMap>().0;
    let Square { x: x0, y: y0 } = map_origin(game, area);
    let (up, down) = game.stairs();
    let angband = matches!(game.place(), Place::Angband(_));
    let terrain = world.get_resource::<AngbandTerrain>();
    for row in 0..area.height {
        for column in 0..area.width {
            let at = Square {
                x: x0 + u32::from(column),
                y: y0 + u32::from(row),
            };
            if at.x >= map.width() || at.y >= map.height() {
                continue;
            }
            let tile = map.tile(at);
            let (glyph, colour) = if up.contains(&at) {
                ('<', Color::White)
            } else if down.contains(&at) {
                ('>', Color::White)
            } else if game.player.traps.contains(&at) {
                ('^', Color::Red)
            } else if angband && tile == Tile::Wall {
                let vein = terrain.and_then(|t| t.at(at)).is_some_and(|t| {
                    matches!(
                        t,
                        Terrain::Magma { .. } | Terrain::Quartz { .. } | Terrain::Rubble
                    )
                });
                (if vein { '%' } else { '#' }, Color::DarkGray)
            } else {
                (tile.glyph(), tile_colour(tile))
            };
            set(buffer, area, column, row, glyph, Style::new().fg(colour));
        }
    }
    let mut shown = Vec::new();
    for creature in creatures {
        let (Some(column), Some(row)) = (
            creature
                .at
                .x
                .checked_sub(x0)
                .filter(|&c| c < u32::from(area.width)),
            creature
                .at
                .y
                .checked_sub(y0)
                .filter(|&r| r < u32::from(area.height)),
        ) else {
            continue;
        };
        let style = Style::new()
            .fg(colour(creature.colour))
            .add_modifier(if creature.asleep {
                Modifier::DIM
            } else {
                Modifier::BOLD
            });
        set(
            buffer,
            area,
            column as u16,
            row as u16,
            creature.glyph,
            style,
        );
        shown.push(creature);
    }
    let (px, py) = (
        game.player.at.x.saturating_sub(x0),
        game.player.at.y.saturating_sub(y0),
    );
    if px < u32::from(area.width) && py < u32::from(area.height) {
        let style = Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD);
        set(buffer, area, px as u16, py as u16, '@', style);
    }
    shown.sort_by_key(|c| {
        c.at.x
            .abs_diff(game.player.at.x)
            .max(c.at.y.abs_diff(game.player.at.y))
    });
    shown
}

fn set(buffer: &mut Buffer, area: Rect, column: u16, row: u16, glyph: char, style: Style) {
    if let Some(cell) = buffer.cell_mut((area.x + column, area.y + row)) {
        cell.set_char(glyph).set_style(style);
    }
}

/// The monsters in view, nearest first.
pub fn sidebar<'a>(shown: &[&Seen]) -> Paragraph<'a> {
    let mut lines = vec![Line::styled(
        "In view",
        Style::new().add_modifier(Modifier::BOLD),
    )];
    for creature in shown {
        let state = if creature.asleep { "asleep" } else { "awake" };
        // A name too long for the column runs on to the next line, whole.
        lines.push(Line::from(vec![
            Span::styled(
                creature.glyph.to_string(),
                Style::new().fg(colour(creature.colour)),
            ),
            Span::raw(format!(" {:<13} {state}", creature.name)),
        ]));
        if let Some(pack) = &creature.pack {
            lines.push(Line::raw(format!("  {pack}")));
        }
        if let Some(carry) = &creature.carries {
            lines.push(Line::raw(format!("  carries {carry}")));
        }
    }
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(Block::new().borders(Borders::LEFT))
}

/// The help box over the screen, as wide as its longest line (and the screen allows),
/// its lines wrapped rather than cut on a narrow screen.
fn draw_help(frame: &mut Frame) {
    let area = frame.area();
    let lines: Vec<String> = HELP
        .iter()
        .map(|(keys, what)| format!(" {keys:<26}{what} "))
        .collect();
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
    let width = (widest + 2).min(area.width);
    let box_area = Rect::new(
        area.width.saturating_sub(width) / 2,
        3,
        width,
        (lines.len() as u16 + 3).min(area.height.saturating_sub(3)),
    );
    let text: Vec<Line> = std::iter::once(Line::raw(""))
        .chain(lines.into_iter().map(Line::raw))
        .collect();
    frame.render_widget(Clear, box_area);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(" Help: the keys ")),
        box_area,
    );
}

fn tile_colour(tile: Tile) -> Color {
    match tile {
        Tile::Wall | Tile::Secret => Color::DarkGray,
        Tile::Floor => Color::Gray,
        Tile::Water => Color::Blue,
        Tile::Door => Color::Yellow,
        denizen::captive::tile::FIRE => Color::Red,
        Tile::Stairs | Tile::Feature(_) => Color::White,
    }
}

/// A creature's colour, by the names the rule sets describe them with
/// (`denizen::bevy::view::COLOURS`); black is drawn dark grey, to show on black.
fn colour(name: &str) -> Color {
    match name {
        "black" => Color::DarkGray,
        "red" => Color::Red,
        "light red" => Color::LightRed,
        "green" => Color::Green,
        "light green" => Color::LightGreen,
        "yellow" => Color::Yellow,
        "light yellow" => Color::LightYellow,
        "blue" => Color::Blue,
        "light blue" => Color::LightBlue,
        "magenta" => Color::Magenta,
        "light magenta" => Color::LightMagenta,
        "cyan" => Color::Cyan,
        "light cyan" => Color::LightCyan,
        "grey" => Color::Gray,
        _ => Color::White,
    }
}

/// A frame as text: one line per row, trailing spaces cut.
pub fn text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let row: String = (area.left()..area.right())
            .map(|x| buffer[(x, y)].symbol())
            .collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}
