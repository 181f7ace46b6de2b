//! The plugin's saved state checked against the rules in use: after a save is loaded, and
//! whenever the rules change (a reload), before any request is served. What does not fit
//! is mended, and said once in a [`TablesStateMended`].

use std::collections::{HashMap, HashSet};

use bevy_ecs::prelude::*;
use denizen_bevy::floor::{CurrentFloor, FloorId, Glyph, StoredFloors};
use denizen_bevy::pipeline::rules_loading;
use denizen_bevy::save::{SaveContents, SaveError};
use denizen_core::quoted;

use super::components::{
    CreatureData, CreatureTags, FollowerRole, Follows, HomeRegion, Possession, TablesCreature,
    Unique,
};
use super::messages::TablesStateMended;
use super::resources::{
    MAX_BAGS, MAX_TAG_AREAS, SavedBag, TablesContext, TablesFloor, TablesFloors, TablesRuleset,
    TablesUniques,
};
use crate::Bestiary;
use crate::bounds::{self, MAX_NAME_BYTES, MAX_TAG_BYTES};

/// The check [`load`](denizen_bevy::save::load) runs on every save before it changes the
/// world: every follower's leader is a tables creature that lists it; every text a
/// creature holds (its species, tags, data, unique key, role, possession) keeps the bounds the
/// files keep; and (the rules loaded) every creature is of a species of the bestiary,
/// carries an item of one of its loot tables, and is marked `Unique` exactly when its
/// species is a unique, each unique standing once and not killed in the saved ledger. A
/// save of other files, or one edited past what a game can be in, is refused, not loaded
/// as unknown creatures. While the files load, what needs them is checked after the load
/// instead (see [`check_saved_state`]).
pub(super) fn check(world: &World, save: &SaveContents<'_>) -> Result<(), SaveError> {
    save.check_relationship::<Follows, TablesCreature>(("Follows", "Followers"))?;
    check_texts(save)?;
    if let Some(context) = save.resource::<TablesContext>() {
        check_context(&context.0)?;
    }
    let creatures = save.components::<TablesCreature>();
    let marked: HashMap<u64, String> = save
        .components::<Unique>()
        .into_iter()
        .map(|(id, u)| (id, u.0))
        .collect();
    check_markers(&creatures, &marked)?;
    if rules_loading::<TablesRuleset>(world) {
        return Ok(());
    }
    let b = world.resource::<TablesRuleset>().rules();
    if let Some((id, creature)) = creatures
        .iter()
        .find(|(_, c)| b.species_by_key(&c.species).is_none())
    {
        return impossible(
            "TablesCreature",
            format!(
                "entity {id} is of species {}, which the bestiary does not have",
                quoted(&creature.species)
            ),
        );
    }
    check_possessions(b, save)?;
    let ledger = save
        .resource::<TablesUniques>()
        .unwrap_or_else(|| world.resource::<TablesUniques>().clone());
    check_uniques(b, &creatures, &marked, &ledger.0)
}

/// A saved context within what a bestiary may declare: at most 64 flags and 16 integers,
/// each named by a key, each integer within a context's bounds. Whether the bestiary in
/// use declares them is the next request's to say.
fn check_context(context: &crate::Context) -> Result<(), SaveError> {
    use crate::context::{MAX_FLAGS, MAX_VALUE, MAX_VALUES};
    let names: Vec<&str> = context
        .flags()
        .chain(context.values().map(|(n, _)| n))
        .collect();
    let problem = if context.flags().count() > MAX_FLAGS {
        Some(format!("more than {MAX_FLAGS} flags"))
    } else if context.values().count() > MAX_VALUES {
        Some(format!("more than {MAX_VALUES} integers"))
    } else if let Some((name, e)) = names
        .iter()
        .find_map(|n| bounds::key(n).err().map(|e| (n, e)))
    {
        Some(format!("{}: {e}", quoted(name)))
    } else {
        (context
            .values()
            .find(|(_, v)| !(-MAX_VALUE..=MAX_VALUE).contains(v)))
        .map(|(n, v)| format!("{} is {v}, past {MAX_VALUE}", quoted(n)))
    };
    match problem {
        Some(problem) => impossible("TablesContext", problem),
        None => Ok(()),
    }
}

fn impossible(type_path: &'static str, message: String) -> Result<(), SaveError> {
    Err(SaveError::Impossible { type_path, message })
}

