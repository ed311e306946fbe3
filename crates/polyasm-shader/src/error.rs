//! The shader-asm dialect's typed errors and the one place they become [`Diagnostic`]s. Codes
//! live here.

use polyasm_core::explain::CodeInfo;
use polyasm_core::text::count;
use polyasm_core::{Diagnostic, Severity, Span};

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
        kind: char,
    },
    /// A register close to the name.
    Suggestion(String),
    /// A register of the other dialect only: `z` in v1, `s7` in v2.
    OtherDialect(Dialect),
    None,
}

/// Why a number v1 reads is no number of v2's `load`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WholeProblem {
    Negative,
    /// A `+` in front.
    Sign,
    Fraction,
    Exponent,
    /// Above 16777215.
    TooLarge,
}

/// Where an instruction's result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A register, or one component of a vector.
    Register { reg: Reg, component: Option<usize> },
    /// A memory cell (v2), when the assembler knows which.
    Cell(Option<usize>),
}

/// Why a number literal is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberProblem {
    /// `0x1f`: hexadecimal.
    Hex,
    /// A character that does not belong at this byte of the literal.
    Unexpected { at: usize, c: char },
    /// No digit before or after the point: `.`, `-.`.
    NoDigits,
    /// An `e` with no digits after it: `1e`, `2E+`.
    NoExponentDigits,
}

/// Everything that can be wrong in shader-asm source.
#[derive(Clone, Debug, PartialEq)]
pub enum ShError {
    /// A token the line grammar does not allow here.
    Unexpected {
        span: Span,
        found: String,
        expected: String,
    },
    UnknownInstruction {
        span: Span,
        name: String,
        suggestion: Option<&'static str>,
        /// The dialect the source is read in.
        dialect: Dialect,
        /// The instruction of the other dialect it names, if it names one.
        other: Option<Op>,
    },
    UnknownRegister {
        span: Span,
        name: String,
        hint: RegisterHint,
        dialect: Dialect,
    },
    /// The call has `found` operands; `span` covers the extra ones or the `)` where one is missing.
    OperandCount {
        span: Span,
        head: Span,
        op: Op,
        found: usize,
    },
    WrongType {
        span: Span,
        op: Op,
        expected: Type,
        reg: Reg,
        dialect: Dialect,
    },
    /// A number where operand `index` of `op` takes a register.
    NumberForRegister {
        span: Span,
        op: Op,
        expected: Type,
        text: String,
    },
    /// A name where `load` takes a number.
    NameForNumber {
        span: Span,
        op: Op,
        name: String,
    },
    /// An instruction writes an input (or `z`), directly or one of its components.
    WritesInput {
        span: Span,
        op: Op,
        reg: Reg,
        dialect: Dialect,
    },
    MalformedNumber {
        span: Span,
        text: String,
        problem: NumberProblem,
    },
    NumberOutOfRange {
        span: Span,
        text: String,
    },
    /// A number v2's `load` does not take.
    NotWhole {
        span: Span,
        text: String,
        problem: WholeProblem,
    },
    /// A form of `dialect` in a file that is of the other dialect from `first` on.
    MixedDialects {
        span: Span,
        form: String,
        dialect: Dialect,
        first: Span,
        first_form: String,
    },
    /// A component index or memory address that is always out of range.
    IndexOutOfRange {
        span: Span,
        op: Op,
    },
    /// A name without `(` after it.
    MissingOpen {
        span: Span,
        name: String,
    },
    /// A line that ends before the call's `)`.
    MissingClose {
        span: Span,
        head: Span,
    },
    TrailingText {
        span: Span,
    },
    TwoInstructions {
        span: Span,
    },
    TooManyInstructions {
        span: Span,
    },
    /// A result that no later instruction reads and that is not the output.
    UnreadResult {
        span: Span,
        op: Op,
        place: Place,
    },
}

