//! The lint against files built to trip each warning, and a file that trips none.

use denizen_tables::{Source, Warning};

use crate::{bestiary, species};

/// A file with species `a`..`e`, the given extra tables, groups and wandering, and a
/// floor table of `rows` over depths 1-10.
fn lint(rows: &str, more: &str) -> Vec<String> {
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [{rows}]), {more}], floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
        species(&["a"])
    );
    warnings_of(&text)
}

/// The warnings of a one-file bestiary, as lines.
fn warnings_of(text: &str) -> Vec<String> {
    bestiary(text)
        .warnings()
        .iter()
        .map(ToString::to_string)
        .collect()
}

const A: &str = r#"(what: Species("a"), depth: (1, 10))"#;

#[test]
fn a_clean_file_has_no_warnings() {
    assert!(lint(A, "").is_empty());
}

/// A gap inside a table is named for the table and for the row that draws it; depth 0 is
/// a depth like any other (a table eligible at 0 and 2 has a gap at 1).
#[test]
fn a_gap_inside_a_table_is_found() {
    // (the side table's two rows' depths, the depths the floor's row draws it at, the gap)
    let cases = [
        ("(1, 3)", "(6, 8)", "(1, 8)", "4-5"),
        ("(0, 0)", "(2, 2)", "(0, 2)", "1"),
    ];
    for (lower, upper, drawn, gap) in cases {
        let side = format!(
            r#"(key: "side", rows: [(what: Species("a"), depth: {lower}), (what: Species("a"), depth: {upper})])"#
        );
        let rows = format!(r#"{A}, (what: Table("side"), depth: {drawn})"#);
        assert_eq!(
            lint(&rows, &side),
            [
                format!(
                    "t.ron: tables[0] `floor`: rows[1] (table `side`): that table has no eligible row at depths {gap}"
                ),
                format!("t.ron: tables[1] `side`: no eligible row at depths {gap}"),
            ]
        );
    }
}

#[test]
fn zero_weights_and_rounding_to_zero_are_found() {
    // 2 x (d - 1 + 1) / 5 rounds to 0 at depths 1 and 2 of the range 1-5 (s = 4).
    let rows = format!(
        r#"{A}, (what: Species("a"), depth: (1, 5), weight: 0), (what: Species("a"), depth: (1, 5), weight: 2, shape: Rise), (what: Species("a"), depth: (1, 5), weight: 5, shape: Rise)"#
    );
    assert_eq!(
        lint(&rows, ""),
        [
            "t.ron: tables[0] `floor`: rows[1] (species `a`): weight 0 at every depth of its range",
            "t.ron: tables[0] `floor`: rows[2] (species `a`): its shape rounds its weight to 0 at depths 1-2",
        ]
    );
}

/// A bag row whose copies its shape rounds to 0 at some depths puts none in the bag there:
/// the same warning names it.
#[test]
fn a_bag_rows_copies_rounding_to_zero_are_found() {
    let bag = r#"(key: "litter", pick: Bag, rows: [(what: Species("a"), depth: (1, 5), weight: 2, shape: Rise), (what: Species("a"), depth: (1, 5), weight: 5)])"#;
    let rows = format!(r#"{A}, (what: Table("litter"), depth: (1, 5))"#);
    assert_eq!(
        lint(&rows, bag),
        [
            "t.ron: tables[1] `litter`: rows[0] (species `a`): its shape rounds its weight to 0 at depths 1-2"
        ]
    );
}

#[test]
fn species_no_table_reaches_are_found() {
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [{A}])], floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
        species(&["a", "lost"])
    );
    let warnings = warnings_of(&text);
    assert_eq!(
        warnings,
        ["t.ron: species[1] `lost`: no table reaches this species"]
    );
}

#[test]
fn followers_never_eligible_at_their_groups_depths_are_found() {
    let text = format!(
        r#"(species: [{}], groups: [(key: "band", leader: Some(Species("a")), followers: [(member: Table("deep"), count: "1d2")])],
        tables: [(key: "floor", rows: [{A}, (what: Group("band"), depth: (1, 5))]), (key: "deep", rows: [(what: Species("a"), depth: (8, 10))])],
        floor: Some((table: "floor", depths: (1, 10), count: (dice: "1d1"))))"#,
        species(&["a"])
    );
    let b = bestiary(&text);
    assert!(
        b.warnings().contains(&Warning::FollowerNeverEligible {
            group: "band".into(),
            at: Source {
                file: "t.ron".into(),
                entry: "groups[0] `band`".into()
            },
            follower: 0,
            table: "deep".into(),
        }),
        "{:?}",
        b.warnings()
    );
}

