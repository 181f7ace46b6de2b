//! The bestiary: Omega's species and items as one validated data set, with its bands and
//! the names identity-specific construction uses.
//!
//! Loading validates entry by entry (items, then species, then object classes, then names,
//! then the ordinary pool at every difficulty), each error naming the file, entry and field.

use std::collections::HashMap;
use std::ops::Range;

use denizen_core::data::{DataError, DataFile, Entry, load_ron};
use serde::{Deserialize, Serialize};

use crate::items::{Item, ItemId, ItemQuirk};
use crate::objects::{ObjectClassWeight, ObjectTable};
use crate::rng;
use crate::species::{Construction, SpeciesId, SpeciesTemplate};

/// The Omega 0.90.4 bestiary shipped with denizen (150 species, 217 items).
pub const OMEGA_BESTIARY: &str = include_str!("../data/omega.bestiary.ron");
/// The name [`Bestiary::shipped`] reports in errors and listings.
pub const OMEGA_BESTIARY_FILE: &str = "omega.bestiary.ron";

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
    /// Deities 1..=len; angels take a suffix `" of <deity>"`.
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

/// Species and items a game adds to Omega's bestiary.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BestiaryExtension {
    #[serde(default)]
    species: Vec<SpeciesTemplate>,
    #[serde(default)]
    items: Vec<Item>,
}

/// A bestiary file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BestiaryFile {
    band_count: u8,
    #[serde(default)]
    objects: Vec<ObjectClassWeight>,
    #[serde(default)]
    names: Names,
    species: Vec<SpeciesTemplate>,
    items: Vec<Item>,
}

/// The species and item templates of one game, validated: what Omega's rules draw from.
#[derive(Clone, Debug)]
pub struct Bestiary {
    file: String,
    band_count: u8,
    objects: Vec<ObjectClassWeight>,
    object_table: ObjectTable,
    names: Names,
    species: Vec<SpeciesTemplate>,
    items: Vec<Item>,
    fixed_items: Vec<Option<ItemId>>,
    band_starts: Vec<usize>,
    ordinary: Vec<bool>,
    species_keys: HashMap<String, SpeciesId>,
    item_keys: HashMap<String, ItemId>,
}

impl Bestiary {
    /// The shipped Omega 0.90.4 bestiary.
    pub fn shipped() -> Self {
        Self::from_file(DataFile::new(OMEGA_BESTIARY_FILE, OMEGA_BESTIARY))
            .expect("the embedded Omega bestiary is valid (the test suite loads it)")
    }

    /// Loads and validates a bestiary from RON text; `file` names it in errors.
    ///
    /// Checks: unique keys, fixed items that exist, bands inside `0..band_count` and in
    /// bestiary order, object classes that have items, names that refer to items and
    /// species that exist, and an ordinary pool with at least one species at every
    /// difficulty.
    pub fn from_file(source: DataFile<'_>) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        Self::from_data(load_ron(text, file)?, file)
    }

    /// Omega's bestiary with a game's own species and items added after the shipped ones
    /// (a file `(species: [...], items: [...])`, both lists optional): the new species take
    /// the next bestiary indices, so they belong to the last band or a later one, and
    /// errors number them after the shipped entries (`species[150]` is the first).
    pub fn shipped_with(extra: DataFile<'_>) -> Result<Self, DataError> {
        let mut data: BestiaryFile = load_ron(OMEGA_BESTIARY, OMEGA_BESTIARY_FILE)?;
        let more: BestiaryExtension = load_ron(extra.text, extra.name)?;
        data.species.extend(more.species);
        data.items.extend(more.items);
        Self::from_data(data, extra.name)
    }

