//! The VU's typed errors and the one place they become [`Diagnostic`]s. Codes live here.

use polyasm_core::explain::CodeInfo;
use polyasm_core::text::IntLiteralError;
use polyasm_core::{Diagnostic, Severity, Span};

use crate::ops::{MAX_WORDS, Op, OperandKind};

/// What was written where an operand of another kind was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    Register(String),
    Output(String),
    Number(String),
    Name(String),
}

impl Found {
    fn describe(&self) -> String {
        match self {
            Found::Register(s) => format!("the register `{s}`"),
            Found::Output(s) => format!("the output `{s}`"),
            Found::Number(s) => format!("the number `{s}`"),
            Found::Name(s) => format!("`{s}`"),
        }
    }
}

/// Everything that can be wrong in VU source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VuError {
    /// A token the grammar does not allow here.
    Unexpected {
        span: Span,
        found: String,
        expected: String,
    },
    UnterminatedComment {
        span: Span,
    },
    UnknownMnemonic {
        span: Span,
        name: String,
        suggestion: Option<&'static str>,
    },
    UnknownDirective {
        span: Span,
        name: String,
    },
    WrongOperandKind {
        span: Span,
        op: &'static str,
        expected: OperandKind,
        found: Found,
    },
    MissingOperand {
        span: Span,
        head: Span,
        op: &'static str,
        expected: OperandKind,
        syntax: String,
    },
    ExtraOperand {
        span: Span,
        op: &'static str,
        takes: usize,
        found: usize,
        syntax: String,
    },
    /// `st r0 pos`: the operands of `st` in the wrong order.
    SwappedStore {
        span: Span,
        output: String,
        register: String,
    },
    RegisterOutOfRange {
        span: Span,
        name: String,
    },
    /// `r01`: a register number with a leading zero, which the reference assembler refuses.
    ZeroPaddedRegister {
        span: Span,
        name: String,
        number: u64,
    },
    SlotOutOfRange {
        span: Span,
        op: &'static str,
        kind: OperandKind,
        value: u64,
        limit: u32,
    },
    MaskOutOfRange {
        span: Span,
        value: u64,
    },
    BadSwizzle {
        span: Span,
        swizzle: String,
        problem: SwizzleProblem,
    },
    TooManyInstructions {
        span: Span,
    },
    InvalidInteger {
        span: Span,
        text: String,
        error: IntLiteralError,
    },
    /// `0X5`, `0B1`, `0O7`: an upper-case base prefix. Rust, and so the reference assembler,
    /// reads `0X5` as the number 0 with the suffix `X5`.
    UpperCasePrefix {
        span: Span,
        text: String,
    },
    UnknownOutput {
        span: Span,
        name: String,
        suggestion: Option<&'static str>,
    },
    WordOutOfRange {
        span: Span,
        value: u64,
    },
    /// Warning: `mulm` with a source above r12 reads registers past r15.
    MulmPastLastRegister {
        span: Span,
        src: u32,
    },
}

/// Why a swizzle is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwizzleProblem {
    Length(usize),
    Letter(char),
}

