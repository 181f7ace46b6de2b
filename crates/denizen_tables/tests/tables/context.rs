//! Contexts: rows with a `when` against hand-worked odds and seeded samples that reject
//! a wrong rule, and the errors a context's declaration, a row's condition and a request
//! give.

use denizen_core::{ChiSquared, DataFile};
use denizen_tables::{
    Context, ContextError, OddsError, Per, UniqueLedger, load, odds, placement_counts,
    sample_stream,
};

use crate::{bestiary, by_key, error, species};

/// Four rows: `a` always; `b` at night in winter (all); `c` at night or in winter (any);
/// `d` outside festivals at difficulty 4-5 (none, and a range).
const WORLD: &str = r#"(
    species: [SPECIES],
    context: Some((
        flags: ["night", "winter", "festival"],
        values: [(name: "difficulty", range: (1, 5), default: 3)],
    )),
    tables: [(key: "floor", rows: [
        (what: Species("a"), depth: (1, 5), weight: 4),
        (what: Species("b"), depth: (1, 5), weight: 2, when: Some((all: ["night", "winter"]))),
        (what: Species("c"), depth: (1, 5), weight: 3, when: Some((any: ["night", "winter"]))),
        (what: Species("d"), depth: (1, 5), weight: 1,
            when: Some((none: ["festival"], values: {"difficulty": (4, 5)}))),
    ])],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
)"#;

fn world() -> denizen_tables::Bestiary {
    bestiary(&WORLD.replace("SPECIES", &species(&["a", "b", "c", "d"])))
}

fn context(flags: &[&str], difficulty: Option<i64>) -> Context {
    let c = flags.iter().fold(Context::new(), |c, f| c.with_flag(*f));
    match difficulty {
        Some(d) => c.with_value("difficulty", d),
        None => c,
    }
}

/// The exact chance of each of a, b, c, d per placement in `c`.
fn exact(b: &denizen_tables::Bestiary, c: &Context) -> Vec<f64> {
    let o = odds(b, 2, &UniqueLedger::new(), c, Per::Placement).unwrap();
    ["a", "b", "c", "d"]
        .iter()
        .map(|k| by_key(b, &o.expected, k))
        .collect()
}

/// By hand: at night alone (difficulty 3 by default) `a` 4 and `c` 3 are eligible; at
/// night in winter at difficulty 4 all four (10); a festival at difficulty 5 leaves `d`
/// out (9). The difficulty range is inclusive: `d` comes at 4 and 5, not at 3.
#[test]
fn a_rows_when_decides_its_eligibility_exactly() {
    let b = world();
    let close = |got: Vec<f64>, want: [f64; 4]| {
        let off = got.iter().zip(want).map(|(g, w)| (g - w).abs());
        assert!(off.fold(0.0, f64::max) < 1e-15, "{got:?} against {want:?}");
    };
    close(
        exact(&b, &context(&["night"], None)),
        [4.0 / 7.0, 0.0, 3.0 / 7.0, 0.0],
    );
    let all = [0.4, 0.2, 0.3, 0.1];
    close(exact(&b, &context(&["night", "winter"], Some(4))), all);
    close(
        exact(&b, &context(&["night", "winter", "festival"], Some(5))),
        [4.0 / 9.0, 2.0 / 9.0, 3.0 / 9.0, 0.0],
    );
    close(exact(&b, &context(&[], Some(3))), [1.0, 0.0, 0.0, 0.0]);
    close(exact(&b, &context(&[], Some(4))), [0.8, 0.0, 0.0, 0.2]);
    close(exact(&b, &context(&[], Some(5))), [0.8, 0.0, 0.0, 0.2]);
}

/// Sampled at night alone, the draw follows the hand-worked odds, and a rule with `all`
/// and `any` swapped (b eligible, c not: 4:2) is rejected.
#[test]
fn sampled_contexts_agree_with_the_odds_and_any_all_swapped_is_rejected() {
    let b = world();
    let night = context(&["night"], None);
    let mut observed = [0u64; 4];
    for i in 0..20_000 {
        let mut rng = sample_stream(21, 2, i);
        let counts = placement_counts(&b, 2, &UniqueLedger::new(), &night, &mut rng).unwrap();
        for (k, key) in ["a", "b", "c", "d"].iter().enumerate() {
            observed[k] += u64::from(counts[b.species_by_key(key).unwrap().index()]);
        }
    }
    let hand = [4.0 / 7.0, 0.0, 3.0 / 7.0, 0.0];
    assert!(ChiSquared::against(&observed, hand).p_value() > 1e-3);
    let swapped = [4.0 / 6.0, 2.0 / 6.0, 0.0, 0.0];
    assert!(ChiSquared::against(&observed, swapped).p_value() < 1e-6);
}

