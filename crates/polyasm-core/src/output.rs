//! Output formats shared by every dialect: bin, hex, C array, Rust array, listing and json.
//!
//! Dialect-specific formats (nv2a `vshinc`, ...) live in their crate behind
//! [`crate::Target::write_format`] and are described by the same [`FormatInfo`].

use std::borrow::Cow;
use std::fmt::Write as _;

use serde::Serialize;

use crate::object::Object;
use crate::source::SourceMap;

/// One output format: its `-f` name, a line of description, and whether it is binary.
#[derive(Clone, Copy, Debug)]
pub struct FormatInfo {
    /// The name `-f` takes: `bin`, `hex`, `listing`.
    pub name: &'static str,
    /// What the format is, in one line for the help of `-f`.
    pub description: &'static str,
    /// Binary formats are refused when standard output is a terminal.
    pub binary: bool,
    /// Whether the writer reads the object's listing (see [`crate::TargetOptions::skip_listing`]).
    pub listing: bool,
    /// Output file extensions that choose this format when `-f` is not given (lower case).
    pub extensions: &'static [&'static str],
    /// A program to run: the file written is executable.
    pub executable: bool,
}

/// The formats every target supports.
pub static STANDARD_FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "bin",
        description: "raw little-endian words (the default)",
        binary: true,
        listing: false,
        extensions: &["bin"],
        executable: false,
    },
    FormatInfo {
        name: "hex",
        description: "one word per line in hex",
        binary: false,
        listing: false,
        extensions: &["hex"],
        executable: false,
    },
    FormatInfo {
        name: "c",
        description: "a C array of uint32_t/uint16_t",
        binary: false,
        listing: false,
        extensions: &["c", "h"],
        executable: false,
    },
    FormatInfo {
        name: "rust",
        description: "a Rust const array of u32/u16",
        binary: false,
        listing: false,
        extensions: &["rs"],
        executable: false,
    },
    FormatInfo {
        name: "listing",
        description: "address, words and source line per statement",
        binary: false,
        listing: true,
        extensions: &["lst"],
        executable: false,
    },
    FormatInfo {
        name: "json",
        description: "words, listing and symbols as one JSON object",
        binary: false,
        listing: true,
        extensions: &["json"],
        executable: false,
    },
];

/// What a writer knows besides the object: the sources (for listings) and names.
pub struct OutputContext<'a> {
    /// Every source of the run, to quote the statements a listing lists.
    pub sources: &'a SourceMap,
    /// The target's canonical name, e.g. `vu`.
    pub target: &'a str,
    /// The input's display name, e.g. `examples/vu/seed.vu` or `<stdin>`.
    pub input_name: &'a str,
    /// The identifier for array formats (already a valid C and Rust identifier).
    pub symbol: &'a str,
}

/// Writes `object` in one of [`STANDARD_FORMATS`]; `None` if `format` is not one of them.
/// `bin` is the object's own bytes, not a copy.
pub fn write_standard<'o>(format: &str, object: &'o Object, ctx: &OutputContext) -> Option<Cow<'o, [u8]>> {
    Some(match format {
        "bin" => Cow::Borrowed(&object.bytes),
        "hex" => write_hex(object).into_bytes().into(),
        "c" => write_c_array(object, ctx).into_bytes().into(),
        "rust" => write_rust_array(object, ctx).into_bytes().into(),
        "listing" => write_listing(object, ctx).into_bytes().into(),
        "json" => write_json(object, ctx).into_bytes().into(),
        _ => return None,
    })
}

/// Appends `word` in lowercase hex, zero-padded to the object's word size.
fn push_hex_word(out: &mut String, object: &Object, word: u32) {
    let _ = write!(out, "{word:0width$x}", width = object.word_bytes * 2);
}

/// One word per line, lowercase, zero-padded, no prefix.
pub fn write_hex(object: &Object) -> String {
    let mut out = String::with_capacity(object.word_count() * 9);
    for word in object.words() {
        push_hex_word(&mut out, object, word);
        out.push('\n');
    }
    out
}

