//! A loaded bestiary: every file merged, every key resolved, every number checked.

use std::sync::Arc;

use crate::roll::Roll;

use crate::file::{PickKind, TimeUnit};
use crate::source::{Source, Sources};
use crate::weight::{Chance, Depths, Shape};

/// A species of a [`Bestiary`], by its place in [`Bestiary::species`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpeciesId(pub(crate) u32);

/// A group of a [`Bestiary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupId(pub(crate) u32);

/// A table of a [`Bestiary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(pub(crate) u32);

/// A loot table of a [`Bestiary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LootId(pub(crate) u32);

impl SpeciesId {
    /// Its place in [`Bestiary::species`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An item a creature carries: the loot table and the item's place in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ItemRef {
    /// The loot table.
    pub loot: LootId,
    /// The item's place in the table.
    pub index: u32,
}

/// Placement rules, resolved: tag names a square must stand on (one of), have (all of)
/// and not have (any of), and the least distance from the request's point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// One of these tags.
    pub stands_on: Vec<String>,
    /// All of these tags.
    pub needs: Vec<String>,
    /// None of these tags.
    pub forbids: Vec<String>,
    /// The least distance from the request's point (0: none).
    pub min_distance: u32,
}

impl Place {
    /// Whether the rules add nothing to a species' (no tags, no distance).
    pub fn is_empty(&self) -> bool {
        self.stands_on.is_empty()
            && self.needs.is_empty()
            && self.forbids.is_empty()
            && self.min_distance == 0
    }
}

/// A species.
#[derive(Clone, Debug)]
pub struct Species {
    /// The key.
    pub key: String,
    /// The name.
    pub name: String,
    /// The map character.
    pub glyph: char,
    /// The native level.
    pub level: u32,
    /// Hit points.
    pub hit_points: Roll,
    /// The chance it starts asleep.
    pub asleep: Chance,
    /// Tags the game reads.
    pub tags: Vec<String>,
    /// What it may carry, and the chance it carries anything.
    pub possessions: Option<(LootId, Chance)>,
    /// At most one alive per game.
    pub unique: bool,
    /// The escort that comes when a row draws it.
    pub escort: Option<GroupId>,
    /// Where it may stand.
    pub place: Place,
    /// What it adds to a floor's danger.
    pub cost: u32,
    /// Values the game reads, by name.
    pub data: std::collections::BTreeMap<String, crate::file::Datum>,
    /// At most this many on a floor, by any route.
    pub max_per_floor: Option<u32>,
}

/// A leader or a follower: a species, or a creature table (pick-one, of species and such
/// tables) drawn for one creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Creature {
    /// This species.
    Species(SpeciesId),
    /// One creature of this table.
    Table(TableId),
}

/// A group.
#[derive(Clone, Debug)]
pub struct Group {
    /// The key.
    pub key: String,
    /// The leader (none for an escort).
    pub leader: Option<Creature>,
    /// The followers.
    pub followers: Vec<Follower>,
    /// How far from the leader followers stand.
    pub radius: u32,
    /// At most this many of its placements on a floor.
    pub max_per_floor: Option<u32>,
}

/// One kind of follower.
#[derive(Clone, Debug)]
pub struct Follower {
    /// What follows.
    pub member: Creature,
    /// How many.
    pub count: Roll,
    /// The role the game reads.
    pub role: String,
    /// Placement rules added to the member's.
    pub place: Place,
}

/// What a row draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowTarget {
    /// A species (with its escort).
    Species(SpeciesId),
    /// A group.
    Group(GroupId),
    /// A nested table.
    Table(TableId),
}

/// A row of a table.
#[derive(Clone, Debug)]
pub struct Row {
    /// What it draws.
    pub what: RowTarget,
    /// Where it is eligible.
    pub depth: Depths,
    /// Its weight.
    pub weight: u32,
    /// Its shape.
    pub shape: Shape,
    /// Pick-each: the chance it comes.
    pub chance: Chance,
    /// Pick-each: how many times it is drawn.
    pub count: Roll,
    /// Placement rules added to what it draws.
    pub place: Place,
    /// The context it is eligible in (always, when `None`), resolved against the
    /// declaration: the draw reads it.
    pub(crate) when: Option<crate::context::When>,
}

