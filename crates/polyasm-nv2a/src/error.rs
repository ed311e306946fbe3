//! The nv2a dialect's typed errors and the one place they become [`Diagnostic`]s. Codes live
//! here.

use polyasm_core::explain::CodeInfo;
use polyasm_core::text::IntLiteralError;
use polyasm_core::{Diagnostic, Severity, Span};

use crate::ops::{CONSTANTS, MAX_INSTRUCTIONS, Unit};

/// Everything that can be wrong in nv2a source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nv2aError {
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
    /// A number where a register belongs.
    WrongOperandKind {
        span: Span,
        op: String,
        number: String,
    },
    /// arl writes a0, and only a0.
    ArlDestination {
        span: Span,
        register: String,
    },
    /// A declaration, macro or directive joined to an operation with `+`.
    PairedNonOperation {
        span: Span,
    },
    /// Too few or too many operands; `span` covers the extra ones, or the mnemonic.
    OperandCount {
        span: Span,
        /// The mnemonic.
        head: Span,
        name: String,
        takes: usize,
        found: usize,
        syntax: String,
    },
    UnknownRegister {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    RegisterOutOfRange {
        span: Span,
        name: String,
        /// "r0 to r12", ...
        range: &'static str,
    },
    BadSwizzle {
        span: Span,
        text: String,
        problem: &'static str,
    },
    BadMask {
        span: Span,
        text: String,
        problem: &'static str,
        help: String,
    },
    /// A destination that cannot be written (r12, an input, a relative constant, ...).
    NotWritable {
        span: Span,
        what: String,
        help: String,
    },
    /// A source that cannot be read (an output, a0, ...).
    NotReadable {
        span: Span,
        what: String,
        help: String,
    },
    UndeclaredUniform {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    DuplicateUniform {
        span: Span,
        first: Span,
        name: String,
    },
    BadUniformDeclaration {
        span: Span,
        message: String,
        label: String,
        help: String,
    },
    BadMatrixRow {
        span: Span,
        message: String,
        label: String,
        help: String,
    },
    TwoInputRegisters {
        first: Span,
        second: Span,
        registers: (u32, u32),
    },
    TwoConstantRegisters {
        first: Span,
        second: Span,
        registers: (String, String),
    },
    MixedRelativeConstants {
        relative: Span,
        absolute: Span,
    },
    /// Two writes to o- or c-registers in one instruction.
    SecondOutput {
        first: Span,
        second: Span,
    },
    /// Two operations that both need the same unit.
    UnitConflict {
        first: Span,
        second: Span,
        unit: Unit,
    },
    /// The MAC operation reads slot C, which the ILU operation needs for a different input.
    InputCMismatch {
        mac: Span,
        ilu: Span,
    },
    /// Two writes to temporary registers that one instruction cannot encode.
    TwoTempWrites {
        first: Span,
        second: Span,
    },
    /// A MOV that has to run on the ILU (the MAC is busy) writes a temp other than r1.
    IluMovTemp {
        span: Span,
        other: Span,
        register: u32,
    },
    /// Warning: a paired ILU operation writes a temp other than r1; r1 is written.
    PairedIluTemp {
        span: Span,
        register: u32,
    },
    TooManyOperations {
        span: Span,
        found: usize,
    },
    TooManyInstructions {
        span: Span,
    },
    BadMacro {
        span: Span,
        message: String,
        label: String,
        help: String,
    },
    BadDirective {
        span: Span,
        message: String,
        label: String,
        help: String,
    },
    InvalidInteger {
        span: Span,
        text: String,
        error: IntLiteralError,
    },
    /// Warning: a swizzle or mask that mixes `xyzw` and `rgba` letters (`.xyA`); each letter
    /// is read on its own, as nv2avsh reads it.
    MixedLaneLetters {
        span: Span,
        text: String,
        /// The same lanes in `xyzw` letters: `.xyw`.
        xyzw: String,
        /// "swizzle" or "mask".
        what: &'static str,
    },
    /// Warning: a mask on a0 other than `.x`; arl writes a0 whatever it says.
    AddressMask {
        span: Span,
        text: String,
    },
    /// Warning: a paired MAC operation writes r1, which xemu drops; the hardware is unknown.
    PairedMacR1 {
        span: Span,
        /// The ILU's temporary destination, or the ILU operation when it writes none.
        ilu: Span,
        ilu_writes_r1: bool,
    },
}

/// Every nv2a code, with its explanation for `polyasm explain`.
pub static CODES: &[CodeInfo] = &[
    CodeInfo {
        code: "NV2A001",
        severity: Severity::Error,
        title: "syntax error",
        explanation: "An nv2a statement is an operation (`mnemonic dst, src, ...`, operands separated by commas), several operations joined by `+` into one instruction, a uniform declaration (`#name vector N`, `#name matrix4 N`), a macro (`%matmul4x4 dst src #matrix`, `%norm3 dst src tmp`) or `.word`. An operand is a register with an optional `.mask` or `.swizzle`, `c[N]`, `c[A0+N]`, `c[N+A0]`, `#uniform` or `#matrix[row]`, and a source may start with `-`; a bare number is not an operand (a constant is `cN` or `c[N]`). Only operations can be joined with `+`. Comments are `//`, `;` or `/* */`.",
    },
    CodeInfo {
        code: "NV2A002",
        severity: Severity::Error,
        title: "unterminated block comment",
        explanation: "A `/*` comment runs until the next `*/`. Block comments do not nest.",
    },
    CodeInfo {
        code: "NV2A003",
        severity: Severity::Error,
        title: "unknown mnemonic",
        explanation: "nv2a operations are mov, mul, add, sub, mad, dp3, dph, dp4, dst, min, max, slt, sge and arl (MAC unit) and rcp, rcc, rsq, expp, logp and lit (ILU); mov runs on either unit. Mnemonics may be written in any letter case. The help line suggests the closest one.",
    },
    CodeInfo {
        code: "NV2A004",
        severity: Severity::Error,
        title: "wrong number of operands",
        explanation: "Each operation takes a destination and a fixed number of sources: mov, arl and the ILU operations one, mad three, the others two. Operands are separated by commas; to put a second operation in the same instruction join it with `+`.",
    },
    CodeInfo {
        code: "NV2A005",
        severity: Severity::Error,
        title: "unknown register",
        explanation: "Registers are r0 to r11 (temporaries), r12 (read-only oPos), v0 to v15 or their names iPos, iWeight, iNormal, iDiffuse, iSpecular, iFog, iPts, iBackDiffuse, iBackSpecular, iTex0 to iTex3 (inputs), c0 to c191 or c[N] (constants), a0 (address, written by arl) and the outputs oPos, oD0/oDiffuse, oD1/oSpecular, oFog, oPts, oB0/oBackDiffuse, oB1/oBackSpecular, oT0 to oT3 (or oTex0 to oTex3).",
    },
    CodeInfo {
        code: "NV2A006",
        severity: Severity::Error,
        title: "register out of range",
        explanation: "The vertex engine has temporaries r0 to r12 (r12 read-only), inputs v0 to v15 and constants c0 to c191; c[A0+N] takes an offset from 0 to 191.",
    },
    CodeInfo {
        code: "NV2A007",
        severity: Severity::Error,
        title: "invalid swizzle",
        explanation: "A source swizzle is 1 to 4 lane letters of `xyzw` or of `rgba` (`r` is x, `g` y, `b` z, `a` w). A shorter swizzle repeats its last lane: `.xy` is `.xyyy`, `.w` is `.wwww`.",
    },
    CodeInfo {
        code: "NV2A008",
        severity: Severity::Error,
        title: "invalid write mask",
        explanation: "A destination mask names each written lane once, in x, y, z, w order (`.xz`, `.yzw`, or the same in `rgba`). The machine cannot reorder lanes on a write; reorder the source swizzle instead.",
    },
    CodeInfo {
        code: "NV2A009",
        severity: Severity::Error,
        title: "register cannot be written",
        explanation: "Destinations are r0 to r11, the o-registers, c-registers (vertex state programs) and, for arl only, a0; arl writes a0 and nothing else. r12 is a read-only view of oPos (write oPos instead); v-registers are inputs; `c[A0+N]` cannot be a destination because the instruction encodes only an absolute constant address for writes.",
    },
    CodeInfo {
        code: "NV2A010",
        severity: Severity::Error,
        title: "register cannot be read",
        explanation: "Sources are temporaries (r0 to r12), inputs (v0 to v15) and constants. Output registers are write-only (r12 reads oPos), and a0 can only be used as the index in `c[A0+N]`.",
    },
    CodeInfo {
        code: "NV2A011",
        severity: Severity::Error,
        title: "undeclared uniform",
        explanation: "A `#name` must be declared before it is used, with `#name vector N` (one constant register, cN) or `#name matrix4 N` (cN to cN+3).",
    },
    CodeInfo {
        code: "NV2A012",
        severity: Severity::Error,
        title: "uniform declared twice",
        explanation: "Each uniform name is declared once. Use another name, or remove the second declaration.",
    },
    CodeInfo {
        code: "NV2A013",
        severity: Severity::Error,
        title: "invalid uniform declaration",
        explanation: "A declaration is `#name vector N` or `#name matrix4 N`, where N is the first constant register: vector takes c0 to c191, matrix4 takes four registers N to N+3, all within c0 to c191.",
    },
    CodeInfo {
        code: "NV2A014",
        severity: Severity::Error,
        title: "invalid matrix row",
        explanation: "`#m[k]` picks row k of a uniform: 0 to 3 for a matrix4, only 0 for a vector. A matrix4 used as an operand needs its row (`#m[0]`); `%matmul4x4` takes the whole matrix (`#m`).",
    },
    CodeInfo {
        code: "NV2A015",
        severity: Severity::Error,
        title: "two input registers in one instruction",
        explanation: "An instruction encodes one v-register index, shared by every input read from v. Reading two different v registers would read the same one twice (nv2avsh encodes this silently). Copy one of them to a temporary first.",
    },
    CodeInfo {
        code: "NV2A016",
        severity: Severity::Error,
        title: "two constant registers in one instruction",
        explanation: "An instruction encodes one c-register index, shared by every input read from c. Copy one of the constants to a temporary first.",
    },
    CodeInfo {
        code: "NV2A017",
        severity: Severity::Error,
        title: "relative and absolute constants mixed",
        explanation: "The A0X bit makes every constant read of an instruction relative to a0, so `c[A0+N]` and `cM` cannot be read by the same instruction (nv2avsh encodes this silently, making both relative).",
    },
    CodeInfo {
        code: "NV2A018",
        severity: Severity::Error,
        title: "second o/c output",
        explanation: "An instruction has one output port for o- and c-registers (address, mask and which unit feeds it). Two operations writing o- or c-registers cannot share an instruction (nv2avsh silently drops one). The same operation on the same inputs may write one o/c register and one temporary.",
    },
    CodeInfo {
        code: "NV2A019",
        severity: Severity::Error,
        title: "operations need the same unit",
        explanation: "An instruction runs one MAC operation (mov mul add sub mad dp3 dph dp4 dst min max slt sge arl) and one ILU operation (mov rcp rcc rsq expp logp lit). Two different MAC operations, or two ILU operations, cannot be paired. The same operation on the same inputs may appear twice to write two destinations.",
    },
    CodeInfo {
        code: "NV2A020",
        severity: Severity::Error,
        title: "paired operations disagree on input C",
        explanation: "The ILU reads input slot C; so do the MAC's add, sub (second source) and mad (third source). When both run in one instruction they read the same value, so the sources must be written identically, swizzle and sign included.",
    },
    CodeInfo {
        code: "NV2A021",
        severity: Severity::Error,
        title: "temporary writes cannot be encoded",
        explanation: "An instruction names one temporary register for the MAC; a paired ILU writes only r1. So two writes of the same operation to temporaries, or a mov that must run on the ILU (because the MAC is busy) writing a temporary other than r1, cannot be encoded.",
    },
    CodeInfo {
        code: "NV2A022",
        severity: Severity::Warning,
        title: "paired ILU write lands in r1",
        explanation: "When the MAC and the ILU both run, the hardware writes the ILU's temporary result to r1, whatever register the instruction names. polyasm encodes r1, as nv2avsh does, and warns; `-W error` makes it an error. Write r1 to silence it.",
    },
    CodeInfo {
        code: "NV2A023",
        severity: Severity::Error,
        title: "too many paired operations",
        explanation: "One instruction holds at most one MAC and one ILU operation, written as at most three operations joined by `+` (a merged double-output operation counts once per destination).",
    },
    CodeInfo {
        code: "NV2A024",
        severity: Severity::Error,
        title: "program too long",
        explanation: "The vertex engine holds 136 instruction slots. With `--explicit-final` the appended final marker takes one of them.",
    },
    CodeInfo {
        code: "NV2A025",
        severity: Severity::Error,
        title: "invalid macro",
        explanation: "Macros are `%matmul4x4 dst src #matrix` (four dp4s writing dst.x, .y, .z, .w with the rows of a matrix4 uniform) and `%norm3 dst src tmp` (`dp3 tmp.x, src, src`, `rsq tmp.w, tmp.x`, `mul dst.xyz, src, tmp.w`; tmp must be a writable temporary). Their destinations take no mask.",
    },
    CodeInfo {
        code: "NV2A026",
        severity: Severity::Error,
        title: "invalid directive",
        explanation: "The one directive is `.word d0, d1, d2, d3`: one instruction given as its four 32-bit words, emitted as written. The disassembler prints instructions that are not canonical this way.",
    },
    CodeInfo {
        code: "NV2A027",
        severity: Severity::Error,
        title: "invalid number",
        explanation: "Numbers are decimal, or `0x` hex, `0b` binary, `0o` octal, with optional `_` separators.",
    },
    CodeInfo {
        code: "NV2A028",
        severity: Severity::Error,
        title: "incomplete instruction",
        explanation: "An nv2a instruction is four 32-bit words (d0 to d3), so machine code given to the disassembler or the emulator must hold a multiple of four words.",
    },
    CodeInfo {
        code: "NV2A029",
        severity: Severity::Error,
        title: "program cannot run",
        explanation: "The emulator runs at most 136 instructions and needs defined opcodes: MAC opcodes 14 and 15 do not exist. Assembled programs always run; this concerns words given with `.word`.",
    },
    CodeInfo {
        code: "NV2A030",
        severity: Severity::Warning,
        title: "xyzw and rgba letters mixed",
        explanation: "A swizzle or mask mixes `xyzw` and `rgba` letters, as in `mov r6.xyA, r0`. Each letter names its lane on its own (`r` is x, `g` y, `b` z, `a` w), as nv2avsh reads it, so `.xyA` is the mask `.xyw`; the mix is more likely a slip than meant, hence the warning. Write the lanes in one alphabet, as the help line shows; `-W error` makes it an error.",
    },
    CodeInfo {
        code: "NV2A031",
        severity: Severity::Warning,
        title: "mask on a0 ignored",
        explanation: "The address register a0 has one lane, and `arl` always writes it, so a mask on `a0` other than `.x` means nothing: `arl a0.w, r2` is assembled as `arl a0, r2`, as nv2avsh does. Write `a0` to silence the warning.",
    },
    CodeInfo {
        code: "NV2A032",
        severity: Severity::Warning,
        title: "paired MAC write to r1",
        explanation: "In an instruction that runs both units, the MAC writes a temporary result to r1. The ILU's temporary result also goes to r1 whenever both units run, and what the hardware does with the MAC's write there is not known: xemu drops it, nv2a_vsh_cpu and polyasm's emulator keep it (the MAC's lanes first, then the ILU's). polyasm encodes what was written, as nv2avsh does, and warns; have the MAC write another temporary, or split the instruction.",
    },
];

impl Nv2aError {
    pub fn code(&self) -> &'static str {
        use Nv2aError::*;
        match self {
            Unexpected { .. } | PairedNonOperation { .. } | WrongOperandKind { .. } => "NV2A001",
            UnterminatedComment { .. } => "NV2A002",
            UnknownMnemonic { .. } => "NV2A003",
            OperandCount { .. } => "NV2A004",
            UnknownRegister { .. } => "NV2A005",
            RegisterOutOfRange { .. } => "NV2A006",
            BadSwizzle { .. } => "NV2A007",
            BadMask { .. } => "NV2A008",
            NotWritable { .. } | ArlDestination { .. } => "NV2A009",
            NotReadable { .. } => "NV2A010",
            UndeclaredUniform { .. } => "NV2A011",
            DuplicateUniform { .. } => "NV2A012",
            BadUniformDeclaration { .. } => "NV2A013",
            BadMatrixRow { .. } => "NV2A014",
            TwoInputRegisters { .. } => "NV2A015",
            TwoConstantRegisters { .. } => "NV2A016",
            MixedRelativeConstants { .. } => "NV2A017",
            SecondOutput { .. } => "NV2A018",
            UnitConflict { .. } => "NV2A019",
            InputCMismatch { .. } => "NV2A020",
            TwoTempWrites { .. } | IluMovTemp { .. } => "NV2A021",
            PairedIluTemp { .. } => "NV2A022",
            TooManyOperations { .. } => "NV2A023",
            TooManyInstructions { .. } => "NV2A024",
            BadMacro { .. } => "NV2A025",
            BadDirective { .. } => "NV2A026",
            InvalidInteger { .. } => "NV2A027",
            MixedLaneLetters { .. } => "NV2A030",
            AddressMask { .. } => "NV2A031",
            PairedMacR1 { .. } => "NV2A032",
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
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
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
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
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
