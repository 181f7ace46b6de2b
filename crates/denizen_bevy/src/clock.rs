//! Game time: the clock the host advances, and the ten-minute and hourly check schedules
//! it drives.

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_reflect::prelude::*;
use serde::{Deserialize, Serialize};

/// Runs each time game time crosses a ten-minute boundary that is not on the hour.
/// A real schedule: a game adds its own systems with `app.add_systems(TenMinuteCheck, ..)`.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TenMinuteCheck;

/// Runs instead of [`TenMinuteCheck`] when the boundary is on the hour, and whenever the
/// host runs it directly for a long action (resting, travel):
/// `world.run_schedule(HourlyCheck)`.
#[derive(ScheduleLabel, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HourlyCheck;

/// Game time in minutes, which the host advances by any amount.
#[derive(
    Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameClock {
    /// Minutes since the start of the game.
    pub minutes: u64,
    /// Ten-minute boundaries whose check has run.
    pub boundaries_checked: u64,
}

impl GameClock {
    /// Moves time forward; the checks of the boundaries crossed run on the next run of
    /// the plugin's schedule.
    pub fn advance(&mut self, minutes: u64) {
        self.minutes += minutes;
    }
}

/// Runs one check per ten-minute boundary crossed since the last run, in order: the
/// hourly schedule on the hour, the ten-minute schedule otherwise. Advancing by 125
/// minutes runs 12 checks, two of them hourly.
pub(crate) fn drive_clock(world: &mut World) {
    loop {
        let boundary = {
            let clock = world.resource::<GameClock>();
            let next = clock.boundaries_checked + 1;
            if next * 10 > clock.minutes {
                break;
            }
            next
        };
        world.resource_mut::<GameClock>().boundaries_checked = boundary;
        // The schedules are created by the plugin; a host that removed one gets no check.
        let _ = if (boundary * 10) % 60 == 0 {
            world.try_run_schedule(HourlyCheck)
        } else {
            world.try_run_schedule(TenMinuteCheck)
        };
    }
}
