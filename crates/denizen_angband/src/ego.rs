//! Angband 2.7.9's ego items: the 87 of `e_info`, as shipped or a game's own file in the
//! same format. Which one an object becomes is a rule of its class (see
//! [`crate::make`]); the file gives each its rating, value and bonuses.

#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use denizen_core::{DataError, DataFile, Entry, load_ron};
use serde::{Deserialize, Serialize};

use crate::fields::{Numbered, is_cursed, load_numbered, number_after, short, within};

/// The shipped ego file's name in errors.
pub const SHIPPED_FILE: &str = "angband.egos.ron";
#[cfg(feature = "shipped")]
const SHIPPED_TEXT: &str = include_str!("../data/angband.egos.ron");
/// The most ego items a file may hold, and the highest number.
pub const MAX_EGOS: usize = 255;

/// An ego item's number (`e_info`'s).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct EgoId(pub u16);

/// One ego item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ego {
    /// Its number.
    pub id: EgoId,
    /// Its name ("of Resist Acid", "(Holy Avenger)").
    pub name: String,
    /// What making it adds to the level's rating.
    pub rating: i32,
    /// Its added value; 0 makes the object broken.
    pub cost: u32,
    /// The most each bonus moves (`randint` of it; 0 leaves the bonus alone).
    pub max_to_h: i32,
    /// See `max_to_h`.
    pub max_to_d: i32,
    /// See `max_to_h`.
    pub max_to_a: i32,
    /// See `max_to_h`.
    pub max_pval: i32,
    /// Its flags, as the file names them.
    pub flags: Vec<String>,
}

impl Ego {
    /// Whether it curses the object it makes.
    pub fn is_cursed(&self) -> bool {
        is_cursed(&self.flags)
    }
}

/// Every ego item of a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Egos {
    egos: Numbered<Ego>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EgoFile {
    egos: Vec<EgoRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EgoRecord {
    index: i64,
    name: String,
    rating: i64,
    cost: i64,
    max_to_h: i64,
    max_to_d: i64,
    max_to_a: i64,
    max_pval: i64,
    #[serde(default)]
    flags: Vec<String>,
}

impl Egos {
    /// Angband 2.7.9's ego items, embedded in the crate (non-commercial data: see the
    /// crate's `NOTICE`). Parsed once per process.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        static SHIPPED: OnceLock<Egos> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Self::from_file(DataFile::new(SHIPPED_FILE, SHIPPED_TEXT))
                    .expect("the shipped ego file is valid")
            })
            .clone()
    }

    /// A game's own ego file in the shipped format, validated entry by entry.
    pub fn from_file(file: DataFile<'_>) -> Result<Self, DataError> {
        let parsed: EgoFile = load_ron(file.text, file.name)?;
        let egos = load_numbered(
            file.name,
            "egos",
            parsed.egos,
            MAX_EGOS,
            |record| &record.name,
            EgoRecord::validate,
            |ego| ego.id.0,
        )?;
        Ok(Self { egos })
    }

    /// Every ego item, in file order.
    pub fn all(&self) -> &[Ego] {
        self.egos.all()
    }

    /// The ego item with a number, if the file has it.
    pub fn get(&self, id: EgoId) -> Option<&Ego> {
        self.egos.get(id.0)
    }
}

impl EgoRecord {
    fn validate(self, after: i64, entry: &Entry<'_>) -> Result<Ego, DataError> {
        let id = EgoId(number_after(entry, self.index, after, MAX_EGOS)?);
        let bonus = |field, value| within(entry, field, value, 0, 255).map(|v| v as i32);
        Ok(Ego {
            id,
            name: short(entry, "name", &self.name)?.to_owned(),
            rating: within(entry, "rating", self.rating, 0, 255)? as i32,
            cost: within(entry, "cost", self.cost, 0, 10_000_000)? as u32,
            max_to_h: bonus("max_to_h", self.max_to_h)?,
            max_to_d: bonus("max_to_d", self.max_to_d)?,
            max_to_a: bonus("max_to_a", self.max_to_a)?,
            max_pval: bonus("max_pval", self.max_pval)?,
            flags: self
                .flags
                .iter()
                .map(|flag| short(entry, "flags", flag).map(str::to_owned))
                .collect::<Result<_, _>>()?,
        })
    }
}
