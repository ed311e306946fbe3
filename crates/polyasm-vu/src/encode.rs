//! Statements to words, with every check that needs the instruction table.

use std::ops::Range;

use polyasm_core::diagnostic::Reports;
use polyasm_core::front;
use polyasm_core::number::parse_int_literal;
use polyasm_core::text::suggest;
use polyasm_core::{Object, Outcome, SourceId, Span};

use crate::error::{Found, SwizzleProblem, VuError};
use crate::ops::{DIRECTIVES, MAX_WORDS, OUTPUTS, Op, OperandKind, REGISTERS, field};
use crate::parser::{Head, Operand, OperandText, Parsed, Statement};

/// One VU instruction with its fields decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    /// The operation, which fixes the opcode and the operands that follow.
    pub op: Op,
    /// Register, or output slot for `st`.
    pub dst: u8,
    /// Register, input slot or constant slot.
    pub src: u8,
    /// `shf`: the source lane for x, y, z and w.
    pub swizzle: [u8; 4],
    /// `shf`: lanes written, bit 0 = x.
    pub mask: u8,
}

impl Instruction {
    /// An instruction of `op` with every field zero.
    pub fn new(op: Op) -> Instruction {
        Instruction {
            op,
            dst: 0,
            src: 0,
            swizzle: [0; 4],
            mask: 0,
        }
    }

    /// The machine word, laid out as in [`crate::ops`].
    pub fn encode(&self) -> u32 {
        let swizzle = self
            .swizzle
            .iter()
            .enumerate()
            .fold(0, |acc, (lane, &s)| acc | (u32::from(s) & 3) << (2 * lane));
        u32::from(self.op.info().opcode)
            | (u32::from(self.dst) & 0xf) << field::DST_SHIFT
            | (u32::from(self.src) & 0xf) << field::SRC_SHIFT
            | swizzle << field::SWIZZLE_SHIFT
            | (u32::from(self.mask) & 0xf) << field::MASK_SHIFT
    }

    /// Sets operand `index` (dst, src, swizzle, mask) from its encoded value.
    pub(crate) fn set_field(&mut self, index: usize, value: u32) {
        match index {
            0 => self.dst = value as u8,
            1 => self.src = value as u8,
            2 => self.swizzle = field::swizzle_lanes(value),
            _ => self.mask = value as u8,
        }
    }
}

/// How to assemble.
#[derive(Clone, Copy, Debug)]
pub struct AssembleOptions {
    /// The most words a program may have; `None` lifts the limit (for tools and benchmarks,
    /// not for the console, which holds 64).
    pub max_words: Option<usize>,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            max_words: Some(MAX_WORDS),
        }
    }
}

/// Note on the `end` word the assembler appends.
pub const APPENDED_END: &str = "end appended by the assembler";

/// Turns statements into an [`Object`], collecting every error.
pub struct Encoder {
    file: SourceId,
    object: Object,
    /// Every error so far, or under `--max-errors` those that will be shown.
    errors: Reports<VuError>,
    options: AssembleOptions,
    words: usize,
}

impl Encoder {
    /// An encoder of `file` that records listing entries when `listed` is set.
    pub fn new(file: SourceId, options: AssembleOptions, listed: bool) -> Encoder {
        Encoder {
            file,
            object: Object::assembled_from(4, file, listed),
            errors: Reports::new(VuError::to_diagnostic),
            options,
            words: 0,
        }
    }

    fn span(&self, range: Range<usize>) -> Span {
        Span::new(self.file, range.start, range.end)
    }

    fn error(&mut self, error: VuError) {
        self.errors.push(error);
    }

    /// Encodes one statement (or records why it cannot be).
    fn statement(&mut self, statement: &Statement) {
        let word = match statement.head {
            Head::Mnemonic(name) => self.instruction(name, statement),
            Head::Directive(name) => self.directive(name, statement),
        };
        let span = self.span(statement.span());
        if self.options.max_words == Some(self.words) {
            self.errors.push(VuError::TooManyInstructions { span });
        }
        self.words += 1;
        if let Some(word) = word {
            self.object.push(self.words as u32 - 1, &[word], Some(span), None);
        }
    }

