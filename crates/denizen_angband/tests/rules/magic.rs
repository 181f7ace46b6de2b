//! One object's magic, a kind at a time (object notes 4 and 5): `m_bonus`, each class's
//! bonuses, ego items and curses by power, and the artifacts' depth, rarity and kind
//! rolls. Each object comes from rules whose object file holds one kind, so every draw
//! gives it. Most checks read the notes' rules off each object made (its power is part
//! of it); the rest are seeded samples against the notes' odds.

use denizen_angband::make::m_bonus;
use denizen_angband::rng::{RANDNOR_STEPS_PER_SD, RANDNOR_TABLE};
use denizen_angband::{
    ArtifactId, ArtifactLedger, Artifacts, Call, EgoId, Egos, MadeObject, ObjectAllocator,
    ObjectKinds, ObjectRules,
};
use denizen_core::{ChiSquared, DataFile, StreamPurpose, WorldSeed};

const KINDS: &str = include_str!("../../data/angband.objects.ron");
const PLAIN: Call = Call {
    good: false,
    great: false,
};
const GOOD: Call = Call {
    good: true,
    great: false,
};
const GREAT: Call = Call {
    good: true,
    great: true,
};

/// The shipped kind numbered `index`, drawn at every level, with each `(from, to)` of
/// `patch` applied to its text.
fn kind(index: u16, patch: &[(&str, &str)]) -> String {
    let start = format!("(index: {index}, ");
    let lines: Vec<&str> = KINDS.lines().collect();
    let at = lines
        .iter()
        .position(|line| line.trim_start().starts_with(&start))
        .expect("a shipped kind");
    let mut text = lines[at..at + 3].join("\n");
    let alloc = text.find("alloc: [").expect("an allocation list");
    let end = alloc + text[alloc..].find(']').expect("its end");
    text.replace_range(alloc..=end, "alloc: [(0, 1)]");
    for (from, to) in patch {
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    text
}

/// Rules whose object file holds `kind` alone.
fn rules_of(kind: &str, artifacts: Artifacts) -> ObjectRules {
    let text = format!("(kinds: [{kind}])");
    let kinds = ObjectKinds::from_file(DataFile::new("one.objects.ron", &text)).unwrap();
    ObjectRules {
        allocator: ObjectAllocator::new(kinds),
        egos: Egos::shipped(),
        artifacts,
    }
}

fn one_kind(index: u16, patch: &[(&str, &str)]) -> ObjectRules {
    rules_of(&kind(index, patch), Artifacts::shipped())
}

/// `n` objects at object level `level` on a level of `depth` (0, the town, makes no
/// artifact), each with every artifact unmade.
fn made(
    rules: &mut ObjectRules,
    (seed, level, depth): (u64, i32, i32),
    call: Call,
    n: usize,
) -> Vec<MadeObject> {
    let mut rng = WorldSeed(seed).stream(StreamPurpose::new("magic"));
    (0..n)
        .map(|_| {
            rules
                .place_object(&mut rng, level, depth, call, &mut ArtifactLedger::new())
                .expect("the one kind is drawn")
        })
        .collect()
}

/// Exact odds of `randnor(mean, stand)` (layout notes 8.5): a value `t` of
/// `rand_int(32768)` picks the first step whose end is at least `t`, so step `j` takes
/// the values above the last step's end up to its own (and none past 32,767).
fn randnor_odds(mean: i32, stand: i32) -> Vec<(i32, f64)> {
    if stand < 1 {
        return vec![(mean, 1.0)];
    }
    let end = |step: usize| i32::from(RANDNOR_TABLE[step]).min(32_767);
    (0..RANDNOR_TABLE.len())
        .flat_map(|step| {
            let below = if step == 0 { -1 } else { end(step - 1) };
            let half = f64::from(end(step) - below) / 65_536.0;
            let offset = stand * step as i32 / RANDNOR_STEPS_PER_SD;
            [(mean - offset, half), (mean + offset, half)]
        })
        .collect()
}

/// Exact odds of `m_bonus(max, level)` by value 0..=max (object notes 4.5); `carry` is
/// how many of the 128 rolls raise the mean beyond the notes' `max * level mod 128` (0
/// for the rule).
fn m_bonus_odds(max: i32, level: i32, carry: i32) -> Vec<f64> {
    let level = level.min(127);
    let up = f64::from((max * level % 128 + carry).min(128)) / 128.0;
    let wider = f64::from(max % 4) / 4.0;
    let mut odds = vec![0.0; max as usize + 1];
    for (mean, p_mean) in [(max * level / 128, 1.0 - up), (max * level / 128 + 1, up)] {
        for (stand, p_stand) in [(max / 4, 1.0 - wider), (max / 4 + 1, wider)] {
            for (value, p) in randnor_odds(mean, stand) {
                odds[value.clamp(0, max) as usize] += p_mean * p_stand * p;
            }
        }
    }
    odds
}

/// Samples `sample` of values in `0..odds.len()` against `odds`.
fn p_value(sample: impl Iterator<Item = usize>, odds: &[f64]) -> f64 {
    let mut counts = vec![0u64; odds.len()];
    for value in sample {
        counts[value] += 1;
    }
    ChiSquared::against(&counts, odds.iter().copied()).p_value()
}

/// `m_bonus` against the notes' formula exactly, at the bonuses the object rules use (5
/// and 10) and at 1 and 8, where `max / 4` and `max % 4` differ; and against the mean
/// raised one roll in 128 more often (`<=` for `<`), a wrong rule it must reject.
#[test]
fn m_bonus_follows_the_notes_formula() {
    let mut rng = WorldSeed(20).stream(StreamPurpose::new("m_bonus"));
    for (max, level) in [(1, 0), (5, 40), (10, 127), (8, 100), (3, 64)] {
        let sample: Vec<usize> = (0..100_000)
            .map(|_| m_bonus(&mut rng, max, level) as usize)
            .collect();
        let p = p_value(sample.iter().copied(), &m_bonus_odds(max, level, 0));
        assert!(p > 1e-4, "m_bonus({max}, {level}): p = {p}");
        if (max, level) == (1, 0) {
            let p = p_value(sample.into_iter(), &m_bonus_odds(max, level, 1));
            assert!(p < 1e-9, "a mean raised on a tie fits: p = {p}");
        }
    }
}

/// The *Slay* forms (object notes 4.2): animal, dragon, evil and undead become *Slay*
/// one time in five.
const SLAY_FORMS: [(u16, u16); 4] = [(80, 88), (87, 95), (81, 89), (82, 90)];

/// A sword of power 2's ego item by `randint(29)` (object notes 4.2), with `upgrade` the
/// chance of each of the four slays' *Slay* form.
fn weapon_ego_odds(upgrade: f64) -> Vec<(u16, f64)> {
    let rows: [(u16, i32); 17] = [
        (64, 1),
        (65, 1),
        (72, 1),
        (73, 1),
        (74, 1),
        (75, 1),
        (80, 2),
        (87, 2),
        (81, 2),
        (82, 2),
        (84, 3),
        (85, 3),
        (86, 3),
        (83, 3),
        (68, 1),
        (66, 1),
        (69, 1),
    ];
    let mut odds = Vec::new();
    for (ego, rolls) in rows {
        let p = f64::from(rolls) / 29.0;
        match SLAY_FORMS.iter().find(|(slay, _)| *slay == ego) {
            Some(&(_, strong)) => {
                odds.push((ego, p * (1.0 - upgrade)));
                odds.push((strong, p * upgrade));
            }
            None => odds.push((ego, p)),
        }
    }
    odds
}

/// An ego table read as `randint(n)` rows: each ego with its count of rolls.
fn table_odds(rows: &[(u16, i32)]) -> Vec<(u16, f64)> {
    let n: i32 = rows.iter().map(|&(_, rolls)| rolls).sum();
    rows.iter()
        .map(|&(ego, rolls)| (ego, f64::from(rolls) / f64::from(n)))
        .collect()
}

/// The egos of `objects` against `odds` (every ego made must be in the table).
fn ego_p_value<'o>(objects: impl Iterator<Item = &'o MadeObject>, odds: &[(u16, f64)]) -> f64 {
    let cell = |ego: Option<EgoId>| {
        let ego = ego.expect("an ego item");
        odds.iter()
            .position(|&(id, _)| EgoId(id) == ego)
            .unwrap_or_else(|| panic!("{ego:?} is not in the table"))
    };
    let probabilities: Vec<f64> = odds.iter().map(|&(_, p)| p).collect();
    p_value(objects.map(|o| cell(o.ego)), &probabilities)
}

