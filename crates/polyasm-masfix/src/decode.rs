//! Bytecode files back to instructions: the header, the instructions, and the optional debug
//! section (docs/formats/masfix-bytecode.md). Any bytes give a program or a reason with the
//! offset it is about; nothing panics, and nothing is allocated before the sizes are checked
//! against the input's length.

use crate::encode::DebugPos;
use crate::limits::MAX_INSTRUCTIONS;
use crate::ops::{FLAG_DEBUG, HEADER_BYTES, Instr, MAGIC, VERSION, unpack};

/// A bytecode file, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bytecode {
    pub instrs: Vec<Instr>,
    pub debug: Option<DebugSection>,
}

/// Where each instruction was written: file names, and one position per instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugSection {
    pub files: Vec<String>,
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

/// What makes bytes no bytecode file, and the byte offset it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    pub offset: usize,
    pub problem: String,
}

impl std::fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.problem)
    }
}

/// A little-endian reader that says where it stopped short.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'b [u8], BytecodeError> {
        match self.bytes.get(self.at..self.at.saturating_add(n)) {
            Some(slice) => {
                self.at += n;
                Ok(slice)
            }
            None => Err(BytecodeError {
                offset: self.at,
                problem: format!(
                    "the file ends inside {what} ({} of {n} bytes left)",
                    self.bytes.len() - self.at.min(self.bytes.len())
                ),
            }),
        }
    }

    fn u16(&mut self, what: &str) -> Result<u16, BytecodeError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, what: &str) -> Result<u32, BytecodeError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn fail<T>(&self, offset: usize, problem: impl Into<String>) -> Result<T, BytecodeError> {
        Err(BytecodeError {
            offset,
            problem: problem.into(),
        })
    }
}

/// Reads a whole bytecode file.
pub fn read(bytes: &[u8]) -> Result<Bytecode, BytecodeError> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(4, "the magic number")? != MAGIC {
        return r.fail(0, "not a Masfix bytecode file (it does not start with `MXBC`)");
    }
    let version = r.u16("the version")?;
    if version != VERSION {
        return r.fail(4, format!("version {version}; this polyasm reads version {VERSION}"));
    }
    let flags = r.u16("the flags")?;
    if flags & !FLAG_DEBUG != 0 {
        return r.fail(6, format!("unknown flags 0x{:04x}", flags & !FLAG_DEBUG));
    }
    let count = r.u32("the instruction count")? as usize;
    if count > MAX_INSTRUCTIONS {
        return r.fail(
            8,
            format!("{count} instructions; a program has at most {MAX_INSTRUCTIONS}"),
        );
    }
    debug_assert_eq!(r.at, HEADER_BYTES);
    let body = r.take(count * 4, "the instructions")?;
    let mut instrs = Vec::with_capacity(count);
    for (index, pair) in body.chunks_exact(4).enumerate() {
        let words = [
            u16::from_le_bytes([pair[0], pair[1]]),
            u16::from_le_bytes([pair[2], pair[3]]),
        ];
        match unpack(words) {
            Ok(instr) => instrs.push(instr),
            Err(problem) => {
                return r.fail(
                    HEADER_BYTES + index * 4,
                    format!("instruction {index} (0x{:04x} 0x{:04x}): {problem}", words[0], words[1]),
                );
            }
        }
    }
    let debug = if flags & FLAG_DEBUG != 0 {
        Some(read_debug(&mut r, count)?)
    } else {
        None
    };
    if r.at != bytes.len() {
        return r.fail(
            r.at,
            format!("{} bytes follow the end of the program", bytes.len() - r.at),
        );
    }
    Ok(Bytecode { instrs, debug })
}

fn read_debug(r: &mut Reader, count: usize) -> Result<DebugSection, BytecodeError> {
    let start = r.at;
    let file_count = r.u32("the debug section's file count")? as usize;
    // Each file name takes at least its 4-byte length.
    if file_count > (r.bytes.len() - r.at) / 4 || file_count > usize::from(u16::MAX) + 1 {
        return r.fail(start, format!("{file_count} file names do not fit in the file"));
    }
    let mut files = Vec::with_capacity(file_count);
    for _ in 0..file_count {
        let at = r.at;
        let len = r.u32("a file name's length")? as usize;
        let name = r.take(len, "a file name")?;
        let Ok(name) = std::str::from_utf8(name) else {
            return r.fail(at, "a file name is not UTF-8");
        };
        files.push(name.to_string());
        if len % 2 == 1 && r.take(1, "a file name's padding")? != [0] {
            return r.fail(r.at - 1, "a file name's padding byte is not 0");
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
            return r.fail(at, format!("the debug position of instruction {index} names no file"));
        }
        if line == 0 || column == 0 {
            return r.fail(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::bytecode_bytes;
    use crate::ops::{Kind, Value};

    fn program() -> Vec<Instr> {
        vec![
            Instr {
                value: Value::Imm(72),
                ..Instr::bare(Kind::Outc)
            },
            Instr::bare(Kind::Swap),
        ]
    }

    #[test]
    fn a_written_file_reads_back() {
        let debug = DebugSection {
            files: vec!["a.mx".into(), "std/io.mx".into()],
            positions: vec![
                DebugPos {
                    file: 0,
                    line: 1,
                    column: 1,
                },
                DebugPos {
                    file: 1,
                    line: 7,
                    column: 3,
                },
            ],
        };
        for debug in [None, Some(debug)] {
            let bytes = bytecode_bytes(&program(), debug.as_ref());
            assert_eq!(bytes.len() % 2, 0);
            let read = read(&bytes).unwrap();
            assert_eq!(read.instrs, program());
            assert_eq!(read.debug, debug);
        }
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_an_error_or_a_program() {
        let debug = DebugSection {
            files: vec!["abc.mx".into()],
            positions: vec![
                DebugPos {
                    file: 0,
                    line: 2,
                    column: 1
                };
                2
            ],
        };
        let bytes = bytecode_bytes(&program(), Some(&debug));
        for len in 0..bytes.len() {
            let err = read(&bytes[..len]).unwrap_err();
            assert!(err.offset <= len, "{err}");
        }
        for i in 0..bytes.len() {
            for bit in 0..8 {
                let mut flipped = bytes.clone();
                flipped[i] ^= 1 << bit;
                let _ = read(&flipped);
            }
        }
        assert_eq!(read(b"MXBC\x01\x00\x00\x00\xff\xff\xff\xff").unwrap_err().offset, 8);
        assert!(read(b"ELF!").unwrap_err().problem.contains("MXBC"));
    }
}
