//! Nests, pits, vaults and feelings against the spoiler's and the source notes' tables.

use denizen_angband::cave::{Cave, Pos, terrain};
use denizen_angband::den::{self, DenKind};
use denizen_angband::layout::Inhabit;
use denizen_angband::population::{Placement, Populator};
use denizen_angband::{Allocator, Races, SpecialRoom, UniqueLedger};
use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

#[test]
fn special_feeling_tables_match_the_spoiler() {
    // The spoiler's nest and pit table (depth, percent), read strictly: a roll of 1-299.
    let nest = [
        (1, 100.0),
        (17, 100.0),
        (18, 92.0),
        (20, 74.6),
        (22, 61.6),
        (25, 47.8),
        (28, 38.1),
        (30, 33.2),
        (32, 29.2),
        (35, 24.4),
        (40, 18.7),
        (41, 0.0),
        (127, 0.0),
    ];
    for (depth, percent) in nest {
        for room in [SpecialRoom::Nest, SpecialRoom::Pit] {
            let p = room.special_test(depth).chance() * 100.0;
            assert!((p - percent).abs() < 0.05, "{room:?} at {depth}: {p}");
        }
    }
    // The vault table: always to 59, 99.5% at 60 (399 of 401), ...
    let vault = [
        (1, 100.0),
        (59, 100.0),
        (60, 99.5),
        (62, 82.3),
        (65, 63.7),
        (67, 54.7),
        (70, 44.3),
        (75, 32.5),
        (80, 24.9),
        (90, 16.0),
        (100, 11.1),
        (110, 8.1),
    ];
    for (depth, percent) in vault {
        for room in [SpecialRoom::LesserVault, SpecialRoom::GreaterVault] {
            let p = room.special_test(depth).chance() * 100.0;
            assert!((p - percent).abs() < 0.05, "{room:?} at {depth}: {p}");
        }
    }
    assert_eq!(
        SpecialRoom::LesserVault.special_test(60).chance(),
        399.0 / 401.0
    );
}

#[test]
fn nest_and_pit_kinds_follow_the_roll_ranges() {
    // Nests: 1-29 jelly, 30-49 animal, 50+ undead, out of randint(depth).
    let nests = DenKind::odds(60, false);
    assert_eq!(
        nests,
        [
            (DenKind::NestJelly, 29.0 / 60.0),
            (DenKind::NestAnimal, 20.0 / 60.0),
            (DenKind::NestUndead, 11.0 / 60.0),
        ]
    );
    assert_eq!(DenKind::odds(5, false), [(DenKind::NestJelly, 1.0)]);
    // Pits at 100: orc 1-19, troll 20-39, giant 40-59, the dragons 3, 3, 3, 3, 3 and 5,
    // demon 80-100.
    let pits: Vec<f64> = DenKind::odds(100, true)
        .iter()
        .map(|&(_, p)| p * 100.0)
        .collect();
    let expected = [19.0, 20.0, 20.0, 3.0, 3.0, 3.0, 3.0, 3.0, 5.0, 21.0];
    assert_eq!(pits.len(), expected.len());
    for (p, e) in pits.iter().zip(expected) {
        assert!((p - e).abs() < 1e-9, "{pits:?}");
    }
    assert_eq!(DenKind::odds(19, true), [(DenKind::PitOrc, 1.0)]);
}

