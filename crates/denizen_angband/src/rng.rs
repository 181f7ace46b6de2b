//! Angband's dice helpers over denizen's seeded generator, with the original's edge cases:
//! a range of one value (or none) gives its only value and draws nothing.
//!
//! The values follow 2.7.9's `rand_int`, `randint`, `rand_range` and `rand_spread`; the
//! words come from denizen's ChaCha8 stream, unbiased, so a seed's levels are reproducible
//! on every platform (the original reseeds from the clock and its stream cannot be
//! reproduced anyway).

use denizen_core::Generator;
use denizen_core::rng::uniform;

use crate::cave::Pos;

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

/// Several independent dice from one word: a value uniform on `0..outcomes`, read die by
/// die as the digits of a mixed-radix number, the first die the lowest digit. With
/// `outcomes` the product of the dice's sides, each die is uniform and independent of the
/// others, exactly as separate draws are. The original draws its dice one by one and only
/// when a rule reaches them; a loop that rolls the same dice every pass draws them all
/// at once here, for one word and no branch on what an earlier die said. A die the rule
/// does not reach is not read, which changes nothing about the ones it does.
pub(crate) struct Rolls {
    value: u32,
    /// The outcomes the unread dice still share: a debug check that they fit.
    left: u32,
}

impl Rolls {
    /// One word for dice whose sides multiply to `outcomes`.
    #[inline]
    pub(crate) fn draw(rng: &mut Generator, outcomes: u32) -> Self {
        debug_assert!(outcomes > 0, "dice with no outcomes");
        let value = if outcomes <= 1 {
            0
        } else {
            uniform(rng, outcomes)
        };
        Self {
            value,
            left: outcomes,
        }
    }

    /// The next die: `rand_int(sides)`, uniform on `0..sides`.
    #[inline]
    pub(crate) fn rand0(&mut self, sides: u32) -> i32 {
        debug_assert!(
            sides > 0 && self.left.is_multiple_of(sides),
            "a die of {sides} sides does not divide the {} outcomes left",
            self.left
        );
        self.left /= sides;
        let die = self.value % sides;
        self.value /= sides;
        die as i32
    }
}

/// `rand_range` on both axes from one word: a grid uniform on the rectangle from
/// `top_left` to `bottom_right`, corners inclusive (each side at least one grid).
#[inline]
pub(crate) fn grid_in(rng: &mut Generator, top_left: Pos, bottom_right: Pos) -> Pos {
    let rows = u32::try_from(bottom_right.y - top_left.y + 1).expect("at least one row");
    let columns = u32::try_from(bottom_right.x - top_left.x + 1).expect("at least one column");
    let outcomes = rows
        .checked_mul(columns)
        .expect("a rectangle within the map");
    let mut rolls = Rolls::draw(rng, outcomes);
    let y = top_left.y + rolls.rand0(rows);
    let x = top_left.x + rolls.rand0(columns);
    Pos::new(y, x)
}

/// `rand_spread` on both axes from one word: a grid within `dy` rows and `dx` columns of
/// `centre`, each offset uniform.
#[inline]
pub(crate) fn spread_grid(rng: &mut Generator, centre: Pos, dy: i32, dx: i32) -> Pos {
    let (dy, dx) = (dy.max(0), dx.max(0));
    grid_in(
        rng,
        Pos::new(centre.y - dy, centre.x - dx),
        Pos::new(centre.y + dy, centre.x + dx),
    )
}

