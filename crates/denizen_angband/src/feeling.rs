//! The level feeling (source notes 2 and 3): the special rolls of nests, pits and vaults,
//! the rating bands and their ten messages, the 1000-turn rule, and the autoscummer's
//! thresholds.

use denizen_core::Generator;

use crate::rng::randint;

/// Game turns a player must spend on a level for the next one to get a feeling.
pub const FEELING_TURNS: u64 = 1000;

/// The rooms that may make a level special.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialRoom {
    /// A monster nest.
    Nest,
    /// A monster pit.
    Pit,
    /// A lesser vault.
    LesserVault,
    /// A greater vault.
    GreaterVault,
}

impl SpecialRoom {
    /// Every such room.
    pub const ALL: [SpecialRoom; 4] = [
        SpecialRoom::Nest,
        SpecialRoom::Pit,
        SpecialRoom::LesserVault,
        SpecialRoom::GreaterVault,
    ];

    /// The room's name on the command line (`nest`, `pit`, `lesser-vault`,
    /// `greater-vault`).
    pub fn name(self) -> &'static str {
        match self {
            SpecialRoom::Nest => "nest",
            SpecialRoom::Pit => "pit",
            SpecialRoom::LesserVault => "lesser-vault",
            SpecialRoom::GreaterVault => "greater-vault",
        }
    }

    /// Whether the room makes a level at `depth` special, and how that is decided: a
    /// filled nest or pit down to depth 40 when `randint(depth^2 + 1) < 300`; a vault
    /// always down to depth 50, then when `randint((depth - 40)^2 + 1) < 400`.
    pub fn special_test(self, depth: i32) -> SpecialTest {
        let depth = i64::from(depth);
        let roll = |sides: i64, below: i32| SpecialTest::Roll {
            sides: sides.clamp(1, i64::from(i32::MAX)) as i32,
            below,
        };
        match self {
            SpecialRoom::Nest | SpecialRoom::Pit if depth > 40 => SpecialTest::Never,
            SpecialRoom::Nest | SpecialRoom::Pit => roll(depth * depth + 1, 300),
            SpecialRoom::LesserVault | SpecialRoom::GreaterVault if depth <= 50 => {
                SpecialTest::Always
            }
            SpecialRoom::LesserVault | SpecialRoom::GreaterVault => {
                roll((depth - 40) * (depth - 40) + 1, 400)
            }
        }
    }
}

/// How a room decides whether the level is special: the one description the builders
/// roll and the odds read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialTest {
    /// Always special.
    Always,
    /// Never special.
    Never,
    /// Special when `randint(sides) < below`.
    Roll {
        /// The die.
        sides: i32,
        /// Rolls below this pass.
        below: i32,
    },
}

impl SpecialTest {
    /// Rolls the test (only a `Roll` draws).
    pub fn passes(self, rng: &mut Generator) -> bool {
        match self {
            SpecialTest::Always => true,
            SpecialTest::Never => false,
            SpecialTest::Roll { sides, below } => randint(rng, sides) < below,
        }
    }

    /// The exact chance it passes: rolls 1 to `below - 1` of `sides`.
    pub fn chance(self) -> f64 {
        match self {
            SpecialTest::Always => 1.0,
            SpecialTest::Never => 0.0,
            SpecialTest::Roll { sides, below } => {
                f64::from((below - 1).clamp(0, sides)) / f64::from(sides)
            }
        }
    }
}

/// The ten level feelings (2.7.9's codes 0 to 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Feeling {
    /// 0: the player left the previous level within 1000 game turns.
    LooksLikeAnyOther,
    /// 1: a nest, pit, vault or artifact made the level special.
    Special,
    /// 2: rating above 100.
    Superb,
    /// 3: rating above 80.
    Excellent,
    /// 4: rating above 60.
    VeryGood,
    /// 5: rating above 40.
    Good,
    /// 6: rating above 30.
    StrangelyLucky,
    /// 7: rating above 20.
    LuckTurning,
    /// 8: rating above 10.
    LikeTheLook,
    /// 9: rating above 0.
    NotAllBad,
    /// 10: rating 0.
    Boring,
}

/// The rating bands: a rating above the bound gives the feeling, first match wins.
const BANDS: [(i32, Feeling); 8] = [
    (100, Feeling::Superb),
    (80, Feeling::Excellent),
    (60, Feeling::VeryGood),
    (40, Feeling::Good),
    (30, Feeling::StrangelyLucky),
    (20, Feeling::LuckTurning),
    (10, Feeling::LikeTheLook),
    (0, Feeling::NotAllBad),
];

