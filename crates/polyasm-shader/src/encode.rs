//! Statements to instructions, with every check that needs the instruction table, and
//! instructions to the bytecode file (docs/formats/shader-bytecode.md).

use polyasm_core::diagnostic::Reports;
use polyasm_core::front::{self, StatementLexer, TextRange};
use polyasm_core::number::{DecimalProblem, FloatError, LeadingZeros, NumberProblem, parse_decimal, parse_f32};
use polyasm_core::text::suggest;
use polyasm_core::{Object, Outcome, SourceId, Span};

use crate::error::{Place, RegisterHint, ShError, WholeProblem};
use crate::lexer::{Lexer, Tok};
use crate::ops::{
    COLOR, COMPONENTS, Dialect, INSTRUCTION_BYTES, Instr, MAX_INSTRUCTIONS, MEMORY_CELLS, Op, Operand, REGISTERS, Reg,
    Selector, Type, pick,
};
use crate::parser::{OperandKind, Parsed, Statement, Trailing};

pub use polyasm_core::container::HEADER_BYTES;

/// Bit 0 of the header's flags: the program uses v2's forms.
pub const FLAG_V2: u16 = 1;

/// The bytecode file's header: magic `SHBC`, version 1, the v2 flag, at most
/// [`MAX_INSTRUCTIONS`] instructions.
pub const FORMAT: polyasm_core::container::Format = polyasm_core::container::Format {
    magic: *b"SHBC",
    version: 1,
    flags: FLAG_V2,
    max_count: MAX_INSTRUCTIONS,
};

/// The header's flags for a program stored as `dialect`.
pub fn flags(dialect: Dialect) -> u16 {
    match dialect {
        Dialect::V1 => 0,
        Dialect::V2 => FLAG_V2,
    }
}

/// The 12-byte header of a bytecode file of `count` instructions in `dialect`.
pub fn header(count: usize, dialect: Dialect) -> [u8; HEADER_BYTES] {
    FORMAT.header(flags(dialect), count)
}

/// The bytecode file of a program: the header (flagged v2 when the program uses a form only
/// v2 has, [`Dialect::of`]), then each instruction's two words, little-endian.
pub fn bytecode_bytes(instrs: &[Instr]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + instrs.len() * INSTRUCTION_BYTES);
    out.extend_from_slice(&header(instrs.len(), Dialect::of(instrs)));
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
    /// It is malformed, for the reason given.
    Malformed(NumberProblem),
    /// It rounds to infinity.
    OutOfRange,
    /// v1 reads it, v2's `load` does not.
    NotWhole(WholeProblem),
}

/// Reads a number literal of v1: a decimal number rounded to the nearest f32
/// ([`parse_f32`]). A literal that rounds to infinity is an error; one that rounds to a
/// subnormal or to 0 is not.
pub fn parse_number(text: &str) -> Result<f32, NumberError> {
    parse_f32(text).map_err(|error| match error {
        FloatError::Malformed(problem) => NumberError::Malformed(problem),
        FloatError::OutOfRange => NumberError::OutOfRange,
    })
}

/// The largest number v2's `load` takes: its constant field has 24 bits.
pub const V2_MAX_NUMBER: u32 = 0xff_ffff;

/// Reads a number literal of v2's `load`: decimal digits, at most [`V2_MAX_NUMBER`]. A number
/// v1 reads but v2 does not (a sign, a fraction, an exponent) says what it has.
pub fn parse_whole(text: &str) -> Result<f32, NumberError> {
    match parse_decimal(text, u64::from(V2_MAX_NUMBER), LeadingZeros::Allowed) {
        Ok(n) => return Ok(n as f32),
        Err(DecimalProblem::OutOfRange) => return Err(NumberError::NotWhole(WholeProblem::TooLarge)),
        Err(DecimalProblem::NotDigits | DecimalProblem::LeadingZeros) => {}
    }
    parse_number(text)?;
    let problem = if text.starts_with('-') {
        WholeProblem::Negative
    } else if text.starts_with('+') {
        WholeProblem::Sign
    } else if text.bytes().any(|b| matches!(b, b'e' | b'E')) {
        WholeProblem::Exponent
    } else {
        WholeProblem::Fraction
    };
    Err(NumberError::NotWhole(problem))
}

