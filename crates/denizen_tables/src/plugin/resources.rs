//! The tables rules the plugin uses and the state it keeps: the unique ledger and the
//! record of each floor it made.

use std::sync::Arc;

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::{FloorMap, PerFloor};
use denizen_core::{FloorGrid, Rect, Square, SquareSet, SquareTags, TooManyTags};
use serde::{Deserialize, Serialize};

use crate::{Bags, Bestiary, Context, FloorState, TimeUnit, UniqueLedger};

/// The bestiary in use. Shared, read-only, rebuilt from the plugin's builder (or its data
/// files) rather than saved.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(opaque)]
#[reflect(Debug)]
pub struct TablesRuleset(pub(super) Arc<Bestiary>);

impl TablesRuleset {
    /// The bestiary, shared.
    pub fn new(bestiary: Arc<Bestiary>) -> Self {
        Self(bestiary)
    }

    /// The bestiary.
    pub fn rules(&self) -> &Bestiary {
        &self.0
    }
}

/// Which uniques are alive on some floor and which were killed (see [`UniqueLedger`]).
/// Saved. A unique whose entity goes (its floor left, replaced or despawned, or the game
/// despawned it; a floor put away keeps it) goes back to the pool; a
/// [`TablesUniqueKilled`](super::messages::TablesUniqueKilled) takes one for good.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct TablesUniques(pub UniqueLedger);

/// The context the game is in (night, winter, a festival, a difficulty): every floor and
/// wandering arrival is drawn in it, so the game sets it before it asks (with a
/// [`Calendar`](crate::Calendar), from its clock). Saved; a save older than it loads
/// with the empty context. A name the bestiary does not declare refuses the floor
/// ([`TablesFloorRefusal::Request`](super::messages::TablesFloorRefusal::Request)) and the
/// wandering check, naming it.
#[derive(Resource, Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct TablesContext(pub Context);

/// A tag the game gives squares of a floor, on top of what the map knows (see
/// [`SquareTags::from_grid`]): a safe room, a shrine, a river of lava. Saved as its name
/// and its squares' runs; a save of format 2 (which held a rectangle, `rect`) loads too.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "WrittenArea")]
#[reflect(Debug, PartialEq, Serialize, Deserialize)]
pub struct TagArea {
    /// The tag.
    pub name: String,
    /// Its squares.
    pub squares: SquareSet,
}

/// A tag area as a save writes it: its squares, or a format 2 save's rectangle.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WrittenArea {
    name: String,
    #[serde(default, deserialize_with = "present")]
    squares: Option<SquareSet>,
    #[serde(default, deserialize_with = "present")]
    rect: Option<Rect>,
}

/// A field written as its value, read as present (a missing one is `None`).
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    value: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(value).map(Some)
}

impl TryFrom<WrittenArea> for TagArea {
    type Error = &'static str;

    fn try_from(written: WrittenArea) -> Result<Self, Self::Error> {
        let squares = match (written.squares, written.rect) {
            (Some(squares), None) => squares,
            (None, Some(rect)) => rect.into(),
            _ => return Err("a tag area gives its `squares` (a save of format 2 its `rect`)"),
        };
        Ok(Self {
            name: written.name,
            squares,
        })
    }
}

/// A floor the plugin made: the tags the game gave it, where the player stands (the point
/// arrivals keep their distance from), and how much game time was spent on it.
#[derive(Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct TablesFloor {
    /// The game's tags, on top of the map's.
    pub tags: Vec<TagArea>,
    /// Where the player stands; the game updates it as the player moves, so arrivals
    /// keep their distance.
    pub player: Option<Square>,
    /// Game time spent on the floor while it was current, in the wandering rules' unit
    /// (wandering checks count it).
    pub elapsed: u64,
    /// The game turn ([`GameClock::turns`]) up to which `elapsed` is counted.
    pub seen_turn: u64,
    /// The game minute ([`GameClock::minutes`]) up to which `elapsed` is counted; `None`
    /// in a save of format 2, read as the clock's minute when the floor is next seen.
    #[serde(default)]
    pub seen_minute: Option<u64>,
    /// The branch the floor is of, by key (none: the default floor); its wandering
    /// arrivals are the branch's. A save before branches has none.
    #[serde(default)]
    pub branch: Option<String>,
    /// The floor's bags as its draws left them (its wandering arrivals go on with them).
    #[serde(default)]
    pub bags: Vec<SavedBag>,
    /// A print of the bestiary's bag tables when the bags were filled: bags of tables a
    /// reload changed are emptied (refilled at the next draw).
    #[serde(default)]
    pub bag_tables: u64,
    /// How many of each capped species the floor holds, as drawn, by key: its wandering
    /// arrivals count towards the caps.
    #[serde(default)]
    pub species_counts: Vec<(String, u32)>,
    /// How many placements of each capped group the floor holds, by key.
    #[serde(default)]
    pub group_counts: Vec<(String, u32)>,
}

