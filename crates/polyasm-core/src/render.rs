//! Turns diagnostics into text: human (ariadne), short (one line) and json (rustc's shape).
//!
//! Dialect code never renders; it returns [`Diagnostic`]s and the caller picks a renderer.

use std::fmt::Write as _;

use ariadne::{Color, Config, IndexType, Label as AriadneLabel, Report, ReportKind};
use serde_json::{Value, json};

use crate::diagnostic::{Diagnostic, Severity};
use crate::explain::Explain;
use crate::source::{SourceId, SourceMap, Span};

/// The three ways to print a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFormat {
    /// Framed source excerpts with labels, notes and help (ariadne).
    Human,
    /// `file:line:col: error[CODE]: message`, one line each.
    Short,
    /// One JSON object per line in rustc's diagnostic shape.
    Json,
}

/// Renders one diagnostic; the result ends with a newline. To render many diagnostics of the
/// same sources, use a [`Renderer`]: it indexes each source's lines once.
pub fn render(
    diagnostic: &Diagnostic,
    sources: &SourceMap,
    format: ErrorFormat,
    color: bool,
    codes: &dyn Explain,
) -> String {
    Renderer::new(sources, format, color, codes).render(diagnostic)
}

/// Renders diagnostics of one [`SourceMap`] in one format.
pub struct Renderer<'a> {
    sources: &'a SourceMap,
    format: ErrorFormat,
    color: bool,
    codes: &'a dyn Explain,
    cache: Cache<'a>,
}

impl<'a> Renderer<'a> {
    pub fn new(sources: &'a SourceMap, format: ErrorFormat, color: bool, codes: &'a dyn Explain) -> Renderer<'a> {
        Renderer {
            sources,
            format,
            color,
            codes,
            cache: Cache::new(sources),
        }
    }

    /// One diagnostic, ending with a newline.
    pub fn render(&mut self, diagnostic: &Diagnostic) -> String {
        match self.format {
            ErrorFormat::Human => render_human(diagnostic, self.sources, &mut self.cache, self.color),
            ErrorFormat::Short => render_short(diagnostic, self.sources),
            ErrorFormat::Json => {
                let mut line = render_json(diagnostic, self.sources, &mut self.cache, self.codes).to_string();
                line.push('\n');
                line
            }
        }
    }
}

fn header(diagnostic: &Diagnostic) -> String {
    format!("{}[{}]", diagnostic.severity.as_str(), diagnostic.code)
}

/// `file:line:col: error[CODE]: message`
pub fn render_short(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let location = match diagnostic.primary_label() {
        Some(label) => {
            let source = sources.get(label.span.source);
            format!("{}:{}: ", source.name(), source.line_col(label.span.start as usize))
        }
        None => match diagnostic.file {
            Some(file) => format!("{}: ", sources.get(file).name()),
            None => String::new(),
        },
    };
    format!("{location}{}: {}\n", header(diagnostic), diagnostic.message)
}

/// Adapts a [`SourceMap`] to ariadne's cache, naming each source by its file name and indexing
/// a source's lines only when a report first needs it.
struct Cache<'a> {
    map: &'a SourceMap,
    sources: Vec<Option<ariadne::Source<&'a str>>>,
}

impl<'a> Cache<'a> {
    fn new(map: &'a SourceMap) -> Cache<'a> {
        Cache {
            map,
            sources: Vec::new(),
        }
    }
}

impl<'a> ariadne::Cache<SourceId> for Cache<'a> {
    type Storage = &'a str;

    fn fetch(&mut self, id: &SourceId) -> Result<&ariadne::Source<&'a str>, impl std::fmt::Debug> {
        let index = id.index();
        if index >= self.map.len() {
            return Err("unknown source");
        }
        if self.sources.len() <= index {
            self.sources.resize_with(index + 1, || None);
        }
        let map = self.map;
        Ok(self.sources[index].get_or_insert_with(|| ariadne::Source::from(map.get(*id).text())))
    }

    fn display<'b>(&self, id: &'b SourceId) -> Option<impl std::fmt::Display + 'b> {
        Some(self.map.get(*id).name().to_string())
    }
}

/// ariadne's span: a source id and a byte range clamped to char boundaries.
type AriadneSpan = (SourceId, std::ops::Range<usize>);

fn ariadne_span(sources: &SourceMap, span: Span) -> AriadneSpan {
    let source = sources.get(span.source);
    let start = source.floor_char_boundary(span.start as usize);
    let end = source.floor_char_boundary(span.end as usize).max(start);
    (span.source, start..end)
}

fn severity_color(severity: Severity) -> Color {
    match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
    }
}

