//! The allocator against the allocation notes' numbers, and the weighted table against the
//! original's rejection loop.

use denizen_angband::alloc::{Allocator, DrawRequest, RaceFilter, UniqueLedger, draw_by_rejection};
use denizen_angband::{DenKind, RaceFlags, Races};
use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

/// The orc pit's filter: `o`, no uniques.
fn orc_pit() -> RaceFilter {
    DenKind::PitOrc.filter()
}

#[test]
fn the_orc_pit_worked_example_at_depth_10() {
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let filter = orc_pit();
    let odds = allocator.odds(&DrawRequest::new(20, 10, &live).filtered(&filter));
    // Allocation notes, "Worked example": an orc pit at depth 10 draws at level 20.
    let expected = [
        ("Snaga", 12.1),
        ("Cave orc", 12.9),
        ("Hill orc", 13.8),
        ("Orc shaman", 14.8),
        ("Black orc", 9.3),
        ("Half-orc", 6.8),
        ("Orc captain", 7.2),
        ("Uruk", 23.1),
    ];
    assert_eq!(odds.races.len(), expected.len());
    for (name, percent) in expected {
        let race = allocator.races().by_name(name).unwrap().id;
        let p = odds
            .races
            .iter()
            .find(|o| o.race == race)
            .unwrap()
            .probability;
        assert!(
            (p * 100.0 - percent).abs() < 0.05 + 1e-9,
            "{name}: {:.3}% against the notes' {percent}%",
            p * 100.0
        );
    }
    assert!(odds.failure < 1e-20);
}

/// A ledger with every unique alive but `left`, and a filter that admits only uniques:
/// drawn at level 127, nearly every pick is refused. With Bullroarer (level 5, one in 3)
/// alone left, a pick is kept only about once in 3,000, so the 10,000 picks all fail a
/// few draws in a hundred.
fn the_last_uniques(races: &Races, left: &[&str]) -> (UniqueLedger, RaceFilter) {
    let mut live = UniqueLedger::new();
    for race in races.all() {
        if race.is_unique() && !left.contains(&race.name.as_str()) {
            live.insert(race.id);
        }
    }
    let uniques = RaceFilter {
        required: RaceFlags::UNIQUE,
        ..RaceFilter::default()
    };
    (live, uniques)
}

#[test]
fn odds_sum_to_one_less_the_failure_and_skip_the_town() {
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    for level in [1, 5, 20, 40, 80, 127] {
        let odds = allocator.odds(&DrawRequest::new(level, level, &live));
        let total: f64 = odds.races.iter().map(|o| o.probability).sum();
        assert!(
            (total + odds.failure - 1.0).abs() < 1e-12,
            "level {level}: {total}"
        );
        for o in &odds.races {
            let race = allocator.races().get(o.race).unwrap();
            assert!(race.level > 0, "level {level} drew town race {}", race.name);
            assert!(i32::from(race.level) <= (level + 10).min(127));
        }
    }
    // With every pick but one kind refused, the failure is a real share of the draws.
    let (live_but_one, uniques) = the_last_uniques(allocator.races(), &["Bullroarer the Hobbit"]);
    let odds = allocator.odds(&DrawRequest::new(127, 127, &live_but_one).filtered(&uniques));
    assert_eq!(odds.races.len(), 1);
    assert!(
        (0.01..0.5).contains(&odds.failure),
        "failure {}",
        odds.failure
    );
    assert!((odds.races[0].probability + odds.failure - 1.0).abs() < 1e-12);
    // In the town only town races are drawn, evenly before rarity.
    let town = allocator.odds(&DrawRequest::new(0, 0, &live));
    assert_eq!(town.races.len(), 14);
}

#[test]
fn force_depth_and_live_uniques_are_refused() {
    let allocator = Allocator::new(Races::shipped());
    let races = allocator.races();
    let morgoth = races.by_name("Morgoth, Lord of Darkness").unwrap();
    assert!(morgoth.flags.contains(RaceFlags::FORCE_DEPTH));
    let mut live = UniqueLedger::new();
    let deep = |depth| {
        allocator
            .odds(&DrawRequest::new(127, depth, &live))
            .races
            .iter()
            .any(|o| o.race == morgoth.id)
    };
    assert!(deep(100));
    assert!(
        !deep(99),
        "FORCE_DEPTH checks the real depth, not the boosted level"
    );
    let grip = races.by_name("Grip, Farmer Maggot's dog").unwrap().id;
    let has_grip = |live: &UniqueLedger| {
        allocator
            .odds(&DrawRequest::new(2, 2, live))
            .races
            .iter()
            .any(|o| o.race == grip)
    };
    assert!(has_grip(&live));
    live.insert(grip);
    assert!(!has_grip(&live));
    // A unique given back (its level thrown away) is drawn again; a killed one never.
    live.remove(grip);
    assert!(has_grip(&live));
    live.kill(grip);
    assert!(!has_grip(&live));
    assert!(!live.insert(grip), "a killed unique is not placed again");
}

