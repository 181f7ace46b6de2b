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
    // Two branches, one budgeted; a table dealt from a bag.
    let keys: Vec<&str> = b.branches().iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["warrens", "foundry_deeps"]);
    assert!(b.branches()[1].floor.budget.is_some());
    let bag = |t: &denizen_tables::Table| t.pick == denizen_tables::file::PickKind::Bag;
    assert!(b.tables().iter().any(bag));
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

/// The danger of a starter floor (a floor with a count) at depth 8, sampled from 20,000
/// floors, follows its exact distribution (chi-squared) and rejects the distribution one
/// depth deeper (the depth term off by one).
#[test]
fn sampled_danger_follows_its_exact_distribution() {
    let b = starter().unwrap();
    let ledger = UniqueLedger::new();
    let exact = |depth| {
        let odds = denizen_tables::floor_odds(&b, depth, &ledger, &Context::new(), None).unwrap();
        assert!(odds.odds.standard_errors.is_none());
        crate::dense(&odds.danger)
    };
    let (eight, nine) = (exact(8), exact(9));
    let mut seen = vec![0u64; eight.len().max(nine.len()) + 1];
    for i in 0..20_000 {
        let counts = floor_counts(&b, 8, &ledger, &Context::new(), &mut sample_stream(9, 8, i));
        let danger: u32 = (counts.unwrap().iter().zip(b.species()))
            .map(|(n, s)| n * s.cost)
            .sum();
        let last = seen.len() - 1;
        seen[(danger as usize).min(last)] += 1;
    }
    let padded = |p: &[f64]| {
        let mut p = p.to_vec();
        p.resize(seen.len(), 0.0);
        p
    };
    let fit = |p: &[f64]| denizen_core::ChiSquared::against(&seen, padded(p)).p_value();
    assert!(fit(&eight) > 1e-3, "{}", fit(&eight));
    assert!(fit(&nine) < 1e-6, "{}", fit(&nine));
}
