//! The merged files turned into a [`Bestiary`]: keys resolved to ids, every number
//! bounded, placement rules resolved, and the structure checked (creature tables, escorts,
//! nesting).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use denizen_core::{DataError, quoted};

use crate::bestiary::{
    Bestiary, Branch, Budget, Creature, FloorRules, Follower, Group, GroupId, Loot, LootId,
    OutOfDepthRule, Place, RegionRule, Row, RowTarget, Species, SpeciesId, Table, TableId,
    WanderingRules,
};
use crate::bounds;
use crate::context::{Declared, MAX_FLAGS, MAX_VALUE, MAX_VALUES, Value, When};
use crate::file::{
    BranchDef, Datum, FloorDef, FollowerDef, GroupDef, LootDef, Pick, PickKind, PlaceDef,
    RegionDef, RowDef, SpeciesDef, Target, WanderingDef, WhenDef,
};
use crate::merge::{Alone, Kind, Merged, MergedTable, Written};
use crate::roll::Roll;
use crate::source::{Source, Sources};
use crate::weight::{Chance, MAX_DEPTH, MAX_WEIGHT};

/// The most creatures one dice roll of a file may give (a follower's count, a pick-each
/// row's count).
pub const MAX_COUNT: u32 = 50;
/// The most placements a floor may have at its deepest.
pub const MAX_PLACEMENTS: u32 = 500;
/// The widest group radius.
pub const MAX_RADIUS: u32 = 16;
/// The largest least distance from the request's point.
pub const MAX_DISTANCE: u32 = 1_000;
/// The largest per-floor cap of a species or a group.
pub const MAX_PER_FLOOR: u32 = 200;
/// The largest cost of a species.
pub const MAX_COST: u32 = 10_000;
/// The most copies a row of a bag table puts in its bag (its weight at most this).
pub const MAX_BAG_COPIES: u32 = 100;
/// The largest danger budget a floor may roll at its deepest.
pub const MAX_BUDGET: u32 = 10_000;
/// The most placements in a row a budgeted floor may discard.
pub const MAX_ATTEMPTS: u32 = 1_000;
/// How many placements in a row a budgeted floor discards when its file does not say.
pub const DEFAULT_ATTEMPTS: u32 = 10;
/// The most follower kinds of a group.
pub const MAX_FOLLOWERS: usize = 16;
/// The most region rules a floor's rules list.
pub const MAX_REGION_RULES: usize = 64;

/// The limit of a number field of a tables file, as an error tells it when the number
/// written does not fit the field at all (larger than 4294967295, or negative).
pub(crate) fn limit(field: &str) -> Option<String> {
    Some(match field {
        "weight" => format!("a weight is at most {MAX_WEIGHT}"),
        "level" | "depth" | "depths" | "bonus" | "cap" => format!("at most {MAX_DEPTH}"),
        "radius" => format!("1 to {MAX_RADIUS}"),
        "min_distance" => format!("at most {MAX_DISTANCE}"),
        "divisor" => "1 to 1000".to_owned(),
        "fairness" => format!("at most {MAX_PLACEMENTS}"),
        "every" | "halve_every" => format!("1 to {}", u32::MAX),
        _ => return None,
    })
}

/// Keys to ids, and who removed what; or, for an entry checked as written before the
/// files are merged, any key at all (references are resolved after the merge).
struct Names<'a> {
    ids: HashMap<(Kind, &'a str), u32>,
    merged: Option<&'a Merged>,
    /// The context the files declare (none for an entry checked by itself).
    declared: Option<&'a Declared>,
}

/// Where a reference is written: file, entry and field.
#[derive(Clone, Copy)]
struct At<'a> {
    file: &'a str,
    entry: &'a str,
}

impl At<'_> {
    fn invalid(self, field: impl Into<String>, problem: impl Into<String>) -> DataError {
        DataError::invalid(self.file, self.entry, field, problem)
    }

    fn of<T>(written: &Written<T>) -> At<'_> {
        At {
            file: &written.file,
            entry: &written.entry,
        }
    }
}

