//! A row's weight at a depth (its depth range and shape) and the exact chances the files
//! write as `"1/25"`: the integer rules both the draw and the exact odds read.

use std::fmt;
use std::str::FromStr;

use denizen_core::Generator;
use serde::Deserialize;

/// The deepest depth a file may name: depths, ranges and out-of-depth boosts stay in
/// `0..=MAX_DEPTH`.
pub const MAX_DEPTH: u32 = 250;

/// The largest weight a row may have: a table of [`MAX_ENTRIES`](crate::MAX_ENTRIES) rows
/// totals less than `u32::MAX`, the widest uniform draw.
pub const MAX_WEIGHT: u32 = 100_000;

/// How a row's weight `w` changes over its depth range `[min, max]`. With `s = max - min`
/// and floor division, at a depth `d` in the range:
///
/// | shape | weight |
/// |---|---|
/// | `Flat` | `w` |
/// | `Rise` | `w (d - min + 1) / (s + 1)` |
/// | `Fall` | `w (max - d + 1) / (s + 1)` |
/// | `Peak` | `w (1 + min(d - min, max - d)) / (1 + s / 2)` |
///
/// Outside the range the weight is 0, and a row whose weight is 0 at a depth is not
/// eligible there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
pub enum Shape {
    /// The same weight over the whole range.
    #[default]
    Flat,
    /// Growing from `w / (s + 1)` at `min` to `w` at `max`.
    Rise,
    /// Falling from `w` at `min` to `w / (s + 1)` at `max`.
    Fall,
    /// Growing to `w` in the middle of the range and falling again.
    Peak,
}

/// A depth range `[min, max]`, both ends included, written `(min, max)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub struct Depths(pub u32, pub u32);

impl Depths {
    /// The shallowest depth.
    pub fn min(self) -> u32 {
        self.0
    }

    /// The deepest depth.
    pub fn max(self) -> u32 {
        self.1
    }

    /// Whether `depth` lies in the range.
    pub fn contains(self, depth: u32) -> bool {
        (self.0..=self.1).contains(&depth)
    }

    /// Every depth of the range.
    pub fn iter(self) -> std::ops::RangeInclusive<u32> {
        self.0..=self.1
    }
}

impl fmt::Display for Depths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.0, self.1)
    }
}

impl Shape {
    /// The weight at `depth` of a row of weight `w` over `range` (the table above). The
    /// range is checked at load (`min <= max <= MAX_DEPTH`, `w <= MAX_WEIGHT`), so no step
    /// overflows.
    pub fn weight(self, w: u32, range: Depths, depth: u32) -> u64 {
        crate::work::count(1);
        if !range.contains(depth) {
            return 0;
        }
        let (w, d, min, max) = (
            u64::from(w),
            u64::from(depth),
            u64::from(range.0),
            u64::from(range.1),
        );
        let s = max - min;
        match self {
            Shape::Flat => w,
            Shape::Rise => w * (d - min + 1) / (s + 1),
            Shape::Fall => w * (max - d + 1) / (s + 1),
            Shape::Peak => w * (1 + (d - min).min(max - d)) / (1 + s / 2),
        }
    }

    /// The depths where [`weight`](Self::weight) is above 0: one range inside `range`
    /// (each shape rises, falls or rises then falls, so its zeros are at the ends), or
    /// none. Worked from the table above: with `k = ceil(s' / w)` for the shape's divisor
    /// `s'`, a `Rise` is positive from `min + k - 1`, a `Fall` to `max - k + 1`, a `Peak`
    /// between both. A test checks it against `weight` at every depth.
    pub fn positive(self, w: u32, range: Depths) -> Option<Depths> {
        crate::work::count(1);
        let (min, max) = (range.0, range.1);
        if w == 0 || min > max {
            return None;
        }
        let s = max - min;
        let steps = |divisor: u32| divisor.div_ceil(w) - 1;
        let (from, to) = match self {
            Shape::Flat => (min, max),
            Shape::Rise => (min + steps(s + 1), max),
            Shape::Fall => (min, max - steps(s + 1)),
            Shape::Peak => {
                let k = steps(1 + s / 2);
                (min + k, max.saturating_sub(k))
            }
        };
        (from <= to).then_some(Depths(from, to))
    }
}

/// An exact chance `num in den` (`0 <= num <= den`, `1 <= den <= 1,000,000`), written
/// `"1/25"` in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct Chance {
    num: u32,
    den: u32,
}

/// The largest denominator a chance may have.
pub const MAX_DENOMINATOR: u32 = 1_000_000;

impl Chance {
    /// Never.
    pub const NEVER: Chance = Chance { num: 0, den: 1 };
    /// Always.
    pub const ALWAYS: Chance = Chance { num: 1, den: 1 };

    /// `num` in `den`, when `den` is 1 to [`MAX_DENOMINATOR`] and `num` at most `den`.
    pub fn new(num: u32, den: u32) -> Option<Self> {
        ((1..=MAX_DENOMINATOR).contains(&den) && num <= den).then_some(Self { num, den })
    }

    /// The numerator.
    pub fn num(self) -> u32 {
        self.num
    }

    /// The denominator.
    pub fn den(self) -> u32 {
        self.den
    }

