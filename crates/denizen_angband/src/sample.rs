//! The figures of a kept level, as the side-by-side runs of 2.7.9's own generator name
//! them (`denizen angband sample`): how many levels it took, its rooms, monsters,
//! objects, rating and feeling.

use denizen_core::WorldSeed;

use crate::layout::RoomChoice;

use crate::alloc::{Allocator, UniqueLedger};
use crate::artifact::ArtifactLedger;
use crate::feeling::Autoscum;
use crate::layout::{ObjectSpot, shipped_vaults};
use crate::level::LevelOptions;
use crate::make::ObjectRules;
use crate::request::{Judge, KeptLevel, Stock, is_quest_depth, keep_classic_level};
use crate::streams::level_stream;

/// How a sample's levels are made: each as a new game enters it (a quest at 99 and 100,
/// the previous level 1,000 game turns old, no unique alive and no artifact made), from
/// its own stream of the seed, so level `i` is the same whoever makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGameLevels {
    /// The depth.
    pub depth: i32,
    /// The autoscummer.
    pub autoscum: Autoscum,
    /// Preserve mode.
    pub preserve: bool,
    /// The seed.
    pub seed: WorldSeed,
}

impl NewGameLevels {
    /// Level `i`, kept.
    pub fn level(&self, i: u64, allocator: &Allocator, objects: &ObjectRules) -> KeptLevel {
        let mut rng = level_stream(self.seed, self.depth as u32, i);
        let mut options = LevelOptions::default();
        options.layout.quest = is_quest_depth(self.depth as u32);
        let mut judge = Judge {
            autoscum: self.autoscum,
            preserve: self.preserve,
            turns_since_last: Some(1_000),
            appraise: |_: &ObjectSpot| None,
        };
        let stock = Stock {
            allocator,
            uniques: &UniqueLedger::new(),
            objects,
            artifacts: &mut ArtifactLedger::new(),
        };
        keep_classic_level(
            &mut rng,
            self.depth,
            &options,
            shipped_vaults(),
            stock,
            &mut judge,
        )
    }
}

/// The figures, in output order: each is a number per level (the feeling shares 0 or 1).
pub const FIGURES: [&str; 37] = [
    "builds",
    "rooms",
    "simple",
    "overlap",
    "cross",
    "large",
    "nest",
    "pit",
    "lesser_vault",
    "greater_vault",
    "destroyed",
    "den_filled",
    "monsters",
    "room_monsters",
    "population_monsters",
    "distinct_races",
    "asleep",
    "population_level",
    "rating",
    "rating_objects",
    "special_any",
    "objects",
    "gold",
    "room_objects",
    "traps",
    "rubble",
    "feeling_0",
    "feeling_1",
    "feeling_2",
    "feeling_3",
    "feeling_4",
    "feeling_5",
    "feeling_6",
    "feeling_7",
    "feeling_8",
    "feeling_9",
    "feeling_10",
];

/// The first of the feeling shares in [`FIGURES`] (their deviation means nothing).
pub const FIRST_FEELING: usize = 26;

/// The room kinds in [`FIGURES`]'s order, from `simple`.
const ROOM_KINDS: [RoomChoice; 8] = [
    RoomChoice::Simple,
    RoomChoice::Overlap,
    RoomChoice::Cross,
    RoomChoice::Large,
    RoomChoice::Nest,
    RoomChoice::Pit,
    RoomChoice::LesserVault,
    RoomChoice::GreaterVault,
];

/// A kept level's figures, in [`FIGURES`]'s order.
pub fn figures(kept: &KeptLevel) -> [f64; FIGURES.len()] {
    let level = &kept.level;
    let rooms = &level.layout.rooms;
    let mut races: Vec<_> = level.monsters.iter().map(|m| m.race).collect();
    races.sort();
    races.dedup();
    let count = |n: usize| n as f64;
    let flag = |b: bool| f64::from(u8::from(b));
    let mut out = [0.0; FIGURES.len()];
    let mut at = 0;
    let mut push = |value: f64| {
        out[at] = value;
        at += 1;
    };
    push(f64::from(1 + kept.rejected + kept.remade));
    push(count(rooms.len()));
    for kind in ROOM_KINDS {
        push(count(rooms.iter().filter(|r| r.kind == kind).count()));
    }
    push(flag(level.layout.destroyed));
    push(count(
        level.dens.iter().filter(|d| d.races.is_some()).count(),
    ));
    push(count(level.monsters.len()));
    push(count(level.room_monsters));
    push(count(level.monsters.len() - level.room_monsters));
    push(count(races.len()));
    push(count(level.monsters.iter().filter(|m| m.sleep > 0).count()));
    push(f64::from(level.population_level));
    push(f64::from(kept.rating));
    push(f64::from(level.object_rating().0));
    push(flag(kept.special));
    push(count(level.objects.len()));
    push(count(level.gold.len()));
    push(count(
        level.objects.iter().filter(|o| o.spot.is_some()).count(),
    ));
    push(count(level.traps.len()));
    push(count(level.rubble.len()));
    let feeling = kept.feeling.code();
    for code in 0..=10 {
        push(flag(feeling == code));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `builds` counts every level made: the kept one, those the autoscummer threw away
    /// and those remade for being too full.
    #[test]
    fn builds_count_the_kept_rejected_and_remade_levels() {
        let levels = NewGameLevels {
            depth: 5,
            autoscum: Autoscum::Off,
            preserve: false,
            seed: WorldSeed(1),
        };
        let allocator = Allocator::new(crate::race::Races::shipped());
        let mut kept = levels.level(0, &allocator, &ObjectRules::shipped());
        (kept.rejected, kept.remade) = (4, 2);
        assert_eq!(FIGURES[0], "builds");
        assert_eq!(figures(&kept)[0], 7.0);
    }
}
