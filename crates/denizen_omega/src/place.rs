//! Where the player is, as the rules see it: which requests for a floor the rules can
//! serve, whether a place read from a save fits the rules, and whether a wandering check
//! may run there. The plugin asks these; they decide nothing about the world.

use crate::OmegaRules;
use crate::bestiary::Bestiary;
use crate::location::{Environment, Level, MAX_DIFFICULTY, RequestError};
use crate::wander::WanderRule;

/// A place in the world of the rules: an environment, the dungeon when it is one, the
/// depth, the difficulty there, and a temple's deity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place<'a> {
    /// Environment key, such as `sewers` or `village` (empty before the first floor).
    pub environment: &'a str,
    /// The dungeon key when the environment is a dungeon.
    pub dungeon: Option<&'a str>,
    /// Depth (1 outside dungeons).
    pub depth: u32,
    /// Difficulty at this place.
    pub difficulty: i64,
    /// Inside a temple, its deity (numbered from 1).
    pub deity: Option<u8>,
}

/// Why a place read from a save does not fit the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum PlaceError {
    /// The environment, the dungeon or the depth is not the rules', or the deity is none
    /// of the bestiary's.
    #[error("{0}")]
    Request(#[from] RequestError),
    /// The dungeon named is an environment that is not a dungeon.
    #[error("the current dungeon `{0}` is not a dungeon")]
    NotADungeon(String),
    /// The difficulty is outside the rules' bounds.
    #[error("the current difficulty {0} is outside -{MAX_DIFFICULTY}..={MAX_DIFFICULTY}")]
    Difficulty(i64),
}

/// Why a wandering check cannot run at a place.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum NoWandering {
    /// Wandering monsters arrive only in the dungeon the player is in.
    #[error(
        "the current location `{0}` is not a dungeon: wandering monsters arrive only in \
         dungeons"
    )]
    NotInDungeon(String),
}

/// A temple's deity names one of the bestiary's deities (numbered from 1), or there is
/// none.
pub fn check_deity(bestiary: &Bestiary, deity: Option<u8>) -> Result<(), RequestError> {
    let deities = bestiary.names().deities.len();
    match deity {
        Some(d) if !(1..=deities).contains(&usize::from(d)) => {
            Err(RequestError::UnknownDeity { deity: d, deities })
        }
        _ => Ok(()),
    }
}

/// A floor the rules resolved for a request: which environment (an alias resolved to it)
/// and which of its levels. Read back with [`OmegaRules::floor`], on the rules that
/// resolved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloorRef {
    environment: usize,
    level: usize,
}

impl OmegaRules {
    /// The floor a request for `location` at `depth` (in a temple of `deity`) populates,
    /// or why the rules cannot serve it.
    pub fn floor_request(
        &self,
        location: &str,
        depth: u32,
        deity: Option<u8>,
    ) -> Result<FloorRef, RequestError> {
        let environment = self.locations.index_of(location)?;
        let level = self.locations.at(environment).level_index(depth)?;
        check_deity(&self.bestiary, deity)?;
        Ok(FloorRef { environment, level })
    }

    /// The environment and level of a floor these rules resolved.
    pub fn floor(&self, at: FloorRef) -> (&Environment, &Level) {
        let environment = self.locations.at(at.environment);
        (environment, &environment.levels()[at.level])
    }

    /// Whether a place (read from a save) fits the rules: environments they have (or
    /// none, as a new game), a depth the dungeon has, a deity of the bestiary and a
    /// difficulty inside the bounds.
    pub fn check_place(&self, place: Place<'_>) -> Result<(), PlaceError> {
        if place == Place::default() {
            return Ok(());
        }
        let environment = self.locations.get(place.environment)?;
        if let Some(key) = place.dungeon
            && !self.locations.get(key)?.is_dungeon()
        {
            return Err(PlaceError::NotADungeon(key.to_owned()));
        }
        if environment.is_dungeon() {
            environment.level(place.depth)?;
        }
        check_deity(&self.bestiary, place.deity)?;
        if !(-MAX_DIFFICULTY..=MAX_DIFFICULTY).contains(&place.difficulty) {
            return Err(PlaceError::Difficulty(place.difficulty));
        }
        Ok(())
    }

    /// The wandering check at a place: only inside the dungeon the player is in, with
    /// `R(the dungeon's depths) < difficulty`.
    pub fn wandering(&self, place: Place<'_>) -> Result<WanderRule, NoWandering> {
        let not_in_dungeon = || NoWandering::NotInDungeon(place.environment.to_owned());
        let dungeon = place
            .dungeon
            .filter(|&d| d == place.environment)
            .ok_or_else(not_in_dungeon)?;
        let env = self.locations.get(dungeon).map_err(|_| not_in_dungeon())?;
        let max_depth = env.dungeon.as_ref().ok_or_else(not_in_dungeon)?.depths;
        Ok(WanderRule {
            max_depth,
            difficulty: place.difficulty,
        })
    }
}

impl Default for Place<'_> {
    /// A new game's place: nowhere yet.
    fn default() -> Self {
        Self {
            environment: "",
            dungeon: None,
            depth: 0,
            difficulty: 0,
            deity: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sewers(depth: u32) -> Place<'static> {
        Place {
            environment: "sewers",
            dungeon: Some("sewers"),
            depth,
            difficulty: 4,
            deity: None,
        }
    }

    #[test]
    fn requests_the_rules_cannot_serve_are_refused() {
        let rules = OmegaRules::shipped();
        assert!(rules.floor_request("sewers", 3, None).is_ok());
        assert!(matches!(
            rules.floor_request("nowhere", 1, None),
            Err(RequestError::UnknownLocation { .. })
        ));
        assert!(matches!(
            rules.floor_request("sewers", 99, None),
            Err(RequestError::DepthOutOfRange { .. })
        ));
        assert_eq!(
            rules.floor_request("temple", 1, Some(7)).err(),
            Some(RequestError::UnknownDeity {
                deity: 7,
                deities: 6
            })
        );
        assert!(rules.floor_request("temple", 1, Some(6)).is_ok());
    }

    #[test]
    fn saved_places_are_checked() {
        let rules = OmegaRules::shipped();
        assert_eq!(rules.check_place(Place::default()), Ok(()));
        assert_eq!(rules.check_place(sewers(3)), Ok(()));
        assert!(rules.check_place(sewers(99)).is_err());
        let village_as_dungeon = Place {
            dungeon: Some("village"),
            ..sewers(3)
        };
        assert_eq!(
            rules.check_place(village_as_dungeon),
            Err(PlaceError::NotADungeon("village".into()))
        );
        let hard = Place {
            difficulty: MAX_DIFFICULTY + 1,
            ..sewers(3)
        };
        assert_eq!(
            rules.check_place(hard),
            Err(PlaceError::Difficulty(MAX_DIFFICULTY + 1))
        );
    }

    #[test]
    fn wandering_runs_only_inside_the_dungeon_of_the_place() {
        let rules = OmegaRules::shipped();
        let rule = rules.wandering(sewers(3)).unwrap();
        let depths = rules
            .locations
            .get("sewers")
            .unwrap()
            .dungeon
            .as_ref()
            .unwrap()
            .depths;
        assert_eq!(rule.max_depth, depths);
        assert_eq!(rule.difficulty, 4);
        let village = Place {
            environment: "village",
            dungeon: Some("sewers"),
            ..sewers(3)
        };
        assert_eq!(
            rules.wandering(village),
            Err(NoWandering::NotInDungeon("village".into()))
        );
        assert!(rules.wandering(Place::default()).is_err());
    }
}
