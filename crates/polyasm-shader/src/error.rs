//! The shader-asm dialect's typed errors and the one place they become [`Diagnostic`]s. Codes
//! live here.

use polyasm_core::container::{HeaderProblem, Truncated};
use polyasm_core::number::NumberProblem;
use polyasm_core::text::count;
use polyasm_core::{Diagnostic, Span};

use crate::ops::signature;
use crate::ops::{
    Dialect, INSTRUCTION_BYTES, MAX_INSTRUCTIONS, MEMORY_CELLS, OPS, Op, Reg, SCALARS, Selector, Type, UnpackError,
    V2_SCALARS, V2_VECTORS, VECTORS,
};

/// Why a register name names no register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterHint {
    /// The name of a register in another case: `S0`, `PC`.
    Case(String),
    /// `s8`, `v12`: the kind exists, the number does not.
    Number {
        /// The register kind's letter: `s` for a scalar, `v` for a vector.
        kind: char,
    },
    /// A register close to the name.
    Suggestion(String),
    /// A register of the other dialect only: `z` in v1, `s7` in v2.
    OtherDialect(Dialect),
    /// No register is near the name.
    None,
}

/// Why a number v1 reads is no number of v2's `load`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WholeProblem {
    /// Below 0: `-2`.
    Negative,
    /// A `+` in front.
    Sign,
    /// Not whole: `0.5`.
    Fraction,
    /// Written with an exponent: `1e3`.
    Exponent,
    /// Above 16777215.
    TooLarge,
}

/// Where an instruction's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A register, or one component of a vector.
    Register {
        /// The register written.
        reg: Reg,
        /// The component written (0 to 3), when only one of a vector is.
        component: Option<usize>,
    },
    /// A memory cell (v2), when the assembler knows which.
    Cell(Option<usize>),
}

