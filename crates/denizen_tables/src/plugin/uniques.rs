//! Uniques across floors: one whose entity goes (its floor ended, or the game despawned it)
//! goes back to the pool, and a reported kill takes one for good.

use bevy_ecs::lifecycle::Remove;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::pipeline::RulesLoading;

use super::components::Unique;
use super::messages::{TablesUniqueKillRefused, TablesUniqueKilled};
use super::resources::{TablesRuleset, TablesUniques};

/// Observer: a unique's entity goes (its floor left, replaced or despawned, or the game
/// despawned it). Alive no more, it goes back to the pool, unless a kill was reported
/// (then it stays killed). A floor put away keeps its uniques' entities, so they stay
/// alive with it.
pub(super) fn unique_gone(
    gone: On<Remove<Unique>>,
    uniques: Query<&Unique>,
    mut ledger: ResMut<TablesUniques>,
) {
    if let Ok(unique) = uniques.get(gone.entity) {
        ledger.0.floor_ended([unique.0.as_str()]);
    }
}

/// The kills the game reported, kept until the rules are loaded (feature `assets`): then
/// each unique of the bestiary never comes again, and a key that names none is refused.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(super) struct PendingKills(Vec<String>);

/// Reads the kills reported, and applies them once the rules are in.
pub(super) fn kills(
    mut killed: MessageReader<TablesUniqueKilled>,
    mut pending: ResMut<PendingKills>,
    loading: Option<Res<RulesLoading<TablesRuleset>>>,
    rules: Res<TablesRuleset>,
    mut ledger: ResMut<TablesUniques>,
    mut refused: MessageWriter<TablesUniqueKillRefused>,
) {
    pending
        .0
        .extend(killed.read().map(|kill| kill.unique.clone()));
    if loading.is_some() || pending.0.is_empty() {
        return;
    }
    let b = rules.rules();
    for key in std::mem::take(&mut pending.0) {
        let unique = b
            .species_by_key(&key)
            .is_some_and(|s| b.species_of(s).unique);
        if unique {
            ledger.0.killed(&key);
        } else {
            refused.write(TablesUniqueKillRefused { unique: key });
        }
    }
}
