//! Species templates: one entry of Omega's monster table, and its flags.

use bitflags::bitflags;
use serde::{Deserialize, Serialize};

use crate::items::{Colour, Uniqueness};

/// A species' index: its position in the bestiary (0-149 for Omega).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct SpeciesId(pub u16);

impl SpeciesId {
    /// The index as a `usize`, for slices.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Initial status flags of a species, as a data file lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Status {
    Awake,
    Edible,
    Flying,
    Greedy,
    Hostile,
    Hungry,
    Intangible,
    Invisible,
    Mobile,
    Needy,
    Poisonous,
    Swimming,
    Wandering,
    /// Lives only in water (the source's ONLYSWIM): its starting square becomes water.
    WaterOnly,
}

bitflags! {
    /// A set of [`Status`] flags, one bit each: what [`SpeciesTemplate::has`] tests, and a
    /// made creature's own status word ([`Monster::status`](crate::Monster::status)).
    /// Serialised by name (`"AWAKE | MOBILE"`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub struct StatusSet: u16 {
        #[allow(missing_docs)]
        const AWAKE = 1 << 0;
        #[allow(missing_docs)]
        const EDIBLE = 1 << 1;
        #[allow(missing_docs)]
        const FLYING = 1 << 2;
        #[allow(missing_docs)]
        const GREEDY = 1 << 3;
        #[allow(missing_docs)]
        const HOSTILE = 1 << 4;
        #[allow(missing_docs)]
        const HUNGRY = 1 << 5;
        #[allow(missing_docs)]
        const INTANGIBLE = 1 << 6;
        #[allow(missing_docs)]
        const INVISIBLE = 1 << 7;
        #[allow(missing_docs)]
        const MOBILE = 1 << 8;
        #[allow(missing_docs)]
        const NEEDY = 1 << 9;
        #[allow(missing_docs)]
        const POISONOUS = 1 << 10;
        #[allow(missing_docs)]
        const SWIMMING = 1 << 11;
        #[allow(missing_docs)]
        const WANDERING = 1 << 12;
        #[allow(missing_docs)]
        const WATER_ONLY = 1 << 13;
    }
}

impl From<Status> for StatusSet {
    fn from(status: Status) -> Self {
        match status {
            Status::Awake => Self::AWAKE,
            Status::Edible => Self::EDIBLE,
            Status::Flying => Self::FLYING,
            Status::Greedy => Self::GREEDY,
            Status::Hostile => Self::HOSTILE,
            Status::Hungry => Self::HUNGRY,
            Status::Intangible => Self::INTANGIBLE,
            Status::Invisible => Self::INVISIBLE,
            Status::Mobile => Self::MOBILE,
            Status::Needy => Self::NEEDY,
            Status::Poisonous => Self::POISONOUS,
            Status::Swimming => Self::SWIMMING,
            Status::Wandering => Self::WANDERING,
            Status::WaterOnly => Self::WATER_ONLY,
        }
    }
}

/// Damage kinds a species ignores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Immunity {
    Acid,
    Cold,
    Electricity,
    Fear,
    Flame,
    Gaze,
    Infection,
    NegativeEnergy,
    NormalDamage,
    OtherMagic,
    Poison,
    Sleep,
    Theft,
}

/// An identity-specific constructor a template goes through when it is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Construction {
    /// An adventurer from the game's log; dead ones return as undead.
    LogAdventurer,
    /// A historical officeholder (one of fifteen roles).
    Officeholder,
    /// A random occupation name.
    Occupation,
    /// A random occupation name, and a later change of form.
    Were,
    /// A deity suffix on the name.
    Angel,
    /// Becomes a nymph or a satyr by the player's preference.
    NymphOrSatyr,
}

/// The named behaviour routines of a species (names only; the host game implements them).
/// Each may be left out of a data file (empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[allow(missing_docs)]
pub struct Behaviour {
    pub talk: String,
    pub movement: String,
    pub melee: String,
    pub strike: String,
    pub special: String,
}