/// Everything that can be wrong in shader-asm source.
#[derive(Clone, Debug, PartialEq)]
pub enum ShError {
    /// A token the line grammar does not allow here.
    Unexpected {
        /// Where the error points: the token that is not allowed.
        span: Span,
        /// What was found, quoted: "`,`", or `end of line`.
        found: String,
        /// What the grammar takes there: "`)` or `,`".
        expected: String,
    },
    /// A name that is no instruction of the file's dialect: `ad`, `getComponent4`.
    UnknownInstruction {
        /// Where the error points: the instruction's name.
        span: Span,
        /// The name as written.
        name: String,
        /// The instruction the name is closest to, offered as "did you mean".
        suggestion: Option<&'static str>,
        /// The dialect the source is read in.
        dialect: Dialect,
        /// The instruction of the other dialect it names, if it names one.
        other: Option<Op>,
    },
    /// An operand that names no register: `s9`, `S0`, `foo`.
    UnknownRegister {
        /// Where the error points: the operand.
        span: Span,
        /// The operand as written.
        name: String,
        /// What the help says: a register it is close to, or why it is none.
        hint: RegisterHint,
        /// The dialect the source is read in, whose registers the help lists.
        dialect: Dialect,
    },
    /// The call has `found` operands; `span` covers the extra ones or the `)` where one is missing.
    OperandCount {
        /// Where the error points: the extra operands, or the `)` where operands are missing.
        span: Span,
        /// The instruction's name, labelled with its signature.
        head: Span,
        /// The instruction, whose signature says how many operands it takes.
        op: Op,
        /// How many operands the call has.
        found: usize,
    },
    /// A register of the wrong type: a vector where a scalar belongs, or the reverse.
    WrongType {
        /// Where the error points: the operand.
        span: Span,
        /// The instruction, whose signature the note quotes.
        op: Op,
        /// The type the operand takes.
        expected: Type,
        /// The register written there.
        reg: Reg,
        /// The dialect the source is read in, whose registers the help names.
        dialect: Dialect,
    },
    /// A number where operand `index` of `op` takes a register.
    NumberForRegister {
        /// Where the error points: the number.
        span: Span,
        /// The instruction, named in the message.
        op: Op,
        /// The type of register the operand takes.
        expected: Type,
        /// The number as written, quoted in the help's `load(s0, ...)`.
        text: String,
    },
    /// A name where `load` takes a number.
    NameForNumber {
        /// Where the error points: the name.
        span: Span,
        /// The instruction, `load`, named in the message.
        op: Op,
        /// The name as written: a register, `inf`, `nan` or anything else.
        name: String,
    },
    /// An instruction writes an input (or `z`), directly or one of its components.
    WritesInput {
        /// Where the error points: the operand that names the input.
        span: Span,
        /// The instruction that writes it.
        op: Op,
        /// The register written: `pc`, `t`, `s` or `z`.
        reg: Reg,
        /// The dialect the source is read in, whose writable registers the help lists.
        dialect: Dialect,
    },
    /// A malformed number literal: `1.2.3`, `0x10`, `1e`.
    MalformedNumber {
        /// Where the error points: the literal (the label narrows it to a bad character).
        span: Span,
        /// The literal as written.
        text: String,
        /// What is wrong with it.
        problem: NumberProblem,
    },
    /// A number too large for an f32: `1e39`.
    NumberOutOfRange {
        /// Where the error points: the number.
        span: Span,
        /// The number as written.
        text: String,
    },
    /// A number v2's `load` does not take.
    NotWhole {
        /// Where the error points: the number.
        span: Span,
        /// The number as written.
        text: String,
        /// Why it is no whole number from 0 to 16777215.
        problem: WholeProblem,
    },
    /// A form of `dialect` in a file that is of the other dialect from `first` on.
    MixedDialects {
        /// Where the error points: the form of `dialect`.
        span: Span,
        /// The form as written: an instruction's or a register's name.
        form: String,
        /// The dialect that has the form (not the file's).
        dialect: Dialect,
        /// The first form of the file's dialect, which settled it.
        first: Span,
        /// That first form as written.
        first_form: String,
    },
    /// A component index or memory address that is always out of range.
    IndexOutOfRange {
        /// Where the error points: the register that holds the index.
        span: Span,
        /// The instruction; whether it picks a component or a cell sets the range.
        op: Op,
    },
    /// A name without `(` after it.
    MissingOpen {
        /// Where the error points: where the `(` was expected.
        span: Span,
        /// The name before it, as written.
        name: String,
    },
    /// A line that ends before the call's `)`.
    MissingClose {
        /// Where the error points: where the `)` was expected.
        span: Span,
        /// The name of the call, labelled "this call".
        head: Span,
    },
    /// Text after the call's `)` that is no comment.
    TrailingText {
        /// Where the error points: the text after the `)`.
        span: Span,
    },
    /// A second call on the line of the first.
    TwoInstructions {
        /// Where the error points: the second call.
        span: Span,
    },
    /// An instruction past [`MAX_INSTRUCTIONS`].
    TooManyInstructions {
        /// Where the error points: the first instruction past the limit.
        span: Span,
    },
    /// A result that no later instruction reads and that is not the output.
    UnreadResult {
        /// Where the warning points: the operand the result is written to.
        span: Span,
        /// The instruction whose result is lost.
        op: Op,
        /// Where the result went, as the message names it.
        place: Place,
    },
}

polyasm_core::codes! {
    /// Every shader-asm code; docs/codes/shader.md explains each one.
    pub enum Code, explained in "../codes.md" {
        Syntax = "SH001", Error, "syntax error";
        UnknownInstruction = "SH002", Error, "unknown instruction";
        UnknownRegister = "SH003", Error, "unknown register";
        OperandCount = "SH004", Error, "wrong number of operands";
        OperandType = "SH005", Error, "wrong operand type";
        NumberForRegister = "SH006", Error, "number where a register belongs";
        RegisterForNumber = "SH007", Error, "register where a number belongs";
        InputWritten = "SH008", Error, "input written";
        MalformedNumber = "SH009", Error, "malformed number";
        NumberOutOfRange = "SH010", Error, "number out of range";
        MissingParenthesis = "SH011", Error, "missing parenthesis";
        TrailingText = "SH012", Error, "text after the instruction";
        TwoInstructions = "SH013", Error, "two instructions on a line";
        ProgramTooLong = "SH014", Error, "program too long";
        ResultNeverRead = "SH015", Warning, "result never read";
        DialectsMixed = "SH016", Error, "dialects mixed";
        NumberNotWhole = "SH017", Error, "number not whole";
        IndexOutOfRange = "SH018", Warning, "index always out of range";
        NotBytecode = "SH020", Error, "not shader-asm bytecode";
        UnknownVersion = "SH021", Error, "unknown bytecode version";
        BadFlags = "SH022", Error, "bad flags";
        BytecodeCutShort = "SH023", Error, "bytecode cut short";
        TrailingBytes = "SH024", Error, "bytes after the program";
        UnknownOpcode = "SH025", Error, "unknown opcode";
        BadRegisterField = "SH026", Error, "bad register field";
        BytecodeWritesInput = "SH027", Error, "bytecode writes an input";
        UnusedFieldSet = "SH028", Error, "unused field set";
        ConstantNotFinite = "SH029", Error, "constant not finite";
        TooManyInstructions = "SH030", Error, "too many instructions in the bytecode";
        ConstantNotV2 = "SH031", Error, "constant not a v2 number";
        NoGpuAdapter = "SH040", Error, "no GPU adapter";
        GpuFailed = "SH041", Error, "GPU rendering failed";
    }
}

