//! `denizen angband ...`: Angband 2.7.9's exact odds (the allocator, the room kinds).

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use denizen_angband::Races;
use denizen_angband::alloc::{Allocator, DrawRequest, MAX_DRAW_LEVEL, UniqueLedger};
use denizen_angband::layout::{destroyed_chance, first_choice_odds, lit_chance};
use denizen_core::DataFile;

use crate::commands::{CliError, io_error};
use crate::table::{Cell, Format, Table};

/// The Angband subcommands.
#[derive(Debug, Subcommand)]
pub enum AngbandCommand {
    /// Exact odds of each race for one allocator draw at a monster level.
    Alloc {
        /// Monster level drawn at, 0-127 (a room's offset included, such as depth + 10
        /// for a pit).
        #[arg(value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_LEVEL)))]
        level: i32,
        /// The dungeon depth (which `FORCE_DEPTH` races are checked against); the level
        /// by default.
        #[arg(long, value_parser = clap::value_parser!(i32).range(0..=i64::from(MAX_DRAW_LEVEL)))]
        depth: Option<i32>,
        /// A race RON file to use instead of the shipped 2.7.9 races.
        #[arg(long, value_name = "FILE")]
        races: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// Exact chance that one room placement attempt first tries each room kind.
    Rooms {
        /// Dungeon depth, 1-127.
        #[arg(value_parser = clap::value_parser!(i32).range(1..=i64::from(MAX_DRAW_LEVEL)))]
        depth: i32,
        /// Only levels that are not destroyed (by default a destroyed level's attempts,
        /// simple rooms only, are counted in: 1 in 15 from depth 11).
        #[arg(long)]
        intact: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// Runs an Angband subcommand.
pub fn run(command: &AngbandCommand, out: &mut impl Write) -> Result<(), CliError> {
    let table = match command {
        AngbandCommand::Alloc {
            level,
            depth,
            races,
            format,
        } => (
            alloc_table(*level, depth.unwrap_or(*level), races.as_ref())?,
            *format,
        ),
        AngbandCommand::Rooms {
            depth,
            intact,
            format,
        } => (rooms_table(*depth, *intact), *format),
    };
    table.0.write(table.1, out).map_err(crate::commands::stdout)
}

fn alloc_table(level: i32, depth: i32, races: Option<&PathBuf>) -> Result<Table, CliError> {
    let races = match races {
        None => Races::shipped(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(io_error(path))?;
            Races::from_file(DataFile::new(&path.display().to_string(), &text))?
        }
    };
    let allocator = Allocator::new(races);
    let live = UniqueLedger::new();
    let odds = allocator.odds(&DrawRequest::new(level, depth, &live));
    let rows = odds
        .races
        .iter()
        .map(|o| {
            let race = allocator
                .races()
                .get(o.race)
                .expect("odds name the allocator's races");
            vec![
                Cell::Int(o.race.0.into()),
                Cell::Text(race.name.clone()),
                Cell::Prob(o.probability),
            ]
        })
        .collect();
    Ok(Table {
        title: format!(
            "One draw at monster level {level}, depth {depth} (no unique alive; fails with chance {:.3e})",
            odds.failure
        ),
        columns: vec!["race", "name", "probability"],
        rows,
    })
}

fn rooms_table(depth: i32, intact: bool) -> Table {
    let rows = first_choice_odds(depth, !intact)
        .iter()
        .map(|(kind, p)| vec![Cell::Text(kind.name().to_owned()), Cell::Prob(*p)])
        .collect();
    let levels = if intact {
        "a level that is not destroyed".to_owned()
    } else {
        format!(
            "any level (destroyed with chance {:.6})",
            destroyed_chance(depth, false)
        )
    };
    Table {
        title: format!(
            "First room kind tried by one placement attempt at depth {depth}, on {levels}; rooms of types 1-4 lit with chance {:.2}",
            lit_chance(depth)
        ),
        columns: vec!["kind", "probability"],
        rows,
    }
}
