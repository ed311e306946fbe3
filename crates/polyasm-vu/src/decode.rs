//! Words back to instructions: the disassembler's first half (printing is in `print.rs`).

use crate::encode::Instruction;
use crate::ops::{Op, field};

/// What a word means to the assembler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A word the assembler produces from this instruction.
    Instruction(Instruction),
    /// A word no instruction assembles to; it can only be written as `.word`.
    Raw {
        /// The word.
        word: u32,
        /// Why no instruction assembles to it.
        why: RawReason,
    },
}

/// Why a word is not a canonical instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawReason {
    /// Opcodes 25–62 have no instruction; the VU skips them.
    NoOpOpcode(u32),
    /// The opcode is `op`, but fields it does not use are set or a slot is out of range.
    NonCanonical(Op),
}

/// Decodes one word.
pub fn decode_word(word: u32) -> Decoded {
    let (opcode, values) = field::split(word);
    let Some(op) = Op::from_opcode(opcode) else {
        return Decoded::Raw {
            word,
            why: RawReason::NoOpOpcode(opcode),
        };
    };
    let mut instruction = Instruction::new(op);
    for (index, &kind) in op.info().operands.iter().enumerate() {
        if u64::from(values[index]) >= kind.values() {
            return Decoded::Raw {
                word,
                why: RawReason::NonCanonical(op),
            };
        }
        instruction.set_field(index, values[index]);
    }
    if instruction.encode() == word {
        Decoded::Instruction(instruction)
    } else {
        Decoded::Raw {
            word,
            why: RawReason::NonCanonical(op),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_default_program_shuffle() {
        let Decoded::Instruction(i) = decode_word(0x03D1_0457) else {
            panic!("shf is canonical")
        };
        assert_eq!(
            (i.op, i.dst, i.src, i.swizzle, i.mask),
            (Op::Shf, 1, 1, [0, 1, 0, 1], 0b1111)
        );
    }

    #[test]
    fn unused_fields_and_empty_opcodes_are_raw() {
        assert_eq!(
            decode_word(30),
            Decoded::Raw {
                word: 30,
                why: RawReason::NoOpOpcode(30)
            }
        );
        // `add` with a mask set.
        assert!(matches!(
            decode_word(3 | 1 << 22),
            Decoded::Raw {
                why: RawReason::NonCanonical(Op::Add),
                ..
            }
        ));
        // `ld` from slot 9.
        assert!(matches!(
            decode_word(9 << 10),
            Decoded::Raw {
                why: RawReason::NonCanonical(Op::Ld),
                ..
            }
        ));
        // `st` to output 5.
        assert!(matches!(
            decode_word(1 | 5 << 6),
            Decoded::Raw {
                why: RawReason::NonCanonical(Op::St),
                ..
            }
        ));
        assert!(matches!(
            decode_word(0x3f | 1 << 31),
            Decoded::Raw {
                why: RawReason::NonCanonical(Op::End),
                ..
            }
        ));
    }
}
