//! The report's two charts, drawn here as inline SVG: each species' expected count per
//! floor stacked by depth, and the danger's mean with its 5%-95% band.

use std::fmt::Write as _;

use denizen_tables::{Bestiary, Context, UniqueLedger, floor_odds};

use super::esc;
use crate::error::CliError;

/// One depth of the figures: each species' expected count per floor, the danger's 5%
/// quantile, mean and 95% quantile, and whether they were sampled.
pub(super) struct Column {
    pub(super) depth: u32,
    pub(super) expected: Vec<f64>,
    band: (u64, f64, u64),
    pub(super) sampled: bool,
}

/// The columns of depths `first` to `last`.
pub(super) fn columns(
    b: &Bestiary,
    (first, last): (u32, u32),
    (ledger, context): (&UniqueLedger, &Context),
) -> Result<Vec<Column>, CliError> {
    (first..=last)
        .map(|depth| {
            let f = floor_odds(b, depth, ledger, context, None)
                .map_err(|e| CliError::Usage(e.to_string()))?;
            let q = |q| f.danger_quantile(q);
            Ok(Column {
                depth,
                band: (q(0.05), f.mean_danger(), q(0.95)),
                sampled: f.odds.standard_errors.is_some(),
                expected: f.odds.expected,
            })
        })
        .collect()
}

/// Species `i`'s colour: hues spread by the golden angle.
pub(super) fn colour(i: usize) -> String {
    format!("hsl({:.1},62%,52%)", (i as f64 * 137.508) % 360.0)
}

/// A chart's frame: its size, its margin, and a column's width.
struct Frame {
    width: f64,
    height: f64,
    pad: f64,
    step: f64,
}

impl Frame {
    fn new(columns: usize) -> Self {
        let (width, height, pad) = (760.0, 260.0, 40.0);
        let step = (width - 2.0 * pad) / columns.max(1) as f64;
        Frame {
            width,
            height,
            pad,
            step,
        }
    }

    /// The height of `v` on a scale whose greatest is `top`.
    fn y(&self, v: f64, top: f64) -> f64 {
        self.height - self.pad - v / top * (self.height - 2.0 * self.pad)
    }

    /// The left of column `i`.
    fn x(&self, i: usize) -> f64 {
        self.pad + i as f64 * self.step
    }

    /// The opening tag and title of a chart `id`.
    fn open(&self, id: &str, title: &str) -> String {
        let (w, h) = (self.width, self.height);
        format!(
            "<svg id=\"{id}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><title>{title}</title>"
        )
    }

    /// Each column's depth under it, the scale's top and 0, and the closing tag.
    fn close(&self, columns: &[Column], top: &str) -> String {
        let mut svg = String::new();
        for (i, c) in columns.iter().enumerate() {
            let (x, y) = (self.x(i) + self.step * 0.42, self.height - self.pad + 14.0);
            let _ = write!(
                svg,
                "<text x=\"{x:.1}\" y=\"{y}\" text-anchor=\"middle\">{}</text>",
                c.depth
            );
        }
        let (pad, bottom) = (self.pad, self.height - self.pad);
        let _ = write!(
            svg,
            "<text x=\"4\" y=\"{pad}\">{top}</text><text x=\"4\" y=\"{bottom}\">0</text></svg>"
        );
        svg
    }
}

/// Each species' expected count per floor, stacked, a column a depth; each bar titled
/// with its depth, species and figure.
pub(super) fn counts(b: &Bestiary, columns: &[Column]) -> String {
    let frame = Frame::new(columns.len());
    let top = (columns.iter())
        .map(|c| c.expected.iter().sum::<f64>())
        .fold(1e-9, f64::max);
    let mut svg = frame.open(
        "counts",
        "Expected count per floor by depth, each species stacked",
    );
    for (i, c) in columns.iter().enumerate() {
        let mut base = 0.0;
        for (s, e) in c.expected.iter().enumerate().filter(|(_, e)| **e > 0.0) {
            let (y0, y1) = (frame.y(base, top), frame.y(base + e, top));
            let _ = write!(
                svg,
                "<rect x=\"{:.1}\" y=\"{y1:.2}\" width=\"{:.1}\" height=\"{:.2}\" fill=\"{}\"><title>depth {}: {} {e:.4}</title></rect>",
                frame.x(i),
                frame.step * 0.85,
                y0 - y1,
                colour(s),
                c.depth,
                esc(&b.species()[s].key)
            );
            base += e;
        }
    }
    svg + &frame.close(columns, &format!("{top:.2}"))
}

/// The danger's mean (a line) over its 5%-95% band (an area), by depth.
pub(super) fn danger(columns: &[Column]) -> String {
    let frame = Frame::new(columns.len());
    let top = (columns.iter())
        .map(|c| c.band.2 as f64)
        .fold(1e-9, f64::max);
    let point = |i: usize, v: f64| {
        format!(
            "{:.1},{:.2}",
            frame.x(i) + frame.step * 0.42,
            frame.y(v, top)
        )
    };
    let line = |pick: &dyn Fn(&Column) -> f64, reversed: bool| -> String {
        let mut points: Vec<String> = (columns.iter().enumerate())
            .map(|(i, c)| point(i, pick(c)))
            .collect();
        if reversed {
            points.reverse();
        }
        points.join(" ")
    };
    let high = line(&|c| c.band.2 as f64, false);
    let low = line(&|c| c.band.0 as f64, true);
    let mean = line(&|c| c.band.1, false);
    let mut svg = frame.open(
        "danger",
        "The danger's mean and its 5% to 95% band by depth",
    );
    let _ = write!(
        svg,
        "<polygon points=\"{high} {low}\" fill=\"#f4c7a1\"/><polyline points=\"{mean}\" fill=\"none\" stroke=\"#a33\" stroke-width=\"2\"/>"
    );
    svg + &frame.close(columns, &top.to_string())
}
