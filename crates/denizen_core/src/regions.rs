//! Named regions of a floor: areas a designer marks (a lair, a graveyard, a camp), each a
//! set of squares with a kind, an id and typed fields, next to the grid and its tag layer.
//! A level editor's shapes become regions (a map reader fills them: see [reading
//! regions](#reading-regions)); a rule set reads each one's squares, kind and fields, and a
//! region's squares also carry its kind as a tag ([`Regions::tag_into`]), so placement
//! rules can need or forbid it.
//!
//! # Reading regions
//!
//! A reader adds each instance with [`Regions::insert`], which refuses a second region of
//! the same id, more than [`MAX_REGIONS`] regions, more than [`MAX_FIELDS`] fields on one,
//! and names longer than [`MAX_NAME`] bytes, so every size from a file is bounded.
//!
//! ```
//! use denizen_core::regions::{FieldValue, Region, Regions};
//! use denizen_core::{FloorGrid, Rect, SquareSet, SquareTags};
//!
//! let grid = FloorGrid::from_rows(&["......", "......"]).unwrap();
//! let mut regions = Regions::default();
//! let lair = Region::new("lair", "den-1", SquareSet::from(Rect { x: 0, y: 0, width: 2, height: 2 }))
//!     .with_field("depth_offset", FieldValue::Int(2));
//! regions.insert(lair).unwrap();
//! let mut tags = SquareTags::from_grid(&grid);
//! regions.tag_into(&mut tags).unwrap();
//! assert!(tags.has(denizen_core::Square { x: 1, y: 1 }, "lair"));
//! assert_eq!(regions.of_kind("lair").count(), 1);
//! ```

use std::collections::BTreeMap;
use std::fmt;

use crate::squares::SquareSet;
use crate::tags::{SquareTags, TooManyTags};

/// The most regions one floor holds.
pub const MAX_REGIONS: usize = 4096;

/// The most fields one region holds.
pub const MAX_FIELDS: usize = 64;

/// The longest kind, id, field name or text field, in bytes.
pub const MAX_NAME: usize = 256;

/// A region's field: what a designer typed into the editor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum FieldValue {
    /// Text (an editor's string, enum value or file path).
    Text(String),
    /// A whole number.
    Int(i64),
    /// A flag.
    Flag(bool),
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::Text(text) => write!(f, "{text:?}"),
            FieldValue::Int(n) => write!(f, "{n}"),
            FieldValue::Flag(flag) => write!(f, "{flag}"),
        }
    }
}

/// One region: its kind (what sort of area it is), its id (unique on its floor, the
/// editor's instance id), its squares and its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Region {
    /// What kind of area it is (`lair`, `graveyard`): also the tag its squares get.
    pub kind: String,
    /// Its id, unique among the floor's regions.
    pub id: String,
    /// Its squares.
    pub squares: SquareSet,
    /// Its fields, by name.
    pub fields: BTreeMap<String, FieldValue>,
}

impl Region {
    /// A region of `kind` and `id` over `squares`, with no fields.
    pub fn new(kind: impl Into<String>, id: impl Into<String>, squares: SquareSet) -> Self {
        Self {
            kind: kind.into(),
            id: id.into(),
            squares,
            fields: BTreeMap::new(),
        }
    }

    /// The same region with the field `name` set to `value`.
    pub fn with_field(mut self, name: impl Into<String>, value: FieldValue) -> Self {
        self.fields.insert(name.into(), value);
        self
    }
}

/// Why a region cannot be added to a floor's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// The floor already holds a region of this id.
    #[error("a second region has the id {0:?}")]
    DuplicateId(String),
    /// The floor already holds [`MAX_REGIONS`] regions.
    #[error("a floor holds at most {MAX_REGIONS} regions")]
    TooMany,
    /// The region has more than [`MAX_FIELDS`] fields.
    #[error("region {id:?} has {count} fields; a region holds at most {MAX_FIELDS}")]
    TooManyFields {
        /// The region.
        id: String,
        /// How many it has.
        count: usize,
    },
    /// A kind, id, field name or text is longer than [`MAX_NAME`] bytes, or a kind or id
    /// is empty.
    #[error("region {id:?}: its {what} is empty or longer than {MAX_NAME} bytes")]
    BadName {
        /// The region (cut to [`MAX_NAME`] bytes).
        id: String,
        /// Which name: `kind`, `id`, or the field's name.
        what: String,
    },
}

/// The regions of one floor, in (kind, id) order whatever order they were added in, so
/// populating them in order gives the same floor for the same file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub struct Regions(Vec<Region>);

impl Regions {
    /// Adds a region (see the [module](self) for what is refused).
    pub fn insert(&mut self, region: Region) -> Result<(), RegionError> {
        check(&region)?;
        if self.0.len() >= MAX_REGIONS {
            return Err(RegionError::TooMany);
        }
        if self.0.iter().any(|r| r.id == region.id) {
            return Err(RegionError::DuplicateId(region.id));
        }
        let at = self
            .0
            .partition_point(|r| (&r.kind, &r.id) < (&region.kind, &region.id));
        self.0.insert(at, region);
        Ok(())
    }

