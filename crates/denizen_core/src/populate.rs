//! Populating a floor: Omega's `populate_level` as a pure plan (count, then for each
//! placement the square first and then the species, construction, water).

use rand::Rng;

use crate::catalogue::Status;
use crate::construct::{Builder, Monster};
use crate::floor::{FloorGrid, Square, Tile};
use crate::location::{FixedInhabitant, Level, Scatter};
use crate::rng;

/// One monster of a plan, with its square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Where it stands.
    pub square: Square,
    /// What it is.
    pub monster: Monster,
}

/// Everything populating a floor decides about the floor, before anything is applied.
/// (Changes to unique items are made in the builder's ledger.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorPlan {
    /// Placements the count rule asked for.
    pub requested: u32,
    /// The monsters placed, in placement order.
    pub placements: Vec<Placement>,
    /// Squares turned into water under water-only creatures.
    pub water: Vec<Square>,
}

impl FloorPlan {
    /// Placements that found no acceptable square (0 unless the floor filled up).
    pub fn missing(&self) -> u32 {
        self.requested - self.placements.len() as u32
    }

    /// Applies the plan's squares to a grid: occupied squares and water.
    pub fn apply_to(&self, grid: &mut FloorGrid) {
        for p in &self.placements {
            grid.set_occupied(p.square, true);
        }
        for &at in &self.water {
            grid.set(at, Tile::Water);
        }
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
    // Squares taken since the grid was drawn, one bit each: cheaper than a copy of it.
    let mut taken = vec![0u64; (grid.width() as usize * grid.height() as usize).div_ceil(64)];
    let bit = |at: Square| at.y as usize * grid.width() as usize + at.x as usize;
    let take = |taken: &mut Vec<u64>, at: Square| {
        if at.x < grid.width() && at.y < grid.height() {
            taken[bit(at) / 64] |= 1 << (bit(at) % 64);
        }
    };
    for &at in blocked {
        take(&mut taken, at);
    }
    let mut placements = Vec::with_capacity(requested as usize);
    let mut water = Vec::new();
    for _ in 0..requested {
        let found = grid.find_space_where(rng, |at| {
            grid.is_acceptable(at) && taken[bit(at) / 64] & (1 << (bit(at) % 64)) == 0
        });
        let Some(square) = found else {
            break;
        };
        let species = level.selector.sample(rng);
        let monster = builder.build(rng, species);
        take(&mut taken, square);
        place(builder, &mut placements, &mut water, square, monster);
    }
    FloorPlan {
        requested,
        placements,
        water,
    }
}

/// Records a placement; a water-only creature's square becomes water.
fn place(
    builder: &Builder<'_>,
    placements: &mut Vec<Placement>,
    water: &mut Vec<Square>,
    square: Square,
    monster: Monster,
) {
    if builder.catalogue.get(monster.form).has(Status::WaterOnly) {
        water.push(square);
    }
    placements.push(Placement { square, monster });
}

/// Places a dungeon level's fixed inhabitants (the Goblin King, the elemental lords, ...)
/// with the floor search, before its population: each unless the dungeon is completed,
/// except where the data marks the faithful gap of a cavern-type level and
/// `cavern_gap` (the floor is a cavern and the gap is kept) holds.
pub fn plan_fixed<R: Rng + ?Sized>(
    rng: &mut R,
    fixed: &[FixedInhabitant],
    depth: u32,
    grid: &FloorGrid,
    builder: &mut Builder<'_>,
    completed: bool,
    cavern_gap: bool,
) -> Vec<Placement> {
    let mut placements: Vec<Placement> = Vec::new();
    for inhabitant in fixed.iter().filter(|f| f.depth == depth) {
        let suppressed = inhabitant.unless_completed
            && completed
            && !(cavern_gap && inhabitant.cavern_ignores_completion);
        if suppressed {
            continue;
        }
        let taken: Vec<Square> = placements.iter().map(|p| p.square).collect();
        let Some(square) =
            grid.find_space_where(rng, |at| grid.is_acceptable(at) && !taken.contains(&at))
        else {
            break;
        };
        let monster = builder.build(rng, inhabitant.species);
        placements.push(Placement { square, monster });
    }
    placements
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
    let mut placements = Vec::with_capacity(requested as usize);
    let mut water = Vec::new();
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
        place(builder, &mut placements, &mut water, square, monster);
    }
    FloorPlan {
        requested,
        placements,
        water,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;
    use crate::construct::{Chronicle, Preference};
    use crate::objects::ItemLedger;
    use crate::rng::{StreamPurpose, WorldSeed};

    /// Runs `f` with a builder over the shipped rules and a fresh ledger.
    fn with_builder<T>(
        rules: &Ruleset,
        difficulty: i64,
        f: impl FnOnce(&mut Builder<'_>) -> T,
    ) -> T {
        let mut ledger = ItemLedger::new(&rules.catalogue);
        let chronicle = Chronicle::default();
        f(&mut Builder {
            catalogue: &rules.catalogue,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty,
        })
    }

    fn make_plan(rules: &Ruleset, grid: &FloorGrid, seed: u64, count: Option<u32>) -> FloorPlan {
        let level = rules.locations.get("sewers").unwrap().level(5).unwrap();
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("plan"));
        with_builder(rules, level.difficulty, |builder| {
            plan_floor(&mut rng, level, grid, builder, count, &[])
        })
    }

    #[test]
    fn a_small_floor_fills_and_reports_the_rest() {
        let rules = Ruleset::omega();
        let grid = FloorGrid::from_rows(&["#######", "#.....#", "#######"]).unwrap();
        let plan = make_plan(&rules, &grid, 1, Some(11));
        assert_eq!(plan.placements.len(), 5);
        assert_eq!(plan.missing(), 6);
        let mut squares: Vec<Square> = plan.placements.iter().map(|p| p.square).collect();
        squares.sort();
        squares.dedup();
        assert_eq!(squares.len(), 5);
        let walls = FloorGrid::new(10, 10);
        let none = make_plan(&rules, &walls, 2, None);
        assert!(none.placements.is_empty());
        assert_eq!(none.missing(), 11);
    }

    #[test]
    fn countryside_scatter_collides_and_sets_awareness() {
        let rules = Ruleset::omega();
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
            sizes.insert(plan.placements.len());
            let mut squares: Vec<Square> = plan.placements.iter().map(|p| p.square).collect();
            for p in &plan.placements {
                assert_eq!(p.monster.awareness, 64);
                assert!(p.square.x < 64 && p.square.y < 16);
                if rules.catalogue.get(p.monster.form).has(Status::WaterOnly) {
                    assert!(plan.water.contains(&p.square));
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

    #[test]
    fn water_only_creatures_get_water() {
        let rules = Ruleset::omega();
        let mut rng = WorldSeed(4).stream(StreamPurpose::new("layout"));
        let grid = FloorGrid::rooms_and_corridors(&mut rng, 64, 24);
        let mut seen = 0;
        for seed in 0..40 {
            let plan = make_plan(&rules, &grid, seed, None);
            for p in &plan.placements {
                let water_only = rules.catalogue.get(p.monster.form).has(Status::WaterOnly);
                assert_eq!(water_only, plan.water.contains(&p.square));
                seen += usize::from(water_only);
            }
        }
        assert!(seen > 0, "the sewers make water-only creatures");
    }
}
