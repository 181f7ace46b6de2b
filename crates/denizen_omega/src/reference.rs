//! Reference floors for Omega's locations: the neutral reference layout drawn with Omega's
//! own `R(k)`, one per world seed, location and depth (what the examples, the command line
//! and the tests populate).

use denizen_core::floor::FloorGrid;
use denizen_core::layout::rooms_and_corridors;
use denizen_core::rng::{StreamPurpose, WorldSeed};

use crate::rng;

/// The reference floor of a location and depth for a world seed: 64 x 32 squares of rooms
/// and corridors from the seed's `layout` stream for that location and depth.
pub fn reference_floor(seed: WorldSeed, location: &str, depth: u32) -> FloorGrid {
    let purpose = StreamPurpose::new("layout")
        .with_str(location)
        .with(depth.into());
    let mut stream = seed.stream(purpose);
    rooms_and_corridors(&mut |k| rng::range(&mut stream, k), 64, 32)
        .expect("a 64 x 32 floor is far within MAX_SQUARES")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_floors_are_the_seeds_and_differ_by_place() {
        let a = reference_floor(WorldSeed(1), "sewers", 3);
        assert_eq!(a, reference_floor(WorldSeed(1), "sewers", 3));
        assert_ne!(a, reference_floor(WorldSeed(1), "sewers", 4));
        assert_ne!(a, reference_floor(WorldSeed(2), "sewers", 3));
        assert_eq!((a.width(), a.height()), (64, 32));
        assert!(a.acceptable_count() > 150);
    }
}
