//! Bad data files give a clear error naming the file, entry and field; never a panic.

use denizen_core::{DataError, DataFile};
use denizen_omega::bestiary::OMEGA_BESTIARY;
use denizen_omega::location::OMEGA_LOCATIONS;
use denizen_omega::*;

fn bestiary_error(text: &str) -> String {
    Bestiary::from_file(DataFile::new("mine.ron", text))
        .unwrap_err()
        .to_string()
}

fn locations_error(text: &str) -> String {
    let bestiary = Bestiary::shipped();
    Locations::from_file(DataFile::new("places.ron", text), &bestiary)
        .unwrap_err()
        .to_string()
}

/// The shipped bestiary with one piece of text replaced (which must occur).
fn edited(original: &str, from: &str, to: &str) -> String {
    assert!(original.contains(from), "{from:?} is in the shipped file");
    original.replacen(from, to, 1)
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let text = edited(
        OMEGA_BESTIARY,
        "            hp: 1,\n",
        "            hp: one,\n",
    );
    let expected_line = 1 + text.lines().position(|l| l.trim() == "hp: one,").unwrap();
    let err = Bestiary::from_file(DataFile::new("mine.ron", &text)).unwrap_err();
    match &err {
        DataError::Syntax {
            file, line, column, ..
        } => {
            assert_eq!(file, "mine.ron");
            assert_eq!(*line, expected_line);
            assert!(*column > 1);
        }
        other => panic!("expected a syntax error, got {other}"),
    }
    let prefix = format!("mine.ron:{expected_line}:");
    assert!(err.to_string().starts_with(&prefix), "{err}");
    let unknown = edited(
        OMEGA_BESTIARY,
        "            hp: 1,\n",
        "            hitpoints: 1,\n",
    );
    assert!(bestiary_error(&unknown).contains("hitpoints"));
    assert!(bestiary_error("").starts_with("mine.ron:"));
}

#[test]
fn duplicate_species_key() {
    let text = edited(
        OMEGA_BESTIARY,
        "key: \"mendicant_priest\"",
        "key: \"hornet\"",
    );
    let err = bestiary_error(&text);
    assert_eq!(
        err,
        "mine.ron: species[1] \"hornet\": field `key`: duplicate key"
    );
}

#[test]
fn duplicate_item_key() {
    let text = edited(
        OMEGA_BESTIARY,
        "key: \"uncut_diamonds\"",
        "key: \"disposeable_garage_door_opener\"",
    );
    assert!(bestiary_error(&text).contains("items[1]"));
}

#[test]
fn dangling_fixed_item() {
    let text = edited(
        OMEGA_BESTIARY,
        "fixed_item: Some(\"dagger\")",
        "fixed_item: Some(\"spork\")",
    );
    let err = bestiary_error(&text);
    assert_eq!(
        err,
        "mine.ron: species[15] \"goblin\": field `fixed_item`: no item has the key \"spork\""
    );
}

#[test]
fn band_out_of_range_or_out_of_order() {
    let text = edited(OMEGA_BESTIARY, "band_count: 11", "band_count: 10");
    let err = bestiary_error(&text);
    assert!(
        err.contains("species[140] \"death\": field `band`: band 10 is outside 0..10"),
        "{err}"
    );
    let text = edited(
        OMEGA_BESTIARY,
        "key: \"grunt\",\n            name: \"grunt\",\n            band: 1",
        "key: \"grunt\",\n            name: \"grunt\",\n            band: 4",
    );
    let err = bestiary_error(&text);
    assert!(
        err.contains("species[10] \"tse_tse_fly\": field `band`"),
        "{err}"
    );
}

#[test]
fn empty_ordinary_pool() {
    // Reserve every band-0 species: the difficulty-0 pool would retry forever.
    let mut text = OMEGA_BESTIARY.to_owned();
    let mut reserved = 0;
    for key in [
        "hornet",
        "mendicant_priest",
        "itinerant_merchant",
        "guardsman",
        "log_npc",
        "sheep",
        "merchant",
        "0th_level_npc",
    ] {
        let start = text.find(&format!("key: \"{key}\"")).unwrap();
        let at = start + text[start..].find("uniqueness: Common").unwrap();
        text.replace_range(
            at..at + "uniqueness: Common".len(),
            "uniqueness: UniqueMade",
        );
        reserved += 1;
    }
    assert_eq!(reserved, 8);
    let err = bestiary_error(&text);
    assert!(err.contains("species[0..9]: field `uniqueness`"), "{err}");
    assert!(err.contains("ordinary pool is empty"), "{err}");
}

