//! How many, as a designer writes it: dice with a bonus (`2d3+1`; `2d3-1`, floored at 0),
//! a range (`3-6`: one uniform draw on 3 to 6), or a number (`4`). Every count and hit
//! points of a tables file is one. The draw rolls it ([`Roll::roll`]) and the exact odds
//! weigh it ([`Roll::distribution`]); plain dice read the stream as the core's [`Dice`]
//! do, so a file written before bonuses and ranges draws the same.

use std::fmt;
use std::str::FromStr;

use denizen_core::fair::{below, roll};
use denizen_core::{Dice, Generator};

/// The largest bonus or penalty on dice.
pub const MAX_BONUS: u32 = 10_000;
/// The largest end of a range.
pub const MAX_RANGE: u32 = 1_000_000;

/// Dice with a bonus, or a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Roll {
    /// Dice plus `bonus` (negative: a penalty), the total floored at 0.
    Dice {
        /// The dice.
        dice: Dice,
        /// Added to the dice's total.
        bonus: i32,
    },
    /// A value uniform on `min..=max`.
    Range {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
    },
}

impl Roll {
    /// Plain dice: `count` dice of `sides` sides.
    pub const fn dice(count: u32, sides: u32) -> Self {
        Roll::Dice {
            dice: Dice::new(count, sides),
            bonus: 0,
        }
    }

    /// The least and greatest values.
    pub fn bounds(self) -> (u32, u32) {
        match self {
            Roll::Dice { dice, bonus } => {
                let (lo, hi) = dice.bounds();
                (add(lo, bonus), add(hi, bonus))
            }
            Roll::Range { min, max } => (min, max),
        }
    }

    /// One roll: the dice's total (each die by [`below`]) plus the bonus, floored at 0;
    /// or one value below the range's width added to its least (none drawn for a range
    /// of one value).
    #[inline(always)]
    pub fn roll(self, rng: &mut Generator) -> u32 {
        match self {
            Roll::Dice { dice, bonus } => add(roll(dice, rng), bonus),
            Roll::Range { min, max } if min == max => min,
            Roll::Range { min, max } => min + below(rng, max - min + 1).0,
        }
    }

    /// The exact distribution: entry `n` is the chance of `n`.
    pub fn distribution(self) -> Vec<f64> {
        match self {
            Roll::Dice { dice, bonus } => {
                let (_, hi) = self.bounds();
                let mut out = vec![0.0; hi as usize + 1];
                for (total, p) in dice_distribution(dice).into_iter().enumerate() {
                    out[add(total as u32, bonus) as usize] += p;
                }
                out
            }
            Roll::Range { min, max } => {
                let each = 1.0 / f64::from(max - min + 1);
                let mut out = vec![0.0; max as usize + 1];
                out[min as usize..].fill(each);
                out
            }
        }
    }
}

/// The distribution of a dice total: entry `n` is the chance the dice give `n`.
pub fn dice_distribution(dice: Dice) -> Vec<f64> {
    if dice.sides == 0 || dice.count == 0 {
        return vec![1.0];
    }
    let mut dist = vec![1.0];
    let face = 1.0 / f64::from(dice.sides);
    for _ in 0..dice.count {
        let mut next = vec![0.0; dist.len() + dice.sides as usize];
        for (total, p) in dist.iter().enumerate() {
            for roll in 1..=dice.sides as usize {
                next[total + roll] += p * face;
            }
        }
        dist = next;
    }
    dist
}

/// `value + bonus`, floored at 0.
fn add(value: u32, bonus: i32) -> u32 {
    (i64::from(value) + i64::from(bonus)).max(0) as u32
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Roll::Dice { dice, bonus: 0 } => write!(f, "{dice}"),
            Roll::Dice { dice, bonus } => write!(f, "{dice}{bonus:+}"),
            Roll::Range { min, max } if min == max => write!(f, "{min}"),
            Roll::Range { min, max } => write!(f, "{min}-{max}"),
        }
    }
}

/// A roll that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a roll: write dice (`2d6`), dice with a bonus (`2d3+1`, `2d3-1`), a range (`3-6`) or a number (`4`), bonuses at most {MAX_BONUS} and numbers at most {MAX_RANGE}"
)]
pub struct RollParseError(pub String);

