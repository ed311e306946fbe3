//! Printing diagnostics to standard error in the chosen format and colour.

use std::io::{IsTerminal, Write};

use polyasm_core::diagnostic::{Hidden, Limit};
use polyasm_core::render::{ErrorFormat, Renderer, render, render_note, render_summary};
use polyasm_core::text::count;
use polyasm_core::{Diagnostic, SourceMap, WarningPolicy};

use crate::args::{ColorArg, ErrorFormatArg, GlobalArgs};
use polyasm::registry;

/// How diagnostics are printed for this run.
pub struct Reporter {
    format: ErrorFormat,
    color: bool,
    pub warnings: WarningPolicy,
    errors: usize,
    warnings_seen: usize,
    /// Errors shown before the rest are only counted; 0 shows every one.
    max_errors: usize,
    /// Errors and warnings not shown because of `max_errors`.
    hidden: (usize, usize),
}

/// Decides colour for a stream the way most tools do: `--color`, then FORCE_COLOR /
/// CLICOLOR_FORCE, then NO_COLOR, then whether the stream (`terminal`) is a terminal and TERM
/// is not `dumb`.
pub fn use_color(choice: ColorArg, terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    match choice {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => {
            if set("FORCE_COLOR") || set("CLICOLOR_FORCE") {
                true
            } else if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                false
            } else {
                terminal && std::env::var("TERM").map_or(true, |t| t != "dumb")
            }
        }
    }
}

impl Reporter {
    pub fn new(global: &GlobalArgs) -> Result<Reporter, String> {
        let mut warnings = WarningPolicy::default();
        for value in &global.warnings {
            warnings.add(value)?;
        }
        Ok(Reporter {
            warnings,
            max_errors: global.max_errors,
            ..Reporter::plain(global.error_format, global.color)
        })
    }

    /// Applies the warning policy, prints the diagnostics (up to `--max-errors` errors in the
    /// whole run, after which the rest are only counted), and says whether any is an error.
    pub fn emit(&mut self, mut diagnostics: Vec<Diagnostic>, sources: &SourceMap) -> bool {
        self.warnings.apply(&mut diagnostics);
        let mut stderr = std::io::stderr().lock();
        let renderer = Renderer::new(sources, self.format, self.color, registry());
        let mut failed = false;
        for diagnostic in &diagnostics {
            let limit_reached = self.max_errors != 0 && self.errors - self.hidden.0 >= self.max_errors;
            if diagnostic.is_error() {
                self.errors += 1;
                failed = true;
            } else {
                self.warnings_seen += 1;
            }
            if limit_reached {
                if diagnostic.is_error() {
                    self.hidden.0 += 1;
                } else {
                    self.hidden.1 += 1;
                }
                continue;
            }
            let text = renderer.render(diagnostic);
            let _ = stderr.write_all(text.as_bytes());
            if self.format == ErrorFormat::Human {
                let _ = stderr.write_all(b"\n");
            }
        }
        failed
    }

    /// The limit a target's assembly runs under (`polyasm_core::diagnostic::within_limit`):
    /// the errors `--max-errors` still shows in this run, and the warning policy.
    pub fn limit(&self) -> Limit {
        Limit {
            errors: (self.max_errors != 0).then(|| self.max_errors.saturating_sub(self.errors - self.hidden.0)),
            warnings: self.warnings.clone(),
        }
    }

    /// Counts diagnostics a target dropped under [`Reporter::limit`] as [`Reporter::emit`]
    /// counts those it does not show: in the summary and the closing line.
    pub fn count_hidden(&mut self, hidden: Hidden) {
        self.errors += hidden.errors;
        self.warnings_seen += hidden.warnings;
        self.hidden.0 += hidden.errors;
        self.hidden.1 += hidden.warnings;
    }

    /// After `--max-errors` hid diagnostics: a closing line saying how many, in every format
    /// (a JSON object with level `note` in the JSON format).
    fn report_hidden(&mut self) {
        let (errors, warnings) = std::mem::take(&mut self.hidden);
        if errors + warnings == 0 {
            return;
        }
        let what = match (errors, warnings) {
            (e, 0) => count(e, "more error"),
            (0, w) => count(w, "more warning"),
            (e, w) => format!("{} and {}", count(e, "more error"), count(w, "warning")),
        };
        let message = format!(
            "{what} not shown (limit: `--max-errors {}`; `--max-errors 0` shows all)",
            self.max_errors
        );
        let text = render_note(&message, self.format, self.color);
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    /// Writes a note (`note: ...`) on standard error in the chosen format.
    pub fn emit_note(&mut self, message: &str) {
        let text = render_note(message, self.format, self.color);
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    /// Forgets the counts of errors and warnings, for a new run of `--watch`.
    pub fn start_over(&mut self) {
        self.errors = 0;
        self.warnings_seen = 0;
        self.hidden = (0, 0);
    }

    /// Whether diagnostics are written for people (the human format).
    pub fn is_human(&self) -> bool {
        self.format == ErrorFormat::Human
    }

    /// The closing line of hidden diagnostics, then a one-line summary after errors, in the
    /// human format only.
    pub fn summarize_failure(&mut self, what: &str) {
        self.report_hidden();
        if self.format == ErrorFormat::Human && self.errors > 0 {
            let mut line = count(self.errors, "error");
            if self.warnings_seen > 0 {
                line = format!("{line}, {}", count(self.warnings_seen, "warning"));
            }
            let text = render_summary(&format!("{what}: {line}"), self.color);
            // Not eprintln!, which panics when standard error cannot be written.
            let _ = std::io::stderr().write_all(text.as_bytes());
        }
    }

    /// Prints a usage problem (exit code 2) that has no source location.
    pub fn usage(&self, diagnostic: Diagnostic) {
        let sources = SourceMap::new();
        let text = render(&diagnostic, &sources, self.format, self.color, registry());
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
}

impl Reporter {
    /// A reporter for commands whose only output is standard output.
    pub fn quiet() -> Reporter {
        Reporter {
            format: ErrorFormat::Human,
            color: false,
            warnings: WarningPolicy::default(),
            errors: 0,
            warnings_seen: 0,
            max_errors: 0,
            hidden: (0, 0),
        }
    }

    /// A reporter in the chosen format and colour with no warning policy, for usage errors
    /// found before the command line is fully understood.
    pub fn plain(format: ErrorFormatArg, color: ColorArg) -> Reporter {
        Reporter {
            format: match format {
                ErrorFormatArg::Human => ErrorFormat::Human,
                ErrorFormatArg::Short => ErrorFormat::Short,
                ErrorFormatArg::Json => ErrorFormat::Json,
            },
            color: use_color(color, std::io::stderr().is_terminal()),
            ..Reporter::quiet()
        }
    }

    /// Whether diagnostics are rendered as JSON or short lines (not as human text).
    pub fn is_machine_readable(&self) -> bool {
        self.format != ErrorFormat::Human
    }

    /// Whether diagnostics are coloured.
    pub fn colored(&self) -> bool {
        self.color
    }
}