/// A floor record's branch and bags within their bounds.
fn check_record(floor: &FloorId, record: &TablesFloor) -> Result<(), SaveError> {
    let fault = |field: String, problem: String| {
        impossible(
            "TablesFloors",
            format!("{floor}: field `{field}`: {problem}"),
        )
    };
    if let Some(Err(problem)) = record.branch.as_deref().map(bounds::key) {
        return fault("branch".into(), problem);
    }
    if record.bags.len() > MAX_BAGS {
        let problem = format!("{} bags, at most {MAX_BAGS}", record.bags.len());
        return fault("bags".into(), problem);
    }
    for (field, counts) in [
        ("species_counts", &record.species_counts),
        ("group_counts", &record.group_counts),
    ] {
        if counts.len() > crate::MAX_ENTRIES {
            let problem = format!("{} counts, at most {}", counts.len(), crate::MAX_ENTRIES);
            return fault(field.into(), problem);
        }
        let over = |n: u32| {
            (n > crate::MAX_PER_FLOOR)
                .then(|| format!("a count is at most {}", crate::MAX_PER_FLOOR))
        };
        if let Some((i, problem)) = counts
            .iter()
            .enumerate()
            .find_map(|(i, (key, n))| bounds::key(key).err().or_else(|| over(*n)).map(|p| (i, p)))
        {
            return fault(format!("{field}[{i}]"), problem);
        }
    }
    for (i, bag) in record.bags.iter().enumerate() {
        if let Some((field, problem)) = bag_fault(bag) {
            return fault(format!("bags[{i}].{field}"), problem);
        }
    }
    Ok(())
}

/// A saved bag's field past the bounds a draw keeps, and the problem: its table a key, its
/// depth at most [`MAX_DEPTH`](crate::MAX_DEPTH), at most
/// [`MAX_ENTRIES`](crate::MAX_ENTRIES) rows, each a row index below that with 1 to
/// [`MAX_BAG_COPIES`](crate::MAX_BAG_COPIES) copies.
fn bag_fault(bag: &SavedBag) -> Option<(String, String)> {
    if let Err(problem) = bounds::key(&bag.table) {
        return Some(("table".into(), problem));
    }
    if bag.depth > crate::MAX_DEPTH {
        return Some(("depth".into(), format!("at most {}", crate::MAX_DEPTH)));
    }
    let rows = bag.copies.len();
    if rows > crate::MAX_ENTRIES {
        let problem = format!("{rows} rows, at most {}", crate::MAX_ENTRIES);
        return Some(("copies".into(), problem));
    }
    let bad = |&(row, n): &(u32, u32)| {
        row as usize >= crate::MAX_ENTRIES || !(1..=crate::MAX_BAG_COPIES).contains(&n)
    };
    let j = bag.copies.iter().position(bad)?;
    let problem = format!(
        "a row index below {} with 1 to {} copies",
        crate::MAX_ENTRIES,
        crate::MAX_BAG_COPIES
    );
    Some((format!("copies[{j}]"), problem))
}

/// Every saved text of a creature within the files' bounds.
fn check_texts(save: &SaveContents<'_>) -> Result<(), SaveError> {
    let field = |type_path, id: u64, field: &str, fits: Result<(), String>| match fits {
        Ok(()) => Ok(()),
        Err(problem) => impossible(
            type_path,
            format!("entity {id}: field `{field}`: {problem}"),
        ),
    };
    let creatures: HashSet<u64> = save
        .components::<TablesCreature>()
        .into_iter()
        .map(|(id, c)| field("TablesCreature", id, "species", bounds::key(&c.species)).map(|()| id))
        .collect::<Result<_, _>>()?;
    for (id, Glyph(glyph)) in save.components::<Glyph>() {
        if creatures.contains(&id) {
            field("Glyph", id, "0", bounds::glyph(glyph))?;
        }
    }
    for (floor, record) in save.resource::<TablesFloors>().unwrap_or_default().0 {
        check_record(&floor, &record)?;
        for (i, area) in record.tags.iter().enumerate() {
            if let Err(problem) = bounds::text(&area.name, MAX_TAG_BYTES) {
                let at = format!("{floor}'s tags[{i}]: field `name`: {problem}");
                return impossible("TablesFloors", at);
            }
        }
    }
    for (id, CreatureTags(tags)) in save.components::<CreatureTags>() {
        if let Err((i, problem)) = bounds::tags(&tags) {
            let name = i.map_or("0".to_owned(), |i| format!("0[{i}]"));
            field("CreatureTags", id, &name, Err(problem))?;
        }
    }
    for (id, CreatureData(data)) in save.components::<CreatureData>() {
        if let Err((name, problem)) = bounds::data(&data) {
            let name = name.map_or("0".to_owned(), |name| format!("0[{name:?}]"));
            field("CreatureData", id, &name, Err(problem))?;
        }
    }
    for (id, Unique(key)) in save.components::<Unique>() {
        field("Unique", id, "0", bounds::key(&key))?;
    }
    for (id, role) in save.components::<FollowerRole>() {
        field("FollowerRole", id, "group", bounds::key(&role.group))?;
        field(
            "FollowerRole",
            id,
            "role",
            bounds::text(&role.role, MAX_TAG_BYTES),
        )?;
    }
    for (id, home) in save.components::<HomeRegion>() {
        let name = denizen_core::regions::MAX_NAME;
        let named = |text: &str| match text.is_empty() {
            true => Err("empty: a region has an id and a kind".to_owned()),
            false => bounds::text(text, name),
        };
        field("HomeRegion", id, "id", named(&home.id))?;
        field("HomeRegion", id, "kind", named(&home.kind))?;
    }
    for (id, p) in save.components::<Possession>() {
        field("Possession", id, "loot", bounds::key(&p.loot))?;
        field(
            "Possession",
            id,
            "item",
            bounds::text(&p.item, MAX_NAME_BYTES),
        )?;
    }
    Ok(())
}