impl Feeling {
    /// The feeling of a level: the rating's band; special (unless in preserve mode)
    /// overrides it; and "looks like any other level" overrides both when the previous
    /// level was made fewer than [`FEELING_TURNS`] game turns ago.
    pub fn of(rating: i32, special: bool, preserve: bool, turns_since_last: Option<u64>) -> Self {
        if turns_since_last.is_some_and(|turns| turns < FEELING_TURNS) {
            return Feeling::LooksLikeAnyOther;
        }
        if special && !preserve {
            return Feeling::Special;
        }
        BANDS
            .iter()
            .find(|&&(above, _)| rating > above)
            .map_or(Feeling::Boring, |&(_, feeling)| feeling)
    }

    /// 2.7.9's code, 0 to 10.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The message the player reads.
    pub fn message(self) -> &'static str {
        match self {
            Feeling::LooksLikeAnyOther => "Looks like any other level.",
            Feeling::Special => "You feel there is something special about this level.",
            Feeling::Superb => "You have a superb feeling about this level.",
            Feeling::Excellent => "You have an excellent feeling...",
            Feeling::VeryGood => "You have a very good feeling...",
            Feeling::Good => "You have a good feeling...",
            Feeling::StrangelyLucky => "You feel strangely lucky...",
            Feeling::LuckTurning => "You feel your luck is turning...",
            Feeling::LikeTheLook => "You like the look of this place...",
            Feeling::NotAllBad => "This level can't be all bad...",
            Feeling::Boring => "What a boring place...",
        }
    }
}

/// The autoscummer's setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Autoscum {
    /// Every level is kept (2.7.9's default), unless its monster or object list filled.
    #[default]
    Off,
    /// Boring levels are rejected for the first [`SOMETIMES_TRIES`] attempts; after them
    /// a level is kept whatever it feels like (unless its monster or object list filled).
    Sometimes,
    /// Boring levels are always rejected. 2.7.9 has no limit; here the level after
    /// [`ALWAYS_TRIES`] levels thrown away is kept, so a rule set whose levels are never
    /// interesting (or always full) cannot hang the game.
    Always,
}

/// Levels "sometimes" may reject (the 101st is kept).
pub const SOMETIMES_TRIES: u32 = 100;
/// Levels thrown away, by the autoscummer or for a full monster list, before the next one
/// is kept anyway (2.7.9 has no limit on either).
pub const ALWAYS_TRIES: u32 = 100_000;

/// The lowest rating the autoscummer accepts at a depth (depths 1-4, 5-9, 10-19, 20-39,
/// 40 and deeper): the spoiler's chart.
pub fn autoscum_minimum(depth: i32) -> i32 {
    match depth {
        ..=4 => 1,
        5..=9 => 11,
        10..=19 => 21,
        20..=39 => 31,
        _ => 41,
    }
}

/// A level `make` returned to [`Autoscum::keep`]: what it is, how it feels, and whether
/// one of its lists filled.
#[derive(Clone, Debug)]
pub struct Made<T> {
    /// The level.
    pub level: T,
    /// Its feeling.
    pub feeling: Feeling,
    /// Whether its monster or object list filled: 2.7.9 then makes the level again whatever the
    /// autoscummer's setting.
    pub full: bool,
}

/// The levels made and thrown away before the one [`Autoscum::keep`] kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Discarded {
    /// Thrown away by the autoscummer for their feeling.
    pub rejected: u32,
    /// Made again because a list filled.
    pub remade: u32,
}

impl Autoscum {
    /// Makes levels with `make` until one is kept, and returns it with the levels thrown
    /// away, as 2.7.9's `generate_cave` loop: a level whose list filled is made again,
    /// then the autoscummer judges its feeling; the attempts of both kinds are counted
    /// together (so "sometimes" judges only the first [`SOMETIMES_TRIES`] attempts). Ends
    /// after at most [`ALWAYS_TRIES`] levels thrown away, keeping the last one made.
    pub fn keep<T>(self, depth: i32, mut make: impl FnMut() -> Made<T>) -> (T, Discarded) {
        let mut discarded = Discarded::default();
        loop {
            let made = make();
            let attempt = discarded.rejected + discarded.remade;
            if attempt >= ALWAYS_TRIES {
                return (made.level, discarded);
            }
            if made.full {
                discarded.remade += 1;
            } else if self.rejects(attempt, made.feeling, depth) {
                discarded.rejected += 1;
            } else {
                return (made.level, discarded);
            }
        }
    }