fn array_body(object: &Object) -> String {
    let mut out = String::new();
    let per_line = if object.word_bytes == 2 { 8 } else { 4 };
    let words: Vec<u32> = object.words().collect();
    for chunk in words.chunks(per_line) {
        out.push_str("    ");
        for (i, &word) in chunk.iter().enumerate() {
            out.push_str(if i == 0 { "0x" } else { ", 0x" });
            push_hex_word(&mut out, object, word);
        }
        out.push_str(",\n");
    }
    out
}

/// A C array of the words. C has no zero-length arrays, so an empty program is an array of one
/// 0 word, which the comment says is not part of the program.
pub fn write_c_array(object: &Object, ctx: &OutputContext) -> String {
    let ty = if object.word_bytes == 2 { "uint16_t" } else { "uint32_t" };
    let (empty_note, length, body) = match object.word_count() {
        0 => (
            "\n/* The program is empty; C has no empty arrays, so this one holds a 0 that is not part of it. */",
            1,
            "    0,\n".to_string(),
        ),
        n => ("", n, array_body(object)),
    };
    format!(
        "/* Assembled by polyasm (target {}) from {}. */{empty_note}\n#include <stdint.h>\n\nstatic const {ty} {}[{length}] = {{\n{body}}};\n",
        comment_text(ctx.target),
        comment_text(ctx.input_name),
        ctx.symbol,
    )
}

/// A Rust `pub const` array of the words (`u16` or `u32`), named [`OutputContext::symbol`].
pub fn write_rust_array(object: &Object, ctx: &OutputContext) -> String {
    let ty = if object.word_bytes == 2 { "u16" } else { "u32" };
    format!(
        "// Assembled by polyasm (target {}) from {}.\npub const {}: [{ty}; {}] = [\n{}];\n",
        comment_text(ctx.target),
        comment_text(ctx.input_name),
        ctx.symbol.to_ascii_uppercase(),
        object.word_count(),
        array_body(object)
    )
}

/// `text` made safe inside a C `/* */` or a Rust `//` comment: characters that compilers reject
/// or that reorder what is shown are escaped ([`crate::text::push_escaped`]: `\n`,
/// `\u{202e}`), and `*/` and `/*` are broken up with a backslash, so a file name can neither end
/// the comment nor hide code.
pub fn comment_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '/' if out.ends_with('*') => out.push_str("\\/"),
            '*' if out.ends_with('/') => out.push_str("\\*"),
            c => crate::text::push_escaped(&mut out, c),
        }
    }
    out
}

/// The 1-based line a span starts on, and that line's text.
fn span_source<'a>(ctx: &'a OutputContext, span: Option<crate::source::Span>) -> (Option<usize>, &'a str) {
    match span {
        Some(span) => {
            let source = ctx.sources.get(span.source);
            let line = source.line_index(span.start as usize);
            (Some(line + 1), source.line_text(line).trim())
        }
        None => (None, ""),
    }
}

/// The most words a listing row shows; a longer entry goes on over the rows below it.
pub const LISTING_WORDS_PER_ROW: usize = 8;