impl<'a> Names<'a> {
    fn new(merged: &'a Merged, declared: &'a Declared) -> Self {
        let mut ids = HashMap::new();
        let mut put = |kind, keys: Vec<&'a str>| {
            for (i, key) in keys.into_iter().enumerate() {
                ids.insert((kind, key), i as u32);
            }
        };
        put(
            Kind::Species,
            merged.species.live().map(|w| w.def.key.as_str()).collect(),
        );
        put(
            Kind::Group,
            merged.groups.live().map(|w| w.def.key.as_str()).collect(),
        );
        put(
            Kind::Table,
            merged
                .tables
                .live()
                .map(|w| w.def.def.key.as_str())
                .collect(),
        );
        put(
            Kind::Loot,
            merged.loot.live().map(|w| w.def.key.as_str()).collect(),
        );
        Self {
            ids,
            merged: Some(merged),
            declared: Some(declared),
        }
    }

    /// Names that take any key: an entry checked by itself.
    fn any() -> Self {
        Self {
            ids: HashMap::new(),
            merged: None,
            declared: None,
        }
    }

    /// The id of `key`, or the error naming the reference (and, when a later file removed
    /// the entry, that file and its removal).
    fn id(&self, kind: Kind, key: &str, at: At<'_>, field: &str) -> Result<u32, DataError> {
        let Some(merged) = self.merged else {
            return Ok(0);
        };
        if let Some(&id) = self.ids.get(&(kind, key)) {
            return Ok(id);
        }
        let loaded = format!("no {} {} is loaded", kind.noun(), quoted(key));
        Err(match merged.removed.get(&(kind, key.to_owned())) {
            Some((file, entry)) => {
                at.invalid(field, format!("{loaded}: {file}: {entry} removed it"))
            }
            None => at.invalid(field, loaded),
        })
    }
}

impl Alone for SpeciesDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        species(w, &Names::any()).map(drop)
    }
}

impl Alone for GroupDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        group(w, &Names::any()).map(drop)
    }
}

impl Alone for MergedTable {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        table(w, &Names::any()).map(drop)
    }
}

impl Alone for LootDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        loot(w).map(drop)
    }
}

impl Alone for RowDef {
    /// A row appended to another file's table: whether it may have a chance and a count
    /// is the table's to say, after the merge.
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        row(w, None, &Names::any()).map(drop)
    }
}

impl Alone for FloorDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        floor_rules(w, &Names::any()).map(drop)
    }
}

impl Alone for BranchDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        branch(w, &Names::any()).map(drop)
    }
}

/// A branch's floor and wandering rules, each named as a part of the branch's entry
/// (`branches[0] `mines`: floor`).
fn branch(w: &Written<BranchDef>, names: &Names<'_>) -> Result<Branch, DataError> {
    let part = |part: &str| (w.file.clone(), format!("{}: {part}", w.entry));
    let (file, entry) = part("floor");
    let floor = floor_rules(
        &Written {
            def: w.def.floor.clone(),
            file,
            entry,
        },
        names,
    )?;
    let wandering = (w.def.wandering.clone())
        .map(|def| {
            let (file, entry) = part("wandering");
            wandering(&Written { def, file, entry }, names)
        })
        .transpose()?;
    Ok(Branch {
        key: w.def.key.clone(),
        floor,
        wandering,
    })
}

impl Alone for WanderingDef {
    fn alone(w: &Written<Self>) -> Result<(), DataError> {
        wandering(w, &Names::any()).map(drop)
    }
}

