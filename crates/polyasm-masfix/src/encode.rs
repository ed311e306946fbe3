//! Statements to instructions, with every check: instruction names decomposed into their
//! fields (reference §1.3), label definitions, immediates resolved, the combination rules, and
//! the program length. Labels may be used before they are defined, so the encoder takes every
//! line first and resolves immediates at the end.

use std::collections::HashMap;

use polyasm_core::editor::NameSink;
use polyasm_core::front;
use polyasm_core::number::{DecimalProblem, LeadingZeros, parse_decimal};
use polyasm_core::object::Symbol;
use polyasm_core::text::SuggestionBudget;
use polyasm_core::{Object, SourceId, SourceMap, Span};

use crate::bytecode::{DebugSection, debug_info, write_debug, write_header};

use crate::error::MxError;
use crate::found::Found;
use crate::lexer::{DIRECTIVES, NO_EXPANSION, is_label_name};
use crate::ops::{CONDS, Cond, CondReg, Instr, Kind, OPERS, Oper, Reg, Shape, Value, pack};
use crate::parser::{Atom, AtomKind, Parsed};

/// An instruction name split into its fields, with where each suffix letter sits in the name
/// (for the combination errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decomposed {
    /// The base: `ld` in `ldamt`.
    pub kind: Kind,
    /// The modifier, the first letter after a basic base: `a` in `ldamt`.
    pub modifier: Option<Oper>,
    /// The condition register and condition of `b l s`: `m` and `eq` in `bmeq`.
    pub cond: Option<(CondReg, Cond)>,
    /// The register, and the byte offset of its letter in the name: `m` at 3 in `ldamt`.
    pub reg: Option<(Reg, usize)>,
    /// The intermediate operation, and the byte offset of its letter: `t` at 4 in `ldamt`.
    pub op: Option<(Oper, usize)>,
}

/// Why a name is no instruction: the error, and the byte range of the name it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameProblem {
    /// The bytes of the name the error points at: the whole name, or one suffix.
    pub range: std::ops::Range<usize>,
    /// What is wrong there.
    pub kind: NameProblemKind,
}

/// What makes a name no instruction; each holds the letters the message quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameProblemKind {
    /// The name starts with no instruction base: `LD`, `foo`.
    UnknownBase,
    /// `b l s` without the two letters of a condition: `b`, `bm`.
    MissingCondition,
    /// Two letters where a condition goes that name none: `bxx`.
    UnknownCondition(String),
    /// A condition register other than `r` or `m`: the `h` of `bheq`.
    ConditionRegister(char),
    /// More than three letters after the base (and condition): `amtr` in `ldamtr`.
    SuffixTooLong(String),
    /// An operation letter first after a base that takes no modifier: the `a` of `outca`.
    ModifierNotAllowed(char),
    /// An operation letter after the first with no register before it: `ldaa`.
    OperationWithoutRegister(char),
    /// A second operation after the register's: the last `a` of `ldmaa`.
    SecondOperation(char),
    /// A second register letter: the `r` of `ldmr`.
    SecondRegister(char),
    /// A condition's letters after a base that takes none: `eq` in `ldeq`.
    ConditionInSuffix(String),
    /// A letter that may not come where it is: the `x` of `ldx`.
    UnknownSuffix {
        /// The letter.
        found: char,
        /// What may come there, in words: `a register (h m r p)`.
        allowed: String,
    },
    /// Digits joined to the name: `ld7` for `ld 7`; the digits start at `range.start`.
    JoinedImmediate(String),
}

