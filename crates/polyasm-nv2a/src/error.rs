//! The nv2a dialect's typed errors and the one place they become [`Diagnostic`]s. Codes live
//! here.

use polyasm_core::number::IntLiteralError;
use polyasm_core::{Diagnostic, Span};

use crate::ops::{CONSTANTS, MAX_INSTRUCTIONS, Unit};

/// Everything that can be wrong in nv2a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nv2aError {
    /// A token the grammar does not allow here.
    Unexpected {
        /// The token that does not fit.
        span: Span,
        /// The token as the message names it, such as `` `;` `` or `end of line`.
        found: String,
        /// What could have come here, such as `` `,` ``.
        expected: String,
    },
    /// A `/*` with no `*/` after it.
    UnterminatedComment {
        /// The `/*` that opens the comment.
        span: Span,
    },
    /// An operation whose mnemonic is no nv2a operation.
    UnknownMnemonic {
        /// The mnemonic.
        span: Span,
        /// The mnemonic as written, such as `mvo`.
        name: String,
        /// The closest mnemonic, offered as the fix.
        suggestion: Option<&'static str>,
    },
    /// A number where a register belongs.
    WrongOperandKind {
        /// The number.
        span: Span,
        /// The mnemonic as written: `mov`.
        op: String,
        /// The number as written, used in the help (`c5`, `r5`).
        number: String,
    },
    /// arl writes a0, and only a0.
    ArlDestination {
        /// The destination written instead.
        span: Span,
        /// The destination as written: `r0`.
        register: String,
    },
    /// A declaration, macro or directive joined to an operation with `+`.
    PairedNonOperation {
        /// The declaration, macro or directive.
        span: Span,
    },
    /// Too few or too many operands; `span` covers the extra ones, or the mnemonic.
    OperandCount {
        /// The extra operands; for a missing one, the last token before it.
        span: Span,
        /// The mnemonic.
        head: Span,
        /// The mnemonic as written: `mad`.
        name: String,
        /// How many operands the operation takes, destination included.
        takes: usize,
        /// How many were written.
        found: usize,
        /// The operation's form, such as `mad dst, a, b, c`, quoted in the help.
        syntax: String,
    },
    /// A name that is no register, such as `q0`, or `x[...]` where only `c[...]` is indexed.
    UnknownRegister {
        /// The name.
        span: Span,
        /// The name as written.
        name: String,
        /// The closest register name, offered as the fix.
        suggestion: Option<String>,
    },
    /// A register past the end of its file, such as `r13` or `c192`.
    RegisterOutOfRange {
        /// The register.
        span: Span,
        /// The register as the message names it: `v16`, `c[A0+200]`.
        name: String,
        /// "r0 to r12", ...
        range: &'static str,
    },
    /// A source swizzle that is not 1 to 4 lane letters.
    BadSwizzle {
        /// The swizzle.
        span: Span,
        /// The swizzle as written, dot included: `.xyzwx`.
        text: String,
        /// What is wrong, as the label says it.
        problem: &'static str,
    },
    /// A write mask that is not lane letters in order, each at most once.
    BadMask {
        /// The mask.
        span: Span,
        /// The mask as written, dot included: `.yx`.
        text: String,
        /// What is wrong, as the label says it.
        problem: &'static str,
        /// How to write it instead, such as with its lanes reordered.
        help: String,
    },
    /// A destination that cannot be written (r12, an input, a relative constant, ...).
    NotWritable {
        /// The destination.
        span: Span,
        /// The destination as the message names it: `r12`, `a relative constant`.
        what: String,
        /// What to write instead.
        help: String,
    },
    /// A source that cannot be read (an output, a0, ...).
    NotReadable {
        /// The register.
        span: Span,
        /// The register as the message names it: `the address register a0`.
        what: String,
        /// What to write instead.
        help: String,
    },
    /// A `#name` used before or without its declaration.
    UndeclaredUniform {
        /// The use.
        span: Span,
        /// The uniform's name as written, `#` included.
        name: String,
        /// A help line naming the closest declared uniform, when there is one.
        suggestion: Option<String>,
    },
    /// A uniform declared a second time.
    DuplicateUniform {
        /// The second declaration.
        span: Span,
        /// The first declaration.
        first: Span,
        /// The uniform's name, `#` included.
        name: String,
    },
    /// A uniform declaration with an unknown type or that does not fit in the constants.
    BadUniformDeclaration {
        /// The part of the declaration at fault.
        span: Span,
        /// The message, whole.
        message: String,
        /// The label at `span`.
        label: String,
        /// The help line.
        help: String,
    },
    /// A matrix uniform used without a row, or with a row past 3.
    BadMatrixRow {
        /// The uniform, or its row.
        span: Span,
        /// The message, whole.
        message: String,
        /// The label at `span`.
        label: String,
        /// The help line.
        help: String,
    },
    /// Two different v-registers read in one instruction.
    TwoInputRegisters {
        /// The first read.
        first: Span,
        /// The second read, of another register.
        second: Span,
        /// The two v-register numbers, in source order.
        registers: (u32, u32),
    },
    /// Two different c-registers read in one instruction.
    TwoConstantRegisters {
        /// The first read.
        first: Span,
        /// The second read, of another register.
        second: Span,
        /// The two registers as the message names them (`c4`, `c[A0+2]`), in source order.
        registers: (String, String),
    },
    /// A relative and an absolute constant read in one instruction.
    MixedRelativeConstants {
        /// The `c[A0+N]` read.
        relative: Span,
        /// The `cN` read.
        absolute: Span,
    },
    /// Two writes to o- or c-registers in one instruction.
    SecondOutput {
        /// The first o/c destination.
        first: Span,
        /// The second o/c destination.
        second: Span,
    },
    /// Two operations that both need the same unit.
    UnitConflict {
        /// The first operation.
        first: Span,
        /// The second operation, which needs the same unit.
        second: Span,
        /// The unit both need.
        unit: Unit,
    },
    /// The MAC operation reads slot C, which the ILU operation needs for a different input.
    InputCMismatch {
        /// The MAC's source read through input C.
        mac: Span,
        /// The ILU's source.
        ilu: Span,
    },
    /// Two writes to temporary registers that one instruction cannot encode.
    TwoTempWrites {
        /// The first temporary destination.
        first: Span,
        /// The second temporary destination.
        second: Span,
    },
    /// A MOV that has to run on the ILU (the MAC is busy) writes a temp other than r1.
    IluMovTemp {
        /// The mov's destination.
        span: Span,
        /// The operation the MAC runs.
        other: Span,
        /// The temporary the mov writes, 0 to 11 but not 1.
        register: u32,
    },
    /// Warning: a paired ILU operation writes a temp other than r1; r1 is written.
    PairedIluTemp {
        /// The ILU operation's destination.
        span: Span,
        /// The temporary written, 0 to 11 but not 1.
        register: u32,
    },
    /// More operations in one instruction than the MAC and the ILU can run.
    TooManyOperations {
        /// The operation, or the operations, that do not fit.
        span: Span,
        /// How many operations the instruction has.
        found: usize,
    },
    /// A program longer than [`MAX_INSTRUCTIONS`] instructions.
    TooManyInstructions {
        /// The first instruction past the limit, or the end of the source when the appended
        /// final instruction is the one too many.
        span: Span,
    },
    /// A macro that is unknown or has wrong operands.
    BadMacro {
        /// The macro or the operand at fault.
        span: Span,
        /// The message, whole.
        message: String,
        /// The label at `span`.
        label: String,
        /// The help line.
        help: String,
    },
    /// A directive that is unknown or has wrong operands.
    BadDirective {
        /// The directive or the operand at fault.
        span: Span,
        /// The message, whole.
        message: String,
        /// The label at `span`.
        label: String,
        /// The help line.
        help: String,
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
    /// Warning: a swizzle or mask that mixes `xyzw` and `rgba` letters (`.xyA`); each letter
    /// is read on its own, as nv2avsh reads it.
    MixedLaneLetters {
        /// The swizzle or mask.
        span: Span,
        /// The swizzle or mask as written: `.xyA`.
        text: String,
        /// The same lanes in `xyzw` letters: `.xyw`.
        xyzw: String,
        /// "swizzle" or "mask".
        what: &'static str,
    },
    /// Warning: a mask on a0 other than `.x`; arl writes a0 whatever it says.
    AddressMask {
        /// The mask.
        span: Span,
        /// The mask as written: `.xy`.
        text: String,
    },
    /// Warning: a paired MAC operation writes r1, which xemu drops; the hardware is unknown.
    PairedMacR1 {
        /// The MAC operation's `r1` destination.
        span: Span,
        /// The ILU's temporary destination, or the ILU operation when it writes none.
        ilu: Span,
        /// Whether the ILU writes a temporary too (always r1 when paired).
        ilu_writes_r1: bool,
    },
}