#[test]
fn uniques_that_wander_are_found() {
    let text = r#"(species: [(key: "a", name: "a", glyph: 'a', level: 1, hit_points: "1d1"), (key: "boss", name: "boss", glyph: 'B', level: 1, hit_points: "1d1", unique: true)],
        tables: [(key: "floor", rows: [(what: Species("a"), depth: (1, 10))]), (key: "wander", rows: [(what: Species("boss"), depth: (1, 10))])],
        floor: Some((table: "floor", depths: (1, 10), count: (dice: "1d1"))),
        wandering: Some((table: "wander", chance: "1/10", every: 10)))"#;
    let warnings = warnings_of(text);
    assert_eq!(
        warnings,
        ["t.ron: species[1] `boss`: a unique in the wandering table"]
    );
}

/// Boosts that reach past every row of the floor's table are found: depth d goes to
/// d + min(d / 4 + 2, 10), past 10 from depth 8 (7 + 3 = 10 is still in; 8 + 4 = 12 is
/// not); and from the deepest depth, 250, a boost of 1 reaches 251, past every row, at
/// 250 alone.
#[test]
fn boosts_past_every_row_are_found() {
    let warnings = |depths: &str, rule: &str| -> Vec<String> {
        let text = format!(
            "(species: [{}], tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: {depths})])], floor: Some((table: \"floor\", depths: {depths}, count: (dice: \"1d1\"), out_of_depth: Some(({rule})))))",
            species(&["a"])
        );
        warnings_of(&text)
    };
    assert_eq!(
        warnings(
            "(1, 10)",
            "chance: \"1/25\", divisor: 4, bonus: 2, cap: 10, fairness: 2"
        ),
        [
            "t.ron: floor: the out-of-depth boost at depths 8-10 reaches past every row of the floor's table"
        ]
    );
    assert_eq!(
        warnings(
            "(1, 250)",
            "chance: \"1/2\", divisor: 1000, bonus: 1, cap: 1, fairness: 1"
        ),
        [
            "t.ron: floor: the out-of-depth boost at depths 250 reaches past every row of the floor's table"
        ]
    );
}

#[test]
fn nested_tables_empty_where_their_row_draws_are_found() {
    let side = r#"(key: "side", rows: [(what: Species("a"), depth: (1, 5))])"#;
    let rows = format!(r#"{A}, (what: Table("side"), depth: (1, 10))"#);
    assert_eq!(
        lint(&rows, side),
        [
            "t.ron: tables[0] `floor`: rows[1] (table `side`): that table has no eligible row at depths 6-10"
        ]
    );
}

/// The lint's depths at the ends of the range: a table's gaps next to its first depth and
/// at its last (250) are named, a gap of one depth is one range, and a boost that can never
/// happen (a chance of 0, or a fairness of 0) is no warning.
#[test]
fn gaps_at_the_first_and_last_depths_and_boosts_that_never_happen() {
    let text = format!(
        r#"(species: [{}], tables: [
            (key: "floor", rows: [(what: Species("a"), depth: (1, 250))]),
            (key: "side", rows: [
                (what: Species("a"), depth: (1, 1), weight: 1, shape: Flat),
                (what: Species("a"), depth: (1, 3), weight: 1, shape: Rise),
                (what: Species("a"), depth: (5, 250), weight: 1, shape: Fall),
                (what: Species("a"), depth: (248, 250), weight: 2, shape: Fall),
            ]),
        ], floor: Some((table: "floor", depths: (1, 250), count: (dice: "1d1"))))"#,
        species(&["a"])
    );
    let b = bestiary(&text);
    let gaps: Vec<String> = b
        .warnings()
        .iter()
        .filter(|w| matches!(w, Warning::NoEligibleRow { .. }))
        .map(ToString::to_string)
        .collect();
    // Rise 1 over 1-3 weighs only at 3; Fall 1 over 5-250 only at 5; Fall 2 over 248-250
    // weighs 2, 1, 0: the side table is eligible at 1, 3, 5, 248 and 249.
    assert_eq!(
        gaps,
        ["t.ron: tables[1] `side`: no eligible row at depths 2, 4, 6-247, 250"]
    );
    for rule in [
        "chance: \"0/1\", divisor: 4, bonus: 2, cap: 10, fairness: 2",
        "chance: \"1/25\", divisor: 4, bonus: 2, cap: 10, fairness: 0",
    ] {
        let text = format!(
            "(species: [{}], tables: [(key: \"floor\", rows: [{A}])], floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"), out_of_depth: Some(({rule})))))",
            species(&["a"])
        );
        assert!(bestiary(&text).warnings().is_empty(), "{rule}");
    }
}

