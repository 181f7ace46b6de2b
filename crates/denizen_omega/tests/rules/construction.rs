//! Construction against the source's numbers: the sleep roll, the log adventurer's
//! reservoir sampling, `determine_npc_behavior` (hostility and the combat types), and
//! names missing from a game's own data.

use denizen_core::ChiSquared;
use denizen_core::DataFile;
use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::bestiary::OMEGA_BESTIARY;
use denizen_omega::construct::{Adventurer, Builder, Monster};
use denizen_omega::objects::ItemLedger;
use denizen_omega::*;

use crate::omega;

/// Builds `n` monsters of one species at a difficulty with a chronicle.
fn build(
    bestiary: &Bestiary,
    key: &str,
    chronicle: &Chronicle,
    difficulty: i64,
    n: usize,
) -> Vec<Monster> {
    let mut ledger = ItemLedger::new(bestiary.items());
    let mut builder = Builder {
        bestiary,
        ledger: &mut ledger,
        chronicle,
        preference: Preference::Either,
        temple_deity: None,
        difficulty,
    };
    let id = bestiary.species_id(key).unwrap();
    let mut rng = WorldSeed(n as u64).stream(StreamPurpose::new("construct").with_str(key));
    (0..n).map(|_| builder.build(&mut rng, id)).collect()
}

/// A log with one adventurer of this behaviour code.
fn log_of(behaviour: i32) -> Chronicle {
    Chronicle {
        adventurers: vec![Adventurer {
            name: "Sam".into(),
            level: 4,
            dead: false,
            behaviour,
        }],
        ..Chronicle::default()
    }
}

/// "Sleep roll strictly greater": a template of sleep rating 0 wakes when `0 < R(100)`,
/// 9,900 buckets of 10,000; a rating of 100 never wakes.
#[test]
fn the_sleep_roll_wakes_below_the_rating() {
    let rules = omega();
    let n = 20_000;
    let goblins = build(&rules.bestiary, "goblin", &Chronicle::default(), 1, n);
    let awake = goblins.iter().filter(|m| m.awake()).count() as f64;
    let sigma = (n as f64 * 0.99 * 0.01).sqrt();
    assert!((awake - 0.99 * n as f64).abs() < 4.0 * sigma, "{awake}");
    let blippers = build(&rules.bestiary, "blipper", &Chronicle::default(), 1, 2_000);
    assert_eq!(rules.bestiary.get(blippers[0].species).sleep, 100);
    assert!(blippers.iter().all(|m| !m.awake()));
}

/// A made creature carries its own status word, the template's to begin with: a phantom
/// (mobile, hostile, flying, intangible, invisible) keeps every flag, and the sleep roll
/// adds only `AWAKE`.
#[test]
fn a_creature_starts_with_its_templates_status_word() {
    let rules = omega();
    let phantoms = build(&rules.bestiary, "phantom", &Chronicle::default(), 1, 200);
    let template = rules.bestiary.get(phantoms[0].species).statuses();
    assert_eq!(
        template,
        StatusSet::MOBILE
            | StatusSet::HOSTILE
            | StatusSet::FLYING
            | StatusSet::INTANGIBLE
            | StatusSet::INVISIBLE
    );
    for m in &phantoms {
        assert_eq!(m.status.difference(StatusSet::AWAKE), template);
    }
}

/// `make_log_npc` picks each of N log lines with chance 1/N (reservoir sampling with
/// `R(n) == 0` for the n-th line).
#[test]
fn log_adventurers_are_picked_uniformly() {
    let rules = omega();
    let names = ["Ann", "Bob", "Cid", "Dee"];
    let chronicle = Chronicle {
        adventurers: names
            .iter()
            .map(|name| Adventurer {
                name: (*name).into(),
                level: 3,
                dead: false,
                behaviour: 2718,
            })
            .collect(),
        ..Chronicle::default()
    };
    let made = build(&rules.bestiary, "log_npc", &chronicle, 3, 40_000);
    let counts: Vec<u64> = names
        .iter()
        .map(|n| {
            made.iter()
                .filter(|m| m.name.as_deref() == Some(*n))
                .count() as u64
        })
        .collect();
    let p = ChiSquared::against(&counts, [0.25; 4]).p_value();
    assert!(p > 1e-6, "{counts:?}: p = {p}");
}

/// `determine_npc_behavior`: hostile when the competence is below twice the difficulty.
#[test]
fn adventurers_weaker_than_twice_the_difficulty_are_hostile() {
    let rules = omega();
    for (behaviour, difficulty, hostile) in [
        (2518, 3, true),
        (2618, 3, false),
        (2318, 2, true),
        (2418, 2, false),
        (2018, 1, true),
    ] {
        let m = &build(
            &rules.bestiary,
            "log_npc",
            &log_of(behaviour),
            difficulty,
            1,
        )[0];
        assert_eq!(
            m.hostile(),
            hostile,
            "behaviour {behaviour} at difficulty {difficulty}"
        );
        assert_eq!(m.stats.level, (behaviour % 1000) / 100);
        assert_eq!(
            m.stats.hp,
            5 * 20,
            "(level + 1) x 20 for a level-4 adventurer"
        );
    }
}

