//! The terminal's rendering of diagnostics as HTML: ANSI colours become CSS, each
//! `file:line:col` place a link that scrolls the page's source view, each code a link to its
//! explanation.

use std::fmt::Write as _;

/// What the converter links: the file names a place may start with, and the codes.
pub struct Links<'a> {
    /// Names of the sources the report may point into, as the report writes them.
    pub files: &'a [String],
    /// The codes of the report's diagnostics.
    pub codes: &'a [&'a str],
}

/// The colour of a run of text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Style {
    bold: bool,
    dim: bool,
    /// An xterm colour number (0 to 255).
    colour: Option<u8>,
}

/// Converts `text` (with ANSI SGR colour sequences) to escaped HTML.
pub fn ansi_to_html(text: &str, links: &Links) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut style = Style::default();
    let mut run = String::new();
    let mut run_style = style;
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        run.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let sequence = after
            .strip_prefix('[')
            .and_then(|s| s.find(|c: char| !(c.is_ascii_digit() || c == ';')).map(|end| (s, end)));
        match sequence {
            Some((s, end)) if s[end..].starts_with('m') => {
                let next = apply(style, &s[..end]);
                if next != run_style && !run.is_empty() {
                    push_run(&mut out, run_style, &run, links);
                    run.clear();
                }
                if run.is_empty() {
                    run_style = next;
                }
                style = next;
                rest = &s[end + 1..];
            }
            // Not a colour: the escape character is dropped, the rest kept as text.
            _ => rest = after,
        }
    }
    run.push_str(rest);
    push_run(&mut out, run_style, &run, links);
    out
}

/// The style after the SGR parameters `params` (`1;31`, `38;5;246`, `0`).
fn apply(mut style: Style, params: &str) -> Style {
    let mut numbers = params.split(';').map(|p| p.parse::<u16>().unwrap_or(0));
    while let Some(n) = numbers.next() {
        match n {
            0 => style = Style::default(),
            1 => style.bold = true,
            2 => style.dim = true,
            22 => (style.bold, style.dim) = (false, false),
            30..=37 => style.colour = Some((n - 30) as u8),
            90..=97 => style.colour = Some((n - 90 + 8) as u8),
            39 => style.colour = None,
            38 if numbers.next() == Some(5) => {
                style.colour = numbers.next().and_then(|c| u8::try_from(c).ok());
            }
            _ => {}
        }
    }
    style
}

/// The CSS colour of an xterm colour number.
fn css_colour(n: u8) -> String {
    const BASIC: [&str; 16] = [
        "#3b3b3b", "#f1605c", "#7fcf6e", "#e5c15c", "#6aa7ff", "#d58cf0", "#5cc8d8", "#d0d0d0", "#7a7a7a", "#ff7b73",
        "#98e58a", "#f3d77a", "#8dbbff", "#e3a6f5", "#7fdbe8", "#ffffff",
    ];
    match n {
        0..=15 => BASIC[n as usize].to_string(),
        16..=231 => {
            let i = n - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * u32::from(v) };
            format!("#{:02x}{:02x}{:02x}", level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        _ => {
            let grey = 8 + 10 * u32::from(n - 232);
            format!("#{grey:02x}{grey:02x}{grey:02x}")
        }
    }
}

fn push_run(out: &mut String, style: Style, text: &str, links: &Links) {
    if text.is_empty() {
        return;
    }
    let styled = style != Style::default();
    if styled {
        out.push_str("<span");
        if style.bold || style.dim {
            out.push_str(" class=\"");
            out.push_str(match (style.bold, style.dim) {
                (true, true) => "c-bold c-dim",
                (true, false) => "c-bold",
                _ => "c-dim",
            });
            out.push('"');
        }
        if let Some(colour) = style.colour {
            let _ = write!(out, " style=\"color:{}\"", css_colour(colour));
        }
        out.push('>');
    }
    push_linked(out, text, links);
    if styled {
        out.push_str("</span>");
    }
}

/// Pushes `text` escaped, with its places and codes made links.
fn push_linked(out: &mut String, text: &str, links: &Links) {
    let mut rest = text;
    'outer: while !rest.is_empty() {
        // The earliest place or code in what is left.
        let mut best: Option<(usize, usize, Link)> = None;
        for file in links.files.iter().filter(|f| !f.is_empty()) {
            let mut from = 0;
            while let Some(found) = rest[from..].find(file.as_str()) {
                let start = from + found;
                if let Some((len, line, column)) = place_after(&rest[start + file.len()..]) {
                    if best.as_ref().is_none_or(|(s, ..)| start < *s) {
                        best = Some((start, file.len() + len, Link::Place { file, line, column }));
                    }
                    break;
                }
                from = start + file.len();
            }
        }
        for code in links.codes {
            if let Some(found) = rest.find(&format!("[{code}]")) {
                let start = found + 1;
                if best.as_ref().is_none_or(|(s, ..)| start < *s) {
                    best = Some((start, code.len(), Link::Code(code)));
                }
            }
        }
        let Some((start, len, link)) = best else {
            push_escaped(out, rest);
            break 'outer;
        };
        push_escaped(out, &rest[..start]);
        let shown = &rest[start..start + len];
        match link {
            Link::Place { file, line, column } => {
                out.push_str("<a class=\"place\" data-file=\"");
                push_escaped(out, file);
                let _ = write!(out, "\" data-line=\"{line}\" data-column=\"{column}\">");
            }
            Link::Code(code) => {
                out.push_str("<a class=\"code\" target=\"_blank\" href=\"/explain/");
                push_escaped(out, code);
                out.push_str("\">");
            }
        }
        push_escaped(out, shown);
        out.push_str("</a>");
        rest = &rest[start + len..];
    }
}

