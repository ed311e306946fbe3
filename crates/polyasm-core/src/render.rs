//! Turns diagnostics into text: human (ariadne), short (one line) and json (rustc's shape).
//!
//! Dialect code never renders; it returns [`Diagnostic`]s and the caller picks a renderer.

use std::fmt::Write as _;

use ariadne::{Color, Config, IndexType, Label as AriadneLabel, Report, ReportKind};
use serde_json::{Value, json};

use crate::diagnostic::{Diagnostic, Severity};
use crate::explain::Explain;
use std::ops::Range;

use crate::source::{SourceId, SourceMap, Span};
use crate::text::{escape_controls, needs_escape, push_escaped};

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

/// The most characters of a source line an excerpt shows. A longer line is cut around its
/// labels, with `…` where it is cut; the header still names the exact line and column.
pub const EXCERPT_WIDTH: usize = 100;

/// Characters an excerpt of a cut line keeps before its first label.
const EXCERPT_CONTEXT: usize = 24;

/// The most characters of user text a message shows between backticks (a name, a token);
/// longer text keeps its start and ends with `…`. Room enough for the file paths and commands
/// that messages quote, which stay whole so that they can be copied.
pub const MAX_QUOTED_CHARS: usize = 128;

/// The most characters of a message, label, note or help line.
pub const MAX_MESSAGE_CHARS: usize = 400;

/// Renders one diagnostic; the result ends with a newline. [`Renderer`] keeps the settings
/// for many.
pub fn render(
    diagnostic: &Diagnostic,
    sources: &SourceMap,
    format: ErrorFormat,
    color: bool,
    codes: &dyn Explain,
) -> String {
    Renderer::new(sources, format, color, codes).render(diagnostic)
}

/// The settings for rendering diagnostics of one [`SourceMap`] in one format. Each rendering
/// takes time and space bounded by the diagnostic's own text, whatever the length of the lines
/// it points at.
pub struct Renderer<'a> {
    sources: &'a SourceMap,
    format: ErrorFormat,
    color: bool,
    codes: &'a dyn Explain,
}

impl<'a> Renderer<'a> {
    /// A renderer of `sources`'s diagnostics in `format`, with ANSI colours when `color`, looking
    /// explanations up in `codes` (for the JSON format).
    pub fn new(sources: &'a SourceMap, format: ErrorFormat, color: bool, codes: &'a dyn Explain) -> Renderer<'a> {
        Renderer {
            sources,
            format,
            color,
            codes,
        }
    }

    /// One diagnostic, ending with a newline. A diagnostic that points into an included file
    /// gets "included from" notes up the include chain ([`crate::include::chain_notes`]).
    pub fn render(&self, diagnostic: &Diagnostic) -> String {
        let chain = crate::include::chain_notes(diagnostic, self.sources);
        if chain.is_empty() {
            return self.render_plain(diagnostic);
        }
        match self.format {
            ErrorFormat::Short => {
                // One line per link, each at its directive, so that editors can jump there.
                let mut text = render_short(diagnostic, self.sources);
                let mut included = diagnostic.source();
                while let Some(id) = included {
                    let Some(span) = self.sources.get(id).included_from() else {
                        break;
                    };
                    let from = self.sources.get(span.source);
                    let _ = writeln!(
                        text,
                        "{}:{}: note: {} included from here",
                        escape_controls(from.name()),
                        from.line_col(span.start as usize),
                        bounded(&escape_controls(self.sources.get(id).name())),
                    );
                    included = Some(span.source);
                }
                text
            }
            _ => {
                let mut with_chain = diagnostic.clone();
                with_chain.notes.extend(chain);
                self.render_plain(&with_chain)
            }
        }
    }

    fn render_plain(&self, diagnostic: &Diagnostic) -> String {
        match self.format {
            ErrorFormat::Human => render_human(diagnostic, self.sources, self.color),
            ErrorFormat::Short => render_short(diagnostic, self.sources),
            ErrorFormat::Json => {
                let mut line = render_json(diagnostic, self.sources, self.codes).to_string();
                line.push('\n');
                line
            }
        }
    }
}

