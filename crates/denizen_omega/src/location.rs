//! Locations: each environment's difficulty, and each dungeon's depths, population bonus
//! and themed recipe, loaded from a RON locations file and compiled per depth.

use std::collections::HashMap;

use serde::Deserialize;

use crate::bestiary::Bestiary;
use crate::formula::{Formula, Kind, Vars};
use crate::population::PopulationRule;
use crate::recipe::{Recipe, RecipeData, RecipeError};
use crate::select::Selector;
use crate::species::SpeciesId;
use denizen_core::data::{DataError, DataFile, Entry, load_ron, quoted};

/// The Omega 0.90.4 locations shipped with denizen.
pub const OMEGA_LOCATIONS: &str = include_str!("../data/omega.locations.ron");
/// The name [`Locations::shipped`] reports in errors.
pub const OMEGA_LOCATIONS_FILE: &str = "omega.locations.ron";

/// The most levels a dungeon may have (Omega's deepest has 40). Every level is compiled at
/// load, so this bounds a file's loading time and memory.
pub const MAX_DEPTHS: u32 = 1_000;

/// The most levels a whole locations file may compile, over all its environments.
pub const MAX_LEVELS: usize = 20_000;

/// The most outcomes (one per value of each draw) all the recipes of a locations file may
/// compile to, over every level: Omega's file compiles to 13,933. With
/// [`crate::select::MAX_OUTCOMES`] per level it bounds a file's loading time and memory.
pub const MAX_FILE_OUTCOMES: usize = 5_000_000;

/// The longest key or alias a location may have.
pub const MAX_KEY_LEN: usize = 64;

/// Difficulties lie in `-MAX_DIFFICULTY..=MAX_DIFFICULTY` (Omega's run from 1 to 10);
/// every rule that reads one stays far from overflow.
pub const MAX_DIFFICULTY: i64 = 10_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LocationsFile {
    default_difficulty: String,
    environments: Vec<EnvironmentData>,
}

/// Environments a game adds to Omega's locations.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LocationsExtension {
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
        self.level_index(depth).map(|i| &self.levels[i])
    }

    /// Where the level of a depth is among [`levels`](Self::levels).
    pub(crate) fn level_index(&self, depth: u32) -> Result<usize, RequestError> {
        if !self.is_dungeon() {
            return Ok(0);
        }
        depth
            .checked_sub(1)
            .map(|i| i as usize)
            .filter(|&i| i < self.levels.len())
            .ok_or_else(|| RequestError::DepthOutOfRange {
                location: self.key.clone(),
                depth,
                depths: self.levels.len() as u32,
            })
    }

    /// Whether a level has fixed inhabitants (and so needs their own stream).
    pub fn has_fixed_at(&self, depth: u32) -> bool {
        self.dungeon
            .as_ref()
            .is_some_and(|d| d.fixed.iter().any(|f| f.depth == depth))
    }

    /// All levels, shallowest first.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }
}

/// A request the rules cannot answer (unknown location, depth out of range).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum RequestError {
    /// No environment has this key.
    #[error("unknown location {} (known: {})", quoted(.location), .known)]
    UnknownLocation {
        /// The key asked for.
        location: String,
        /// The known keys, comma-separated.
        known: String,
    },
    /// The dungeon has no such depth.
    #[error("{} has depths 1 to {depths}, not {depth}", quoted(.location))]
    DepthOutOfRange {
        /// The dungeon's key.
        location: String,
        /// The depth asked for.
        depth: u32,
        /// The dungeon's number of levels.
        depths: u32,
    },
    /// A temple's deity is none of the bestiary's.
    #[error("deity {deity} is not one of the bestiary's {deities} deities (numbered from 1)")]
    UnknownDeity {
        /// The deity asked for.
        deity: u8,
        /// How many deities the bestiary names.
        deities: usize,
    },
}

/// Every environment of a game, validated and compiled against its bestiary.
#[derive(Clone, Debug)]
pub struct Locations {
    default_difficulty: i64,
    environments: Vec<Environment>,
    keys: HashMap<String, usize>,
}

impl Locations {
    /// The shipped Omega 0.90.4 locations, against the shipped Omega bestiary.
    pub fn shipped(bestiary: &Bestiary) -> Self {
        Self::from_file(
            DataFile::new(OMEGA_LOCATIONS_FILE, OMEGA_LOCATIONS),
            bestiary,
        )
        .expect("the embedded Omega locations are valid (the test suite loads them)")
    }

    /// Loads and validates a locations file; `file` names it in errors.
    ///
    /// Every recipe is compiled at every depth of its dungeon here, so a species key that
    /// does not exist, a formula that fails at some depth, or a pool with nothing to draw
    /// is reported now rather than during play.
    pub fn from_file(source: DataFile<'_>, bestiary: &Bestiary) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        Self::from_data(load_ron(text, file)?, file, bestiary)
    }

