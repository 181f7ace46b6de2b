//! Species and item templates: the bestiary data, its RON loading and its validation.

use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::error::DataError;
use crate::objects::ObjectTable;

/// The Omega 0.90.4 bestiary shipped with denizen (150 species, 217 items).
pub const OMEGA_BESTIARY: &str = include_str!("../data/omega.bestiary.ron");
/// The name [`Catalogue::omega`] reports in errors and listings.
pub const OMEGA_BESTIARY_FILE: &str = "omega.bestiary.ron";

/// A species' catalogue index: its position in the bestiary (0-149 for Omega).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct SpeciesId(pub u16);

impl SpeciesId {
    /// The index as a `usize`, for slices.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// An item's catalogue index: its position in the item table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct ItemId(pub u16);

impl ItemId {
    /// The index as a `usize`, for slices.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Omega's uniqueness byte. On a species, anything but `Common` reserves the template for
/// special construction; on an item it is the item's starting state in a new world.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Uniqueness {
    /// An ordinary template: any number may exist.
    #[default]
    Common,
    /// A unique not made yet.
    UniqueUnmade,
    /// A unique already made (or reserved).
    UniqueMade,
    /// A unique the player has taken.
    UniqueTaken,
}

/// Initial status flags of a species.
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

/// Display colours of glyphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum Colour {
    Black,
    Blue,
    BrightWhite,
    Brown,
    Cyan,
    Green,
    Grey,
    LightBlue,
    LightGreen,
    LightRed,
    Purple,
    Red,
    White,
    Yellow,
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[allow(missing_docs)]
pub struct Behaviour {
    pub talk: String,
    pub movement: String,
    pub melee: String,
    pub strike: String,
    pub special: String,
}

/// One species template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Species {
    /// Stable key that data files use to refer to the species.
    pub key: String,
    /// Name as shown to the player.
    pub name: String,
    /// Catalogue band: the ordinary pool at difficulty `d` draws from bands `0..=d`.
    pub band: u8,
    /// Listed level: feeds item levels and variant bonuses, not selection.
    pub level: i32,
    /// Hit points.
    pub hp: i32,
    /// To-hit rating.
    pub hit: i32,
    /// Armour class.
    pub ac: i32,
    /// Damage rating.
    pub damage: i32,
    /// Awareness (sense) range.
    pub awareness: i32,
    /// Wakeup distance.
    pub wakeup: i32,
    /// Action delay: lower is faster.
    pub speed: i32,
    /// Sleep rating 0-100: awake at construction when the rating is below `R(100)`.
    pub sleep: i32,
    /// Treasure allowance: `R(treasure)` random items at construction.
    pub treasure: u32,
    /// Experience value.
    pub xp: i32,
    /// Key of the item the species starts with, if any.
    pub fixed_item: Option<String>,
    /// Anything but `Common` reserves the template for special construction.
    pub uniqueness: Uniqueness,
    /// Initial status flags.
    pub status: Vec<Status>,
    /// Immunities.
    pub immunities: Vec<Immunity>,
    /// Named behaviour routines.
    pub behaviour: Behaviour,
    /// Melee pattern string.
    pub melee_pattern: String,
    /// Map glyph.
    pub glyph: char,
    /// Glyph colour.
    pub colour: Colour,
    /// Identity-specific constructor, if any.
    pub construction: Option<Construction>,
    /// `status` as bits, filled when the catalogue is loaded (for [`Species::has`]).
    #[serde(skip)]
    status_bits: u32,
}

impl Species {
    /// Whether the species has an initial status flag.
    pub fn has(&self, status: Status) -> bool {
        self.status_bits & (1 << status as u32) != 0
    }

    /// Whether the ordinary pool may produce it (it is not reserved for special construction).
    pub fn is_ordinary(&self) -> bool {
        self.uniqueness == Uniqueness::Common
    }
}

/// Item classes, in the order of the item table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum ItemClass {
    Thing,
    Food,
    Scroll,
    Potion,
    Weapon,
    Armour,
    Shield,
    Cloak,
    Boots,
    Ring,
    Stick,
    Artifact,
    Cash,
    Corpse,
}

