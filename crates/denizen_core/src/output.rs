//! Standard output for the command-line tools and examples built on denizen, so that an
//! answer which cannot be written is an error and never a silent success or a panic.
//!
//! `println!` panics on a stream that cannot be written (`> /dev/full`). [`finish`] writes
//! a report through a checked handle instead and turns what happened into an exit code.
//! A program started with its standard output closed (`>&-`) finds it reopened on
//! `/dev/null` by the Rust runtime before `main`, which cannot be told apart from a
//! caller's own read-write `/dev/null` (Python's `subprocess.DEVNULL`): such output is
//! thrown away without an error.

use std::io::{self, ErrorKind, Write};
use std::process::ExitCode;

/// Runs `report` on standard output and flushes it. Success, or a reader that stopped
/// early (`| head`), gives exit code 0; an answer that could not be written (a full
/// stream) gives one line naming `tool` on standard error (when it can be written) and
/// exit code 2.
pub fn finish(tool: &str, report: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> ExitCode {
    let mut out = io::stdout().lock();
    match report(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(tool, &format!("standard output: {e}")),
    }
}

/// Writes `tool: message` on standard error, ignoring a stream that cannot take it, and
/// gives exit code 2.
pub fn fail(tool: &str, message: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "{tool}: {message}");
    ExitCode::from(2)
}
