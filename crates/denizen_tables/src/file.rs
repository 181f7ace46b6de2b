//! A tables file as written: the RON shapes, before merging and checking.
//!
//! Every section may be left out. A file's sections apply in this order: `species`,
//! `groups`, `tables` and `loot` add entries (a key already loaded is an error),
//! `replace` replaces entries by key (the key must be loaded), `remove` removes them,
//! `append` adds rows to loaded tables, and `floor` and `wandering` replace the settings
//! of the files before. The starter bestiary (`data/starter.tables.ron`) shows every section.
//!
//! Each shape is named for serde by the word the file uses for it (`row`, `place`, `what`),
//! so a syntax error says "unknown field `x` in `row`", never a type of this crate.

use serde::{Deserialize, Deserializer};

use crate::roll::Roll;
use crate::weight::{Chance, Depths, Shape};

/// One file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename = "tables file")]
pub struct TablesFile {
    /// New species.
    #[serde(default)]
    pub species: Vec<SpeciesDef>,
    /// New groups.
    #[serde(default)]
    pub groups: Vec<GroupDef>,
    /// New tables.
    #[serde(default)]
    pub tables: Vec<TableDef>,
    /// New loot tables.
    #[serde(default)]
    pub loot: Vec<LootDef>,
    /// Entries that replace loaded ones of the same key.
    #[serde(default)]
    pub replace: Replacements,
    /// Loaded entries to remove.
    #[serde(default)]
    pub remove: Vec<Removal>,
    /// Rows added to the end of loaded tables.
    #[serde(default)]
    pub append: Vec<Appendix>,
    /// How floors are populated.
    #[serde(default)]
    pub floor: Option<FloorDef>,
    /// Wandering arrivals.
    #[serde(default)]
    pub wandering: Option<WanderingDef>,
    /// Context flags and integers this file declares (added to the files' before).
    #[serde(default)]
    pub context: Option<ContextDef>,
    /// New branches: named floor profiles besides the default `floor` and `wandering`.
    #[serde(default)]
    pub branches: Vec<BranchDef>,
}

/// A branch: a named floor profile (the mines, the flooded crypt) with its own floor
/// rules and wandering arrivals, requested by its key.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "branch")]
pub struct BranchDef {
    /// The key a request names.
    pub key: String,
    /// How its floors are populated.
    pub floor: FloorDef,
    /// Its wandering arrivals; none when left out.
    #[serde(default)]
    pub wandering: Option<WanderingDef>,
}

/// The context a bestiary's rows may ask about: flags (`night`, `winter`) and named
/// integers with their ranges and defaults (`difficulty` 1-5, default 3).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename = "context")]
pub struct ContextDef {
    /// Flag names: each false unless a request sets it.
    #[serde(default)]
    pub flags: Vec<String>,
    /// Named integers.
    #[serde(default)]
    pub values: Vec<ValueDef>,
}

/// A named integer of the context.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename = "value")]
pub struct ValueDef {
    /// Its name.
    pub name: String,
    /// The values a request may give it, both ends included.
    pub range: (i64, i64),
    /// Its value when a request does not set it.
    pub default: i64,
}

/// When a row is eligible, besides its depths: flags that must all hold, flags of which
/// at least one must hold (none listed: no condition), flags that must not hold, and
/// ranges (both ends included) the named integers must fall in.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename = "when")]
pub struct WhenDef {
    /// Flags that must all hold.
    #[serde(default)]
    pub all: Vec<String>,
    /// Flags of which at least one must hold.
    #[serde(default)]
    pub any: Vec<String>,
    /// Flags that must not hold.
    #[serde(default)]
    pub none: Vec<String>,
    /// Ranges of named integers: `{"difficulty": (2, 5)}`.
    #[serde(default)]
    pub values: std::collections::BTreeMap<String, (i64, i64)>,
}