/// A table.
#[derive(Clone, Debug)]
pub struct Table {
    /// The key.
    pub key: String,
    /// Pick-one or pick-each.
    pub pick: PickKind,
    /// The rows.
    pub rows: Vec<Row>,
}

/// A loot table.
#[derive(Clone, Debug)]
pub struct Loot {
    /// The key.
    pub key: String,
    /// Items and weights.
    pub items: Vec<(String, u32)>,
}

/// The out-of-depth rule (see [`crate::file::OutOfDepthDef`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfDepthRule {
    /// The chance per placement.
    pub chance: Chance,
    /// One level more every `divisor` depths.
    pub divisor: u32,
    /// Levels added.
    pub bonus: u32,
    /// The largest boost.
    pub cap: u32,
    /// The most placements of a floor that go out of depth.
    pub fairness: u32,
}

impl OutOfDepthRule {
    /// The depth an out-of-depth placement at `depth` draws at:
    /// `depth + min(depth / divisor + bonus, cap)`.
    pub fn boosted(self, depth: u32) -> u32 {
        depth + (depth / self.divisor + self.bonus).min(self.cap)
    }
}

/// How floors are populated.
#[derive(Clone, Debug)]
pub struct FloorRules {
    /// The table each placement draws from.
    pub table: TableId,
    /// The depths a floor may have.
    pub depths: Depths,
    /// The count's dice, or the budget's when [`FloorRules::budget`] is set.
    pub count: Roll,
    /// Placements (or budget) per depth, `(num, den)`.
    pub per_depth: (u32, u32),
    /// When set, `count` and `per_depth` roll a danger budget, not a number of placements.
    pub budget: Option<Budget>,
    /// The out-of-depth rule.
    pub out_of_depth: Option<OutOfDepthRule>,
    /// Rules every placement adds.
    pub place: Place,
    /// How the regions of each kind are populated, in the order the file gave them (a
    /// region rule's own rules have none).
    pub regions: Vec<RegionRule>,
}

/// A region rule (see [`crate::file::RegionDef`]): how each region of its kind is
/// populated.
#[derive(Clone, Debug)]
pub struct RegionRule {
    /// The kind of region it populates.
    pub kind: String,
    /// Its table, depths, count or budget, out-of-depth rule and placement rules, read as
    /// a floor's.
    pub rules: FloorRules,
    /// Whether the floor's own placements may stand on its regions' squares.
    pub open: bool,
    /// The fields a region may set to change its draw.
    pub overrides: Vec<crate::file::Override>,
}

/// A floor's danger budget rule: the floor's roll is what it may spend; each placement is
/// kept while its cost is at most what remains; the guide's chapter 10 writes the rule out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// How many placements in a row may be discarded before the floor ends.
    pub attempts: u32,
}

impl FloorRules {
    /// The fewest and most placements at `depth` (a count's roll's bounds plus
    /// `depth * num / den`), or of budget for a budgeted floor.
    pub fn count_bounds(&self, depth: u32) -> (u32, u32) {
        let (low, high) = self.count.bounds();
        let extra = self.count_term(depth);
        (low + extra, high + extra)
    }

    /// What the depth adds to the count's (or budget's) roll at `depth`:
    /// `depth * num / den`.
    pub fn count_term(&self, depth: u32) -> u32 {
        depth * self.per_depth.0 / self.per_depth.1
    }

    /// The region rule of a kind.
    pub fn region_rule(&self, kind: &str) -> Option<&RegionRule> {
        self.regions.iter().find(|r| r.kind == kind)
    }
}

/// Wandering arrivals.
#[derive(Clone, Debug)]
pub struct WanderingRules {
    /// The table an arrival draws from.
    pub table: TableId,
    /// The chance per check on arriving.
    pub chance: Chance,
    /// Game time between checks, in `unit`s.
    pub every: u32,
    /// The clock's unit the checks count.
    pub unit: TimeUnit,
    /// The chance halves for every this much time on the floor.
    pub halve_every: Option<u32>,
    /// Rules every arrival adds.
    pub place: Place,
}