/// Splits an instruction name into base, modifier, condition, register and operation, as
/// the reference does: the longest base first, then (for `b l s`) an optional condition
/// register and two condition letters, then at most three letters scanned left to right.
pub fn decompose(name: &str) -> Result<Decomposed, NameProblem> {
    let problem = |range: std::ops::Range<usize>, kind| Err(NameProblem { range, kind });
    let Some(kind) = Kind::longest_prefix(name) else {
        return problem(0..name.len(), NameProblemKind::UnknownBase);
    };
    let shape = kind.shape();
    let mut at = kind.mnemonic().len();
    let mut cond = None;
    if shape == Shape::Cond {
        let mut reg = CondReg::R;
        if let Some(c) = name[at..].chars().next().filter(|&c| Reg::from_letter(c).is_some()) {
            reg = match c {
                'r' => CondReg::R,
                'm' => CondReg::M,
                _ => return problem(at..at + 1, NameProblemKind::ConditionRegister(c)),
            };
            at += 1;
        }
        let Some(letters) = name.get(at..at + 2) else {
            return problem(0..name.len(), NameProblemKind::MissingCondition);
        };
        match Cond::from_name(letters) {
            Some(c) => cond = Some((reg, c)),
            None => return problem(at..at + 2, NameProblemKind::UnknownCondition(letters.to_string())),
        }
        at += 2;
    }
    let suffix = &name[at..];
    // Digits joined to the name are an immediate written without its space.
    if let Some(digits) = suffix.find(|c: char| c.is_ascii_digit())
        && suffix[digits..].bytes().all(|b| b.is_ascii_digit())
    {
        return problem(
            at + digits..name.len(),
            NameProblemKind::JoinedImmediate(suffix[digits..].to_string()),
        );
    }
    if suffix.chars().count() > 3 {
        return problem(at..name.len(), NameProblemKind::SuffixTooLong(suffix.to_string()));
    }
    let mut decomposed = Decomposed {
        kind,
        modifier: None,
        cond,
        reg: None,
        op: None,
    };
    for (i, c) in suffix.char_indices() {
        let range = at + i..at + i + c.len_utf8();
        if let Some(oper) = Oper::from_letter(c) {
            if i == 0 {
                if shape != Shape::Basic {
                    return problem(range, NameProblemKind::ModifierNotAllowed(c));
                }
                decomposed.modifier = Some(oper);
            } else if decomposed.reg.is_none() {
                return problem(range, NameProblemKind::OperationWithoutRegister(c));
            } else if decomposed.op.is_some() {
                return problem(range, NameProblemKind::SecondOperation(c));
            } else {
                decomposed.op = Some((oper, range.start));
            }
        } else if let Some(reg) = Reg::from_letter(c) {
            if decomposed.reg.is_some() {
                return problem(range, NameProblemKind::SecondRegister(c));
            }
            decomposed.reg = Some((reg, range.start));
        } else if let Some(pair) = suffix.get(i..i + 2).filter(|pair| Cond::from_name(pair).is_some()) {
            return problem(
                range.start..range.start + 2,
                NameProblemKind::ConditionInSuffix(pair.to_string()),
            );
        } else {
            let allowed = allowed_after(shape, i, &decomposed);
            return problem(range, NameProblemKind::UnknownSuffix { found: c, allowed });
        }
    }
    Ok(decomposed)
}

/// What may come at suffix position `i`, in words.
fn allowed_after(shape: Shape, i: usize, so_far: &Decomposed) -> String {
    let operations = || OPERS.iter().map(|o| o.1.to_string()).collect::<Vec<_>>().join(" ");
    let mut parts = Vec::new();
    if i == 0 && shape == Shape::Basic {
        parts.push(format!("a modifier ({})", operations()));
    }
    if so_far.reg.is_none() {
        parts.push("a register (h m r p)".to_string());
    } else if so_far.op.is_none() {
        parts.push(format!("an operation ({})", operations()));
    }
    match parts.len() {
        0 => "nothing more".to_string(),
        _ => parts.join(" or "),
    }
}

/// An instruction waiting for its immediates to be resolved.
struct Pending {
    name: Atom,
    immediates: Vec<Atom>,
}

/// Where a label points, and where it was defined (`None` for `begin` and `end`).
#[derive(Clone, Copy)]
struct LabelDef {
    value: u32,
    span: Option<Span>,
}

