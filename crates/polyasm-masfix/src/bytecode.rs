//! The container of a bytecode file (docs/formats/masfix-bytecode.md): the header before the
//! instructions and the optional debug section after them, written and read. Nothing panics on
//! any bytes, and nothing is allocated before the sizes are checked against the input's length.

use std::collections::HashMap;

use polyasm_core::container::{Format, HeaderProblem, Truncated};
pub use polyasm_core::container::{HEADER_BYTES, Reader};
use polyasm_core::{SourceMap, Span};

use crate::limits::MAX_INSTRUCTIONS;

/// Header flag: a debug section follows the instructions.
pub const FLAG_DEBUG: u16 = 1;

/// The bytecode file's header: magic `MXBC`, version 1, the debug flag, at most
/// [`MAX_INSTRUCTIONS`] instructions.
pub const FORMAT: Format = Format {
    magic: *b"MXBC",
    version: 1,
    flags: FLAG_DEBUG,
    max_count: MAX_INSTRUCTIONS,
};

/// Where each instruction was written: file names, and one position per instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugSection {
    /// The source file names, in the order instructions first name them; at most 65,536.
    pub files: Vec<String>,
    /// One position per instruction, in program order.
    pub positions: Vec<DebugPos>,
}

impl DebugSection {
    /// `file:line:column` of instruction `index`, if the section knows it.
    pub fn describe(&self, index: usize) -> Option<String> {
        let pos = self.positions.get(index)?;
        let file = self.files.get(usize::from(pos.file))?;
        Some(format!(
            "{}:{}:{}",
            polyasm_core::text::escape_controls(file),
            pos.line,
            pos.column
        ))
    }
}

/// The debug section's record of one instruction: the file (an index into the file names)
/// and the 1-based line and column where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DebugPos {
    /// The index of the file's name in [`DebugSection::files`].
    pub file: u16,
    /// The line, counted from 1.
    pub line: u32,
    /// The column in characters, counted from 1.
    pub column: u32,
}

/// What makes bytes no bytecode file, and the byte offset it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    /// The byte offset in the file the problem is about, counted from 0.
    pub offset: usize,
    /// What is wrong there, as a clause the message quotes (`a file name is not UTF-8`).
    pub problem: String,
}

impl std::fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.problem)
    }
}

impl From<Truncated> for BytecodeError {
    fn from(t: Truncated) -> BytecodeError {
        BytecodeError {
            offset: t.offset,
            problem: format!(
                "the file ends inside {} ({} of {} bytes left)",
                t.what, t.left, t.needed
            ),
        }
    }
}

/// A refusal of the bytes at `offset`.
pub fn fail<T>(offset: usize, problem: impl Into<String>) -> Result<T, BytecodeError> {
    Err(BytecodeError {
        offset,
        problem: problem.into(),
    })
}

/// What the header says: the instruction count, and whether a debug section follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// How many instructions follow the header, at most [`MAX_INSTRUCTIONS`].
    pub count: usize,
    /// Whether the flag [`FLAG_DEBUG`] is set: a debug section follows the instructions.
    pub debug: bool,
}

/// Reads the header, checking each field.
pub fn read_header(r: &mut Reader) -> Result<Header, BytecodeError> {
    let header = FORMAT.read_header(r).map_err(|e| match e.problem {
        HeaderProblem::Truncated(t) => BytecodeError::from(t),
        HeaderProblem::Magic => BytecodeError {
            offset: e.offset,
            problem: "not a Masfix bytecode file (it does not start with `MXBC`)".to_string(),
        },
        HeaderProblem::Version(version) => BytecodeError {
            offset: e.offset,
            problem: format!("version {version}; this polyasm reads version {}", FORMAT.version),
        },
        HeaderProblem::Flags(flags) => BytecodeError {
            offset: e.offset,
            problem: format!("unknown flags 0x{flags:04x}"),
        },
        HeaderProblem::Count(count) => BytecodeError {
            offset: e.offset,
            problem: format!("{count} instructions; a program has at most {MAX_INSTRUCTIONS}"),
        },
    })?;
    Ok(Header {
        count: header.count,
        debug: header.flags & FLAG_DEBUG != 0,
    })
}

/// The header of a bytecode file of `count` instructions.
pub fn write_header(count: usize, debug: bool) -> Vec<u8> {
    FORMAT.header(if debug { FLAG_DEBUG } else { 0 }, count).to_vec()
}

