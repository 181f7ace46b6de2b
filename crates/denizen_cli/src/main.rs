//! The `denizen` binary.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::Parser;
use denizen_cli::commands::{Cli, CliError, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    match run(&cli, &mut out, &mut err) {
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
