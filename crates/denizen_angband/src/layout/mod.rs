//! Angband 2.7.9's classic level layout: rooms on a block grid, tunnels in a cycle,
//! mineral veins, the occasional destroyed level, stairs and the player's start (steps
//! 1-10 of the layout notes' order of generation). The base population (monsters,
//! traps, rubble, objects) runs afterwards, on the returned [`Layout`].
//!
//! Every random value is drawn from the caller's generator with the original's dice
//! helpers ([`crate::rng`]), so a seed always gives the same level; the dice a loop rolls
//! every pass (a tunnel step, a vein's try, a random grid) come from one word each
//! ([`crate::rng`]'s `Rolls`), with the same odds as the original's one-by-one draws. The layout rules are the original's, quirks included; the only departures are
//! bounds on loops that could spin forever in the original (see [`stairs`]) and the
//! optional [`LayoutOptions::seal_unreachable`].

pub mod attempts;
pub mod blocks;
mod builder;
pub mod choice;
mod destroy;
mod doors;
pub mod nest;
pub mod reach;
mod rooms;
pub mod stairs;
pub mod streamer;
pub mod templates;
pub mod tunnel;
pub mod vault;

#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use denizen_core::{Generator, Rect, Room};

use crate::cave::{Cave, HEIGHT, Pos, WIDTH, terrain};
use crate::rng::{rand_range, rand0};

pub use builder::{Inhabit, ObjectSpot};
pub use choice::{RoomChoice, destroyed_chance, first_choice_odds, lit_chance};
pub use reach::Regions;
#[cfg(feature = "shipped")]
pub use templates::ANGBAND_VAULTS;
pub use templates::{ANGBAND_VAULTS_FILE, VaultKind, VaultTemplate, VaultTemplates};
pub use tunnel::TunnelStats;
pub use vault::PlacedVault;

/// Switches; `Default` is faithful to 2.7.9.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutOptions {
    /// A quest level: never destroyed, and every staircase goes up.
    pub quest: bool,
    /// Wall up every passable grid that cannot be reached from the largest connected
    /// region, after destruction and before the stairs, except vault interiors (which
    /// 2.7.9 means to be dug into). 2.7.9 does not check connectivity, so this is off by
    /// default: about 9% of its levels have floor that cannot be walked to, nearly all of
    /// it blast pockets of destroyed levels and closed vaults.
    pub seal_unreachable: bool,
    /// A room kind the attempts try, and nothing else, until one is built (examples,
    /// tests and tools that want to see a vault, pit or nest; with 50 attempts it is
    /// nearly sure); such a level is never destroyed.
    /// `None` (the default) is 2.7.9's level.
    pub force_room: Option<RoomChoice>,
}

/// What one room attempt built, in build order: its kind and the rectangle its walls
/// enclose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltRoom {
    /// The room's kind.
    pub kind: RoomChoice,
    /// Its centre, where tunnels start and end.
    pub centre: Pos,
    /// Top-left grid of its walls.
    pub top_left: Pos,
    /// Bottom-right grid of its walls (inclusive).
    pub bottom_right: Pos,
    /// Whether it is lit.
    pub lit: bool,
}

impl BuiltRoom {
    /// The room on the neutral floor.
    pub fn room(&self) -> Room {
        Room {
            kind: self.kind.name().to_owned(),
            rect: Rect {
                x: self.top_left.x as u32,
                y: self.top_left.y as u32,
                width: (self.bottom_right.x - self.top_left.x + 1) as u32,
                height: (self.bottom_right.y - self.top_left.y + 1) as u32,
            },
        }
    }
}

