//! The encounter table: 64 slots of encounter types on the ring the type cursors walk, and
//! each map's family mask.

use denizen_core::data::{DataError, DataFile, Entry, load_ron};
use serde::{Deserialize, Serialize};

/// The Captive encounter table shipped with denizen.
pub const CAPTIVE_ENCOUNTERS: &str = include_str!("../data/captive.encounters.ron");
/// The name [`EncounterTable::shipped`] reports in errors.
pub const CAPTIVE_ENCOUNTERS_FILE: &str = "captive.encounters.ron";

/// The ring the type cursor walks: type ids `0..RING`.
pub const RING: usize = 64;

/// Where a type may be placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum Category {
    /// On ordinary floor.
    Normal,
    /// Only on fire.
    Fire,
    /// Only by dedicated stages (prisoner, door guards, clipboard carriers).
    Special,
}

/// One encounter type of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterType {
    /// Display name (neutral in the shipped table: none is published).
    pub name: String,
    /// Map glyph.
    pub glyph: char,
    /// Where it may be placed.
    pub category: Category,
    /// Largest group.
    pub max_group: u32,
    /// Armature base.
    pub armature: u32,
    /// Strength base.
    pub strength: u32,
    /// Speed base.
    pub speed: u32,
    /// Skill base.
    pub skill: u32,
    /// Earliest map number it may appear on.
    pub min_map: u32,
    /// Setup family: 0 always allowed, f >= 1 needs bit f - 1 of the map's
    /// [`FamilyMask`].
    pub family: u8,
    /// Raw flag bits kept from the source record.
    #[serde(default)]
    pub flags: u16,
}

/// The largest base a type may list for its speed, armature, strength or skill: Captive's
/// are single bytes; a group's growth and bonuses stay far inside 32 bits.
pub const MAX_BASE: u32 = 65_535;

/// The largest group a type may have: the low nibble of the type's word in Captive's
/// table holds it (the shipped types use 1, 2, 4, 5 and 9).
pub const MAX_GROUP: u32 = 15;

impl EncounterType {
    /// A type's family must name one of the eight bits of a family mask (or none), and
    /// its bases lie within [`MAX_BASE`].
    fn check(&self, entry: Entry<'_>) -> Result<(), DataError> {
        if self.family > 8 {
            return Err(entry.invalid("family", format!("family {} is outside 0..=8", self.family)));
        }
        if self.max_group > MAX_GROUP {
            return Err(entry.invalid(
                "max_group",
                format!("{} is more than {MAX_GROUP}", self.max_group),
            ));
        }
        let bases = [
            ("speed", self.speed),
            ("armature", self.armature),
            ("strength", self.strength),
            ("skill", self.skill),
        ];
        for (field, value) in bases {
            if value > MAX_BASE {
                return Err(entry.invalid(field, format!("{value} is more than {MAX_BASE}")));
            }
        }
        Ok(())
    }
}

/// Which setup families a map admits: bit f - 1 admits family f (1..=8); family 0 is
/// always admitted. Written as a plain number in data files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FamilyMask(pub u8);

impl FamilyMask {
    /// Whether a type of this family may appear: family 0 always, 1..=8 when its bit is
    /// set, anything larger never (tables refuse such families at load).
    pub fn admits(self, family: u8) -> bool {
        match family {
            0 => true,
            1..=8 => self.0 & (1 << (family - 1)) != 0,
            _ => false,
        }
    }
}

impl std::fmt::Display for FamilyMask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// A slot of the ring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Slot {
    /// Nothing here.
    Empty,
    /// A record that exists but never passes (group size 0).
    Placeholder,
    /// A usable type.
    Type(EncounterType),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    early_masks: Vec<FamilyMask>,
    station_mask: FamilyMask,
    late_masks: Vec<FamilyMask>,
    slots: Vec<Slot>,
}

/// The encounter table of one game, validated: 64 slots and the family masks per map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncounterTable {
    early_masks: Vec<FamilyMask>,
    station_mask: FamilyMask,
    late_masks: Vec<FamilyMask>,
    slots: Vec<Slot>,
}

impl EncounterTable {
    /// Captive's table.
    pub fn shipped() -> Self {
        Self::from_file(DataFile::new(CAPTIVE_ENCOUNTERS_FILE, CAPTIVE_ENCOUNTERS))
            .expect("the embedded Captive table is valid (the test suite loads it)")
    }