/// Compiles every merged entry; the structure checks follow in [`crate::check`].
pub(crate) fn compile(merged: &Merged) -> Result<Bestiary, DataError> {
    let context = declared(merged)?;
    let names = Names::new(merged, &context);
    let species = each(&merged.species, |w| species(w, &names))?;
    let groups = each(&merged.groups, |w| group(w, &names))?;
    let tables = each(&merged.tables, |w| table(w, &names))?;
    let loot = each(&merged.loot, loot)?;
    let Some(floor_def) = &merged.floor else {
        let files = merged.files.join(", ");
        return Err(DataError::invalid(
            merged.files.last().map_or("", String::as_str),
            "",
            "floor",
            format!(
                "none of the files ({files}) gives the floor's rules: one gives `floor: Some((table: ..., depths: ..., count: ...))`"
            ),
        ));
    };
    let floor = floor_rules(floor_def, &names)?;
    let wandering = merged
        .wandering
        .as_ref()
        .map(|w| wandering(w, &names))
        .transpose()?;
    let branches = each(&merged.branches, |w| branch(w, &names))?;
    let sources = Sources {
        species: merged.species.live().map(source_of).collect(),
        groups: merged.groups.live().map(source_of).collect(),
        tables: merged.tables.live().map(source_of).collect(),
        rows: merged
            .tables
            .live()
            .map(|w| w.def.rows.iter().map(source_of).collect())
            .collect(),
        loot: merged.loot.live().map(source_of).collect(),
        floor: source_of(floor_def),
        wandering: merged.wandering.as_ref().map(source_of),
        branches: merged.branches.live().map(source_of).collect(),
        files: merged.files.clone(),
    };
    Ok(Bestiary {
        species: Arc::from(species),
        groups: Arc::from(groups),
        tables: Arc::from(tables),
        loot: Arc::from(loot),
        default: Arc::new((floor.clone(), wandering.clone())),
        floor,
        wandering,
        branches: Arc::from(branches),
        view: None,
        context,
        warnings: Arc::new(Vec::new()),
        sources: Arc::new(sources),
        draws: Default::default(),
    })
}

/// Where an entry was written.
fn source_of<T>(w: &Written<T>) -> Source {
    Source {
        file: w.file.clone(),
        entry: w.entry.clone(),
    }
}

/// Compiles every live entry of a kind.
fn each<T, U>(
    keyed: &crate::merge::Keyed<T>,
    compile: impl FnMut(&Written<T>) -> Result<U, DataError>,
) -> Result<Vec<U>, DataError> {
    keyed.live().map(compile).collect()
}

fn species(w: &Written<SpeciesDef>, names: &Names<'_>) -> Result<Species, DataError> {
    let (d, at) = (&w.def, At::of(w));
    text(at, "name", &d.name, bounds::MAX_NAME_BYTES)?;
    bounds::glyph(d.glyph).map_err(|problem| at.invalid("glyph", problem))?;
    depth(at, "level", d.level)?;
    dice(at, "hit_points", d.hit_points, 100, 10_000)?;
    if d.hit_points.bounds().0 == 0 {
        let problem = format!("{}: a creature has at least 1 hit point", d.hit_points);
        return Err(at.invalid("hit_points", problem));
    }
    tag_names(at, "tags", &d.tags)?;
    let possessions = match &d.possessions {
        Some(p) => Some((
            LootId(names.id(Kind::Loot, &p.loot, at, "possessions.loot")?),
            p.chance,
        )),
        None => None,
    };
    let escort = match &d.escort {
        Some(key) => Some(GroupId(names.id(Kind::Group, key, at, "escort")?)),
        None => None,
    };
    let mut place = place(at, "place", &d.place, true)?;
    if place.stands_on.is_empty() {
        place.stands_on = vec!["floor".to_owned()];
    }
    Ok(Species {
        key: d.key.clone(),
        name: d.name.clone(),
        glyph: d.glyph,
        level: d.level,
        hit_points: d.hit_points,
        asleep: d.asleep.unwrap_or(Chance::NEVER),
        tags: d.tags.clone(),
        possessions,
        unique: d.unique,
        escort,
        place,
        data: data(at, &d.data)?,
        max_per_floor: cap(at, d.max_per_floor)?,
        cost: match d.cost {
            Some(cost) if cost > MAX_COST => {
                return Err(at.invalid("cost", format!("a cost is at most {MAX_COST}")));
            }
            Some(cost) => cost,
            None => 1,
        },
    })
}

