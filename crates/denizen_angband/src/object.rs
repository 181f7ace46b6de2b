//! Angband 2.7.9's object kinds, as shipped or a game's own file in the same format, and
//! the object allocator (`get_obj_num`): the one-in-twenty level boost, the prefix by
//! allocation level, the best-of-one-two-or-three pick, the "good" filter and the
//! 1-in-chance acceptance.
//!
//! As for the monsters, the rules are written once, as the constants and predicates of
//! this module: [`ObjectAllocator::odds`] turns them into exact probabilities, and
//! [`ObjectAllocator::draw`] samples from the same weights; [`draw_kind_by_rejection`]
//! runs the original's loop, which tests hold the weights against.

#[cfg(feature = "shipped")]
use std::sync::OnceLock;

use denizen_core::{DataError, DataFile, Dice, Entry, Generator, load_ron};
use serde::{Deserialize, Serialize};

use crate::fields::{Numbered, dice, load_numbered, number_after, short, within};
use crate::rng::{rand0, randint};
use crate::table::{
    AliasTable, LevelCache, LevelPrefix, MAX_DRAW_LEVEL, MAX_PICKS, failure_chance, picks_on_roll,
    unit,
};

/// The shipped object file's name in errors.
pub const SHIPPED_FILE: &str = "angband.objects.ron";
#[cfg(feature = "shipped")]
const SHIPPED_TEXT: &str = include_str!("../data/angband.objects.ron");
/// The most kinds a file may hold, and the highest kind number.
pub const MAX_KINDS: usize = 4096;
/// The most allocation pairs a kind has (an `A:` line holds four).
pub const MAX_ALLOC_PAIRS: usize = 4;
/// A draw's level is boosted one time in this many.
pub const BOOST_ONE_IN: i32 = 20;
/// A boosted level is `1 + level * BOOST_SIDES / randint(BOOST_SIDES)`.
pub const BOOST_SIDES: i32 = 128;

/// The object classes (2.7.9's `tval`s) the rules name.
pub mod tval {
    /// Spikes.
    pub const SPIKE: u8 = 5;
    /// Sling shots.
    pub const SHOT: u8 = 16;
    /// Arrows.
    pub const ARROW: u8 = 17;
    /// Bolts.
    pub const BOLT: u8 = 18;
    /// Bows, slings and crossbows.
    pub const BOW: u8 = 19;
    /// Diggers.
    pub const DIGGING: u8 = 20;
    /// Hafted weapons.
    pub const HAFTED: u8 = 21;
    /// Polearms.
    pub const POLEARM: u8 = 22;
    /// Swords.
    pub const SWORD: u8 = 23;
    /// Boots, the first armour class.
    pub const BOOTS: u8 = 30;
    /// Gloves.
    pub const GLOVES: u8 = 31;
    /// Helms.
    pub const HELM: u8 = 32;
    /// Crowns.
    pub const CROWN: u8 = 33;
    /// Shields.
    pub const SHIELD: u8 = 34;
    /// Cloaks.
    pub const CLOAK: u8 = 35;
    /// Soft body armour.
    pub const SOFT_ARMOR: u8 = 36;
    /// Hard body armour.
    pub const HARD_ARMOR: u8 = 37;
    /// Dragon scale mail, the last armour class.
    pub const DRAG_ARMOR: u8 = 38;
    /// Amulets.
    pub const AMULET: u8 = 40;
    /// Rings.
    pub const RING: u8 = 45;
    /// Scrolls.
    pub const SCROLL: u8 = 70;
    /// Potions.
    pub const POTION: u8 = 75;
    /// Magic books.
    pub const MAGIC_BOOK: u8 = 90;
    /// Prayer books.
    pub const PRAYER_BOOK: u8 = 91;
}

/// The ring of speed's `sval`.
pub const SV_RING_SPEED: u8 = 31;
/// The amulet of the Magi's `sval`.
pub const SV_AMULET_THE_MAGI: u8 = 8;
/// The first dungeon book's `sval` (books below it are sold in town).
pub const SV_FIRST_DUNGEON_BOOK: u8 = 4;

/// A kind's number (`k_info`'s index): increasing in file order, with gaps where the
/// original leaves them.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct KindId(pub u16);

