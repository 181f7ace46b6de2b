//! Why a command failed: the one error type every command returns.

use std::path::Path;

use denizen_core::DataError;

/// Why a command failed; printed as one line. The process exits with code 1 when the
/// command ran and what it checks failed ([`CliError::Failed`]), 130 when Ctrl-C ended a
/// long run before its answer (`watch`, which runs until Ctrl-C, ends with 0), and 2
/// otherwise (bad input).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A data file is malformed or inconsistent.
    #[error(transparent)]
    Data(#[from] DataError),
    /// Unknown location or depth out of range.
    #[cfg(feature = "omega")]
    #[error(transparent)]
    Request(#[from] denizen_omega::RequestError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// An argument the rules cannot use.
    #[error("{0}")]
    Usage(String),
    /// The command ran, and what it checks did not hold: a diff past its threshold, a
    /// balance claim that fails, a lint warning under `--deny-warnings` (exit code 1).
    #[error("{0}")]
    Failed(String),
    /// Ctrl-C ended a long run before its answer was written (exit code 130).
    #[error("interrupted: nothing was written")]
    Interrupted,
    /// A chart could not be drawn.
    #[error("the chart could not be drawn: {0}")]
    Chart(String),
}

/// A path as a message shows it: control and invisible formatting characters escaped
/// (`\u{1b}`), bytes that are not UTF-8 shown as U+FFFD, so a file name never breaks or
/// hides part of the line.
pub(crate) fn shown(path: &Path) -> String {
    denizen_core::data::excerpt(&path.to_string_lossy(), 1_000)
}

/// The error of a file that could not be read or written, naming it.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::Io {
        path: shown(path),
        source,
    }
}

/// A failed write to standard output, as the error the command line reports.
pub fn stdout(e: std::io::Error) -> CliError {
    CliError::Io {
        path: "standard output".into(),
        source: e,
    }
}
