//! The errors of an assembly, collected as they will be shown.

use std::collections::HashSet;

use polyasm_core::diagnostic::{Collected, Collector, WarningPolicy};
use polyasm_core::{Diagnostic, Severity, SourceMap, Span};

use crate::error::MxError;
use crate::expansions::Expansions;
use crate::lexer::NO_EXPANSION;

/// An error and the macro expansion it arose in ([`NO_EXPANSION`] for none).
struct InExpansion {
    error: MxError,
    origin: u32,
}

impl InExpansion {
    /// The severity of its diagnostic, as its code declares it.
    fn severity(&self) -> Severity {
        self.error.severity()
    }
}

impl Collected for InExpansion {
    fn under(self, policy: &WarningPolicy) -> Option<(InExpansion, bool)> {
        let severity = policy.severity_of(self.severity(), self.error.code())?;
        Some((self, severity == Severity::Error))
    }
}

/// The errors of an assembly (the lexer's, the macro system's, the encoder's, in that order),
/// reported in source order: by file, then where they start, errors at the same place in the
/// order they came. A mistake in a macro body is one error, however many uses expand the
/// body: of the errors made by expansion, the first of each code at each place is kept.
///
/// Under `--max-errors` ([`polyasm_core::diagnostic::within_limit`]) only the errors that will
/// be shown are kept, typed, and the others counted; the kept ones become diagnostics, with
/// the chain of macro uses as notes, at the end ([`Found::diagnostics`]).
pub struct Found {
    kept: Collector<(usize, u32), InExpansion>,
    /// The code and place of each error made by expansion so far; `None` when every error is
    /// kept as it comes ([`Found::everything`]).
    seen: Option<HashSet<(&'static str, Span)>>,
    /// Whether any error was found that is not a warning.
    failed: bool,
    /// Whether expansion stopped at a limit (MX058, MX066).
    cut: bool,
    /// Leaves out undefined labels (MX033): set when expansion stopped at a limit, so that the
    /// labels defined after the cut make no false errors.
    pub skip_undefined_labels: bool,
}

impl Found {
    /// The errors of an assembly, under the limit of the enclosing `within_limit`.
    pub fn new() -> Found {
        Found {
            kept: Collector::new(),
            seen: Some(HashSet::new()),
            failed: false,
            cut: false,
            skip_undefined_labels: false,
        }
    }

    /// Every error, each kept as it comes (no limit, no error left out as a repeat): for a
    /// compile-time body, whose errors are reported again ([`Found::into_errors`]).
    pub fn everything() -> Found {
        Found {
            kept: Collector::under(None),
            seen: None,
            ..Found::new()
        }
    }

    /// Adds an error that arose in expansion `origin`.
    pub fn push(&mut self, error: MxError, origin: u32) {
        if self.skip_undefined_labels && matches!(error, MxError::UndefinedLabel { .. }) {
            return;
        }
        if let Some(seen) = &mut self.seen
            && origin != NO_EXPANSION
            && !seen.insert((error.code(), error.span()))
        {
            return;
        }
        self.failed |= !matches!(error, MxError::NoOp { .. });
        self.cut |= matches!(
            error,
            MxError::ExpansionTooLarge { .. } | MxError::TooManyLookups { .. }
        );
        let span = error.span();
        self.kept
            .push((span.source.index(), span.start), InExpansion { error, origin });
    }

    /// Whether any error was found that is not a warning.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Whether expansion stopped at a limit (MX058, MX066).
    pub fn cut(&self) -> bool {
        self.cut
    }

    /// The errors kept, in order, with their expansions; what the limit hid is not counted.
    pub fn into_errors(self) -> Vec<(MxError, u32)> {
        let (kept, _) = self.kept.finish_apart();
        kept.into_iter().map(|(_, e)| (e.error, e.origin)).collect()
    }

    /// The diagnostics of the errors kept, in order, with the chain of macro uses as notes;
    /// what the limit hid is counted in the enclosing limit.
    pub fn diagnostics(self, expansions: &Expansions, sources: &SourceMap) -> Vec<Diagnostic> {
        let kept = self.kept.finish();
        kept.into_iter()
            .map(|e| {
                let mut d = e.error.to_diagnostic();
                debug_assert_eq!(d.severity, e.severity(), "{}", d.code);
                if e.origin != NO_EXPANSION {
                    // Its place is in a macro's body or arguments: writing the fix there would
                    // change every use of the macro.
                    d.fix = None;
                }
                for note in expansions.notes(sources, e.origin) {
                    d = d.with_note(note);
                }
                d
            })
            .collect()
    }
}

impl Default for Found {
    fn default() -> Found {
        Found::new()
    }
}
