//! What a grid of a level is, as a game reads it: 2.7.9's terrain codes (layout notes
//! 3.1) named, for a terrain layer beside the neutral floor (which shows every wall,
//! vein and rubble as `Wall`, every door as `Door`, both staircases as `Stairs`).

use serde::{Deserialize, Serialize};

use crate::cave::terrain;

/// A granite wall's kind: which part of the layout made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Granite {
    /// The initial fill (and destruction's rock).
    Basic,
    /// Pillars, inner rooms, a vault's `#`.
    Inner,
    /// The wall ring of a room, a vault's `%`: tunnels pierce it.
    Outer,
    /// An outer wall next to a pierced doorway: tunnels never pierce it again.
    Solid,
}

/// A permanent wall's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Permanent {
    /// A town building.
    Basic,
    /// A vault's `X`.
    Inner,
    /// Never made in 2.7.9.
    Outer,
    /// The map's edge.
    Solid,
}

/// One grid's terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Terrain {
    /// Open floor.
    Floor,
    /// A hidden trap (its kind is chosen when it is found).
    Trap,
    /// An open door.
    OpenDoor,
    /// A broken door.
    BrokenDoor,
    /// An up staircase.
    UpStairs,
    /// A down staircase.
    DownStairs,
    /// A closed door, unlocked.
    ClosedDoor,
    /// A locked door of strength 1 to 7.
    LockedDoor(u8),
    /// A jammed door of strength 0 to 7.
    JammedDoor(u8),
    /// A secret door.
    SecretDoor,
    /// Rubble: the player tunnels through it.
    Rubble,
    /// A magma vein, with treasure or not (the hidden-treasure codes, never made in 2.7.9,
    /// read as treasure too).
    Magma {
        /// It holds treasure.
        treasure: bool,
    },
    /// A quartz vein, likewise.
    Quartz {
        /// It holds treasure.
        treasure: bool,
    },
    /// Granite.
    Granite(Granite),
    /// A permanent wall.
    Permanent(Permanent),
}

impl Terrain {
    /// The terrain of a 2.7.9 terrain code (an unknown code reads as basic granite).
    pub fn of(code: u8) -> Self {
        match code {
            terrain::FLOOR => Terrain::Floor,
            terrain::TRAP => Terrain::Trap,
            terrain::OPEN_DOOR => Terrain::OpenDoor,
            terrain::BROKEN_DOOR => Terrain::BrokenDoor,
            terrain::UP_STAIRS => Terrain::UpStairs,
            terrain::DOWN_STAIRS => Terrain::DownStairs,
            terrain::CLOSED_DOOR => Terrain::ClosedDoor,
            0x21..=0x27 => Terrain::LockedDoor(code - terrain::CLOSED_DOOR),
            0x28..=0x2F => Terrain::JammedDoor(code - terrain::JAMMED_DOOR),
            terrain::SECRET_DOOR => Terrain::SecretDoor,
            terrain::RUBBLE => Terrain::Rubble,
            0x32 | 0x34 | 0x36 => Terrain::Magma {
                treasure: code != terrain::MAGMA,
            },
            0x33 | 0x35 | 0x37 => Terrain::Quartz {
                treasure: code != terrain::QUARTZ,
            },
            terrain::INNER_GRANITE => Terrain::Granite(Granite::Inner),
            terrain::OUTER_GRANITE => Terrain::Granite(Granite::Outer),
            terrain::SOLID_GRANITE => Terrain::Granite(Granite::Solid),
            0x3C => Terrain::Permanent(Permanent::Basic),
            terrain::INNER_PERMANENT => Terrain::Permanent(Permanent::Inner),
            terrain::OUTER_PERMANENT => Terrain::Permanent(Permanent::Outer),
            terrain::SOLID_PERMANENT => Terrain::Permanent(Permanent::Solid),
            _ => Terrain::Granite(Granite::Basic),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_the_generator_makes_has_its_own_terrain() {
        let made = [
            0x01, 0x02, 0x04, 0x05, 0x06, 0x07, 0x20, 0x21, 0x27, 0x28, 0x2F, 0x30, 0x31, 0x32,
            0x33, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x3D, 0x3F,
        ];
        let terrains: Vec<Terrain> = made.iter().map(|&c| Terrain::of(c)).collect();
        for (i, a) in terrains.iter().enumerate() {
            assert!(!terrains[i + 1..].contains(a), "{a:?} twice");
        }
        assert_eq!(Terrain::of(0x23), Terrain::LockedDoor(3));
        assert_eq!(Terrain::of(0x28), Terrain::JammedDoor(0));
        assert_eq!(Terrain::of(0x36), Terrain::Magma { treasure: true });
        assert_eq!(Terrain::of(0x33), Terrain::Quartz { treasure: false });
        // 2.7.9's permanent walls: `FEAT_PERM_EXTRA` 0x3C to `FEAT_PERM_SOLID` 0x3F.
        assert_eq!(Terrain::of(0x3C), Terrain::Permanent(Permanent::Basic));
        assert_eq!(Terrain::of(0x3E), Terrain::Permanent(Permanent::Outer));
    }
}
