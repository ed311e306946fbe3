//! Bytecode files back to instructions: the header, the instructions, and the optional debug
//! section (docs/formats/masfix-bytecode.md). Any bytes give a program or a reason with the
//! offset it is about; nothing panics, and nothing is allocated before the sizes are checked
//! against the input's length.

use crate::bytecode::{BytecodeError, DebugSection, HEADER_BYTES, Reader, fail, read_debug, read_header};
use crate::ops::{Instr, unpack};

/// A bytecode file, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bytecode {
    /// The program's instructions, in order; jump targets index into them.
    pub instrs: Vec<Instr>,
    /// Where each instruction was written, when the file has a debug section.
    pub debug: Option<DebugSection>,
}

/// Reads a whole bytecode file.
pub fn read(bytes: &[u8]) -> Result<Bytecode, BytecodeError> {
    let mut r = Reader::new(bytes);
    let header = read_header(&mut r)?;
    let count = header.count;
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
                return fail(
                    HEADER_BYTES + index * 4,
                    format!("instruction {index} (0x{:04x} 0x{:04x}): {problem}", words[0], words[1]),
                );
            }
        }
    }
    let debug = if header.debug {
        Some(read_debug(&mut r, count)?)
    } else {
        None
    };
    if r.at != bytes.len() {
        return fail(
            r.at,
            format!("{} bytes follow the end of the program", bytes.len() - r.at),
        );
    }
    Ok(Bytecode { instrs, debug })
}