/// A species.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "species")]
pub struct SpeciesDef {
    /// The key other entries name it by.
    pub key: String,
    /// Its name.
    pub name: String,
    /// The character a map shows.
    pub glyph: char,
    /// Its native level (the game reads it; the lint compares it with its rows).
    pub level: u32,
    /// Hit points, as dice (`"3d8"`).
    #[serde(deserialize_with = "dice")]
    pub hit_points: Roll,
    /// The chance it starts asleep (`"1/2"`); never when left out.
    #[serde(default)]
    pub asleep: Option<Chance>,
    /// Tags the game reads (`"animal"`, `"undead"`).
    #[serde(default)]
    pub tags: Vec<String>,
    /// What it may carry.
    #[serde(default)]
    pub possessions: Option<Possessions>,
    /// At most one alive per game.
    #[serde(default)]
    pub unique: bool,
    /// A group without a leader whose followers come whenever a row draws this species
    /// (not when it is a group's leader or a follower, whose groups say who comes).
    #[serde(default)]
    pub escort: Option<String>,
    /// Where it may stand.
    #[serde(default)]
    pub place: PlaceDef,
    /// What it adds to a floor's danger (0 to 10,000; 1 when left out).
    #[serde(default)]
    pub cost: Option<u32>,
    /// Values the game reads, by name: `{"speed": Int(12), "flies": Bool(true)}`.
    #[serde(default)]
    pub data: std::collections::BTreeMap<String, Datum>,
    /// At most this many on a floor, by any route (1 to 200; no cap when left out).
    #[serde(default)]
    pub max_per_floor: Option<u32>,
}

/// A value of a species' `data`: an integer, a flag or a text.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[serde(rename = "datum")]
pub enum Datum {
    /// An integer.
    Int(i64),
    /// A flag.
    Bool(bool),
    /// A text (at most [`MAX_NAME_BYTES`](crate::MAX_NAME_BYTES) bytes).
    Str(String),
}

impl std::fmt::Display for Datum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Datum::Int(n) => write!(f, "{n}"),
            Datum::Bool(b) => write!(f, "{b}"),
            Datum::Str(s) => write!(f, "{}", denizen_core::quoted(s)),
        }
    }
}

/// What a species may carry: an item of a loot table, with a chance.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "possessions")]
pub struct Possessions {
    /// The loot table's key.
    pub loot: String,
    /// The chance it carries anything.
    pub chance: Chance,
}

/// Placement rules of a species, a row or a follower: the square's tags it stands on,
/// needs and must not have, and its least distance from the point a request names (the
/// player). A row's and a follower's rules add to their species'.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename = "place")]
pub struct PlaceDef {
    /// The terrain it stands on: a square must have one of these tags (`["floor"]` when
    /// left out, for a species).
    #[serde(default)]
    pub stands_on: Option<Vec<String>>,
    /// Tags the square must have all of.
    #[serde(default)]
    pub needs: Vec<String>,
    /// Tags the square must have none of.
    #[serde(default)]
    pub forbids: Vec<String>,
    /// The least distance (squares, diagonal steps counting one) from the request's point.
    #[serde(default)]
    pub min_distance: Option<u32>,
}

/// What a leader or a follower is: a species, or a table drawn for one creature.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename = "creature")]
pub enum Pick {
    /// A species by key.
    Species(String),
    /// A table by key: pick-one, its rows species or such tables.
    Table(String),
}

/// A group: a leader and followers on connected squares near it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "group")]
pub struct GroupDef {
    /// The key.
    pub key: String,
    /// The leader; an escort (named by a species' `escort`) has none, its species leads.
    #[serde(default)]
    pub leader: Option<Pick>,
    /// The followers, in the order they are drawn and placed.
    pub followers: Vec<FollowerDef>,
    /// How far from the leader (squares, diagonal steps counting one) followers stand.
    #[serde(default = "default_radius")]
    pub radius: u32,
    /// At most this many of its placements on a floor (1 to 200; no cap when left out).
    #[serde(default)]
    pub max_per_floor: Option<u32>,
}

