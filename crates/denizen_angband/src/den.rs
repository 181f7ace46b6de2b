//! Monster nests and pits (source notes 4 and 5): which kind a room holds, the filter
//! its 16 draws go through, how a pit ranks them into rings, and the exact odds of each.

use denizen_core::Generator;

use crate::alloc::{Allocator, DrawRequest, RaceFilter, UniqueLedger};
use crate::flags::{InnateFlags, RaceFlags};
use crate::race::RaceId;
use crate::rng::randint;

/// How many races a nest or pit draws.
pub const DRAWS: usize = 16;
/// How many levels deeper than the dungeon a nest or pit draws.
pub const LEVEL_OFFSET: i32 = 10;
/// The rings of a pit, outside (0) to centre (7).
pub const RINGS: usize = 8;
/// The grids of each ring, outside to centre (95 in all).
pub const RING_CELLS: [u32; RINGS] = [44, 12, 12, 12, 6, 6, 2, 1];

/// What a nest or pit holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum DenKind {
    /// Icky things, jellies, molds and mushroom patches (`i j m ,`).
    NestJelly,
    /// Natural creatures (`ANIMAL`).
    NestAnimal,
    /// Undead (`UNDEAD`).
    NestUndead,
    /// Orcs (`o`).
    PitOrc,
    /// Trolls (`T`).
    PitTroll,
    /// Giants drawn as `P`.
    PitGiant,
    /// Dragons breathing lightning alone.
    PitDragonBlue,
    /// Dragons breathing frost alone.
    PitDragonWhite,
    /// Dragons breathing poison alone.
    PitDragonGreen,
    /// Dragons breathing acid alone.
    PitDragonBlack,
    /// Dragons breathing fire alone.
    PitDragonRed,
    /// Dragons breathing exactly the five basic breaths.
    PitDragonMultihued,
    /// Greater demons (`U`).
    PitDemon,
}

/// The nest kinds by `randint(depth)`: the first whose bound the roll is below.
const NEST_KINDS: [(i32, DenKind); 3] = [
    (30, DenKind::NestJelly),
    (50, DenKind::NestAnimal),
    (i32::MAX, DenKind::NestUndead),
];

/// The pit kinds by `randint(depth)`: the first whose bound the roll is below.
const PIT_KINDS: [(i32, DenKind); 10] = [
    (20, DenKind::PitOrc),
    (40, DenKind::PitTroll),
    (60, DenKind::PitGiant),
    (63, DenKind::PitDragonBlue),
    (66, DenKind::PitDragonWhite),
    (69, DenKind::PitDragonGreen),
    (72, DenKind::PitDragonBlack),
    (75, DenKind::PitDragonRed),
    (80, DenKind::PitDragonMultihued),
    (i32::MAX, DenKind::PitDemon),
];

impl DenKind {
    /// Every kind, nests first.
    pub const ALL: [DenKind; 13] = [
        DenKind::NestJelly,
        DenKind::NestAnimal,
        DenKind::NestUndead,
        DenKind::PitOrc,
        DenKind::PitTroll,
        DenKind::PitGiant,
        DenKind::PitDragonBlue,
        DenKind::PitDragonWhite,
        DenKind::PitDragonGreen,
        DenKind::PitDragonBlack,
        DenKind::PitDragonRed,
        DenKind::PitDragonMultihued,
        DenKind::PitDemon,
    ];