fn creature(
    pick: &Pick,
    at: At<'_>,
    field: &str,
    names: &Names<'_>,
) -> Result<Creature, DataError> {
    Ok(match pick {
        Pick::Species(key) => {
            Creature::Species(SpeciesId(names.id(Kind::Species, key, at, field)?))
        }
        Pick::Table(key) => Creature::Table(TableId(names.id(Kind::Table, key, at, field)?)),
    })
}

fn group(w: &Written<GroupDef>, names: &Names<'_>) -> Result<Group, DataError> {
    let (d, at) = (&w.def, At::of(w));
    if d.followers.is_empty() || d.followers.len() > MAX_FOLLOWERS {
        return Err(at.invalid(
            "followers",
            format!("a group has 1 to {MAX_FOLLOWERS} kinds of follower"),
        ));
    }
    if !(1..=MAX_RADIUS).contains(&d.radius) {
        return Err(at.invalid("radius", format!("a radius is 1 to {MAX_RADIUS}")));
    }
    let leader = d
        .leader
        .as_ref()
        .map(|pick| creature(pick, at, "leader", names))
        .transpose()?;
    let followers = d
        .followers
        .iter()
        .enumerate()
        .map(|(i, f)| follower(f, at, &format!("followers[{i}]"), names))
        .collect::<Result<_, _>>()?;
    if d.leader.is_none() && d.max_per_floor.is_some() {
        let problem = "an escort comes with its species: cap the species instead";
        return Err(at.invalid("max_per_floor", problem));
    }
    Ok(Group {
        key: d.key.clone(),
        leader,
        followers,
        radius: d.radius,
        max_per_floor: cap(at, d.max_per_floor)?,
    })
}

fn follower(
    f: &FollowerDef,
    at: At<'_>,
    field: &str,
    names: &Names<'_>,
) -> Result<Follower, DataError> {
    count(at, &format!("{field}.count"), f.count)?;
    text(at, &format!("{field}.role"), &f.role, bounds::MAX_TAG_BYTES)?;
    Ok(Follower {
        member: creature(&f.member, at, &format!("{field}.member"), names)?,
        count: f.count,
        role: f.role.clone(),
        place: place(at, &format!("{field}.place"), &f.place, false)?,
    })
}

fn table(w: &Written<MergedTable>, names: &Names<'_>) -> Result<Table, DataError> {
    let t = &w.def;
    if t.rows.is_empty() || t.rows.len() > crate::merge::MAX_ENTRIES {
        return Err(At::of(w).invalid(
            "rows",
            format!("a table has 1 to {} rows", crate::merge::MAX_ENTRIES),
        ));
    }
    let rows = t
        .rows
        .iter()
        .map(|r| row(r, Some(t.def.pick), names))
        .collect::<Result<_, _>>()?;
    Ok(Table {
        key: t.def.key.clone(),
        pick: t.def.pick,
        rows,
    })
}

/// A row, named as its file names it (its table's entry, or an `append`); `pick` is its
/// table's, unknown for a row checked alone.
fn row(w: &Written<RowDef>, pick: Option<PickKind>, names: &Names<'_>) -> Result<Row, DataError> {
    let (d, at) = (&w.def, At::of(w));
    let what = match &d.what {
        Target::Species(k) => {
            RowTarget::Species(SpeciesId(names.id(Kind::Species, k, at, "what")?))
        }
        Target::Group(k) => RowTarget::Group(GroupId(names.id(Kind::Group, k, at, "what")?)),
        Target::Table(k) => RowTarget::Table(TableId(names.id(Kind::Table, k, at, "what")?)),
    };
    depth(at, "depth", d.depth.max())?;
    if d.depth.min() > d.depth.max() {
        return Err(at.invalid("depth", format!("the range {} is empty", d.depth)));
    }
    if d.weight > MAX_WEIGHT {
        return Err(at.invalid("weight", format!("a weight is at most {MAX_WEIGHT}")));
    }
    if pick == Some(PickKind::Bag) && d.weight > MAX_BAG_COPIES {
        return Err(at.invalid(
            "weight",
            format!("a bag row puts at most {MAX_BAG_COPIES} copies in its bag"),
        ));
    }
    if pick != Some(PickKind::Each) && pick.is_some() && (d.chance.is_some() || d.count.is_some()) {
        let field = if d.chance.is_some() {
            "chance"
        } else {
            "count"
        };
        return Err(at.invalid(
            field,
            "only a pick-each table's rows have a chance and a count",
        ));
    }
    // One die of one side, read as before rolls had ranges: it reads a word, so a file
    // that leaves the count out keeps its streams.
    let row_count = d.count.unwrap_or(Roll::dice(1, 1));
    count(at, "count", row_count)?;
    Ok(Row {
        what,
        depth: d.depth,
        weight: d.weight,
        shape: d.shape,
        chance: d.chance.unwrap_or(Chance::ALWAYS),
        count: row_count,
        place: place(at, "place", &d.place, false)?,
        when: d.when.as_ref().map(|w| when(at, w, names)).transpose()?,
    })
}