/// A note about the diagnostics themselves (such as how many were not shown), with no code and
/// no span: `note: message` in the human and short formats, an object of level `note` in JSON.
pub fn render_note(message: &str, format: ErrorFormat, color: bool) -> String {
    let message = bounded(message);
    match format {
        ErrorFormat::Json => {
            let mut line = json!({
                "$message_type": "diagnostic",
                "message": message,
                "code": Value::Null,
                "level": "note",
                "spans": [],
                "children": [],
                "rendered": format!("note: {message}\n"),
            })
            .to_string();
            line.push('\n');
            line
        }
        ErrorFormat::Human | ErrorFormat::Short => format!("{}: {message}\n", paint("note", "1", color)),
    }
}

/// The human format's closing line after errors: `error: what: 2 errors, 1 warning`, `what`
/// bounded and escaped like any message (it holds the input's name).
pub fn render_summary(what: &str, color: bool) -> String {
    format!("{}: {}\n", paint("error", "1;31", color), bounded(what))
}

fn header(diagnostic: &Diagnostic) -> String {
    format!("{}[{}]", diagnostic.severity.as_str(), diagnostic.code)
}

/// `file:line:col: error[CODE]: message`
pub fn render_short(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let location = match diagnostic.primary_label() {
        Some(label) => {
            let source = sources.get(label.span.source);
            format!(
                "{}:{}: ",
                escape_controls(source.name()),
                source.line_col(label.span.start as usize)
            )
        }
        None => match diagnostic.file {
            Some(file) => format!("{}: ", escape_controls(sources.get(file).name())),
            None => String::new(),
        },
    };
    format!("{location}{}: {}\n", header(diagnostic), bounded(&diagnostic.message))
}

/// Text a diagnostic shows, bounded and printable: control characters escaped (`\0`, `\t`,
/// `\u{1b}`), text between backticks cut after [`MAX_QUOTED_CHARS`] characters and the whole
/// after [`MAX_MESSAGE_CHARS`], each cut marked with `…`.
pub fn bounded(text: &str) -> std::borrow::Cow<'_, str> {
    bounded_quotes(text, MAX_QUOTED_CHARS)
}

/// A help line, bounded as [`bounded`] does except that its quotes, the command or code to
/// copy (`polyasm path/to/file.vu`), may run to the line's own limit.
pub fn bounded_help(text: &str) -> std::borrow::Cow<'_, str> {
    bounded_quotes(text, MAX_MESSAGE_CHARS)
}

fn bounded_quotes(text: &str, quote_room: usize) -> std::borrow::Cow<'_, str> {
    let plain = text.len() <= quote_room && !text.chars().any(needs_escape);
    if plain {
        return text.into();
    }
    let mut out = String::new();
    let mut total = 0;
    for (index, part) in text.split('`').enumerate() {
        if index > 0 {
            out.push('`');
            total += 1;
        }
        let room = if index % 2 == 1 { quote_room } else { MAX_MESSAGE_CHARS };
        for (shown, c) in part.chars().enumerate() {
            if shown == room || total == MAX_MESSAGE_CHARS {
                out.push('…');
                break;
            }
            push_escaped(&mut out, c);
            total += 1;
        }
        if total >= MAX_MESSAGE_CHARS {
            // A message of many short quotes is bounded too.
            if !out.ends_with('…') {
                out.push('…');
            }
            break;
        }
    }
    out.into()
}

/// How an excerpt shows a source character: control characters as their Unicode pictures
/// (`␀`, `␛`), one character each so that columns stay right; tabs stay tabs.
fn excerpt_char(c: char) -> char {
    match c {
        '\t' => '\t',
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32).expect("control pictures exist"),
        '\x7f' => '\u{2421}',
        c if needs_escape(c) => '\u{fffd}',
        c => c,
    }
}

/// A window of one source line: at most [`EXCERPT_WIDTH`] characters around a span, with
/// `…` where the line is cut and control characters shown as pictures.
struct Excerpt {
    /// What is shown.
    text: String,
    /// The bytes of the source the window covers.
    window: Range<usize>,
    /// Whether the window starts after the line does (the text starts with `…`).
    cut_start: bool,
}