/// A level's layout, ready for its base population.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The grids; the player's start is [`Cave::player`].
    pub cave: Cave,
    /// The depth the level was built at (at least 1).
    pub depth: i32,
    /// The rooms, in build order.
    pub rooms: Vec<BuiltRoom>,
    /// Whether the level was destroyed.
    pub destroyed: bool,
    /// The level the base population draws at: the depth, or depth + 2 when the last
    /// room to touch it placed inner-room guards (source notes 7).
    pub monster_level: i32,
    /// The objects and gold room builders put down (cross and large room variants,
    /// vault `*`, `9`, `8` and `,`), in placement order; each square is marked on the
    /// cave. The host makes the objects.
    pub objects: Vec<ObjectSpot>,
    /// The rating the rooms add: 10 for each filled nest or pit, each vault's template
    /// rating.
    pub room_rating: i32,
    /// The vault rooms: template and corner, for the vault's second pass.
    pub vaults: Vec<PlacedVault>,
    /// Down staircases of the stair step (notes 6.1), in placement order.
    pub down_stairs: Vec<Pos>,
    /// Up staircases of the stair step, in placement order.
    pub up_stairs: Vec<Pos>,
    /// Staircases a large room's treasure vault made instead of its object.
    pub room_stairs: Vec<Pos>,
    /// A nest, pit or vault set the "special" level feeling.
    pub special_feeling: bool,
    /// Roster indices of monsters rooms placed (guards, nest, pit and vault monsters)
    /// that destruction or sealing removed again; the population takes them back.
    pub removed_guards: Vec<usize>,
    /// What the tunnels did.
    pub tunnels: TunnelStats,
}

impl Layout {
    /// The rooms' kinds, in build order.
    pub fn room_kinds(&self) -> impl Iterator<Item = RoomChoice> + '_ {
        self.rooms.iter().map(|r| r.kind)
    }

    /// The level as text, one line per row: `#` granite, `X` permanent wall, `%` vein
    /// (`*` with treasure), `.` floor, `^` trap, `'` open or broken door, `+` closed,
    /// locked or jammed door, `s` secret door, `:` rubble, `<` and `>` stairs; on top,
    /// `@` the player, `m` a monster, `$` gold and `!` an object.
    pub fn render(&self) -> String {
        let cave = &self.cave;
        let mut text = String::with_capacity(((WIDTH + 1) * HEIGHT) as usize);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                let at = Pos::new(y, x);
                let symbol = if cave.player() == Some(at) {
                    '@'
                } else if cave.monster(at).is_some() {
                    'm'
                } else if cave.has_object(at) {
                    if self.objects.iter().any(|o| o.at == at && o.gold) {
                        '$'
                    } else {
                        '!'
                    }
                } else {
                    terrain_symbol(cave.terrain(at))
                };
                text.push(symbol);
            }
            text.push('\n');
        }
        text
    }
}

/// A terrain code's symbol in [`Layout::render`].
fn terrain_symbol(code: u8) -> char {
    match code {
        terrain::FLOOR => '.',
        terrain::TRAP => '^',
        terrain::OPEN_DOOR | terrain::BROKEN_DOOR => '\'',
        terrain::UP_STAIRS => '<',
        terrain::DOWN_STAIRS => '>',
        0x20..=0x2F => '+',
        terrain::SECRET_DOOR => 's',
        terrain::RUBBLE => ':',
        0x32..=0x33 => '%',
        0x34..=0x37 => '*',
        0x3C..=0x3F => 'X',
        _ => '#',
    }
}

/// Angband 2.7.9's vault templates, loaded once per process.
#[cfg(feature = "shipped")]
pub fn shipped_vaults() -> &'static VaultTemplates {
    static VAULTS: OnceLock<VaultTemplates> = OnceLock::new();
    VAULTS.get_or_init(VaultTemplates::shipped)
}

/// Builds a level at `depth` with Angband 2.7.9's vault templates. `guards` places the
/// inner-room guards as the rooms are built (`&mut ()` places none).
#[cfg(feature = "shipped")]
pub fn generate(
    rng: &mut Generator,
    depth: i32,
    options: &LayoutOptions,
    guards: &mut impl Inhabit,
) -> Layout {
    generate_with(rng, depth, options, shipped_vaults(), guards)
}

