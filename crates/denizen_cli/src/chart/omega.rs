//! Omega's chart: a location's species by depth.

use denizen_omega::{Odds, OmegaRules, SpeciesId};

use super::data::{Plot, Series, Shape};
use crate::error::CliError;

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