/// One object kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectKind {
    /// Its number in the file.
    pub id: KindId,
    /// Its name.
    pub name: String,
    /// Display character.
    pub symbol: char,
    /// Colour letter.
    pub colour: char,
    /// Class.
    pub tval: u8,
    /// Subclass.
    pub sval: u8,
    /// The class's own number (a ring's bonus, a food's nourishment, ...).
    pub pval: i32,
    /// The kind's level: its rating counts what it lies above the depth.
    pub level: u8,
    /// Weight in tenths of a pound.
    pub weight: u32,
    /// Base value in gold.
    pub cost: u32,
    /// Allocation pairs: (allocation level, 1-in-chance acceptance); none for kinds no
    /// draw gives.
    pub alloc: Vec<(u8, u8)>,
    /// Base armour class.
    pub ac: i32,
    /// Base damage dice.
    pub damage: Dice,
    /// Base to-hit.
    pub to_h: i32,
    /// Base to-dam.
    pub to_d: i32,
    /// Base to-AC.
    pub to_a: i32,
    /// Flags, as the file names them.
    pub flags: Vec<String>,
}

impl ObjectKind {
    /// Whether a "good" call may make this kind (`kind_is_good`): armour with a base
    /// to-AC of at least 0; a bow, weapon or digger with base to-hit and to-dam of at
    /// least 0; arrows and bolts; the dungeon books; the ring of speed and the amulet of
    /// the Magi.
    pub fn is_good(&self) -> bool {
        match self.tval {
            tval::BOOTS..=tval::DRAG_ARMOR => self.to_a >= 0,
            tval::BOW..=tval::SWORD => self.to_h >= 0 && self.to_d >= 0,
            tval::ARROW | tval::BOLT => true,
            tval::MAGIC_BOOK | tval::PRAYER_BOOK => self.sval >= SV_FIRST_DUNGEON_BOOK,
            tval::RING => self.sval == SV_RING_SPEED,
            tval::AMULET => self.sval == SV_AMULET_THE_MAGI,
            _ => false,
        }
    }
}

/// A kind's name as a player reads it, for `number` objects, as 2.7.9's `object_desc`
/// spells it: the name's `&` (and the space after it) becomes the article, "a" or "an"
/// before a vowel, the count when there are several, "The" for an artifact; its `~`
/// becomes the plural, "es" after an `s` or an `h` and "s" otherwise, when there are
/// several. A name without a `&` takes no article.
///
/// ```
/// use denizen_angband::object::display_name;
///
/// assert_eq!(display_name("& Long Sword~", 1, false), "a Long Sword");
/// assert_eq!(display_name("& Ration~ of Food", 3, false), "3 Rations of Food");
/// assert_eq!(display_name("& Iron Shot~", 1, false), "an Iron Shot");
/// assert_eq!(display_name("& Torch~", 2, false), "2 Torches");
/// assert_eq!(display_name("& Long Sword~", 1, true), "The Long Sword");
/// ```
pub fn display_name(name: &str, number: u32, artifact: bool) -> String {
    let article = |vowel: bool| match (number, artifact, vowel) {
        (0, ..) => "no more ".to_owned(),
        (1, true, _) => "The ".to_owned(),
        (1, false, true) => "an ".to_owned(),
        (1, false, false) => "a ".to_owned(),
        (n, ..) => format!("{n} "),
    };
    spell(name, article, number != 1)
}

/// A kind's name in a list of kinds: singular, with no article (`& Ration~ of Food` is
/// `Ration of Food`).
pub fn plain_name(name: &str) -> String {
    spell(name, |_| String::new(), false)
}

/// A name with its `&` replaced by `article(whether a vowel follows)` and its `~` by the
/// plural when `plural`.
fn spell(name: &str, article: impl Fn(bool) -> String, plural: bool) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '&' => {
                rest = rest.strip_prefix(' ').unwrap_or(rest);
                out.push_str(&article(
                    rest.starts_with(|c: char| "AEIOUaeiou".contains(c)),
                ));
            }
            '~' if plural => {
                if out.ends_with(['s', 'h']) {
                    out.push('e');
                }
                out.push('s');
            }
            '~' => {}
            c => out.push(c),
        }
    }
    out
}