impl FromStr for Roll {
    type Err = RollParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = || RollParseError(denizen_core::data::excerpt(text, 40));
        let number = |t: &str, max: u32| {
            let t = t.trim();
            // Digits only: no sign, no space inside.
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u32>().ok())
                .flatten()
                .filter(|&n| n <= max)
                .ok_or_else(fail)
        };
        let t = text.trim();
        if t.contains(['d', 'D']) {
            let (dice, bonus) = match t.find(['+', '-']) {
                Some(i) => {
                    let size = number(&t[i + 1..], MAX_BONUS)? as i32;
                    (&t[..i], if &t[i..=i] == "-" { -size } else { size })
                }
                None => (t, 0),
            };
            let dice: Dice = dice.trim().parse().map_err(|_| fail())?;
            return Ok(Roll::Dice { dice, bonus });
        }
        match t.split_once('-') {
            Some((min, max)) => {
                let (min, max) = (number(min, MAX_RANGE)?, number(max, MAX_RANGE)?);
                (min <= max)
                    .then_some(Roll::Range { min, max })
                    .ok_or_else(fail)
            }
            None => {
                let n = number(t, MAX_RANGE)?;
                Ok(Roll::Range { min: n, max: n })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_parse_as_designers_write_them_and_print_back() {
        for (text, roll) in [
            ("2d6", Roll::dice(2, 6)),
            (
                "2d3+1",
                Roll::Dice {
                    dice: Dice::new(2, 3),
                    bonus: 1,
                },
            ),
            (
                "2d3-1",
                Roll::Dice {
                    dice: Dice::new(2, 3),
                    bonus: -1,
                },
            ),
            ("3-6", Roll::Range { min: 3, max: 6 }),
            ("4", Roll::Range { min: 4, max: 4 }),
        ] {
            assert_eq!(text.parse::<Roll>(), Ok(roll), "{text}");
            assert_eq!(roll.to_string(), text);
        }
        for bad in [
            "",
            "d",
            "2d",
            "6-3",
            "-3",
            "2d3+",
            "2d3+-1",
            "3-",
            "x",
            "2d3*2",
            "1-1000001",
        ] {
            assert!(bad.parse::<Roll>().is_err(), "{bad}");
        }
        assert!("2d3+10000".parse::<Roll>().is_ok());
        assert!("2d3+10001".parse::<Roll>().is_err());
    }

    /// By hand: 2d3 gives 2..6 as 1:2:3:2:1 ninths; +1 shifts it to 3..7; -3 floors 2
    /// and 3 at 0 (1/9 + 2/9) and moves 4, 5, 6 to 1, 2, 3. A range of 3-6 gives each of
    /// 3..6 a quarter.
    #[test]
    fn distributions_are_exact() {
        let ninths = |v: &[u32]| v.iter().map(|&n| f64::from(n) / 9.0).collect::<Vec<_>>();
        let close = |a: Vec<f64>, b: Vec<f64>| {
            assert_eq!(a.len(), b.len(), "{a:?} {b:?}");
            assert!(
                a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-15),
                "{a:?} {b:?}"
            );
        };
        close(
            "2d3+1".parse::<Roll>().unwrap().distribution(),
            ninths(&[0, 0, 0, 1, 2, 3, 2, 1]),
        );
        close(
            "2d3-3".parse::<Roll>().unwrap().distribution(),
            ninths(&[3, 3, 2, 1]),
        );
        close(
            "3-6".parse::<Roll>().unwrap().distribution(),
            vec![0.0, 0.0, 0.0, 0.25, 0.25, 0.25, 0.25],
        );
        assert_eq!("2d3-3".parse::<Roll>().unwrap().bounds(), (0, 3));
    }

    #[test]
    fn dice_distributions_are_exact() {
        let two_d3 = dice_distribution(Dice::new(2, 3));
        let ninths: Vec<f64> = [0, 0, 1, 2, 3, 2, 1]
            .iter()
            .map(|&n| f64::from(n) / 9.0)
            .collect();
        assert_eq!(two_d3.len(), ninths.len());
        for (a, b) in two_d3.iter().zip(&ninths) {
            assert!((a - b).abs() < 1e-15);
        }
        assert_eq!(dice_distribution(Dice::new(0, 6)), vec![1.0]);
        assert_eq!(dice_distribution(Dice::new(1, 1)), vec![0.0, 1.0]);
    }
}