/// A sword's bonuses and ego item by power (object notes 4.2), each object read against
/// the rules: power 0 plain; 1 and -1 between 1 and 10 each way, no ego, cursed below 0;
/// 2 an ego of the table; -2 Morgul when `rand0(128) < level`, cursed and broken, its
/// bonuses taken away. At level 127, 1 very cursed sword in 128 is not Morgul.
#[test]
fn a_swords_magic_follows_its_power() {
    let mut rules = one_kind(42, &[]);
    let objects = made(&mut rules, (21, 127, 0), PLAIN, 100_000);
    let table = weapon_ego_odds(0.2);
    let in_table = |ego: Option<EgoId>| table.iter().any(|&(id, _)| ego == Some(EgoId(id)));
    let (mut very_cursed, mut plain_very_cursed) = (0, 0);
    for o in &objects {
        let bonus = |range: std::ops::RangeInclusive<i32>| {
            range.contains(&o.to_h) && range.contains(&o.to_d)
        };
        match o.power {
            0 => assert!(bonus(0..=0) && o.ego.is_none() && !o.cursed, "{o:?}"),
            1 => assert!(bonus(1..=10) && o.ego.is_none() && !o.cursed, "{o:?}"),
            -1 => assert!(bonus(-10..=-1) && o.ego.is_none() && o.cursed, "{o:?}"),
            2 => assert!(in_table(o.ego) && !o.cursed, "{o:?}"),
            _ => {
                very_cursed += 1;
                match o.ego {
                    None => {
                        plain_very_cursed += 1;
                        assert!(bonus(-20..=-1) && o.cursed, "{o:?}");
                    }
                    Some(ego) => {
                        assert_eq!(ego, EgoId(102), "Morgul");
                        // Morgul takes up to 20 more from to-hit and to-dam.
                        assert!(bonus(-40..=-2) && o.cursed && o.broken, "{o:?}");
                        assert!(o.to_a < 0 && o.rating == 0, "{o:?}");
                    }
                }
            }
        }
    }
    let expected = f64::from(very_cursed) / 128.0;
    assert!(
        (f64::from(plain_very_cursed) - expected).abs() < 4.0 * expected.sqrt(),
        "{plain_very_cursed} of {very_cursed} very cursed swords are not Morgul"
    );
    assert!(plain_very_cursed > 0);
}

