//! The record of each floor the plugin made, following the floors: forgotten when its
//! floor ends (or when another rule set makes a floor of the same id), its clock paused
//! while the floor is put away.

use bevy_ecs::prelude::*;
use bevy_reflect::prelude::*;
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::{FloorEnd, FloorEnded, FloorEntered, FloorEntry, FloorId};

use super::resources::TablesFloors;

/// The floor the plugin is making in this run, between its apply and its
/// [`FloorEntered`].
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub(super) struct Making(pub(super) Option<FloorId>);

/// Observer: a floor ends. Left, replaced or despawned, its record is forgotten; put
/// away, it is kept for its return.
pub(super) fn floor_ended(ended: On<FloorEnded>, mut floors: ResMut<TablesFloors>) {
    if ended.end != FloorEnd::PutAway {
        floors.0.remove(&ended.floor);
    }
}

/// Observer: a floor becomes current. Brought back, the time away is not time on it;
/// made new by another rule set (with an id the plugin once used for a floor that ended
/// holding nothing, which ends without a word), its record is not the plugin's.
pub(super) fn floor_entered(
    entered: On<FloorEntered>,
    clock: Res<GameClock>,
    mut making: ResMut<Making>,
    mut floors: ResMut<TablesFloors>,
) {
    let ours = making.0.take().is_some_and(|made| made == entered.floor);
    if entered.entry == FloorEntry::New && !ours {
        floors.0.remove(&entered.floor);
    } else if let Some(record) = floors.0.get_mut(&entered.floor) {
        record.seen(&clock);
    }
}
