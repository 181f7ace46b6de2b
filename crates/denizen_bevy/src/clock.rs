//! Game time: the clock the host advances (game minutes and game turns), and the
//! ten-minute and hourly check schedules its minutes drive.

use std::num::NonZeroU64;

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

/// Game time, in two units the rule sets read apart: game minutes, whose ten-minute
/// boundaries run Omega's checks, and game turns, which Angband's feeling counts ("a level
/// left fewer than 1,000 game turns after it was made feels like any other level").
///
/// The host advances either by any amount. Each moves alone unless the clock has a rate
/// ([`with_turns_per_minute`](Self::with_turns_per_minute)): then advancing one advances
/// the other too, so a game that keeps one time (ten game turns a minute, say) satisfies
/// both rule sets. The rate is part of the clock and is saved with it.
///
/// ```
/// use denizen_bevy::clock::GameClock;
///
/// let mut clock = GameClock::at(360).with_turns_per_minute(10);
/// clock.advance_turns(25);
/// assert_eq!((clock.minutes, clock.turns), (362, 25));
/// clock.advance_minutes(1);
/// assert_eq!((clock.minutes, clock.turns), (363, 35));
/// ```
#[derive(
    Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize,
)]
#[reflect(Resource, Default, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameClock {
    /// Game minutes since the start of the game.
    pub minutes: u64,
    /// Game turns since the start of the game.
    #[serde(default)]
    pub turns: u64,
    /// Ten-minute boundaries whose check has run.
    pub boundaries_checked: u64,
    /// How many game turns pass in a game minute; `None`, the default: minutes and turns
    /// advance apart.
    #[serde(default)]
    pub turns_per_minute: Option<NonZeroU64>,
    /// With a rate, the turns advanced since the last whole minute they made (always
    /// fewer than the rate).
    #[serde(default)]
    pub turns_into_minute: u64,
}

/// Minutes in a game day.
pub const MINUTES_PER_DAY: u64 = 24 * 60;

impl GameClock {
    /// A clock at `minutes` (and turn 0) whose past boundaries count as checked: a game
    /// that starts at 06:00 (`GameClock::at(360)`) runs no checks for the night before.
    pub fn at(minutes: u64) -> Self {
        Self {
            minutes,
            boundaries_checked: minutes / 10,
            ..Self::default()
        }
    }

    /// A clock at `hour:minute` of day `day` (from 0), past checks done: the same as
    /// [`at`](Self::at) with the minutes counted (saturating at the end of time).
    pub fn at_time(day: u64, hour: u64, minute: u64) -> Self {
        Self::at(
            day.saturating_mul(MINUTES_PER_DAY)
                .saturating_add(hour.saturating_mul(60))
                .saturating_add(minute),
        )
    }

    /// The same clock with `turns` game turns to a game minute: from now on advancing
    /// either unit advances the other. `0` takes the rate away (each advances alone).
    pub fn with_turns_per_minute(mut self, turns: u64) -> Self {
        self.turns_per_minute = NonZeroU64::new(turns);
        self.turns_into_minute = 0;
        self
    }

    /// Moves game minutes forward (and, with a rate, turns: that many minutes' worth);
    /// the checks of the boundaries crossed run on the next run of the plugins' schedule.
    /// Time stops at the largest number a `u64` holds.
    pub fn advance_minutes(&mut self, minutes: u64) {
        self.minutes = self.minutes.saturating_add(minutes);
        if let Some(rate) = self.turns_per_minute {
            self.turns = self
                .turns
                .saturating_add(minutes.saturating_mul(rate.get()));
        }
    }

