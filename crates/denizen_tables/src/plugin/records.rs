//! The record of each floor the plugin made, following the floors: forgotten when its
//! floor ends (or when another maker's floor of the same id is entered), its clock paused
//! while the floor is put away.

use bevy_ecs::prelude::*;
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::{FloorEnd, FloorEnded, FloorEntered};

use super::resources::TablesFloors;

/// Observer: a floor ends. Left, replaced or despawned, its record is forgotten; put
/// away, it is kept for its return.
pub(super) fn floor_ended(ended: On<FloorEnded>, mut floors: ResMut<TablesFloors>) {
    if ended.end != FloorEnd::PutAway {
        floors.0.remove(&ended.floor);
    }
}

/// Observer: a floor becomes current. The plugin's own (by its maker), brought back, the
/// time away is not time on it; another maker's floor of an id the plugin once used has no
/// record of the plugin's.
pub(super) fn floor_entered(
    entered: On<FloorEntered>,
    clock: Res<GameClock>,
    mut floors: ResMut<TablesFloors>,
) {
    if !entered.maker.is(super::NAME) {
        if floors.0.contains_key(&entered.floor) {
            floors.0.remove(&entered.floor);
        }
    } else if let Some(record) = floors.0.get_mut(&entered.floor) {
        record.seen(&clock);
    }
}