const SYNTAX_HELP: &str = "write one instruction per line as a call, e.g. `add(s0, s1, s2)`";

impl ShError {
    /// The code this error is reported with.
    pub fn code(&self) -> Code {
        match self {
            ShError::Unexpected { .. } => Code::Syntax,
            ShError::UnknownInstruction { .. } => Code::UnknownInstruction,
            ShError::UnknownRegister { .. } => Code::UnknownRegister,
            ShError::OperandCount { .. } => Code::OperandCount,
            ShError::WrongType { .. } => Code::OperandType,
            ShError::NumberForRegister { .. } => Code::NumberForRegister,
            ShError::NameForNumber { .. } => Code::RegisterForNumber,
            ShError::WritesInput { .. } => Code::InputWritten,
            ShError::MalformedNumber { .. } => Code::MalformedNumber,
            ShError::NumberOutOfRange { .. } => Code::NumberOutOfRange,
            ShError::MixedDialects { .. } => Code::DialectsMixed,
            ShError::NotWhole { .. } => Code::NumberNotWhole,
            ShError::IndexOutOfRange { .. } => Code::IndexOutOfRange,
            ShError::MissingOpen { .. } | ShError::MissingClose { .. } => Code::MissingParenthesis,
            ShError::TrailingText { .. } => Code::TrailingText,
            ShError::TwoInstructions { .. } => Code::TwoInstructions,
            ShError::TooManyInstructions { .. } => Code::ProgramTooLong,
            ShError::UnreadResult { .. } => Code::ResultNeverRead,
        }
    }

    /// Where the error is.
    pub fn span(&self) -> Span {
        match self {
            ShError::Unexpected { span, .. }
            | ShError::UnknownInstruction { span, .. }
            | ShError::UnknownRegister { span, .. }
            | ShError::OperandCount { span, .. }
            | ShError::WrongType { span, .. }
            | ShError::NumberForRegister { span, .. }
            | ShError::NameForNumber { span, .. }
            | ShError::WritesInput { span, .. }
            | ShError::MalformedNumber { span, .. }
            | ShError::NumberOutOfRange { span, .. }
            | ShError::NotWhole { span, .. }
            | ShError::MixedDialects { span, .. }
            | ShError::IndexOutOfRange { span, .. }
            | ShError::MissingOpen { span, .. }
            | ShError::MissingClose { span, .. }
            | ShError::TrailingText { span }
            | ShError::TwoInstructions { span }
            | ShError::TooManyInstructions { span }
            | ShError::UnreadResult { span, .. } => *span,
        }
    }

