//! Statements to instructions, with every check that needs the instruction table, and
//! instructions to the bytecode file (docs/formats/shader-bytecode.md).

use polyasm_core::diagnostic::Reports;
use polyasm_core::front::TextRange;
use polyasm_core::text::suggest;
use polyasm_core::{Object, Outcome, SourceId, Span};

use crate::error::{NumberProblem, RegisterHint, ShError};
use crate::ops::{COLOR, INSTRUCTION_BYTES, Instr, MAX_INSTRUCTIONS, Op, Operand, REGISTERS, Reg, Type};
use crate::parser::{OperandKind, Statement, Trailing};

/// The first 4 bytes of a bytecode file.
pub const MAGIC: [u8; 4] = *b"SHBC";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 1;
/// Bytes before the first instruction: magic, version, flags, instruction count.
pub const HEADER_BYTES: usize = 12;

/// The 12-byte header of a bytecode file of `count` instructions.
pub fn header(count: usize) -> [u8; HEADER_BYTES] {
    let mut out = [0; HEADER_BYTES];
    out[..4].copy_from_slice(&MAGIC);
    out[4..6].copy_from_slice(&VERSION.to_le_bytes());
    // Bytes 6 and 7, the flags, are reserved: 0.
    out[8..].copy_from_slice(&(count as u32).to_le_bytes());
    out
}

/// The bytecode file of a program: the header, then each instruction's two words,
/// little-endian.
pub fn bytecode_bytes(instrs: &[Instr]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + instrs.len() * INSTRUCTION_BYTES);
    out.extend_from_slice(&header(instrs.len()));
    for instr in instrs {
        for word in instr.pack() {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }
    out
}

/// Why a number literal is no f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    Malformed(NumberProblem),
    /// It rounds to infinity.
    OutOfRange,
}

/// Reads a number literal: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`,
/// rounded to the nearest f32. A literal that rounds to infinity is an error; one that
/// rounds to a subnormal or to 0 is not.
pub fn parse_number(text: &str) -> Result<f32, NumberError> {
    let bytes = text.as_bytes();
    let malformed = |problem| Err(NumberError::Malformed(problem));
    let digits_from = |i: usize| {
        bytes[i.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    if matches!(bytes.get(i..i + 2), Some(b"0x" | b"0X")) {
        return malformed(NumberProblem::Hex);
    }
    let integer = digits_from(i);
    i += integer;
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        fraction = digits_from(i + 1);
        i += 1 + fraction;
    }
    if integer + fraction == 0 {
        return malformed(NumberProblem::NoDigits);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exponent = digits_from(j);
        if exponent == 0 {
            if j >= bytes.len() {
                return malformed(NumberProblem::NoExponentDigits);
            }
            i = j;
        } else {
            i = j + exponent;
        }
    }
    if let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
        return malformed(NumberProblem::Unexpected { at: i, c });
    }
    match text.parse::<f32>() {
        Ok(value) if value.is_finite() => Ok(value),
        Ok(_) => Err(NumberError::OutOfRange),
        Err(_) => malformed(NumberProblem::NoDigits),
    }
}

/// The register `name` names, or a hint at what was meant.
pub fn register(name: &str) -> Result<Reg, RegisterHint> {
    if let Some(reg) = Reg::from_name(name) {
        return Ok(reg);
    }
    let lower = name.to_ascii_lowercase();
    if Reg::from_name(&lower).is_some() {
        return Err(RegisterHint::Case(lower));
    }
    if let Some((kind @ ('s' | 'v'), digits)) = lower.chars().next().map(|c| (c, &lower[1..]))
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(RegisterHint::Number { kind });
    }
    if name.len() < 2 {
        return Err(RegisterHint::None);
    }
    let names: Vec<String> = Reg::all().map(Reg::name).collect();
    Err(suggest(name, names.iter().map(String::as_str))
        .map_or(RegisterHint::None, |s| RegisterHint::Suggestion(s.to_string())))
}

/// The instruction `name` may have meant: a close one, or one it abbreviates (`mul`).
fn suggest_instruction(name: &str) -> Option<&'static str> {
    let mnemonics = || crate::ops::OPS.iter().map(|info| info.mnemonic);
    suggest(name, mnemonics()).or_else(|| {
        (name.len() >= 3)
            .then(|| {
                mnemonics().find(|m| {
                    m.get(..name.len())
                        .is_some_and(|start| start.eq_ignore_ascii_case(name))
                })
            })
            .flatten()
    })
}

/// An assembled program: its instructions, and its bytecode file as an [`Object`].
#[derive(Clone, Debug)]
pub struct Assembled {
    pub instrs: Vec<Instr>,
    pub object: Object,
}

/// Note on the listing entry of the header.
pub const HEADER_NOTE: &str = "bytecode header: SHBC, version 1, flags 0, instruction count";

