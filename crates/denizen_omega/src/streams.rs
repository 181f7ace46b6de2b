//! The kinds of event Omega's rules draw streams for. The plugin's stream ledger counts
//! generations under these names (with the location and depth as place), and tools and
//! tests that want the plugin's stream for an event ask for the same one.

use denizen_core::rng::{Generator, StreamPurpose, WorldSeed};

/// A floor's population.
pub const FLOOR: &str = "floor";
/// A floor's fixed inhabitants (their own stream, so the population is the same whether
/// or not they are placed).
pub const FIXED: &str = "fixed";
/// A wandering check.
pub const WANDER: &str = "wander";
/// A summoning.
pub const SUMMON: &str = "summon";
/// A statue waking.
pub const STATUE: &str = "statue";
/// An arena bout (place `arena`, depth the opponent counter).
pub const ARENA: &str = "arena";
/// A were-human's change of form (place `were`, depth 0).
pub const WERE: &str = "were";

/// The stream of the `generation`-th population of a location's floor at a depth (0 for
/// the first): the one the plugin draws from for the same world seed.
pub fn floor_stream(seed: WorldSeed, location: &str, depth: u32, generation: u64) -> Generator {
    seed.stream(StreamPurpose::event(FLOOR, location, depth, generation))
}
