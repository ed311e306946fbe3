//! The Lima dialect's diagnostic codes and the one place its word-level errors become
//! [`Diagnostic`]s. PP200-PP239 are the codes of words and containers.

use polyasm_core::explain::CodeInfo;
use polyasm_core::{Diagnostic, Severity};

use crate::decode::DecodeError;
use crate::instr::LostBits;
use crate::mbs::MbsError;

/// The error of words that do not decode; `name` is the input's name.
pub fn decode_error(name: &str, error: &DecodeError) -> Diagnostic {
    Diagnostic::error(error.code(), format!("{name} is not a Lima program: {error}"))
        .with_help("a Lima program is instructions back to back, each a control word with its length and fields")
}

/// The error of a file that is not a fragment MBS1 file; `name` is the input's name.
pub fn mbs_error(name: &str, error: &MbsError) -> Diagnostic {
    Diagnostic::error(error.code(), format!("{name} is not a fragment MBS1 file: {error}"))
}

/// The warning that re-encoding instruction `offset` gives different words.
pub fn lost_bits_warning(name: &str, offset: usize, lost: &LostBits) -> Diagnostic {
    Diagnostic::warning("PP204", format!("{name}: word {offset}: {lost}"))
        .with_note("no syntax shows these bits, so the disassembly reassembles to different words")
}

/// Every PP2xx code with its explanation.
pub static CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "PP200",
        severity: Severity::Error,
        title: "instruction length of 0",
        explanation: "Bits 0-4 of a Lima control word give the instruction's length in 32-bit words, control word \
            included, so 0 is never valid. The words are not a program at that offset: often they are zero padding \
            after the last instruction (Mesa's clear program is followed by three such words) or data of another \
            kind. Give the disassembler only the program's words.",
    },
    CodeInfo {
        code: "PP201",
        severity: Severity::Error,
        title: "instruction runs past the end",
        explanation: "The control word at the offset gives a length longer than the words that are left, so the \
            input is cut short or is not a Lima program. Check that the whole program was read, and that a binary \
            file holds little-endian 32-bit words.",
    },
    CodeInfo {
        code: "PP202",
        severity: Severity::Error,
        title: "instruction length disagrees with its fields",
        explanation: "The length in bits 0-4 of a control word must be one word plus the sizes of the fields its \
            presence bits (7-18) select, rounded up to whole words (varying 34 bits, sampler 62, uniform 41, \
            vec4_mul 43, float_mul 30, vec4_acc 44, float_acc 31, combine 30, temp_write 41, branch 73, const0 and \
            const1 64 each). Words where the two disagree are not an instruction the hardware would read the same \
            way; they are usually not Lima code.",
    },
    CodeInfo {
        code: "PP203",
        severity: Severity::Error,
        title: "undefined op number",
        explanation: "A unit's op field holds a number no opcode table has (for example 18 in vec4_mul, 16 in \
            float_acc, or 10-15 in combine), so the instruction cannot be shown in any syntax. docs/lima.md lists \
            the opcodes of every unit.",
    },
    CodeInfo {
        code: "PP204",
        severity: Severity::Warning,
        title: "bits that no syntax shows",
        explanation: "Some bits of the instruction are not the values every compiler writes there (a reserved bit \
            that is set, an unused operand that is not zero, a next-instruction length that does not match), and \
            no syntax can show them. The disassembly is right about everything the hardware is known to read, but \
            assembling it writes the usual values, so the words differ. The message names the field, the bits, \
            the value found and the value written instead.",
    },
    CodeInfo {
        code: "PP210",
        severity: Severity::Error,
        title: "not an MBS1 file",
        explanation: "An MBS1 file, the container of Mesa's standalone tools and of the ARM offline compiler, \
            starts with the tag `MBS1`. This input does not; if it holds raw program words, read it as binary \
            words instead.",
    },
    CodeInfo {
        code: "PP211",
        severity: Severity::Error,
        title: "MBS1 chunk runs past its end",
        explanation: "Every MBS1 chunk is a 4-byte tag, a 32-bit little-endian size and that many bytes, and must \
            fit in the chunk that holds it. The chunk at the byte offset does not: the file is cut short or its \
            sizes are wrong. docs/formats/lima-mbs.md shows the layout.",
    },
    CodeInfo {
        code: "PP212",
        severity: Severity::Error,
        title: "MBS1 file holds no fragment shader",
        explanation: "The chunk inside `MBS1` must be `CFRA`, a fragment shader. `CVER` is a vertex shader, which \
            runs on the Mali geometry processor, a different instruction set.",
    },
    CodeInfo {
        code: "PP213",
        severity: Severity::Error,
        title: "MBS1 fragment shader has no code",
        explanation: "None of the chunks inside `CFRA` is `DBIN`, the chunk that holds the program's words.",
    },
    CodeInfo {
        code: "PP214",
        severity: Severity::Error,
        title: "MBS1 code is not whole words",
        explanation: "The `DBIN` chunk holds the program as 32-bit little-endian words, so its size must be a \
            multiple of 4.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::decode;

    #[test]
    fn every_code_used_is_explained() {
        let err = decode(&[0]).unwrap_err();
        let d = decode_error("a.bin", &err);
        assert_eq!(d.code, "PP200");
        assert_eq!(
            d.message,
            "a.bin is not a Lima program: word 0: the control word gives a length of 0"
        );
        assert!(polyasm_core::explain::find(CODES, d.code).is_some());
        let mbs = crate::mbs::read(b"ELF").unwrap_err();
        assert_eq!(mbs_error("a.mbs", &mbs).code, "PP210");
        for (i, code) in CODES.iter().enumerate() {
            assert!(code.code.starts_with("PP2"));
            assert!(CODES[i + 1..].iter().all(|c| c.code != code.code));
        }
        for code in ["PP201", "PP202", "PP203", "PP204", "PP211", "PP212", "PP213", "PP214"] {
            assert!(polyasm_core::explain::find(CODES, code).is_some(), "{code}");
        }
    }

    #[test]
    fn lost_bits_warn() {
        // Vector L: the unused second source of mov.v0 holds the identity swizzle.
        let words = [0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf];
        let decoded = decode(&words).unwrap();
        let lost = &decoded[0].lost[0];
        let d = lost_bits_warning("l.bin", 0, lost);
        assert_eq!(d.severity, Severity::Warning);
        assert_eq!(
            d.message,
            "l.bin: word 0: vec4_mul bits 14..27 (arg1) hold 0xe40, re-encoding writes 0x0"
        );
    }
}