#[test]
fn empty_species_list() {
    let err = bestiary_error("(band_count: 1, species: [], items: [])");
    assert_eq!(
        err,
        "mine.ron: bestiary: field `species`: the list is empty"
    );
}

#[test]
fn dangling_species_in_a_recipe() {
    let text = edited(
        OMEGA_LOCATIONS,
        "Species(\"blipper\")",
        "Species(\"flipper\")",
    );
    let err = locations_error(&text);
    assert_eq!(
        err,
        "places.ron: environments[1] \"sewers\" at depth 1: field \
         `dungeon.recipe.otherwise.entries[2]`: no species has the key \"flipper\""
    );
}

#[test]
fn bad_formulas_and_ranges() {
    let text = edited(OMEGA_LOCATIONS, "range: \"D + 3\"", "range: \"D +\"");
    let err = locations_error(&text);
    assert!(err.contains("\"sewers\""), "{err}");
    assert!(err.contains("`dungeon.recipe.otherwise.range`"), "{err}");
    assert!(err.contains("ends too early"), "{err}");

    let text = edited(OMEGA_LOCATIONS, "range: \"D + 3\"", "range: \"20000 + D\"");
    let err = locations_error(&text);
    assert!(err.contains("a range must be 0..=10000"), "{err}");

    let text = edited(
        OMEGA_LOCATIONS,
        "range: \"D + 3\"",
        "range: \"12 / (4 - D)\"",
    );
    let err = locations_error(&text);
    assert!(err.contains("at depth 4"), "{err}");
    assert!(err.contains("divides by zero"), "{err}");

    let text = edited(
        OMEGA_LOCATIONS,
        "difficulty: Some(\"D / 6 + 3\")",
        "difficulty: Some(\"D < 6\")",
    );
    let err = locations_error(&text);
    assert!(err.contains("field `difficulty`"), "{err}");
    assert!(err.contains("expected a number"), "{err}");
}

#[test]
fn band_pick_out_of_range_and_duplicate_location() {
    let text = edited(
        OMEGA_LOCATIONS,
        "Bands(from: 4, to: 9)",
        "Bands(from: 4, to: 12)",
    );
    let err = locations_error(&text);
    assert!(err.contains("\"volcano\""), "{err}");
    assert!(err.contains("`dungeon.recipe.then`"), "{err}");
    let text = edited(OMEGA_LOCATIONS, "key: \"sewers\"", "key: \"goblin-caves\"");
    assert!(locations_error(&text).contains("field `key`: duplicate key"));
}

#[test]
fn a_band_pick_with_only_reserved_species_is_refused() {
    // Band 10 holds only reserved templates: retrying there would never end.
    let text = edited(
        OMEGA_LOCATIONS,
        "Bands(from: 4, to: 9)",
        "Bands(from: 10, to: 10)",
    );
    let err = locations_error(&text);
    assert!(
        err.contains("none that R(10) can give is ordinary"),
        "{err}"
    );
}

#[test]
fn a_game_adds_a_dungeon_without_rust() {
    let extra = r#"
        (
            key: "crypt",
            name: "Crypt",
            difficulty: Some("D + 3"),
            dungeon: Some((
                depths: 3,
                population_bonus: 4,
                recipe: Roll(range: "10", when: "r < 2 * D", then: Species("ghost"), otherwise: Pool),
            )),
        ),"#;
    let text = edited(
        OMEGA_LOCATIONS,
        "    environments: [",
        &format!("    environments: [{extra}"),
    );
    let bestiary = Bestiary::shipped();
    let locations = Locations::from_file(DataFile::new("mine.ron", &text), &bestiary).unwrap();
    let crypt = locations.get("crypt").unwrap();
    let deepest = crypt.level(3).unwrap();
    assert_eq!(deepest.difficulty, 6);
    let odds = Odds::of(&deepest.selector);
    let ghost = bestiary.species_id("ghost").unwrap();
    let pool_ghost = Odds::of(&Selector::ordinary_pool(&bestiary, 6).unwrap()).species(ghost);
    assert!((odds.species(ghost) - (0.6 + 0.4 * pool_ghost)).abs() < 1e-12);
    assert_eq!(deepest.population.distribution(), [(15, 0.5), (18, 0.5)]);
    let err = crypt.level(4).unwrap_err();
    assert_eq!(err.to_string(), "`crypt` has depths 1 to 3, not 4");
}