/// ariadne's framed report; diagnostics without labels get a plain header and notes.
fn render_human(diagnostic: &Diagnostic, sources: &SourceMap, cache: &mut Cache, color: bool) -> String {
    let header = header(diagnostic);
    let Some(primary) = diagnostic.primary_label() else {
        return render_unlabelled(diagnostic, sources, &header, color);
    };
    let kind_color = severity_color(diagnostic.severity);
    let config = Config::default().with_color(color).with_index_type(IndexType::Byte);
    let mut report = Report::build(
        ReportKind::Custom(&header, kind_color),
        ariadne_span(sources, primary.span),
    )
    .with_config(config)
    .with_message(&diagnostic.message);
    for (order, label) in diagnostic.labels.iter().enumerate() {
        let label_color = if label.primary { kind_color } else { Color::Blue };
        let mut l = AriadneLabel::new(ariadne_span(sources, label.span))
            .with_color(label_color)
            .with_order(order as i32);
        if !label.message.is_empty() {
            l = l.with_message(&label.message);
        }
        report = report.with_label(l);
    }
    for note in &diagnostic.notes {
        report = report.with_note(note);
    }
    if let Some(help) = &diagnostic.help {
        report = report.with_help(help);
    }
    let mut out = Vec::new();
    report
        .finish()
        .write(cache, &mut out)
        .expect("writing a report into a Vec cannot fail");
    let text = String::from_utf8_lossy(&out);
    // ariadne colours a custom kind's header even with colour off, so the header is ours.
    let mut trimmed = header_line(diagnostic, &header, color);
    // ariadne pads some lines with trailing spaces; they only make snapshots noisy.
    for line in text.lines().skip(1) {
        trimmed.push_str(line.trim_end());
        trimmed.push('\n');
    }
    trimmed
}

fn paint(text: &str, ansi: &str, color: bool) -> String {
    if color {
        format!("\x1b[{ansi}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// `error[CODE]: message` and a newline, the severity coloured when `color` is on.
fn header_line(diagnostic: &Diagnostic, header: &str, color: bool) -> String {
    let ansi = match diagnostic.severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
    };
    format!("{}: {}\n", paint(header, ansi, color), diagnostic.message)
}

fn render_unlabelled(diagnostic: &Diagnostic, sources: &SourceMap, header: &str, color: bool) -> String {
    let mut out = header_line(diagnostic, header, color);
    let paint = |text: &str, ansi: &str| paint(text, ansi, color);
    if let Some(file) = diagnostic.file {
        let _ = writeln!(out, "  {} {}", paint("-->", "34"), sources.get(file).name());
    }
    for note in &diagnostic.notes {
        let _ = writeln!(out, "  {} {note}", paint("= note:", "1"));
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "  {} {help}", paint("= help:", "1"));
    }
    out
}

fn json_span(sources: &SourceMap, span: Span, primary: bool, label: &str) -> Value {
    let source = sources.get(span.source);
    let start = source.line_col(span.start as usize);
    let end = source.line_col(span.end as usize);
    let text: Vec<Value> = (start.line..=end.line)
        .map(|line| {
            let text = source.line_text(line - 1);
            let width = text.chars().count() + 1;
            let highlight_start = if line == start.line { start.column } else { 1 };
            let highlight_end = if line == end.line { end.column } else { width };
            json!({ "text": text, "highlight_start": highlight_start, "highlight_end": highlight_end })
        })
        .collect();
    json!({
        "file_name": source.name(),
        "byte_start": span.start,
        "byte_end": span.end,
        "line_start": start.line,
        "line_end": end.line,
        "column_start": start.column,
        "column_end": end.column,
        "is_primary": primary,
        "text": text,
        "label": if label.is_empty() { Value::Null } else { Value::from(label) },
        "suggested_replacement": Value::Null,
        "suggestion_applicability": Value::Null,
        "expansion": Value::Null,
    })
}

fn json_child(level: &str, message: &str) -> Value {
    json!({ "message": message, "code": Value::Null, "level": level, "spans": [], "children": [], "rendered": Value::Null })
}

/// One diagnostic as a JSON value shaped like rustc's `--error-format=json` output.
fn render_json(diagnostic: &Diagnostic, sources: &SourceMap, cache: &mut Cache, codes: &dyn Explain) -> Value {
    let spans: Vec<Value> = diagnostic
        .labels
        .iter()
        .map(|l| json_span(sources, l.span, l.primary, &l.message))
        .collect();
    let mut children: Vec<Value> = diagnostic.notes.iter().map(|n| json_child("note", n)).collect();
    if let Some(help) = &diagnostic.help {
        children.push(json_child("help", help));
    }
    json!({
        "$message_type": "diagnostic",
        "message": diagnostic.message,
        "code": { "code": diagnostic.code, "explanation": codes.explain(diagnostic.code).map(|c| c.explanation) },
        "level": diagnostic.severity.as_str(),
        "spans": spans,
        "children": children,
        "rendered": render_human(diagnostic, sources, cache, false),
    })
}
