//! What a request for a level may ask, checked before anything is made; the level the
//! autoscummer keeps; and what leaving a level does to the uniques on it. The plugin and
//! the benchmarks call these, so each rule is written once.

use denizen_core::{FloorGrid, Generator, Square};

use crate::alloc::{Allocator, MAX_DRAW_LEVEL, UniqueLedger};
use crate::artifact::ArtifactLedger;
use crate::cave::{Cave, Pos};
use crate::feeling::{Autoscum, Feeling, Made};
use crate::layout::{ObjectSpot, RoomChoice, VaultTemplates};
use crate::level::{FloorTooLarge, Level, LevelOptions, cave_of_floor};
use crate::make::ObjectRules;
use crate::population::{Monster, Populator};
use crate::race::RaceId;
use crate::trap::{Springing, TrapKind, Traps};

/// 2.7.9's quest levels: Sauron's (99) and Morgoth's (100), while their quests are open.
pub const QUEST_DEPTHS: [u32; 2] = [99, 100];

/// Whether `depth` is a quest level while its quest is open (the host says when it is
/// won).
pub fn is_quest_depth(depth: u32) -> bool {
    QUEST_DEPTHS.contains(&depth)
}

/// Why a level cannot be made as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "bevy_reflect", derive(bevy_reflect::Reflect))]
pub enum LevelRefusal {
    /// Angband's depths are 1 to 127.
    #[error("depth {0} is outside Angband's 1-127")]
    DepthOutOfRange(u32),
    /// The room a request forces cannot be built this shallow.
    #[error("a {} needs depth {} or deeper", .0.name(), .0.min_depth())]
    RoomTooShallow(RoomChoice),
    /// The host's floor does not fit in Angband's level.
    #[error("{0}")]
    FloorTooLarge(FloorTooLarge),
}

/// Checks a request for the level at `depth` (forcing a room, on a host's floor): the
/// depth as the rules use it, or why no level can be made.
pub fn check_request(
    depth: u32,
    force_room: Option<RoomChoice>,
    host_floor: Option<&FloorGrid>,
) -> Result<i32, LevelRefusal> {
    let depth = i32::try_from(depth)
        .ok()
        .filter(|d| (1..=MAX_DRAW_LEVEL).contains(d))
        .ok_or(LevelRefusal::DepthOutOfRange(depth))?;
    if let Some(kind) = force_room
        && depth < kind.min_depth()
    {
        return Err(LevelRefusal::RoomTooShallow(kind));
    }
    if let Some(grid) = host_floor {
        cave_of_floor(grid).map_err(LevelRefusal::FloorTooLarge)?;
    }
    Ok(depth)
}

/// What an object is worth to the level rating, as a game's own object rules say (an
/// override of the rules' own objects for the rooms' spots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Appraisal {
    /// Rating it adds (an out-of-depth object its kind level minus the depth, an
    /// artifact 10 or 20, an ego item its bonus).
    pub rating: i32,
    /// Whether it is an artifact (which makes the level special unless in preserve mode).
    pub artifact: bool,
}

/// How a classic level is judged: the autoscummer, preserve mode, the game turns since
/// the last level was made (fewer than 1,000 feel like any other), and a game's own
/// appraisal of the objects the rooms ask for, if it has one.
pub struct Judge<A: FnMut(&ObjectSpot) -> Option<Appraisal>> {
    /// The autoscummer's setting.
    pub autoscum: Autoscum,
    /// Preserve mode: no level feels special (the flag is still set), and the artifacts of
    /// a thrown-away level can be made again.
    pub preserve: bool,
    /// Game turns since the last level was made (`None` before the first).
    pub turns_since_last: Option<u64>,
    /// A game's own rating of a room's object or gold spot: `Some` says the game makes its
    /// own object there, which adds what it says, and the rules' object on that spot goes
    /// (its artifact given back); `None` keeps the rules' object.
    pub appraise: A,
}

/// A classic level the autoscummer kept, judged.
#[derive(Clone, Debug)]
pub struct KeptLevel {
    /// The level.
    pub level: Level,
    /// The uniques ledger with this level's uniques alive.
    pub ledger: UniqueLedger,
    /// The whole rating: rooms, monsters and appraised objects.
    pub rating: i32,
    /// Whether a room or an artifact made the level special.
    pub special: bool,
    /// The level's feeling.
    pub feeling: Feeling,
    /// Levels the autoscummer made and threw away before this one.
    pub rejected: u32,
    /// Levels made again before this one because their monster or object list filled.
    pub remade: u32,
}

