//! The Lima dialect's diagnostic codes and the one place its errors become [`Diagnostic`]s.
//! PP100-PP199 are the codes of Mesa's text and of the command line's target, PP200-PP239
//! those of words and containers.

use polyasm_core::explain::CodeInfo;
use polyasm_core::{Diagnostic, Severity, SourceId, Span};

use crate::decode::DecodeError;
use crate::instr::LostBits;
use crate::mbs::MbsError;
use crate::mesa::{MesaError, MesaErrorKind};
use crate::ops::Field;

// ---- PP100-PP199: Mesa's text and the target ----

/// The error of a line of Mesa's text in source `file`.
pub fn mesa_error(file: SourceId, error: &MesaError) -> Diagnostic {
    let span = Span::new(file, error.span.start, error.span.end);
    let (label, help): (&str, Option<String>) = match &error.kind {
        MesaErrorKind::UnknownOp { suggestion, .. } => (
            "no unit has this operation",
            Some(match suggestion {
                Some(name) => format!("did you mean `{name}`?"),
                None => "Mesa names an operation `op[.modifier].unit`, like `mov.v0`, `add.s1` or `rcp.s2`; docs/lima.md lists them".to_string(),
            }),
        ),
        MesaErrorKind::FieldOrder { reordered, field, .. } if reordered.is_empty() => (
            "one per instruction",
            Some(format!("an instruction has at most one {field} field: put the second in an instruction of its own")),
        ),
        MesaErrorKind::FieldOrder { reordered, .. } => (
            "out of order",
            Some(format!("fields come in control-word order (varying, sampler, uniform, vec4_mul, float_mul, vec4_acc, float_acc, combine, temp_write, branch, const0, const1): `{reordered}`")),
        ),
        MesaErrorKind::Expected { .. } => ("not readable here", None),
        MesaErrorKind::OperandCount { .. } => ("wrong number of operands", None),
        MesaErrorKind::OutOfRange { range, .. } => ("out of range", Some(format!("the field holds {range}"))),
        MesaErrorKind::Constant { .. } => (
            "not a binary16 value",
            Some("write a decimal number (it is rounded to the nearest binary16 value, whose magnitude is at most 65504), `inf`, `-inf`, `nan` or `-nan`".to_string()),
        ),
        MesaErrorKind::Offset { actual, .. } => (
            "wrong offset",
            Some(format!("this instruction starts at word {actual}: correct the `@` prefix, or leave the prefixes out and the offsets follow from the sizes")),
        ),
        MesaErrorKind::Target { nearest, .. } => (
            "no instruction here",
            Some(match nearest {
                (Some(before), Some(after)) => format!("branch targets are absolute word offsets of instructions; the nearest start at words {before} and {after}"),
                (Some(at), None) | (None, Some(at)) => format!("branch targets are absolute word offsets of instructions; the nearest starts at word {at}"),
                (None, None) => "branch targets are absolute word offsets of instructions".to_string(),
            }),
        ),
        MesaErrorKind::Misplaced { help, .. } => ("not allowed here", Some(help.to_string())),
        MesaErrorKind::Flags { .. } => (
            "out of place",
            Some("a line is the fields joined by `, `, then `, sync` and `, stop`, each once and in that order".to_string()),
        ),
    };
    let diagnostic = Diagnostic::error(error.code(), error.to_string()).with_primary(span, label);
    match help {
        Some(help) => diagnostic.with_help(help),
        None => diagnostic,
    }
}

/// The warning that Mesa's text of instruction `offset` does not show every bit of `fields`,
/// so that reading it back gives other words.
pub fn unshown_bits_warning(name: &str, offset: usize, fields: &[Field]) -> Diagnostic {
    let names: Vec<&str> = fields.iter().map(|f| f.info().mesa).collect();
    Diagnostic::warning(
        "PP120",
        format!(
            "{name}: word {offset}: Mesa's text does not show every bit of the {} {}",
            names.join(", "),
            if names.len() == 1 { "field" } else { "fields" }
        ),
    )
    .with_note("assembling the text writes Mesa's usual values there, so the words differ")
}

/// The warning that the branch of instruction `offset` goes where no instruction starts, so
/// that its text cannot be assembled again.
pub fn stray_target_warning(name: &str, offset: usize, target: i64) -> Diagnostic {
    Diagnostic::warning(
        "PP121",
        format!("{name}: word {offset}: the branch goes to word {target}, where no instruction starts"),
    )
    .with_note("the disassembly shows the target, but assembling it again is an error (PP107)")
}