/// The kinds' names on the command line (`denizen angband draw-odds <KIND>`; not a rule
/// of 2.7.9), each read back to its kind.
#[test]
fn the_den_kinds_have_their_command_line_names() {
    let names: Vec<&str> = DenKind::ALL.iter().map(|kind| kind.name()).collect();
    assert_eq!(
        names,
        [
            "nest-jelly",
            "nest-animal",
            "nest-undead",
            "pit-orc",
            "pit-troll",
            "pit-giant",
            "pit-dragon-blue",
            "pit-dragon-white",
            "pit-dragon-green",
            "pit-dragon-black",
            "pit-dragon-red",
            "pit-dragon-multihued",
            "pit-demon"
        ]
    );
    for kind in DenKind::ALL {
        assert_eq!(DenKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(DenKind::from_name("pit-dragon"), None);
}

/// A pit of demons at depth 25 draws at level 35, where only a boosted draw reaches a
/// demon: most of its draws fail, and each ring's races still share the draws that
/// succeed.
#[test]
fn a_rings_odds_are_shares_of_the_draws_that_succeed() {
    let allocator = Allocator::new(Races::shipped());
    let failure = allocator
        .odds(&DenKind::request(
            &DenKind::PitDemon.filter(),
            25,
            &UniqueLedger::new(),
        ))
        .failure;
    assert!(failure > 0.5, "failure {failure}");
    let rows = den::ring_odds(&allocator, DenKind::PitDemon, 25);
    for ring in 0..den::RINGS {
        let total: f64 = rows
            .iter()
            .filter(|&&(r, _, _)| r == ring)
            .map(|&(_, _, p)| p)
            .sum();
        assert!((total - 1.0).abs() < 1e-9, "ring {ring}: {total}");
    }
}

#[test]
fn each_kind_has_the_source_notes_candidates() {
    let allocator = Allocator::new(Races::shipped());
    // Candidate counts of the source notes: orc 8, troll 12, giant 8, demon 7; the
    // dragons 5, 5, 4, 4, 5, 4 (non-unique, with the exact breath sets).
    let candidates = |kind: DenKind| {
        let filter = kind.filter();
        allocator
            .races()
            .all()
            .iter()
            .filter(|r| filter.admits(r))
            .count()
    };
    let counts: Vec<usize> = [
        DenKind::PitOrc,
        DenKind::PitTroll,
        DenKind::PitGiant,
        DenKind::PitDemon,
        DenKind::PitDragonBlue,
        DenKind::PitDragonWhite,
        DenKind::PitDragonGreen,
        DenKind::PitDragonBlack,
        DenKind::PitDragonRed,
        DenKind::PitDragonMultihued,
        DenKind::NestJelly,
        DenKind::NestAnimal,
        DenKind::NestUndead,
    ]
    .into_iter()
    .map(candidates)
    .collect();
    assert_eq!(counts, [8, 12, 8, 7, 5, 5, 4, 4, 5, 4, 39, 151, 49]);
}

/// A cave whose pit interior round `centre` is open floor.
fn open_pit(centre: Pos) -> Cave {
    let mut cave = Cave::new();
    for dy in -2..=2 {
        for dx in -9..=9 {
            cave.set_terrain(Pos::new(centre.y + dy, centre.x + dx), terrain::FLOOR);
        }
    }
    cave
}

#[test]
fn sampled_pits_match_the_exact_ring_composition() {
    let races = Races::shipped();
    let allocator = Allocator::new(races.clone());
    let exact = den::ring_odds(&allocator, DenKind::PitOrc, 10);
    let centre = Pos::new(30, 100);
    // One grid of each ring, outside to centre.
    let ring_grid = [
        (-2, 0),
        (0, 8),
        (0, 6),
        (0, 4),
        (0, 2),
        (1, 0),
        (0, 1),
        (0, 0),
    ];
    let mut counts: Vec<Vec<u64>> = vec![vec![0; races.len()]; den::RINGS];
    let mut rng = WorldSeed(13).stream(StreamPurpose::new("pits"));
    let mut live = UniqueLedger::new();
    for _ in 0..3000 {
        let mut cave = open_pit(centre);
        let mut populator = Populator::new(&allocator, &mut live, 10);
        assert!(populator.draw_den(&mut rng, centre, true, 10));
        populator.fill_den(&mut cave, &mut rng, centre);
        assert_eq!(populator.monsters.len(), 95);
        assert!(
            populator
                .monsters
                .iter()
                .all(|m| m.placement == Placement::Pit && m.sleep == 0)
        );
        for (ring, &(dy, dx)) in ring_grid.iter().enumerate() {
            let at = Pos::new(centre.y + dy, centre.x + dx);
            let m = populator.monsters.iter().find(|m| m.at == at).unwrap();
            counts[ring][m.race.slot()] += 1;
        }
    }
    for (ring, counted) in counts.iter().enumerate() {
        let cells: Vec<(usize, f64)> = exact
            .iter()
            .filter(|&&(r, _, _)| r == ring)
            .map(|&(_, race, p)| (race.slot(), p))
            .collect();
        let total: f64 = cells.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "ring {ring} sums to {total}");
        let observed: Vec<u64> = cells.iter().map(|&(slot, _)| counted[slot]).collect();
        let seen: u64 = counted.iter().sum();
        assert_eq!(
            observed.iter().sum::<u64>(),
            seen,
            "ring {ring} drew a race the odds lack"
        );
        let p = ChiSquared::against(&observed, cells.iter().map(|&(_, p)| p)).p_value();
        assert!(p > 1e-6, "ring {ring}: p = {p}");
    }
    // The centre holds the deepest kinds: an Uruk more often than anything else.
    let uruk = races.by_name("Uruk").unwrap().id;
    let centre_uruk = exact
        .iter()
        .find(|&&(r, race, _)| r == 7 && race == uruk)
        .unwrap()
        .2;
    assert!(centre_uruk > 0.5, "{centre_uruk}");
}

#[test]
fn a_nest_fills_its_95_grids_awake_from_16_races() {
    let allocator = Allocator::new(Races::shipped());
    let mut live = UniqueLedger::new();
    let centre = Pos::new(20, 60);
    let mut cave = open_pit(centre);
    let mut rng = WorldSeed(3).stream(StreamPurpose::new("nest"));
    let mut populator = Populator::new(&allocator, &mut live, 12);
    assert!(populator.draw_den(&mut rng, centre, false, 12));
    populator.fill_den(&mut cave, &mut rng, centre);
    assert_eq!(populator.monsters.len(), 95);
    let record = &populator.dens[0];
    assert_eq!(record.kind, DenKind::NestJelly, "randint(12) is below 30");
    let drawn = record.races.unwrap();
    for m in &populator.monsters {
        assert!(drawn.contains(&m.race));
        assert_eq!((m.placement, m.sleep), (Placement::Nest, 0));
        let race = populator_race(m.race.0);
        assert!(!race.is_unique());
        assert!("ijm,".contains(race.symbol));
    }
}

fn populator_race(id: u16) -> denizen_angband::Race {
    Races::shipped()
        .get(denizen_angband::RaceId(id))
        .unwrap()
        .clone()
}
