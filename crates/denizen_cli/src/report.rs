//! `denizen tables report` and `watch`: one self-contained HTML page a designer opens in a
//! browser (no network, no script or style from elsewhere; the charts are inline SVG drawn
//! here): each species' expected count per floor by depth, stacked; the danger's mean and
//! its 5%-95% band; the lint; a table of the species that sorts and filters (kept in the
//! address's fragment); each species' explanation; the diff with `--against`; the
//! claims' verdicts with `--checks`. The same inputs give the same bytes.
//!
//! `watch` rewrites the page whenever a file changes; the page it writes reloads itself
//! every two seconds, keeping its fragment, so an open page follows the files.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use denizen_core::regions::Regions;
use denizen_tables::{Bestiary, Context, UniqueLedger, floor_odds};

use crate::bestiary_files::{ContextArgs, Files, depth_span, in_branch, load};
use crate::chart::{ChartOut, write_picture};
use crate::diff::{Change, Threshold};
use crate::error::{CliError, stdout};
use crate::interrupt;
use crate::table::note;

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
/// changes (its modification time or size), the lint printed each time, until Ctrl-C. A
/// version of the files that does not load is reported and the page left as it was.
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

/// Each file's modification time and size (none for one that cannot be read).
fn stamps(args: &ReportArgs) -> Vec<Option<(SystemTime, u64)>> {
    let files = (args.files.files.iter())
        .chain(&args.against)
        .chain(&args.checks);
    files
        .map(|f| {
            let meta = std::fs::metadata(f).ok()?;
            Some((meta.modified().ok()?, meta.len()))
        })
        .collect()
}

/// The bestiary of a version of the files, in the branch asked for, with its ledger.
fn version(args: &ReportArgs, files: &[PathBuf]) -> Result<(Bestiary, UniqueLedger), CliError> {
    let named = Files {
        files: files.to_vec(),
        killed: args.files.killed.clone(),
    };
    let (b, ledger) = load(&named)?;
    Ok((in_branch(b, args.branch.as_deref())?, ledger))
}