/// Every object kind of a rule set, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectKinds {
    kinds: Numbered<ObjectKind>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KindFile {
    kinds: Vec<KindRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KindRecord {
    index: i64,
    name: String,
    symbol: char,
    colour: char,
    tval: i64,
    sval: i64,
    pval: i64,
    level: i64,
    weight: i64,
    cost: i64,
    alloc: Vec<(i64, i64)>,
    ac: i64,
    damage: String,
    to_h: i64,
    to_d: i64,
    to_a: i64,
    #[serde(default)]
    flags: Vec<String>,
}

impl ObjectKinds {
    /// Angband 2.7.9's 435 kinds, embedded in the crate (non-commercial data: see the
    /// crate's `NOTICE`). Parsed once per process.
    #[cfg(feature = "shipped")]
    pub fn shipped() -> Self {
        static SHIPPED: OnceLock<ObjectKinds> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Self::from_file(DataFile::new(SHIPPED_FILE, SHIPPED_TEXT))
                    .expect("the shipped object file is valid")
            })
            .clone()
    }

    /// A game's own object file in the shipped format, validated entry by entry.
    pub fn from_file(file: DataFile<'_>) -> Result<Self, DataError> {
        let parsed: KindFile = load_ron(file.text, file.name)?;
        let kinds = load_numbered(
            file.name,
            "kinds",
            parsed.kinds,
            MAX_KINDS,
            |record| &record.name,
            KindRecord::validate,
            |kind| kind.id.0,
        )?;
        Ok(Self { kinds })
    }

    /// Every kind, in file order.
    pub fn all(&self) -> &[ObjectKind] {
        self.kinds.all()
    }

    /// The kind with a number, if the file has it.
    pub fn get(&self, id: KindId) -> Option<&ObjectKind> {
        self.kinds.get(id.0)
    }

    /// The file position of a kind number.
    fn slot(&self, id: KindId) -> Option<usize> {
        self.kinds.slot(id.0)
    }

    /// How many kinds there are.
    pub fn len(&self) -> usize {
        self.kinds.all().len()
    }

    /// Whether there are none (never true of a loaded file).
    pub fn is_empty(&self) -> bool {
        self.kinds.all().is_empty()
    }
}

impl KindRecord {
    /// Validates a kind that follows kind number `after` in the file.
    fn validate(self, after: i64, entry: &Entry<'_>) -> Result<ObjectKind, DataError> {
        let id = KindId(number_after(entry, self.index, after, MAX_KINDS)?);
        if self.alloc.len() > MAX_ALLOC_PAIRS {
            return Err(entry.invalid(
                "alloc",
                format!(
                    "{} pairs; a kind has at most {MAX_ALLOC_PAIRS}",
                    self.alloc.len()
                ),
            ));
        }
        let alloc = self
            .alloc
            .iter()
            .map(|&(level, chance)| {
                Ok((
                    within(entry, "alloc", level, 0, 255)? as u8,
                    within(entry, "alloc", chance, 1, 255)? as u8,
                ))
            })
            .collect::<Result<_, DataError>>()?;
        let damage = dice(entry, "damage", &self.damage)?;
        let flags = self
            .flags
            .iter()
            .map(|flag| short(entry, "flags", flag).map(str::to_owned))
            .collect::<Result<_, _>>()?;
        Ok(ObjectKind {
            id,
            name: short(entry, "name", &self.name)?.to_owned(),
            symbol: self.symbol,
            colour: self.colour,
            tval: within(entry, "tval", self.tval, 0, 255)? as u8,
            sval: within(entry, "sval", self.sval, 0, 255)? as u8,
            pval: within(entry, "pval", self.pval, -30_000, 30_000)? as i32,
            level: within(entry, "level", self.level, 0, 255)? as u8,
            weight: within(entry, "weight", self.weight, 0, 1_000_000)? as u32,
            cost: within(entry, "cost", self.cost, 0, 10_000_000)? as u32,
            alloc,
            ac: within(entry, "ac", self.ac, -1_000, 1_000)? as i32,
            damage,
            to_h: within(entry, "to_h", self.to_h, -1_000, 1_000)? as i32,
            to_d: within(entry, "to_d", self.to_d, -1_000, 1_000)? as i32,
            to_a: within(entry, "to_a", self.to_a, -1_000, 1_000)? as i32,
            flags,
        })
    }
}

/// One entry of the allocation table: a kind at one allocation level, kept with
/// chance `1 / chance`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AllocEntry {
    slot: u32,
    level: u8,
    chance: u8,
}

/// A kind's chance in one draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindOdds {
    /// The kind.
    pub kind: KindId,
    /// Its chance.
    pub probability: f64,
}

/// The exact chances of one object draw.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectOdds {
    /// Kinds with a non-zero chance, by kind number.
    pub kinds: Vec<KindOdds>,
    /// The chance that all [`MAX_PICKS`] picks are refused and no object is made.
    pub failure: f64,
}

/// The weights of one final level and filter, with their alias table.
#[derive(Clone, Debug)]
struct Weights {
    /// The kind slot of each kept entry, in prefix order.
    slots: Vec<u32>,
    /// Per-pick acceptance weights, one per entry.
    weights: Vec<f64>,
    /// Their sum: the chance one pick is kept.
    total: f64,
    alias: AliasTable,
}