    /// Omega's locations with a game's own added after them (a file
    /// `(environments: [...])` in the locations format), against `bestiary` (Omega's, or
    /// Omega's with a game's species: [`Bestiary::shipped_with`]). Errors number the new
    /// environments after the shipped ones.
    pub fn shipped_with(extra: DataFile<'_>, bestiary: &Bestiary) -> Result<Self, DataError> {
        let mut data: LocationsFile = load_ron(OMEGA_LOCATIONS, OMEGA_LOCATIONS_FILE)?;
        let more: LocationsExtension = load_ron(extra.text, extra.name)?;
        data.environments.extend(more.environments);
        Self::from_data(data, extra.name, bestiary)
    }

    fn from_data(data: LocationsFile, file: &str, bestiary: &Bestiary) -> Result<Self, DataError> {
        let whole = Entry::new(file, "locations");
        let default_formula =
            number_formula(whole, "default_difficulty", &data.default_difficulty)?;
        let default_difficulty = default_formula
            .number(&Vars {
                depth: 1,
                ..Vars::default()
            })
            .map_err(|e| e.to_string())
            .and_then(check_difficulty)
            .map_err(|e| whole.invalid("default_difficulty", e))?;
        let mut environments = Vec::with_capacity(data.environments.len());
        let mut keys = HashMap::new();
        let mut levels = 0;
        let mut outcomes = 0;
        for (i, env) in data.environments.into_iter().enumerate() {
            let name = format!("environments[{i}] {:?}", env.key);
            let entry = Entry::new(file, &name);
            for key in std::iter::once(&env.key).chain(&env.aliases) {
                let field = if *key == env.key { "key" } else { "aliases" };
                check_key(key).map_err(|e| entry.invalid(field, e))?;
                if keys.insert(key.clone(), i).is_some() {
                    return Err(entry.invalid(field, format!("duplicate key {key:?}")));
                }
            }
            let environment =
                Environment::load(entry, env, &default_formula, bestiary, &mut outcomes)?;
            levels += environment.levels.len();
            if levels > MAX_LEVELS {
                return Err(entry.invalid(
                    "dungeon.depths",
                    format!("the file's levels pass {MAX_LEVELS} here, the most one file may have"),
                ));
            }
            environments.push(environment);
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
        self.index_of(key).map(|i| &self.environments[i])
    }

    /// Where the environment with this key is among the environments.
    pub(crate) fn index_of(&self, key: &str) -> Result<usize, RequestError> {
        self.keys
            .get(key)
            .copied()
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

    /// The environment at an index of [`index_of`](Self::index_of).
    pub(crate) fn at(&self, index: usize) -> &Environment {
        &self.environments[index]
    }

    /// Difficulty of an environment the file does not list: the default formula at
    /// depth 1 (3 in Omega, whose "anything else" covers the Court of the Archmage).
    pub fn default_difficulty(&self) -> i64 {
        self.default_difficulty
    }
}

impl Environment {
    /// Validates one environment and compiles its levels, adding their outcomes to the
    /// file's tally `outcomes`.
    fn load(
        entry: Entry<'_>,
        data: EnvironmentData,
        default_difficulty: &Formula,
        bestiary: &Bestiary,
        outcomes: &mut usize,
    ) -> Result<Self, DataError> {
        let difficulty = match &data.difficulty {
            Some(text) => number_formula(entry, "difficulty", text)?,
            None => default_difficulty.clone(),
        };
        let dungeon = match data.dungeon {
            Some(_) if data.recipe.is_some() || data.population.is_some() => {
                return Err(entry.invalid(
                    "recipe",
                    "a dungeon's recipe and population belong in `dungeon`",
                ));
            }
            Some(d) => Some(Dungeon::load(entry, d, bestiary)?),
            None => None,
        };
        let own_recipe = data
            .recipe
            .as_ref()
            .map(|r| Recipe::from_data(r, bestiary, "recipe"))
            .transpose()
            .map_err(|e| level_error(entry, 1, "", e))?;
        let (depths, prefix) = dungeon.as_ref().map_or((1, ""), |d| (d.depths, "dungeon."));
        let mut levels = Vec::with_capacity(depths as usize);
        for depth in 1..=depths {
            let vars = Vars {
                depth: i64::from(depth),
                ..Vars::default()
            };
            let at = format!("{} at depth {depth}", entry.name());
            let at = Entry::new(entry.file(), &at);
            let difficulty = difficulty
                .number(&vars)
                .map_err(|e| e.to_string())
                .and_then(check_difficulty)
                .map_err(|e| at.invalid("difficulty", e))?;
            let (recipe, population) = match &dungeon {
                Some(d) => (
                    &d.recipe,
                    PopulationRule::omega(difficulty, d.population_bonus),
                ),
                None => (
                    own_recipe.as_ref().unwrap_or(&Recipe::Pool),
                    data.population
                        .unwrap_or(PopulationRule::omega(difficulty, 0)),
                ),
            };
            // The count comes from the difficulty and bonus, or from the rule as written.
            let field = match (&dungeon, data.population) {
                (Some(_), _) => "dungeon.population_bonus",
                (None, Some(_)) => "population",
                (None, None) => "difficulty",
            };
            population.check().map_err(|e| at.invalid(field, e))?;
            let vars = Vars { difficulty, ..vars };
            let selector = Selector::compile(recipe, vars, bestiary, "recipe")
                .map_err(|e| level_error(entry, depth, prefix, e))?;
            *outcomes += selector.outcome_count();
            if *outcomes > MAX_FILE_OUTCOMES {
                return Err(at.invalid(
                    format!("{prefix}recipe"),
                    format!(
                        "the file's recipes compile to more than {MAX_FILE_OUTCOMES} outcomes                          by here"
                    ),
                ));
            }
            levels.push(Level {
                depth,
                difficulty,
                population,
                selector,
            });
        }
        Ok(Self {
            key: data.key,
            name: data.name,
            difficulty,
            dungeon,
            scatter: data.scatter,
            levels,
        })
    }
}

impl Dungeon {
    /// Validates a dungeon: at least one level, its recipe, its fixed inhabitants.
    fn load(entry: Entry<'_>, data: DungeonData, bestiary: &Bestiary) -> Result<Self, DataError> {
        if data.depths == 0 {
            return Err(entry.invalid("dungeon.depths", "a dungeon needs at least one level"));
        }
        if data.depths > MAX_DEPTHS {
            return Err(entry.invalid(
                "dungeon.depths",
                format!("{} levels; a dungeon has at most {MAX_DEPTHS}", data.depths),
            ));
        }
        let recipe = Recipe::from_data(&data.recipe, bestiary, "recipe")
            .map_err(|e| level_error(entry, 1, "dungeon.", e))?;
        let fixed = data
            .fixed
            .iter()
            .enumerate()
            .map(|(n, f)| FixedInhabitant::load(entry, n, f, data.depths, bestiary))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            depths: data.depths,
            population_bonus: data.population_bonus,
            recipe,
            fixed,
        })
    }
}

