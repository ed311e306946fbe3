//! The Lima dialect's diagnostic codes and the one place its errors become [`Diagnostic`]s.
//! PP001-PP099 are the codes of the proposed syntax, PP100-PP199 those of Mesa's text and of
//! the command line's target, PP200-PP239 those of words and containers, PP300-PP349 those of
//! running programs.

use polyasm_core::explain::CodeInfo;
use polyasm_core::{Diagnostic, Severity, SourceId, Span};

use crate::decode::DecodeError;
use crate::exec::{RunError, RunErrorKind};
use crate::instr::LostBits;
use crate::mbs::MbsError;
use crate::ops::Field;
use crate::syntax::mesa::{MesaError, MesaErrorKind};

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
        MesaErrorKind::Constant { found } if found.starts_with(['-', '+']) && found[1..].starts_with(['-', '+']) => (
            "two signs",
            Some(format!(
                "a number takes one sign: write `{}{}`",
                // Two equal signs make a plus, two different ones a minus.
                if found[..1] == found[1..2] { "" } else { "-" },
                &found[2..]
            )),
        ),
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

// The proposed syntax (PP001-PP099): one function per kind of error, each with its code.

/// A statement the grammar rejects: `found` (quoted) where `expected` should be.
pub fn syntax_error(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::error("PP001", format!("expected {expected}, found {found}"))
        .with_primary(span, "unexpected here")
        .with_help("an instruction is `opcode.unit dest src1 src2` operations joined by `,`; a label is `name:` on its own line")
}

/// An opcode no unit has.
pub fn unknown_opcode(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    let d =
        Diagnostic::error("PP002", format!("unknown opcode `{name}`")).with_primary(span, "no unit has this opcode");
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help("docs/lima.md lists the opcodes of every unit"),
    }
}

/// An opcode written with a unit that does not have it, or with no unit where one is needed.
pub fn wrong_unit(span: Span, op: &str, unit: Option<&str>, units: &str) -> Diagnostic {
    let message = match unit {
        Some(unit) => format!("`{op}` is not an opcode of the `{unit}` unit"),
        None => format!("`{op}` needs a unit"),
    };
    Diagnostic::error("PP003", message)
        .with_primary(span, "wrong unit")
        .with_help(format!("write it as {units}"))
}

/// A modifier the opcode does not take.
pub fn bad_modifier(span: Span, modifier: &str, op: &str, allowed: &str) -> Diagnostic {
    Diagnostic::error("PP004", format!("`{op}` does not take the modifier `{modifier}`"))
        .with_primary(span, "not a modifier of this opcode")
        .with_help(if allowed.is_empty() {
            format!("`{op}` takes no modifier")
        } else {
            format!("`{op}` takes {allowed}")
        })
}

/// Two modifiers of one kind (`kind`: "output modifier" or "shift") on one opcode.
pub fn modifier_conflict(span: Span, op: &str, kind: &str, found: &[&str]) -> Diagnostic {
    let found: Vec<String> = found.iter().map(|m| format!("`{m}`")).collect();
    Diagnostic::error(
        "PP004",
        format!("`{op}` takes one {kind}, found {}", found.join(" and ")),
    )
    .with_primary(span, format!("one {kind} too many"))
    .with_help(format!("keep one {kind}"))
}

/// An operation with the wrong number of operands; `form` is what it takes.
pub fn operand_count(span: Span, op: &str, form: &str, found: usize) -> Diagnostic {
    Diagnostic::error(
        "PP005",
        format!(
            "`{op}` takes {}, found {found}",
            polyasm_core::text::count(form_operands(form), "operand")
        ),
    )
    .with_primary(
        span,
        if found > form_operands(form) {
            "too many operands"
        } else {
            "operands missing"
        },
    )
    .with_help(format!("write `{form}`"))
}

fn form_operands(form: &str) -> usize {
    form.split_whitespace().count().saturating_sub(1)
}

/// An operand of the wrong kind: `expected` says what belongs there.
pub fn operand_kind(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::error("PP006", format!("expected {expected}, found `{found}`"))
        .with_primary(span, "wrong kind of operand")
}

/// A register number no field holds, or `$12`-`$15` as a source.
pub fn register_range(span: Span, text: &str, help: String) -> Diagnostic {
    Diagnostic::error("PP007", format!("`{text}` is not a register here"))
        .with_primary(span, "no such register")
        .with_help(help)
}

