//! An Angband 2.7.9 level built and populated by the plugin, printed as text: the map with
//! each room's kind letter on its top-left corner, a legend, the rooms, the nests and
//! pits, the rating and feeling, the traps and the roster.
//!
//! `cargo run --release --features angband --example angband_level -- [depth] [--seed S]
//! [--vault | --pit | --nest] [--autoscum]` (default: depth 10, seed 1). `--vault` forces
//! a greater vault (a lesser one above depth 10), `--pit` and `--nest` a pit or a nest
//! (depth 5 and deeper); `--autoscum` turns the autoscummer to "always".

use std::collections::BTreeMap;
use std::process::ExitCode;

use bevy_app::App;
use denizen::angband::layout::RoomChoice;
use denizen::bevy::angband::prelude::*;
use denizen::bevy::view::render_floor;
use denizen::bevy::{DenizenPlugin, GridPos};
use denizen::floor::Room;
use denizen::output::{fail, finish};

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let (mut depth, mut seed, mut forced) = (10u32, 1u64, None);
    let mut autoscum = Autoscum::Off;
    while let Some(word) = words.next() {
        let parsed = match word.as_str() {
            "--seed" => words.next().and_then(|s| s.parse().ok()).map(|s| seed = s),
            "--vault" | "--pit" | "--nest" => {
                forced = Some(word);
                Some(())
            }
            "--autoscum" => {
                autoscum = Autoscum::Always;
                Some(())
            }
            _ => word.parse().ok().map(|d| depth = d),
        };
        if parsed.is_none() {
            return fail(
                "angband_level",
                "usage: angband_level [depth 1-127] [--seed S] [--vault | --pit | --nest] [--autoscum]",
            );
        }
    }
    let mut request = AngbandFloorRequested::new(depth);
    match forced.as_deref() {
        Some("--vault") if depth >= 10 => request = request.with_room(RoomChoice::GreaterVault),
        Some("--vault") => request = request.with_room(RoomChoice::LesserVault),
        Some("--pit") => request = request.with_room(RoomChoice::Pit),
        Some("--nest") => request = request.with_room(RoomChoice::Nest),
        _ => {}
    }
    if forced.is_some() && depth < 5 {
        return fail(
            "angband_level",
            "vaults, pits and nests need depth 5 or deeper",
        );
    }
    let mut app = App::new();
    app.add_plugins((
        DenizenPlugin::with_seed(seed),
        AngbandPlugin::default().autoscum(autoscum),
    ));
    app.world_mut().write_message(request);
    app.update();
    let world = app.world_mut();
    let built = match read::<AngbandFloorServed>(world).pop().map(|a| a.outcome) {
        Some(Ok(built)) => built,
        Some(Err(refusal)) => return fail("angband_level", &refusal.to_string()),
        None => return fail("angband_level", "no level was built"),
    };
    finish("angband_level", |out| {
        writeln!(
            out,
            "Angband 2.7.9, depth {depth}, seed {seed}: {} rooms{}, {} monsters drawn at level {}, monster rating {}\n",
            built.rooms.len(),
            if built.destroyed {
                " (destroyed level)"
            } else {
                ""
            },
            built.monsters,
            built.population_level,
            built.monster_rating,
        )?;
        let rendered = render_floor(world);
        let mut lines: Vec<Vec<char>> = rendered.lines().map(|l| l.chars().collect()).collect();
        let legend = lines.pop().map(|l| l.into_iter().collect::<String>());
        if let Some(player) = built.player {
            lines[player.y as usize][player.x as usize] = '@';
        }
        for room in &built.rooms {
            lines[room.rect.y as usize][room.rect.x as usize] = letter(room);
        }
        for line in &lines {
            writeln!(out, "{}", line.iter().collect::<String>())?;
        }
        writeln!(out, "{}", legend.unwrap_or_default())?;
        writeln!(
            out,
            "@ the player; a room's kind on its top-left corner: S simple, O overlapping, C cross, \
         L large (inner room), N nest, P pit, v lesser vault, V greater vault; other letters \
         are monsters (their race's symbol)\n"
        )?;
        for (i, room) in built.rooms.iter().enumerate() {
            let r = room.rect;
            writeln!(
                out,
                "room {:>2}: {:<13} {}x{} at ({}, {})",
                i + 1,
                format!("{:?}", room.kind),
                r.width,
                r.height,
                r.x,
                r.y
            )?;
        }
        writeln!(out)?;
        let rules = world.resource::<AngbandRuleset>().clone();
        for &(centre, kind, filled) in &built.dens {
            writeln!(
                out,
                "{} at ({}, {}){}",
                kind.name(),
                centre.x,
                centre.y,
                if filled {
                    ""
                } else {
                    ": a draw failed, the room stands empty"
                }
            )?;
        }
        writeln!(
            out,
            "rating {} (monsters {}), special {}, levels rejected {}",
            built.rating, built.monster_rating, built.special, built.rejected_levels
        )?;
        if let Some(feeling) = read::<AngbandLevelFeeling>(world).pop() {
            writeln!(out, "feeling: {}", feeling.message())?;
        }
        let objects = read::<AngbandObjectRequested>(world);
        writeln!(
            out,
            "{} objects asked of the host ({} good, {} great); {} hidden traps: {}",
            objects.len(),
            objects.iter().filter(|o| o.good).count(),
            objects.iter().filter(|o| o.great).count(),
            built.traps.len(),
            built
                .traps
                .iter()
                .map(|t| format!("({}, {})", t.x, t.y))
                .collect::<Vec<_>>()
                .join(" ")
        )?;
        writeln!(out)?;
        let mut roster: BTreeMap<(u8, String), (u32, u32)> = BTreeMap::new();
        let mut query = world.query::<(&AngbandMonster, &SleepCounter, &GridPos)>();
        for (monster, sleep, _) in query.iter(world) {
            let race = rules
                .rules()
                .races()
                .get(monster.race)
                .expect("a race of the rules");
            let entry = roster.entry((race.level, race.name.clone())).or_default();
            entry.0 += 1;
            entry.1 += u32::from(sleep.0 > 0);
        }
        writeln!(out, "{:>5}  {:>5}  {:>6}  race", "level", "count", "asleep")?;
        for ((level, name), (count, asleep)) in roster {
            writeln!(out, "{level:>5}  {count:>5}  {asleep:>6}  {name}")?;
        }
        Ok(())
    })
}

/// The messages of a kind written this update.
fn read<M: bevy_ecs::message::Message + Clone>(world: &mut bevy_ecs::world::World) -> Vec<M> {
    let messages = world.resource::<bevy_ecs::message::Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// The letter a room kind is shown with (`?` for a room Angband did not make).
fn letter(room: &Room) -> char {
    let Some(kind) = RoomChoice::of_room(room) else {
        return '?';
    };
    match kind {
        RoomChoice::Simple => 'S',
        RoomChoice::Overlap => 'O',
        RoomChoice::Cross => 'C',
        RoomChoice::Large => 'L',
        RoomChoice::Nest => 'N',
        RoomChoice::Pit => 'P',
        RoomChoice::LesserVault => 'v',
        RoomChoice::GreaterVault => 'V',
    }
}
