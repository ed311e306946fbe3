//! Reading the input (a file or standard input) and writing the output atomically. Every
//! write to standard output goes through [`write_stdout`], which tells a closed pipe (quietly
//! fine) from a failed write (an error).

use std::io::{IsTerminal, Write};
use std::path::Path;

use polyasm_core::explain::Code;
pub(crate) use polyasm_core::fs::reason as io_reason;
pub use polyasm_core::fs::too_large;
use polyasm_core::{Diagnostic, SourceMap};

use crate::failure::{Failure, Result};
use crate::report::Reporter;

/// Where the input comes from.
pub enum Input {
    Stdin,
    Path(String),
}

impl Input {
    /// `None` and `-` mean standard input.
    pub fn from_arg(arg: Option<&str>) -> Input {
        match arg {
            None | Some("-") => Input::Stdin,
            Some(path) => Input::Path(path.to_string()),
        }
    }

    /// The name diagnostics use.
    pub fn display_name(&self) -> &str {
        match self {
            Input::Stdin => "<stdin>",
            Input::Path(path) => path,
        }
    }

    /// The input's bytes, up to [`polyasm_core::fs::MAX_INPUT_LEN`]: an endless input (such as
    /// `/dev/zero`) is PA013 once that many bytes came.
    pub fn read_bytes(&self) -> std::result::Result<Vec<u8>, Diagnostic> {
        use polyasm_core::fs::{MAX_INPUT_LEN, ReadError, read_bounded, read_file};
        let result = match self {
            Input::Stdin if startup::STDIN_CLOSED.load(std::sync::atomic::Ordering::Relaxed) => {
                // The runtime put `/dev/null` in its place, which would read as an empty program.
                return Err(Diagnostic::error(
                    Code::CannotReadInput,
                    "cannot read <stdin>: it is closed",
                ));
            }
            Input::Stdin => read_bounded(std::io::stdin().lock(), MAX_INPUT_LEN, stdin_file_len()),
            Input::Path(path) => read_file(Path::new(path)),
        };
        result.map_err(|e| match e {
            ReadError::TooLarge => too_large(self.display_name()),
            ReadError::Io(e) => polyasm_core::fs::cannot_read(self.display_name(), &e),
        })
    }

    /// The input as UTF-8 text, without a leading byte-order mark. Input that is not UTF-8 is
    /// PA002 at its first invalid byte, whose line is added to `sources` to be shown.
    pub fn read_text(&self, sources: &mut polyasm_core::SourceMap) -> std::result::Result<String, Diagnostic> {
        let bytes = self.read_bytes()?;
        polyasm_core::text::source_text(sources, self.display_name(), bytes)
    }
}

/// What is left to read of standard input when it is redirected from a regular file, so that
/// a file too long to be an input is refused unread; 0 when it is not a file.
#[cfg(unix)]
fn stdin_file_len() -> u64 {
    use std::io::Seek;
    use std::os::fd::AsFd;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
        return 0;
    };
    let mut file = std::fs::File::from(fd);
    match (file.metadata(), file.stream_position()) {
        (Ok(meta), Ok(position)) if meta.is_file() => meta.len().saturating_sub(position),
        _ => 0,
    }
}

#[cfg(not(unix))]
fn stdin_file_len() -> u64 {
    0
}

/// Where the output goes.
pub enum Output {
    Stdout,
    Path(String),
}

impl Output {
    /// `None` and `-` mean standard output.
    pub fn from_arg(arg: Option<&str>) -> Output {
        match arg {
            None | Some("-") => Output::Stdout,
            Some(path) => Output::Path(path.to_string()),
        }
    }

    /// Refuses binary output to a terminal (a usage error).
    pub fn check_binary(&self, binary: bool, reporter: &Reporter) -> Result {
        self.check_binary_with(
            binary,
            "write it to a file with `-o FILE`, or choose a text format such as `-f hex` or `-f listing`",
            reporter,
        )
    }

    /// [`Output::check_binary`] with its own help line.
    pub fn check_binary_with(&self, binary: bool, help: &str, reporter: &Reporter) -> Result {
        if binary && matches!(self, Output::Stdout) && std::io::stdout().is_terminal() {
            reporter.usage(
                Diagnostic::error(Code::BinaryToTerminal, "refusing to write binary output to a terminal")
                    .with_help(help),
            );
            return Err(Failure::Usage);
        }
        Ok(())
    }

    /// Refuses an output that is the input file itself (through `./`, links or hard links, or
    /// standard input redirected from it), before anything is read or written.
    pub fn check_not_input(&self, input: &Input, reporter: &Reporter) -> Result {
        let Output::Path(output) = self else {
            return Ok(());
        };
        let (input, from_stdin) = match input {
            Input::Path(path) => (path.as_str(), false),
            // Where the system names standard input as a file, `< x.vu` is caught too.
            Input::Stdin if cfg!(unix) => ("/dev/stdin", true),
            Input::Stdin => return Ok(()),
        };
        if polyasm_core::fs::same_file(Path::new(output), Path::new(input)) {
            let message = if from_stdin {
                format!("the output `{output}` is the file standard input reads from")
            } else {
                format!("the output `{output}` is the input `{input}`")
            };
            reporter.usage(
                Diagnostic::error(Code::OutputIsInput, message)
                    .with_note("writing it would destroy the input; nothing was written")
                    .with_help("choose another output path with `-o`"),
            );
            return Err(Failure::Usage);
        }
        Ok(())
    }

