//! The worker threads and progress bar of a long run (`sample`, `angband sample`).

use crate::error::CliError;

/// The worker threads of a long run (`threads` of them, every core by default) and its
/// progress bar over `total` items: on a terminal's standard error, hidden elsewhere.
pub(crate) fn workers(
    threads: Option<u32>,
    total: u32,
) -> Result<(rayon::ThreadPool, indicatif::ProgressBar), CliError> {
    use std::io::IsTerminal;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n as usize);
    }
    let pool = pool
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the worker threads: {e}")))?;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(u64::from(total))
    } else {
        indicatif::ProgressBar::hidden()
    };
    Ok((pool, bar))
}
