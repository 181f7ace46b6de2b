//! Saved state checked against the rules: a ledger, location or chronicle read from a save
//! that does not fit the loaded data is replaced by a new game's, with a message, before any
//! system reads it.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_omega::OmegaRules;
use denizen_omega::construct::Chronicle;
use denizen_omega::location::MAX_DIFFICULTY;
use denizen_omega::objects::ItemLedger;

use super::populate::deity_fits;
use super::resources::{CurrentLocation, OmegaChronicle, OmegaRuleset, UniqueItems};

/// A resource read from a save did not fit the rules in use (a save of another game's
/// data, or an edited one): it was replaced by a new game's value.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct StateRejected {
    /// The resource's name, such as `UniqueItems`.
    pub resource: String,
    /// What did not fit, in one line.
    pub reason: String,
}

/// Run condition: the saved state may have been replaced since the last check.
pub(crate) fn state_changed(
    items: Res<UniqueItems>,
    location: Res<CurrentLocation>,
    chronicle: Res<OmegaChronicle>,
    rules: Res<OmegaRuleset>,
) -> bool {
    items.is_changed() || location.is_changed() || chronicle.is_changed() || rules.is_changed()
}

/// Checks [`UniqueItems`], [`CurrentLocation`] and [`OmegaChronicle`] against the rules
/// and their limits; a misfit is replaced by the new-game value and reported with
/// [`StateRejected`].
pub(crate) fn check_saved_state(
    rules: Res<OmegaRuleset>,
    mut items: ResMut<UniqueItems>,
    mut location: ResMut<CurrentLocation>,
    mut chronicle: ResMut<OmegaChronicle>,
    mut rejected: MessageWriter<StateRejected>,
) {
    // Only what changed since the last check (or every state, when the rules did).
    let all = rules.is_changed();
    if (all || chronicle.is_changed())
        && let Err(reason) = chronicle.0.check("the saved chronicle")
    {
        chronicle.0 = Chronicle::new_game();
        rejected.write(StateRejected {
            resource: "OmegaChronicle".into(),
            reason: reason.to_string(),
        });
    }
    let rules = rules.rules();
    let table = rules.bestiary.items();
    if (all || items.is_changed())
        && let Err(reason) = items.0.check(table)
    {
        items.0 = ItemLedger::new(table);
        rejected.write(StateRejected {
            resource: "UniqueItems".into(),
            reason: format!("the unique-item ledger does not fit the rules: {reason}"),
        });
    }
    if (all || location.is_changed())
        && let Err(reason) = location_fits(rules, &location)
    {
        *location = CurrentLocation::default();
        rejected.write(StateRejected {
            resource: "CurrentLocation".into(),
            reason,
        });
    }
}

/// A location names environments the rules have (or none, as a new game does), a depth
/// the dungeon has and a difficulty inside the rules' bounds.
fn location_fits(rules: &OmegaRules, location: &CurrentLocation) -> Result<(), String> {
    if *location == CurrentLocation::default() {
        return Ok(());
    }
    let environment = rules
        .locations
        .get(&location.environment)
        .map_err(|e| format!("the current location: {e}"))?;
    if let Some(key) = &location.dungeon {
        let dungeon = rules
            .locations
            .get(key)
            .map_err(|e| format!("the current dungeon: {e}"))?;
        if !dungeon.is_dungeon() {
            return Err(format!("the current dungeon `{key}` is not a dungeon"));
        }
    }
    if environment.is_dungeon() {
        environment
            .level(location.depth)
            .map_err(|e| format!("the current depth: {e}"))?;
    }
    deity_fits(&rules.bestiary, location.deity).map_err(|e| format!("the current temple's {e}"))?;
    if !(-MAX_DIFFICULTY..=MAX_DIFFICULTY).contains(&location.difficulty) {
        return Err(format!(
            "the current difficulty {} is outside -{MAX_DIFFICULTY}..={MAX_DIFFICULTY}",
            location.difficulty
        ));
    }
    Ok(())
}
