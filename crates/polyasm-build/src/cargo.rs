//! The lines a build script prints for Cargo: `cargo:rerun-if-changed=PATH` and
//! `cargo:warning=TEXT`.

use std::io::Write;
use std::path::Path;

use polyasm_core::render::{ErrorFormat, Renderer, bounded};
use polyasm_core::text::escape_controls;
use polyasm_core::{Diagnostic, SourceMap};

use crate::error::Error;
use crate::targets::registry;

/// Writes Cargo's instructions to a build script's standard output, or to any writer.
pub(crate) struct CargoLines<'w> {
    out: Box<dyn Write + 'w>,
}

impl<'w> CargoLines<'w> {
    pub(crate) fn new(out: Box<dyn Write + 'w>) -> CargoLines<'w> {
        CargoLines { out }
    }

    /// Asks Cargo to run the build script again when the file at `path` changes.
    pub(crate) fn rerun_if_changed(&mut self, path: &Path) {
        let text = path.to_string_lossy();
        // One instruction is one line: a path with a line break cannot be written as one,
        // and Cargo runs a script again anyway while any file it was told of is missing.
        if text.contains(['\n', '\r']) {
            self.warning(&format!(
                "cannot ask Cargo to watch {}: its name has a line break",
                escape_controls(&text)
            ));
            return;
        }
        self.line(&format!("cargo:rerun-if-changed={text}"));
    }

    /// One `cargo:warning=` per line of `text`: Cargo shows only the first line of each.
    pub(crate) fn warning(&mut self, text: &str) {
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            self.line(&format!("cargo:warning={line}"));
        }
    }

    /// A diagnostic as Cargo warnings: `FILE:LINE:COL: warning[CODE]: message`, the lines of
    /// the include chain, then a line for each note and the help.
    pub(crate) fn diagnostic(&mut self, diagnostic: &Diagnostic, renderer: &Renderer) {
        self.warning(&renderer.render(diagnostic));
        for note in &diagnostic.notes {
            self.warning(&format!("note: {}", bounded(note)));
        }
        if let Some(help) = &diagnostic.help {
            self.warning(&format!("help: {}", bounded(help)));
        }
    }

    /// An error found before or after assembling (no source lines): as Cargo warnings, and
    /// as the [`Error`] to return.
    pub(crate) fn report(&mut self, diagnostic: Diagnostic) -> Error {
        let sources = SourceMap::new();
        self.diagnostic(&diagnostic, &short_renderer(&sources, registry()));
        Error::usage(diagnostic)
    }

    fn line(&mut self, line: &str) {
        // Cargo reads the script's standard output; if that cannot be written, the build
        // fails on its own errors, and there is nowhere else to say so.
        let _ = writeln!(self.out, "{line}");
    }

    pub(crate) fn flush(&mut self) {
        let _ = self.out.flush();
    }
}

/// The renderer of the Cargo lines: the short format, whose first line is the diagnostic and
/// whose next lines are its include chain.
pub(crate) fn short_renderer<'a>(sources: &'a SourceMap, codes: &'a dyn polyasm_core::Explain) -> Renderer<'a> {
    Renderer::new(sources, ErrorFormat::Short, false, codes)
}