/// The register `name` names in either dialect, or a hint at what was meant in `dialect`.
pub fn register(name: &str, dialect: Dialect) -> Result<Reg, RegisterHint> {
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
    let names: Vec<String> = Reg::all()
        .filter(|reg| reg.dialects().has(dialect))
        .map(Reg::name)
        .collect();
    Err(suggest(name, names.iter().map(String::as_str))
        .map_or(RegisterHint::None, |s| RegisterHint::Suggestion(s.to_string())))
}

/// The instruction of `dialect` that `name` may have meant: a close one, or one it
/// abbreviates (`mul`).
fn suggest_instruction(name: &str, dialect: Dialect) -> Option<&'static str> {
    let mnemonics = || {
        crate::ops::OPS
            .iter()
            .filter(move |info| info.dialects.has(dialect))
            .map(|info| info.mnemonic)
    };
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

/// A form that only one dialect has: an instruction or a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marker {
    /// The one dialect that has the form.
    pub dialect: Dialect,
    /// Where it is written.
    pub span: TextRange,
}

/// The first form in `text` that only one dialect has (`getComponent0`, `s7`; `sign`, `z`),
/// if any: a quick pass over the tokens, reading instruction names (a name before `(`) and
/// register names (the names between it and the `)`).
pub fn detect(text: &str) -> Option<Marker> {
    let mut lexer = Lexer::new(text);
    let mut line = Vec::new();
    while !lexer.at_end() {
        line.clear();
        let Ok(()) = lexer.next_statement(&mut line);
        let Some(open) = line.iter().position(|(tok, _)| *tok == Tok::Open) else {
            continue;
        };
        let close = line
            .iter()
            .position(|(tok, _)| *tok == Tok::Close)
            .unwrap_or(line.len());
        for (index, (tok, range)) in line.iter().enumerate().take(close) {
            let name = &text[range.clone()];
            let dialects = match tok {
                Tok::Name if index + 1 == open => Op::from_mnemonic(name).map(|op| op.info().dialects),
                Tok::Name if index > open => Reg::from_name(name).map(Reg::dialects),
                _ => None,
            };
            if let Some(dialect) = dialects.and_then(|d| d.only()) {
                return Some(Marker {
                    dialect,
                    span: TextRange::new(range.start, range.end),
                });
            }
        }
    }
    None
}

/// How the dialect of a source is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DialectChoice {
    /// From the forms the source uses ([`detect`]); v1 when it uses only forms both share.
    #[default]
    Detect,
    /// Given (`--dialect`).
    Named(Dialect),
}

/// An assembled program: its instructions, and its bytecode file as an [`Object`].
#[derive(Clone, Debug)]
pub struct Assembled {
    /// The program's instructions, in order.
    pub instrs: Vec<Instr>,
    /// The bytecode file (header and instructions) with its listing.
    pub object: Object,
    /// The dialect the source was read in.
    pub dialect: Dialect,
}

/// Note on the listing entry of the header.
pub const HEADER_NOTE: &str = "bytecode header: SHBC, version 1, flags 0, instruction count";
/// Note on the listing entry of the header of a program in v2's forms.
pub const HEADER_NOTE_V2: &str = "bytecode header: SHBC, version 1, flags 1 (v2), instruction count";

/// How a `getComponent`, `setComponent`, `readMemory` or `writeMemory` picks its component or
/// cell, as far as the assembler can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Picked {
    /// The instruction picks nothing dynamic.
    Fixed,
    /// Always this component or cell.
    Known(usize),
    /// Always none: the index is out of range.
    Never,
    /// Known only when a pixel runs it.
    Unknown,
}

/// Turns statements into instructions, collecting every error.
pub struct Encoder<'s> {
    file: SourceId,
    text: &'s str,
    object: Object,
    instrs: Vec<Instr>,
    /// The written operand of each instruction, for [`ShError::UnreadResult`].
    written: Vec<TextRange>,
    /// The index operand of each instruction that picks a component or cell by one.
    index_spans: Vec<Option<TextRange>>,
    /// Every error so far, or under `--max-errors` those that will be shown.
    errors: Reports<ShError>,
    statements: usize,
    dialect: Dialect,
    /// The form the dialect was detected from; `None` when it was named, or when the source
    /// uses no form only one dialect has.
    marker: Option<Marker>,
    named: bool,
}

