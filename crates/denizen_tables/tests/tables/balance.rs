//! Balance checks: each kind of claim holding and failing at the depth where its figure
//! crosses its bound, the bound itself included; sampled figures unknown; bad claims
//! refused with the file, claim and field.

use denizen_tables::UniqueLedger;
use denizen_tables::balance::{Holds, Verdict, load_claims};

use crate::bestiary;

/// One creature a floor: a rat from depth 1, a ghost (`undead`, cost 3) from 2, an ogre
/// (`big`, cost 5) from 3, a king (unique) from 4, each row of weight 1; at night a bat
/// too (weight 3). The crypt's floors hold one ghost each.
const DEEPENING: &str = r#"(
    species: [
        (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1", cost: Some(1)),
        (key: "ghost", name: "ghost", glyph: 'G', level: 1, hit_points: "1d1", cost: Some(3), tags: ["undead"]),
        (key: "ogre", name: "ogre", glyph: 'O', level: 1, hit_points: "1d1", cost: Some(5), tags: ["big"]),
        (key: "king", name: "king", glyph: 'K', level: 1, hit_points: "1d1", unique: true),
        (key: "bat", name: "bat", glyph: 'b', level: 1, hit_points: "1d1"),
    ],
    context: Some((flags: ["night"], values: [(name: "difficulty", range: (1, 5), default: 3)])),
    tables: [
        (key: "floor", rows: [
            (what: Species("rat"), depth: (1, 5)),
            (what: Species("ghost"), depth: (2, 5)),
            (what: Species("ogre"), depth: (3, 5)),
            (what: Species("king"), depth: (4, 5)),
            (what: Species("bat"), depth: (1, 5), weight: 3, when: Some((all: ["night"]))),
        ]),
        (key: "crypt", rows: [(what: Species("ghost"), depth: (1, 5))]),
    ],
    floor: Some((table: "floor", depths: (1, 5), count: (dice: "1d1"))),
    branches: [(key: "crypt", floor: (table: "crypt", depths: (1, 5), count: (dice: "1d1")))],
)"#;

/// The verdict of one claim, written as a claims file's entry.
fn verdict(claim: &str) -> Verdict {
    let b = bestiary(DEEPENING);
    let claims = load_claims(&b, "c.ron", &format!("(claims: [{claim}])")).unwrap();
    claims[0].check(&UniqueLedger::new(), false).unwrap()
}

fn holds(claim: &str) -> bool {
    let v = verdict(claim);
    assert_eq!(v.failed, v.holds != Holds::Yes, "{v:?}");
    !v.failed
}

#[test]
fn at_least_one_holds_to_its_bound_and_fails_past_it() {
    let ogre = "figure: AtLeastOne(Species(\"ogre\"))";
    assert!(holds(&format!(
        "({ogre}, depths: (1, 2), bound: AtMost(\"0\"))"
    )));
    let v = verdict(&format!("({ogre}, depths: (1, 4), bound: AtMost(\"0\"))"));
    assert_eq!((v.holds, v.depth), (Holds::No, 3), "{v:?}");
    assert!((v.figure - 1.0 / 3.0).abs() < 1e-12);
    // At depth 3 the chance is 1/3 exactly: the bound holds, a hair below it does not.
    let v = verdict(&format!("({ogre}, depths: (1, 5), bound: AtMost(\"1/3\"))"));
    assert_eq!(
        (v.holds, v.depth, v.bound.as_str()),
        (Holds::Yes, 3, "<= 1/3")
    );
    assert!(!holds(&format!(
        "({ogre}, depths: (1, 5), bound: AtMost(\"33/100\"))"
    )));
}

#[test]
fn none_of_a_tag_holds_where_the_chance_of_none_reaches_its_bound() {
    let none = "figure: NoneOf(Tag(\"undead\")), bound: AtLeast(\"2/3\")";
    assert!(holds(&format!("({none}, depths: (3, 5))")));
    let v = verdict(&format!("({none}, depths: (1, 5))"));
    assert_eq!((v.holds, v.depth, v.figure), (Holds::No, 2, 0.5), "{v:?}");
}