/// Every possession is an item of a loot table of the bestiary.
fn check_possessions(b: &Bestiary, save: &SaveContents<'_>) -> Result<(), SaveError> {
    for (id, p) in save.components::<Possession>() {
        let holds = b
            .loot_by_key(&p.loot)
            .is_some_and(|loot| b.loot(loot).items.iter().any(|(item, _)| *item == p.item));
        if !holds {
            return impossible(
                "Possession",
                format!(
                    "entity {id} carries {} of loot table {}, which the bestiary does not have",
                    quoted(&p.item),
                    quoted(&p.loot)
                ),
            );
        }
    }
    Ok(())
}

/// What a save's `Unique` markers say without the rules: each is on a tables creature and
/// names that creature's own species, and no two name the same unique, so a save cannot
/// stand two of one unique at once even while the files load.
fn check_markers(
    creatures: &[(u64, TablesCreature)],
    marked: &HashMap<u64, String>,
) -> Result<(), SaveError> {
    let species: HashMap<u64, &str> = creatures
        .iter()
        .map(|(id, c)| (*id, c.species.as_str()))
        .collect();
    let mut standing: Vec<(&str, u64)> = Vec::with_capacity(marked.len());
    for (&id, key) in marked {
        match species.get(&id) {
            None => {
                return impossible(
                    "Unique",
                    format!("entity {id} is marked Unique but is no tables creature"),
                );
            }
            Some(&of) if of != key => {
                return impossible(
                    "Unique",
                    format!(
                        "entity {id} is marked Unique({}) but is of species {}",
                        quoted(key),
                        quoted(of)
                    ),
                );
            }
            Some(_) => standing.push((key, id)),
        }
    }
    standing.sort_unstable();
    if let Some(pair) = standing.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return impossible(
            "Unique",
            format!(
                "entities {} and {} are both the unique {}",
                pair[0].1,
                pair[1].1,
                quoted(pair[0].0)
            ),
        );
    }
    Ok(())
}

/// With the rules: a creature is marked `Unique` exactly when its species is a unique, and
/// none is one the ledger has killed. The ledger follows the species, so a save cannot
/// leave two of one unique standing.
fn check_uniques(
    b: &Bestiary,
    creatures: &[(u64, TablesCreature)],
    marked: &HashMap<u64, String>,
    ledger: &crate::UniqueLedger,
) -> Result<(), SaveError> {
    let killed: HashSet<&str> = ledger.killed_keys().collect();
    for (id, c) in creatures {
        let unique = b
            .species_by_key(&c.species)
            .is_some_and(|s| b.species_of(s).unique);
        match (unique, marked.contains_key(id)) {
            (true, false) => {
                return impossible(
                    "Unique",
                    format!(
                        "entity {id} is of the unique species {} but is not marked Unique({})",
                        quoted(&c.species),
                        quoted(&c.species)
                    ),
                );
            }
            (false, true) => {
                return impossible(
                    "Unique",
                    format!(
                        "entity {id} is marked Unique({}), which is no unique",
                        quoted(&c.species)
                    ),
                );
            }
            (true, true) if killed.contains(c.species.as_str()) => {
                return impossible(
                    "Unique",
                    format!(
                        "entity {id} is the unique {}, which the saved ledger has killed",
                        quoted(&c.species)
                    ),
                );
            }
            _ => {}
        }
    }
    Ok(())
}

