//! Which kind of room one placement attempt tries, and the exact odds of it.
//!
//! The original walks a fixed chain of room kinds: an "unusual" roll, a shared `k` roll
//! and a "special" roll decide which links are open, and a link whose build fails (no
//! space, too shallow, a second nest or pit) falls through to the next. The chain is
//! written once, as [`CHAIN`], and read both by the generator and by
//! [`first_choice_odds`], so the odds cannot drift from what the generator does.

use denizen_core::{Generator, Room};

use crate::rng::rand0;

/// A room kind as the attempt chain names it, in chain order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum RoomChoice {
    /// Type 8: a greater vault.
    GreaterVault,
    /// Type 7: a lesser vault.
    LesserVault,
    /// Type 6: a monster pit.
    Pit,
    /// Type 5: a monster nest.
    Nest,
    /// Type 4: a large room with an inner room.
    Large,
    /// Type 3: a cross-shaped room.
    Cross,
    /// Type 2: two overlapping rectangles.
    Overlap,
    /// Type 1: a simple rectangle.
    Simple,
}

impl RoomChoice {
    /// Every kind, in chain order (the order of [`first_choice_odds`]).
    pub const ALL: [RoomChoice; 8] = [
        RoomChoice::GreaterVault,
        RoomChoice::LesserVault,
        RoomChoice::Pit,
        RoomChoice::Nest,
        RoomChoice::Large,
        RoomChoice::Cross,
        RoomChoice::Overlap,
        RoomChoice::Simple,
    ];

    /// A stable lowercase name for tables and tools, and the kind the neutral floor's
    /// rooms record.
    pub fn name(self) -> &'static str {
        match self {
            RoomChoice::GreaterVault => "greater_vault",
            RoomChoice::LesserVault => "lesser_vault",
            RoomChoice::Pit => "pit",
            RoomChoice::Nest => "nest",
            RoomChoice::Large => "large",
            RoomChoice::Cross => "cross",
            RoomChoice::Overlap => "overlap",
            RoomChoice::Simple => "simple",
        }
    }

    /// The original's room type number, 1 (simple) to 8 (greater vault).
    pub fn type_number(self) -> u8 {
        8 - self as u8
    }

    /// The kind a neutral floor's room records by its name.
    pub fn of_room(room: &Room) -> Option<RoomChoice> {
        RoomChoice::ALL.into_iter().find(|k| k.name() == room.kind)
    }

    /// The shallowest depth the kind may be built at.
    pub fn min_depth(self) -> i32 {
        CHAIN[self as usize].min_depth
    }
}

/// Which of the attempt's rolls must have passed for a chain link to be open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// The unusual and the special roll.
    Special,
    /// The unusual roll.
    Unusual,
    /// None: the last resort of every attempt.
    Always,
}

/// One link of the attempt chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStep {
    /// The kind this link tries.
    pub kind: RoomChoice,
    /// The link is open only when the shared roll `k` (0..100) is below this (ignored by
    /// [`Gate::Always`], which is tried whether or not `k` was rolled).
    pub k_below: i32,
    /// The rolls the link needs.
    pub gate: Gate,
    /// The shallowest depth the kind may be built at (the room table's level column).
    pub min_depth: i32,
}

/// The attempt chain in the order it is walked (source notes 1.4; minimum depths from
/// the layout notes 1.6). Indexed by `RoomChoice as usize`.
pub const CHAIN: [ChainStep; 8] = [
    ChainStep {
        kind: RoomChoice::GreaterVault,
        k_below: 10,
        gate: Gate::Special,
        min_depth: 10,
    },
    ChainStep {
        kind: RoomChoice::LesserVault,
        k_below: 25,
        gate: Gate::Special,
        min_depth: 5,
    },
    ChainStep {
        kind: RoomChoice::Pit,
        k_below: 40,
        gate: Gate::Special,
        min_depth: 5,
    },
    ChainStep {
        kind: RoomChoice::Nest,
        k_below: 50,
        gate: Gate::Special,
        min_depth: 5,
    },
    ChainStep {
        kind: RoomChoice::Large,
        k_below: 25,
        gate: Gate::Unusual,
        min_depth: 3,
    },
    ChainStep {
        kind: RoomChoice::Cross,
        k_below: 50,
        gate: Gate::Unusual,
        min_depth: 3,
    },
    ChainStep {
        kind: RoomChoice::Overlap,
        k_below: K_DIE,
        gate: Gate::Unusual,
        min_depth: 1,
    },
    ChainStep {
        kind: RoomChoice::Simple,
        k_below: K_DIE,
        gate: Gate::Always,
        min_depth: 1,
    },
];

