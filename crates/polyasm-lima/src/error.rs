//! The Lima dialect's diagnostic codes and the one place its errors become [`Diagnostic`]s.
//! PP001-PP099 are the codes of the proposed syntax, PP100-PP199 those of Mesa's text and of
//! the command line's target, PP200-PP239 those of words and containers, PP300-PP349 those of
//! running programs.

use polyasm_core::{Diagnostic, SourceId, Span};

pub use crate::codes::Code;

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
            Some(did_you_mean(*suggestion, "Mesa names an operation `op[.modifier].unit`, like `mov.v0`, `add.s1` or `rcp.s2`; docs/lima.md lists them".to_string())),
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
    let mut diagnostic = Diagnostic::error(error.code(), error.to_string()).with_primary(span, label);
    diagnostic.help = help.map(String::into_boxed_str);
    diagnostic
}

/// The warning that Mesa's text of instruction `offset` does not show every bit of `fields`,
/// so that reading it back gives other words.
pub fn unshown_bits_warning(name: &str, offset: usize, fields: &[Field]) -> Diagnostic {
    let names: Vec<&str> = fields.iter().map(|f| f.info().mesa).collect();
    let noun = if names.len() == 1 { "field" } else { "fields" };
    let names = names.join(", ");
    let message = format!("{name}: word {offset}: Mesa's text does not show every bit of the {names} {noun}");
    Diagnostic::warning(Code::UnshownBits, message)
        .with_note("assembling the text writes Mesa's usual values there, so the words differ")
}

/// The warning that the branch of instruction `offset` goes where no instruction starts, so
/// that its text cannot be assembled again.
pub fn stray_target_warning(name: &str, offset: usize, target: i64) -> Diagnostic {
    let message = format!("{name}: word {offset}: the branch goes to word {target}, where no instruction starts");
    Diagnostic::warning(Code::StrayTarget, message)
        .with_note("the disassembly shows the target, but assembling it again is an error (PP107)")
}

/// The error of disassembler input that is not a program; `place` says where the
/// instruction starts in the input (`at byte 20 of the input`).
pub fn not_a_program(name: &str, error: &DecodeError, place: &str) -> Diagnostic {
    let mut diagnostic = decode_error(name, error);
    diagnostic.message = format!("{} ({place})", diagnostic.message);
    diagnostic
}

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
    Diagnostic::warning(Code::LostBits, format!("{name}: word {offset}: {lost}"))
        .with_note("no syntax shows these bits, so the disassembly reassembles to different words")
}

// The proposed syntax (PP001-PP099): one function per kind of error, each with its code.

/// A statement the grammar rejects: `found` (quoted) where `expected` should be.
pub fn syntax_error(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::error(Code::Syntax, format!("expected {expected}, found {found}"))
        .with_primary(span, "unexpected here")
        .with_help("an instruction is `opcode.unit dest src1 src2` operations joined by `,`; a label is `name:` on its own line")
}

/// An opcode no unit has.
pub fn unknown_opcode(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    let d = Diagnostic::error(Code::UnknownOpcode, format!("unknown opcode `{name}`"))
        .with_primary(span, "no unit has this opcode");
    match suggestion {
        Some(s) => d.with_did_you_mean(span, s),
        None => d.with_help("docs/lima.md lists the opcodes of every unit"),
    }
}

/// The help of a name that is not known: the `suggestion`, or `otherwise` when there is none.
fn did_you_mean(suggestion: Option<&str>, otherwise: String) -> String {
    suggestion.map_or(otherwise, |s| format!("did you mean `{s}`?"))
}

/// An opcode written with a unit that does not have it, or with no unit where one is needed.
pub fn wrong_unit(span: Span, op: &str, unit: Option<&str>, units: &str) -> Diagnostic {
    let message = match unit {
        Some(unit) => format!("`{op}` is not an opcode of the `{unit}` unit"),
        None => format!("`{op}` needs a unit"),
    };
    Diagnostic::error(Code::WrongUnit, message)
        .with_primary(span, "wrong unit")
        .with_help(format!("write it as {units}"))
}

