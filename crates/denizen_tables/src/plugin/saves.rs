//! The plugin's saved state checked against the rules in use: after a save is loaded, and
//! whenever the rules change (a reload), before any request is served. What does not fit
//! is mended, and said once in a [`TablesStateMended`].

use bevy_ecs::prelude::*;
use denizen_bevy::floor::{CurrentFloor, FloorId, StoredFloors};
use denizen_bevy::pipeline::rules_loading;
use denizen_bevy::save::{SaveContents, SaveError};
use denizen_core::quoted;

use super::components::{Follows, TablesCreature, Unique};
use super::messages::TablesStateMended;
use super::resources::{MAX_TAG_AREAS, TablesFloors, TablesRuleset, TablesUniques};
use crate::Bestiary;

/// The check [`load`](denizen_bevy::save::load) runs on every save before it changes the
/// world: every follower's leader is a tables creature that lists it, and (the rules
/// loaded) every creature is of a species of the bestiary: a save of other files is
/// refused, not loaded as unknown creatures. While the files load, the species are named
/// after the load instead (see [`check_saved_state`]); the ledger is mended there too.
pub(super) fn check(world: &World, save: &SaveContents<'_>) -> Result<(), SaveError> {
    save.check_relationship::<Follows, TablesCreature>(("Follows", "Followers"))?;
    if rules_loading::<TablesRuleset>(world) {
        return Ok(());
    }
    let b = world.resource::<TablesRuleset>().rules();
    let foreign = save
        .components::<TablesCreature>()
        .into_iter()
        .find(|(_, c)| b.species_by_key(&c.species).is_none());
    match foreign {
        Some((id, creature)) => Err(SaveError::Impossible {
            type_path: "TablesCreature",
            message: format!(
                "entity {id} is of species {}, which the bestiary does not have",
                quoted(&creature.species)
            ),
        }),
        None => Ok(()),
    }
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
    creatures: Query<(&TablesCreature, Option<&Unique>)>,
    (current, stored): (Res<CurrentFloor>, Res<StoredFloors>),
    mut ledger: ResMut<TablesUniques>,
    mut floors: ResMut<TablesFloors>,
    mut mended: MessageWriter<TablesStateMended>,
) {
    let b = rules.rules();
    let standing: Vec<&str> = creatures
        .iter()
        .filter_map(|(_, u)| u.map(|u| u.0.as_str()))
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
        .map(|(c, _)| c.species.as_str())
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