impl FixedInhabitant {
    /// Validates the `n`-th fixed inhabitant of a dungeon of `depths` levels.
    fn load(
        entry: Entry<'_>,
        n: usize,
        data: &FixedData,
        depths: u32,
        bestiary: &Bestiary,
    ) -> Result<Self, DataError> {
        let field = format!("dungeon.fixed[{n}]");
        let species = bestiary.species_id(&data.species).ok_or_else(|| {
            entry.invalid(
                format!("{field}.species"),
                format!("no species has the key {:?}", data.species),
            )
        })?;
        if !(1..=depths).contains(&data.depth) {
            return Err(entry.invalid(
                format!("{field}.depth"),
                format!("depth {} is outside 1..={depths}", data.depth),
            ));
        }
        Ok(Self {
            depth: data.depth,
            species,
            unless_completed: data.unless_completed,
            cavern_ignores_completion: data.cavern_ignores_completion,
        })
    }
}

/// A difficulty inside `-MAX_DIFFICULTY..=MAX_DIFFICULTY`.
/// A key names files and command-line arguments: 1 to [`MAX_KEY_LEN`] ASCII letters,
/// digits, `-`, `_` or `:` (no path separators, dots or spaces).
fn check_key(key: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':');
    if key.is_empty() || key.len() > MAX_KEY_LEN || !key.chars().all(allowed) {
        return Err(format!(
            "{key:?}: a key is 1 to {MAX_KEY_LEN} ASCII letters, digits, `-`, `_` or `:`"
        ));
    }
    Ok(())
}

fn check_difficulty(difficulty: i64) -> Result<i64, String> {
    if !(-MAX_DIFFICULTY..=MAX_DIFFICULTY).contains(&difficulty) {
        return Err(format!(
            "gives {difficulty}; difficulties lie in -{MAX_DIFFICULTY}..={MAX_DIFFICULTY}"
        ));
    }
    Ok(difficulty)
}

/// A difficulty formula (a number in `D`).
fn number_formula(entry: Entry<'_>, field: &str, text: &str) -> Result<Formula, DataError> {
    Formula::parse(text, Kind::Number, false).map_err(|e| entry.invalid(field, e.to_string()))
}

/// A recipe error of an environment at one depth, its field under `prefix`.
fn level_error(entry: Entry<'_>, depth: u32, prefix: &str, e: RecipeError) -> DataError {
    let at = format!("{} at depth {depth}", entry.name());
    Entry::new(entry.file(), &at).invalid(format!("{prefix}{}", e.field), e.problem)
}
