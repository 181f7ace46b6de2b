//! Rows of output in the three formats the commands print: aligned text, CSV and JSON.

use std::io::{self, Write};

use serde_json::{Map, Value};

/// Output formats of the commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns for reading.
    Table,
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object with a `rows` array.
    Json,
    /// A Markdown table under its title.
    Markdown,
}

/// Output formats of the commands that print counts and a summary (no JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TextFormat {
    /// Aligned columns for reading.
    Table,
    /// Comma-separated values with a header row.
    Csv,
}

impl From<TextFormat> for Format {
    fn from(format: TextFormat) -> Self {
        match format {
            TextFormat::Table => Format::Table,
            TextFormat::Csv => Format::Csv,
        }
    }
}

/// One cell: text or a number printed the way its column wants.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, such as a species name.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A probability, printed with 15 decimals.
    Prob(f64),
    /// An expected count, printed with 3 decimals.
    Real(f64),
    /// A sampled mean or deviation, printed with 6 decimals.
    Stat(f64),
    /// Nothing (a figure without a deviation): empty text, `null` in JSON.
    Empty,
}

impl Cell {
    pub(crate) fn text(&self) -> String {
        match self {
            Cell::Text(t) => t.clone(),
            Cell::Int(v) => v.to_string(),
            // Adding 0.0 turns a negative zero into zero: no `-0.000000000000000`.
            Cell::Prob(p) => format!("{:.15}", p + 0.0),
            Cell::Real(v) => format!("{v:.3}"),
            Cell::Stat(v) => format!("{:.6}", v + 0.0),
            Cell::Empty => String::new(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Text(t) => Value::from(t.as_str()),
            Cell::Int(v) => Value::from(*v),
            Cell::Prob(v) | Cell::Real(v) | Cell::Stat(v) => Value::from(*v + 0.0),
            Cell::Empty => Value::Null,
        }
    }

    fn is_text(&self) -> bool {
        matches!(self, Cell::Text(_))
    }
}

/// A titled table: a header row and data rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// A line that says what the table is (shown in table format, a field in JSON).
    pub title: String,
    /// Column names; the CSV header.
    pub columns: Vec<&'static str>,
    /// Data rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// Writes the table in a format.
    pub fn write(&self, format: Format, out: &mut impl Write) -> io::Result<()> {
        match format {
            Format::Csv => {
                writeln!(out, "{}", self.columns.join(","))?;
                for row in &self.rows {
                    let cells: Vec<String> = row.iter().map(|c| csv_field(&c.text())).collect();
                    writeln!(out, "{}", cells.join(","))?;
                }
            }
            Format::Json => {
                let rows: Vec<Value> = self
                    .rows
                    .iter()
                    .map(|row| {
                        let fields: Map<String, Value> = self
                            .columns
                            .iter()
                            .zip(row)
                            .map(|(name, cell)| ((*name).to_owned(), cell.json()))
                            .collect();
                        Value::Object(fields)
                    })
                    .collect();
                let doc = serde_json::json!({ "title": self.title, "rows": rows });
                serde_json::to_writer_pretty(&mut *out, &doc)?;
                writeln!(out)?;
            }
            Format::Markdown => {
                writeln!(out, "{}\n", self.title)?;
                writeln!(out, "| {} |", self.columns.join(" | "))?;
                writeln!(out, "|{}", " --- |".repeat(self.columns.len()))?;
                for row in &self.rows {
                    let cells: Vec<String> =
                        (row.iter()).map(|c| c.text().replace('|', "\\|")).collect();
                    writeln!(out, "| {} |", cells.join(" | "))?;
                }
            }
            Format::Table => {
                writeln!(out, "{}", self.title)?;
                let texts: Vec<Vec<String>> = self
                    .rows
                    .iter()
                    .map(|row| row.iter().map(Cell::text).collect())
                    .collect();
                let widths: Vec<usize> = (0..self.columns.len())
                    .map(|i| {
                        texts
                            .iter()
                            .map(|row| row[i].chars().count())
                            .chain([self.columns[i].len()])
                            .max()
                            .unwrap_or(0)
                    })
                    .collect();
                let left: Vec<bool> = (0..self.columns.len())
                    .map(|i| self.rows.first().is_some_and(|r| r[i].is_text()))
                    .collect();
                let line = |cells: Vec<String>| -> String {
                    cells
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            if left[i] {
                                format!("{c:<w$}", w = widths[i])
                            } else {
                                format!("{c:>w$}", w = widths[i])
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("  ")
                        .trim_end()
                        .to_owned()
                };
                writeln!(
                    out,
                    "{}",
                    line(self.columns.iter().map(|c| c.to_string()).collect())
                )?;
                for row in texts {
                    writeln!(out, "{}", line(row))?;
                }
            }
        }
        Ok(())
    }
}

/// Quotes a CSV field when it holds a comma, quote or line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Writes a summary line to standard error. Its failure (a closed or full stream) is
/// ignored: the answer is on standard output and the exit code says whether it is whole.
pub fn note(err: &mut dyn Write, line: std::fmt::Arguments<'_>) {
    let _ = writeln!(err, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A probability computed as a negative zero prints as zero.
    #[test]
    fn negative_zero_prints_as_zero() {
        assert_eq!(Cell::Prob(-0.0).text(), "0.000000000000000");
        assert_eq!(Cell::Prob(-0.0).json().to_string(), "0.0");
    }

    fn sample() -> Table {
        Table {
            title: "t".into(),
            columns: vec!["species", "name", "probability"],
            rows: vec![vec![
                Cell::Int(57),
                Cell::Text("man, o' \"war\"".into()),
                Cell::Prob(0.25),
            ]],
        }
    }

    #[test]
    fn csv_quotes_awkward_names_and_prints_fifteen_decimals() {
        let mut out = Vec::new();
        sample().write(Format::Csv, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "species,name,probability\n57,\"man, o' \"\"war\"\"\",0.250000000000000\n"
        );
    }

    #[test]
    fn json_has_rows_with_named_fields() {
        let mut out = Vec::new();
        sample().write(Format::Json, &mut out).unwrap();
        let doc: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(doc["rows"][0]["species"], 57);
        assert_eq!(doc["rows"][0]["probability"], 0.25);
    }
}
