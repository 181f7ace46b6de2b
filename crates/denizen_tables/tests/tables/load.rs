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
    let one = odds(&b, 1, &UniqueLedger::new(), Per::Placement).unwrap();
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