    /// Every region, in (kind, id) order.
    pub fn iter(&self) -> impl Iterator<Item = &Region> {
        self.0.iter()
    }

    /// The regions of one kind, in id order.
    pub fn of_kind<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Region> + 'a {
        self.0.iter().filter(move |r| r.kind == kind)
    }

    /// The region of an id.
    pub fn get(&self, id: &str) -> Option<&Region> {
        self.0.iter().find(|r| r.id == id)
    }

    /// How many regions there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Tags each region's squares (those on the layer's floor) with its kind.
    pub fn tag_into(&self, tags: &mut SquareTags) -> Result<(), TooManyTags> {
        self.0
            .iter()
            .try_for_each(|region| tags.tag_set(&region.squares, &region.kind))
    }
}

/// Checks a region's names and fields against the bounds.
fn check(region: &Region) -> Result<(), RegionError> {
    let bad = |what: &str| RegionError::BadName {
        id: crate::data::excerpt(&region.id, MAX_NAME),
        what: what.to_owned(),
    };
    let fits = |name: &str| !name.is_empty() && name.len() <= MAX_NAME;
    if !fits(&region.kind) {
        return Err(bad("kind"));
    }
    if !fits(&region.id) {
        return Err(bad("id"));
    }
    if region.fields.len() > MAX_FIELDS {
        return Err(RegionError::TooManyFields {
            id: region.id.clone(),
            count: region.fields.len(),
        });
    }
    for (name, value) in &region.fields {
        let text_fits = !matches!(value, FieldValue::Text(t) if t.len() > MAX_NAME);
        if !fits(name) || !text_fits {
            return Err(bad(&format!("field `{}`", crate::data::excerpt(name, 40))));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floor::{Rect, Square};

    fn square_region(kind: &str, id: &str, x: u32) -> Region {
        Region::new(
            kind,
            id,
            SquareSet::from(Rect {
                x,
                y: 0,
                width: 1,
                height: 1,
            }),
        )
    }

    /// Regions come back in (kind, id) order whatever order they were added in.
    #[test]
    fn regions_are_kept_in_kind_then_id_order() {
        let mut regions = Regions::default();
        for (kind, id) in [("lair", "b"), ("camp", "z"), ("lair", "a")] {
            regions.insert(square_region(kind, id, 0)).unwrap();
        }
        let order: Vec<(&str, &str)> = regions.iter().map(|r| (&*r.kind, &*r.id)).collect();
        assert_eq!(order, [("camp", "z"), ("lair", "a"), ("lair", "b")]);
        assert_eq!(regions.of_kind("lair").count(), 2);
        assert_eq!(regions.get("z").unwrap().kind, "camp");
    }

    /// A second id, the region past the limit, a field past the limit and an empty or
    /// overlong name are each refused.
    #[test]
    fn what_a_file_could_make_too_large_is_refused() {
        let mut regions = Regions::default();
        regions.insert(square_region("lair", "a", 0)).unwrap();
        assert_eq!(
            regions.insert(square_region("camp", "a", 1)),
            Err(RegionError::DuplicateId("a".into()))
        );
        assert!(matches!(
            regions.insert(square_region("", "b", 1)),
            Err(RegionError::BadName { what, .. }) if what == "kind"
        ));
        let long = "x".repeat(MAX_NAME + 1);
        assert!(regions.insert(square_region("lair", &long, 1)).is_err());
        assert!(
            regions
                .insert(square_region("lair", &"x".repeat(MAX_NAME), 1))
                .is_ok()
        );
        let mut crowded = square_region("lair", "c", 2);
        for i in 0..=MAX_FIELDS {
            crowded = crowded.with_field(format!("f{i}"), FieldValue::Flag(true));
        }
        assert_eq!(
            regions.insert(crowded),
            Err(RegionError::TooManyFields {
                id: "c".into(),
                count: MAX_FIELDS + 1
            })
        );
        let mut full = Regions::default();
        for i in 0..MAX_REGIONS {
            full.insert(square_region("lair", &i.to_string(), 0))
                .unwrap();
        }
        assert_eq!(
            full.insert(square_region("lair", "one more", 0)),
            Err(RegionError::TooMany)
        );
    }

    /// A region's squares carry its kind as a tag, and only they do.
    #[test]
    fn a_regions_squares_carry_its_kind() {
        let mut regions = Regions::default();
        regions.insert(square_region("lair", "a", 1)).unwrap();
        let mut tags = SquareTags::new(3, 1);
        regions.tag_into(&mut tags).unwrap();
        let tagged: Vec<bool> = (0..3)
            .map(|x| tags.has(Square { x, y: 0 }, "lair"))
            .collect();
        assert_eq!(tagged, [false, true, false]);
    }
}