    fn instruction(&mut self, name: &str, statement: &Statement) -> Option<u32> {
        let Some(op) = Op::from_mnemonic(name) else {
            self.errors.push(VuError::UnknownMnemonic {
                span: self.span(statement.head_span.clone()),
                name: name.to_string(),
                suggestion: Op::suggest(name),
            });
            return None;
        };
        let kinds = op.info().operands;
        let given = statement.operands.as_slice();
        if let Some(extra) = statement.operands.span_from(kinds.len()) {
            self.errors.push(VuError::ExtraOperand {
                span: self.span(extra.range()),
                op: op.mnemonic(),
                takes: kinds.len(),
                found: statement.operands.count(),
                syntax: syntax(op),
            });
        }
        if let (Op::St, [first, second, ..]) = (op, given)
            && let (OperandText::Name(register), OperandText::Name(output)) = (first.text, second.text)
            && register_number(register).is_some()
            && OUTPUTS.contains(&output)
        {
            let span = self.span(first.span.start..second.span.end);
            self.errors.push(VuError::SwappedStore {
                span,
                output: output.to_string(),
                // The help line spells the register as it must be written (`r1` for `r01`).
                register: match register_number(register) {
                    Some(n) if n < REGISTERS.into() => format!("r{n}"),
                    _ => register.to_string(),
                },
            });
            return None;
        }
        let mut instruction = Instruction::new(op);
        let mut ok = true;
        for (index, &kind) in kinds.iter().enumerate() {
            match given.get(index) {
                Some(operand) => match self.operand(op.mnemonic(), kind, operand) {
                    Some(value) => instruction.set_field(index, value),
                    None => ok = false,
                },
                None => {
                    self.errors.push(VuError::MissingOperand {
                        span: self.span(last_token(statement)),
                        head: self.span(statement.head_span.clone()),
                        op: op.mnemonic(),
                        expected: kind,
                        syntax: syntax(op),
                    });
                    ok = false;
                    break;
                }
            }
        }
        if ok && op == Op::Mulm && u32::from(instruction.src) > REGISTERS - 4 {
            self.errors.push(VuError::MulmPastLastRegister {
                span: self.span(given[1].span.clone()),
                src: u32::from(instruction.src),
            });
        }
        ok.then(|| instruction.encode())
    }

    fn directive(&mut self, name: &str, statement: &Statement) -> Option<u32> {
        let span = self.span(statement.head_span.clone());
        let word = &DIRECTIVES[0];
        if name != word.name {
            self.errors.push(VuError::UnknownDirective {
                span,
                name: name.to_string(),
            });
            return None;
        }
        let syntax = format!("{} {}", word.name, word.operands);
        if let Some(extra) = statement.operands.span_from(1) {
            self.errors.push(VuError::ExtraOperand {
                span: self.span(extra.range()),
                op: word.name,
                takes: 1,
                found: statement.operands.count(),
                syntax: syntax.clone(),
            });
        }
        let Some(operand) = statement.operands.as_slice().first() else {
            self.errors.push(VuError::MissingOperand {
                span: self.span(last_token(statement)),
                head: span,
                op: word.name,
                expected: OperandKind::Word,
                syntax,
            });
            return None;
        };
        self.operand(word.name, OperandKind::Word, operand)
    }

    /// The encoded value of one operand of `op`, or `None` after recording why not.
    fn operand(&mut self, op: &'static str, kind: OperandKind, operand: &Operand) -> Option<u32> {
        let span = self.span(operand.span.clone());
        match kind {
            OperandKind::Register => match operand.text {
                OperandText::Name(name) => match register_number(name) {
                    Some(number) if number < kind.values() && name.starts_with("r0") && name.len() > 2 => {
                        self.errors.push(VuError::ZeroPaddedRegister {
                            span,
                            name: name.to_string(),
                            number,
                        });
                        None
                    }
                    Some(n) if n < kind.values() => Some(n as u32),
                    Some(_) => {
                        self.errors.push(VuError::RegisterOutOfRange {
                            span,
                            name: name.to_string(),
                        });
                        None
                    }
                    None => self.wrong_kind(op, kind, operand),
                },
                _ => self.wrong_kind(op, kind, operand),
            },
            OperandKind::Output => match operand.text {
                OperandText::Name(name) => {
                    if let Some(slot) = OUTPUTS.iter().position(|&o| o == name) {
                        return Some(slot as u32);
                    }
                    if register_number(name).is_some() {
                        return self.wrong_kind(op, kind, operand);
                    }
                    self.errors.push(VuError::UnknownOutput {
                        span,
                        name: name.to_string(),
                        suggestion: suggest(name, OUTPUTS),
                    });
                    None
                }
                _ => self.wrong_kind(op, kind, operand),
            },
            OperandKind::InputSlot | OperandKind::ConstSlot | OperandKind::Mask | OperandKind::Word => {
                let OperandText::Number(text) = operand.text else {
                    return self.wrong_kind(op, kind, operand);
                };
                if let [b'0', b'X' | b'B' | b'O', ..] = text.as_bytes() {
                    self.errors.push(VuError::UpperCasePrefix {
                        span,
                        text: text.to_string(),
                    });
                    return None;
                }
                let value = match parse_int_literal(strip_type_suffix(text)) {
                    Ok(value) => value,
                    Err(error) => {
                        self.errors.push(VuError::InvalidInteger {
                            span,
                            text: text.to_string(),
                            error,
                        });
                        return None;
                    }
                };
                let limit = kind.values();
                if value < limit {
                    return Some(value as u32);
                }
                self.errors.push(match kind {
                    OperandKind::Mask => VuError::MaskOutOfRange { span, value },
                    OperandKind::Word => VuError::WordOutOfRange { span, value },
                    _ => VuError::SlotOutOfRange {
                        span,
                        op,
                        kind,
                        value,
                        limit: limit as u32,
                    },
                });
                None
            }
            OperandKind::Swizzle => match operand.text {
                OperandText::Name(name) if register_number(name).is_none() => self.swizzle(name, operand.span.clone()),
                _ => self.wrong_kind(op, kind, operand),
            },
        }
    }

