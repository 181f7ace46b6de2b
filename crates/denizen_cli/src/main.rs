//! The `denizen` binary.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::Parser;
use denizen_cli::commands::{Cli, CliError, run, stdout};

fn main() -> ExitCode {
    let mut out = std::io::stdout().lock();
    // Unlocked: the progress bar of a long run draws on it from the worker threads.
    let mut err = std::io::stderr();
    let outcome = match Cli::try_parse() {
        Ok(cli) => run(&cli, &mut out, &mut err),
        // Help and the version are answers on standard output, and must reach it.
        Err(e) if !e.use_stderr() => write!(out, "{}", e.render())
            .and_then(|()| out.flush())
            .map_err(stdout),
        Err(e) => {
            let _ = write!(err, "{}", e.render());
            return ExitCode::from(2);
        }
    };
    match outcome.and_then(|()| out.flush().map_err(stdout)) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`denizen odds ... | head`) is not an error.
        Err(CliError::Io { source, .. }) if source.kind() == ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            // A standard error that cannot be written (closed, full) leaves only the code.
            let _ = writeln!(std::io::stderr(), "denizen: {e}");
            ExitCode::from(2)
        }
    }
}