#[test]
fn expected_counts_and_danger_hold_within_their_ranges() {
    let big = "figure: Expected(Tag(\"big\")), bound: Within(\"0\", \"1/4\")";
    assert!(holds(&format!("({big}, depths: (1, 2))")));
    // 1/4 at depths 4 and 5 (four rows) holds; 1/3 at depth 3 does not.
    let v = verdict(&format!("({big}, depths: (1, 5))"));
    assert_eq!((v.holds, v.depth), (Holds::No, 3), "{v:?}");
    // Danger: 1 at depth 1, (1 + 3) / 2 = 2 at depth 2, (1 + 3 + 5) / 3 = 3 at depth 3.
    let danger = "figure: Danger, bound: Within(\"1\", \"2\")";
    assert!(holds(&format!("({danger}, depths: (1, 2))")));
    let v = verdict(&format!("({danger}, depths: (1, 3))"));
    assert_eq!((v.holds, v.depth, v.figure), (Holds::No, 3, 3.0), "{v:?}");
}

#[test]
fn no_unique_before_a_depth_fails_at_the_uniques_first_depth() {
    let unique = "name: \"no unique before 4\", figure: AnyUnique, bound: AtMost(\"0\")";
    assert!(holds(&format!("({unique}, depths: (1, 3))")));
    let v = verdict(&format!("({unique}, depths: (1, 4))"));
    assert_eq!(
        (v.name.as_str(), v.holds, v.depth),
        ("no unique before 4", Holds::No, 4)
    );
    assert_eq!(v.figure, 0.25);
    // A bound of 0 allows nothing past it.
    assert_eq!(v.bound, "<= 0");
}

#[test]
fn a_claim_past_the_exact_limits_is_unknown_and_fails_unless_sampled_figures_are_allowed() {
    let b = crate::thirteen_uniques("1d1");
    let text = "(claims: [(figure: AnyUnique, depths: (1, 1), bound: AtLeast(\"1\"))])";
    let claims = load_claims(&b, "c.ron", text).unwrap();
    let strict = claims[0].check(&UniqueLedger::new(), false).unwrap();
    assert_eq!((strict.holds, strict.failed), (Holds::Unknown, true));
    // Allowed, it is judged by the sampled figure: every floor has a unique.
    let allowed = claims[0].check(&UniqueLedger::new(), true).unwrap();
    assert_eq!(
        (
            allowed.holds,
            allowed.sampled,
            allowed.failed,
            allowed.figure
        ),
        (Holds::Yes, true, false, 1.0)
    );
    let text = "(claims: [(figure: AnyUnique, depths: (1, 1), bound: AtMost(\"1/2\"))])";
    let claims = load_claims(&b, "c.ron", text).unwrap();
    let allowed = claims[0].check(&UniqueLedger::new(), true).unwrap();
    assert_eq!(
        (allowed.holds, allowed.sampled, allowed.failed),
        (Holds::No, true, true)
    );
}

#[test]
fn a_depth_worked_exactly_that_fails_is_not_hidden_by_a_sampled_one() {
    // Eleven placements a floor: rats (cost 1) at depths 1-5, titans (cost 10,000) too
    // from depth 3. Eleven titans make a danger past the exact limit of 100,000, so the
    // danger is sampled from depth 3 and exact above it.
    let b = bestiary(
        r#"(species: [
            (key: "rat", name: "rat", glyph: 'r', level: 1, hit_points: "1d1", cost: Some(1)),
            (key: "titan", name: "titan", glyph: 'T', level: 1, hit_points: "1d1", cost: Some(10000)),
        ],
        tables: [(key: "floor", rows: [(what: Species("rat"), depth: (1, 5)), (what: Species("titan"), depth: (3, 5))])],
        floor: Some((table: "floor", depths: (1, 5), count: (dice: "11d1"))))"#,
    );
    let check = |bound: &str| {
        let text = format!("(claims: [(figure: Danger, depths: (1, 5), bound: {bound})])");
        load_claims(&b, "c.ron", &text).unwrap()[0]
            .check(&UniqueLedger::new(), false)
            .unwrap()
    };
    // Every floor of depths 1-2 has a danger of 11, worked exactly: the claim fails there.
    let v = check("AtMost(\"5\")");
    assert_eq!(
        (v.holds, v.sampled, v.depth, v.figure),
        (Holds::No, false, 1, 11.0)
    );
    // Held at depths 1-2, it is unknown: its worst figure shown is a sampled depth's.
    let v = check("AtMost(\"20\")");
    assert_eq!((v.holds, v.failed), (Holds::Unknown, true));
    assert!(v.depth >= 3 && v.figure > 20.0, "{v:?}");
}