/// `$6`-`$15`: encodable, but no compiler uses them.
pub fn unallocated_register(span: Span, text: &str) -> Diagnostic {
    Diagnostic::warning("PP008", format!("`{text}` is not one of the six registers `$0`-`$5`"))
        .with_primary(span, "encodes, but what the hardware does with it is unknown")
        .with_note(
            "Mesa's compiler uses only $0-$5; the register fields hold $0-$11, and 12-15 are the pipeline registers",
        )
}

/// A read-only pipeline register or a number where the destination belongs.
pub fn destination_last(span: Span, found: &str, corrected: &str) -> Diagnostic {
    Diagnostic::error(
        "PP009",
        format!("`{found}` cannot be a destination: the destination comes first"),
    )
    .with_primary(span, "read-only, or not a register")
    .with_note("this looks like the older order, with the destination last")
    .with_help(format!("write the destination first: `{corrected}`"))
}

/// A swizzle or write mask that is not one.
pub fn bad_swizzle(span: Span, text: &str, problem: &str, help: &str) -> Diagnostic {
    Diagnostic::error("PP010", format!("`{text}` {problem}"))
        .with_primary(span, "malformed suffix")
        .with_help(help.to_string())
}

/// A number that is malformed, not an integer where one is needed, or outside its field.
pub fn number_range(span: Span, text: &str, what: &str, range: &str) -> Diagnostic {
    Diagnostic::error("PP011", format!("`{text}` is not a valid {what}"))
        .with_primary(span, "out of range or malformed")
        .with_help(format!("a {what} is {range}"))
}

/// A number that is malformed in a way `help` explains (a sign on raw bits).
pub fn number_malformed(span: Span, text: &str, help: String) -> Diagnostic {
    Diagnostic::error("PP011", format!("`{text}` is not a valid number"))
        .with_primary(span, "malformed")
        .with_help(help)
}

/// Two signs before a number (`--1`, `-+1`); `one` is the number with one sign.
pub fn doubled_sign(span: Span, text: &str, one: &str) -> Diagnostic {
    Diagnostic::error("PP001", format!("`{text}` has two signs"))
        .with_primary(span, "two signs")
        .with_help(format!("a number takes one sign: write `{one}`"))
}

/// A constant that binary16 cannot hold exactly.
pub fn inexact_half(span: Span, text: &str, nearest: &str) -> Diagnostic {
    Diagnostic::error(
        "PP012",
        format!("`{text}` is not exactly representable as an fp16 constant"),
    )
    .with_primary(span, "not a binary16 value")
    .with_help(format!("the nearest fp16 value is {nearest}"))
}

/// A constant beyond binary16's range.
pub fn half_range(span: Span, text: &str) -> Diagnostic {
    Diagnostic::error("PP013", format!("`{text}` is outside the range of an fp16 constant"))
        .with_primary(span, "too large for binary16")
        .with_help("fp16 constants lie within -65504 to 65504; write `inf` or `-inf` for infinities")
}

/// A branch to a label no line defines.
pub fn unknown_label(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    let d = Diagnostic::error("PP014", format!("unknown label `{name}`")).with_primary(span, "no line defines it");
    match suggestion {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d.with_help(format!(
            "define it with `{name}:` on a line of its own before the instruction to branch to"
        )),
    }
}

/// A label defined twice.
pub fn duplicate_label(span: Span, first: Span, name: &str) -> Diagnostic {
    Diagnostic::error("PP015", format!("label `{name}` is defined twice"))
        .with_primary(span, "defined again here")
        .with_secondary(first, "first defined here")
        .with_help("rename one of them")
}

/// A branch target beyond the 27-bit relative field.
pub fn branch_range(span: Span, words: i64) -> Diagnostic {
    Diagnostic::error("PP016", format!("the branch target is {words} words away"))
        .with_primary(span, "too far")
        .with_help("a branch reaches -67108864 to 67108863 words from its instruction")
}

/// Operations out of control-word order; `right` is the line in the right order (empty when
/// it is too long to quote).
pub fn field_order(span: Span, after: Span, op: &str, previous: &str, right: &str) -> Diagnostic {
    Diagnostic::error("PP017", format!("`{op}` must come before `{previous}`"))
        .with_primary(span, "out of order")
        .with_secondary(after, "comes later in the control word")
        .with_note("operations are written in the order of their bits in the control word: stop, sync, varying, texld, load, .v0, .s0, .v1, .s1, .s2, store, branch, const0, const1")
        .with_help(if right.is_empty() {
            "write the operations in control-word order".to_string()
        } else {
            format!("write `{right}`")
        })
}

