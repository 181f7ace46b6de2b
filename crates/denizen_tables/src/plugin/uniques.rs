//! Uniques across floors: a floor that ends gives back its living uniques, a reported kill
//! takes one for good, and a ledger read from a save is checked against the bestiary.

use bevy_ecs::prelude::*;
use denizen_bevy::floor::{FloorEnd, FloorEnded, FloorEntered, OnFloor};
use denizen_bevy::save::SaveLoaded;
use denizen_core::quoted;

use super::components::{TablesCreature, Unique};
use super::messages::{TablesStateMended, UniqueKillRefused, UniqueKilled};
use super::resources::{MAX_TAG_AREAS, TablesFloors, TablesRuleset, TablesUniques};

/// Observer: a floor ends. Left, replaced or despawned, its living uniques go back to the
/// pool and its record is forgotten; put away, they stay alive with it.
pub(super) fn floor_ended(
    ended: On<FloorEnded>,
    uniques: Query<(&Unique, &OnFloor)>,
    mut ledger: ResMut<TablesUniques>,
    mut floors: ResMut<TablesFloors>,
) {
    if ended.end == FloorEnd::PutAway || !floors.0.contains_key(&ended.floor) {
        return;
    }
    floors.0.remove(&ended.floor);
    let left = uniques
        .iter()
        .filter(|(_, on)| on.0 == ended.floor)
        .map(|(unique, _)| unique.0.as_str());
    ledger.0.floor_ended(left);
}

/// Observer: a floor of the plugin's comes back; the time away is not time on it.
pub(super) fn floor_entered(
    entered: On<FloorEntered>,
    clock: Res<denizen_bevy::clock::GameClock>,
    mut floors: ResMut<TablesFloors>,
) {
    if let Some(record) = floors.0.get_mut(&entered.floor) {
        record.seen_turn = clock.turns;
    }
}

/// The kills the game reported: each unique of the bestiary never comes again; a key that
/// names none is refused.
pub(super) fn kills(
    mut killed: MessageReader<UniqueKilled>,
    rules: Res<TablesRuleset>,
    mut ledger: ResMut<TablesUniques>,
    mut refused: MessageWriter<UniqueKillRefused>,
) {
    for kill in killed.read() {
        let b = rules.rules();
        let unique = b
            .species_by_key(&kill.unique)
            .is_some_and(|s| b.species_of(s).unique);
        if unique {
            ledger.0.killed(&kill.unique);
        } else {
            refused.write(UniqueKillRefused {
                unique: kill.unique.clone(),
            });
        }
    }
}

/// Observer: a save was loaded. The ledger keeps only keys of the bestiary's uniques, every
/// unique standing on a floor is alive in it, every floor's record holds at most
/// [`MAX_TAG_AREAS`] tag areas, and every creature's species is named; what did not fit is
/// mended (or, for a species the files no longer have, named) in one
/// [`TablesStateMended`].
pub(super) fn check_loaded(
    _: On<SaveLoaded>,
    rules: Res<TablesRuleset>,
    creatures: Query<(&TablesCreature, Option<&Unique>)>,
    mut ledger: ResMut<TablesUniques>,
    mut floors: ResMut<TablesFloors>,
    mut mended: MessageWriter<TablesStateMended>,
) {
    let b = rules.rules();
    let is_unique = |key: &str| {
        b.species_by_key(key)
            .is_some_and(|s| b.species_of(s).unique)
    };
    let mut misfits: Vec<String> = ledger
        .0
        .retain(is_unique)
        .into_iter()
        .map(|key| format!("TablesUniques: `{key}` is no unique of the bestiary; dropped"))
        .collect();
    for (floor, record) in &mut floors.0 {
        if record.tags.len() > MAX_TAG_AREAS {
            misfits.push(format!(
                "TablesFloors: {} {} has {} tag areas; the first {MAX_TAG_AREAS} kept",
                quoted(&floor.location),
                floor.depth,
                record.tags.len()
            ));
            record.tags.truncate(MAX_TAG_AREAS);
        }
    }
    let mut unknown = Vec::new();
    for (creature, unique) in &creatures {
        if b.species_by_key(&creature.species).is_none() {
            unknown.push(creature.species.clone());
        }
        if let Some(unique) = unique.filter(|u| is_unique(&u.0))
            && ledger.0.is_available(&unique.0)
        {
            ledger.0.alive(&unique.0);
            misfits.push(format!(
                "TablesUniques: `{}` stands on a floor but was not alive; marked alive",
                unique.0
            ));
        }
    }
    unknown.sort();
    unknown.dedup();
    misfits.extend(unknown.into_iter().map(|key| {
        format!("TablesCreature: species `{key}` is not in the bestiary; left as it is")
    }));
    if !misfits.is_empty() {
        mended.write(TablesStateMended { misfits });
    }
}