/// Great swords take the notes' ego table, with the four *Slay* forms one time in five:
/// a binomial bound of 450,000 swords that 21 times in 100 would break.
#[test]
fn a_great_swords_ego_follows_the_table() {
    let mut rules = one_kind(42, &[]);
    let objects = made(&mut rules, (22, 40, 0), GREAT, 450_000);
    assert!(objects.iter().all(|o| o.power == 2));
    let p = ego_p_value(objects.iter(), &weapon_ego_odds(0.2));
    assert!(p > 1e-4, "p = {p}");
    let strong = |o: &&MadeObject| SLAY_FORMS.iter().any(|&(_, s)| o.ego == Some(EgoId(s)));
    let slays = |o: &&MadeObject| SLAY_FORMS.iter().any(|&(s, _)| o.ego == Some(EgoId(s)));
    let (strong, all) = (
        objects.iter().filter(strong).count() as f64,
        objects.iter().filter(|o| strong(o) || slays(o)).count() as f64,
    );
    let sd = (all * 0.2 * 0.8).sqrt();
    assert!(
        (strong - 0.2 * all).abs() < 4.0 * sd,
        "{strong} of {all} upgraded"
    );
    assert!(0.01 * all > 8.0 * sd);
}

/// Who is cursed (object notes 4.2, 4.3, 4.6): negative magic curses a weapon whose
/// to-hit and to-dam then sum below 0, armour whose to-AC is below 0, and nothing else;
/// an ego item or artifact that is cursed curses it whatever its bonuses. Kinds of base
/// bonus -30, 11 (a sum of exactly 0 is not cursed) and 50 (never below 0).
#[test]
fn only_negative_magic_below_zero_or_a_cursed_ego_curses() {
    for base in [-30, 11, 50] {
        let to_h = format!("to_h: {base}");
        let mut sword = one_kind(42, &[("to_h: 0", &to_h)]);
        let mut morgul = 0;
        for o in made(&mut sword, (23, 127, 0), PLAIN, 20_000) {
            match o.ego {
                None => assert_eq!(
                    o.cursed,
                    o.power < 0 && o.to_h + o.to_d < 0,
                    "base {base}: {o:?}"
                ),
                Some(EgoId(102)) => {
                    morgul += 1;
                    assert!(o.cursed && o.broken, "{o:?}");
                }
                Some(_) => assert!(!o.cursed && o.power == 2, "{o:?}"),
            }
        }
        assert!(morgul > 0);
        let to_a = format!("to_a: {}", base / 2);
        let mut gloves = one_kind(125, &[("to_a: 0", &to_a)]);
        for o in made(&mut gloves, (24, 127, 0), PLAIN, 20_000) {
            if o.ego.is_none() {
                assert_eq!(o.cursed, o.power < 0 && o.to_a < 0, "base {base}: {o:?}");
            }
        }
    }
}

