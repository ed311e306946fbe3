//! Small text helpers every dialect's lexer and encoder share.

use crate::diagnostic::Diagnostic;
use crate::explain::Code;
use crate::source::{SourceId, SourceMap, Span};

/// FNV-1a: a fast hash for the short names an assembler looks up per line (uniforms, labels),
/// where the standard library's DoS-resistant SipHash costs more than the rest of the lookup.
#[derive(Clone, Copy, Debug)]
pub struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> Self {
        NameHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for NameHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A map keyed by names, hashed with [`NameHasher`].
pub type NameMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<NameHasher>>;

/// The UTF-8 byte-order mark some editors put at the start of a text file.
pub const BOM: &str = "\u{feff}";

/// `text` without a UTF-8 byte-order mark at its start. Readers of source and data files call
/// this before handing the text on, so that the mark is neither a stray character nor a column.
pub fn skip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// [`skip_bom`] in place, for text read into a `String`.
pub fn strip_bom(text: &mut String) {
    if text.starts_with(BOM) {
        text.drain(..BOM.len());
    }
}

/// What bytes that are not UTF-8 look like, for the help line of PA002.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotUtf8Kind {
    /// Starts with a UTF-16 byte-order mark.
    Utf16,
    /// Holds a zero byte, or more than one byte in eight is a control character or not UTF-8:
    /// machine code or another binary file.
    Binary,
    /// Text with a few stray bytes: a legacy encoding (Latin-1, Windows-1252) or a stray byte.
    Text,
}

/// Classifies bytes that failed to read as UTF-8, in one pass.
pub fn not_utf8_kind(bytes: &[u8]) -> NotUtf8Kind {
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) || looks_like_utf16(bytes) {
        return NotUtf8Kind::Utf16;
    }
    let mut odd = 0usize;
    for chunk in bytes.utf8_chunks() {
        for &b in chunk.valid().as_bytes() {
            match b {
                0 => return NotUtf8Kind::Binary,
                b'\t' | b'\n' | b'\r' | b'\x0c' => {}
                0x01..=0x1f | 0x7f => odd += 1,
                _ => {}
            }
        }
        odd += chunk.invalid().len();
    }
    if odd > bytes.len() / 8 {
        NotUtf8Kind::Binary
    } else {
        NotUtf8Kind::Text
    }
}

/// Whether `bytes` look like UTF-16 without a byte-order mark: in their first kilobytes, zero
/// bytes fill at least half of the odd places (little-endian) or of the even places
/// (big-endian) and none of the others, as Latin text in UTF-16 does. Machine code has zeros in
/// both.
pub fn looks_like_utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096) & !1];
    if head.is_empty() {
        return false;
    }
    let zeros = |parity: usize| head.iter().skip(parity).step_by(2).filter(|&&b| b == 0).count();
    let (even, odd) = (zeros(0), zeros(1));
    let half = head.len() / 4;
    (odd > 0 && odd >= half && even == 0) || (even > 0 && even >= half && odd == 0)
}

/// PA002 for `text`, UTF-8 that is UTF-16 without a byte-order mark (Latin text in UTF-16 is
/// UTF-8 with a zero byte in every other place), pointing at its first zero byte as
/// [`not_utf8_diagnostic`] does; other text is given back.
pub fn utf16_without_bom(sources: &mut SourceMap, name: &str, text: String) -> Result<String, Diagnostic> {
    undecodable_utf16(text, not_utf8_error(name), |text| sources.try_add(name, text))
}

/// The bytes of a source named `name` as its text: UTF-8 without a leading byte-order mark.
/// Bytes that are not UTF-8 (or UTF-8 that is UTF-16 without a mark) are PA002 at their first
/// invalid byte, whose line is added to `sources` to be shown.
pub fn source_text(sources: &mut SourceMap, name: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    let mut text = String::from_utf8(bytes).map_err(|e| not_utf8_diagnostic(sources, name, e))?;
    strip_bom(&mut text);
    utf16_without_bom(sources, name, text)
}

