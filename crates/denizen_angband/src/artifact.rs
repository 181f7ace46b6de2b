//! Angband 2.7.9's artifacts: the 113 of `a_info`, as shipped or a game's own file in the
//! same format, and the ledger of those already made (an artifact is made once).

use std::collections::BTreeSet;
#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use denizen_core::{DataError, DataFile, Dice, Entry, load_ron};
use serde::{Deserialize, Serialize};

use crate::fields::{Numbered, dice, is_cursed, load_numbered, number_after, short, within};

/// The shipped artifact file's name in errors.
pub const SHIPPED_FILE: &str = "angband.artifacts.ron";
#[cfg(feature = "shipped")]
const SHIPPED_TEXT: &str = include_str!("../data/angband.artifacts.ron");
/// The most artifacts a file may hold, and the highest number.
pub const MAX_ARTIFACTS: usize = 255;
/// Artifacts numbered below this are "special": made in place of a drawn kind
/// (`make_artifact_special`); the others turn a drawn kind of their class into them.
pub const FIRST_NORMAL: u16 = 16;
/// An artifact costing more than this adds 20 to the level's rating instead of 10.
pub const COSTLY: u32 = 50_000;

/// An artifact's number (`a_info`'s).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ArtifactId(pub u16);

/// One artifact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifact {
    /// Its number.
    pub id: ArtifactId,
    /// Its name ("of Galadriel", "'Ringil'").
    pub name: String,
    /// Its base kind's class.
    pub tval: u8,
    /// Its base kind's subclass.
    pub sval: u8,
    /// Its depth: made shallower only past a `1 in 2 * (level - depth)` roll.
    pub level: u8,
    /// The 1-in-`rarity` roll that makes it.
    pub rarity: u8,
    /// Its value; 0 makes it broken.
    pub cost: u32,
    /// Its own numbers, replacing the base kind's.
    pub pval: i32,
    /// See `pval`.
    pub ac: i32,
    /// See `pval`.
    pub damage: Dice,
    /// See `pval`.
    pub to_h: i32,
    /// See `pval`.
    pub to_d: i32,
    /// See `pval`.
    pub to_a: i32,
    /// See `pval`.
    pub weight: u32,
    /// Its flags, as the file names them.
    pub flags: Vec<String>,
}

impl Artifact {
    /// Whether it is one of the special artifacts (made in place of a drawn kind).
    pub fn is_special(&self) -> bool {
        self.id.0 < FIRST_NORMAL
    }

    /// Whether it is cursed.
    pub fn is_cursed(&self) -> bool {
        is_cursed(&self.flags)
    }

    /// What making it adds to the level's rating: 10, or 20 when it costs more than
    /// [`COSTLY`].
    pub fn rating(&self) -> i32 {
        if self.cost > COSTLY { 20 } else { 10 }
    }
}

/// Every artifact of a rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Artifacts {
    artifacts: Numbered<Artifact>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtifactFile {
    artifacts: Vec<ArtifactRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtifactRecord {
    index: i64,
    name: String,
    tval: i64,
    sval: i64,
    level: i64,
    rarity: i64,
    cost: i64,
    pval: i64,
    ac: i64,
    damage: String,
    to_h: i64,
    to_d: i64,
    to_a: i64,
    weight: i64,
    #[serde(default)]
    flags: Vec<String>,
}

impl Artifacts {
    /// Angband 2.7.9's artifacts, embedded in the crate (non-commercial data: see the
    /// crate's `NOTICE`). Parsed once per process.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        static SHIPPED: OnceLock<Artifacts> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Self::from_file(DataFile::new(SHIPPED_FILE, SHIPPED_TEXT))
                    .expect("the shipped artifact file is valid")
            })
            .clone()
    }

    /// A game's own artifact file in the shipped format, validated entry by entry.
    pub fn from_file(file: DataFile<'_>) -> Result<Self, DataError> {
        let parsed: ArtifactFile = load_ron(file.text, file.name)?;
        let artifacts = load_numbered(
            file.name,
            "artifacts",
            parsed.artifacts,
            MAX_ARTIFACTS,
            |record| &record.name,
            ArtifactRecord::validate,
            |artifact| artifact.id.0,
        )?;
        Ok(Self { artifacts })
    }

    /// Every artifact, in number order.
    pub fn all(&self) -> &[Artifact] {
        self.artifacts.all()
    }

    /// The artifact with a number, if the file has it.
    pub fn get(&self, id: ArtifactId) -> Option<&Artifact> {
        self.artifacts.get(id.0)
    }
}

impl ArtifactRecord {
    fn validate(self, after: i64, entry: &Entry<'_>) -> Result<Artifact, DataError> {
        let id = ArtifactId(number_after(entry, self.index, after, MAX_ARTIFACTS)?);
        let number = |field, value| within(entry, field, value, -1_000, 1_000).map(|v| v as i32);
        Ok(Artifact {
            id,
            name: short(entry, "name", &self.name)?.to_owned(),
            tval: within(entry, "tval", self.tval, 0, 255)? as u8,
            sval: within(entry, "sval", self.sval, 0, 255)? as u8,
            level: within(entry, "level", self.level, 0, 255)? as u8,
            rarity: within(entry, "rarity", self.rarity, 1, 255)? as u8,
            cost: within(entry, "cost", self.cost, 0, 10_000_000)? as u32,
            pval: number("pval", self.pval)?,
            ac: number("ac", self.ac)?,
            damage: dice(entry, "damage", &self.damage)?,
            to_h: number("to_h", self.to_h)?,
            to_d: number("to_d", self.to_d)?,
            to_a: number("to_a", self.to_a)?,
            weight: within(entry, "weight", self.weight, 0, 1_000_000)? as u32,
            flags: self
                .flags
                .iter()
                .map(|flag| short(entry, "flags", flag).map(str::to_owned))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// The artifacts already made in a game: each is made once (`cur_num`). Outside preserve
/// mode an artifact left on a level stays made; in preserve mode one the player did not
/// identify is made available again when its level is wiped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ArtifactLedger {
    made: BTreeSet<ArtifactId>,
}

impl ArtifactLedger {
    /// No artifact made (a new game).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether an artifact was made.
    pub fn is_made(&self, id: ArtifactId) -> bool {
        self.made.contains(&id)
    }

    /// Marks an artifact made.
    pub fn make(&mut self, id: ArtifactId) {
        self.made.insert(id);
    }

    /// Makes an artifact available again (preserve mode, a wiped level).
    pub fn give_back(&mut self, id: ArtifactId) {
        self.made.remove(&id);
    }

    /// The artifacts made, by number.
    pub fn iter(&self) -> impl Iterator<Item = ArtifactId> + '_ {
        self.made.iter().copied()
    }
}