fn default_radius() -> u32 {
    3
}

/// One kind of follower of a group.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "follower")]
pub struct FollowerDef {
    /// What follows.
    pub member: Pick,
    /// How many, as dice (`"2d3"`).
    #[serde(deserialize_with = "dice")]
    pub count: Roll,
    /// The role the game reads (`"guard"`, `"archer"`).
    #[serde(default)]
    pub role: String,
    /// Placement rules added to the member's.
    #[serde(default)]
    pub place: PlaceDef,
}

/// A table's draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename = "pick")]
pub enum PickKind {
    /// One row, by weight.
    #[default]
    One,
    /// Every row on its own, with its chance and count.
    Each,
    /// One row, drawn without replacement from a bag that each eligible row fills with
    /// its weight's copies (shaped by depth as weights are); one bag per floor, table and
    /// depth, refilled when empty.
    Bag,
}

/// A table of rows.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "table")]
pub struct TableDef {
    /// The key.
    pub key: String,
    /// Pick-one (the default) or pick-each.
    #[serde(default)]
    pub pick: PickKind,
    /// The rows.
    pub rows: Vec<RowDef>,
}

/// What a row draws.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename = "what")]
pub enum Target {
    /// A species by key.
    Species(String),
    /// A group by key.
    Group(String),
    /// A table by key.
    Table(String),
}

/// A row of a table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "row")]
pub struct RowDef {
    /// What it draws.
    pub what: Target,
    /// The depths where it is eligible, `(min, max)`.
    pub depth: Depths,
    /// Its weight (pick-one); 1 when left out.
    #[serde(default = "one")]
    pub weight: u32,
    /// How the weight changes over the range.
    #[serde(default)]
    pub shape: Shape,
    /// Pick-each: the chance it comes (always when left out).
    #[serde(default)]
    pub chance: Option<Chance>,
    /// Pick-each: how many times it is drawn when it comes (`Some("1d2")`; once when left
    /// out).
    #[serde(default, deserialize_with = "some_dice")]
    pub count: Option<Roll>,
    /// Placement rules added to what it draws.
    #[serde(default)]
    pub place: PlaceDef,
    /// The context it is eligible in (always, when left out).
    #[serde(default)]
    pub when: Option<WhenDef>,
}

fn one() -> u32 {
    1
}

/// A loot table: items by weight.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "loot table")]
pub struct LootDef {
    /// The key.
    pub key: String,
    /// The items.
    pub items: Vec<LootItem>,
}

/// One item of a loot table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "loot item")]
pub struct LootItem {
    /// The item, as the game names it.
    pub item: String,
    /// Its weight.
    pub weight: u32,
}

/// Entries that replace loaded ones by key.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename = "replace")]
pub struct Replacements {
    /// Species.
    #[serde(default)]
    pub species: Vec<SpeciesDef>,
    /// Groups.
    #[serde(default)]
    pub groups: Vec<GroupDef>,
    /// Tables.
    #[serde(default)]
    pub tables: Vec<TableDef>,
    /// Loot tables.
    #[serde(default)]
    pub loot: Vec<LootDef>,
    /// Branches.
    #[serde(default)]
    pub branches: Vec<BranchDef>,
}

/// A loaded entry to remove, by kind and key.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename = "removal")]
pub enum Removal {
    /// A species.
    Species(String),
    /// A group.
    Group(String),
    /// A table.
    Table(String),
    /// A loot table.
    Loot(String),
    /// A branch.
    Branch(String),
}

/// Rows added to the end of a loaded table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "append")]
pub struct Appendix {
    /// The table's key.
    pub table: String,
    /// The rows.
    pub rows: Vec<RowDef>,
}

