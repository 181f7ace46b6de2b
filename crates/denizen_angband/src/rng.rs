//! Angband's dice helpers over denizen's seeded generator, with the original's edge cases:
//! a range of one value (or none) gives its only value and draws nothing.
//!
//! The values follow 2.7.9's `rand_int`, `randint`, `rand_range` and `rand_spread`; the
//! words come from denizen's ChaCha8 stream, unbiased, so a seed's levels are reproducible
//! on every platform (the original reseeds from the clock and its stream cannot be
//! reproduced anyway).

use denizen_core::Generator;
use denizen_core::rng::uniform;

/// `rand_int(m)`: uniform on `0..m`; 0 without a draw when `m <= 1`.
#[inline]
pub fn rand0(rng: &mut Generator, m: i32) -> i32 {
    if m <= 1 {
        0
    } else {
        uniform(rng, m as u32) as i32
    }
}

/// `randint(m)`: uniform on `1..=m`; 1 without a draw when `m <= 1`.
#[inline]
pub fn randint(rng: &mut Generator, m: i32) -> i32 {
    rand0(rng, m) + 1
}

/// `rand_range(a, b)`: uniform on `a..=b`; `a` without a draw when `b <= a`.
#[inline]
pub fn rand_range(rng: &mut Generator, a: i32, b: i32) -> i32 {
    a + rand0(rng, b - a + 1)
}

/// `rand_spread(a, d)`: uniform on `a - d..=a + d`; `a` without a draw when `d <= 0`.
#[inline]
pub fn rand_spread(rng: &mut Generator, a: i32, d: i32) -> i32 {
    a + rand0(rng, 2 * d + 1) - d
}

/// `magik(p)`: true with probability `p`%.
#[inline]
pub fn magik(rng: &mut Generator, p: i32) -> bool {
    rand0(rng, 100) < p
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{StreamPurpose, WorldSeed};
    use rand::Rng;

    #[test]
    fn one_value_ranges_draw_nothing() {
        let mut a = WorldSeed(5).stream(StreamPurpose::new("rng"));
        let mut b = WorldSeed(5).stream(StreamPurpose::new("rng"));
        assert_eq!(rand0(&mut a, 1), 0);
        assert_eq!(rand0(&mut a, 0), 0);
        assert_eq!(randint(&mut a, 1), 1);
        assert_eq!(randint(&mut a, -3), 1);
        assert_eq!(rand_range(&mut a, 4, 4), 4);
        assert_eq!(rand_spread(&mut a, 7, 0), 7);
        assert_eq!(a.next_u32(), b.next_u32(), "no word was drawn");
    }

    #[test]
    fn ranges_cover_their_values() {
        let mut rng = WorldSeed(6).stream(StreamPurpose::new("rng"));
        let mut seen = [false; 7];
        for _ in 0..2000 {
            let v = rand_spread(&mut rng, 10, 3);
            assert!((7..=13).contains(&v));
            seen[(v - 7) as usize] = true;
            let r = rand_range(&mut rng, 3, 4);
            assert!((3..=4).contains(&r));
        }
        assert!(seen.iter().all(|&s| s));
    }
}