/// A modifier the opcode does not take.
pub fn bad_modifier(span: Span, modifier: &str, op: &str, allowed: &str) -> Diagnostic {
    let allowed = if allowed.is_empty() { "no modifier" } else { allowed };
    let message = format!("`{op}` does not take the modifier `{modifier}`");
    Diagnostic::error(Code::BadModifier, message)
        .with_primary(span, "not a modifier of this opcode")
        .with_help(format!("`{op}` takes {allowed}"))
}

/// Two modifiers of one kind (`kind`: "output modifier" or "shift") on one opcode.
pub fn modifier_conflict(span: Span, op: &str, kind: &str, found: &[&str]) -> Diagnostic {
    let found: Vec<String> = found.iter().map(|m| format!("`{m}`")).collect();
    let message = format!("`{op}` takes one {kind}, found {}", found.join(" and "));
    Diagnostic::error(Code::BadModifier, message)
        .with_primary(span, format!("one {kind} too many"))
        .with_help(format!("keep one {kind}"))
}

/// An operation with the wrong number of operands; `form` is what it takes.
pub fn operand_count(span: Span, op: &str, form: &str, found: usize) -> Diagnostic {
    // The form's first word is the opcode.
    let takes = form.split_whitespace().count().saturating_sub(1);
    let label = match found > takes {
        true => "too many operands",
        false => "operands missing",
    };
    let takes = polyasm_core::text::count(takes, "operand");
    Diagnostic::error(Code::OperandCount, format!("`{op}` takes {takes}, found {found}"))
        .with_primary(span, label)
        .with_help(format!("write `{form}`"))
}

/// An operand of the wrong kind: `expected` says what belongs there.
pub fn operand_kind(span: Span, found: &str, expected: &str) -> Diagnostic {
    Diagnostic::error(Code::OperandKind, format!("expected {expected}, found `{found}`"))
        .with_primary(span, "wrong kind of operand")
}

/// A register number no field holds, or `$12`-`$15` as a source.
pub fn register_range(span: Span, text: &str, help: String) -> Diagnostic {
    Diagnostic::error(Code::RegisterRange, format!("`{text}` is not a register here"))
        .with_primary(span, "no such register")
        .with_help(help)
}

/// `$6`-`$15`: encodable, but no compiler uses them.
pub fn unallocated_register(span: Span, text: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::UnallocatedRegister,
        format!("`{text}` is not one of the six registers `$0`-`$5`"),
    )
    .with_primary(span, "encodes, but what the hardware does with it is unknown")
    .with_note("Mesa's compiler uses only $0-$5; the register fields hold $0-$11, and 12-15 are the pipeline registers")
}

/// A read-only pipeline register or a number where the destination belongs.
pub fn destination_last(span: Span, found: &str, corrected: &str) -> Diagnostic {
    let message = format!("`{found}` cannot be a destination: the destination comes first");
    Diagnostic::error(Code::DestinationLast, message)
        .with_primary(span, "read-only, or not a register")
        .with_note("this looks like the older order, with the destination last")
        .with_help(format!("write the destination first: `{corrected}`"))
}

/// A swizzle or write mask that is not one.
pub fn bad_swizzle(span: Span, text: &str, problem: &str, help: &str) -> Diagnostic {
    Diagnostic::error(Code::BadSwizzle, format!("`{text}` {problem}"))
        .with_primary(span, "malformed suffix")
        .with_help(help.to_string())
}

/// A number that is malformed, not an integer where one is needed, or outside its field.
pub fn number_range(span: Span, text: &str, what: &str, range: &str) -> Diagnostic {
    Diagnostic::error(Code::NumberRange, format!("`{text}` is not a valid {what}"))
        .with_primary(span, "out of range or malformed")
        .with_help(format!("a {what} is {range}"))
}

/// A number that is malformed in a way `help` explains (a sign on raw bits).
pub fn number_malformed(span: Span, text: &str, help: String) -> Diagnostic {
    Diagnostic::error(Code::NumberRange, format!("`{text}` is not a valid number"))
        .with_primary(span, "malformed")
        .with_help(help)
}