/// One item template.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Item {
    /// Stable key that data files use to refer to the item.
    pub key: String,
    /// True name.
    pub name: String,
    pub class: ItemClass,
    /// Item level: random object generation rejects items too deep for the request.
    pub level: i32,
    pub value: i32,
    pub weight: i32,
    /// Starting uniqueness state in a new world.
    pub uniqueness: Uniqueness,
    pub plus: i32,
    pub charge: i32,
    pub damage: i32,
    pub hit: i32,
    pub aux: i32,
    pub fragility: i32,
    pub blessing: i32,
    pub glyph: char,
    pub colour: Colour,
    /// A per-item rule of random generation, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quirk: Option<ItemQuirk>,
}

/// Per-item rules of random object generation beyond the class rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ItemQuirk {
    /// Gets one of 20 junk names (`R(20)`), recorded as [`crate::objects::ObjectInstance::variant`].
    JunkName,
    /// Teaches a random spell: `aux = R(41)`.
    SpellIndex,
    /// Comes in a stack: `number = R(20) + 1`.
    Stack,
    /// Always generated with this plus.
    FixedPlus(i32),
}

/// One class's weight in the random object draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectClassWeight {
    /// The class.
    pub class: ItemClass,
    /// Its share of the class draw.
    pub weight: u32,
    /// A slot of this class is redrawn while the same slot of the guard class is made or
    /// taken (Omega's artifact draw looks at the wrong table rows).
    #[serde(default)]
    pub slot_guard: Option<ItemClass>,
}

/// A form a dead adventurer returns as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndeadForm {
    /// Used when the adventurer's level is below this (or always, when `None`).
    pub below_level: Option<i32>,
    /// Species key of the form.
    pub species: String,
}

/// Names and references that identity-specific construction uses.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Names {
    /// Random occupations of ordinary humans (`R(len)`).
    #[serde(default)]
    pub occupations: Vec<String>,
    /// Deities 1..=len; angels take a suffix " of <deity>".
    #[serde(default)]
    pub deities: Vec<String>,
    /// Item keys of the deities' holy symbols, in deity order.
    #[serde(default)]
    pub holy_symbols: Vec<String>,
    /// Item key of the Archmage's possession.
    #[serde(default)]
    pub archmage_item: Option<String>,
    /// Undead forms of dead adventurers, in order.
    #[serde(default)]
    pub undead: Vec<UndeadForm>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    band_count: u8,
    #[serde(default)]
    objects: Vec<ObjectClassWeight>,
    #[serde(default)]
    names: Names,
    species: Vec<Species>,
    items: Vec<Item>,
}

/// The species and item templates of one game, validated.
#[derive(Clone, Debug)]
pub struct Catalogue {
    file: String,
    band_count: u8,
    objects: Vec<ObjectClassWeight>,
    object_table: ObjectTable,
    names: Names,
    species: Vec<Species>,
    items: Vec<Item>,
    fixed_items: Vec<Option<ItemId>>,
    band_starts: Vec<usize>,
    ordinary: Vec<bool>,
    species_keys: HashMap<String, SpeciesId>,
    item_keys: HashMap<String, ItemId>,
}

impl Catalogue {
    /// The shipped Omega 0.90.4 bestiary.
    pub fn omega() -> Self {
        Self::from_ron(OMEGA_BESTIARY, OMEGA_BESTIARY_FILE)
            .expect("the embedded Omega bestiary is valid (the test suite loads it)")
    }

    /// Loads and validates a bestiary from RON text; `file` names it in errors.
    ///
    /// Checks: unique keys, fixed items that exist, bands inside `0..band_count` and in
    /// catalogue order, and an ordinary pool with at least one species at every difficulty.
    pub fn from_ron(text: &str, file: &str) -> Result<Self, DataError> {
        let data: CatalogueFile = ron::from_str(text).map_err(|e| DataError::syntax(file, &e))?;
        Self::new(data, file)
    }

