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

/// 2.7.9's `randnor_table` (`src/z-rand.c`, tag v2.7.9v6): for each step `j` of a
/// standard normal deviate in 64ths, how many of the 32,768 values of `rand_int(32768)`
/// fall below its end: a value `t` picks the first step whose count exceeds it.
const RANDNOR_TABLE: [u16; 256] = [
    207, 614, 1023, 1431, 1839, 2246, 2653, 3059, 3464, 3868, 4272, 4674, 5076, 5476, 5875, 6272,
    6668, 7062, 7455, 7846, 8235, 8622, 9007, 9390, 9771, 10149, 10525, 10899, 11270, 11639, 12005,
    12368, 12728, 13086, 13441, 13793, 14141, 14487, 14829, 15169, 15505, 15837, 16167, 16493,
    16815, 17134, 17450, 17762, 18070, 18375, 18676, 18973, 19267, 19557, 19843, 20125, 20404,
    20679, 20950, 21217, 21480, 21739, 21995, 22246, 22494, 22738, 22978, 23214, 23447, 23675,
    23900, 24121, 24337, 24551, 24760, 24966, 25167, 25366, 25560, 25751, 25938, 26121, 26301,
    26477, 26650, 26819, 26984, 27147, 27305, 27461, 27613, 27761, 27907, 28049, 28188, 28324,
    28456, 28586, 28712, 28836, 28956, 29074, 29189, 29300, 29410, 29516, 29620, 29721, 29819,
    29915, 30008, 30099, 30187, 30273, 30357, 30438, 30517, 30594, 30669, 30741, 30811, 30880,
    30946, 31011, 31073, 31134, 31193, 31250, 31305, 31359, 31411, 31461, 31510, 31557, 31602,
    31647, 31689, 31731, 31771, 31809, 31847, 31883, 31918, 31951, 31984, 32015, 32045, 32075,
    32103, 32130, 32156, 32181, 32206, 32229, 32252, 32274, 32295, 32315, 32334, 32353, 32371,
    32388, 32405, 32421, 32436, 32451, 32465, 32478, 32491, 32504, 32516, 32527, 32538, 32549,
    32559, 32569, 32578, 32587, 32596, 32604, 32612, 32619, 32626, 32633, 32640, 32646, 32652,
    32658, 32663, 32668, 32673, 32678, 32683, 32687, 32691, 32695, 32699, 32703, 32706, 32709,
    32712, 32715, 32718, 32721, 32723, 32726, 32728, 32730, 32732, 32734, 32736, 32738, 32740,
    32741, 32743, 32744, 32746, 32747, 32748, 32749, 32750, 32751, 32752, 32753, 32754, 32755,
    32756, 32757, 32758, 32758, 32759, 32759, 32760, 32761, 32761, 32762, 32762, 32762, 32763,
    32763, 32764, 32764, 32764, 32765, 32765, 32765, 32765, 32766, 32766, 32766, 32766, 32767,
    32767, 32767, 32767, 32768,
];
/// The steps of [`RANDNOR_TABLE`] per standard deviation.
const RANDNOR_STEPS_PER_SD: i32 = 64;

/// `randnor(mean, stand)`: about normal with that mean and deviation. A value of
/// `rand_int(32768)` picks its step in the table, the offset is
/// `stand * step / 64`, and a `rand_int(100) < 50` roll picks its sign. A deviation below
/// 1 gives the mean without a draw.
pub fn randnor(rng: &mut Generator, mean: i32, stand: i32) -> i32 {
    if stand < 1 {
        return mean;
    }
    let t = rand0(rng, 32_768);
    let step = RANDNOR_TABLE.partition_point(|&covered| i32::from(covered) <= t) as i32;
    let offset = stand * step / RANDNOR_STEPS_PER_SD;
    if rand0(rng, 100) < 50 {
        mean - offset
    } else {
        mean + offset
    }
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