    fn from_data(data: BestiaryFile, file: &str) -> Result<Self, DataError> {
        let BestiaryFile {
            band_count,
            objects,
            names,
            mut species,
            items,
        } = data;
        let whole = Entry::new(file, "bestiary");
        if band_count == 0 {
            return Err(whole.invalid("band_count", "must be at least 1"));
        }
        if species.is_empty() {
            return Err(whole.invalid("species", "the list is empty"));
        }
        check_count(whole, "species", species.len())?;
        check_count(whole, "items", items.len())?;
        let item_keys = item_keys(file, &items)?;
        for (i, item) in items.iter().enumerate() {
            check_item_numbers(
                Entry::new(file, &format!("items[{i}] {:?}", item.key)),
                item,
            )?;
        }
        let mut species_keys = HashMap::with_capacity(species.len());
        let mut fixed_items = Vec::with_capacity(species.len());
        let mut previous_band = 0;
        for (i, s) in species.iter_mut().enumerate() {
            let name = format!("species[{i}] {:?}", s.key);
            let entry = Entry::new(file, &name);
            if species_keys
                .insert(s.key.clone(), SpeciesId(i as u16))
                .is_some()
            {
                return Err(entry.invalid("key", "duplicate key"));
            }
            check_band(entry, s, band_count, previous_band)?;
            check_construction(entry, s, &names)?;
            check_species_numbers(entry, s)?;
            previous_band = s.band;
            fixed_items.push(fixed_item(entry, s, &item_keys)?);
            s.index_statuses();
        }
        for (i, class) in objects.iter().enumerate() {
            check_object_class(Entry::new(file, &format!("objects[{i}]")), class, &items)?;
        }
        check_names(Entry::new(file, "names"), &names, &item_keys, &species_keys)?;
        let band_starts = (0..=usize::from(band_count))
            .map(|b| {
                species
                    .iter()
                    .take_while(|s| usize::from(s.band) < b)
                    .count()
            })
            .collect();
        let ordinary = species.iter().map(SpeciesTemplate::is_ordinary).collect();
        let object_table = ObjectTable::new(&objects, &items).map_err(|e| {
            let entry = e
                .class
                .map_or("objects".to_owned(), |i| format!("objects[{i}]"));
            Entry::new(file, &entry).invalid(e.field, e.problem)
        })?;
        let bestiary = Self {
            file: file.to_owned(),
            band_count,
            objects,
            object_table,
            names,
            species,
            items,
            fixed_items,
            band_starts,
            ordinary,
            species_keys,
            item_keys,
        };
        bestiary.check_pools()?;
        Ok(bestiary)
    }