#[test]
fn a_claim_reads_its_own_context_and_branch() {
    // At night a bat comes with 3 in 4 at depth 1: the bound holds, a hair above it not.
    let bat = "figure: AtLeastOne(Species(\"bat\")), depths: (1, 1)";
    assert!(holds(&format!(
        "({bat}, when: [\"night\"], bound: AtLeast(\"3/4\"))"
    )));
    assert!(!holds(&format!(
        "({bat}, when: [\"night\"], bound: AtLeast(\"76/100\"))"
    )));
    // By day, the declared default, none comes.
    let v = verdict(&format!("({bat}, bound: AtLeast(\"3/4\"))"));
    assert_eq!((v.holds, v.figure), (Holds::No, 0.0));
    // Every crypt floor holds a ghost; the default floor's first has none.
    let undead = "figure: NoneOf(Tag(\"undead\")), depths: (1, 5), bound: AtMost(\"0\")";
    assert!(holds(&format!("({undead}, branch: \"crypt\")")));
    let v = verdict(&format!("({undead})"));
    assert_eq!((v.holds, v.depth, v.figure), (Holds::No, 1, 1.0));
    // A claim without a branch is of the default floor, whatever view it is read from.
    let b = bestiary(DEEPENING);
    let crypt = b.in_branch(b.branch_by_key("crypt"));
    let claims = load_claims(&crypt, "c.ron", &format!("(claims: [({undead})])")).unwrap();
    assert!(claims[0].check(&UniqueLedger::new(), false).unwrap().failed);
}

#[test]
fn a_bad_claim_names_its_file_claim_and_field() {
    let b = bestiary(DEEPENING);
    let error = |claim: &str| {
        load_claims(&b, "c.ron", &format!("(claims: [{claim}])"))
            .unwrap_err()
            .to_string()
    };
    let e = error(
        "(name: \"x\", figure: AtLeastOne(Species(\"ogr\")), depths: (1, 2), bound: AtMost(\"0\"))",
    );
    assert_eq!(e, "c.ron: claims[0] `x`: field `figure`: no species `ogr`");
    let e =
        error("(name: \"x\", figure: NoneOf(Tag(\"fey\")), depths: (1, 2), bound: AtMost(\"0\"))");
    assert_eq!(
        e,
        "c.ron: claims[0] `x`: field `figure`: no species has tag `fey`"
    );
    let e = error("(name: \"x\", figure: Danger, depths: (1, 2), bound: AtMost(\"a lot\"))");
    assert!(
        e.starts_with("c.ron: claims[0] `x`: field `bound`: `a lot` is not a fraction"),
        "{e}"
    );
    let e = error("(name: \"x\", figure: Danger, depths: (1, 2), bound: AtMost(\"1/0\"))");
    assert!(
        e.ends_with("field `bound`: `1/0`: the denominator is 0"),
        "{e}"
    );
    let e = error("(name: \"x\", figure: Danger, depths: (0, 9), bound: AtMost(\"1\"))");
    assert!(
        e.starts_with("c.ron: claims[0] `x`: field `depths`: (0, 9)"),
        "{e}"
    );
    let e = error(
        "(name: \"x\", figure: Danger, depths: (1, 2), when: [\"noon\"], bound: AtMost(\"1\"))",
    );
    assert!(e.starts_with("c.ron: claims[0] `x`: field `when`:"), "{e}");
    let e = error(
        "(name: \"x\", figure: Danger, depths: (1, 2), set: [(\"difficulty\", 9)], bound: AtMost(\"1\"))",
    );
    assert!(e.starts_with("c.ron: claims[0] `x`: field `set`:"), "{e}");
    let e = error("(figure: Danger, depths: (1, 2), bound: Below(\"1\"))");
    assert!(e.starts_with("c.ron:1:"), "{e}");
}