/// One species template: a row of the monster table.
///
/// A data file must give `key`, `name`, `band` and `glyph`; every other field may be left
/// out and takes the value its doc names (`docs/DATA.md` lists them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeciesTemplate {
    /// Stable key that data files use to refer to the species.
    pub key: String,
    /// Name as shown to the player.
    pub name: String,
    /// Bestiary band: the ordinary pool at difficulty `d` draws from bands `0..=d`.
    pub band: u8,
    /// Listed level: feeds item levels and variant bonuses, not selection (default 0).
    #[serde(default)]
    pub level: i32,
    /// Hit points (default 1).
    #[serde(default = "one")]
    pub hp: i32,
    /// To-hit rating (default 0).
    #[serde(default)]
    pub hit: i32,
    /// Armour class (default 0).
    #[serde(default)]
    pub ac: i32,
    /// Damage rating (default 0).
    #[serde(default)]
    pub damage: i32,
    /// Awareness (sense) range (default 5).
    #[serde(default = "five")]
    pub awareness: i32,
    /// Wakeup distance (default 5).
    #[serde(default = "five")]
    pub wakeup: i32,
    /// Action delay: lower is faster (default 5).
    #[serde(default = "five")]
    pub speed: i32,
    /// Sleep rating 0-100: awake at construction when the rating is below `R(100)`
    /// (default 0: awake 99 times in 100).
    #[serde(default)]
    pub sleep: i32,
    /// Treasure allowance: `R(treasure)` random items at construction (default 0).
    #[serde(default)]
    pub treasure: u32,
    /// Experience value (default 0).
    #[serde(default)]
    pub xp: i32,
    /// Key of the item the species starts with, if any (default none).
    #[serde(default)]
    pub fixed_item: Option<String>,
    /// Anything but `Common` reserves the template for special construction (default
    /// `Common`).
    #[serde(default)]
    pub uniqueness: Uniqueness,
    /// Initial status flags (default `[Mobile, Hostile]`).
    #[serde(default = "mobile_and_hostile")]
    pub status: Vec<Status>,
    /// Immunities (default none).
    #[serde(default)]
    pub immunities: Vec<Immunity>,
    /// Named behaviour routines (default all empty).
    #[serde(default)]
    pub behaviour: Behaviour,
    /// Melee pattern string (default empty).
    #[serde(default)]
    pub melee_pattern: String,
    /// Map glyph.
    pub glyph: char,
    /// Glyph colour (default `White`).
    #[serde(default = "white")]
    pub colour: Colour,
    /// Identity-specific constructor, if any (default none).
    #[serde(default)]
    pub construction: Option<Construction>,
    /// `status` as a set, filled when the bestiary is loaded (for [`Self::has`]).
    #[serde(skip)]
    status_set: StatusSet,
}

fn one() -> i32 {
    1
}

fn five() -> i32 {
    5
}

fn mobile_and_hostile() -> Vec<Status> {
    vec![Status::Mobile, Status::Hostile]
}

fn white() -> Colour {
    Colour::White
}

impl SpeciesTemplate {
    /// Whether the species has an initial status flag.
    pub fn has(&self, status: Status) -> bool {
        self.status_set.contains(status.into())
    }

    /// The initial status flags as a set.
    pub fn statuses(&self) -> StatusSet {
        self.status_set
    }

    /// Whether the ordinary pool may produce it (it is not reserved for special construction).
    pub fn is_ordinary(&self) -> bool {
        self.uniqueness == Uniqueness::Common
    }

    /// Fills the flag set from the listed statuses (the loader calls this once).
    pub(crate) fn index_statuses(&mut self) {
        self.status_set = self
            .status
            .iter()
            .fold(StatusSet::empty(), |set, &s| set | s.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_bit() {
        let all = [
            Status::Awake,
            Status::Edible,
            Status::Flying,
            Status::Greedy,
            Status::Hostile,
            Status::Hungry,
            Status::Intangible,
            Status::Invisible,
            Status::Mobile,
            Status::Needy,
            Status::Poisonous,
            Status::Swimming,
            Status::Wandering,
            Status::WaterOnly,
        ];
        let set = all.iter().fold(StatusSet::empty(), |s, &f| s | f.into());
        assert_eq!(set.bits().count_ones() as usize, all.len());
        assert_eq!(set, StatusSet::all());
    }

    #[test]
    fn a_status_listed_twice_is_still_held() {
        let mut template: SpeciesTemplate = crate::Bestiary::shipped().get(SpeciesId(15)).clone();
        template.status = vec![Status::Hostile, Status::Mobile, Status::Hostile];
        template.index_statuses();
        assert!(template.has(Status::Hostile) && template.has(Status::Mobile));
        assert!(!template.has(Status::Awake));
        assert_eq!(template.statuses(), StatusSet::HOSTILE | StatusSet::MOBILE);
    }
}
