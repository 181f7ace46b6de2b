//! The races: Angband 2.7.9's 547 monsters as shipped, or a game's own file in the same
//! format, validated entry by entry with every number bounded.

use std::collections::HashMap;
#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use denizen_core::{DataError, DataFile, Dice, Entry, load_ron};
use serde::{Deserialize, Serialize};

use crate::fields::{dice, excerpt, short, within};
use crate::flags::{InnateFlags, RaceFlags, SpellFlags};

/// The shipped race file's name in errors.
pub const SHIPPED_FILE: &str = "angband.races.ron";
#[cfg(feature = "shipped")]
const SHIPPED_TEXT: &str = include_str!("../data/angband.races.ron");

/// The most races a file may hold: race numbers fit in 16 bits with room to spare.
pub const MAX_RACES: usize = 4096;
/// The deepest native level a race may have (2.7.9's `MAX_DEPTH - 1`).
pub const MAX_LEVEL: i64 = 127;
/// The most blows a race has (2.7.9's four blow slots).
pub const MAX_BLOWS: usize = 4;
pub use crate::fields::MAX_TEXT;

/// A race's number in its file: 1 for the first race, counting up.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct RaceId(pub u16);

impl RaceId {
    /// The race's position in [`Races::all`].
    pub fn slot(self) -> usize {
        usize::from(self.0).saturating_sub(1)
    }
}

/// One melee blow: how it lands, what it does, and its damage dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blow {
    /// The method (`HIT`, `BITE`, `TOUCH`, ...).
    pub method: String,
    /// The effect (`HURT`, `POISON`, `EAT_GOLD`, ...), if the blow has one.
    pub effect: Option<String>,
    /// The damage dice, if the blow does damage.
    pub damage: Option<Dice>,
}

/// A monster race: everything the allocator, the layout and the population read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    /// Its number in the file.
    pub id: RaceId,
    /// Its name (a unique's is its own; other races may share one).
    pub name: String,
    /// Display character.
    pub symbol: char,
    /// Colour letter (`d w s o r g b u D W v y R G B U`).
    pub colour: char,
    /// Native level, 0 for the town.
    pub level: u8,
    /// The allocator keeps a pick of this race one time in `rarity`; 0 never draws it.
    pub rarity: u8,
    /// Raw speed: 110 is normal.
    pub speed: u8,
    /// Hit dice (the maximum roll with `FORCE_MAXHP`).
    pub hit_dice: Dice,
    /// Armour class.
    pub armour: u16,
    /// Alertness: 0 never sleeps; placed asleep, it sleeps `2s + 1d(10s)` turns.
    pub sleep: u8,
    /// Sensing radius in grids.
    pub vision: u8,
    /// Experience value at level 1.
    pub experience: u32,
    /// Basic flags.
    pub flags: RaceFlags,
    /// Innate attacks and breaths.
    pub innate: InnateFlags,
    /// Spells.
    pub spells: SpellFlags,
    /// Percent chance to cast or breathe in a turn (`100 / X` of `1_IN_X`), 0 for none.
    pub spell_chance: u8,
    /// Melee blows, at most four.
    pub blows: Vec<Blow>,
}

impl Race {
    /// Whether the race is unique.
    pub fn is_unique(&self) -> bool {
        self.flags.contains(RaceFlags::UNIQUE)
    }
}