impl Excerpt {
    /// The window of `line` (a byte range without its terminator) for a span from `start`:
    /// up to [`EXCERPT_CONTEXT`] characters before it, then as much as fits.
    fn new(text: &str, line: Range<usize>, start: usize) -> Excerpt {
        let next = |i: usize| i + text[i..].chars().next().map_or(1, char::len_utf8);
        let prev = |i: usize| i - text[..i].chars().next_back().map_or(1, char::len_utf8);
        let mut from = start.clamp(line.start, line.end);
        for _ in 0..EXCERPT_CONTEXT {
            if from == line.start {
                break;
            }
            from = prev(from);
        }
        let (mut to, mut shown) = (from, 0);
        while to < line.end && shown < EXCERPT_WIDTH {
            to = next(to);
            shown += 1;
        }
        // Near the end of the line, show more of what comes before.
        while from > line.start && shown < EXCERPT_WIDTH {
            from = prev(from);
            shown += 1;
        }
        let cut_start = from > line.start;
        let mut shown_text = String::with_capacity(to - from + 8);
        if cut_start {
            shown_text.push('…');
        }
        shown_text.extend(text[from..to].chars().map(excerpt_char));
        if to < line.end {
            shown_text.push('…');
        }
        Excerpt {
            text: shown_text,
            window: from..to,
            cut_start,
        }
    }

    /// The characters of the shown text that stand for source bytes `start..end`, which
    /// start inside the window; a span running past the window covers the closing `…`.
    fn chars_of(&self, text: &str, start: usize, end: usize) -> Range<usize> {
        let offset = usize::from(self.cut_start);
        let column = |at: usize| offset + text[self.window.start..at].chars().count();
        let first = column(start.clamp(self.window.start, self.window.end));
        let last = if end > self.window.end {
            column(self.window.end) + 1
        } else {
            column(end.max(start).clamp(self.window.start, self.window.end))
        };
        first..last
    }
}

/// A span clamped to char boundaries of its source: start, end, and the line it starts on
/// with that line's byte range.
fn locate(sources: &SourceMap, span: Span) -> (usize, usize, usize, Range<usize>) {
    let source = sources.get(span.source);
    let start = source.floor_char_boundary(span.start as usize);
    let end = source.floor_char_boundary(span.end as usize).max(start);
    let line = source.line_index(start);
    (start, end, line, source.line_range(line))
}

/// One excerpt line of a human report: ariadne draws each as a source of its own, so that
/// every excerpt's header names the line it shows.
struct Piece {
    source: SourceId,
    line: usize,
    excerpt: Excerpt,
    /// Where its first label starts.
    location: crate::source::LineCol,
    ariadne: ariadne::Source<String>,
}

/// ariadne's view of a report's pieces; each is named by a placeholder that the real
/// `file:line:column` replaces after drawing.
struct Pieces(Vec<Piece>);

/// Marks a piece's name in ariadne's output.
const PLACEHOLDER: char = '\u{1}';

impl ariadne::Cache<usize> for Pieces {
    type Storage = String;

    fn fetch(&mut self, id: &usize) -> Result<&ariadne::Source<String>, impl std::fmt::Debug> {
        self.0.get(*id).map(|p| &p.ariadne).ok_or("unknown excerpt")
    }

    fn display<'b>(&self, id: &'b usize) -> Option<impl std::fmt::Display + 'b> {
        Some(format!("{PLACEHOLDER}{id}{PLACEHOLDER}"))
    }
}

/// Replaces ariadne's `PLACEHOLDER id PLACEHOLDER :line:col` with the real location, and says
/// which piece the line names.
fn replace_placeholder<'l>(
    line: &'l str,
    pieces: &[Piece],
    sources: &SourceMap,
) -> (Option<usize>, std::borrow::Cow<'l, str>) {
    let Some(open) = line.find(PLACEHOLDER) else {
        return (None, line.into());
    };
    let rest = &line[open + 1..];
    let Some(close) = rest.find(PLACEHOLDER) else {
        return (None, line.into());
    };
    let Some(index) = rest[..close].parse::<usize>().ok().filter(|&i| i < pieces.len()) else {
        return (None, line.into());
    };
    let piece = &pieces[index];
    // Skip ariadne's `:line:col`.
    let after = &rest[close + 1..];
    let tail = after
        .char_indices()
        .find(|&(_, c)| c != ':' && !c.is_ascii_digit())
        .map_or("", |(i, _)| &after[i..]);
    let replaced = format!(
        "{}{}:{}{}",
        &line[..open],
        escape_controls(sources.get(piece.source).name()),
        piece.location,
        tail
    );
    (Some(index), replaced.into())
}

fn severity_color(severity: Severity) -> Color {
    match severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
    }
}

