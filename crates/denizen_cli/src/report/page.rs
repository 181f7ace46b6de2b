//! The report page's sections, written in order: the charts, the lint, the species'
//! table, the explanations, the diff, the verdicts, then the script.

use std::fmt::Write as _;

use denizen_core::regions::Regions;
use denizen_tables::{Bestiary, Context, UniqueLedger};

use super::charts;
use crate::diff::Change;
use crate::error::CliError;
use crate::report::ReportArgs;

/// `text` escaped for HTML.
pub(super) fn esc(text: &str) -> String {
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

/// The page being written.
pub(super) struct Page {
    html: String,
}

const STYLE: &str = "body{font:14px sans-serif;margin:1.5em;color:#222}h2{margin-top:1.6em}\
table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}\
td.t,th.t{text-align:left}th{cursor:pointer;background:#f3f3f3}.sw{display:inline-block;width:.8em;\
height:.8em;margin-right:.3em}.fails,.unknown{color:#b00;font-weight:bold}.holds{color:#070}\
svg text{font:11px sans-serif}";

impl Page {
    pub(super) fn new(b: &Bestiary, args: &ReportArgs, watching: bool) -> Self {
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
            "<p>Files: {}. {} species. Figures are exact expected counts per floor, but at the depths listed as sampled.</p>",
            files.join(", "),
            b.species().len()
        );
        Page { html }
    }

    /// The two charts, by depth.
    pub(super) fn charts(&mut self, b: &Bestiary, columns: &[charts::Column]) {
        self.html += "<h2>Expected count per floor by depth</h2>\n";
        self.html += &charts::counts(b, columns);
        self.html += "\n<h2>Danger per floor by depth</h2>\n";
        self.html += &charts::danger(columns);
        self.html += "\n";
        let sampled: Vec<String> = (columns.iter())
            .filter(|c| c.sampled)
            .map(|c| c.depth.to_string())
            .collect();
        if !sampled.is_empty() {
            let _ = writeln!(
                self.html,
                "<p id=\"sampled\">Sampled (past the exact limits) at depths {}: their figures here and in the species table are means of sampled floors.</p>",
                sampled.join(", ")
            );
        }
    }

    pub(super) fn lint(&mut self, b: &Bestiary) {
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
    pub(super) fn species(&mut self, b: &Bestiary, columns: &[charts::Column]) {
        let (Some(first), Some(last)) = (columns.first(), columns.last()) else {
            return;
        };
        self.html += "<h2>Species</h2>\n<p><label>Filter <input id=\"filter\" type=\"search\"></label> (click a heading to sort)</p>\n";
        let _ = writeln!(
            self.html,
            "<table id=\"species\"><thead><tr><th class=\"t\">species</th><th class=\"t\">name</th><th class=\"t\">tags</th><th>cost</th><th>at {}</th><th>at {}</th><th>most</th><th>at depth</th></tr></thead><tbody>",
            first.depth, last.depth
        );
        for (i, s) in b.species().iter().enumerate() {
            let (most, depth) = (columns.iter())
                .map(|c| (c.expected[i], c.depth))
                .fold((0.0, first.depth), |m, x| if x.0 > m.0 { x } else { m });
            let _ = writeln!(
                self.html,
                "<tr><td class=\"t\"><span class=\"sw\" style=\"background:{}\"></span>{}</td><td class=\"t\">{}</td><td class=\"t\">{}</td><td>{}</td><td>{:.6}</td><td>{:.6}</td><td>{most:.6}</td><td>{depth}</td></tr>",
                charts::colour(i),
                esc(&s.key),
                esc(&s.name),
                esc(&s.tags.join(" ")),
                s.cost,
                first.expected[i],
                last.expected[i],
            );
        }
        self.html += "</tbody></table>\n";
    }

    /// Each species' paths at `depth`, with their shares.
    pub(super) fn explanations(
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
            let _ = write!(
                self.html,
                "<details data-key=\"{0}\"><summary>{0}",
                esc(key)
            );
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

    pub(super) fn diff(&mut self, changes: &[Change]) {
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

    pub(super) fn checks(&mut self, verdicts: &[denizen_tables::balance::Verdict]) {
        let _ = writeln!(
            self.html,
            "<h2>Balance checks</h2>\n<table id=\"checks\"><thead><tr><th class=\"t\">claim</th><th class=\"t\">verdict</th><th>worst depth</th><th>figure</th><th class=\"t\">bound</th></tr></thead><tbody>"
        );
        for v in verdicts {
            let word = crate::balance::verdict_word(v);
            let class = match v.holds {
                denizen_tables::balance::Holds::Yes => "holds",
                denizen_tables::balance::Holds::No => "fails",
                denizen_tables::balance::Holds::Unknown => "unknown",
            };
            let _ = writeln!(
                self.html,
                "<tr><td class=\"t\">{}</td><td class=\"t {class}\">{word}</td><td>{}</td><td>{:.6}</td><td class=\"t\">{}</td></tr>",
                esc(&v.name),
                v.depth,
                v.figure,
                esc(&v.bound)
            );
        }
        self.html += "</tbody></table>\n";
    }

    pub(super) fn end(mut self) -> String {
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
