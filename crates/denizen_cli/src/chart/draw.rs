//! Drawing plots as SVG with plotters, one plot a panel, stacked top to bottom.
//!
//! Every plot keeps its x axis from the first x to the last and its y axis from 0 to its
//! `y_max`, with numbered ticks on both, so a reader (or a test) can read any point back.
//! The xs are whole numbers (depths, maps, levels), so every value is drawn as a step one
//! unit wide centred on its x, never as a ramp between two xs; the legend stands in a
//! column of its own beside the plot, never on the data.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::data::{Band, Plot, Series, Shape};
use crate::error::CliError;

/// A panel's size in pixels.
const PANEL: (u32, u32) = (1200, 540);

/// The width of a panel's legend column, at its right.
const LEGEND_WIDTH: u32 = 330;

/// Where a legend's first line stands, and each line's height.
const LEGEND_TOP: u32 = 60;
const LEGEND_LINE: u32 = 24;

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

/// The colour of series `i`: the palette in order, then again lighter each time round
/// (a chart naming every species has more series than the palette has colours).
fn colour(i: usize) -> RGBColor {
    let RGBColor(r, g, b) = COLOURS[i % COLOURS.len()];
    let round = (i / COLOURS.len()).min(3) as u32;
    let lighter = |c: u8| (u32::from(c) + (255 - u32::from(c)) * round / 5) as u8;
    RGBColor(lighter(r), lighter(g), lighter(b))
}

fn drawing(e: impl std::fmt::Display) -> CliError {
    CliError::Chart(e.to_string())
}

/// How a legend entry shows its series.
#[derive(Clone, Copy)]
enum Swatch {
    /// A filled square (areas and bars).
    Area(RGBAColor),
    /// A line of this width.
    Line(RGBAColor, u32),
}

/// One line of a legend.
type Entry = (String, Swatch);

/// The SVG of `plots`, one panel each, top to bottom.
pub fn svg(plots: &[Plot]) -> Result<String, CliError> {
    let mut text = String::new();
    {
        let heights: Vec<u32> = plots.iter().map(panel_height).collect();
        let legend_width = plots.iter().map(legend_width).max().unwrap_or(LEGEND_WIDTH);
        let width = PANEL.0 - LEGEND_WIDTH + legend_width;
        let size = (width, heights.iter().sum::<u32>().max(PANEL.1));
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut rest = root.clone();
        for (plot, &height) in plots.iter().zip(&heights) {
            let (panel, below) = rest.split_vertically(height);
            let (chart, legend_column) = panel.split_horizontally(PANEL.0 - LEGEND_WIDTH);
            let entries = draw(plot, &chart)?;
            legend(&legend_column, &entries)?;
            rest = below;
        }
        root.present().map_err(drawing)?;
    }
    Ok(text)
}

/// The legend column's width: the usual one, wider when a series' name needs it (a
/// unique's long name with its marks), at about 8 pixels a character.
fn legend_width(plot: &Plot) -> u32 {
    let longest = match &plot.shape {
        Shape::Stacked(series) | Shape::Lines(series) => {
            series.iter().map(|s| s.name.chars().count()).max()
        }
        _ => None,
    };
    LEGEND_WIDTH.max(40 + 8 * longest.unwrap_or(0) as u32)
}

/// A panel's height: the usual one, taller when its legend needs more lines than it holds
/// (a chart naming every species).
fn panel_height(plot: &Plot) -> u32 {
    let lines = match &plot.shape {
        Shape::Stacked(series) | Shape::Lines(series) => series.len(),
        Shape::Bars { .. } => 2,
        Shape::Bands { bands, .. } => 2 * bands.len() + 1,
    };
    PANEL
        .1
        .max(LEGEND_TOP + LEGEND_LINE * lines as u32 + LEGEND_LINE)
}

/// The legend's entries, one a line from the top of its column.
fn legend(area: &DrawingArea<SVGBackend<'_>, Shift>, entries: &[Entry]) -> Result<(), CliError> {
    let font = ("sans-serif", 14).into_font();
    for (i, (label, swatch)) in entries.iter().enumerate() {
        let y = (LEGEND_TOP + LEGEND_LINE * i as u32) as i32;
        match *swatch {
            Swatch::Area(fill) => {
                area.draw(&Rectangle::new([(8, y - 6), (22, y + 6)], fill.filled()))
            }
            Swatch::Line(stroke, width) => area.draw(&PathElement::new(
                [(6, y), (24, y)],
                stroke.stroke_width(width.min(4)),
            )),
        }
        .map_err(drawing)?;
        area.draw(&Text::new(label.as_str(), (32, y - 8), font.clone()))
            .map_err(drawing)?;
    }
    Ok(())
}

