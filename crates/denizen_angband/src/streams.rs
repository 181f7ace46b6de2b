//! The kinds of event Angband's rules draw streams for, under the place [`PLACE`]. The
//! plugin's stream ledger counts generations under these names, and tools and tests that
//! want the plugin's stream for an event ask for the same one.

use denizen_core::rng::{Generator, StreamPurpose, WorldSeed};

/// The place every Angband stream is drawn under (and the location of Angband floors:
/// level `d` is the floor `("angband", d)`).
pub const PLACE: &str = "angband";
/// A level: its layout, population and traps, and every level the autoscummer throws
/// away before it.
pub const LEVEL: &str = "level";
/// A trap springing.
pub const TRAP: &str = "trap";

/// The stream of the `generation`-th level made at `depth` (0 for the first): the one the
/// plugin draws from for the same world seed.
pub fn level_stream(seed: WorldSeed, depth: u32, generation: u64) -> Generator {
    seed.stream(StreamPurpose::event(LEVEL, PLACE, depth, generation))
}