/// The error of disassembler input that is not a program; `place` says where the
/// instruction starts in the input (`at byte 20 of the input`).
pub fn not_a_program(name: &str, error: &DecodeError, place: &str) -> Diagnostic {
    let mut diagnostic = decode_error(name, error);
    diagnostic.message = format!("{} ({place})", diagnostic.message);
    diagnostic
}

/// The error of assembling the proposed syntax in a build that cannot read it yet.
pub fn proposed_unavailable(file: SourceId) -> Diagnostic {
    Diagnostic::error(
        "PP199",
        "this build of polyasm reads only Mesa's syntax for target lima",
    )
    .in_file(file)
    .with_help("assemble Mesa's disassembly text with `--syntax mesa`, or give its lines the `@N: ` prefix")
}

/// Every PP1xx code with its explanation.
pub static MESA_CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "PP100",
        severity: Severity::Error,
        title: "unknown operation in Mesa's text",
        explanation: "Each field of a line of Mesa's disassembly starts with the name of what it does: `load.v`, \
            `texld`, `load.u`, `store.t`, `fb_color`, `branch`, `discard`, `const0`, or an ALU operation written \
            `op[.sat|.pos|.int].unit` with the unit `.v0`, `.s0`, `.v1`, `.s1` or `.s2`. The name is none of these, \
            or the unit does not have the op (`sum3` is vector-only, for example). docs/lima.md lists every op of \
            every unit.",
    },
    CodeInfo {
        code: "PP101",
        severity: Severity::Error,
        title: "field out of order or repeated",
        explanation: "An instruction has at most one field of each unit, and Mesa prints them in the order of the \
            control word: varying, sampler, uniform, vec4_mul, float_mul, vec4_acc, float_acc, combine, \
            temp_write, branch, const0, const1. The reader takes the order as the text gives it, so a field \
            before one that comes earlier, or a second field of a unit, is an error; the help shows the line in \
            the right order.",
    },
    CodeInfo {
        code: "PP102",
        severity: Severity::Error,
        title: "operand not readable",
        explanation: "The text is not the operand that goes in this place: a register (`$1`, `^const0`), a \
            swizzle of four letters, a write mask, a component (`.x`), an index (`3`, `1.xy`, `2.w`), a number. \
            Mesa's syntax is described unit by unit in docs/lima.md.",
    },
    CodeInfo {
        code: "PP103",
        severity: Severity::Error,
        title: "wrong number of operands",
        explanation: "An operation has a fixed number of sources (one or two), and the ALUs print a destination \
            only when they write a register; the line has too many or too few words after the operation's name. \
            Words are separated by spaces and fields by commas.",
    },
    CodeInfo {
        code: "PP104",
        severity: Severity::Error,
        title: "number out of range",
        explanation: "A number does not fit its field: a register above `$15` (`$11` for sources, whose numbers \
            12-15 are the pipeline registers), a varying index above 63, a sampler above 4095, a load or store \
            index beyond 16 bits, a shift above 7, a LOD bias above `bias1ff`.",
    },
    CodeInfo {
        code: "PP105",
        severity: Severity::Error,
        title: "constant not a binary16 value",
        explanation: "The four values of `const0` and `const1` are IEEE binary16 numbers, which Mesa prints with C's \
            `%f`. The reader rounds a decimal number to the nearest binary16 value (ties to even), which gives \
            back the exact bits of every value Mesa prints of magnitude 2^-9 or more; `inf`, `-inf`, `nan` and \
            `-nan` are read too. Other text, or a magnitude of 65520 or more, is an error.",
    },
    CodeInfo {
        code: "PP106",
        severity: Severity::Error,
        title: "`@` offset disagrees with the instructions before it",
        explanation: "Mesa's standalone disassembler starts each line with `@` and the word offset of the \
            instruction. The reader computes every instruction's size from its fields, and the offset printed \
            must be where the instructions before it end. A line was left out or added, or the prefix was \
            edited: correct it, or remove the prefixes, and the offsets follow from the sizes.",
    },
    CodeInfo {
        code: "PP107",
        severity: Severity::Error,
        title: "branch target is no instruction start",
        explanation: "Mesa prints a branch's target as the absolute word offset it jumps to, the instruction's \
            offset plus the relative target in the encoding. The reader turns it back into a relative target, \
            and the word must be where an instruction starts (the offsets are the `@` numbers, or the sums of \
            the sizes). The help names the nearest instruction starts.",
    },
    CodeInfo {
        code: "PP108",
        severity: Severity::Error,
        title: "operand not allowed in this place",
        explanation: "The operand is well formed but the encoding has no room for it here: a pipeline register as a \
            destination, `^v0` or `^s0` other than as the first source of the matching adder, `-` or `abs()` on \
            an operand without modifier bits (branch operands, offsets, the vector of `mul.s2`), a shift on an op \
            other than `mul`, an output modifier on `mul.s2`, or a varying offset in `^uniform` (whose number 15 \
            means no offset).",
    },
    CodeInfo {
        code: "PP109",
        severity: Severity::Error,
        title: "`sync`, `stop` or an empty field out of place",
        explanation: "A line of Mesa's text is its fields joined by `, `, then `, sync` if the sync bit is set and \
            `, stop` if the stop bit is set. A flag before a field, a flag twice, `stop` before `sync`, or two \
            commas with nothing between them is not such a line.",
    },
    CodeInfo {
        code: "PP120",
        severity: Severity::Warning,
        title: "Mesa's text does not show every bit",
        explanation: "Mesa's disassembly leaves some bits out or prints different values alike: the sampler's \
            explicit-LOD bit, a complex-unit destination that is a scalar or a one-lane vector, the payload of a \
            NaN constant, constants smaller than 2^-9, load and store indices from 0xfffd up. The instruction at \
            the word offset has such bits, so assembling the text gives other words there.",
    },
    CodeInfo {
        code: "PP121",
        severity: Severity::Warning,
        title: "branch to no instruction start",
        explanation: "The branch at the word offset jumps to a word where no instruction of the input starts (or \
            outside it). The disassembly prints the target as it is, but assembling the text again is an error \
            (PP107), since a target must be an instruction.",
    },
    CodeInfo {
        code: "PP199",
        severity: Severity::Error,
        title: "proposed syntax not available",
        explanation: "This build reads Lima source only in Mesa's syntax: give `--syntax mesa`, or start the lines \
            with Mesa's `@N: ` prefix, which selects it.",
    },
];

