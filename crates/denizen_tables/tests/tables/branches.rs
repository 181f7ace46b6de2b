//! Branches: named floor profiles of one bestiary, each with its own table, depths, count
//! or budget and wandering arrivals; merged by mod files like other entries.

use denizen_core::DataFile;
use denizen_tables::{
    Bestiary, Context, Per, UniqueLedger, floor_counts, load, odds, sample_stream,
};

use crate::{bestiary, by_key, error, species};

/// A default floor of `a` at depths 1-10; the `mines` (depths 1-3) draw `b` or `c` by
/// weights 1:3, two placements a floor; the `crypt` (depths 5-8) spends a budget of 2 on
/// `c` (cost 1) and has wandering `a`.
fn text() -> String {
    format!(
        r#"(
    species: [{}],
    tables: [
        (key: "floor", rows: [(what: Species("a"), depth: (1, 10))]),
        (key: "mines", rows: [(what: Species("b"), depth: (1, 3)), (what: Species("c"), depth: (1, 3), weight: 3)]),
        (key: "crypt", rows: [(what: Species("c"), depth: (5, 8))]),
    ],
    floor: Some((table: "floor", depths: (1, 10), count: (dice: "1"))),
    branches: [
        (key: "mines", floor: (table: "mines", depths: (1, 3), count: (dice: "2"))),
        (key: "crypt", floor: (table: "crypt", depths: (5, 8), budget: Some((dice: "2"))),
         wandering: Some((table: "floor", chance: "1/2", every: 10))),
    ],
)"#,
        species(&["a", "b", "c"])
    )
}

fn branch(b: &Bestiary, key: &str) -> Bestiary {
    b.in_branch(Some(b.branch_by_key(key).unwrap()))
}

/// Each branch's floors follow its own rules, by hand: two mines placements bring 1/2 `b`
/// and 3/2 `c`; a crypt floor spends its budget of 2 on two `c`; the default floor is one
/// `a`. Depths are the branch's own.
#[test]
fn each_branch_draws_from_its_own_floor_rules() {
    let b = bestiary(&text());
    assert_eq!(b.branches().len(), 2);
    let (ledger, none) = (UniqueLedger::new(), Context::new());
    let at = |b: &Bestiary, depth, key| {
        by_key(
            b,
            &odds(b, depth, &ledger, &none, Per::Floor).unwrap().expected,
            key,
        )
    };
    let mines = branch(&b, "mines");
    assert!((at(&mines, 2, "b") - 0.5).abs() < 1e-12);
    assert!((at(&mines, 2, "c") - 1.5).abs() < 1e-12);
    assert_eq!(at(&mines, 2, "a"), 0.0);
    let crypt = branch(&b, "crypt");
    assert!((at(&crypt, 6, "c") - 2.0).abs() < 1e-12);
    assert!((at(&b, 6, "a") - 1.0).abs() < 1e-12);
    assert!(
        odds(&mines, 5, &ledger, &none, Per::Floor).is_err(),
        "the mines end at 3"
    );
    assert_eq!(crypt.wandering().unwrap().every, 10);
    assert!(mines.wandering().is_none() && b.wandering().is_none());
    // Sampled mines floors bring only the mines' species, two a floor.
    for i in 0..100 {
        let n = floor_counts(&mines, 2, &ledger, &none, &mut sample_stream(1, 2, i)).unwrap();
        assert_eq!((n[0], n[1] + n[2]), (0, 2), "{n:?}");
    }
    // Seen from the default again, the floor is the default's.
    assert_eq!(mines.in_branch(None).floor().depths, b.floor().depths);
}

/// A mod file adds, replaces and removes branches by key; a key loaded twice, a removal
/// of none and a branch's bad floor are named by file and entry.
#[test]
fn mod_files_merge_branches_by_key() {
    let base = text();
    let load2 = |m: &str| {
        load(&[
            DataFile::new("base.ron", &base),
            DataFile::new("mod.ron", m),
        ])
    };
    let merged = load2(
        r#"(replace: (branches: [(key: "mines", floor: (table: "mines", depths: (1, 2), count: (dice: "1")))]),
            remove: [Branch("crypt")],
            branches: [(key: "deep", floor: (table: "crypt", depths: (5, 6), count: (dice: "3")))])"#,
    )
    .unwrap();
    let keys: Vec<&str> = merged.branches().iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["mines", "deep"]);
    assert_eq!(
        merged.branches()[0].floor.depths,
        denizen_tables::Depths(1, 2)
    );
    for (m, said) in [
        (
            r#"(branches: [(key: "mines", floor: (table: "mines", depths: (1, 2), count: (dice: "1")))])"#,
            "mod.ron: branches[0] `mines`: field `key`: already loaded from base.ron",
        ),
        (
            r#"(remove: [Branch("caves")])"#,
            "mod.ron: remove[0] Branch(`caves`): no branch `caves` is loaded to remove",
        ),
        (
            r#"(branches: [(key: "deep", floor: (table: "crypt", depths: (5, 6), count: (dice: "2d600")))])"#,
            "mod.ron: branches[0] `deep`: floor: field `count.dice`",
        ),
        (
            r#"(branches: [(key: "deep", floor: (table: "nowhere", depths: (5, 6), count: (dice: "1")))])"#,
            "mod.ron: branches[0] `deep`: floor: field `table`",
        ),
    ] {
        let e = load2(m).unwrap_err().to_string();
        assert!(e.contains(said), "{said}: {e}");
    }
}

/// A branch's floor depth with nothing to draw stops the load, naming the branch; a
/// species only a branch reaches is reached.
#[test]
fn the_lint_checks_every_branch() {
    let gap = text().replace(
        r#"(key: "mines", floor: (table: "mines", depths: (1, 3)"#,
        r#"(key: "mines", floor: (table: "mines", depths: (1, 4)"#,
    );
    let e = error(&gap);
    assert!(
        e.contains("t.ron: branches[0] `mines`: field `table`: no row of table `mines` is eligible at floor depths 4"),
        "{e}"
    );
    let b = bestiary(&text());
    assert!(b.warnings().is_empty(), "{:?}", b.warnings());
}