/// 2.7.9's `randnor_table` (`src/z-rand.c`, tag v2.7.9v6): for each step `j` of a
/// standard normal deviate in 64ths, the end of its share of the 32,768 values of
/// `rand_int(32768)`: a value `t` picks the first step whose end is at least `t` (the
/// source's binary search; layout notes 8.5), so step 0 takes 208 values and step 255,
/// whose end is 32,768, none. Public so that exact odds of `randnor` can be worked out
/// from it.
pub const RANDNOR_TABLE: [u16; 256] = [
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
pub const RANDNOR_STEPS_PER_SD: i32 = 64;

/// `randnor(mean, stand)`: about normal with that mean and deviation. A value of
/// `rand_int(32768)` picks its step in the table, the offset is
/// `stand * step / 64`, and a `rand_int(100) < 50` roll picks its sign. A deviation below
/// 1 gives the mean without a draw.
pub fn randnor(rng: &mut Generator, mean: i32, stand: i32) -> i32 {
    if stand < 1 {
        return mean;
    }
    let t = rand0(rng, 32_768);
    let step = RANDNOR_TABLE.partition_point(|&end| i32::from(end) < t) as i32;
    let offset = stand * step / RANDNOR_STEPS_PER_SD;
    if magik(rng, 50) {
        mean - offset
    } else {
        mean + offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};
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

    /// The joint counts of a die of 3 and a die of 4 read from one draw by `read`.
    fn joint_counts(seed: u64, read: impl Fn(&mut Rolls) -> (i32, i32)) -> [u64; 12] {
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("rolls"));
        let mut counts = [0u64; 12];
        for _ in 0..60_000 {
            let (a, b) = read(&mut Rolls::draw(&mut rng, 12));
            counts[(a * 4 + b) as usize] += 1;
        }
        counts
    }

    #[test]
    fn dice_from_one_word_are_uniform_and_independent() {
        let p_of = |counts: [u64; 12]| ChiSquared::against(&counts, [1.0 / 12.0; 12]).p_value();
        let right = joint_counts(7, |r| (r.rand0(3), r.rand0(4)));
        assert!(p_of(right) > 1e-6, "{right:?}");
        // A wrong reading must be caught: the second die read from the first one's
        // digit again instead of the next.
        let wrong = joint_counts(7, |r| {
            let a = r.rand0(3);
            (a, a)
        });
        assert!(p_of(wrong) < 1e-6, "{wrong:?}");
    }

    /// Dice that do not share the word's outcomes are a caller's mistake, caught in
    /// debug builds even when the first die fits (12 outcomes: a die of 3 leaves 4, which
    /// a die of 5 does not divide).
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "does not divide the 4 outcomes left")]
    fn dice_past_the_word_are_refused() {
        let mut rng = WorldSeed(9).stream(StreamPurpose::new("rolls"));
        let mut rolls = Rolls::draw(&mut rng, 12);
        rolls.rand0(3);
        rolls.rand0(5);
    }

    /// `magik(p)` passes `p` times in 100: 80 in 100 at 80 (81, the roll's tie counted
    /// the other way, is rejected); never at 0, always at 100.
    #[test]
    fn magik_passes_p_times_in_a_hundred() {
        let mut rng = WorldSeed(4).stream(StreamPurpose::new("magik"));
        let mut counts = [0u64; 2];
        for _ in 0..200_000 {
            counts[usize::from(!magik(&mut rng, 80))] += 1;
        }
        let p = ChiSquared::against(&counts, [0.8, 0.2]).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
        let p = ChiSquared::against(&counts, [0.81, 0.19]).p_value();
        assert!(p < 1e-6, "{counts:?} p = {p}");
        assert!((0..1000).all(|_| !magik(&mut rng, 0) && magik(&mut rng, 100)));
    }

    #[test]
    fn a_grid_from_one_word_covers_its_rectangle_evenly() {
        let mut rng = WorldSeed(8).stream(StreamPurpose::new("rolls"));
        let (top_left, bottom_right) = (Pos::new(2, 5), Pos::new(4, 8));
        let mut counts = [0u64; 12];
        for _ in 0..60_000 {
            let at = grid_in(&mut rng, top_left, bottom_right);
            assert!((2..=4).contains(&at.y) && (5..=8).contains(&at.x), "{at:?}");
            counts[((at.y - 2) * 4 + at.x - 5) as usize] += 1;
        }
        let p = ChiSquared::against(&counts, [1.0 / 12.0; 12]).p_value();
        assert!(p > 1e-6, "{counts:?}");
        let at = spread_grid(&mut rng, Pos::new(9, 9), 0, 0);
        assert_eq!(at, Pos::new(9, 9));
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
