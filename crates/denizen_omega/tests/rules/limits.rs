//! The limits a data file is held to at load (docs/DATA.md lists them): each is refused
//! one past the limit with the file, entry and field, and accepted at the limit, so a
//! legal file never meets a hang, an abort or a wrapped number later.

use denizen_core::DataFile;
use denizen_core::rng::{StreamPurpose, WorldSeed};
use denizen_omega::bestiary::{MAX_NAMES, MAX_NUMBER, MAX_TREASURE, OMEGA_BESTIARY};
use denizen_omega::construct::{CHAMPION, Officeholder};
use denizen_omega::location::{MAX_DEPTHS, MAX_DIFFICULTY, OMEGA_LOCATIONS};
use denizen_omega::objects::MAX_OBJECT_WEIGHT;
use denizen_omega::variants::{MAX_CHAMPION_LEVEL, OMEGA_VARIANTS};
use denizen_omega::*;

/// The shipped text with one piece replaced (which must occur).
fn edited(original: &str, from: &str, to: &str) -> String {
    assert!(original.contains(from), "{from:?} is in the shipped file");
    original.replacen(from, to, 1)
}

fn bestiary(text: &str) -> Result<Bestiary, String> {
    Bestiary::from_file(DataFile::new("mine.ron", text)).map_err(|e| e.to_string())
}

fn locations(text: &str) -> Result<Locations, String> {
    Locations::from_file(DataFile::new("places.ron", text), &Bestiary::shipped())
        .map_err(|e| e.to_string())
}

/// A one-dungeon locations file.
fn dungeon(depths: u32, difficulty: &str, bonus: u64) -> String {
    format!(
        r#"(default_difficulty: "3", environments: [(key: "d", name: "d",
            difficulty: Some("{difficulty}"),
            dungeon: Some((depths: {depths}, population_bonus: {bonus}, recipe: Pool)))])"#
    )
}

#[test]
fn species_numbers_and_treasure_are_bounded() {
    let at = |field: &str, value: i64| {
        edited(
            OMEGA_BESTIARY,
            &format!("            {field}: 1,\n"),
            &format!("            {field}: {value},\n"),
        )
    };
    let max = i64::from(MAX_NUMBER);
    assert!(bestiary(&at("hp", max)).is_ok());
    let err = bestiary(&at("hp", max + 1)).err().unwrap_or_default();
    assert!(
        err.contains("field `hp`: 1000001 is outside -1000000..=1000000"),
        "{err}"
    );
    for none in [0, -4] {
        let err = bestiary(&at("hp", none)).err().unwrap_or_default();
        assert!(
            err.contains(&format!(
                "field `hp`: {none} hit points: a creature has at least 1"
            )),
            "{err}"
        );
    }
    assert!(bestiary(&at("hp", 1)).is_ok());
    assert!(
        bestiary(&at("xp", -max - 1))
            .unwrap_err()
            .contains("field `xp`")
    );
    let treasure = |value: u32| {
        edited(
            OMEGA_BESTIARY,
            "            treasure: 0,\n",
            &format!("            treasure: {value},\n"),
        )
    };
    assert!(bestiary(&treasure(MAX_TREASURE)).is_ok());
    assert!(bestiary(&treasure(MAX_TREASURE + 1)).is_err());
    let err = bestiary(&treasure(u32::MAX)).err().unwrap_or_default();
    assert!(
        err.contains("field `treasure`: 4294967295 is more than 100"),
        "{err}"
    );
}

#[test]
fn item_numbers_are_bounded() {
    let err = bestiary(&edited(
        OMEGA_BESTIARY,
        "quirk: Some(FixedPlus(2))",
        "quirk: Some(FixedPlus(-2147483648))",
    ))
    .err()
    .unwrap_or_default();
    assert!(
        err.contains("items[") && err.contains("field `quirk`"),
        "{err}"
    );
    let err = bestiary(&edited(
        OMEGA_BESTIARY,
        "            plus: 0,\n",
        "            plus: 2147483647,\n",
    ))
    .err()
    .unwrap_or_default();
    assert!(err.contains("field `plus`"), "{err}");
}

#[test]
fn name_lists_fit_their_index() {
    let names = |n: usize| {
        let list: Vec<String> = (0..n).map(|i| format!("\"d{i}\"")).collect();
        edited(
            OMEGA_BESTIARY,
            r#"deities: ["Odin", "Set", "Athena", "Hecate", "the Balance", "Destiny"],"#,
            &format!("deities: [{}],", list.join(", ")),
        )
    };
    assert!(bestiary(&names(MAX_NAMES)).is_ok());
    let err = bestiary(&names(MAX_NAMES + 1)).err().unwrap_or_default();
    assert!(
        err.contains("names: field `deities`: 256 names; at most 255"),
        "{err}"
    );
}