/// The assembled program: its instructions with the span of each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assembled {
    /// The program's instructions, in order.
    pub instrs: Vec<Instr>,
    /// Where each instruction was written: its name, through its immediate when the two were
    /// written together; one per instruction.
    pub spans: Vec<Span>,
    /// The macro expansion each instruction came out of ([`NO_EXPANSION`] for none).
    pub origins: Vec<u32>,
    /// Labels in the order they were defined, with their instruction index and definition.
    pub labels: Vec<(String, u32, Span)>,
}

/// Collects lines, then resolves and checks them in [`Encoder::finish`].
pub struct Encoder {
    pending: Vec<Pending>,
    labels: HashMap<String, LabelDef>,
    label_order: Vec<(String, u32, Span)>,
    /// Each error with the macro expansion it arose in.
    errors: Found,
    /// Whether any error was found that is not a warning.
    failed: bool,
    /// The expansion of what is being checked now.
    origin: u32,
    suggestions: SuggestionBudget,
    /// The most instructions the program may have.
    max_instructions: usize,
    /// Where labels and their uses are recorded, for editors.
    pub names: Option<NameSink>,
}

impl Encoder {
    /// An encoder for sources of `len` bytes in all (the budget of "did you mean") and programs
    /// of at most `max_instructions`, adding its errors to `errors`.
    pub fn new(len: usize, max_instructions: usize, errors: Found) -> Encoder {
        let mut labels = HashMap::new();
        labels.insert("begin".to_string(), LabelDef { value: 0, span: None });
        // `end` is the instruction count, known only at the end.
        labels.insert("end".to_string(), LabelDef { value: 0, span: None });
        Encoder {
            pending: Vec::new(),
            labels,
            label_order: Vec::new(),
            errors,
            failed: false,
            origin: NO_EXPANSION,
            suggestions: SuggestionBudget::new(len),
            max_instructions,
            names: None,
        }
    }

    /// Records an error of what is being checked now.
    pub fn error(&mut self, error: MxError) {
        self.error_in(error, self.origin);
    }

    /// Records an error of a token from macro expansion `origin` ([`NO_EXPANSION`] for none).
    pub fn error_in(&mut self, error: MxError, origin: u32) {
        self.failed |= !matches!(error, MxError::NoOp { .. });
        self.errors.push(error, origin);
    }

    /// Defines label `name` (the atom after a `:`) at the next instruction.
    pub fn label(&mut self, name: &Atom) {
        self.origin = name.origin;
        let text = name.text.as_str();
        let error = if !is_label_name(text) {
            Some(MxError::InvalidLabelName {
                span: name.span,
                name: text.to_string(),
            })
        } else if DIRECTIVES.contains(&text) {
            Some(MxError::LabelShadowsDirective {
                span: name.span,
                name: text.to_string(),
            })
        } else if decompose(text).is_ok() {
            Some(MxError::LabelShadowsInstruction {
                span: name.span,
                name: text.to_string(),
            })
        } else {
            None
        };
        if let Some(error) = error {
            self.error(error);
            return;
        }
        let value = self.pending.len() as u32;
        match self.labels.get(text) {
            Some(first) => self.error(MxError::LabelRedefined {
                span: name.span,
                first: first.span,
                name: text.to_string(),
            }),
            None => {
                self.labels.insert(
                    text.to_string(),
                    LabelDef {
                        value,
                        span: Some(name.span),
                    },
                );
                self.label_order.push((text.to_string(), value, name.span));
                if let Some(names) = &self.names {
                    names.define(text, "label", name.span, format!("instruction {value}"));
                }
            }
        }
    }

    /// Takes an instruction: its name and immediates.
    pub fn instruction(&mut self, name: Atom, immediates: Vec<Atom>) {
        if self.pending.len() == self.max_instructions {
            let limit = self.max_instructions;
            self.error_in(MxError::TooManyInstructions { span: name.span, limit }, name.origin);
        }
        self.pending.push(Pending { name, immediates });
    }