/// The page; the lint written to `err` as well when `watching`.
fn page(args: &ReportArgs, watching: bool, err: &mut impl Write) -> Result<String, CliError> {
    let (b, ledger) = version(args, &args.files.files)?;
    let context = args.context.context(&b)?;
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
    if watching {
        for w in b.warnings() {
            note(err, format_args!("warning: {w}"));
        }
        note(err, format_args!("{} warnings", b.warnings().len()));
    }
    let given = (&ledger, &context);
    let mut html = Page::new(&b, args, watching);
    html.depths(&b, (first, last), given)?;
    html.lint(&b);
    html.species(&b, (first, last), given)?;
    html.explanations(&b, explained, given)?;
    if !args.against.is_empty() {
        let (old, _) = version(args, &args.against)?;
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

/// `text` escaped for HTML.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Species `i`'s colour: hues spread by the golden angle.
fn colour(i: usize) -> String {
    format!("hsl({:.1},62%,52%)", (i as f64 * 137.508) % 360.0)
}

/// The page being written.
struct Page {
    html: String,
}

const STYLE: &str = "body{font:14px sans-serif;margin:1.5em;color:#222}h2{margin-top:1.6em}\
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}\
td.t,th.t{text-align:left}th{cursor:pointer;background:#f3f3f3}.sw{display:inline-block;width:.8em;\
height:.8em;margin-right:.3em}.fails,.unknown{color:#b00;font-weight:bold}.holds{color:#070}\
svg text{font:11px sans-serif}";

impl Page {
    fn new(b: &Bestiary, args: &ReportArgs, watching: bool) -> Self {
        let files: Vec<String> = args
            .files
            .files
            .iter()
            .map(|f| esc(&f.display().to_string()))
            .collect();
        let mut html =
            String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
        let _ = writeln!(html, "<title>denizen report: {}</title>", files.join(", "));
        let _ = writeln!(html, "<style>{STYLE}</style></head>");
        let watch = if watching { " data-watch=\"2000\"" } else { "" };
        let _ = writeln!(html, "<body{watch}>\n<h1>Population report</h1>");
        let _ = writeln!(
            html,
            "<p>Files: {}. {} species. Figures are exact expected counts per floor unless marked sampled.</p>",
            files.join(", "),
            b.species().len()
        );
        Page { html }
    }

    /// The stacked chart of expected counts and the danger's band, by depth.
    fn depths(
        &mut self,
        b: &Bestiary,
        (first, last): (u32, u32),
        (ledger, context): (&UniqueLedger, &Context),
    ) -> Result<(), CliError> {
        let usage = |e: denizen_tables::OddsError| CliError::Usage(e.to_string());
        let mut columns = Vec::new();
        for depth in first..=last {
            let f = floor_odds(b, depth, ledger, context, None).map_err(usage)?;
            let band = (
                f.danger_quantile(0.05),
                f.mean_danger(),
                f.danger_quantile(0.95),
            );
            columns.push((depth, f.odds.expected, band));
        }
        let (w, h, pad) = (760.0, 260.0, 40.0);
        let step = (w - 2.0 * pad) / columns.len() as f64;
        let top = (columns.iter())
            .map(|c| c.1.iter().sum::<f64>())
            .fold(1e-9, f64::max);
        let y = |v: f64, top: f64| h - pad - v / top * (h - 2.0 * pad);
        let mut svg = format!(
            "<svg id=\"counts\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><title>Expected count per floor by depth, each species stacked</title>"
        );
        for (i, (depth, expected, _)) in columns.iter().enumerate() {
            let x = pad + i as f64 * step;
            let mut base = 0.0;
            for (s, e) in expected.iter().enumerate().filter(|(_, e)| **e > 0.0) {
                let (y0, y1) = (y(base, top), y(base + e, top));
                let key = esc(&b.species()[s].key);
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{y1:.2}\" width=\"{:.1}\" height=\"{:.2}\" fill=\"{}\"><title>depth {depth}: {key} {e:.4}</title></rect>",
                    step * 0.85,
                    y0 - y1,
                    colour(s)
                );
                base += e;
            }
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{depth}</text>",
                x + step * 0.42,
                h - pad + 14.0
            );
        }
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{}\">{top:.2}</text><text x=\"4\" y=\"{}\">0</text></svg>",
            pad,
            h - pad
        );
        self.html += "<h2>Expected count per floor by depth</h2>\n";
        self.html += &svg;
        self.danger(&columns, (w, h, pad, step));
        Ok(())
    }

    /// The danger's mean (a line) and its 5%-95% band by depth.
    fn danger(
        &mut self,
        columns: &[(u32, Vec<f64>, (u64, f64, u64))],
        (w, h, pad, step): (f64, f64, f64, f64),
    ) {
        let top = (columns.iter()).map(|c| c.2.2 as f64).fold(1e-9, f64::max);
        let y = |v: f64| h - pad - v / top * (h - 2.0 * pad);
        let x = |i: usize| pad + i as f64 * step + step * 0.42;
        let high: Vec<String> = (columns.iter().enumerate())
            .map(|(i, c)| format!("{:.1},{:.2}", x(i), y(c.2.2 as f64)))
            .collect();
        let low: Vec<String> = (columns.iter().enumerate())
            .rev()
            .map(|(i, c)| format!("{:.1},{:.2}", x(i), y(c.2.0 as f64)))
            .collect();
        let mean: Vec<String> = (columns.iter().enumerate())
            .map(|(i, c)| format!("{:.1},{:.2}", x(i), y(c.2.1)))
            .collect();
        let _ = write!(
            self.html,
            "\n<h2>Danger per floor by depth</h2>\n<svg id=\"danger\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><title>The danger's mean and its 5% to 95% band by depth</title><polygon points=\"{} {}\" fill=\"#f4c7a1\"/><polyline points=\"{}\" fill=\"none\" stroke=\"#a33\" stroke-width=\"2\"/>",
            high.join(" "),
            low.join(" "),
            mean.join(" ")
        );
        for (i, c) in columns.iter().enumerate() {
            let _ = write!(
                self.html,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                x(i),
                h - pad + 14.0,
                c.0
            );
        }
        let _ = writeln!(
            self.html,
            "<text x=\"4\" y=\"{pad}\">{top}</text><text x=\"4\" y=\"{}\">0</text></svg>",
            h - pad
        );
    }

    fn lint(&mut self, b: &Bestiary) {
        let _ = writeln!(
            self.html,
            "<h2>Lint: {} warnings</h2>\n<ul id=\"lint\">",
            b.warnings().len()
        );
        for w in b.warnings() {
            let _ = writeln!(self.html, "<li>{}</li>", esc(&w.to_string()));
        }
        self.html += "</ul>\n";
    }

    /// The species table: key, name, tags, cost, expected count at the first and last
    /// depth shown, its greatest and where.
    fn species(
        &mut self,
        b: &Bestiary,
        (first, last): (u32, u32),
        given: (&UniqueLedger, &Context),
    ) -> Result<(), CliError> {
        let mut by_depth = Vec::new();
        for depth in first..=last {
            by_depth.push(crate::diff::figures(b, depth, given)?.0);
        }
        self.html += "<h2>Species</h2>\n<p><label>Filter <input id=\"filter\" type=\"search\"></label> (click a heading to sort)</p>\n";
        let _ = writeln!(
            self.html,
            "<table id=\"species\"><thead><tr><th class=\"t\">species</th><th class=\"t\">name</th><th class=\"t\">tags</th><th>cost</th><th>at {first}</th><th>at {last}</th><th>most</th><th>at depth</th></tr></thead><tbody>"
        );
        for (i, s) in b.species().iter().enumerate() {
            let key = crate::diff::Subject::Species(s.key.clone());
            let at = |d: usize| by_depth[d].get(&key).copied().unwrap_or(0.0);
            let (most, depth) = (0..by_depth.len())
                .map(|d| (at(d), first + d as u32))
                .fold((0.0, first), |m, x| if x.0 > m.0 { x } else { m });
            let _ = writeln!(
                self.html,
                "<tr><td class=\"t\"><span class=\"sw\" style=\"background:{}\"></span>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td>{}</td><td>{:.6}</td><td>{:.6}</td><td>{most:.6}</td><td>{depth}</td></tr>",
                colour(i),
                esc(&s.key),
                esc(&s.name),
                esc(&s.tags.join(" ")),
                s.cost,
                at(0),
                at(by_depth.len() - 1),
            );
        }
        self.html += "</tbody></table>\n";
        Ok(())
    }

    /// Each species' paths at `depth`, with their shares.
    fn explanations(
        &mut self,
        b: &Bestiary,
        depth: u32,
        (ledger, context): (&UniqueLedger, &Context),
    ) -> Result<(), CliError> {
        let _ = writeln!(
            self.html,
            "<h2>Where each species comes from at depth {depth}</h2>"
        );
        let none = Regions::default();
        for s in b.species_ids() {
            let key = &b.species_of(s).key;
            let floor = (b, depth, &none, ledger, context);
            let _ = write!(self.html, "<details><summary>{}", esc(key));
            match crate::figures::explanation(floor, key) {
                Ok(e) => {
                    let _ = writeln!(self.html, ": {:.6} per floor</summary><ul>", e.total);
                    for (path, share) in &e.paths {
                        let _ =
                            writeln!(self.html, "<li>{share:.6}: {}</li>", esc(&path.describe(b)));
                    }
                    self.html += "</ul></details>\n";
                }
                Err(e) => {
                    let _ = writeln!(
                        self.html,
                        "</summary><p>{}</p></details>",
                        esc(&e.to_string())
                    );
                }
            }
        }
        Ok(())
    }

    fn diff(&mut self, changes: &[Change]) {
        let _ = writeln!(
            self.html,
            "<h2>Changes from the old files: {}</h2>\n<table id=\"diff\"><thead><tr><th class=\"t\">kind</th><th class=\"t\">key</th><th>depth</th><th>before</th><th>after</th><th>change</th><th>first depth</th><th class=\"t\">status</th></tr></thead><tbody>",
            changes.len()
        );
        for c in changes {
            let t = crate::diff::table(std::slice::from_ref(c), (c.depth, c.depth));
            let cells: Vec<String> = t.rows[0].iter().map(|x| esc(&x.text())).collect();
            let _ = writeln!(
                self.html,
                "<tr><td class=\"t\">{}</td><td class=\"t\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"t\">{}</td></tr>",
                cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]
            );
        }
        self.html += "</tbody></table>\n";
    }

    fn checks(&mut self, verdicts: &[denizen_tables::balance::Verdict]) {
        let _ = writeln!(
            self.html,
            "<h2>Balance checks</h2>\n<table id=\"checks\"><thead><tr><th class=\"t\">claim</th><th class=\"t\">verdict</th><th>worst depth</th><th>figure</th><th class=\"t\">bound</th></tr></thead><tbody>"
        );
        for v in verdicts {
            let word = crate::balance::verdict_word(v);
            let _ = writeln!(
                self.html,
                "<tr><td class=\"t\">{}</td><td class=\"t {word}\">{word}</td><td>{}</td><td>{:.6}</td><td class=\"t\">{}</td></tr>",
                esc(&v.name),
                v.depth,
                v.figure,
                esc(&v.bound)
            );
        }
        self.html += "</tbody></table>\n";
    }

    fn end(mut self) -> String {
        self.html += "<pre id=\"selftest\" hidden></pre>\n<script>\n";
        self.html += SCRIPT;
        self.html += "</script>\n</body></html>\n";
        self.html
    }
}

/// The page's script: sorting and filtering the species table, both kept in the
/// address's fragment (`#sort=3&dir=desc&filter=rat`); reloading itself when `watch`
/// wrote it; and, with `selftest` in the fragment, a sort and a filter run and their
/// results written into the page for a headless browser to read.
const SCRIPT: &str = include_str!("report.js");