    /// The message, labels, notes and help of this error.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let code = self.code();
        match self {
            ShError::Unexpected { span, found, expected } => Diagnostic::error(code, format!("unexpected {found}"))
                .with_primary(*span, format!("expected {expected}"))
                .with_help(SYNTAX_HELP),
            ShError::UnknownInstruction {
                span,
                name,
                suggestion,
                dialect,
                other,
            } => {
                let d = Diagnostic::error(code, format!("unknown instruction `{name}`"))
                    .with_primary(*span, "not a shader-asm instruction");
                let family = component_past_three(name).filter(|_| *dialect == Dialect::V1);
                match (other, suggestion, family) {
                    (Some(op), _, _) => {
                        let theirs = dialect.other();
                        d.with_note(format!(
                            "`{}` is {}'s; {}",
                            op.info().mnemonic,
                            theirs.name(),
                            in_the_other_dialect(name, theirs)
                        ))
                        .with_help(format!(
                            "to assemble the file as {0}, give `--dialect {0}`",
                            theirs.name()
                        ))
                    }
                    (None, _, Some(family)) => {
                        d.with_help(format!("vectors have components 0 to 3: `{family}0` to `{family}3`"))
                    }
                    (None, Some(s), None) => d.with_did_you_mean(*span, s),
                    (None, None, None) => d.with_help("`polyasm explain SH002` lists every instruction"),
                }
            }
            ShError::UnknownRegister {
                span,
                name,
                hint,
                dialect,
            } => {
                let d = Diagnostic::error(code, format!("unknown register `{name}`"))
                    .with_primary(*span, "no such register");
                match hint {
                    RegisterHint::Case(right) => d.with_help(format!("register names are lower case: `{right}`")),
                    RegisterHint::Number { kind: 's' } => {
                        d.with_help(format!("the scalar registers are {}", scalars(*dialect)))
                    }
                    RegisterHint::Number { .. } => {
                        d.with_help(format!("the vector registers are {}", vectors(*dialect)))
                    }
                    RegisterHint::Suggestion(s) => d.with_did_you_mean(*span, s),
                    RegisterHint::OtherDialect(theirs) => d
                        .with_note(format!(
                            "`{name}` is {}'s; {}",
                            theirs.name(),
                            in_the_other_dialect(name, *theirs)
                        ))
                        .with_help(format!(
                            "to assemble the file as {0}, give `--dialect {0}`",
                            theirs.name()
                        )),
                    RegisterHint::None => d.with_help(format!(
                        "registers are {}, {}, the inputs pc, t and s, {}the output c",
                        scalars(*dialect),
                        vectors(*dialect),
                        if *dialect == Dialect::V2 {
                            "the zero z, and "
                        } else {
                            "and "
                        }
                    )),
                }
            }
            ShError::OperandCount { span, head, op, found } => {
                let takes = op.info().operands.len();
                let d = Diagnostic::error(
                    code,
                    format!(
                        "`{}` takes {}, found {found}",
                        op.info().mnemonic,
                        count(takes, "operand")
                    ),
                );
                let d = if *found > takes {
                    d.with_primary(*span, count(found - takes, "extra operand"))
                } else {
                    d.with_primary(*span, format!("{} missing", count(takes - found, "operand")))
                };
                d.with_secondary(*head, format!("`{}`", signature(*op)))
                    .with_help(format!("write `{}`", signature(*op)))
            }
            ShError::WrongType {
                span,
                op,
                expected,
                reg,
                dialect,
            } => Diagnostic::error(
                code,
                format!(
                    "`{}` takes a {} here, `{}` is a {}",
                    op.info().mnemonic,
                    expected.name(),
                    reg.name(),
                    reg.ty().name()
                ),
            )
            .with_primary(*span, format!("a {}", reg.ty().name()))
            .with_note(format!("the signature is `{}`", signature(*op)))
            .with_help(type_help(*expected, *reg, *dialect)),
            ShError::NumberForRegister {
                span,
                op,
                expected,
                text,
            } => Diagnostic::error(
                code,
                format!(
                    "`{}` takes a {} register here, not a number",
                    op.info().mnemonic,
                    expected.name()
                ),
            )
            .with_primary(*span, "a number")
            .with_help(match expected {
                Type::Scalar => format!("load the number into a scalar first: `load(s0, {text})`, then use `s0`"),
                Type::Vector => "name a vector register: v0 to v7, pc, s or c".to_string(),
            }),
            ShError::NameForNumber { span, op, name } => {
                let what = match crate::ops::Reg::from_name(name) {
                    Some(_) => "a register",
                    None => "a name",
                };
                let d = Diagnostic::error(
                    code,
                    format!("`{}` takes a number here, `{name}` is {what}", op.info().mnemonic),
                )
                .with_primary(*span, "expected a number");
                match name.to_ascii_lowercase().as_str() {
                    "inf" | "infinity" => d.with_help(
                        "there is no literal for infinity: `load(s0, 0)` then `reciprocal(s0, s0)` gives it",
                    ),
                    "nan" => d.with_help("there is no literal for NaN: 0 times the reciprocal of 0 gives it"),
                    _ if crate::ops::Reg::from_name(name).is_some() => {
                        d.with_help(format!("copy a register with `move({name}, sB)`"))
                    }
                    _ => d.with_help("write a number such as `1`, `-2.5` or `1e-3`"),
                }
            }
            ShError::WritesInput { span, op, reg, dialect } => {
                let what = match op.component() {
                    Some(n) => format!("`{}` writes component {n} of `{}`", op.info().mnemonic, reg.name()),
                    None => format!("`{}` writes `{}`", op.info().mnemonic, reg.name()),
                };
                let kind = if *reg == crate::ops::ZERO {
                    "which always reads 0 and is read only"
                } else {
                    "an input, which is read only"
                };
                Diagnostic::error(code, format!("{what}, {kind}"))
                    .with_primary(*span, "read only")
                    .with_help(match reg.ty() {
                        Type::Scalar => format!("write a register of your own, {}", scalars(*dialect)),
                        Type::Vector => format!(
                            "build the vector in a register of your own, {}, or write the output `c`",
                            vectors(*dialect)
                        ),
                    })
            }
            ShError::MalformedNumber { span, text, problem } => {
                let d = Diagnostic::error(code, format!("malformed number `{text}`"));
                match problem {
                    NumberProblem::Hex => d
                        .with_primary(*span, "hexadecimal")
                        .with_help("write the number in decimal"),
                    NumberProblem::Unexpected { at, c } => {
                        let start = span.start as usize + at;
                        let bad = Span::new(span.source, start, start + c.len_utf8());
                        let d = d.with_primary(bad, format!("`{}` does not belong here", c.escape_debug()));
                        match c {
                            '_' => d.with_help("write the digits without `_`"),
                            '.' => d.with_help("a number has at most one `.`"),
                            _ => d.with_help("a number is digits, a `.` and an exponent, e.g. `-2.5e-3`"),
                        }
                    }
                    NumberProblem::NoDigits => d
                        .with_primary(*span, "no digits")
                        .with_help("write a digit before or after the `.`, e.g. `0.5`"),
                    NumberProblem::NoExponentDigits => d
                        .with_primary(*span, "no digits after the exponent's `e`")
                        .with_help("e.g. `1e-3` is 0.001"),
                }
            }
            ShError::NumberOutOfRange { span, text } => {
                Diagnostic::error(code, format!("`{text}` is too large for a 32-bit float"))
                    .with_primary(*span, "rounds to infinity")
                    .with_note(format!("the largest finite value is {:e}", f32::MAX))
                    .with_help("for infinity, take the reciprocal of 0: `load(s0, 0)`, `reciprocal(s0, s0)`")
            }
            ShError::NotWhole { span, text, problem } => {
                let (label, help) = match problem {
                    WholeProblem::Negative => (
                        "negative",
                        "load its magnitude, then negate it: `load(s0, 2)`, `negate(s0, s0)`",
                    ),
                    WholeProblem::Sign => ("a sign", "write the number without the `+`"),
                    WholeProblem::Fraction => (
                        "a fraction",
                        "build it from whole numbers: 0.5 is `load(s0, 2)` then `reciprocal(s0, s0)`",
                    ),
                    WholeProblem::Exponent => ("an exponent", "write the number in digits"),
                    WholeProblem::TooLarge => (
                        "more than 24 bits",
                        "multiply two smaller numbers: `load(s0, 4096)`, `multiply(s0, s0, s0)`",
                    ),
                };
                Diagnostic::error(
                    code,
                    format!("v2's `load` takes a whole number from 0 to 16777215, not `{text}`"),
                )
                .with_primary(*span, label)
                .with_note("v1 (`--dialect v1`) takes any 32-bit float")
                .with_help(help)
            }
            ShError::MixedDialects {
                span,
                form,
                dialect,
                first,
                first_form,
            } => {
                let theirs = dialect.other();
                Diagnostic::error(
                    code,
                    format!(
                        "`{form}` is {}'s, but this file is {} from `{first_form}` on",
                        dialect.name(),
                        theirs.name()
                    ),
                )
                .with_primary(*span, format!("a {} form", dialect.name()))
                .with_secondary(*first, format!("the first {} form", theirs.name()))
                .with_note(in_the_other_dialect(form, *dialect))
                .with_help("write the file in one dialect; `--dialect v1` or `--dialect v2` names it")
            }
            ShError::IndexOutOfRange { span, op } => {
                let (what, range) = match op.info().selector {
                    crate::ops::Selector::CellAt(_) => ("memory cell", format!("0 to {}", MEMORY_CELLS - 1)),
                    _ => ("component", "0 to 3".to_string()),
                };
                Diagnostic::warning(
                    code,
                    format!("the {what} `{}` picks is always outside {range}", op.info().mnemonic),
                )
                .with_primary(*span, format!("never {range}"))
                .with_note("polyasm reads 0 there and writes nothing; ShaderVM leaves it undefined")
                .with_help(format!("put an index from {range} in the register, e.g. with `load`"))
            }
            ShError::MissingOpen { span, name } => Diagnostic::error(code, format!("`(` missing after `{name}`"))
                .with_primary(*span, "expected `(`")
                .with_help(match Op::from_mnemonic(name) {
                    Some(op) => format!("write `{}`", signature(op)),
                    None => "write the operands in parentheses: `name(operand, operand)`".to_string(),
                }),
            ShError::MissingClose { span, head } => Diagnostic::error(code, "`)` missing at the end of the line")
                .with_primary(*span, "expected `)`")
                .with_secondary(*head, "this call")
                .with_help("close the operands with `)`; an instruction may not continue on the next line"),
            ShError::TrailingText { span } => Diagnostic::error(code, "text after the instruction's `)`")
                .with_primary(*span, "nothing may follow the instruction")
                .with_help("start a comment with `#`"),
            ShError::TwoInstructions { span } => Diagnostic::error(code, "a second instruction on the same line")
                .with_primary(*span, "a second instruction")
                .with_help("put each instruction on a line of its own"),
            ShError::TooManyInstructions { span } => {
                Diagnostic::error(code, format!("program is longer than {MAX_INSTRUCTIONS} instructions"))
                    .with_primary(*span, format!("instruction {}", MAX_INSTRUCTIONS + 1))
                    .with_help("split the work into several programs")
            }
            ShError::UnreadResult { span, op, place } => {
                let what = match place {
                    Place::Register {
                        reg,
                        component: Some(n),
                    } => format!(" in component {n} of `{}`", reg.name()),
                    Place::Register { reg, component: None } => format!(" in `{}`", reg.name()),
                    Place::Cell(Some(cell)) => format!(" in memory cell {cell}"),
                    Place::Cell(None) => String::new(),
                };
                Diagnostic::warning(
                    code,
                    format!("the result of `{}`{what} is never read", op.info().mnemonic),
                )
                .with_primary(*span, "written here, then never read")
                .with_note("only the output `c` is used after the program")
                .with_help("remove the instruction, or read the result")
            }
        }
    }
}

