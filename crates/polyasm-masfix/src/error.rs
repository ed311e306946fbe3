//! The Masfix dialect's typed errors and the one place they become [`Diagnostic`]s. Codes live
//! here.

use std::borrow::Cow;

use polyasm_core::text::count;
use polyasm_core::{Diagnostic, Severity, Span};

use crate::lexer::LexError;

/// Everything that can be wrong in Masfix source. In every variant, `span` is where the error
/// points; the other fields are what its message quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MxError {
    /// A closing bracket with no token list open (MX001).
    UnopenedClose {
        /// The bracket.
        span: Span,
        /// The bracket: `)`, `]` or `}`.
        found: char,
    },
    /// A closing bracket of another kind than the open list's: `(a]` (MX002).
    MismatchedClose {
        /// The closing bracket.
        span: Span,
        /// The opening bracket of the list it would close.
        open: Span,
        /// The closing bracket as written.
        found: char,
        /// The bracket that closes the list.
        expected: char,
    },
    /// A token list still open at the end of the file (MX003).
    UnclosedList {
        /// The list's opening bracket.
        span: Span,
        /// That bracket: `(`, `[` or `{`.
        open: char,
    },
    /// `\` followed by a character that makes no escape (MX004).
    BadEscape {
        /// The `\` and the character after it.
        span: Span,
        /// Those as written: `\q`.
        text: String,
    },
    /// A character literal or string with no closing quote on its line (MX005).
    Unterminated {
        /// The opening quote.
        span: Span,
        /// That quote: `'` or `"`.
        quote: char,
    },
    /// A character literal that is not exactly one byte: `''`, `'ab'`, `'é'` (MX006).
    BadCharValue {
        /// The literal, quotes included.
        span: Span,
        /// The literal as written, control characters escaped.
        text: String,
    },
    /// An atom the line grammar does not allow here (MX007).
    Unexpected {
        /// The atom, or the empty span at the end of the line.
        span: Span,
        /// The atom in backticks (`` `,` ``), or `end of line`.
        found: String,
        /// What the grammar takes there, in words.
        expected: String,
    },
    /// `name:` where a label is meant (MX008).
    ColonAfterName {
        /// The name and its colon.
        span: Span,
        /// The name, without the colon.
        name: String,
    },
    /// A second `:label` on one line (MX009).
    SecondLabel {
        /// The second label's `:`.
        span: Span,
    },
    /// `:` with no label name after it (MX010).
    MissingLabelName {
        /// The `:`.
        span: Span,
    },
    /// A label name that is not `[A-Za-z_][A-Za-z0-9_]*`: `:9lives` (MX011).
    InvalidLabelName {
        /// The name after the `:`.
        span: Span,
        /// The name as written.
        name: String,
    },
    /// A label defined where one of its name already is, `begin` and `end` included (MX012).
    LabelRedefined {
        /// The second definition's name.
        span: Span,
        /// The first definition's name; `None` for the predefined `begin` and `end`.
        first: Option<Span>,
        /// The label's name.
        name: String,
    },
    /// A label named as an instruction could be: `:ldm` (MX013).
    LabelShadowsInstruction {
        /// The label's name.
        span: Span,
        /// The name.
        name: String,
    },
    /// A label named as a directive: `:define` (MX014).
    LabelShadowsDirective {
        /// The label's name.
        span: Span,
        /// The name.
        name: String,
    },
    /// A name that starts with no instruction base: `foo`, `LD` (MX020).
    UnknownMnemonic {
        /// The whole name.
        span: Span,
        /// The name as written.
        name: String,
        /// The name in lower case when that is an instruction (`ld` for `LD`), else the
        /// closest base.
        suggestion: Option<String>,
    },
    /// `b l s` without the two letters of a condition: `b`, `bm` (MX021).
    MissingCondition {
        /// The whole name.
        span: Span,
        /// The name as written.
        name: String,
    },
    /// Two letters where a condition goes that name none: `bxx` (MX022).
    UnknownCondition {
        /// The two letters.
        span: Span,
        /// The two letters: `xx`.
        found: String,
        /// The closest condition, for a "did you mean".
        suggestion: Option<String>,
    },
    /// A condition register other than `r` or `m`: `bheq` (MX023).
    ConditionRegister {
        /// The register's letter.
        span: Span,
        /// The letter: `h` or `p`.
        reg: char,
    },
    /// More than three letters after the base and condition: `ldamtr` (MX024).
    SuffixTooLong {
        /// The suffix.
        span: Span,
        /// The suffix: `amtr`.
        suffix: String,
    },
    /// An operation letter first after a base that takes no modifier: `outca` (MX025).
    ModifierNotAllowed {
        /// The letter.
        span: Span,
        /// The base: `outc`.
        base: &'static str,
        /// The letter: `a`.
        op: char,
    },
    /// An operation letter with no register before it: `ldaa` (MX026).
    OperationWithoutRegister {
        /// The letter.
        span: Span,
        /// The letter: `a`.
        op: char,
    },
    /// A second operation letter after the register's: `ldmaa` (MX027).
    SecondOperation {
        /// The second operation's letter.
        span: Span,
        /// The letter.
        op: char,
    },
    /// A second register letter: `ldmr` (MX028).
    SecondRegister {
        /// The second register's letter.
        span: Span,
        /// The letter: `r`.
        reg: char,
    },
    /// A condition's letters after a base that takes none: `ldeq` (MX029).
    ConditionInSuffix {
        /// The two letters.
        span: Span,
        /// The condition: `eq`.
        cond: String,
    },
    /// A character that may not follow what came before it in an instruction name (MX030).
    UnknownSuffix {
        /// The character; for an immediate joined to the name, its digits.
        span: Span,
        /// The character: `x` in `ldx`, `7` in `ld7`.
        found: char,
        /// The name up to the culprit.
        after: String,
        /// What may follow there, in words.
        allowed: String,
        /// `ld7`: the number is an immediate written without a space; the name and the
        /// digits, `("ld", "7")`.
        immediate: Option<(String, String)>,
    },
    /// An immediate that is no number, character or label: `0X5`, `-1`, `007` (MX031).
    InvalidImmediate {
        /// The immediate.
        span: Span,
        /// The immediate as written.
        text: String,
        /// What to write instead, the help line.
        help: String,
    },
    /// More than one immediate after an instruction (MX032).
    ExtraImmediate {
        /// From the second immediate to the last.
        span: Span,
        /// The instruction's name.
        name: String,
        /// How many immediates there are, all together.
        found: usize,
    },
    /// An immediate naming no label (MX033).
    UndefinedLabel {
        /// The immediate.
        span: Span,
        /// The name.
        name: String,
        /// The closest defined label, for a "did you mean".
        suggestion: Option<String>,
    },
    /// A number over 65535, or a label past instruction 65535: `end` of a program of 65,536
    /// instructions (MX034).
    ImmediateOutOfRange {
        /// The immediate.
        span: Span,
        /// The immediate as written.
        text: String,
    },
    /// `swap` or `inl` with a suffix or an immediate: `swapm`, `inl 1` (MX035).
    TakesNothing {
        /// The name, through the immediate when there is one.
        span: Span,
        /// The name and the immediate as written: `inl 1`.
        name: String,
        /// The base: `swap` or `inl`.
        base: &'static str,
    },
    /// `inc ipc inu` with an operation letter: `incma` (MX036).
    InputOperation {
        /// The operation's letter.
        span: Span,
        /// The instruction's name.
        name: String,
    },
    /// `inc ipc inu` with an immediate (MX037).
    InputImmediate {
        /// The immediate.
        span: Span,
        /// The instruction's name.
        name: String,
    },
    /// `inc ipc inu` into a register other than `r` or `m`: `inch` (MX038).
    InputDestination {
        /// The register's letter.
        span: Span,
        /// The letter: `h` or `p`.
        reg: char,
    },
    /// An instruction that needs a value with neither a register nor an immediate: `ld`
    /// (MX039).
    MissingValue {
        /// The name.
        span: Span,
        /// The name as written.
        name: String,
    },
    /// A register and an operation with no immediate: `ldmt` (MX040).
    MissingImmediate {
        /// The name.
        span: Span,
        /// The name as written.
        name: String,
        /// The operation's letter: `t`.
        op: char,
    },
    /// A register and an immediate with no operation to combine them: `ldm 2` (MX041).
    ExcessImmediate {
        /// The name through the immediate.
        span: Span,
        /// The name as written.
        name: String,
        /// The register's letter: `m`.
        reg: char,
    },
    /// A warning: `ldr`, `strm` or `movh` writes a register with its own value (MX042).
    NoOp {
        /// The name.
        span: Span,
        /// The name: `ldr`, `strm` or `movh`.
        name: String,
    },
    /// More instructions than the program may have (MX043).
    TooManyInstructions {
        /// The name of the first instruction past the limit.
        span: Span,
        /// The most the program may have, 65,536 unless an assembly sets fewer
        /// ([`Limits::max_instructions`](crate::Limits::max_instructions)).
        limit: usize,
    },
    /// `%name` or `!name` that names no macro, constant or parameter here (MX050).
    UnknownName {
        /// The use, from its sigil through the name.
        span: Span,
        /// The name, with its namespace path when it has one: `math:square`.
        name: String,
        /// The closest name visible here, for a "did you mean".
        suggestion: Option<String>,
    },
    /// `%` or `!` with no name right after it (MX051).
    MissingDirectiveName {
        /// The sigil.
        span: Span,
        /// The sigil: `%` or `!`.
        sigil: char,
    },
    /// A `%define` without a name, without a value, or with a value that is not one number or
    /// character (MX052).
    BadDefine {
        /// The directive, its name or its value, wherever the problem is.
        span: Span,
        /// What is wrong, as a clause: `a value must follow the name`.
        problem: &'static str,
    },
    /// A constant or macro defined where one of its name already is, in one namespace (MX053).
    NameDefinedTwice {
        /// The second definition's name.
        span: Span,
        /// The first definition's name, when it is elsewhere.
        first: Option<Span>,
        /// The name.
        name: String,
    },
    /// A `%macro` whose name, parameters or body cannot be read (MX054).
    BadMacro {
        /// The part of the definition that is wrong.
        span: Span,
        /// What is wrong, as a clause: `a name must follow `%macro``.
        problem: &'static str,
    },
    /// A macro use with more or fewer arguments than the macro has parameters (MX055).
    ArgumentCount {
        /// The use, from its sigil through its closing bracket.
        span: Span,
        /// The macro as the use writes it, with its sigil: `%add`.
        name: String,
        /// How many parameters the macro has.
        takes: usize,
        /// How many arguments the use passes.
        found: usize,
    },
    /// A macro used with no argument list after its name (MX056).
    MissingArguments {
        /// The use, its sigil and name.
        span: Span,
        /// The macro as the use writes it, with its sigil: `%add`.
        name: String,
    },
    /// Macro uses nested deeper than the limit, as a macro that uses itself forever does
    /// (MX057).
    ExpansionTooDeep {
        /// The use one past the limit.
        span: Span,
        /// The deepest uses may nest: [`Limits::expansion_depth`](crate::Limits::expansion_depth).
        limit: usize,
    },
    /// Expansion made more tokens and macro uses than the limit, or a file holds more tokens
    /// (MX058).
    ExpansionTooLarge {
        /// Where expansion or lexing stopped.
        span: Span,
        /// The most allowed: [`Limits::expanded_tokens`](crate::Limits::expanded_tokens).
        limit: usize,
    },
    /// Name lookups looked in more namespaces than the limit, all together (MX066).
    TooManyLookups {
        /// The use whose lookup went past the limit.
        span: Span,
        /// The most allowed: [`Limits::name_lookups`](crate::Limits::name_lookups).
        limit: usize,
    },
    /// A `%using` path, or a name's namespace path, that names no namespace visible here
    /// (MX059).
    UnknownNamespace {
        /// The path.
        span: Span,
        /// The path as written: `outer:inner`.
        name: String,
    },
    /// A `%namespace` without a name or body, or nested deeper than the limit (MX060).
    BadNamespace {
        /// The directive or its name.
        span: Span,
        /// What is wrong, as a clause: `a body `{ ... }` must follow the name`.
        problem: Cow<'static, str>,
    },
    /// `%namespace` or `%include` inside a macro body (MX061).
    DefinitionInBody {
        /// The directive's name.
        span: Span,
        /// The directive, without its `%`: `include`.
        directive: String,
    },
    /// `%include` not followed by a file name in quotes (MX062).
    BadInclude {
        /// The directive; through its file name when the assembly reads no files.
        span: Span,
    },
    /// `!name` where the name is a constant or a parameter, not a macro (MX063).
    CompileTimeNotMacro {
        /// The use, from its `!` through the name.
        span: Span,
        /// The name, without the `!`.
        name: String,
    },
    /// Compile-time code that did not assemble (its errors are reported too), or that stopped
    /// with a runtime error (`problem`) (MX064).
    CompileTimeFailed {
        /// The `!` use when the code does not assemble; the instruction that stopped it, or its
        /// first, when it ran.
        span: Span,
        /// Why the run stopped: `it jumps to 9, past its end (3 instructions)`; `None` when
        /// the code did not assemble.
        problem: Option<String>,
    },
    /// Compile-time code that ran past the step limit of all calls together (MX065).
    CompileTimeSteps {
        /// The code's first instruction.
        span: Span,
        /// The limit, in instructions: [`Limits::ctime_steps`](crate::Limits::ctime_steps).
        steps: u64,
    },
    /// A diagnostic of polyasm's core (an include that cannot be read), kept as it is.
    Core {
        /// The `%include` directive with its file name.
        span: Span,
        /// The diagnostic, reported with its own code.
        diagnostic: Box<Diagnostic>,
    },
}