#[test]
fn object_classes_need_a_weight_and_items() {
    let text = edited(
        OMEGA_BESTIARY,
        "(class: Food, weight: 20)",
        "(class: Food, weight: 0)",
    );
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: objects[1]: field `weight`: must be at least 1"
    );
    // Take every cash item out of the table, then ask for the class.
    let mut without_cash = OMEGA_BESTIARY.to_owned();
    while let Some(at) = without_cash.find("class: Cash") {
        without_cash.replace_range(at..at + "class: Cash".len(), "class: Thing");
    }
    let text = edited(
        &without_cash,
        "(class: Food, weight: 20)",
        "(class: Cash, weight: 20)",
    );
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: objects[1]: field `class`: no item has the class Cash"
    );
    let text = edited(
        &without_cash,
        "slot_guard: Some(Thing)",
        "slot_guard: Some(Cash)",
    );
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: objects[11]: field `slot_guard`: no item has the class Cash"
    );
}

#[test]
fn object_classes_that_can_only_make_uniques_are_refused() {
    // One class, holding one unique item: possessions could never be made (the draw
    // would redraw forever), so the file is refused; a common item makes it usable.
    let tiny = |uniqueness: &str| {
        format!(
            r#"(
                band_count: 1,
                objects: [(class: Artifact, weight: 5)],
                species: [(
                    key: "rat", name: "rat", band: 0, level: 1, hp: 2, hit: 1, ac: 1,
                    damage: 1, awareness: 5, wakeup: 1, speed: 5, sleep: 50, treasure: 2,
                    xp: 1, fixed_item: None, uniqueness: Common, status: [], immunities: [],
                    behaviour: (talk: "", movement: "", melee: "", strike: "", special: ""),
                    melee_pattern: "", glyph: 'r', colour: Brown, construction: None,
                )],
                items: [(
                    key: "crown", name: "crown", class: Artifact, level: 0, value: 0,
                    weight: 0, uniqueness: {uniqueness}, plus: 0, charge: 0, damage: 0,
                    hit: 0, aux: 0, fragility: 0, blessing: 0, glyph: '&', colour: Yellow,
                )],
            )"#
        )
    };
    let err = bestiary_error(&tiny("UniqueUnmade"));
    assert!(
        err.contains("field `class`: no listed class has a common item"),
        "{err}"
    );
    assert!(Bestiary::from_file(DataFile::new("mine.ron", &tiny("Common"))).is_ok());
}

#[test]
fn names_refer_to_items_and_species_that_exist() {
    let text = edited(
        OMEGA_BESTIARY,
        "archmage_item: Some(\"kolwynia_the_key_that_was_lost\")",
        "archmage_item: Some(\"staff\")",
    );
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: names: field `archmage_item`: no item has the key \"staff\""
    );
    let text = edited(OMEGA_BESTIARY, "species: \"lich\"", "species: \"vampire\"");
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: names: field `undead`: no species has the key \"vampire\""
    );
    let start = OMEGA_BESTIARY.find("holy_symbols: [").unwrap() + "holy_symbols: [".len();
    let text = format!(
        "{}\"amulet\", {}",
        &OMEGA_BESTIARY[..start],
        &OMEGA_BESTIARY[start..]
    );
    assert_eq!(
        bestiary_error(&text),
        "mine.ron: names: field `holy_symbols`: no item has the key \"amulet\""
    );
}

#[test]
fn a_dungeons_recipe_belongs_in_the_dungeon() {
    let text = edited(
        OMEGA_LOCATIONS,
        "(key: \"court\", name: \"Court of the Archmage\")",
        "(key: \"court\", name: \"Court\", recipe: Some(Pool), \
         dungeon: Some((depths: 2, recipe: Pool)))",
    );
    let err = locations_error(&text);
    assert!(
        err.contains("\"court\": field `recipe`: a dungeon's recipe"),
        "{err}"
    );
    let text = edited(
        OMEGA_LOCATIONS,
        "(key: \"court\", name: \"Court of the Archmage\")",
        "(key: \"court\", name: \"Court\", population: Some(Product(a: 2, b: 2)), \
         dungeon: Some((depths: 2, recipe: Pool)))",
    );
    assert!(locations_error(&text).contains("field `recipe`: a dungeon's recipe"));
}

