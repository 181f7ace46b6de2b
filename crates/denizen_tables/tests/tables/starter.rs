//! The starter bestiary: it loads clean, has what it promises, and its sampled floors
//! agree with its exact odds at every depth.

use std::collections::BTreeSet;

use denizen_tables::{Context, Per, UniqueLedger, floor_counts, odds, sample_stream, starter};

#[test]
fn the_starter_loads_without_warnings_and_holds_what_it_promises() {
    let b = starter().unwrap();
    assert!(b.warnings().is_empty(), "{:?}", b.warnings());
    assert!(
        (38..=44).contains(&b.species().len()),
        "{}",
        b.species().len()
    );
    assert_eq!(b.species().iter().filter(|s| s.unique).count(), 3);
    assert!(b.groups().iter().filter(|g| g.leader.is_some()).count() >= 3);
    assert!(b.species().iter().any(|s| s.escort.is_some()));
    assert!(b.species().iter().any(|s| s.place.stands_on == ["water"]));
    assert!(b.floor().place.forbids.iter().any(|t| t == "safe"));
    assert_eq!(b.floor().depths, denizen_tables::Depths(1, 20));
    let glyphs: BTreeSet<char> = b.species().iter().map(|s| s.glyph).collect();
    assert!(glyphs.len() > 20);
}

/// Per floor at every depth: 3,000 sampled floors agree with the exact expected counts
/// within 5 standard errors for every species.
#[test]
fn sampled_floors_agree_with_the_exact_odds_at_every_depth() {
    let b = starter().unwrap();
    let ledger = UniqueLedger::new();
    let floors = 3_000u32;
    for depth in 1..=20 {
        let exact = odds(&b, depth, &ledger, &Context::new(), Per::Floor).unwrap();
        assert!(exact.standard_errors.is_none());
        let n = b.species().len();
        let (mut sum, mut squares) = (vec![0.0; n], vec![0.0; n]);
        for i in 0..floors {
            let counts = floor_counts(
                &b,
                depth,
                &ledger,
                &Context::new(),
                &mut sample_stream(3, depth, u64::from(i)),
            )
            .unwrap();
            for (s, c) in counts.into_iter().enumerate() {
                sum[s] += f64::from(c);
                squares[s] += f64::from(c) * f64::from(c);
            }
        }
        let f = f64::from(floors);
        for s in 0..n {
            let mean = sum[s] / f;
            let se = ((squares[s] / f - mean * mean).max(0.0) / (f - 1.0)).sqrt();
            let e = exact.expected[s];
            assert!(
                (mean - e).abs() <= 5.0 * se.max(0.002),
                "depth {depth}, {}: sampled {mean} +- {se}, exact {e}",
                b.species()[s].key
            );
        }
    }
}
