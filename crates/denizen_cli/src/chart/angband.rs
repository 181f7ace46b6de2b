//! Angband 2.7.9's charts: the special rooms' feelings by depth, one draw by race level.

use denizen_angband::{Allocator, DrawRequest, Races, SpecialRoom, UniqueLedger};

use super::data::{Plot, Series, Shape};

/// `chart angband feelings`: the chance that each special room makes its level special,
/// by depth 1 to 127.
pub fn feeling_chances() -> Plot {
    let depths: Vec<i32> = (1..=127).collect();
    let rooms = [
        SpecialRoom::Nest,
        SpecialRoom::Pit,
        SpecialRoom::LesserVault,
        SpecialRoom::GreaterVault,
    ];
    let series: Vec<Series> = rooms
        .iter()
        .map(|room| Series {
            name: room.name().to_owned(),
            values: depths
                .iter()
                .map(|&d| room.special_test(d).chance())
                .collect(),
        })
        .collect();
    Plot {
        title: "Angband 2.7.9: the chance a room makes its level special (nests and pits \
                share one rule, vaults another)"
            .into(),
        x_label: "depth".into(),
        y_label: "chance".into(),
        xs: depths,
        y_max: 1.0,
        shape: Shape::Lines(Series::merge_equal(series)),
    }
}

/// `chart angband alloc`: the exact chance that one draw at `depth` returns a race of
/// each level, the races deeper than `depth` (out of depth) marked.
pub fn alloc_by_level(depth: i32) -> Plot {
    let allocator = Allocator::new(Races::shipped());
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DrawRequest::new(depth, depth, &live));
    let races = allocator.races();
    let top = races
        .all()
        .iter()
        .map(|r| i32::from(r.level))
        .max()
        .unwrap_or(0);
    let mut by_level = vec![0.0; top as usize + 1];
    for race in &odds.races {
        if let Some(level) = races.get(race.race).map(|r| r.level as usize) {
            by_level[level] += race.probability;
        }
    }
    let last = by_level
        .iter()
        .rposition(|&p| p > 0.0)
        .unwrap_or(0)
        .max(depth as usize);
    by_level.truncate(last + 1);
    let out_of_depth: f64 = by_level.iter().skip(depth as usize + 1).sum();
    let y_max = by_level.iter().copied().fold(0.0, f64::max) * 1.1;
    Plot {
        title: format!("Angband 2.7.9: one monster drawn at depth {depth}, by race level"),
        x_label: "race level".into(),
        y_label: "chance".into(),
        xs: (0..=last as i32).collect(),
        y_max: if y_max > 0.0 { y_max } else { 1.0 },
        shape: Shape::Bars {
            values: Series {
                name: "chance".into(),
                values: by_level,
            },
            marked_from: depth + 1,
            note: format!("out of depth: {:.2}%", out_of_depth * 100.0),
        },
    }
}