/// Every race of a rule set, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Races {
    races: Vec<Race>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RaceFile {
    races: Vec<RaceRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RaceRecord {
    index: i64,
    name: String,
    symbol: char,
    colour: char,
    level: i64,
    rarity: i64,
    speed: i64,
    hit_dice: String,
    armour: i64,
    sleep: i64,
    vision: i64,
    experience: i64,
    #[serde(default)]
    flags: Vec<String>,
    #[serde(default)]
    spells: Vec<String>,
    #[serde(default)]
    blows: Vec<String>,
}

const COLOURS: &str = "dwsorgbuDWvyRGBU";

impl Races {
    /// Angband 2.7.9's 547 races, embedded in the crate (non-commercial data: see the
    /// crate's `NOTICE`). Parsed once per process.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        static SHIPPED: OnceLock<Races> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Self::from_file(DataFile::new(SHIPPED_FILE, SHIPPED_TEXT))
                    .expect("the shipped race file is valid")
            })
            .clone()
    }

    /// A game's own race file in the shipped format, validated.
    pub fn from_file(file: DataFile<'_>) -> Result<Self, DataError> {
        let parsed: RaceFile = load_ron(file.text, file.name)?;
        if parsed.races.is_empty() || parsed.races.len() > MAX_RACES {
            return Err(DataError::invalid(
                file.name,
                "races",
                "races",
                format!(
                    "{} races; a file holds 1 to {MAX_RACES}",
                    parsed.races.len()
                ),
            ));
        }
        let mut races = Vec::with_capacity(parsed.races.len());
        for (slot, record) in parsed.races.into_iter().enumerate() {
            let label = format!("races[{slot}] {:?}", excerpt(&record.name));
            let entry = Entry::new(file.name, &label);
            let race = record.validate(slot, &entry)?;
            races.push(race);
        }
        // Angband's group versions share a name with their single version (two "Novice
        // mage"s); a unique's name must be its own, since a player's kill list and the
        // live-uniques ledger are read by name.
        let mut named: HashMap<&str, usize> = HashMap::new();
        for race in &races {
            *named.entry(race.name.as_str()).or_default() += 1;
        }
        for (slot, race) in races.iter().enumerate() {
            if race.is_unique() && named.get(race.name.as_str()).copied().unwrap_or(0) > 1 {
                let other = races
                    .iter()
                    .position(|r| r.name == race.name && r.id != race.id)
                    .unwrap_or(slot);
                let label = format!("races[{}] {:?}", other.max(slot), excerpt(&race.name));
                return Err(Entry::new(file.name, &label).invalid(
                    "name",
                    "a unique's name must be its own; another race has it",
                ));
            }
        }
        Ok(Self { races })
    }

    /// Every race, in file order (race `n` at position `n - 1`).
    pub fn all(&self) -> &[Race] {
        &self.races
    }

    /// The race with a number, if the file has it.
    pub fn get(&self, id: RaceId) -> Option<&Race> {
        id.0.checked_sub(1)
            .and_then(|slot| self.races.get(usize::from(slot)))
    }

    /// The first race with a name (Angband's group versions share their single
    /// version's name; a unique's name is always its own).
    pub fn by_name(&self, name: &str) -> Option<&Race> {
        self.races.iter().find(|race| race.name == name)
    }

    /// How many races there are.
    pub fn len(&self) -> usize {
        self.races.len()
    }

    /// Whether there are none (never true of a loaded file).
    pub fn is_empty(&self) -> bool {
        self.races.is_empty()
    }
}

/// Hit dice: at least one die of at least one side, so every monster has hit points.
fn hit_dice(entry: &Entry<'_>, text: &str) -> Result<Dice, DataError> {
    let dice = dice(entry, "hit_dice", text)?;
    if dice.count == 0 || dice.sides == 0 {
        return Err(entry.invalid("hit_dice", format!("{dice}: a race needs at least 1d1")));
    }
    Ok(dice)
}