/// An ego item's bonuses are taken away from a cursed or broken object and added to
/// any other (object notes 4): a sword that costs nothing is broken, so its Holy Avenger
/// or Defender (whose to-AC a sword's own magic leaves alone) lowers its armour.
#[test]
fn an_ego_on_a_broken_object_takes_its_bonuses_away() {
    for (cost, sign) in [("cost: 300", 1), ("cost: 0", -1)] {
        let mut rules = one_kind(42, &[("cost: 300", cost)]);
        let mut seen = 0;
        for o in made(&mut rules, (25, 40, 0), GREAT, 5_000) {
            if matches!(o.ego, Some(EgoId(64 | 65))) {
                seen += 1;
                assert_eq!(o.to_a.signum(), sign, "{o:?}");
                assert_eq!(o.broken, sign < 0);
            }
        }
        assert!(seen > 0);
    }
}

/// A digger (object notes 4.2): negative magic negates its digging; power 2 makes it of
/// Digging, whose bonus adds 1 to 5.
#[test]
fn a_diggers_magic_follows_its_power() {
    let mut rules = one_kind(84, &[]);
    let (mut digging, mut negated) = (0, 0);
    for o in made(&mut rules, (26, 127, 0), PLAIN, 20_000) {
        match o.power {
            2 => {
                digging += 1;
                assert!(
                    o.ego == Some(EgoId(100)) && (2..=6).contains(&o.pval),
                    "{o:?}"
                );
            }
            p if p < 0 => {
                negated += 1;
                assert!(o.pval == -1 && o.ego.is_none(), "{o:?}");
            }
            _ => assert!(o.pval == 1 && o.ego.is_none(), "{o:?}"),
        }
    }
    assert!(digging > 0 && negated > 0);
}

