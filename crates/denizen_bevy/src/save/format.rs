//! The save's text: plain nested RON with a format version, every value written in place
//! (never RON inside a string), everything in a fixed order so equal worlds give equal
//! bytes.
//!
//! ```ron
//! (
//!     format: 2,
//!     resources: {
//!         "denizen_bevy::clock::GameClock": (minutes: 300, turns: 0, ...),
//!         ...
//!     },
//!     entities: {
//!         1: {
//!             "denizen_bevy::floor::GridPos": (x: 3, y: 4),
//!             ...
//!         },
//!     },
//! )
//! ```
//!
//! Resources and each entity's components are keyed by type path, in the paths' order;
//! entities by their number in the save (see [`numbering`](super::numbering)), in order.

use std::any::TypeId;
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::fmt;

use bevy_reflect::serde::{TypedReflectDeserializer, TypedReflectSerializer};
use bevy_reflect::{PartialReflect, TypeRegistry};
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Serialize, Serializer};

use super::SaveError;

/// The format of the saves this build writes. Format 1 keyed the rule sets' types by their
/// paths inside `denizen_bevy` and entities by their ids in the saved world; saves of
/// denizen 0.2 and before hold no format and count as format 0. Format 3 numbers entities
/// alike but for their links by those links, and holds the tables' tag areas as sets of
/// squares and their floors' minutes: a format 2 save still loads (fields it lacks take
/// their defaults), and is written back as the current format. Format 4 adds the tables'
/// context (`TablesContext`): a save of format 2 or 3 lacks it, and a saved resource a
/// save lacks starts from its default when it loads. Format 5 adds who made each floor
/// ([`FloorMakers`](crate::floor::FloorMakers)): an older save lacks it, and its floors'
/// makers are guessed as each rule set took its floors then
/// ([`SaveWithDenizen::guess_makers_with`](super::SaveWithDenizen::guess_makers_with)).
/// Format 6 adds the region a tables creature was drawn for (`HomeRegion`): an older
/// save's creatures were drawn for none, and load as they were.
pub const SAVE_FORMAT: u32 = 6;

/// The oldest format this build reads ([`SAVE_FORMAT`] the newest).
pub const OLDEST_SAVE_FORMAT: u32 = 2;

/// A value read from a save, with its type.
pub(super) type ReadValue = (TypeId, Box<dyn PartialReflect>);

/// One saved value to write: its type path and the value.
pub(super) type WriteValue<'w> = (&'static str, Value<'w>);

/// A value to write: the world's own, or a copy (whose links name the save's numbers).
pub(super) enum Value<'w> {
    /// The world's value, written as it is.
    Borrowed(&'w dyn PartialReflect),
    /// A copy.
    Owned(Box<dyn PartialReflect>),
}

impl Value<'_> {
    fn get(&self) -> &dyn PartialReflect {
        match self {
            Self::Borrowed(value) => *value,
            Self::Owned(value) => value.as_ref(),
        }
    }
}

/// What a save holds, as read: its resources and its entities (by saved id) with their
/// components.
pub(super) struct SavedWorld {
    pub resources: Vec<ReadValue>,
    pub entities: Vec<(u64, Vec<ReadValue>)>,
}

/// Writes a save's text: `resources` and each entity's components are sorted here.
pub(super) fn write(
    mut resources: Vec<WriteValue<'_>>,
    mut entities: Vec<(u64, Vec<WriteValue<'_>>)>,
    registry: &TypeRegistry,
) -> Result<String, SaveError> {
    resources.sort_by_key(|(path, _)| *path);
    entities.sort_by_key(|(id, _)| *id);
    for (_, components) in &mut entities {
        components.sort_by_key(|(path, _)| *path);
    }
    let writing = Cell::new("the save");
    let save = SaveText {
        resources: Values {
            values: &resources,
            registry,
            writing: &writing,
        },
        entities: Entities {
            entities: &entities,
            registry,
            writing: &writing,
        },
    };
    ron::ser::to_string_pretty(&save, ron::ser::PrettyConfig::new()).map_err(|e| SaveError::Write {
        type_path: writing.get().to_owned(),
        message: e.to_string(),
    })
}

/// The whole save, written as a struct of its three fields.
struct SaveText<'a> {
    resources: Values<'a>,
    entities: Entities<'a>,
}

impl Serialize for SaveText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut save = serializer.serialize_struct("Save", 3)?;
        save.serialize_field("format", &SAVE_FORMAT)?;
        save.serialize_field("resources", &self.resources)?;
        save.serialize_field("entities", &self.entities)?;
        save.end()
    }
}

/// Values keyed by their type path. `writing` names the value being written, for errors.
struct Values<'a> {
    values: &'a [WriteValue<'a>],
    registry: &'a TypeRegistry,
    writing: &'a Cell<&'static str>,
}

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (path, value) in self.values {
            self.writing.set(path);
            map.serialize_entry(
                path,
                &TypedReflectSerializer::new(value.get(), self.registry),
            )?;
        }
        map.end()
    }
}

/// Entities keyed by their id, each with its components.
struct Entities<'a> {
    entities: &'a [(u64, Vec<WriteValue<'a>>)],
    registry: &'a TypeRegistry,
    writing: &'a Cell<&'static str>,
}