    /// Moves game turns forward (and, with a rate, minutes: one for every rate's worth of
    /// turns, counting the turns left over from earlier advances). Time stops at the
    /// largest number a `u64` holds.
    pub fn advance_turns(&mut self, turns: u64) {
        self.turns = self.turns.saturating_add(turns);
        if let Some(rate) = self.turns_per_minute {
            let rate = rate.get();
            // In u128: the two remainders may each be close to a huge rate.
            let part = u128::from(turns % rate) + u128::from(self.turns_into_minute % rate);
            let whole = turns / rate + u64::from(part >= u128::from(rate));
            self.turns_into_minute = (part % u128::from(rate)) as u64;
            self.minutes = self.minutes.saturating_add(whole);
        }
    }

    /// Marks every boundary passed so far as checked, so the checks of time spent away
    /// (in a town the plugins do not run in, say) never run: see
    /// [`DenizenSystems`](crate::DenizenSystems) on gating the plugins.
    pub fn skip_pending_checks(&mut self) {
        self.boundaries_checked = self.boundaries_checked.max(self.minutes / 10);
    }

    /// The day, counted from 0.
    pub fn day(&self) -> u64 {
        self.minutes / MINUTES_PER_DAY
    }

    /// The hour of the day, 0-23.
    pub fn hour(&self) -> u64 {
        self.minutes % MINUTES_PER_DAY / 60
    }

    /// The minute of the hour, 0-59.
    pub fn minute(&self) -> u64 {
        self.minutes % 60
    }
}

impl std::fmt::Display for GameClock {
    /// `day D, HH:MM` (the day from 0).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "day {}, {:02}:{:02}",
            self.day(),
            self.hour(),
            self.minute()
        )
    }
}

/// The most checks one run of the plugins' schedule makes: 100,000 boundaries are about
/// 694 game days. A clock further behind (a save edited by hand, a jump of centuries)
/// skips its oldest boundaries instead of running for hours, and says so with
/// [`ChecksSkipped`].
pub const MAX_CHECKS_PER_RUN: u64 = 100_000;

/// Written in [`DenizenSystems::Clock`](crate::DenizenSystems::Clock) when the clock was
/// more than [`MAX_CHECKS_PER_RUN`] boundaries behind: the oldest boundaries were marked
/// checked without running their checks.
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, PartialEq)]
pub struct ChecksSkipped {
    /// Boundaries whose check did not run.
    pub skipped: u64,
}

/// Run condition of [`drive_clock`]: the clock has crossed a boundary it has not checked.
/// Read every run rather than from change detection, so checks held back while the host
/// gated the plugins (see [`DenizenSystems`](crate::DenizenSystems)) run as soon as the
/// gate opens.
pub(crate) fn checks_pending(clock: Res<GameClock>) -> bool {
    clock.boundaries_checked < clock.minutes / 10
}

/// Runs one check per ten-minute boundary crossed since the last run, in order: the
/// hourly schedule on the hour, the ten-minute schedule otherwise. Advancing by 125
/// minutes runs 12 checks, two of them hourly. At most [`MAX_CHECKS_PER_RUN`] run.
pub(crate) fn drive_clock(world: &mut World) {
    let (checked, crossed) = {
        let clock = world.resource::<GameClock>();
        (clock.boundaries_checked, clock.minutes / 10)
    };
    let pending = crossed.saturating_sub(checked);
    if pending > MAX_CHECKS_PER_RUN {
        let skipped = pending - MAX_CHECKS_PER_RUN;
        world.resource_mut::<GameClock>().boundaries_checked = checked + skipped;
        world.write_message(ChecksSkipped { skipped });
    }
    loop {
        let boundary = {
            let clock = world.resource::<GameClock>();
            if clock.boundaries_checked >= clock.minutes / 10 {
                break;
            }
            clock.boundaries_checked + 1
        };
        world.resource_mut::<GameClock>().boundaries_checked = boundary;
        // The schedules are created by the plugin; a host that removed one gets no check.
        let _ = if boundary % 6 == 0 {
            world.try_run_schedule(HourlyCheck)
        } else {
            world.try_run_schedule(TenMinuteCheck)
        };
    }
}