/// Every VU code, with its explanation for `polyasm explain`.
pub static CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "VU001",
        severity: Severity::Error,
        title: "syntax error",
        explanation: "A VU statement is a mnemonic followed by operands separated by spaces, one statement per line: `add r0 r1`. Operands are registers, outputs, numbers or swizzles; punctuation such as `,` `#` or `[` has no meaning. Comments are `//` to the end of the line or `/* */`.",
    },
    CodeInfo {
        code: "VU002",
        severity: Severity::Error,
        title: "unknown mnemonic or directive",
        explanation: "The first word of a statement must be one of the VU's 26 mnemonics (ld st ldc add sub mul div dot abs sign sqrt pow exp log min max sin cos tan asin acos atan atan2 shf mulm end) or the directive `.word`. Mnemonics are lower case, as in the reference assembler. The help line suggests the closest mnemonic when there is one.",
    },
    CodeInfo {
        code: "VU003",
        severity: Severity::Error,
        title: "wrong kind of operand",
        explanation: "Each operand position takes one kind of operand: a register (`r0` to `r15`), an output (`pos`, `tex`, `col`, `ocol`), a number (an input slot for `ld`, a constant slot for `ldc`, a mask for `shf`) or a swizzle. `st` takes the output first and the register second: `st pos r0`. `ld` and `ldc` take a register first and a slot number second: `ld r0 0`.",
    },
    CodeInfo {
        code: "VU004",
        severity: Severity::Error,
        title: "missing operand",
        explanation: "The instruction has fewer operands than it takes. Every instruction except `end` takes a destination and a source; `shf` also takes a swizzle and a mask: `shf r0 r1 xyzw 0b0011`. One statement may not continue on the next line.",
    },
    CodeInfo {
        code: "VU005",
        severity: Severity::Error,
        title: "extra operand",
        explanation: "The instruction has more operands than it takes. Only one statement may stand on a line; put the next instruction on a line of its own.",
    },
    CodeInfo {
        code: "VU006",
        severity: Severity::Error,
        title: "register out of range",
        explanation: "The VU has 16 vec4 registers, `r0` to `r15`, written without leading zeros: `r1`, not `r01`, which the reference assembler refuses.",
    },
    CodeInfo {
        code: "VU007",
        severity: Severity::Error,
        title: "slot out of range",
        explanation: "`ld` reads one of 8 vertex input slots (0 to 7) and `ldc` one of 16 constant slots (0 to 15).",
    },
    CodeInfo {
        code: "VU008",
        severity: Severity::Error,
        title: "mask out of range",
        explanation: "The `shf` mask has one bit per destination lane: bit 0 is x, bit 1 y, bit 2 z, bit 3 w, so it is at most 0b1111 (15). Write it in decimal, `0b` or `0x`.",
    },
    CodeInfo {
        code: "VU009",
        severity: Severity::Error,
        title: "invalid swizzle",
        explanation: "A `shf` swizzle is exactly four letters naming the source lane for x, y, z and w: `xyzw` letters or `rgba` letters, which mean the same (`r` = `x`, `g` = `y`, `b` = `z`, `a` = `w`); they may be mixed.",
    },
    CodeInfo {
        code: "VU010",
        severity: Severity::Error,
        title: "program too long",
        explanation: "The VU runs at most 64 instructions. The assembler appends an `end` to shorter programs; a program of exactly 64 instructions runs to its last one. Split the work across several programs or draw calls.",
    },
    CodeInfo {
        code: "VU011",
        severity: Severity::Error,
        title: "invalid number",
        explanation: "Numbers are Rust-style integer literals: decimal (`12`), binary (`0b1100`), hex (`0xc`) or octal (`0o14`), with optional `_` separators. The literal has a digit that its base does not allow, no digits after its prefix, or more than 64 bits. The prefixes are lower case: Rust, and so the reference assembler, reads `0X5` as the number 0 followed by a suffix, not as 5, so polyasm refuses `0X`, `0B` and `0O` rather than give other words.",
    },
    CodeInfo {
        code: "VU012",
        severity: Severity::Error,
        title: "unknown output",
        explanation: "`st` writes one of four outputs: `pos` (clip-space position), `tex` (texture coordinates: xy for unit 0, zw for unit 1), `col` (vertex colour) and `ocol` (offset colour).",
    },
    CodeInfo {
        code: "VU013",
        severity: Severity::Error,
        title: "unterminated block comment",
        explanation: "A `/*` comment runs until its matching `*/`; block comments nest, so each `/*` inside a comment needs its own `*/`.",
    },
    CodeInfo {
        code: "VU014",
        severity: Severity::Warning,
        title: "mulm reads past r15",
        explanation: "`mulm dst src` reads the four matrix columns from src, src+1, src+2 and src+3. With a source above r12 some of them do not exist: the console's behaviour is undefined and polyasm's emulator reads zeros. This is a warning because the reference assembler accepts it; `-W error` makes it an error.",
    },
    CodeInfo {
        code: "VU015",
        severity: Severity::Error,
        title: "word out of range",
        explanation: "`.word` places one raw 32-bit word, so its value is at most 0xffffffff.",
    },
];