impl<'s> Encoder<'s> {
    /// An encoder of `file`, whose text is `text`, that records listing entries when `listed`
    /// and reads the dialect `choice` says.
    pub fn new(file: SourceId, text: &'s str, listed: bool, choice: DialectChoice) -> Encoder<'s> {
        let (dialect, marker, named) = match choice {
            DialectChoice::Named(dialect) => (dialect, None, true),
            DialectChoice::Detect => {
                let marker = detect(text);
                (marker.map_or(Dialect::V1, |m| m.dialect), marker, false)
            }
        };
        let mut object = Object::assembled_from(4, file, listed);
        let words: Vec<u32> = header(0, Dialect::V1)
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
            index_spans: Vec::new(),
            errors: Reports::new(ShError::to_diagnostic),
            statements: 0,
            dialect,
            marker,
            named,
        }
    }

    /// The dialect the source is read in.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The error for `form` (at `range`), which only the other dialect has: a mix of dialects
    /// when the dialect was detected, else `fallback` (unknown instruction or register).
    fn other_dialects_form(&self, range: TextRange, fallback: ShError) -> ShError {
        match (self.named, self.marker) {
            (false, Some(marker)) => ShError::MixedDialects {
                span: self.span(range),
                form: range.text(self.text).to_string(),
                dialect: self.dialect.other(),
                first: self.span(marker.span),
                first_form: marker.span.text(self.text).to_string(),
            },
            _ => fallback,
        }
    }

    fn span(&self, range: TextRange) -> Span {
        range.in_source(self.file)
    }

    fn error(&mut self, error: ShError) {
        self.errors.push(error);
    }

    /// Encodes one statement (or records why it cannot be).
    fn statement(&mut self, statement: &Statement) {
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
        let Some((instr, written, index_span)) = self.instruction(statement) else {
            return;
        };
        if index < MAX_INSTRUCTIONS {
            self.object
                .push(index as u32, &instr.pack(), Some(self.span(statement.span())), None);
            self.instrs.push(instr);
            self.written.push(written);
            self.index_spans.push(index_span);
        }
    }