/// How floors are populated.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "floor")]
pub struct FloorDef {
    /// The table each placement draws from.
    pub table: String,
    /// The depths a floor may have, `(min, max)`.
    pub depths: Depths,
    /// How many placements a floor has; a floor has this or a `budget`. Written without
    /// `Some`, as files before budgets wrote it.
    #[serde(default, deserialize_with = "present")]
    pub count: Option<CountDef>,
    /// The danger a floor may spend on placements, instead of a `count`.
    #[serde(default)]
    pub budget: Option<BudgetDef>,
    /// Placements drawn deeper than the floor.
    #[serde(default)]
    pub out_of_depth: Option<OutOfDepthDef>,
    /// Placement rules every placement adds (`min_distance` from the player).
    #[serde(default)]
    pub place: PlaceDef,
    /// How the regions a level marks (a lair, a camp) are populated, one rule per kind;
    /// none when left out.
    #[serde(default)]
    pub regions: Vec<RegionDef>,
}

/// A region rule: how every region of one kind on a floor is populated. Each region of
/// the kind has its own draw, from its own stream, inside its own squares: its count (or
/// budget) rolled at its depth, its placements drawn from `table`, each creature placed
/// on one of its squares (followers too), under the species' rules and `place`. Uniques,
/// per-floor caps and bags are the floor's, shared with its other draws; the
/// out-of-depth rule's fairness counts each region's placements alone.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "region")]
pub struct RegionDef {
    /// The kind of region it populates (`"lair"`): a level editor's entity or class name,
    /// in lowercase as the map reader gives it.
    pub kind: String,
    /// The table each of its placements draws from.
    pub table: String,
    /// The depths a region may have: the floor's depth plus the region's `depth_offset`
    /// field (0 when it has none) must be one of them.
    pub depths: Depths,
    /// How many placements a region has; a rule has this or a `budget`, written as a
    /// floor's.
    #[serde(default, deserialize_with = "present")]
    pub count: Option<CountDef>,
    /// The danger a region may spend on placements, instead of a `count`.
    #[serde(default)]
    pub budget: Option<BudgetDef>,
    /// Placements drawn deeper than the region.
    #[serde(default)]
    pub out_of_depth: Option<OutOfDepthDef>,
    /// Placement rules its placements add, instead of the floor's.
    #[serde(default)]
    pub place: PlaceDef,
    /// Whether the floor's own placements may stand on its regions' squares (false when
    /// left out: a lair is its dwellers').
    #[serde(default)]
    pub open: bool,
    /// The fields a region of the kind may set to change its draw (none when left out);
    /// a region setting one not listed is refused.
    #[serde(default)]
    pub overrides: Vec<Override>,
}

/// A field a region may set to change its rule's draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename = "override", rename_all = "snake_case")]
pub enum Override {
    /// `table`: a table's key (text), drawn from instead of the rule's.
    Table,
    /// `count`: the region's count (or budget), a whole number or dice (`"1d3"`),
    /// instead of the rule's dice and depth term.
    Count,
    /// `depth_offset`: a whole number added to the floor's depth to give the region's.
    DepthOffset,
}

impl Override {
    /// The field's name, as a region and a file write it.
    pub fn field(self) -> &'static str {
        match self {
            Override::Table => "table",
            Override::Count => "count",
            Override::DepthOffset => "depth_offset",
        }
    }
}

/// A floor's placement count: `dice + floor(depth * per_depth)`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "count")]
pub struct CountDef {
    /// The dice (`"2d4"`).
    #[serde(deserialize_with = "dice")]
    pub dice: Roll,
    /// Placements added per depth, as a fraction (`"1/2"`: one more every second depth);
    /// none when left out.
    #[serde(default)]
    pub per_depth: Option<PerDepth>,
}