/// Two signs before a number (`--1`, `-+1`); `one` is the number with one sign.
pub fn doubled_sign(span: Span, text: &str, one: &str) -> Diagnostic {
    Diagnostic::error(Code::Syntax, format!("`{text}` has two signs"))
        .with_primary(span, "two signs")
        .with_help(format!("a number takes one sign: write `{one}`"))
}

/// A constant that binary16 cannot hold exactly.
pub fn inexact_half(span: Span, text: &str, nearest: &str) -> Diagnostic {
    let message = format!("`{text}` is not exactly representable as an fp16 constant");
    Diagnostic::error(Code::InexactHalf, message)
        .with_primary(span, "not a binary16 value")
        .with_help(format!("the nearest fp16 value is {nearest}"))
}

/// A constant beyond binary16's range.
pub fn half_range(span: Span, text: &str) -> Diagnostic {
    let message = format!("`{text}` is outside the range of an fp16 constant");
    Diagnostic::error(Code::HalfRange, message)
        .with_primary(span, "too large for binary16")
        .with_help("fp16 constants lie within -65504 to 65504; write `inf` or `-inf` for infinities")
}

/// A branch to a label no line defines.
pub fn unknown_label(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    let otherwise = format!("define it with `{name}:` on a line of its own before the instruction to branch to");
    Diagnostic::error(Code::UnknownLabel, format!("unknown label `{name}`"))
        .with_primary(span, "no line defines it")
        .with_help(did_you_mean(suggestion, otherwise))
}

/// A label defined twice.
pub fn duplicate_label(span: Span, first: Span, name: &str) -> Diagnostic {
    Diagnostic::error(Code::DuplicateLabel, format!("label `{name}` is defined twice"))
        .with_primary(span, "defined again here")
        .with_secondary(first, "first defined here")
        .with_help("rename one of them")
}

/// A branch target beyond the 27-bit relative field.
pub fn branch_range(span: Span, words: i64) -> Diagnostic {
    Diagnostic::error(Code::BranchRange, format!("the branch target is {words} words away"))
        .with_primary(span, "too far")
        .with_help("a branch reaches -67108864 to 67108863 words from its instruction")
}

/// Operations out of control-word order; `right` is the line in the right order (empty when
/// it is too long to quote).
pub fn field_order(span: Span, after: Span, op: &str, previous: &str, right: &str) -> Diagnostic {
    Diagnostic::error(Code::FieldOrder, format!("`{op}` must come before `{previous}`"))
        .with_primary(span, "out of order")
        .with_secondary(after, "comes later in the control word")
        .with_note("operations are written in the order of their bits in the control word: stop, sync, varying, texld, load, .v0, .s0, .v1, .s1, .s2, store, branch, const0, const1")
        .with_help(match right {
            "" => "write the operations in control-word order".to_string(),
            right => format!("write `{right}`"),
        })
}

/// Two operations of one unit in one instruction.
pub fn unit_twice(span: Span, first: Span, unit: &str) -> Diagnostic {
    let message = format!("the {unit} unit is used twice in one instruction");
    Diagnostic::error(Code::UnitTwice, message)
        .with_primary(span, "second use")
        .with_secondary(first, "first use")
        .with_help("each unit runs one operation per instruction: move one of them to another instruction")
}

/// `^v0`/`^s0` anywhere but the first source of the matching adder.
pub fn pipeline_source(span: Span, name: &str, unit: &str) -> Diagnostic {
    Diagnostic::error(Code::PipelineSource, format!("`{name}` can only be the first source of `{unit}`"))
        .with_primary(span, "not readable here")
        .with_help(format!(
            "the multiplier's result reaches only the first source of the adder of the same kind; write it to a register and read that in the next instruction, or use it as the first source of a `{unit}` op"
        ))
}

/// The combiner and the branch unit in one instruction.
pub fn combine_with_branch(span: Span, branch: Span) -> Diagnostic {
    Diagnostic::error(
        Code::CombineWithBranch,
        "the `.s2` unit and a branch cannot share an instruction",
    )
    .with_primary(span, "combiner")
    .with_secondary(branch, "branch")
    .with_help("the branch unit runs in parallel with the combiner: put them in separate instructions")
}