    fn new(data: CatalogueFile, file: &str) -> Result<Self, DataError> {
        let CatalogueFile {
            band_count,
            objects,
            names,
            mut species,
            items,
        } = data;
        for s in &mut species {
            s.status_bits = s.status.iter().fold(0, |bits, &f| bits | 1 << f as u32);
        }
        let invalid = |entry: String, field: &str, problem: String| {
            DataError::invalid(file, entry, field, problem)
        };
        if band_count == 0 {
            return Err(invalid(
                "catalogue".into(),
                "band_count",
                "must be at least 1".into(),
            ));
        }
        if species.is_empty() {
            return Err(invalid(
                "catalogue".into(),
                "species",
                "the list is empty".into(),
            ));
        }
        if species.len() > usize::from(u16::MAX) || items.len() > usize::from(u16::MAX) {
            return Err(invalid(
                "catalogue".into(),
                "species",
                "more than 65535 entries".into(),
            ));
        }
        let mut item_keys = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            if item_keys
                .insert(item.key.clone(), ItemId(i as u16))
                .is_some()
            {
                return Err(invalid(
                    format!("items[{i}] {:?}", item.key),
                    "key",
                    "duplicate key".into(),
                ));
            }
        }
        let mut species_keys = HashMap::new();
        let mut fixed_items = Vec::with_capacity(species.len());
        let mut previous_band = 0;
        for (i, s) in species.iter().enumerate() {
            let entry = || format!("species[{i}] {:?}", s.key);
            if species_keys
                .insert(s.key.clone(), SpeciesId(i as u16))
                .is_some()
            {
                return Err(invalid(entry(), "key", "duplicate key".into()));
            }
            if s.band >= band_count {
                return Err(invalid(
                    entry(),
                    "band",
                    format!("band {} is outside 0..{band_count}", s.band),
                ));
            }
            if s.band < previous_band {
                return Err(invalid(
                    entry(),
                    "band",
                    format!(
                        "band {} follows band {previous_band}: bands must run in catalogue order",
                        s.band
                    ),
                ));
            }
            previous_band = s.band;
            let fixed = match &s.fixed_item {
                None => None,
                Some(key) => Some(*item_keys.get(key).ok_or_else(|| {
                    invalid(
                        entry(),
                        "fixed_item",
                        format!("no item has the key {key:?}"),
                    )
                })?),
            };
            fixed_items.push(fixed);
        }
        for (i, class) in objects.iter().enumerate() {
            let entry = format!("objects[{i}]");
            if class.weight == 0 {
                return Err(invalid(entry, "weight", "must be at least 1".into()));
            }
            if !items.iter().any(|item| item.class == class.class) {
                return Err(invalid(
                    entry,
                    "class",
                    format!("no item has the class {:?}", class.class),
                ));
            }
            if let Some(guard) = class.slot_guard
                && !items.iter().any(|item| item.class == guard)
            {
                return Err(invalid(
                    entry,
                    "slot_guard",
                    format!("no item has the class {guard:?}"),
                ));
            }
        }
        let item_refs = names
            .holy_symbols
            .iter()
            .map(|k| ("holy_symbols", k))
            .chain(names.archmage_item.iter().map(|k| ("archmage_item", k)));
        for (field, key) in item_refs {
            if !item_keys.contains_key(key) {
                return Err(invalid(
                    "names".into(),
                    field,
                    format!("no item has the key {key:?}"),
                ));
            }
        }
        for form in &names.undead {
            if !species_keys.contains_key(&form.species) {
                return Err(invalid(
                    "names".into(),
                    "undead",
                    format!("no species has the key {:?}", form.species),
                ));
            }
        }
        let band_starts = (0..=usize::from(band_count))
            .map(|b| {
                species
                    .iter()
                    .take_while(|s| usize::from(s.band) < b)
                    .count()
            })
            .collect();
        let ordinary = species.iter().map(Species::is_ordinary).collect();
        let mut catalogue = Self {
            file: file.to_owned(),
            band_count,
            objects,
            object_table: ObjectTable::default(),
            names,
            species,
            items,
            fixed_items,
            band_starts,
            ordinary,
            species_keys,
            item_keys,
        };
        catalogue.object_table = ObjectTable::new(&catalogue);
        if !catalogue.objects.is_empty() && !catalogue.object_table.can_produce() {
            return Err(invalid(
                "objects".into(),
                "class",
                "no listed class has a common item, so random possessions could never be made"
                    .into(),
            ));
        }
        for difficulty in 0..i64::from(band_count) {
            if catalogue.pool_size(difficulty) == 0 {
                let boundary = catalogue.pool_boundary(difficulty);
                return Err(invalid(
                    format!("species[0..{boundary}]"),
                    "uniqueness",
                    format!(
                        "every species below the difficulty-{difficulty} boundary is reserved, \
                         so the ordinary pool is empty"
                    ),
                ));
            }
        }
        Ok(catalogue)
    }

    /// The class weights of random object generation (empty: no random objects).
    pub fn object_classes(&self) -> &[ObjectClassWeight] {
        &self.objects
    }

    /// Random object generation built from the class weights and the item table.
    pub fn object_table(&self) -> &ObjectTable {
        &self.object_table
    }

    /// Names for identity-specific construction.
    pub fn names(&self) -> &Names {
        &self.names
    }

    /// The file name the catalogue was loaded from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// All species, in catalogue order.
    pub fn species(&self) -> &[Species] {
        &self.species
    }

    /// All items, in table order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// One species by id. Panics on an id from another catalogue that is out of range.
    pub fn get(&self, id: SpeciesId) -> &Species {
        &self.species[id.index()]
    }

    /// One item by id.
    pub fn item(&self, id: ItemId) -> &Item {
        &self.items[id.index()]
    }

    /// The species with this key.
    pub fn species_id(&self, key: &str) -> Option<SpeciesId> {
        self.species_keys.get(key).copied()
    }

    /// The item with this key.
    pub fn item_id(&self, key: &str) -> Option<ItemId> {
        self.item_keys.get(key).copied()
    }

    /// The resolved fixed item of a species.
    pub fn fixed_item(&self, id: SpeciesId) -> Option<ItemId> {
        self.fixed_items[id.index()]
    }

    /// Number of bands.
    pub fn band_count(&self) -> u8 {
        self.band_count
    }

    /// Catalogue positions of bands `from..=to` (clamped to the bands that exist).
    pub fn bands(&self, from: u8, to: u8) -> Range<usize> {
        let last = usize::from(self.band_count);
        let start = self.band_starts[usize::from(from).min(last)];
        let end = self.band_starts[(usize::from(to) + 1).min(last)];
        start..end.max(start)
    }

    /// Whether a species may come from the ordinary pool or a band pick (not reserved).
    pub fn is_ordinary(&self, id: SpeciesId) -> bool {
        self.ordinary[id.index()]
    }

    /// Per position, whether the species is ordinary; the retry rule's filter.
    pub fn ordinary_mask(&self) -> &[bool] {
        &self.ordinary
    }

    /// The ordinary pool's exclusive boundary at a difficulty: the start of band
    /// `difficulty + 1`, or the whole catalogue at a difficulty of `band_count - 1` or more
    /// (and, as in the source, at a negative difficulty).
    pub fn pool_boundary(&self, difficulty: i64) -> usize {
        let next_band = difficulty.saturating_add(1);
        if difficulty >= 0 && next_band < i64::from(self.band_count) {
            self.band_starts[next_band as usize]
        } else {
            self.species.len()
        }
    }

    /// How many species the ordinary pool can produce at a difficulty.
    pub fn pool_size(&self, difficulty: i64) -> usize {
        self.ordinary[..self.pool_boundary(difficulty)]
            .iter()
            .filter(|&&o| o)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omega_bestiary_has_the_sources_shape() {
        let c = Catalogue::omega();
        assert_eq!(c.species().len(), 150);
        assert_eq!(c.items().len(), 217);
        let starts: Vec<usize> = (0..=11).map(|b| c.bands(b, b).start).collect();
        assert_eq!(starts, [0, 9, 31, 45, 60, 78, 92, 105, 120, 132, 140, 150]);
        let reserved: Vec<u16> = (0..150).filter(|&i| !c.is_ordinary(SpeciesId(i))).collect();
        let mut expected = vec![8, 50, 110];
        expected.extend(140..150);
        assert_eq!(reserved, expected);
        let goblin = c.species_id("goblin").unwrap();
        assert_eq!(goblin, SpeciesId(15));
        assert_eq!(c.item(c.fixed_item(goblin).unwrap()).name, "dagger");
        assert!(c.get(SpeciesId(27)).has(Status::WaterOnly));
        assert_eq!(
            c.get(SpeciesId(49)).level,
            2,
            "phantom is listed below its band"
        );
    }
}
