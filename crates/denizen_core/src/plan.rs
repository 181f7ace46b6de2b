//! Plans: what a rule set decided about a floor, handed to whoever applies it (the Bevy
//! plugin's one apply step, a tool, a test) before anything changes.

use serde::Serialize;

use crate::floor::{FloorGrid, Square, Tile};

/// Where a creature came from: a name each rule set chooses, so an observer of the plugin's
/// spawn event can tell a floor's population from a later arrival. The core names the
/// origins every rule set may share; a rule set names its own (Omega's fixed inhabitants,
/// Captive's encounter groups) as constants of its crate. Two origins are the same when
/// their names are.
///
/// ```
/// use denizen_core::Origin;
///
/// const AMBUSH: Origin = Origin::new("Ambush");
/// assert_ne!(AMBUSH, Origin::FLOOR_POPULATION);
/// assert_eq!(format!("{AMBUSH:?} {}", Origin::SUMMONING), "Ambush Summoning");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy_reflect", reflect(opaque, Debug, PartialEq, Hash))]
pub struct Origin(&'static str);

impl Origin {
    /// The population a floor gets when it is generated.
    pub const FLOOR_POPULATION: Origin = Origin("FloorPopulation");
    /// A wandering arrival of a time check.
    pub const WANDERING_ARRIVAL: Origin = Origin("WanderingArrival");
    /// A summoning next to a square.
    pub const SUMMONING: Origin = Origin("Summoning");

    /// The origin of this name.
    pub const fn new(name: &'static str) -> Self {
        Self(name)
    }

    /// Its name.
    pub const fn name(self) -> &'static str {
        self.0
    }
}

impl std::fmt::Debug for Origin {
    /// The name alone, as a unit variant prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

/// One creature of a plan: its square, where it came from, and what the rule set made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spawn<C> {
    /// The square it stands on.
    pub at: Square,
    /// Why it is there.
    pub origin: Origin,
    /// The rule set's creature (a constructed monster, a group member, ...).
    pub creature: C,
}

/// Everything a rule set decided about a floor, before anything is applied: the creatures
/// in the order they were made, and the squares whose tile changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Plan<C> {
    /// The creatures, in the order they were made.
    pub spawns: Vec<Spawn<C>>,
    /// Tile changes (a water-only creature's square becomes water), in order.
    pub tiles: Vec<(Square, Tile)>,
}

impl<C> Default for Plan<C> {
    fn default() -> Self {
        Self {
            spawns: Vec::new(),
            tiles: Vec::new(),
        }
    }
}

impl<C> Plan<C> {
    /// A plan of one creature and no tile change.
    pub fn one(spawn: Spawn<C>) -> Self {
        Self {
            spawns: vec![spawn],
            tiles: Vec::new(),
        }
    }

    /// The same plan with each creature turned into something else (the plugin turns
    /// creatures into component bundles), keeping squares, origins and order.
    pub fn map<D>(self, mut f: impl FnMut(C) -> D) -> Plan<D> {
        Plan {
            spawns: self
                .spawns
                .into_iter()
                .map(|s| Spawn {
                    at: s.at,
                    origin: s.origin,
                    creature: f(s.creature),
                })
                .collect(),
            tiles: self.tiles,
        }
    }

    /// Applies the plan's squares to a grid: tile changes first, then every spawn's square
    /// marked occupied.
    pub fn apply_to(&self, grid: &mut FloorGrid) {
        for &(at, tile) in &self.tiles {
            grid.set(at, tile);
        }
        for spawn in &self.spawns {
            grid.set_occupied(spawn.at, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applying_marks_squares_and_changes_tiles() {
        let mut grid = FloorGrid::from_rows(&["....", "...."]).unwrap();
        let at = |x, y| Square { x, y };
        let plan = Plan {
            spawns: vec![
                Spawn {
                    at: at(1, 0),
                    origin: Origin::FLOOR_POPULATION,
                    creature: 'a',
                },
                Spawn {
                    at: at(3, 1),
                    origin: Origin::SUMMONING,
                    creature: 'b',
                },
            ],
            tiles: vec![(at(3, 1), Tile::Water)],
        };
        plan.apply_to(&mut grid);
        assert!(grid.is_occupied(at(1, 0)) && grid.is_occupied(at(3, 1)));
        assert_eq!(grid.tile(at(3, 1)), Tile::Water);
        assert_eq!(grid.acceptable_count(), 6);
        let upper = plan.map(|c| c.to_ascii_uppercase());
        let made: Vec<(char, Origin)> = upper
            .spawns
            .iter()
            .map(|s| (s.creature, s.origin))
            .collect();
        assert_eq!(
            made,
            [('A', Origin::FLOOR_POPULATION), ('B', Origin::SUMMONING)]
        );
    }
}
