//! Data files: the one RON loader, and the error that names the file, entry and field.
//!
//! Every rule set loads its files with [`load_ron`] and validates them entry by entry with
//! an [`Entry`], so every consistency error reads the same way:
//! `file: entry: field `name`: problem`.

use std::io::{self, Read};
use std::path::Path;

use serde::de::DeserializeOwned;

/// The most bytes a data file read by [`read_data_file`] may hold: 16 MiB, forty times
/// the largest shipped file.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a data file from disk: only a regular file (a pipe with no writer would block
/// for ever, `/dev/zero` would never end) of at most [`MAX_FILE_BYTES`], and no more
/// than that is read whatever the file grows to meanwhile.
pub fn read_data_file(path: &Path) -> io::Result<String> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a data file is read only from a file on disk)",
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than the {MAX_FILE_BYTES} bytes a data file may hold"),
        ));
    }
    text_of(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// A data file's bytes as text, or where they stop being UTF-8: `not UTF-8 text (byte
/// 1,204, line 31)`, the byte counted from 0 and the line from 1.
pub fn text_of(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        format!("not UTF-8 text (byte {at}, line {line})")
    })
}

/// A data file (a bestiary, a locations file, an encounter table, ...) that cannot be used.
///
/// Every variant names the file; syntax errors carry RON's line and column, and
/// consistency errors name the entry and field at fault.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum DataError {
    /// The text is not valid RON for the expected shape.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file's name as given to the loader.
        file: String,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// RON's description of the problem.
        message: String,
    },
    /// The text parsed, but an entry is inconsistent. Shown as `file: entry: field
    /// `name`: problem`, leaving out an entry or a field that is empty (a problem of the
    /// whole file, or of a whole entry).
    #[error("{}", located(file, entry, field, problem))]
    Invalid {
        /// The file's name as given to the loader.
        file: String,
        /// The entry at fault, such as `species[50] "goblin_king"`.
        entry: String,
        /// The field at fault, as a path inside the entry (`recipe.otherwise.range`).
        field: String,
        /// What is wrong.
        problem: String,
    },
}

/// `file: entry: field `name`: problem`, without the parts that are empty.
fn located(file: &str, entry: &str, field: &str, problem: &str) -> String {
    let mut line = file.to_owned();
    if !entry.is_empty() {
        line += &format!(": {entry}");
    }
    if !field.is_empty() {
        line += &format!(": field `{field}`");
    }
    line + ": " + problem
}

impl DataError {
    /// An inconsistent entry of a file.
    pub fn invalid(
        file: &str,
        entry: impl Into<String>,
        field: impl Into<String>,
        problem: impl Into<String>,
    ) -> Self {
        Self::Invalid {
            file: file.to_owned(),
            entry: excerpt(&entry.into(), MAX_SHOWN),
            field: excerpt(&field.into(), MAX_SHOWN),
            problem: excerpt(&problem.into(), MAX_SHOWN),
        }
    }
}

/// The most bytes an error shows of an entry, a field or a problem: a file may hold keys
/// and formulas megabytes long, and an error stays one readable line.
const MAX_SHOWN: usize = 200;

/// `text` with every character that is not plain printing text (a newline, a tab, an
/// escape, a line separator, a direction override) escaped as `\n` or `\u{..}`, so what a
/// file or a caller wrote can never break an error's one line; then up to `max` bytes
/// whole, else its first `max` bytes (on a character boundary) and an ellipsis.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut shown = String::with_capacity(text.len().min(max) + 3);
    for c in text.chars() {
        let plain = c == ' ' || !(c.is_control() || c.is_whitespace() || is_format(c));
        let piece: String = if plain {
            c.to_string()
        } else {
            c.escape_unicode().collect()
        };
        if shown.len() + piece.len() > max {
            shown.push_str("...");
            return shown;
        }
        shown.push_str(&piece);
    }
    shown
}

