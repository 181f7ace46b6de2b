//! Traps against the source notes: the kinds, the choice when found, darts, spiked pits,
//! gases and summoning runes.

use denizen_angband::Traps;
use denizen_angband::trap::{Effect, Status, dart_hits};
use denizen_core::{ChiSquared, StreamPurpose, WorldSeed};

fn rng(seed: u64) -> denizen_core::Generator {
    WorldSeed(seed).stream(StreamPurpose::new("traps"))
}

#[test]
fn the_sixteen_traps_in_their_order() {
    let names: Vec<&str> = Traps::shipped()
        .all()
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Trap door",
            "Pit",
            "Spiked pit",
            "Poison spiked pit",
            "Summon rune",
            "Teleport trap",
            "Fire trap",
            "Acid trap",
            "Slow dart",
            "Strength dart",
            "Dexterity dart",
            "Constitution dart",
            "Blindness gas",
            "Confusion gas",
            "Poison gas",
            "Sleep gas"
        ]
    );
}

#[test]
fn a_found_trap_is_uniform_and_never_a_trap_door_without_a_way_down() {
    let traps = Traps::shipped();
    let mut rng = rng(1);
    let mut counts = [0u64; 16];
    let mut no_way_down = [0u64; 16];
    for _ in 0..32_000 {
        counts[usize::from(traps.choose(&mut rng, false).number) - 1] += 1;
        no_way_down[usize::from(traps.choose(&mut rng, true).number) - 1] += 1;
    }
    assert!(ChiSquared::against(&counts, [1.0 / 16.0; 16]).p_value() > 1e-6);
    assert_eq!(
        no_way_down[0], 0,
        "a trap door on a quest level is rolled again"
    );
    let rest = &no_way_down[1..];
    assert!(ChiSquared::against(rest, [1.0 / 15.0; 15]).p_value() > 1e-6);
}

#[test]
fn the_poisoned_spiked_pit_is_at_worst_four_times_2d6() {
    let trap = &Traps::shipped().all()[3];
    assert_eq!(trap.effect, Effect::PoisonSpikes);
    let mut rng = rng(2);
    let (mut impaled, mut worst) = (0, 0);
    for _ in 0..20_000 {
        let out = trap.spring(&mut rng, 0, 10);
        match out.unresisted_poison {
            None => {
                assert!((2..=12).contains(&out.damage) && out.cut == 0);
            }
            Some((damage, poison)) => {
                impaled += 1;
                // Impaled: 2 x 2d6 and a cut of randint of that; unresisted, 4 x 2d6
                // and poison of randint of that.
                assert!(out.damage % 2 == 0 && (4..=24).contains(&out.damage));
                assert!((1..=out.damage).contains(&out.cut));
                assert_eq!(damage, 2 * out.damage);
                assert!((1..=damage).contains(&poison));
                worst = worst.max(damage);
            }
        }
    }
    assert_eq!(worst, 48, "4 x 12");
    // Half of the springs impale: four standard deviations of 20,000 halves.
    assert!((impaled as f64 - 10_000.0).abs() < 4.0 * 70.72, "{impaled}");
}

#[test]
fn darts_hit_five_percent_always_five_never_else_by_armour() {
    let mut rng = rng(3);
    // The notes' formula with the spoiler's power 125: 5% sure hits, 5% sure misses, else
    // a hit when randint(125) > 3/4 x armour, which 125, 95, 50 and 0 of the 125 values
    // beat at armour 0, 40, 100 and 200.
    for (armour, expected) in [
        (0, 0.05 + 0.90),
        (40, 0.05 + 0.90 * 95.0 / 125.0),
        (100, 0.05 + 0.90 * 50.0 / 125.0),
        (200, 0.05),
    ] {
        let n = 40_000;
        let hits = (0..n).filter(|_| dart_hits(&mut rng, armour)).count() as f64;
        let sd = (f64::from(n) * expected * (1.0 - expected)).sqrt();
        assert!(
            (hits - f64::from(n) * expected).abs() < 4.0 * sd,
            "armour {armour}: {hits}"
        );
    }
}

/// The bound is strict: at armour 100, 50 of the 125 values beat 75. A dart that hit on
/// a tie (51 values) would hit 0.72 points more often, 9 standard deviations of this
/// sample.
#[test]
fn a_dart_that_ties_the_armour_misses() {
    let mut rng = rng(5);
    let n = 400_000;
    let hits = (0..n).filter(|_| dart_hits(&mut rng, 100)).count() as f64;
    let expected = 0.05 + 0.90 * 50.0 / 125.0;
    let sd = (f64::from(n) * expected * (1.0 - expected)).sqrt();
    assert!(
        (hits - f64::from(n) * expected).abs() < 4.0 * sd,
        "{hits} of {n}"
    );
}

#[test]
fn gases_darts_and_runes_roll_their_ranges() {
    let traps = Traps::shipped().all();
    let mut rng = rng(4);
    for _ in 0..2_000 {
        let blind = traps[12].spring(&mut rng, 0, 20);
        let (status, turns) = blind.status.unwrap();
        assert_eq!(status, Status::Blind);
        assert!((25..=74).contains(&turns));
        let sleep = traps[15].spring(&mut rng, 0, 20).status.unwrap();
        assert!(sleep.0 == Status::Paralyzed && (5..=14).contains(&sleep.1));
        let slow = traps[8].spring(&mut rng, 0, 20);
        if slow.dart_hit == Some(true) {
            let (status, turns) = slow.status.unwrap();
            assert!(status == Status::Slow && (20..=39).contains(&turns));
            assert!((1..=4).contains(&slow.damage));
        } else {
            assert!(slow.status.is_none() && slow.damage == 0);
        }
        let rune = traps[4].spring(&mut rng, 0, 20);
        let (count, level) = rune.summons.unwrap();
        assert!((3..=5).contains(&count) && level == 25);
        let fire = traps[6].spring(&mut rng, 0, 20);
        assert!((4..=24).contains(&fire.damage));
        assert!(traps[0].spring(&mut rng, 0, 20).falls);
    }
}