/// A per-floor cap: 1 to [`MAX_PER_FLOOR`].
fn cap(at: At<'_>, cap: Option<u32>) -> Result<Option<u32>, DataError> {
    match cap {
        Some(n) if !(1..=MAX_PER_FLOOR).contains(&n) => {
            Err(at.invalid("max_per_floor", format!("a cap is 1 to {MAX_PER_FLOOR}")))
        }
        _ => Ok(cap),
    }
}

/// A species' data, within [`bounds::data`]'s bounds.
fn data(at: At<'_>, data: &BTreeMap<String, Datum>) -> Result<BTreeMap<String, Datum>, DataError> {
    bounds::data(data).map_err(|(name, problem)| {
        let field = name.map_or("data".to_owned(), |name| format!("data.{}", quoted(name)));
        at.invalid(field, problem)
    })?;
    Ok(data.clone())
}

/// The context every file declares, in order: names unique among flags and integers,
/// each a key, at most [`MAX_FLAGS`] flags and [`MAX_VALUES`] integers, each integer's
/// range within [`MAX_VALUE`] and holding its default.
fn declared(merged: &Merged) -> Result<Declared, DataError> {
    let mut declared = Declared::default();
    let mut first: HashMap<&str, &str> = HashMap::new();
    for w in &merged.context {
        let at = At::of(w);
        for (i, flag) in w.def.flags.iter().enumerate() {
            fresh(&mut first, (flag, &w.file), at, &format!("flags[{i}]"))?;
            declared.flags.push(flag.clone());
        }
        for (i, v) in w.def.values.iter().enumerate() {
            let field = format!("values[{i}]");
            fresh(&mut first, (&v.name, &w.file), at, &field)?;
            let (min, max) = v.range;
            range(at, &format!("{field}.range"), (min, max))?;
            if !(min..=max).contains(&v.default) {
                let problem = format!("{} is outside the range {min}-{max}", v.default);
                return Err(at.invalid(format!("{field}.default"), problem));
            }
            declared.values.push(Value {
                name: v.name.clone(),
                min,
                max,
                default: v.default,
            });
        }
        if declared.flags.len() > MAX_FLAGS {
            return Err(at.invalid("flags", format!("at most {MAX_FLAGS} flags in all")));
        }
        if declared.values.len() > MAX_VALUES {
            return Err(at.invalid("values", format!("at most {MAX_VALUES} integers in all")));
        }
    }
    Ok(declared)
}

/// A context name not declared before (`first` holds each name's file), now declared.
fn fresh<'m>(
    first: &mut HashMap<&'m str, &'m str>,
    (name, file): (&'m str, &'m str),
    at: At<'_>,
    field: &str,
) -> Result<(), DataError> {
    bounds::key(name).map_err(|problem| at.invalid(field, problem))?;
    match first.insert(name, file) {
        Some(before) => Err(at.invalid(
            field,
            format!("{} is already declared by {before}", quoted(name)),
        )),
        None => Ok(()),
    }
}

