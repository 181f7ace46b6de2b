//! A game's own race file: each fault is refused with the file, the entry and the field.

use denizen_angband::Races;
use denizen_core::{DataError, DataFile};

const GOOD: &str = r#"(races: [
    (index: 1, name: "Rat", symbol: 'r', colour: 'u', level: 1, rarity: 1, speed: 110,
     hit_dice: "1d3", armour: 1, sleep: 10, vision: 8, experience: 1,
     flags: ["ANIMAL"], spells: [], blows: ["BITE:HURT:1d2"]),
    (index: 2, name: "Boss", symbol: 'p', colour: 'r', level: 5, rarity: 2, speed: 120,
     hit_dice: "10d10", armour: 20, sleep: 0, vision: 20, experience: 50,
     flags: ["UNIQUE", "MALE"], spells: ["1_IN_4", "BLINK"], blows: ["HIT:HURT:2d6"]),
])"#;

fn load(text: &str) -> Result<Races, DataError> {
    Races::from_file(DataFile::new("mine.ron", text))
}

/// The field an error names, with the file and entry checked.
fn field_of(text: &str) -> (String, String) {
    match load(text).expect_err("the file is refused") {
        DataError::Invalid {
            file,
            entry,
            field,
            problem,
        } => {
            assert_eq!(file, "mine.ron");
            (format!("{entry} / {field}"), problem)
        }
        other => panic!("not a consistency error: {other}"),
    }
}

#[test]
fn a_games_own_race_file_loads() {
    let races = load(GOOD).unwrap();
    assert_eq!(races.len(), 2);
    assert!(!races.is_empty());
    // `1_IN_4`: a spell one turn in four, 25%.
    assert_eq!(races.by_name("Boss").unwrap().spell_chance, 25);
    // A town race may have rarity 0 (never drawn); a dungeon race may not.
    let town = GOOD.replacen("level: 1, rarity: 1", "level: 0, rarity: 0", 1);
    assert_eq!(load(&town).unwrap().by_name("Rat").unwrap().rarity, 0);
    assert!(races.by_name("Boss").unwrap().is_unique());
}

#[test]
fn each_fault_names_its_entry_and_field() {
    let cases = [
        (
            "\"ANIMAL\"",
            "\"FLYING\"",
            "races[0] \"Rat\" / flags",
            "FLYING",
        ),
        ("level: 5", "level: 200", "races[1] \"Boss\" / level", "200"),
        (
            "rarity: 1,",
            "rarity: 0,",
            "races[0] \"Rat\" / rarity",
            "rarity",
        ),
        ("\"1d3\"", "\"0d3\"", "races[0] \"Rat\" / hit_dice", "1d1"),
        ("\"1_IN_4\", ", "", "races[1] \"Boss\" / spells", "1_IN_X"),
        ("index: 2", "index: 7", "races[1] \"Boss\" / index", "7"),
        (
            "name: \"Rat\"",
            "name: \"Boss\"",
            "races[1] \"Boss\" / name",
            "unique",
        ),
        (
            "speed: 120",
            "speed: 900",
            "races[1] \"Boss\" / speed",
            "900",
        ),
    ];
    for (from, to, where_, said) in cases {
        assert!(GOOD.contains(from), "{from}");
        let (at, problem) = field_of(&GOOD.replacen(from, to, 1));
        assert_eq!(at, where_, "{to}");
        assert!(problem.contains(said), "{at}: {problem}");
    }
}

#[test]
fn broken_text_gives_the_line_and_an_empty_file_is_refused() {
    match load(&GOOD[..GOOD.len() / 2]).unwrap_err() {
        DataError::Syntax { file, line, .. } => assert!(file == "mine.ron" && line > 1),
        other => panic!("{other}"),
    }
    let (at, _) = field_of("(races: [])");
    assert_eq!(at, "races / races");
}

/// A name and dice at their limits load; one past a limit is refused with the
/// field named.
#[test]
fn each_text_limit_is_accepted_and_one_past_it_refused() {
    use denizen_angband::race::MAX_TEXT;
    let with = |from: &str, to: String| {
        assert!(GOOD.contains(from), "{from}");
        GOOD.replacen(from, &to, 1)
    };
    let named = |n: usize| with("name: \"Rat\"", format!("name: \"{}\"", "r".repeat(n)));
    assert!(load(&named(MAX_TEXT)).is_ok());
    for refused in [named(0), named(MAX_TEXT + 1)] {
        let (at, problem) = field_of(&refused);
        assert!(at.ends_with("/ name"), "{at}");
        assert!(problem.contains("1 to 80 bytes"), "{problem}");
    }
    let dice = |d: &str| with("\"1d3\"", format!("\"{d}\""));
    assert!(load(&dice("255d255")).is_ok());
    for refused in ["256d1", "1d256"] {
        let (at, problem) = field_of(&dice(refused));
        assert_eq!(at, "races[0] \"Rat\" / hit_dice");
        assert!(problem.contains("at most 255"), "{problem}");
    }
}

/// A data file whose `list` holds one `entry` per number.
fn numbered_file(
    list: &str,
    numbers: impl Iterator<Item = usize>,
    entry: impl Fn(usize) -> String,
) -> String {
    let entries: Vec<String> = numbers.map(entry).collect();
    format!("({list}: [{}])", entries.join(", "))
}

