//! Locations: each environment's difficulty, and each dungeon's depths, population bonus
//! and themed recipe, loaded from a RON locations file and compiled per depth.

use std::collections::HashMap;

use serde::Deserialize;

use crate::catalogue::{Catalogue, SpeciesId};
use crate::error::DataError;
use crate::formula::{Formula, Kind, Vars};
use crate::population::PopulationRule;
use crate::recipe::{Recipe, RecipeData, RecipeError};
use crate::select::Selector;

/// The Omega 0.90.4 locations shipped with denizen.
pub const OMEGA_LOCATIONS: &str = include_str!("../data/omega.locations.ron");
/// The name [`Locations::omega`] reports in errors.
pub const OMEGA_LOCATIONS_FILE: &str = "omega.locations.ron";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LocationsFile {
    default_difficulty: String,
    environments: Vec<EnvironmentData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvironmentData {
    key: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    dungeon: Option<DungeonData>,
    #[serde(default)]
    recipe: Option<RecipeData>,
    #[serde(default)]
    population: Option<PopulationRule>,
    #[serde(default)]
    scatter: Option<Scatter>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DungeonData {
    depths: u32,
    #[serde(default)]
    population_bonus: u32,
    recipe: RecipeData,
    #[serde(default)]
    fixed: Vec<FixedData>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FixedData {
    depth: u32,
    species: String,
    #[serde(default)]
    unless_completed: bool,
    #[serde(default)]
    cavern_ignores_completion: bool,
}

/// How an environment without a floor search places its population (the countryside's
/// tactical map): coordinates drawn on a `width` x `height` map without any check, so
/// placements can collide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scatter {
    /// Map width (64 for the tactical map).
    pub width: u32,
    /// Map height (16).
    pub height: u32,
    /// Awareness every placed creature gets (the map width in the source).
    pub awareness: i32,
    /// Coordinates are drawn before the species (true where the source passes them to
    /// `m_create` for the ordinary pool) instead of after construction.
    #[serde(default)]
    pub coordinates_first: bool,
}

/// A creature a dungeon level always has, placed before its population.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixedInhabitant {
    /// The level.
    pub depth: u32,
    /// The species.
    pub species: SpeciesId,
    /// Not placed once the dungeon is completed.
    pub unless_completed: bool,
    /// Faithful gap: on a cavern-type level the completion check is skipped (the
    /// volcano's bottom level in the source).
    pub cavern_ignores_completion: bool,
}

/// The rules of one level: its difficulty, placement count and species choice.
#[derive(Clone, Debug)]
pub struct Level {
    /// Depth `D` (1 for an environment that is not a dungeon).
    pub depth: u32,
    /// Difficulty from the environment's formula.
    pub difficulty: i64,
    /// How many placements a populated floor gets.
    pub population: PopulationRule,
    /// The species choice of one placement.
    pub selector: Selector,
}

/// A dungeon's shape: how deep it goes, its recipe and its fixed inhabitants.
#[derive(Clone, Debug)]
pub struct Dungeon {
    /// Number of levels: depths run `1..=depths`.
    pub depths: u32,
    /// Placements added to Omega's count rule on every floor.
    pub population_bonus: u32,
    /// The themed recipe.
    pub recipe: Recipe,
    /// Creatures placed on particular levels before the population.
    pub fixed: Vec<FixedInhabitant>,
}

/// One environment (a dungeon, a town, the countryside, ...).
#[derive(Clone, Debug)]
pub struct Environment {
    /// Key used on the command line and in saves, such as `goblin-caves`.
    pub key: String,
    /// Display name.
    pub name: String,
    /// The difficulty formula in depth `D`.
    pub difficulty: Formula,
    /// Present for dungeons, which are populated level by level.
    pub dungeon: Option<Dungeon>,
    /// Present where placement scatters coordinates instead of searching for a square.
    pub scatter: Option<Scatter>,
    levels: Vec<Level>,
}

impl Environment {
    /// Depths this environment has: `1..=depths` for a dungeon, just 1 otherwise.
    pub fn depths(&self) -> std::ops::RangeInclusive<u32> {
        1..=self.levels.len() as u32
    }

    /// Whether this environment is a dungeon.
    pub fn is_dungeon(&self) -> bool {
        self.dungeon.is_some()
    }

    /// The level rules at a depth. Environments that are not dungeons have one level,
    /// whatever depth is asked for (their difficulty does not depend on it).
    pub fn level(&self, depth: u32) -> Result<&Level, RequestError> {
        if !self.is_dungeon() {
            return Ok(&self.levels[0]);
        }
        depth
            .checked_sub(1)
            .and_then(|i| self.levels.get(i as usize))
            .ok_or_else(|| RequestError::DepthOutOfRange {
                location: self.key.clone(),
                depth,
                depths: self.levels.len() as u32,
            })
    }

    /// All levels, shallowest first.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }
}

/// A request the rules cannot answer (unknown location, depth out of range).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No environment has this key.
    #[error("unknown location `{location}` (known: {known})")]
    UnknownLocation {
        /// The key asked for.
        location: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// The dungeon has no such depth.
    #[error("`{location}` has depths 1 to {depths}, not {depth}")]
    DepthOutOfRange {
        /// The dungeon's key.
        location: String,
        /// The depth asked for.
        depth: u32,
        /// The dungeon's number of levels.
        depths: u32,
    },
}

/// Every environment of a game, validated and compiled against its catalogue.
#[derive(Clone, Debug)]
pub struct Locations {
    default_difficulty: i64,
    environments: Vec<Environment>,
    keys: HashMap<String, usize>,
}

impl Locations {
    /// The shipped Omega 0.90.4 locations, against the shipped Omega bestiary.
    pub fn omega(catalogue: &Catalogue) -> Self {
        Self::from_ron(OMEGA_LOCATIONS, OMEGA_LOCATIONS_FILE, catalogue)
            .expect("the embedded Omega locations are valid (the test suite loads them)")
    }

    /// Loads and validates a locations file; `file` names it in errors.
    ///
    /// Every recipe is compiled at every depth of its dungeon here, so a species key that
    /// does not exist, a formula that fails at some depth, or a pool with nothing to draw
    /// is reported now rather than during play.
    pub fn from_ron(text: &str, file: &str, catalogue: &Catalogue) -> Result<Self, DataError> {
        let data: LocationsFile = ron::from_str(text).map_err(|e| DataError::syntax(file, &e))?;
        let formula = |text: &str, entry: &str, field: &str| {
            Formula::parse(text, Kind::Number, false)
                .map_err(|e| DataError::invalid(file, entry, field, e.to_string()))
        };
        let default_formula = formula(&data.default_difficulty, "locations", "default_difficulty")?;
        let default_difficulty = default_formula
            .number(&Vars {
                depth: 1,
                ..Vars::default()
            })
            .map_err(|e| {
                DataError::invalid(file, "locations", "default_difficulty", e.to_string())
            })?;
        let mut environments = Vec::with_capacity(data.environments.len());
        let mut keys = HashMap::new();
        for (i, env) in data.environments.into_iter().enumerate() {
            let entry = format!("environments[{i}] {:?}", env.key);
            for key in std::iter::once(&env.key).chain(&env.aliases) {
                if keys.insert(key.clone(), i).is_some() {
                    let field = if *key == env.key { "key" } else { "aliases" };
                    return Err(DataError::invalid(
                        file,
                        &entry,
                        field,
                        format!("duplicate key {key:?}"),
                    ));
                }
            }
            let difficulty = match &env.difficulty {
                Some(text) => formula(text, &entry, "difficulty")?,
                None => default_formula.clone(),
            };
            let prefix = if env.dungeon.is_some() {
                "dungeon."
            } else {
                ""
            };
            let recipe_error = |depth: u32, e: RecipeError| {
                DataError::invalid(
                    file,
                    format!("{entry} at depth {depth}"),
                    format!("{prefix}{}", e.field),
                    e.problem,
                )
            };
            let (dungeon, depths) = match env.dungeon {
                None => (None, 1),
                Some(d) => {
                    if env.recipe.is_some() || env.population.is_some() {
                        return Err(DataError::invalid(
                            file,
                            &entry,
                            "recipe",
                            "a dungeon's recipe and population belong in `dungeon`",
                        ));
                    }
                    if d.depths == 0 {
                        return Err(DataError::invalid(
                            file,
                            &entry,
                            "dungeon.depths",
                            "a dungeon needs at least one level",
                        ));
                    }
                    let recipe = Recipe::from_data(&d.recipe, catalogue, "recipe")
                        .map_err(|e| recipe_error(1, e))?;
                    let mut fixed = Vec::with_capacity(d.fixed.len());
                    for (n, f) in d.fixed.iter().enumerate() {
                        let field = format!("dungeon.fixed[{n}]");
                        let species = catalogue.species_id(&f.species).ok_or_else(|| {
                            DataError::invalid(
                                file,
                                &entry,
                                format!("{field}.species"),
                                format!("no species has the key {:?}", f.species),
                            )
                        })?;
                        if !(1..=d.depths).contains(&f.depth) {
                            return Err(DataError::invalid(
                                file,
                                &entry,
                                format!("{field}.depth"),
                                format!("depth {} is outside 1..={}", f.depth, d.depths),
                            ));
                        }
                        fixed.push(FixedInhabitant {
                            depth: f.depth,
                            species,
                            unless_completed: f.unless_completed,
                            cavern_ignores_completion: f.cavern_ignores_completion,
                        });
                    }
                    let dungeon = Dungeon {
                        depths: d.depths,
                        population_bonus: d.population_bonus,
                        recipe,
                        fixed,
                    };
                    (Some(dungeon), d.depths)
                }
            };
            let own_recipe = match &env.recipe {
                Some(data) => Some(
                    Recipe::from_data(data, catalogue, "recipe").map_err(|e| recipe_error(1, e))?,
                ),
                None => None,
            };
            let mut levels = Vec::with_capacity(depths as usize);
            for depth in 1..=depths {
                let vars = Vars {
                    depth: i64::from(depth),
                    ..Vars::default()
                };
                let difficulty = difficulty.number(&vars).map_err(|e| {
                    DataError::invalid(
                        file,
                        format!("{entry} at depth {depth}"),
                        "difficulty",
                        e.to_string(),
                    )
                })?;
                let vars = Vars { difficulty, ..vars };
                let (recipe, population) = match &dungeon {
                    Some(d) => (
                        &d.recipe,
                        PopulationRule::omega(difficulty, d.population_bonus),
                    ),
                    None => (
                        own_recipe.as_ref().unwrap_or(&Recipe::Pool),
                        env.population
                            .unwrap_or(PopulationRule::omega(difficulty, 0)),
                    ),
                };
                let selector = Selector::compile(recipe, vars, catalogue, "recipe")
                    .map_err(|e| recipe_error(depth, e))?;
                levels.push(Level {
                    depth,
                    difficulty,
                    population,
                    selector,
                });
            }
            environments.push(Environment {
                key: env.key,
                name: env.name,
                difficulty,
                dungeon,
                scatter: env.scatter,
                levels,
            });
        }
        Ok(Self {
            default_difficulty,
            environments,
            keys,
        })
    }

    /// All environments, in file order.
    pub fn environments(&self) -> &[Environment] {
        &self.environments
    }

    /// The dungeons, in file order.
    pub fn dungeons(&self) -> impl Iterator<Item = &Environment> {
        self.environments.iter().filter(|e| e.is_dungeon())
    }

    /// The environment with this key.
    pub fn get(&self, key: &str) -> Result<&Environment, RequestError> {
        self.keys
            .get(key)
            .map(|&i| &self.environments[i])
            .ok_or_else(|| RequestError::UnknownLocation {
                location: key.to_owned(),
                known: self
                    .environments
                    .iter()
                    .map(|e| e.key.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Difficulty of an environment the file does not list: the default formula at
    /// depth 1 (3 in Omega, whose "anything else" covers the Court of the Archmage).
    pub fn default_difficulty(&self) -> i64 {
        self.default_difficulty
    }
}