impl VuError {
    pub fn code(&self) -> &'static str {
        match self {
            VuError::Unexpected { .. } => "VU001",
            VuError::UnknownMnemonic { .. } | VuError::UnknownDirective { .. } => "VU002",
            VuError::WrongOperandKind { .. } | VuError::SwappedStore { .. } => "VU003",
            VuError::MissingOperand { .. } => "VU004",
            VuError::ExtraOperand { .. } => "VU005",
            VuError::RegisterOutOfRange { .. } | VuError::ZeroPaddedRegister { .. } => "VU006",
            VuError::SlotOutOfRange { .. } => "VU007",
            VuError::MaskOutOfRange { .. } => "VU008",
            VuError::BadSwizzle { .. } => "VU009",
            VuError::TooManyInstructions { .. } => "VU010",
            VuError::InvalidInteger { .. } | VuError::UpperCasePrefix { .. } => "VU011",
            VuError::UnknownOutput { .. } => "VU012",
            VuError::UnterminatedComment { .. } => "VU013",
            VuError::MulmPastLastRegister { .. } => "VU014",
            VuError::WordOutOfRange { .. } => "VU015",
        }
    }

    /// The message, labels, notes and help of this error.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let code = self.code();
        match self {
            VuError::Unexpected { span, found, expected } => Diagnostic::error(code, format!("unexpected {found}"))
                .with_primary(*span, format!("expected {expected}"))
                .with_help("a statement is a mnemonic and its operands separated by spaces, e.g. `add r0 r1`"),
            VuError::UnterminatedComment { span } => Diagnostic::error(code, "unterminated block comment")
                .with_primary(*span, "this `/*` has no matching `*/`")
                .with_help("close the comment with `*/`"),
            VuError::UnknownMnemonic { span, name, suggestion } => {
                let d = Diagnostic::error(code, format!("unknown mnemonic `{name}`"))
                    .with_primary(*span, "not a VU instruction");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None if matches!(name.as_str(), "mov" | "move" | "cpy" | "copy") => {
                        d.with_help("the VU has no move; copy a register with `shf dst src xyzw 0b1111`")
                    }
                    None => d.with_help("`polyasm explain VU002` lists every mnemonic"),
                }
            }
            VuError::UnknownDirective { span, name } => Diagnostic::error(code, format!("unknown directive `{name}`"))
                .with_primary(*span, "not a directive")
                .with_help("the only directive is `.word VALUE`"),
            VuError::WrongOperandKind {
                span,
                op,
                expected,
                found,
            } => Diagnostic::error(
                code,
                format!(
                    "`{op}` expects {} here, found {}",
                    expected.describe(),
                    found.describe()
                ),
            )
            .with_primary(*span, format!("expected {}", expected.placeholder_label()))
            .with_help(wrong_kind_help(op, *expected, found)),
            VuError::MissingOperand {
                span,
                head,
                op,
                expected,
                syntax,
            } => {
                let d = Diagnostic::error(code, format!("`{op}` is missing {}", expected.describe()))
                    .with_primary(*span, format!("{} must follow", expected.placeholder_label()));
                let d = if span == head {
                    d
                } else {
                    d.with_secondary(*head, format!("`{op}` takes: {syntax}"))
                };
                d.with_help(format!("write `{syntax}`"))
            }
            VuError::SwappedStore { span, output, register } => {
                Diagnostic::error(code, "`st` takes the output first, then the register")
                    .with_primary(*span, "operands in the wrong order")
                    .with_help(format!("write `st {output} {register}`"))
            }
            VuError::ExtraOperand {
                span,
                op,
                takes,
                found,
                syntax,
            } => Diagnostic::error(
                code,
                format!(
                    "`{op}` takes {}, found {found}",
                    polyasm_core::text::count(*takes, "operand")
                ),
            )
            .with_primary(*span, "extra operand")
            .with_help(format!("write `{syntax}`, one statement per line")),
            VuError::RegisterOutOfRange { span, name } => {
                Diagnostic::error(code, format!("register `{name}` does not exist"))
                    .with_primary(*span, "out of range")
                    .with_help("the VU has registers r0 to r15")
            }
            VuError::ZeroPaddedRegister { span, name, number } => {
                Diagnostic::error(code, format!("register `{name}` is written with a leading zero"))
                    .with_primary(*span, "leading zero")
                    .with_help(format!(
                        "write `r{number}`: register names have no leading zeros, as in the reference assembler"
                    ))
            }
            VuError::SlotOutOfRange {
                span,
                op,
                kind,
                value,
                limit,
            } => Diagnostic::error(
                code,
                format!(
                    "{} {value} is out of range",
                    if *kind == OperandKind::InputSlot {
                        "input slot"
                    } else {
                        "constant slot"
                    }
                ),
            )
            .with_primary(*span, format!("`{op}` takes 0 to {}", limit - 1))
            .with_help(format!("`{op}` takes {}", kind.describe())),
            VuError::MaskOutOfRange { span, value } => {
                Diagnostic::error(code, format!("mask {value} does not fit in 4 bits"))
                    .with_primary(*span, "at most 0b1111")
                    .with_help("the mask has one bit per lane: 0b0001 = x, 0b0010 = y, 0b0100 = z, 0b1000 = w")
            }
            VuError::BadSwizzle { span, swizzle, problem } => {
                let d = Diagnostic::error(code, format!("invalid swizzle `{swizzle}`"));
                match problem {
                    SwizzleProblem::Length(n) => d
                        .with_primary(*span, format!("{n} letters; a swizzle has 4"))
                        .with_help("name the source lane for each of x, y, z and w, e.g. `xyzw` or `xxxx`"),
                    SwizzleProblem::Letter(c) => d
                        .with_primary(*span, format!("`{c}` is not a lane"))
                        .with_help("lanes are x y z w (or r g b a)"),
                }
            }
            VuError::TooManyInstructions { span } => {
                Diagnostic::error(code, format!("program is longer than {MAX_WORDS} instructions"))
                    .with_primary(*span, format!("instruction {}", MAX_WORDS + 1))
                    .with_note(format!(
                        "the VU holds {MAX_WORDS} instruction slots; programs shorter than that get an `end` appended"
                    ))
                    .with_help("split the program, or move work to the CPU or another draw")
            }
            VuError::InvalidInteger { span, text, error } => {
                Diagnostic::error(code, format!("invalid number `{text}`"))
                    .with_primary(*span, error.label())
                    .with_help(error.help())
            }
            VuError::UpperCasePrefix { span, text } => {
                let lower = format!("0{}{}", text[1..2].to_ascii_lowercase(), &text[2..]);
                Diagnostic::error(code, format!("invalid number `{text}`"))
                    .with_primary(*span, format!("upper-case prefix `{}`", &text[..2]))
                    .with_note(format!(
                        "Rust, and so the reference assembler, reads `{text}` as the number 0 with the suffix `{}`",
                        &text[1..]
                    ))
                    .with_help(format!("write `{lower}`; prefixes are lower case"))
            }
            VuError::UnknownOutput { span, name, suggestion } => {
                let d =
                    Diagnostic::error(code, format!("unknown output `{name}`")).with_primary(*span, "not an output");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`? outputs are pos, tex, col and ocol")),
                    None => d.with_help("outputs are pos, tex, col and ocol"),
                }
            }
            VuError::WordOutOfRange { span, value } => {
                Diagnostic::error(code, format!("{value:#x} does not fit in 32 bits"))
                    .with_primary(*span, "too large for one word")
                    .with_help("`.word` takes values from 0 to 0xffffffff")
            }
            VuError::MulmPastLastRegister { span, src } => Diagnostic::warning(
                code,
                format!("`mulm` with source r{src} reads past r15"),
            )
            .with_primary(*span, format!("columns r{src} to r{}", src + 3))
            .with_note(
                "registers past r15 do not exist: the console's result is undefined; polyasm's emulator reads zeros",
            )
            .with_help("keep the matrix in four registers from r0 to r15, e.g. `mulm r0 r12`"),
        }
    }
}

impl OperandKind {
    fn placeholder_label(self) -> &'static str {
        match self {
            OperandKind::Register => "a register",
            OperandKind::Output => "an output",
            OperandKind::InputSlot => "an input slot",
            OperandKind::ConstSlot => "a constant slot",
            OperandKind::Swizzle => "a swizzle",
            OperandKind::Mask => "a mask",
            OperandKind::Word => "a value",
        }
    }
}

fn wrong_kind_help(op: &str, expected: OperandKind, found: &Found) -> String {
    match (expected, found) {
        (OperandKind::Output, Found::Register(_)) if op == Op::St.mnemonic() => {
            "`st` takes the output first, then the register: `st pos r0`".to_string()
        }
        (OperandKind::Register, Found::Name(name)) if name.len() > 1 && name.starts_with('R') => {
            format!("registers are lower case: `r{}`", &name[1..])
        }
        (OperandKind::Register, Found::Number(n)) => format!("registers are written with an `r`: `r{n}`"),
        (OperandKind::Output, Found::Number(_)) => "outputs are named: pos, tex, col or ocol".to_string(),
        (OperandKind::InputSlot | OperandKind::ConstSlot, Found::Register(_)) => {
            format!("`{op}` reads a slot, given as a number: `{op} r0 0`")
        }
        _ => format!("here `{op}` takes {}", expected.describe()),
    }
}