/// An ego file (numbered with gaps, as e_info is): 1 to 255 entries, numbered upwards
/// from 1 to 255; the limits themselves load.
#[test]
fn an_ego_files_count_and_numbers_are_bounded() {
    use denizen_angband::Egos;
    let ego = |index: usize| {
        format!(
            "(index: {index}, name: \"of Test\", rating: 1, cost: 1, max_to_h: 0, \
             max_to_d: 0, max_to_a: 0, max_pval: 0, flags: [])"
        )
    };
    let file = |indices: &[usize]| numbered_file("egos", indices.iter().copied(), ego);
    let load = |text: &str| Egos::from_file(DataFile::new("mine.egos.ron", text));
    let refused = |text: &str| match load(text).expect_err("the file is refused") {
        DataError::Invalid { entry, field, .. } => format!("{entry} / {field}"),
        other => panic!("not a consistency error: {other}"),
    };
    let all: Vec<usize> = (1..=255).collect();
    assert_eq!(load(&file(&all)).unwrap().all().len(), 255);
    assert_eq!(load(&file(&[255])).unwrap().all().len(), 1);
    let too_many: Vec<usize> = (1..=256).collect();
    assert_eq!(refused(&file(&too_many)), "egos / egos");
    assert_eq!(refused(&file(&[])), "egos / egos");
    assert_eq!(refused(&file(&[256])), "egos[0] \"of Test\" / index");
    assert_eq!(refused(&file(&[0])), "egos[0] \"of Test\" / index");
    assert_eq!(refused(&file(&[4, 4])), "egos[1] \"of Test\" / index");
}

/// A unique's name shared by a later race is refused at the later entry, whichever of
/// the two is the unique.
#[test]
fn a_uniques_name_shared_later_is_refused_there() {
    let unique_first = GOOD
        .replacen("flags: [\"ANIMAL\"]", "flags: [\"ANIMAL\", \"UNIQUE\"]", 1)
        .replacen("name: \"Boss\"", "name: \"Rat\"", 1)
        .replacen("\"UNIQUE\", \"MALE\"", "\"MALE\"", 1);
    let (at, problem) = field_of(&unique_first);
    assert_eq!(at, "races[1] \"Rat\" / name");
    assert!(problem.contains("unique"), "{problem}");
}

/// A race file holds 1 to 4,096 races (`MAX_RACES`): the limit itself loads.
#[test]
fn a_race_file_holds_up_to_4096_races() {
    let rat = |index: usize| {
        format!(
            "(index: {index}, name: \"Rat\", symbol: 'r', colour: 'u', level: 1, rarity: 1, \
             speed: 110, hit_dice: \"1d3\", armour: 1, sleep: 10, vision: 8, experience: 1, \
             flags: [\"ANIMAL\"], spells: [], blows: [\"BITE:HURT:1d2\"])"
        )
    };
    let file = |count: usize| numbered_file("races", 1..=count, rat);
    assert_eq!(load(&file(4_096)).unwrap().len(), 4_096);
    let (at, problem) = field_of(&file(4_097));
    assert_eq!(at, "races / races");
    assert!(problem.contains("4097"), "{problem}");
}

/// A game's own trap file: 1 to 64 traps, names of 1 to 80 bytes, dice of at most
/// 255d255, every count and duration 0 to 1,000. The limits load; one past each is
/// refused with the entry and field named.
#[test]
fn a_trap_files_limits_are_accepted_and_one_past_them_refused() {
    use denizen_angband::Traps;
    use denizen_angband::trap::MAX_TRAPS;
    const SHIPPED: &str = include_str!("../../data/angband.traps.ron");
    let load = |text: &str| Traps::from_file(DataFile::new("mine.traps.ron", text));
    let refused = |text: &str| match load(text).expect_err("the file is refused") {
        DataError::Invalid { entry, field, .. } => format!("{entry} / {field}"),
        other => panic!("not a consistency error: {other}"),
    };
    let pits = |n: usize| {
        numbered_file("traps", 0..n, |i| {
            format!("(name: \"Pit {i}\", damage: None, effect: Pit, resisted_by: [])")
        })
    };
    assert_eq!(load(&pits(MAX_TRAPS)).unwrap().all().len(), 64);
    assert_eq!(refused(&pits(MAX_TRAPS + 1)), "traps / traps");
    assert_eq!(refused(&pits(0)), "traps / traps");
    let with = |from: &str, to: &str| {
        assert!(SHIPPED.contains(from), "{from}");
        SHIPPED.replacen(from, to, 1)
    };
    let long = |n: usize| format!("name: \"{}\"", "t".repeat(n));
    assert!(load(&with("name: \"Pit\"", &long(80))).is_ok());
    for name in [long(0), long(81)] {
        assert_eq!(refused(&with("name: \"Pit\"", &name)), "traps[1] / name");
    }
    assert!(load(&with("\"2d6\"", "\"255d255\"")).is_ok());
    for dice in ["\"256d1\"", "\"1d256\""] {
        assert_eq!(refused(&with("\"2d6\"", dice)), "traps[1] / damage");
    }
    // Each effect's counts and durations (the summons, the teleport's reach, a dart's and
    // a gas's status turns): the bound loads, one past it is refused.
    for (from, bound, past, entry) in [
        ("base: 2,", "base: 1000,", "base: 1001,", 4),
        ("die: 3,", "die: 1000,", "die: 1001,", 4),
        ("offset: 5", "offset: 0", "offset: -1", 4),
        ("distance: 100", "distance: 1000", "distance: 1001", 5),
        ("base: 20,", "base: 0,", "base: -1,", 8),
        ("spread: 20)", "spread: 1000)", "spread: 1001)", 8),
        ("base: 25,", "base: 1000,", "base: 1001,", 12),
        ("spread: 50", "spread: 0", "spread: -1", 12),
    ] {
        assert!(load(&with(from, bound)).is_ok(), "{bound}");
        assert_eq!(
            refused(&with(from, past)),
            format!("traps[{entry}] / effect"),
            "{past}"
        );
    }
}