/// What a level is stocked from: the monster allocator and the uniques alive, the object
/// rules and the artifacts already made.
pub struct Stock<'a> {
    /// The monster allocator.
    pub allocator: &'a Allocator,
    /// The uniques alive before the level (each attempt starts from them).
    pub uniques: &'a UniqueLedger,
    /// The kinds, ego items and artifacts.
    pub objects: &'a ObjectRules,
    /// The artifacts already made in the game.
    pub artifacts: &'a mut ArtifactLedger,
}

/// Makes classic levels at `depth` until one is kept: each is built and furnished with
/// its objects, a level whose monster or object list filled is made again, and the
/// judge's autoscummer may throw the others away. Each attempt starts from the stock's
/// uniques as they were: a thrown-away level's uniques go back to the pool. Its artifacts
/// stay made (in preserve mode they are given back).
pub fn keep_classic_level<A: FnMut(&ObjectSpot) -> Option<Appraisal>>(
    rng: &mut Generator,
    depth: i32,
    options: &LevelOptions,
    vaults: &VaultTemplates,
    stock: Stock<'_>,
    judge: &mut Judge<A>,
) -> KeptLevel {
    let Stock {
        allocator,
        uniques: ledger,
        objects: rules,
        artifacts,
    } = stock;
    // In preserve mode every attempt starts from the artifacts made before the first:
    // the ones a thrown-away level made are available again.
    let preserved = judge.preserve.then(|| artifacts.clone());
    let (mut kept, discarded) = judge.autoscum.keep(depth, || {
        let mut live = ledger.clone();
        if let Some(before) = &preserved {
            artifacts.clone_from(before);
        }
        let mut level = Level::build_with(rng, depth, options, allocator, &mut live, vaults);
        level.furnish(rng, rules, artifacts);
        let (mut rating, mut special) = (level.rating(), level.layout.special_feeling);
        // A game that rates a room's spot makes its own object there: the rules' object
        // or gold on that spot goes, its artifact given back.
        let overrides: Vec<Option<Appraisal>> = level
            .layout
            .objects
            .iter()
            .map(&mut judge.appraise)
            .collect();
        let overridden = |spot: Option<usize>| spot.and_then(|i| overrides[i]).is_some();
        level.objects.retain(|placed| {
            let keep = !overridden(placed.spot);
            if let (false, Some(artifact)) = (keep, placed.object.artifact) {
                artifacts.give_back(artifact);
            }
            keep
        });
        level.gold.retain(|placed| !overridden(placed.spot));
        for appraisal in overrides.iter().flatten() {
            rating = rating.saturating_add(appraisal.rating);
            special |= appraisal.artifact;
        }
        let (objects, artifact) = level.object_rating();
        rating = rating.saturating_add(objects);
        special |= artifact;
        let feeling = Feeling::of(rating, special, judge.preserve, judge.turns_since_last);
        let full = level.is_full();
        let kept = KeptLevel {
            level,
            ledger: live,
            rating,
            special,
            feeling,
            rejected: 0,
            remade: 0,
        };
        Made {
            level: kept,
            feeling,
            full,
        }
    });
    kept.rejected = discarded.rejected;
    kept.remade = discarded.remade;
    kept
}

/// The player left a level and its monsters are gone (2.7.9 wipes a level on leaving):
/// every unique among `races` still alive goes back to the pool and can appear again.
/// Killed uniques stay killed. Returns how many went back.
pub fn leave_level(ledger: &mut UniqueLedger, races: impl IntoIterator<Item = RaceId>) -> usize {
    races
        .into_iter()
        .filter(|&race| ledger.remove(race))
        .count()
}

/// A trap that sprang: its kind, what it rolled, and the monsters a summoning rune called.
#[derive(Clone, Debug)]
pub struct SprungTrap<'t> {
    /// The kind, chosen as the trap springs (uniform over the kinds).
    pub kind: &'t TrapKind,
    /// What it rolled.
    pub outcome: Springing,
    /// A summoning rune's monsters round the player, their uniques alive in the ledger.
    pub summoned: Vec<Monster>,
}

