//! The numbers each chart draws, taken from the rules' exact odds: nothing here samples.

use denizen_angband::{Allocator, DrawRequest, Races, SpecialRoom, UniqueLedger};
use denizen_captive::generator::{STAT_CAP, STRENGTH_CAP};
use denizen_captive::{EncounterSettings, EncounterTable, Growth, member_range};
use denizen_omega::{Odds, OmegaRules, SpeciesId};

use crate::error::CliError;

/// One named line, area or set of bars: a value at each of the plot's `xs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// What it is.
    pub name: String,
    /// Its value at each x.
    pub values: Vec<f64>,
}

/// A band: the least, the mean and the greatest of a value at each x.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// What it is.
    pub name: String,
    /// The least at each x.
    pub least: Vec<f64>,
    /// The mean at each x.
    pub mean: Vec<f64>,
    /// The greatest at each x.
    pub greatest: Vec<f64>,
}

/// How a plot draws its numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Areas stacked from 0, the first series at the bottom: shares that sum to 1.
    Stacked(Vec<Series>),
    /// Lines.
    Lines(Vec<Series>),
    /// Bars, those at `marked_from` or further drawn apart, with a note saying what
    /// they hold.
    Bars {
        /// The bars.
        values: Series,
        /// The first x drawn apart.
        marked_from: i32,
        /// What the marked bars hold.
        note: String,
    },
    /// Bands with their means, under a cap drawn as a line.
    Bands {
        /// The bands.
        bands: Vec<Band>,
        /// The cap.
        cap: f64,
    },
}

/// One plot: its axes and its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The title.
    pub title: String,
    /// What x is.
    pub x_label: String,
    /// What y is.
    pub y_label: String,
    /// The x values, in order.
    pub xs: Vec<i32>,
    /// The top of the y axis (the bottom is 0).
    pub y_max: f64,
    /// The numbers.
    pub shape: Shape,
}

/// `chart odds`: the share of each species in one placement at each depth of the dungeon
/// `location` (all its depths by default), the `top` species with the largest mean share
/// named and the rest gathered.
pub fn odds_by_depth(
    rules: &OmegaRules,
    location: &str,
    depths: Option<(u32, u32)>,
    top: usize,
) -> Result<Plot, CliError> {
    let environment = rules.locations.get(location)?;
    if !environment.is_dungeon() {
        return Err(CliError::Usage(format!(
            "{} is not a dungeon: it has one level, whose odds `denizen odds` prints",
            denizen_core::quoted(location)
        )));
    }
    let all = environment.depths();
    let (first, last) = depths.unwrap_or((*all.start(), *all.end()));
    let levels = (first..=last)
        .map(|depth| environment.level(depth).map_err(CliError::from))
        .collect::<Result<Vec<_>, _>>()?;
    let odds: Vec<Odds> = levels
        .iter()
        .map(|level| Odds::of(&level.selector))
        .collect();
    let species = rules.bestiary.species().len();
    let mean = |id: usize| {
        odds.iter()
            .map(|o| o.species(SpeciesId(id as u16)))
            .sum::<f64>()
    };
    let mut ranked: Vec<usize> = (0..species).filter(|&id| mean(id) > 0.0).collect();
    ranked.sort_by(|&a, &b| mean(b).total_cmp(&mean(a)).then(a.cmp(&b)));
    let named: Vec<usize> = ranked.iter().copied().take(top).collect();
    let mut series: Vec<Series> = named
        .iter()
        .map(|&id| Series {
            name: rules.bestiary.get(SpeciesId(id as u16)).name.clone(),
            values: odds
                .iter()
                .map(|o| o.species(SpeciesId(id as u16)))
                .collect(),
        })
        .collect();
    if ranked.len() > named.len() {
        series.push(Series {
            name: format!("{} others", ranked.len() - named.len()),
            values: odds
                .iter()
                .map(|o| {
                    1.0 - named
                        .iter()
                        .map(|&id| o.species(SpeciesId(id as u16)))
                        .sum::<f64>()
                })
                .collect(),
        });
    }
    Ok(Plot {
        title: format!(
            "{}: the share of each species in one placement",
            environment.name
        ),
        x_label: "depth".into(),
        y_label: "share of a placement".into(),
        xs: (first..=last).map(|d| d as i32).collect(),
        y_max: 1.0,
        shape: Shape::Stacked(series),
    })
}

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
    let series = rooms
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
        shape: Shape::Lines(series),
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

/// `chart encounters`: the strength, armature and skill of a member of encounter type
/// `type_id` (the strongest by default) on each map of `maps`, least to greatest with the
/// mean, under the caps, armature and skill growing as `growth` says; two plots, strength
/// and then armature and skill.
pub fn member_stats(
    type_id: Option<u8>,
    growth: Growth,
    maps: (u32, u32),
) -> Result<[Plot; 2], CliError> {
    let table = EncounterTable::shipped();
    let strongest = (0..=u8::MAX)
        .filter_map(|id| table.get(id).map(|t| (t.strength, std::cmp::Reverse(id))))
        .max()
        .map(|(_, std::cmp::Reverse(id))| id);
    let type_id = type_id.or(strongest).unwrap_or(0);
    let t = table
        .get(type_id)
        .ok_or_else(|| CliError::Usage(format!("encounter type {type_id} is not in the table")))?;
    let settings = EncounterSettings {
        growth,
        ..EncounterSettings::default()
    };
    let xs: Vec<i32> = (maps.0..=maps.1).map(|m| m as i32).collect();
    let ranges: Vec<_> = (maps.0..=maps.1)
        .map(|map| member_range(t, map, &settings))
        .collect();
    let band =
        |name: &str, spread: fn(&denizen_captive::MemberRange) -> denizen_captive::Spread| Band {
            name: name.to_owned(),
            least: ranges.iter().map(|r| f64::from(spread(r).least)).collect(),
            mean: ranges.iter().map(|r| spread(r).mean).collect(),
            greatest: ranges
                .iter()
                .map(|r| f64::from(spread(r).greatest))
                .collect(),
        };
    let title = |what: &str| format!("Captive: {what} of an {} member by map", t.name);
    Ok([
        Plot {
            title: title("strength"),
            x_label: "map number".into(),
            y_label: "strength".into(),
            xs: xs.clone(),
            y_max: f64::from(STRENGTH_CAP) * 1.1,
            shape: Shape::Bands {
                bands: vec![band("strength", |r| r.strength)],
                cap: f64::from(STRENGTH_CAP),
            },
        },
        Plot {
            title: title("armature and skill"),
            x_label: "map number".into(),
            y_label: "armature, skill".into(),
            xs,
            y_max: f64::from(STAT_CAP) * 1.1,
            shape: Shape::Bands {
                bands: vec![band("armature", |r| r.armature), band("skill", |r| r.skill)],
                cap: f64::from(STAT_CAP),
            },
        },
    ])
}