polyasm_core::codes! {
    /// Every Masfix code; docs/codes/masfix.md explains each one.
    pub enum Code, explained in "../codes.md" {
        UnopenedClose = "MX001", Error, "closing bracket with no list open";
        MismatchedBrackets = "MX002", Error, "mismatched brackets";
        UnclosedList = "MX003", Error, "unclosed token list";
        InvalidEscape = "MX004", Error, "invalid escape";
        UnterminatedLiteral = "MX005", Error, "unterminated character or string";
        InvalidCharacterValue = "MX006", Error, "invalid character value";
        Syntax = "MX007", Error, "syntax error";
        LabelWithColon = "MX008", Error, "label written with a trailing colon";
        TwoLabels = "MX009", Error, "two labels on one line";
        MissingLabelName = "MX010", Error, "missing label name";
        InvalidLabelName = "MX011", Error, "invalid label name";
        DuplicateLabel = "MX012", Error, "label defined twice";
        LabelShadowsInstruction = "MX013", Error, "label shadows an instruction";
        LabelShadowsDirective = "MX014", Error, "label shadows a directive";
        UnknownMnemonic = "MX020", Error, "unknown mnemonic";
        MissingCondition = "MX021", Error, "missing condition";
        UnknownCondition = "MX022", Error, "unknown condition";
        ConditionRegister = "MX023", Error, "condition register is not r or m";
        SuffixTooLong = "MX024", Error, "suffix too long";
        ModifierNotAllowed = "MX025", Error, "modifier not allowed";
        OperationWithoutRegister = "MX026", Error, "operation without a register";
        SecondOperation = "MX027", Error, "second operation";
        SecondRegister = "MX028", Error, "second register";
        ConditionInSuffix = "MX029", Error, "condition in the suffix";
        UnknownSuffix = "MX030", Error, "unknown suffix";
        InvalidImmediate = "MX031", Error, "invalid immediate";
        SecondImmediate = "MX032", Error, "more than one immediate";
        UndefinedLabel = "MX033", Error, "undefined label";
        ImmediateOutOfRange = "MX034", Error, "immediate out of range";
        TakesNothing = "MX035", Error, "instruction takes nothing";
        InputWithOperation = "MX036", Error, "input instruction with an operation";
        InputWithImmediate = "MX037", Error, "input instruction with an immediate";
        InputDestination = "MX038", Error, "input destination is not r or m";
        MissingValue = "MX039", Error, "missing value";
        MissingImmediate = "MX040", Error, "missing immediate";
        ImmediateWithoutOperation = "MX041", Error, "register and immediate without an operation";
        DoesNothing = "MX042", Warning, "instruction does nothing";
        ProgramTooLong = "MX043", Error, "program too long";
        InvalidBytecode = "MX044", Error, "invalid bytecode";
        UnknownMacro = "MX050", Error, "unknown macro or constant";
        MissingName = "MX051", Error, "missing name after `%` or `!`";
        InvalidConstant = "MX052", Error, "invalid constant";
        DuplicateName = "MX053", Error, "name defined twice";
        InvalidMacroDefinition = "MX054", Error, "invalid macro definition";
        ArgumentCount = "MX055", Error, "wrong number of arguments";
        MacroWithoutArguments = "MX056", Error, "macro used without arguments";
        ExpansionTooDeep = "MX057", Error, "expansion too deep";
        ExpansionTooLarge = "MX058", Error, "expansion too large";
        UnknownNamespace = "MX059", Error, "unknown namespace";
        InvalidNamespace = "MX060", Error, "invalid namespace";
        DirectiveInMacroBody = "MX061", Error, "namespace or include inside a macro body";
        InvalidInclude = "MX062", Error, "invalid include";
        CompileTimeNotMacro = "MX063", Error, "compile-time use of something not a macro";
        CompileTimeFailed = "MX064", Error, "compile-time code failed";
        CompileTimeStepLimit = "MX065", Error, "compile-time step limit";
        TooManyLookups = "MX066", Error, "too many name lookups";
        JumpPastEnd = "MX070", Error, "jump past the end";
        StepLimit = "MX071", Error, "step limit";
        VmInstead = "MX072", Warning, "no native code: the VM runs the program";
        NoNativeCode = "MX073", Error, "no native code for `--engine jit`";
        NoExecutable = "MX074", Error, "cannot build the executable";
    }
}

