//! The unbiased uniform and dice roller of rules that are not a classic game's: a value
//! below `n` by one multiplication (Lemire's method, a division only on the rare redraw),
//! and dice rolled with it. The tables rule set reads every draw of its stream with
//! these; the classic rule sets keep their originals' draws ([`crate::rng::uniform`],
//! Omega's bucketed helper), so their seeds give what the originals give.

use rand::Rng;

use crate::{Dice, Generator};

/// A value uniform on `0..n`, unbiased, and the word it came from: `word * n / 2^32`, a
/// word redrawn when its low product falls in the short zone. `n` must be above 0 (a
/// debug build panics on 0; a release build gives 0).
///
/// Inlined across crates: it is the inner step of every tables draw.
#[inline]
pub fn below(rng: &mut Generator, n: u32) -> (u32, u32) {
    debug_assert!(n > 0, "below(0) has no values");
    let mut word = rng.next_u32();
    let mut product = u64::from(word) * u64::from(n);
    if (product as u32) < n {
        let zone = n.wrapping_neg() % n;
        while (product as u32) < zone {
            word = rng.next_u32();
            product = u64::from(word) * u64::from(n);
        }
    }
    ((product >> 32) as u32, word)
}

/// A dice total: each die uniform on `1..=sides` by [`below`] (0 for dice of no sides).
#[inline]
pub fn roll(dice: Dice, rng: &mut Generator) -> u32 {
    if dice.sides == 0 {
        return 0;
    }
    (0..dice.count).map(|_| below(rng, dice.sides).0 + 1).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{StreamPurpose, WorldSeed};

    /// With `n` three quarters of 2^32 a quarter of the words fall in the zone Lemire's
    /// method redraws: every value kept came from a word outside it, is that word's
    /// `word * n / 2^32`, and the redraws happen (a third of a redraw a value).
    #[test]
    fn words_in_the_short_zone_are_redrawn() {
        let n: u32 = 3 << 30;
        let zone = u64::from(n.wrapping_neg() % n);
        assert_eq!(zone, 1 << 30);
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("below"));
        let mut first = WorldSeed(3).stream(StreamPurpose::new("below"));
        let mut redrawn = 0;
        for _ in 0..4_000 {
            let (u, word) = below(&mut rng, n);
            let product = u64::from(word) * u64::from(n);
            assert!(product & 0xFFFF_FFFF >= zone, "a word in the zone was kept");
            assert_eq!(u64::from(u), product >> 32);
            // The same stream read by hand: the first word, and as many more as were redrawn.
            let mut drawn = first.next_u32();
            while (u64::from(drawn) * u64::from(n)) & 0xFFFF_FFFF < zone {
                redrawn += 1;
                drawn = first.next_u32();
            }
            assert_eq!(drawn, word);
        }
        // A word is redrawn with chance 1/4, so a value takes 1/3 of a redraw on average.
        assert!(
            (1_200..1_470).contains(&redrawn),
            "{redrawn} redraws for 4,000 values"
        );
    }

    /// Dice: each die 1 to `sides`, a die of no sides 0.
    #[test]
    fn dice_roll_within_their_faces() {
        let mut rng = WorldSeed(5).stream(StreamPurpose::new("roll"));
        let mut seen = [0u32; 13];
        for _ in 0..6_000 {
            seen[roll(Dice::new(2, 6), &mut rng) as usize] += 1;
        }
        assert_eq!(seen[0] + seen[1], 0);
        // 7 comes 6 times in 36, 2 and 12 once.
        assert!((850..1_150).contains(&seen[7]), "{seen:?}");
        assert!(
            (100..240).contains(&seen[2]) && (100..240).contains(&seen[12]),
            "{seen:?}"
        );
        assert_eq!(roll(Dice::new(3, 0), &mut rng), 0);
    }
}