    /// Loads a table from RON text; `file` names it in errors. Needs exactly 64 slots and
    /// at least one late mask.
    pub fn from_file(source: DataFile<'_>) -> Result<Self, DataError> {
        let DataFile { name: file, text } = source;
        let data: TableFile = load_ron(text, file)?;
        let whole = Entry::new(file, "table");
        if data.slots.len() != RING {
            return Err(whole.invalid(
                "slots",
                format!("{} slots, the ring has {RING}", data.slots.len()),
            ));
        }
        if data.late_masks.is_empty() {
            return Err(whole.invalid("late_masks", "the list is empty"));
        }
        for (i, slot) in data.slots.iter().enumerate() {
            if let Slot::Type(t) = slot {
                t.check(Entry::new(file, &format!("slots[{i}] {:?}", t.name)))?;
            }
        }
        Ok(Self {
            early_masks: data.early_masks,
            station_mask: data.station_mask,
            late_masks: data.late_masks,
            slots: data.slots,
        })
    }

    /// A table from slots and masks (tests and games building tables in code).
    pub fn new(
        slots: Vec<Slot>,
        early_masks: Vec<FamilyMask>,
        station_mask: FamilyMask,
        late_masks: Vec<FamilyMask>,
    ) -> Option<Self> {
        (slots.len() == RING && !late_masks.is_empty()).then_some(Self {
            early_masks,
            station_mask,
            late_masks,
            slots,
        })
    }

    /// The type in a slot, if it is usable.
    pub fn get(&self, id: u8) -> Option<&EncounterType> {
        match self.slots.get(usize::from(id)) {
            Some(Slot::Type(t)) => Some(t),
            _ => None,
        }
    }

    /// The map's family mask: station maps (every 11th, map % 11 == 10) use the station
    /// mask, maps 0-9 the early table, later bases the generator's congruential pick.
    pub fn family_mask(&self, map: u32) -> FamilyMask {
        if map % 11 == 10 {
            return self.station_mask;
        }
        if let Some(&mask) = self.early_masks.get(map as usize) {
            return mask;
        }
        let mut x = map as u16;
        for _ in 0..2 {
            x = x.wrapping_mul(0x5E5).wrapping_add(0x29);
        }
        let pick = ((3 * u32::from(x)) >> 16) as usize;
        self.late_masks[pick % self.late_masks.len()]
    }