#[test]
fn a_saved_ledger_is_put_in_order_when_read() {
    let ledger: UniqueLedger =
        ron::from_str("(alive: [(46), (12), (46), (30)], killed: [(30), (7)])").unwrap();
    let alive: Vec<u16> = ledger.iter().map(|r| r.0).collect();
    let killed: Vec<u16> = ledger.killed().map(|r| r.0).collect();
    assert_eq!(alive, [12, 46]);
    assert_eq!(killed, [7, 30]);
    assert!(ledger.is_alive(denizen_angband::RaceId(46)));
    assert!(ledger.refuses(denizen_angband::RaceId(30)));
}

/// A ledger built by hand (or read from a save of other data) keeps only the uniques of
/// the races loaded, and says how many entries it dropped.
#[test]
fn a_ledger_keeps_only_the_uniques_of_its_races() {
    let races = Races::shipped();
    let id = |name| races.by_name(name).unwrap().id;
    let mut ledger = UniqueLedger::new();
    assert!(ledger.is_empty());
    ledger.insert(id("Grishnakh, the Hill Orc"));
    ledger.insert(id("Snaga"));
    ledger.insert(denizen_angband::RaceId(9_999));
    ledger.kill(id("Lagduf, the Snaga"));
    ledger.kill(id("Cave orc"));
    assert!(!ledger.is_empty());
    assert_eq!(
        ledger.keep_only_uniques_of(&races),
        3,
        "Snaga, 9999, Cave orc"
    );
    assert_eq!(
        ledger.iter().collect::<Vec<_>>(),
        [id("Grishnakh, the Hill Orc")]
    );
    assert_eq!(
        ledger.killed().collect::<Vec<_>>(),
        [id("Lagduf, the Snaga")]
    );
}

#[test]
fn a_filter_nothing_passes_always_fails() {
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let nothing = RaceFilter {
        symbols: Some(vec!['~']),
        ..RaceFilter::default()
    };
    let request = DrawRequest::new(30, 30, &live).filtered(&nothing);
    let odds = allocator.odds(&request);
    assert!(odds.races.is_empty());
    assert!((odds.failure - 1.0).abs() < 1e-15);
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("alloc"));
    assert_eq!(allocator.draw(&mut rng, &request), None);
    assert_eq!(draw_by_rejection(&allocator, &mut rng, &request), None);
}

/// Sampled counts of one draw against the exact odds.
fn sampled_against_exact(
    seed: u64,
    request: DrawRequest<'_>,
    draws: usize,
    rejection: bool,
) -> f64 {
    let allocator = Allocator::new(Races::shipped());
    let odds = allocator.odds(&request);
    let mut counts = vec![0u64; odds.races.len() + 1];
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("alloc-sampling"));
    for _ in 0..draws {
        let drawn = if rejection {
            draw_by_rejection(&allocator, &mut rng, &request)
        } else {
            allocator.draw(&mut rng, &request)
        };
        let cell = drawn.map_or(odds.races.len(), |race| {
            odds.races
                .iter()
                .position(|o| o.race == race)
                .expect("a drawn race has odds")
        });
        counts[cell] += 1;
    }
    let probabilities = odds
        .races
        .iter()
        .map(|o| o.probability)
        .chain([odds.failure]);
    ChiSquared::against(&counts, probabilities).p_value()
}

#[test]
fn the_weighted_table_samples_its_exact_odds() {
    let live = UniqueLedger::new();
    let filter = orc_pit();
    let races = Races::shipped();
    let (live_but_one, uniques) = the_last_uniques(&races, &["Bullroarer the Hobbit"]);
    let (live_but_two, _) = the_last_uniques(&races, &["Bullroarer the Hobbit", "Smeagol"]);
    for (seed, request) in [
        (11, DrawRequest::new(5, 5, &live)),
        (12, DrawRequest::new(40, 40, &live)),
        (13, DrawRequest::new(20, 10, &live).filtered(&filter)),
        // Nearly every pick refused: the draw rolls the original's failure chance, then
        // picks among the races kept by their weights.
        (
            14,
            DrawRequest::new(127, 127, &live_but_one).filtered(&uniques),
        ),
        (
            15,
            DrawRequest::new(127, 127, &live_but_two).filtered(&uniques),
        ),
    ] {
        let p = sampled_against_exact(seed, request, 60_000, false);
        assert!(
            p > 1e-6,
            "table sampling at level {}: p = {p}",
            request.level
        );
    }
}

