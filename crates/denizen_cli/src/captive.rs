//! Captive's command: the encounter groups of one base floor, as the plugin places them.

use std::io::Write;

use denizen_captive::{
    BaseEncounters, EncounterPlan, EncounterSettings, EncounterTable, Growth, Overflow,
    SpecialStage, Stop, check_special_cells, encounter_stream, reference_base,
};
use denizen_core::{Square, WorldSeed, quoted};

use crate::error::{CliError, stdout};
use crate::table::{Cell, Table, TextFormat, note};

/// `denizen encounters`: places the encounter groups of one base floor (Captive's
/// generator) and lists them.
#[derive(Debug, clap::Args)]
pub struct EncountersArgs {
    /// Global map number, from 0: (mission - 1) x 11 + base.
    pub map: u32,
    /// Floors of the base (base maps handed out); 1 on map 0 and 3 otherwise by default.
    #[arg(long)]
    pub floors: Option<u32>,
    /// Strength past 65,535: computed in full and capped, or Captive's 16-bit
    /// arithmetic.
    #[arg(long, value_enum, default_value_t = OverflowArg::Saturate)]
    pub overflow: OverflowArg,
    /// Armature and skill: as the generator's code rolls them, or growing with the
    /// map as the guide's prose says.
    #[arg(long, value_enum, default_value_t = GrowthArg::Code)]
    pub growth: GrowthArg,
    /// A special stage's group, made before the regular ones, at a cell:
    /// `prisoner@X,Y`, `door-N@X,Y` (the guard of laser door N, 0-7) or
    /// `dead-end@X,Y`. Repeat for more, in order.
    #[arg(long, value_name = "STAGE@X,Y", value_parser = parse_special)]
    pub special: Vec<(Square, SpecialStage)>,
    /// World seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TextFormat::Table)]
    pub format: TextFormat,
}

/// `--special` of `denizen encounters`: `prisoner@3,4`, `door-2@3,4` or `dead-end@3,4`.
fn parse_special(text: &str) -> Result<(Square, SpecialStage), String> {
    let usage = || {
        format!(
            "{}: expected prisoner@X,Y, door-N@X,Y (N 0-7) or dead-end@X,Y",
            quoted(text)
        )
    };
    let (stage, cell) = text.split_once('@').ok_or_else(usage)?;
    let (x, y) = cell.split_once(',').ok_or_else(usage)?;
    let cell = Square {
        x: x.trim().parse().map_err(|_| usage())?,
        y: y.trim().parse().map_err(|_| usage())?,
    };
    let stage = match stage {
        "prisoner" => SpecialStage::Prisoner,
        "dead-end" => SpecialStage::DeadEnd,
        door => {
            let door = door
                .strip_prefix("door-")
                .and_then(|n| n.parse().ok())
                .filter(|&n: &u32| n <= 7)
                .ok_or_else(usage)?;
            SpecialStage::DoorGuard { door }
        }
    };
    Ok((cell, stage))
}

/// `--overflow` of `denizen encounters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OverflowArg {
    /// Compute in full and cap at 65,500.
    Saturate,
    /// Captive's 16-bit arithmetic.
    Wrap,
}

/// `--growth` of `denizen encounters`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GrowthArg {
    /// As the generator's code does.
    Code,
    /// As the guide's prose says.
    Prose,
}

impl From<GrowthArg> for Growth {
    fn from(growth: GrowthArg) -> Self {
        match growth {
            GrowthArg::Code => Growth::Code,
            GrowthArg::Prose => Growth::Prose,
        }
    }
}

/// Runs `denizen encounters`: the plugin's stream for the first stage on the map, so the
/// groups listed are the ones it spawns.
pub fn run(
    args: &EncountersArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let settings = EncounterSettings {
        overflow: match args.overflow {
            OverflowArg::Saturate => Overflow::Saturate,
            OverflowArg::Wrap => Overflow::Wrap,
        },
        growth: args.growth.into(),
        ..EncounterSettings::default()
    };
    let table = EncounterTable::shipped();
    let map = args.map;
    let grid = reference_base(WorldSeed(args.seed), map);
    let floors = args.floors.unwrap_or(if map == 0 { 1 } else { 3 });
    check_special_cells(&grid, &args.special).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut rng = encounter_stream(WorldSeed(args.seed), map, 0);
    let plan = BaseEncounters::new(&table, settings, map, floors).place_with_specials(
        &mut rng,
        &grid,
        &args.special,
    );
    groups_table(&plan, map, args.seed)
        .write(args.format.into(), out)
        .map_err(stdout)?;
    let stopped = match plan.stopped {
        None => String::new(),
        Some(Stop::MemoryFull) => "; stopped early: the group memory is full".to_owned(),
        Some(Stop::NoEligibleType(c)) => {
            format!("; stopped early: no {c:?} type is eligible on this map")
        }
    };
    note(
        err,
        format_args!(
            "{} groups from {} attempts{stopped}",
            plan.groups.len(),
            plan.attempts
        ),
    );
    Ok(())
}

/// One row per group of a plan.
fn groups_table(plan: &EncounterPlan, map: u32, seed: u64) -> Table {
    let rows = plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let strength = g.members.iter().map(|m| m.strength);
            let armature = g.members.iter().map(|m| m.armature).max().unwrap_or(0);
            let skill = g.members.iter().map(|m| m.skill).max().unwrap_or(0);
            let carries = g.carries.map_or_else(|| "-".to_owned(), |c| c.to_string());
            vec![
                Cell::Int(i as i64),
                Cell::Int(g.type_id.into()),
                Cell::Int(g.cell.x.into()),
                Cell::Int(g.cell.y.into()),
                Cell::Int(g.members.len() as i64),
                Cell::Int(g.speed.into()),
                Cell::Int(strength.clone().min().unwrap_or(0).into()),
                Cell::Int(strength.max().unwrap_or(0).into()),
                Cell::Int(armature.into()),
                Cell::Int(skill.into()),
                Cell::Text(carries),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Base map {map} (family mask {}), seed {seed}: {} groups",
            plan.mask,
            plan.groups.len()
        ),
        columns: vec![
            "group",
            "type",
            "cell_x",
            "cell_y",
            "size",
            "speed",
            "strength_min",
            "strength_max",
            "armature_max",
            "skill_max",
            "carries",
        ],
        rows,
    }
}
