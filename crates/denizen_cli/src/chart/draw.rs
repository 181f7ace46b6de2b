//! Drawing plots as SVG with plotters, one plot a panel, stacked top to bottom.
//!
//! Every plot keeps its x axis from the first x to the last and its y axis from 0 to its
//! `y_max`, with numbered ticks on both, so a reader (or a test) can read any point back.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::data::{Band, Plot, Series, Shape};
use crate::error::CliError;

/// A panel's size in pixels.
const PANEL: (u32, u32) = (960, 540);

/// The colours of the series, in order; the last is for "the others".
const COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
];

/// The colour of series `i`: the palette in order, again from the start past its end.
fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

fn drawing(e: impl std::fmt::Display) -> CliError {
    CliError::Chart(e.to_string())
}

/// The SVG of `plots`, one panel each, top to bottom.
pub fn svg(plots: &[Plot]) -> Result<String, CliError> {
    let mut text = String::new();
    {
        let size = (PANEL.0, PANEL.1 * plots.len().max(1) as u32);
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let panels = root.split_evenly((plots.len().max(1), 1));
        for (plot, panel) in plots.iter().zip(panels) {
            draw(plot, &panel)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(text)
}

/// The chart of one panel: x and y as real numbers.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws one plot on its panel: the axes, its numbers, the legend.
fn draw(plot: &Plot, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), CliError> {
    let first = plot.xs.first().copied().unwrap_or(0);
    let last = plot.xs.last().copied().unwrap_or(1).max(first + 1);
    let mut chart = ChartBuilder::on(area)
        .caption(&plot.title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(f64::from(first)..f64::from(last), 0.0..plot.y_max)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc(plot.x_label.as_str())
        .y_desc(plot.y_label.as_str())
        // Depths and maps are whole numbers: at most one tick a unit, each labelled once.
        .x_labels(((last - first) as usize + 1).min(12))
        .y_labels(11)
        .x_label_formatter(&|x| {
            if x.fract() == 0.0 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| {
            if plot.y_max >= 10.0 {
                format!("{y:.0}")
            } else {
                format!("{y:.2}")
            }
        })
        .light_line_style(WHITE.mix(0.0))
        .draw()
        .map_err(drawing)?;
    let xs: Vec<f64> = plot.xs.iter().map(|&x| f64::from(x)).collect();
    match &plot.shape {
        Shape::Stacked(series) => stacked(&mut chart, &xs, series)?,
        Shape::Lines(series) => lines(&mut chart, &xs, series)?,
        Shape::Bars {
            values,
            marked_from,
            note,
        } => bars(&mut chart, &xs, values, (*marked_from, note))?,
        Shape::Bands { bands: all, cap } => {
            bands(&mut chart, &xs, all)?;
            let cap_line = [(f64::from(first), *cap), (f64::from(last), *cap)];
            chart
                .draw_series(std::iter::once(PathElement::new(
                    cap_line,
                    BLACK.stroke_width(1),
                )))
                .map_err(drawing)?
                .label(format!("cap {cap}"))
                .legend(|(x, y)| PathElement::new([(x, y), (x + 14, y)], BLACK));
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(drawing)?;
    Ok(())
}

/// Areas stacked from 0, the first series at the bottom.
fn stacked(chart: &mut Chart<'_, '_>, xs: &[f64], series: &[Series]) -> Result<(), CliError> {
    let mut below = vec![0.0; xs.len()];
    for (i, s) in series.iter().enumerate() {
        let above: Vec<f64> = below.iter().zip(&s.values).map(|(b, v)| b + v).collect();
        // The top edge left to right, then the bottom edge back.
        let points: Vec<(f64, f64)> = xs
            .iter()
            .copied()
            .zip(above.iter().copied())
            .chain(xs.iter().copied().zip(below.iter().copied()).rev())
            .collect();
        let fill = colour(i).filled();
        chart
            .draw_series(std::iter::once(Polygon::new(points, fill)))
            .map_err(drawing)?
            .label(s.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], fill));
        below = above;
    }
    Ok(())
}

/// One line a series.
fn lines(chart: &mut Chart<'_, '_>, xs: &[f64], series: &[Series]) -> Result<(), CliError> {
    for (i, s) in series.iter().enumerate() {
        // Alternately wide and narrow, so a line drawn over an equal one shows.
        let style = colour(i).stroke_width(if i % 2 == 0 { 6 } else { 2 });
        chart
            .draw_series(LineSeries::new(
                xs.iter().copied().zip(s.values.iter().copied()),
                style,
            ))
            .map_err(drawing)?
            .label(s.name.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], style));
    }
    Ok(())
}

/// Bars, those at `marked_from` or further in another colour, with the note saying what
/// they hold.
fn bars(
    chart: &mut Chart<'_, '_>,
    xs: &[f64],
    values: &Series,
    (marked_from, note): (i32, &str),
) -> Result<(), CliError> {
    let (within, beyond) = (colour(0), colour(3));
    let bars = xs.iter().zip(&values.values).map(|(&x, &v)| {
        let fill = if x >= f64::from(marked_from) {
            beyond
        } else {
            within
        };
        Rectangle::new([(x - 0.4, 0.0), (x + 0.4, v)], fill.filled())
    });
    chart.draw_series(bars).map_err(drawing)?;
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (0.0, 0.0)],
            beyond.filled(),
        )))
        .map_err(drawing)?
        .label(note)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], beyond.filled()));
    Ok(())
}

/// Each band tinted from its least to its greatest, its mean a line.
fn bands(chart: &mut Chart<'_, '_>, xs: &[f64], bands: &[Band]) -> Result<(), CliError> {
    for (i, band) in bands.iter().enumerate() {
        let tint = colour(i).mix(0.25).filled();
        let points: Vec<(f64, f64)> = xs
            .iter()
            .copied()
            .zip(band.greatest.iter().copied())
            .chain(xs.iter().copied().zip(band.least.iter().copied()).rev())
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(points, tint)))
            .map_err(drawing)?;
        let style = colour(i).stroke_width(2);
        chart
            .draw_series(LineSeries::new(
                xs.iter().copied().zip(band.mean.iter().copied()),
                style,
            ))
            .map_err(drawing)?
            .label(format!("{} (mean; band: least to greatest)", band.name))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], style));
    }
    Ok(())
}
