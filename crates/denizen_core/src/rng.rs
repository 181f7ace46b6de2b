//! Seeded, portable randomness: per-purpose ChaCha8 streams, an unbiased uniform draw, dice.
//!
//! Rules draw raw `u32` words from the generator and turn them into values with their own
//! functions (these, or a rule set's own helper such as Omega's bucketed `R(k)`), so a
//! seed's results depend only on the ChaCha8 stream (fixed by its specification), never on
//! the distribution code of a `rand` release.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// The generator every rule draws from: ChaCha8, seeded and positioned by [`WorldSeed::stream`].
pub type Generator = rand::rngs::ChaCha8Rng;

/// A value uniform on `0..n` (for `n > 0`), unbiased: words in the short final zone are
/// redrawn. The classic rule sets' draw (Captive's and Angband's, as their originals
/// roll); the tables draw with [`crate::fair::below`], which is cheaper.
#[inline]
pub fn uniform<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    assert!(n > 0, "uniform(0) has no values");
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let word = rng.next_u32();
        if word <= zone {
            return word % n;
        }
    }
}

/// The world seed: every stream a game draws from is derived from it and a purpose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WorldSeed(pub u64);

impl WorldSeed {
    /// The generator for one purpose (a floor, a check, a summoning). Two purposes never
    /// share state, so a floor's monsters do not depend on what was drawn before it.
    pub fn stream(self, purpose: StreamPurpose) -> Generator {
        let mut key = [0u8; 32];
        let mut state = self.0;
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix(&mut state).to_le_bytes());
        }
        let mut rng = Generator::from_seed(key);
        rng.set_stream(purpose.0);
        rng
    }
}

/// A generator of `rng`'s seed on the stream of `purpose` mixed with `rng`'s own stream,
/// read from its start: a purpose within another's (a region within a floor), which
/// reads no word of `rng` and so depends on nothing `rng` has drawn.
pub fn within(rng: &Generator, purpose: StreamPurpose) -> Generator {
    let mut inner = Generator::from_seed(rng.get_seed());
    inner.set_stream(purpose.with(rng.get_stream()).0);
    inner
}

/// What a stream is for: a label and any number of words (location, depth, counter),
/// hashed with a fixed, portable mixer into ChaCha8's 64-bit stream number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StreamPurpose(u64);

impl StreamPurpose {
    /// A purpose named by a label such as `"floor"` or `"simulate"`.
    pub fn new(label: &str) -> Self {
        Self(0x6465_6e69_7a65_6e00).with_str(label)
    }

    /// Adds a number (a depth, a counter) to the purpose.
    pub fn with(self, word: u64) -> Self {
        let mut state = self.0 ^ word.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Self(splitmix(&mut state))
    }

    /// Adds a text (a location key) to the purpose.
    pub fn with_str(self, text: &str) -> Self {
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, byte| {
            (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        self.with(hash).with(text.len() as u64)
    }

    /// The purpose of the `generation`-th event of a `kind` (`"floor"`, `"wander"`, ...) at
    /// a place and depth: how the plugin's stream ledger names every stream it hands out,
    /// so a tool that asks for the same event gets the same stream.
    pub fn event(kind: &str, place: &str, depth: u32, generation: u64) -> Self {
        Self::new(kind)
            .with_str(place)
            .with(depth.into())
            .with(generation)
    }

    /// The 64-bit stream number.
    pub fn id(self) -> u64 {
        self.0
    }
}

/// SplitMix64: a fixed mixer for seed expansion and purpose hashing.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Dice written `XdY`: the sum of `X` rolls, each uniform on `1..=Y`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dice {
    /// How many dice are rolled.
    pub count: u32,
    /// Faces on each die; a die with 0 faces always rolls 0.
    pub sides: u32,
}

impl Dice {
    /// `count` dice of `sides` faces.
    pub const fn new(count: u32, sides: u32) -> Self {
        Self { count, sides }
    }

    /// Rolls the dice with [`uniform`], as the classic rule sets do (the tables roll with
    /// [`crate::fair::roll`]).
    pub fn roll<R: Rng + ?Sized>(self, rng: &mut R) -> u32 {
        if self.sides == 0 {
            return 0;
        }
        (0..self.count).map(|_| uniform(rng, self.sides) + 1).sum()
    }

    /// The smallest and largest possible totals.
    pub fn bounds(self) -> (u32, u32) {
        if self.sides == 0 {
            (0, 0)
        } else {
            (self.count, self.count.saturating_mul(self.sides))
        }
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)
    }
}

/// Why a dice text such as `"3d"` did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not dice: expected XdY, such as 2d6")]
pub struct DiceParseError(pub String);