    /// Whether the autoscummer throws away the `attempt`-th level (from 0) with this
    /// feeling at `depth`. "Looks like any other level" and special levels always pass.
    pub fn rejects(self, attempt: u32, feeling: Feeling, depth: i32) -> bool {
        let active = match self {
            Autoscum::Off => false,
            Autoscum::Sometimes => attempt < SOMETIMES_TRIES,
            Autoscum::Always => attempt < ALWAYS_TRIES,
        };
        let code = feeling.code();
        active
            && (code == 10
                || (depth >= 5 && code >= 9)
                || (depth >= 10 && code >= 8)
                || (depth >= 20 && code >= 7)
                || (depth >= 40 && code >= 6))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_follow_the_spoilers_table() {
        // The spoiler: 101+ superb, 81-100 excellent, ..., 1-10 can't be all bad, 0 boring.
        let expected = [
            (101, Feeling::Superb),
            (100, Feeling::Excellent),
            (81, Feeling::Excellent),
            (80, Feeling::VeryGood),
            (61, Feeling::VeryGood),
            (60, Feeling::Good),
            (41, Feeling::Good),
            (40, Feeling::StrangelyLucky),
            (31, Feeling::StrangelyLucky),
            (30, Feeling::LuckTurning),
            (21, Feeling::LuckTurning),
            (20, Feeling::LikeTheLook),
            (11, Feeling::LikeTheLook),
            (10, Feeling::NotAllBad),
            (1, Feeling::NotAllBad),
            (0, Feeling::Boring),
        ];
        for (rating, feeling) in expected {
            assert_eq!(Feeling::of(rating, false, false, None), feeling, "{rating}");
        }
        assert_eq!(Feeling::of(0, true, false, None), Feeling::Special);
        assert_eq!(Feeling::of(0, true, true, None), Feeling::Boring);
        assert_eq!(
            Feeling::of(200, true, false, Some(999)),
            Feeling::LooksLikeAnyOther
        );
        assert_eq!(Feeling::of(200, false, false, Some(1000)), Feeling::Superb);
        assert_eq!(Feeling::Boring.code(), 10);
    }

    #[test]
    fn each_rating_band_gives_the_spoilers_message() {
        // The spoiler's table: the least rating of each band and its message.
        for (rating, message) in [
            (101, "You have a superb feeling about this level."),
            (81, "You have an excellent feeling..."),
            (61, "You have a very good feeling..."),
            (41, "You have a good feeling..."),
            (31, "You feel strangely lucky..."),
            (21, "You feel your luck is turning..."),
            (11, "You like the look of this place..."),
            (1, "This level can't be all bad..."),
            (0, "What a boring place..."),
        ] {
            assert_eq!(Feeling::of(rating, false, false, None).message(), message);
        }
    }

    #[test]
    fn a_special_test_passes_below_its_bound() {
        // A nest at depth 20: randint(20^2 + 1) < 300, so 299 rolls of 401 pass.
        let test = SpecialRoom::Nest.special_test(20);
        let mut rng = denizen_core::WorldSeed(6).stream(denizen_core::StreamPurpose::new("sp"));
        let n = 40_000;
        let passed = (0..n).filter(|_| test.passes(&mut rng)).count() as f64;
        let p = 299.0 / 401.0;
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        assert!((passed - f64::from(n) * p).abs() < 4.0 * sd, "{passed}");
    }

    /// The roll itself where `<` and `<=` part (the notes read the test strictly: a roll
    /// of 1 to 299 passes, 300 does not): a die of one side rolls 1, which passes below 2
    /// and not below 1; a die of two passes below 2 half the time, not always.
    #[test]
    fn a_special_roll_equal_to_its_bound_fails() {
        let mut rng = denizen_core::WorldSeed(7).stream(denizen_core::StreamPurpose::new("sp"));
        let roll = |sides, below| SpecialTest::Roll { sides, below };
        assert!(!roll(1, 1).passes(&mut rng));
        assert!(roll(1, 2).passes(&mut rng));
        let passed = (0..2_000).filter(|_| roll(2, 2).passes(&mut rng)).count();
        // 1,000 expected, sd 22.4; `<=` passes all 2,000.
        assert!((910..=1_090).contains(&passed), "{passed}");
        // The tests as the rules make them: a vault at depth 50 is special without a roll,
        // at 51 by randint(122) < 400, which always passes but draws.
        assert_eq!(
            SpecialRoom::LesserVault.special_test(50),
            SpecialTest::Always
        );
        assert_eq!(SpecialRoom::GreaterVault.special_test(51), roll(122, 400));
        // A nest at depth 40 rolls randint(1601) < 300; at 41 it is never special.
        assert_eq!(SpecialRoom::Nest.special_test(40), roll(1_601, 300));
        assert_eq!(SpecialRoom::Pit.special_test(41), SpecialTest::Never);
    }

    #[test]
    fn the_rooms_have_their_command_line_names() {
        let names = SpecialRoom::ALL.map(SpecialRoom::name);
        assert_eq!(names, ["nest", "pit", "lesser-vault", "greater-vault"]);
    }

    #[test]
    fn always_gives_up_after_its_tries() {
        assert!(Autoscum::Always.rejects(ALWAYS_TRIES - 1, Feeling::Boring, 1));
        assert!(!Autoscum::Always.rejects(ALWAYS_TRIES, Feeling::Boring, 1));
    }

    #[test]
    fn the_autoscummer_keeps_the_charts_minimum() {
        // A rating at the chart's minimum passes; one below it is rejected.
        for depth in 1..=127 {
            let minimum = autoscum_minimum(depth);
            let at = Feeling::of(minimum, false, false, None);
            let below = Feeling::of(minimum - 1, false, false, None);
            assert!(!Autoscum::Always.rejects(0, at, depth), "depth {depth}");
            assert!(Autoscum::Always.rejects(0, below, depth), "depth {depth}");
            assert!(!Autoscum::Off.rejects(0, below, depth));
            assert!(!Autoscum::Always.rejects(0, Feeling::Special, depth));
            assert!(!Autoscum::Always.rejects(0, Feeling::LooksLikeAnyOther, depth));
        }
        assert!(Autoscum::Sometimes.rejects(99, Feeling::Boring, 1));
        assert!(!Autoscum::Sometimes.rejects(100, Feeling::Boring, 1));
    }

    #[test]
    fn a_full_level_is_made_again_whatever_the_setting() {
        // Two full levels, then boring ones: every setting makes the level again twice;
        // "sometimes" counts the remade attempts among its 100.
        for (autoscum, made) in [
            (Autoscum::Off, 3),
            (Autoscum::Sometimes, 101),
            (Autoscum::Always, ALWAYS_TRIES + 1),
        ] {
            let mut calls = 0;
            let ((), discarded) = autoscum.keep(30, || {
                calls += 1;
                Made {
                    level: (),
                    feeling: Feeling::Boring,
                    full: calls <= 2,
                }
            });
            assert_eq!(calls, made, "{autoscum:?}");
            assert_eq!(
                discarded,
                Discarded {
                    rejected: made - 3,
                    remade: 2
                }
            );
        }
        // A level that always fills ends at the bound, kept anyway.
        let mut calls = 0;
        let ((), discarded) = Autoscum::Off.keep(30, || {
            calls += 1;
            Made {
                level: (),
                feeling: Feeling::Good,
                full: true,
            }
        });
        assert_eq!((calls, discarded.remade), (ALWAYS_TRIES + 1, ALWAYS_TRIES));
    }

    #[test]
    fn sometimes_makes_at_most_101_levels_and_off_one() {
        let boring = || Made {
            level: (),
            feeling: Feeling::Boring,
            full: false,
        };
        // Levels that are always boring: "sometimes" throws away 100 and keeps the 101st,
        // "off" keeps the first, "always" stops only at its bound.
        for (autoscum, made) in [
            (Autoscum::Off, 1),
            (Autoscum::Sometimes, 101),
            (Autoscum::Always, ALWAYS_TRIES + 1),
        ] {
            let mut calls = 0;
            let ((), discarded) = autoscum.keep(30, || {
                calls += 1;
                boring()
            });
            assert_eq!(
                (calls, discarded.rejected),
                (made, made - 1),
                "{autoscum:?}"
            );
            assert_eq!(discarded.remade, 0);
        }
        // An interesting level is kept at once.
        let mut calls = 0;
        Autoscum::Always.keep(30, || {
            calls += 1;
            Made {
                feeling: if calls < 3 {
                    Feeling::Boring
                } else {
                    Feeling::Good
                },
                ..boring()
            }
        });
        assert_eq!(calls, 3);
    }
}