/// A range of a context integer: not empty, both ends within [`MAX_VALUE`].
fn range(at: At<'_>, field: &str, (min, max): (i64, i64)) -> Result<(), DataError> {
    let within = -MAX_VALUE..=MAX_VALUE;
    if !within.contains(&min) || !within.contains(&max) {
        return Err(at.invalid(field, format!("both ends within -{MAX_VALUE}-{MAX_VALUE}")));
    }
    if min > max {
        return Err(at.invalid(field, format!("the range {min}-{max} is empty")));
    }
    Ok(())
}

/// A row's condition, its names resolved (any name, for a row checked by itself).
fn when(at: At<'_>, d: &WhenDef, names: &Names<'_>) -> Result<When, DataError> {
    let flags = |field: &str, list: &[String]| -> Result<u64, DataError> {
        let mut bits = 0;
        for (i, name) in list.iter().enumerate() {
            let Some(declared) = names.declared else {
                continue;
            };
            bits |= declared.flag(name).ok_or_else(|| {
                let problem = format!("no file's `context` declares the flag {}", quoted(name));
                at.invalid(format!("when.{field}[{i}]"), problem)
            })?;
        }
        Ok(bits)
    };
    let lists = [(&d.all, "all"), (&d.any, "any"), (&d.none, "none")];
    if let Some((_, field)) = lists.iter().find(|(list, _)| list.len() > MAX_FLAGS) {
        return Err(at.invalid(
            format!("when.{field}"),
            format!("at most {MAX_FLAGS} flags"),
        ));
    }
    if d.values.len() > MAX_VALUES {
        return Err(at.invalid("when.values", format!("at most {MAX_VALUES} integers")));
    }
    let mut ranges = Vec::new();
    for (name, &(min, max)) in &d.values {
        // A name that is not a key is refused by the declaration check below (or when the
        // files are merged); shown quoted, it keeps the error on one line.
        let field = format!("when.values.{}", quoted(name));
        range(at, &field, (min, max))?;
        if let Some(declared) = names.declared {
            let i = declared.value(name).ok_or_else(|| {
                let problem = format!("no file's `context` declares the integer {}", quoted(name));
                at.invalid(&field, problem)
            })?;
            ranges.push((i, min, max));
        }
    }
    Ok(When {
        all: flags("all", &d.all)?,
        any: flags("any", &d.any)?,
        none: flags("none", &d.none)?,
        ranges,
    })
}

fn loot(w: &Written<LootDef>) -> Result<Loot, DataError> {
    let (d, at) = (&w.def, At::of(w));
    if d.items.is_empty() || d.items.len() > crate::merge::MAX_ENTRIES {
        return Err(at.invalid(
            "items",
            format!("a loot table has 1 to {} items", crate::merge::MAX_ENTRIES),
        ));
    }
    for (i, item) in d.items.iter().enumerate() {
        text(
            at,
            &format!("items[{i}].item"),
            &item.item,
            bounds::MAX_NAME_BYTES,
        )?;
        if !(1..=MAX_WEIGHT).contains(&item.weight) {
            return Err(at.invalid(
                format!("items[{i}].weight"),
                format!("a weight is 1 to {MAX_WEIGHT}"),
            ));
        }
    }
    Ok(Loot {
        key: d.key.clone(),
        items: d.items.iter().map(|i| (i.item.clone(), i.weight)).collect(),
    })
}