/// A bow of power 2 and ammunition of power 2 take their tables; very cursed ammunition
/// is of Backbiting when `rand0(128) < level`, a bow never anything (object notes 4.2).
#[test]
fn bows_and_ammunition_take_their_tables() {
    let bows = made(&mut one_kind(74, &[]), (27, 40, 0), GREAT, 10_000);
    let odds = table_odds(&[(108, 1), (109, 1), (105, 4), (104, 4)]);
    let p = ego_p_value(bows.iter(), &odds);
    assert!(p > 1e-4, "bows: p = {p}");
    let arrows = made(&mut one_kind(78, &[]), (28, 40, 0), GREAT, 10_000);
    let odds = table_odds(&[(124, 3), (122, 1), (123, 1), (112, 2), (113, 2), (119, 1)]);
    let p = ego_p_value(arrows.iter(), &odds);
    assert!(p > 1e-4, "arrows: p = {p}");
    assert!(arrows.iter().all(|o| (6..=42).contains(&o.number)));
    let (mut very_cursed, mut plain) = (0, 0);
    for o in made(&mut one_kind(78, &[]), (29, 127, 0), PLAIN, 100_000) {
        if o.power == -2 {
            very_cursed += 1;
            match o.ego {
                None => plain += 1,
                ego => assert!(ego == Some(EgoId(125)) && o.cursed && o.broken, "{o:?}"),
            }
        } else {
            assert_eq!(o.ego.is_some(), o.power == 2, "{o:?}");
        }
    }
    let expected = f64::from(very_cursed) / 128.0;
    assert!(
        plain > 0 && (f64::from(plain) - expected).abs() < 4.0 * expected.sqrt(),
        "{plain} of {very_cursed}"
    );
    for o in made(&mut one_kind(74, &[]), (30, 127, 0), PLAIN, 20_000) {
        assert_eq!(o.ego.is_some(), o.power == 2, "{o:?}");
    }
}

/// One armour class's tables (object notes 4.3): the ego items of power 2 and of power
/// -2 (empty where the class has none), as `randint(n)` rows.
struct ArmourTables {
    kind: u16,
    great: &'static [(u16, i32)],
    very_cursed: &'static [(u16, i32)],
}

const BODY: &[(u16, i32)] = &[(4, 4), (5, 4), (6, 4), (7, 4), (8, 2), (9, 1)];
const HEAD_CURSED: &[(u16, i32)] = &[(36, 2), (37, 2), (38, 1), (39, 1), (35, 1)];
const ARMOUR: [ArmourTables; 8] = [
    ArmourTables {
        kind: 91,
        great: &[(59, 1), (58, 4), (57, 8), (56, 11)],
        very_cursed: &[(61, 1), (62, 1), (63, 1)],
    },
    ArmourTables {
        kind: 125,
        great: &[(48, 4), (49, 3), (50, 2), (51, 1)],
        very_cursed: &[(55, 1), (54, 1)],
    },
    ArmourTables {
        kind: 94,
        great: &[(24, 2), (25, 2), (26, 2), (30, 2), (32, 2), (31, 4)],
        very_cursed: HEAD_CURSED,
    },
    ArmourTables {
        kind: 98,
        great: &[(27, 1), (28, 1), (33, 1), (34, 1), (29, 2), (30, 2)],
        very_cursed: HEAD_CURSED,
    },
    ArmourTables {
        kind: 128,
        great: &[(16, 1), (17, 3), (18, 2), (19, 3), (20, 1)],
        very_cursed: &[],
    },
    ArmourTables {
        kind: 123,
        great: &[(40, 8), (41, 8), (42, 1)],
        very_cursed: &[(46, 1), (45, 1), (44, 1)],
    },
    ArmourTables {
        kind: 103,
        great: BODY,
        very_cursed: &[],
    },
    ArmourTables {
        kind: 108,
        great: BODY,
        very_cursed: &[],
    },
];