/// Whether `c` can stand for a creature on a map: a character that shows and takes its own
/// cell. Control characters and whitespace are not; nor are the characters a terminal
/// draws as nothing or on top of the cell before: Unicode's format characters (the soft
/// hyphen U+00AD, zero-width spaces and joiners, direction marks, the byte-order mark
/// U+FEFF), combining marks (U+0301), variation selectors and tags, Hangul fillers,
/// private-use characters (U+E000), and noncharacters (U+FFFF, U+10FFFF).
///
/// ```
/// use denizen_core::data::visible_glyph;
///
/// assert!(visible_glyph('g') && visible_glyph('é') && visible_glyph('龍'));
/// for c in ['\n', ' ', '\u{200B}', '\u{AD}', '\u{301}', '\u{FEFF}', '\u{E000}', '\u{200F}', '\u{10FFFF}'] {
///     assert!(!visible_glyph(c), "{c:?}");
/// }
/// ```
pub fn visible_glyph(c: char) -> bool {
    let invisible = c.is_control()
        || c.is_whitespace()
        || is_format(c)
        || matches!(c,
            // Format characters besides those above.
            '\u{AD}' | '\u{600}'..='\u{605}' | '\u{61C}' | '\u{6DD}' | '\u{70F}' | '\u{180E}'
            | '\u{FFF9}'..='\u{FFFB}' | '\u{110BD}' | '\u{1D173}'..='\u{1D17A}'
            // Combining marks.
            | '\u{300}'..='\u{36F}' | '\u{483}'..='\u{489}' | '\u{591}'..='\u{5BD}'
            | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
            // Variation selectors, tags and Hangul fillers.
            | '\u{FE00}'..='\u{FE0F}' | '\u{E0000}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}'
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}'
            // Private use.
            | '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{10FFFF}'
            // Noncharacters.
            | '\u{FDD0}'..='\u{FDEF}')
        || (u32::from(c) & 0xFFFE) == 0xFFFE;
    !invisible
}

/// Unicode's invisible formatting characters a terminal acts on: direction marks,
/// embeddings, overrides and isolates, and the zero-width ones.
fn is_format(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Text a caller or a file gave, as an error line shows it: between backquotes, cut to
/// 200 bytes and with control characters escaped (see [`DataError`]'s fields). A
/// location name 100,000 characters long, or one holding a newline, still gives a short
/// error of one line.
pub fn quoted(text: &str) -> String {
    format!("`{}`", excerpt(text, MAX_SHOWN))
}

/// How deeply a data file's values may nest (structures, enum variants, lists and maps
/// each count one level): a recipe may nest about 40 rolls deep. Deeper text is refused
/// before the loader or the rules recurse through it, so no file can overflow the stack.
pub const MAX_NESTING: usize = 128;

/// Parses a data file's RON text into its shape `T`; `file` names it in errors.
///
/// A syntax error, a missing or unknown field, a value of the wrong type or nesting past
/// [`MAX_NESTING`] is a [`DataError::Syntax`] with RON's line and column. A number too
/// large (or negative) for its field names the field and the number.
pub fn load_ron<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, DataError> {
    load_ron_with(text, file, |_| None)
}

/// [`load_ron`], with the limit of each field a number too large for it is told:
/// `limit("weight")` gives `at most 100000`, added to the error.
pub fn load_ron_with<T: DeserializeOwned>(
    text: &str,
    file: &str,
    limit: impl Fn(&str) -> Option<String>,
) -> Result<T, DataError> {
    ron::Options::default()
        .with_recursion_limit(MAX_NESTING)
        .from_str(text)
        .map_err(|error| {
            let (line, column) = (error.span.start.line, error.span.start.col);
            DataError::Syntax {
                file: file.to_owned(),
                line,
                column,
                message: match error.code {
                    ron::Error::ExceededRecursionLimit => {
                        format!("values nest more than {MAX_NESTING} levels deep")
                    }
                    ron::Error::IntegerOutOfBounds => out_of_range(text, line, column, &limit),
                    code => excerpt(&code.to_string(), MAX_SHOWN),
                },
            }
        })
}

/// A number too large for its field, at `line` and `column` (1-based) of `text`: the
/// field (the last `name:` before it) and the number as written, with its limit.
fn out_of_range(
    text: &str,
    line: usize,
    column: usize,
    limit: &impl Fn(&str) -> Option<String>,
) -> String {
    let start = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum::<usize>();
    let at = text[start..]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i);
    // RON points past a sign.
    let at = at - usize::from(text[..at].ends_with(['-', '+']));
    let number: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '+' | '_'))
        .collect();
    let field = text[..at]
        .rsplit_once(':')
        .map(|(before, _)| {
            let name = before.trim_end();
            let from = name
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            &name[from..]
        })
        .filter(|name| !name.is_empty());
    let number = excerpt(&number, 40);
    match field {
        Some(field) => {
            let bound = limit(field).map(|l| format!(" ({l})")).unwrap_or_default();
            format!(
                "field `{}`: `{number}` is out of range{bound}",
                excerpt(field, 64)
            )
        }
        None => format!("`{number}` is out of range"),
    }
}