fn floor_rules(w: &Written<FloorDef>, names: &Names<'_>) -> Result<FloorRules, DataError> {
    let (d, at) = (&w.def, At::of(w));
    let table = TableId(names.id(Kind::Table, &d.table, at, "table")?);
    depth(at, "depths", d.depths.max())?;
    if d.depths.min() > d.depths.max() {
        return Err(at.invalid("depths", format!("the range {} is empty", d.depths)));
    }
    // A budget's dice are at most 100 of 100 sides, so their exact distribution is quick.
    let (field, roll, per_depth, (most, dice_most), budget) = match (&d.count, &d.budget) {
        (Some(c), None) => (
            "count",
            c.dice,
            c.per_depth,
            (MAX_PLACEMENTS, MAX_PLACEMENTS),
            None,
        ),
        (None, Some(b)) => {
            let attempts = b.attempts.unwrap_or(DEFAULT_ATTEMPTS);
            if !(1..=MAX_ATTEMPTS).contains(&attempts) {
                return Err(at.invalid("budget.attempts", format!("1 to {MAX_ATTEMPTS}")));
            }
            let budget = Some(Budget { attempts });
            ("budget", b.dice, b.per_depth, (MAX_BUDGET, 100), budget)
        }
        (Some(_), Some(_)) => {
            return Err(at.invalid("budget", "a floor has a `count` or a `budget`, not both"));
        }
        (None, None) => return Err(at.invalid("count", "a floor has a `count` or a `budget`")),
    };
    dice(at, &format!("{field}.dice"), roll, dice_most, dice_most)?;
    let out_of_depth = d.out_of_depth.map(|o| out_of_depth(at, o)).transpose()?;
    let rules = FloorRules {
        table,
        depths: d.depths,
        count: roll,
        per_depth: per_depth.map_or((0, 1), |p| (p.num, p.den)),
        budget,
        out_of_depth,
        place: place(at, "place", &d.place, false)?,
        regions: region_rules(w, names)?,
    };
    if rules.count_bounds(d.depths.max()).1 > most {
        let what = if budget.is_some() {
            "of budget"
        } else {
            "placements"
        };
        return Err(at.invalid(
            field,
            format!("more than {most} {what} at depth {}", d.depths.max()),
        ));
    }
    Ok(rules)
}

/// A floor's region rules, each read as a floor's rules and named as a part of the floor's
/// entry (`floor: regions[0] `lair``); one rule a kind.
fn region_rules(w: &Written<FloorDef>, names: &Names<'_>) -> Result<Vec<RegionRule>, DataError> {
    let (d, at) = (&w.def, At::of(w));
    if d.regions.len() > MAX_REGION_RULES {
        return Err(at.invalid(
            "regions",
            format!("at most {MAX_REGION_RULES} region rules"),
        ));
    }
    let mut rules: Vec<RegionRule> = Vec::with_capacity(d.regions.len());
    for (i, r) in d.regions.iter().enumerate() {
        let field = format!("regions[{i}].kind");
        if r.kind.is_empty() {
            return Err(at.invalid(field, "a region rule names the kind it populates"));
        }
        text(at, &field, &r.kind, bounds::MAX_TAG_BYTES)?;
        if r.kind != r.kind.to_lowercase() {
            let lower = r.kind.to_lowercase();
            let problem = format!(
                "kinds are lowercase, as the map readers give them: {}",
                quoted(&lower)
            );
            return Err(at.invalid(field, problem));
        }
        if rules.iter().any(|rule| rule.kind == r.kind) {
            return Err(at.invalid(field, format!("a second rule for {}", quoted(&r.kind))));
        }
        let mut overrides = r.overrides.clone();
        overrides.sort();
        if let Some(twice) = overrides.windows(2).find(|p| p[0] == p[1]) {
            return Err(at.invalid(
                format!("regions[{i}].overrides"),
                format!("`{}` is given twice", twice[0].field()),
            ));
        }
        rules.push(RegionRule {
            kind: r.kind.clone(),
            rules: floor_rules(&region_floor(w, i, r), names)?,
            open: r.open,
            overrides,
        });
    }
    Ok(rules)
}

/// A region rule's draw written as a floor's, named as a part of the floor's entry.
fn region_floor(w: &Written<FloorDef>, i: usize, r: &RegionDef) -> Written<FloorDef> {
    Written {
        def: FloorDef {
            table: r.table.clone(),
            depths: r.depths,
            count: r.count.clone(),
            budget: r.budget.clone(),
            out_of_depth: r.out_of_depth,
            place: r.place.clone(),
            regions: Vec::new(),
        },
        file: w.file.clone(),
        entry: format!("{}: regions[{i}] {}", w.entry, quoted(&r.kind)),
    }
}

