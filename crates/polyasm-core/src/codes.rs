//! Every diagnostic code declared once: the [`codes!`](crate::codes!) macro, and the reader of
//! the markdown files (`docs/codes/<dialect>.md`) that hold the codes' explanations.
//!
//! A dialect writes one row per code: the variant its errors name, the code, the severity and
//! the title. The explanation is the section of the dialect's markdown file headed
//! `## CODE: title`; its lines, each trimmed, are joined with single spaces into one paragraph,
//! which is the text `polyasm explain CODE` wraps and the JSON renderer embeds.

use std::collections::HashMap;

use crate::diagnostic::Severity;

/// One stable code: what it is called and a paragraph on what it means and how to fix it.
#[derive(Clone, Copy, Debug)]
pub struct CodeInfo {
    /// The code as messages and `polyasm explain` write it, e.g. `VU002`.
    pub code: &'static str,
    /// Whether the code is reported as an error or as a warning (which `-W` may promote or
    /// silence).
    pub severity: Severity,
    /// A few words on what went wrong, the heading of the code's section in the docs.
    pub title: &'static str,
    /// One paragraph on what the code means and how to fix it: the text of its `## CODE: title`
    /// section ([`Section::text`]).
    pub explanation: &'static str,
}

/// Declares a set of diagnostic codes, each once, and generates what reads them.
///
/// ```
/// polyasm_core::codes! {
///     /// The codes of a small dialect.
///     pub enum Code, explained in "../tests/codes.md" {
///         Syntax = "DEMO001", Error, "syntax error";
///         Unused = "DEMO002", Warning, "value never read";
///     }
/// }
///
/// assert_eq!(Code::Syntax.as_str(), "DEMO001");
/// assert_eq!(Code::Unused.severity(), polyasm_core::Severity::Warning);
/// assert_eq!(Code::table()[1].title, "value never read");
/// assert!(Code::Syntax.explanation().starts_with("A statement"));
/// let diagnostic = polyasm_core::Diagnostic::error(Code::Syntax, "unexpected `,`");
/// assert_eq!(diagnostic.code, "DEMO001");
/// ```
///
/// The enum gets one variant per row and:
/// - `as_str` (also `From<Code> for &'static str`, so `Diagnostic::error(Code::Syntax, ..)`
///   takes it, and `Display`), `severity`, `title` and `explanation`;
/// - `ALL`, every variant in the declared order, and `find`, a case-insensitive lookup by code;
/// - `table`, the [`CodeInfo`] rows that `Target::codes`, `polyasm explain` and the JSON
///   renderer read, built from the rows and the markdown on first use;
/// - `EXPLANATIONS`, the markdown file (the path is relative to the invoking file, as for
///   `include_str!`), and `ROWS`, the rows without their explanations, which
///   [`check`] holds against each other.
#[macro_export]
macro_rules! codes {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident, explained in $docs:literal {
            $( $variant:ident = $code:literal, $severity:ident, $title:literal; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( #[doc = $title] $variant, )*
        }

        impl $name {
            /// Every code, in the declared order (the order `polyasm explain` lists them in).
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The markdown file with one `## CODE: title` section per code.
            pub const EXPLANATIONS: &'static str = include_str!($docs);

            /// The declared rows, with empty explanations.
            pub const ROWS: &'static [$crate::CodeInfo] = &[$(
                $crate::CodeInfo {
                    code: $code,
                    severity: $crate::Severity::$severity,
                    title: $title,
                    explanation: "",
                },
            )*];

            /// The stable code, such as `VU002`.
            pub const fn as_str(self) -> &'static str {
                Self::ROWS[self as usize].code
            }

            /// Whether the code is reported as an error or as a warning.
            pub const fn severity(self) -> $crate::Severity {
                Self::ROWS[self as usize].severity
            }

            /// The title `polyasm explain` prints after the code.
            pub const fn title(self) -> &'static str {
                Self::ROWS[self as usize].title
            }

            /// The paragraph `polyasm explain` prints.
            pub fn explanation(self) -> &'static str {
                Self::table()[self as usize].explanation
            }

            /// The code named `code`, in any letter case.
            pub fn find(code: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(code))
            }

            /// Every code with its explanation, in the declared order.
            pub fn table() -> &'static [$crate::CodeInfo] {
                static TEXTS: ::std::sync::OnceLock<::std::vec::Vec<::std::string::String>> =
                    ::std::sync::OnceLock::new();
                static TABLE: ::std::sync::OnceLock<::std::vec::Vec<$crate::CodeInfo>> =
                    ::std::sync::OnceLock::new();
                TABLE.get_or_init(|| {
                    let texts = TEXTS.get_or_init(|| $crate::codes::explanations(Self::EXPLANATIONS, Self::ROWS));
                    $crate::codes::explained(Self::ROWS, texts)
                })
            }
        }

        impl ::std::convert::From<$name> for &'static str {
            fn from(code: $name) -> &'static str {
                code.as_str()
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::cmp::PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl ::std::cmp::PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }
    };
}