    /// Every difficulty's ordinary pool must be able to draw an ordinary species, or its
    /// retry would never end.
    fn check_pools(&self) -> Result<(), DataError> {
        for difficulty in 0..i64::from(self.band_count) {
            if !self.can_draw_ordinary(0..self.pool_boundary(difficulty)) {
                let boundary = self.pool_boundary(difficulty);
                return Err(DataError::invalid(
                    &self.file,
                    format!("species[0..{boundary}]"),
                    "uniqueness",
                    format!(
                        "every species below the difficulty-{difficulty} boundary that \
                         R({boundary}) can give is reserved, so the ordinary pool is empty"
                    ),
                ));
            }
        }
        Ok(())
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

    /// The file name the bestiary was loaded from.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// All species, in bestiary order.
    pub fn species(&self) -> &[SpeciesTemplate] {
        &self.species
    }

    /// All items, in table order.
    pub fn items(&self) -> &[Item] {
        &self.items
    }

    /// One species by id. Panics on an id this bestiary does not have; ids from
    /// elsewhere (a save, another bestiary) go through [`Self::try_get`].
    pub fn get(&self, id: SpeciesId) -> &SpeciesTemplate {
        &self.species[id.index()]
    }

    /// One species by id, or `None` when this bestiary has no such id.
    pub fn try_get(&self, id: SpeciesId) -> Option<&SpeciesTemplate> {
        self.species.get(id.index())
    }

    /// One item by id (panics on an id this bestiary does not have).
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

    /// Bestiary positions of bands `from..=to` (clamped to the bands that exist).
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
    /// `difficulty + 1`, or the whole bestiary at a difficulty of `band_count - 1` or more
    /// (and, as in the source, at a negative difficulty).
    pub fn pool_boundary(&self, difficulty: i64) -> usize {
        usize::try_from(difficulty)
            .ok()
            .and_then(|d| self.band_starts.get(d.checked_add(1)?))
            .copied()
            .unwrap_or(self.species.len())
    }

    /// Whether a pick of `R(len)` over bestiary positions `span`, redrawn until ordinary,
    /// can end: some ordinary species must sit on a position the draw gives (past 10,000
    /// positions some have no bucket).
    pub fn can_draw_ordinary(&self, span: Range<usize>) -> bool {
        let range = span.len() as u32;
        self.ordinary[span.clone()]
            .iter()
            .enumerate()
            .any(|(i, &ordinary)| ordinary && rng::bucket_weight(i as u32, range) > 0)
    }

    /// How many species the ordinary pool can produce at a difficulty.
    pub fn pool_size(&self, difficulty: i64) -> usize {
        self.ordinary[..self.pool_boundary(difficulty)]
            .iter()
            .filter(|&&o| o)
            .count()
    }
}

/// The most species, and the most items, a bestiary may list: their ids are 16-bit.
pub const MAX_ENTRIES: usize = u16::MAX as usize;

/// A list of species or items fits the 16-bit ids.
fn check_count(entry: Entry<'_>, field: &str, len: usize) -> Result<(), DataError> {
    if len > MAX_ENTRIES {
        return Err(entry.invalid(
            field,
            format!("{len} entries; at most {MAX_ENTRIES} fit the ids"),
        ));
    }
    Ok(())
}

/// The largest magnitude of any number a species or item lists (hit points, levels,
/// damage, pluses, values, ...): Omega's largest is 20,000, and sums and products the
/// rules form from these numbers stay far inside 32 bits.
pub const MAX_NUMBER: i32 = 1_000_000;

/// The largest treasure allowance: a monster gets `R(treasure)` random objects (Omega's
/// largest allowance is 10).
pub const MAX_TREASURE: u32 = 100;

/// The most occupations, and the most deities, a bestiary may name: their indices are
/// 8-bit (deities are numbered from 1).
pub const MAX_NAMES: usize = 255;

/// Each of `numbers` lies in `-MAX_NUMBER..=MAX_NUMBER`.
fn check_numbers(entry: Entry<'_>, numbers: &[(&str, i32)]) -> Result<(), DataError> {
    for &(field, value) in numbers {
        if !(-MAX_NUMBER..=MAX_NUMBER).contains(&value) {
            return Err(entry.invalid(
                field,
                format!("{value} is outside -{MAX_NUMBER}..={MAX_NUMBER}"),
            ));
        }
    }
    Ok(())
}

/// A species' numbers are within [`MAX_NUMBER`] and its treasure within [`MAX_TREASURE`].
fn check_species_numbers(entry: Entry<'_>, s: &SpeciesTemplate) -> Result<(), DataError> {
    check_numbers(
        entry,
        &[
            ("level", s.level),
            ("hp", s.hp),
            ("hit", s.hit),
            ("ac", s.ac),
            ("damage", s.damage),
            ("awareness", s.awareness),
            ("wakeup", s.wakeup),
            ("speed", s.speed),
            ("sleep", s.sleep),
            ("xp", s.xp),
        ],
    )?;
    if s.hp < 1 {
        return Err(entry.invalid(
            "hp",
            format!("{} hit points: a creature has at least 1", s.hp),
        ));
    }
    if s.treasure > MAX_TREASURE {
        return Err(entry.invalid(
            "treasure",
            format!("{} is more than {MAX_TREASURE}", s.treasure),
        ));
    }
    Ok(())
}

/// An item's numbers are within [`MAX_NUMBER`].
fn check_item_numbers(entry: Entry<'_>, item: &Item) -> Result<(), DataError> {
    let fixed_plus = match item.quirk {
        Some(ItemQuirk::FixedPlus(plus)) => plus,
        _ => 0,
    };
    check_numbers(
        entry,
        &[
            ("level", item.level),
            ("value", item.value),
            ("weight", item.weight),
            ("plus", item.plus),
            ("charge", item.charge),
            ("damage", item.damage),
            ("hit", item.hit),
            ("aux", item.aux),
            ("fragility", item.fragility),
            ("blessing", item.blessing),
            ("quirk", fixed_plus),
        ],
    )
}

/// Item keys to ids; a key may appear once.
fn item_keys(file: &str, items: &[Item]) -> Result<HashMap<String, ItemId>, DataError> {
    let mut keys = HashMap::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if keys.insert(item.key.clone(), ItemId(i as u16)).is_some() {
            let name = format!("items[{i}] {:?}", item.key);
            return Err(Entry::new(file, &name).invalid("key", "duplicate key"));
        }
    }
    Ok(keys)
}

/// A species' band lies inside `0..band_count` and does not go back: bands are runs of
/// consecutive positions.
fn check_band(
    entry: Entry<'_>,
    species: &SpeciesTemplate,
    band_count: u8,
    previous: u8,
) -> Result<(), DataError> {
    if species.band >= band_count {
        return Err(entry.invalid(
            "band",
            format!("band {} is outside 0..{band_count}", species.band),
        ));
    }
    if species.band < previous {
        return Err(entry.invalid(
            "band",
            format!(
                "band {} follows band {previous}: bands must run in bestiary order",
                species.band
            ),
        ));
    }
    Ok(())
}