/// `getComponent` for `getComponent4` (in any case): a component number past 3 of a
/// component family (the names of the forms that take the component from a register).
fn component_past_three(name: &str) -> Option<&'static str> {
    let mut families = OPS
        .iter()
        .filter(|row| matches!(row.selector, Selector::ComponentAt(_)))
        .map(|row| row.mnemonic);
    families.find(|family| {
        name.get(..family.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(family))
            .then(|| &name[family.len()..])
            .is_some_and(|n| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && n.parse::<u32>().map_or(true, |n| n > 3)
            })
    })
}

fn type_help(expected: Type, reg: Reg, dialect: Dialect) -> String {
    match (expected, dialect) {
        (Type::Scalar, Dialect::V1) => format!(
            "take one component into a scalar first, e.g. `getComponent0({}, s0)`",
            reg.name()
        ),
        (Type::Scalar, Dialect::V2) => format!(
            "take one component into a scalar first, e.g. `getComponent({}, s0, z)`",
            reg.name()
        ),
        (Type::Vector, _) => format!("name a vector: {}, pc, s or c", vectors(dialect)),
    }
}

/// The scalar registers of `dialect`, for messages: `s0 to s7`.
fn scalars(dialect: Dialect) -> String {
    let count = match dialect {
        Dialect::V1 => SCALARS,
        Dialect::V2 => V2_SCALARS,
    };
    format!("s0 to s{}", count - 1)
}