/// ariadne's framed report; diagnostics without labels get a plain header and notes.
///
/// The primary label comes first. Each label is drawn on the line it starts on (a label that
/// runs over several lines is cut at the end of its first), and each line in an excerpt of its
/// own, headed by the exact `file:line:column` of its first label.
fn render_human(diagnostic: &Diagnostic, sources: &SourceMap, color: bool) -> String {
    let header = header(diagnostic);
    let Some(primary) = diagnostic.primary_label() else {
        return render_unlabelled(diagnostic, sources, &header, color);
    };
    let labels = std::iter::once(primary).chain(diagnostic.labels.iter().filter(|l| !std::ptr::eq(*l, primary)));
    let mut pieces: Vec<Piece> = Vec::new();
    let mut placed: Vec<(usize, Range<usize>, &crate::diagnostic::Label)> = Vec::new();
    for label in labels {
        let (start, end, line, line_range) = locate(sources, label.span);
        let end = end.min(line_range.end).max(start);
        let text = sources.get(label.span.source).text();
        let fits = |p: &Piece| {
            p.source == label.span.source
                && p.line == line
                && p.excerpt.window.start <= start
                && (end <= p.excerpt.window.end || p.excerpt.window.end == line_range.end)
        };
        let index = match pieces.iter().position(fits) {
            Some(index) => index,
            None => {
                let excerpt = Excerpt::new(text, line_range.clone(), start);
                let ariadne = ariadne::Source::from(excerpt.text.clone()).with_display_line_offset(line);
                pieces.push(Piece {
                    source: label.span.source,
                    line,
                    excerpt,
                    location: sources.get(label.span.source).line_col(start),
                    ariadne,
                });
                pieces.len() - 1
            }
        };
        let chars = pieces[index].excerpt.chars_of(text, start, end);
        placed.push((index, chars, label));
    }
    let kind_color = severity_color(diagnostic.severity);
    let config = Config::default().with_color(color).with_index_type(IndexType::Char);
    let message = bounded(&diagnostic.message);
    let (first_piece, first_chars, _) = &placed[0];
    let mut report = Report::build(
        ReportKind::Custom(&header, kind_color),
        (*first_piece, first_chars.clone()),
    )
    .with_config(config)
    .with_message(&message);
    for (order, (piece, chars, label)) in placed.iter().enumerate() {
        let label_color = if label.primary { kind_color } else { Color::Blue };
        let mut l = AriadneLabel::new((*piece, chars.clone()))
            .with_color(label_color)
            .with_order(order as i32);
        if !label.message.is_empty() {
            l = l.with_message(bounded(&label.message));
        }
        report = report.with_label(l);
    }
    for note in &diagnostic.notes {
        report = report.with_note(bounded(note));
    }
    if let Some(help) = &diagnostic.help {
        report = report.with_help(bounded_help(help));
    }
    let mut out = Vec::new();
    let mut cache = Pieces(pieces);
    report
        .finish()
        .write(&mut cache, &mut out)
        .expect("writing a report into a Vec cannot fail");
    let text = String::from_utf8_lossy(&out);
    // ariadne colours a custom kind's header even with colour off, so the header is ours.
    let mut trimmed = header_line(diagnostic, &header, color);
    // ariadne 0.6 numbers every piece's line 1 in the margin (it ignores the display line
    // offset there), so the margin gets the real numbers and its width here.
    let pieces = &cache.0;
    let width = pieces.iter().map(|p| (p.line + 1).to_string().len()).max().unwrap_or(1);
    let pad = width - 1;
    let mut current = None;
    for line in text.lines().skip(1) {
        // ariadne pads some lines with trailing spaces; they only make snapshots noisy.
        let line = line.trim_end();
        let (piece, replaced) = replace_placeholder(line, pieces, sources);
        let line: &str = &replaced;
        current = piece.or(current);
        let (lead, rest) = split_margin_colour(line.strip_prefix(' ').unwrap_or(line));
        match (current, rest.strip_prefix("1 \u{2502}")) {
            (Some(piece), Some(after)) if line.starts_with(' ') => {
                let number = pieces[piece].line + 1;
                let _ = write!(trimmed, " {lead}{number:>width$} \u{2502}{after}");
            }
            _ if line.starts_with(' ') => {
                trimmed.extend(std::iter::repeat_n(' ', pad));
                trimmed.push_str(line);
            }
            _ => {
                // The closing `───╯`.
                let (lead, rest) = split_margin_colour(line);
                trimmed.push_str(lead);
                trimmed.extend(std::iter::repeat_n('\u{2500}', pad));
                trimmed.push_str(rest);
            }
        }
        trimmed.push('\n');
    }
    trimmed
}