/// A species' fixed item, resolved to an item of the table.
fn fixed_item(
    entry: Entry<'_>,
    species: &SpeciesTemplate,
    item_keys: &HashMap<String, ItemId>,
) -> Result<Option<ItemId>, DataError> {
    species
        .fixed_item
        .as_ref()
        .map(|key| {
            item_keys
                .get(key)
                .copied()
                .ok_or_else(|| entry.invalid("fixed_item", format!("no item has the key {key:?}")))
        })
        .transpose()
}

/// An object class has a weight and items (and so has its slot guard).
fn check_object_class(
    entry: Entry<'_>,
    class: &ObjectClassWeight,
    items: &[Item],
) -> Result<(), DataError> {
    if class.weight == 0 {
        return Err(entry.invalid("weight", "must be at least 1"));
    }
    let listed = [
        ("class", Some(class.class)),
        ("slot_guard", class.slot_guard),
    ];
    for (field, wanted) in listed {
        if let Some(wanted) = wanted
            && !items.iter().any(|item| item.class == wanted)
        {
            return Err(entry.invalid(field, format!("no item has the class {wanted:?}")));
        }
    }
    Ok(())
}

/// A species whose construction draws from a name list needs that list.
fn check_construction(
    entry: Entry<'_>,
    species: &SpeciesTemplate,
    names: &Names,
) -> Result<(), DataError> {
    let needs = match species.construction {
        Some(kind @ (Construction::Occupation | Construction::Were)) => {
            Some((kind, "occupations", &names.occupations))
        }
        Some(kind @ Construction::Angel) => Some((kind, "deities", &names.deities)),
        _ => None,
    };
    match needs {
        Some((kind, list, names)) if names.is_empty() => Err(entry.invalid(
            "construction",
            format!("{kind:?} needs the `names.{list}` list, which is empty"),
        )),
        _ => Ok(()),
    }
}

/// The names refer to items and species that exist.
fn check_names(
    entry: Entry<'_>,
    names: &Names,
    item_keys: &HashMap<String, ItemId>,
    species_keys: &HashMap<String, SpeciesId>,
) -> Result<(), DataError> {
    for (field, list) in [
        ("occupations", &names.occupations),
        ("deities", &names.deities),
    ] {
        if list.len() > MAX_NAMES {
            return Err(entry.invalid(
                field,
                format!(
                    "{} names; at most {MAX_NAMES} fit the 8-bit index",
                    list.len()
                ),
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
            return Err(entry.invalid(field, format!("no item has the key {key:?}")));
        }
    }
    for form in &names.undead {
        if !species_keys.contains_key(&form.species) {
            return Err(entry.invalid(
                "undead",
                format!("no species has the key {:?}", form.species),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::species::Status;

    #[test]
    fn omega_bestiary_has_the_sources_shape() {
        let c = Bestiary::shipped();
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
        assert!(!c.get(SpeciesId(15)).has(Status::WaterOnly));
        assert_eq!(
            c.get(SpeciesId(49)).level,
            2,
            "phantom is listed below its band"
        );
        assert_eq!(c.try_get(SpeciesId(150)), None);
        assert_eq!(c.try_get(goblin).map(|t| t.name.as_str()), Some("goblin"));
        assert_eq!(c.file(), OMEGA_BESTIARY_FILE);
        // The object notes' class weights, in order: thing, food, nine classes of 10,
        // artifact 5 (135 in all).
        let weights: Vec<u32> = c.object_classes().iter().map(|w| w.weight).collect();
        assert_eq!(weights, [20, 20, 10, 10, 10, 10, 10, 10, 10, 10, 10, 5]);
    }

    #[test]
    fn lists_fit_the_sixteen_bit_ids() {
        let entry = Entry::new("mine.ron", "bestiary");
        assert!(check_count(entry, "items", MAX_ENTRIES).is_ok());
        let err = check_count(entry, "items", MAX_ENTRIES + 1).unwrap_err();
        assert_eq!(
            err.to_string(),
            "mine.ron: bestiary: field `items`: 65536 entries; at most 65535 fit the ids"
        );
    }
}
