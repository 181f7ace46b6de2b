//! Base floors: the stream a map's encounter stage draws from, and a reference base floor
//! for examples, the command line and tests.

use denizen_core::floor::{FloorGrid, Square, Tile};
use denizen_core::layout::rooms_and_corridors;
use denizen_core::rng::{Generator, StreamPurpose, WorldSeed, uniform};

/// The kind under which a base floor's encounter stages draw their streams, per map
/// (the plugin's stream ledger counts generations under it).
pub const STREAM_KIND: &str = "encounters";
/// The place under which a base floor's encounter stages draw their streams.
pub const STREAM_PLACE: &str = "base";

/// The stream of the `generation`-th encounter stage of a map (0 for the first): the one
/// the plugin draws from for the same world seed, so a tool shows what a game spawns.
pub fn encounter_stream(seed: WorldSeed, map: u32, generation: u64) -> Generator {
    seed.stream(StreamPurpose::event(
        STREAM_KIND,
        STREAM_PLACE,
        map,
        generation,
    ))
}

/// A reference base floor for a map (64 x 32): the reference layout dug from its first
/// floor square, with fire on two squares of three in its eastern quarter.
pub fn reference_base(seed: WorldSeed, map: u32) -> FloorGrid {
    let mut stream = seed.stream(StreamPurpose::new("base").with(map.into()));
    let mut grid = rooms_and_corridors(&mut |k| uniform(&mut stream, k), 64, 32)
        .expect("a 64 x 32 floor is far within MAX_SQUARES");
    let floor: Vec<Square> = grid
        .squares()
        .filter(|&s| grid.tile(s) == Tile::Floor)
        .collect();
    if let Some(&entrance) = floor.first() {
        grid.carve_from(entrance);
    }
    for s in floor {
        if s.x >= grid.width() * 3 / 4 && (s.x + s.y) % 3 != 0 {
            grid.set(s, crate::tile::FIRE);
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_bases_have_fire_a_dig_order_and_differ_by_map() {
        let base = reference_base(WorldSeed(1), 3);
        assert_eq!(base, reference_base(WorldSeed(1), 3));
        assert_ne!(base, reference_base(WorldSeed(1), 4));
        let fire: Vec<Square> = base
            .squares()
            .filter(|&s| base.tile(s) == crate::tile::FIRE)
            .collect();
        assert!(fire.len() > 10);
        assert!(fire.iter().all(|s| s.x >= 48));
        assert!(base.has_carve_order());
        let first = base.squares().find(|&s| base.carve_number(s) == Some(1));
        assert!(first.is_some_and(|s| base.tile(s) == Tile::Floor));
    }
}
