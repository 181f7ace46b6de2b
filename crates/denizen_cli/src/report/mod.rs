//! `denizen tables report` and `watch`: one self-contained HTML page a designer opens in a
//! browser (no network, no script or style from elsewhere; the charts are inline SVG drawn
//! here): each species' expected count per floor by depth, stacked; the danger's mean and
//! its 5%-95% band; the lint; a table of the species that sorts and filters (kept in the
//! address's fragment); each species' explanation; the diff with `--against`; the
//! claims' verdicts with `--checks`. The same inputs give the same bytes.
//!
//! `watch` rewrites the page whenever a file changes; the page it writes reloads itself
//! every two seconds, keeping its fragment, so an open page follows the files.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use denizen_tables::{Bestiary, UniqueLedger};

use crate::bestiary_files::{ContextArgs, Files, depth_span, in_branch, load};
use crate::chart::{ChartOut, write_picture};
use crate::diff::Threshold;
use crate::error::{CliError, stdout};
use crate::interrupt;
use crate::table::note;

mod charts;
mod page;

use page::{Page, esc};

/// `denizen tables report FILES -o report.html` (and `watch`).
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The files.
    #[command(flatten)]
    pub files: Files,
    /// The old files: the page shows what changed from them.
    #[arg(long, value_name = "OLD", num_args = 1..=denizen_tables::MAX_FILES)]
    pub against: Vec<PathBuf>,
    /// A claims file: the page shows each claim's verdict.
    #[arg(long, value_name = "FILE")]
    pub checks: Option<PathBuf>,
    /// The depths shown, `FIRST-LAST` (the floor's own otherwise).
    #[arg(long, value_name = "FIRST-LAST", value_parser = depth_span)]
    pub depths: Option<(u32, u32)>,
    /// The depth the explanations are of (the first shown otherwise).
    #[arg(long)]
    pub depth: Option<u32>,
    /// The branch whose floors these are (the default floor otherwise).
    #[arg(long, value_name = "KEY")]
    pub branch: Option<String>,
    /// The context.
    #[command(flatten)]
    pub context: ContextArgs,
    /// The page to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
}

/// The most depths times species a page shows (20 depths of 5,000 species).
pub const MAX_REPORT_FIGURES: u64 = 100_000;

/// Runs `denizen tables report`.
pub fn run(args: &ReportArgs, out: &mut impl Write, err: &mut impl Write) -> Result<(), CliError> {
    let page = page(args, false, err)?;
    let to = ChartOut {
        file: args.output.clone(),
        png: false,
    };
    write_picture(page, &to, out)
}

/// Runs `denizen tables watch`: the page written, then rewritten whenever a file it reads
/// changes (its modification time or size; a folder's files each), the lint printed each
/// time, until Ctrl-C, which ends it with exit code 0 (its normal end). A version of the
/// files that does not load is reported and the page left as it was. It looks every 0.3
/// seconds.
pub fn watch(
    args: &ReportArgs,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<(), CliError> {
    let to = ChartOut {
        file: args.output.clone(),
        png: false,
    };
    let mut seen = None;
    loop {
        let now = stamps(args);
        if seen.as_ref() != Some(&now) {
            seen = Some(now);
            match page(args, true, err) {
                Ok(page) => write_picture(page, &to, out)?,
                Err(e) => note(err, format_args!("denizen: {e}")),
            }
            out.flush().map_err(stdout)?;
        }
        if interrupt::interrupted() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Each file the page reads (a folder's `*.tables.ron` files, each), with its
/// modification time and size (none for one that cannot be read).
fn stamps(args: &ReportArgs) -> Vec<(PathBuf, Option<(SystemTime, u64)>)> {
    let named: Vec<PathBuf> = (args.files.files.iter())
        .chain(&args.against)
        .cloned()
        .collect();
    // A folder that cannot be read stands for itself: its own stamp changes when it can.
    let mut files = crate::bestiary_files::paths(&named).unwrap_or(named);
    files.extend(args.checks.iter().cloned());
    files
        .into_iter()
        .map(|f| {
            let meta = std::fs::metadata(&f).ok();
            let stamp = meta.and_then(|m| Some((m.modified().ok()?, m.len())));
            (f, stamp)
        })
        .collect()
}

/// The bestiary of a version of the files, in the branch asked for, with the ledger of
/// the uniques `killed` names.
fn version(
    args: &ReportArgs,
    files: &[PathBuf],
    killed: &[String],
) -> Result<(Bestiary, UniqueLedger), CliError> {
    let named = Files {
        files: files.to_vec(),
        killed: killed.to_vec(),
    };
    let (b, ledger) = load(&named)?;
    Ok((in_branch(b, args.branch.as_deref())?, ledger))
}

/// The page; the lint written to `err` as well when `watching`.
fn page(args: &ReportArgs, watching: bool, err: &mut impl Write) -> Result<String, CliError> {
    let (b, ledger) = version(args, &args.files.files, &args.files.killed)?;
    let context = args.context.context(&b)?;
    let ((first, last), explained) = span(args, &b)?;
    if watching {
        for w in b.warnings() {
            note(err, format_args!("warning: {w}"));
        }
        note(err, format_args!("{} warnings", b.warnings().len()));
    }
    let given = (&ledger, &context);
    let columns = charts::columns(&b, (first, last), given)?;
    let mut html = Page::new(&b, args, watching);
    html.charts(&b, &columns);
    html.lint(&b);
    html.species(&b, &columns);
    html.explanations(&b, explained, given)?;
    if !args.against.is_empty() {
        // The new files' ledger serves both versions.
        let (old, _) = version(args, &args.against, &[])?;
        args.context.context(&old)?;
        let found =
            crate::diff::changes((&b, &old), (first, last), given, Threshold::Absolute(0.0))?;
        html.diff(&found.0);
    }
    if let Some(path) = &args.checks {
        html.checks(&crate::balance::verdicts(&b, &ledger, path, false)?);
    }
    Ok(html.end())
}

/// The depths the page shows and the one its explanations are of, checked against the
/// floor's depths and [`MAX_REPORT_FIGURES`].
fn span(args: &ReportArgs, b: &Bestiary) -> Result<((u32, u32), u32), CliError> {
    let floor = b.floor().depths;
    let (first, last) = args.depths.unwrap_or((floor.min(), floor.max()));
    if !floor.contains(first) || !floor.contains(last) {
        return Err(CliError::Usage(format!(
            "--depths {first}-{last}: the floor has depths {floor}"
        )));
    }
    let shown = u64::from(last - first + 1) * b.species().len() as u64;
    if shown > MAX_REPORT_FIGURES {
        return Err(CliError::Usage(format!(
            "--depths {first}-{last}: {shown} figures, past the {MAX_REPORT_FIGURES} a page shows; show fewer depths"
        )));
    }
    let explained = args.depth.unwrap_or(first);
    if !floor.contains(explained) {
        return Err(CliError::Usage(format!(
            "--depth {explained}: the floor has depths {floor}"
        )));
    }
    Ok(((first, last), explained))
}