enum Link<'a> {
    Place { file: &'a str, line: u32, column: u32 },
    Code(&'a str),
}

/// `:LINE:COL` at the start of `text`: its length, the line and the column.
fn place_after(text: &str) -> Option<(usize, u32, u32)> {
    let number = |s: &str| {
        let digits = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let value = s[..digits].parse::<u32>().ok()?;
        Some((digits, value))
    };
    let after = text.strip_prefix(':')?;
    let (line_len, line) = number(after)?;
    let after = after[line_len..].strip_prefix(':')?;
    let (column_len, column) = number(after)?;
    Some((2 + line_len + column_len, line, column))
}

/// Pushes `text` with `<`, `>`, `&` and quotes escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// `text` escaped for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links<'a>(files: &'a [String], codes: &'a [&'a str]) -> Links<'a> {
        Links { files, codes }
    }

    #[test]
    fn colours_become_spans_and_text_is_escaped() {
        let html = ansi_to_html("\x1b[1;31merror[SH011]\x1b[0m: `<b>` & more", &links(&[], &[]));
        assert_eq!(
            html,
            "<span class=\"c-bold\" style=\"color:#f1605c\">error[SH011]</span>: `&lt;b&gt;` &amp; more"
        );
    }

    #[test]
    fn palette_colours_are_css() {
        let html = ansi_to_html("\x1b[38;5;246m|\x1b[0m", &links(&[], &[]));
        assert_eq!(html, "<span style=\"color:#949494\">|</span>");
        assert_eq!(css_colour(16), "#000000");
        assert_eq!(css_colour(231), "#ffffff");
    }

    #[test]
    fn places_and_codes_are_links() {
        let files = vec!["a b.sasm".to_string()];
        let html = ansi_to_html(
            "error[SH011]: x\n  [ a b.sasm:12:5 ] and a b.sasm:3",
            &links(&files, &["SH011"]),
        );
        assert!(
            html.contains("error[<a class=\"code\" target=\"_blank\" href=\"/explain/SH011\">SH011</a>]"),
            "{html}"
        );
        assert!(
            html.contains(
                "<a class=\"place\" data-file=\"a b.sasm\" data-line=\"12\" data-column=\"5\">a b.sasm:12:5</a> ]"
            ),
            "{html}"
        );
        // A name without a line and column is left as text.
        assert!(html.ends_with("and a b.sasm:3"), "{html}");
    }

    #[test]
    fn a_stray_escape_is_dropped() {
        assert_eq!(ansi_to_html("a\x1bb\x1b[", &links(&[], &[])), "ab[");
        assert_eq!(ansi_to_html("\x1b[31", &links(&[], &[])), "[31");
    }

    #[test]
    fn hostile_file_names_are_escaped_in_links() {
        let files = vec!["<x\">.mx".to_string()];
        let html = ansi_to_html("<x\">.mx:1:2", &links(&files, &[]));
        assert_eq!(
            html,
            "<a class=\"place\" data-file=\"&lt;x&quot;&gt;.mx\" data-line=\"1\" data-column=\"2\">&lt;x&quot;&gt;.mx:1:2</a>"
        );
    }
}