/// The player at `at` on `grid` (the level of `depth`, a quest level or not) springs a
/// hidden trap with this armour: the kind is chosen (no trap door where there is no way
/// down), rolled, and a summoning rune's monsters are placed round the player on the
/// floor's free squares. A floor larger than Angband's, or a square off the map, gets no
/// summons.
#[allow(clippy::too_many_arguments)]
pub fn spring_trap<'t>(
    traps: &'t Traps,
    rng: &mut Generator,
    grid: &FloorGrid,
    at: Square,
    armour: i32,
    (depth, quest): (i32, bool),
    allocator: &Allocator,
    ledger: &mut UniqueLedger,
) -> SprungTrap<'t> {
    let depth = depth.clamp(1, MAX_DRAW_LEVEL);
    let kind = traps.choose(rng, quest || depth >= MAX_DRAW_LEVEL);
    let outcome = kind.spring(rng, armour, depth);
    let summoned = match outcome.summons {
        Some((count, level)) => {
            summon_round(rng, grid, at, (depth, count, level), allocator, ledger)
        }
        None => Vec::new(),
    };
    SprungTrap {
        kind,
        outcome,
        summoned,
    }
}

/// A summoning rune's `count` calls at monster `level` round `at` on `grid`.
fn summon_round(
    rng: &mut Generator,
    grid: &FloorGrid,
    at: Square,
    (depth, count, level): (i32, i32, i32),
    allocator: &Allocator,
    ledger: &mut UniqueLedger,
) -> Vec<Monster> {
    let Ok(mut cave) = cave_of_floor(grid) else {
        return Vec::new();
    };
    let (Ok(y), Ok(x)) = (i32::try_from(at.y), i32::try_from(at.x)) else {
        return Vec::new();
    };
    let player = Pos::new(y, x);
    if !Cave::on_map(player) {
        return Vec::new();
    }
    cave.set_player(player);
    let mut populator = Populator::new(allocator, ledger, depth);
    for _ in 0..count {
        populator.summon(&mut cave, rng, player, level);
    }
    populator.monsters
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::Races;
    use crate::streams::level_stream;

    #[test]
    fn requests_outside_the_rules_are_refused() {
        assert_eq!(check_request(1, None, None), Ok(1));
        assert_eq!(check_request(127, None, None), Ok(127));
        assert_eq!(
            check_request(0, None, None),
            Err(LevelRefusal::DepthOutOfRange(0))
        );
        assert_eq!(
            check_request(128, None, None),
            Err(LevelRefusal::DepthOutOfRange(128))
        );
        let vault = RoomChoice::GreaterVault;
        assert_eq!(
            check_request(vault.min_depth() as u32 - 1, Some(vault), None),
            Err(LevelRefusal::RoomTooShallow(vault))
        );
        assert_eq!(
            check_request(vault.min_depth() as u32, Some(vault), None),
            Ok(vault.min_depth())
        );
        let wide = FloorGrid::new(199, 3).unwrap();
        assert!(matches!(
            check_request(5, None, Some(&wide)),
            Err(LevelRefusal::FloorTooLarge(_))
        ));
        assert!(is_quest_depth(99) && is_quest_depth(100) && !is_quest_depth(98));
    }

    #[test]
    fn leaving_a_level_frees_its_living_uniques_only() {
        let races = Races::shipped();
        let uniques: Vec<RaceId> = races
            .all()
            .iter()
            .filter(|r| r.is_unique())
            .map(|r| r.id)
            .take(3)
            .collect();
        let mut ledger = UniqueLedger::new();
        ledger.insert(uniques[0]);
        ledger.insert(uniques[1]);
        ledger.kill(uniques[2]);
        // The level held the first and the killed one (its body), and an ordinary race.
        let ordinary = races.all().iter().find(|r| !r.is_unique()).unwrap().id;
        let freed = leave_level(&mut ledger, [uniques[0], uniques[2], ordinary]);
        assert_eq!(freed, 1);
        assert!(!ledger.refuses(uniques[0]));
        assert!(
            ledger.is_alive(uniques[1]),
            "a unique of another level stays"
        );
        assert!(ledger.is_killed(uniques[2]), "a killed unique stays killed");
    }

    fn judge(
        autoscum: Autoscum,
        preserve: bool,
        artifact: bool,
    ) -> Judge<impl FnMut(&ObjectSpot) -> Option<Appraisal>> {
        Judge {
            autoscum,
            preserve,
            turns_since_last: None,
            appraise: move |_: &ObjectSpot| {
                artifact.then_some(Appraisal {
                    rating: 1_000,
                    artifact,
                })
            },
        }
    }

    /// Keeps a level at `depth` with fresh stock.
    fn keep(
        rng: &mut Generator,
        depth: i32,
        options: &LevelOptions,
        judge: &mut Judge<impl FnMut(&ObjectSpot) -> Option<Appraisal>>,
    ) -> KeptLevel {
        let mut allocator = Allocator::new(Races::shipped());
        let mut objects = ObjectRules::shipped();
        let mut artifacts = ArtifactLedger::new();
        let stock = Stock {
            allocator: &mut allocator,
            uniques: &UniqueLedger::new(),
            objects: &mut objects,
            artifacts: &mut artifacts,
        };
        keep_classic_level(
            rng,
            depth,
            options,
            crate::layout::shipped_vaults(),
            stock,
            judge,
        )
    }

    fn kept(
        seed: u64,
        depth: i32,
        judge: &mut Judge<impl FnMut(&ObjectSpot) -> Option<Appraisal>>,
    ) -> KeptLevel {
        let mut rng = level_stream(denizen_core::WorldSeed(seed), depth as u32, 0);
        keep(&mut rng, depth, &LevelOptions::default(), judge)
    }

    #[test]
    fn the_kept_level_is_the_one_built_when_nothing_is_rejected() {
        let kept = kept(3, 20, &mut judge(Autoscum::Off, false, false));
        let allocator = Allocator::new(Races::shipped());
        let mut live = UniqueLedger::new();
        let mut rng = level_stream(denizen_core::WorldSeed(3), 20, 0);
        let mut level = Level::build(
            &mut rng,
            20,
            &LevelOptions::default(),
            &allocator,
            &mut live,
        );
        level.furnish(
            &mut rng,
            &ObjectRules::shipped(),
            &mut ArtifactLedger::new(),
        );
        let (objects, artifact) = level.object_rating();
        assert_eq!(kept.rejected, 0);
        assert_eq!(kept.level.monsters, level.monsters);
        assert_eq!(kept.level.objects, level.objects);
        assert_eq!(
            kept.rating,
            level.rating() + objects,
            "the objects add theirs"
        );
        assert_eq!(kept.ledger, live);
        let special = level.layout.special_feeling || artifact;
        assert_eq!(
            kept.feeling,
            Feeling::of(level.rating() + objects, special, false, None)
        );
    }

    #[test]
    fn an_appraisal_replaces_the_rules_objects_on_the_rooms_spots() {
        // A level with objects: a forced lesser vault asks for some.
        let vault_level = |preserve, appraised| {
            let mut rng = level_stream(denizen_core::WorldSeed(4), 30, 0);
            let mut options = LevelOptions::default();
            options.layout.force_room = Some(RoomChoice::LesserVault);
            keep(
                &mut rng,
                30,
                &options,
                &mut judge(Autoscum::Off, preserve, appraised),
            )
        };
        let rules = vault_level(false, false);
        let spots = rules.level.layout.objects.len() as i32;
        assert!(spots > 0);
        assert!(rules.level.objects.iter().any(|o| o.spot.is_some()));
        // Every spot the game's: worth 1,000 each, and the rules' objects there gone.
        let game = vault_level(false, true);
        assert!(game.level.objects.iter().all(|o| o.spot.is_none()));
        assert!(game.level.gold.iter().all(|g| g.spot.is_none()));
        assert!(game.rating >= 1_000 * spots, "{}", game.rating);
        assert!(rules.rating < 1_000, "{}", rules.rating);
        assert_eq!(game.feeling, Feeling::Special);
        let preserved = vault_level(true, true);
        assert!(
            preserved.special,
            "special, but preserve mode says nothing of it"
        );
        assert_ne!(preserved.feeling, Feeling::Special);
    }

    /// A judge whose game makes an artifact on the first `artifacts` of the rooms' spots.
    fn artifacts_on_first_spots(
        artifacts: usize,
    ) -> Judge<impl FnMut(&ObjectSpot) -> Option<Appraisal>> {
        let mut seen = 0;
        Judge {
            autoscum: Autoscum::Off,
            preserve: false,
            turns_since_last: None,
            appraise: move |_: &ObjectSpot| {
                seen += 1;
                (seen <= artifacts).then_some(Appraisal {
                    rating: 0,
                    artifact: true,
                })
            },
        }
    }

    /// The spoiler's special feeling: a level is special when its layout is (a vault or a
    /// nest), when any artifact lies on it, or when the game says it made one.
    #[test]
    fn a_level_is_special_by_its_rooms_or_any_artifact() {
        let has_artifact = |kept: &KeptLevel| {
            kept.level
                .objects
                .iter()
                .any(|o| o.object.artifact.is_some())
        };
        // A vault and an artifact of the rules: special, once for each reason.
        let mut options = LevelOptions::default();
        options.layout.force_room = Some(RoomChoice::LesserVault);
        let vaults: Vec<KeptLevel> = (0..40)
            .map(|seed| {
                let mut rng = level_stream(denizen_core::WorldSeed(seed), 50, 0);
                keep(
                    &mut rng,
                    50,
                    &options,
                    &mut judge(Autoscum::Off, false, false),
                )
            })
            .collect();
        assert!(vaults.iter().all(|kept| kept.special));
        assert!(
            vaults.iter().any(has_artifact),
            "some vault holds an artifact"
        );
        // Levels of plain rooms with no artifact: special by the game's artifacts only,
        // one or two of them.
        let plain: Vec<u64> = (0..200)
            .filter(|&seed| {
                let kept = kept(seed, 30, &mut artifacts_on_first_spots(0));
                !kept.special && kept.level.layout.objects.len() >= 2
            })
            .take(3)
            .collect();
        assert!(!plain.is_empty(), "some plain level has two room spots");
        for seed in plain {
            for artifacts in [1, 2] {
                let kept = kept(seed, 30, &mut artifacts_on_first_spots(artifacts));
                assert!(kept.special, "seed {seed}, {artifacts} artifacts");
                assert!(!has_artifact(&kept));
            }
        }
    }

    #[test]
    fn the_autoscummer_keeps_only_a_level_it_accepts() {
        let kept = (5..40)
            .map(|seed| kept(seed, 40, &mut judge(Autoscum::Always, false, false)))
            .find(|kept| kept.rejected > 0)
            .expect("depth 40 throws some levels away");
        // The spoiler's chart: from depth 40 a level is kept at rating 41 or more, or
        // when special or "like any other".
        assert!(
            kept.rating >= 41
                || matches!(kept.feeling, Feeling::Special | Feeling::LooksLikeAnyOther),
            "{:?}",
            kept.feeling
        );
        // The ledger holds the kept level's uniques only, not a thrown-away level's.
        let races = Races::shipped();
        let mut on_level: Vec<RaceId> = kept
            .level
            .monsters
            .iter()
            .map(|m| m.race)
            .filter(|&r| races.get(r).is_some_and(|r| r.is_unique()))
            .collect();
        on_level.sort();
        on_level.dedup();
        assert_eq!(kept.ledger.iter().collect::<Vec<_>>(), on_level);
    }

    /// One trap sprung by the player at (3, 2) of `grid` on a level of `depth`, from the
    /// stream of `seed`.
    fn spring<'t>(
        traps: &'t Traps,
        allocator: &Allocator,
        grid: &FloorGrid,
        seed: u64,
        (depth, quest): (i32, bool),
    ) -> SprungTrap<'t> {
        let mut rng = level_stream(denizen_core::WorldSeed(seed), depth as u32, 0);
        let player = Square { x: 3, y: 2 };
        let mut ledger = UniqueLedger::new();
        spring_trap(
            traps,
            &mut rng,
            grid,
            player,
            10,
            (depth, quest),
            allocator,
            &mut ledger,
        )
    }

    #[test]
    fn traps_spring_by_the_rules() {
        let traps = Traps::shipped();
        let allocator = Allocator::new(Races::shipped());
        let grid =
            FloorGrid::from_rows(&["#######", "#.....#", "#.....#", "#.....#", "#######"]).unwrap();
        let player = Square { x: 3, y: 2 };
        let mut summoned = 0;
        for seed in 0..400 {
            let sprung = spring(traps, &allocator, &grid, seed, (5, true));
            assert_ne!(
                sprung.kind.effect,
                crate::trap::Effect::Fall,
                "no trap door on a quest level"
            );
            if sprung.outcome.summons.is_none() {
                assert!(
                    sprung.summoned.is_empty(),
                    "only a summoning rune calls monsters"
                );
            }
            for monster in &sprung.summoned {
                let at = monster.at.square();
                assert!(grid.is_acceptable(at) && at != player);
                assert!(at.x.abs_diff(player.x) <= 3 && at.y.abs_diff(player.y) <= 3);
            }
            summoned += sprung.summoned.len();
        }
        assert!(summoned > 0, "some of 400 traps are summoning runes");
        // No way down from depth 127 either (source notes 9); one level up, a trap door is
        // one kind in sixteen.
        let falls = |depth| {
            (0..400)
                .filter(|&seed| {
                    let sprung = spring(traps, &allocator, &grid, seed, (depth, false));
                    sprung.kind.effect == crate::trap::Effect::Fall
                })
                .count()
        };
        assert_eq!(falls(MAX_DRAW_LEVEL), 0);
        assert!(falls(MAX_DRAW_LEVEL - 1) > 0);
        // On a floor larger than Angband's, nothing is summoned.
        let wide = FloorGrid::new(300, 3).unwrap();
        for seed in 0..200 {
            assert!(
                spring(traps, &allocator, &wide, seed, (5, false))
                    .summoned
                    .is_empty()
            );
        }
    }
}
