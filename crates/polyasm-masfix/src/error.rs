//! The Masfix dialect's typed errors and the one place they become [`Diagnostic`]s. Codes live
//! here.

use std::borrow::Cow;

use polyasm_core::explain::CodeInfo;
use polyasm_core::text::count;
use polyasm_core::{Diagnostic, Severity, Span};

use crate::lexer::LexError;

/// Everything that can be wrong in Masfix source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MxError {
    UnopenedClose {
        span: Span,
        found: char,
    },
    MismatchedClose {
        span: Span,
        open: Span,
        found: char,
        expected: char,
    },
    UnclosedList {
        span: Span,
        open: char,
    },
    BadEscape {
        span: Span,
        text: String,
    },
    Unterminated {
        span: Span,
        quote: char,
    },
    BadCharValue {
        span: Span,
        text: String,
    },
    /// An atom the line grammar does not allow here.
    Unexpected {
        span: Span,
        found: String,
        expected: String,
    },
    /// `name:` where a label is meant.
    ColonAfterName {
        span: Span,
        name: String,
    },
    SecondLabel {
        span: Span,
    },
    MissingLabelName {
        span: Span,
    },
    InvalidLabelName {
        span: Span,
        name: String,
    },
    LabelRedefined {
        span: Span,
        first: Option<Span>,
        name: String,
    },
    LabelShadowsInstruction {
        span: Span,
        name: String,
    },
    LabelShadowsDirective {
        span: Span,
        name: String,
    },
    UnknownMnemonic {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    MissingCondition {
        span: Span,
        name: String,
    },
    UnknownCondition {
        span: Span,
        found: String,
        suggestion: Option<String>,
    },
    ConditionRegister {
        span: Span,
        reg: char,
    },
    SuffixTooLong {
        span: Span,
        suffix: String,
    },
    ModifierNotAllowed {
        span: Span,
        base: &'static str,
        op: char,
    },
    OperationWithoutRegister {
        span: Span,
        op: char,
    },
    SecondOperation {
        span: Span,
        op: char,
    },
    SecondRegister {
        span: Span,
        reg: char,
    },
    ConditionInSuffix {
        span: Span,
        cond: String,
    },
    /// A character that may not follow what came before it in an instruction name.
    UnknownSuffix {
        span: Span,
        found: char,
        /// The name up to the culprit.
        after: String,
        /// What may follow there, in words.
        allowed: String,
        /// `ld7`: the number is an immediate written without a space.
        immediate: Option<(String, String)>,
    },
    InvalidImmediate {
        span: Span,
        text: String,
        help: String,
    },
    ExtraImmediate {
        span: Span,
        name: String,
        found: usize,
    },
    UndefinedLabel {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    ImmediateOutOfRange {
        span: Span,
        text: String,
    },
    TakesNothing {
        span: Span,
        name: String,
        base: &'static str,
    },
    InputOperation {
        span: Span,
        name: String,
    },
    InputImmediate {
        span: Span,
        name: String,
    },
    InputDestination {
        span: Span,
        reg: char,
    },
    MissingValue {
        span: Span,
        name: String,
    },
    MissingImmediate {
        span: Span,
        name: String,
        op: char,
    },
    ExcessImmediate {
        span: Span,
        name: String,
        reg: char,
    },
    NoOp {
        span: Span,
        name: String,
    },
    TooManyInstructions {
        span: Span,
        limit: usize,
    },
    UnknownName {
        span: Span,
        name: String,
        suggestion: Option<String>,
    },
    MissingDirectiveName {
        span: Span,
        sigil: char,
    },
    BadDefine {
        span: Span,
        problem: &'static str,
    },
    NameDefinedTwice {
        span: Span,
        first: Option<Span>,
        name: String,
    },
    BadMacro {
        span: Span,
        problem: &'static str,
    },
    ArgumentCount {
        span: Span,
        name: String,
        takes: usize,
        found: usize,
    },
    MissingArguments {
        span: Span,
        name: String,
    },
    ExpansionTooDeep {
        span: Span,
        limit: usize,
    },
    ExpansionTooLarge {
        span: Span,
        limit: usize,
    },
    TooManyLookups {
        span: Span,
        limit: usize,
    },
    UnknownNamespace {
        span: Span,
        name: String,
    },
    BadNamespace {
        span: Span,
        problem: Cow<'static, str>,
    },
    DefinitionInBody {
        span: Span,
        directive: String,
    },
    BadInclude {
        span: Span,
    },
    CompileTimeNotMacro {
        span: Span,
        name: String,
    },
    /// Compile-time code that did not assemble (its errors are reported too), or that stopped
    /// with a runtime error (`problem`).
    CompileTimeFailed {
        span: Span,
        problem: Option<String>,
    },
    CompileTimeSteps {
        span: Span,
        steps: u64,
    },
    /// A diagnostic of polyasm's core (an include that cannot be read), kept as it is.
    Core {
        span: Span,
        diagnostic: Box<Diagnostic>,
    },
}

/// Every Masfix code, with its explanation for `polyasm explain`.
pub static CODES: &[CodeInfo] = &[
    code(
        "MX001",
        "closing bracket with no list open",
        "Token lists are written between `(` and `)`, `[` and `]`, or `{` and `}`; a closing bracket must close the last list opened.",
    ),
    code(
        "MX002",
        "mismatched brackets",
        "A token list closes with the bracket that matches its opening one: `(` with `)`, `[` with `]`, `{` with `}`. The note shows where the open list starts.",
    ),
    code(
        "MX003",
        "unclosed token list",
        "Every `(`, `[` and `{` needs its closing bracket before the end of the file.",
    ),
    code(
        "MX004",
        "invalid escape",
        "Character literals and strings know the escapes `\\n`, `\\t`, `\\r`, `\\\\`, `\\\"`, `\\'` and `\\0`.",
    ),
    code(
        "MX005",
        "unterminated character or string",
        "A character literal `'x'` or a string `\"text\"` ends with its quote on the same line.",
    ),
    code(
        "MX006",
        "invalid character value",
        "A character literal holds exactly one byte: one ASCII character or one escape, such as `'A'` or `'\\n'`. Its value is the byte.",
    ),
    code(
        "MX007",
        "syntax error",
        "A Masfix line is an optional label definition `:name`, then an optional instruction: its name written as one word (`ldamt`, `str&m>`) and at most one immediate (a number from 0 to 65535, a character `'A'` or a label name), separated by spaces. `;` starts a comment.",
    ),
    code(
        "MX008",
        "label written with a trailing colon",
        "A label definition starts with `:`, as in `:loop`; `loop:` is not a label.",
    ),
    code(
        "MX009",
        "two labels on one line",
        "A line defines at most one label. Put the second one on a line of its own.",
    ),
    code(
        "MX010",
        "missing label name",
        "A `:` starts a label definition and must be followed by the label's name.",
    ),
    code(
        "MX011",
        "invalid label name",
        "A label name starts with a letter or `_` and goes on with letters, digits and `_`.",
    ),
    code(
        "MX012",
        "label defined twice",
        "Each label is defined once; all labels share one table, whatever namespace or file defines them. `begin` (0) and `end` (the instruction count) are predefined.",
    ),
    code(
        "MX013",
        "label shadows an instruction",
        "A label name must not read as an instruction name (`ld`, `ldam`, `swap`, ...), since a line starting with it would be ambiguous.",
    ),
    code(
        "MX014",
        "label shadows a directive",
        "The names `define`, `macro`, `namespace`, `using` and `include` are reserved for the macro system and cannot be labels.",
    ),
    code(
        "MX020",
        "unknown mnemonic",
        "A Masfix instruction name starts with one of mov, str, ld, jmp (which take a modifier), b, l, s (which take a condition), outu, outc, inc, ipc, inu, inl or swap, and goes on with the letters its kind allows. Names are case-sensitive.",
    ),
    code(
        "MX021",
        "missing condition",
        "`b`, `l` and `s` are followed by an optional condition register (`r` or `m`) and a two-letter condition: eq, ne, lt, le, gt, ge (signed), ab, ae, bl, be (unsigned).",
    ),
    code(
        "MX022",
        "unknown condition",
        "The conditions are eq, ne, lt, le, gt, ge (signed comparisons) and ab, ae, bl, be (unsigned: above, above or equal, below, below or equal).",
    ),
    code(
        "MX023",
        "condition register is not r or m",
        "A condition tests `r` (the default) or `m`: `bmeq` branches when m is 0. `h` and `p` cannot be tested.",
    ),
    code(
        "MX024",
        "suffix too long",
        "After an instruction's base (and condition), at most three letters follow: a modifier, a register and an operation, as in `ldamt`.",
    ),
    code(
        "MX025",
        "modifier not allowed",
        "Only mov, str, ld and jmp take a modifier (an operation letter right after the base, as in `lda 1`, r += 1). Conditions, output and input instructions take none.",
    ),
    code(
        "MX026",
        "operation without a register",
        "An intermediate operation combines a register with the immediate (`ldmt 2`, r = m * 2), so a register letter comes before it.",
    ),
    code(
        "MX027",
        "second operation",
        "An instruction name holds at most one intermediate operation.",
    ),
    code(
        "MX028",
        "second register",
        "An instruction name holds at most one register letter.",
    ),
    code(
        "MX029",
        "condition in the suffix",
        "A condition comes right after `b`, `l` or `s` (and its condition register), before any other suffix.",
    ),
    code(
        "MX030",
        "unknown suffix",
        "After the base come, in this order: a modifier (a s t & | ^ < > ., mov str ld jmp only), a register (h m r p) and an operation. An immediate is written after a space: `ld 7`, not `ld7`.",
    ),
    code(
        "MX031",
        "invalid immediate",
        "An immediate is a decimal number from 0 to 65535 written without sign or leading zeros, a character literal such as `'A'`, or a label name.",
    ),
    code(
        "MX032",
        "more than one immediate",
        "An instruction takes at most one immediate.",
    ),
    code(
        "MX033",
        "undefined label",
        "A name used as an immediate must be a label defined somewhere in the program (before or after its use), or `begin` or `end`.",
    ),
    code("MX034", "immediate out of range", "Immediates are 16-bit: 0 to 65535."),
    code(
        "MX035",
        "instruction takes nothing",
        "`swap` and `inl` take no suffix and no immediate.",
    ),
    code(
        "MX036",
        "input instruction with an operation",
        "`inc`, `ipc` and `inu` write what they read to `r` or `m`; they combine it with nothing.",
    ),
    code(
        "MX037",
        "input instruction with an immediate",
        "`inc`, `ipc` and `inu` take no immediate; their only suffix is the destination, `r` (the default) or `m`.",
    ),
    code(
        "MX038",
        "input destination is not r or m",
        "`inc`, `ipc` and `inu` write to `r` (the default) or `m` (`incm`).",
    ),
    code(
        "MX039",
        "missing value",
        "mov, str, ld, jmp, b, l, s, outu and outc need a value: an immediate (`ld 5`), a register (`ldm`), or a register, an operation and an immediate (`ldma 5`).",
    ),
    code(
        "MX040",
        "missing immediate",
        "An intermediate operation combines the register with an immediate, so an instruction whose name ends in an operation needs one: `ldma 5`.",
    ),
    code(
        "MX041",
        "register and immediate without an operation",
        "A value is an immediate, a register, or a register combined with an immediate by an operation; a register and an immediate alone say nothing about how to combine them. Add an operation (`ldra 5`) or drop one of the two.",
    ),
    code_with(
        "MX042",
        Severity::Warning,
        "instruction does nothing",
        "`ldr` (r = r), `strm` (m = m) and `movh` (h = h) change nothing. polyasm assembles them and warns; `-W error` makes the warning an error, `-W no-MX042` silences it.",
    ),
    code(
        "MX043",
        "program too long",
        "A Masfix program holds at most 65,536 instructions: the instruction pointer and every immediate are 16 bits.",
    ),
    code(
        "MX044",
        "invalid bytecode",
        "A Masfix bytecode file starts with `MXBC`, a version (1), flags and an instruction count, then holds two 16-bit words per instruction and, when flag 0 is set, a debug section; docs/formats/masfix-bytecode.md describes every field. The message names the byte offset where the file stops making sense.",
    ),
    code(
        "MX050",
        "unknown macro or constant",
        "A `%name` must name a macro parameter, a `%define` constant or a `%macro` visible from here: defined in this namespace or an enclosing one, or in a namespace brought in with `%using`. Names in other namespaces are reached with `%ns:inner:name`. Directives are define, macro, namespace, using and include.",
    ),
    code(
        "MX051",
        "missing name after `%` or `!`",
        "`%` and `!` start a directive or a macro use and are followed, with no space, by a name (`%define`, `%my_macro(1)`) or by a bracket group that builds the name (`%(pre)`).",
    ),
    code(
        "MX052",
        "invalid constant",
        "`%define NAME value` defines a constant: the value is a number, a character, or a token list that expands to one number (such as a compile-time call: `%define size (!mul(4, 8))`). The name is not a directive's (`define`, `macro`, `namespace`, `using`, `include`): `%define` is always the directive, so such a constant could never be used.",
    ),
    code(
        "MX053",
        "name defined twice",
        "A namespace holds each name once: a constant and a macro cannot share a name, and a macro's parameters have different names. A nested namespace may reuse a name, and a parameter may have the name of a macro or constant: inside the body it stands for the argument. A definition in a macro body is made in the namespace of the use, so a body that defines a name makes this error at its second use there.",
    ),
    code(
        "MX054",
        "invalid macro definition",
        "`%macro name(a, b) { body }` defines a macro: a name, a parameter list of names separated by commas (possibly empty: `()`), and a body in any kind of brackets. The name is not a directive's (`define`, `macro`, `namespace`, `using`, `include`).",
    ),
    code(
        "MX055",
        "wrong number of arguments",
        "A macro use passes one argument per parameter, separated by commas at the top level of its list: `%mac(1, (2, 3))` passes two.",
    ),
    code(
        "MX056",
        "macro used without arguments",
        "A macro use is followed by its argument list, even when it takes none: `%newline()`.",
    ),
    code(
        "MX057",
        "expansion too deep",
        "Macro uses nest at most 1024 deep: a macro that uses itself without end stops here. The notes show the chain of uses.",
    ),
    code(
        "MX058",
        "expansion too large",
        "A program holds at most 4,194,304 tokens and macro uses, its files and what macro expansion makes counted together (a program of 65,536 instructions needs far fewer), which bounds the time and memory an assembly takes.",
    ),
    code(
        "MX059",
        "unknown namespace",
        "A namespace path (`%using ns`, `%ns:inner:name`) starts with a namespace defined in this namespace, an enclosing one, or one brought in with `%using`, and goes on through namespaces defined inside it.",
    ),
    code(
        "MX060",
        "invalid namespace",
        "`%namespace name { ... }` opens a namespace: a name, then a body in brackets. The body's code is assembled where it stands; its constants and macros live in the namespace. Namespaces nest at most 1024 deep.",
    ),
    code(
        "MX061",
        "namespace or include inside a macro body",
        "A macro body may define constants and macros (they are made in the namespace where the macro is used), but `%namespace` and `%include` belong outside it, in a file.",
    ),
    code(
        "MX062",
        "invalid include",
        "`%include \"name\"` includes a file: the name is a string, `.mx` is added when it has no extension, and the file is searched in the including file's folder, the main file's folder, the `-I` folders, the standard library (`std/...`) and the current folder. A file already included is skipped.",
    ),
    code(
        "MX063",
        "compile-time use of something not a macro",
        "`!name(args)` runs a macro's body at compile time; constants and parameters are used with `%`.",
    ),
    code(
        "MX064",
        "compile-time code failed",
        "The body of a `!name(args)` call is assembled and run on the compile-time machine. It must assemble, and it must end normally: a jump past its end is an error. Its own errors are reported at the body's lines, with the chain of uses.",
    ),
    code(
        "MX065",
        "compile-time step limit",
        "Compile-time code runs at most 100,000,000 instructions in all calls together by default, so that a loop without end stops; `--ctime-steps N` raises the limit.",
    ),
    code(
        "MX066",
        "too many name lookups",
        "A `%name` is looked up in the namespace of its use, the namespaces brought in there with `%using`, then in each enclosing namespace and those it uses, until it is found. An assembly may look in at most 33,554,432 namespaces in all (real programs look in a few per use), so that deeply nested namespaces and long `%using` lists cannot make assembly quadratic.",
    ),
    code(
        "MX070",
        "jump past the end",
        "A jump or branch may go to any instruction or to `end` (the instruction count), which ends the program normally; a target past `end` stops the run with this error and exit code 1. The message names the jumping instruction and, when the bytecode has its debug section, where it was written.",
    ),
    code(
        "MX071",
        "step limit",
        "`polyasm run --max-steps N` stops a program after N executed instructions, so that a program that never ends can be stopped; reaching the limit is this error, with exit code 1.",
    ),
];

/// The severity `code` is declared with in [`CODES`] (an error for a code not there).
pub fn severity_of(code: &str) -> Severity {
    CODES
        .iter()
        .find(|info| info.code == code)
        .map_or(Severity::Error, |info| info.severity)
}

const fn code(code: &'static str, title: &'static str, explanation: &'static str) -> CodeInfo {
    code_with(code, Severity::Error, title, explanation)
}

const fn code_with(code: &'static str, severity: Severity, title: &'static str, explanation: &'static str) -> CodeInfo {
    CodeInfo {
        code,
        severity,
        title,
        explanation,
    }
}

impl MxError {
    pub fn code(&self) -> &'static str {
        use MxError::*;
        match self {
            UnopenedClose { .. } => "MX001",
            MismatchedClose { .. } => "MX002",
            UnclosedList { .. } => "MX003",
            BadEscape { .. } => "MX004",
            Unterminated { .. } => "MX005",
            BadCharValue { .. } => "MX006",
            Unexpected { .. } => "MX007",
            ColonAfterName { .. } => "MX008",
            SecondLabel { .. } => "MX009",
            MissingLabelName { .. } => "MX010",
            InvalidLabelName { .. } => "MX011",
            LabelRedefined { .. } => "MX012",
            LabelShadowsInstruction { .. } => "MX013",
            LabelShadowsDirective { .. } => "MX014",
            UnknownMnemonic { .. } => "MX020",
            MissingCondition { .. } => "MX021",
            UnknownCondition { .. } => "MX022",
            ConditionRegister { .. } => "MX023",
            SuffixTooLong { .. } => "MX024",
            ModifierNotAllowed { .. } => "MX025",
            OperationWithoutRegister { .. } => "MX026",
            SecondOperation { .. } => "MX027",
            SecondRegister { .. } => "MX028",
            ConditionInSuffix { .. } => "MX029",
            UnknownSuffix { .. } => "MX030",
            InvalidImmediate { .. } => "MX031",
            ExtraImmediate { .. } => "MX032",
            UndefinedLabel { .. } => "MX033",
            ImmediateOutOfRange { .. } => "MX034",
            TakesNothing { .. } => "MX035",
            InputOperation { .. } => "MX036",
            InputImmediate { .. } => "MX037",
            InputDestination { .. } => "MX038",
            MissingValue { .. } => "MX039",
            MissingImmediate { .. } => "MX040",
            ExcessImmediate { .. } => "MX041",
            NoOp { .. } => "MX042",
            TooManyInstructions { .. } => "MX043",
            UnknownName { .. } => "MX050",
            MissingDirectiveName { .. } => "MX051",
            BadDefine { .. } => "MX052",
            NameDefinedTwice { .. } => "MX053",
            BadMacro { .. } => "MX054",
            ArgumentCount { .. } => "MX055",
            MissingArguments { .. } => "MX056",
            ExpansionTooDeep { .. } => "MX057",
            ExpansionTooLarge { .. } => "MX058",
            UnknownNamespace { .. } => "MX059",
            BadNamespace { .. } => "MX060",
            DefinitionInBody { .. } => "MX061",
            BadInclude { .. } => "MX062",
            CompileTimeNotMacro { .. } => "MX063",
            CompileTimeFailed { .. } => "MX064",
            CompileTimeSteps { .. } => "MX065",
            TooManyLookups { .. } => "MX066",
            Core { diagnostic, .. } => diagnostic.code,
        }
    }

    /// Where the error is, for ordering.
    pub fn span(&self) -> Span {
        use MxError::*;
        match self {
            UnopenedClose { span, .. }
            | MismatchedClose { span, .. }
            | UnclosedList { span, .. }
            | BadEscape { span, .. }
            | Unterminated { span, .. }
            | BadCharValue { span, .. }
            | Unexpected { span, .. }
            | ColonAfterName { span, .. }
            | SecondLabel { span }
            | MissingLabelName { span }
            | InvalidLabelName { span, .. }
            | LabelRedefined { span, .. }
            | LabelShadowsInstruction { span, .. }
            | LabelShadowsDirective { span, .. }
            | UnknownMnemonic { span, .. }
            | MissingCondition { span, .. }
            | UnknownCondition { span, .. }
            | ConditionRegister { span, .. }
            | SuffixTooLong { span, .. }
            | ModifierNotAllowed { span, .. }
            | OperationWithoutRegister { span, .. }
            | SecondOperation { span, .. }
            | SecondRegister { span, .. }
            | ConditionInSuffix { span, .. }
            | UnknownSuffix { span, .. }
            | InvalidImmediate { span, .. }
            | ExtraImmediate { span, .. }
            | UndefinedLabel { span, .. }
            | ImmediateOutOfRange { span, .. }
            | TakesNothing { span, .. }
            | InputOperation { span, .. }
            | InputImmediate { span, .. }
            | InputDestination { span, .. }
            | MissingValue { span, .. }
            | MissingImmediate { span, .. }
            | ExcessImmediate { span, .. }
            | NoOp { span, .. }
            | TooManyInstructions { span, .. }
            | UnknownName { span, .. }
            | MissingDirectiveName { span, .. }
            | BadDefine { span, .. }
            | NameDefinedTwice { span, .. }
            | BadMacro { span, .. }
            | ArgumentCount { span, .. }
            | MissingArguments { span, .. }
            | ExpansionTooDeep { span, .. }
            | ExpansionTooLarge { span, .. }
            | TooManyLookups { span, .. }
            | UnknownNamespace { span, .. }
            | BadNamespace { span, .. }
            | DefinitionInBody { span, .. }
            | BadInclude { span }
            | CompileTimeNotMacro { span, .. }
            | CompileTimeFailed { span, .. }
            | CompileTimeSteps { span, .. }
            | Core { span, .. } => *span,
        }
    }

    /// The message, labels, notes and help of this error.
    pub fn to_diagnostic(&self) -> Diagnostic {
        use MxError::*;
        let code = self.code();
        let error = |message: String| Diagnostic::error(code, message);
        match self {
            UnopenedClose { span, found } => error(format!("`{found}` closes no token list"))
                .with_primary(*span, "no list is open here")
                .with_help("remove it, or open the list before it"),
            MismatchedClose {
                span,
                open,
                found,
                expected,
            } => error(format!("`{found}` closes a list opened with the other kind of bracket"))
                .with_primary(*span, format!("expected `{expected}`"))
                .with_secondary(*open, "the list opens here"),
            UnclosedList { span, open } => error(format!("`{open}` is never closed"))
                .with_primary(*span, "this list is still open at the end of the file")
                .with_help(format!("close it with `{}`", crate::lexer::closer(*open))),
            BadEscape { span, text } => error(format!("unknown escape `{text}`"))
                .with_primary(*span, "not an escape")
                .with_help("the escapes are \\n \\t \\r \\\\ \\\" \\' and \\0"),
            Unterminated { span, quote } => {
                let what = if *quote == '\'' { "character literal" } else { "string" };
                error(format!("unterminated {what}"))
                    .with_primary(*span, format!("this `{quote}` has no closing `{quote}` on its line"))
                    .with_help(format!("close it with `{quote}`"))
            }
            BadCharValue { span, text } => error(format!("`{text}` is not one character"))
                .with_primary(*span, "a character literal holds exactly one byte")
                .with_help("write one ASCII character or one escape, e.g. `'A'` or `'\\n'`"),
            Unexpected { span, found, expected } => error(format!("unexpected {found}"))
                .with_primary(*span, format!("expected {expected}"))
                .with_help("a line is `:label`, then an instruction and at most one immediate, e.g. `:top ldma 2`"),
            ColonAfterName { span, name } => error(format!("`{name}:` is not a label definition"))
                .with_primary(*span, "a label starts with `:`")
                .with_help(format!("write `:{name}`")),
            SecondLabel { span } => error("a second label on one line".into())
                .with_primary(*span, "one label per line")
                .with_help("put each label on a line of its own"),
            MissingLabelName { span } => error("`:` without a label name".into())
                .with_primary(*span, "a name must follow")
                .with_help("write `:name`"),
            InvalidLabelName { span, name } => error(format!("`{name}` is not a valid label name"))
                .with_primary(*span, "not a label name")
                .with_help("a label name starts with a letter or `_`, then letters, digits and `_`"),
            LabelRedefined { span, first, name } => {
                let d = error(format!("label `{name}` is defined twice")).with_primary(*span, "defined again here");
                match first {
                    Some(first) => d.with_secondary(*first, "first defined here"),
                    None => d.with_note(format!("`{name}` is predefined")),
                }
                .with_help("rename one of the two")
            }
            LabelShadowsInstruction { span, name } => error(format!("label `{name}` reads as an instruction"))
                .with_primary(*span, "an instruction name")
                .with_help(format!("choose another name, e.g. `_{name}`")),
            LabelShadowsDirective { span, name } => error(format!("label `{name}` is a directive name"))
                .with_primary(*span, "reserved for the macro system")
                .with_help(format!("choose another name, e.g. `_{name}`")),
            UnknownMnemonic { span, name, suggestion } => {
                let d = error(format!("unknown mnemonic `{name}`")).with_primary(*span, "not a Masfix instruction");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help("`polyasm explain MX020` lists every instruction"),
                }
            }
            MissingCondition { span, name } => error(format!("`{name}` is missing its condition"))
                .with_primary(*span, "a condition must follow")
                .with_help("conditions: eq ne lt le gt ge (signed), ab ae bl be (unsigned), e.g. `beq`"),
            UnknownCondition {
                span,
                found,
                suggestion,
            } => {
                let d = error(format!("unknown condition `{found}`")).with_primary(*span, "not a condition");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help("conditions: eq ne lt le gt ge (signed), ab ae bl be (unsigned)"),
                }
            }
            ConditionRegister { span, reg } => error(format!("a condition cannot test `{reg}`"))
                .with_primary(*span, "only `r` or `m`")
                .with_help("test `r` (the default) or `m`: `bmeq`; load the value into r first"),
            SuffixTooLong { span, suffix } => error(format!("suffix `{suffix}` is longer than three letters"))
                .with_primary(*span, "too long")
                .with_help("a suffix is at most a modifier, a register and an operation, e.g. `ldamt`"),
            ModifierNotAllowed { span, base, op } => error(format!("`{base}` takes no modifier"))
                .with_primary(*span, format!("`{op}` read as a modifier"))
                .with_help("only mov, str, ld and jmp take a modifier"),
            OperationWithoutRegister { span, op } => error(format!("operation `{op}` has no register"))
                .with_primary(*span, "a register letter must come before it")
                .with_help("an operation combines a register with the immediate, e.g. `ldmt 2`"),
            SecondOperation { span, op } => error(format!("second operation `{op}`"))
                .with_primary(*span, "one operation per instruction")
                .with_help("split the computation over two instructions"),
            SecondRegister { span, reg } => error(format!("second register `{reg}`"))
                .with_primary(*span, "one register per instruction")
                .with_help("split the computation over two instructions"),
            ConditionInSuffix { span, cond } => error(format!("condition `{cond}` in the suffix"))
                .with_primary(*span, "conditions follow b, l and s only")
                .with_help("write the condition right after `b`, `l` or `s`, e.g. `lmeq`"),
            UnknownSuffix {
                span,
                found,
                after,
                allowed,
                immediate,
            } => {
                let d = error(format!("unknown suffix `{found}` after `{after}`"))
                    .with_primary(*span, format!("expected {allowed}"));
                match immediate {
                    Some((name, number)) => {
                        d.with_help(format!("an immediate follows a space: write `{name} {number}`"))
                    }
                    None => d.with_help(format!("after `{after}` may come {allowed}")),
                }
            }
            InvalidImmediate { span, text, help } => error(format!("`{text}` is not an immediate"))
                .with_primary(*span, "not a number, character or label")
                .with_help(help.clone()),
            ExtraImmediate { span, name, found } => {
                error(format!("`{name}` takes at most one immediate, found {found}"))
                    .with_primary(*span, "extra immediate")
                    .with_help("one instruction per line, with at most one immediate")
            }
            UndefinedLabel { span, name, suggestion } => {
                let d = error(format!("undefined label `{name}`")).with_primary(*span, "no label has this name");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(format!("define it with `:{name}` before an instruction")),
                }
            }
            ImmediateOutOfRange { span, text } => error(format!("immediate `{text}` does not fit in 16 bits"))
                .with_primary(*span, "out of range")
                .with_help("immediates are 0 to 65535; arithmetic wraps at 65536"),
            TakesNothing { span, name, base } => error(format!("`{base}` takes nothing, found `{name}`"))
                .with_primary(*span, "no suffix or immediate allowed")
                .with_help(format!("write `{base}` alone")),
            InputOperation { span, name } => error(format!("`{name}`: an input instruction takes no operation"))
                .with_primary(*span, "operation here")
                .with_help("read into r or m first, then compute with another instruction"),
            InputImmediate { span, name } => error(format!("`{name}` takes no immediate"))
                .with_primary(*span, "extra immediate")
                .with_help("an input instruction's only suffix is its destination, r or m"),
            InputDestination { span, reg } => error(format!("an input instruction cannot write `{reg}`"))
                .with_primary(*span, "only `r` or `m`")
                .with_help("read into r or m, then move the value with another instruction"),
            MissingValue { span, name } => error(format!("`{name}` is missing a value"))
                .with_primary(*span, "a register or an immediate must follow")
                .with_help(format!(
                    "write a register letter (`{name}m`) or an immediate (`{name} 1`)"
                )),
            MissingImmediate { span, name, op } => error(format!("`{name}` is missing an immediate"))
                .with_primary(*span, "an immediate must follow")
                .with_help(format!(
                    "the operation `{op}` combines the register with an immediate: `{name} 1`"
                )),
            ExcessImmediate { span, name, reg } => error(format!(
                "`{name}` has a register and an immediate but no operation"
            ))
            .with_primary(*span, "how to combine them is missing")
            .with_help(format!(
                "add an operation (`{name}a` adds the immediate to `{reg}`), or drop the register or the immediate"
            )),
            NoOp { span, name } => Diagnostic::warning(code, format!("`{name}` does nothing"))
                .with_primary(*span, "writes a register with its own value")
                .with_help("remove the instruction; `-W no-MX042` silences this warning"),
            TooManyInstructions { span, limit } => error(format!(
                "program too long: more than {}",
                count(*limit, "instruction")
            ))
            .with_primary(*span, "past the last instruction the machine can address")
            .with_help("a Masfix program holds at most 65,536 instructions"),
            UnknownName { span, name, suggestion } => {
                let d = error(format!("unknown macro or constant `{name}`")).with_primary(*span, "not defined here");
                match suggestion {
                    Some(s) => d.with_help(format!("did you mean `{s}`?")),
                    None => d.with_help(
                        "define it with `%define` or `%macro`, or reach it through its namespace: `%ns:name`",
                    ),
                }
            }
            MissingDirectiveName { span, sigil } => error(format!("`{sigil}` without a name"))
                .with_primary(*span, "a name must follow, with no space")
                .with_help(if *sigil == '!' {
                    "write `!name(args)`, e.g. `!my_macro(1)`".to_string()
                } else {
                    "write `%name`, e.g. `%define` or `%my_macro(1)`".to_string()
                }),
            BadDefine { span, problem } => error(format!("invalid `%define`: {problem}"))
                .with_primary(*span, "here")
                .with_help("write `%define NAME 42`, `%define NAME 'a'` or `%define NAME (!macro(args))`"),
            NameDefinedTwice { span, first, name } => {
                let d = error(format!("`{name}` is defined twice in one namespace"))
                    .with_primary(*span, "defined again here");
                match first {
                    Some(first) => d.with_secondary(*first, "first defined here"),
                    None => d,
                }
                .with_help("rename one of the two, or define one in a nested namespace")
            }
            BadMacro { span, problem } => error(format!("invalid `%macro`: {problem}"))
                .with_primary(*span, "here")
                .with_help("write `%macro name(a, b) { body }`"),
            ArgumentCount {
                span,
                name,
                takes,
                found,
            } => error(format!("`{name}` takes {}, found {found}", count(*takes, "argument")))
                .with_primary(*span, "in this use")
                .with_help("separate arguments with commas; bracket an argument that holds a comma"),
            MissingArguments { span, name } => error(format!("`{name}` is used without an argument list"))
                .with_primary(*span, "a macro")
                .with_help(format!("write `{name}(...)`, or `{name}()` when it takes no argument")),
            ExpansionTooDeep { span, limit } => error(format!("macro uses nest deeper than {limit}"))
            .with_primary(*span, "this use is one too many")
            .with_help("a macro that uses itself needs a way to stop; the notes show the chain"),
            ExpansionTooLarge { span, limit } => error(format!(
                "the program is too large: more than {limit} tokens and macro uses"
            ))
            .with_primary(*span, "stopped here")
            .with_help(
                "a program of 65,536 instructions needs far fewer; look for a macro that multiplies its size, or split the input",
            ),
            TooManyLookups { span, limit } => error(format!(
                "macro names were looked up in more than {} namespaces",
                limit
            ))
            .with_primary(*span, "stopped here")
            .with_help("each use looks in its namespace, the ones it uses and every enclosing one: nest namespaces less deeply, or use fewer `%using`"),
            UnknownNamespace { span, name } => error(format!("unknown namespace `{name}`"))
                .with_primary(*span, "no namespace of this name is visible here")
                .with_help("a path starts with a namespace defined here or in an enclosing namespace"),
            BadNamespace { span, problem } => error(format!("invalid `%namespace`: {problem}"))
                .with_primary(*span, "here")
                .with_help("write `%namespace name { ... }`"),
            DefinitionInBody { span, directive } => error(format!("`%{directive}` inside a macro body"))
                .with_primary(*span, "not allowed in a body")
                .with_help("write it outside the macro, in the file"),
            BadInclude { span } => error("invalid `%include`".into())
                .with_primary(*span, "a file name in quotes must follow")
                .with_help("write `%include \"file\"` (`.mx` is added when the name has no extension)"),
            CompileTimeNotMacro { span, name } => error(format!("`!{name}` runs only macros at compile time"))
                .with_primary(*span, "a constant or parameter")
                .with_help(format!("write `%{name}`")),
            CompileTimeFailed { span, problem } => match problem {
                Some(problem) => {
                    error(format!("compile-time code stopped: {problem}")).with_primary(*span, "in this call")
                }
                None => error("compile-time code does not assemble".into())
                    .with_primary(*span, "in this call")
                    .with_note("the errors in its body are reported on their own, at its lines"),
            },
            CompileTimeSteps { span, steps } => {
                error(format!("compile-time code reached its limit of {}", count(*steps as usize, "instruction")))
                    .with_primary(*span, "stopped in this call")
                    .with_help("look for a loop that never ends, or raise the limit with `--ctime-steps N`")
            }
            Core { diagnostic, .. } => (**diagnostic).clone(),
        }
    }
}

/// A lexer error as the dialect reports it.
pub fn lex_error(error: LexError, text: &str) -> MxError {
    let char_at = |span: Span| text[span.range()].chars().next().unwrap_or(' ');
    match error {
        LexError::UnopenedClose { at } => MxError::UnopenedClose {
            span: at,
            found: char_at(at),
        },
        LexError::MismatchedClose { at, open } => MxError::MismatchedClose {
            span: at,
            open,
            found: char_at(at),
            expected: crate::lexer::closer(char_at(open)),
        },
        LexError::UnclosedList { open } => MxError::UnclosedList {
            span: open,
            open: char_at(open),
        },
        LexError::BadEscape { at } => MxError::BadEscape {
            span: at,
            text: text[at.range()].to_string(),
        },
        LexError::Unterminated { open } => MxError::Unterminated {
            span: open,
            quote: char_at(open),
        },
        LexError::BadCharValue { at } => MxError::BadCharValue {
            span: at,
            text: polyasm_core::text::escape_controls(&text[at.range()]).into_owned(),
        },
        LexError::TooManyTokens { at, limit } => MxError::ExpansionTooLarge { span: at, limit },
    }
}