/// A follower whose table is eligible at one depth where its group comes, and only there,
/// is no warning; one whose table is eligible only past the group's depths is.
#[test]
fn a_follower_eligible_at_one_of_its_groups_depths_is_fine() {
    let text = |deep: (u32, u32)| {
        format!(
            r#"(species: [{}], groups: [(key: "band", leader: Some(Species("a")), followers: [(member: Table("deep"), count: "1d1")])],
            tables: [(key: "floor", rows: [{A}, (what: Group("band"), depth: (3, 5))]), (key: "deep", rows: [(what: Species("a"), depth: ({}, {}))])],
            floor: Some((table: "floor", depths: (1, 10), count: (dice: "1d1"))))"#,
            species(&["a"]),
            deep.0,
            deep.1
        )
    };
    let warned = |deep| {
        bestiary(&text(deep))
            .warnings()
            .iter()
            .any(|w| matches!(w, Warning::FollowerNeverEligible { .. }))
    };
    assert!(!warned((5, 9)), "eligible at 5, the group's last depth");
    assert!(!warned((1, 3)), "eligible at 3, the group's first depth");
    assert!(warned((6, 9)));
    assert!(warned((1, 2)));
}

/// A warning says where the files wrote what it is about.
#[test]
fn a_warning_knows_its_entry() {
    let text = format!(
        "(species: [{}], tables: [(key: \"floor\", rows: [{A}])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"1d1\"))))",
        species(&["a", "lost"])
    );
    let b = bestiary(&text);
    let at = b.warnings()[0].at();
    assert_eq!(
        (at.file.as_str(), at.entry.as_str()),
        ("t.ron", "species[1] `lost`")
    );
}

/// A falling shape rounds to zero at the end of its range, and the warning names the
/// range to its last depth: 2 x (5 - d + 1) / 5 is 0 at depths 4 and 5 of 1-5.
#[test]
fn rounding_to_zero_at_the_end_of_a_range_is_found() {
    let rows = format!(r#"{A}, (what: Species("a"), depth: (1, 5), weight: 2, shape: Fall)"#);
    assert_eq!(
        lint(&rows, ""),
        [
            "t.ron: tables[0] `floor`: rows[1] (species `a`): its shape rounds its weight to 0 at depths 4-5"
        ]
    );
}

/// A group that comes only at the shallowest depth, 0, or only at the deepest, 250, with
/// a follower eligible there is no warning; with its follower eligible one depth off, it
/// is.
#[test]
fn a_group_at_the_first_or_last_depth_is_linted() {
    let text = |group: u32, deep: u32| {
        format!(
            r#"(species: [{}], groups: [(key: "band", leader: Some(Species("a")), followers: [(member: Table("deep"), count: "1d1")])],
            tables: [(key: "floor", rows: [(what: Species("a"), depth: (0, 250)), (what: Group("band"), depth: ({group}, {group}))]), (key: "deep", rows: [(what: Species("a"), depth: ({deep}, {deep}))])],
            floor: Some((table: "floor", depths: (0, 250), count: (dice: "1d1"))))"#,
            species(&["a"]),
        )
    };
    let warned = |group, deep| {
        bestiary(&text(group, deep))
            .warnings()
            .iter()
            .any(|w| matches!(w, Warning::FollowerNeverEligible { .. }))
    };
    assert!(!warned(250, 250));
    assert!(warned(250, 249));
    assert!(!warned(0, 0));
    assert!(warned(0, 1));
}