/// One `## CODE: title` section of a markdown file of explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section<'a> {
    /// The code before the colon of the heading, e.g. `VU002`.
    pub code: &'a str,
    /// The title after the colon of the heading, trimmed.
    pub title: &'a str,
    /// The 1-based line of the heading.
    pub line: usize,
    /// The lines after the heading, up to the next section.
    pub body: Vec<&'a str>,
}

impl Section<'_> {
    /// The explanation: the body's lines, each trimmed, the blank ones left out, joined with
    /// single spaces.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for line in self.body.iter().map(|l| l.trim()).filter(|l| !l.is_empty()) {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(line);
        }
        text
    }

    /// Whether the body is one paragraph: no blank line between two lines of text.
    fn is_one_paragraph(&self) -> bool {
        let lines: Vec<&str> = self.body.iter().map(|l| l.trim()).collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let last = lines.iter().rposition(|l| !l.is_empty());
        match (first, last) {
            (Some(first), Some(last)) => lines[first..=last].iter().all(|l| !l.is_empty()),
            _ => false,
        }
    }
}

/// The sections of `markdown`, in order; what comes before the first `## ` heading (the
/// file's title and introduction) belongs to none. A heading without `: ` has an empty title.
pub fn sections(markdown: &str) -> Vec<Section<'_>> {
    let mut sections: Vec<Section<'_>> = Vec::new();
    for (index, line) in markdown.lines().enumerate() {
        if let Some(heading) = line.strip_prefix("## ") {
            let (code, title) = heading.split_once(": ").unwrap_or((heading, ""));
            sections.push(Section {
                code: code.trim(),
                title: title.trim(),
                line: index + 1,
                body: Vec::new(),
            });
        } else if let Some(section) = sections.last_mut() {
            section.body.push(line);
        }
    }
    sections
}

/// The explanation of each of `rows`, in order, from `markdown` (empty for a code without a
/// section, which [`check`] reports).
pub fn explanations(markdown: &str, rows: &[CodeInfo]) -> Vec<String> {
    let sections = sections(markdown);
    let by_code: HashMap<&str, &Section<'_>> = sections.iter().map(|s| (s.code, s)).collect();
    rows.iter()
        .map(|row| by_code.get(row.code).map(|s| s.text()).unwrap_or_default())
        .collect()
}

/// `rows` with the explanations `texts` (one per row, in order).
pub fn explained(rows: &[CodeInfo], texts: &'static [String]) -> Vec<CodeInfo> {
    rows.iter()
        .zip(texts)
        .map(|(row, text)| CodeInfo {
            explanation: text,
            ..*row
        })
        .collect()
}

/// The codes as a Markdown table for a dialect's page (its generated `codes` region, see
/// [`crate::table::check_doc_regions`]): each code with its title, warnings marked.
pub fn markdown(rows: &[CodeInfo]) -> String {
    let mut out = String::from("| code | meaning |\n|---|---|\n");
    for row in rows {
        let warning = if row.severity == Severity::Warning {
            " (warning)"
        } else {
            ""
        };
        out.push_str(&format!(
            "| {} | {}{warning} |\n",
            row.code,
            row.title.replace('|', "\\|")
        ));
    }
    out
}

