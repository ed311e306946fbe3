//! Output formats shared by every dialect: bin, hex, C array, Rust array, listing and json.
//!
//! Dialect-specific formats (nv2a `vshinc`, ...) live in their crate behind
//! [`crate::Target::write_format`] and are described by the same [`FormatInfo`].

use std::fmt::Write as _;

use serde::Serialize;

use crate::object::Object;
use crate::source::SourceMap;

/// One output format: its `-f` name, a line of description, and whether it is binary.
#[derive(Clone, Copy, Debug)]
pub struct FormatInfo {
    pub name: &'static str,
    pub description: &'static str,
    /// Binary formats are refused when standard output is a terminal.
    pub binary: bool,
    /// Whether the writer reads the object's listing (see [`crate::TargetOptions::skip_listing`]).
    pub listing: bool,
}

/// The formats every target supports.
pub static STANDARD_FORMATS: &[FormatInfo] = &[
    FormatInfo {
        name: "bin",
        description: "raw little-endian words (the default)",
        binary: true,
        listing: false,
    },
    FormatInfo {
        name: "hex",
        description: "one word per line in hex",
        binary: false,
        listing: false,
    },
    FormatInfo {
        name: "c",
        description: "a C array of uint32_t/uint16_t",
        binary: false,
        listing: false,
    },
    FormatInfo {
        name: "rust",
        description: "a Rust const array of u32/u16",
        binary: false,
        listing: false,
    },
    FormatInfo {
        name: "listing",
        description: "address, words and source line per statement",
        binary: false,
        listing: true,
    },
    FormatInfo {
        name: "json",
        description: "words, listing and symbols as one JSON object",
        binary: false,
        listing: true,
    },
];

/// What a writer knows besides the object: the sources (for listings) and names.
pub struct OutputContext<'a> {
    pub sources: &'a SourceMap,
    /// The target's canonical name, e.g. `vu`.
    pub target: &'a str,
    /// The input's display name, e.g. `examples/vu/seed.vu` or `<stdin>`.
    pub input_name: &'a str,
    /// The identifier for array formats (already a valid C and Rust identifier).
    pub symbol: &'a str,
}

/// Writes `object` in one of [`STANDARD_FORMATS`]; `None` if `format` is not one of them.
pub fn write_standard(format: &str, object: &Object, ctx: &OutputContext) -> Option<Vec<u8>> {
    Some(match format {
        "bin" => object.bytes.clone(),
        "hex" => write_hex(object).into_bytes(),
        "c" => write_c_array(object, ctx).into_bytes(),
        "rust" => write_rust_array(object, ctx).into_bytes(),
        "listing" => write_listing(object, ctx).into_bytes(),
        "json" => write_json(object, ctx).into_bytes(),
        _ => return None,
    })
}

fn hex_word(object: &Object, word: u32) -> String {
    match object.word_bytes {
        2 => format!("{word:04x}"),
        _ => format!("{word:08x}"),
    }
}

/// One word per line, lowercase, zero-padded, no prefix.
pub fn write_hex(object: &Object) -> String {
    let mut out = String::with_capacity(object.word_count() * 9);
    for word in object.words() {
        out.push_str(&hex_word(object, word));
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
        let items: Vec<String> = chunk.iter().map(|&w| format!("0x{}", hex_word(object, w))).collect();
        out.push_str(&items.join(", "));
        out.push_str(",\n");
    }
    out
}

pub fn write_c_array(object: &Object, ctx: &OutputContext) -> String {
    let ty = if object.word_bytes == 2 { "uint16_t" } else { "uint32_t" };
    format!(
        "/* Assembled by polyasm (target {}) from {}. */\n#include <stdint.h>\n\nstatic const {ty} {}[{}] = {{\n{}}};\n",
        ctx.target,
        ctx.input_name,
        ctx.symbol,
        object.word_count(),
        array_body(object)
    )
}

pub fn write_rust_array(object: &Object, ctx: &OutputContext) -> String {
    let ty = if object.word_bytes == 2 { "u16" } else { "u32" };
    format!(
        "// Assembled by polyasm (target {}) from {}.\npub const {}: [{ty}; {}] = [\n{}];\n",
        ctx.target,
        ctx.input_name,
        ctx.symbol.to_ascii_uppercase(),
        object.word_count(),
        array_body(object)
    )
}