    /// Resolves every instruction; the program, or nothing when anything is wrong, and the
    /// errors with those found (warnings too).
    pub fn finish(mut self) -> (Option<Assembled>, Found) {
        let count = self.pending.len() as u32;
        if let Some(end) = self.labels.get_mut("end") {
            end.value = count;
        }
        let pending = std::mem::take(&mut self.pending);
        let mut assembled = Assembled {
            instrs: Vec::with_capacity(pending.len()),
            spans: Vec::with_capacity(pending.len()),
            origins: Vec::with_capacity(pending.len()),
            labels: std::mem::take(&mut self.label_order),
        };
        for p in &pending {
            // The name and its immediate, when they were written together.
            let span = match p.immediates.last() {
                Some(imm)
                    if imm.origin == p.name.origin
                        && imm.span.source == p.name.span.source
                        && imm.span.start >= p.name.span.end =>
                {
                    p.name.span.to(imm.span)
                }
                _ => p.name.span,
            };
            self.origin = p.name.origin;
            if let Some(instr) = self.resolve(p) {
                assembled.instrs.push(instr);
                assembled.spans.push(span);
                assembled.origins.push(p.name.origin);
            }
        }
        (if self.failed { None } else { Some(assembled) }, self.errors)
    }

    /// One instruction, or `None` after recording why it is none.
    fn resolve(&mut self, p: &Pending) -> Option<Instr> {
        let name = &p.name;
        let text = name.text.as_str();
        let decomposed = match decompose(text) {
            Ok(d) => d,
            Err(problem) => {
                let error = self.name_error(name, problem);
                self.error(error);
                return None;
            }
        };
        // The immediate is read before the combination is checked, as the reference does.
        if let Some(extra) = p.immediates.get(1) {
            let last = p.immediates.last().map_or(extra.span, |a| a.span);
            self.error(MxError::ExtraImmediate {
                span: extra.span.to(last),
                name: text.to_string(),
                found: p.immediates.len(),
            });
        }
        let imm = p.immediates.first().map(|atom| (atom, self.immediate(atom)));
        let imm_ok = imm.as_ref().is_none_or(|(_, v)| v.is_some());
        let imm_value = imm.as_ref().and_then(|(_, v)| *v);
        let imm_span = imm.as_ref().map(|(atom, _)| atom.span);
        let shape = decomposed.kind.shape();
        let reg = decomposed.reg.map(|(r, _)| r);
        let value = match shape {
            Shape::Bare => {
                if text != decomposed.kind.mnemonic() || imm.is_some() {
                    self.error(MxError::TakesNothing {
                        span: imm_span.map_or(name.span, |s| name.span.to(s)),
                        name: match imm.as_ref() {
                            Some((atom, _)) => format!("{text} {}", atom.text),
                            None => text.to_string(),
                        },
                        base: decomposed.kind.mnemonic(),
                    });
                    return None;
                }
                Value::None
            }
            Shape::Input => {
                if let Some((op, at)) = decomposed.op {
                    self.error(MxError::InputOperation {
                        span: name.sub_span(at..at + op.letter().len_utf8()),
                        name: text.to_string(),
                    });
                    return None;
                }
                if let Some(span) = imm_span {
                    self.error(MxError::InputImmediate {
                        span,
                        name: text.to_string(),
                    });
                    return None;
                }
                match decomposed.reg {
                    None => Value::Reg(Reg::R),
                    Some((reg @ (Reg::R | Reg::M), _)) => Value::Reg(reg),
                    Some((reg, at)) => {
                        self.error(MxError::InputDestination {
                            span: name.sub_span(at..at + 1),
                            reg: reg.letter(),
                        });
                        return None;
                    }
                }
            }
            Shape::Basic | Shape::Cond | Shape::Out => match (reg, decomposed.op, imm.is_some()) {
                (None, _, false) => {
                    self.error(MxError::MissingValue {
                        span: name.span,
                        name: text.to_string(),
                    });
                    return None;
                }
                (_, Some((op, _)), false) => {
                    self.error(MxError::MissingImmediate {
                        span: name.span,
                        name: text.to_string(),
                        op: op.letter(),
                    });
                    return None;
                }
                (Some(reg), None, true) => {
                    self.error(MxError::ExcessImmediate {
                        span: imm_span.map_or(name.span, |s| name.span.to(s)),
                        name: text.to_string(),
                        reg: reg.letter(),
                    });
                    return None;
                }
                (Some(reg), None, false) => Value::Reg(reg),
                (None, _, true) => Value::Imm(imm_value.unwrap_or(0)),
                (Some(reg), Some((op, _)), true) => Value::RegOp(reg, op, imm_value.unwrap_or(0)),
            },
        };
        if !imm_ok || p.immediates.len() > 1 {
            return None;
        }
        if matches!(text, "ldr" | "strm" | "movh") {
            self.error(MxError::NoOp {
                span: name.span,
                name: text.to_string(),
            });
        }
        let instr = Instr {
            kind: decomposed.kind,
            modifier: decomposed.modifier,
            cond: decomposed.cond,
            value,
        };
        debug_assert_eq!(
            instr.check(),
            Ok(()),
            "decomposition and the combination rules make valid instructions"
        );
        Some(instr)
    }

