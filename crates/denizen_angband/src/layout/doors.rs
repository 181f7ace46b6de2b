//! Doors: the secret doors of inner rooms, the locked doors of treasure vaults, and the
//! random doors that tunnels leave in pierced room walls and at corridor junctions. A
//! door's lock or jam strength is part of its terrain code, as in the original.

use denizen_core::Generator;

use crate::cave::{Cave, Pos, terrain};
use crate::rng::{rand0, randint};

/// Puts a secret door.
pub(crate) fn secret_door(cave: &mut Cave, at: Pos) {
    cave.set_terrain(at, terrain::SECRET_DOOR);
}

/// Puts a locked door of strength `randint(7)`.
pub(crate) fn locked_door(cave: &mut Cave, rng: &mut Generator, at: Pos) {
    cave.set_terrain(at, locked_door_code(rng));
}

/// A locked door's terrain: the closed door's code plus its strength, `randint(7)`.
fn locked_door_code(rng: &mut Generator) -> u8 {
    terrain::CLOSED_DOOR + randint(rng, 7) as u8
}

/// Puts a random door (notes 4.8).
pub(crate) fn random_door(cave: &mut Cave, rng: &mut Generator, at: Pos) {
    cave.set_terrain(at, random_door_code(rng));
}

/// A random door's terrain out of one `rand0(1000)`: open 30%, broken 10%, secret 20%,
/// closed 30%, locked 9.9% (strength `randint(7)`), jammed 0.1% (strength `rand0(8)`).
pub(crate) fn random_door_code(rng: &mut Generator) -> u8 {
    match rand0(rng, 1000) {
        0..300 => terrain::OPEN_DOOR,
        300..400 => terrain::BROKEN_DOOR,
        400..600 => terrain::SECRET_DOOR,
        600..900 => terrain::CLOSED_DOOR,
        900..999 => locked_door_code(rng),
        _ => terrain::JAMMED_DOOR + rand0(rng, 8) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

    #[test]
    fn random_doors_follow_the_thousand() {
        let mut rng = WorldSeed(8).stream(StreamPurpose::new("doors"));
        // open, broken, secret, closed, locked, jammed
        let mut counts = [0u64; 6];
        for _ in 0..200_000 {
            let code = random_door_code(&mut rng);
            let cell = match code {
                terrain::OPEN_DOOR => 0,
                terrain::BROKEN_DOOR => 1,
                terrain::SECRET_DOOR => 2,
                terrain::CLOSED_DOOR => 3,
                0x21..=0x27 => 4,
                0x28..=0x2F => 5,
                other => panic!("not a door: {other:#x}"),
            };
            counts[cell] += 1;
        }
        let odds = [300.0, 100.0, 200.0, 300.0, 99.0, 1.0].map(|n| n / 1000.0);
        let p = ChiSquared::against(&counts, odds).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
    }

    /// A treasure vault's locked door has strength 1 to 7, each one time in 7; strength 0
    /// (a plain closed door) or 8 (jammed) is never made.
    #[test]
    fn locked_doors_have_strength_one_to_seven() {
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("doors"));
        let mut cave = Cave::new();
        let at = Pos::new(10, 10);
        let mut counts = [0u64; 9];
        for _ in 0..14_000 {
            locked_door(&mut cave, &mut rng, at);
            let strength = cave.terrain(at).wrapping_sub(terrain::CLOSED_DOOR);
            counts[usize::from(strength).min(8)] += 1;
        }
        let odds = [0.0].into_iter().chain([1.0 / 7.0; 7]).chain([0.0]);
        let p = ChiSquared::against(&counts, odds).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
        // A jammed door's `rand0(8)` strength, 0 to 7, is rejected.
        let jammed = [1.0 / 8.0; 8].into_iter().chain([0.0]);
        let p = ChiSquared::against(&counts, jammed).p_value();
        assert!(p < 1e-6, "{counts:?} p = {p}");
    }
}
