//! Whole levels against the original's own generator: every figure of
//! `tests/data/original_levels.csv` that `denizen_angband::sample` computes, at a few
//! depths, with the autoscummer off and on "always".

use denizen_angband::sample::{FIGURES, NewGameLevels, figures};
use denizen_angband::{Allocator, Autoscum, ObjectRules, Races};
use denizen_core::WorldSeed;

const ORIGINAL: &str = include_str!("../data/original_levels.csv");

/// The original's mean, sd (none for shares) and level count of a figure.
fn original(autoscum: &str, depth: i32, figure: &str) -> Option<(f64, Option<f64>, f64)> {
    ORIGINAL
        .lines()
        .filter(|line| !line.starts_with('#'))
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|f| f[0] == autoscum && f[1] == depth.to_string() && f[3] == figure)
        .map(|f| {
            (
                f[4].parse().unwrap(),
                f[5].parse().ok(),
                f[2].parse().unwrap(),
            )
        })
}

/// The figures of `levels` levels kept at `depth`, each a new game's.
fn sampled(depth: i32, autoscum: Autoscum, levels: u32) -> Vec<[f64; FIGURES.len()]> {
    let allocator = Allocator::new(Races::shipped());
    let objects = ObjectRules::shipped();
    let run = NewGameLevels {
        depth,
        autoscum,
        preserve: false,
        seed: WorldSeed(21),
    };
    (0..levels)
        .map(|i| figures(&run.level(u64::from(i), &allocator, &objects)))
        .collect()
}

/// Every figure's sampled mean within four standard errors (this sample's and the
/// original's) of the original's; a share's error is binomial.
fn assert_like_the_original(autoscum: (&str, Autoscum), depth: i32, levels: u32) {
    let per_level = sampled(depth, autoscum.1, levels);
    let n = f64::from(levels);
    let mut compared = 0;
    for (f, name) in FIGURES.iter().enumerate() {
        let Some((mean, sd, original_levels)) = original(autoscum.0, depth, name) else {
            continue;
        };
        let ours = per_level.iter().map(|l| l[f]).sum::<f64>() / n;
        let error = match sd {
            Some(sd) => {
                let our_sd = (per_level.iter().map(|l| (l[f] - ours).powi(2)).sum::<f64>()
                    / (n - 1.0))
                    .sqrt();
                (our_sd * our_sd / n + sd * sd / original_levels).sqrt()
            }
            None => (mean * (1.0 - mean) / n + mean * (1.0 - mean) / original_levels).sqrt(),
        };
        // A share the original never saw (0) gets the error of one level in this sample.
        let error = error.max(1.0 / n);
        assert!(
            (ours - mean).abs() < 4.0 * error,
            "{} at depth {depth}: {name} {ours:.4} against the original's {mean} (error {error:.4})",
            autoscum.0
        );
        compared += 1;
    }
    assert!(compared >= 30, "{compared} figures compared");
}

#[test]
fn levels_at_depth_5_are_like_the_originals() {
    assert_like_the_original(("off", Autoscum::Off), 5, 400);
}

#[test]
fn levels_at_depth_80_are_like_the_originals() {
    assert_like_the_original(("off", Autoscum::Off), 80, 300);
}

#[test]
fn levels_the_autoscummer_keeps_at_depth_30_are_like_the_originals() {
    assert_like_the_original(("always", Autoscum::Always), 30, 300);
}