/// Each armour class's ego items by power: only power 2 and -2 have one, each from its
/// class's table in the notes' proportions; dragon armour has none, and adds 30 to the
/// rating at any power but 0.
#[test]
fn each_armour_class_takes_its_tables() {
    for (i, class) in ARMOUR.iter().enumerate() {
        let seed = 40 + i as u64;
        let mut rules = one_kind(class.kind, &[]);
        let great = made(&mut rules, (seed, 40, 0), GREAT, 6_000);
        let p = ego_p_value(great.iter(), &table_odds(class.great));
        assert!(p > 1e-4, "kind {}: power 2, p = {p}", class.kind);
        let plain = made(&mut rules, (seed, 127, 0), PLAIN, 20_000);
        for o in &plain {
            let has = match o.power {
                2 => true,
                -2 => !class.very_cursed.is_empty(),
                _ => false,
            };
            assert_eq!(o.ego.is_some(), has, "kind {}: {o:?}", class.kind);
        }
        if !class.very_cursed.is_empty() {
            let cursed = plain.iter().filter(|o| o.power == -2);
            let p = ego_p_value(cursed, &table_odds(class.very_cursed));
            assert!(p > 1e-4, "kind {}: power -2, p = {p}", class.kind);
        }
    }
    let mut dragon = one_kind(400, &[]);
    for o in made(&mut dragon, (50, 127, 0), PLAIN, 5_000) {
        assert!(o.ego.is_none(), "{o:?}");
        if o.power != 0 {
            assert_eq!(o.rating, 30, "{o:?}");
        }
    }
}

/// A robe of power 2 is of Permanence one time in ten, else of the body armour table
/// (object notes 4.3); a binomial bound of 80,000 robes that 11 times in 100 would
/// break.
#[test]
fn a_great_robe_is_of_permanence_one_time_in_ten() {
    let robes = made(&mut one_kind(101, &[]), (51, 40, 0), GREAT, 80_000);
    let permanence = robes.iter().filter(|o| o.ego == Some(EgoId(11))).count() as f64;
    let n = robes.len() as f64;
    let sd = (n * 0.1 * 0.9).sqrt();
    assert!(
        (permanence - 0.1 * n).abs() < 4.0 * sd,
        "{permanence} of {n}"
    );
    assert!(0.01 * n > 8.0 * sd);
    let rest = robes.iter().filter(|o| o.ego != Some(EgoId(11)));
    let p = ego_p_value(rest, &table_odds(BODY));
    assert!(p > 1e-4, "p = {p}");
}

/// Exact odds of a ring of speed's bonus before any curse (object notes 4.4):
/// `randint(5) + m_bonus(5, level)`, then one more while `rand0(100) < 50`, by value up
/// to `top` (the last cell holds the rest).
fn speed_odds(level: i32, top: usize) -> Vec<f64> {
    let mut odds = vec![0.0; top + 1];
    for (bonus, p_bonus) in m_bonus_odds(5, level, 0).into_iter().enumerate() {
        for die in 1..=5 {
            for extra in 0..64 {
                let p = p_bonus / 5.0 * 0.5_f64.powi(extra + 1);
                odds[(die + bonus + extra as usize).min(top)] += p;
            }
        }
    }
    odds
}

/// Rings and amulets (object notes 4.4). Below power 0, after power 0 turned -1 half
/// the time, a ring of speed is cursed, broken and negated and rates nothing, else it
/// rates 25; its bonus follows the notes' sum; an amulet of the Magi always rates 25; a
/// ring of strength or an amulet of wisdom below 0 is cursed and broken; a ring of
/// sustain strength never is.
#[test]
fn rings_and_amulets_follow_their_power() {
    let speed = made(&mut one_kind(136, &[]), (52, 127, 0), PLAIN, 40_000);
    for o in &speed {
        let below = o.power < 0;
        assert_eq!(o.cursed, below, "{o:?}");
        assert_eq!(o.broken, below, "{o:?}");
        assert_eq!(o.pval < 0, below, "{o:?}");
        assert_eq!(o.rating, if below { 0 } else { 25 }, "{o:?}");
    }
    let p = p_value(
        speed
            .iter()
            .map(|o| (o.pval.unsigned_abs() as usize).min(16)),
        &speed_odds(127, 16),
    );
    assert!(p > 1e-4, "speed: p = {p}");
    for o in made(&mut one_kind(171, &[]), (53, 127, 0), PLAIN, 5_000) {
        assert!(o.rating == 25 && !o.cursed, "{o:?}");
    }
    for index in [132, 163] {
        for o in made(&mut one_kind(index, &[]), (54, 5, 0), PLAIN, 5_000) {
            assert_eq!(o.cursed && o.broken, o.power < 0, "{o:?}");
            assert_eq!(o.cursed, o.power < 0, "{o:?}");
        }
    }
}