/// A data file's text and the name errors give it (its path, or the shipped file's
/// name): what the loaders take, so a file and its name travel together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFile<'a> {
    /// The name errors give the file.
    pub name: &'a str,
    /// The RON text.
    pub text: &'a str,
}

impl<'a> DataFile<'a> {
    /// The file `name` holding `text`.
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Self { name, text }
    }
}

/// One entry of a data file under validation: its file and how errors name it
/// (`species[50] "goblin_king"`). Loaders validate each entry through one of these.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    file: &'a str,
    name: &'a str,
}

impl<'a> Entry<'a> {
    /// The entry `name` of `file`.
    pub fn new(file: &'a str, name: &'a str) -> Self {
        Self { file, name }
    }

    /// The file the entry belongs to.
    pub fn file(&self) -> &'a str {
        self.file
    }

    /// The entry's name in errors.
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The error for a field of this entry.
    pub fn invalid(&self, field: impl Into<String>, problem: impl Into<String>) -> DataError {
        DataError::invalid(self.file, self.name, field, problem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_text_is_one_short_line() {
        assert_eq!(quoted("goblin-caves"), "`goblin-caves`");
        assert_eq!(quoted("a\nb\tc\u{1b}"), "`a\\u{a}b\\u{9}c\\u{1b}`");
        assert_eq!(quoted("\u{202e}x\u{2028}"), "`\\u{202e}x\\u{2028}`");
        assert!(quoted(&"\n".repeat(1_000)).len() <= 2 + MAX_SHOWN + 3);
        let long = quoted(&"é".repeat(1_000));
        assert!(long.len() <= 2 + MAX_SHOWN + 3, "{}", long.len());
        assert!(long.ends_with("...`"));
        let error = DataError::invalid("f.ron", "entry\nsecond", "field", "problem\r");
        assert_eq!(error.to_string().lines().count(), 1, "{error}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Shape {
        count: u32,
    }

    #[test]
    fn syntax_errors_carry_the_file_line_and_column() {
        let err = load_ron::<Shape>("(\n  count: many,\n)", "mine.ron").unwrap_err();
        let DataError::Syntax {
            file, line, column, ..
        } = &err
        else {
            panic!("{err}")
        };
        assert_eq!((file.as_str(), *line), ("mine.ron", 2));
        assert!(*column > 1);
        let unknown = load_ron::<Shape>("(count: 1, extra: 2)", "mine.ron").unwrap_err();
        assert!(unknown.to_string().contains("extra"), "{unknown}");
    }

    #[test]
    fn entries_name_file_entry_and_field() {
        let entry = Entry::new("mine.ron", "species[3] \"rat\"");
        assert_eq!(
            entry.invalid("band", "too high").to_string(),
            "mine.ron: species[3] \"rat\": field `band`: too high"
        );
    }
}