#[test]
fn the_default_difficulty_is_read_at_depth_one() {
    let text = edited(
        OMEGA_LOCATIONS,
        "default_difficulty: \"3\"",
        "default_difficulty: \"D + 4\"",
    );
    let bestiary = Bestiary::shipped();
    let locations = Locations::from_file(DataFile::new("mine.ron", &text), &bestiary).unwrap();
    assert_eq!(locations.default_difficulty(), 5);
    assert_eq!(locations.get("court").unwrap().levels()[0].difficulty, 5);
}

/// A game keeps Omega's data and adds one species and one dungeon from files of its own,
/// writing only the fields it cares about; the new species takes the next index and the
/// shipped arena is kept. Errors in the additions name the game's file.
#[test]
fn a_game_adds_to_omegas_data_in_files_of_its_own() {
    let species = r#"(species: [(key: "crypt_lord", name: "crypt lord", band: 10, glyph: 'L',
        level: 8, hp: 120, damage: 30)])"#;
    let dungeon = r#"(environments: [(key: "crypt", name: "Crypt", difficulty: Some("D + 3"),
        dungeon: Some((depths: 2, recipe: Roll(range: "10", when: "r < 3",
            then: Species("crypt_lord"), otherwise: Pool))))])"#;
    let rules = OmegaRules::shipped_with(OmegaExtension {
        species: Some(DataFile::new("crypt.bestiary.ron", species)),
        locations: Some(DataFile::new("crypt.locations.ron", dungeon)),
    })
    .unwrap();
    let lord = rules.bestiary.species_id("crypt_lord").unwrap();
    assert_eq!(lord.0, 150, "after the 150 shipped species");
    let template = rules.bestiary.get(lord);
    // Left out: speed 5, awareness 5, sleep 0, white, mobile and hostile.
    assert_eq!(
        (template.speed, template.awareness, template.sleep),
        (5, 5, 0)
    );
    assert_eq!(template.colour, denizen_omega::items::Colour::White);
    let bare = Bestiary::shipped_with(DataFile::new(
        "bare.ron",
        r#"(species: [(key: "wisp", name: "wisp", band: 10, glyph: 'w')])"#,
    ))
    .unwrap();
    let wisp = bare.get(bare.species_id("wisp").unwrap());
    assert_eq!((wisp.hp, wisp.level, wisp.treasure), (1, 0, 0));
    assert!(template.has(Status::Mobile) && template.has(Status::Hostile));
    let crypt = rules.locations.get("crypt").unwrap().level(2).unwrap();
    let pool = Odds::of(&Selector::ordinary_pool(&rules.bestiary, 5).unwrap());
    let odds = Odds::of(&crypt.selector).species(lord);
    assert!((odds - (0.3 + 0.7 * pool.species(lord))).abs() < 1e-12);
    assert!(rules.locations.get("sewers").is_ok() && rules.variants.is_some());

    let err = OmegaRules::shipped_with(OmegaExtension {
        species: Some(DataFile::new(
            "crypt.bestiary.ron",
            r#"(species: [(key: "goblin", name: "x", band: 10, glyph: 'x')])"#,
        )),
        locations: None,
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("crypt.bestiary.ron: species[150] \"goblin\": field `key`"),
        "{err}"
    );
    // A species must give its key, name, band and glyph.
    let err = Bestiary::shipped_with(DataFile::new(
        "crypt.bestiary.ron",
        r#"(species: [(key: "x", name: "x", band: 10)])"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("crypt.bestiary.ron:1:") && err.contains("glyph"),
        "{err}"
    );
}

/// The whole custom bestiary and dungeon of `docs/DATA.md` load, and the cellar's third
/// level places a bat with chance 6/10.
#[test]
fn the_data_reference_example_loads() {
    let rules = OmegaRules::from_files(OmegaFiles {
        bestiary: DataFile::new(
            "tiny.bestiary.ron",
            include_str!("../../../../docs/examples/tiny.bestiary.ron"),
        ),
        locations: DataFile::new(
            "tiny.locations.ron",
            include_str!("../../../../docs/examples/tiny.locations.ron"),
        ),
        variants: None,
    })
    .unwrap();
    let bat = rules.bestiary.species_id("bat").unwrap();
    let level = rules.locations.get("cellar").unwrap().level(3).unwrap();
    assert!((Odds::of(&level.selector).species(bat) - 0.6).abs() < 1e-12);
    assert!(
        rules.variants.is_none(),
        "no arena species in this bestiary"
    );
}

/// A species entry of the wide bestiaries below: ordinary or not, with `status`.
fn wide_species(i: usize, ordinary: bool, status: &str) -> String {
    let uniqueness = if ordinary { "Common" } else { "UniqueUnmade" };
    format!(
        "(key: \"s{i}\", name: \"s\", band: 0, level: 1, hp: 2, hit: 1, ac: 1, damage: 1, \
         awareness: 5, wakeup: 1, speed: 5, sleep: 50, treasure: 0, xp: 1, \
         fixed_item: None, uniqueness: {uniqueness}, status: [{status}], immunities: [], \
         behaviour: (talk: \"\", movement: \"\", melee: \"\", strike: \"\", special: \"\"), \
         melee_pattern: \"\", glyph: 's', colour: Brown, construction: None)"
    )
}

/// A bestiary of 20,000 species, more than `R`'s 10,000 buckets, and one item.
fn wide_bestiary(species: impl Fn(usize) -> String) -> String {
    let list: Vec<String> = (0..20_000).map(species).collect();
    format!(
        "(band_count: 1, species: [{}], items: [(key: \"opener\", name: \"opener\", \
         class: Thing, level: 2, value: 50, weight: 10, uniqueness: Common, plus: 0, \
         charge: 0, damage: 0, hit: 0, aux: 0, fragility: 10, blessing: 0, glyph: 'o', \
         colour: White)])",
        list.join(", ")
    )
}

/// Past 10,000 positions `R(k)` reaches only some of them: `R(20000)` gives even ones
/// only. A bestiary of 20,000 species whose ordinary ones all stand on odd positions has
/// an empty ordinary pool and is refused; one ordinary species on an even position makes
/// it usable.
#[test]
fn an_ordinary_pool_out_of_the_draws_reach_is_refused() {
    let file = |even_ordinary: Option<usize>| {
        wide_bestiary(|i| wide_species(i, i % 2 == 1 || Some(i) == even_ordinary, ""))
    };
    let err = bestiary_error(&file(None));
    assert!(
        err.contains("field `uniqueness`") && err.contains("R(20000)"),
        "{err}"
    );
    assert!(Bestiary::from_file(DataFile::new("mine.ron", &file(Some(4_000)))).is_ok());
}

/// The same reach for were forms: over all 20,000 positions, forms that must be mobile
/// are mobile only on odd positions, which `R(20000)` never gives, so no form can be
/// drawn and the variants are refused; an even mobile form makes them load.
#[test]
fn were_forms_out_of_the_draws_reach_are_refused() {
    let bestiary = |even_mobile: bool| {
        let text = wide_bestiary(|i| {
            let mobile = i % 2 == 1 || (even_mobile && i == 4_000);
            wide_species(
                i,
                i % 2 == 1 || i == 4_000,
                if mobile { "Mobile" } else { "" },
            )
        });
        Bestiary::from_file(DataFile::new("wide.ron", &text)).unwrap()
    };
    let variants = "(arena: (sequence: [], champion: \"s0\", champion_shown_level: 20, \
        random_bands: (0, 1), random_excludes: [], exit_item: \"opener\", awareness: 50), \
        were: (species: \"s0\", forms_from: 0, forms_count: 20000, form_excludes: [], \
        form_requires: [Mobile], moon_phase: 6))";
    let err = Variants::from_file(
        DataFile::new("wide.variants.ron", variants),
        &bestiary(false),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("wide.variants.ron") && err.contains("field `forms_count`"),
        "{err}"
    );
    assert!(
        Variants::from_file(
            DataFile::new("wide.variants.ron", variants),
            &bestiary(true)
        )
        .is_ok()
    );
}
