//! The VU's typed errors and the one place they become [`Diagnostic`]s. Codes live here.

use polyasm_core::number::IntLiteralError;
use polyasm_core::{Diagnostic, Span};

use crate::ops::{MAX_WORDS, Op, OperandKind};

/// What was written where an operand of another kind was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A register name as written, such as `r3`.
    Register(String),
    /// An output name as written, such as `pos`.
    Output(String),
    /// A number as written, such as `0b1111`.
    Number(String),
    /// Any other name as written, such as `R1` or `xyzw`.
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
        /// The token that does not fit.
        span: Span,
        /// The token as the message names it, such as `` `,` ``.
        found: String,
        /// What could have come here, such as `an operand`.
        expected: String,
    },
    /// A `/*` with no `*/` after it.
    UnterminatedComment {
        /// The `/*` that opens the comment.
        span: Span,
    },
    /// A statement whose first word is no VU instruction.
    UnknownMnemonic {
        /// The mnemonic.
        span: Span,
        /// The mnemonic as written, such as `mov`.
        name: String,
        /// The closest mnemonic, offered as the fix.
        suggestion: Option<&'static str>,
    },
    /// A directive other than `.word`.
    UnknownDirective {
        /// The directive.
        span: Span,
        /// The directive as written, dot included: `.byte`.
        name: String,
    },
    /// An operand of the wrong kind, such as a number where `add` takes a register.
    WrongOperandKind {
        /// The operand.
        span: Span,
        /// The mnemonic or directive the operand belongs to: `add`, `.word`.
        op: &'static str,
        /// What `op` takes in this position.
        expected: OperandKind,
        /// What was written there.
        found: Found,
    },
    /// A statement that stops before its last operand.
    MissingOperand {
        /// The last token of the statement, after which the operand must come.
        span: Span,
        /// The mnemonic or directive; when it is also `span`, no second label is drawn.
        head: Span,
        /// The mnemonic or directive as the message names it: `add`, `.word`.
        op: &'static str,
        /// The kind of the first missing operand.
        expected: OperandKind,
        /// The statement's form, such as `ld rN SLOT`, quoted in the help.
        syntax: String,
    },
    /// More operands than the instruction or directive takes.
    ExtraOperand {
        /// From the first extra operand to the last.
        span: Span,
        /// The mnemonic or directive as the message names it: `add`, `.word`.
        op: &'static str,
        /// How many operands `op` takes.
        takes: usize,
        /// How many were written.
        found: usize,
        /// The statement's form, such as `ld rN SLOT`, quoted in the help.
        syntax: String,
    },
    /// `st r0 pos`: the operands of `st` in the wrong order.
    SwappedStore {
        /// Both operands.
        span: Span,
        /// The output as written: `pos`.
        output: String,
        /// The register as it must be written (`r1` for `r01`).
        register: String,
    },
    /// A register past `r15`, such as `r16`.
    RegisterOutOfRange {
        /// The register.
        span: Span,
        /// The register as written: `r16`.
        name: String,
    },
    /// `r01`: a register number with a leading zero, which the reference assembler refuses.
    ZeroPaddedRegister {
        /// The register.
        span: Span,
        /// The register as written: `r01`.
        name: String,
        /// The register's number, used to write the fix: 1 for `r01`.
        number: u64,
    },
    /// An input slot from 8 up, or a constant slot from 16 up.
    SlotOutOfRange {
        /// The slot number.
        span: Span,
        /// The mnemonic: `ld`, `ldc`.
        op: &'static str,
        /// [`OperandKind::InputSlot`] or [`OperandKind::ConstSlot`].
        kind: OperandKind,
        /// The slot as read.
        value: u64,
        /// The number of slots: 8 input slots, 16 constant slots.
        limit: u32,
    },
    /// A `shf` mask above `0b1111`.
    MaskOutOfRange {
        /// The mask.
        span: Span,
        /// The mask as read.
        value: u64,
    },
    /// A swizzle that is not four lane letters.
    BadSwizzle {
        /// The whole swizzle when its length is wrong, else its first bad letter.
        span: Span,
        /// The swizzle as written: `xyz`, `xyzq`.
        swizzle: String,
        /// What is wrong with it.
        problem: SwizzleProblem,
    },
    /// A program longer than [`MAX_WORDS`] instructions.
    TooManyInstructions {
        /// The first statement past the limit.
        span: Span,
    },
    /// A number that is not a valid integer literal, such as `0x` or `12z`.
    InvalidInteger {
        /// The number.
        span: Span,
        /// The number as written.
        text: String,
        /// What is wrong with it; the label and help come from it.
        error: IntLiteralError,
    },
    /// `0X5`, `0B1`, `0O7`: an upper-case base prefix. Rust, and so the reference assembler,
    /// reads `0X5` as the number 0 with the suffix `X5`.
    UpperCasePrefix {
        /// The number.
        span: Span,
        /// The number as written: `0X5`.
        text: String,
    },
    /// An output name other than `pos`, `tex`, `col` and `ocol`.
    UnknownOutput {
        /// The name.
        span: Span,
        /// The name as written: `psn`.
        name: String,
        /// The closest output, offered as the fix.
        suggestion: Option<&'static str>,
    },
    /// A `.word` value that does not fit in 32 bits.
    WordOutOfRange {
        /// The value.
        span: Span,
        /// The value as read.
        value: u64,
    },
    /// Warning: `mulm` with a source above r12 reads registers past r15.
    MulmPastLastRegister {
        /// The source register.
        span: Span,
        /// The source register's number, 13 to 15.
        src: u32,
    },
}

