//! The one diagnostic type every dialect reports with.

use crate::source::{SourceId, Span};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Reported, and the output is still written (unless `-W error` makes it an error).
    Warning,
    /// The step fails: no output is written, and polyasm exits with 1.
    Error,
}

impl Severity {
    /// The word the renderers print before the code: `warning` or `error`.
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
    /// The text the label points at.
    pub span: Span,
    /// A few words drawn under the span.
    pub message: String,
    /// Whether this is the culprit rather than context for it.
    pub primary: bool,
}

/// A message about the user's input: a stable code, a short message, labels on the culprit,
/// longer notes and an optional `help:` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Whether it stops the output ([`Severity::Error`]) or only warns.
    pub severity: Severity,
    /// A stable code with a dialect prefix, such as `VU002`; `polyasm explain` knows each one.
    pub code: &'static str,
    /// The headline, in one line: "unknown mnemonic `lod`".
    pub message: String,
    /// Spans with a short text each: the culprit ([`Label::primary`]) and any context.
    pub labels: Vec<Label>,
    /// Longer explanations, each printed as a `note:` line after the labels.
    pub notes: Vec<String>,
    /// The `help:` line: how to fix it, e.g. "did you mean `ld`?".
    pub help: Option<Box<str>>,
    /// The file a diagnostic without labels is about, if any.
    pub file: Option<SourceId>,
    /// A replacement that fixes what it reports, which editors offer as a quick fix (boxed:
    /// few diagnostics have one).
    pub fix: Option<Box<Fix>>,
}

/// A fix for a diagnostic: the text at `span` becomes `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The exact text to replace: the mistaken word, no more.
    pub span: Span,
    /// What goes in its place.
    pub replacement: String,
}

impl Diagnostic {
    /// An error with `code`: a code a [`codes!`](crate::codes!) declaration generates, or its
    /// string.
    pub fn error(code: impl Into<&'static str>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Error, code.into(), message)
    }

    /// A warning with `code`, as for [`Diagnostic::error`].
    pub fn warning(code: impl Into<&'static str>, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code.into(), message)
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
            fix: None,
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

    /// Adds a `note:` line: a longer explanation than a label can hold.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Sets the `help:` line, replacing any earlier one.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into().into_boxed_str());
        self
    }

    /// The help line "did you mean `name`?", and the fix that writes `name` over `span` (the
    /// misspelled word).
    pub fn with_did_you_mean(self, span: Span, name: &str) -> Diagnostic {
        self.with_fix(span, name).with_help(format!("did you mean `{name}`?"))
    }

    /// Carries the fix that writes `replacement` over `span` (exactly the mistaken text), for
    /// an editor's quick fix; the help line that tells it is the caller's.
    pub fn with_fix(mut self, span: Span, replacement: &str) -> Diagnostic {
        self.fix = Some(Box::new(Fix {
            span,
            replacement: replacement.to_string(),
        }));
        self
    }

    /// Names the file a diagnostic without labels is about.
    pub fn in_file(mut self, file: SourceId) -> Diagnostic {
        self.file = Some(file);
        self
    }

    /// Whether it is an error rather than a warning.
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
    /// The result; `None` when any of the diagnostics is an error.
    pub value: Option<T>,
    /// Every diagnostic of the step, errors and warnings, in the order they are reported.
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

    /// A value with no diagnostics.
    pub fn ok(value: T) -> Outcome<T> {
        Outcome {
            value: Some(value),
            diagnostics: Vec::new(),
        }
    }

    /// No value: `diagnostics` holds at least one error (checked in debug builds).
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

    /// Turns the value, if any, with `f`; the diagnostics stay as they are.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Outcome<U> {
        Outcome {
            value: self.value.map(f),
            diagnostics: self.diagnostics,
        }
    }

    /// Whether any diagnostic is an error (also after [`WarningPolicy::apply`] promoted one).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// `--max-errors` while a target assembles: how many errors will be shown, and the warning
