//! Populating a floor: Omega's `populate_level` as a pure plan (count, then for each
//! placement the square first and then the species, construction, water).

use denizen_core::floor::{FloorGrid, Square, Tile};
use denizen_core::plan::{Origin, Plan, Spawn};
use rand::Rng;

use crate::construct::{Builder, Monster};
use crate::findspace::find_free;
use crate::location::{Environment, FixedInhabitant, Level, Scatter};
use crate::rng;
use crate::species::{SpeciesId, Status};

/// A floor's population as planned: the placements the count rule asked for, and what
/// was placed. (Changes to unique items are made in the builder's ledger.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorPlan {
    /// Placements the count rule asked for.
    pub requested: u32,
    /// The monsters placed, in placement order, and the squares turned into water under
    /// water-only creatures.
    pub plan: Plan<Monster>,
}

impl FloorPlan {
    /// Placements that found no acceptable square (0 unless the floor filled up).
    pub fn missing(&self) -> u32 {
        self.requested
            .saturating_sub(self.plan.spawns.len().try_into().unwrap_or(u32::MAX))
    }
}

/// Plans the ordinary population of a dungeon floor.
///
/// `count` placements are made (the level's count rule when `None`). Each finds its square
/// with the source's search, then draws its species from the level's selector, then is
/// constructed; a water-only creature's square becomes water. When the floor has no
/// acceptable square left, planning stops and [`FloorPlan::missing`] says how many were
/// not placed. `blocked` squares (the player's, when a game excludes it) count as occupied.
/// The grid is not changed (the plan says what to apply); the builder's ledger records any
/// unique item construction makes.
pub fn plan_floor<R: Rng + ?Sized>(
    rng: &mut R,
    level: &Level,
    grid: &FloorGrid,
    builder: &mut Builder<'_>,
    count: Option<u32>,
    blocked: &[Square],
) -> FloorPlan {
    let requested = count.unwrap_or_else(|| level.population.sample(rng));
    // The floor's free squares, less the ones taken since: the grid itself is not copied.
    let mut free = grid.free_squares();
    for &at in blocked {
        free.take(at);
    }
    let mut plan = Plan {
        spawns: Vec::with_capacity((requested as usize).min(free.count())),
        tiles: Vec::new(),
    };
    for _ in 0..requested {
        let Some(square) = find_free(&free, rng) else {
            break;
        };
        let species = level.selector.sample(rng);
        let monster = builder.build(rng, species);
        free.take(square);
        place(
            builder,
            &mut plan,
            square,
            Origin::FLOOR_POPULATION,
            monster,
        );
    }
    FloorPlan { requested, plan }
}

/// Records a placement; a water-only creature's square becomes water.
fn place(
    builder: &Builder<'_>,
    plan: &mut Plan<Monster>,
    at: Square,
    origin: Origin,
    monster: Monster,
) {
    if builder.bestiary.get(monster.form).has(Status::WaterOnly) {
        plan.tiles.push((at, Tile::Water));
    }
    plan.spawns.push(Spawn {
        at,
        origin,
        creature: monster,
    });
}

/// A level's fixed inhabitants as planned: those placed, and those the floor had no
/// square for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FixedPlan {
    /// The fixed inhabitants placed, in order.
    pub placed: Vec<Spawn<Monster>>,
    /// The species of those that found no acceptable square (the floor was full).
    pub missing: Vec<SpeciesId>,
}

/// Places a dungeon level's fixed inhabitants (the Goblin King, the elemental lords, ...)
/// with the floor search, before its population: each unless the dungeon is completed,
/// except where the data marks the faithful gap of a cavern-type level and
/// `cavern_gap` (the floor is a cavern and the gap is kept) holds. One that finds no
/// square is listed in [`FixedPlan::missing`].
pub fn plan_fixed<R: Rng + ?Sized>(
    rng: &mut R,
    fixed: &[FixedInhabitant],
    depth: u32,
    grid: &FloorGrid,
    builder: &mut Builder<'_>,
    completed: bool,
    cavern_gap: bool,
) -> FixedPlan {
    let mut plan = FixedPlan::default();
    let mut free = grid.free_squares();
    for inhabitant in fixed.iter().filter(|f| f.depth == depth) {
        let suppressed = inhabitant.unless_completed
            && completed
            && !(cavern_gap && inhabitant.cavern_ignores_completion);
        if suppressed {
            continue;
        }
        let Some(at) = find_free(&free, rng) else {
            plan.missing.push(inhabitant.species);
            continue;
        };
        free.take(at);
        let monster = builder.build(rng, inhabitant.species);
        plan.placed.push(Spawn {
            at,
            origin: crate::origin::FIXED_INHABITANT,
            creature: monster,
        });
    }
    plan
}