/// What is wrong between a declaration's `rows` and its `markdown`: a code declared twice, a
/// code without a section or with more than one, a section of no declared code, a title that
/// differs from the declared one, a section that is not one paragraph of text. Empty when they
/// agree.
pub fn check(rows: &[CodeInfo], markdown: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let sections = sections(markdown);
    let mut declared: HashMap<&str, &CodeInfo> = HashMap::new();
    for row in rows {
        if declared.insert(row.code, row).is_some() {
            problems.push(format!("{} is declared twice", row.code));
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for section in &sections {
        if let Some(first) = seen.insert(section.code, section.line) {
            problems.push(format!(
                "line {}: {} has a second section (the first is on line {first})",
                section.line, section.code
            ));
        }
        match declared.get(section.code) {
            None => problems.push(format!(
                "line {}: `## {}` is the section of no declared code",
                section.line, section.code
            )),
            Some(row) if row.title != section.title => problems.push(format!(
                "line {}: the title of {} is `{}` in its section but `{}` where it is declared",
                section.line, section.code, section.title, row.title
            )),
            Some(_) => {}
        }
        if !section.is_one_paragraph() {
            problems.push(format!(
                "line {}: the section of {} must be one paragraph of text",
                section.line, section.code
            ));
        }
        if section.body.iter().any(|line| line.trim().contains("  ")) {
            problems.push(format!(
                "line {}: the section of {} has a run of spaces inside a line, which the JSON \
                 output would show",
                section.line, section.code
            ));
        }
    }
    for row in rows {
        if !seen.contains_key(row.code) {
            problems.push(format!("{} has no `## {}: {}` section", row.code, row.code, row.title));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Severity;

    const ROWS: &[CodeInfo] = &[
        CodeInfo {
            code: "T001",
            severity: Severity::Error,
            title: "first",
            explanation: "",
        },
        CodeInfo {
            code: "T002",
            severity: Severity::Warning,
            title: "second",
            explanation: "",
        },
    ];

    #[test]
    fn a_section_is_its_lines_trimmed_and_joined_with_spaces() {
        let markdown = "# Codes\n\nIntro.\n\n## T001: first\n\nOne `a`  b,\n  two\nthree.\n\n## T002: second\nOnly.\n";
        assert_eq!(explanations(markdown, ROWS), ["One `a`  b, two three.", "Only."]);
        // The run of spaces inside a line is kept, and `check` refuses it.
        assert_eq!(
            check(ROWS, markdown),
            ["line 5: the section of T001 has a run of spaces inside a line, which the JSON output would show"]
        );
        assert_eq!(check(ROWS, &markdown.replace("`a`  b", "`a` b")), Vec::<String>::new());
    }

    #[test]
    fn the_markdown_table_lists_every_code_and_marks_warnings() {
        assert_eq!(
            markdown(ROWS),
            "| code | meaning |\n|---|---|\n| T001 | first |\n| T002 | second (warning) |\n"
        );
    }

    #[test]
    fn check_names_every_disagreement() {
        let markdown = "## T001: frist\nText.\n\n## T001: first\nAgain.\n\n## T003: third\nText.\n\nMore.\n";
        assert_eq!(
            check(ROWS, markdown),
            [
                "line 1: the title of T001 is `frist` in its section but `first` where it is declared",
                "line 4: T001 has a second section (the first is on line 1)",
                "line 7: `## T003` is the section of no declared code",
                "line 7: the section of T003 must be one paragraph of text",
                "T002 has no `## T002: second` section",
            ]
        );
        let twice = [ROWS[0], ROWS[0]];
        assert_eq!(check(&twice, "## T001: first\nText.\n"), ["T001 is declared twice"]);
        assert_eq!(explanations("", ROWS), ["", ""]);
    }
}