/// A ring of speed's extra bonus goes on while `rand0(100) < 50`: one more on average.
/// Its mean bonus at level 127 is `3 + E[m_bonus(5, 127)] + 1`; 200,000 rings hold it to
/// within half the 0.04 that going on 51 or 49 times in 100 would add or take.
#[test]
fn a_ring_of_speeds_bonus_goes_on_half_the_time() {
    let speed = made(&mut one_kind(136, &[]), (58, 127, 0), PLAIN, 200_000);
    let n = speed.len() as f64;
    let values: Vec<f64> = speed.iter().map(|o| f64::from(o.pval.abs())).collect();
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt();
    let bonus: f64 = m_bonus_odds(5, 127, 0)
        .iter()
        .enumerate()
        .map(|(v, p)| v as f64 * p)
        .sum();
    let extra = |go_on: f64| go_on / (1.0 - go_on);
    let exact = 3.0 + bonus + extra(0.5);
    let bound = 4.0 * sd / n.sqrt();
    assert!((mean - exact).abs() < bound, "{mean} against {exact}");
    assert!(extra(0.51) - extra(0.5) > 2.0 * bound);
    assert!(extra(0.5) - extra(0.49) > 2.0 * bound);
}

/// Power 0 turns -1 half the time for rings and amulets: at level 0, `(1 - a) a +
/// (1 - a)^2 / 2` = 0.495 of them are below 0 (a = 0.1); a binomial bound of 400,000
/// rings that 51 times in 100 would break by ten standard deviations.
#[test]
fn half_of_plain_jewellery_turns_negative() {
    let rings = made(&mut one_kind(156, &[]), (55, 0, 0), PLAIN, 400_000);
    assert!(rings.iter().all(|o| !o.cursed));
    let below = rings.iter().filter(|o| o.power < 0).count() as f64;
    let n = rings.len() as f64;
    let (p, wrong) = (0.9 * 0.1 + 0.81 * 0.5, 0.9 * 0.1 + 0.81 * 0.51);
    let sd = (n * p * (1.0 - p)).sqrt();
    assert!((below - n * p).abs() < 4.0 * sd, "{below} of {n}");
    assert!(n * (wrong - p) > 8.0 * sd);
}

/// An artifact file of the test's own: `specials` then `normals`, each
/// `(index, tval, sval, level, rarity, cost, flags)`.
fn artifacts(entries: &[(u16, u8, u8, u8, u8, u32, &str)]) -> Artifacts {
    let records: Vec<String> = entries
        .iter()
        .map(|(index, tval, sval, level, rarity, cost, flags)| {
            format!(
                "(index: {index}, name: \"of Test {index}\", tval: {tval}, sval: {sval}, \
                 level: {level}, rarity: {rarity}, cost: {cost}, pval: 3, ac: 0, \
                 damage: \"1d1\", to_h: 7, to_d: 8, to_a: 9, weight: 10, flags: [{flags}])"
            )
        })
        .collect();
    let text = format!("(artifacts: [{}])", records.join(", "));
    Artifacts::from_file(DataFile::new("mine.artifacts.ron", &text)).unwrap()
}

/// A special artifact whose base kind lies above the object level passes only a
/// `1 in 5 x (kind level - object level)` roll (object notes 5.1): a special artifact of
/// level 1 and rarity 1 on a long sword (kind level 10), at object level 0, is made by a
/// good call `1/10 x 1/50` of the time. It takes its own numbers, and the file's curse
/// and cost 0 make it cursed and broken.
#[test]
fn a_special_artifact_on_a_deeper_kind_passes_its_kind_roll() {
    let file = artifacts(&[(1, 23, 17, 1, 1, 0, "\"CURSED\"")]);
    let mut rules = rules_of(&kind(42, &[]), file);
    let objects = made(&mut rules, (56, 0, 1), GOOD, 100_000);
    let made_it: Vec<&MadeObject> = objects.iter().filter(|o| o.artifact.is_some()).collect();
    let (n, p) = (objects.len() as f64, 1.0 / 500.0);
    let sd = (n * p * (1.0 - p)).sqrt();
    let count = made_it.len() as f64;
    assert!((count - n * p).abs() < 4.0 * sd, "{count} of {n}");
    // One in 5 + 10 (a sum for the product) would be 1/15 of the special calls.
    assert!((n / 150.0 - n * p) > 8.0 * sd);
    for o in made_it {
        assert_eq!(o.artifact, Some(ArtifactId(1)));
        assert_eq!((o.to_h, o.to_d, o.to_a, o.pval), (7, 8, 9, 3), "{o:?}");
        assert!(o.cursed && o.broken && o.rating == 10, "{o:?}");
    }
}