/// Splits a leading ANSI colour sequence (`ESC [ ... m`) off `text`.
fn split_margin_colour(text: &str) -> (&str, &str) {
    match text.strip_prefix('\x1b').and_then(|rest| rest.find('m')) {
        Some(m) => text.split_at(m + 2),
        None => ("", text),
    }
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
    format!("{}: {}\n", paint(header, ansi, color), bounded(&diagnostic.message))
}

fn render_unlabelled(diagnostic: &Diagnostic, sources: &SourceMap, header: &str, color: bool) -> String {
    let mut out = header_line(diagnostic, header, color);
    let paint = |text: &str, ansi: &str| paint(text, ansi, color);
    if let Some(file) = diagnostic.file {
        let _ = writeln!(
            out,
            "  {} {}",
            paint("-->", "34"),
            escape_controls(sources.get(file).name())
        );
    }
    for note in &diagnostic.notes {
        let _ = writeln!(out, "  {} {}", paint("= note:", "1"), bounded(note));
    }
    if let Some(help) = &diagnostic.help {
        let _ = writeln!(out, "  {} {}", paint("= help:", "1"), bounded_help(help));
    }
    out
}

/// A span in rustc's JSON shape. `text` holds the line the span starts on and, if it ends on
/// another, that line too, each as the human excerpt shows it (at most [`EXCERPT_WIDTH`]
/// characters, `…` where cut); `highlight_start`/`highlight_end` are 1-based characters of that
/// text.
fn json_span(sources: &SourceMap, span: Span, primary: bool, label: &str) -> Value {
    let source = sources.get(span.source);
    let start = source.line_col(span.start as usize);
    let end = source.line_col(span.end as usize);
    let (from, to, _, line_range) = locate(sources, span);
    let mut text = Vec::new();
    let first_end = to.min(line_range.end).max(from);
    let excerpt = Excerpt::new(source.text(), line_range.clone(), from);
    let chars = excerpt.chars_of(source.text(), from, first_end);
    text.push(json!({ "text": excerpt.text, "highlight_start": chars.start + 1, "highlight_end": chars.end + 1 }));
    if end.line > start.line {
        let last = source.line_index(to);
        let last_range = source.line_range(last);
        let excerpt = Excerpt::new(source.text(), last_range.clone(), last_range.start);
        let chars = excerpt.chars_of(source.text(), last_range.start, to);
        text.push(json!({ "text": excerpt.text, "highlight_start": chars.start + 1, "highlight_end": chars.end + 1 }));
    }
    json!({
        "file_name": escape_controls(source.name()),
        "byte_start": span.start,
        "byte_end": span.end,
        "line_start": start.line,
        "line_end": end.line,
        "column_start": start.column,
        "column_end": end.column,
        "is_primary": primary,
        "text": text,
        "label": if label.is_empty() { Value::Null } else { Value::from(bounded(label)) },
        "suggested_replacement": Value::Null,
        "suggestion_applicability": Value::Null,
        "expansion": Value::Null,
    })
}

fn json_child(level: &str, message: std::borrow::Cow<'_, str>) -> Value {
    json!({ "message": message, "code": Value::Null, "level": level, "spans": [], "children": [], "rendered": Value::Null })
}