/// Builds a level at `depth` with a game's own vault templates.
///
/// The steps, in order: granite fill; the destroyed roll (deeper than 10 only); 50 room
/// attempts; the permanent edge; the tunnels and junction doors; 3 magma and 2 quartz
/// veins; the destruction; optionally the sealing; 3-4 down then 1-2 up staircases; the
/// player's start. Depths outside 1-127 are built as the nearest of them.
pub fn generate_with(
    rng: &mut Generator,
    depth: i32,
    options: &LayoutOptions,
    vaults: &VaultTemplates,
    guards: &mut impl Inhabit,
) -> Layout {
    let depth = choice::dungeon_depth(depth);
    let mut b = builder::Builder::new(rng, guards, depth, options.quest);

    let destroyed = choice::rolls_for_destruction(depth)
        && rand0(b.rng, choice::DESTROY_DIE) == 0
        && !options.quest
        && options.force_room.is_none();

    let rooms = attempts::place_rooms(&mut b, destroyed, vaults, options.force_room);

    permanent_edge(&mut b.cave);

    let centres: Vec<Pos> = rooms.built.iter().map(|r| r.centre).collect();
    let tunnels = tunnel::connect(&mut b.cave, b.rng, &centres);

    streamer::streamers(&mut b.cave, b.rng);

    let mut removed_guards = Vec::new();
    if destroyed {
        removed_guards.extend(destroy::destroy_level(&mut b.cave, b.rng));
    }
    if options.seal_unreachable {
        removed_guards.extend(reach::seal_unreachable(&mut b.cave));
    }
    // Drop the records of what destruction or sealing removed.
    let cave = &b.cave;
    b.objects.retain(|o| cave.has_object(o.at));
    b.room_stairs
        .retain(|&at| matches!(cave.terrain(at), terrain::UP_STAIRS | terrain::DOWN_STAIRS));

    let all_up = stairs::all_up(depth, options.quest);
    let (down_code, up_code) = if all_up {
        (terrain::UP_STAIRS, terrain::UP_STAIRS)
    } else {
        (terrain::DOWN_STAIRS, terrain::UP_STAIRS)
    };
    let downs = rand_range(b.rng, 3, 4);
    let first = stairs::alloc_stairs(&mut b.cave, b.rng, down_code, downs);
    let ups = rand_range(b.rng, 1, 2);
    let second = stairs::alloc_stairs(&mut b.cave, b.rng, up_code, ups);
    let (down_stairs, up_stairs) = if all_up {
        (Vec::new(), [first, second].concat())
    } else {
        (first, second)
    };

    if let Some(at) = stairs::player_spot(&b.cave, b.rng) {
        b.cave.set_player(at);
    }

    Layout {
        cave: b.cave,
        depth,
        rooms: rooms.built,
        destroyed,
        monster_level: b.monster_level,
        objects: b.objects,
        room_rating: b.room_rating,
        vaults: rooms.vaults,
        down_stairs,
        up_stairs,
        room_stairs: b.room_stairs,
        special_feeling: b.special_feeling,
        removed_guards,
        tunnels,
    }
}

/// The map's outer ring becomes solid permanent wall; flags are kept (notes 1.2, 3.6).
fn permanent_edge(cave: &mut Cave) {
    for x in 0..WIDTH {
        cave.set_terrain(Pos::new(0, x), terrain::SOLID_PERMANENT);
        cave.set_terrain(Pos::new(HEIGHT - 1, x), terrain::SOLID_PERMANENT);
    }
    for y in 0..HEIGHT {
        cave.set_terrain(Pos::new(y, 0), terrain::SOLID_PERMANENT);
        cave.set_terrain(Pos::new(y, WIDTH - 1), terrain::SOLID_PERMANENT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built room's walls enclose a rectangle that includes both corners.
    #[test]
    fn a_built_rooms_rectangle_includes_both_corners() {
        let built = BuiltRoom {
            kind: RoomChoice::Large,
            centre: Pos::new(5, 6),
            top_left: Pos::new(3, 2),
            bottom_right: Pos::new(7, 10),
            lit: true,
        };
        let rect = Rect {
            x: 2,
            y: 3,
            width: 9,
            height: 5,
        };
        assert_eq!(built.room(), Room::new("large", rect));
    }
}