impl RaceRecord {
    fn validate(self, slot: usize, entry: &Entry<'_>) -> Result<Race, DataError> {
        let expected = slot as i64 + 1;
        if self.index != expected {
            return Err(entry.invalid(
                "index",
                format!(
                    "{}: races are numbered from 1 in file order, so this is {expected}",
                    self.index
                ),
            ));
        }
        short(entry, "name", &self.name)?;
        if !self.symbol.is_ascii_graphic() {
            return Err(entry.invalid("symbol", "must be a printable ASCII character"));
        }
        if !COLOURS.contains(self.colour) {
            return Err(entry.invalid("colour", format!("must be one of {COLOURS}")));
        }
        let level = within(entry, "level", self.level, 0, MAX_LEVEL)?;
        let rarity = within(entry, "rarity", self.rarity, 0, 255)?;
        if rarity == 0 && level > 0 {
            return Err(entry.invalid(
                "rarity",
                "0 means the allocator never draws the race, so its level would mean nothing; give it a rarity, or level 0",
            ));
        }
        let mut flags = RaceFlags::empty();
        for token in &self.flags {
            let flag = RaceFlags::from_name(short(entry, "flags", token)?).ok_or_else(|| {
                entry.invalid("flags", format!("unknown flag `{}`", excerpt(token)))
            })?;
            flags |= flag;
        }
        let (mut innate, mut spells, mut spell_chance) =
            (InnateFlags::empty(), SpellFlags::empty(), 0);
        for token in &self.spells {
            let token = short(entry, "spells", token)?;
            if let Some(x) = token.strip_prefix("1_IN_") {
                let x: i64 = x
                    .parse()
                    .map_err(|_| entry.invalid("spells", format!("`{token}`: expected 1_IN_X")))?;
                let x = within(entry, "spells", x, 1, 100)?;
                if spell_chance != 0 {
                    return Err(entry.invalid("spells", "more than one 1_IN_X frequency"));
                }
                spell_chance = (100 / x) as u8;
            } else if let Some(flag) = InnateFlags::from_name(token) {
                innate |= flag;
            } else if let Some(flag) = SpellFlags::from_name(token) {
                spells |= flag;
            } else {
                return Err(entry.invalid("spells", format!("unknown spell `{token}`")));
            }
        }
        if (!innate.is_empty() || !spells.is_empty()) && spell_chance == 0 {
            return Err(entry.invalid("spells", "spells without a 1_IN_X frequency"));
        }
        if self.blows.len() > MAX_BLOWS {
            return Err(entry.invalid(
                "blows",
                format!("{} blows; at most {MAX_BLOWS}", self.blows.len()),
            ));
        }
        let mut blows = Vec::with_capacity(self.blows.len());
        for text in &self.blows {
            let mut parts = short(entry, "blows", text)?.split(':');
            let method = parts.next().unwrap_or_default();
            if method.is_empty() {
                return Err(entry.invalid("blows", format!("`{text}` has no method")));
            }
            let effect = parts.next().map(str::to_owned);
            let damage = parts.next().map(|d| dice(entry, "blows", d)).transpose()?;
            if parts.next().is_some() {
                return Err(
                    entry.invalid("blows", format!("`{text}`: expected METHOD[:EFFECT[:XdY]]"))
                );
            }
            blows.push(Blow {
                method: method.to_owned(),
                effect,
                damage,
            });
        }
        Ok(Race {
            id: RaceId(expected as u16),
            name: self.name,
            symbol: self.symbol,
            colour: self.colour,
            level: level as u8,
            rarity: rarity as u8,
            speed: within(entry, "speed", self.speed, 1, 255)? as u8,
            hit_dice: hit_dice(entry, &self.hit_dice)?,
            armour: within(entry, "armour", self.armour, 0, 32_767)? as u16,
            sleep: within(entry, "sleep", self.sleep, 0, 255)? as u8,
            vision: within(entry, "vision", self.vision, 0, 255)? as u8,
            experience: within(entry, "experience", self.experience, 0, 1_000_000)? as u32,
            flags,
            innate,
            spells,
            spell_chance,
            blows,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_races_match_the_data_readme_counts() {
        let races = Races::shipped();
        assert_eq!(races.len(), 547);
        let count = |f: RaceFlags| races.all().iter().filter(|r| r.flags.contains(f)).count();
        assert_eq!(count(RaceFlags::UNIQUE), 92);
        assert_eq!(count(RaceFlags::ANIMAL), 165);
        assert_eq!(count(RaceFlags::UNDEAD), 63);
        assert_eq!(count(RaceFlags::FRIENDS), 67);
        assert_eq!(count(RaceFlags::ESCORT), 30);
        assert_eq!(count(RaceFlags::ESCORTS), 11);
        assert_eq!(count(RaceFlags::FORCE_DEPTH), 2);
        assert_eq!(races.all().iter().filter(|r| r.level == 0).count(), 14);
        assert_eq!(races.all().iter().map(|r| r.level).max(), Some(100));
        let symbol = |c| races.all().iter().filter(|r| r.symbol == c).count();
        assert_eq!(
            (
                symbol('o'),
                symbol('T'),
                symbol('P'),
                symbol('d'),
                symbol('D')
            ),
            (18, 16, 9, 30, 25)
        );
        let dog = races.by_name("Grip, Farmer Maggot's dog").unwrap();
        assert_eq!((dog.symbol, dog.level, dog.speed), ('C', 2, 120));
        assert!(dog.is_unique());
        let urchin = races.get(RaceId(1)).unwrap();
        assert_eq!(urchin.name, "Filthy street urchin");
        assert_eq!(urchin.blows[1].effect.as_deref(), Some("EAT_GOLD"));
    }
}