/// The head of PA002 for a source named `name`.
fn not_utf8_error(name: &str) -> Diagnostic {
    Diagnostic::error(Code::InputNotUtf8, format!("{name} is not UTF-8 text"))
}

/// `diagnostic`, pointing at the first zero byte of `text`, when `text` looks like UTF-16
/// without a byte-order mark; `text` itself otherwise. `add` registers the shown text.
pub(crate) fn undecodable_utf16(
    text: String,
    diagnostic: Diagnostic,
    add: impl FnOnce(String) -> Result<SourceId, String>,
) -> Result<String, Diagnostic> {
    if !looks_like_utf16(text.as_bytes()) {
        return Ok(text);
    }
    let offset = text.bytes().position(|b| b == 0).expect("UTF-16 text has a zero byte");
    Err(undecodable(text.into_bytes(), offset, Some(1), diagnostic, add))
}

/// How much of the line of the first invalid byte a PA002 diagnostic shows past that byte.
pub const NOT_UTF8_SHOWN: usize = 4096;

/// PA002 for a source named `name` whose bytes are not UTF-8, pointing at the first invalid
/// byte: the text up to the end of that byte's line (at most [`NOT_UTF8_SHOWN`] bytes past it,
/// invalid sequences shown as U+FFFD) is added to `sources`, so the diagnostic has a line, a
/// column and an excerpt. The help line suggests `polyasm disasm` only for bytes that look like
/// machine code. Linear in the input, and the added text is at most the input's length and a
/// few kilobytes.
pub fn not_utf8_diagnostic(sources: &mut SourceMap, name: &str, error: std::string::FromUtf8Error) -> Diagnostic {
    not_utf8_at(error, not_utf8_error(name), |text| sources.try_add(name, text))
}

/// `diagnostic` with the label, help line and excerpt that [`not_utf8_diagnostic`] gives,
/// for bytes that are not UTF-8; `add` registers the shown text as a source (an included
/// file's, so that its "included from" notes follow).
pub(crate) fn not_utf8_at(
    error: std::string::FromUtf8Error,
    diagnostic: Diagnostic,
    add: impl FnOnce(String) -> Result<SourceId, String>,
) -> Diagnostic {
    let offset = error.utf8_error().valid_up_to();
    let bad_len = error.utf8_error().error_len();
    let bytes = error.into_bytes();
    // UTF-16 without a mark: the first zero byte, before the first invalid one, shows it.
    match bytes[..offset].iter().position(|&b| b == 0) {
        Some(zero) if looks_like_utf16(&bytes) => undecodable(bytes, zero, Some(1), diagnostic, add),
        _ => undecodable(bytes, offset, bad_len, diagnostic, add),
    }
}

/// `diagnostic` for `bytes`, which cannot be read as source from `offset` on: `bad_len` bytes
/// there are wrong, or (`None`) a character is cut off by the end.
fn undecodable(
    mut bytes: Vec<u8>,
    offset: usize,
    bad_len: Option<usize>,
    diagnostic: Diagnostic,
    add: impl FnOnce(String) -> Result<SourceId, String>,
) -> Diagnostic {
    let kind = not_utf8_kind(&bytes);
    let bad = &bytes[offset..offset + bad_len.unwrap_or(bytes.len() - offset).min(4)];
    let shown = bad.iter().map(|b| format!("{b:#04x}")).collect::<Vec<_>>().join(" ");
    let label = match (bad_len, bad.len()) {
        (None, _) => format!("{shown}: a character cut off by the end of the file (offset {offset})"),
        (Some(_), 1) if bad == [0] => format!("a zero byte (offset {offset}), as in UTF-16 text"),
        (Some(_), 1) => format!("byte {shown} (offset {offset}) is not UTF-8"),
        (Some(_), _) => format!("bytes {shown} (offset {offset}) are not UTF-8"),
    };
    let help = match kind {
        NotUtf8Kind::Utf16 => "the file looks like UTF-16 text; sources are UTF-8: save it as UTF-8",
        NotUtf8Kind::Binary => "sources are UTF-8 text; to turn machine code back into source use `polyasm disasm`",
        NotUtf8Kind::Text => {
            "sources are UTF-8 text: save the file as UTF-8 (it may be in a legacy encoding such as Latin-1), or remove the byte"
        }
    };
    let diagnostic = diagnostic.with_help(help);
    let line_end = bytes[offset..]
        .iter()
        .take(NOT_UTF8_SHOWN)
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or((offset + NOT_UTF8_SHOWN).min(bytes.len()), |i| offset + i);
    let rest = String::from_utf8_lossy(&bytes[offset..line_end]).into_owned();
    bytes.truncate(offset);
    let mut text = String::from_utf8(bytes).expect("the bytes before the first invalid one are UTF-8");
    strip_bom(&mut text);
    let start = text.len();
    let end = start + rest.chars().next().map_or(0, char::len_utf8);
    text.push_str(&rest);
    match add(text) {
        Ok(id) => diagnostic.with_primary(Span::new(id, start, end), label),
        Err(_) => diagnostic.with_note(label),
    }
}

