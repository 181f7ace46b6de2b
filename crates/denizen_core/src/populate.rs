//! Populating a floor: Omega's `populate_level` as a pure plan (count, then for each
//! placement the square first and then the species, construction, water).

use rand::Rng;

use crate::catalogue::Status;
use crate::construct::{Builder, Monster};
use crate::floor::{FloorGrid, Square, Tile};
use crate::location::Level;

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
        if builder.catalogue.get(monster.form).has(Status::WaterOnly) {
            water.push(square);
        }
        placements.push(Placement { square, monster });
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

    fn make_plan(rules: &Ruleset, grid: &FloorGrid, seed: u64, count: Option<u32>) -> FloorPlan {
        let level = rules.locations.get("sewers").unwrap().level(5).unwrap();
        let mut ledger = ItemLedger::new(&rules.catalogue);
        let chronicle = Chronicle::default();
        let mut builder = Builder {
            catalogue: &rules.catalogue,
            ledger: &mut ledger,
            chronicle: &chronicle,
            preference: Preference::Either,
            temple_deity: None,
            difficulty: level.difficulty,
        };
        let mut rng = WorldSeed(seed).stream(StreamPurpose::new("plan"));
        plan_floor(&mut rng, level, grid, &mut builder, count, &[])
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