/// The vector registers of `dialect`, for messages: `v0 to v7`.
fn vectors(dialect: Dialect) -> String {
    let count = match dialect {
        Dialect::V1 => VECTORS,
        Dialect::V2 => V2_VECTORS,
    };
    format!("v0 to v{}", count - 1)
}

/// What `form`, a form only `dialect` has, is written as in the other dialect.
fn in_the_other_dialect(form: &str, dialect: Dialect) -> String {
    if let Some(elsewhere) = Op::from_mnemonic(form).and_then(|op| op.info().elsewhere) {
        return elsewhere.to_string();
    }
    let other = dialect.other().name();
    match (dialect, form) {
        (Dialect::V1, _) => format!(
            "{other} has the scalars {} and the vectors {}",
            scalars(Dialect::V2),
            vectors(Dialect::V2)
        ),
        (Dialect::V2, "z") => format!("in {other}, load 0 into a register of your own"),
        (Dialect::V2, _) => format!("{other} has no `{form}`"),
    }
}

/// What makes bytes no bytecode file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BytecodeProblem {
    /// The header is refused: the first 4 bytes are not `SHBC`, another version, unknown
    /// flags, more instructions than a program holds, or the file ends inside it.
    Header(HeaderProblem),
    /// The file ends inside the instructions.
    Truncated(Truncated),
    /// Bytes after the last instruction.
    Trailing(usize),
    /// Instruction `index` does not unpack.
    Instruction {
        /// The instruction's index in the file, from 0.
        index: usize,
        /// Its two words, as the message quotes them in hex.
        words: [u32; 2],
        /// Why they are no instruction.
        error: UnpackError,
    },
    /// `load` at `index` has an infinite or NaN constant.
    NotFinite {
        /// The instruction's index in the file, from 0.
        index: usize,
        /// The constant's bits, as the message quotes them in hex.
        bits: u32,
    },
    /// The v2 flag is set, but no instruction uses a form only v2 has.
    NoV2Form,
    /// Instruction `index` is an instruction of the other dialect than the file's.
    OpOfOtherDialect {
        /// The instruction's index in the file, from 0.
        index: usize,
        /// The instruction, which only the other dialect has.
        op: Op,
        /// The dialect the file's flags give.
        file: Dialect,
    },
    /// Instruction `index` names a register of the other dialect than the file's.
    RegisterOfOtherDialect {
        /// The instruction's index in the file, from 0.
        index: usize,
        /// The register, which only the other dialect has.
        reg: Reg,
        /// The dialect the file's flags give.
        file: Dialect,
    },
    /// `load` at `index`, in a v2 file, has a constant that is no whole number 0 to 16777215.
    NotWhole {
        /// The instruction's index in the file, from 0.
        index: usize,
        /// The constant's bits, as the message quotes them in hex.
        bits: u32,
    },
}

