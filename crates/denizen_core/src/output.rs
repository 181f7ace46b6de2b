//! Standard output for the command-line tools and examples built on denizen, so that an
//! answer which cannot be written is an error and never a silent success or a panic.
//!
//! A program started with its standard output closed (`>&-`) writes into `/dev/null`
//! without a word, and `println!` panics on a full stream (`> /dev/full`). [`Stdout`]
//! reports both as errors: it checks on its first write that the stream was open (on
//! Linux), and its errors come back from `write` and `flush` like any other. [`finish`]
//! turns a report into an exit code.

use std::io::{self, ErrorKind, Write};
use std::process::ExitCode;

/// The process's standard output, buffered, that reports a closed stream as an error.
pub struct Stdout {
    inner: io::StdoutLock<'static>,
    checked: bool,
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Stdout {
    /// Locks standard output for this writer.
    pub fn new() -> Self {
        Self {
            inner: io::stdout().lock(),
            checked: false,
        }
    }

    /// Whether standard output is an open stream. A program started with it closed finds
    /// it open on `/dev/null`: the Rust runtime reopens a closed standard stream there,
    /// read-write, before `main`. A shell's `> /dev/null` opens it write-only, so on Linux
    /// (where `/proc` tells how a descriptor was opened) a read-write `/dev/null` is taken
    /// as closed. Elsewhere the stream is taken to be open.
    fn check_open(&self) -> io::Result<()> {
        if reopened_by_the_runtime() {
            // EBADF: what writing to the closed descriptor would have said.
            return Err(io::Error::from_raw_os_error(9));
        }
        Ok(())
    }
}

#[cfg(target_os = "linux")]
fn reopened_by_the_runtime() -> bool {
    /// `O_ACCMODE` and `O_RDWR` on Linux.
    const ACCESS_MODE: u32 = 0o3;
    const READ_WRITE: u32 = 0o2;
    let on_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == *"/dev/null");
    let read_write = || {
        std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
                .is_some_and(|flags| flags & ACCESS_MODE == READ_WRITE)
        })
    };
    on_null && read_write()
}

#[cfg(not(target_os = "linux"))]
fn reopened_by_the_runtime() -> bool {
    false
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.checked {
            self.check_open()?;
            self.checked = true;
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Runs `report` on standard output and flushes it. Success, or a reader that stopped
/// early (`| head`), gives exit code 0; an answer that could not be written (a closed or
/// full stream) gives one line naming `tool` on standard error (when it can be written)
/// and exit code 2.
pub fn finish(tool: &str, report: impl FnOnce(&mut Stdout) -> io::Result<()>) -> ExitCode {
    let mut out = Stdout::new();
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
