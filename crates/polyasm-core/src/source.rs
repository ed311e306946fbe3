//! Source files, the map that owns them, and byte spans into them.

use std::fmt;
use std::path::{Path, PathBuf};

/// Identifies one source in a [`SourceMap`]. It holds the index plus one, so that an
/// `Option<SourceId>` (in every diagnostic) is no larger than the id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceId(std::num::NonZeroU32);

impl SourceId {
    fn from_index(index: usize) -> SourceId {
        let above = u32::try_from(index + 1).expect("a map holds fewer than 4 billion sources");
        SourceId(std::num::NonZeroU32::new(above).expect("one more than an index is not 0"))
    }

    /// The index of this source in its map.
    pub fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

impl fmt::Debug for SourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SourceId({})", self.index())
    }
}

/// A byte range `start..end` in one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The source the range is in.
    pub source: SourceId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// The bytes `start..end` of `source`; offsets must fit a `u32` (sources are below 4 GiB).
    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        debug_assert!(start <= end, "span start after end");
        Span {
            source,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both `self` and `other` (same source).
    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The range as `usize` offsets, to slice the source's text with.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether the span covers no byte (a point, e.g. the end of a file).
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A 1-based line and column; the column counts characters, not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Sources must be shorter than this, so that byte offsets fit in a `u32`.
pub const MAX_SOURCE_LEN: usize = u32::MAX as usize;

/// One named text with an index of where its lines start, built when first asked for (an
/// assembly without diagnostics or listing never needs it).
#[derive(Clone, Debug)]
pub struct Source {
    name: String,
    text: String,
    /// The file the text was read from, if any (not for standard input or strings).
    path: Option<PathBuf>,
    /// The directive that included this source, if another source included it.
    included_from: Option<Span>,
    /// How many includes lead to this source: 0 for a source added directly.
    include_depth: u32,
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// Characters before every [`CHARS_PER_CHECKPOINT`]-byte boundary; built on first use.
    char_checkpoints: std::sync::OnceLock<Vec<u32>>,
}

/// Bytes between two checkpoints of [`Source::chars_before`].
const CHARS_PER_CHECKPOINT: usize = 256;

impl Source {
    fn new(name: String, text: String) -> Source {
        Source {
            name,
            text,
            path: None,
            included_from: None,
            include_depth: 0,
            line_starts: std::sync::OnceLock::new(),
            char_checkpoints: std::sync::OnceLock::new(),
        }
    }

    /// Where each line starts: after each line break as the lexers read them
    /// ([`crate::lines::line_end`]), so LF, CRLF, CR-only and mixed line endings count lines
    /// alike (as the renderer does).
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text.as_bytes();
            let mut starts = vec![0];
            let mut end = crate::lines::line_end(bytes, 0);
            while end < bytes.len() {
                let next = end + crate::lines::line_break_len(bytes, end);
                starts.push(next as u32);
                end = crate::lines::line_end(bytes, next);
            }
            starts
        })
    }

    /// The name diagnostics show: a path as given, or `<stdin>`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file the text was read from; `None` for standard input, strings and built-in texts.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The span of the directive that included this source (see [`crate::include`]).
    pub fn included_from(&self) -> Option<Span> {
        self.included_from
    }

    /// How many includes lead to this source: 0 for a source added directly, 1 for a file it
    /// includes, and so on.
    pub fn include_depth(&self) -> usize {
        self.include_depth as usize
    }

    /// The 0-based index of the line holding byte `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts().binary_search(&(offset as u32)) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// The text of the 0-based line `index`, without its line terminator.
    pub fn line_text(&self, index: usize) -> &str {
        let line_starts = self.line_starts();
        let start = line_starts[index] as usize;
        let end = line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&next| next as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The 1-based line and character column of byte `offset` (clamped to the text).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.floor_char_boundary(offset);
        let line = self.line_index(offset);
        let start = self.line_starts()[line] as usize;
        let column = self.chars_before(offset) - self.chars_before(start) + 1;
        LineCol { line: line + 1, column }
    }

    /// How many characters the text holds before byte `offset` (a char boundary), in time
    /// independent of the line's length, so that many diagnostics on one long line stay linear.
    fn chars_before(&self, offset: usize) -> usize {
        let is_char_start = |b: &u8| (*b as i8) >= -0x40;
        let checkpoints = self.char_checkpoints.get_or_init(|| {
            let mut chars = 0u32;
            let mut out = Vec::with_capacity(self.text.len() / CHARS_PER_CHECKPOINT + 1);
            out.push(0);
            for block in self.text.as_bytes().chunks(CHARS_PER_CHECKPOINT) {
                chars += block.iter().filter(|b| is_char_start(b)).count() as u32;
                out.push(chars);
            }
            out
        });
        let block = offset / CHARS_PER_CHECKPOINT;
        let from = block * CHARS_PER_CHECKPOINT;
        checkpoints[block] as usize
            + self.text.as_bytes()[from..offset]
                .iter()
                .filter(|b| is_char_start(b))
                .count()
    }

    /// The byte range of the 0-based line `index`, without its line terminator.
    pub fn line_range(&self, index: usize) -> std::ops::Range<usize> {
        let start = self.line_starts()[index] as usize;
        start..start + self.line_text(index).len()
    }

    /// The largest char boundary at or below `offset`, within the text.
    pub fn floor_char_boundary(&self, offset: usize) -> usize {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// How many lines the text has: one more than its line breaks (an empty text has one line).
    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }
}

