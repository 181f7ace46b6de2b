//! Captive's chart: an encounter type's members by map, under the caps.

use denizen_captive::generator::{STAT_CAP, STRENGTH_CAP};
use denizen_captive::{
    EncounterSettings, EncounterTable, Growth, MemberRange, Spread, member_range,
};

use super::data::{Band, Plot, Shape};
use crate::error::CliError;

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
    let band = |name: &str, ranges: &[MemberRange], spread: fn(&MemberRange) -> Spread| Band {
        name: name.to_owned(),
        least: ranges.iter().map(|r| f64::from(spread(r).least)).collect(),
        mean: ranges.iter().map(|r| spread(r).mean).collect(),
        greatest: ranges
            .iter()
            .map(|r| f64::from(spread(r).greatest))
            .collect(),
    };
    let title = |what: &str| format!("Captive: {what} of an {} member by map", t.name);
    // Armature and skill can reach their cap within a few maps: that panel then ends two
    // maps after every member is at the cap for good, and says from which map.
    let capped = |r: &MemberRange| r.armature.least >= STAT_CAP && r.skill.least >= STAT_CAP;
    let capped_from = (0..ranges.len()).find(|&i| ranges[i..].iter().all(capped));
    let (stats_title, shown) = match capped_from {
        Some(i) if i + 3 < ranges.len() => (
            format!(
                "{} (all at the cap from map {})",
                title("armature and skill"),
                xs[i]
            ),
            i + 3,
        ),
        _ => (title("armature and skill"), ranges.len()),
    };
    let stats = &ranges[..shown];
    Ok([
        Plot {
            title: title("strength"),
            x_label: "map number".into(),
            y_label: "strength".into(),
            xs: xs.clone(),
            y_max: f64::from(STRENGTH_CAP) * 1.1,
            shape: Shape::Bands {
                bands: vec![band("strength", &ranges, |r| r.strength)],
                cap: Some(f64::from(STRENGTH_CAP)),
            },
        },
        Plot {
            title: stats_title,
            x_label: "map number".into(),
            y_label: "armature, skill".into(),
            xs: xs[..shown].to_vec(),
            y_max: f64::from(STAT_CAP) * 1.1,
            shape: Shape::Bands {
                bands: vec![
                    band("armature", stats, |r| r.armature),
                    band("skill", stats, |r| r.skill),
                ],
                cap: Some(f64::from(STAT_CAP)),
            },
        },
    ])
}
