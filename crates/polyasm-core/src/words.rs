//! Reading machine words back for the disassembler: binary or hex text.

use crate::diagnostic::{Diagnostic, Outcome};
use crate::explain::Code;
use crate::front::block_comment_end;
use crate::lines::line_end;
use crate::source::{SourceId, SourceMap, Span};
use crate::target::{DisasmInput, InputEncoding, TargetInfo};

/// Guesses how disassembler input is encoded: text without control characters is hex,
/// anything else binary. Programs almost always hold a zero byte, so this rarely guesses wrong;
/// `--input-format` overrides it.
pub fn detect_encoding(bytes: &[u8]) -> InputEncoding {
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')) => InputEncoding::Hex,
        _ => InputEncoding::Binary,
    }
}

/// Reads the words of disassembler input, binary or hex, for `target`; more words than its
/// machine holds is warning PA017 (everything is disassembled anyway).
pub fn read_words(sources: &SourceMap, input: &DisasmInput, target: &TargetInfo) -> Outcome<Vec<u32>> {
    let mut outcome = read_all_words(sources, input, target.word_bytes);
    if let (Some(words), Some(limit)) = (&outcome.value, target.program_limit)
        && words.len() > limit.words()
    {
        outcome.diagnostics.push(
            Diagnostic::warning(
                Code::InputTooLong,
                format!(
                    "{} holds {}; {} programs have at most {}",
                    input.name,
                    crate::text::count(words.len(), "word"),
                    target.name,
                    limit.describe()
                ),
            )
            .with_note("it is not one program for this machine; everything was disassembled anyway"),
        );
    }
    outcome
}

fn read_all_words(sources: &SourceMap, input: &DisasmInput, word_bytes: usize) -> Outcome<Vec<u32>> {
    match (input.encoding, input.text_source) {
        (InputEncoding::Hex, Some(id)) => parse_hex_words(sources, id, word_bytes),
        (InputEncoding::Hex, None) => Outcome::failed(vec![
            Diagnostic::error(
                Code::InvalidHexWord,
                format!("{} is not text, so it cannot be read as hex words", input.name),
            )
            .with_help("drop `--input-format hex` to read it as a binary"),
        ]),
        (InputEncoding::Binary, _) => binary_words(input.bytes, word_bytes, input.name),
    }
}

fn binary_words(bytes: &[u8], word_bytes: usize, name: &str) -> Outcome<Vec<u32>> {
    if !bytes.len().is_multiple_of(word_bytes) {
        return Outcome::failed(vec![
            Diagnostic::error(
                Code::PartialWord,
                format!(
                    "{name} is {} long, not a whole number of {word_bytes}-byte words",
                    crate::text::count(bytes.len(), "byte")
                ),
            )
            .with_note(match bytes.len() % word_bytes {
                1 => "the last byte is a partial word".to_string(),
                n => format!("the last {n} bytes are a partial word"),
            }),
        ]);
    }
    let words = crate::object::le_words(bytes, word_bytes).collect();
    Outcome::ok(words)
}

/// Reads hex words separated by whitespace or commas, each with an optional `0x` prefix.
/// `//`, `#` and `;` comment to the end of the line and `/* */` encloses a comment, so C
/// arrays and our own hex and vshinc outputs read back as they are.
pub fn parse_hex_words(sources: &SourceMap, id: SourceId, word_bytes: usize) -> Outcome<Vec<u32>> {
    let text = sources.get(id).text();
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut diagnostics = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' {
            i += 1;
        } else if b == b'#' || b == b';' || bytes[i..].starts_with(b"//") {
            i = line_end(bytes, i);
        } else if bytes[i..].starts_with(b"/*") {
            match block_comment_end(bytes, i) {
                Some(end) => i = end,
                None => {
                    diagnostics.push(
                        Diagnostic::error(Code::InvalidHexWord, "unterminated `/*` comment")
                            .with_primary(Span::new(id, i, i + 2), "comment starts here"),
                    );
                    break;
                }
            }
        } else {
            let start = i;
            i += 1;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b',' | b'/' | b'#' | b';') {
                i += 1;
            }
            // A token can end inside a multi-byte character only if it holds one; widen to it.
            while !text.is_char_boundary(i) {
                i += 1;
            }
            let token = &text[start..i];
            let digits = token
                .strip_prefix("0x")
                .or_else(|| token.strip_prefix("0X"))
                .unwrap_or(token);
            let span = Span::new(id, start, i);
            // `from_str_radix` takes a leading `+`, which is not a hex digit.
            let parsed = u64::from_str_radix(digits, 16)
                .ok()
                .filter(|_| !digits.starts_with('+'));
            // Hex digits past 64 bits are a number too large, not a bad token.
            let all_digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_hexdigit());
            match parsed {
                Some(value) if value < 1u64 << (word_bytes * 8) => words.push(value as u32),
                None if !all_digits => diagnostics.push(
                    Diagnostic::error(Code::InvalidHexWord, format!("`{token}` is not a hex word"))
                        .with_primary(span, "expected hex digits")
                        .with_help("write one word per token, like `0x0000003f` or `3f`"),
                ),
                _ => diagnostics.push(
                    Diagnostic::error(
                        Code::InvalidHexWord,
                        format!("`{token}` does not fit in a {}-bit word", word_bytes * 8),
                    )
                    .with_primary(span, "too large"),
                ),
            }
        }
    }
    Outcome::new(words, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str, word_bytes: usize) -> Outcome<Vec<u32>> {
        let mut sources = SourceMap::new();
        let id = sources.add("t.hex", text);
        parse_hex_words(&sources, id, word_bytes)
    }

    #[test]
    fn reads_hex_with_prefixes_commas_and_comments() {
        let words = hex("/* ld */ 0x00000440, 3f // end\n# x\n; y\nDEADBEEF", 4)
            .value
            .unwrap();
        assert_eq!(words, [0x440, 0x3f, 0xdead_beef]);
    }

    #[test]
    fn reports_bad_and_oversized_tokens_with_spans() {
        let outcome = hex("12 zz 1ffff / é +3f", 2);
        assert!(outcome.value.is_none());
        let spans: Vec<_> = outcome.diagnostics.iter().map(|d| d.labels[0].span.range()).collect();
        assert_eq!(spans, [3..5, 6..11, 12..13, 14..16, 17..20]);
        assert_eq!(outcome.diagnostics[4].message, "`+3f` is not a hex word");
    }

    #[test]
    fn hex_digits_past_64_bits_are_too_large_not_bad() {
        let long = "f".repeat(17);
        let outcome = hex(&format!("{long} 0x{long}"), 4);
        let messages: Vec<_> = outcome.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                format!("`{long}` does not fit in a 32-bit word"),
                format!("`0x{long}` does not fit in a 32-bit word")
            ]
        );
    }

    #[test]
    fn detects_text_and_binary() {
        assert_eq!(detect_encoding(b"0x3f\n"), InputEncoding::Hex);
        assert_eq!(detect_encoding(&[0x3f, 0, 0, 0]), InputEncoding::Binary);
        assert_eq!(detect_encoding(&[0xff, 0xfe]), InputEncoding::Binary);
    }

    #[test]
    fn binary_needs_whole_words() {
        assert_eq!(binary_words(&[0x3f, 0, 0, 0], 4, "a").value.unwrap(), [0x3f]);
        assert_eq!(binary_words(&[1, 2, 3], 4, "a").diagnostics[0].code, "PA004");
    }
}