/// `determine_npc_behavior`'s combat types (Omega's `mon.c`; the source notes say only
/// that they depend on the combat type): melee damage 5c, hit 3c, speed 3; missile 3c, 2c,
/// 4; spellcasting c, c, 6; thievery and flight c, c, 3; for competence c.
#[test]
fn combat_types_set_damage_hit_and_speed() {
    let rules = omega();
    for (combat, damage, hit, speed) in [
        (1, 35, 21, 3),
        (2, 21, 14, 4),
        (3, 7, 7, 6),
        (4, 7, 7, 3),
        (5, 7, 7, 3),
    ] {
        let behaviour = 2700 + combat * 10 + 8;
        let m = &build(&rules.bestiary, "log_npc", &log_of(behaviour), 3, 1)[0];
        let got = (m.stats.damage, m.stats.hit, m.stats.speed);
        assert_eq!(got, (damage, hit, speed), "combat type {combat}");
        assert_eq!(m.stats.xp, 7 * 20);
    }
}

/// A game's own bestiary whose species need a name list it does not give is refused, at
/// the first species that needs it: an occupation without `names.occupations`, an angel
/// without `names.deities`.
#[test]
fn constructions_need_their_name_lists() {
    let emptied = |list: &str| {
        let text = OMEGA_BESTIARY.to_owned();
        let start = text.find(&format!("{list}: [")).unwrap();
        let end = start + text[start..].find(']').unwrap();
        format!("{}{list}: [{}", &text[..start], &text[end..])
    };
    let err = Bestiary::from_file(DataFile::new("plain.ron", &emptied("occupations")))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("field `construction`: Occupation needs the `names.occupations` list"),
        "{err}"
    );
    let err = Bestiary::from_file(DataFile::new("plain.ron", &emptied("deities")))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("field `construction`: Angel needs the `names.deities` list"),
        "{err}"
    );
}

/// A new game's hall of fame (the shipped `omega.hi`): at difficulty 4 an officeholder is
/// hostile when their competence is below 8. The high priests of Athena, Hecate and the
/// Balance, the Archmage and the Prime Sorceror have competence 9 (codes 2931, 2932,
/// 2933); everyone else 7. (The Archmage is never hostile.)
#[test]
fn a_new_games_officeholders_by_competence() {
    let rules = omega();
    let chronicle = Chronicle::new_game();
    let names = [
        "Zippy",
        "Gallow",
        "Kharst",
        "Allana",
        "Dara",
        "Thistleman",
        "Humperdinck",
        "Shadowspawn",
        "Sonders",
        "Oz",
        "Blackskull",
        "Spartacus",
        "Cormorant",
        "Arioch",
        "Ariel",
    ];
    let competence = [7, 7, 7, 9, 9, 9, 7, 7, 7, 9, 9, 7, 7, 7, 7];
    let mut seen = [false; 15];
    for m in build(&rules.bestiary, "hiscore_npc", &chronicle, 4, 600) {
        let Identity::Officeholder { role } = m.identity else {
            panic!("{:?}", m.identity)
        };
        let role = usize::from(role);
        seen[role] = true;
        assert_eq!(m.name.as_deref(), Some(names[role]));
        assert_eq!(m.stats.level, competence[role], "{}", names[role]);
        let hostile = competence[role] < 8 && role != 9;
        assert_eq!(m.hostile(), hostile, "{} at difficulty 4", names[role]);
    }
    assert!(seen.iter().all(|&s| s), "every office drawn: {seen:?}");
}

/// A new game's log (the shipped `omega.log`): four adventurers, each drawn a quarter of
/// the time; Caspar died at level 2 and returns in a ghost's body with the behaviour
/// code's numbers, as measured by running Omega 0.90.4's own code: hp 60, hit 3, ac 10,
/// damage 5, speed 3, level 1, experience 20, awake every time (behaviour 1118: melee,
/// competence 1, so hostile at difficulty 3). The ghost template alone would give
/// 32 / 0 / 10 / 0 / 20 / 2 / 30, asleep and peaceful.
#[test]
fn a_new_games_dead_adventurer_returns_as_a_ghost() {
    let rules = omega();
    let chronicle = Chronicle::new_game();
    let made = build(&rules.bestiary, "log_npc", &chronicle, 3, 4_000);
    let ghosts: Vec<&Monster> = made
        .iter()
        .filter(|m| {
            m.identity
                == Identity::Adventurer {
                    dead: true,
                    level: 2,
                }
        })
        .collect();
    let sigma = (4_000.0_f64 * 0.25 * 0.75).sqrt();
    assert!(
        (ghosts.len() as f64 - 1_000.0).abs() < 4.0 * sigma,
        "{}",
        ghosts.len()
    );
    for ghost in ghosts {
        assert_eq!(
            ghost.name.as_deref(),
            Some("ghost named Caspar (The Friendly Ghost)")
        );
        assert_eq!(rules.bestiary.get(ghost.form).key, "ghost");
        let s = ghost.stats;
        assert_eq!(
            (s.hp, s.hit, s.ac, s.damage, s.speed, s.level, s.xp),
            (60, 3, 10, 5, 3, 1, 20)
        );
        // The behaviour step replaces the status word: awake, mobile, wandering and (at
        // competence 1 < 2 x 3) hostile. The ghost's body is intangible; Caspar is not,
        // as in the original.
        assert!(rules.bestiary.get(ghost.form).has(Status::Intangible));
        assert_eq!(
            ghost.status,
            StatusSet::AWAKE | StatusSet::MOBILE | StatusSet::WANDERING | StatusSet::HOSTILE
        );
    }
    // The living three keep their names and the behaviour code's numbers: Vlad Tepes,
    // 2618, a melee fighter of competence 6 (damage 30, hit 18).
    let vlad = made
        .iter()
        .find(|m| m.name.as_deref() == Some("Vlad Tepes"))
        .unwrap();
    assert_eq!(
        (vlad.stats.damage, vlad.stats.hit, vlad.stats.level),
        (30, 18, 6)
    );
}
