//! Loading: every error one line naming the file, the entry and the field; mod files
//! adding, replacing, removing and appending, and naming both files when they conflict.

use denizen_core::DataFile;
use denizen_tables::{Per, UniqueLedger, load, odds};

use crate::{by_key, error, species};

/// A file of `species` and one floor table of `rows`, depths 1-5.
fn file(species_keys: &[&str], rows: &str, more: &str) -> String {
    format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [{rows}])], {more} floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(species_keys)
    )
}

#[test]
fn errors_name_the_file_the_entry_and_the_field() {
    let cases = [
        (
            file(&["a"], r#"(what: Species("b"), depth: (1, 5))"#, ""),
            "t.ron: tables[0] `floor`: rows[0]: field `what`: no species `b` is loaded",
        ),
        (
            file(&["a"], r#"(what: Species("a"), depth: (1, 300))"#, ""),
            "t.ron: tables[0] `floor`: rows[0]: field `depth`: 300 is past the deepest depth, 250",
        ),
        (
            file(&["a"], r#"(what: Species("a"), depth: (4, 2))"#, ""),
            "t.ron: tables[0] `floor`: rows[0]: field `depth`: the range 4-2 is empty",
        ),
        (
            file(
                &["a"],
                r#"(what: Species("a"), depth: (1, 5), weight: 100001)"#,
                "",
            ),
            "t.ron: tables[0] `floor`: rows[0]: field `weight`: a weight is at most 100000",
        ),
        (
            file(
                &["a"],
                r#"(what: Species("a"), depth: (1, 5), chance: Some("1/2"))"#,
                "",
            ),
            "t.ron: tables[0] `floor`: rows[0]: field `chance`: only a pick-each table's rows have a chance and a count",
        ),
        (
            file(&["a", "a"], r#"(what: Species("a"), depth: (1, 5))"#, ""),
            "t.ron: species[1] `a`: field `key`: species[0] `a` also names an entry of this file: a key names one entry",
        ),
        (
            file(&["a"], r#"(what: Species("a"), depth: (1, 3))"#, ""),
            "t.ron: floor: field `table`: no row of table `floor` is eligible at floor depths 4-5",
        ),
        (
            file(
                &["a"],
                r#"(what: Group("g"), depth: (1, 5))"#,
                r#"groups: [(key: "g", leader: Some(Species("a")), followers: [(member: Species("a"), count: "30d2")])],"#,
            ),
            "t.ron: groups[0] `g`: field `followers[0].count`: 30d2 can give more than 50",
        ),
        (
            file(
                &["a"],
                r#"(what: Group("g"), depth: (1, 5))"#,
                r#"groups: [(key: "g", followers: [(member: Species("a"), count: "1d2")])],"#,
            ),
            "t.ron: tables[0] `floor`: rows[0]: field `what`: the group `g` has no leader: only a species' escort goes without one",
        ),
    ];
    for (text, expected) in &cases {
        let e = error(text);
        assert_eq!(&e, expected);
        assert_eq!(e.lines().count(), 1);
    }
    let syntax = error("(\n species: [ (key: 3) ],\n)");
    assert!(syntax.starts_with("t.ron:2:"), "{syntax}");
    let chance = error(
        &file(&["a"], r#"(what: Species("a"), depth: (1, 5))"#, "")
            .replace("level: 1,", "level: 1, asleep: Some(\"3/2\"),"),
    );
    assert!(chance.contains("`3/2` is not a chance"), "{chance}");
    let missing = error(&format!("(species: [{}])", species(&["a"])));
    assert_eq!(
        missing,
        "t.ron: field `floor`: none of the files (t.ron) gives the floor's rules: one gives `floor: Some((table: ..., depths: ..., count: ...))`"
    );
}

#[test]
fn structure_errors_name_the_cycle_the_table_and_the_escort() {
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 5)), (what: Table(\"x\"), depth: (1, 5))]), (key: \"x\", rows: [(what: Table(\"y\"), depth: (1, 5))]), (key: \"y\", rows: [(what: Table(\"x\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a"])
    );
    assert_eq!(
        error(&text),
        "t.ron: tables[2] `y`: rows[0]: field `what`: nesting cycle: table `x` -> table `y` -> table `x`"
    );
    // Seventeen tables each nesting the next: one too deep.
    let chain: String = (0..17)
        .map(|i| {
            format!(
                "(key: \"t{i}\", rows: [(what: Table(\"t{}\"), depth: (1, 5))]),",
                i + 1
            )
        })
        .collect();
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 5)), (what: Table(\"t0\"), depth: (1, 5))]), {chain} (key: \"t17\", rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a"])
    );
    assert!(
        error(&text).contains("nest more than 16 deep"),
        "{}",
        error(&text)
    );
    // A follower's table must give one creature.
    let text = format!(
        "(species: [{}], groups: [(key: \"g\", leader: Some(Species(\"a\")), followers: [(member: Table(\"each\"), count: \"1d2\")])], tables: [(key: \"floor\", rows: [(what: Group(\"g\"), depth: (1, 5))]), (key: \"each\", pick: Each, rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a"])
    );
    assert!(error(&text).starts_with("t.ron: groups[0] `g`: field `followers[0].member`: the table `each` does not give one creature"), "{}", error(&text));
    // An escort with a leader of its own.
    let text = "(species: [(key: \"a\", name: \"a\", glyph: 'a', level: 1, hit_points: \"1d1\", escort: Some(\"g\"))], groups: [(key: \"g\", leader: Some(Species(\"a\")), followers: [(member: Species(\"a\"), count: \"1d2\")])], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))".to_owned();
    assert!(
        error(&text)
            .starts_with("t.ron: species[0] `a`: field `escort`: the escort `g` has a leader"),
        "{}",
        error(&text)
    );
}

