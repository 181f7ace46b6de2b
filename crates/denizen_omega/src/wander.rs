//! Later arrivals: the ten-minute wandering check, and summoning next to a square.

use rand::Rng;
use serde::{Deserialize, Serialize};

use denizen_core::floor::{FloorGrid, Square, Tile};
use denizen_core::plan::{Origin, Spawn};

use crate::construct::{Builder, Monster};
use crate::findspace::find_space;
use crate::rng::{self, BUCKETS, buckets_below};
use crate::select::Selector;
use crate::species::SpeciesId;
use crate::species::StatusSet;

/// Omega's `wandercheck`: a creature arrives when `R(max depth of the dungeon) <
/// difficulty`. One description serves the check and its exact chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WanderRule {
    /// The dungeon's number of levels (the `R` range).
    pub max_depth: u32,
    /// The current difficulty.
    pub difficulty: i64,
}

impl WanderRule {
    /// Whether this check brings an arrival.
    pub fn passes<R: Rng + ?Sized>(&self, rng: &mut R) -> bool {
        i64::from(rng::range(rng, self.max_depth)) < self.difficulty
    }

    /// The exact chance that a check brings an arrival (1 when difficulty exceeds every
    /// value the draw can give, as on the Astral Plane).
    pub fn probability(&self) -> f64 {
        let below = u32::try_from(self.difficulty.max(0)).unwrap_or(u32::MAX);
        f64::from(buckets_below(below, self.max_depth)) / f64::from(BUCKETS)
    }

    /// One check: if it passes, a square by the floor search, then a creature from the
    /// ordinary pool at the current difficulty, marked wandering. The source does not
    /// turn a water-only arrival's square to water, and neither does this. `None` when the
    /// check fails or the floor is full.
    pub fn check<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        grid: &FloorGrid,
        pool: &Selector,
        builder: &mut Builder<'_>,
    ) -> Option<Spawn<Monster>> {
        if !self.passes(rng) {
            return None;
        }
        let at = find_space(grid, rng)?;
        let species = pool.sample(rng);
        let mut monster = builder.build(rng, species);
        monster.status.insert(StatusSet::WANDERING);
        Some(Spawn {
            at,
            origin: Origin::WANDERING_ARRIVAL,
            creature: monster,
        })
    }
}

/// The eight neighbours of a square in the order the source tries them.
pub const NEIGHBOURS: [(i64, i64); 8] = [
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
];

/// The neighbours of `at` inside the first quadrant, in [`NEIGHBOURS`] order.
fn neighbours(at: Square) -> impl DoubleEndedIterator<Item = Square> {
    NEIGHBOURS.iter().filter_map(move |&(dx, dy)| {
        let x = u32::try_from(i64::from(at.x) + dx).ok()?;
        let y = u32::try_from(i64::from(at.y) + dy).ok()?;
        Some(Square { x, y })
    })
}

/// The first neighbour of `at`, in [`NEIGHBOURS`] order, that is floor and holds no
/// creature.
pub fn summon_square(grid: &FloorGrid, at: Square) -> Option<Square> {
    neighbours(at).find(|&square| grid.tile(square) == Tile::Floor && !grid.is_occupied(square))
}

/// The statues that come alive when the one at `at` wakes, in the order they wake: Omega's
/// `wake_statue` turns a statue square to floor, makes its monster, then wakes each of its
/// eight neighbours that is still a statue, in [`NEIGHBOURS`] order, depth first. Empty
/// when `at` is not a statue. (Walked with a stack, not recursion: a floor of statues
/// would otherwise nest as deep as it has statues.)
pub fn statues_woken(grid: &FloorGrid, at: Square) -> Vec<Square> {
    let mut woken = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![at];
    while let Some(square) = stack.pop() {
        if grid.tile(square) != crate::tile::STATUE || !seen.insert(square) {
            continue;
        }
        woken.push(square);
        // Pushed in reverse, so the first neighbour's whole chain wakes before the
        // second is looked at, as the recursion does.
        stack.extend(neighbours(square).rev());
    }
    woken
}

/// What a summoning makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Summoning {
    /// Any template of the whole bestiary (`R(150)` in Omega), made hostile: items,
    /// traps and hostile magic.
    Hostile,
    /// The ordinary pool at the local difficulty, wandering: the summoning spell and
    /// monsters' own summons.
    Ordinary,
    /// This species.
    Named(SpeciesId),
}

/// Why a summoning made nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum SummonFailure {
    /// None of the eight neighbours is free floor.
    NoFreeSquare,
    /// The named species is not in the bestiary, or there is no pool to draw from.
    NothingEligible,
}