    /// The value of an immediate, or `None` after recording why it has none.
    fn immediate(&mut self, atom: &Atom) -> Option<u16> {
        let text = atom.text.as_str();
        let invalid = |help: String| MxError::InvalidImmediate {
            span: atom.span,
            text: text.to_string(),
            help,
        };
        let error = match atom.kind {
            AtomKind::Char => {
                // The lexer reported a literal that is not one byte.
                return Some(crate::lexer::unquote(text).first().map_or(0, |&b| u16::from(b)));
            }
            AtomKind::Number => match parse_decimal(text, u64::from(u16::MAX), LeadingZeros::Refused) {
                Ok(value) => return Some(value as u16),
                Err(DecimalProblem::LeadingZeros) => {
                    let digits = text.trim_start_matches('0');
                    invalid(format!(
                        "immediates are written without leading zeros: `{}`",
                        if digits.is_empty() { "0" } else { digits }
                    ))
                }
                // A number token is digits only.
                Err(DecimalProblem::OutOfRange | DecimalProblem::NotDigits) => MxError::ImmediateOutOfRange {
                    span: atom.span,
                    text: text.to_string(),
                },
            },
            AtomKind::Str => invalid("a string is not a value; a character literal such as `'a'` is".into()),
            AtomKind::Name if is_label_name(text) => match self.labels.get(text) {
                Some(def) if def.value <= u32::from(u16::MAX) => {
                    if let (Some(names), Some(defined)) = (&self.names, def.span) {
                        names.used(atom.span, defined);
                    }
                    return Some(def.value as u16);
                }
                Some(_) => MxError::ImmediateOutOfRange {
                    span: atom.span,
                    text: text.to_string(),
                },
                None => {
                    let budget = &mut self.suggestions;
                    let suggestion = budget
                        .suggest(text, self.labels.keys().map(String::as_str))
                        .map(str::to_string);
                    MxError::UndefinedLabel {
                        span: atom.span,
                        name: text.to_string(),
                        suggestion,
                    }
                }
            },
            AtomKind::Name | AtomKind::Colon | AtomKind::Comma => invalid(immediate_help(text)),
        };
        self.error(error);
        None
    }

