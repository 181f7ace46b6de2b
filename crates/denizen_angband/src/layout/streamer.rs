//! Mineral veins (notes 5): three magma and two quartz streamers, each a straight, patchy
//! band about five grids wide from near the map centre to the edge. Veins replace only
//! granite (room walls included), never floors, doors, other veins or permanent walls.

use denizen_core::Generator;

use crate::cave::{Cave, DIRECTIONS, HEIGHT, Pos, WIDTH, terrain};
use crate::rng::{Rolls, rand_spread, rand0};

/// Magma streamers per level, each grid turned showing treasure 1 time in 90.
pub const MAGMA_STREAMERS: u32 = 3;
/// Quartz streamers per level, each grid turned showing treasure 1 time in 40.
pub const QUARTZ_STREAMERS: u32 = 2;
/// Conversion tries per step (`DUN_STR_DEN`).
const DENSITY: u32 = 5;
/// Spread of the tries round the band's centre line (`DUN_STR_RNG`).
const SPREAD: i32 = 2;
/// Steps of one streamer: it leaves the map long before (the map is 198 wide).
const STEP_CAP: u32 = 1_000;
/// Redraws of a try that falls off the map.
const REDRAW_CAP: u32 = 1_000;

/// All streamers: magma, then quartz.
pub(crate) fn streamers(cave: &mut Cave, rng: &mut Generator) {
    for _ in 0..MAGMA_STREAMERS {
        streamer::<90>(cave, rng, terrain::MAGMA);
    }
    for _ in 0..QUARTZ_STREAMERS {
        streamer::<40>(cave, rng, terrain::QUARTZ);
    }
}

/// `build_streamer`: one band of `vein`, each grid it turns showing treasure one time in
/// `TREASURE` (a constant, so the dice cost no division).
fn streamer<const TREASURE: u32>(cave: &mut Cave, rng: &mut Generator, vein: u8) {
    let mut y = rand_spread(rng, HEIGHT / 2, 10);
    let mut x = rand_spread(rng, WIDTH / 2, 15);
    let (dy, dx) = DIRECTIONS[rand0(rng, 8) as usize];
    for _ in 0..STEP_CAP {
        for _ in 0..DENSITY {
            let Some((at, shows)) = (0..REDRAW_CAP)
                .map(|_| conversion_try::<TREASURE>(rng, Pos::new(y, x)))
                .find(|&(at, _)| Cave::on_map(at))
            else {
                continue;
            };
            let code = cave.terrain(at);
            if (terrain::GRANITE..=terrain::SOLID_GRANITE).contains(&code) {
                let code = if shows {
                    vein + terrain::VISIBLE_TREASURE
                } else {
                    vein
                };
                cave.set_terrain(at, code);
            }
        }
        y += dy;
        x += dx;
        if !Cave::inside(Pos::new(y, x)) {
            break;
        }
    }
}

/// One conversion try round `centre`: the grid (`rand_spread` by [`SPREAD`] on each axis)
/// and whether it shows treasure if it turns (`rand_int(TREASURE) == 0`), from one word.
#[inline]
fn conversion_try<const TREASURE: u32>(rng: &mut Generator, centre: Pos) -> (Pos, bool) {
    let side = 2 * SPREAD as u32 + 1;
    let mut rolls = Rolls::draw(rng, side * side * TREASURE);
    let y = centre.y + rolls.rand0(side) - SPREAD;
    let x = centre.x + rolls.rand0(side) - SPREAD;
    (Pos::new(y, x), rolls.rand0(TREASURE) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{StreamPurpose, WorldSeed};

    #[test]
    fn veins_replace_granite_only() {
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("streamer"));
        // A cave striped with every terrain code the level may hold by then.
        let codes: Vec<u8> = (0u8..=0x3F).collect();
        for _ in 0..50 {
            let mut cave = Cave::new();
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    let code = codes[((y * 7 + x * 3) as usize) % codes.len()];
                    cave.set_terrain(Pos::new(y, x), code);
                }
            }
            let before = cave.clone();
            streamers(&mut cave, &mut rng);
            let mut changed = 0;
            for y in 0..HEIGHT {
                for x in 0..WIDTH {
                    let at = Pos::new(y, x);
                    let (was, now) = (before.terrain(at), cave.terrain(at));
                    if was != now {
                        changed += 1;
                        assert!(
                            (0x38..=0x3B).contains(&was),
                            "{was:#x} at {at:?} was changed"
                        );
                        assert!(matches!(now, 0x32 | 0x33 | 0x36 | 0x37), "{now:#x}");
                    }
                }
            }
            assert!(changed > 0);
        }
    }
}
