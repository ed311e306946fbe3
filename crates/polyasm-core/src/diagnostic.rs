//! The one diagnostic type every dialect reports with.

use crate::source::{SourceId, Span};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A span with a short text; exactly one label of a diagnostic is primary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub primary: bool,
}

/// A message about the user's input: a stable code, a short message, labels on the culprit,
/// longer notes and an optional `help:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable code with a dialect prefix, such as `VU002`; `polyasm explain` knows each one.
    pub code: &'static str,
    pub message: String,
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<Box<str>>,
    /// The file a diagnostic without labels is about, if any.
    pub file: Option<SourceId>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message)
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message)
    }

    fn new(severity: Severity, code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            file: None,
        }
    }

    /// Adds the primary label: the culprit.
    pub fn with_primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: true,
        });
        self
    }

    /// Adds a secondary label: context for the primary one.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
            primary: false,
        });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    /// Names the file a diagnostic without labels is about.
    pub fn in_file(mut self, file: SourceId) -> Diagnostic {
        self.file = Some(file);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The primary label, or the first label when none is marked primary.
    pub fn primary_label(&self) -> Option<&Label> {
        self.labels.iter().find(|l| l.primary).or_else(|| self.labels.first())
    }

    /// The file this diagnostic points into.
    pub fn source(&self) -> Option<SourceId> {
        self.primary_label().map(|l| l.span.source).or(self.file)
    }
}

/// The result of a fallible step: a value when there was no error, and every diagnostic
/// (warnings included) either way.
#[derive(Debug)]
pub struct Outcome<T> {
    pub value: Option<T>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Outcome<T> {
    /// Keeps `value` only if none of `diagnostics` is an error.
    pub fn new(value: T, diagnostics: Vec<Diagnostic>) -> Outcome<T> {
        let failed = diagnostics.iter().any(Diagnostic::is_error);
        Outcome {
            value: if failed { None } else { Some(value) },
            diagnostics,
        }
    }

    pub fn ok(value: T) -> Outcome<T> {
        Outcome {
            value: Some(value),
            diagnostics: Vec::new(),
        }
    }

    pub fn failed(diagnostics: Vec<Diagnostic>) -> Outcome<T> {
        debug_assert!(
            diagnostics.iter().any(Diagnostic::is_error),
            "a failed outcome carries an error"
        );
        Outcome {
            value: None,
            diagnostics,
        }
    }

    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        Outcome {
            value: self.value.map(f),
            diagnostics: self.diagnostics,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// What to do with warnings: `-W error` makes them fatal, `-W no-CODE` silences one.
#[derive(Clone, Debug, Default)]
pub struct WarningPolicy {
    pub all_errors: bool,
    pub errors: Vec<String>,
    pub silenced: Vec<String>,
}

impl WarningPolicy {
    /// Parses one `-W` value: `error`, `error=CODE` or `no-CODE`.
    pub fn add(&mut self, value: &str) -> Result<(), String> {
        if value == "error" {
            self.all_errors = true;
        } else if let Some(code) = value.strip_prefix("error=") {
            self.errors.push(code.to_ascii_uppercase());
        } else if let Some(code) = value.strip_prefix("no-") {
            self.silenced.push(code.to_ascii_uppercase());
        } else {
            return Err(format!(
                "unknown warning option `-W {value}` (expected `error`, `error=CODE` or `no-CODE`)"
            ));
        }
        Ok(())
    }

    /// Checks the codes named by `error=CODE` and `no-CODE`: `kind(code)` is `None` for an
    /// unknown code and says whether a known one is a warning. Only warnings can be promoted or
    /// silenced, so anything else is refused with the reason.
    pub fn check_codes(&self, kind: impl Fn(&str) -> Option<bool>) -> Result<(), String> {
        let named = self
            .errors
            .iter()
            .map(|c| ("error=", c))
            .chain(self.silenced.iter().map(|c| ("no-", c)));
        for (prefix, code) in named {
            match kind(code) {
                None => return Err(format!("`-W {prefix}{code}`: unknown diagnostic code `{code}`")),
                Some(false) => {
                    return Err(format!(
                        "`-W {prefix}{code}`: {code} is an error, not a warning; only warnings can be {}",
                        if prefix == "no-" { "silenced" } else { "made errors" }
                    ));
                }
                Some(true) => {}
            }
        }
        Ok(())
    }

    /// Drops silenced warnings and turns the chosen ones into errors.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        diagnostics.retain(|d| d.is_error() || !self.silenced.iter().any(|c| c == d.code));
        for d in diagnostics.iter_mut() {
            if d.severity == Severity::Warning && (self.all_errors || self.errors.iter().any(|c| c == d.code)) {
                d.severity = Severity::Error;
                d.notes
                    .push(format!("`-W error` turns warning {} into an error", d.code));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_drops_the_value_on_error() {
        let warn = Diagnostic::warning("VU099", "w");
        assert_eq!(Outcome::new(1, vec![warn.clone()]).value, Some(1));
        let err = Diagnostic::error("VU001", "e");
        assert_eq!(Outcome::new(1, vec![warn, err]).value, None);
    }

    #[test]
    fn warning_policy_promotes_and_silences() {
        let mut policy = WarningPolicy::default();
        policy.add("error=vu014").unwrap();
        policy.add("no-VU015").unwrap();
        assert!(policy.add("bogus").is_err());
        assert_eq!(policy.check_codes(|c| Some(c.starts_with("VU01"))), Ok(()));
        let mut unknown = WarningPolicy::default();
        unknown.add("error=VU999").unwrap();
        let refusal = unknown.check_codes(|c| (c != "VU999").then_some(true)).unwrap_err();
        assert_eq!(refusal, "`-W error=VU999`: unknown diagnostic code `VU999`");
        let refusal = policy.check_codes(|c| Some(c == "VU015")).unwrap_err();
        assert!(refusal.contains("VU014 is an error, not a warning; only warnings can be made errors"));
        let mut diags = vec![
            Diagnostic::warning("VU014", "a"),
            Diagnostic::warning("VU015", "b"),
            Diagnostic::warning("VU016", "c"),
        ];
        policy.apply(&mut diags);
        assert_eq!(diags.len(), 2);
        assert!(diags[0].is_error());
        assert!(!diags[1].is_error());
    }
}