    fn name_error(&mut self, name: &Atom, problem: NameProblem) -> MxError {
        let text = name.text.as_str();
        let span = name.sub_span(problem.range.clone());
        match problem.kind {
            NameProblemKind::UnknownBase => {
                let lower = text.to_ascii_lowercase();
                let suggestion = if lower != text && decompose(&lower).is_ok() {
                    Some(lower)
                } else {
                    self.suggestions.suggest(text, Kind::MNEMONICS).map(str::to_string)
                };
                MxError::UnknownMnemonic {
                    span,
                    name: text.to_string(),
                    suggestion,
                }
            }
            NameProblemKind::MissingCondition => MxError::MissingCondition {
                span,
                name: text.to_string(),
            },
            NameProblemKind::UnknownCondition(found) => MxError::UnknownCondition {
                span,
                suggestion: polyasm_core::text::suggest(&found, CONDS.iter().map(|c| c.1)).map(str::to_string),
                found,
            },
            NameProblemKind::ConditionRegister(reg) => MxError::ConditionRegister { span, reg },
            NameProblemKind::SuffixTooLong(suffix) => MxError::SuffixTooLong { span, suffix },
            NameProblemKind::ModifierNotAllowed(op) => MxError::ModifierNotAllowed {
                span,
                base: Kind::longest_prefix(text).map_or("", Kind::mnemonic),
                op,
            },
            NameProblemKind::OperationWithoutRegister(op) => MxError::OperationWithoutRegister { span, op },
            NameProblemKind::SecondOperation(op) => MxError::SecondOperation { span, op },
            NameProblemKind::SecondRegister(reg) => MxError::SecondRegister { span, reg },
            NameProblemKind::ConditionInSuffix(cond) => MxError::ConditionInSuffix { span, cond },
            NameProblemKind::UnknownSuffix { found, allowed } => MxError::UnknownSuffix {
                span,
                found,
                after: text[..problem.range.start].to_string(),
                allowed,
                immediate: None,
            },
            NameProblemKind::JoinedImmediate(digits) => MxError::UnknownSuffix {
                span,
                found: digits.chars().next().unwrap_or('0'),
                after: text[..problem.range.start].to_string(),
                allowed: "an immediate after a space".to_string(),
                immediate: Some((text[..problem.range.start].to_string(), digits)),
            },
        }
    }
}

/// Why a name-like immediate is none, and what to write instead.
fn immediate_help(text: &str) -> String {
    // `-+5` is read as -5 too.
    if let Some(digits) = text.strip_prefix('-').map(|d| d.strip_prefix('+').unwrap_or(d))
        && let Ok(n) = parse_decimal(digits, 32768, LeadingZeros::Allowed)
        && n >= 1
    {
        return format!(
            "immediates are unsigned; -{n} wraps to {}: write `{}`",
            65536 - n,
            65536 - n
        );
    }
    let hex = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"));
    if let Some(value) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
        return format!("immediates are decimal: write `{value}`");
    }
    "an immediate is a decimal number from 0 to 65535, a character such as `'a'`, or a label name".to_string()
}