/// Two operations of one unit in one instruction.
pub fn unit_twice(span: Span, first: Span, unit: &str) -> Diagnostic {
    Diagnostic::error("PP018", format!("the {unit} unit is used twice in one instruction"))
        .with_primary(span, "second use")
        .with_secondary(first, "first use")
        .with_help("each unit runs one operation per instruction: move one of them to another instruction")
}

/// `^v0`/`^s0` anywhere but the first source of the matching adder.
pub fn pipeline_source(span: Span, name: &str, unit: &str) -> Diagnostic {
    Diagnostic::error("PP019", format!("`{name}` can only be the first source of `{unit}`"))
        .with_primary(span, "not readable here")
        .with_help(format!(
            "the multiplier's result reaches only the first source of the adder of the same kind; write it to a register and read that in the next instruction, or use it as the first source of a `{unit}` op"
        ))
}

/// The combiner and the branch unit in one instruction.
pub fn combine_with_branch(span: Span, branch: Span) -> Diagnostic {
    Diagnostic::error("PP020", "the `.s2` unit and a branch cannot share an instruction")
        .with_primary(span, "combiner")
        .with_secondary(branch, "branch")
        .with_help("the branch unit runs in parallel with the combiner: put them in separate instructions")
}

/// `sel` without a scalar multiplier op to give its condition.
pub fn sel_without_fmul(span: Span) -> Diagnostic {
    Diagnostic::error(
        "PP021",
        "`sel` needs the scalar multiplier's result in the same instruction",
    )
    .with_primary(span, "no `.s0` op gives the condition")
    .with_help(
        "add a `.s0` op to this instruction, e.g. `mov.s0 ^s0 $1.x`: sel picks its first source when ^s0 is not 0",
    )
}

/// A read of `^const0`/`^const1` in an instruction without that constant field.
pub fn constant_not_set(span: Span, name: &str, field: &str) -> Diagnostic {
    Diagnostic::error(
        "PP022",
        format!("`{name}` is read but this instruction has no `{field}`"),
    )
    .with_primary(span, "undefined value")
    .with_help(format!(
        "constants live for one instruction: add `{field} x y z w` to it"
    ))
}

/// A texture fetch or derivative in an instruction without `sync`.
pub fn missing_sync(span: Span, op: &str) -> Diagnostic {
    Diagnostic::warning("PP023", format!("`{op}` in an instruction without `sync`"))
        .with_primary(span, "needs the threads in step")
        .with_help("add `sync` to the instruction, as every compiler does with texture fetches and derivatives")
}

/// An encoding that no compiler writes (`load.u1`, a store with alignment 3): `text` is what
/// selects it, `what` names it.
pub fn unused_encoding(span: Span, text: &str, what: &str, help: String) -> Diagnostic {
    Diagnostic::warning("PP027", format!("`{text}` is {what}, which no compiler writes"))
        .with_primary(span, "encodes, but what the hardware does with it is unknown")
        .with_help(help)
}

/// An older name still read.
pub fn old_name(span: Span, old: &str, new: &str) -> Diagnostic {
    Diagnostic::warning("PP024", format!("`{old}` is the older name of `{new}`"))
        .with_primary(span, "older name")
        .with_help(format!("write `{new}`"))
}

/// A `-` or `abs()` on an operand whose field has no modifier bits.
pub fn operand_modifier(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error("PP025", format!("{what} takes no `-` or `abs()`"))
        .with_primary(span, "no modifier bits for this operand")
        .with_help("apply the modifier in an ALU op first, or drop it")
}

/// `^v0`/`^s0` read in an instruction without the multiplier op that gives it.
pub fn pipeline_unproduced(span: Span, name: &str, unit: &str) -> Diagnostic {
    Diagnostic::error(
        "PP026",
        format!("`{name}` is read but this instruction has no `{unit}` op"),
    )
    .with_primary(span, "undefined value")
    .with_help(format!(
        "pipeline registers live for one instruction: add the `{unit}` op that gives `{name}`"
    ))
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
    .with_help("a texture is a PNG picture of at most 4096 pixels a side")
}