fn out_of_depth(at: At<'_>, o: crate::file::OutOfDepthDef) -> Result<OutOfDepthRule, DataError> {
    if !(1..=1_000).contains(&o.divisor) {
        return Err(at.invalid("out_of_depth.divisor", "a divisor is 1 to 1000"));
    }
    depth(at, "out_of_depth.bonus", o.bonus)?;
    depth(at, "out_of_depth.cap", o.cap)?;
    if o.fairness > MAX_PLACEMENTS {
        return Err(at.invalid("out_of_depth.fairness", format!("at most {MAX_PLACEMENTS}")));
    }
    Ok(OutOfDepthRule {
        chance: o.chance,
        divisor: o.divisor,
        bonus: o.bonus,
        cap: o.cap,
        fairness: o.fairness,
    })
}

fn wandering(w: &Written<WanderingDef>, names: &Names<'_>) -> Result<WanderingRules, DataError> {
    let (d, at) = (&w.def, At::of(w));
    if d.every == 0 {
        return Err(at.invalid("every", "checks come at least 1 unit of time apart"));
    }
    if d.halve_every == Some(0) {
        return Err(at.invalid("halve_every", "at least 1 unit of time"));
    }
    Ok(WanderingRules {
        table: TableId(names.id(Kind::Table, &d.table, at, "table")?),
        chance: d.chance,
        every: d.every,
        unit: d.unit,
        halve_every: d.halve_every,
        place: place(at, "place", &d.place, false)?,
    })
}

/// Placement rules; only a species says what it stands on.
fn place(at: At<'_>, field: &str, d: &PlaceDef, species: bool) -> Result<Place, DataError> {
    if !species && d.stands_on.is_some() {
        return Err(at.invalid(
            format!("{field}.stands_on"),
            "only a species says what it stands on",
        ));
    }
    let stands_on = d.stands_on.clone().unwrap_or_default();
    for (list, name) in [
        (&stands_on, "stands_on"),
        (&d.needs, "needs"),
        (&d.forbids, "forbids"),
    ] {
        tag_names(at, &format!("{field}.{name}"), list)?;
    }
    let min_distance = d.min_distance.unwrap_or(0);
    if min_distance > MAX_DISTANCE {
        return Err(at.invalid(
            format!("{field}.min_distance"),
            format!("at most {MAX_DISTANCE}"),
        ));
    }
    Ok(Place {
        stands_on,
        needs: d.needs.clone(),
        forbids: d.forbids.clone(),
        min_distance,
    })
}

fn tag_names(at: At<'_>, field: &str, names: &[String]) -> Result<(), DataError> {
    bounds::tags(names).map_err(|(i, problem)| match i {
        Some(i) => at.invalid(format!("{field}[{i}]"), problem),
        None => at.invalid(field, problem),
    })
}

fn text(at: At<'_>, field: &str, text: &str, max: usize) -> Result<(), DataError> {
    bounds::text(text, max).map_err(|problem| at.invalid(field, problem))
}

fn depth(at: At<'_>, field: &str, depth: u32) -> Result<(), DataError> {
    if depth > MAX_DEPTH {
        return Err(at.invalid(
            field,
            format!("{depth} is past the deepest depth, {MAX_DEPTH}"),
        ));
    }
    Ok(())
}

/// A roll's dice: at most `max_count` of `max_sides` sides (a range or a bonus is bounded
/// when it parses).
fn dice(at: At<'_>, field: &str, d: Roll, max_count: u32, max_sides: u32) -> Result<(), DataError> {
    if let Roll::Dice { dice, .. } = d
        && (dice.count > max_count || dice.sides > max_sides)
    {
        return Err(at.invalid(
            field,
            format!("{d}: at most {max_count} dice of {max_sides} sides"),
        ));
    }
    Ok(())
}

/// The roll of a count: at most [`MAX_COUNT`] in all.
fn count(at: At<'_>, field: &str, d: Roll) -> Result<(), DataError> {
    dice(at, field, d, MAX_COUNT, MAX_COUNT)?;
    if d.bounds().1 > MAX_COUNT {
        return Err(at.invalid(field, format!("{d} can give more than {MAX_COUNT}")));
    }
    Ok(())
}