/// The audit's hang: class weights adding up past 10,000 leave the last class without a
/// bucket of `R(total)`, and the only class with common items was that one.
#[test]
fn every_object_class_must_be_drawable() {
    let weights = |first: u32| {
        edited(
            OMEGA_BESTIARY,
            "(class: Thing, weight: 20),",
            &format!("(class: Thing, weight: {first}),"),
        )
    };
    // The other classes weigh 115: a total of 10,000 draws every value; up to 50,000
    // every run of 5 values (the artifacts at the end) still has a bucket; at 100,115
    // the artifacts have none.
    assert!(bestiary(&weights(9_885)).is_ok());
    assert!(bestiary(&weights(40_000)).is_ok());
    let err = bestiary(&weights(100_000)).err().unwrap_or_default();
    assert!(
        err.contains("objects[11]: field `weight`: Artifact can never be drawn"),
        "{err}"
    );
    let err = bestiary(&weights(MAX_OBJECT_WEIGHT))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("objects[1]: field `weight`: the class weights add up past 1000000"),
        "{err}"
    );
    assert!(
        bestiary(&weights(u32::MAX))
            .unwrap_err()
            .contains("add up past")
    );
}

/// The legal side of the same edge (`ok_objects_reachable` of the regression inputs):
/// weights adding up to exactly 10,000 give the one-in-10,000 food class its bucket, so
/// possessions end, each one the food, and the unique artifact is put back every time.
#[test]
fn a_one_in_ten_thousand_class_still_makes_possessions() {
    let text =
        include_str!("../../../denizen_cli/tests/reliability/ok_objects_reachable.bestiary.ron");
    let bestiary = bestiary(text).expect("the weights add up to 10,000");
    let bread = bestiary.item_id("bread").unwrap();
    let relic = bestiary.item_id("relic").unwrap();
    let mut ledger = denizen_omega::objects::ItemLedger::new(bestiary.items());
    let mut rng = WorldSeed(7).stream(StreamPurpose::new("possessions"));
    let objects =
        bestiary
            .object_table()
            .possessions(&mut rng, bestiary.items(), &mut ledger, 5, 3);
    assert_eq!(objects.len(), 3);
    assert!(objects.iter().all(|o| o.item == bread));
    assert_eq!(ledger.state(relic), Uniqueness::UniqueUnmade);
}

/// A class whose only common items sit behind a guard that unique items can block does not
/// prove that possessions end: the guard's uniques could all be made.
#[test]
fn possessions_need_a_common_item_no_guard_can_block() {
    // One food, on the slot of one artifact: while the artifact is unique, taking it
    // would block the only common item, so the file is refused.
    let tiny = |crown: &str| {
        format!(
            r#"(
                band_count: 1,
                objects: [(class: Food, weight: 5, slot_guard: Some(Artifact))],
                species: [(key: "rat", name: "rat", band: 0, glyph: 'r', treasure: 2)],
                items: [
                    (key: "bread", name: "bread", class: Food, level: 0, value: 0, weight: 0,
                     uniqueness: Common, plus: 0, charge: 0, damage: 0, hit: 0, aux: 0,
                     fragility: 0, blessing: 0, glyph: '%', colour: Brown),
                    (key: "crown", name: "crown", class: Artifact, level: 0, value: 0,
                     weight: 0, uniqueness: {crown}, plus: 0, charge: 0, damage: 0, hit: 0,
                     aux: 0, fragility: 0, blessing: 0, glyph: '&', colour: Yellow),
                ],
            )"#
        )
    };
    let err = bestiary(&tiny("UniqueUnmade")).err().unwrap_or_default();
    assert!(
        err.contains("objects: field `class`: no listed class has a common item"),
        "{err}"
    );
    assert!(bestiary(&tiny("Common")).is_ok());
}

#[test]
fn dungeon_depths_difficulties_and_counts_are_bounded() {
    assert!(locations(&dungeon(MAX_DEPTHS, "1", 0)).is_ok());
    let err = locations(&dungeon(MAX_DEPTHS + 1, "1", 0))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("environments[0] \"d\": field `dungeon.depths`: 1001 levels"),
        "{err}"
    );
    let max = MAX_DIFFICULTY.to_string();
    assert!(locations(&dungeon(1, &max, 0)).is_ok());
    let err = locations(&dungeon(3, "D * 5000", 0))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("\"d\" at depth 3: field `difficulty`: gives 15000"),
        "{err}"
    );
    // The count at the top difficulty: R(3333) gives at most 3332, so 3 * 3332 + 11 + bonus.
    let bonus = u64::from(population::MAX_PLACEMENTS) - (3 * 3332 + 11);
    assert!(locations(&dungeon(1, &max, bonus)).is_ok());
    let err = locations(&dungeon(1, &max, bonus + 1))
        .err()
        .unwrap_or_default();
    assert!(
        err.contains("field `dungeon.population_bonus`") && err.contains("100001 placements"),
        "{err}"
    );
    let err = locations(&dungeon(1, "1", u64::from(u32::MAX)))
        .err()
        .unwrap_or_default();
    assert!(err.contains("population_bonus"), "the audit's wrap: {err}");
    let text = edited(
        OMEGA_LOCATIONS,
        "population: Some(Product(a: 5, b: 3))",
        "population: Some(Product(a: 5000, b: 3000))",
    );
    assert!(locations(&text).unwrap_err().contains("field `population`"));
}

