//! An Angband 2.7.9 level built and populated by the plugin, printed as text: the map with
//! each room's kind letter on its top-left corner, a legend, the rooms and the roster.
//!
//! `cargo run --release --features angband --example angband_level -- [depth] [--seed S]`
//! (default: depth 10, seed 1).

use std::collections::BTreeMap;
use std::process::ExitCode;

use bevy_app::App;
use denizen::bevy::angband::prelude::*;
use denizen::bevy::view::render_floor;
use denizen::bevy::{DenizenPlugin, GridPos};
use denizen::floor::RoomKind;

fn main() -> ExitCode {
    let mut words = std::env::args().skip(1);
    let (mut depth, mut seed) = (10u32, 1u64);
    while let Some(word) = words.next() {
        let parsed = if word == "--seed" {
            words.next().and_then(|s| s.parse().ok()).map(|s| seed = s)
        } else {
            word.parse().ok().map(|d| depth = d)
        };
        if parsed.is_none() {
            eprintln!("angband_level: usage: angband_level [depth 1-127] [--seed S]");
            return ExitCode::from(2);
        }
    }
    let mut app = App::new();
    app.add_plugins((DenizenPlugin::with_seed(seed), AngbandPlugin::default()));
    app.world_mut()
        .write_message(DungeonLevelRequested::new(depth));
    app.update();
    let world = app.world_mut();
    if let Some(rejected) = read::<AngbandLevelRejected>(world).pop() {
        eprintln!("angband_level: {}", rejected.reason);
        return ExitCode::from(2);
    }
    let Some(built) = read::<AngbandLevelBuilt>(world).pop() else {
        eprintln!("angband_level: no level was built");
        return ExitCode::from(2);
    };
    println!(
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
    );
    let rendered = render_floor(world);
    let mut lines: Vec<Vec<char>> = rendered.lines().map(|l| l.chars().collect()).collect();
    let legend = lines.pop().map(|l| l.into_iter().collect::<String>());
    if let Some(player) = built.player {
        lines[player.y as usize][player.x as usize] = '@';
    }
    for room in &built.rooms {
        lines[room.rect.y as usize][room.rect.x as usize] = letter(room.kind);
    }
    for line in &lines {
        println!("{}", line.iter().collect::<String>());
    }
    println!("{}", legend.unwrap_or_default());
    println!(
        "@ the player; a room's kind on its top-left corner: S simple, O overlapping, C cross, \
         L large (inner room), N nest, P pit, v lesser vault, V greater vault; other letters \
         are monsters (their race's symbol)\n"
    );
    for (i, room) in built.rooms.iter().enumerate() {
        let r = room.rect;
        println!(
            "room {:>2}: {:<13} {}x{} at ({}, {})",
            i + 1,
            format!("{:?}", room.kind),
            r.width,
            r.height,
            r.x,
            r.y
        );
    }
    println!();
    let rules = world.resource::<AngbandRules>().clone();
    let mut roster: BTreeMap<(u8, String), (u32, u32)> = BTreeMap::new();
    let mut query = world.query::<(&AngbandMonster, &SleepCounter, &GridPos)>();
    for (monster, sleep, _) in query.iter(world) {
        let race = rules
            .allocator
            .races()
            .get(monster.race)
            .expect("a race of the rules");
        let entry = roster.entry((race.level, race.name.clone())).or_default();
        entry.0 += 1;
        entry.1 += u32::from(sleep.0 > 0);
    }
    println!("{:>5}  {:>5}  {:>6}  race", "level", "count", "asleep");
    for ((level, name), (count, asleep)) in roster {
        println!("{level:>5}  {count:>5}  {asleep:>6}  {name}");
    }
    ExitCode::SUCCESS
}

/// The messages of a kind written this update.
fn read<M: bevy_ecs::message::Message + Clone>(world: &mut bevy_ecs::world::World) -> Vec<M> {
    let messages = world.resource::<bevy_ecs::message::Messages<M>>();
    messages.iter_current_update_messages().cloned().collect()
}

/// The letter a room kind is shown with.
fn letter(kind: RoomKind) -> char {
    match kind {
        RoomKind::Ordinary => 'S',
        RoomKind::Overlapping => 'O',
        RoomKind::Cross => 'C',
        RoomKind::Inner => 'L',
        RoomKind::Nest => 'N',
        RoomKind::Pit => 'P',
        RoomKind::LesserVault => 'v',
        RoomKind::GreaterVault => 'V',
    }
}