    /// The acceptance test, in the source's order: category, the type exists, not too
    /// early, and its family allowed by the mask.
    pub fn accepts(&self, id: u8, category: Category, map: u32, mask: FamilyMask) -> bool {
        self.get(id).is_some_and(|t| {
            t.category == category && t.max_group > 0 && t.min_map <= map && mask.admits(t.family)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Families name one of the mask's eight bits (or none): 8 loads, 9 does not.
    #[test]
    fn families_fit_the_mask() {
        let family = |f: u8| {
            let text = CAPTIVE_ENCOUNTERS.replacen("family: 1,", &format!("family: {f},"), 1);
            assert_ne!(text, CAPTIVE_ENCOUNTERS);
            EncounterTable::from_file(DataFile::new("mine.ron", &text))
        };
        assert!(family(8).is_ok());
        let err = family(9).unwrap_err().to_string();
        assert!(
            err.contains("field `family`: family 9 is outside 0..=8"),
            "{err}"
        );
    }

    /// Each base is at most [`MAX_BASE`]: 65,535 loads, 65,536 is refused with its
    /// field named.
    #[test]
    fn bases_are_bounded() {
        for field in ["armature", "strength", "speed", "skill"] {
            let base = |value: u32| {
                let from = match field {
                    "armature" => "armature: 160,",
                    "strength" => "strength: 100,",
                    "speed" => "speed: 20,",
                    _ => "skill: 80,",
                };
                let text = CAPTIVE_ENCOUNTERS.replacen(from, &format!("{field}: {value},"), 1);
                assert_ne!(text, CAPTIVE_ENCOUNTERS);
                EncounterTable::from_file(DataFile::new("mine.ron", &text))
            };
            assert!(base(MAX_BASE).is_ok(), "{field}");
            let err = base(MAX_BASE + 1).unwrap_err().to_string();
            assert!(
                err.contains(&format!("field `{field}`: 65536 is more than 65535")),
                "{err}"
            );
        }
    }

    /// A type's largest group fits the table's nibble: 15 loads, 16 is refused with its
    /// field named.
    #[test]
    fn group_sizes_are_bounded() {
        let sized = |value: u32| {
            let text =
                CAPTIVE_ENCOUNTERS.replacen("max_group: 9,", &format!("max_group: {value},"), 1);
            assert_ne!(text, CAPTIVE_ENCOUNTERS);
            EncounterTable::from_file(DataFile::new("mine.ron", &text))
        };
        assert!(sized(MAX_GROUP).is_ok());
        let err = sized(MAX_GROUP + 1).unwrap_err().to_string();
        assert!(
            err.contains("field `max_group`: 16 is more than 15"),
            "{err}"
        );
    }

    /// A type whose largest group is 0 does not exist: it never passes.
    #[test]
    fn a_type_of_group_size_zero_never_passes() {
        let kind = |max_group| EncounterType {
            name: "x".into(),
            glyph: 'x',
            category: Category::Normal,
            max_group,
            armature: 1,
            strength: 1,
            speed: 1,
            skill: 1,
            min_map: 0,
            family: 0,
            flags: 0,
        };
        let mut slots = vec![Slot::Empty; RING];
        slots[1] = Slot::Type(kind(0));
        slots[2] = Slot::Type(kind(1));
        let table = EncounterTable::new(slots, vec![], FamilyMask(8), vec![FamilyMask(3)]).unwrap();
        assert!(!table.accepts(1, Category::Normal, 5, FamilyMask(3)));
        assert!(table.accepts(2, Category::Normal, 5, FamilyMask(3)));
    }

    /// Family f needs bit f - 1; family 0 needs nothing; past 8 nothing admits it.
    #[test]
    fn a_mask_admits_the_families_of_its_bits() {
        let admitted =
            |mask: u8| -> Vec<u8> { (0..=9).filter(|f| FamilyMask(mask).admits(*f)).collect() };
        assert_eq!(admitted(0), [0]);
        assert_eq!(admitted(0b101), [0, 1, 3]);
        assert_eq!(admitted(0x80), [0, 8]);
        assert_eq!(admitted(0xFF), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn family_masks_follow_the_notes() {
        let table = EncounterTable::shipped();
        let early: Vec<u8> = (0..10).map(|m| table.family_mask(m).0).collect();
        assert_eq!(early, [3, 3, 3, 5, 3, 6, 5, 3, 5, 5]);
        assert_eq!(table.family_mask(10), FamilyMask(8));
        assert_eq!(table.family_mask(21), FamilyMask(8));
        for map in (11..400).filter(|m| m % 11 != 10) {
            assert!([3, 5, 6].contains(&table.family_mask(map).0), "map {map}");
        }
    }

    mod fuzz {
        use super::*;
        use crate::base::{encounter_stream, reference_base};
        use crate::generator::{BaseEncounters, EncounterSettings};
        use denizen_core::rng::WorldSeed;
        use denizen_testing::corrupt::{assert_clear, fuzz_cases, mutate, mutation};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(fuzz_cases()))]

            /// A corrupted table is refused clearly, or loads and places the groups of
            /// three base floors.
            #[test]
            fn corrupted_tables(mutations in prop::collection::vec(mutation(), 1..4)) {
                let text = mutate(CAPTIVE_ENCOUNTERS, &mutations);
                match EncounterTable::from_file(DataFile::new(CAPTIVE_ENCOUNTERS_FILE, &text)) {
                    Err(error) => assert_clear(&error, CAPTIVE_ENCOUNTERS_FILE),
                    Ok(table) => {
                        for map in [0, 10, 57] {
                            let grid = reference_base(WorldSeed(1), map);
                            let mut stage = BaseEncounters::new(&table, EncounterSettings::default(), map, 1);
                            let plan = stage.place(&mut encounter_stream(WorldSeed(1), map, 0), &grid);
                            prop_assert!(plan.attempts <= EncounterSettings::default().attempts);
                        }
                    }
                }
            }
        }
    }
}
