//! The `denizen` binary.

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::Parser;
use denizen_cli::commands::{Cli, CliError, run, stdout};
use denizen_cli::interrupt;
use denizen_core::quoted;

/// The longest argument taken: a path or a name longer than this is no one's.
const MAX_ARGUMENT_BYTES: usize = 4_096;

/// An argument no command can take (a control character such as a newline, or more than
/// [`MAX_ARGUMENT_BYTES`]), refused before clap would echo it raw into its message.
fn unfit_argument() -> Option<String> {
    std::env::args_os().skip(1).enumerate().find_map(|(i, arg)| {
        let text = arg.to_string_lossy();
        let unfit = text.len() > MAX_ARGUMENT_BYTES || text.chars().any(char::is_control);
        unfit.then(|| {
            format!(
                "argument {}, {}: no command takes control characters or more than {MAX_ARGUMENT_BYTES} bytes",
                i + 1,
                quoted(&text)
            )
        })
    })
}

fn main() -> ExitCode {
    if let Some(problem) = unfit_argument() {
        let _ = writeln!(std::io::stderr(), "denizen: {problem}");
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    // Unlocked: the progress bar of a long run draws on it from the worker threads.
    let mut err = std::io::stderr();
    let outcome = match Cli::try_parse() {
        Ok(cli) => {
            // Only the long runs stop on Ctrl-C with a note; any other command ends at
            // once, as a program without a handler does.
            if cli.command.runs_long() {
                interrupt::install();
            }
            run(&cli, &mut out, &mut err)
        }
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
            // 128 + SIGINT, as a shell reports a run ended by Ctrl-C.
            ExitCode::from(match e {
                CliError::Interrupted => 130,
                CliError::Failed(_) => 1,
                _ => 2,
            })
        }
    }
}
