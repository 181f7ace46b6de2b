//! The world seed and the stream ledger: every event that draws gets its own stream.

use std::collections::BTreeMap;

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
    /// Generations so far per event kind, then place, then depth, in order (so equal
    /// worlds save the same bytes).
    pub generations: BTreeMap<String, BTreeMap<String, BTreeMap<u32, u64>>>,
}

/// Names one event's stream in the ledger: the rule set's kind of event, its place and
/// its depth (the generation is the ledger's count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StreamKey<'a> {
    /// The kind of event, a constant of the rule set's (Omega's `streams::FLOOR`).
    pub kind: &'a str,
    /// The place, such as a location key.
    pub place: &'a str,
    /// The depth (or map number).
    pub depth: u32,
}

impl DenizenRng {
    /// A ledger with this world seed and no events drawn yet.
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            generations: BTreeMap::new(),
        }
    }

    /// The stream for the next event of a key's kind at its place and depth (and counts
    /// it).
    pub fn next(&mut self, key: StreamKey<'_>) -> Generator {
        self.next_stream(key.kind, key.place, key.depth)
    }

    /// The stream for the next event of a kind (each rule-set crate names its kinds in
    /// its `streams` module: Omega's `FLOOR`, `WANDER`, ...) at a place and depth, counted
    /// per kind, place and depth.
    pub fn next_stream(&mut self, kind: &str, place: &str, depth: u32) -> Generator {
        let generation = self.count(kind, place, depth);
        let purpose = StreamPurpose::event(kind, place, depth, generation);
        WorldSeed(self.seed).stream(purpose)
    }

    /// How many events of this kind, place and depth were drawn for so far: the
    /// generation of the next one.
    pub fn generation(&self, kind: &str, place: &str, depth: u32) -> u64 {
        self.generations
            .get(kind)
            .and_then(|places| places.get(place))
            .and_then(|depths| depths.get(&depth))
            .copied()
            .unwrap_or(0)
    }

    /// The stream of one generation of an event, without counting it (see
    /// [`count_drawn`](Self::count_drawn)).
    pub fn stream_at(&self, kind: &str, place: &str, depth: u32, generation: u64) -> Generator {
        WorldSeed(self.seed).stream(StreamPurpose::event(kind, place, depth, generation))
    }

    /// Counts one event of this kind, place and depth as drawn for.
    pub fn count_drawn(&mut self, kind: &str, place: &str, depth: u32) {
        self.count(kind, place, depth);
    }

    /// The number of earlier events of this kind, place and depth, counting this one.
    /// Strings are copied only the first time a kind or place is seen.
    fn count(&mut self, kind: &str, place: &str, depth: u32) -> u64 {
        let counted = self
            .generations
            .get_mut(kind)
            .and_then(|places| places.get_mut(place))
            .and_then(|depths| depths.get_mut(&depth));
        if let Some(count) = counted {
            let generation = *count;
            *count = generation.saturating_add(1);
            return generation;
        }
        let places = self.generations.entry(kind.to_owned()).or_default();
        let depths = places.entry(place.to_owned()).or_default();
        depths.insert(depth, 1);
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn each_event_counts_on_its_own() {
        let mut ledger = DenizenRng::new(5);
        let floor = StreamKey {
            kind: "floor",
            place: "sewers",
            depth: 3,
        };
        let first = ledger.next(floor).next_u32();
        let other = ledger.next_stream("wander", "sewers", 3).next_u32();
        let second = ledger.next(floor).next_u32();
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

    #[test]
    fn kinds_and_places_never_share_a_count() {
        // A place whose name looks like `kind:place` still counts on its own.
        let mut ledger = DenizenRng::new(5);
        ledger.next_stream("wander", "sewers", 3);
        ledger.next_stream("floor", "wander:sewers", 3);
        ledger.next_stream("wander", "sewers", 3);
        assert_eq!(ledger.generations["wander"]["sewers"][&3], 2);
        assert_eq!(ledger.generations["floor"]["wander:sewers"][&3], 1);
    }
}
