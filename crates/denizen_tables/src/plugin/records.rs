//! The record of each floor the plugin made, its clock paused while the floor is put
//! away. The neutral per-floor store forgets it when its floor ends, or when another
//! maker's floor of the same id is entered.

use bevy_ecs::prelude::*;
use denizen_bevy::clock::GameClock;
use denizen_bevy::floor::FloorEntered;

use super::resources::TablesFloors;

/// Observer: a floor becomes current. The plugin's own (by its maker), brought back, the
/// time away is not time on it.
pub(super) fn floor_entered(
    entered: On<FloorEntered>,
    clock: Res<GameClock>,
    mut floors: ResMut<TablesFloors>,
) {
    if entered.maker.is(super::NAME)
        && let Some(record) = floors.0.get_mut(&entered.floor)
    {
        record.seen(&clock);
    }
}
