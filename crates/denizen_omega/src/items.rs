//! Item templates: what the object table and the possessions of monsters are made of.

use serde::{Deserialize, Serialize};

/// An item's index: its position in the bestiary's item table.
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
    /// Gets one of 20 junk names (`R(20)`), recorded as
    /// [`ObjectInstance::variant`](crate::objects::ObjectInstance::variant).
    JunkName,
    /// Teaches a random spell: `aux = R(41)`.
    SpellIndex,
    /// Comes in a stack: `number = R(20) + 1`.
    Stack,
    /// Always generated with this plus.
    FixedPlus(i32),
}
