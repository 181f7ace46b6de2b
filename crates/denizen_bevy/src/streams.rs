//! The world seed and the stream ledger: every event that draws gets its own stream.

use std::collections::HashMap;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_core::rng::{Generator, StreamPurpose, WorldSeed};
use serde::{Deserialize, Serialize};

/// The world seed, and how many times each event was drawn for. A stream is a function of
/// the seed, the event's kind, place and depth, and that count only
/// ([`StreamPurpose::event`]), so no event's outcome depends on what was drawn before it
/// or on the order systems ran in.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct DenizenRng {
    /// The world seed.
    pub seed: u64,
    /// Generations so far per kind and place, then per depth.
    pub generations: HashMap<String, HashMap<u32, u64>>,
}

impl DenizenRng {
    /// A ledger with this world seed and no events drawn yet.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            generations: HashMap::new(),
        }
    }

    /// The stream for the next generation of a floor (and counts it).
    pub fn next_floor(&mut self, location: &str, depth: u32) -> Generator {
        self.next_stream("floor", location, depth)
    }

    /// The stream for the next event of a kind (`"floor"`, `"wander"`, `"summon"`, ...) at
    /// a place and depth, counted per kind, place and depth.
    pub fn next_stream(&mut self, kind: &str, place: &str, depth: u32) -> Generator {
        // Floors are counted under their place, other events under `kind:place`.
        let key = if kind == "floor" {
            std::borrow::Cow::Borrowed(place)
        } else {
            std::borrow::Cow::Owned(format!("{kind}:{place}"))
        };
        let counted = self
            .generations
            .get_mut(key.as_ref())
            .and_then(|depths| depths.get_mut(&depth));
        let generation = match counted {
            Some(count) => {
                let generation = *count;
                *count = generation.saturating_add(1);
                generation
            }
            None => {
                let depths = self.generations.entry(key.into_owned()).or_default();
                depths.insert(depth, 1);
                0
            }
        };
        let purpose = StreamPurpose::event(kind, place, depth, generation);
        WorldSeed(self.seed).stream(purpose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn each_event_counts_on_its_own() {
        let mut ledger = DenizenRng::new(5);
        let first = ledger.next_floor("sewers", 3).next_u32();
        let other = ledger.next_stream("wander", "sewers", 3).next_u32();
        let second = ledger.next_floor("sewers", 3).next_u32();
        assert_ne!(first, second, "a floor's second generation differs");
        let expected = |kind, generation| {
            WorldSeed(5)
                .stream(StreamPurpose::event(kind, "sewers", 3, generation))
                .next_u32()
        };
        assert_eq!(
            (first, other, second),
            (
                expected("floor", 0),
                expected("wander", 0),
                expected("floor", 1)
            )
        );
    }
}