/// Every species, group, table and loot table of the files loaded, with the floor's and
/// the wandering arrivals' rules, and the lint's warnings. Made by [`crate::load`].
#[derive(Clone, Debug)]
///
/// A bestiary is seen from one branch at a time ([`Bestiary::in_branch`]): its
/// [`floor`](Bestiary::floor) and [`wandering`](Bestiary::wandering) rules are that
/// branch's, the default one's (the files' `floor` and `wandering`) unless a branch is
/// named. Seeing it from another branch shares everything else.
pub struct Bestiary {
    // Shared slices, not shared vectors: an entry is one load away, as in a vector.
    pub(crate) species: Arc<[Species]>,
    pub(crate) groups: Arc<[Group]>,
    pub(crate) tables: Arc<[Table]>,
    pub(crate) loot: Arc<[Loot]>,
    /// The floor rules of the branch it is seen from (a field, not a lookup: the draw
    /// reads them at every placement).
    pub(crate) floor: FloorRules,
    /// The wandering arrivals of the branch it is seen from.
    pub(crate) wandering: Option<WanderingRules>,
    /// The default branch's floor and wandering rules (the files' `floor` and
    /// `wandering`), for a view back to it.
    pub(crate) default: Arc<(FloorRules, Option<WanderingRules>)>,
    /// The named branches.
    pub(crate) branches: Arc<[Branch]>,
    /// The branch it is seen from (none: the default).
    pub(crate) view: Option<BranchId>,
    /// The context its rows may ask about.
    pub(crate) context: crate::context::Declared,
    pub(crate) warnings: Arc<Vec<crate::warning::Warning>>,
    /// Where each entry was written.
    pub(crate) sources: Arc<Sources>,
    /// Each pick-one table's draw compiled by depth.
    pub(crate) draws: Arc<crate::compiled::Draws>,
}

/// A branch: a named floor profile with its own floor rules and wandering arrivals.
#[derive(Clone, Debug)]
pub struct Branch {
    /// The key a request names.
    pub key: String,
    /// How its floors are populated.
    pub floor: FloorRules,
    /// Its wandering arrivals.
    pub wandering: Option<WanderingRules>,
}

/// A branch's place among [`Bestiary::branches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BranchId(pub(crate) u32);

impl BranchId {
    /// Its index among the branches.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Species {
    /// Its cost and data as a line shows them: `cost 3 flies=true speed=12`.
    pub fn about(&self) -> String {
        let data = self.data.iter().map(|(k, v)| format!(" {k}={v}"));
        format!("cost {}{}", self.cost, data.collect::<String>())
    }
}

impl Bestiary {
    /// The context the files declare: the flags and named integers a request may set.
    pub fn context(&self) -> &crate::context::Declared {
        &self.context
    }

    /// Every species, in the order the files gave them.
    pub fn species(&self) -> &[Species] {
        &self.species
    }

    /// A species.
    pub fn species_of(&self, id: SpeciesId) -> &Species {
        &self.species[id.index()]
    }

    /// A species by key.
    pub fn species_by_key(&self, key: &str) -> Option<SpeciesId> {
        self.species
            .iter()
            .position(|s| s.key == key)
            .map(|i| SpeciesId(i as u32))
    }

    /// Every species id, in order.
    pub fn species_ids(&self) -> impl Iterator<Item = SpeciesId> + use<> {
        (0..self.species.len() as u32).map(SpeciesId)
    }

    /// A group.
    pub fn group(&self, id: GroupId) -> &Group {
        &self.groups[id.0 as usize]
    }

    /// A group by key.
    pub fn group_by_key(&self, key: &str) -> Option<GroupId> {
        (self.groups.iter())
            .position(|g| g.key == key)
            .map(|i| GroupId(i as u32))
    }

    /// The role of a group's follower kind (empty when the file gives none).
    pub fn role(&self, group: GroupId, kind: u16) -> &str {
        self.group(group)
            .followers
            .get(usize::from(kind))
            .map_or("", |f| f.role.as_str())
    }