/// Turns statements into instructions, collecting every error.
pub struct Encoder<'s> {
    file: SourceId,
    text: &'s str,
    object: Object,
    instrs: Vec<Instr>,
    /// The written operand of each instruction, for [`ShError::UnreadResult`].
    written: Vec<TextRange>,
    /// Every error so far, or under `--max-errors` those that will be shown.
    errors: Reports<ShError>,
    statements: usize,
}

impl<'s> Encoder<'s> {
    /// An encoder of `file`, whose text is `text`, that records listing entries when `listed`.
    pub fn new(file: SourceId, text: &'s str, listed: bool) -> Encoder<'s> {
        let mut object = Object::assembled_from(4, file, listed);
        let words: Vec<u32> = header(0)
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        object.push(0, &words, None, Some(HEADER_NOTE));
        Encoder {
            file,
            text,
            object,
            instrs: Vec::new(),
            written: Vec::new(),
            errors: Reports::new(ShError::to_diagnostic),
            statements: 0,
        }
    }

    fn span(&self, range: TextRange) -> Span {
        range.in_source(self.file)
    }

    pub fn error(&mut self, error: ShError) {
        self.errors.push(error);
    }

    /// Encodes one statement (or records why it cannot be).
    pub fn statement(&mut self, statement: &Statement) {
        match statement.trailing {
            Some(Trailing::Call(range)) => self.error(ShError::TwoInstructions { span: self.span(range) }),
            Some(Trailing::Text(range)) => self.error(ShError::TrailingText { span: self.span(range) }),
            None => {}
        }
        let index = self.statements;
        self.statements += 1;
        if index == MAX_INSTRUCTIONS {
            self.error(ShError::TooManyInstructions {
                span: self.span(statement.span()),
            });
        }
        let Some((instr, written)) = self.instruction(statement) else {
            return;
        };
        if index < MAX_INSTRUCTIONS {
            self.object
                .push(index as u32, &instr.pack(), Some(self.span(statement.span())), None);
            self.instrs.push(instr);
            self.written.push(written);
        }
    }

    /// The instruction of a statement and the span of the operand it writes.
    fn instruction(&mut self, statement: &Statement) -> Option<(Instr, TextRange)> {
        let name = statement.name.text(self.text);
        let Some(op) = Op::from_mnemonic(name) else {
            self.error(ShError::UnknownInstruction {
                span: self.span(statement.name),
                name: name.to_string(),
                suggestion: suggest_instruction(name),
            });
            return None;
        };
        let kinds = op.info().operands;
        let found = statement.operands.count();
        if found != kinds.len() {
            let span = match statement.operands.span_from(kinds.len()) {
                Some(extra) => extra,
                None => statement.close,
            };
            self.error(ShError::OperandCount {
                span: self.span(span),
                head: self.span(statement.name),
                op,
                found,
            });
            return None;
        }
        let mut instr = Instr {
            op,
            regs: [Reg(0); 3],
            constant: 0.0,
        };
        let mut written = statement.name;
        let mut ok = true;
        for (index, (&kind, operand)) in kinds.iter().zip(statement.operands.as_slice()).enumerate() {
            let span = self.span(operand.span);
            let text = operand.span.text(self.text);
            let (ty, writes) = match kind {
                Operand::Number => {
                    match (operand.kind, parse_number(text)) {
                        (OperandKind::Number, Ok(value)) => instr.constant = value,
                        (OperandKind::Number, Err(NumberError::Malformed(problem))) => {
                            ok = false;
                            self.error(ShError::MalformedNumber {
                                span,
                                text: text.to_string(),
                                problem,
                            });
                        }
                        (OperandKind::Number, Err(NumberError::OutOfRange)) => {
                            ok = false;
                            self.error(ShError::NumberOutOfRange {
                                span,
                                text: text.to_string(),
                            });
                        }
                        (OperandKind::Name, _) => {
                            ok = false;
                            self.error(ShError::NameForNumber {
                                span,
                                op,
                                name: text.to_string(),
                            });
                        }
                    }
                    continue;
                }
                Operand::Read(ty) => (ty, false),
                Operand::Write(ty) => (ty, true),
                Operand::WriteComponent => (Type::Vector, true),
            };
            if operand.kind == OperandKind::Number {
                ok = false;
                self.error(ShError::NumberForRegister {
                    span,
                    op,
                    expected: ty,
                    text: text.to_string(),
                });
                continue;
            }
            let reg = match register(text) {
                Ok(reg) => reg,
                Err(hint) => {
                    ok = false;
                    self.error(ShError::UnknownRegister {
                        span,
                        name: text.to_string(),
                        hint,
                    });
                    continue;
                }
            };
            if reg.ty() != ty {
                ok = false;
                self.error(ShError::WrongType {
                    span,
                    op,
                    expected: ty,
                    reg,
                });
            } else if writes && !reg.writable() {
                ok = false;
                self.error(ShError::WritesInput { span, op, reg });
            }
            if writes {
                written = operand.span;
            }
            instr.regs[index] = reg;
        }
        ok.then_some((instr, written))
    }

    /// Warns about results that are never read: a backward pass over the program, tracking
    /// which register lanes a later instruction (or the output `c`) still reads.
    fn unread_results(&mut self) {
        let mut live = [[false; 4]; REGISTERS as usize];
        live[COLOR.0 as usize] = [true; 4];
        for (instr, written) in self.instrs.iter().zip(&self.written).rev() {
            let info = instr.op.info();
            let component = instr.op.component();
            for (operand, reg) in info.operands.iter().zip(instr.regs) {
                let lane = match operand {
                    Operand::Write(_) => 0,
                    Operand::WriteComponent => component.expect("setComponentN has a component"),
                    _ => continue,
                };
                let cell = &mut live[reg.0 as usize][lane];
                if !*cell {
                    self.errors.push(ShError::UnreadResult {
                        span: written.in_source(self.file),
                        op: instr.op,
                        reg,
                        component: (*operand == Operand::WriteComponent).then_some(lane),
                    });
                }
                *cell = false;
            }
            for (operand, reg) in info.operands.iter().zip(instr.regs) {
                if let Operand::Read(ty) = operand {
                    let lane = match ty {
                        Type::Vector => component.expect("only component ops read vectors"),
                        Type::Scalar => 0,
                    };
                    live[reg.0 as usize][lane] = true;
                }
            }
        }
    }

    /// Finishes the header and returns the program with every diagnostic, in source order.
    pub fn finish(mut self) -> Outcome<Assembled> {
        if self.errors.is_empty() {
            self.unread_results();
        }
        let count = (self.instrs.len() as u32).to_le_bytes();
        self.object.bytes[8..HEADER_BYTES].copy_from_slice(&count);
        let diagnostics = self.errors.finish();
        Outcome::new(
            Assembled {
                instrs: self.instrs,
                object: self.object,
            },
            diagnostics,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_form_of_number() {
        for (text, value) in [
            ("1", 1.0),
            ("-2.5", -2.5),
            (".5", 0.5),
            ("5.", 5.0),
            ("1e-3", 1e-3),
            ("+4E2", 400.0),
            ("-0", -0.0),
            ("3.4028235e38", f32::MAX),
            ("1e-50", 0.0),
            ("1.4e-45", f32::from_bits(1)),
        ] {
            assert_eq!(parse_number(text).map(f32::to_bits), Ok(value.to_bits()), "{text}");
        }
    }

    #[test]
    fn names_what_is_wrong_with_a_number() {
        use NumberProblem::*;
        let malformed = |p| Err(NumberError::Malformed(p));
        assert_eq!(parse_number("0x1f"), malformed(Hex));
        assert_eq!(parse_number("-0X1"), malformed(Hex));
        assert_eq!(parse_number("."), malformed(NoDigits));
        assert_eq!(parse_number("-.e3"), malformed(NoDigits));
        assert_eq!(parse_number("1e"), malformed(NoExponentDigits));
        assert_eq!(parse_number("1e+"), malformed(NoExponentDigits));
        assert_eq!(parse_number("1.2.3"), malformed(Unexpected { at: 3, c: '.' }));
        assert_eq!(parse_number("1_000"), malformed(Unexpected { at: 1, c: '_' }));
        assert_eq!(parse_number("1.5f"), malformed(Unexpected { at: 3, c: 'f' }));
        assert_eq!(parse_number("1ex"), malformed(Unexpected { at: 2, c: 'x' }));
        assert_eq!(parse_number("3.5e38"), Err(NumberError::OutOfRange));
        assert_eq!(parse_number("-1e999999999999999999"), Err(NumberError::OutOfRange));
    }

    #[test]
    fn register_names_get_hints() {
        assert_eq!(register("v3"), Ok(Reg(11)));
        assert_eq!(register("c"), Ok(COLOR));
        assert_eq!(register("S0"), Err(RegisterHint::Case("s0".into())));
        assert_eq!(register("PC"), Err(RegisterHint::Case("pc".into())));
        assert_eq!(register("s8"), Err(RegisterHint::Number { kind: 's' }));
        assert_eq!(register("v12"), Err(RegisterHint::Number { kind: 'v' }));
        assert_eq!(register("pcc"), Err(RegisterHint::Suggestion("pc".into())));
        assert_eq!(register("x"), Err(RegisterHint::None));
    }

    #[test]
    fn the_header_and_instructions_are_little_endian() {
        let instrs = [Instr {
            op: Op::Load,
            regs: [Reg(2), Reg(0), Reg(0)],
            constant: 1.0,
        }];
        assert_eq!(
            bytecode_bytes(&instrs),
            [
                b'S', b'H', b'B', b'C', 1, 0, 0, 0, 1, 0, 0, 0, // header
                13, 2, 0, 0, 0x00, 0x00, 0x80, 0x3f, // load(s2, 1)
            ]
        );
    }
}