/// The listing: every line of the source in order, as GNU as `-a` prints it. A line that
/// produced words shows their address and words before its number and text; the words of
/// further statements of one line (a macro's expansion) follow on rows of their own, and the
/// other lines of a statement over several lines (nv2a pairs) show their text only. Words the
/// assembler adds show their note, after the last source line when they end the program.
///
/// ```text
/// ; addr  words                                line  source
/// 0000    00000000 0240081b 1436186c 2f20f824     2  mul r2, r1, c0 + mov oD1, v4
/// ```
pub fn write_listing(object: &Object, ctx: &OutputContext) -> String {
    let source = object
        .source
        .or_else(|| object.listing.iter().find_map(|e| e.span.map(|s| s.source)))
        .map(|id| (id, ctx.sources.get(id)));
    let text = source.map_or("", |(_, s)| s.text());
    let hex_width = object.word_bytes * 2;
    let most_words = (object.listing.iter().map(|e| e.len as usize).max().unwrap_or(1) / object.word_bytes)
        .min(LISTING_WORDS_PER_ROW);
    let last_address = object.listing.iter().map(|e| e.address).max().unwrap_or(0);
    let columns = Columns {
        address: 4.max(format!("{last_address:x}").len()),
        words: "words".len().max(most_words.max(1) * (hex_width + 1) - 1),
        line: 4.max(source.map_or(1, |(_, s)| s.line_count()).to_string().len()),
    };
    let mut out = String::with_capacity(text.len() + object.bytes.len() * 3);
    let _ = writeln!(
        out,
        "; polyasm listing of {} (target {})",
        comment_text(ctx.input_name),
        ctx.target
    );
    // The titles start where their columns do, but the address's: `; ` comes first.
    let _ = writeln!(
        out,
        "; {:<aw$}{:<ww$}  {:>lw$}  source",
        "addr",
        "words",
        "line",
        aw = columns.address + 2,
        ww = columns.words,
        lw = columns.line
    );
    // The words the program ends with that no line wrote are listed after the last line.
    let tail = object
        .listing
        .iter()
        .rposition(|e| e.span.is_some())
        .map_or(0, |last| last + 1);
    let mut lines = SourceLines {
        text,
        pos: 0,
        number: 1,
    };
    let mut rows: Vec<String> = Vec::new();
    for (index, entry) in object.listing.iter().enumerate() {
        if index == tail {
            lines.rest(&columns, &mut out);
        }
        rows.clear();
        let start = entry.offset as usize;
        for (i, word) in object.words_in(start..start + entry.len as usize).enumerate() {
            if i % LISTING_WORDS_PER_ROW == 0 {
                rows.push(String::new());
            }
            let row = rows.last_mut().expect("a row was started for this word");
            if !row.is_empty() {
                row.push(' ');
            }
            let _ = write!(row, "{word:0hex_width$x}");
        }
        let words = rows.first().map_or("", String::as_str);
        let address = format!("{:0width$x}", entry.address, width = columns.address);
        let span = entry
            .span
            .filter(|span| source.is_some_and(|(id, _)| id == span.source));
        match span {
            Some(span) if span.start as usize >= lines.pos => {
                lines.until(span.start as usize, &columns, &mut out);
                let (number, line) = lines.next().map_or((String::new(), ""), |(n, l)| (n.to_string(), l));
                columns.row(&mut out, &address, words, &number, line);
            }
            _ => {
                let (number, note) = match (entry.span, object.note(index)) {
                    (None, Some(note)) => ("-", format!("; {note}")),
                    (None, None) => ("-", String::new()),
                    // A line of an included file: after the directive that included it, where
                    // it is and its text.
                    (Some(other), _) if source.is_some_and(|(id, _)| id != other.source) => {
                        if let Some((main, _)) = source
                            && let Some(directive) = ctx.sources.include_chain(other.source).find(|s| s.source == main)
                        {
                            lines.through(directive.end as usize, &columns, &mut out);
                        }
                        let (line, text) = span_source(ctx, Some(other));
                        let name = comment_text(ctx.sources.get(other.source).name());
                        ("", format!("; {name}:{}: {text}", line.unwrap_or(0)))
                    }
                    (Some(_), _) => ("", String::new()),
                };
                columns.row(&mut out, &address, words, number, &note);
            }
        }
        // A long entry (a header, a data section) goes on over rows of its own.
        for row in rows.iter().skip(1) {
            columns.row(&mut out, "", row, "", "");
        }
        // The other lines of a statement over several lines.
        if let Some(span) = span {
            lines.through(span.end as usize, &columns, &mut out);
        }
    }
    if tail == object.listing.len() {
        lines.rest(&columns, &mut out);
    }
    out
}

/// The widths of a listing's columns.
struct Columns {
    address: usize,
    words: usize,
    line: usize,
}

impl Columns {
    /// One row, without trailing spaces.
    fn row(&self, out: &mut String, address: &str, words: &str, line: &str, text: &str) {
        let _ = write!(
            out,
            "{address:<aw$}    {words:<ww$}  {line:>lw$}  {text}",
            aw = self.address,
            ww = self.words,
            lw = self.line
        );
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
}

/// The lines of a source, taken in order: a listing reads the text once.
struct SourceLines<'t> {
    text: &'t str,
    /// Byte offset of the next line.
    pos: usize,
    /// Its 1-based number.
    number: usize,
}