/// policy that decides which diagnostics are errors. Set for the duration of one call with
/// [`within_limit`]; dialects then collect their diagnostics through [`in_order`], which keeps
/// only what will be shown and counts the rest, so that a file of a million errors costs the
/// memory of the few that are printed.
#[derive(Clone, Debug, Default)]
pub struct Limit {
    /// The errors that will still be shown; the diagnostics after the last of them (in the
    /// order of [`in_order`]) are only counted. `None` keeps everything.
    pub errors: Option<usize>,
    /// Applied to each diagnostic as it is collected ([`WarningPolicy::apply_one`]): silenced
    /// warnings are dropped uncounted, and promoted ones count as errors.
    pub warnings: WarningPolicy,
}

/// What [`in_order`] counted instead of keeping, under a [`Limit`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hidden {
    /// Errors counted instead of kept: those after the last one shown.
    pub errors: usize,
    /// Warnings counted instead of kept: those after the last error shown.
    pub warnings: usize,
}

impl Hidden {
    fn count(&mut self, is_error: bool) {
        if is_error {
            self.errors += 1;
        } else {
            self.warnings += 1;
        }
    }
}

thread_local! {
    /// The limit of the innermost [`within_limit`] on this thread, and what it hid so far.
    static LIMIT: std::cell::RefCell<Option<(Limit, Hidden)>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` (a target's assembly) under `limit`, and returns its result with what the
/// collections of diagnostics inside it ([`in_order`]) counted instead of keeping. Only the
/// calling thread is limited: a collector on another thread takes the limit explicitly
/// ([`current_limit`], [`Collector::under`]).
pub fn within_limit<T>(limit: Limit, f: impl FnOnce() -> T) -> (T, Hidden) {
    let outer = LIMIT.with(|cell| cell.replace(Some((limit, Hidden::default()))));
    // Restores the outer limit however `f` ends.
    struct Restore(Option<Option<(Limit, Hidden)>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let outer = self.0.take().expect("restored once");
            LIMIT.with(|cell| cell.replace(outer));
        }
    }
    let restore = Restore(Some(outer));
    let value = f();
    let hidden = LIMIT.with(|cell| cell.borrow().as_ref().map_or_else(Hidden::default, |(_, h)| *h));
    drop(restore);
    (value, hidden)
}

/// The limit of the innermost [`within_limit`] on this thread, if any: for collectors on other
/// threads that work for this one ([`Collector::under`]).
pub fn current_limit() -> Option<Limit> {
    LIMIT.with(|cell| cell.borrow().as_ref().map(|(limit, _)| limit.clone()))
}

/// What a [`Collector`] holds: a [`Diagnostic`], or a dialect's typed error that becomes one
/// after collection.
pub trait Collected: Sized {
    /// Itself under the warning policy, and whether it then counts as an error; `None` when
    /// the policy silences it.
    fn under(self, policy: &WarningPolicy) -> Option<(Self, bool)>;
}

impl Collected for Diagnostic {
    fn under(self, policy: &WarningPolicy) -> Option<(Diagnostic, bool)> {
        let d = policy.apply_one(self)?;
        let error = d.is_error();
        Some((d, error))
    }
}

/// An item waiting in a [`Collector`], ordered by its key and then by arrival.
struct Keyed<K, T> {
    key: K,
    seq: usize,
    item: T,
}

impl<K: Ord, T> Keyed<K, T> {
    fn rank(&self) -> (&K, usize) {
        (&self.key, self.seq)
    }
}

impl<K: Ord, T> PartialEq for Keyed<K, T> {
    fn eq(&self, other: &Self) -> bool {
        self.rank() == other.rank()
    }
}

impl<K: Ord, T> Eq for Keyed<K, T> {}

impl<K: Ord, T> PartialOrd for Keyed<K, T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord, T> Ord for Keyed<K, T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.rank().cmp(&other.rank())
    }
}

/// Collects a dialect's diagnostics in the order it reports them: sorted by a key, equal keys
/// in the order they came (a stable sort). Within [`within_limit`], only what the reporter will
/// show is kept: the first errors in that order, as many as the limit shows, and the warnings
/// before the last of them, with the warning policy applied; everything after is counted in
/// the limit's [`Hidden`] and dropped as it arrives, so memory stays bounded by what is shown.
/// Outside a limit it keeps everything.
///
/// It holds [`Diagnostic`]s, or any [`Collected`] items (a dialect's typed errors, made
/// diagnostics only once the few shown are known). A collector for another thread takes the
/// limit explicitly ([`Collector::under`], [`Collector::finish_apart`]).
///
/// ```
/// use polyasm_core::diagnostic::{Collector, Limit, within_limit};
/// use polyasm_core::Diagnostic;
///
/// let errors = || {
///     let mut found = Collector::new();
///     for line in [3, 1, 2] {
///         found.push(line, Diagnostic::error("XX001", format!("line {line}")));
///     }
///     found.finish()
/// };
/// assert_eq!(errors().len(), 3);
/// let limit = Limit { errors: Some(1), ..Limit::default() };
/// let (shown, hidden) = within_limit(limit, errors);
/// assert_eq!(shown[0].message, "line 1");
/// assert_eq!((shown.len(), hidden.errors), (1, 2));
/// ```
pub struct Collector<K, T = Diagnostic> {
    /// The errors to keep and the warning policy; `None` keeps everything.
    limit: Option<(usize, WarningPolicy)>,
    seq: usize,
    /// Under a limit, the first errors so far (the last on top); otherwise every item.
    errors: std::collections::BinaryHeap<Keyed<K, T>>,
    /// Under a limit, the warnings before the last kept error.
    warnings: std::collections::BinaryHeap<Keyed<K, T>>,
    hidden: Hidden,
}

impl<K: Ord, T: Collected> Default for Collector<K, T> {
    fn default() -> Self {
        Collector::new()
    }
}

impl<K: Ord, T: Collected> Collector<K, T> {
    /// A collector under the limit of the enclosing [`within_limit`], if any.
    pub fn new() -> Collector<K, T> {
        Collector::under(current_limit().as_ref())
    }

    /// A collector under `limit` (`None` keeps everything), for a thread other than the one
    /// [`within_limit`] runs on: take the limit there with [`current_limit`], and hand what
    /// [`Collector::finish_apart`] hid to a collector of that thread ([`Collector::hide`]).
    pub fn under(limit: Option<&Limit>) -> Collector<K, T> {
        Collector {
            limit: limit.and_then(|limit| Some((limit.errors?, limit.warnings.clone()))),
            seq: 0,
            errors: std::collections::BinaryHeap::new(),
            warnings: std::collections::BinaryHeap::new(),
            hidden: Hidden::default(),
        }
    }

    /// How many items were pushed, kept or not.
    pub fn pushed(&self) -> usize {
        self.seq
    }

    /// Whether an item with `key` pushed now would be dropped: the limit is reached and it
    /// comes after the last error kept.
    fn full_before(&self, key: &K) -> bool {
        match &self.limit {
            Some((keep, _)) => self.errors.len() >= *keep && self.errors.peek().is_none_or(|last| *key >= last.key),
            None => false,
        }
    }

    /// Adds an item that sorts by `key`.
    pub fn push(&mut self, key: K, item: T) {
        let seq = self.seq;
        self.seq += 1;
        let Some((keep, policy)) = &self.limit else {
            self.errors.push(Keyed { key, seq, item });
            return;
        };
        let keep = *keep;
        let Some((item, is_error)) = item.under(policy) else {
            return;
        };
        // Once `keep` errors are held, anything after the last of them is never shown.
        if self.full_before(&key) {
            self.hidden.count(is_error);
            return;
        }
        let item = Keyed { key, seq, item };
        if !is_error {
            self.warnings.push(item);
            return;
        }
        self.errors.push(item);
        if self.errors.len() > keep {
            self.errors.pop().expect("more errors than kept");
            self.hidden.count(true);
        }
        if self.errors.len() == keep
            && let Some(last) = self.errors.peek()
        {
            while self.warnings.peek().is_some_and(|w| w > last) {
                self.warnings.pop().expect("peeked");
                self.hidden.count(false);
            }
        }
    }

    /// [`Collector::push`] for an error (which no warning policy changes) made by `make` only
    /// when it is kept: one that would be dropped at once is only counted.
    pub fn push_error_with(&mut self, key: K, make: impl FnOnce() -> T) {
        if self.full_before(&key) {
            self.seq += 1;
            self.hidden.count(true);
            return;
        }
        self.push(key, make());
    }

    /// Counts `hidden` as hidden by this collector: what a collector of another thread, under
    /// the same limit, hid ([`Collector::finish_apart`]).
    pub fn hide(&mut self, hidden: Hidden) {
        self.hidden.errors += hidden.errors;
        self.hidden.warnings += hidden.warnings;
    }

    /// The items kept, in order with their keys, and what was hidden; unlike
    /// [`Collector::finish`], the enclosing limit's count is left alone.
    pub fn finish_apart(self) -> (Vec<(K, T)>, Hidden) {
        let mut kept: Vec<Keyed<K, T>> = self.errors.into_vec();
        kept.append(&mut self.warnings.into_vec());
        kept.sort_unstable();
        (kept.into_iter().map(|k| (k.key, k.item)).collect(), self.hidden)
    }

    /// The items in order; what was hidden is added to the enclosing limit's count.
    pub fn finish(self) -> Vec<T> {
        let (kept, hidden) = self.finish_apart();
        LIMIT.with(|cell| {
            if let Some((_, total)) = cell.borrow_mut().as_mut() {
                total.errors += hidden.errors;
                total.warnings += hidden.warnings;
            }
        });
        kept.into_iter().map(|(_, item)| item).collect()
    }
}

impl<K: Ord, T: Collected> Extend<(K, T)> for Collector<K, T> {
    fn extend<I: IntoIterator<Item = (K, T)>>(&mut self, items: I) {
        for (key, item) in items {
            self.push(key, item);
        }
    }
}

/// `items` through a [`Collector`]: sorted by key (stably), and limited within
/// [`within_limit`].
pub fn in_order<K: Ord>(items: impl IntoIterator<Item = (K, Diagnostic)>) -> Vec<Diagnostic> {
    let mut collector = Collector::new();
    collector.extend(items);
    collector.finish()
}

/// A dialect's typed errors, each made a diagnostic as it arrives and collected in source
/// order ([`by_position`]) through a [`Collector`], so that under `--max-errors` only those
/// shown are kept. `push` takes the typed error, as a `Vec` of them would.
pub struct Reports<E> {
    collector: Collector<Option<(u32, u32)>>,
    to_diagnostic: fn(&E) -> Diagnostic,
}

impl<E> Reports<E> {
    /// Reports that `to_diagnostic` turns into diagnostics, under the enclosing limit, if any.
    pub fn new(to_diagnostic: fn(&E) -> Diagnostic) -> Reports<E> {
        Reports {
            collector: Collector::new(),
            to_diagnostic,
        }
    }

    /// Collects one error, made a diagnostic and kept or only counted as the limit says.
    pub fn push(&mut self, error: E) {
        let (key, diagnostic) = by_position((self.to_diagnostic)(&error));
        self.collector.push(key, diagnostic);
    }

    /// Whether nothing was pushed (kept or not).
    pub fn is_empty(&self) -> bool {
        self.collector.pushed() == 0
    }

    /// The diagnostics in source order ([`Collector::finish`]).
    pub fn finish(self) -> Vec<Diagnostic> {
        self.collector.finish()
    }
}

/// The order most dialects report in: by the primary label's start, then its end; diagnostics
/// without a label first.
pub fn by_position(diagnostic: Diagnostic) -> (Option<(u32, u32)>, Diagnostic) {
    let key = diagnostic.primary_label().map(|l| (l.span.start, l.span.end));
    (key, diagnostic)
}

/// What to do with warnings: `-W error` makes them fatal, `-W no-CODE` silences one.
#[derive(Clone, Debug, Default)]
pub struct WarningPolicy {
    /// `-W error`: every warning is an error.
    pub all_errors: bool,
    /// The codes of `-W error=CODE`, upper-cased: those warnings are errors.
    pub errors: Vec<String>,
    /// The codes of `-W no-CODE`, upper-cased: those warnings are dropped.
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

    /// Drops silenced warnings and turns the chosen ones into errors. Applying it twice
    /// changes nothing more.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        let all = std::mem::take(diagnostics);
        diagnostics.extend(all.into_iter().filter_map(|d| self.apply_one(d)));
    }

    /// [`WarningPolicy::apply`] for one diagnostic: `None` when it is silenced.
    pub fn apply_one(&self, mut d: Diagnostic) -> Option<Diagnostic> {
        let severity = self.severity_of(d.severity, d.code)?;
        if severity != d.severity {
            d.severity = severity;
            d.notes
                .push(format!("`-W error` turns warning {} into an error", d.code));
        }
        Some(d)
    }

    /// The severity a diagnostic of `severity` and `code` has under the policy: `None` when it
    /// is silenced, an error when it is promoted.
    pub fn severity_of(&self, severity: Severity, code: &str) -> Option<Severity> {
        if severity == Severity::Warning {
            if self.silenced.iter().any(|c| c == code) {
                return None;
            }
            if self.all_errors || self.errors.iter().any(|c| c == code) {
                return Some(Severity::Error);
            }
        }
        Some(severity)
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
    fn collectors_of_other_threads_keep_what_one_collector_keeps() {
        // Errors on lines 0..40 (a warning on every fifth), read in four parts on other
        // threads and joined in order, against one collector that sees them all.
        let item = |line: u32| {
            let d = if line.is_multiple_of(5) {
                Diagnostic::warning("XX002", format!("w{line}"))
            } else {
                Diagnostic::error("XX001", format!("e{line}"))
            };
            (line, d)
        };
        for (max, promote) in [(1, false), (3, true), (7, false), (12, true), (100, false)] {
            let limit = Limit {
                errors: Some(max),
                warnings: WarningPolicy {
                    all_errors: promote,
                    ..WarningPolicy::default()
                },
            };
            let whole = within_limit(limit.clone(), || in_order((0..40).rev().map(item)));
            let joined = within_limit(limit, || {
                let limit = current_limit();
                let parts: Vec<_> = std::thread::scope(|scope| {
                    let handles: Vec<_> = (0..4)
                        .map(|k| {
                            let limit = limit.as_ref();
                            scope.spawn(move || {
                                let mut part = Collector::under(limit);
                                part.extend((k * 10..k * 10 + 10).map(item));
                                part.finish_apart()
                            })
                        })
                        .collect();
                    handles.into_iter().map(|h| h.join().expect("a part")).collect()
                });
                let mut all = Collector::new();
                for (kept, hidden) in parts {
                    all.hide(hidden);
                    for (line, d) in kept {
                        // Only errors come through push_error_with: made when kept.
                        if d.is_error() && !promote {
                            all.push_error_with(line, || d);
                        } else {
                            all.push(line, d);
                        }
                    }
                }
                all.finish()
            });
            assert_eq!(joined, whole, "--max-errors {max}, -W error {promote}");
            let shown = joined.0.iter().filter(|d| d.is_error()).count();
            assert_eq!(shown, max.min(if promote { 40 } else { 32 }));
            assert_eq!(shown + joined.1.errors, if promote { 40 } else { 32 });
        }
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