const BASE: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d3"),
        (key: "bat", name: "bat", glyph: 'b', level: 1, hit_points: "1d2"),
    ],
    tables: [(key: "floor", rows: [
        (what: Species("rat"), depth: (1, 5)),
        (what: Species("bat"), depth: (1, 5)),
    ])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
)"#;

fn two(base: &str, r#mod: &str) -> Result<denizen_tables::Bestiary, String> {
    load(&[
        DataFile::new("base.ron", base),
        DataFile::new("mod.ron", r#mod),
    ])
    .map_err(|e| e.to_string())
}

#[test]
fn a_mod_adds_replaces_removes_and_appends() {
    let r#mod = r#"(
        species: [(key: "newt", name: "newt", glyph: 'n', level: 1, hit_points: "1d1")],
        replace: (
            species: [(key: "rat", name: "giant rat", glyph: 'R', level: 2, hit_points: "2d4")],
            tables: [(key: "floor", rows: [(what: Species("rat"), depth: (1, 5), weight: 2)])],
        ),
        remove: [Species("bat")],
        append: [(table: "floor", rows: [(what: Species("newt"), depth: (1, 5))])],
    )"#;
    let b = two(BASE, r#mod).unwrap();
    assert_eq!(b.species().len(), 2);
    let rat = b.species_of(b.species_by_key("rat").unwrap());
    assert_eq!((rat.name.as_str(), rat.glyph), ("giant rat", 'R'));
    assert!(b.species_by_key("bat").is_none());
    let one = odds(
        &b,
        1,
        &UniqueLedger::new(),
        &denizen_tables::Context::new(),
        Per::Placement,
    )
    .unwrap();
    assert!((by_key(&b, &one.expected, "rat") - 2.0 / 3.0).abs() < 1e-15);
    assert!((by_key(&b, &one.expected, "newt") - 1.0 / 3.0).abs() < 1e-15);
    let floor = b.table_by_key("floor").unwrap();
    assert_eq!(
        b.row_source(floor, 1).to_string(),
        "mod.ron: append[0] `floor`: rows[0]"
    );
    assert_eq!(
        b.table_source(floor).to_string(),
        "mod.ron: replace.tables[0] `floor`"
    );
}

#[test]
fn conflicting_files_are_both_named() {
    assert_eq!(
        two(BASE, r#"(remove: [Species("bat")])"#).unwrap_err(),
        "base.ron: tables[0] `floor`: rows[1]: field `what`: no species `bat` is loaded: mod.ron: remove[0] Species(`bat`) removed it"
    );
    assert_eq!(
        two(
            BASE,
            r#"(species: [(key: "rat", name: "r", glyph: 'r', level: 1, hit_points: "1d1")])"#
        )
        .unwrap_err(),
        "mod.ron: species[0] `rat`: field `key`: already loaded from base.ron: a later file changes it under `replace`"
    );
    assert_eq!(
        two(
            BASE,
            r#"(replace: (groups: [(key: "pack", followers: [])]))"#
        )
        .unwrap_err(),
        "mod.ron: replace.groups[0] `pack`: field `key`: no group `pack` is loaded to replace"
    );
    assert_eq!(
        two(BASE, r#"(append: [(table: "cellar", rows: [])])"#).unwrap_err(),
        "mod.ron: append[0] `cellar`: field `table`: no table `cellar` is loaded to append to"
    );
    assert_eq!(
        two(BASE, r#"(remove: [Loot("coins")])"#).unwrap_err(),
        "mod.ron: remove[0] Loot(`coins`): no loot table `coins` is loaded to remove"
    );
}

/// Every entry is checked as written, for what it decides by itself, even when a later
/// file replaces it: a base refused alone is refused with its mod too, naming the base's
/// entry. A reference is resolved after the merge, so a mod may still mend one.
#[test]
fn entries_a_later_file_replaces_are_checked_as_written() {
    let bad_glyph = BASE.replacen("glyph: 'r'", "glyph: '\\n'", 1);
    let mend = r#"(replace: (species: [(key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d4")]))"#;
    assert_eq!(
        two(&bad_glyph, mend).unwrap_err(),
        "base.ron: species[0] `rat`: field `glyph`: a glyph is a visible character that takes its own cell, not \\u{a}"
    );
    let bad_weight = BASE.replacen("depth: (1, 5))", "depth: (1, 5), weight: 100001)", 1);
    let replace_floor =
        r#"(replace: (tables: [(key: "floor", rows: [(what: Species("rat"), depth: (1, 5))])]))"#;
    assert_eq!(
        two(&bad_weight, replace_floor).unwrap_err(),
        "base.ron: tables[0] `floor`: rows[0]: field `weight`: a weight is at most 100000"
    );
    // A reference the base gets wrong, which the mod's replacement mends, loads.
    let bad_reference = BASE.replacen("Species(\"rat\")", "Species(\"ratt\")", 1);
    assert!(two(&bad_reference, replace_floor).is_ok());
}

/// A cycle a mod's edit closes is named on the mod's entry, with the chain, not as what it
/// breaks in a base entry the user never touched.
#[test]
fn a_cycle_a_mod_closes_is_named_on_the_mod_entry() {
    let base = r#"(
        species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
        groups: [(key: "band", leader: Some(Species("a")), followers: [(member: Table("kin"), count: "1d2")])],
        tables: [
            (key: "floor", rows: [(what: Group("band"), depth: (1, 5))]),
            (key: "kin", rows: [(what: Species("a"), depth: (1, 5))]),
            (key: "more", rows: [(what: Species("a"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    )"#;
    let r#mod = r#"(
        append: [(table: "kin", rows: [(what: Table("more"), depth: (1, 5))])],
        replace: (tables: [(key: "more", rows: [(what: Table("kin"), depth: (1, 5))])]),
    )"#;
    assert_eq!(
        two(base, r#mod).unwrap_err(),
        "mod.ron: replace.tables[0] `more`: rows[0]: field `what`: nesting cycle: table `kin` -> table `more` -> table `kin`"
    );
}

/// A glyph is a character that shows and takes its own cell: the invisible ones a
/// terminal draws as nothing or on the cell before are refused, each named escaped.
#[test]
fn invisible_glyphs_are_refused() {
    for glyph in [
        '\u{200B}',
        '\u{AD}',
        '\u{301}',
        '\u{FEFF}',
        '\u{E000}',
        '\u{200F}',
        '\u{10FFFF}',
    ] {
        let text = BASE.replacen("glyph: 'r'", &format!("glyph: '{glyph}'"), 1);
        assert_eq!(
            two(&text, "()").unwrap_err(),
            format!(
                "base.ron: species[0] `rat`: field `glyph`: a glyph is a visible character that takes its own cell, not {}",
                glyph.escape_unicode()
            )
        );
    }
    for glyph in ['é', 'Ж', '龍', '@'] {
        let text = BASE.replacen("glyph: 'r'", &format!("glyph: '{glyph}'"), 1);
        assert!(two(&text, "()").is_ok(), "{glyph}");
    }
}

/// A syntax error speaks the file's words: a number too large for its field names the
/// field, the number and the field's limit; a misplaced field or variant names the
/// entry's kind as the file calls it, never a type of the crate.
#[test]
fn syntax_errors_name_fields_and_shapes_in_the_files_words() {
    let big = BASE.replacen("depth: (1, 5)),", "depth: (1, 5), weight: 99999999999),", 1);
    let e = two(&big, "()").unwrap_err();
    assert!(
        e.starts_with("base.ron:7:")
            && e.ends_with(
                ": field `weight`: `99999999999` is out of range (a weight is at most 100000)"
            ),
        "{e}"
    );
    let negative = BASE.replacen("level: 1,", "level: -3,", 1);
    let e = two(&negative, "()").unwrap_err();
    assert!(
        e.ends_with(": field `level`: `-3` is out of range (at most 250)"),
        "{e}"
    );
    let unknown = BASE.replacen("depth: (1, 5)),", "depth: (1, 5), wieght: 2),", 1);
    let e = two(&unknown, "()").unwrap_err();
    assert!(
        e.contains("Unexpected field named `wieght` in `row`"),
        "{e}"
    );
    let variant = BASE.replacen("Species(\"rat\")", "Creature(\"rat\")", 1);
    let e = two(&variant, "()").unwrap_err();
    assert!(
        e.contains("Unexpected variant named `Creature` in enum `what`"),
        "{e}"
    );
    for internal in ["RowDef", "Target", "PlaceDef", "SpeciesDef"] {
        assert!(!e.contains(internal), "{e}");
    }
}

/// A one-file bestiary: species `a` (with `species` added to its fields), a group `g` led
/// by `a` with followers `follower`, loot `l`, and a floor table of `row` (a row drawing
/// `a`, with `row` added) and the group, floor `floor` added to the floor's fields.
fn bounded(species: &str, follower: &str, row: &str, floor: &str) -> String {
    format!(
        r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"{species})],
        groups: [(key: "g", leader: Some(Species("a")), followers: [(member: Species("a"), count: "1d1"{follower})])],
        loot: [(key: "l", items: [(item: "coin", weight: 1)])],
        tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5){row}), (what: Group("g"), depth: (1, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"){floor})))"#
    )
}

/// Every bound a file keeps, at its value and one past: the value loads, one past is
/// refused naming the field (an off-by-one in any comparison changes one of the two).
#[test]
fn every_bound_holds_at_its_value_and_refuses_one_past() {
    let long = |n: usize| "n".repeat(n);
    let tags = |n: usize| {
        (0..n)
            .map(|i| format!("\"t{i}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // (at the bound, one past, the field the refusal names)
    let cases: Vec<(String, String, &str)> = vec![
        (
            bounded("", "", "", "").replace("level: 1", "level: 250"),
            bounded("", "", "", "").replace("level: 1", "level: 251"),
            "field `level`",
        ),
        (
            bounded(&format!(", tags: [{}]", tags(32)), "", "", ""),
            bounded(&format!(", tags: [{}]", tags(33)), "", "", ""),
            "field `tags`",
        ),
        (
            bounded(&format!(", tags: [\"{}\"]", long(64)), "", "", ""),
            bounded(&format!(", tags: [\"{}\"]", long(65)), "", "", ""),
            "field `tags[0]`",
        ),
        (
            bounded("", "", "", "").replace("name: \"a\"", &format!("name: \"{}\"", long(200))),
            bounded("", "", "", "").replace("name: \"a\"", &format!("name: \"{}\"", long(201))),
            "field `name`",
        ),
        (
            bounded("", "", "", "").replace("hit_points: \"1d1\"", "hit_points: \"100d10000\""),
            bounded("", "", "", "").replace("hit_points: \"1d1\"", "hit_points: \"101d10000\""),
            "field `hit_points`",
        ),
        (
            bounded("", "", "", "").replace("hit_points: \"1d1\"", "hit_points: \"100d10000\""),
            bounded("", "", "", "").replace("hit_points: \"1d1\"", "hit_points: \"100d10001\""),
            "field `hit_points`",
        ),
        (
            bounded("", "", "", "").replace("followers: [", "radius: 16, followers: ["),
            bounded("", "", "", "").replace("followers: [", "radius: 17, followers: ["),
            "field `radius`",
        ),
        (
            bounded("", &format!(", role: \"{}\"", long(64)), "", ""),
            bounded("", &format!(", role: \"{}\"", long(65)), "", ""),
            "field `followers[0].role`",
        ),
        (
            bounded("", "", ", weight: 100000", ""),
            bounded("", "", ", weight: 100001", ""),
            "field `weight`",
        ),
        (
            bounded("", "", "", ", place: (min_distance: Some(1000))"),
            bounded("", "", "", ", place: (min_distance: Some(1001))"),
            "field `place.min_distance`",
        ),
        (
            bounded(
                "",
                "",
                "",
                ", out_of_depth: Some((chance: \"1/2\", divisor: 1000, bonus: 1, cap: 250, fairness: 500))",
            ),
            bounded(
                "",
                "",
                "",
                ", out_of_depth: Some((chance: \"1/2\", divisor: 1001, bonus: 1, cap: 250, fairness: 500))",
            ),
            "field `out_of_depth.divisor`",
        ),
        (
            bounded(
                "",
                "",
                "",
                ", out_of_depth: Some((chance: \"1/2\", divisor: 1, bonus: 1, cap: 250, fairness: 500))",
            ),
            bounded(
                "",
                "",
                "",
                ", out_of_depth: Some((chance: \"1/2\", divisor: 1, bonus: 1, cap: 250, fairness: 501))",
            ),
            "field `out_of_depth.fairness`",
        ),
        (
            bounded("", "", "", "")
                .replace("dice: \"1d1\"", "dice: \"495d1\", per_depth: Some(\"1/1\")"),
            bounded("", "", "", "")
                .replace("dice: \"1d1\"", "dice: \"496d1\", per_depth: Some(\"1/1\")"),
            "field `count`",
        ),
    ];
    for (fits, past, field) in cases {
        if let Err(e) = load(&[DataFile::new("t.ron", &fits)]) {
            panic!("at the bound of {field}: {e}");
        }
        let e = load(&[DataFile::new("t.ron", &past)])
            .unwrap_err()
            .to_string();
        assert!(e.contains(field), "past the bound of {field}: {e}");
    }
    // A creature has at least one hit point: no dice, or dice of no sides, are refused.
    for none in ["0d4", "2d0"] {
        let text = bounded("", "", "", "")
            .replace("hit_points: \"1d1\"", &format!("hit_points: \"{none}\""));
        let e = load(&[DataFile::new("t.ron", &text)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("at least 1 hit point"), "{none}: {e}");
    }
    // Sixteen kinds of follower and no more.
    let kinds = |n: usize| vec!["(member: Species(\"a\"), count: \"1d1\")"; n].join(", ");
    let group = |n: usize| {
        bounded("", "", "", "").replace(
            "followers: [(member: Species(\"a\"), count: \"1d1\")]",
            &format!("followers: [{}]", kinds(n)),
        )
    };
    assert!(load(&[DataFile::new("t.ron", &group(16))]).is_ok());
    for n in [0, 17] {
        let e = load(&[DataFile::new("t.ron", &group(n))])
            .unwrap_err()
            .to_string();
        assert!(e.contains("field `followers`"), "{n}: {e}");
    }
    // A follower's count gives at most 50.
    let count =
        |c: &str| bounded("", "", "", "").replace("count: \"1d1\")]", &format!("count: \"{c}\")]"));
    assert!(load(&[DataFile::new("t.ron", &count("50d1"))]).is_ok());
    let e = load(&[DataFile::new("t.ron", &count("25d3"))])
        .unwrap_err()
        .to_string();
    assert!(e.contains("can give more than 50"), "{e}");
}

/// A number too large for its field names the field's own limit.
#[test]
fn a_number_too_large_names_its_fields_limit() {
    let base = bounded("", "", "", "");
    let cases = [
        (
            "followers: [",
            "radius: 99999999999, followers: [",
            "(1 to 16)",
        ),
        (
            "count: (dice: \"1d1\")",
            "count: (dice: \"1d1\"), place: (min_distance: Some(99999999999))",
            "(at most 1000)",
        ),
        (
            "count: (dice: \"1d1\")",
            "count: (dice: \"1d1\"), out_of_depth: Some((chance: \"1/2\", divisor: 99999999999, bonus: 1, cap: 2, fairness: 1))",
            "(1 to 1000)",
        ),
        (
            "count: (dice: \"1d1\")",
            "count: (dice: \"1d1\"), out_of_depth: Some((chance: \"1/2\", divisor: 1, bonus: 1, cap: 2, fairness: 99999999999))",
            "(at most 500)",
        ),
        (
            "count: (dice: \"1d1\")",
            "count: (dice: \"1d1\"), out_of_depth: Some((chance: \"1/2\", divisor: 1, bonus: 99999999999, cap: 2, fairness: 1))",
            "(at most 250)",
        ),
    ];
    for (from, to, limit) in cases {
        let text = base.replacen(from, to, 1);
        let e = error(&text);
        assert!(e.ends_with(&format!("is out of range {limit}")), "{e}");
    }
    let wandering = base.replacen(
        "count: (dice: \"1d1\"))))",
        "count: (dice: \"1d1\"))), wandering: Some((table: \"floor\", chance: \"1/2\", every: 99999999999)))",
        1,
    );
    assert!(
        error(&wandering).ends_with("is out of range (1 to 4294967295)"),
        "{}",
        error(&wandering)
    );
}

/// 64 files load together, and a 65th is refused naming it.
#[test]
fn at_most_64_files_load_together() {
    let base = bounded("", "", "", "");
    let names: Vec<String> = (0..65).map(|i| format!("f{i}.ron")).collect();
    let files: Vec<DataFile<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| DataFile::new(n, if i == 0 { &base } else { "()" }))
        .collect();
    assert!(load(&files[..64]).is_ok());
    let e = load(&files).unwrap_err().to_string();
    assert_eq!(
        e,
        "f64.ron: more than 64 files in one load (this is file 65)"
    );
}

/// Appended rows bring a table to 10,000 rows and no further.
#[test]
fn appended_rows_bring_a_table_to_10000_and_no_further() {
    let rows = |n: usize| vec!["(what: Species(\"a\"), depth: (1, 5))"; n].join(", ");
    let base = bounded("", "", "", "");
    let append = |n: usize| format!("(append: [(table: \"floor\", rows: [{}])])", rows(n));
    assert!(two(&base, &append(9_998)).is_ok(), "the base has two rows");
    let e = two(&base, &append(9_999)).unwrap_err();
    assert_eq!(
        e,
        "mod.ron: append[0] `floor`: field `rows`: the table would hold more than 10000 rows"
    );
}

/// One placement brings at most 200 creatures: a pick-each table of 4 draws of a group
/// of 50 (a leader and 49 followers) is exactly that; one more follower is refused.
#[test]
fn one_placement_brings_at_most_200() {
    let text = |followers: u32| {
        format!(
            r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
            groups: [(key: "g", leader: Some(Species("a")), followers: [
                (member: Species("a"), count: "{followers}d1"),
                (member: Species("a"), count: "{rest}d1"),
            ])],
            tables: [(key: "floor", pick: Each, rows: [(what: Group("g"), depth: (1, 5), count: Some("4d1"))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
            rest = 49 - 40,
        )
    };
    assert!(load(&[DataFile::new("t.ron", &text(40))]).is_ok());
    let e = error(&text(41));
    assert!(
        e.contains("one draw of it can bring 204 creatures, more than the 200"),
        "{e}"
    );
}

/// Tables and groups nest 16 deep and no deeper.
#[test]
fn tables_nest_16_deep_and_no_deeper() {
    let chain = |n: usize| {
        let tables: String = (0..n)
            .map(|i| {
                format!(
                    "(key: \"t{i}\", rows: [(what: Table(\"t{}\"), depth: (1, 5))]),",
                    i + 1
                )
            })
            .collect();
        format!(
            "(species: [{}], tables: [(key: \"floor\", rows: [(what: Table(\"t0\"), depth: (1, 5))]), {tables} (key: \"t{n}\", rows: [(what: Species(\"a\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
            species(&["a"])
        )
    };
    assert!(
        load(&[DataFile::new("t.ron", &chain(14))]).is_ok(),
        "16 tables deep"
    );
    let e = error(&chain(15));
    assert!(e.contains("nest more than 16 deep"), "{e}");
    // A group's follower drawn from a creature table nested as deep.
    let creatures = |n: usize| {
        chain(n).replace(
        "(key: \"floor\", rows: [(what: Table(\"t0\"), depth: (1, 5))])",
        "(key: \"floor\", rows: [(what: Group(\"g\"), depth: (1, 5))])",
    ).replace("tables: [", "groups: [(key: \"g\", leader: Some(Species(\"a\")), followers: [(member: Table(\"t0\"), count: \"1d1\")])], tables: [")
    };
    if let Err(e) = load(&[DataFile::new("t.ron", &creatures(13))]) {
        panic!("a group and 14 tables under the floor's: {e}");
    }
    let e = error(&creatures(14));
    assert!(e.contains("nest more than 16 deep"), "{e}");
}

/// A cycle through files is named on the link the later file wrote, whatever its place in
/// the chain; a cycle in one file, through a group or an escort, is named on its last link
/// (a table's row, a group's follower).
#[test]
fn a_cycle_is_named_on_the_later_files_link_and_field() {
    let base = r#"(
        species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
        tables: [
            (key: "floor", rows: [(what: Table("x"), depth: (1, 5))]),
            (key: "x", rows: [(what: Table("y"), depth: (1, 5))]),
            (key: "y", rows: [(what: Species("a"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    )"#;
    // The mod closes x -> y -> x at y; the base wrote x -> y, met last on the cycle.
    let r#mod = r#"(replace: (tables: [(key: "y", rows: [(what: Table("x"), depth: (1, 5))])]))"#;
    assert_eq!(
        two(base, r#mod).unwrap_err(),
        "mod.ron: replace.tables[0] `y`: rows[0]: field `what`: nesting cycle: table `x` -> table `y` -> table `x`"
    );
    let through_group = r#"(
        species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1")],
        groups: [(key: "g", leader: Some(Species("a")), followers: [(member: Species("a"), count: "1d1"), (member: Table("t"), count: "1d1")])],
        tables: [
            (key: "floor", rows: [(what: Group("g"), depth: (1, 5))]),
            (key: "t", rows: [(what: Group("g"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    )"#;
    assert_eq!(
        error(through_group),
        "t.ron: tables[1] `t`: rows[0]: field `what`: nesting cycle: group `g` -> table `t` -> group `g`"
    );
    let through_escort = r#"(
        species: [
            (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
            (key: "e", name: "e", glyph: 'e', level: 1, hit_points: "1d1", escort: Some("pack")),
        ],
        groups: [(key: "pack", followers: [(member: Table("t"), count: "1d1")])],
        tables: [
            (key: "floor", rows: [(what: Species("a"), depth: (1, 5)), (what: Table("t"), depth: (1, 5))]),
            (key: "t", rows: [(what: Species("e"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    )"#;
    // One file: the cycle t -> pack -> t is named on its last link, the group's follower.
    assert_eq!(
        error(through_escort),
        "t.ron: groups[0] `pack`: field `followers[0].member`: nesting cycle: table `t` -> group `pack` -> table `t`"
    );
}

/// Every entry a later file replaces is checked as written: a group, a loot table, the
/// floor's and the wandering rules, and rows appended to a table a later file replaces.
#[test]
fn every_kind_of_entry_is_checked_before_a_later_file_replaces_it() {
    let base = bounded("", "", "", "");
    let cases = [
        (
            base.replacen("followers: [", "radius: 0, followers: [", 1),
            r#"(replace: (groups: [(key: "g", leader: Some(Species("a")), followers: [(member: Species("a"), count: "1d1")])]))"#,
            "groups[0] `g`: field `radius`",
        ),
        (
            base.replacen("weight: 1)]", "weight: 0)]", 1),
            r#"(replace: (loot: [(key: "l", items: [(item: "coin", weight: 1)])]))"#,
            "loot[0] `l`: field `items[0].weight`",
        ),
        (
            base.replacen("count: (dice: \"1d1\")", "count: (dice: \"501d1\")", 1),
            r#"(floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#,
            "floor: field `count.dice`",
        ),
        (
            base.replacen("count: (dice: \"1d1\"))))", "count: (dice: \"1d1\"))), wandering: Some((table: \"floor\", chance: \"1/2\", every: 0)))", 1),
            r#"(wandering: Some((table: "floor", chance: "1/2", every: 10)))"#,
            "wandering: field `every`",
        ),
    ];
    for (bad_base, mend, entry) in cases {
        let e = two(&bad_base, mend).unwrap_err();
        assert!(e.starts_with(&format!("base.ron: {entry}")), "{e}");
    }
    // A row appended to a table a later file replaces: refused all the same.
    let files = [
        DataFile::new("base.ron", &base),
        DataFile::new(
            "mod.ron",
            r#"(append: [(table: "floor", rows: [(what: Species("a"), depth: (1, 5), weight: 100001)])])"#,
        ),
        DataFile::new(
            "last.ron",
            r#"(replace: (tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])]))"#,
        ),
    ];
    let e = load(&files).unwrap_err().to_string();
    assert_eq!(
        e,
        "mod.ron: append[0] `floor`: rows[0]: field `weight`: a weight is at most 100000"
    );
}

/// A key is 1 to 64 letters, digits, `_` or `-`.
#[test]
fn keys_are_short_plain_names() {
    let with_key = |k: &str| {
        bounded("", "", "", "").replace("loot: [(key: \"l\"", &format!("loot: [(key: \"{k}\""))
    };
    assert!(load(&[DataFile::new("t.ron", &with_key(&"k".repeat(64)))]).is_ok());
    for bad in ["", "a b", "a.b", "é", &"k".repeat(65)] {
        let e = error(&with_key(bad));
        assert!(
            e.ends_with("field `key`: a key is 1 to 64 letters, digits, `_` or `-`"),
            "{bad:?}: {e}"
        );
    }
}

/// A cycle a later file closes is named on that file's link even where the link comes
/// first on the chain, at the row that names the next node (not the first row that
/// names a table, a group or a species with an escort).
#[test]
fn a_cycle_is_named_on_the_row_of_the_later_files_link() {
    let base = r#"(
        species: [
            (key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"),
            (key: "e", name: "e", glyph: 'e', level: 1, hit_points: "1d1", escort: Some("pack")),
        ],
        groups: [
            (key: "h", leader: Some(Species("a")), followers: [(member: Species("a"), count: "1d1")]),
            (key: "g", leader: Some(Species("a")), followers: [(member: Table("x"), count: "1d1")]),
            (key: "pack", followers: [(member: Table("x"), count: "1d1")]),
        ],
        tables: [
            (key: "floor", rows: [(what: Table("x"), depth: (1, 5))]),
            (key: "x", rows: [(what: Species("a"), depth: (1, 5))]),
            (key: "y", rows: [(what: Table("x"), depth: (1, 5))]),
            (key: "z", rows: [(what: Species("a"), depth: (1, 5))]),
        ],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    )"#;
    if let Err(e) = two(base, "()") {
        panic!("{e}");
    }
    // The mod's x -> y is the chain's first link; the base's y -> x closes it.
    let through_table = r#"(replace: (tables: [(key: "x", rows: [(what: Table("z"), depth: (1, 5)), (what: Table("y"), depth: (1, 5))])]))"#;
    assert_eq!(
        two(base, through_table).unwrap_err(),
        "mod.ron: replace.tables[0] `x`: rows[1]: field `what`: nesting cycle: table `x` -> table `y` -> table `x`"
    );
    let through_group = r#"(replace: (tables: [(key: "x", rows: [(what: Group("h"), depth: (1, 5)), (what: Group("g"), depth: (1, 5))])]))"#;
    assert_eq!(
        two(base, through_group).unwrap_err(),
        "mod.ron: replace.tables[0] `x`: rows[1]: field `what`: nesting cycle: table `x` -> group `g` -> table `x`"
    );
    // The mod's own species brings the escort into x's rows.
    let through_escort = r#"(
        species: [(key: "f", name: "f", glyph: 'f', level: 1, hit_points: "1d1", escort: Some("pack"))],
        replace: (tables: [(key: "x", rows: [(what: Species("a"), depth: (1, 5)), (what: Species("f"), depth: (1, 5))])]),
    )"#;
    assert_eq!(
        two(base, through_escort).unwrap_err(),
        "mod.ron: species[0] `f`: field `escort`: nesting cycle: table `x` -> group `pack` -> table `x`"
    );
}

/// A table reached first by a short path and later by a long one is measured by the long
/// one: a chain of 10 tables met first on its own, then under the floor's table and 5
/// more, is 16 deep; under 6 more, 17, and refused.
#[test]
fn a_chain_met_again_deeper_is_measured_again() {
    let text = |prefix: usize| {
        let chain: String = (0..10)
            .map(|i| {
                let what = if i == 9 {
                    "Species(\"a\")".to_owned()
                } else {
                    format!("Table(\"t{}\")", i + 1)
                };
                format!("(key: \"t{i}\", rows: [(what: {what}, depth: (1, 5))]),")
            })
            .collect();
        let prefixes: String = (0..prefix)
            .map(|i| {
                let next = if i + 1 == prefix {
                    "t0".to_owned()
                } else {
                    format!("p{}", i + 1)
                };
                format!("(key: \"p{i}\", rows: [(what: Table(\"{next}\"), depth: (1, 5))]),")
            })
            .collect();
        format!(
            "(species: [{}], tables: [{chain} {prefixes} (key: \"floor\", rows: [(what: Table(\"p0\"), depth: (1, 5))])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
            species(&["a"])
        )
    };
    if let Err(e) = load(&[DataFile::new("t.ron", &text(5))]) {
        panic!("16 deep: {e}");
    }
    let e = error(&text(6));
    assert!(e.contains("nest more than 16 deep"), "{e}");
}

/// A table holds 1 to 10,000 rows and a loot table 1 to 10,000 items as a file writes
/// them; a floor's depths may be a single depth, never a range that runs backwards.
#[test]
fn entries_hold_1_to_10000_and_a_floor_one_depth_or_more() {
    let text = |rows: usize, items: usize, depths: &str| {
        format!(
            "(species: [{}], loot: [(key: \"l\", items: [{}])], tables: [(key: \"floor\", rows: [{}])], floor: Some((table: \"floor\", depths: {depths}, count: (dice: \"1d1\"))))",
            species(&["a"]),
            "(item: \"coin\", weight: 1),".repeat(items),
            "(what: Species(\"a\"), depth: (1, 5)),".repeat(rows),
        )
    };
    for (rows, items) in [(1, 1), (10_000, 1), (1, 10_000)] {
        if let Err(e) = load(&[DataFile::new("t.ron", &text(rows, items, "(1, 5)"))]) {
            panic!("{rows} rows, {items} items: {e}");
        }
    }
    let refused = [
        (
            0,
            1,
            "t.ron: tables[0] `floor`: field `rows`: a table has 1 to 10000 rows",
        ),
        (
            10_001,
            1,
            "t.ron: tables[0] `floor`: field `rows`: a table has 1 to 10000 rows",
        ),
        (
            1,
            0,
            "t.ron: loot[0] `l`: field `items`: a loot table has 1 to 10000 items",
        ),
        (
            1,
            10_001,
            "t.ron: loot[0] `l`: field `items`: a loot table has 1 to 10000 items",
        ),
    ];
    for (rows, items, expected) in refused {
        assert_eq!(error(&text(rows, items, "(1, 5)")), expected);
    }
    assert!(load(&[DataFile::new("t.ron", &text(1, 1, "(3, 3)"))]).is_ok());
    assert_eq!(
        error(&text(1, 1, "(4, 3)")),
        "t.ron: floor: field `depths`: the range 4-3 is empty"
    );
}

/// A species' data: integers, flags and texts by name, shown with its cost; more than 32
/// values, a name that is not a key or a text past 200 bytes is refused by field.
#[test]
fn a_species_data_is_kept_and_bounded() {
    let with = |data: &str| {
        format!(
            r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1", cost: Some(3), data: {data})],
            tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 5))])],
            floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))))"#
        )
    };
    let b = crate::bestiary(&with(
        r#"{"speed": Int(-12), "flies": Bool(true), "faction": Str("ash")}"#,
    ));
    let a = b.species_of(b.species_by_key("a").unwrap());
    assert_eq!(a.data["speed"], denizen_tables::Datum::Int(-12));
    assert_eq!(a.about(), "cost 3 faction=`ash` flies=true speed=-12");
    let many: String = (0..33).map(|i| format!(r#""v{i}": Int({i}),"#)).collect();
    for (data, said) in [
        (format!("{{{many}}}"), "field `data`: at most 32 values"),
        (
            r#"{"no space": Int(1)}"#.to_owned(),
            "field `data.`no space``: a key is",
        ),
        (
            format!(r#"{{"long": Str("{}")}}"#, "x".repeat(201)),
            "field `data.`long``: at most 200 bytes",
        ),
    ] {
        let e = error(&with(&data));
        assert!(
            e.contains("t.ron: species[0] `a`") && e.contains(said),
            "{said}: {e}"
        );
    }
}