/// `sel` without a scalar multiplier op to give its condition.
pub fn sel_without_fmul(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::SelWithoutFmul,
        "`sel` needs the scalar multiplier's result in the same instruction",
    )
    .with_primary(span, "no `.s0` op gives the condition")
    .with_help(
        "add a `.s0` op to this instruction, e.g. `mov.s0 ^s0 $1.x`: sel picks its first source when ^s0 is not 0",
    )
}

/// Words that read `^const0`/`^const1` without that constant field, which the proposed
/// syntax cannot write (PP022 when the text is assembled).
pub fn unset_constant_warning(name: &str, offset: usize, reg: &str, field: &str) -> Diagnostic {
    let message = format!("{name}: word {offset}: `{reg}` is read but the instruction has no `{field}`");
    Diagnostic::warning(Code::UnsetConstantWords, message)
        .with_note("the proposed syntax refuses such a read (PP022), so this text does not assemble again")
        .with_help("`--syntax mesa` prints these words in text that assembles to them")
}

/// A read of `^const0`/`^const1` in an instruction without that constant field.
pub fn constant_not_set(span: Span, name: &str, field: &str) -> Diagnostic {
    let message = format!("`{name}` is read but this instruction has no `{field}`");
    Diagnostic::error(Code::ConstantNotSet, message)
        .with_primary(span, "undefined value")
        .with_help(format!(
            "constants live for one instruction: add `{field} x y z w` to it"
        ))
}

/// A texture fetch or derivative in an instruction without `sync`.
pub fn missing_sync(span: Span, op: &str) -> Diagnostic {
    Diagnostic::warning(Code::MissingSync, format!("`{op}` in an instruction without `sync`"))
        .with_primary(span, "needs the threads in step")
        .with_help("add `sync` to the instruction, as every compiler does with texture fetches and derivatives")
}

/// An encoding that no compiler writes (`load.u1`, a store with alignment 3): `text` is what
/// selects it, `what` names it.
pub fn unused_encoding(span: Span, text: &str, what: &str, help: String) -> Diagnostic {
    let message = format!("`{text}` is {what}, which no compiler writes");
    Diagnostic::warning(Code::UnusedEncoding, message)
        .with_primary(span, "encodes, but what the hardware does with it is unknown")
        .with_help(help)
}

/// An older name still read.
pub fn old_name(span: Span, old: &str, new: &str) -> Diagnostic {
    Diagnostic::warning(Code::OldName, format!("`{old}` is the older name of `{new}`"))
        .with_primary(span, "older name")
        .with_help(format!("write `{new}`"))
}

/// A `-` or `abs()` on an operand whose field has no modifier bits.
pub fn operand_modifier(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(Code::OperandModifier, format!("{what} takes no `-` or `abs()`"))
        .with_primary(span, "no modifier bits for this operand")
        .with_help("apply the modifier in an ALU op first, or drop it")
}

/// `^v0`/`^s0` read in an instruction without the multiplier op that gives it.
pub fn pipeline_unproduced(span: Span, name: &str, unit: &str) -> Diagnostic {
    let message = format!("`{name}` is read but this instruction has no `{unit}` op");
    Diagnostic::error(Code::PipelineUnproduced, message)
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
    let entry = object
        .listing
        .iter()
        .find(|entry| entry.offset == offset && entry.len > 0);
    match entry.and_then(|entry| entry.span) {
        Some(span) => diagnostic.with_primary(span, "this instruction"),
        None => diagnostic,
    }
}

/// A `--texture` file that cannot be read or is not a PNG picture.
pub fn texture_error(sampler: usize, path: &str, reason: &str) -> Diagnostic {
    let message = format!("cannot read texture {sampler} from `{path}`: {reason}");
    Diagnostic::error(Code::TextureUnreadable, message)
        .with_help("a texture is a PNG picture of at most 4096 pixels a side")
}

/// The warning that texture `sampler` is given but the program never samples it.
pub fn unused_texture(sampler: usize, path: &str) -> Diagnostic {
    let message = format!("texture {sampler} (`{path}`) is not read: the program never samples sampler {sampler}");
    Diagnostic::warning(Code::UnusedTexture, message).with_help(format!(
        "check the sampler number of `--texture {sampler}=...` against the program's `texld`, or leave it out"
    ))
}