/// The rows of `polyasm explain` for this dialect.
pub static CODES: &[CodeInfo] = &[
    code(
        "SH001",
        "syntax error",
        "A shader-asm line holds one instruction written as a call, `name(operand, operand)`: the instruction's name, `(`, its operands separated by `,`, and `)`. Spaces may stand between any two of these. An operand is a register (`s0`, `v3`, `pc`) or, for `load`, a number; a sign belongs to its number (`-2.5`, not `- 2.5`). A `#` starts a comment to the end of the line; blank lines are allowed. Other punctuation has no meaning.",
    ),
    code(
        "SH002",
        "unknown instruction",
        "The name before `(` must be an instruction of the file's dialect. v1 has 14: add, multiply, negate, reciprocal, move, getComponent0 to getComponent3, setComponent0 to setComponent3, and load. v2 (ShaderVM's current language) has add, multiply, negate, reciprocal, move, getComponent, setComponent, load, readMemory, writeMemory and sign. Names are case-sensitive, as in the language's specification (`getComponent0`, not `getcomponent0`); the help line suggests the closest instruction, or names the `--dialect` that has it.",
    ),
    code(
        "SH003",
        "unknown register",
        "Registers are the scalars `s0` to `s7` (v2: `s0` to `s5`), the vectors `v0` to `v7` (v2: `v0` to `v4`), the inputs `pc` (vector: the pixel's centre), `t` (scalar: the time) and `s` (vector: the image size), the output `c` (vector: the colour), and in v2 `z` (scalar: always 0). Names are lower case.",
    ),
    code(
        "SH004",
        "wrong number of operands",
        "Each instruction takes a fixed number of operands: `add`, `multiply`, and v2's `getComponent` and `setComponent` three, `load` and every other instruction two. The message shows the instruction's signature.",
    ),
    code(
        "SH005",
        "wrong operand type",
        "Every operand has a type, scalar or vector, and the register written there must have it. The scalars are `s0` to `s7`, the input `t` and v2's `z`; the vectors are `v0` to `v7`, `pc`, `s` and `c`. Arithmetic works on scalars: take a vector's component into a scalar with `getComponentN(vA, sA)` (v2: `getComponent(vA, sA, sB)`) and put it back with `setComponentN(vA, sA)` (v2: `setComponent(vA, sA, sB)`).",
    ),
    code(
        "SH006",
        "number where a register belongs",
        "Only `load` takes a number, as its second operand; every other operand is a register. To use a constant, load it into a scalar register first: `load(s0, 2.5)`, then `multiply(s1, s0, s1)`.",
    ),
    code(
        "SH007",
        "register where a number belongs",
        "`load(sA, number)` takes a number literal as its second operand: an optional sign, digits with an optional fraction, and an optional exponent (`1`, `-2.5`, `.5`, `1e-3`). Copy a register with `move(sA, sB)` instead. There are no literals for infinity or NaN: `reciprocal` of 0 gives infinity.",
    ),
    code(
        "SH008",
        "input written",
        "The inputs `pc`, `t` and `s`, and v2's `z`, are read only: every pixel starts with the values the renderer gives them, and `z` is always 0. No instruction may write them, also not one component of them with `setComponentN`. Copy what you need into your own registers (`getComponent0(pc, s0)`) and write the output `c`.",
    ),
    code(
        "SH009",
        "malformed number",
        "A number literal is an optional sign, then digits with an optional `.` and fraction (or a `.` and digits), then an optional exponent: `e` or `E`, an optional sign and digits. `1`, `-2.5`, `.5`, `5.`, `1e-3` and `+4E2` are numbers. Hexadecimal, `_` separators, suffixes such as `f`, and the words `inf` and `nan` are not.",
    ),
    code(
        "SH010",
        "number out of range",
        "A number literal must round to a finite 32-bit float: its magnitude at most about 3.4028235e38 (`f32::MAX`). Smaller magnitudes round to the nearest float, down to the subnormals and 0. For infinity, take the `reciprocal` of 0.",
    ),
    code(
        "SH011",
        "missing parenthesis",
        "An instruction's operands stand in parentheses right after its name: `negate(s0, s1)`. The `(` is missing after the name, or the line ends before the `)`. An instruction may not continue on the next line.",
    ),
    code(
        "SH012",
        "text after the instruction",
        "Nothing but a comment may follow the `)` that ends an instruction. Comments start with `#`.",
    ),
    code(
        "SH013",
        "two instructions on a line",
        "Each line holds at most one instruction; `;` does not separate instructions. Put the second one on a line of its own.",
    ),
    code(
        "SH014",
        "program too long",
        "A program holds at most 65536 instructions, so that its bytecode fits a GPU storage buffer on every adapter. Every line with an instruction counts.",
    ),
    code_warning(
        "SH015",
        "result never read",
        "The instruction writes a register (or one component of a vector, or in v2 a memory cell) that no later instruction reads before it is written again or the program ends. Only the output `c` is used after the program; everything else is dropped, so the instruction does nothing. Remove it, or read its result; `-W no-SH015` silences this warning.",
    ),
    code(
        "SH016",
        "dialects mixed",
        "A file is written in one dialect: v1, the specification's (`getComponent0`, `s0` to `s7`, `v0` to `v7`), or v2, ShaderVM's current language (`getComponent(vA, sA, sB)`, `sign`, `readMemory`, `writeMemory`, `z`, `s0` to `s5`, `v0` to `v4`). Without `--dialect`, the first form only one dialect has decides, and a form only the other has is this error. Write the file in one dialect; `--dialect v1` or `--dialect v2` names it, and then each form of the other dialect is an unknown instruction or register.",
    ),
    code(
        "SH017",
        "number not whole",
        "In v2, `load` takes what ShaderVM's does: a whole number from 0 to 16777215 in decimal digits, the 24 bits of its constant field. Build other numbers from it: negate for a negative one, reciprocal and multiply for a fraction (0.5 is `load(s0, 2)` then `reciprocal(s0, s0)`). v1 (`--dialect v1`) takes any 32-bit float.",
    ),
    code_warning(
        "SH018",
        "index always out of range",
        "The register that picks the component (`getComponent`, `setComponent`: 0 to 3) or memory cell (`readMemory`, `writeMemory`: 0 to 63) always holds a value whose floor is outside that range, or NaN. polyasm reads 0 there and writes nothing; ShaderVM leaves it undefined. Put an index in range into the register, e.g. `load(s5, 1)`.",
    ),
    code(
        "SH020",
        "not shader-asm bytecode",
        "A shader-asm bytecode file (`.shb`) starts with the 4 bytes `SHBC`. The input starts with something else: it is another kind of file, or source text (assemble it with `polyasm prog.sasm`). docs/formats/shader-bytecode.md describes the format.",
    ),
    code(
        "SH021",
        "unknown bytecode version",
        "After `SHBC`, a bytecode file holds its format version, a little-endian 16-bit number at byte 4. This polyasm reads and writes version 1.",
    ),
    code(
        "SH022",
        "bad flags",
        "Bytes 6 and 7 of a bytecode file are its flags. Bit 0 says that the program uses v2's forms (ShaderVM's current language); the other bits are reserved and must be 0. Bit 0 is set exactly when an instruction uses a form only v2 has: a program in the forms both dialects share is stored with flags 0.",
    ),
    code(
        "SH023",
        "bytecode cut short",
        "A bytecode file is a 12-byte header and then as many 8-byte instructions as the header's count (bytes 8 to 11) says. The file ends before the header or before the last instruction: it was cut short, or its count is wrong.",
    ),
    code(
        "SH024",
        "bytes after the program",
        "A bytecode file ends after the instructions its header counts. The file holds more bytes: its count is wrong, or something was appended.",
    ),
    code(
        "SH025",
        "unknown opcode",
        "The low byte of an instruction's first word is its opcode, 0 to 18 in the order of docs/formats/shader-bytecode.md, of the file's dialect: v1's `getComponentN` and `setComponentN` (5 to 12) only with flags 0, v2's `getComponent` to `writeMemory` (14 to 18) only with the v2 flag. The instruction has another.",
    ),
    code(
        "SH026",
        "bad register field",
        "Each register field of an instruction (bits 8 to 15, 16 to 23 and 24 to 31 of its first word, one per operand) holds a register number, 0 to 20, of the type the operand takes and of the file's dialect: 0 to 7 the scalars `s0` to `s7`, 8 to 15 the vectors `v0` to `v7`, 16 `pc`, 17 `t`, 18 `s`, 19 `c`, 20 `z`. v1 has no `z`; v2 has no `s6`, `s7`, `v5`, `v6`, `v7`.",
    ),
    code(
        "SH027",
        "bytecode writes an input",
        "An instruction in the file writes `pc`, `t`, `s` or `z`, which are read only; the assembler never writes such an instruction.",
    ),
    code(
        "SH028",
        "unused field set",
        "Register fields past an instruction's operands, the field of `load`'s number operand, and the second word of every instruction but `load` must be 0.",
    ),
    code(
        "SH029",
        "constant not finite",
        "`load`'s constant (the second word, an IEEE 754 single) is infinite or NaN. The language has no literal for it, so the disassembler could not write the program back as source; the assembler never writes one.",
    ),
    code(
        "SH030",
        "too many instructions in the bytecode",
        "A bytecode file's instruction count (bytes 8 to 11) is at most 65536, the longest program.",
    ),
    code(
        "SH031",
        "constant not a v2 number",
        "In a file flagged v2, `load`'s constant (the second word, an IEEE 754 single) must be a whole number from 0 to 16777215, the only numbers v2's `load` takes. The assembler never writes another.",
    ),
    code(
        "SH040",
        "no GPU adapter",
        "`polyasm run --device gpu` renders on a GPU through Vulkan, and none was found: no Vulkan driver is installed, or none matches `WGPU_ADAPTER_NAME`. Install your GPU's Vulkan driver (or Mesa's software one, `mesa-vulkan-drivers`), or render on the CPU with `--device cpu` (or `auto`, which falls back to it).",
    ),
    code(
        "SH041",
        "GPU rendering failed",
        "The GPU could not render the picture: the device would not open or was lost, it ran out of memory, or the picture has more pixels than the adapter renders in one frame. The message says which; `--device cpu` renders on the CPU instead.",
    ),
];

