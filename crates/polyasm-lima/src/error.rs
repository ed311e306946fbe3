//! The Lima dialect's diagnostic codes and the one place its word-level errors become
//! [`Diagnostic`]s. PP200-PP239 are the codes of words and containers, PP300-PP349 those of
//! running programs.

use polyasm_core::explain::CodeInfo;
use polyasm_core::{Diagnostic, Severity};

use crate::decode::DecodeError;
use crate::exec::{RunError, RunErrorKind};
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

/// A run-time error; the label points at the instruction's source line when `object` has a
/// listing.
pub fn run_error(error: &RunError, object: &polyasm_core::Object) -> Diagnostic {
    let help = match error.kind {
        RunErrorKind::StepLimit { .. } => {
            "a loop whose condition never fails runs forever; if the program needs more steps, raise the limit with \
             `--max-steps N`"
        }
        RunErrorKind::NoTexture { .. } => "bind a picture to the sampler with `--texture N=FILE.png`",
        RunErrorKind::BadTarget { .. } => {
            "a branch target is the first word of an instruction, counted from the branch"
        }
        RunErrorKind::NoStop => "put `stop` on the instruction that ends the program",
        RunErrorKind::Empty => "a program needs at least one instruction, the last with `stop`",
    };
    let diagnostic = Diagnostic::error(error.code(), error.to_string()).with_help(help);
    let offset = (error.offset * 4) as u32;
    let span = object
        .listing
        .iter()
        .find(|entry| entry.offset == offset && entry.len > 0)
        .and_then(|entry| entry.span);
    match span {
        Some(span) => diagnostic.with_primary(span, "this instruction"),
        None => diagnostic,
    }
}

/// A `--texture` file that cannot be read or is not a PNG picture.
pub fn texture_error(sampler: usize, path: &str, reason: &str) -> Diagnostic {
    Diagnostic::error(
        "PP305",
        format!("cannot read texture {sampler} from `{path}`: {reason}"),
    )
    .with_help("a texture is a PNG picture of at most 16384 pixels a side")
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
    CodeInfo {
        code: "PP300",
        severity: Severity::Error,
        title: "step limit reached",
        explanation: "The emulator stops a fragment that runs more instructions than `--max-steps` allows (100000 \
            unless given), so that a program that loops forever ends with this error instead of hanging. The \
            message names the word offset of the instruction that would have run next and, when rendering, the \
            pixel. Check the loop's branch condition, or raise the limit if the program needs more steps.",
    },
    CodeInfo {
        code: "PP301",
        severity: Severity::Error,
        title: "texture not given",
        explanation: "A `texld` reads a sampler number (plus its offset register) that no `--texture N=FILE.png` \
            binds. Give the picture for that sampler; the emulator does not invent textures.",
    },
    CodeInfo {
        code: "PP302",
        severity: Severity::Error,
        title: "branch to no instruction",
        explanation: "A taken branch jumps by its target in words, counted from the branch instruction's own first \
            word, and must land on the first word of an instruction of the program. This one lands inside an \
            instruction, before the program or past its end.",
    },
    CodeInfo {
        code: "PP303",
        severity: Severity::Error,
        title: "program runs past its end",
        explanation: "The last instruction ran without `stop`, `discard` or a taken branch, so the hardware would go \
            on into whatever follows the program. End the program with `stop` (the fragment's colour is then `$0`).",
    },
    CodeInfo {
        code: "PP304",
        severity: Severity::Error,
        title: "empty program",
        explanation: "The program has no instruction, so there is nothing to run. A program needs at least one \
            instruction, the last with `stop`.",
    },
    CodeInfo {
        code: "PP305",
        severity: Severity::Error,
        title: "texture cannot be read",
        explanation: "The file of a `--texture N=FILE.png` option cannot be read, or is not a PNG picture the \
            emulator can use (every PNG colour type and depth is read; a side is at most 16384 pixels). The \
            message gives the reason.",
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
            assert!(code.code.starts_with("PP"));
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

    #[test]
    fn run_errors_have_codes_help_and_the_instruction_span() {
        use polyasm_core::{Object, SourceMap, Span};
        let error = RunError {
            offset: 3,
            pixel: None,
            kind: RunErrorKind::NoStop,
        };
        let mut object = Object::new(4);
        let file = SourceMap::new().add("p.pp", "mov $0\nstop\n");
        object.push(0, &[0, 0, 0], Some(Span::new(file, 0, 5)), None);
        object.push(3, &[0], Some(Span::new(file, 6, 10)), None);
        let d = run_error(&error, &object);
        assert_eq!(d.code, "PP303");
        assert_eq!(d.primary_label().map(|l| l.span), Some(Span::new(file, 6, 10)));
        assert!(d.help.is_some());
        let d = run_error(&error, &Object::from_words(&[0, 0, 0, 0]));
        assert!(d.primary_label().is_none());
        let d = texture_error(2, "a.png", "it is not there");
        assert_eq!(d.message, "cannot read texture 2 from `a.png`: it is not there");
        for code in ["PP300", "PP301", "PP302", "PP303", "PP304", "PP305"] {
            let info = polyasm_core::explain::find(CODES, code).expect(code);
            assert_eq!(info.severity, Severity::Error);
        }
    }
}