    /// Every group.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// A table.
    pub fn table(&self, id: TableId) -> &Table {
        &self.tables[id.0 as usize]
    }

    /// Every table.
    pub fn tables(&self) -> &[Table] {
        &self.tables
    }

    /// A table by key.
    pub fn table_by_key(&self, key: &str) -> Option<TableId> {
        self.tables
            .iter()
            .position(|t| t.key == key)
            .map(|i| TableId(i as u32))
    }

    /// A loot table by key.
    pub fn loot_by_key(&self, key: &str) -> Option<LootId> {
        self.loot
            .iter()
            .position(|l| l.key == key)
            .map(|i| LootId(i as u32))
    }

    /// A loot table.
    pub fn loot(&self, id: LootId) -> &Loot {
        &self.loot[id.0 as usize]
    }

    /// The item a reference names.
    pub fn item_name(&self, item: ItemRef) -> &str {
        &self.loot(item.loot).items[item.index as usize].0
    }

    /// How floors are populated in the branch it is seen from.
    pub fn floor(&self) -> &FloorRules {
        &self.floor
    }

    /// Wandering arrivals in the branch it is seen from, when the files give them.
    pub fn wandering(&self) -> Option<&WanderingRules> {
        self.wandering.as_ref()
    }

    /// The named branches, in the order the files gave them.
    pub fn branches(&self) -> &[Branch] {
        &self.branches
    }

    /// A branch by key.
    pub fn branch_by_key(&self, key: &str) -> Option<BranchId> {
        (self.branches.iter())
            .position(|b| b.key == key)
            .map(|i| BranchId(i as u32))
    }

    /// The branch it is seen from (none: the default).
    pub fn branch(&self) -> Option<BranchId> {
        self.view
    }

    /// The bestiary seen from `branch` (none: the default): everything shared but the
    /// floor and wandering rules, which are the branch's. An id of other files is the
    /// default branch's.
    pub fn in_branch(&self, branch: Option<BranchId>) -> Bestiary {
        let view = branch.filter(|b| b.index() < self.branches.len());
        let (floor, wandering) = match view {
            Some(b) => {
                let branch = &self.branches[b.index()];
                (branch.floor.clone(), branch.wandering.clone())
            }
            None => (self.default.0.clone(), self.default.1.clone()),
        };
        Bestiary {
            view,
            floor,
            wandering,
            ..self.clone()
        }
    }

    /// The files the bestiary was loaded from, in the order they were merged.
    pub fn files(&self) -> &[String] {
        &self.sources.files
    }

    /// Where a species was written.
    pub fn species_source(&self, id: SpeciesId) -> &Source {
        &self.sources.species[id.index()]
    }

    /// Where a group was written.
    pub fn group_source(&self, id: GroupId) -> &Source {
        &self.sources.groups[id.0 as usize]
    }

    /// Where a table was written (its last replacement, if a later file replaced it).
    pub fn table_source(&self, id: TableId) -> &Source {
        &self.sources.tables[id.0 as usize]
    }

    /// Where a table's row was written: in the table's entry, or in a later file's
    /// `append`.
    pub fn row_source(&self, table: TableId, row: usize) -> &Source {
        &self.sources.rows[table.0 as usize][row]
    }

    /// Where a loot table was written.
    pub fn loot_source(&self, id: LootId) -> &Source {
        &self.sources.loot[id.0 as usize]
    }

    /// Where the floor's rules of the branch it is seen from were written (the last file
    /// that gave them).
    pub fn floor_source(&self) -> &Source {
        match self.view {
            Some(b) => &self.sources.branches[b.index()],
            None => &self.sources.floor,
        }
    }

    /// Where the wandering rules were written, when the files give them.
    pub fn wandering_source(&self) -> Option<&Source> {
        self.sources.wandering.as_ref()
    }

    /// The lint's warnings about the files (its errors stopped the load).
    pub fn warnings(&self) -> &[crate::warning::Warning] {
        &self.warnings
    }
}
