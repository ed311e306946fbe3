//! The standard streams of a program that `polyasm run` runs, and how its run ends.
//!
//! [`crate::Runner::run`] gets a [`RunIo`]: the program's standard input (a [`BufRead`]), its
//! standard output and its standard error. The target buffers what the program prints and
//! flushes it before the program waits for input and when it ends, so that a prompt appears
//! before the program blocks. It returns an [`ExitStatus`], which becomes polyasm's own exit
//! code (at least 1 when a diagnostic of the run is an error).
//!
//! ```
//! use std::io::{BufRead, Write};
//! use polyasm_core::stream::{ExitStatus, RunIo};
//!
//! // A program that echoes its first line in capitals.
//! fn shout(io: &mut RunIo) -> std::io::Result<ExitStatus> {
//!     let mut line = String::new();
//!     io.stdin.read_line(&mut line)?;
//!     io.stdout.write_all(line.to_uppercase().as_bytes())?;
//!     io.stdout.flush()?;
//!     Ok(ExitStatus::SUCCESS)
//! }
//!
//! let (mut stdin, mut stdout, mut stderr) = (&b"hi\n"[..], Vec::new(), Vec::new());
//! let mut io = RunIo { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr, files: None, end: None };
//! assert_eq!(shout(&mut io).unwrap(), ExitStatus::SUCCESS);
//! assert_eq!(stdout, b"HI\n");
//! ```

use std::io::{self, BufRead, Read, Write};

use crate::diagnostic::{Diagnostic, Outcome};
use crate::explain::Code;

/// The program's standard streams during [`crate::Runner::run`].
pub struct RunIo<'a> {
    /// What the program reads: polyasm's standard input, or nothing when the program itself
    /// came from standard input.
    pub stdin: &'a mut dyn BufRead,
    /// What the program prints: polyasm's standard output or the `-o` file. Not buffered by
    /// the caller beyond a line: the target buffers and flushes.
    pub stdout: &'a mut dyn Write,
    /// The program's own error stream (polyasm's standard error).
    pub stderr: &'a mut dyn Write,
    /// Where a run that writes files of its own ([`crate::RunOutput::Files`]) writes
    /// them; `None` otherwise.
    pub files: Option<&'a mut dyn RunFiles>,
    /// Where a target that has a machine state records it when the run ends (steps, registers,
    /// memory around the machine's pointer), for a viewer such as `polyasm serve`'s memory
    /// view; `None` on the command line.
    pub end: Option<&'a mut EndState>,
}

/// A machine's state when a run ended, as [`RunIo::end`] records it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndState {
    /// Instructions executed.
    pub steps: Option<u64>,
    /// The registers by name, in the dialect's order.
    pub registers: Vec<(&'static str, i64)>,
    /// The address of the first cell of `memory`.
    pub memory_start: u32,
    /// Memory cells from `memory_start` on: a window around the machine's pointer.
    pub memory: Vec<i64>,
}

/// The files a run writes besides its standard output (a shader's animation frames), named
/// from the `-o` pattern.
pub trait RunFiles {
    /// The `-o` argument: a pattern such as `frames/%04d.png`.
    fn pattern(&self) -> &str;
    /// Writes `bytes` to `path` as a whole (a file is replaced only once it is complete). An
    /// input of the run is refused (PA014), a failed write is PA003.
    fn write(&mut self, path: &str, bytes: &[u8]) -> Result<(), Diagnostic>;
    /// Refuses `path`, before the run writes anything, when it is an input of the run (PA014,
    /// a usage error); every path is allowed by default.
    fn check(&self, _path: &str) -> Result<(), Diagnostic> {
        Ok(())
    }
}

/// How a program that ran ended: its exit code (0 for a normal end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExitStatus(pub u8);

impl ExitStatus {
    /// A normal end.
    pub const SUCCESS: ExitStatus = ExitStatus(0);
    /// A program that failed (e.g. a runtime error).
    pub const FAILURE: ExitStatus = ExitStatus(1);

    /// Whether the program ended normally (exit code 0).
    pub fn success(self) -> bool {
        self.0 == 0
    }
}

/// PA018: reading the program's standard input failed (not its end, which programs see as
/// end of input).
pub fn stdin_failed(error: &io::Error) -> Diagnostic {
    Diagnostic::error(
        Code::CannotReadProgramInput,
        format!("cannot read standard input: {}", crate::fs::reason(error)),
    )
    .with_help("the program's input comes from polyasm's standard input; redirect it from a file with `< FILE`")
}

/// What a target reports when writing the program's output failed: nothing for a reader that
/// stopped early (a closed pipe, `| head`), which ends the run quietly, and PA003 otherwise.
pub fn stdout_failed(error: &io::Error) -> Option<Diagnostic> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return None;
    }
    Some(Diagnostic::error(
        Code::CannotWriteOutput,
        format!("cannot write the run's output: {}", crate::fs::reason(error)),
    ))
}

/// How a run ends once its output is written (`written`, the result of writing and flushing
/// it): with success, also when the reader stopped early, and with PA003 when writing failed
/// otherwise ([`stdout_failed`]).
pub fn output_written(written: io::Result<()>) -> Outcome<ExitStatus> {
    match written.map_err(|e| stdout_failed(&e)) {
        Ok(()) | Err(None) => Outcome::ok(ExitStatus::SUCCESS),
        Err(Some(d)) => Outcome::failed(vec![d]),
    }
}

/// A standard input that cannot be read: every read fails with `reason` (for a standard input
/// that was closed when polyasm started).
pub struct UnreadableInput {
    /// The message of each failed read, e.g. "it is closed".
    pub reason: &'static str,
}

impl UnreadableInput {
    fn error(&self) -> io::Error {
        io::Error::other(self.reason)
    }
}

impl Read for UnreadableInput {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        Err(self.error())
    }
}

impl BufRead for UnreadableInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Err(self.error())
    }

    fn consume(&mut self, _amount: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_no_error_and_other_write_failures_are() {
        assert_eq!(stdout_failed(&io::Error::from(io::ErrorKind::BrokenPipe)), None);
        let full = stdout_failed(&io::Error::from(io::ErrorKind::StorageFull)).map(|d| d.code);
        assert_eq!(full, Some("PA003"));
        assert_eq!(stdin_failed(&io::Error::other("gone")).code, "PA018");
        let closed = output_written(Err(io::ErrorKind::BrokenPipe.into()));
        assert_eq!((closed.value, closed.diagnostics.len()), (Some(ExitStatus::SUCCESS), 0));
        let full = output_written(Err(io::ErrorKind::StorageFull.into()));
        assert_eq!(full.value, None);
        assert_eq!(full.diagnostics[0].code, "PA003");
        assert_eq!(output_written(Ok(())).value, Some(ExitStatus::SUCCESS));
    }

    #[test]
    fn an_unreadable_input_fails_every_read() {
        let mut input = UnreadableInput { reason: "it is closed" };
        let mut line = String::new();
        let error = input.read_line(&mut line).map(|_| ()).unwrap_err();
        assert_eq!(error.to_string(), "it is closed");
        assert!(input.read(&mut [0; 4]).is_err());
    }
}