#[test]
fn the_champions_level_is_bounded() {
    let rules = |level: i32| {
        let text = OMEGA_VARIANTS.replacen(
            "champion_shown_level: 20",
            &format!("champion_shown_level: {level}"),
            1,
        );
        assert_ne!(text, OMEGA_VARIANTS);
        Variants::from_file(DataFile::new("arena.ron", &text), &Bestiary::shipped())
            .map_err(|e| e.to_string())
    };
    let variants = rules(MAX_CHAMPION_LEVEL).unwrap();
    let bestiary = Bestiary::shipped();
    let mut rng = WorldSeed(1).stream(StreamPurpose::new("arena"));
    // A new game's Champion (level 10) showing the top level: 500 + 10 per shown level.
    let spartacus = Chronicle::new_game().holder(CHAMPION);
    let champion = variants.arena_opponent(&mut rng, &bestiary, 99, 1, &spartacus);
    assert_eq!(champion.stats.hp, 500 + 10 * 10_000);
    // A hall of fame from a save with an absurd level saturates instead of wrapping.
    let giant = Officeholder {
        level: i32::MAX,
        ..spartacus
    };
    let champion = variants.arena_opponent(&mut rng, &bestiary, 99, 1, &giant);
    assert_eq!(
        (champion.stats.hp, champion.stats.hit),
        (i32::MAX, i32::MAX)
    );
    let err = rules(MAX_CHAMPION_LEVEL + 1).err().unwrap_or_default();
    assert!(
        err.contains("arena: field `champion_shown_level`: 10001 is outside"),
        "{err}"
    );
}

/// A recipe nests as deeply as RON's nesting limit lets it (about 40 rolls) and no
/// deeper: the deepest legal recipe loads, and its exact odds and its sampler, which
/// recurse through it, run on a test thread's small stack; one roll more is refused with
/// its line and column.
#[test]
fn recipes_nest_only_as_deep_as_the_loader_allows() {
    let nested = |rolls: usize| {
        let mut recipe = String::from("Pool");
        for _ in 0..rolls {
            recipe = format!(
                r#"Roll(range: "100", when: "r > 50", then: Species("goblin"), otherwise: {recipe})"#
            );
        }
        format!(
            r#"(default_difficulty: "3", environments: [(key: "d", name: "d",
                difficulty: Some("3"),
                dungeon: Some((depths: 1, population_bonus: 0, recipe: {recipe})))])"#
        )
    };
    let deepest = (1..200)
        .take_while(|&rolls| locations(&nested(rolls)).is_ok())
        .last()
        .unwrap();
    assert!(deepest >= 30, "a recipe of {deepest} rolls is the deepest");
    let err = locations(&nested(deepest + 1)).unwrap_err();
    assert!(
        err.starts_with("places.ron:3:")
            && err.contains(&format!(
                "values nest more than {} levels deep",
                denizen_core::data::MAX_NESTING
            )),
        "{err}"
    );
    let locations = locations(&nested(deepest)).unwrap();
    let level = locations.get("d").unwrap().level(1).unwrap();
    let goblin = Bestiary::shipped().species_id("goblin").unwrap();
    // Each roll places a goblin with chance 49/100 and passes on otherwise; past the last
    // roll the ordinary pool at difficulty 3 draws.
    let pool = Selector::ordinary_pool(&Bestiary::shipped(), 3).unwrap();
    let passed = 0.51_f64.powi(deepest as i32);
    let expected = 1.0 - passed + passed * Odds::of(&pool).species(goblin);
    let odds = Odds::of(&level.selector).species(goblin);
    assert!((odds - expected).abs() < 1e-12, "{odds} vs {expected}");
    let mut rng = WorldSeed(3).stream(StreamPurpose::new("deep"));
    for _ in 0..100 {
        level.selector.sample(&mut rng);
    }
}