const fn code(code: &'static str, title: &'static str, explanation: &'static str) -> CodeInfo {
    CodeInfo {
        code,
        severity: Severity::Error,
        title,
        explanation,
    }
}

const fn code_warning(code: &'static str, title: &'static str, explanation: &'static str) -> CodeInfo {
    CodeInfo {
        severity: Severity::Warning,
        ..self::code(code, title, explanation)
    }
}

const SYNTAX_HELP: &str = "write one instruction per line as a call, e.g. `add(s0, s1, s2)`";

impl ShError {
    pub fn code(&self) -> &'static str {
        match self {
            ShError::Unexpected { .. } => "SH001",
            ShError::UnknownInstruction { .. } => "SH002",
            ShError::UnknownRegister { .. } => "SH003",
            ShError::OperandCount { .. } => "SH004",
            ShError::WrongType { .. } => "SH005",
            ShError::NumberForRegister { .. } => "SH006",
            ShError::NameForNumber { .. } => "SH007",
            ShError::WritesInput { .. } => "SH008",
            ShError::MalformedNumber { .. } => "SH009",
            ShError::NumberOutOfRange { .. } => "SH010",
            ShError::MixedDialects { .. } => "SH016",
            ShError::NotWhole { .. } => "SH017",
            ShError::IndexOutOfRange { .. } => "SH018",
            ShError::MissingOpen { .. } | ShError::MissingClose { .. } => "SH011",
            ShError::TrailingText { .. } => "SH012",
            ShError::TwoInstructions { .. } => "SH013",
            ShError::TooManyInstructions { .. } => "SH014",
            ShError::UnreadResult { .. } => "SH015",
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
                    (None, Some(s), None) => d.with_help(format!("did you mean `{s}`?")),
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
                    RegisterHint::Suggestion(s) => d.with_help(format!("did you mean `{s}`?")),
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
    /// The first 4 bytes are not `SHBC`.
    Magic,
    Version(u16),
    Flags(u16),
    /// The file ends inside the header (`what`) or the instructions.
    Truncated {
        what: &'static str,
        needed: usize,
        left: usize,
    },
    /// Bytes after the last instruction.
    Trailing(usize),
    /// The header counts more instructions than a program holds.
    Count(u32),
    /// Instruction `index` does not unpack.
    Instruction {
        index: usize,
        words: [u32; 2],
        error: UnpackError,
    },
    /// `load` at `index` has an infinite or NaN constant.
    NotFinite {
        index: usize,
        bits: u32,
    },
    /// The v2 flag is set, but no instruction uses a form only v2 has.
    NoV2Form,
    /// Instruction `index` is an instruction of the other dialect than the file's.
    OpOfOtherDialect {
        index: usize,
        op: Op,
        file: Dialect,
    },
    /// Instruction `index` names a register of the other dialect than the file's.
    RegisterOfOtherDialect {
        index: usize,
        reg: Reg,
        file: Dialect,
    },
    /// `load` at `index`, in a v2 file, has a constant that is no whole number 0 to 16777215.
    NotWhole {
        index: usize,
        bits: u32,
    },
}

/// A problem of a bytecode file and the byte offset it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BytecodeError {
    pub offset: usize,
    pub problem: BytecodeProblem,
}

