//! `denizen tables diff`: what an edit of the files did, exactly: each species', tag's and
//! the floor's danger's expected count per floor at each depth, before and after, the
//! largest changes first, with the first depth each change begins at.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

use denizen_tables::{Bestiary, Context, Odds, Per, UniqueLedger, odds};

use crate::bestiary_files::{ContextArgs, Files, depth_span, in_branch, load};
use crate::error::{CliError, stdout};
use crate::table::{Cell, Format, Table, note};

/// `denizen tables diff NEW... --against OLD... --depths A-B`.
#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The new files (and `--killed`, which holds for both versions).
    #[command(flatten)]
    pub files: Files,
    /// The old files, in the same order of merging.
    #[arg(long, value_name = "OLD", required = true, num_args = 1..=denizen_tables::MAX_FILES)]
    pub against: Vec<PathBuf>,
    /// The depths compared, `FIRST-LAST` (each a depth of both versions' floors).
    #[arg(long, value_name = "FIRST-LAST", value_parser = depth_span)]
    pub depths: (u32, u32),
    /// The branch whose floors these are (the default floor otherwise).
    #[arg(long, value_name = "KEY")]
    pub branch: Option<String>,
    /// The context.
    #[command(flatten)]
    pub context: ContextArgs,
    /// The change that counts: an absolute change in expected count per floor (danger in
    /// its own units), or `X%` of the old figure; changes at most this are not listed and
    /// do not fail the run.
    #[arg(long, value_name = "X", default_value = "0", value_parser = threshold)]
    pub threshold: Threshold,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
}

/// `--format` of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// Aligned columns.
    Text,
    /// Comma-separated values with a header row.
    Csv,
    /// A Markdown table, for a pull request.
    Md,
}

/// The change a diff lists: absolute, or relative to the old figure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Threshold {
    /// A change in expected count (or danger).
    Absolute(f64),
    /// A change of this many percent of the old figure (any change from 0 counts).
    Percent(f64),
}

/// The largest change taken for rounding: the same rules summed in another order (rows
/// or files reordered) may differ in the last bits of a figure.
pub const ROUNDING: f64 = 1e-9;

impl Threshold {
    /// Whether the change from `before` to `after` is past the threshold (and past
    /// [`ROUNDING`]).
    fn passed(self, before: f64, after: f64) -> bool {
        let change = (after - before).abs();
        if change <= ROUNDING {
            return false;
        }
        match self {
            Threshold::Absolute(x) => change > x,
            Threshold::Percent(p) if before == 0.0 => change > 0.0 && p.is_finite(),
            Threshold::Percent(p) => change / before.abs() * 100.0 > p,
        }
    }
}

/// `0.1` or `5%`: a number, not negative.
fn threshold(text: &str) -> Result<Threshold, String> {
    let bad = || {
        format!(
            "{}: expected a number or a percentage, such as 0.1 or 5%",
            denizen_core::quoted(text)
        )
    };
    let (number, percent) = match text.strip_suffix('%') {
        Some(n) => (n, true),
        None => (text, false),
    };
    let x: f64 = number.trim().parse().map_err(|_| bad())?;
    if !x.is_finite() || x < 0.0 {
        return Err(bad());
    }
    Ok(match percent {
        true => Threshold::Percent(x),
        false => Threshold::Absolute(x),
    })
}

/// What a row of the diff is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Subject {
    /// A species, by key.
    Species(String),
    /// The species carrying a tag.
    Tag(String),
    /// The floor's danger.
    Danger,
}

impl Subject {
    fn kind(&self) -> &'static str {
        match self {
            Subject::Species(_) => "species",
            Subject::Tag(_) => "tag",
            Subject::Danger => "danger",
        }
    }

    fn key(&self) -> &str {
        match self {
            Subject::Species(k) | Subject::Tag(k) => k,
            Subject::Danger => "",
        }
    }
}

/// Each subject's figure per floor at one depth: species and tags by expected count, the
/// danger by its expected value.
pub(crate) type Figures = BTreeMap<Subject, f64>;

/// The figures of `b` at `depth`, and whether they were sampled.
pub(crate) fn figures(
    b: &Bestiary,
    depth: u32,
    (ledger, context): (&UniqueLedger, &Context),
) -> Result<(Figures, bool), CliError> {
    let o: Odds =
        odds(b, depth, ledger, context, Per::Floor).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut out = Figures::new();
    for (s, e) in b.species().iter().zip(&o.expected) {
        out.insert(Subject::Species(s.key.clone()), *e);
        for tag in &s.tags {
            *out.entry(Subject::Tag(tag.clone())).or_insert(0.0) += e;
        }
    }
    out.insert(Subject::Danger, o.danger(b));
    Ok((out, o.standard_errors.is_some()))
}

/// One change: a subject at a depth, before and after.
pub(crate) struct Change {
    pub(crate) subject: Subject,
    pub(crate) depth: u32,
    pub(crate) before: f64,
    pub(crate) after: f64,
    /// The first depth of the span where the subject's change passes the threshold (for
    /// a species added or removed whose changes do not, where it is first listed).
    pub(crate) first: u32,
    /// `added`, `removed` or empty.
    pub(crate) status: &'static str,
    /// Whether the change passes the threshold. A species added or removed is listed
    /// wherever its figure changes, past the threshold or not, and at the span's first
    /// depth when it never does; only changes past the threshold fail the run.
    pub(crate) passed: bool,
}