/// The warning that texture `sampler` is given but the program never samples it.
pub fn unused_texture(sampler: usize, path: &str) -> Diagnostic {
    Diagnostic::warning(
        "PP306",
        format!("texture {sampler} (`{path}`) is not read: the program never samples sampler {sampler}"),
    )
    .with_help(format!(
        "check the sampler number of `--texture {sampler}=...` against the program's `texld`, or leave it out"
    ))
}

/// Every code with its explanation.
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
    // The proposed syntax.
    CodeInfo {
        code: "PP001",
        severity: Severity::Error,
        title: "syntax error",
        explanation: "A line of the proposed syntax is a label, `name:` alone on its line, or an instruction: \
            operations joined by `,`, each an opcode with its unit (`mul.v0`) and operands separated by spaces. \
            An operand is a register (`$1.xyz`), a pipeline register (`^texture`), a number, a label, or one of \
            these in `abs(...)`, `cube(...)`, `normalize(...)` or `bias(...)`, with an optional `-` before it. \
            A line that ends in `,` goes on on the next line. `#` starts a comment. docs/lima.md shows every form.",
    },
    CodeInfo {
        code: "PP002",
        severity: Severity::Error,
        title: "unknown opcode",
        explanation: "The opcode is not one of any unit: the help line suggests the closest one. Opcodes are \
            case-sensitive (`dFdx`). Modifiers are glued on with `_` (`mul_x2_sat.v0`), units with `.` \
            (`add.v1`); docs/lima.md has a table of the opcodes of every unit.",
    },
    CodeInfo {
        code: "PP003",
        severity: Severity::Error,
        title: "opcode on the wrong unit",
        explanation: "Each opcode exists on some units only: `rcp` only on the complex unit `.s2`, `sum3` only on \
            the vector adder `.v1`, `load` on `.v`, `.u` and `.t`, and `texld`, `branch`, `discard`, `fb_color`, \
            `fb_depth`, `const0` and `const1` on none (they are written without a unit). The help line says how \
            to write the opcode.",
    },
    CodeInfo {
        code: "PP004",
        severity: Severity::Error,
        title: "modifier not allowed",
        explanation: "Modifiers are appended to the opcode with `_`: the output modifiers `_sat`, `_pos`, `_int` \
            on ALU ops, the shifts `_x2` `_x4` `_x8` `_d2` `_d4` `_d8` `_d16` on `mul.v0`/`mul.s0`, \
            `_perspective_z`/`_perspective_w` on varying loads, `_lod` on `texld`, conditions such as `_lt` on \
            `branch`, and `_vec`/`_scalar` on the scalar ops of `.s2`. Each at most once, and only where the \
            field has the bits: the vector destination form of `.s2` and `mul.s2` have no output modifier.",
    },
    CodeInfo {
        code: "PP005",
        severity: Severity::Error,
        title: "wrong number of operands",
        explanation: "Every operation takes a fixed list of operands, the destination first: a two-source ALU op \
            takes a destination and two sources, a one-source op (`mov`, `rcp`, `floor`, ...) a destination and \
            one source. The help line shows the form the opcode takes.",
    },
    CodeInfo {
        code: "PP006",
        severity: Severity::Error,
        title: "wrong kind of operand",
        explanation: "The operand is not what the field holds: a scalar operand is one component (`$1.x`), a \
            vector operand a register with an optional swizzle (`$1.xxyz`), an index a whole number, a branch \
            target a label or a signed word offset (`+4`). The message says what belongs there.",
    },
    CodeInfo {
        code: "PP007",
        severity: Severity::Error,
        title: "register out of range",
        explanation: "A register field holds `$0`-`$11`, and the numbers 12-15 are the pipeline registers \
            `^const0`, `^const1`, `^texture` and `^uniform`: a source writes those names rather than `$12`-`$15`. \
            `$16` and above do not exist. A varying offset register cannot be `^uniform` (its number means no \
            offset).",
    },
    CodeInfo {
        code: "PP008",
        severity: Severity::Warning,
        title: "register beyond $5",
        explanation: "Mesa's compiler uses the six registers `$0`-`$5`; the fields hold up to `$11` (and, as a \
            destination, 12-15), but what the hardware does with those is unexplored. The register is encoded \
            as written.",
    },
    CodeInfo {
        code: "PP009",
        severity: Severity::Error,
        title: "destination written last",
        explanation: "The proposed syntax writes the destination first: `mov.v0 $0 ^texture`, `load.v ^discard \
            0`. A read-only pipeline register (`^const0`, `^const1`, `^texture`, `^uniform`) or a number stands \
            where the destination belongs, as in the older examples that put it last (`mov.v0 ^tex_sampler \
            $0`). The help line shows the line with the destination moved first.",
    },
    CodeInfo {
        code: "PP010",
        severity: Severity::Error,
        title: "malformed swizzle or write mask",
        explanation: "A swizzle is 1 to 4 of the letters `x y z w`; with fewer than four the last letter repeats, \
            as in Direct3D (`.xy` is `.xyyy`). A write mask is the lanes written, each at most once and in the \
            order `x y z w` (`.xz`), or `.none` where a unit keeps its register without writing a lane. A scalar \
            operand names exactly one component.",
    },
    CodeInfo {
        code: "PP011",
        severity: Severity::Error,
        title: "number out of range",
        explanation: "The number does not fit its field, is not a whole number where one is needed, or is \
            malformed: varying indices go to 63, uniform and temporary indices to 65535, sampler numbers to 4095, \
            the constant LOD bias `bias(...)` from -16 to 15.9375 in steps of 1/16. The help line gives the range.",
    },
    CodeInfo {
        code: "PP012",
        severity: Severity::Error,
        title: "constant not exactly fp16",
        explanation: "`const0` and `const1` hold IEEE binary16 values, and polyasm does not round silently: a \
            decimal that is not exactly such a value (0.1, 1.0001) is an error, and the help line gives the \
            nearest one. Raw bits can be written in hexadecimal (`0x7e00`), infinities as `inf` and `-inf`.",
    },
    CodeInfo {
        code: "PP013",
        severity: Severity::Error,
        title: "constant out of fp16 range",
        explanation: "The largest finite binary16 value is 65504; the constant is beyond it. Write `inf` or `-inf` \
            for an infinity.",
    },
    CodeInfo {
        code: "PP014",
        severity: Severity::Error,
        title: "unknown label",
        explanation: "A branch names a label that no line of the file defines. Labels are case-sensitive; the help \
            line suggests a close one. Define a label with `name:` on its own line before the instruction it \
            marks.",
    },
    CodeInfo {
        code: "PP015",
        severity: Severity::Error,
        title: "duplicate label",
        explanation: "Two lines define the same label, so a branch to it would be ambiguous. Rename one.",
    },
    CodeInfo {
        code: "PP016",
        severity: Severity::Error,
        title: "branch target out of range",
        explanation: "A branch holds its target as a signed 27-bit count of words from its own instruction; the \
            target is farther than that.",
    },
    CodeInfo {
        code: "PP017",
        severity: Severity::Error,
        title: "operations out of order",
        explanation: "The operations of an instruction are written in the order of their bits in the control \
            word, so that the text says what the hardware runs: stop, sync, the varying load, texld, the \
            uniform/temporary load, .v0, .s0, .v1, .s1, .s2, the store or framebuffer read, the branch, const0, \
            const1. The help line shows the instruction in that order.",
    },
    CodeInfo {
        code: "PP018",
        severity: Severity::Error,
        title: "unit used twice",
        explanation: "An instruction has one field per unit, so each unit runs at most one operation in it: two \
            `.v0` ops, a `load.u` and a `load.t`, a `store.t` and an `fb_color`, or two `stop`s cannot share an \
            instruction. Move one to another instruction.",
    },
    CodeInfo {
        code: "PP019",
        severity: Severity::Error,
        title: "multiplier result read where it cannot be",
        explanation: "`^v0` and `^s0`, the results of the vector and scalar multipliers, have no register number: \
            only the first source of the adder of the same kind can read them (`add.v1 $0 ^v0 $1`, \
            `add.s1 $0.x ^s0 $1.y`). As a multiplier's destination they mean that no register is written.",
    },
    CodeInfo {
        code: "PP020",
        severity: Severity::Error,
        title: "combiner with a branch",
        explanation: "The branch unit runs in parallel with the complex unit `.s2` and the two cannot share an \
            instruction (a discard is a branch too). Put them in separate instructions.",
    },
    CodeInfo {
        code: "PP021",
        severity: Severity::Error,
        title: "sel without the scalar multiplier",
        explanation: "`sel` picks its first source when the scalar multiplier's result `^s0` is not 0, and its \
            second otherwise, so the instruction must have a `.s0` op that gives that condition.",
    },
    CodeInfo {
        code: "PP022",
        severity: Severity::Error,
        title: "constant read without its field",
        explanation: "`^const0` and `^const1` read the constants of the same instruction, the `const0` and `const1` \
            fields; they do not live on. An instruction that reads one must set it: `const0 x y z w`.",
    },
    CodeInfo {
        code: "PP023",
        severity: Severity::Warning,
        title: "texture fetch or derivative without sync",
        explanation: "Texture fetches and the derivatives `dFdx`/`dFdy` work on a 2x2 quad of fragments, and every \
            compiler sets the instruction's `sync` bit with them. This instruction has one without `sync`; add it \
            unless you know the hardware does not need it.",
    },
    CodeInfo {
        code: "PP024",
        severity: Severity::Warning,
        title: "older name",
        explanation: "The name comes from an older description of the syntax and is still read: `^tex_sampler` is \
            `^texture`, `^tex_coord` is `^discard`, `^vmul` is `^v0`, `^fmul` is `^s0`, and `texld_2d` is \
            `texld`. Write the new name; the words are the same.",
    },
    CodeInfo {
        code: "PP025",
        severity: Severity::Error,
        title: "modifier on an operand that has none",
        explanation: "Only ALU sources and the register sources of the varying unit have negate and absolute bits. \
            Index offsets, texture LOD registers, branch operands, stored registers, and the vector operands of \
            `mul.s2` and `atan_pt2.s2` take no `-` or `abs()`.",
    },
    CodeInfo {
        code: "PP026",
        severity: Severity::Error,
        title: "multiplier result read without the multiplier",
        explanation: "`^v0` and `^s0` are the results of the `.v0` and `.s0` ops of the same instruction; they do \
            not live on. An instruction that reads one must have the op that gives it.",
    },
    CodeInfo {
        code: "PP027",
        severity: Severity::Warning,
        title: "encoding no compiler writes",
        explanation: "The operation selects field values that Mesa's compiler never writes and whose effect on the \
            hardware is unexplored: `load.u1` and `load.u2` (load sources 1 and 2; Mesa's text `load..u1`), and a \
            store of a whole register to a one-float index (`store.t 2.y $1`, alignment 3). They are encoded as \
            written, so that words holding them disassemble and assemble again; the emulator reads 0 from the two \
            sources and stores the register's lane named by the index. To load uniforms write `load.u`, to store \
            one float name its component (`store.t 2.y $1.y`).",
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
            emulator can use. Every PNG colour type and depth is read; a side is at most 4096 pixels, Mali-400's \
            limit, which is checked from the picture's header before anything is decoded, and the textures a \
            program samples hold at most 67108864 texels together (a texel takes 16 bytes of memory). Memory \
            that cannot be had while decoding is this error too. The message gives the reason.",
    },
    CodeInfo {
        code: "PP306",
        severity: Severity::Warning,
        title: "texture never sampled",
        explanation: "A `--texture N=FILE.png` option binds a picture to a sampler that no `texld` of the program \
            reads (and no `texld` adds a register to its sampler number, which could reach any sampler). The \
            file is opened, so a wrong path is still an error, but it is not decoded. Check the sampler number \
            against the program, or leave the option out.",
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
    fn mesa_codes_are_explained_and_errors_point_at_the_text() {
        for (i, code) in MESA_CODES.iter().enumerate() {
            assert!(code.code.starts_with("PP1"), "{}", code.code);
            assert!(MESA_CODES[i + 1..].iter().all(|c| c.code != code.code));
            assert!(CODES.iter().all(|c| c.code != code.code));
        }
        let mut sources = polyasm_core::SourceMap::new();
        let file = sources.add("a.pp", "mov.v0 $0 $1 , load.v $1 0");
        let (_, errors) = crate::syntax::mesa::read_program(sources.get(file).text());
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
            let (_, errors) = crate::syntax::mesa::read_program(text);
            let d = mesa_error(file, &errors[0]);
            assert!(
                polyasm_core::explain::find(MESA_CODES, d.code).is_some(),
                "{text}: {}",
                d.code
            );
        }
        let offset = crate::syntax::mesa::read_program("@ 0: discard\n@ 9: discard").1;
        assert_eq!(mesa_error(file, &offset[0]).code, "PP106");
        for d in [
            unshown_bits_warning("a.bin", 0, &[Field::Sampler]),
            stray_target_warning("a.bin", 0, 3),
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