impl std::fmt::Display for BytecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: ", self.offset)?;
        match self.problem {
            BytecodeProblem::Magic => f.write_str("it does not start with `SHBC`"),
            BytecodeProblem::Version(v) => write!(f, "version {v}; this polyasm reads version 1"),
            BytecodeProblem::Flags(flags) => {
                write!(f, "reserved flags 0x{flags:04x} are set (only bit 0, v2, is defined)")
            }
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
            BytecodeProblem::Truncated { what, needed, left } => {
                write!(f, "the file ends inside {what} ({left} of {needed} bytes left)")
            }
            BytecodeProblem::Trailing(n) => write!(f, "{} follow the last instruction", count(n, "byte")),
            BytecodeProblem::Count(n) => write!(f, "{n} instructions; a program holds at most {MAX_INSTRUCTIONS}"),
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
    pub fn code(&self) -> &'static str {
        match self.problem {
            BytecodeProblem::Magic => "SH020",
            BytecodeProblem::Version(_) => "SH021",
            BytecodeProblem::Flags(_) | BytecodeProblem::NoV2Form => "SH022",
            BytecodeProblem::OpOfOtherDialect { .. } => "SH025",
            BytecodeProblem::RegisterOfOtherDialect { .. } => "SH026",
            BytecodeProblem::NotWhole { .. } => "SH031",
            BytecodeProblem::Truncated { .. } => "SH023",
            BytecodeProblem::Trailing(_) => "SH024",
            BytecodeProblem::Instruction { error, .. } => match error {
                UnpackError::Opcode(_) => "SH025",
                UnpackError::Register { .. } => "SH026",
                UnpackError::ReadOnly { .. } => "SH027",
                UnpackError::Unused { .. } | UnpackError::Constant => "SH028",
            },
            BytecodeProblem::NotFinite { .. } => "SH029",
            BytecodeProblem::Count(_) => "SH030",
        }
    }

    /// The error as a diagnostic about the input called `name`.
    pub fn to_diagnostic(&self, name: &str) -> Diagnostic {
        let d = Diagnostic::error(self.code(), format!("{name} is not valid shader-asm bytecode: {self}"));
        match self.problem {
            BytecodeProblem::Magic => d.with_help(
                "a bytecode file is what `polyasm prog.sasm -o prog.shb` writes; assemble source with `polyasm FILE`",
            ),
            BytecodeProblem::Truncated { .. } | BytecodeProblem::Trailing(_) => d.with_note(format!(
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
