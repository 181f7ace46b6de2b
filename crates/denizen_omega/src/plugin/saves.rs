//! Saved state checked against the rules: a ledger, location or chronicle read from a save
//! that does not fit the loaded data is replaced by a new game's, with a message, before any
//! system reads it.

use crate::construct::Chronicle;
use crate::objects::ItemLedger;
use crate::place::PlaceError;
use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;

use super::resources::{OmegaChronicle, OmegaCurrentLocation, OmegaRuleset, OmegaUniqueItems};

/// A resource read from a save did not fit the rules in use (a save of another game's
/// data, or an edited one): it was replaced by a new game's value. Written in
/// [`DenizenSystems::Floors`](denizen_bevy::DenizenSystems::Floors), before any request is served.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct OmegaStateRejected {
    /// What did not fit, naming the resource.
    pub reason: OmegaStateMisfit,
}

/// Which saved resource did not fit the rules, and how.
#[derive(Reflect, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[reflect(Debug, PartialEq)]
pub enum OmegaStateMisfit {
    /// `OmegaChronicle` breaks the chronicle's limits.
    #[error("OmegaChronicle: {0}")]
    Chronicle(String),
    /// `OmegaUniqueItems` does not match the rules' item table.
    #[error("OmegaUniqueItems: the unique-item ledger does not fit the rules: {0}")]
    UniqueItems(String),
    /// `OmegaCurrentLocation` names a place the rules do not have.
    #[error("OmegaCurrentLocation: {0}")]
    Location(PlaceError),
}

impl OmegaStateMisfit {
    /// The resource's name, such as `OmegaUniqueItems`.
    pub fn resource(&self) -> &'static str {
        match self {
            Self::Chronicle(_) => "OmegaChronicle",
            Self::UniqueItems(_) => "OmegaUniqueItems",
            Self::Location(_) => "OmegaCurrentLocation",
        }
    }
}

/// Run condition: the saved state may have been replaced since the last check.
pub(crate) fn state_changed(
    items: Res<OmegaUniqueItems>,
    location: Res<OmegaCurrentLocation>,
    chronicle: Res<OmegaChronicle>,
    rules: Res<OmegaRuleset>,
) -> bool {
    items.is_changed() || location.is_changed() || chronicle.is_changed() || rules.is_changed()
}

/// Checks [`OmegaUniqueItems`], [`OmegaCurrentLocation`] and [`OmegaChronicle`] against the
/// rules and their limits; a misfit is replaced by the new-game value and reported with
/// [`OmegaStateRejected`].
pub(crate) fn check_saved_state(
    rules: Res<OmegaRuleset>,
    mut items: ResMut<OmegaUniqueItems>,
    mut location: ResMut<OmegaCurrentLocation>,
    mut chronicle: ResMut<OmegaChronicle>,
    mut rejected: MessageWriter<OmegaStateRejected>,
) {
    // Only what changed since the last check (or every state, when the rules did).
    let all = rules.is_changed();
    if (all || chronicle.is_changed())
        && let Err(reason) = chronicle.0.check("the saved chronicle")
    {
        chronicle.0 = Chronicle::new_game();
        rejected.write(OmegaStateRejected {
            reason: OmegaStateMisfit::Chronicle(reason.to_string()),
        });
    }
    let rules = rules.rules();
    let table = rules.bestiary.items();
    if (all || items.is_changed())
        && let Err(reason) = items.0.check(table)
    {
        items.0 = ItemLedger::new(table);
        rejected.write(OmegaStateRejected {
            reason: OmegaStateMisfit::UniqueItems(reason),
        });
    }
    if (all || location.is_changed())
        && let Err(reason) = rules.check_place(location.place())
    {
        *location = OmegaCurrentLocation::default();
        rejected.write(OmegaStateRejected {
            reason: OmegaStateMisfit::Location(reason),
        });
    }
}

/// The check [`load`](denizen_bevy::save::load) runs on every save before it changes the
/// world: every monster's species and body are species of the bestiary in use (a save of
/// another bestiary is refused, not loaded as unknown monsters). Checked once the data
/// files, if any, have loaded.
pub(super) fn check_species(
    world: &World,
    save: &denizen_bevy::save::SaveContents<'_>,
) -> Result<(), denizen_bevy::save::SaveError> {
    if denizen_bevy::pipeline::rules_loading::<OmegaRuleset>(world) {
        return Ok(());
    }
    let count = world
        .resource::<OmegaRuleset>()
        .rules()
        .bestiary
        .species()
        .len();
    for (id, species) in save.components::<super::components::Species>() {
        let beyond = [species.id, species.form]
            .into_iter()
            .find(|s| s.index() >= count);
        if let Some(beyond) = beyond {
            return Err(denizen_bevy::save::SaveError::Impossible {
                type_path: "Species",
                message: format!(
                    "entity {id} is of species {}, and the bestiary has {count}",
                    beyond.index()
                ),
            });
        }
    }
    Ok(())
}

/// Checks every saved Omega monster's own status word before the save changes the world:
/// each monster has one, and it holds only flags [`Statuses`](super::components::Statuses)
/// keeps (no unknown bit, and none of awake, hostile and wandering, which `Sleep` and
/// `Disposition` hold). A save from before monsters carried their words is refused too.
pub(super) fn check_statuses(
    _world: &World,
    save: &denizen_bevy::save::SaveContents<'_>,
) -> Result<(), denizen_bevy::save::SaveError> {
    use super::components::{Species, Statuses};
    use crate::species::StatusSet;
    let impossible = |message: String| denizen_bevy::save::SaveError::Impossible {
        type_path: "Statuses",
        message,
    };
    let words = save.components::<Statuses>();
    for (id, statuses) in &words {
        let word = statuses.get();
        if word.bits() & !StatusSet::all().bits() != 0 || word.intersects(Statuses::HELD_ELSEWHERE)
        {
            return Err(impossible(format!(
                "entity {id} has the status word {word:?}: unknown flags, or awake, hostile \
                 or wandering (Sleep and Disposition hold those)"
            )));
        }
    }
    let worded: std::collections::HashSet<u64> = words.iter().map(|(id, _)| *id).collect();
    match save
        .components::<Species>()
        .into_iter()
        .find(|(id, _)| !worded.contains(id))
    {
        Some((id, _)) => Err(impossible(format!(
            "entity {id} is an Omega monster without its own status word"
        ))),
        None => Ok(()),
    }
}