/// A problem of a bytecode file and the byte offset it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    /// Where the error points: the byte offset of the field or instruction that is wrong.
    pub offset: usize,
    /// What is wrong.
    pub problem: BytecodeProblem,
}

impl std::fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: ", self.offset)?;
        let truncated = |f: &mut std::fmt::Formatter<'_>, t: Truncated| {
            write!(
                f,
                "the file ends inside {} ({} of {} bytes left)",
                t.what, t.left, t.needed
            )
        };
        match self.problem {
            BytecodeProblem::Header(HeaderProblem::Magic) => f.write_str("it does not start with `SHBC`"),
            BytecodeProblem::Header(HeaderProblem::Version(v)) => {
                write!(f, "version {v}; this polyasm reads version 1")
            }
            BytecodeProblem::Header(HeaderProblem::Flags(flags)) => {
                write!(f, "reserved flags 0x{flags:04x} are set (only bit 0, v2, is defined)")
            }
            BytecodeProblem::Header(HeaderProblem::Count(n)) => {
                write!(f, "{n} instructions; a program holds at most {MAX_INSTRUCTIONS}")
            }
            BytecodeProblem::Header(HeaderProblem::Truncated(t)) | BytecodeProblem::Truncated(t) => truncated(f, t),
            BytecodeProblem::NoV2Form => f.write_str("the v2 flag is set, but no instruction uses a form only v2 has"),
            BytecodeProblem::OpOfOtherDialect { index, op, file } => write!(
                f,
                "instruction {index}: `{}` is {}'s, and the file's flags say {}",
                op.info().mnemonic,
                file.other().name(),
                file.name()
            ),
            BytecodeProblem::RegisterOfOtherDialect { index, reg, file } => write!(
                f,
                "instruction {index}: register `{}` is {}'s, and the file's flags say {}",
                reg.name(),
                file.other().name(),
                file.name()
            ),
            BytecodeProblem::NotWhole { index, bits } => write!(
                f,
                "instruction {index}: `load`'s constant {} (0x{bits:08x}) is no whole number from 0 to 16777215, as v2 needs",
                crate::print::format_number(f32::from_bits(bits))
            ),
            BytecodeProblem::Trailing(n) => write!(f, "{} follow the last instruction", count(n, "byte")),
            BytecodeProblem::Instruction { index, words, error } => {
                write!(f, "instruction {index} ({:08x} {:08x}): ", words[0], words[1])?;
                let operand = |i: usize| ["first", "second", "third"][i];
                match error {
                    UnpackError::Opcode(code) => write!(f, "opcode {code} is no instruction"),
                    UnpackError::Register { index, value } => {
                        write!(f, "the {} operand's register field is {value}", operand(index))?;
                        match Op::from_code(words[0] as u8).and_then(|op| op.info().operands.get(index)) {
                            Some(crate::ops::Operand::Read(ty) | crate::ops::Operand::Write(ty)) => {
                                write!(f, ", not a {} register", ty.name())
                            }
                            _ => f.write_str(", not a vector register"),
                        }
                    }
                    UnpackError::ReadOnly { index, reg } if reg == crate::ops::ZERO => {
                        write!(
                            f,
                            "the {} operand writes `z`, which always reads 0 and is read only",
                            operand(index)
                        )
                    }
                    UnpackError::ReadOnly { index, reg } => {
                        write!(f, "the {} operand writes `{}`, an input", operand(index), reg.name())
                    }
                    UnpackError::Unused { index } => {
                        write!(f, "register field {} is unused and must be 0", index + 1)
                    }
                    UnpackError::Constant => f.write_str("only `load` has a constant; the second word must be 0"),
                }
            }
            BytecodeProblem::NotFinite { index, bits } => write!(
                f,
                "instruction {index}: `load`'s constant {} (0x{bits:08x}) is not finite",
                f32::from_bits(bits)
            ),
        }
    }
}