    /// The instruction of a statement, the span of the operand it writes, and that of the
    /// operand that picks its component or memory cell, if one does.
    fn instruction(&mut self, statement: &Statement) -> Option<(Instr, TextRange, Option<TextRange>)> {
        let name = statement.name.text(self.text);
        let op = match Op::from_mnemonic(name) {
            Some(op) if op.info().dialects.has(self.dialect) => op,
            Some(op) => {
                let unknown = ShError::UnknownInstruction {
                    span: self.span(statement.name),
                    name: name.to_string(),
                    suggestion: None,
                    dialect: self.dialect,
                    other: Some(op),
                };
                self.error(self.other_dialects_form(statement.name, unknown));
                return None;
            }
            None => {
                self.error(ShError::UnknownInstruction {
                    span: self.span(statement.name),
                    name: name.to_string(),
                    suggestion: suggest_instruction(name, self.dialect),
                    dialect: self.dialect,
                    other: None,
                });
                return None;
            }
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
        let index_at = match op.info().selector {
            Selector::ComponentAt(i) | Selector::CellAt(i) => Some(i),
            Selector::None | Selector::Component(_) => None,
        };
        let index_span = index_at.map(|i| statement.operands.as_slice()[i].span);
        let mut ok = true;
        for (index, (&kind, operand)) in kinds.iter().zip(statement.operands.as_slice()).enumerate() {
            let span = self.span(operand.span);
            let text = operand.span.text(self.text);
            let (ty, writes) = match kind {
                Operand::Number => {
                    let parsed = match self.dialect {
                        Dialect::V1 => parse_number(text),
                        Dialect::V2 => parse_whole(text),
                    };
                    match (operand.kind, parsed) {
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
                        (OperandKind::Number, Err(NumberError::NotWhole(problem))) => {
                            ok = false;
                            self.error(ShError::NotWhole {
                                span,
                                text: text.to_string(),
                                problem,
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
            let reg = match register(text, self.dialect) {
                Ok(reg) if reg.dialects().has(self.dialect) => reg,
                Ok(reg) => {
                    ok = false;
                    let unknown = ShError::UnknownRegister {
                        span,
                        name: text.to_string(),
                        hint: RegisterHint::OtherDialect(reg.dialects().only().unwrap_or(self.dialect)),
                        dialect: self.dialect,
                    };
                    self.error(self.other_dialects_form(operand.span, unknown));
                    continue;
                }
                Err(hint) => {
                    ok = false;
                    self.error(ShError::UnknownRegister {
                        span,
                        name: text.to_string(),
                        hint,
                        dialect: self.dialect,
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
                    dialect: self.dialect,
                });
            } else if writes && !reg.writable() {
                ok = false;
                self.error(ShError::WritesInput {
                    span,
                    op,
                    reg,
                    dialect: self.dialect,
                });
            }
            if writes {
                written = operand.span;
            }
            instr.regs[index] = reg;
        }
        ok.then_some((instr, written, index_span))
    }

    /// What the assembler can tell of the component or cell each instruction picks: a
    /// forward pass that follows every value known before the program runs (loads, `z`, the
    /// zeros every register and memory cell starts with, and arithmetic on them, in the same
    /// f32 operations as [`crate::exec::run`]).
    fn picks(&self) -> Vec<Picked> {
        let mut regs = [[Some(0.0f32); COMPONENTS]; REGISTERS as usize];
        // Not known before a pixel runs: pc.xy, the size and the time.
        regs[crate::ops::PC.0 as usize][..2].fill(None);
        regs[crate::ops::SIZE.0 as usize][..2].fill(None);
        regs[crate::ops::TIME.0 as usize][0] = None;
        let mut memory = [Some(0.0f32); MEMORY_CELLS];
        let mut picks = Vec::with_capacity(self.instrs.len());
        for instr in &self.instrs {
            let [a, b, c] = instr.regs.map(|Reg(n)| n as usize);
            let unary = |f: fn(f32) -> f32, x: Option<f32>| x.map(f);
            let binary = |f: fn(f32, f32) -> f32, x: Option<f32>, y: Option<f32>| x.zip(y).map(|(x, y)| f(x, y));
            let picked = |value: Option<f32>, len: usize| match value {
                Some(value) => pick(value, len).map_or(Picked::Never, Picked::Known),
                None => Picked::Unknown,
            };
            let mut picked_here = Picked::Fixed;
            match instr.op {
                Op::Add => regs[c][0] = binary(|x, y| x + y, regs[a][0], regs[b][0]),
                Op::Multiply => regs[c][0] = binary(|x, y| x * y, regs[a][0], regs[b][0]),
                Op::Negate => regs[b][0] = unary(|x| -x, regs[a][0]),
                Op::Reciprocal => regs[b][0] = unary(|x| 1.0 / x, regs[a][0]),
                Op::Sign => regs[b][0] = unary(crate::ops::sign, regs[a][0]),
                Op::Move => regs[b][0] = regs[a][0],
                Op::Load => regs[a][0] = Some(instr.constant),
                Op::GetComponent0 | Op::GetComponent1 | Op::GetComponent2 | Op::GetComponent3 => {
                    regs[b][0] = regs[a][instr.op.component().expect("a component op")];
                }
                Op::SetComponent0 | Op::SetComponent1 | Op::SetComponent2 | Op::SetComponent3 => {
                    regs[a][instr.op.component().expect("a component op")] = regs[b][0];
                }
                Op::GetComponent => {
                    picked_here = picked(regs[c][0], COMPONENTS);
                    regs[b][0] = match picked_here {
                        Picked::Known(lane) => regs[a][lane],
                        Picked::Never => Some(0.0),
                        _ => None,
                    };
                }
                Op::SetComponent => {
                    picked_here = picked(regs[c][0], COMPONENTS);
                    match picked_here {
                        Picked::Known(lane) => regs[a][lane] = regs[b][0],
                        Picked::Unknown => regs[a] = [None; COMPONENTS],
                        _ => {}
                    }
                }
                Op::ReadMemory => {
                    picked_here = picked(regs[b][0], MEMORY_CELLS);
                    regs[a][0] = match picked_here {
                        Picked::Known(cell) => memory[cell],
                        Picked::Never => Some(0.0),
                        _ => None,
                    };
                }
                Op::WriteMemory => {
                    picked_here = picked(regs[b][0], MEMORY_CELLS);
                    match picked_here {
                        Picked::Known(cell) => memory[cell] = regs[a][0],
                        Picked::Unknown => memory = [None; MEMORY_CELLS],
                        _ => {}
                    }
                }
            }
            picks.push(picked_here);
        }
        picks
    }

    /// Warns about indexes that are always out of range, then about results that are never
    /// read: a backward pass over the program, tracking which register lanes and memory
    /// cells a later instruction (or the output `c`) still reads.
    fn warnings(&mut self) {
        let picks = self.picks();
        for ((instr, picked), index_span) in self.instrs.iter().zip(&picks).zip(&self.index_spans) {
            if let (Picked::Never, Some(range)) = (picked, index_span) {
                self.errors.push(ShError::IndexOutOfRange {
                    span: range.in_source(self.file),
                    op: instr.op,
                });
            }
        }
        let mut live = [[false; COMPONENTS]; REGISTERS as usize];
        live[COLOR.0 as usize] = [true; COMPONENTS];
        let mut live_cells = [false; MEMORY_CELLS];
        let mut unread = Vec::new();
        for ((instr, written), picked) in self.instrs.iter().zip(&self.written).zip(&picks).rev() {
            let info = instr.op.info();
            let span = written.in_source(self.file);
            let warn = |place| ShError::UnreadResult {
                span,
                op: instr.op,
                place,
            };
            // What it writes: a register lane, a vector's component, or a memory cell.
            for (operand, reg) in info.operands.iter().zip(instr.regs) {
                let lanes = &mut live[reg.0 as usize];
                match (operand, picked) {
                    (Operand::Write(_), _) => {
                        if !lanes[0] {
                            unread.push(warn(Place::Register { reg, component: None }));
                        }
                        lanes[0] = false;
                    }
                    (Operand::WriteComponent, Picked::Fixed | Picked::Known(_)) => {
                        let lane = match picked {
                            Picked::Known(lane) => *lane,
                            _ => instr.op.component().expect("setComponentN has a component"),
                        };
                        if !lanes[lane] {
                            unread.push(warn(Place::Register {
                                reg,
                                component: Some(lane),
                            }));
                        }
                        lanes[lane] = false;
                    }
                    (Operand::WriteComponent, Picked::Unknown) if !lanes.contains(&true) => {
                        unread.push(warn(Place::Register { reg, component: None }));
                    }
                    _ => {}
                }
            }
            if instr.op == Op::WriteMemory {
                match *picked {
                    Picked::Known(cell) => {
                        if !live_cells[cell] {
                            unread.push(warn(Place::Cell(Some(cell))));
                        }
                        live_cells[cell] = false;
                    }
                    Picked::Unknown if !live_cells.contains(&true) => unread.push(warn(Place::Cell(None))),
                    _ => {}
                }
            }
            // What it reads.
            for (operand, reg) in info.operands.iter().zip(instr.regs) {
                match operand {
                    Operand::Read(Type::Scalar) => live[reg.0 as usize][0] = true,
                    Operand::Read(Type::Vector) => match (*picked, instr.op.component()) {
                        (_, Some(lane)) | (Picked::Known(lane), None) => live[reg.0 as usize][lane] = true,
                        (Picked::Unknown, None) => live[reg.0 as usize] = [true; COMPONENTS],
                        _ => {}
                    },
                    _ => {}
                }
            }
            if instr.op == Op::ReadMemory {
                match *picked {
                    Picked::Known(cell) => live_cells[cell] = true,
                    Picked::Unknown => live_cells = [true; MEMORY_CELLS],
                    _ => {}
                }
            }
        }
        for error in unread {
            self.errors.push(error);
        }
    }
}

impl front::Encode<Vec<Parsed>> for Encoder<'_> {
    type Output = Outcome<Assembled>;

    fn encode(&mut self, chunk: Vec<Parsed>) {
        for parsed in chunk {
            match parsed {
                Parsed::Statement(statement) => self.statement(&statement),
                Parsed::Error(error) => self.error(error),
            }
        }
    }

    /// Finishes the header and returns the program with every diagnostic, in source order.
    fn finish(mut self) -> Outcome<Assembled> {
        if self.errors.is_empty() {
            self.warnings();
        }
        let count = (self.instrs.len() as u32).to_le_bytes();
        self.object.bytes[8..HEADER_BYTES].copy_from_slice(&count);
        let stored = Dialect::of(&self.instrs);
        self.object.bytes[6..8].copy_from_slice(&flags(stored).to_le_bytes());
        if stored == Dialect::V2
            && let Some(note) = self.object.notes.first_mut()
        {
            note.1 = HEADER_NOTE_V2;
        }
        let diagnostics = self.errors.finish();
        Outcome::new(
            Assembled {
                instrs: self.instrs,
                object: self.object,
                dialect: self.dialect,
            },
            diagnostics,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_names_get_hints() {
        let register = |name| register(name, Dialect::V1);
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

    #[test]
    fn the_first_form_of_one_dialect_decides() {
        fn dialect(text: &str) -> Option<(Dialect, &str)> {
            detect(text).map(|m| (m.dialect, &text[m.span.range()]))
        }
        assert_eq!(dialect("load(s0, 1)\nadd(s0, s1, s2)\n"), None);
        assert_eq!(
            dialect("load(s0, 1)\nmove(s0, z)\ngetComponent0(pc, s0)"),
            Some((Dialect::V2, "z"))
        );
        assert_eq!(
            dialect("getComponent0(pc, s0) # sign(z)"),
            Some((Dialect::V1, "getComponent0"))
        );
        assert_eq!(dialect("move(s7, s0)\nsign(s0, s1)"), Some((Dialect::V1, "s7")));
        // A name that is no call is no form: `sign` without `(`, `z` before it.
        assert_eq!(
            dialect("sign s0, s1\nz(s0)\nreadMemory(s0, s1)"),
            Some((Dialect::V2, "readMemory"))
        );
    }

    #[test]
    fn v2_numbers_are_decimal_digits_up_to_24_bits() {
        use WholeProblem::*;
        assert_eq!(parse_whole("0"), Ok(0.0));
        assert_eq!(parse_whole("007"), Ok(7.0));
        assert_eq!(parse_whole("16777215"), Ok(16_777_215.0));
        assert_eq!(parse_whole("000000000000000000016777215"), Ok(16_777_215.0));
        let not = |p| Err(NumberError::NotWhole(p));
        assert_eq!(parse_whole("16777216"), not(TooLarge));
        assert_eq!(parse_whole("99999999999999999999999"), not(TooLarge));
        assert_eq!(parse_whole("-1"), not(Negative));
        assert_eq!(parse_whole("+1"), not(Sign));
        assert_eq!(parse_whole("1.0"), not(Fraction));
        assert_eq!(parse_whole("1e3"), not(Exponent));
        assert_eq!(parse_whole("0x10"), Err(NumberError::Malformed(NumberProblem::Hex)));
    }

    #[test]
    fn a_program_is_stored_as_v2_only_when_it_uses_a_v2_form() {
        let shared = crate::assemble_text_in("load(s0, 1)\nsetComponent0(c, s0)\n", DialectChoice::Named(Dialect::V1))
            .expect("v1");
        assert_eq!(&bytecode_bytes(&shared)[4..8], [1, 0, 0, 0]);
        let v2 = crate::assemble_text("load(s0, 1)\nsetComponent(c, s0, z)\n").expect("v2");
        assert_eq!(&bytecode_bytes(&v2)[4..8], [1, 0, 1, 0]);
        let named = crate::assemble_text_in("load(s0, 1)\nmove(s0, s1)\n", DialectChoice::Named(Dialect::V2))
            .expect("shared forms in v2");
        assert_eq!(Dialect::of(&named), Dialect::V1);
    }
}