/// One floor of an environment, as the plugin asks for it.
#[derive(Clone, Copy, Debug)]
pub struct LevelRequest<'a> {
    /// The environment (a dungeon, a town, a countryside terrain).
    pub environment: &'a Environment,
    /// Its level at the requested depth.
    pub level: &'a Level,
    /// The floor to place on (left unchanged: the plan says what to apply).
    pub grid: &'a FloorGrid,
    /// The dungeon is completed: fixed inhabitants marked for it stay away.
    pub completed: bool,
    /// The floor is a cavern and the source's gap is kept (see [`plan_fixed`]).
    pub cavern_gap: bool,
    /// Squares to treat as taken besides the occupied ones (the player's, when a game
    /// excludes it).
    pub blocked: &'a [Square],
}

/// A floor's fixed inhabitants and population, planned together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// The fixed inhabitants, in placement order.
    pub fixed: Vec<Spawn<Monster>>,
    /// Fixed inhabitants the floor had no square for.
    pub fixed_missing: Vec<SpeciesId>,
    /// The population.
    pub population: FloorPlan,
}

impl LevelPlan {
    /// Everything to apply, fixed inhabitants first.
    pub fn into_plan(self) -> Plan<Monster> {
        let mut spawns = self.fixed;
        spawns.extend(self.population.plan.spawns);
        Plan {
            spawns,
            tiles: self.population.plan.tiles,
        }
    }
}

/// Plans a whole floor: the fixed inhabitants from `fixed_rng` (needed only when
/// [`Environment::has_fixed_at`] the depth), so the population is the same whether or not they are
/// placed; then the population from `rng`, by the floor search avoiding the fixed
/// inhabitants' and the blocked squares, or scattered where the environment scatters.
pub fn plan_level<R: Rng + ?Sized>(
    rng: &mut R,
    fixed_rng: Option<&mut R>,
    request: &LevelRequest<'_>,
    builder: &mut Builder<'_>,
) -> LevelPlan {
    let level = request.level;
    let FixedPlan {
        placed: fixed,
        missing: fixed_missing,
    } = match (fixed_rng, &request.environment.dungeon) {
        (Some(fixed_rng), Some(dungeon)) => plan_fixed(
            fixed_rng,
            &dungeon.fixed,
            level.depth,
            request.grid,
            builder,
            request.completed,
            request.cavern_gap,
        ),
        _ => FixedPlan::default(),
    };
    let mut blocked: Vec<Square> = fixed.iter().map(|p| p.at).collect();
    blocked.extend_from_slice(request.blocked);
    let population = match &request.environment.scatter {
        Some(scatter) => plan_scatter(rng, level, scatter, builder),
        None => plan_floor(rng, level, request.grid, builder, None, &blocked),
    };
    LevelPlan {
        fixed,
        fixed_missing,
        population,
    }
}

