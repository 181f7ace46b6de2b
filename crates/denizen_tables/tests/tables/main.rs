//! denizen_tables' tests, one binary with a module per topic.

mod bags;
mod balance;
mod branches;
mod budget;
mod caps;
mod context;
mod edges;
mod figures;
mod floor;
mod golden;
mod lint;
mod load;
mod odds;
mod regions;
mod rolls;
mod starter;

use denizen_core::DataFile;
use denizen_tables::{Bestiary, load};

/// A species of one hit point, for the fixtures.
pub fn species(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| {
            format!("(key: \"{k}\", name: \"{k}\", glyph: 'x', level: 1, hit_points: \"1d1\"),")
        })
        .collect()
}

/// Thirteen uniques (`u0` to `u12`, one more than the exact odds track), one row each at
/// depths 1-5, `count` placements a floor.
pub fn thirteen_uniques(count: &str) -> Bestiary {
    let uniques: String = (0..13)
        .map(|i| format!("(key: \"u{i}\", name: \"U\", glyph: 'U', level: 1, hit_points: \"1d1\", unique: true),"))
        .collect();
    let rows: String = (0..13)
        .map(|i| format!("(what: Species(\"u{i}\"), depth: (1, 5)),"))
        .collect();
    bestiary(&format!(
        "(species: [{uniques}], tables: [(key: \"floor\", rows: [{rows}])], floor: Some((table: \"floor\", depths: (1, 5), count: (dice: \"{count}\"))))"
    ))
}

/// A bestiary from one file's text.
pub fn bestiary(text: &str) -> Bestiary {
    load(&[DataFile::new("t.ron", text)]).unwrap_or_else(|e| panic!("{e}"))
}

/// The error one file's text gives.
pub fn error(text: &str) -> String {
    match load(&[DataFile::new("t.ron", text)]) {
        Ok(_) => panic!("loaded: {text}"),
        Err(e) => e.to_string(),
    }
}

/// A danger distribution with an entry for every danger up to its greatest: entry `k` is
/// the chance of `k`.
pub fn dense(sparse: &[(u64, f64)]) -> Vec<f64> {
    let mut out = vec![0.0; sparse.last().map_or(0, |&(k, _)| k as usize + 1)];
    for &(k, p) in sparse {
        out[k as usize] = p;
    }
    out
}

/// The expected figures of species by key.
pub fn by_key(b: &Bestiary, expected: &[f64], key: &str) -> f64 {
    expected[b
        .species_by_key(key)
        .unwrap_or_else(|| panic!("{key}"))
        .index()]
}