    /// The kind's name on the command line (`nest-jelly`, `pit-dragon-red`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DenKind::NestJelly => "nest-jelly",
            DenKind::NestAnimal => "nest-animal",
            DenKind::NestUndead => "nest-undead",
            DenKind::PitOrc => "pit-orc",
            DenKind::PitTroll => "pit-troll",
            DenKind::PitGiant => "pit-giant",
            DenKind::PitDragonBlue => "pit-dragon-blue",
            DenKind::PitDragonWhite => "pit-dragon-white",
            DenKind::PitDragonGreen => "pit-dragon-green",
            DenKind::PitDragonBlack => "pit-dragon-black",
            DenKind::PitDragonRed => "pit-dragon-red",
            DenKind::PitDragonMultihued => "pit-dragon-multihued",
            DenKind::PitDemon => "pit-demon",
        }
    }

    /// The kind named `name` on the command line.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether it is a pit (ranked rings) rather than a nest (mixed).
    pub fn is_pit(self) -> bool {
        !matches!(
            self,
            DenKind::NestJelly | DenKind::NestAnimal | DenKind::NestUndead
        )
    }

    /// The kind table of nests or pits.
    fn table(pit: bool) -> &'static [(i32, DenKind)] {
        if pit { &PIT_KINDS } else { &NEST_KINDS }
    }

    /// The kind a roll of `randint(depth)` gives.
    fn of_roll(roll: i32, pit: bool) -> DenKind {
        let table = Self::table(pit);
        table
            .iter()
            .find(|&&(bound, _)| roll < bound)
            .unwrap_or(&table[table.len() - 1])
            .1
    }

    /// Rolls a nest's or pit's kind at `depth`: `randint(depth)` against the kind table.
    pub fn roll(rng: &mut Generator, depth: i32, pit: bool) -> DenKind {
        Self::of_roll(randint(rng, depth), pit)
    }

    /// The exact chance of each kind of nest (or pit) at `depth`: each roll of
    /// `randint(depth)` is equally likely, and each is read as [`roll`](Self::roll) reads
    /// it. Kinds that cannot come up are left out.
    pub fn odds(depth: i32, pit: bool) -> Vec<(DenKind, f64)> {
        let depth = depth.max(1);
        let table = Self::table(pit);
        // Every roll from the last bound up gives the last kind: those past it are counted
        // at once.
        let read = depth.min(table[table.len() - 2].0);
        let mut rolls: Vec<(DenKind, i32)> = Vec::new();
        for roll in 1..=read {
            let kind = Self::of_roll(roll, pit);
            match rolls.last_mut() {
                Some((last, n)) if *last == kind => *n += 1,
                _ => rolls.push((kind, 1)),
            }
        }
        if let Some((_, n)) = rolls.last_mut() {
            *n += depth - read;
        }
        rolls
            .into_iter()
            .map(|(kind, n)| (kind, f64::from(n) / f64::from(depth)))
            .collect()
    }

    /// The filter the kind's draws go through. Every filter refuses uniques, and that is
    /// its only other test: breeders are allowed, as in 2.7.9.
    pub fn filter(self) -> RaceFilter {
        let symbols = |s: &str| RaceFilter {
            symbols: Some(s.chars().collect()),
            forbidden: RaceFlags::UNIQUE,
            ..RaceFilter::default()
        };
        let breath = |set: InnateFlags| RaceFilter {
            breaths: Some(set),
            ..symbols("dD")
        };
        let flag = |flag: RaceFlags| RaceFilter {
            required: flag,
            forbidden: RaceFlags::UNIQUE,
            ..RaceFilter::default()
        };
        match self {
            DenKind::NestJelly => symbols("ijm,"),
            DenKind::NestAnimal => flag(RaceFlags::ANIMAL),
            DenKind::NestUndead => flag(RaceFlags::UNDEAD),
            DenKind::PitOrc => symbols("o"),
            DenKind::PitTroll => symbols("T"),
            DenKind::PitGiant => symbols("P"),
            DenKind::PitDragonBlue => breath(InnateFlags::BR_ELEC),
            DenKind::PitDragonWhite => breath(InnateFlags::BR_COLD),
            DenKind::PitDragonGreen => breath(InnateFlags::BR_POIS),
            DenKind::PitDragonBlack => breath(InnateFlags::BR_ACID),
            DenKind::PitDragonRed => breath(InnateFlags::BR_FIRE),
            DenKind::PitDragonMultihued => breath(
                InnateFlags::BR_ACID
                    | InnateFlags::BR_ELEC
                    | InnateFlags::BR_FIRE
                    | InnateFlags::BR_COLD
                    | InnateFlags::BR_POIS,
            ),
            DenKind::PitDemon => symbols("U"),
        }
    }

    /// The request of one of the kind's draws at `depth`.
    pub fn request<'a>(
        filter: &'a RaceFilter,
        depth: i32,
        live: &'a UniqueLedger,
    ) -> DrawRequest<'a> {
        DrawRequest::new(depth.saturating_add(LEVEL_OFFSET), depth, live).filtered(filter)
    }
}