/// A request naming a flag or an integer the files do not declare, or an integer out of
/// its range, is refused by name.
#[test]
fn a_request_out_of_the_declared_context_is_refused() {
    let b = world();
    let refused = |c: Context| odds(&b, 2, &UniqueLedger::new(), &c, Per::Floor).unwrap_err();
    assert_eq!(
        refused(context(&["dusk"], None)),
        OddsError::Context(ContextError::Flag("dusk".into()))
    );
    assert_eq!(
        refused(Context::new().with_value("day", 2)),
        OddsError::Context(ContextError::Value("day".into()))
    );
    for value in [0, 6] {
        let e = refused(context(&[], Some(value)));
        assert_eq!(
            e.to_string(),
            format!("context: integer `difficulty` is {value}, outside its range 1-5")
        );
    }
}

/// Each declaration and condition error names file, entry and field.
#[test]
fn bad_contexts_and_conditions_name_file_entry_and_field() {
    let text = |context: &str, when: &str| {
        WORLD
            .replace("SPECIES", &species(&["a", "b", "c", "d"]))
            .replace(
                r#"flags: ["night", "winter", "festival"],
        values: [(name: "difficulty", range: (1, 5), default: 3)],"#,
                context,
            )
            .replace(r#"when: Some((all: ["night", "winter"]))"#, when)
    };
    let base = r#"flags: ["night", "winter", "festival"],
        values: [(name: "difficulty", range: (1, 5), default: 3)],"#;
    let fine = r#"when: Some((all: ["night", "winter"]))"#;
    let cases = [
        (
            text(base, r#"when: Some((all: ["night", "dusk"]))"#),
            "when.all[1]",
            "flag `dusk`",
        ),
        (
            text(base, r#"when: Some((values: {"day": (1, 2)}))"#),
            "when.values.`day`",
            "integer `day`",
        ),
        (
            text(base, r#"when: Some((values: {"difficulty": (4, 2)}))"#),
            "when.values.`difficulty`",
            "empty",
        ),
        (
            text(
                r#"flags: ["night", "winter", "festival", "night"],
        values: [(name: "difficulty", range: (1, 5), default: 3)],"#,
                fine,
            ),
            "flags[3]",
            "already declared by t.ron",
        ),
        (
            text(
                r#"flags: ["night", "winter", "festival"],
        values: [(name: "difficulty", range: (1, 5), default: 6)],"#,
                fine,
            ),
            "values[0].default",
            "outside the range 1-5",
        ),
        (
            text(
                r#"flags: ["night", "winter", "festival"],
        values: [(name: "difficulty", range: (1, 2000000000), default: 3)],"#,
                fine,
            ),
            "values[0].range",
            "1000000000",
        ),
    ];
    for (text, field, problem) in cases {
        let e = error(&text);
        assert!(
            e.contains("t.ron") && e.contains(field) && e.contains(problem),
            "{field}: {e}"
        );
    }
}

/// Declarations add up across files, and a name a mod file declares again is refused,
/// naming the file that declared it first.
#[test]
fn a_mod_file_adds_to_the_context_and_may_not_declare_a_name_twice() {
    let base = WORLD.replace("SPECIES", &species(&["a", "b", "c", "d"]));
    let more = r#"(context: Some((flags: ["flooded"])),
        append: [(table: "floor", rows: [
            (what: Species("a"), depth: (1, 5), weight: 1, when: Some((all: ["flooded"]))),
        ])])"#;
    let b = load(&[
        DataFile::new("base.ron", &base),
        DataFile::new("mod.ron", more),
    ])
    .unwrap();
    assert_eq!(
        b.context().flags,
        ["night", "winter", "festival", "flooded"]
    );
    let again = r#"(context: Some((flags: ["winter"])))"#;
    let e = load(&[
        DataFile::new("base.ron", &base),
        DataFile::new("mod.ron", again),
    ])
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("mod.ron")
            && e.contains("flags[0]")
            && e.contains("already declared by base.ron"),
        "{e}"
    );
}