/// Why a swizzle is not valid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwizzleProblem {
    /// It has this many letters, not 4.
    Length(usize),
    /// This letter is none of `xyzw` and `rgba`.
    Letter(char),
}

polyasm_core::codes! {
    /// Every VU code; docs/codes/vu.md explains each one.
    pub enum Code, explained in "../codes.md" {
        Syntax = "VU001", Error, "syntax error";
        UnknownMnemonic = "VU002", Error, "unknown mnemonic or directive";
        WrongOperandKind = "VU003", Error, "wrong kind of operand";
        MissingOperand = "VU004", Error, "missing operand";
        ExtraOperand = "VU005", Error, "extra operand";
        RegisterOutOfRange = "VU006", Error, "register out of range";
        SlotOutOfRange = "VU007", Error, "slot out of range";
        MaskOutOfRange = "VU008", Error, "mask out of range";
        InvalidSwizzle = "VU009", Error, "invalid swizzle";
        ProgramTooLong = "VU010", Error, "program too long";
        InvalidNumber = "VU011", Error, "invalid number";
        UnknownOutput = "VU012", Error, "unknown output";
        UnterminatedComment = "VU013", Error, "unterminated block comment";
        MulmPastLastRegister = "VU014", Warning, "mulm reads past r15";
        WordOutOfRange = "VU015", Error, "word out of range";
    }
}

impl VuError {
    /// The code this error is reported with.
    pub fn code(&self) -> Code {
        match self {
            VuError::Unexpected { .. } => Code::Syntax,
            VuError::UnknownMnemonic { .. } | VuError::UnknownDirective { .. } => Code::UnknownMnemonic,
            VuError::WrongOperandKind { .. } | VuError::SwappedStore { .. } => Code::WrongOperandKind,
            VuError::MissingOperand { .. } => Code::MissingOperand,
            VuError::ExtraOperand { .. } => Code::ExtraOperand,
            VuError::RegisterOutOfRange { .. } | VuError::ZeroPaddedRegister { .. } => Code::RegisterOutOfRange,
            VuError::SlotOutOfRange { .. } => Code::SlotOutOfRange,
            VuError::MaskOutOfRange { .. } => Code::MaskOutOfRange,
            VuError::BadSwizzle { .. } => Code::InvalidSwizzle,
            VuError::TooManyInstructions { .. } => Code::ProgramTooLong,
            VuError::InvalidInteger { .. } | VuError::UpperCasePrefix { .. } => Code::InvalidNumber,
            VuError::UnknownOutput { .. } => Code::UnknownOutput,
            VuError::UnterminatedComment { .. } => Code::UnterminatedComment,
            VuError::MulmPastLastRegister { .. } => Code::MulmPastLastRegister,
            VuError::WordOutOfRange { .. } => Code::WordOutOfRange,
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
                    Some(s) => d.with_did_you_mean(*span, s),
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
                    .with_help(match text.len() {
                        // `0X` alone: lower case would still have no digits.
                        2 => format!(
                            "write digits after a lower-case prefix: `{lower}{}`",
                            match &lower[..] {
                                "0x" => "1f",
                                "0b" => "101",
                                _ => "17",
                            }
                        ),
                        _ => format!("write `{lower}`; prefixes are lower case"),
                    })
            }
            VuError::UnknownOutput { span, name, suggestion } => {
                let d =
                    Diagnostic::error(code, format!("unknown output `{name}`")).with_primary(*span, "not an output");
                match suggestion {
                    Some(s) => d
                        .with_fix(*span, s)
                        .with_help(format!("did you mean `{s}`? outputs are pos, tex, col and ocol")),
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
            // `R01` is `r1`: the fix is a name the assembler takes, without the padding too.
            match name[1..].parse::<u64>() {
                Ok(n) if name[1..].bytes().all(|b| b.is_ascii_digit()) => format!("registers are lower case: `r{n}`"),
                _ => format!("registers are lower case: `r{}`", &name[1..]),
            }
        }
        (OperandKind::Register, Found::Number(n)) => format!("registers are written with an `r`: `r{n}`"),
        (OperandKind::Output, Found::Number(_)) => "outputs are named: pos, tex, col or ocol".to_string(),
        (OperandKind::InputSlot | OperandKind::ConstSlot, Found::Register(_)) => {
            format!("`{op}` reads a slot, given as a number: `{op} r0 0`")
        }
        _ => format!("here `{op}` takes {}", expected.describe()),
    }
}