/// Omega's `summon`: the template is drawn first (for `Hostile`), then the first free
/// neighbour is found; with none free, or a `Named` species the bestiary does not hold,
/// nothing is made and the reason is returned.
pub fn summon<R: Rng + ?Sized>(
    rng: &mut R,
    kind: Summoning,
    grid: &FloorGrid,
    at: Square,
    pool: &Selector,
    builder: &mut Builder<'_>,
) -> Result<Spawn<Monster>, SummonFailure> {
    let chosen = match kind {
        Summoning::Hostile => {
            let count = builder.bestiary.species().len() as u32;
            Some(SpeciesId(rng::range(rng, count) as u16))
        }
        Summoning::Named(id) => {
            builder
                .bestiary
                .try_get(id)
                .ok_or(SummonFailure::NothingEligible)?;
            Some(id)
        }
        Summoning::Ordinary => None,
    };
    let square = summon_square(grid, at).ok_or(SummonFailure::NoFreeSquare)?;
    let species = chosen.unwrap_or_else(|| pool.sample(rng));
    let mut monster = builder.build(rng, species);
    match kind {
        Summoning::Hostile => monster.status.insert(StatusSet::HOSTILE),
        Summoning::Ordinary => monster.status.insert(StatusSet::WANDERING),
        Summoning::Named(_) => {}
    }
    Ok(Spawn {
        at: square,
        origin: Origin::SUMMONING,
        creature: monster,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_match_the_source_notes() {
        let chance = |max_depth, difficulty| {
            WanderRule {
                max_depth,
                difficulty,
            }
            .probability()
        };
        // Sewers (18 levels) at difficulties 3..6: R(18) is uneven.
        let sewers: Vec<f64> = (3..=6).map(|d| chance(18, d)).collect();
        for (got, expected) in sewers.iter().zip([0.1667, 0.2223, 0.2778, 0.3334]) {
            assert!((got - expected).abs() < 1e-12, "{got}");
        }
        assert_eq!(chance(5, 8), 1.0, "the astral plane is certain");
        assert!((chance(10, 1) - 0.1).abs() < 1e-12);
        assert!((chance(20, 10) - 0.5).abs() < 1e-12);
    }

    use crate::OmegaRules;
    use crate::construct::{Chronicle, Preference};
    use crate::objects::ItemLedger;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    fn with_builder<T>(rules: &OmegaRules, f: impl FnOnce(&mut Builder<'_>) -> T) -> T {
        let mut ledger = ItemLedger::new(rules.bestiary.items());
        f(&mut Builder {
            bestiary: &rules.bestiary,
            ledger: &mut ledger,
            chronicle: &Chronicle::default(),
            preference: Preference::Either,
            temple_deity: None,
            difficulty: 5,
        })
    }

    /// Sewers depth 12 (difficulty 5): `R(18) < 5` brings an arrival in 2,778 of 10,000
    /// buckets; 20,000 checks stay within four standard deviations of it, and every
    /// arrival is a wandering creature of the ordinary pool on a free square.
    #[test]
    fn checks_bring_arrivals_at_the_exact_rate() {
        let rules = OmegaRules::shipped();
        let rule = WanderRule {
            max_depth: 18,
            difficulty: 5,
        };
        let grid = crate::reference::reference_floor(WorldSeed(2), "sewers", 12);
        let pool = Selector::ordinary_pool(&rules.bestiary, 5).unwrap();
        let pool_odds = crate::Odds::of(&pool);
        let mut rng = WorldSeed(2).stream(StreamPurpose::new("wander"));
        let n = 20_000;
        let arrivals = with_builder(&rules, |builder| {
            (0..n)
                .filter_map(|_| rule.check(&mut rng, &grid, &pool, builder))
                .inspect(|spawn| {
                    assert_eq!(spawn.origin, Origin::WANDERING_ARRIVAL);
                    assert!(spawn.creature.wandering());
                    assert!(pool_odds.species(spawn.creature.species) > 0.0);
                    assert!(grid.is_acceptable(spawn.at));
                })
                .count()
        });
        let p = 0.2778;
        let sigma = (f64::from(n) * p * (1.0 - p)).sqrt();
        let expected = f64::from(n) * p;
        assert!(
            (arrivals as f64 - expected).abs() < 4.0 * sigma,
            "{arrivals}"
        );
        assert_eq!(rule.probability(), p);
    }

    /// The neighbours are tried in the order of Omega's direction table `Dirs`: the four
    /// diagonals (+1,+1), (+1,-1), (-1,+1), (-1,-1), then (+1,0), (-1,0), (0,+1), (0,-1).
    #[test]
    fn neighbours_are_tried_in_the_sources_order() {
        let mut grid =
            FloorGrid::from_rows(&["#####", "#...#", "#...#", "#...#", "#####"]).unwrap();
        let centre = Square { x: 2, y: 2 };
        let mut order = Vec::new();
        while let Some(at) = summon_square(&grid, centre) {
            order.push((i64::from(at.x) - 2, i64::from(at.y) - 2));
            grid.set_occupied(at, true);
        }
        assert_eq!(
            order,
            [
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1)
            ]
        );
    }

    /// Waking statues spread to statue neighbours depth first, in the source's
    /// direction order. Worked by hand on this floor (statues `*`):
    ///
    /// ```text
    ///   x 0 1 2 3 4
    /// y 0 # # # # #
    ///   1 # * . * #
    ///   2 # . * . #
    ///   3 # * . * *
    ///   4 # # # # #
    /// ```
    ///
    /// From (2,2), its first neighbour (+1,+1) is the statue (3,3); (3,3)'s neighbours in
    /// order are (4,4) wall, (4,2) wall, (2,4) wall, (2,2) awake, then (+1,0) the statue
    /// (4,3), which has no statue neighbour left. So (2,2), (3,3), (4,3); then (2,2)'s
    /// (+1,-1) = (3,1), (-1,+1) = (1,3) and (-1,-1) = (1,1). A floor square wakes
    /// nothing.
    #[test]
    fn statues_wake_their_statue_neighbours_depth_first() {
        let grid = FloorGrid::from_rows(&["#####", "#*.*#", "#.*.#", "#*.**", "#####"]).unwrap();
        let at = |x, y| Square { x, y };
        assert_eq!(
            statues_woken(&grid, at(2, 2)),
            [at(2, 2), at(3, 3), at(4, 3), at(3, 1), at(1, 3), at(1, 1)]
        );
        assert_eq!(
            statues_woken(&grid, at(1, 3)).len(),
            6,
            "one connected group"
        );
        assert!(statues_woken(&grid, at(2, 1)).is_empty());
        // Statue (0,0) of a lone corner wakes alone.
        let lone = FloorGrid::from_rows(&["*.", ".."]).unwrap();
        assert_eq!(statues_woken(&lone, at(0, 0)), [at(0, 0)]);
    }

    /// What each kind of summoning makes (source notes, summoning): any template made
    /// hostile, the local pool made wandering, or the named species; next to the square.
    #[test]
    fn summonings_make_what_they_name() {
        let rules = OmegaRules::shipped();
        let grid = FloorGrid::from_rows(&["###", "#..", "###"]).unwrap();
        let at = Square { x: 1, y: 1 };
        let pool = Selector::ordinary_pool(&rules.bestiary, 2).unwrap();
        let pool_odds = crate::Odds::of(&pool);
        let goblin = rules.bestiary.species_id("goblin").unwrap();
        let mut rng = WorldSeed(3).stream(StreamPurpose::new("summon"));
        let mut hostile_species = std::collections::BTreeSet::new();
        with_builder(&rules, |builder| {
            for _ in 0..300 {
                let hostile = summon(&mut rng, Summoning::Hostile, &grid, at, &pool, builder);
                let hostile = hostile.unwrap();
                assert!(hostile.creature.hostile());
                assert_eq!(
                    (hostile.at, hostile.origin),
                    (Square { x: 2, y: 1 }, Origin::SUMMONING)
                );
                hostile_species.insert(hostile.creature.species);
                let ordinary = summon(&mut rng, Summoning::Ordinary, &grid, at, &pool, builder);
                let ordinary = ordinary.unwrap().creature;
                assert!(ordinary.wandering() && pool_odds.species(ordinary.species) > 0.0);
            }
            let named = summon(
                &mut rng,
                Summoning::Named(goblin),
                &grid,
                at,
                &pool,
                builder,
            );
            assert_eq!(named.unwrap().creature.species, goblin);
            let unknown = SpeciesId(u16::try_from(rules.bestiary.species().len()).unwrap());
            let nothing = summon(
                &mut rng,
                Summoning::Named(unknown),
                &grid,
                at,
                &pool,
                builder,
            );
            assert_eq!(
                nothing.unwrap_err(),
                SummonFailure::NothingEligible,
                "an id past the bestiary makes nothing"
            );
            let closet = FloorGrid::from_rows(&["###", "#.#", "###"]).unwrap();
            let centre = Square { x: 1, y: 1 };
            let trapped = summon(
                &mut rng,
                Summoning::Ordinary,
                &closet,
                centre,
                &pool,
                builder,
            );
            assert_eq!(trapped.unwrap_err(), SummonFailure::NoFreeSquare);
        });
        // R(150) reaches the reserved templates and the whole bestiary, not just the pool.
        assert!(hostile_species.len() > 100, "{}", hostile_species.len());
        assert!(
            hostile_species
                .iter()
                .any(|s| !rules.bestiary.is_ordinary(*s))
        );
    }

    #[test]
    fn summoning_takes_the_first_free_neighbour() {
        let mut grid =
            FloorGrid::from_rows(&["#####", "#...#", "#...#", "#...#", "#####"]).unwrap();
        let centre = Square { x: 2, y: 2 };
        assert_eq!(summon_square(&grid, centre), Some(Square { x: 3, y: 3 }));
        grid.set_occupied(Square { x: 3, y: 3 }, true);
        assert_eq!(summon_square(&grid, centre), Some(Square { x: 3, y: 1 }));
        for (dx, dy) in NEIGHBOURS {
            let s = Square {
                x: (2 + dx) as u32,
                y: (2 + dy) as u32,
            };
            grid.set_occupied(s, true);
        }
        assert_eq!(summon_square(&grid, centre), None);
        // Off-grid neighbours are skipped; (1, 1) is the corner's only floor neighbour.
        assert_eq!(summon_square(&grid, Square { x: 0, y: 0 }), None);
        grid.set_occupied(Square { x: 1, y: 1 }, false);
        assert_eq!(
            summon_square(&grid, Square { x: 0, y: 0 }),
            Some(Square { x: 1, y: 1 })
        );
    }
}
