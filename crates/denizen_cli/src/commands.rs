//! The `denizen` command line: the clap tree and what runs each command, one module per
//! rule set (each behind its cargo feature).

#[cfg(not(any(
    feature = "omega",
    feature = "captive",
    feature = "angband",
    feature = "tables"
)))]
compile_error!(
    "the denizen command needs at least one rule set: features omega, captive, angband or tables"
);

use std::io::Write;

use clap::{Parser, Subcommand};

pub use crate::error::{CliError, stdout};

/// Monster-population rules: exact odds, sampling and spoilers.
#[derive(Debug, Parser)]
#[command(name = "denizen", version, about)]
pub struct Cli {
    /// Omega's data files for the Omega command that follows (they may also come after
    /// it); any other command refuses them.
    #[cfg(feature = "omega")]
    #[command(flatten)]
    pub data: crate::omega::OmegaData,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands: each rule set's, then the charts.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Omega's commands.
    #[cfg(feature = "omega")]
    #[command(flatten)]
    Omega(crate::omega::OmegaCommand),
    /// Places the encounter groups of one base floor (Captive's generator) and lists them.
    #[cfg(feature = "captive")]
    Encounters(crate::captive::EncountersArgs),
    /// Angband 2.7.9: the allocator's and the room kinds' exact odds.
    #[cfg(feature = "angband")]
    Angband {
        /// What to print.
        #[command(subcommand)]
        command: crate::angband::AngbandCommand,
    },
    /// A game's own bestiary files: exact odds, samples, a floor, the lint, a chart.
    #[cfg(feature = "tables")]
    Tables {
        /// What to do.
        #[command(subcommand)]
        command: crate::tables::TablesCommand,
    },
    /// Draws the exact odds as a chart: SVG, and PNG with --png.
    #[cfg(any(
        feature = "omega",
        feature = "captive",
        feature = "angband",
        feature = "tables"
    ))]
    Chart {
        /// Which chart.
        #[command(subcommand)]
        chart: crate::chart::ChartCommand,
    },
}

impl Command {
    /// Whether the command can run long enough to want a progress bar and to stop on
    /// Ctrl-C with a note (`sample`, `simulate`, `angband sample`).
    pub fn runs_long(&self) -> bool {
        match self {
            #[cfg(feature = "omega")]
            Command::Omega(command) => command.runs_long(),
            #[cfg(feature = "angband")]
            Command::Angband { command } => command.runs_long(),
            #[cfg(feature = "captive")]
            Command::Encounters(_) => false,
            #[cfg(feature = "tables")]
            Command::Tables { command } => command.runs_long(),
            #[cfg(any(
                feature = "omega",
                feature = "captive",
                feature = "angband",
                feature = "tables"
            ))]
            Command::Chart { .. } => false,
        }
    }

    /// Whether the command reads Omega's data files (and so takes `--bestiary` and
    /// `--locations`).
    #[cfg(feature = "omega")]
    fn reads_omega_data(&self) -> bool {
        match self {
            Command::Omega(_) => true,
            Command::Chart { chart } => chart.reads_omega_data(),
            #[cfg(feature = "captive")]
            Command::Encounters(_) => false,
            #[cfg(feature = "angband")]
            Command::Angband { .. } => false,
            #[cfg(feature = "tables")]
            Command::Tables { .. } => false,
        }
    }
}

/// Runs a parsed command line, writing results to `out` and summaries to `err`.
pub fn run(cli: &Cli, out: &mut impl Write, err: &mut impl Write) -> Result<(), CliError> {
    #[cfg(feature = "omega")]
    if cli.data.given() && !cli.command.reads_omega_data() {
        return Err(CliError::Usage(
            "--bestiary and --locations are Omega's data: only Omega's commands read them".into(),
        ));
    }
    let _ = &err;
    match &cli.command {
        #[cfg(feature = "omega")]
        Command::Omega(command) => crate::omega::run(command, &cli.data, out, err),
        #[cfg(feature = "captive")]
        Command::Encounters(args) => crate::captive::run(args, out, err),
        #[cfg(feature = "angband")]
        Command::Angband { command } => crate::angband::run(command, out),
        #[cfg(feature = "tables")]
        Command::Tables { command } => crate::tables::run(command, out, err),
        #[cfg(feature = "omega")]
        Command::Chart { chart } => crate::chart::run(chart, &cli.data, out),
        #[cfg(all(
            not(feature = "omega"),
            any(feature = "captive", feature = "angband", feature = "tables")
        ))]
        Command::Chart { chart } => crate::chart::run(chart, out),
    }
}