/// The changes past `threshold` from `old` to `new` at each of `depths`, the largest
/// first (then by subject and depth), then each species added or removed whose figures
/// did not change; and whether any figure was sampled.
pub(crate) fn changes(
    (new, old): (&Bestiary, &Bestiary),
    (first, last): (u32, u32),
    given: (&UniqueLedger, &Context),
    threshold: Threshold,
) -> Result<(Vec<Change>, bool), CliError> {
    for (b, which) in [(new, "new"), (old, "old")] {
        let d = b.floor().depths;
        if !d.contains(first) || !d.contains(last) {
            return Err(CliError::Usage(format!(
                "--depths {first}-{last}: the {which} files' floor has depths {d}"
            )));
        }
    }
    let species =
        |b: &Bestiary| -> BTreeSet<String> { b.species().iter().map(|s| s.key.clone()).collect() };
    let (was, is) = (species(old), species(new));
    let mut out = Vec::new();
    let mut sampled = false;
    let mut begins: BTreeMap<Subject, u32> = BTreeMap::new();
    // Where each subject listed is first listed.
    let mut listed: BTreeMap<Subject, u32> = BTreeMap::new();
    for depth in first..=last {
        let (after, s1) = figures(new, depth, given)?;
        let (before, s2) = figures(old, depth, given)?;
        sampled |= s1 || s2;
        let subjects: BTreeSet<&Subject> = after.keys().chain(before.keys()).collect();
        for subject in subjects {
            let (b, a) = (before.get(subject), after.get(subject));
            let (b, a) = (b.copied().unwrap_or(0.0), a.copied().unwrap_or(0.0));
            let status = match subject {
                Subject::Species(k) if !was.contains(k) => "added",
                Subject::Species(k) if !is.contains(k) => "removed",
                _ => "",
            };
            let passed = threshold.passed(b, a);
            // A species added or removed is listed wherever its figure changes at all.
            if !passed && (status.is_empty() || (a - b).abs() <= ROUNDING) {
                continue;
            }
            if passed {
                begins.entry(subject.clone()).or_insert(depth);
            }
            listed.entry(subject.clone()).or_insert(depth);
            out.push(Change {
                subject: subject.clone(),
                depth,
                before: b,
                after: a,
                first: 0,
                status,
                passed,
            });
        }
    }
    let unlisted = |k: &String| !listed.contains_key(&Subject::Species(k.clone()));
    let added = (is.difference(&was))
        .filter(|k| unlisted(k))
        .map(|k| (k, "added"));
    let removed = (was.difference(&is))
        .filter(|k| unlisted(k))
        .map(|k| (k, "removed"));
    let quiet: Vec<Change> = (added.chain(removed))
        .map(|(k, status)| Change {
            subject: Subject::Species(k.clone()),
            depth: first,
            before: 0.0,
            after: 0.0,
            first,
            status,
            passed: false,
        })
        .collect();
    for c in &mut out {
        c.first = (begins.get(&c.subject).or(listed.get(&c.subject)))
            .copied()
            .unwrap_or(first);
    }
    out.sort_by(|x, y| {
        let size = |c: &Change| (c.after - c.before).abs();
        (size(y).total_cmp(&size(x)))
            .then_with(|| x.subject.cmp(&y.subject))
            .then(x.depth.cmp(&y.depth))
    });
    out.extend(quiet);
    Ok((out, sampled))
}

/// The changes as a table: `kind,key,depth,before,after,change,first_depth,status`.
pub(crate) fn table(changes: &[Change], (first, last): (u32, u32)) -> Table {
    let rows = changes
        .iter()
        .map(|c| {
            vec![
                Cell::Text(c.subject.kind().to_owned()),
                Cell::Text(c.subject.key().to_owned()),
                Cell::Int(c.depth.into()),
                Cell::Stat(c.before),
                Cell::Stat(c.after),
                Cell::Stat(c.after - c.before),
                Cell::Int(c.first.into()),
                Cell::Text(c.status.to_owned()),
            ]
        })
        .collect();
    Table {
        title: format!(
            "Expected count per floor before and after, depths {first}-{last}: {} changes past the threshold, the largest first, then species added or removed",
            changes.iter().filter(|c| c.passed).count()
        ),
        columns: vec![
            "kind",
            "key",
            "depth",
            "before",
            "after",
            "change",
            "first_depth",
            "status",
        ],
        rows,
    }
}

/// Runs `denizen tables diff`: exit code 1 when a change passes the threshold.
pub fn run(args: &DiffArgs, out: &mut impl Write, err: &mut impl Write) -> Result<(), CliError> {
    let (new, ledger) = load(&args.files)?;
    // The new files' ledger serves both: a unique killed that the old files lack is
    // simply not among their draws.
    let old_files = Files {
        files: args.against.clone(),
        killed: Vec::new(),
    };
    let (old, _) = load(&old_files)?;
    let new = in_branch(new, args.branch.as_deref())?;
    let old = in_branch(old, args.branch.as_deref())?;
    let context = args.context.context(&new)?;
    args.context.context(&old)?;
    let given = (&ledger, &context);
    let (found, sampled) = changes((&new, &old), args.depths, given, args.threshold)?;
    if sampled {
        note(
            err,
            format_args!(
                "some figures were sampled (past the exact limits): small changes may be noise"
            ),
        );
    }
    let format = match args.format {
        DiffFormat::Text => Format::Table,
        DiffFormat::Csv => Format::Csv,
        DiffFormat::Md => Format::Markdown,
    };
    table(&found, args.depths)
        .write(format, out)
        .map_err(stdout)?;
    match found.iter().filter(|c| c.passed).count() {
        0 => Ok(()),
        n => Err(CliError::Failed(format!("{n} changes past the threshold"))),
    }
}