impl MxError {
    /// The code this error is reported with: its Masfix code, or a core diagnostic's own.
    pub fn code(&self) -> &'static str {
        match self {
            MxError::Core { diagnostic, .. } => diagnostic.code,
            error => error
                .masfix_code()
                .expect("every error but a core diagnostic has a Masfix code")
                .as_str(),
        }
    }

    /// The severity its code is declared with (an error for a core diagnostic).
    pub fn severity(&self) -> Severity {
        self.masfix_code().map_or(Severity::Error, Code::severity)
    }

    /// The Masfix code of this error; `None` for a core diagnostic, which has its own.
    pub fn masfix_code(&self) -> Option<Code> {
        use MxError::*;
        Some(match self {
            UnopenedClose { .. } => Code::UnopenedClose,
            MismatchedClose { .. } => Code::MismatchedBrackets,
            UnclosedList { .. } => Code::UnclosedList,
            BadEscape { .. } => Code::InvalidEscape,
            Unterminated { .. } => Code::UnterminatedLiteral,
            BadCharValue { .. } => Code::InvalidCharacterValue,
            Unexpected { .. } => Code::Syntax,
            ColonAfterName { .. } => Code::LabelWithColon,
            SecondLabel { .. } => Code::TwoLabels,
            MissingLabelName { .. } => Code::MissingLabelName,
            InvalidLabelName { .. } => Code::InvalidLabelName,
            LabelRedefined { .. } => Code::DuplicateLabel,
            LabelShadowsInstruction { .. } => Code::LabelShadowsInstruction,
            LabelShadowsDirective { .. } => Code::LabelShadowsDirective,
            UnknownMnemonic { .. } => Code::UnknownMnemonic,
            MissingCondition { .. } => Code::MissingCondition,
            UnknownCondition { .. } => Code::UnknownCondition,
            ConditionRegister { .. } => Code::ConditionRegister,
            SuffixTooLong { .. } => Code::SuffixTooLong,
            ModifierNotAllowed { .. } => Code::ModifierNotAllowed,
            OperationWithoutRegister { .. } => Code::OperationWithoutRegister,
            SecondOperation { .. } => Code::SecondOperation,
            SecondRegister { .. } => Code::SecondRegister,
            ConditionInSuffix { .. } => Code::ConditionInSuffix,
            UnknownSuffix { .. } => Code::UnknownSuffix,
            InvalidImmediate { .. } => Code::InvalidImmediate,
            ExtraImmediate { .. } => Code::SecondImmediate,
            UndefinedLabel { .. } => Code::UndefinedLabel,
            ImmediateOutOfRange { .. } => Code::ImmediateOutOfRange,
            TakesNothing { .. } => Code::TakesNothing,
            InputOperation { .. } => Code::InputWithOperation,
            InputImmediate { .. } => Code::InputWithImmediate,
            InputDestination { .. } => Code::InputDestination,
            MissingValue { .. } => Code::MissingValue,
            MissingImmediate { .. } => Code::MissingImmediate,
            ExcessImmediate { .. } => Code::ImmediateWithoutOperation,
            NoOp { .. } => Code::DoesNothing,
            TooManyInstructions { .. } => Code::ProgramTooLong,
            UnknownName { .. } => Code::UnknownMacro,
            MissingDirectiveName { .. } => Code::MissingName,
            BadDefine { .. } => Code::InvalidConstant,
            NameDefinedTwice { .. } => Code::DuplicateName,
            BadMacro { .. } => Code::InvalidMacroDefinition,
            ArgumentCount { .. } => Code::ArgumentCount,
            MissingArguments { .. } => Code::MacroWithoutArguments,
            ExpansionTooDeep { .. } => Code::ExpansionTooDeep,
            ExpansionTooLarge { .. } => Code::ExpansionTooLarge,
            UnknownNamespace { .. } => Code::UnknownNamespace,
            BadNamespace { .. } => Code::InvalidNamespace,
            DefinitionInBody { .. } => Code::DirectiveInMacroBody,
            BadInclude { .. } => Code::InvalidInclude,
            CompileTimeNotMacro { .. } => Code::CompileTimeNotMacro,
            CompileTimeFailed { .. } => Code::CompileTimeFailed,
            CompileTimeSteps { .. } => Code::CompileTimeStepLimit,
            TooManyLookups { .. } => Code::TooManyLookups,
            Core { .. } => return None,
        })
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
                    Some(s) => d.with_did_you_mean(*span, s),
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
                    Some(s) => d.with_did_you_mean(*span, s),
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
                    Some(s) => d.with_did_you_mean(*span, s),
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
                    // The span starts at the sigil; a name in a namespace keeps its path.
                    Some(s) if !name.contains(':') => {
                        let word = Span {
                            start: span.end.saturating_sub(name.len() as u32).max(span.start),
                            ..*span
                        };
                        d.with_did_you_mean(word, s)
                    }
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