    fn swizzle(&mut self, name: &str, range: Range<usize>) -> Option<u32> {
        let problem = if name.len() != 4 {
            Some((range.clone(), SwizzleProblem::Length(name.chars().count())))
        } else {
            name.char_indices().find(|&(_, c)| lane_of(c).is_none()).map(|(i, c)| {
                (
                    range.start + i..range.start + i + c.len_utf8(),
                    SwizzleProblem::Letter(c),
                )
            })
        };
        if let Some((bad, problem)) = problem {
            self.errors.push(VuError::BadSwizzle {
                span: self.span(bad),
                swizzle: name.to_string(),
                problem,
            });
            return None;
        }
        Some(
            name.chars()
                .enumerate()
                .fold(0, |acc, (i, c)| acc | lane_of(c).expect("checked above") << (2 * i)),
        )
    }

    fn wrong_kind<T>(&mut self, op: &'static str, expected: OperandKind, operand: &Operand) -> Option<T> {
        let found = match operand.text {
            OperandText::Name(name) if register_number(name).is_some() => Found::Register(name.to_string()),
            OperandText::Name(name) if OUTPUTS.contains(&name) => Found::Output(name.to_string()),
            OperandText::Name(name) => Found::Name(name.to_string()),
            OperandText::Number(text) => Found::Number(text.to_string()),
            OperandText::Absent => unreachable!("parsed operands are never absent"),
        };
        self.errors.push(VuError::WrongOperandKind {
            span: self.span(operand.span.clone()),
            op,
            expected,
            found,
        });
        None
    }
}

impl<'s> front::Encode<Vec<Parsed<'s>>> for Encoder {
    type Output = Outcome<Object>;

    fn encode(&mut self, chunk: Vec<Parsed<'s>>) {
        for parsed in chunk {
            match parsed {
                Parsed::Statement(statement) => self.statement(&statement),
                Parsed::Error(error) => self.error(error),
            }
        }
    }

    /// Appends the `end` word when the program is shorter than the VU, and returns the result.
    fn finish(mut self) -> Outcome<Object> {
        if self.words < MAX_WORDS {
            self.object.push(
                self.words as u32,
                &[Instruction::new(Op::End).encode()],
                None,
                Some(APPENDED_END),
            );
        }
        // Errors are found per statement, a few per line; reported in source order.
        Outcome::new(self.object, self.errors.finish())
    }
}

/// The span of the last token of a statement: where a missing operand belongs.
fn last_token(statement: &Statement) -> Range<usize> {
    statement
        .operands
        .as_slice()
        .last()
        .map_or(statement.head_span.clone(), |o| o.span.clone())
}

/// `r7` -> 7; any other name -> `None`. Numbers too large to matter saturate.
fn register_number(name: &str) -> Option<u64> {
    let digits = name.strip_prefix('r')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// Drops a Rust integer type suffix (`15u32`, `0b1111_u8`), which the reference assembler,
/// reading Rust tokens, accepts.
fn strip_type_suffix(text: &str) -> &str {
    const SUFFIXES: [&str; 12] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    SUFFIXES
        .iter()
        .find_map(|suffix| text.strip_suffix(suffix))
        .filter(|digits| !digits.is_empty())
        .unwrap_or(text)
}

/// A swizzle letter's lane: x/r 0, y/g 1, z/b 2, w/a 3.
pub fn lane_of(c: char) -> Option<u32> {
    match c {
        'x' | 'r' => Some(0),
        'y' | 'g' => Some(1),
        'z' | 'b' => Some(2),
        'w' | 'a' => Some(3),
        _ => None,
    }
}

/// `ld rN SLOT`: the mnemonic and its operand placeholders.
pub fn syntax(op: Op) -> String {
    let info = op.info();
    std::iter::once(info.mnemonic)
        .chain(info.operands.iter().map(|k| k.placeholder()))
        .collect::<Vec<_>>()
        .join(" ")
}