/// A whole bytecode file.
pub fn bytecode_bytes(instrs: &[Instr], debug: Option<&DebugSection>) -> Vec<u8> {
    let mut out = write_header(instrs.len(), debug.is_some());
    for instr in instrs {
        for word in pack(instr) {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }
    if let Some(debug) = debug {
        out.extend(write_debug(debug));
    }
    out
}

/// The bytecode file of an assembled program as an [`Object`]: the header, one listing entry
/// per instruction (at its index, with its source), and the debug section when `debug`.
pub fn bytecode_object(
    assembled: &Assembled,
    sources: &SourceMap,
    file: SourceId,
    debug: bool,
    listed: bool,
) -> Object {
    let mut object = Object::assembled_from(2, file, listed);
    let words = |bytes: &[u8]| -> Vec<u32> {
        bytes
            .chunks_exact(2)
            .map(|pair| u32::from(u16::from_le_bytes([pair[0], pair[1]])))
            .collect()
    };
    object.reserve(assembled.instrs.len() + 2, 2);
    object.push(
        0,
        &words(&write_header(assembled.instrs.len(), debug)),
        None,
        Some("bytecode header"),
    );
    for (index, (instr, span)) in assembled.instrs.iter().zip(&assembled.spans).enumerate() {
        let [fields, imm] = pack(instr);
        object.push(index as u32, &[u32::from(fields), u32::from(imm)], Some(*span), None);
    }
    if debug {
        let (files, positions) = debug_info(sources, &assembled.spans);
        let section = DebugSection { files, positions };
        object.push(
            assembled.instrs.len() as u32,
            &words(&write_debug(&section)),
            None,
            Some("debug section: where each instruction was written"),
        );
    }
    for (name, value, span) in &assembled.labels {
        object.symbols.push(Symbol {
            name: name.clone(),
            value: u64::from(*value),
            size: 1,
            kind: "label",
            span: Some(*span),
        });
    }
    object
}

impl front::Encode<Vec<Parsed>> for Encoder {
    type Output = (Option<Assembled>, Found);

    fn encode(&mut self, chunk: Vec<Parsed>) {
        for parsed in chunk {
            match parsed {
                Parsed::Label(name) => self.label(&name),
                Parsed::Instruction(name, immediates) => self.instruction(name, immediates),
                Parsed::Error(error, origin) => self.error_in(error, origin),
            }
        }
    }

    fn finish(self) -> (Option<Assembled>, Found) {
        Encoder::finish(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Base, modifier, condition, register, operation.
    type Fields = (Kind, Option<Oper>, Option<(CondReg, Cond)>, Option<Reg>, Option<Oper>);

    fn fields(name: &str) -> Fields {
        let d = decompose(name).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        (d.kind, d.modifier, d.cond, d.reg.map(|r| r.0), d.op.map(|o| o.0))
    }

    #[test]
    fn names_decompose_as_the_reference_reads_them() {
        use Oper::*;
        assert_eq!(fields("ldamt"), (Kind::Ld, Some(Add), None, Some(Reg::M), Some(Mul)));
        assert_eq!(fields("strtrs"), (Kind::Str, Some(Mul), None, Some(Reg::R), Some(Sub)));
        assert_eq!(
            fields("lmltra"),
            (Kind::L, None, Some((CondReg::M, Cond::Lt)), Some(Reg::R), Some(Add))
        );
        assert_eq!(
            fields("brltm<"),
            (Kind::B, None, Some((CondReg::R, Cond::Lt)), Some(Reg::M), Some(Shl))
        );
        assert_eq!(fields("str&m>"), (Kind::Str, Some(And), None, Some(Reg::M), Some(Shr)));
        assert_eq!(fields("jmpar"), (Kind::Jmp, Some(Add), None, Some(Reg::R), None));
        assert_eq!(fields("seq"), (Kind::S, None, Some((CondReg::R, Cond::Eq)), None, None));
        assert_eq!(
            fields("bmeq"),
            (Kind::B, None, Some((CondReg::M, Cond::Eq)), None, None)
        );
        assert_eq!(fields("outcmt"), (Kind::Outc, None, None, Some(Reg::M), Some(Mul)));
        assert_eq!(fields("swap"), (Kind::Swap, None, None, None, None));
    }

    fn problem(name: &str) -> NameProblemKind {
        decompose(name).expect_err(name).kind
    }

    #[test]
    fn bad_names_say_what_is_wrong_where() {
        use NameProblemKind::*;
        assert_eq!(problem("LD"), UnknownBase);
        assert_eq!(problem("swa"), UnknownCondition("wa".into()));
        assert_eq!(problem("stap"), UnknownCondition("ta".into()));
        assert_eq!(problem("b"), MissingCondition);
        assert_eq!(problem("bm"), MissingCondition);
        assert_eq!(problem("bheq"), ConditionRegister('h'));
        assert_eq!(problem("ldamtr"), SuffixTooLong("amtr".into()));
        assert_eq!(problem("beq|"), ModifierNotAllowed('|'));
        assert_eq!(problem("outca"), ModifierNotAllowed('a'));
        assert_eq!(problem("ldaa"), OperationWithoutRegister('a'));
        assert_eq!(problem("ldmaa"), SecondOperation('a'));
        assert_eq!(problem("ldmr"), SecondRegister('r'));
        assert_eq!(problem("ldeq"), ConditionInSuffix("eq".into()));
        assert!(matches!(problem("ldx"), UnknownSuffix { found: 'x', .. }));
        assert_eq!(problem("ld7"), JoinedImmediate("7".into()));
        let e = decompose("lda12").unwrap_err();
        assert_eq!((e.range, e.kind), (3..5, JoinedImmediate("12".into())));
        let e = decompose("bheq").unwrap_err();
        assert_eq!(e.range, 1..2);
    }

    #[test]
    fn immediate_help_names_the_value_meant() {
        assert!(immediate_help("-5").contains("`65531`"));
        assert!(immediate_help("0x10").contains("`16`"));
        assert!(immediate_help("8.5").contains("decimal number"));
    }
}
