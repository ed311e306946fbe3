//! Instructions back to canonical source.

use std::fmt::Write as _;

use crate::decode::{Decoded, RawReason, decode_word};
use crate::encode::Instruction;
use crate::ops::{MAX_WORDS, OUTPUTS, Op, OperandKind};

const LANES: [char; 4] = ['x', 'y', 'z', 'w'];

/// `shf r1 r1 xyxy 0b1111`: the canonical text of one instruction.
pub fn print_instruction(instruction: &Instruction) -> String {
    let info = instruction.op.info();
    let mut out = String::from(info.mnemonic);
    for (index, kind) in info.operands.iter().enumerate() {
        out.push(' ');
        let _ = match kind {
            OperandKind::Register => write!(out, "r{}", [instruction.dst, instruction.src][index]),
            OperandKind::Output => write!(out, "{}", OUTPUTS[usize::from(instruction.dst)]),
            OperandKind::InputSlot | OperandKind::ConstSlot => write!(out, "{}", instruction.src),
            OperandKind::Swizzle => {
                out.extend(instruction.swizzle.iter().map(|&l| LANES[usize::from(l)]));
                Ok(())
            }
            OperandKind::Mask => write!(out, "0b{:04b}", instruction.mask),
            OperandKind::Word => unreachable!("no instruction takes a raw word"),
        };
    }
    out
}

/// One decoded word as a line of source; raw words get a comment saying what the VU does.
pub fn print_decoded(decoded: &Decoded) -> String {
    match decoded {
        Decoded::Instruction(instruction) => print_instruction(instruction),
        Decoded::Raw {
            word,
            why: RawReason::NoOpOpcode(opcode),
        } => {
            format!(".word {word:#010x} // opcode {opcode}: no instruction, the VU skips it")
        }
        Decoded::Raw {
            word,
            why: RawReason::NonCanonical(op),
        } => {
            format!(
                ".word {word:#010x} // `{}` with fields the assembler never sets",
                op.mnemonic()
            )
        }
    }
}

/// Disassembles a whole program to source that assembles back to the same words.
///
/// A final `end` is left out when the assembler would append it again (the program has at
/// most 64 words); a comment says so.
pub fn disassemble_words(words: &[u32]) -> String {
    let end_word = Instruction::new(Op::End).encode();
    let implicit_end = words.len() <= MAX_WORDS && words.last() == Some(&end_word);
    let body = if implicit_end { &words[..words.len() - 1] } else { words };
    let mut out = String::with_capacity(body.len() * 16 + 64);
    for &word in body {
        out.push_str(&print_decoded(&decode_word(word)));
        out.push('\n');
    }
    if implicit_end {
        out.push_str("// end (appended by the assembler)\n");
    } else if words.len() < MAX_WORDS {
        out.push_str("// note: this program has no final `end`; assembling it appends one\n");
    } else if words.len() > MAX_WORDS {
        let _ = writeln!(out, "// note: {} words; the VU holds {MAX_WORDS}", words.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_every_operand_kind() {
        let words = [0x000, 0x441, 0x902, 0x03D1_0457, 0x1018, 0x3f];
        assert_eq!(
            disassemble_words(&words),
            "ld r0 0\nst tex r1\nldc r4 2\nshf r1 r1 xyxy 0b1111\nmulm r0 r4\n// end (appended by the assembler)\n"
        );
    }

    #[test]
    fn raw_words_say_why() {
        assert_eq!(
            print_decoded(&decode_word(30)),
            ".word 0x0000001e // opcode 30: no instruction, the VU skips it"
        );
        assert!(disassemble_words(&[0]).ends_with("appends one\n"));
    }
}