    /// The chance as a probability.
    pub fn probability(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// One roll: a value uniform on `0..den` is below `num`. A chance of 0 or 1 draws
    /// nothing, so a file that never uses a chance never moves the stream for it.
    pub fn roll(self, rng: &mut Generator) -> bool {
        if self.num == 0 {
            false
        } else if self.num == self.den {
            true
        } else {
            denizen_core::fair::below(rng, self.den).0 < self.num
        }
    }
}

impl fmt::Display for Chance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl FromStr for Chance {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = || {
            format!(
                "`{text}` is not a chance: expected N/D with 0 <= N <= D, 1 <= D <= {MAX_DENOMINATOR}, such as 1/25"
            )
        };
        let (num, den) = text.split_once('/').ok_or_else(fail)?;
        let num = num.trim().parse().map_err(|_| fail())?;
        let den = den.trim().parse().map_err(|_| fail())?;
        Chance::new(num, den).ok_or_else(fail)
    }
}

impl TryFrom<String> for Chance {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `positive` is exactly the depths where `weight` is above 0, for every shape, every
    /// weight up to 130 and those about the widest span (251), every range up to 214 wide
    /// (ranges from 0 and from 37, so the formulas' `min` shows).
    #[test]
    fn positive_is_where_the_weight_is_above_zero() {
        for shape in [Shape::Flat, Shape::Rise, Shape::Fall, Shape::Peak] {
            for min in [0, 37] {
                for span in 0..=(MAX_DEPTH - 37) {
                    let range = Depths(min, min + span);
                    for w in (0..=130).chain([250, 251, 252, MAX_WEIGHT]) {
                        let depths: Vec<u32> = range
                            .iter()
                            .filter(|&d| shape.weight(w, range, d) > 0)
                            .collect();
                        let expected = depths.first().map(|&f| Depths(f, *depths.last().unwrap()));
                        if let Some(e) = expected {
                            assert_eq!(depths.len() as u32, e.1 - e.0 + 1, "{shape:?} {w} {range}");
                        }
                        assert_eq!(shape.positive(w, range), expected, "{shape:?} {w} {range}");
                    }
                }
            }
        }
    }

    /// The shapes' weights at the depths where an off-by-one in `d - min + 1`, `s + 1` or
    /// `1 + s / 2` changes the answer, worked by hand from the definitions.
    #[test]
    fn shapes_at_their_edges() {
        let r = Depths(3, 7); // s = 4
        assert_eq!(Shape::Flat.weight(10, r, 3), 10);
        assert_eq!(Shape::Flat.weight(10, r, 2), 0);
        assert_eq!(Shape::Flat.weight(10, r, 8), 0);
        // Rise: 10 * 1 / 5 = 2 at min, 10 * 5 / 5 = 10 at max.
        assert_eq!(Shape::Rise.weight(10, r, 3), 2);
        assert_eq!(Shape::Rise.weight(10, r, 4), 4);
        assert_eq!(Shape::Rise.weight(10, r, 7), 10);
        // Fall mirrors it.
        assert_eq!(Shape::Fall.weight(10, r, 3), 10);
        assert_eq!(Shape::Fall.weight(10, r, 7), 2);
        // Peak: 1 + s/2 = 3; at 3: 10 * 1 / 3 = 3; at 5: 10 * 3 / 3 = 10; at 6: 10 * 2 / 3 = 6.
        assert_eq!(Shape::Peak.weight(10, r, 3), 3);
        assert_eq!(Shape::Peak.weight(10, r, 5), 10);
        assert_eq!(Shape::Peak.weight(10, r, 6), 6);
        // An odd span: s = 3, 1 + s/2 = 2 (floor): at 4 and 5 the weight is 10 * 2 / 2.
        let odd = Depths(3, 6);
        assert_eq!(Shape::Peak.weight(10, odd, 4), 10);
        assert_eq!(Shape::Peak.weight(10, odd, 3), 5);
        // Rounding to 0: 2 * 1 / 5 = 0 at the shallow end of a rise.
        assert_eq!(Shape::Rise.weight(2, r, 3), 0);
        assert_eq!(Shape::Rise.weight(2, r, 5), 1);
        // A one-depth range: s = 0, every shape is w.
        for shape in [Shape::Flat, Shape::Rise, Shape::Fall, Shape::Peak] {
            assert_eq!(shape.weight(7, Depths(4, 4), 4), 7, "{shape:?}");
        }
        // The largest weight over the widest range does not overflow.
        let wide = Depths(0, MAX_DEPTH);
        assert_eq!(
            Shape::Rise.weight(MAX_WEIGHT, wide, MAX_DEPTH),
            u64::from(MAX_WEIGHT)
        );
    }

    #[test]
    fn chances_parse_within_bounds() {
        assert_eq!("1/25".parse::<Chance>(), Ok(Chance::new(1, 25).unwrap()));
        assert_eq!(" 3 / 4 ".parse::<Chance>().unwrap().to_string(), "3/4");
        for bad in ["1/0", "5/4", "1", "a/b", "1/1000001", "-1/2"] {
            assert!(bad.parse::<Chance>().is_err(), "{bad}");
        }
        assert!("1/1000000".parse::<Chance>().is_ok());
    }
}