/// Sides of the unusual and of the special roll: each passes when `rand0(200) < depth`.
pub const UNUSUAL_DIE: i32 = 200;
/// Sides of the shared `k` roll.
pub const K_DIE: i32 = 100;
/// A level deeper than this may be destroyed...
pub const DESTROY_FROM_BELOW: i32 = 10;
/// ... with a chance of one in this many.
pub const DESTROY_DIE: i32 = 15;
/// Rooms of types 1-4 are lit when `depth <= randint(25)`.
pub const LIGHT_DIE: i32 = 25;

/// The depth a level is built at: Angband's dungeon runs from 1 to 127, and any other
/// depth is held to that range.
pub fn dungeon_depth(depth: i32) -> i32 {
    depth.clamp(1, 127)
}

/// The rolls of one attempt on a level that is not destroyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttemptRoll {
    /// `rand0(200) < depth`.
    pub unusual: bool,
    /// The shared roll (0 when the unusual roll failed and it was not drawn).
    pub k: i32,
    /// `rand0(200) < depth`, drawn only after a passed unusual roll.
    pub special: bool,
}

impl AttemptRoll {
    /// Draws the rolls in the original's order: unusual, then `k` and special only if it
    /// passed.
    pub fn draw(rng: &mut Generator, depth: i32) -> Self {
        let unusual = rand0(rng, UNUSUAL_DIE) < depth;
        if !unusual {
            return Self {
                unusual,
                k: 0,
                special: false,
            };
        }
        let k = rand0(rng, K_DIE);
        let special = rand0(rng, UNUSUAL_DIE) < depth;
        Self {
            unusual,
            k,
            special,
        }
    }

    /// Whether a link is open for these rolls at `depth` (space and the one nest or pit
    /// per level are the builder's to check).
    pub fn opens(&self, step: &ChainStep, depth: i32) -> bool {
        let gate = match step.gate {
            Gate::Special => self.unusual && self.special && self.k < step.k_below,
            Gate::Unusual => self.unusual && self.k < step.k_below,
            Gate::Always => true,
        };
        gate && depth >= step.min_depth
    }

    /// The kinds the attempt tries, in order, until one is built.
    pub fn candidates(self, depth: i32) -> impl Iterator<Item = RoomChoice> {
        CHAIN
            .iter()
            .filter(move |step| self.opens(step, depth))
            .map(|step| step.kind)
    }

    /// The first kind the attempt tries.
    pub fn first(self, depth: i32) -> RoomChoice {
        self.candidates(depth).next().unwrap_or(RoomChoice::Simple)
    }
}

/// The chance that one placement attempt on a level at `depth` first tries each kind: the
/// first link of the chain whose rolls and minimum depth allow it (space and the
/// one-nest-or-pit rule are ignored). `destroyed_included`: true = over all levels at
/// that depth, where a destroyed level (1 in 15 from depth 11; levels are assumed not to
/// be quest levels) tries only simple rooms; false = on a level that is not destroyed.
///
/// Computed as exact integer weights over every value of the rolls, divided once. Depths
/// outside 1-127 are taken as the nearest (see [`dungeon_depth`]).
pub fn first_choice_odds(depth: i32, destroyed_included: bool) -> [(RoomChoice, f64); 8] {
    let depth = dungeon_depth(depth);
    let pass = u64::try_from(depth.min(UNUSUAL_DIE)).unwrap_or(0);
    let fail = UNUSUAL_DIE as u64 - pass;
    let die = UNUSUAL_DIE as u64;
    // Every outcome weighs die (unusual) x K_DIE (k) x die (special) in total.
    let mut weights = [0u64; 8];
    weights[RoomChoice::Simple as usize] += fail * K_DIE as u64 * die;
    for k in 0..K_DIE {
        for (special, weight) in [(true, pass), (false, fail)] {
            let roll = AttemptRoll {
                unusual: true,
                k,
                special,
            };
            weights[roll.first(depth) as usize] += pass * weight;
        }
    }
    let mut total = die * K_DIE as u64 * die;
    if destroyed_included && rolls_for_destruction(depth) {
        let destroy = DESTROY_DIE as u64;
        for w in &mut weights {
            *w *= destroy - 1;
        }
        weights[RoomChoice::Simple as usize] += total;
        total *= destroy;
    }
    RoomChoice::ALL.map(|kind| (kind, weights[kind as usize] as f64 / total as f64))
}