impl<'t> SourceLines<'t> {
    /// The next line, without its line break (LF, CRLF or CR, as the line index reads them).
    fn next(&mut self) -> Option<(usize, &'t str)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let bytes = self.text.as_bytes();
        let end = crate::lines::line_end(bytes, self.pos);
        let line = &self.text[self.pos..end];
        let number = self.number;
        self.pos = end + crate::lines::line_break_len(bytes, end);
        self.number += 1;
        Some((number, line))
    }

    /// Lists the lines before the one that holds byte `offset`.
    fn until(&mut self, offset: usize, columns: &Columns, out: &mut String) {
        while self.pos < offset {
            let end = crate::lines::line_end(self.text.as_bytes(), self.pos);
            // The line holding `offset` (or the last line) is left for the caller.
            if end >= offset || end == self.text.len() {
                break;
            }
            let (number, line) = self.next().expect("pos is inside the text");
            columns.row(out, "", "", &number.to_string(), line);
        }
    }

    /// Lists the lines that start before byte `offset`.
    fn through(&mut self, offset: usize, columns: &Columns, out: &mut String) {
        while self.pos < offset {
            let (number, line) = self.next().expect("pos is inside the text");
            columns.row(out, "", "", &number.to_string(), line);
        }
    }

    /// Lists every line left.
    fn rest(&mut self, columns: &Columns, out: &mut String) {
        while let Some((number, line)) = self.next() {
            columns.row(out, "", "", &number.to_string(), line);
        }
    }
}

/// The `json` format: the object with its listing resolved to source lines.
#[derive(Serialize)]
struct JsonObject<'a> {
    target: &'a str,
    input: &'a str,
    word_bytes: usize,
    words: Vec<u32>,
    listing: Vec<JsonListingEntry<'a>>,
    symbols: Vec<JsonSymbol<'a>>,
}

#[derive(Serialize)]
struct JsonListingEntry<'a> {
    address: u32,
    words: Vec<u32>,
    /// The file of `line` and `source` when it is not the input (an included file).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    line: Option<usize>,
    source: &'a str,
    note: Option<&'static str>,
}

#[derive(Serialize)]
struct JsonSymbol<'a> {
    name: &'a str,
    value: u64,
    size: u64,
    kind: &'a str,
    /// The declaration's file when it is not the input (an included file).
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    /// The declaration's line and text.
    line: Option<usize>,
    source: &'a str,
}

/// The `json` format: the words, each statement's words with its line and text, and the
/// symbols, as one JSON object.
pub fn write_json(object: &Object, ctx: &OutputContext) -> String {
    let main = object
        .source
        .or_else(|| object.listing.iter().find_map(|e| e.span.map(|s| s.source)));
    // The name of a span's file when it is not the input's.
    let file = |span: Option<crate::source::Span>| {
        span.filter(|s| Some(s.source) != main)
            .map(|s| ctx.sources.get(s.source).name())
    };
    let listing = object
        .listing
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let start = entry.offset as usize;
            let (line, source) = span_source(ctx, entry.span);
            JsonListingEntry {
                address: entry.address,
                words: object.words_in(start..start + entry.len as usize).collect(),
                file: file(entry.span),
                line,
                source,
                note: object.note(index),
            }
        })
        .collect();
    let value = JsonObject {
        target: ctx.target,
        input: ctx.input_name,
        word_bytes: object.word_bytes,
        words: object.words().collect(),
        listing,
        symbols: object
            .symbols
            .iter()
            .map(|s| {
                let (line, source) = span_source(ctx, s.span);
                JsonSymbol {
                    name: &s.name,
                    value: s.value,
                    size: s.size,
                    kind: s.kind,
                    file: file(s.span),
                    line,
                    source,
                }
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&value).expect("the object serialises");
    text.push('\n');
    text
}

/// Turns a file stem into an array name (see [`is_array_name`]): `seed-2.vu` -> `seed_2`,
/// `2-light.vu` -> `program_2_light`, `int.vu` -> `int_`.
pub fn symbol_from_name(name: &str) -> String {
    let stem = std::path::Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("program");
    array_name_from(stem)
}

/// The closest array name to any text: other characters become `_`, a name that would start
/// with a digit or `_` gets `program_` in front, and a reserved word gets `_` after it.
pub fn array_name_from(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name = match name.trim_start_matches('_') {
            "" => "program".to_string(),
            rest => format!("program_{rest}"),
        };
    }
    if reserved_in_c(&name) {
        name.push('_');
    }
    name
}

