//! `denizen tables check`: the balance claims a designer keeps beside the bestiary, each
//! checked exactly at every depth it names; exit code 1 when one fails.

use std::io::Write;
use std::path::{Path, PathBuf};

use denizen_core::{quoted, read_data_file};
use denizen_tables::balance::{Holds, Verdict, load_claims};
use denizen_tables::{Bestiary, UniqueLedger};

use crate::bestiary_files::{Files, load};
use crate::error::{CliError, io_error, shown, stdout};
use crate::table::{Cell, Format, Table};

/// `denizen tables check FILES --checks FILE`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The files (`--killed` fills the unique ledger, empty otherwise).
    #[command(flatten)]
    pub files: Files,
    /// The claims file (RON; see `denizen_tables::balance`).
    #[arg(long, value_name = "FILE")]
    pub checks: PathBuf,
    /// Judge a claim whose figures are sampled (past the exact limits) by them, rather
    /// than failing it as unknown.
    #[arg(long)]
    pub allow_sampled: bool,
}

/// Each claim of `path` checked against `b`.
pub(crate) fn verdicts(
    b: &Bestiary,
    ledger: &UniqueLedger,
    path: &Path,
    allow_sampled: bool,
) -> Result<Vec<Verdict>, CliError> {
    let text = read_data_file(path).map_err(io_error(path))?;
    let claims = load_claims(b, &shown(path), &text)?;
    (claims.iter())
        .map(|c| {
            c.check(ledger, allow_sampled).map_err(|e| {
                CliError::Usage(format!("{}: claim {}: {e}", shown(path), quoted(&c.name)))
            })
        })
        .collect()
}

/// `holds`, `fails` (each marked `(sampled)` when it rests on sampled figures) or
/// `unknown`.
pub(crate) fn verdict_word(v: &Verdict) -> &'static str {
    match (v.holds, v.sampled) {
        (Holds::Yes, false) => "holds",
        (Holds::Yes, true) => "holds (sampled)",
        (Holds::No, false) => "fails",
        (Holds::No, true) => "fails (sampled)",
        (Holds::Unknown, _) => "unknown",
    }
}

/// The verdicts as a table: `claim,verdict,worst_depth,figure,bound`.
pub(crate) fn table(verdicts: &[Verdict]) -> Table {
    let rows = verdicts
        .iter()
        .map(|v| {
            vec![
                Cell::Text(v.name.clone()),
                Cell::Text(verdict_word(v).to_owned()),
                Cell::Int(v.depth.into()),
                Cell::Prob(v.figure),
                Cell::Text(v.bound.clone()),
            ]
        })
        .collect();
    let failed = verdicts.iter().filter(|v| v.failed).count();
    Table {
        title: format!(
            "{} claims, {failed} failed; each at its worst depth (exact unless marked sampled)",
            verdicts.len()
        ),
        columns: vec!["claim", "verdict", "worst_depth", "figure", "bound"],
        rows,
    }
}

/// Runs `denizen tables check`.
pub fn run(args: &CheckArgs, out: &mut impl Write) -> Result<(), CliError> {
    let (b, ledger) = load(&args.files)?;
    let verdicts = verdicts(&b, &ledger, &args.checks, args.allow_sampled)?;
    table(&verdicts).write(Format::Table, out).map_err(stdout)?;
    match verdicts.iter().filter(|v| v.failed).count() {
        0 => Ok(()),
        1 => Err(CliError::Failed("1 claim failed".into())),
        n => Err(CliError::Failed(format!("{n} claims failed"))),
    }
}
