//! Unbiased values below `n` by one multiplication (Lemire's method, a division only on
//! the rare redraw), and dice rolled with them: what every draw of the tables rule set
//! reads its stream with.

use denizen_core::Generator;
use rand::Rng;

/// A value uniform on `0..n` (`n > 0`), unbiased, and the word it came from:
/// `word * n / 2^32`, a word redrawn when its low product falls in the short zone.
pub(crate) fn below(rng: &mut Generator, n: u32) -> (u32, u32) {
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
pub(crate) fn roll(dice: denizen_core::Dice, rng: &mut Generator) -> u32 {
    if dice.sides == 0 {
        return 0;
    }
    (0..dice.count).map(|_| below(rng, dice.sides).0 + 1).sum()
}
