//! Corrupted data files for fuzz properties: the shipped text of a data file, changed the
//! way damaged or hostile files differ from good ones (a byte changed, a line deleted or
//! repeated, a number made extreme, a formula nested deep), and the check that a refused
//! file was refused clearly.

use denizen_core::DataError;
use proptest::prelude::*;

/// Numbers a mutation puts where a file had a number: the edges of every integer width a
/// loader reads, and a few that are merely large.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "1000000",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999999",
];

/// One change to a file's text (positions are fractions of the text or indices modulo
/// the count, so any value applies to any file).
#[derive(Clone, Debug)]
pub enum Mutation {
    /// The byte at this fraction of the text becomes this byte.
    Byte(f64, u8),
    /// The line at this fraction of the lines is deleted.
    DeleteLine(f64),
    /// The line at this fraction of the lines is written twice.
    RepeatLine(f64),
    /// The n-th number of the text outside quotes (modulo their count) becomes an
    /// extreme one.
    Number(usize, &'static str),
    /// The n-th number inside a quoted string (a formula's; modulo their count) becomes
    /// an extreme one.
    FormulaNumber(usize, &'static str),
    /// The n-th formula (a quoted string, modulo their count) is wrapped in this many
    /// parentheses, or for a negative count becomes a chain of that many `+ 1`.
    Nest(usize, i32),
}

/// Any one [`Mutation`].
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0, any::<u8>()).prop_map(|(at, byte)| Mutation::Byte(at, byte)),
        (0.0..1.0).prop_map(Mutation::DeleteLine),
        (0.0..1.0).prop_map(Mutation::RepeatLine),
        (any::<usize>(), proptest::sample::select(EXTREMES))
            .prop_map(|(n, value)| Mutation::Number(n, value)),
        (any::<usize>(), proptest::sample::select(EXTREMES))
            .prop_map(|(n, value)| Mutation::FormulaNumber(n, value)),
        (
            any::<usize>(),
            prop_oneof![1..100i32, 5000..6000i32, -2000..-1i32]
        )
            .prop_map(|(n, depth)| Mutation::Nest(n, depth)),
    ]
}

/// `text` with the mutations applied in order.
pub fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_owned();
    for m in mutations {
        if text.is_empty() {
            break;
        }
        text = match *m {
            Mutation::Byte(at, byte) => {
                let mut bytes = text.into_bytes();
                let i = ((at * bytes.len() as f64) as usize).min(bytes.len() - 1);
                bytes[i] = byte;
                String::from_utf8_lossy(&bytes).into_owned()
            }
            Mutation::DeleteLine(at) | Mutation::RepeatLine(at) => {
                let mut lines: Vec<&str> = text.lines().collect();
                let i = ((at * lines.len() as f64) as usize).min(lines.len() - 1);
                if matches!(m, Mutation::DeleteLine(_)) {
                    lines.remove(i);
                } else {
                    lines.insert(i, lines[i]);
                }
                lines.join("\n")
            }
            Mutation::Number(n, value) => {
                replace_nth(&text, n, numbers(&text, false), value.into())
            }
            Mutation::FormulaNumber(n, value) => {
                replace_nth(&text, n, numbers(&text, true), value.into())
            }
            Mutation::Nest(n, depth) => {
                let formulas = quoted(&text);
                let Some(&(start, end)) = formulas.get(n % formulas.len().max(1)) else {
                    continue;
                };
                let inner = &text[start..end];
                let nested = if depth > 0 {
                    let d = depth as usize;
                    format!("{}{inner}{}", "(".repeat(d), ")".repeat(d))
                } else {
                    format!("{inner}{}", "+1".repeat(depth.unsigned_abs() as usize))
                };
                replace_nth(&text, 0, vec![(start, end)], nested)
            }
        };
    }
    text
}

/// Byte ranges of the decimal numbers inside quotes (`quoted`) or outside them.
fn numbers(text: &str, quoted: bool) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            in_string = !in_string;
        } else if in_string == quoted
            && bytes[i].is_ascii_digit()
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric() && bytes[i - 1] != b'_')
        {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            found.push((start, i));
            continue;
        }
        i += 1;
    }
    found
}

/// Byte ranges of the insides of the quoted strings.
fn quoted(text: &str) -> Vec<(usize, usize)> {
    let starts: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
    starts.chunks_exact(2).map(|p| (p[0] + 1, p[1])).collect()
}

/// `text` with the n-th (modulo their count) of `ranges` replaced by `by`.
fn replace_nth(text: &str, n: usize, ranges: Vec<(usize, usize)>, by: String) -> String {
    let Some(&(start, end)) = ranges.get(n % ranges.len().max(1)) else {
        return text.to_owned();
    };
    format!("{}{by}{}", &text[..start], &text[end..])
}

/// A refused file names the file and either a line and column or an entry and field.
pub fn assert_clear(error: &DataError, file: &str) {
    match error {
        DataError::Syntax {
            file: named,
            line,
            column,
            ..
        } => {
            assert_eq!(named, file);
            assert!(*line >= 1 && *column >= 1, "{error}");
        }
        DataError::Invalid {
            file: named,
            entry,
            field,
            ..
        } => {
            assert_eq!(named, file);
            assert!(!entry.is_empty() && !field.is_empty(), "{error}");
        }
    }
    assert!(error.to_string().len() < 1_000, "a short line: {error}");
}

/// Cases per fuzz property: 24 with the suite, or `DENIZEN_FUZZ_CASES` for a long
/// campaign.
pub fn fuzz_cases() -> u32 {
    std::env::var("DENIZEN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(24)
}
