//! Captive's saves checked before they change the world: every member's group is a group
//! that lists it, and every encounter type is one of the table's.

use bevy_ecs::prelude::*;
use denizen_bevy::pipeline::rules_loading;
use denizen_bevy::save::{SaveContents, SaveError};

use super::components::{EncounterGroup, EncounterMember, MemberOf};
use super::resources::CaptiveRuleset;

/// The check [`load`](denizen_bevy::save::load) runs on every save (the types are checked
/// once the table's files, if any, have loaded).
pub(super) fn check(world: &World, save: &SaveContents<'_>) -> Result<(), SaveError> {
    save.check_relationship::<MemberOf, EncounterGroup>(("MemberOf", "GroupMembers"))?;
    if rules_loading::<CaptiveRuleset>(world) {
        return Ok(());
    }
    let table = world.resource::<CaptiveRuleset>().rules();
    let members = save
        .components::<EncounterMember>()
        .into_iter()
        .map(|(id, m)| (id, m.type_id, "EncounterMember"));
    let groups = save
        .components::<EncounterGroup>()
        .into_iter()
        .map(|(id, g)| (id, g.type_id, "EncounterGroup"));
    for (id, type_id, type_path) in members.chain(groups) {
        if table.get(type_id).is_none() {
            return Err(SaveError::Impossible {
                type_path,
                message: format!(
                    "entity {id} is of encounter type {type_id}, which the table does not have"
                ),
            });
        }
    }
    Ok(())
}