// ---- PP200-PP239: words and containers ----

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
    fn mesa_codes_are_explained_and_errors_point_at_the_text() {
        for (i, code) in MESA_CODES.iter().enumerate() {
            assert!(code.code.starts_with("PP1"), "{}", code.code);
            assert!(MESA_CODES[i + 1..].iter().all(|c| c.code != code.code));
            assert!(CODES.iter().all(|c| c.code != code.code));
        }
        let mut sources = polyasm_core::SourceMap::new();
        let file = sources.add("a.pp", "mov.v0 $0 $1 , load.v $1 0");
        let (_, errors) = crate::mesa::read_program(sources.get(file).text());
        let d = mesa_error(file, &errors[0]);
        assert_eq!(d.code, "PP101");
        assert_eq!(d.message, "the varying field comes before the vec4_mul field");
        assert_eq!(d.labels[0].span, Span::new(file, 15, 21));
        assert!(
            d.help
                .as_deref()
                .is_some_and(|h| h.ends_with("`load.v $1 0, mov.v0 $0 $1`"))
        );
        for text in [
            "x.v0",
            "mov.v0 $0 $9.q ",
            "mov.v0 $0 $1 $2 ",
            "load.v $0 99",
            "const0 a 0 0 0",
            "branch 1",
            "mov.v0 ^texture $0 ",
            ", ,",
        ] {
            let (_, errors) = crate::mesa::read_program(text);
            let d = mesa_error(file, &errors[0]);
            assert!(
                polyasm_core::explain::find(MESA_CODES, d.code).is_some(),
                "{text}: {}",
                d.code
            );
        }
        let offset = crate::mesa::read_program("@ 0: discard\n@ 9: discard").1;
        assert_eq!(mesa_error(file, &offset[0]).code, "PP106");
        for d in [
            unshown_bits_warning("a.bin", 0, &[Field::Sampler]),
            stray_target_warning("a.bin", 0, 3),
            proposed_unavailable(file),
        ] {
            let info = polyasm_core::explain::find(MESA_CODES, d.code).expect("explained");
            assert_eq!(info.severity, d.severity);
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