/// Gaps the quick count over a range could miss are found: a table whose only empty
/// depth is the last of its rows' span (3 x (5 - d + 1) / 5 is 0 only at depth 5 of 1-5),
/// and nested tables empty inside their rows' ranges (`two` eligible at 2-3 and `three`
/// at 2-4, each drawn at 3-5).
#[test]
fn gaps_at_a_spans_end_and_inside_a_rows_range_are_found() {
    let more = r#"(key: "side", rows: [(what: Species("a"), depth: (1, 5), weight: 3, shape: Fall)]),
        (key: "two", rows: [(what: Species("a"), depth: (2, 3))]),
        (key: "three", rows: [(what: Species("a"), depth: (2, 4))])"#;
    let rows = format!(
        r#"{A}, (what: Table("side"), depth: (1, 4)), (what: Table("two"), depth: (3, 5)), (what: Table("three"), depth: (3, 5))"#
    );
    assert_eq!(
        lint(&rows, more),
        [
            "t.ron: tables[0] `floor`: rows[2] (table `two`): that table has no eligible row at depths 4-5",
            "t.ron: tables[0] `floor`: rows[3] (table `three`): that table has no eligible row at depths 5",
            "t.ron: tables[1] `side`: no eligible row at depths 5",
            "t.ron: tables[1] `side`: rows[0] (species `a`): its shape rounds its weight to 0 at depths 5",
        ]
    );
}