/// A normal artifact deeper than the level passes a `1 in 2 x (level - depth)` roll
/// (object notes 5.2): one of level 40 and rarity 1 on a long bow, at depth 30, is
/// made 1 time in 20 by a bow of power 2 (one roll). Not cursed and of cost 60,000, it
/// rates 20.
#[test]
fn a_deeper_normal_artifact_passes_its_depth_roll() {
    let file = artifacts(&[(16, 19, 13, 40, 1, 60_000, "")]);
    let mut rules = rules_of(&kind(74, &[]), file);
    let objects = made(&mut rules, (57, 30, 30), GOOD, 50_000);
    let great: Vec<&MadeObject> = objects.iter().filter(|o| o.power == 2).collect();
    let (n, p) = (great.len() as f64, 1.0 / 20.0);
    let count = great.iter().filter(|o| o.artifact.is_some()).count() as f64;
    let sd = (n * p * (1.0 - p)).sqrt();
    assert!((count - n * p).abs() < 4.0 * sd, "{count} of {n}");
    // One in 2 + 10 would be 1/12.
    assert!((n / 12.0 - n * p) > 8.0 * sd);
    assert!(objects.iter().all(|o| o.artifact.is_none() || o.power == 2));
    for o in great.iter().filter(|o| o.artifact.is_some()) {
        assert!(!o.cursed && !o.broken && o.rating == 20, "{o:?}");
    }
}

/// One object's own share of the level's rating when its kind is deeper than the level
/// (object notes 2: the kind's level less the depth, when nothing else rated it and it
/// is neither cursed nor broken): a Long Sword (kind level 10) made at depth 3 rates 7
/// exactly, and 0 when cursed; made with object level 20 at depth 3 still 7 (the depth
/// counts, not the object level); broken (its cost patched to 0) it rates 0; at depth 10,
/// 0. Egos and artifacts (power 2) rate themselves and are left out.
#[test]
fn an_out_of_depth_object_rates_its_depth_difference() {
    let plain = |o: &&MadeObject| o.ego.is_none() && o.artifact.is_none();
    let mut sword = one_kind(42, &[]);
    let (mut cursed, mut whole) = (0, 0);
    for o in made(&mut sword, (61, 10, 3), PLAIN, 4_000)
        .iter()
        .filter(plain)
    {
        assert_eq!(o.rating, if o.cursed { 0 } else { 7 }, "{o:?}");
        assert!(!o.broken, "{o:?}");
        cursed += usize::from(o.cursed);
        whole += usize::from(!o.cursed);
    }
    assert!(cursed > 50 && whole > 1_000, "{cursed} cursed, {whole} not");
    for o in made(&mut sword, (62, 20, 3), PLAIN, 2_000)
        .iter()
        .filter(plain)
    {
        assert_eq!(o.rating, if o.cursed { 0 } else { 7 }, "{o:?}");
    }
    for o in made(&mut sword, (63, 10, 10), PLAIN, 2_000)
        .iter()
        .filter(plain)
    {
        assert_eq!(o.rating, 0, "{o:?}");
    }
    let mut broken = one_kind(42, &[("cost: 300", "cost: 0")]);
    for o in made(&mut broken, (64, 10, 3), PLAIN, 2_000)
        .iter()
        .filter(plain)
    {
        assert!(o.broken, "{o:?}");
        assert_eq!(o.rating, 0, "{o:?}");
    }
}