/// The chance that a room of types 1-4 is lit at `depth`: `(26 - depth) / 25`, clipped to
/// 0..=1 (nests, pits and vaults are never lit).
pub fn lit_chance(depth: i32) -> f64 {
    let lit_faces = (LIGHT_DIE + 1 - depth).clamp(0, LIGHT_DIE);
    f64::from(lit_faces) / f64::from(LIGHT_DIE)
}

/// Whether a level at `depth` rolls [`DESTROY_DIE`] for destruction: deeper than
/// [`DESTROY_FROM_BELOW`] (a quest level rolls too, and is then kept whole).
pub fn rolls_for_destruction(depth: i32) -> bool {
    depth > DESTROY_FROM_BELOW
}

/// The chance that a level at `depth` is destroyed: 1/15 deeper than 10, never on a quest
/// level.
pub fn destroyed_chance(depth: i32, quest: bool) -> f64 {
    if quest || !rolls_for_destruction(depth) {
        0.0
    } else {
        1.0 / f64::from(DESTROY_DIE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_is_indexed_by_kind() {
        for (i, step) in CHAIN.iter().enumerate() {
            assert_eq!(step.kind as usize, i);
            assert_eq!(RoomChoice::ALL[i], step.kind);
        }
        assert_eq!(RoomChoice::Simple.type_number(), 1);
        assert_eq!(RoomChoice::GreaterVault.type_number(), 8);
        assert_eq!(RoomChoice::GreaterVault.min_depth(), 10);
    }

    #[test]
    fn a_failed_greater_vault_falls_to_the_lesser_then_the_pit() {
        let roll = AttemptRoll {
            unusual: true,
            k: 3,
            special: true,
        };
        let tried: Vec<_> = roll.candidates(20).collect();
        use RoomChoice::*;
        assert_eq!(
            tried,
            [
                GreaterVault,
                LesserVault,
                Pit,
                Nest,
                Large,
                Cross,
                Overlap,
                Simple
            ]
        );
        let plain = AttemptRoll {
            unusual: false,
            k: 0,
            special: false,
        };
        assert_eq!(plain.candidates(50).collect::<Vec<_>>(), [Simple]);
    }

    /// Each of the attempt's two `rand0(200) < depth` rolls fails one time in 200 at
    /// depth 199 (the special roll only after a passed unusual one, and neither it nor
    /// `k` set after a failed one); a roll that also passed at `rand0(200) == depth`
    /// would never fail there.
    #[test]
    fn each_roll_fails_one_time_in_200_at_depth_199() {
        use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("attempt"));
        // unusual failed; unusual passed and special failed; both passed
        let mut counts = [0u64; 3];
        for _ in 0..40_000 {
            let roll = AttemptRoll::draw(&mut rng, 199);
            let cell = match (roll.unusual, roll.special) {
                (false, special) => {
                    assert!(!special && roll.k == 0, "{roll:?}");
                    0
                }
                (true, false) => 1,
                (true, true) => 2,
            };
            counts[cell] += 1;
        }
        let fail = 1.0 / 200.0;
        let odds = [fail, (1.0 - fail) * fail, (1.0 - fail) * (1.0 - fail)];
        let p = ChiSquared::against(&counts, odds).p_value();
        assert!(p > 1e-6, "{counts:?} p = {p}");
        let p = ChiSquared::against(&counts, [fail, 0.0, 1.0 - fail]).p_value();
        assert!(p < 1e-6, "{counts:?} p = {p}");
    }
}