/// Owns every source of one run; spans refer into it by [`SourceId`].
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    sources: Vec<Source>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a source and returns its id.
    ///
    /// # Panics
    /// If the text is 4 GiB or longer; [`SourceMap::try_add`] reports that instead.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> SourceId {
        self.try_add(name, text)
            .expect("sources are shorter than 4 GiB (use try_add for untrusted input)")
    }

    /// Adds a source, or returns the text back if it is too long for 32-bit spans (4 GiB).
    pub fn try_add(&mut self, name: impl Into<String>, text: impl Into<String>) -> Result<SourceId, String> {
        let text = text.into();
        if text.len() >= MAX_SOURCE_LEN {
            return Err(text);
        }
        let id = SourceId::from_index(self.sources.len());
        self.sources.push(Source::new(name.into(), text));
        Ok(id)
    }

    /// Adds the text of the file at `path` (named `name` in diagnostics), so that includes can
    /// be found beside it; fails like [`SourceMap::try_add`].
    pub fn try_add_file(
        &mut self,
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        text: impl Into<String>,
    ) -> Result<SourceId, String> {
        let id = self.try_add(name, text)?;
        self.sources[id.index()].path = Some(path.into());
        Ok(id)
    }

    /// Adds a source that the directive at `from` included; `path` is the file it was read
    /// from (`None` for a built-in text).
    pub(crate) fn try_add_included(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        text: String,
        from: Span,
    ) -> Result<SourceId, String> {
        let depth = self.get(from.source).include_depth + 1;
        let id = self.try_add(name, text)?;
        let source = &mut self.sources[id.index()];
        source.path = path;
        source.included_from = Some(from);
        source.include_depth = depth;
        Ok(id)
    }

    /// The directives that lead to source `id`, innermost first: where `id` was included,
    /// where that file was included, and so on up to a source added directly.
    pub fn include_chain(&self, id: SourceId) -> impl Iterator<Item = Span> + '_ {
        std::iter::successors(self.get(id).included_from, |span| self.get(span.source).included_from)
    }

    /// The source of `id`. Panics for an id from another map.
    pub fn get(&self, id: SourceId) -> &Source {
        &self.sources[id.index()]
    }

    /// The text a span covers, clamped to char boundaries.
    pub fn snippet(&self, span: Span) -> &str {
        let source = self.get(span.source);
        let start = source.floor_char_boundary(span.start as usize);
        let end = source.floor_char_boundary(span.end as usize).max(start);
        &source.text()[start..end]
    }

    /// How many sources the map holds.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    /// Whether the map holds no source.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// Every source with its id, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (SourceId, &Source)> {
        self.sources
            .iter()
            .enumerate()
            .map(|(i, s)| (SourceId::from_index(i), s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let mut map = SourceMap::new();
        let id = map.add("a.vu", "ld r0 0\n  é add\nlast");
        let src = map.get(id);
        assert_eq!(src.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(src.line_col(8), LineCol { line: 2, column: 1 });
        // 'é' is two bytes; "add" starts at byte 13, the 5th character of line 2.
        assert_eq!(src.line_col(13), LineCol { line: 2, column: 5 });
        assert_eq!(src.line_col(17), LineCol { line: 3, column: 1 });
        assert_eq!(src.line_text(1), "  é add");
        assert_eq!(src.line_range(1), 8..16);
        assert_eq!(src.line_count(), 3);
    }

    #[test]
    fn cr_crlf_and_lf_all_end_lines() {
        let mut map = SourceMap::new();
        let id = map.add("a.vsh", "one\rtwo\r\nthree\nfour\r\rsix");
        let src = map.get(id);
        assert_eq!(src.line_count(), 6);
        assert_eq!(src.line_col(4), LineCol { line: 2, column: 1 });
        assert_eq!(src.line_col(6), LineCol { line: 2, column: 3 });
        assert_eq!(src.line_col(9), LineCol { line: 3, column: 1 });
        assert_eq!(src.line_col(15), LineCol { line: 4, column: 1 });
        assert_eq!(src.line_col(21), LineCol { line: 6, column: 1 });
        let lines: Vec<&str> = (0..6).map(|i| src.line_text(i)).collect();
        assert_eq!(lines, ["one", "two", "three", "four", "", "six"]);
    }

    #[test]
    fn columns_count_characters_across_checkpoints() {
        let mut map = SourceMap::new();
        let line = "é".repeat(300) + "x" + &"a".repeat(300);
        let id = map.add("a", format!("ab\n{line}\n"));
        let src = map.get(id);
        assert_eq!(src.line_col(3 + 600), LineCol { line: 2, column: 301 });
        assert_eq!(src.line_col(3 + 601 + 300), LineCol { line: 2, column: 602 });
        assert_eq!(src.line_col(src.text().len()), LineCol { line: 3, column: 1 });
    }

    #[test]
    fn offsets_inside_a_character_clamp_down() {
        let mut map = SourceMap::new();
        let id = map.add("a", "é");
        assert_eq!(map.get(id).line_col(1), LineCol { line: 1, column: 1 });
        assert_eq!(map.snippet(Span::new(id, 1, 2)), "é");
    }
}