polyasm_core::codes! {
    /// Every nv2a code; docs/codes/nv2a.md explains each one.
    pub enum Code, explained in "../codes.md" {
        Syntax = "NV2A001", Error, "syntax error";
        UnterminatedComment = "NV2A002", Error, "unterminated block comment";
        UnknownMnemonic = "NV2A003", Error, "unknown mnemonic";
        OperandCount = "NV2A004", Error, "wrong number of operands";
        UnknownRegister = "NV2A005", Error, "unknown register";
        RegisterOutOfRange = "NV2A006", Error, "register out of range";
        InvalidSwizzle = "NV2A007", Error, "invalid swizzle";
        InvalidMask = "NV2A008", Error, "invalid write mask";
        NotWritable = "NV2A009", Error, "register cannot be written";
        NotReadable = "NV2A010", Error, "register cannot be read";
        UndeclaredUniform = "NV2A011", Error, "undeclared uniform";
        DuplicateUniform = "NV2A012", Error, "uniform declared twice";
        InvalidUniformDeclaration = "NV2A013", Error, "invalid uniform declaration";
        InvalidMatrixRow = "NV2A014", Error, "invalid matrix row";
        TwoInputRegisters = "NV2A015", Error, "two input registers in one instruction";
        TwoConstantRegisters = "NV2A016", Error, "two constant registers in one instruction";
        MixedRelativeConstants = "NV2A017", Error, "relative and absolute constants mixed";
        SecondOutput = "NV2A018", Error, "second o/c output";
        UnitConflict = "NV2A019", Error, "operations need the same unit";
        InputCMismatch = "NV2A020", Error, "paired operations disagree on input C";
        TempWrites = "NV2A021", Error, "temporary writes cannot be encoded";
        PairedIluTemp = "NV2A022", Warning, "paired ILU write lands in r1";
        TooManyOperations = "NV2A023", Error, "too many paired operations";
        ProgramTooLong = "NV2A024", Error, "program too long";
        InvalidMacro = "NV2A025", Error, "invalid macro";
        InvalidDirective = "NV2A026", Error, "invalid directive";
        InvalidNumber = "NV2A027", Error, "invalid number";
        IncompleteInstruction = "NV2A028", Error, "incomplete instruction";
        ProgramCannotRun = "NV2A029", Error, "program cannot run";
        MixedLaneLetters = "NV2A030", Warning, "xyzw and rgba letters mixed";
        AddressMask = "NV2A031", Warning, "mask on a0 ignored";
        PairedMacR1 = "NV2A032", Warning, "paired MAC write to r1";
    }
}