/// The ring of a pit's interior grid at offset (`dy`, `dx`) from the centre (`dy` in
/// -2..=2, `dx` in -9..=9): 0 outside to 7 at the centre.
pub fn ring_of(dy: i32, dx: i32) -> usize {
    match (dy.abs(), dx.abs()) {
        (2, _) | (_, 9) => 0,
        (_, 7 | 8) => 1,
        (_, 5 | 6) => 2,
        (_, 3 | 4) => 3,
        (_, 2) => 4,
        (1, _) => 5,
        (0, 1) => 6,
        _ => 7,
    }
}

/// A pit's rings from its 16 draws: sorted by race level (a stable sort, so equal levels
/// keep their draw order), every second one from the shallowest, ring 0 (outside) to 7.
pub fn rings(allocator: &Allocator, drawn: &[RaceId; DRAWS]) -> [RaceId; RINGS] {
    let level = |id: RaceId| allocator.races().get(id).map_or(0, |race| race.level);
    let mut sorted = *drawn;
    sorted.sort_by_key(|&id| level(id));
    std::array::from_fn(|ring| sorted[2 * ring])
}

/// The exact race of each ring of a pit of `kind` at `depth`, given that all 16 draws
/// succeed (a failed draw leaves the room empty): ring `r` is the draw at sorted position
/// `2r`. A race at level `l` is there when fewer than `2r + 1` draws lie below `l` and
/// more than `2r` at or below it; among the draws at `l`, each race in proportion to its
/// per-draw chance.
pub fn ring_odds(allocator: &Allocator, kind: DenKind, depth: i32) -> Vec<(usize, RaceId, f64)> {
    let filter = kind.filter();
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DenKind::request(&filter, depth, &live));
    let succeed: f64 = odds.races.iter().map(|o| o.probability).sum();
    if succeed <= 0.0 {
        return Vec::new();
    }
    let level = |id: RaceId| allocator.races().get(id).map_or(0, |race| race.level);
    let at_level = |l: u8| -> f64 {
        odds.races
            .iter()
            .filter(|o| level(o.race) == l)
            .map(|o| o.probability / succeed)
            .sum()
    };
    let below = |l: u8| -> f64 {
        odds.races
            .iter()
            .filter(|o| level(o.race) < l)
            .map(|o| o.probability / succeed)
            .sum()
    };
    let mut rows = Vec::new();
    for ring in 0..RINGS {
        let k = 2 * ring as u32;
        for o in &odds.races {
            let l = level(o.race);
            let (low, share) = (below(l), at_level(l));
            let there = binomial_at_most(DRAWS as u32, low, k)
                - binomial_at_most(DRAWS as u32, (low + share).min(1.0), k);
            rows.push((ring, o.race, there * (o.probability / succeed) / share));
        }
    }
    rows.retain(|&(_, _, p)| p > 0.0);
    rows
}

/// `P(X <= k)` for `X` binomial with `n` trials of chance `p`.
fn binomial_at_most(n: u32, p: f64, k: u32) -> f64 {
    if p >= 1.0 {
        return if k >= n { 1.0 } else { 0.0 };
    }
    let mut term = (1.0 - p).powi(n as i32);
    let mut total = 0.0;
    for i in 0..=k.min(n) {
        if i > 0 {
            term *= f64::from(n - i + 1) / f64::from(i) * p / (1.0 - p);
        }
        total += term;
    }
    total.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_count_44_12_12_12_6_6_2_1() {
        let mut counts = [0u32; RINGS];
        for dy in -2..=2 {
            for dx in -9..=9 {
                counts[ring_of(dy, dx)] += 1;
            }
        }
        assert_eq!(counts, RING_CELLS);
        assert_eq!(ring_of(0, 0), 7);
        assert_eq!(ring_of(0, -1), 6);
        assert_eq!(ring_of(-1, 1), 5);
    }

    #[test]
    fn binomial_tails_are_right_at_the_edges() {
        // C(16, 0) + ... + C(16, 7) = 26,333 of 2^16.
        assert!((binomial_at_most(16, 0.5, 7) - 26_333.0 / 65_536.0).abs() < 1e-12);
        assert_eq!(binomial_at_most(16, 0.0, 0), 1.0);
        assert_eq!(binomial_at_most(16, 1.0, 15), 0.0);
        assert_eq!(binomial_at_most(16, 1.0, 16), 1.0);
    }
}