/// Plans an encounter that scatters coordinates instead of searching (the countryside's
/// tactical map): the count, then per placement the species, construction and unchecked
/// coordinates (drawn first instead where the data says so). Every creature gets the
/// scatter's awareness; water-only creatures' squares become water. Placements may share
/// a square.
pub fn plan_scatter<R: Rng + ?Sized>(
    rng: &mut R,
    level: &Level,
    scatter: &Scatter,
    builder: &mut Builder<'_>,
) -> FloorPlan {
    let requested = level.population.sample(rng);
    let mut plan = Plan::default();
    let coordinates = |rng: &mut R| Square {
        x: rng::range(rng, scatter.width),
        y: rng::range(rng, scatter.height),
    };
    for _ in 0..requested {
        let early = scatter.coordinates_first.then(|| coordinates(rng));
        let species = level.selector.sample(rng);
        let mut monster = builder.build(rng, species);
        let square = early.unwrap_or_else(|| coordinates(rng));
        monster.awareness = scatter.awareness;
        place(
            builder,
            &mut plan,
            square,
            crate::origin::COUNTRYSIDE,
            monster,
        );
    }
    FloorPlan { requested, plan }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OmegaRules;
    use crate::construct::{Chronicle, Preference};
    use crate::objects::ItemLedger;
    use denizen_core::rng::{StreamPurpose, WorldSeed};

    /// Runs `f` with a builder over the shipped rules and a fresh ledger.
    fn with_builder<T>(
        rules: &OmegaRules,
        difficulty: i64,
        f: impl FnOnce(&mut Builder<'_>) -> T,
    ) -> T {
        let mut ledger = ItemLedger::new(rules.bestiary.items());
        let chronicle = Chronicle::default();
        f(&mut Builder {
            bestiary: &rules.bestiary,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty,
        })
    }

    fn make_plan(rules: &OmegaRules, grid: &FloorGrid, seed: u64, count: Option<u32>) -> FloorPlan {
        let level = rules.locations.get("sewers").unwrap().level(5).unwrap();
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("plan"));
        with_builder(rules, level.difficulty, |builder| {
            plan_floor(&mut rng, level, grid, builder, count, &[])
        })
    }

    #[test]
    fn a_small_floor_fills_and_reports_the_rest() {
        let rules = OmegaRules::shipped();
        let grid = FloorGrid::from_rows(&["#######", "#.....#", "#######"]).unwrap();
        let plan = make_plan(&rules, &grid, 1, Some(11));
        assert_eq!(plan.plan.spawns.len(), 5);
        assert_eq!(plan.missing(), 6);
        let mut squares: Vec<Square> = plan.plan.spawns.iter().map(|p| p.at).collect();
        squares.sort();
        squares.dedup();
        assert_eq!(squares.len(), 5);
        let walls = FloorGrid::new(10, 10).unwrap();
        let none = make_plan(&rules, &walls, 2, None);
        assert!(none.plan.spawns.is_empty());
        assert_eq!(none.missing(), 11);
    }

    #[test]
    fn countryside_scatter_collides_and_sets_awareness() {
        let rules = OmegaRules::shipped();
        let river = rules.locations.get("countryside:river").unwrap();
        let level = river.level(0).unwrap();
        let scatter = river.scatter.unwrap();
        let mut sizes = std::collections::BTreeSet::new();
        let mut shared = false;
        for seed in 0..300 {
            let mut rng = WorldSeed(seed).stream(StreamPurpose::new("scatter"));
            let plan = with_builder(&rules, 7, |builder| {
                plan_scatter(&mut rng, level, &scatter, builder)
            });
            sizes.insert(plan.plan.spawns.len());
            let mut squares: Vec<Square> = plan.plan.spawns.iter().map(|p| p.at).collect();
            for p in &plan.plan.spawns {
                assert_eq!(p.creature.awareness, 64);
                assert!(p.at.x < 64 && p.at.y < 16);
                if rules.bestiary.get(p.creature.form).has(Status::WaterOnly) {
                    assert!(plan.plan.tiles.contains(&(p.at, Tile::Water)));
                }
            }
            squares.sort();
            let before = squares.len();
            squares.dedup();
            shared |= squares.len() < before;
        }
        assert!(
            shared,
            "coordinates are not checked, so squares are sometimes shared"
        );
        assert!(!sizes.contains(&7) && sizes.contains(&15) && sizes.contains(&1));
    }

    /// Fixed inhabitants come unless their dungeon is completed; the volcano's Demon
    /// Emperor also comes on a completed volcano when the floor is a cavern and the
    /// source's gap is kept (source notes, fixed inhabitants).
    #[test]
    fn fixed_inhabitants_follow_completion_and_the_cavern_gap() {
        let rules = OmegaRules::shipped();
        let placed = |location: &str, depth, completed, gap| {
            let env = rules.locations.get(location).unwrap();
            let grid = crate::reference::reference_floor(WorldSeed(1), location, depth);
            let mut rng = WorldSeed(1).stream(StreamPurpose::new("fixed"));
            with_builder(&rules, 5, |builder| {
                let fixed = &env.dungeon.as_ref().unwrap().fixed;
                plan_fixed(&mut rng, fixed, depth, &grid, builder, completed, gap)
            })
            .placed
            .len()
        };
        // (completed, cavern gap kept and the floor a cavern) -> placed
        for (completed, gap, emperor) in [
            (false, false, 1),
            (false, true, 1),
            (true, false, 0),
            (true, true, 1),
        ] {
            assert_eq!(
                placed("volcano", 20, completed, gap),
                emperor,
                "{completed} {gap}"
            );
        }
        for (completed, gap, king) in [
            (false, false, 1),
            (false, true, 1),
            (true, false, 0),
            (true, true, 0),
        ] {
            assert_eq!(
                placed("goblin-caves", 10, completed, gap),
                king,
                "{completed} {gap}"
            );
        }
        assert_eq!(
            placed("goblin-caves", 9, false, false),
            0,
            "only on its level"
        );
        // A floor without a free square places no king and says so.
        let env = rules.locations.get("goblin-caves").unwrap();
        let walls = FloorGrid::new(10, 10).unwrap();
        let mut rng = WorldSeed(1).stream(StreamPurpose::new("fixed"));
        let plan = with_builder(&rules, 5, |builder| {
            let fixed = &env.dungeon.as_ref().unwrap().fixed;
            plan_fixed(&mut rng, fixed, 10, &walls, builder, false, false)
        });
        let king = rules.bestiary.species_id("goblin_king").unwrap();
        assert_eq!(
            plan,
            FixedPlan {
                placed: Vec::new(),
                missing: vec![king]
            }
        );
    }

    #[test]
    fn water_only_creatures_get_water() {
        let rules = OmegaRules::shipped();
        let grid = crate::reference::reference_floor(WorldSeed(4), "sewers", 5);
        let mut seen = 0;
        for seed in 0..200 {
            let plan = make_plan(&rules, &grid, seed, None);
            for p in &plan.plan.spawns {
                let water_only = rules.bestiary.get(p.creature.form).has(Status::WaterOnly);
                assert_eq!(water_only, plan.plan.tiles.contains(&(p.at, Tile::Water)));
                seen += usize::from(water_only);
            }
        }
        // Trout and striped bass: 1.15% of placements at depth 5, about 25 in 200 floors.
        assert!(seen > 5, "the sewers make water-only creatures: {seen}");
    }
}