/// Run condition: the saved state or the rules may have changed since the last check.
pub(super) fn state_changed(
    ledger: Res<TablesUniques>,
    floors: Res<TablesFloors>,
    rules: Res<TablesRuleset>,
) -> bool {
    ledger.is_changed() || floors.is_changed() || rules.is_changed()
}

/// Checks the state: the ledger names only the bestiary's uniques, and those alive are the
/// ones standing on a floor (current or put away) and not killed; every floor's record
/// holds at most [`MAX_TAG_AREAS`] tag areas, and the records are of floors that exist
/// (others dropped without a word: a floor that ends holding nothing says nothing); every
/// creature's species is the bestiary's (one that is not is named, and left as it is).
pub(super) fn check_saved_state(
    rules: Res<TablesRuleset>,
    creatures: Query<&TablesCreature>,
    (current, stored): (Res<CurrentFloor>, Res<StoredFloors>),
    mut ledger: ResMut<TablesUniques>,
    mut floors: ResMut<TablesFloors>,
    mut mended: MessageWriter<TablesStateMended>,
) {
    let b = rules.rules();
    // The ledger follows the species standing, not the `Unique` markers.
    let standing: Vec<&str> = creatures
        .iter()
        .map(|c| c.species.as_str())
        .filter(|key| {
            b.species_by_key(key)
                .is_some_and(|s| b.species_of(s).unique)
        })
        .collect();
    let mut misfits = check_ledger(b, &standing, &mut ledger);
    let exists = |floor: &FloorId| *floor == current.0 || stored.0.contains_key(floor);
    if floors.0.keys().any(|floor| !exists(floor)) {
        floors.0.retain(|floor, _| exists(floor));
    }
    for (floor, record) in floors.bypass_change_detection().0.iter_mut() {
        if record.tags.len() > MAX_TAG_AREAS {
            misfits.push(format!(
                "TablesFloors: {floor} has {} tag areas; the first {MAX_TAG_AREAS} kept",
                record.tags.len()
            ));
            record.tags.truncate(MAX_TAG_AREAS);
        }
    }
    let mut unknown: Vec<&str> = creatures
        .iter()
        .map(|c| c.species.as_str())
        .filter(|key| b.species_by_key(key).is_none())
        .collect();
    unknown.sort_unstable();
    unknown.dedup();
    misfits.extend(unknown.into_iter().map(|key| {
        format!(
            "TablesCreature: species {} is not in the bestiary; left as it is",
            quoted(key)
        )
    }));
    if !misfits.is_empty() {
        mended.write(TablesStateMended { misfits });
    }
}

/// The ledger against the rules and the uniques standing: keys of no unique dropped, those
/// alive made the ones standing and not killed. What was mended, one line each.
fn check_ledger(
    b: &Bestiary,
    standing: &[&str],
    ledger: &mut ResMut<TablesUniques>,
) -> Vec<String> {
    let is_unique = |key: &str| {
        b.species_by_key(key)
            .is_some_and(|s| b.species_of(s).unique)
    };
    let mut misfits = Vec::new();
    let foreign = ledger
        .0
        .alive_keys()
        .chain(ledger.0.killed_keys())
        .any(|k| !is_unique(k));
    if foreign {
        let dropped = ledger.0.retain(is_unique);
        misfits.extend(dropped.into_iter().map(|key| {
            format!(
                "TablesUniques: {} is no unique of the bestiary; dropped",
                quoted(&key)
            )
        }));
    }
    let gone: Vec<String> = ledger
        .0
        .alive_keys()
        .filter(|key| !standing.contains(key))
        .map(str::to_owned)
        .collect();
    if !gone.is_empty() {
        ledger.0.floor_ended(gone.iter().map(String::as_str));
        misfits.extend(gone.into_iter().map(|key| {
            format!(
                "TablesUniques: {} is alive but stands on no floor; back in the pool",
                quoted(&key)
            )
        }));
    }
    let mut unmarked: Vec<&str> = standing
        .iter()
        .copied()
        .filter(|key| is_unique(key) && ledger.0.is_available(key))
        .collect();
    unmarked.sort_unstable();
    unmarked.dedup();
    for key in unmarked {
        ledger.0.alive(key);
        misfits.push(format!(
            "TablesUniques: {} stands on a floor but was not alive; marked alive",
            quoted(key)
        ));
    }
    misfits
}