/// A floor's danger budget: `dice + floor(depth * per_depth)`, rolled once a floor; a
/// placement is kept while its cost fits what remains, and the floor ends after
/// `attempts` placements in a row did not fit.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "budget")]
pub struct BudgetDef {
    /// The dice (`"2d10+5"`).
    #[serde(deserialize_with = "dice")]
    pub dice: Roll,
    /// Budget added per depth, as a fraction (`"3/1"`); none when left out.
    #[serde(default)]
    pub per_depth: Option<PerDepth>,
    /// How many placements in a row may be discarded before the floor ends (1 to 1,000;
    /// 10 when left out).
    #[serde(default)]
    pub attempts: Option<u32>,
}

/// A fraction `num/den` with `num` possibly above `den`, written `"3/2"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct PerDepth {
    /// The numerator (at most 100).
    pub num: u32,
    /// The denominator (1 to 100).
    pub den: u32,
}

impl TryFrom<String> for PerDepth {
    type Error = String;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        let fail = || {
            format!(
                "`{text}` is not a fraction: expected N/D with N <= 100, 1 <= D <= 100, such as 1/2"
            )
        };
        let (num, den) = text.split_once('/').ok_or_else(fail)?;
        let num: u32 = num.trim().parse().map_err(|_| fail())?;
        let den: u32 = den.trim().parse().map_err(|_| fail())?;
        (num <= 100 && (1..=100).contains(&den))
            .then_some(PerDepth { num, den })
            .ok_or_else(fail)
    }
}

/// The out-of-depth rule: with `chance` per placement, a placement at depth `d` draws at
/// `d + min(d / divisor + bonus, cap)` instead; once `fairness` placements of a floor went
/// out of depth, later ones draw at `d`.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "out_of_depth")]
pub struct OutOfDepthDef {
    /// The chance per placement (`"1/25"`).
    pub chance: Chance,
    /// `a` of the boost: one level more every `a` depths (1 to 1,000).
    pub divisor: u32,
    /// `b` of the boost.
    pub bonus: u32,
    /// The largest boost.
    pub cap: u32,
    /// The most placements of one floor that go out of depth.
    pub fairness: u32,
}

/// Wandering arrivals: a check every `every` units of game time on a floor, each
/// bringing one placement of `table` with `chance`, halved for every `halve_every` units
/// spent on the floor when given.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "wandering")]
pub struct WanderingDef {
    /// The table an arrival draws from.
    pub table: String,
    /// The chance per check (`"1/50"`).
    pub chance: Chance,
    /// Game time between checks (1 or more), in `unit`s.
    pub every: u32,
    /// Which of the game clock's units the checks count: `Turns` (the default) or
    /// `Minutes`.
    #[serde(default)]
    pub unit: TimeUnit,
    /// The chance halves for every this much time on the floor (1 or more).
    #[serde(default)]
    pub halve_every: Option<u32>,
    /// Placement rules every arrival adds (`min_distance` from the player).
    #[serde(default)]
    pub place: PlaceDef,
}

/// Which of the game clock's counts a rule measures time in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
#[serde(rename = "unit")]
pub enum TimeUnit {
    /// Game turns (the plugin reads `GameClock::turns`).
    #[default]
    Turns,
    /// Game minutes (the plugin reads `GameClock::minutes`).
    Minutes,
}

impl TimeUnit {
    /// The unit's name, plural, as messages say it.
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Turns => "turns",
            TimeUnit::Minutes => "minutes",
        }
    }

    /// The other unit.
    pub fn other(self) -> TimeUnit {
        match self {
            TimeUnit::Turns => TimeUnit::Minutes,
            TimeUnit::Minutes => TimeUnit::Turns,
        }
    }
}

/// A roll written as text (`"2d6"`, `"2d3+1"`, `"3-6"`, `"4"`).
fn dice<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Roll, D::Error> {
    let text = String::deserialize(deserializer)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// A field that was required before it became optional, written as it always was.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// An optional roll written as `Some("2d6")`, like every optional field.
fn some_dice<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Roll>, D::Error> {
    Option::<String>::deserialize(deserializer)?
        .map(|text| text.parse().map_err(serde::de::Error::custom))
        .transpose()
}
