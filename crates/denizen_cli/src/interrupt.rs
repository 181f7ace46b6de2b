//! Ctrl-C during a long run (`sample`, `simulate`, `angband sample`): the run stops at its
//! next check, prints nothing of its answer, and `denizen` exits with code 130 and one
//! line, so no output is ever half-written.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::CliError;

/// Set by the Ctrl-C handler; read by the long runs between pieces of their work.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once; a second call, or a system that refuses it, leaves Ctrl-C
/// to end the process as it would anyway).
pub fn install() {
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// `Err(CliError::Interrupted)` once Ctrl-C was pressed.
pub fn check() -> Result<(), CliError> {
    if interrupted() {
        return Err(CliError::Interrupted);
    }
    Ok(())
}