/// One diagnostic as a JSON value shaped like rustc's `--error-format=json` output.
fn render_json(diagnostic: &Diagnostic, sources: &SourceMap, codes: &dyn Explain) -> Value {
    let spans: Vec<Value> = diagnostic
        .labels
        .iter()
        .map(|l| json_span(sources, l.span, l.primary, &l.message))
        .collect();
    let mut children: Vec<Value> = diagnostic
        .notes
        .iter()
        .map(|n| json_child("note", bounded(n)))
        .collect();
    if let Some(help) = &diagnostic.help {
        children.push(json_child("help", bounded_help(help)));
    }
    json!({
        "$message_type": "diagnostic",
        "message": bounded(&diagnostic.message),
        "code": { "code": diagnostic.code, "explanation": codes.explain(diagnostic.code).map(|c| c.explanation) },
        "level": diagnostic.severity.as_str(),
        "spans": spans,
        "children": children,
        "rendered": render_human(diagnostic, sources, false),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn human(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
        render(diagnostic, sources, ErrorFormat::Human, false, &())
    }

    #[test]
    fn each_excerpt_header_names_the_line_it_shows() {
        let mut sources = SourceMap::new();
        let id = sources.add("p.vsh", "mov oD0, v3 +\nrcp r1.x, v0.x\n");
        let d = Diagnostic::error("NV2A015", "two inputs")
            .with_primary(Span::new(id, 24, 28), "reads v0")
            .with_secondary(Span::new(id, 9, 11), "reads v3");
        let text = human(&d, &sources);
        let headers: Vec<&str> = text.lines().filter(|l| l.contains("─[ ")).collect();
        assert_eq!(headers, ["   ╭─[ p.vsh:2:11 ]", "   ├─[ p.vsh:1:10 ]"], "{text}");
        let shown: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with(" 1 │") || l.starts_with(" 2 │"))
            .collect();
        assert_eq!(shown, [" 2 │ rcp r1.x, v0.x", " 1 │ mov oD0, v3 +"], "{text}");
    }

    #[test]
    fn line_numbers_keep_their_width_across_excerpts() {
        let mut sources = SourceMap::new();
        let id = sources.add("u.vsh", format!("#a vector 0\n{}#a vector 1\n", "\n".repeat(10)));
        let d = Diagnostic::error("NV2A012", "twice")
            .with_primary(Span::new(id, 22, 24), "again")
            .with_secondary(Span::new(id, 0, 2), "first");
        let text = human(&d, &sources);
        assert!(text.contains("\n 12 │ #a vector 1\n"), "{text}");
        assert!(text.contains("\n  1 │ #a vector 0\n"), "{text}");
        assert!(text.contains("    ├─[ u.vsh:1:1 ]"), "{text}");
        assert!(text.ends_with("\n────╯\n"), "{text}");
    }

    #[test]
    fn long_lines_are_cut_around_their_labels() {
        let mut sources = SourceMap::new();
        let line = format!("mov r0, {}, v0", "é".repeat(100_000));
        let id = sources.add("l.vsh", format!("\n{line}\n"));
        let at = line.len() - 2;
        let d = Diagnostic::error("NV2A001", "unexpected `v0`").with_primary(Span::new(id, 1 + at, 1 + at + 2), "here");
        for format in [ErrorFormat::Human, ErrorFormat::Short, ErrorFormat::Json] {
            let text = render(&d, &sources, format, false, &());
            assert!(text.len() < 4 * 1024, "{format:?}: {} bytes", text.len());
            assert!(
                text.contains("l.vsh:2:100011") || text.contains("\"column_start\":100011"),
                "{text}"
            );
        }
        let text = human(&d, &sources);
        assert!(text.contains(" 2 │ …éééé"), "{text}");
        assert!(text.contains("é, v0\n"), "{text}");
        // A label longer than the window is cut too, and so is the line after the window.
        let d = Diagnostic::error("NV2A005", "long").with_primary(Span::new(id, 9, 9 + 200_000), "not a register");
        let text = human(&d, &sources);
        assert!(text.len() < 4 * 1024, "{text}");
        assert!(text.contains(" 2 │ mov r0, éé"), "{text}");
        assert!(text.lines().nth(3).is_some_and(|l| l.ends_with('…')), "{text}");
    }

    #[test]
    fn messages_cut_long_quotes_and_escape_control_characters() {
        let name = "a".repeat(10_000);
        assert_eq!(
            bounded(&format!("unknown register `{name}`")),
            format!("unknown register `{}…`", "a".repeat(MAX_QUOTED_CHARS))
        );
        assert_eq!(
            bounded("unexpected `\0` or `\u{1b}[31m`"),
            "unexpected `\\0` or `\\u{1b}[31m`"
        );
        assert_eq!(bounded("short `ok`"), "short `ok`");
        assert!(bounded(&"`x` ".repeat(10_000)).chars().count() < 2 * MAX_MESSAGE_CHARS);

        let mut sources = SourceMap::new();
        let id = sources.add("n\u{7}.vu", "add r0 \0\u{1b}[2J\n");
        let d = Diagnostic::error("VU001", "unexpected `\0`").with_primary(Span::new(id, 7, 8), "expected an operand");
        for format in [ErrorFormat::Human, ErrorFormat::Short, ErrorFormat::Json] {
            let text = render(&d, &sources, format, false, &());
            assert!(!text.contains(['\0', '\u{1b}', '\u{7}']), "{format:?}: {text:?}");
            let name = if format == ErrorFormat::Json {
                r"n\\u{7}.vu"
            } else {
                r"n\u{7}.vu"
            };
            assert!(text.contains(name), "{format:?}: {text}");
        }
        assert!(human(&d, &sources).contains(" 1 │ add r0 ␀␛[2J\n"));
    }
}