/// The object allocation table (2.7.9's `alloc_kind_table`): every allocation pair with
/// a level below 128, sorted by level (file order within a level), with the weights drawn
/// from (built on first use and kept).
#[derive(Clone, Debug)]
pub struct ObjectAllocator {
    kinds: ObjectKinds,
    entries: Vec<AllocEntry>,
    prefix: LevelPrefix,
    /// Weights by final level: plain draws, then good ones.
    weights: [LevelCache<Weights>; 2],
}

impl ObjectAllocator {
    /// The allocation table of a set of kinds.
    pub fn new(kinds: ObjectKinds) -> Self {
        let mut entries: Vec<AllocEntry> = kinds
            .all()
            .iter()
            .enumerate()
            .flat_map(|(slot, kind)| {
                kind.alloc
                    .iter()
                    .filter(|&&(level, _)| i32::from(level) <= MAX_DRAW_LEVEL)
                    .map(move |&(level, chance)| AllocEntry {
                        slot: slot as u32,
                        level,
                        chance,
                    })
            })
            .collect();
        entries.sort_by_key(|e| e.level);
        let prefix = LevelPrefix::new(entries.iter().map(|e| e.level));
        Self {
            kinds,
            entries,
            prefix,
            weights: [LevelCache::new(), LevelCache::new()],
        }
    }

    /// The kinds the table draws from.
    pub fn kinds(&self) -> &ObjectKinds {
        &self.kinds
    }

    /// How many entries the table holds.
    pub fn entry_count(&self) -> usize {
        self.entries.len()
    }

    /// How many entries a draw at a final level picks from.
    pub fn prefix_size(&self, level: i32) -> usize {
        self.prefix.size(level) as usize
    }

    /// The final levels a draw at `level` is made at, with their chances: one time in
    /// [`BOOST_ONE_IN`] the level becomes `1 + level * 128 / randint(128)`, then it is held
    /// to [`MAX_DRAW_LEVEL`]. Levels of 0 or less are never boosted.
    pub fn boosted_levels(level: i32) -> Vec<(i32, f64)> {
        let mut counts: Vec<(i32, u32)> = Vec::new();
        for roll in 0..BOOST_ROLLS {
            let l = boosted_level(level, roll);
            match counts.iter_mut().find(|(m, _)| *m == l) {
                Some(entry) => entry.1 += 1,
                None => counts.push((l, 1)),
            }
        }
        counts.sort_by_key(|&(l, _)| l);
        counts
            .into_iter()
            .map(|(l, w)| (l, f64::from(w) / f64::from(BOOST_ROLLS)))
            .collect()
    }

    fn build(&self, level: i32, good: bool) -> Weights {
        let mut weights = Weights {
            slots: Vec::new(),
            weights: Vec::new(),
            total: 0.0,
            alias: AliasTable::default(),
        };
        for entry in &self.entries[..self.prefix_size(level)] {
            if good && !self.kinds.all()[entry.slot as usize].is_good() {
                continue;
            }
            let weight = self.prefix.pick_weight(level, entry.level) / f64::from(entry.chance);
            weights.slots.push(entry.slot);
            weights.weights.push(weight);
            weights.total += weight;
        }
        weights.alias = AliasTable::new(&weights.weights, weights.total);
        weights
    }

    /// The weights of a final level and filter, built on first use.
    fn weights(&self, level: i32, good: bool) -> &Weights {
        self.weights[usize::from(good)].get_or_build(level, || self.build(level, good))
    }

    /// The exact chances of one draw at `level`, through the good filter when `good`:
    /// the chances at each final level ([`odds_at`](Self::odds_at)), mixed by the
    /// boost's chances.
    pub fn odds(&self, level: i32, good: bool) -> ObjectOdds {
        let mut by_kind = vec![0.0; self.kinds.len()];
        let mut failure = 0.0;
        for (final_level, chance) in Self::boosted_levels(level) {
            let at = self.odds_at(final_level, good);
            failure += chance * at.failure;
            for odds in at.kinds {
                let slot = self
                    .kinds
                    .slot(odds.kind)
                    .expect("odds name the table's kinds");
                by_kind[slot] += chance * odds.probability;
            }
        }
        self.odds_of(by_kind, failure)
    }

