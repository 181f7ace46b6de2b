//! The goodness-of-fit check every rule set's sampled-against-exact tests and the command
//! line use: a chi-squared statistic with pooled small cells, and its p-value.

use statrs::distribution::{ChiSquared as ChiSquaredDistribution, ContinuousCDF};

/// A chi-squared goodness-of-fit statistic of observed counts against expected counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquared {
    /// The statistic; infinite when something impossible was observed.
    pub statistic: f64,
    /// Degrees of freedom (cells after pooling, minus one).
    pub degrees_of_freedom: usize,
}

impl ChiSquared {
    /// Compares counts with expectations. Cells expecting fewer than 5 are pooled into one
    /// cell (and that cell into the smallest other one if it still expects fewer than 5),
    /// the usual condition for the chi-squared approximation.
    ///
    /// Panics if the slices differ in length (a programming error, not a data error).
    pub fn test(observed: &[u64], expected: &[f64]) -> Self {
        assert_eq!(observed.len(), expected.len(), "one expectation per count");
        if observed
            .iter()
            .zip(expected)
            .any(|(&o, &e)| e <= 0.0 && o > 0)
        {
            return Self {
                statistic: f64::INFINITY,
                degrees_of_freedom: 1,
            };
        }
        let mut cells: Vec<(f64, f64)> = Vec::new();
        let mut small = (0.0, 0.0);
        for (&o, &e) in observed.iter().zip(expected) {
            if e >= 5.0 {
                cells.push((o as f64, e));
            } else if e > 0.0 {
                small.0 += o as f64;
                small.1 += e;
            }
        }
        if small.1 > 0.0 {
            if small.1 >= 5.0 || cells.is_empty() {
                cells.push(small);
            } else {
                let smallest = cells
                    .iter_mut()
                    .min_by(|a, b| a.1.total_cmp(&b.1))
                    .expect("cells is not empty");
                smallest.0 += small.0;
                smallest.1 += small.1;
            }
        }
        let statistic = cells.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
        Self {
            statistic,
            degrees_of_freedom: cells.len().saturating_sub(1).max(1),
        }
    }

    /// Counts against probabilities, scaled to the total observed.
    pub fn against(observed: &[u64], probabilities: impl IntoIterator<Item = f64>) -> Self {
        let n: u64 = observed.iter().sum();
        let expected: Vec<f64> = probabilities.into_iter().map(|p| p * n as f64).collect();
        Self::test(observed, &expected)
    }

    /// The chance of a statistic at least this large if the counts follow the
    /// expectations (0 when something impossible was observed).
    pub fn p_value(&self) -> f64 {
        if !self.statistic.is_finite() {
            return 0.0;
        }
        ChiSquaredDistribution::new(self.degrees_of_freedom as f64)
            .map_or(f64::NAN, |d| 1.0 - d.cdf(self.statistic))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fair_count_passes_and_a_skewed_one_fails() {
        let fair = ChiSquared::against(&[250, 260, 240, 250], [0.25; 4]);
        assert_eq!(fair.degrees_of_freedom, 3);
        assert!((fair.statistic - 0.8).abs() < 1e-12);
        assert!(fair.p_value() > 0.8);
        let skewed = ChiSquared::against(&[400, 200, 200, 200], [0.25; 4]);
        assert!(skewed.p_value() < 1e-12);
        let impossible = ChiSquared::against(&[1, 9], [0.0, 1.0]);
        assert_eq!(impossible.p_value(), 0.0);
    }

    #[test]
    fn small_cells_are_pooled() {
        // Two cells expecting 2 each pool into one of 4, which joins the smallest cell.
        let test = ChiSquared::test(&[50, 46, 2, 2], &[50.0, 46.0, 2.0, 2.0]);
        assert_eq!(test.degrees_of_freedom, 1);
        assert_eq!(test.statistic, 0.0);
    }

    #[test]
    fn the_p_value_of_the_median_is_one_half() {
        // The median of chi-squared with 2 degrees of freedom is 2 ln 2.
        let test = ChiSquared {
            statistic: 2.0 * std::f64::consts::LN_2,
            degrees_of_freedom: 2,
        };
        assert!((test.p_value() - 0.5).abs() < 1e-12);
    }
}