#[test]
fn the_original_rejection_loop_gives_the_exact_odds() {
    let live = UniqueLedger::new();
    let filter = orc_pit();
    for (seed, request) in [
        (21, DrawRequest::new(5, 5, &live)),
        (22, DrawRequest::new(60, 60, &live)),
        (23, DrawRequest::new(20, 10, &live).filtered(&filter)),
        // The town: no boost, so only town races.
        (24, DrawRequest::new(0, 0, &live)),
    ] {
        let p = sampled_against_exact(seed, request, 60_000, true);
        assert!(
            p > 1e-6,
            "rejection loop at level {}: p = {p}",
            request.level
        );
    }
}

/// The odds a one-pick allocator would give at level 40 with no unique alive, worked out
/// from the race data alone: the boosts give level 40 with chance (49/50)^2, 45 with
/// 2 x 49/2500 and 50 with 1/2500 (each boost is +5 there); at each final level every
/// non-town race at or below it is equally likely to be picked and kept one time in its
/// rarity.
fn one_pick_odds_at_40(races: &Races) -> Vec<(u16, f64)> {
    let mut odds = vec![0.0; races.len()];
    for (level, chance) in [(40u8, 0.9604), (45, 0.0392), (50, 0.0004)] {
        let kept: Vec<_> = races
            .all()
            .iter()
            .filter(|r| {
                r.level >= 1 && r.level <= level && !r.flags.contains(RaceFlags::FORCE_DEPTH)
            })
            .collect();
        let total: f64 = kept.iter().map(|r| 1.0 / f64::from(r.rarity)).sum();
        for race in kept {
            odds[race.id.slot()] += chance / f64::from(race.rarity) / total;
        }
    }
    races
        .all()
        .iter()
        .zip(odds)
        .filter(|&(_, p)| p > 0.0)
        .map(|(race, p)| (race.id.0, p))
        .collect()
}

#[test]
fn a_wrong_pick_mix_would_be_caught() {
    // The chi-squared bound must be tight enough to see a wrong pick mix: the allocator's
    // draws at level 40 fail against the odds of a plain one-pick allocator over the same
    // races, while they pass against their own exact odds (the tests above).
    let live = UniqueLedger::new();
    let allocator = Allocator::new(Races::shipped());
    let one_pick = one_pick_odds_at_40(allocator.races());
    let total: f64 = one_pick.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    let request = DrawRequest::new(40, 40, &live);
    let mut rng = WorldSeed(31).stream(StreamPurpose::new("alloc-sampling"));
    let mut counts = vec![0u64; one_pick.len()];
    for _ in 0..20_000 {
        let race = allocator.draw(&mut rng, &request).unwrap();
        let cell = one_pick.iter().position(|&(id, _)| id == race.0).unwrap();
        counts[cell] += 1;
    }
    let p = ChiSquared::against(&counts, one_pick.iter().map(|&(_, p)| p)).p_value();
    assert!(p < 1e-6, "the one-pick odds were not rejected: p = {p}");
}

/// The source notes' ESCORT rule (2.7.9's `place_monster_okay`): an escort has the
/// leader's symbol, is no deeper than the leader, is not unique and is not the leader's
/// own race. Grishnakh (`o`, level 10) draws his escorts at his own level, where the
/// boost rolls reach levels 14 and 19: the level bound refuses the Black orcs (13),
/// Half-orcs (15), Orc captains (16) and Uruks (18) they would let through.
#[test]
fn escorts_share_the_leaders_symbol_and_are_no_deeper() {
    let allocator = Allocator::new(Races::shipped());
    let races = allocator.races();
    let grishnakh = races.by_name("Grishnakh, the Hill Orc").unwrap();
    let filter = RaceFilter::escort_of(grishnakh);
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DrawRequest::new(10, 10, &live).filtered(&filter));
    let mut drawn: Vec<&str> = odds
        .races
        .iter()
        .map(|o| races.get(o.race).unwrap().name.as_str())
        .collect();
    drawn.sort_unstable();
    assert_eq!(drawn, ["Cave orc", "Hill orc", "Orc shaman", "Snaga"]);
    // Every shipped leader is unique, so only a game's own race shows the last rule: a
    // leader that is not unique is still not its own escort.
    let mut captain = races.by_name("Orc captain").unwrap().clone();
    captain.flags |= RaceFlags::ESCORT;
    assert!(!RaceFilter::escort_of(&captain).admits(&captain));
    assert!(RaceFilter::escort_of(&captain).admits(races.by_name("Snaga").unwrap()));
}