impl Serialize for Entities<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entities.len()))?;
        for (id, components) in self.entities {
            let components = Values {
                values: components,
                registry: self.registry,
                writing: self.writing,
            };
            map.serialize_entry(id, &components)?;
        }
        map.end()
    }
}

/// Only the format, read first so a save of another format is named as such instead of
/// failing on whatever changed between the formats.
#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: u32,
}

/// Reads a save's text, checking its format first.
pub(super) fn read(text: &str, registry: &TypeRegistry) -> Result<SavedWorld, SaveError> {
    let read_error = |e: &dyn fmt::Display| SaveError::Read {
        type_path: None,
        message: e.to_string(),
    };
    let header: Header = ron::from_str(text).map_err(|e| read_error(&e))?;
    if !(OLDEST_SAVE_FORMAT..=SAVE_FORMAT).contains(&header.format) {
        return Err(SaveError::Version {
            found: header.format,
            supported: SAVE_FORMAT,
        });
    }
    let problem = RefCell::new(None);
    let mut deserializer = ron::Deserializer::from_str(text).map_err(|e| read_error(&e))?;
    let saved = SaveSeed {
        registry,
        problem: &problem,
    }
    .deserialize(&mut deserializer)
    .and_then(|saved| deserializer.end().map(|()| saved));
    saved.map_err(|e| problem.take().unwrap_or_else(|| read_error(&e)))
}

/// The save's fields.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    Format,
    Resources,
    Entities,
}

/// Reads the whole save. `problem` keeps a typed error (an unknown type, a value that does
/// not read as its type) that serde can only pass up as text.
#[derive(Clone, Copy)]
struct SaveSeed<'a> {
    registry: &'a TypeRegistry,
    problem: &'a RefCell<Option<SaveError>>,
}

impl<'de> DeserializeSeed<'de> for SaveSeed<'_> {
    type Value = SavedWorld;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<SavedWorld, D::Error> {
        deserializer.deserialize_struct("Save", &["format", "resources", "entities"], self)
    }
}

impl<'de> Visitor<'de> for SaveSeed<'_> {
    type Value = SavedWorld;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a denizen save: (format, resources, entities)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SavedWorld, A::Error> {
        let (mut resources, mut entities) = (None, None);
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Format => {
                    map.next_value::<u32>()?;
                }
                Field::Resources if resources.is_none() => {
                    resources = Some(map.next_value_seed(ValuesSeed(self))?);
                }
                Field::Entities if entities.is_none() => {
                    entities = Some(map.next_value_seed(EntitiesSeed(self))?);
                }
                Field::Resources => return Err(de::Error::duplicate_field("resources")),
                Field::Entities => return Err(de::Error::duplicate_field("entities")),
            }
        }
        Ok(SavedWorld {
            resources: resources.ok_or_else(|| de::Error::missing_field("resources"))?,
            entities: entities.ok_or_else(|| de::Error::missing_field("entities"))?,
        })
    }
}

/// Reads a map of values keyed by type path.
struct ValuesSeed<'a>(SaveSeed<'a>);

impl<'de> DeserializeSeed<'de> for ValuesSeed<'_> {
    type Value = Vec<ReadValue>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ValuesSeed<'_> {
    type Value = Vec<ReadValue>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("values keyed by their type path")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let SaveSeed { registry, problem } = self.0;
        let mut values = Vec::new();
        let mut seen = BTreeSet::new();
        while let Some(path) = map.next_key::<String>()? {
            let Some(reading) = super::legacy::reading(registry, &path) else {
                let error = de::Error::custom(format!("unknown type `{path}`"));
                *problem.borrow_mut() = Some(SaveError::UnknownType(path));
                return Err(error);
            };
            let loaded = reading.loaded.type_id();
            if !seen.insert(loaded) {
                return Err(de::Error::custom(format!("`{path}` is given twice")));
            }
            let read_error = |message: String| {
                *problem.borrow_mut() = Some(SaveError::Read {
                    type_path: Some(path.clone()),
                    message,
                });
            };
            let value = map
                .next_value_seed(TypedReflectDeserializer::new(reading.read, registry))
                .inspect_err(|e| read_error(e.to_string()))?;
            let Some(value) = reading.loaded_value(value) else {
                let message = format!("`{path}` does not read as its former type");
                read_error(message.clone());
                return Err(de::Error::custom(message));
            };
            values.push((loaded, value));
        }
        Ok(values)
    }
}

/// Reads the entities: each saved id with its components.
struct EntitiesSeed<'a>(SaveSeed<'a>);

impl<'de> DeserializeSeed<'de> for EntitiesSeed<'_> {
    type Value = Vec<(u64, Vec<ReadValue>)>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for EntitiesSeed<'_> {
    type Value = Vec<(u64, Vec<ReadValue>)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("entities keyed by their saved id")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entities = Vec::new();
        let mut seen = BTreeSet::new();
        while let Some(id) = map.next_key::<u64>()? {
            if !seen.insert(id) {
                return Err(de::Error::custom(format!("entity {id} is given twice")));
            }
            entities.push((id, map.next_value_seed(ValuesSeed(self.0))?));
        }
        Ok(entities)
    }
}