/// The source line of a listing entry; none for words the assembler added.
fn listing_source<'a>(ctx: &'a OutputContext, entry: &crate::object::ListingEntry) -> (Option<usize>, &'a str) {
    match entry.span {
        Some(span) => {
            let source = ctx.sources.get(span.source);
            let line = source.line_index(span.start as usize);
            (Some(line + 1), source.line_text(line).trim())
        }
        None => (None, ""),
    }
}

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
    let most_words = object.listing.iter().map(|e| e.len as usize).max().unwrap_or(1) / object.word_bytes;
    let last_address = object.listing.iter().map(|e| e.address).max().unwrap_or(0);
    let columns = Columns {
        address: 4.max(format!("{last_address:x}").len()),
        words: "words".len().max(most_words.max(1) * (hex_width + 1) - 1),
        line: 4.max((text.bytes().filter(|&b| b == b'\n').count() + 1).to_string().len()),
    };
    let mut out = String::with_capacity(text.len() + object.bytes.len() * 3);
    let _ = writeln!(out, "; polyasm listing of {} (target {})", ctx.input_name, ctx.target);
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
    let mut words = String::new();
    for (index, entry) in object.listing.iter().enumerate() {
        if index == tail {
            lines.rest(&columns, &mut out);
        }
        words.clear();
        let start = entry.offset as usize;
        for (i, word) in object.words_in(start..start + entry.len as usize).enumerate() {
            if i > 0 {
                words.push(' ');
            }
            let _ = write!(words, "{word:0hex_width$x}");
        }
        let address = format!("{:0width$x}", entry.address, width = columns.address);
        let span = entry
            .span
            .filter(|span| source.is_some_and(|(id, _)| id == span.source));
        match span {
            Some(span) if span.start as usize >= lines.pos => {
                lines.until(span.start as usize, &columns, &mut out);
                let (number, line) = lines.next().map_or((String::new(), ""), |(n, l)| (n.to_string(), l));
                columns.row(&mut out, &address, &words, &number, line);
            }
            _ => {
                let (number, note) = match (entry.span, object.note(index)) {
                    (None, Some(note)) => ("-", format!("; {note}")),
                    (None, None) => ("-", String::new()),
                    (Some(_), _) => ("", String::new()),
                };
                columns.row(&mut out, &address, &words, number, &note);
            }
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
    /// The next line, without its line terminator.
    fn next(&mut self) -> Option<(usize, &'t str)> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let len = rest.find('\n').map_or(rest.len(), |i| i + 1);
        let line = rest[..len].trim_end_matches(['\n', '\r']);
        let number = self.number;
        self.pos += len;
        self.number += 1;
        Some((number, line))
    }

    /// Lists the lines before the one that holds byte `offset`.
    fn until(&mut self, offset: usize, columns: &Columns, out: &mut String) {
        while self.pos < offset {
            let rest = &self.text[self.pos..];
            match rest.find('\n') {
                // The line holding `offset` is left for the caller.
                Some(i) if self.pos + i >= offset => break,
                None => break,
                Some(_) => {}
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
    line: Option<usize>,
    source: &'a str,
    note: Option<&'static str>,
}

#[derive(Serialize)]
struct JsonSymbol<'a> {
    name: &'a str,
    value: u64,
}

pub fn write_json(object: &Object, ctx: &OutputContext) -> String {
    let listing = object
        .listing
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let start = entry.offset as usize;
            let (line, source) = listing_source(ctx, entry);
            JsonListingEntry {
                address: entry.address,
                words: object.words_in(start..start + entry.len as usize).collect(),
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
            .map(|s| JsonSymbol {
                name: &s.name,
                value: s.value,
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&value).expect("the object serialises");
    text.push('\n');
    text
}

/// Turns a file stem into an identifier valid in C and Rust (`seed-2.vu` -> `seed_2`).
pub fn symbol_from_name(name: &str) -> String {
    let stem = std::path::Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("program");
    let mut symbol: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    if symbol.is_empty() || symbol.starts_with(|c: char| c.is_ascii_digit()) || symbol == "_" {
        symbol.insert_str(0, "program_");
    }
    symbol
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_valid_identifiers() {
        assert_eq!(symbol_from_name("examples/vu/seed.vu"), "seed");
        assert_eq!(symbol_from_name("2-light.vu"), "program_2_light");
        assert_eq!(symbol_from_name("<stdin>"), "_stdin_");
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