    /// Refuses an output that is one of the files the assembly included (PA014, a usage
    /// error), found through the same links as [`Output::check_not_input`]. Includes are
    /// known only once the input is assembled, so this runs after assembling and before the
    /// output is created or replaced.
    pub fn check_not_included(&self, sources: &SourceMap, reporter: &mut Reporter) -> Result {
        let Output::Path(output) = self else {
            return Ok(());
        };
        let included = sources.iter().find_map(|(_, source)| {
            let directive = source.included_from()?;
            let path = source.path()?;
            polyasm_core::fs::same_file(Path::new(output), path).then_some((source.name(), directive))
        });
        let Some((name, directive)) = included else {
            return Ok(());
        };
        let diagnostic = Diagnostic::error(
            Code::OutputIsInput,
            format!("the output `{output}` is the included file `{name}`"),
        )
        .with_primary(directive, "included here")
        .with_note("writing it would destroy that file; nothing was written")
        .with_help("choose another output path with `-o`");
        reporter.emit(vec![diagnostic], sources);
        Err(Failure::Usage)
    }

    /// PA003: writing this output failed for `reason`; a file is left as it was.
    pub fn write_failed(&self, reason: &str) -> Diagnostic {
        match self {
            Output::Stdout => Diagnostic::error(
                Code::CannotWriteOutput,
                format!("cannot write standard output: {reason}"),
            ),
            Output::Path(path) => Diagnostic::error(Code::CannotWriteOutput, format!("cannot write {path}: {reason}"))
                .with_note("the destination was left as it was"),
        }
    }

    /// Writes everything: to standard output, or atomically to the file.
    pub fn write(&self, bytes: &[u8], reporter: &mut Reporter) -> Result {
        self.write_as(bytes, false, reporter)
    }

    /// [`Output::write`], for a file that is a program when `executable`: whoever may read it
    /// may run it.
    pub fn write_as(&self, bytes: &[u8], executable: bool, reporter: &mut Reporter) -> Result {
        let write = match executable {
            true => polyasm_core::fs::write_atomic_executable,
            false => polyasm_core::fs::write_atomic,
        };
        match self {
            Output::Stdout => write_stdout(bytes).map_err(|d| {
                reporter.emit(vec![d], &Default::default());
                Failure::Errors
            }),
            Output::Path(path) => write(Path::new(path), bytes).map_err(|e| {
                reporter.emit(vec![self.write_failed(&io_reason(&e))], &Default::default());
                Failure::Errors
            }),
        }
    }
}

/// Writes `bytes` to standard output and flushes it. A reader that stopped early (`| head`) is
/// no error: the rest is dropped quietly. A closed standard output (`>&-`) or a failed write
/// (`> /dev/full`) is PA003.
pub fn write_stdout(bytes: &[u8]) -> std::result::Result<(), Diagnostic> {
    if stdout_was_closed() {
        return Err(Output::Stdout.write_failed("it is closed"));
    }
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Output::Stdout.write_failed(&io_reason(&e))),
    }
}

/// Standard output for a command that writes as it goes (`run`); refused, like
/// [`write_stdout`], when standard output was closed.
pub fn stdout_stream() -> std::result::Result<std::io::StdoutLock<'static>, Diagnostic> {
    if stdout_was_closed() {
        return Err(Output::Stdout.write_failed("it is closed"));
    }
    Ok(std::io::stdout().lock())
}

/// Whether standard input was closed when the process started (see [`stdout_was_closed`]).
pub fn stdin_was_closed() -> bool {
    startup::STDIN_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether standard output was closed when the process started. The Rust runtime opens
/// `/dev/null` in place of a closed standard stream before `main`, where writes would vanish
/// without an error, so the descriptor is looked at earlier, while the C runtime starts.
pub fn stdout_was_closed() -> bool {
    startup::STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

mod startup {
    use std::sync::atomic::AtomicBool;

    pub static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
    pub static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

    /// Runs before `main` (from the executable's initialiser table) on the platforms below.
    #[cfg(any(
        target_os = "linux",
        target_os = "android",
        target_os = "freebsd",
        target_os = "macos"
    ))]
    extern "C" fn note_closed_streams() {
        // SAFETY: fcntl(F_GETFD) only reads the descriptor's flags; -1 means it is not open.
        if unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1 {
            STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        // SAFETY: as above.
        if unsafe { libc::fcntl(libc::STDIN_FILENO, libc::F_GETFD) } == -1 {
            STDIN_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
    #[used]
    #[unsafe(link_section = ".init_array")]
    static NOTE_CLOSED_STREAMS: extern "C" fn() = note_closed_streams;

    #[cfg(target_os = "macos")]
    #[used]
    #[unsafe(link_section = "__DATA,__mod_init_func")]
    static NOTE_CLOSED_STREAMS: extern "C" fn() = note_closed_streams;
}
