//! An open document: its text, its version, and where its lines start, so that the protocol's
//! positions (line, UTF-16 code unit) and polyasm's byte offsets convert both ways. Lines end at
//! `\n`, `\r\n` or `\r`, as the protocol counts them.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// A text with the byte offset of each line's start.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            let ends = b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
            if ends {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The position of byte `offset` of `text` (past the end: the end; inside a character: its
    /// start).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.starts.partition_point(|&start| start <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of `position` in `text`: a line past the last is the end of the text, a
    /// character past its line's end is that end, and one inside a surrogate pair is the
    /// character's start.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let line = text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (at, c) in line.char_indices() {
            units += c.len_utf16();
            if units > position.character as usize {
                return start + at;
            }
        }
        start + line.len()
    }

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
    pub text: String,
    pub version: i32,
    pub lines: Lines,
}

impl Document {
    pub fn new(text: String, version: i32) -> Document {
        let lines = Lines::new(&text);
        Document { text, version, lines }
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
