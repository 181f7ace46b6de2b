//! What a chart draws: plots of series, bars and bands. Each rule set's module takes its
//! numbers from the rules' exact odds: nothing samples.

/// One named line, area or set of bars: a value at each of the plot's `xs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// What it is.
    pub name: String,
    /// Its value at each x.
    pub values: Vec<f64>,
}

impl Series {
    /// `series` with equal ones (anywhere in the list) drawn once, named together in order
    /// ("nest and pit"): two equal curves drawn one over the other read as one.
    pub fn merge_equal(series: Vec<Series>) -> Vec<Series> {
        let mut merged: Vec<Series> = Vec::new();
        for s in series {
            match merged.iter_mut().find(|m| m.values == s.values) {
                Some(same) => same.name = format!("{} and {}", same.name, s.name),
                None => merged.push(s),
            }
        }
        merged
    }
}

/// A band: the least, the mean and the greatest of a value at each x.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// What it is.
    pub name: String,
    /// The least at each x.
    pub least: Vec<f64>,
    /// The mean at each x.
    pub mean: Vec<f64>,
    /// The greatest at each x.
    pub greatest: Vec<f64>,
}

/// How a plot draws its numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// Areas stacked from 0, the first series at the bottom: shares that sum to 1.
    Stacked(Vec<Series>),
    /// Lines.
    Lines(Vec<Series>),
    /// Bars, those at `marked_from` or further drawn apart, with a note saying what
    /// they hold.
    Bars {
        /// The bars.
        values: Series,
        /// The first x drawn apart.
        marked_from: i32,
        /// What the marked bars hold.
        note: String,
    },
    /// Bands with their means, under a cap drawn as a line when there is one.
    Bands {
        /// The bands.
        bands: Vec<Band>,
        /// The cap.
        cap: Option<f64>,
    },
}

/// One plot: its axes and its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    /// The title.
    pub title: String,
    /// What x is.
    pub x_label: String,
    /// What y is.
    pub y_label: String,
    /// The x values, in order.
    pub xs: Vec<i32>,
    /// The top of the y axis (the bottom is 0).
    pub y_max: f64,
    /// The numbers.
    pub shape: Shape,
}