/// Characters a terminal would act on or hide, and that compilers reject in comments: control
/// characters, line and paragraph separators, the byte-order mark, and the bidirectional
/// controls that reorder what is shown.
pub fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
                | '\u{feff}'
        )
}

/// Pushes `c`, escaped as `\0`, `\t`, `\n`, `\r` or `\u{1b}` if [`needs_escape`] says so.
pub fn push_escaped(out: &mut String, c: char) {
    if !needs_escape(c) {
        out.push(c);
        return;
    }
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        _ => {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `text` with the characters of [`needs_escape`] escaped: how file names and user text
/// appear in messages and comments.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out.into()
}

/// `n` and the noun, singular for one: `1 word`, `2 words`, `0 words`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `a`, `a or b`, `a, b or c`: alternatives for an "expected ..." message, sorted, once each.
pub fn list_alternatives(mut items: Vec<String>) -> String {
    items.sort();
    items.dedup();
    match items.as_slice() {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Names longer than this many characters get no "did you mean": a typo in a longer name is
/// not worth the search, and the bound keeps each comparison small.
pub const MAX_SUGGESTED_LEN: usize = 64;

/// The edit distance (insertions, deletions, substitutions) between `a` and `b` if it is at
/// most `limit`, else `None`. Only a band of `2 * limit + 1` cells per row is computed and the
/// search stops as soon as every cell of a row exceeds `limit`, so one call costs
/// `O(min(len) * limit)`.
pub fn edit_distance_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if b.len() - a.len() > limit {
        return None;
    }
    const FAR: usize = usize::MAX / 2;
    // row[j] is the distance between a[..i] and b[..j]; cells outside the band stay FAR.
    let mut row: Vec<usize> = (0..=b.len()).map(|j| if j <= limit { j } else { FAR }).collect();
    for (i, &ca) in a.iter().enumerate() {
        let i = i + 1;
        let from = i.saturating_sub(limit).max(1);
        let to = (i + limit).min(b.len());
        let mut diagonal = row[from - 1];
        row[from - 1] = if from == 1 && i <= limit { i } else { FAR };
        let mut best = row[from - 1];
        for j in from..=to {
            let substitution = diagonal + usize::from(ca != b[j - 1]);
            diagonal = row[j];
            row[j] = substitution.min(row[j - 1] + 1).min(row[j] + 1);
            best = best.min(row[j]);
        }
        if to < b.len() {
            row[to + 1] = FAR;
        }
        if best > limit {
            return None;
        }
    }
    Some(row[b.len()]).filter(|&d| d <= limit)
}

/// The candidate closest to `word`, if it is close enough to be a plausible typo: at most a
/// third of its characters edited, or a candidate the word starts with (`addx` -> `add`).
///
/// Linear in the candidates: words longer than [`MAX_SUGGESTED_LEN`] characters get no
/// suggestion, candidates whose length differs too much are skipped without comparing them,
/// and the others are compared with [`edit_distance_within`].
pub fn suggest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut unlimited = usize::MAX;
    suggest_within(word, candidates, &mut unlimited)
}

/// [`suggest`], charging `cells` for the work: one per candidate looked at and the most cells
/// of each edit-distance table. When they run out, the best candidate found so far is the
/// answer.
fn suggest_within<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>, cells: &mut usize) -> Option<&'a str> {
    // A char is at most 4 bytes: the byte length bounds the work before counting.
    if word.len() > 4 * MAX_SUGGESTED_LEN {
        return None;
    }
    let lower: Vec<char> = word.chars().map(|c| c.to_ascii_lowercase()).collect();
    if lower.len() > MAX_SUGGESTED_LEN {
        return None;
    }
    let limit = (lower.len() / 3).max(1);
    let mut chars = Vec::with_capacity(MAX_SUGGESTED_LEN);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let cost = 1 + (lower.len() + 1) * (2 * limit + 1);
        if *cells < cost {
            *cells = 0;
            break;
        }
        *cells -= 1;
        if candidate.len() > 4 * MAX_SUGGESTED_LEN {
            continue;
        }
        chars.clear();
        chars.extend(candidate.chars());
        let distance = if chars.len() > 1 && lower.starts_with(&chars) {
            // The edit distance to a prefix is the length of the rest.
            Some(lower.len() - chars.len())
        } else if chars.len().abs_diff(lower.len()) > limit {
            None
        } else {
            *cells -= cost - 1;
            edit_distance_within(&lower, &chars, limit)
        };
        if let Some(distance) = distance
            && best.is_none_or(|(d, _)| distance < d)
        {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Bounds the "did you mean" work of one file whose candidates grow with the input (uniform
/// names, which a file may declare by the thousand): all its lookups share a budget of
/// comparison work proportional to the size of the file, so that they stay linear in the input
/// however many names are declared and misspelt. Once it is spent, no more suggestions.
#[derive(Clone, Debug)]
pub struct SuggestionBudget {
    cells: usize,
}

impl SuggestionBudget {
    /// Edit-distance cells any file may spend.
    pub const BASE: usize = 1 << 22;
    /// Cells more per byte of input.
    pub const PER_BYTE: usize = 16;

    /// The budget of an input of `len` bytes.
    pub fn new(len: usize) -> SuggestionBudget {
        SuggestionBudget {
            cells: SuggestionBudget::BASE.saturating_add(len.saturating_mul(SuggestionBudget::PER_BYTE)),
        }
    }

    /// Whether the budget is spent: no more suggestions, so candidates need not be gathered.
    pub fn is_spent(&self) -> bool {
        self.cells == 0
    }

    /// [`suggest`], while the budget lasts.
    pub fn suggest<'a>(&mut self, word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
        if self.cells == 0 {
            return None;
        }
        suggest_within(word, candidates, &mut self.cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The diagnostic for `bytes`, which must not be UTF-8; its span's line, column and text.
    fn not_utf8(bytes: &[u8]) -> (Diagnostic, Option<(usize, usize, String)>) {
        let error = String::from_utf8(bytes.to_vec()).expect_err("the bytes are not UTF-8");
        let mut sources = SourceMap::new();
        let d = not_utf8_diagnostic(&mut sources, "in.vsh", error);
        let at = d.primary_label().map(|label| {
            let source = sources.get(label.span.source);
            let lc = source.line_col(label.span.start as usize);
            (lc.line, lc.column, source.text().to_string())
        });
        (d, at)
    }

    #[test]
    fn a_stray_byte_is_pointed_at_by_line_and_column_without_disasm() {
        let (d, at) = not_utf8(b"mov oPos, v0\n// caf\xe9 au lait\nmov oD0, v3\n");
        assert_eq!(d.code, "PA002");
        assert_eq!(d.message, "in.vsh is not UTF-8 text");
        let (line, column, text) = at.expect("a span");
        assert_eq!((line, column), (2, 7));
        // The shown text ends with the line of the byte.
        assert_eq!(text, "mov oPos, v0\n// caf\u{fffd} au lait");
        assert_eq!(d.labels[0].message, "byte 0xe9 (offset 19) is not UTF-8");
        assert!(!d.help.as_deref().unwrap().contains("disasm"), "{:?}", d.help);
    }

    #[test]
    fn a_byte_order_mark_is_no_column_and_a_long_line_is_cut() {
        let mut bytes = b"\xef\xbb\xbfab\xff".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 3 * NOT_UTF8_SHOWN));
        let (_, at) = not_utf8(&bytes);
        let (line, column, text) = at.expect("a span");
        assert_eq!((line, column), (1, 3));
        assert_eq!(text.len(), 2 + 3 + NOT_UTF8_SHOWN - 1);
    }

    #[test]
    fn only_bytes_that_look_binary_get_the_disasm_help() {
        let disasm = |bytes: &[u8]| not_utf8(bytes).0.help.unwrap().contains("polyasm disasm");
        assert!(disasm(b"\x1b\x00\x00\x00\xff\xff\xff\xff"));
        assert!(disasm(&[0x80u8; 64]));
        // A control character or an invalid byte in more than one byte in eight.
        let mut noisy = b"ld r0 0\n".repeat(4);
        noisy.extend([0x01, 0x02, 0x03, 0x04, 0xff]);
        assert!(disasm(&noisy));
        let mut latin1 = b"// r\xe9sum\xe9 du programme\n".repeat(8);
        latin1.extend(b"mov oPos, v0\n");
        assert!(!disasm(&latin1));
        assert_eq!(not_utf8_kind(&latin1), NotUtf8Kind::Text);
        assert_eq!(not_utf8_kind(b"\xff\xfem\x00o\x00v\x00"), NotUtf8Kind::Utf16);
        assert!(not_utf8(b"\xfe\xff\x00m").0.help.unwrap().contains("UTF-16"));
    }

    #[test]
    fn utf16_without_a_mark_is_told_from_machine_code() {
        let wide = |text: &str, le: bool| -> Vec<u8> {
            text.encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect()
        };
        assert!(looks_like_utf16(&wide("mov oPos, v0\n", true)));
        assert!(looks_like_utf16(&wide("mov oPos, v0\n", false)));
        assert!(!looks_like_utf16(b"mov oPos, v0\n"));
        assert!(!looks_like_utf16(&[0x1b, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00]));
        assert!(!looks_like_utf16(b""));
        // Invalid UTF-8 in UTF-16 text points at the first zero byte, not the invalid one.
        let (d, at) = not_utf8(&wide("ld r0 0 // caf\u{e9}\n", true));
        assert_eq!(at.map(|(line, column, _)| (line, column)), Some((1, 2)));
        assert_eq!(d.labels[0].message, "a zero byte (offset 1), as in UTF-16 text");
        assert!(d.help.unwrap().contains("UTF-16"));
    }

    #[test]
    fn a_character_cut_off_at_the_end_says_so() {
        let (d, at) = not_utf8(b"end // \xe2\x82");
        assert_eq!(at.map(|(line, column, _)| (line, column)), Some((1, 8)));
        assert_eq!(
            d.labels[0].message,
            "0xe2 0x82: a character cut off by the end of the file (offset 7)"
        );
    }

    #[test]
    fn counts_and_articles_agree_with_the_noun() {
        assert_eq!(count(1, "word"), "1 word");
        assert_eq!(count(0, "word"), "0 words");
        assert_eq!(count(3, "more error"), "3 more errors");
    }

    #[test]
    fn skips_only_a_leading_byte_order_mark() {
        assert_eq!(skip_bom("\u{feff}ld r0 0"), "ld r0 0");
        assert_eq!(skip_bom("ld\u{feff}"), "ld\u{feff}");
        assert_eq!(skip_bom(""), "");
    }

    #[test]
    fn name_maps_hash_with_fnv_1a() {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = NameHasher::default();
        hasher.write(b"a");
        // The published FNV-1a 64-bit value of "a".
        assert_eq!(hasher.finish(), 0xaf63_dc4c_8601_ec8c);
        let build = std::hash::BuildHasherDefault::<NameHasher>::default();
        assert_ne!(build.hash_one("#mvp"), build.hash_one("#mvq"));
        let mut map = NameMap::default();
        map.insert("#light", 12);
        assert_eq!(map.get("#light"), Some(&12));
        assert_eq!(map.get("#Light"), None);
    }

    #[test]
    fn lists_alternatives_in_prose() {
        assert_eq!(list_alternatives(vec![]), "something else");
        assert_eq!(list_alternatives(vec!["b".into(), "a".into(), "b".into()]), "a or b");
        assert_eq!(list_alternatives(vec!["c".into(), "a".into(), "b".into()]), "a, b or c");
    }

    #[test]
    fn suggests_close_names_only() {
        let ops = ["ld", "ldc", "add", "mulm", "atan2"];
        assert_eq!(suggest("mul", ops), Some("mulm"));
        assert_eq!(suggest("ADD", ops), Some("add"));
        assert_eq!(suggest("atan3", ops), Some("atan2"));
        assert_eq!(suggest("frobnicate", ops), None);
        assert_eq!(suggest("addx", ops), Some("add"));
    }

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn bounded_edit_distance_agrees_with_the_full_one_within_its_limit() {
        let within = |a: &str, b: &str, limit| edit_distance_within(&chars(a), &chars(b), limit);
        assert_eq!(within("kitten", "sitting", 3), Some(3));
        assert_eq!(within("kitten", "sitting", 2), None);
        assert_eq!(within("sitting", "kitten", 5), Some(3));
        assert_eq!(within("", "abc", 3), Some(3));
        assert_eq!(within("abc", "", 2), None);
        assert_eq!(within("flaw", "lawn", 2), Some(2));
        assert_eq!(within("é", "e", 1), Some(1));
        // Every pair of short words over a small alphabet, against the textbook table.
        fn full(a: &[char], b: &[char]) -> usize {
            let mut row: Vec<usize> = (0..=b.len()).collect();
            for (i, ca) in a.iter().enumerate() {
                let mut diagonal = row[0];
                row[0] = i + 1;
                for (j, cb) in b.iter().enumerate() {
                    let substitution = diagonal + usize::from(ca != cb);
                    diagonal = row[j + 1];
                    row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
                }
            }
            row[b.len()]
        }
        let words: Vec<Vec<char>> = (0..200u32)
            .map(|n| {
                (0..n % 6)
                    .map(|i| ['a', 'b', 'c'][((n / 6 + i * 7) % 3) as usize])
                    .collect()
            })
            .collect();
        for a in &words {
            for b in &words {
                let distance = full(a, b);
                for limit in 0..5 {
                    let expected = (distance <= limit).then_some(distance);
                    assert_eq!(edit_distance_within(a, b, limit), expected, "{a:?} {b:?} {limit}");
                }
            }
        }
    }

    #[test]
    fn absurd_names_get_no_suggestion_and_short_ones_still_do() {
        let long = format!("#{}", "a".repeat(20_000));
        let typo = format!("{long}b");
        assert_eq!(suggest(&typo, [long.as_str(), "#ab"]), None);
        let name = format!("#{}", "light_".repeat(10));
        let typo = name.replacen("light", "lihgt", 1);
        assert_eq!(suggest(&typo, [name.as_str(), "#mvp"]), Some(name.as_str()));
        // Thousands of similar names: the budget runs out, and then nothing is compared.
        let names: Vec<String> = (0..5000).map(|i| format!("#light_{i:04}_{}", "x".repeat(40))).collect();
        let mut budget = SuggestionBudget::new(0);
        let mut found = 0;
        for name in &names {
            let typo = name.replace("light", "lihgt");
            if budget.suggest(&typo, names.iter().map(String::as_str)).is_some() {
                found += 1;
            }
        }
        assert!(found > 0 && found < 10, "{found} suggestions");
        assert_eq!(budget.suggest("#mvq", ["#mvp"]), None);
        assert_eq!(SuggestionBudget::new(100).suggest("#mvq", ["#mvp"]), Some("#mvp"));
    }
}
