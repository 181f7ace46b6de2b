//! The error a data file can produce: where it is (file, entry, field) and what is wrong.

/// A data file (bestiary or locations) that cannot be used.
///
/// Every variant names the file; syntax errors carry RON's line and column, and
/// consistency errors name the entry and field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    /// The text parsed, but an entry is inconsistent.
    #[error("{file}: {entry}: field `{field}`: {problem}")]
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

impl DataError {
    pub(crate) fn syntax(file: &str, error: &ron::error::SpannedError) -> Self {
        Self::Syntax {
            file: file.to_owned(),
            line: error.span.start.line,
            column: error.span.start.col,
            message: error.code.to_string(),
        }
    }

    pub(crate) fn invalid(
        file: &str,
        entry: impl Into<String>,
        field: impl Into<String>,
        problem: impl Into<String>,
    ) -> Self {
        Self::Invalid {
            file: file.to_owned(),
            entry: entry.into(),
            field: field.into(),
            problem: problem.into(),
        }
    }
}
