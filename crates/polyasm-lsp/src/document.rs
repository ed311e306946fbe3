//! An open document: its text, its version, and where its lines start, so that the protocol's
//! positions (line, UTF-16 code unit) and polyasm's byte offsets convert both ways. Lines end at
//! `\n`, `\r\n` or `\r`, as the protocol counts them.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// A text with the byte offset of each line's start, and for each line that is not ASCII the
/// UTF-16 column at every `STEP` bytes, so that a position and an offset convert in time
/// bounded by `STEP` however long the line.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
    /// For each line that is not ASCII (by index, in order): (byte offset, UTF-16 column)
    /// at its start and at the first character boundary at or after every [`STEP`] bytes.
    wide: Vec<(usize, Vec<(usize, u32)>)>,
}

/// How many bytes apart the columns of a line that is not ASCII are kept.
const STEP: usize = 256;

impl Lines {
    /// The line starts of `text`, and the columns of its lines that are not ASCII.
    pub fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends {
                starts.push(i + 1);
            }
        }
        let mut wide = Vec::new();
        for (line, &start) in starts.iter().enumerate() {
            let end = starts.get(line + 1).copied().unwrap_or(text.len());
            if text.as_bytes()[start..end].is_ascii() {
                continue;
            }
            let mut marks = vec![(start, 0)];
            let mut units = 0u32;
            for (at, c) in text[start..end].char_indices() {
                if at >= marks.len() * STEP {
                    marks.push((start + at, units));
                }
                units += c.len_utf16() as u32;
            }
            wide.push((line, marks));
        }
        Lines { starts, wide }
    }

    /// The columns kept of `line`, when it is not ASCII.
    fn marks(&self, line: usize) -> Option<&[(usize, u32)]> {
        let at = self.wide.binary_search_by_key(&line, |(l, _)| *l).ok()?;
        Some(&self.wide[at].1)
    }

    /// The position of byte `offset` of `text` (past the end: the end; inside a character: its
    /// start).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let start = self.starts[line];
        let character = match self.marks(line) {
            None => (offset - start) as u32,
            Some(marks) => {
                let (from, units) = marks[marks.partition_point(|(at, _)| *at <= offset) - 1];
                units + text[from..offset].chars().map(|c| c.len_utf16() as u32).sum::<u32>()
            }
        };
        Position::new(line as u32, character)
    }

    /// The line byte `offset` is on.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// The byte offset of `position` in `text`: a line past the last is the end of the text, a
    /// character past its line's end is that end, and one inside a surrogate pair is the
    /// character's start.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let line_index = position.line as usize;
        let Some(&start) = self.starts.get(line_index) else {
            return text.len();
        };
        let end = self.starts.get(line_index + 1).copied().unwrap_or(text.len());
        let line = text[start..end].trim_end_matches(['\n', '\r']);
        let wanted = position.character as usize;
        let Some(marks) = self.marks(line_index) else {
            return start + wanted.min(line.len());
        };
        let (from, mut units) = marks[marks.partition_point(|(_, u)| *u as usize <= wanted) - 1];
        for (at, c) in text[from..start + line.len()].char_indices() {
            units += c.len_utf16() as u32;
            if units as usize > wanted {
                return from + at;
            }
        }
        start + line.len()
    }

    /// The protocol's range (UTF-16 columns) of the byte range `bytes` of `text`.
    pub fn range(&self, text: &str, bytes: std::ops::Range<usize>) -> Range {
        Range::new(self.position(text, bytes.start), self.position(text, bytes.end))
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A document the editor holds open.
#[derive(Clone, Debug)]
pub struct Document {
    /// The text as the editor last sent it.
    pub text: String,
    /// The version the editor gave with it.
    pub version: i32,
    /// Where the lines of `text` start, for converting positions.
    pub lines: Lines,
}

impl Document {
    /// A document opened with `text` at `version`.
    pub fn new(text: String, version: i32) -> Document {
        let lines = Lines::new(&text);
        Document { text, version, lines }
    }

    /// The text of line `line` without its line break (empty past the last line).
    pub fn line(&self, line: u32) -> &str {
        let start = self.lines.offset(&self.text, Position::new(line, 0));
        let end = self.text[start..]
            .find(['\n', '\r'])
            .map_or(self.text.len(), |i| start + i);
        &self.text[start..end]
    }

    /// Applies the editor's changes in order: a change with a range replaces that range, one
    /// without replaces the whole text.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let start = self.lines.offset(&self.text, range.start);
                    let end = self.lines.offset(&self.text, range.end).max(start);
                    self.text.replace_range(start..end, &change.text);
                }
                None => self.text = change.text,
            }
            self.lines = Lines::new(&self.text);
        }
        self.version = version;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Positions counted the slow way: every character from the start of the text.
    fn naive_position(text: &str, offset: usize) -> Position {
        let (mut line, mut character, mut after_cr) = (0, 0, false);
        for (at, c) in text.char_indices() {
            if at >= offset {
                break;
            }
            match c {
                '\n' if after_cr => {}
                '\n' | '\r' => (line, character) = (line + 1, 0),
                _ => character += c.len_utf16() as u32,
            }
            after_cr = c == '\r';
        }
        Position::new(line, character)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn positions_and_offsets_agree_with_counting_every_character(
            pieces in proptest::collection::vec(prop_oneof!["a", "é", "😀", "\n", "\r", "\r\n", "bcd"], 0..400),
            repeat in 1usize..4,
        ) {
            let text = pieces.concat().repeat(repeat);
            let lines = Lines::new(&text);
            for offset in text.char_indices().map(|(at, _)| at).chain([text.len()]) {
                // Between the `\r` and the `\n` of a line break is no place in the text.
                if text[..offset].ends_with('\r') && text[offset..].starts_with('\n') {
                    continue;
                }
                let position = lines.position(&text, offset);
                prop_assert_eq!(position, naive_position(&text, offset), "offset {}", offset);
                prop_assert_eq!(lines.offset(&text, position), offset, "position {:?}", position);
            }
        }
    }

    #[test]
    fn a_long_line_with_wide_characters_converts_without_counting_from_its_start() {
        let text = format!("{}\n{}", "😀x".repeat(10_000), "é".repeat(3));
        let lines = Lines::new(&text);
        let last = "😀x".len() * 9_999;
        assert_eq!(lines.position(&text, last), Position::new(0, 3 * 9_999));
        assert_eq!(lines.offset(&text, Position::new(0, 3 * 9_999)), last);
        assert_eq!(
            lines.offset(&text, Position::new(0, 3 * 9_999 + 1)),
            last,
            "inside the pair"
        );
        assert_eq!(lines.offset(&text, Position::new(1, 99)), text.len());
        assert_eq!(lines.offset(&text, Position::new(5, 0)), text.len());
    }
}
