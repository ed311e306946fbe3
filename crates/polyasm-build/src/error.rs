//! The error a build returns: the report `polyasm` prints.

use std::fmt;

use polyasm_core::render::{ErrorFormat, Renderer, render_summary};
use polyasm_core::{Diagnostic, SourceMap};

use crate::targets::registry;

/// Why a program was not assembled or written. Its text ([`fmt::Display`], and
/// [`fmt::Debug`] too, so that `.unwrap()` and `main`'s `Err` print it) is the report
/// `polyasm` prints: each error with its source excerpt, notes and help, without colour.
pub struct Error {
    report: String,
    codes: Vec<&'static str>,
}

impl Error {
    /// An error without source lines: a usage error, or a failed write.
    pub(crate) fn usage(diagnostic: Diagnostic) -> Error {
        let sources = SourceMap::new();
        let report = Renderer::new(&sources, ErrorFormat::Human, false, registry()).render(&diagnostic);
        Error {
            report: report.trim_end().to_string(),
            codes: vec![diagnostic.code],
        }
    }

    /// The errors and warnings of an assembly that failed, then the CLI's closing line.
    pub(crate) fn assembly(diagnostics: &[Diagnostic], sources: &SourceMap, name: &str) -> Error {
        let renderer = Renderer::new(sources, ErrorFormat::Human, false, registry());
        let mut report = String::new();
        for diagnostic in diagnostics {
            report.push_str(&renderer.render(diagnostic));
            report.push('\n');
        }
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        let warnings = diagnostics.len() - errors;
        let mut count = polyasm_core::text::count(errors, "error");
        if warnings > 0 {
            count = format!("{count}, {}", polyasm_core::text::count(warnings, "warning"));
        }
        report.push_str(&render_summary(
            &format!("{name} not assembled; no output written: {count}"),
            false,
        ));
        Error {
            report: report.trim_end().to_string(),
            codes: diagnostics.iter().filter(|d| d.is_error()).map(|d| d.code).collect(),
        }
    }

    /// The report, as [`fmt::Display`] writes it.
    pub fn report(&self) -> &str {
        &self.report
    }

    /// The codes of the errors, in the order reported (`PA001`, `NV2A004`, ...).
    pub fn codes(&self) -> &[&'static str] {
        &self.codes
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.report)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `main` returning `Err` and `.unwrap()` print this: the report reads best as it is.
        write!(f, "\n{}", self.report)
    }
}

impl std::error::Error for Error {}