/// A value at each whole x as a step one unit wide: `(x - 0.5, v), (x + 0.5, v)` for each.
fn steps(xs: &[f64], values: &[f64]) -> Vec<(f64, f64)> {
    xs.iter()
        .zip(values)
        .flat_map(|(&x, &v)| [(x - 0.5, v), (x + 0.5, v)])
        .collect()
}

/// The area between two stepped edges: the upper left to right, then the lower back.
fn between(xs: &[f64], upper: &[f64], lower: &[f64]) -> Vec<(f64, f64)> {
    let mut points = steps(xs, upper);
    points.extend(steps(xs, lower).into_iter().rev());
    points
}

/// The chart of one panel: x and y as real numbers.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Draws one plot on its panel (the axes and its numbers) and says what its legend holds.
fn draw(plot: &Plot, area: &DrawingArea<SVGBackend<'_>, Shift>) -> Result<Vec<Entry>, CliError> {
    let first = f64::from(plot.xs.first().copied().unwrap_or(0));
    let last = f64::from(plot.xs.last().copied().unwrap_or(0));
    // Half a unit beyond the first and the last x: their steps are whole.
    let (left, right) = (first - 0.5, last + 0.5);
    let mut chart = ChartBuilder::on(area)
        .caption(&plot.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(left..right, 0.0..plot.y_max)
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
        Shape::Stacked(series) => stacked(&mut chart, &xs, series),
        Shape::Lines(series) => lines(&mut chart, &xs, series),
        Shape::Bars {
            values,
            marked_from,
            note,
        } => bars(&mut chart, &xs, values, (*marked_from, note)),
        Shape::Bands { bands: all, cap } => {
            let mut entries = bands(&mut chart, &xs, all)?;
            if let Some(cap) = *cap {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        [(left, cap), (right, cap)],
                        BLACK.stroke_width(1),
                    )))
                    .map_err(drawing)?;
                entries.push((format!("cap {cap}"), Swatch::Line(BLACK.to_rgba(), 1)));
            }
            Ok(entries)
        }
    }
}

/// Areas stacked from 0, the first series at the bottom.
fn stacked(
    chart: &mut Chart<'_, '_>,
    xs: &[f64],
    series: &[Series],
) -> Result<Vec<Entry>, CliError> {
    let mut below = vec![0.0; xs.len()];
    let mut entries = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let above: Vec<f64> = below.iter().zip(&s.values).map(|(b, v)| b + v).collect();
        let area = Polygon::new(between(xs, &above, &below), colour(i).filled());
        chart.draw_series(std::iter::once(area)).map_err(drawing)?;
        entries.push((s.name.clone(), Swatch::Area(colour(i).to_rgba())));
        below = above;
    }
    // The legend lists the areas as they stand, the top one first.
    entries.reverse();
    Ok(entries)
}

/// One stepped line a series.
fn lines(chart: &mut Chart<'_, '_>, xs: &[f64], series: &[Series]) -> Result<Vec<Entry>, CliError> {
    let mut entries = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let style = colour(i).stroke_width(3);
        let line = PathElement::new(steps(xs, &s.values), style);
        chart.draw_series(std::iter::once(line)).map_err(drawing)?;
        entries.push((s.name.clone(), Swatch::Line(colour(i).to_rgba(), 3)));
    }
    Ok(entries)
}

/// Bars, those at `marked_from` or further in another colour, with the note saying what
/// they hold.
fn bars(
    chart: &mut Chart<'_, '_>,
    xs: &[f64],
    values: &Series,
    (marked_from, note): (i32, &str),
) -> Result<Vec<Entry>, CliError> {
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
    Ok(vec![(note.to_owned(), Swatch::Area(beyond.to_rgba()))])
}

/// Each band tinted from its least to its greatest, its mean a line.
fn bands(chart: &mut Chart<'_, '_>, xs: &[f64], bands: &[Band]) -> Result<Vec<Entry>, CliError> {
    let mut entries = Vec::new();
    for (i, band) in bands.iter().enumerate() {
        let tint = colour(i).mix(0.25).filled();
        let area = Polygon::new(between(xs, &band.greatest, &band.least), tint);
        chart.draw_series(std::iter::once(area)).map_err(drawing)?;
        let mean = PathElement::new(steps(xs, &band.mean), colour(i).stroke_width(2));
        chart.draw_series(std::iter::once(mean)).map_err(drawing)?;
        entries.push((
            format!("{}: mean", band.name),
            Swatch::Line(colour(i).to_rgba(), 2),
        ));
        entries.push((
            format!("{}: least to greatest", band.name),
            Swatch::Area(colour(i).mix(0.25)),
        ));
    }
    Ok(entries)
}
