//! Reading the input (a file or standard input) and writing the output atomically.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;

use polyasm_core::Diagnostic;

use crate::report::Reporter;
use crate::{Failure, Result};

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

    pub fn read_bytes(&self) -> std::result::Result<Vec<u8>, Diagnostic> {
        let result = match self {
            Input::Stdin => {
                let mut bytes = Vec::new();
                std::io::stdin().read_to_end(&mut bytes).map(|_| bytes)
            }
            Input::Path(path) => std::fs::read(path),
        };
        result.map_err(|e| {
            Diagnostic::error(
                "PA001",
                format!("cannot read {}: {}", self.display_name(), io_reason(&e)),
            )
        })
    }

    /// The input as UTF-8 text, without a leading byte-order mark.
    pub fn read_text(&self) -> std::result::Result<String, Diagnostic> {
        let bytes = self.read_bytes()?;
        let mut text = String::from_utf8(bytes).map_err(|e| {
            Diagnostic::error(
                "PA002",
                format!(
                    "{} is not UTF-8 text (invalid byte at offset {})",
                    self.display_name(),
                    e.utf8_error().valid_up_to()
                ),
            )
            .with_help("sources are UTF-8 text; to turn machine code back into source use `polyasm disasm`")
        })?;
        let bom = text.len() - polyasm_core::text::skip_bom(&text).len();
        text.drain(..bom);
        Ok(text)
    }
}

/// The OS's reason without its "(os error N)" suffix.
fn io_reason(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
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
        if binary && matches!(self, Output::Stdout) && std::io::stdout().is_terminal() {
            reporter.usage(
                Diagnostic::error("PA007", "refusing to write binary output to a terminal").with_help(
                    "write it to a file with `-o FILE`, or choose a text format such as `-f hex` or `-f listing`",
                ),
            );
            return Err(Failure::Usage);
        }
        Ok(())
    }

    /// Writes everything: to standard output, or atomically to the file.
    pub fn write(&self, bytes: &[u8], reporter: &mut Reporter) -> Result {
        match self {
            Output::Stdout => {
                let mut stdout = std::io::stdout().lock();
                match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
                    Ok(()) => Ok(()),
                    // A reader that stopped early (`| head`) is not an error worth a message.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                    Err(e) => {
                        reporter.emit(
                            vec![Diagnostic::error(
                                "PA003",
                                format!("cannot write standard output: {}", io_reason(&e)),
                            )],
                            &Default::default(),
                        );
                        Err(Failure::Errors)
                    }
                }
            }
            Output::Path(path) => polyasm_core::fs::write_atomic(Path::new(path), bytes).map_err(|e| {
                reporter.emit(
                    vec![
                        Diagnostic::error("PA003", format!("cannot write {path}: {}", io_reason(&e)))
                            .with_note("the destination was left as it was"),
                    ],
                    &Default::default(),
                );
                Failure::Errors
            }),
        }
    }
}