/// The debug section, written.
pub fn write_debug(debug: &DebugSection) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(debug.files.len() as u32).to_le_bytes());
    for name in &debug.files {
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        if name.len() % 2 == 1 {
            out.push(0);
        }
    }
    for pos in &debug.positions {
        out.extend_from_slice(&pos.file.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&pos.line.to_le_bytes());
        out.extend_from_slice(&pos.column.to_le_bytes());
    }
    out
}

/// Reads the debug section of a file of `count` instructions.
pub fn read_debug(r: &mut Reader, count: usize) -> Result<DebugSection, BytecodeError> {
    let start = r.at;
    let file_count = r.u32("the debug section's file count")? as usize;
    // Each file name takes at least its 4-byte length.
    if file_count > r.left() / 4 || file_count > usize::from(u16::MAX) + 1 {
        return fail(start, format!("{file_count} file names do not fit in the file"));
    }
    let mut files = Vec::with_capacity(file_count);
    for _ in 0..file_count {
        let at = r.at;
        let len = r.u32("a file name's length")? as usize;
        let name = r.take(len, "a file name")?;
        let Ok(name) = std::str::from_utf8(name) else {
            return fail(at, "a file name is not UTF-8");
        };
        files.push(name.to_string());
        if len % 2 == 1 && r.take(1, "a file name's padding")? != [0] {
            return fail(r.at - 1, "a file name's padding byte is not 0");
        }
    }
    let mut positions = Vec::with_capacity(count);
    for index in 0..count {
        let at = r.at;
        let file = r.u16("a debug position")?;
        let reserved = r.u16("a debug position")?;
        let line = r.u32("a debug position")?;
        let column = r.u32("a debug position")?;
        if usize::from(file) >= files.len() || reserved != 0 {
            return fail(at, format!("the debug position of instruction {index} names no file"));
        }
        if line == 0 || column == 0 {
            return fail(
                at,
                format!(
                    "the debug position of instruction {index} is at line {line}, column {column}; both count from 1"
                ),
            );
        }
        positions.push(DebugPos { file, line, column });
    }
    Ok(DebugSection { files, positions })
}

/// The debug information of `spans`: the file names, and each instruction's position.
pub fn debug_info(sources: &SourceMap, spans: &[Span]) -> (Vec<String>, Vec<DebugPos>) {
    let mut files: Vec<String> = Vec::new();
    // Per source: its file index, and the last position found (byte offset, line, column),
    // from which the next one is counted forward: instructions mostly come in text order,
    // so the whole text is read about once.
    let mut known: HashMap<usize, (u16, usize, u32, u32)> = HashMap::new();
    let positions = spans
        .iter()
        .map(|span| {
            let source = sources.get(span.source);
            let offset = source.floor_char_boundary(span.start as usize);
            let entry = known.entry(span.source.index()).or_insert_with(|| {
                files.push(source.name().to_string());
                ((files.len() - 1).min(usize::from(u16::MAX)) as u16, 0, 1, 1)
            });
            let (file, pos, line, column) = *entry;
            let (line, column) = if offset >= pos {
                count_forward(&source.text()[pos..offset], line, column)
            } else {
                let at = source.line_col(offset);
                (at.line as u32, at.column as u32)
            };
            *entry = (file, offset, line, column);
            DebugPos { file, line, column }
        })
        .collect();
    (files, positions)
}

/// The line and column after `text`, starting from `line` and `column`; line breaks are
/// `\n`, `\r\n` and `\r`, as the line index counts them.
fn count_forward(text: &str, mut line: u32, mut column: u32) -> (u32, u32) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                line += 1;
                column = 1;
            }
            _ => column += 1,
        }
    }
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_positions_count_lines_and_characters_as_the_line_index_does() {
        let mut sources = SourceMap::new();
        let text = "ld 1\r\n  éld 2\rld 3\n\nld 4";
        let file = sources.add("a.mx", text);
        let at = |needle: &str| {
            let start = text.find(needle).unwrap();
            Span::new(file, start, start + needle.len())
        };
        // In order, then one out of order.
        let spans = [at("ld 1"), at("ld 2"), at("ld 3"), at("ld 4"), at("ld 2")];
        let (files, positions) = debug_info(&sources, &spans);
        assert_eq!(files, ["a.mx"]);
        let expected: Vec<(u32, u32)> = spans
            .iter()
            .map(|s| {
                let at = sources.get(file).line_col(s.start as usize);
                (at.line as u32, at.column as u32)
            })
            .collect();
        let got: Vec<(u32, u32)> = positions.iter().map(|p| (p.line, p.column)).collect();
        assert_eq!(got, expected);
        assert_eq!(got[1], (2, 4));
    }
}