/// One bag of a floor: its table (by key) and depth, and the copies left of each row (by
/// its index in the table).
#[derive(Reflect, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[reflect(Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedBag {
    /// The bag table's key.
    pub table: String,
    /// The depth it was filled at.
    pub depth: u32,
    /// Each row with copies left: its index and how many.
    pub copies: Vec<(u32, u32)>,
}

/// The most bags one floor's record holds (a bag for each table and depth drawn from). A
/// floor whose draws filled more keeps the first in (table, depth) order; the others are
/// refilled when next drawn from.
pub const MAX_BAGS: usize = 1_024;

impl TablesFloor {
    /// What the floor's draws left, for a draw under `b`: its bags (none if the bag
    /// tables changed since) and the counts of its capped species and groups (those `b`
    /// still has).
    pub(super) fn state(&self, b: &Bestiary) -> FloorState {
        let species =
            (self.species_counts.iter()).filter_map(|(key, n)| Some((b.species_by_key(key)?, *n)));
        let groups =
            (self.group_counts.iter()).filter_map(|(key, n)| Some((b.group_by_key(key)?, *n)));
        FloorState::from_parts(self.bags(b), species, groups)
    }

    /// Keeps what a draw under `b` left: its bags and counts.
    pub(super) fn keep_state(&mut self, b: &Bestiary, state: &FloorState) {
        self.keep_bags(b, state.bags());
        self.species_counts = (state.species_counts())
            .map(|(s, n)| (b.species_of(s).key.clone(), n))
            .collect();
        self.group_counts = (state.group_counts())
            .map(|(g, n)| (b.group(g).key.clone(), n))
            .collect();
    }

    /// The floor's bags for a draw under `b`: as saved, unless the bag tables changed
    /// since (then none).
    fn bags(&self, b: &Bestiary) -> Bags {
        // The print is worked out only for a floor that has bags.
        if self.bags.is_empty() || self.bag_tables != bag_tables(b) {
            return Bags::new();
        }
        // Only bags that fit the tables: a bag table's, each row one of its rows and each
        // count one it can put in.
        let bags = self.bags.iter().filter_map(|saved| {
            let table = b.table_by_key(&saved.table)?;
            let rows = &b.table(table).rows;
            let fits = b.table(table).pick == crate::file::PickKind::Bag
                && saved.copies.iter().all(|&(i, n)| {
                    (i as usize) < rows.len() && (1..=crate::MAX_BAG_COPIES).contains(&n)
                });
            fits.then(|| ((table, saved.depth), saved.copies.clone()))
        });
        Bags::from_iter(bags)
    }

    /// Keeps `bags`, drawn under `b`: at most [`MAX_BAGS`], the first in (table, depth)
    /// order, so the record a save holds is the one the floor's arrivals go on from.
    fn keep_bags(&mut self, b: &Bestiary, bags: &Bags) {
        self.bag_tables = if bags.is_empty() { 0 } else { bag_tables(b) };
        self.bags = bags
            .iter()
            .take(MAX_BAGS)
            .map(|((table, depth), copies)| SavedBag {
                table: b.table(table).key.clone(),
                depth,
                copies: copies.to_vec(),
            })
            .collect();
    }
}