/// A recipe compiles to at most `MAX_OUTCOMES` outcomes at a depth, and a file to at most
/// `MAX_FILE_OUTCOMES`: a few hundred bytes of tables inside tables, each of 10,000
/// values, once took minutes and gigabytes to load.
#[test]
fn compiled_recipes_are_bounded() {
    use denizen_omega::location::MAX_FILE_OUTCOMES;
    use denizen_omega::select::MAX_OUTCOMES;
    let tables = |nested: usize| {
        let mut recipe = String::from("Pool");
        for _ in 0..nested {
            recipe = format!(r#"Table(range: "10000", entries: [], beyond: Some({recipe}))"#);
        }
        recipe
    };
    let file = |depths: u32, recipe: &str| {
        format!(
            r#"(default_difficulty: "3", environments: [(key: "d", name: "d",
                difficulty: Some("3"),
                dungeon: Some((depths: {depths}, population_bonus: 0, recipe: {recipe})))])"#
        )
    };
    // Nine tables and the pool fit one level; ten do not.
    const { assert!(MAX_OUTCOMES < 10 * 10_000 + 200) };
    assert!(locations(&file(1, &tables(9))).is_ok());
    let err = locations(&file(1, &tables(10))).unwrap_err();
    assert!(
        err.contains("\"d\" at depth 1: field `dungeon.recipe")
            && err.contains(&format!("more than {MAX_OUTCOMES} outcomes at depth 1")),
        "{err}"
    );
    // One table a level: the file passes its limit after about 500 levels of 10,000.
    let err = locations(&file(1_000, &tables(1))).unwrap_err();
    assert!(
        err.contains("field `dungeon.recipe`")
            && err.contains(&format!("more than {MAX_FILE_OUTCOMES} outcomes")),
        "{err}"
    );
    assert!(locations(&file(400, &tables(1))).is_ok());
    // Both limits exactly: ten tables of 9,999 values over a species (which adds none)
    // under one of 10 make MAX_OUTCOMES and fit a level; one value more does not; fifty
    // such levels fill the file.
    let table = |last: usize| {
        let inner = |range: usize| {
            format!(r#"Table(range: "{range}", entries: [], beyond: Some(Species("goblin")))"#)
        };
        let entries: Vec<String> = (0..10)
            .map(|i| inner(if i == 9 { last } else { 9_999 }))
            .collect();
        format!(r#"Table(range: "10", entries: [{}])"#, entries.join(", "))
    };
    assert_eq!(50 * MAX_OUTCOMES, MAX_FILE_OUTCOMES);
    assert_eq!(10 * 9_999 + 10, MAX_OUTCOMES);
    assert!(locations(&file(50, &table(9_999))).is_ok());
    let err = locations(&file(1, &table(10_000))).unwrap_err();
    assert!(
        err.contains(&format!("more than {MAX_OUTCOMES} outcomes at depth 1")),
        "{err}"
    );
    let err = locations(&file(51, &table(9_999))).unwrap_err();
    assert!(
        err.contains(&format!("more than {MAX_FILE_OUTCOMES} outcomes")),
        "{err}"
    );
}

/// Location keys name spoiler files and command-line arguments: no separators, dots or
/// spaces, at most 64 bytes.
#[test]
fn location_keys_are_plain_names() {
    for bad in ["../x", "/tmp/x", "a b", "", "x.md", &"k".repeat(65)] {
        let text = dungeon(1, "1", 0).replace(r#"key: "d""#, &format!("key: {bad:?}"));
        let err = locations(&text).unwrap_err();
        assert!(
            err.contains("field `key`") && err.contains("a key is 1 to 64"),
            "{err}"
        );
    }
    let text = dungeon(1, "1", 0).replace(r#"key: "d""#, r#"key: "Deep_Halls-2:north""#);
    assert!(locations(&text).is_ok());
    let longest = format!("key: {:?}", "k".repeat(64));
    assert!(locations(&dungeon(1, "1", 0).replace(r#"key: "d""#, &longest)).is_ok());
}

/// `MAX_LEVELS`: twenty dungeons of 1,000 levels load; a twenty-first is refused where it
/// passes the file's limit.
#[test]
fn a_files_levels_are_bounded() {
    use denizen_omega::location::MAX_LEVELS;
    let file = |dungeons: usize| {
        let environments: Vec<String> = (0..dungeons)
            .map(|i| {
                format!(
                    r#"(key: "d{i}", name: "d", difficulty: Some("1"),
                    dungeon: Some((depths: {MAX_DEPTHS}, population_bonus: 0, recipe: Pool)))"#
                )
            })
            .collect();
        format!(
            r#"(default_difficulty: "3", environments: [{}])"#,
            environments.join(", ")
        )
    };
    assert_eq!(MAX_LEVELS, 20 * MAX_DEPTHS as usize);
    assert!(locations(&file(20)).is_ok());
    let err = locations(&file(21)).unwrap_err();
    assert!(
        err.contains("environments[20] \"d20\": field `dungeon.depths`")
            && err.contains("pass 20000"),
        "{err}"
    );
}