    /// The exact chances of one draw once its level is final (boosted or not): each
    /// kind's share of the kept picks, times the chance the picks do not all fail.
    pub fn odds_at(&self, final_level: i32, good: bool) -> ObjectOdds {
        let weights = self.build(final_level, good);
        let failure = failure_chance(weights.total);
        let mut by_kind = vec![0.0; self.kinds.len()];
        if weights.total > 0.0 {
            for (&slot, &weight) in weights.slots.iter().zip(&weights.weights) {
                by_kind[slot as usize] += (1.0 - failure) * weight / weights.total;
            }
        }
        self.odds_of(by_kind, failure)
    }

    fn odds_of(&self, by_kind: Vec<f64>, failure: f64) -> ObjectOdds {
        ObjectOdds {
            kinds: by_kind
                .into_iter()
                .enumerate()
                .filter(|&(_, p)| p > 0.0)
                .map(|(slot, probability)| KindOdds {
                    kind: self.kinds.all()[slot].id,
                    probability,
                })
                .collect(),
            failure,
        }
    }

    /// One draw at `level` (good kinds only when `good`): the boost as one word over its
    /// outcomes, then a kind from the final level's weights, or `None` when every pick
    /// would be refused.
    pub fn draw(&self, rng: &mut Generator, level: i32, good: bool) -> Option<KindId> {
        let roll = rand0(rng, BOOST_ROLLS as i32) as u32;
        let weights = self.weights(boosted_level(level, roll), good);
        if weights.total <= 0.0 || unit(rng) < failure_chance(weights.total) {
            return None;
        }
        let slot = weights.slots[weights.alias.sample(rng)];
        Some(self.kinds.all()[slot as usize].id)
    }
}

/// The boost's outcomes in one roll of `0..BOOST_ROLLS`.
const BOOST_ROLLS: u32 = (BOOST_ONE_IN * BOOST_SIDES) as u32;

/// The final level of a draw at `level` for one roll of `0..BOOST_ROLLS`, held to
/// [`MAX_DRAW_LEVEL`]: the first `BOOST_ROLLS - BOOST_SIDES` rolls leave it unboosted, each
/// of the last `BOOST_SIDES` stands for one `randint(128)` value in order. Levels of 0 or
/// less are never boosted.
fn boosted_level(level: i32, roll: u32) -> i32 {
    let unboosted = BOOST_ROLLS - BOOST_SIDES as u32;
    if level <= 0 {
        level
    } else if roll < unboosted {
        level.min(MAX_DRAW_LEVEL)
    } else {
        boost(level, (roll - unboosted + 1) as i32)
    }
}

/// A level boosted by the `randint(BOOST_SIDES)` value `r`: `1 + level * BOOST_SIDES / r`,
/// held to [`MAX_DRAW_LEVEL`].
fn boost(level: i32, r: i32) -> i32 {
    (1 + level * BOOST_SIDES / r).min(MAX_DRAW_LEVEL)
}

/// The original's loop, pick by pick (`get_obj_num`): the boost roll, then up to
/// [`MAX_PICKS`] picks, each the best of one, two or three uniform prefix indices,
/// refused when it fails the good filter or loses the 1-in-chance roll.
///
/// It shares the boost, the pick mix and the filter with [`ObjectAllocator::odds`] (one
/// description of each) and walks the picks one at a time where the weights sum them: it
/// is the reference the weights are tested against. The boost itself is held to the
/// object notes' figures by the odds' tests.
pub fn draw_kind_by_rejection(
    allocator: &ObjectAllocator,
    rng: &mut Generator,
    level: i32,
    good: bool,
) -> Option<KindId> {
    let level = if level <= 0 {
        level
    } else if rand0(rng, BOOST_ONE_IN) == 0 {
        boost(level, randint(rng, BOOST_SIDES))
    } else {
        level.min(MAX_DRAW_LEVEL)
    };
    let n = allocator.prefix_size(level) as i32;
    if n == 0 {
        return None;
    }
    let entries = &allocator.entries;
    for _ in 0..MAX_PICKS {
        let i = if level <= 0 {
            rand0(rng, n)
        } else {
            let picks = picks_on_roll(rand0(rng, 100) as u32);
            let mut i = rand0(rng, n);
            for _ in 1..picks {
                let j = rand0(rng, n);
                if entries[j as usize].level > entries[i as usize].level {
                    i = j;
                }
            }
            i
        };
        let entry = entries[i as usize];
        let kind = &allocator.kinds.all()[entry.slot as usize];
        if good && !kind.is_good() {
            continue;
        }
        if rand0(rng, i32::from(entry.chance)) != 0 {
            continue;
        }
        return Some(kind.id);
    }
    None
}