/// A print of the bestiary's bag tables: their keys and rows as they read now (FNV-1a),
/// 0 when there is none.
pub(super) fn bag_tables(b: &Bestiary) -> u64 {
    let bags = b
        .tables()
        .iter()
        .filter(|t| t.pick == crate::file::PickKind::Bag);
    let text: String = bags.map(|t| format!("{}{:?}", t.key, t.rows)).collect();
    if text.is_empty() {
        return 0;
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, byte| {
        (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl TablesFloor {
    /// The game time is counted up to the clock's reading now.
    pub(super) fn seen(&mut self, clock: &GameClock) {
        (self.seen_turn, self.seen_minute) = (clock.turns, Some(clock.minutes));
    }

    /// The time the clock moved since the floor was last seen, in `unit`, and the reading
    /// is counted: wandering time passes on the floor.
    pub(super) fn pass(&mut self, clock: &GameClock, unit: TimeUnit) -> u64 {
        let moved = match unit {
            TimeUnit::Turns => clock.turns.saturating_sub(self.seen_turn),
            TimeUnit::Minutes => clock
                .minutes
                .saturating_sub(self.seen_minute.unwrap_or(clock.minutes)),
        };
        self.seen(clock);
        moved
    }

    /// The bestiary seen from the floor's branch; the branch's key when the bestiary no
    /// longer has it (a reload removed it).
    pub fn rules(&self, b: &Arc<Bestiary>) -> Result<Arc<Bestiary>, String> {
        let Some(key) = &self.branch else {
            return Ok(b.clone());
        };
        let id = b.branch_by_key(key).ok_or_else(|| key.clone())?;
        Ok(Arc::new(b.in_branch(Some(id))))
    }

    /// The floor's tag layer: the map's tags, then the game's areas.
    pub fn layer(&self, map: &FloorMap) -> Result<SquareTags, TooManyTags> {
        layer(&map.0, &self.tags)
    }
}

/// The most tag areas one floor holds (a request's, or a save's record of a floor).
pub const MAX_TAG_AREAS: usize = 256;

/// The tag layer of `map` with `areas` added, each clipped to the floor (so an area
/// however large costs no more than the floor's squares).
pub(super) fn layer(map: &FloorGrid, areas: &[TagArea]) -> Result<SquareTags, TooManyTags> {
    let mut tags = SquareTags::from_grid(map);
    for area in areas {
        tags.tag_set(&area.squares, &area.name)?;
    }
    Ok(tags)
}

/// The record of every floor the plugin made that still exists (current or put away), by
/// floor, in the neutral per-floor store. Saved. A game keeps the current floor's
/// [`player`](TablesFloor::player) up to date as the player moves, so arrivals keep their
/// distance:
///
/// ```
/// # use denizen_bevy::floor::FloorId;
/// # use denizen_core::floor::Square;
/// # use denizen_tables::plugin::TablesFloors;
/// # let (mut floors, floor, at) = (TablesFloors::default(), FloorId::new("marsh", 5), Square { x: 3, y: 4 });
/// if let Some(record) = floors.0.get_mut(&floor) {
///     record.player = Some(at);
/// }
/// ```
pub type TablesFloors = PerFloor<TablesFloor>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bestiary::TableId;

    /// A floor whose draws filled more than `MAX_BAGS` bags keeps the first 1,024 in (table,
    /// depth) order, so its record never holds what a save check would refuse.
    #[test]
    fn a_record_keeps_at_most_max_bags() {
        let b = crate::starter().unwrap();
        assert!(b.tables().len() >= 5);
        let bags: Bags = (0..5)
            .flat_map(|t| (0..=crate::MAX_DEPTH).map(move |d| ((TableId(t), d), vec![(0, 1)])))
            .collect();
        let mut record = TablesFloor::default();
        record.keep_bags(&b, &bags);
        assert_eq!(record.bags.len(), MAX_BAGS);
        let last = &record.bags[MAX_BAGS - 1];
        // 1,024 = 4 tables of 251 depths, and 20 of the fifth.
        assert_eq!(
            (last.table.as_str(), last.depth),
            (b.table(TableId(4)).key.as_str(), 19)
        );
    }
}
