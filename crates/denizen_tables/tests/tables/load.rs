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
            "t.ron: tables[0] `floor`: field `rows[0].what`: no species `b` is loaded",
        ),
        (
            file(&["a"], r#"(what: Species("a"), depth: (1, 300))"#, ""),
            "t.ron: tables[0] `floor`: field `rows[0].depth`: 300 is past the deepest depth, 250",
        ),
        (
            file(&["a"], r#"(what: Species("a"), depth: (4, 2))"#, ""),
            "t.ron: tables[0] `floor`: field `rows[0].depth`: the range 4-2 is empty",
        ),
        (
            file(
                &["a"],
                r#"(what: Species("a"), depth: (1, 5), weight: 100001)"#,
                "",
            ),
            "t.ron: tables[0] `floor`: field `rows[0].weight`: a weight is at most 100000",
        ),
        (
            file(
                &["a"],
                r#"(what: Species("a"), depth: (1, 5), chance: Some("1/2"))"#,
                "",
            ),
            "t.ron: tables[0] `floor`: field `rows[0]`: only a pick-each table's rows have a chance and a count",
        ),
        (
            file(&["a", "a"], r#"(what: Species("a"), depth: (1, 5))"#, ""),
            "t.ron: species[1] `a`: field `key`: already loaded from t.ron: a later file changes it under `replace`",
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
            "t.ron: tables[0] `floor`: field `rows[0].what`: the group `g` has no leader: only a species' escort goes without one",
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
        "t.ron: floor: field ``: no file gives the floor's rules"
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
        "t.ron: tables[1] `x`: field `rows`: nesting cycle: table `x` -> table `y` -> table `x`"
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
    assert!(b.table(b.table_by_key("floor").unwrap()).rows[1].file == "mod.ron");
}

#[test]
fn conflicting_files_are_both_named() {
    assert_eq!(
        two(BASE, r#"(remove: [Species("bat")])"#).unwrap_err(),
        "mod.ron: remove[0] Species(`bat`): field ``: removed, but still named by base.ron: tables[0] `floor`: field `rows[1].what`"
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
        "mod.ron: remove[0] Loot(`coins`): field ``: no loot table `coins` is loaded to remove"
    );
}