/// Whether `name` can name the array of the `c` and `rust` formats: an ASCII identifier in both
/// languages (the Rust one is upper-cased), not a C or C++ keyword, and none of the names C
/// reserves or `<stdint.h>` defines. A leading `_` is refused too: C reserves such names at
/// file scope, and `_` alone is no Rust constant.
pub fn is_array_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !reserved_in_c(name)
}

/// Names an array may not have: the keywords of C23 and C++23, `std` (the namespace C++'s
/// `<stdint.h>` declares), the macros GCC predefines without an underscore in its default GNU
/// modes (`linux`, `unix`, `i386`: each would turn the array's name into `1`), the names
/// `<stdint.h>` declares or defines, and `main`.
fn reserved_in_c(name: &str) -> bool {
    /// C23 (6.4.1), with the spellings it keeps from C11 (`_Bool`).
    const C23_KEYWORDS: &[&str] = &[
        "alignas",
        "alignof",
        "auto",
        "bool",
        "break",
        "case",
        "char",
        "const",
        "constexpr",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "false",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "nullptr",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "struct",
        "switch",
        "thread_local",
        "true",
        "typedef",
        "typeof",
        "typeof_unqual",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
        "_Alignas",
        "_Alignof",
        "_Atomic",
        "_BitInt",
        "_Bool",
        "_Complex",
        "_Decimal128",
        "_Decimal32",
        "_Decimal64",
        "_Generic",
        "_Imaginary",
        "_Noreturn",
        "_Static_assert",
        "_Thread_local",
    ];
    /// C++23 ([lex.key]: the keywords, then the alternative tokens of [lex.digraph]).
    const CPP23_KEYWORDS: &[&str] = &[
        "alignas",
        "alignof",
        "asm",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char8_t",
        "char16_t",
        "char32_t",
        "class",
        "concept",
        "const",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "continue",
        "co_await",
        "co_return",
        "co_yield",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "and",
        "and_eq",
        "bitand",
        "bitor",
        "compl",
        "not",
        "not_eq",
        "or",
        "or_eq",
        "xor",
        "xor_eq",
    ];
    /// Not keywords, but names a C or C++ compiler gives a meaning of its own at file scope.
    const OTHER: &[&str] = &["std", "linux", "unix", "i386", "main"];
    const STDINT_MACRO_PREFIXES: &[&str] = &["INT", "UINT", "PTRDIFF_", "SIG_ATOMIC_", "SIZE_", "WCHAR_", "WINT_"];
    const STDINT_MACRO_SUFFIXES: &[&str] = &["_MIN", "_MAX", "_C", "_WIDTH"];
    let stdint_type = (name.starts_with("int") || name.starts_with("uint")) && name.ends_with("_t");
    let stdint_macro = STDINT_MACRO_PREFIXES.iter().any(|p| name.starts_with(p))
        && STDINT_MACRO_SUFFIXES.iter().any(|s| name.ends_with(s));
    // `main` is the function of the program the array is included in.
    let listed = [C23_KEYWORDS, CPP23_KEYWORDS, OTHER]
        .iter()
        .any(|list| list.contains(&name));
    listed || stdint_type || stdint_macro
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    #[test]
    fn symbols_are_valid_identifiers() {
        assert_eq!(symbol_from_name("examples/vu/seed.vu"), "seed");
        assert_eq!(symbol_from_name("2-light.vu"), "program_2_light");
        assert_eq!(symbol_from_name("<stdin>"), "program_stdin_");
        assert_eq!(symbol_from_name("int.vu"), "int_");
        assert_eq!(symbol_from_name("uint32_t.vu"), "uint32_t_");
        assert_eq!(symbol_from_name("INT8_MAX.vu"), "INT8_MAX_");
        assert_eq!(symbol_from_name("__x.vu"), "program_x");
        assert_eq!(symbol_from_name("main.vsh"), "main_");
        assert_eq!(symbol_from_name("std.vu"), "std_");
        assert_eq!(symbol_from_name("linux.vu"), "linux_");
        assert_eq!(symbol_from_name("co_await.vu"), "co_await_");
        assert_eq!(symbol_from_name("typeof_unqual.vu"), "typeof_unqual_");
        assert_eq!(array_name_from(""), "program");
        assert_eq!(array_name_from("1 bad-name"), "program_1_bad_name");
        for name in ["seed", "a1", "int_", "Program_2"] {
            assert!(is_array_name(name), "{name}");
        }
        for name in [
            "", "_", "_x", "1a", "bad-name", "int", "static", "class", "uint8_t", "SIZE_MAX", "é", "std", "unix",
            "xor_eq", "char8_t",
        ] {
            assert!(!is_array_name(name), "{name}");
        }
    }

    #[test]
    fn comments_hold_any_file_name() {
        assert_eq!(comment_text("a*/b/*c"), "a*\\/b/\\*c");
        assert_eq!(comment_text("x\ny\r\u{202e}"), "x\\ny\\r\\u{202e}");
        assert_eq!(comment_text("**//"), "**\\//");
    }

    #[test]
    fn lines_of_included_files_name_their_file_in_the_listing_and_json() {
        let mut sources = SourceMap::new();
        let main = sources.add("main.x", "one\ninclude\ntwo\n");
        let lib = sources
            .try_add_included(
                "lib/a.x".into(),
                None,
                "first\n  second\n".into(),
                Span::new(main, 4, 11),
            )
            .expect("small");
        let mut object = Object::new(4);
        object.source = Some(main);
        object.push(0, &[1], Some(Span::new(main, 0, 3)), None);
        object.push(1, &[2], Some(Span::new(lib, 8, 14)), None);
        object.push(2, &[3], Some(Span::new(main, 12, 15)), None);
        let ctx = OutputContext {
            sources: &sources,
            target: "x",
            input_name: "main.x",
            symbol: "main",
        };
        let listing = write_listing(&object, &ctx);
        let rows: Vec<&str> = listing.lines().skip(2).collect();
        assert_eq!(
            rows,
            [
                "0000    00000001     1  one",
                "                     2  include",
                "0001    00000002        ; lib/a.x:2: second",
                "0002    00000003     3  two",
            ],
            "{listing}"
        );
        let json: serde_json::Value = serde_json::from_str(&write_json(&object, &ctx)).expect("JSON");
        assert_eq!(json["listing"][1]["file"], "lib/a.x");
        assert_eq!(json["listing"][1]["line"], 2);
        assert_eq!(json["listing"][1]["source"], "second");
        assert!(json["listing"][0].get("file").is_none());
    }

    #[test]
    fn hex_and_arrays_print_every_word() {
        let object = Object::from_words(&[0x440, 0x3f, 1, 2, 3]);
        let sources = SourceMap::new();
        let ctx = OutputContext {
            sources: &sources,
            target: "vu",
            input_name: "a.vu",
            symbol: "a",
        };
        assert_eq!(write_hex(&object), "00000440\n0000003f\n00000001\n00000002\n00000003\n");
        let c = write_c_array(&object, &ctx);
        assert!(c.contains(
            "static const uint32_t a[5] = {\n    0x00000440, 0x0000003f, 0x00000001, 0x00000002,\n    0x00000003,\n};"
        ));
        let rust = write_rust_array(&object, &ctx);
        assert!(rust.contains("pub const A: [u32; 5] = ["));
        assert!(write_standard("nope", &object, &ctx).is_none());
    }
}