/// A floor table of `rows` under a context of `flags` (each named `f0`, `f1`, ...) and an
/// integer `level` 1-5, default 3.
fn lint_in_context(flags: usize, rows: &str) -> Vec<String> {
    let names: Vec<String> = (0..flags).map(|i| format!("\"f{i}\"")).collect();
    warnings_of(&format!(
        "(species: [{}], context: Some((flags: [{}], values: [(name: \"level\", range: (1, 5), default: 3)])),
        tables: [(key: \"floor\", rows: [{A}, {rows}])],
        floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
        species(&["a"]),
        names.join(", ")
    ))
}

/// A flag both needed and forbidden, every `any` flag forbidden, and a range outside the
/// declared one can never hold; a range partly past the declared one is named too; a
/// condition that can hold is not.
#[test]
fn a_when_that_can_never_hold_or_reaches_past_its_range_is_named() {
    let row = |when: &str| format!(r#"(what: Species("a"), depth: (1, 10), when: Some({when}))"#);
    let cases = [
        (
            "(all: [\"f0\"], none: [\"f1\", \"f0\"])",
            "flag `f0` is both needed",
        ),
        (
            "(any: [\"f0\", \"f1\"], none: [\"f1\", \"f0\"])",
            "every flag of `any` is forbidden",
        ),
        (
            "(values: {\"level\": (6, 9)})",
            "`level` must be 6-9, outside its declared range 1-5",
        ),
        (
            "(values: {\"level\": (0, 0)})",
            "`level` must be 0-0, outside its declared range 1-5",
        ),
        (
            "(values: {\"level\": (4, 6)})",
            "field `when.values`: `level` 4-6 reaches past its declared range 1-5",
        ),
        ("(values: {\"level\": (0, 2)})", "`level` 0-2 reaches past"),
        // The shared flag named is the one both needed and forbidden, not the lowest.
        (
            "(all: [\"f1\"], none: [\"f0\", \"f1\"])",
            "flag `f1` is both needed",
        ),
        // Touching the declared range at one end is reaching past it, not missing it.
        ("(values: {\"level\": (0, 1)})", "`level` 0-1 reaches past"),
        ("(values: {\"level\": (5, 6)})", "`level` 5-6 reaches past"),
    ];
    for (when, said) in cases {
        let warnings = lint_in_context(2, &row(when));
        assert_eq!(warnings.len(), 1, "{when}: {warnings:?}");
        assert!(warnings[0].contains(said), "{when}: {}", warnings[0]);
        assert!(
            warnings[0].contains("t.ron: tables[0] `floor`: rows[1]"),
            "{}",
            warnings[0]
        );
    }
    for fine in [
        "(all: [\"f0\"], none: [\"f1\"])",
        "(any: [\"f0\", \"f1\"], none: [\"f1\"])",
        "(values: {\"level\": (1, 5)})",
        "(values: {\"level\": (5, 5)})",
    ] {
        assert!(lint_in_context(2, &row(fine)).is_empty(), "{fine}");
    }
}

/// Depths where a combination of the flags leaves the floor table empty: the unconditional
/// row covers 1-4 only, the others need `f0` (5-10) or `f1` without `f0` (5-8). With
/// neither set, 5-10 is empty; with `f1` alone, 9-10; with `f0`, nothing. Past 10 flags
/// only none set and each alone are tried, and the warning says so.
#[test]
fn a_combination_of_flags_with_nothing_to_draw_is_named() {
    let rows = r#"(what: Species("a"), depth: (5, 10), when: Some((all: ["f0"]))),
        (what: Species("a"), depth: (5, 8), when: Some((all: ["f1"], none: ["f0"])))"#;
    let text = |flags: usize, first: &str| {
        warnings_of(&format!(
            "(species: [{}], context: Some((flags: [{}])),
            tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 4)), {rows}{first}])],
            floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
            species(&["a"]),
            (0..flags).map(|i| format!("\"f{i}\"")).collect::<Vec<_>>().join(", ")
        ))
    };
    let two = text(2, "");
    assert_eq!(two.len(), 1, "{two:?}");
    assert!(
        two[0].ends_with("with no context flag set, no row is eligible at floor depths 5-10 (1 other combination leaves depths empty too)"),
        "{}",
        two[0]
    );
    // Eleven flags named by the rows: 12 combinations tried, the first still none set.
    let more: String = (2..11)
        .map(|i| format!(r#", (what: Species("a"), depth: (1, 1), when: Some((all: ["f{i}"])))"#))
        .collect();
    let eleven = text(11, &more);
    assert_eq!(eleven.len(), 1, "{eleven:?}");
    assert!(
        eleven[0].ends_with("(12 combinations checked: none set, and each flag alone)"),
        "{}",
        eleven[0]
    );
}

/// A flag counts wherever a row names it (`all`, `any` or `none`, in two lists of one row,
/// and in several rows): the only rows past depth 1 need `f3` unset, so every combination
/// of the four flags with `f3` set leaves depths 2-10 empty, the first being `f3` alone. Ten flags named are still all combined
/// (512 of 1,024 combinations empty), and the warning does not say some were skipped.
#[test]
fn flags_named_in_any_list_and_row_are_all_combined() {
    let once = |when: &str, depth: (u32, u32)| {
        format!(r#"(what: Species("a"), depth: {depth:?}, when: Some({when})), "#).repeat(2)
    };
    let mut rows = once(r#"(none: ["f3"])"#, (2, 10));
    rows += &once(r#"(all: ["f1"], any: ["f1"])"#, (1, 1));
    rows += &once(r#"(any: ["f2", "f5"], none: ["f2"])"#, (1, 1));
    let text = |rows: &str| {
        warnings_of(&format!(
            "(species: [{}], context: Some((flags: [{}])),
            tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 1)), {rows}])],
            floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
            species(&["a"]),
            (0..11)
                .map(|i| format!("\"f{i}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    let three = text(&rows);
    assert_eq!(three.len(), 1, "{three:?}");
    assert!(
        three[0].ends_with("with context flags f3 set, no row is eligible at floor depths 2-10 (7 other combinations leave depths empty too)"),
        "{}",
        three[0]
    );
    for i in [4, 6, 7, 8, 9, 10] {
        rows += &once(&format!(r#"(all: ["f{i}"])"#), (1, 1));
    }
    let ten = text(&rows);
    assert_eq!(ten.len(), 1, "{ten:?}");
    assert!(
        ten[0].ends_with("(511 other combinations leave depths empty too)"),
        "{}",
        ten[0]
    );
}

/// Conditions on integers alone are checked in the default context too: rows at
/// difficulty 4-5 only leave a floor at the default 3 nothing from depth 5.
#[test]
fn conditions_on_integers_alone_are_checked_at_their_defaults() {
    let rows = r#"(what: Species("a"), depth: (5, 10), when: Some((values: {"level": (4, 5)})))"#;
    let warnings = warnings_of(&format!(
        "(species: [{}], context: Some((values: [(name: \"level\", range: (1, 5), default: 3)])),
        tables: [(key: \"floor\", rows: [(what: Species(\"a\"), depth: (1, 4)), {rows}])],
        floor: Some((table: \"floor\", depths: (1, 10), count: (dice: \"1d1\"))))",
        species(&["a"])
    ));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].ends_with("with no context flag set, no row is eligible at floor depths 5-10"),
        "{}",
        warnings[0]
    );
}