impl FromStr for Dice {
    type Err = DiceParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = || DiceParseError(text.to_owned());
        let (count, sides) = text.trim().split_once(['d', 'D']).ok_or_else(fail)?;
        Ok(Self {
            count: count.parse().map_err(|_| fail())?,
            sides: sides.parse().map_err(|_| fail())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_within_another_reads_none_of_its_words() {
        let words = |rng: &mut Generator| (0..4).map(|_| rng.next_u32()).collect::<Vec<_>>();
        let floor = || WorldSeed(42).stream(StreamPurpose::new("floor").with(3));
        let lair = StreamPurpose::new("region").with_str("lair-1");
        let fresh = words(&mut within(&floor(), lair));
        // The same whatever the outer stream has drawn, and the outer stream unmoved.
        let mut drawn = floor();
        let before = words(&mut floor());
        assert_eq!(words(&mut within(&drawn, lair)), fresh);
        assert_eq!(words(&mut drawn), before);
        drawn.next_u32();
        assert_eq!(words(&mut within(&drawn, lair)), fresh);
        // Another purpose, another outer stream or another seed: other words.
        let camp = StreamPurpose::new("region").with_str("camp-1");
        assert_ne!(words(&mut within(&floor(), camp)), fresh);
        let other_floor = WorldSeed(42).stream(StreamPurpose::new("floor").with(4));
        assert_ne!(words(&mut within(&other_floor, lair)), fresh);
        let other_seed = WorldSeed(43).stream(StreamPurpose::new("floor").with(3));
        assert_ne!(words(&mut within(&other_seed, lair)), fresh);
    }

    #[test]
    fn streams_are_deterministic_and_separate() {
        let seed = WorldSeed(42);
        let a = StreamPurpose::new("floor").with_str("sewers").with(3);
        let b = StreamPurpose::new("floor").with_str("sewers").with(4);
        let draw = |p| {
            let mut rng = seed.stream(p);
            (0..4).map(|_| rng.next_u32()).collect::<Vec<_>>()
        };
        assert_eq!(draw(a), draw(a));
        assert_ne!(draw(a), draw(b));
        let mut other = WorldSeed(43).stream(a);
        assert_ne!(draw(a)[0], other.next_u32());
    }

    #[test]
    fn dice_parse_and_stay_in_bounds() {
        let dice: Dice = "3d6".parse().unwrap();
        assert_eq!(dice, Dice::new(3, 6));
        assert_eq!(dice.to_string(), "3d6");
        assert!("3d".parse::<Dice>().is_err());
        assert!("d6x".parse::<Dice>().is_err());
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("dice"));
        let mut seen = [false; 19];
        for _ in 0..5000 {
            let total = dice.roll(&mut rng);
            assert!((3..=18).contains(&total));
            seen[total as usize] = true;
        }
        assert!(
            seen[3..=18].iter().all(|&s| s),
            "every total of 3d6 appears"
        );
        assert_eq!(Dice::new(2, 0).roll(&mut rng), 0);
    }

    #[test]
    fn uniform_redraws_the_words_of_the_short_final_zone() {
        /// A generator that gives a fixed list of words.
        struct Words(Vec<u32>);
        impl rand::rand_core::TryRng for Words {
            type Error = std::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok(self.0.remove(0))
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                Ok(u64::from(self.try_next_u32()?))
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                dst.fill(0);
                Ok(())
            }
        }
        // 2^32 = 3 x 1,431,655,765 + 1: of the words, only u32::MAX lies past the last
        // whole set of 3 and would make 0 more likely than 1 and 2. It is drawn again.
        let mut words = Words(vec![u32::MAX, 7]);
        assert_eq!(
            uniform(&mut words, 3),
            1,
            "u32::MAX is refused, 7 % 3 is taken"
        );
        assert!(words.0.is_empty());
        // 2^32 = 10 x 429,496,729 + 6: the last 6 words are refused, the one before is not.
        for refused in u32::MAX - 5..=u32::MAX {
            assert_eq!(uniform(&mut Words(vec![refused, 14]), 10), 4, "{refused}");
        }
        assert_eq!(uniform(&mut Words(vec![u32::MAX - 6, 14]), 10), 9);
        // A power of two has no final zone: every word is taken.
        assert_eq!(uniform(&mut Words(vec![u32::MAX]), 8), 7);
    }

    #[test]
    fn uniform_covers_its_range() {
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("uniform"));
        let mut counts = [0u32; 7];
        for _ in 0..7000 {
            counts[uniform(&mut rng, 7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