impl Nv2aError {
    /// The code this error is reported with.
    pub fn code(&self) -> Code {
        use Nv2aError::*;
        match self {
            Unexpected { .. } | PairedNonOperation { .. } | WrongOperandKind { .. } => Code::Syntax,
            UnterminatedComment { .. } => Code::UnterminatedComment,
            UnknownMnemonic { .. } => Code::UnknownMnemonic,
            OperandCount { .. } => Code::OperandCount,
            UnknownRegister { .. } => Code::UnknownRegister,
            RegisterOutOfRange { .. } => Code::RegisterOutOfRange,
            BadSwizzle { .. } => Code::InvalidSwizzle,
            BadMask { .. } => Code::InvalidMask,
            NotWritable { .. } | ArlDestination { .. } => Code::NotWritable,
            NotReadable { .. } => Code::NotReadable,
            UndeclaredUniform { .. } => Code::UndeclaredUniform,
            DuplicateUniform { .. } => Code::DuplicateUniform,
            BadUniformDeclaration { .. } => Code::InvalidUniformDeclaration,
            BadMatrixRow { .. } => Code::InvalidMatrixRow,
            TwoInputRegisters { .. } => Code::TwoInputRegisters,
            TwoConstantRegisters { .. } => Code::TwoConstantRegisters,
            MixedRelativeConstants { .. } => Code::MixedRelativeConstants,
            SecondOutput { .. } => Code::SecondOutput,
            UnitConflict { .. } => Code::UnitConflict,
            InputCMismatch { .. } => Code::InputCMismatch,
            TwoTempWrites { .. } | IluMovTemp { .. } => Code::TempWrites,
            PairedIluTemp { .. } => Code::PairedIluTemp,
            TooManyOperations { .. } => Code::TooManyOperations,
            TooManyInstructions { .. } => Code::ProgramTooLong,
            BadMacro { .. } => Code::InvalidMacro,
            BadDirective { .. } => Code::InvalidDirective,
            InvalidInteger { .. } => Code::InvalidNumber,
            MixedLaneLetters { .. } => Code::MixedLaneLetters,
            AddressMask { .. } => Code::AddressMask,
            PairedMacR1 { .. } => Code::PairedMacR1,
        }
    }