impl BytecodeError {
    /// The code this error is reported with.
    pub fn code(&self) -> Code {
        match self.problem {
            BytecodeProblem::Header(HeaderProblem::Magic) => Code::NotBytecode,
            BytecodeProblem::Header(HeaderProblem::Version(_)) => Code::UnknownVersion,
            BytecodeProblem::Header(HeaderProblem::Flags(_)) | BytecodeProblem::NoV2Form => Code::BadFlags,
            BytecodeProblem::Header(HeaderProblem::Count(_)) => Code::TooManyInstructions,
            BytecodeProblem::OpOfOtherDialect { .. } => Code::UnknownOpcode,
            BytecodeProblem::RegisterOfOtherDialect { .. } => Code::BadRegisterField,
            BytecodeProblem::NotWhole { .. } => Code::ConstantNotV2,
            BytecodeProblem::Header(HeaderProblem::Truncated(_)) | BytecodeProblem::Truncated(_) => {
                Code::BytecodeCutShort
            }
            BytecodeProblem::Trailing(_) => Code::TrailingBytes,
            BytecodeProblem::Instruction { error, .. } => match error {
                UnpackError::Opcode(_) => Code::UnknownOpcode,
                UnpackError::Register { .. } => Code::BadRegisterField,
                UnpackError::ReadOnly { .. } => Code::BytecodeWritesInput,
                UnpackError::Unused { .. } | UnpackError::Constant => Code::UnusedFieldSet,
            },
            BytecodeProblem::NotFinite { .. } => Code::ConstantNotFinite,
        }
    }

    /// The error as a diagnostic about the input called `name`.
    pub fn to_diagnostic(&self, name: &str) -> Diagnostic {
        let d = Diagnostic::error(self.code(), format!("{name} is not valid shader-asm bytecode: {self}"));
        match self.problem {
            BytecodeProblem::Header(HeaderProblem::Magic) => d.with_help(
                "a bytecode file is what `polyasm prog.sasm -o prog.shb` writes; assemble source with `polyasm FILE`",
            ),
            BytecodeProblem::Header(HeaderProblem::Truncated(_))
            | BytecodeProblem::Truncated(_)
            | BytecodeProblem::Trailing(_) => d.with_note(format!(
                "a bytecode file is 12 bytes of header and {INSTRUCTION_BYTES} bytes per instruction"
            )),
            _ => d.with_note("docs/formats/shader-bytecode.md describes every field"),
        }
    }
}

/// Bytecode that [`crate::decode::read`] refuses, as diagnostics about the input called `name`.
pub(crate) fn bad_bytecode(name: &str, errors: &[BytecodeError]) -> Vec<Diagnostic> {
    errors.iter().map(|e| e.to_diagnostic(name)).collect()
}
