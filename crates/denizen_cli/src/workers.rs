//! The worker threads and progress bar of a long run (`sample`, `simulate`, `angband
//! sample`).

use crate::error::CliError;

/// The worker threads of a long run (`threads` of them, every core by default) and its
/// progress bar over `total` items: on a terminal's standard error, hidden elsewhere.
pub(crate) fn workers(
    threads: Option<u32>,
    total: u32,
) -> Result<(rayon::ThreadPool, indicatif::ProgressBar), CliError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n as usize);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the worker threads: {e}")))?;
    Ok((pool, progress_bar(u64::from(total))))
}

/// A progress bar over `total` items on standard error when it is a terminal; hidden
/// elsewhere, so piped or redirected output never holds it.
pub(crate) fn progress_bar(total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(total)
    } else {
        indicatif::ProgressBar::hidden()
    }
}