    /// The message, labels, notes and help of this error.
    pub fn to_diagnostic(&self) -> Diagnostic {
        use Nv2aError::*;
        let code = self.code();
        let error = |message: String| Diagnostic::error(code, message);
        match self {
            Unexpected { span, found, expected } => error(format!("unexpected {found}"))
                .with_primary(*span, format!("expected {expected}"))
                .with_help(if expected.contains("`,`") && !found.starts_with("`,") {
                    "separate operands with commas: `mov r0, v0`"
                } else {
                    "an operation is `mnemonic dst, src, ...`; join paired operations with `+`"
                }),
            PairedNonOperation { span } => error("only operations can be joined with `+`".into())
                .with_primary(*span, "a declaration, macro or directive in a pair")
                .with_help("put the declaration, macro or directive on a line of its own"),
            WrongOperandKind { span, op, number } => {
                error(format!("`{op}` expects a register here, found the number `{number}`"))
                    .with_primary(*span, "expected a register")
                    .with_help(format!(
                        "registers are named: a constant is `c{number}` or `c[{number}]`, a temporary `r{number}`"
                    ))
            }
            ArlDestination { span, register } => {
                error(format!("`arl` expects a0 here, found the register `{register}`"))
                    .with_primary(*span, "expected a0")
                    .with_help("arl writes the address register: `arl a0, r0.x`")
            }
            UnterminatedComment { span } => error("unterminated block comment".into())
                .with_primary(*span, "this `/*` has no matching `*/`")
                .with_help("close the comment with `*/`"),
            UnknownMnemonic { span, name, suggestion } => {
                let d = error(format!("unknown mnemonic `{name}`")).with_primary(*span, "not an nv2a operation");
                match suggestion {
                    Some(s) => d.with_did_you_mean(*span, s),
                    None => d.with_help("`polyasm explain NV2A003` lists every operation"),
                }
            }
            OperandCount {
                span,
                head,
                name,
                takes,
                found,
                syntax,
            } if found > takes => error(format!(
                "`{name}` takes {}, found {found}",
                polyasm_core::text::count(*takes, "operand")
            ))
            .with_primary(*span, "extra operand")
            .with_help(format!("write `{syntax}`")),
            // As the VU says it: the first missing operand is named, after the last token.
            OperandCount {
                span,
                head,
                name,
                found,
                syntax,
                ..
            } => {
                let missing = if *found == 0 { "a destination" } else { "a source" };
                let d = error(format!("`{name}` is missing {missing}"))
                    .with_primary(*span, format!("{missing} must follow"));
                let d = if span == head {
                    d
                } else {
                    d.with_secondary(*head, format!("`{name}` takes: {syntax}"))
                };
                d.with_help(format!("write `{syntax}`"))
            }
            UnknownRegister { span, name, suggestion } => {
                let d = error(format!("unknown register `{name}`")).with_primary(*span, "not a register");
                match suggestion {
                    Some(s) => d.with_did_you_mean(*span, s),
                    None => d.with_help("`polyasm explain NV2A005` lists the registers"),
                }
            }
            RegisterOutOfRange { span, name, range } => error(format!("register `{name}` does not exist"))
                .with_primary(*span, "out of range")
                .with_help(format!("this register file has {range}")),
            BadSwizzle { span, text, problem } => error(format!("invalid swizzle `{text}`"))
                .with_primary(*span, *problem)
                .with_help("a swizzle is 1 to 4 letters of xyzw (or rgba), e.g. `.xyzw`, `.wzyx`, `.x`"),
            BadMask {
                span,
                text,
                problem,
                help,
            } => error(format!("invalid write mask `{text}`"))
                .with_primary(*span, *problem)
                .with_help(help.clone()),
            NotWritable { span, what, help } => error(format!("{what} cannot be written"))
                .with_primary(*span, "not a destination")
                .with_help(help.clone()),
            NotReadable { span, what, help } => error(format!("{what} cannot be read"))
                .with_primary(*span, "not a source")
                .with_help(help.clone()),
            UndeclaredUniform { span, name, suggestion } => {
                let d = error(format!("uniform `{name}` is not declared")).with_primary(*span, "used here");
                match suggestion {
                    Some(s) => d.with_help(s.clone()),
                    None => d.with_help(format!(
                        "declare it before its first use: `{name} vector N` or `{name} matrix4 N`"
                    )),
                }
            }
            DuplicateUniform { span, first, name } => error(format!("uniform `{name}` is declared twice"))
                .with_primary(*span, "declared again here")
                .with_secondary(*first, "first declared here")
                .with_help("give the second one another name"),
            BadUniformDeclaration {
                span,
                message,
                label,
                help,
            }
            | BadMatrixRow {
                span,
                message,
                label,
                help,
            }
            | BadMacro {
                span,
                message,
                label,
                help,
            }
            | BadDirective {
                span,
                message,
                label,
                help,
            } => error(message.clone())
                .with_primary(*span, label.clone())
                .with_help(help.clone()),
            TwoInputRegisters {
                first,
                second,
                registers: (a, b),
            } => error(format!("one instruction cannot read both v{a} and v{b}"))
                .with_primary(*second, format!("reads v{b}"))
                .with_secondary(*first, format!("reads v{a}"))
                .with_note("an instruction encodes a single v-register index for all of its inputs")
                .with_help(format!("copy one of them to a temporary first, e.g. `mov r0, v{b}`")),
            TwoConstantRegisters {
                first,
                second,
                registers: (a, b),
            } => error(format!("one instruction cannot read both {a} and {b}"))
                .with_primary(*second, format!("reads {b}"))
                .with_secondary(*first, format!("reads {a}"))
                .with_note("an instruction encodes a single c-register index for all of its inputs")
                .with_help(format!("copy one of them to a temporary first, e.g. `mov r0, {b}`")),
            MixedRelativeConstants { relative, absolute } => {
                error("one instruction cannot read relative and absolute constants".into())
                    .with_primary(*absolute, "absolute")
                    .with_secondary(*relative, "relative to a0")
                    .with_note("the A0X bit makes every constant read of the instruction relative")
                    .with_help("copy one of them to a temporary first")
            }
            SecondOutput { first, second } => error("one instruction can write only one o- or c-register".into())
                .with_primary(*second, "second o/c write")
                .with_secondary(*first, "first o/c write")
                .with_help("move one of the operations to an instruction of its own"),
            UnitConflict { first, second, unit } => error(format!("both operations need the {} unit", unit.name()))
                .with_primary(*second, format!("needs the {}", unit.name()))
                .with_secondary(*first, format!("also needs the {}", unit.name()))
                .with_help("pair one MAC operation with one ILU operation (mov runs on either)"),
            InputCMismatch { mac, ilu } => error("paired operations read input C differently".into())
                .with_primary(*ilu, "the ILU reads this through input C")
                .with_secondary(*mac, "the MAC reads this through input C")
                .with_note("add and sub read their second source, mad its third, through input C, which the ILU shares")
                .with_help("write the same source (swizzle and sign included) in both, or split the instruction"),
            TwoTempWrites { first, second } => error("one instruction cannot write these two temporaries".into())
                .with_primary(*second, "second temporary write")
                .with_secondary(*first, "first temporary write")
                .with_help("a merged operation writes one temporary and one o/c register; split the instruction"),
            IluMovTemp { span, other, register } => error(format!(
                "this mov runs on the ILU, which writes r1 only, not r{register}"
            ))
            .with_primary(*span, format!("writes r{register}"))
            .with_secondary(*other, "the MAC runs this one")
            .with_help("write r1, an o-register, or move the mov to an instruction of its own"),
            PairedIluTemp { span, register } => Diagnostic::warning(
                code,
                format!("paired ILU operation writes r{register}; the hardware writes r1"),
            )
            .with_primary(*span, format!("encoded as r1, not r{register}"))
            .with_note("when the MAC and the ILU both run, the ILU's temporary result always goes to r1")
            .with_help("write r1 to silence this"),
            TooManyOperations { span, found } => {
                error(format!("{found} operations cannot be paired in one instruction"))
                    .with_primary(*span, "one too many")
                    .with_help("an instruction runs one MAC and one ILU operation")
            }
            TooManyInstructions { span } => error(format!("program is longer than {MAX_INSTRUCTIONS} instructions"))
                .with_primary(*span, format!("instruction {}", MAX_INSTRUCTIONS + 1))
                .with_note(format!("the vertex engine holds {MAX_INSTRUCTIONS} instruction slots"))
                .with_help("pair operations with `+`, or split the program"),
            InvalidInteger { span, text, error: e } => error(format!("invalid number `{text}`"))
                .with_primary(*span, e.label())
                .with_help(e.help()),
            MixedLaneLetters { span, text, xyzw, what } => {
                Diagnostic::warning(code, format!("{what} `{text}` mixes `xyzw` and `rgba` letters"))
                    .with_primary(*span, format!("read as `{xyzw}`"))
                    .with_note("each letter names its lane: `r` is x, `g` y, `b` z, `a` w")
                    .with_help(format!("write `{xyzw}`"))
            }
            AddressMask { span, text } => {
                Diagnostic::warning(code, format!("a0 has only an x lane; the mask `{text}` is ignored"))
                    .with_primary(*span, "ignored")
                    .with_note("arl always writes a0")
                    .with_help("write `a0`")
            }
            PairedMacR1 {
                span,
                ilu,
                ilu_writes_r1,
            } => {
                let (message, ilu_label) = if *ilu_writes_r1 {
                    ("the MAC and the ILU both write r1", "the ILU writes r1 too")
                } else {
                    (
                        "a paired MAC operation writes r1",
                        "the ILU runs in the same instruction",
                    )
                };
                Diagnostic::warning(code, message)
                    .with_primary(*span, "the MAC writes r1")
                    .with_secondary(*ilu, ilu_label)
                    .with_note("the hardware's behaviour here is unknown: xemu drops the MAC's write to r1")
                    .with_help("have the MAC write another temporary, or split the instruction")
            }
        }
    }
}

/// The constant register's name as printed in messages.
pub fn constant_name(index: u32, relative: bool) -> String {
    if relative {
        format!("c[A0+{index}]")
    } else {
        format!("c{index}")
    }
}

/// "c0 to c191", for messages.
pub const CONSTANT_RANGE: &str = "c0 to c191";

const _: () = assert!(CONSTANTS == 192, "CONSTANT_RANGE names 192 constants");
