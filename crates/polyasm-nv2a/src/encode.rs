//! Statements → instructions, with every check: register names and ranges, swizzles and
//! masks, uniforms, macros, and the pairing rules (merging double outputs, giving MOVs to the
//! free unit, shared V/CONST/slot C, one o/c output).

use polyasm_core::diagnostic;
use polyasm_core::front::{Bounded, HasSpan, TextRange, span_from};
use polyasm_core::number::parse_int_literal;
use polyasm_core::text::{NameMap, SuggestionBudget, suggest};
use polyasm_core::{Object, Outcome, Source as SourceFile, SourceId, Span, Symbol};

use crate::error::{CONSTANT_RANGE, Nv2aError, constant_name};
use crate::ops::{
    CONSTANTS, DestKind, Field, INPUT_NAMES, INPUTS, InputSlot, MAX_PAIRED, Mux, OUTPUTS, Op, OpInfo, OutputInfo,
    PAIRED_ILU_TEMP, R12, Slot, UNIFORM_KINDS, UniformKind, Unit, WORDS_PER_INSTRUCTION, WRITABLE_TEMPS, mask_bit,
    output_by_name, pack_swizzle,
};
use crate::options::AssembleOptions;
use crate::parser::{Index, Operand, Operation as ParsedOperation, Reg, Statement};

pub use crate::operation::{
    Dest, DestReg, MovWrites, Operation, Regroup, Source, SrcReg, first_mov_on_mac, regroup_same_source,
};

/// An operation with the spans it was written at.
#[derive(Clone, Copy, Debug)]
struct Resolved {
    operation: Operation,
    span: TextRange,
    dest_span: TextRange,
    source_spans: [TextRange; 3],
}

/// One unit's work after merging: an operation with up to two destinations.
#[derive(Clone, Copy, Debug)]
struct UnitOp {
    info: &'static OpInfo,
    sources: [Source; 3],
    source_spans: [TextRange; 3],
    /// Register, mask, span.
    temp: Option<(u8, u8, TextRange)>,
    /// o- or c-register, mask, span.
    out: Option<(DestReg, u8, TextRange)>,
    span: TextRange,
}

impl UnitOp {
    fn new(r: &Resolved) -> UnitOp {
        UnitOp {
            info: r.operation.op.info(),
            sources: r.operation.sources,
            source_spans: r.source_spans,
            temp: None,
            out: None,
            span: r.span,
        }
    }

    fn writes(&self) -> MovWrites {
        MovWrites {
            temp: self.temp.map(|(register, _, _)| register),
            out: self.out.is_some(),
        }
    }

    fn sources(&self) -> impl Iterator<Item = (&Source, &TextRange)> {
        let n = self.info.sources();
        self.sources[..n].iter().zip(&self.source_spans[..n])
    }
}

/// Listing note of the final marker `--explicit-final` appends.
pub const APPENDED_FINAL: &str = "final marker appended by --explicit-final";

#[derive(Clone, Copy, Debug)]
struct Uniform {
    base: u8,
    rows: u8,
    span: Span,
}

/// A register name, resolved.
pub(crate) enum Named {
    Temp(u32),
    Input(u32),
    Const(u32),
    Output(&'static OutputInfo),
    Address,
}

pub(crate) enum NameError {
    Unknown,
    OutOfRange(&'static str),
}

/// Resolves `r3`, `v0`, `iPos`, `c12`, `oD0`, `a0`, ... in any letter case.
pub(crate) fn resolve_name(name: &str) -> Result<Named, NameError> {
    // Numbered registers first: they are most of what programs write, and no spelled-out name
    // is a letter followed by digits only.
    if let Some((&prefix, digits)) = name.as_bytes().split_first()
        && !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
    {
        // Saturates: a huge number is out of range like any other past the last register.
        let n = digits
            .iter()
            .fold(0u32, |n, d| n.saturating_mul(10).saturating_add(u32::from(d - b'0')));
        return match prefix.to_ascii_lowercase() {
            b'r' if n <= u32::from(R12) => Ok(Named::Temp(n)),
            b'r' => Err(NameError::OutOfRange("r0 to r11, and r12 (read-only oPos)")),
            b'v' if n < u32::from(INPUTS) => Ok(Named::Input(n)),
            b'v' => Err(NameError::OutOfRange("v0 to v15")),
            b'c' if n < u32::from(CONSTANTS) => Ok(Named::Const(n)),
            b'c' => Err(NameError::OutOfRange(CONSTANT_RANGE)),
            b'a' if digits == b"0" => Ok(Named::Address),
            _ => Err(NameError::Unknown),
        };
    }
    // Spelled-out inputs start with `i`, outputs with `o`.
    match name.as_bytes().first().map(u8::to_ascii_lowercase) {
        Some(b'i') => match INPUT_NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)) {
            Some(i) => Ok(Named::Input(i as u32)),
            None => Err(NameError::Unknown),
        },
        Some(b'o') => output_by_name(name).map(Named::Output).ok_or(NameError::Unknown),
        _ => Err(NameError::Unknown),
    }
}

/// Every spelled-out register name, for "did you mean".
fn register_names() -> impl Iterator<Item = &'static str> {
    INPUT_NAMES
        .iter()
        .copied()
        .chain(OUTPUTS.iter().flat_map(|o| [o.long, o.short]))
        .chain(["a0"])
}

/// A lane letter in either case: its lane, and whether it is one of `rgba`.
fn lane_of(c: u8) -> Option<(u8, bool)> {
    match c.to_ascii_lowercase() {
        b'x' => Some((0, false)),
        b'y' => Some((1, false)),
        b'z' => Some((2, false)),
        b'w' => Some((3, false)),
        b'r' => Some((0, true)),
        b'g' => Some((1, true)),
        b'b' => Some((2, true)),
        b'a' => Some((3, true)),
        _ => None,
    }
}

/// Reads `.xyz` letters as lanes: the lanes, how many, and whether `xyzw` and `rgba` letters
/// are mixed (nv2avsh reads each letter on its own: `.xyA` is `.xyw`); `Err` says what is wrong.
fn lanes(text: &str) -> Result<([u8; 4], usize, bool), &'static str> {
    let letters = text.as_bytes().get(1..).unwrap_or_default();
    if letters.len() > 4 {
        return Err("more than 4 lanes");
    }
    let mut out = [0u8; 4];
    let mut color = None;
    let mut mixed = false;
    for (i, &c) in letters.iter().enumerate() {
        let (lane, is_color) = lane_of(c).ok_or("lanes are x, y, z, w (or r, g, b, a)")?;
        mixed |= color.is_some_and(|was| was != is_color);
        color = Some(is_color);
        out[i] = lane;
    }
    Ok((out, letters.len(), mixed))
}

/// `.xyA` as `.xyw`: the same lanes in `xyzw` letters, for a warning's fix.
fn xyzw_spelling(text: &str) -> String {
    let letters = text.as_bytes().get(1..).unwrap_or_default();
    std::iter::once('.')
        .chain(
            letters
                .iter()
                .filter_map(|&c| lane_of(c))
                .map(|(lane, _)| crate::ops::LANES[usize::from(lane)]),
        )
        .collect()
}

/// Parses a source swizzle: 1–4 lanes, padded by repeating the last; and whether its letters
/// mix `xyzw` and `rgba`.
pub fn parse_swizzle(text: &str) -> Result<([u8; 4], bool), &'static str> {
    let (mut lanes, n, mixed) = lanes(text)?;
    for i in n..4 {
        lanes[i] = lanes[n - 1];
    }
    Ok((lanes, mixed))
}

/// Parses a write mask: lanes in xyzw order, each once; and whether its letters mix `xyzw`
/// and `rgba`.
fn parse_mask(text: &str) -> Result<(u8, bool), (&'static str, String)> {
    let (lanes, n, mixed) =
        lanes(text).map_err(|p| (p, "a mask is lanes in x, y, z, w order, e.g. `.xyz`".to_string()))?;
    let lanes = &lanes[..n];
    let mask = lanes
        .iter()
        .fold(0u8, |mask, &lane| mask | mask_bit(usize::from(lane)) as u8);
    if mask.count_ones() as usize != n {
        return Err(("a lane is named twice", "name each lane once".to_string()));
    }
    if !lanes.is_sorted_by(|a, b| a < b) {
        let letters: String = (0..4)
            .filter(|&lane| mask & mask_bit(lane) as u8 != 0)
            .map(|lane| crate::ops::LANES[lane])
            .collect();
        return Err((
            "lanes out of x, y, z, w order",
            format!("write `.{letters}` and reorder the source swizzle to match"),
        ));
    }
    Ok((mask, mixed))
}

/// Turns statements into an [`Object`], collecting every error.
pub struct Encoder<'s> {
    file: SourceId,
    source: &'s SourceFile,
    object: Object,
    errors: Vec<Nv2aError>,
    options: AssembleOptions,
    instructions: usize,
    last_is_operation: bool,
    uniforms: NameMap<&'s str, Uniform>,
    /// Uses of undeclared uniforms: error index and name, to tell at the end if it came later.
    undeclared: Vec<(usize, &'s str)>,
    /// "Did you mean" among the declared uniforms, whose number grows with the input.
    suggestions: SuggestionBudget,
}

impl<'s> Encoder<'s> {
    /// An encoder of `file` that records listing entries when `listed` is set.
    pub fn new(file: SourceId, source: &'s SourceFile, options: AssembleOptions, listed: bool) -> Encoder<'s> {
        // About one instruction per line: grow the output once, not by doubling.
        let lines = polyasm_core::lines::count_line_breaks(source.text()) + 1;
        let mut object = Object::assembled_from(4, file, listed);
        object.reserve(
            options.max_instructions.map_or(lines, |max| lines.min(max + 1)),
            WORDS_PER_INSTRUCTION,
        );
        Encoder {
            file,
            source,
            object,
            errors: Vec::new(),
            options,
            instructions: 0,
            last_is_operation: false,
            uniforms: NameMap::default(),
            undeclared: Vec::new(),
            suggestions: SuggestionBudget::new(source.text().len()),
        }
    }

    fn span(&self, range: TextRange) -> Span {
        range.in_source(self.file)
    }

    /// The source text `range` covers.
    fn text(&self, range: TextRange) -> &'s str {
        range.text(self.source.text())
    }

    /// Records an error or warning; diagnostics are made when encoding ends.
    pub fn error(&mut self, error: Nv2aError) {
        self.errors.push(error);
    }

    /// Encodes one statement (or records why it cannot be); `arena` holds the operands it
    /// was parsed with.
    pub fn statement(&mut self, statement: &Statement, arena: &[Operand]) {
        match statement {
            Statement::Operation(operation) => {
                self.instruction_statement(std::slice::from_ref(operation), arena, None);
            }
            Statement::Uniform { name, kind, value } => self.declare(*name, *kind, *value),
            Statement::Macro {
                name: name_span,
                operands,
                span,
            } => {
                let span = self.span(*span);
                let name = self.text(*name_span);
                let operands = operands.of(arena);
                let expansion = if operands.len() != 3 {
                    self.error(Nv2aError::BadMacro {
                        span: self.span(span_from(operands, 3).unwrap_or(*name_span)),
                        message: format!("`{name}` takes 3 operands, found {}", operands.len()),
                        label: if operands.len() > 3 {
                            "extra operand".into()
                        } else {
                            "operands missing".into()
                        },
                        help: macro_syntax(name),
                    });
                    None
                } else {
                    self.expand_macro(name, *name_span, operands)
                };
                match expansion {
                    Some((slots, count)) => {
                        for slot in &slots[..count] {
                            self.push(Some(*slot), span, true);
                        }
                    }
                    // A failed macro still counts its instructions for the length check.
                    None => {
                        let count = if name.eq_ignore_ascii_case("%norm3") { 3 } else { 4 };
                        for _ in 0..count {
                            self.push(None, span, true);
                        }
                    }
                }
            }
            Statement::Directive { name, values } => {
                let span = self.span(statement.span());
                let slot = self.directive(self.text(*name), *name, values);
                self.push(slot, span, false);
            }
        }
    }

    /// Encodes one instruction from its operations (one to three joined by `+`), or records why
    /// it cannot be. `extra` counts and spans the operations written past the third.
    pub fn instruction_statement(
        &mut self,
        ops: &[ParsedOperation],
        arena: &[Operand],
        extra: Option<(usize, TextRange)>,
    ) {
        let (Some(first), Some(last)) = (ops.first(), ops.last()) else {
            return;
        };
        let span = self.span(first.span().to(last.span()));
        if let Some((found, extra)) = extra {
            self.error(Nv2aError::TooManyOperations {
                span: self.span(extra),
                found,
            });
            self.push(None, span, true);
            return;
        }
        let mut resolved = [None; 3];
        for (slot, op) in resolved.iter_mut().zip(ops) {
            *slot = self.operation(op, arena);
        }
        let slot = match resolved {
            [Some(a), None, None] if ops.len() == 1 => self.instruction(&[a]),
            [Some(a), Some(b), None] if ops.len() == 2 => self.instruction(&[a, b]),
            [Some(a), Some(b), Some(c)] => self.instruction(&[a, b, c]),
            _ => None,
        };
        self.push(slot, span, true);
    }

    /// Counts an instruction that did not parse, so the length check stays right.
    pub fn failed_instruction(&mut self, span: TextRange) {
        let span = self.span(span);
        self.push(None, span, true);
    }

    /// Counts an instruction (checking the program length) and appends it if it encoded.
    fn push(&mut self, slot: Option<Slot>, span: Span, is_operation: bool) {
        if self.options.max_instructions == Some(self.instructions) {
            self.error(Nv2aError::TooManyInstructions { span });
        }
        self.instructions += 1;
        if let Some(slot) = slot {
            self.object
                .push(self.instructions as u32 - 1, &slot.0, Some(span), None);
            self.last_is_operation = is_operation;
        }
    }

    fn number(&mut self, range: TextRange) -> Option<u64> {
        let text = self.text(range);
        match parse_int_literal(text) {
            Ok(v) => Some(v),
            Err(error) => {
                self.error(Nv2aError::InvalidInteger {
                    span: self.span(range),
                    text: text.to_string(),
                    error,
                });
                None
            }
        }
    }

    fn declare(&mut self, name_span: TextRange, kind_span: TextRange, value: TextRange) {
        let (name, kind) = (self.text(name_span), self.text(kind_span));
        let span = self.span(name_span);
        let Some(&UniformKind { name: kind, rows }) = UNIFORM_KINDS.iter().find(|k| k.name.eq_ignore_ascii_case(kind))
        else {
            let [vector, matrix] = UNIFORM_KINDS.map(|k| k.name);
            self.error(Nv2aError::BadUniformDeclaration {
                span: self.span(kind_span),
                message: format!("unknown uniform type `{kind}`"),
                label: format!("expected `{vector}` or `{matrix}`"),
                help: format!("write `{name} {vector} N` or `{name} {matrix} N`"),
            });
            return;
        };
        let Some(base) = self.number(value) else {
            return;
        };
        let last = u64::from(CONSTANTS) - u64::from(rows);
        if base > last {
            self.error(Nv2aError::BadUniformDeclaration {
                span: self.span(value),
                message: format!("`{name}` does not fit in the constant registers"),
                label: if rows == 1 {
                    format!("c{base} does not exist")
                } else {
                    format!("c{base} to c{} do not all exist", base + 3)
                },
                help: format!("a {kind} starts at c0 to c{last}"),
            });
            return;
        }
        if let Some(first) = self.uniforms.get(name) {
            self.error(Nv2aError::DuplicateUniform {
                span,
                first: first.span,
                name: name.to_string(),
            });
            return;
        }
        self.uniforms.insert(
            name,
            Uniform {
                base: base as u8,
                rows,
                span,
            },
        );
        if let Some(names) = &self.options.names {
            let registers = match rows {
                1 => format!("c{base}"),
                _ => format!("c{base}...c{}", base + u64::from(rows) - 1),
            };
            names.define(name, kind, span, registers);
        }
        self.object.symbols.push(Symbol {
            name: name.to_string(),
            value: base,
            size: u64::from(rows),
            kind,
            span: Some(self.span(name_span.to(value))),
        });
    }

    /// The constant a `#name` or `#name[row]` names.
    fn uniform(&mut self, name_range: TextRange, row: Option<TextRange>, span: TextRange) -> Option<u8> {
        let name = self.text(name_range);
        let Some(uniform) = self.uniforms.get(name).copied() else {
            let suggestion = self
                .suggestions
                .suggest(name, self.uniforms.keys().copied())
                .map(|s| format!("did you mean `{s}`?"));
            self.undeclared.push((self.errors.len(), name));
            self.error(Nv2aError::UndeclaredUniform {
                span: self.span(span),
                name: name.to_string(),
                suggestion,
            });
            return None;
        };
        self.used(name_range, uniform);
        let row = match row {
            None if uniform.rows > 1 => {
                self.error(Nv2aError::BadMatrixRow {
                    span: self.span(span),
                    message: format!("matrix `{name}` needs a row here"),
                    label: "which of the 4 rows?".into(),
                    help: format!("write `{name}[0]` to `{name}[3]`"),
                });
                return None;
            }
            None => 0,
            Some(range) => {
                let row = self.number(range)?;
                if row >= u64::from(uniform.rows) {
                    let help = if uniform.rows == 1 {
                        format!("`{name}` is a vector: write `{name}` or `{name}[0]`")
                    } else {
                        format!("`{name}` is a matrix4: rows 0 to 3")
                    };
                    self.error(Nv2aError::BadMatrixRow {
                        span: self.span(range),
                        message: format!("`{name}` has no row {row}"),
                        label: "out of range".into(),
                        help,
                    });
                    return None;
                }
                row as u8
            }
        };
        Some(uniform.base + row)
    }

    /// Records that `name` uses `uniform`, for editors.
    fn used(&self, name: TextRange, uniform: Uniform) {
        if let Some(names) = &self.options.names {
            names.used(self.span(name), uniform.span);
        }
    }

    fn name_error(&mut self, name: &str, span: TextRange, error: NameError) {
        let span = self.span(span);
        self.error(match error {
            NameError::Unknown => Nv2aError::UnknownRegister {
                span,
                name: name.to_string(),
                suggestion: suggest(name, register_names()).map(str::to_string),
            },
            NameError::OutOfRange(range) => Nv2aError::RegisterOutOfRange {
                span,
                name: name.to_string(),
                range,
            },
        });
    }

    /// The constant index of `c[...]`, and whether it is relative to a0.
    fn indexed(&mut self, base: TextRange, index: &Index, span: TextRange) -> Option<(u8, bool)> {
        let base = self.text(base);
        if !base.eq_ignore_ascii_case("c") {
            self.error(Nv2aError::UnknownRegister {
                span: self.span(span),
                name: format!("{base}[...]"),
                suggestion: Some("c[...]".into()),
            });
            return None;
        }
        let (number, relative) = match *index {
            Index::Absolute(number) => (Some(number), false),
            Index::Relative { register, offset } => {
                let name = self.text(register);
                if !name.eq_ignore_ascii_case("a0") {
                    self.error(Nv2aError::UnknownRegister {
                        span: self.span(register),
                        name: name.to_string(),
                        suggestion: Some("A0".into()),
                    });
                    return None;
                }
                (offset, true)
            }
        };
        let value = match number {
            Some(number) => self.number(number)?,
            None => 0,
        };
        if value >= u64::from(CONSTANTS) {
            self.error(Nv2aError::RegisterOutOfRange {
                span: self.span(span),
                name: constant_name(value.min(u64::from(u32::MAX)) as u32, relative),
                range: if relative {
                    "offsets 0 to 191 in c[A0+N]"
                } else {
                    CONSTANT_RANGE
                },
            });
            return None;
        }
        Some((value as u8, relative))
    }

    fn source(&mut self, operand: &Operand, op: &str) -> Option<Source> {
        let reg = match operand.reg {
            Reg::Name(name) => match resolve_name(self.text(name)) {
                Ok(Named::Temp(i)) => SrcReg::Temp(i as u8),
                Ok(Named::Input(i)) => SrcReg::Input(i as u8),
                Ok(Named::Const(i)) => SrcReg::Const {
                    index: i as u8,
                    relative: false,
                },
                Ok(Named::Output(out)) => {
                    let help = if out.address == 0 {
                        "read r12, the read-only view of oPos".to_string()
                    } else {
                        "outputs are write-only; keep the value in a temporary as well".to_string()
                    };
                    self.error(Nv2aError::NotReadable {
                        span: self.span(operand.reg_span),
                        what: format!("output register `{}`", self.text(name)),
                        help,
                    });
                    return None;
                }
                Ok(Named::Address) => {
                    self.error(Nv2aError::NotReadable {
                        span: self.span(operand.reg_span),
                        what: "the address register a0".into(),
                        help: "a0 only indexes constants: `c[A0+N]`".into(),
                    });
                    return None;
                }
                Err(e) => {
                    self.name_error(self.text(name), operand.reg_span, e);
                    return None;
                }
            },
            Reg::Indexed { base, index } => {
                let (index, relative) = self.indexed(base, &index, operand.reg_span)?;
                SrcReg::Const { index, relative }
            }
            Reg::Uniform { name, row } => SrcReg::Const {
                index: self.uniform(name, row, operand.reg_span)?,
                relative: false,
            },
            Reg::Number(number) => return self.number_operand(op, number),
        };
        let swizzle = match operand.suffix {
            None => [0, 1, 2, 3],
            Some(range) => match parse_swizzle(self.text(range)) {
                Ok((lanes, mixed)) => {
                    if mixed {
                        self.mixed_letters(range, "swizzle");
                    }
                    lanes
                }
                Err(problem) => {
                    let text = self.text(range);
                    self.error(Nv2aError::BadSwizzle {
                        span: self.span(range),
                        text: text.to_string(),
                        problem,
                    });
                    return None;
                }
            },
        };
        Some(Source {
            reg,
            swizzle,
            negate: operand.negate.is_some(),
        })
    }

    /// Warns that the swizzle or mask at `range` mixes `xyzw` and `rgba` letters.
    fn mixed_letters(&mut self, range: TextRange, what: &'static str) {
        let text = self.text(range);
        self.error(Nv2aError::MixedLaneLetters {
            span: self.span(range),
            text: text.to_string(),
            xyzw: xyzw_spelling(text),
            what,
        });
    }

    /// A number written where `op` takes a register.
    fn number_operand<T>(&mut self, op: &str, number: TextRange) -> Option<T> {
        self.error(Nv2aError::WrongOperandKind {
            span: self.span(number),
            op: op.to_string(),
            number: self.text(number).to_string(),
        });
        None
    }

    fn not_writable(&mut self, range: TextRange, what: String, help: &str) -> Option<Dest> {
        self.error(Nv2aError::NotWritable {
            span: self.span(range),
            what,
            help: help.to_string(),
        });
        None
    }

    fn dest(&mut self, operand: &Operand, kind: DestKind, op: &str) -> Option<Dest> {
        if let Some(minus) = operand.negate {
            return self.not_writable(
                minus.to(operand.reg_span),
                "a negated register".into(),
                "negate a source instead, e.g. `mov r0, -v0`",
            );
        }
        let span = operand.reg_span;
        let reg = match operand.reg {
            Reg::Name(name) => match resolve_name(self.text(name)) {
                Ok(Named::Temp(i)) if i < u32::from(WRITABLE_TEMPS) => DestReg::Temp(i as u8),
                Ok(Named::Temp(_)) => {
                    return self.not_writable(
                        span,
                        "r12".into(),
                        "r12 is a read-only view of oPos; write oPos instead",
                    );
                }
                Ok(Named::Input(i)) => {
                    let name = self.text(name);
                    return self.not_writable(
                        span,
                        if name.len() > 3 {
                            format!("input register `{name}` (v{i})")
                        } else {
                            format!("input register `{name}`")
                        },
                        "inputs are read-only; write a temporary (r0 to r11) or an output",
                    );
                }
                Ok(Named::Const(i)) => DestReg::Const(i as u8),
                Ok(Named::Output(out)) => DestReg::Output(out.address),
                Ok(Named::Address) => DestReg::Address,
                Err(e) => {
                    self.name_error(self.text(name), span, e);
                    return None;
                }
            },
            Reg::Indexed { base, index } => match self.indexed(base, &index, span)? {
                (_, true) => {
                    return self.not_writable(
                        span,
                        "a relative constant".into(),
                        "constants are written at an absolute address: `cN` or `c[N]`",
                    );
                }
                (index, false) => DestReg::Const(index),
            },
            Reg::Uniform { name, row } => DestReg::Const(self.uniform(name, row, span)?),
            Reg::Number(number) => return self.number_operand(op, number),
        };
        match (kind, reg) {
            (DestKind::Address, DestReg::Address) | (DestKind::Register, DestReg::Temp(_) | DestReg::Output(_)) => {}
            (DestKind::Register, DestReg::Const(_)) => {}
            (DestKind::Address, _) => {
                self.error(Nv2aError::ArlDestination {
                    span: self.span(span),
                    register: self.text(span).to_string(),
                });
                return None;
            }
            (DestKind::Register, DestReg::Address) => {
                return self.not_writable(span, "a0".into(), "a0 is written by `arl a0, src`");
            }
        }
        let mask = match operand.suffix.map(|range| (self.text(range), range)) {
            None => 0xf,
            Some((text, range)) => match parse_mask(text) {
                // a0 has one lane, which arl always writes: nv2avsh ignores the mask, and so
                // does polyasm, with a warning unless it names just x.
                Ok((mask, _)) if reg == DestReg::Address => {
                    if mask != mask_bit(0) as u8 {
                        self.error(Nv2aError::AddressMask {
                            span: self.span(range),
                            text: text.to_string(),
                        });
                    }
                    mask_bit(0) as u8
                }
                Ok((mask, mixed)) => {
                    if mixed {
                        self.mixed_letters(range, "mask");
                    }
                    mask
                }
                Err((problem, help)) => {
                    let help = if reg == DestReg::Address {
                        "write `a0`: arl always writes its one lane".to_string()
                    } else {
                        help
                    };
                    self.error(Nv2aError::BadMask {
                        span: self.span(range),
                        text: text.to_string(),
                        problem,
                        help,
                    });
                    return None;
                }
            },
        };
        Some(Dest { reg, mask })
    }

    /// Resolves one written operation; `None` after recording its errors.
    fn operation(&mut self, parsed: &ParsedOperation, arena: &[Operand]) -> Option<Resolved> {
        let mnemonic = self.text(parsed.mnemonic);
        let Some(op) = Op::from_mnemonic_ignore_case(mnemonic) else {
            self.error(Nv2aError::UnknownMnemonic {
                span: self.span(parsed.mnemonic),
                name: mnemonic.to_string(),
                suggestion: Op::suggest(&mnemonic.to_ascii_lowercase()),
            });
            return None;
        };
        let info = op.info();
        let takes = 1 + info.sources();
        let operands = parsed.operands.of(arena);
        if operands.len() != takes {
            // Extra operands are marked; a missing one is marked after the last token.
            let span = span_from(operands, takes).unwrap_or(operands.last().map_or(parsed.mnemonic, |o| o.span()));
            self.error(Nv2aError::OperandCount {
                span: self.span(span),
                head: self.span(parsed.mnemonic),
                name: mnemonic.to_string(),
                takes,
                found: operands.len(),
                syntax: syntax(info),
            });
            return None;
        }
        let [dest_operand, source_operands @ ..] = operands else {
            unreachable!("an operation takes at least two operands and has `takes` of them");
        };
        let dest = self.dest(dest_operand, info.dest, info.mnemonic);
        let mut sources = [Source::default(); 3];
        let mut source_spans = [TextRange::default(); 3];
        let mut ok = dest.is_some();
        for (i, operand) in source_operands.iter().enumerate() {
            source_spans[i] = operand.span();
            match self.source(operand, info.mnemonic) {
                Some(source) => sources[i] = source,
                None => ok = false,
            }
        }
        Some(Resolved {
            operation: Operation {
                op,
                dest: dest.filter(|_| ok)?,
                sources,
            },
            span: parsed.span(),
            dest_span: dest_operand.span(),
            source_spans,
        })
    }

    /// Merges, distributes and encodes the operations of one instruction.
    fn instruction(&mut self, ops: &[Resolved]) -> Option<Slot> {
        // Most instructions are one operation: nothing to merge or distribute. It runs on its
        // own unit (a MOV, which has both, on the MAC), as the steps below would place it.
        if let [only] = ops {
            let mut unit = UnitOp::new(only);
            let dest = only.operation.dest;
            match dest.reg {
                DestReg::Address => {}
                DestReg::Temp(reg) => unit.temp = Some((reg, dest.mask, only.dest_span)),
                reg @ (DestReg::Output(_) | DestReg::Const(_)) => unit.out = Some((reg, dest.mask, only.dest_span)),
            }
            self.check_shared_indices(std::iter::once(&unit))?;
            return Some(match unit.info.mac {
                Some(_) => encode_units(Some(&unit), None),
                None => encode_units(None, Some(&unit)),
            });
        }
        // 1. Merge the same operation on the same inputs into one unit op with two outputs.
        // Inline lists (an instruction is encoded a million times a second): the first op
        // fills the unused places.
        let mut units = [UnitOp::new(ops.first()?); MAX_PAIRED];
        let mut count = 0;
        for r in ops {
            let n = r.operation.op.info().sources();
            let is_temp = matches!(r.operation.dest.reg, DestReg::Temp(_));
            // Two MOVs of one input that the MAC cannot merge (both write temps, or both o/c)
            // may still run on both units.
            let mergeable =
                |u: &UnitOp| r.operation.op != Op::Mov || if is_temp { u.temp.is_none() } else { u.out.is_none() };
            let index = match units[..count]
                .iter()
                .position(|u| u.info.op == r.operation.op && u.sources[..n] == r.operation.sources[..n] && mergeable(u))
            {
                Some(i) => i,
                None => {
                    units[count] = UnitOp::new(r);
                    count += 1;
                    count - 1
                }
            };
            let unit = &mut units[index];
            let mask = r.operation.dest.mask;
            match r.operation.dest.reg {
                DestReg::Address => {}
                DestReg::Temp(reg) => match unit.temp {
                    Some((_, _, first)) => {
                        self.error(Nv2aError::TwoTempWrites {
                            first: self.span(first),
                            second: self.span(r.dest_span),
                        });
                        return None;
                    }
                    None => unit.temp = Some((reg, mask, r.dest_span)),
                },
                reg @ (DestReg::Output(_) | DestReg::Const(_)) => match unit.out {
                    Some((_, _, first)) => {
                        self.error(Nv2aError::SecondOutput {
                            first: self.span(first),
                            second: self.span(r.dest_span),
                        });
                        return None;
                    }
                    None => unit.out = Some((reg, mask, r.dest_span)),
                },
            }
        }

        // 2. Give each unit op a unit; MOVs take whichever is free.
        let mut mac: Option<UnitOp> = None;
        let mut ilu: Option<UnitOp> = None;
        let units = &units[..count];
        let mut movs = [None; MAX_PAIRED];
        let mut mov_count = 0;
        for unit in units {
            let (place, kind) = match (unit.info.op, unit.info.mac) {
                (Op::Mov, _) => {
                    movs[mov_count] = Some(*unit);
                    mov_count += 1;
                    continue;
                }
                (_, Some(_)) => (&mut mac, Unit::Mac),
                (_, None) => (&mut ilu, Unit::Ilu),
            };
            if let Some(first) = place {
                self.error(Nv2aError::UnitConflict {
                    first: self.span(first.span),
                    second: self.span(unit.span),
                    unit: kind,
                });
                return None;
            }
            *place = Some(*unit);
        }
        if units.len() > 2 {
            self.error(Nv2aError::TooManyOperations {
                span: self.span(units[2].span),
                found: units.len(),
            });
            return None;
        }
        let non_r1_temp = |u: &UnitOp| u.temp.is_some_and(|(r, _, _)| r != PAIRED_ILU_TEMP);
        let mov_to_ilu = match (&movs[..mov_count], mac.is_some()) {
            ([], _) => None,
            ([only], false) => {
                mac = *only;
                None
            }
            ([only], true) => *only,
            ([Some(first), Some(second)], _) => {
                let (mut first, mut second) = (*first, *second);
                if first.sources[0] == second.sources[0] {
                    match regroup_same_source(first.writes(), second.writes()) {
                        Some(Regroup::OutToSecond) => second.out = first.out.take(),
                        Some(Regroup::OutToFirst) => first.out = second.out.take(),
                        None => {}
                    }
                }
                let (to_mac, to_ilu) = if first_mov_on_mac(first.writes(), second.writes()) {
                    (first, second)
                } else {
                    (second, first)
                };
                mac = Some(to_mac);
                Some(to_ilu)
            }
            _ => unreachable!("at most two unit ops, all set, remain after the count check"),
        };
        if let Some(mov) = mov_to_ilu {
            if let Some((register, _, span)) = mov.temp.filter(|_| non_r1_temp(&mov)) {
                self.error(Nv2aError::IluMovTemp {
                    span: self.span(span),
                    other: self.span(mac.map_or(mov.span, |m| m.span)),
                    register: u32::from(register),
                });
                return None;
            }
            ilu = Some(mov);
        }

        // 3. Shared resources: one o/c output, input C, one V index, one CONST index.
        if let (Some(m), Some(i)) = (&mac, &ilu) {
            if let (Some((_, _, first)), Some((_, _, second))) = (m.out, i.out) {
                self.error(Nv2aError::SecondOutput {
                    first: self.span(first),
                    second: self.span(second),
                });
                return None;
            }
            if let Some(c) = m.info.mac_slots.iter().position(|&s| s == InputSlot::C) {
                let mut mac_c = m.sources[c];
                mac_c.negate ^= m.info.negate_c;
                if mac_c != i.sources[0] {
                    self.error(Nv2aError::InputCMismatch {
                        mac: self.span(m.source_spans[c]),
                        ilu: self.span(i.source_spans[0]),
                    });
                    return None;
                }
            }
            if let Some((register, _, span)) = i.temp.filter(|_| non_r1_temp(i) && i.info.op != Op::Mov) {
                self.error(Nv2aError::PairedIluTemp {
                    span: self.span(span),
                    register: u32::from(register),
                });
            }
        }
        self.check_shared_indices(mac.iter().chain(&ilu))?;
        if let (Some(m), Some(i)) = (&mac, &ilu)
            && let Some((_, _, mac_span)) = m.temp.filter(|&(register, _, _)| register == PAIRED_ILU_TEMP)
        {
            self.error(Nv2aError::PairedMacR1 {
                span: self.span(mac_span),
                ilu: self.span(i.temp.map_or(i.span, |(_, _, span)| span)),
                ilu_writes_r1: i.temp.is_some(),
            });
        }
        Some(encode_units(mac.as_ref(), ilu.as_ref()))
    }

    /// One V index and one CONST index (absolute or relative) per instruction.
    fn check_shared_indices<'u>(&mut self, units: impl Iterator<Item = &'u UnitOp> + Clone) -> Option<()> {
        let mut input: Option<(u8, TextRange)> = None;
        let mut constant: Option<(u8, bool, TextRange)> = None;
        for unit in units {
            for (source, &span) in unit.sources() {
                match source.reg {
                    SrcReg::Temp(_) => {}
                    SrcReg::Input(v) => match input {
                        Some((first_v, first)) if first_v != v => {
                            self.error(Nv2aError::TwoInputRegisters {
                                first: self.span(first),
                                second: self.span(span),
                                registers: (u32::from(first_v), u32::from(v)),
                            });
                            return None;
                        }
                        Some(_) => {}
                        None => input = Some((v, span)),
                    },
                    SrcReg::Const { index, relative } => match constant {
                        Some((_, first_relative, first)) if first_relative != relative => {
                            let (relative, absolute) = if relative { (span, first) } else { (first, span) };
                            self.error(Nv2aError::MixedRelativeConstants {
                                relative: self.span(relative),
                                absolute: self.span(absolute),
                            });
                            return None;
                        }
                        Some((first_index, _, first)) if first_index != index => {
                            self.error(Nv2aError::TwoConstantRegisters {
                                first: self.span(first),
                                second: self.span(span),
                                registers: (
                                    constant_name(u32::from(first_index), relative),
                                    constant_name(u32::from(index), relative),
                                ),
                            });
                            return None;
                        }
                        Some(_) => {}
                        None => constant = Some((index, relative, span)),
                    },
                }
            }
        }
        Some(())
    }

    /// Expands `%matmul4x4` or `%norm3` into up to four instructions.
    fn expand_macro(&mut self, name: &str, name_span: TextRange, operands: &[Operand]) -> Option<([Slot; 4], usize)> {
        let [dst, src, third] = operands else {
            unreachable!("the caller checked for three operands");
        };
        let is_matmul = name.eq_ignore_ascii_case("%matmul4x4");
        if !is_matmul && !name.eq_ignore_ascii_case("%norm3") {
            self.error(Nv2aError::BadMacro {
                span: self.span(name_span),
                message: format!("unknown macro `{name}`"),
                label: "not a macro".into(),
                help: "the macros are `%matmul4x4 dst src #matrix` and `%norm3 dst src tmp`".into(),
            });
            return None;
        }
        for operand in [dst, third] {
            if let Some(range) = operand.suffix {
                self.error(Nv2aError::BadMacro {
                    span: self.span(range),
                    message: format!("`{name}` takes whole registers here"),
                    label: "no mask or swizzle here".into(),
                    help: macro_syntax(name),
                });
                return None;
            }
        }
        let dest = self.dest(dst, DestKind::Register, name)?;
        let source = self.source(src, name)?;
        let span = name_span.to(third.span());
        let (dest_span, src_span) = (dst.span(), src.span());
        let resolved = |op: Op, reg: DestReg, mask: u8, sources: [Source; 3], spans: [TextRange; 3]| Resolved {
            operation: Operation {
                op,
                dest: Dest { reg, mask },
                sources,
            },
            span,
            dest_span,
            source_spans: spans,
        };
        let mut slots = [Slot::BLANK; 4];
        if is_matmul {
            let matrix = match third.reg {
                Reg::Uniform {
                    name: matrix_range,
                    row,
                } => {
                    let matrix = self.text(matrix_range);
                    let uniform = self.uniforms.get(matrix).copied();
                    // nv2avsh takes an explicit row 0 as the whole matrix: `#m[0]` is `#m`.
                    let row_value = match (uniform, row) {
                        (Some(_), Some(range)) => Some(self.number(range)?),
                        _ => None,
                    };
                    match (uniform, row_value) {
                        (Some(u), None | Some(0)) if u.rows == 4 => {
                            self.used(matrix_range, u);
                            u.base
                        }
                        _ => {
                            if uniform.is_none() {
                                self.uniform(matrix_range, row, third.reg_span)?;
                            }
                            self.error(Nv2aError::BadMacro {
                                span: self.span(third.span()),
                                message: "`%matmul4x4` takes a whole matrix4 uniform".into(),
                                label: "not a whole matrix4 uniform".into(),
                                help: match uniform {
                                    Some(u) if u.rows == 4 => format!(
                                        "the macro multiplies by all four rows: write `{matrix}` (or `{matrix}[0]`)"
                                    ),
                                    _ => format!("declare `{matrix} matrix4 N` and write `{matrix}`"),
                                },
                            });
                            return None;
                        }
                    }
                }
                _ => {
                    self.error(Nv2aError::BadMacro {
                        span: self.span(third.span()),
                        message: "`%matmul4x4` takes a matrix4 uniform".into(),
                        label: "not a uniform".into(),
                        help: "declare `#m matrix4 N` and write `%matmul4x4 dst src #m`".into(),
                    });
                    return None;
                }
            };
            let matrix_span = third.span();
            for (row, slot) in slots.iter_mut().enumerate() {
                let row_source = Source {
                    reg: SrcReg::Const {
                        index: matrix + row as u8,
                        relative: false,
                    },
                    ..Source::default()
                };
                let r = resolved(
                    Op::Dp4,
                    dest.reg,
                    mask_bit(row) as u8,
                    [source, row_source, Source::default()],
                    [src_span, matrix_span, src_span],
                );
                *slot = self.instruction(&[r])?;
            }
            Some((slots, 4))
        } else {
            let tmp_dest = self.dest(third, DestKind::Register, name)?;
            let DestReg::Temp(tmp) = tmp_dest.reg else {
                self.error(Nv2aError::BadMacro {
                    span: self.span(third.span()),
                    message: "`%norm3` needs a temporary register to work in".into(),
                    label: "not r0 to r11".into(),
                    help: macro_syntax(name),
                });
                return None;
            };
            let tmp_span = third.span();
            let tmp_lane = |lane: u8| Source {
                reg: SrcReg::Temp(tmp),
                swizzle: [lane; 4],
                negate: false,
            };
            let steps = [
                resolved(
                    Op::Dp3,
                    tmp_dest.reg,
                    mask_bit(0) as u8,
                    [source, source, Source::default()],
                    [src_span, src_span, src_span],
                ),
                resolved(
                    Op::Rsq,
                    tmp_dest.reg,
                    mask_bit(3) as u8,
                    [tmp_lane(0), Source::default(), Source::default()],
                    [tmp_span; 3],
                ),
                resolved(
                    Op::Mul,
                    dest.reg,
                    0xe,
                    [source, tmp_lane(3), Source::default()],
                    [src_span, tmp_span, tmp_span],
                ),
            ];
            for (slot, step) in slots.iter_mut().zip(&steps) {
                *slot = self.instruction(std::slice::from_ref(step))?;
            }
            Some((slots, 3))
        }
    }

    fn directive(&mut self, name: &str, name_span: TextRange, values: &Bounded<TextRange, 4>) -> Option<Slot> {
        if name != ".word" {
            self.error(Nv2aError::BadDirective {
                span: self.span(name_span),
                message: format!("unknown directive `{name}`"),
                label: "not a directive".into(),
                help: "the only directive is `.word d0, d1, d2, d3`".into(),
            });
            return None;
        }
        if values.count() != 4 {
            self.error(Nv2aError::BadDirective {
                span: self.span(values.span_from(4).unwrap_or(name_span)),
                message: format!("`.word` takes the 4 words of one instruction, found {}", values.count()),
                label: if values.count() > 4 {
                    "extra word".into()
                } else {
                    "words missing".into()
                },
                help: "write `.word d0, d1, d2, d3`".into(),
            });
            return None;
        }
        let mut words = [0u32; 4];
        for (word, &value) in words.iter_mut().zip(values.as_slice()) {
            let v = self.number(value)?;
            *word = match u32::try_from(v) {
                Ok(v) => v,
                Err(_) => {
                    self.error(Nv2aError::BadDirective {
                        span: self.span(value),
                        message: format!("{v:#x} does not fit in 32 bits"),
                        label: "too large for one word".into(),
                        help: "`.word` takes values from 0 to 0xffffffff".into(),
                    });
                    return None;
                }
            };
        }
        Some(Slot(words))
    }

    /// Sets FINAL (or appends the final marker) and returns the object with the diagnostics.
    pub fn finish(mut self) -> Outcome<Object> {
        if self.options.explicit_final {
            let end = self.source.text().len();
            let span = Span::new(self.file, end, end);
            if self.options.max_instructions == Some(self.instructions) {
                self.error(Nv2aError::TooManyInstructions { span });
            }
            self.object
                .push(self.instructions as u32, &Slot::FINAL_NOP.0, None, Some(APPENDED_FINAL));
        } else if self.last_is_operation {
            let len = self.object.bytes.len();
            self.object.bytes[len - 4] |= 1;
        }
        let mut undeclared = self.undeclared.iter().peekable();
        let (uniforms, source) = (&self.uniforms, &self.source);
        let diagnostics = self.errors.iter().enumerate().map(|(i, error)| {
            let mut diagnostic = error.to_diagnostic();
            while let Some((_, name)) = undeclared.next_if(|(index, _)| *index == i) {
                if let Some(uniform) = uniforms.get(name) {
                    let line = source.line_index(uniform.span.range().start) + 1;
                    diagnostic.help = Some(
                        format!("`{name}` is declared later, on line {line}; move the declaration above its first use")
                            .into(),
                    );
                }
            }
            diagnostic::by_position(diagnostic)
        });
        // Errors are found per statement, a few per line; reported in source order (under
        // `--max-errors`, only those shown are kept).
        let diagnostics = diagnostic::in_order(diagnostics);
        Outcome::new(self.object, diagnostics)
    }
}

/// Sets an input slot's mux, register, swizzle and sign, and the shared V/CONST/A0X fields.
fn set_input(slot: &mut Slot, input: InputSlot, source: &Source) {
    let mux = match source.reg {
        SrcReg::Temp(index) => {
            slot.set_temp(input, u32::from(index));
            Mux::Temp
        }
        SrcReg::Input(index) => {
            slot.set(Field::V, u32::from(index));
            Mux::Input
        }
        SrcReg::Const { index, relative } => {
            slot.set(Field::Const, u32::from(index));
            if relative {
                slot.set(Field::A0x, 1);
            }
            Mux::Const
        }
    };
    slot.set(Field::mux(input), mux as u32);
    slot.set(Field::swizzle(input), pack_swizzle(source.swizzle));
    slot.set(Field::negate(input), u32::from(source.negate));
}

fn set_output(slot: &mut Slot, reg: DestReg, mask: u8, unit: Unit) {
    let (orb, address) = match reg {
        DestReg::Output(address) => (1, address),
        DestReg::Const(index) => (0, index),
        DestReg::Temp(_) | DestReg::Address => unreachable!("only o/c destinations reach the output port"),
    };
    slot.set(Field::OutOrb, orb);
    slot.set(Field::OutAddress, u32::from(address));
    slot.set(Field::OutMask, u32::from(mask));
    slot.set(Field::OutMux, u32::from(unit == Unit::Ilu));
}

/// Encodes checked unit ops, starting from nv2avsh's blank instruction.
fn encode_units(mac: Option<&UnitOp>, ilu: Option<&UnitOp>) -> Slot {
    let mut slot = Slot::BLANK;
    if let Some(m) = mac {
        slot.set(
            Field::Mac,
            u32::from(m.info.mac.expect("MAC unit ops have a MAC opcode")),
        );
        for (i, source) in m.sources[..m.info.sources()].iter().enumerate() {
            let input = m.info.mac_slots[i];
            let mut source = *source;
            if input == InputSlot::C {
                source.negate ^= m.info.negate_c;
            }
            set_input(&mut slot, input, &source);
        }
        if let Some((reg, mask, _)) = m.temp {
            slot.set(Field::OutTemp, u32::from(reg));
            slot.set(Field::MacMask, u32::from(mask));
        }
        if let Some((reg, mask, _)) = m.out {
            set_output(&mut slot, reg, mask, Unit::Mac);
        }
    }
    if let Some(i) = ilu {
        slot.set(
            Field::Ilu,
            u32::from(i.info.ilu.expect("ILU unit ops have an ILU opcode")),
        );
        set_input(&mut slot, InputSlot::C, &i.sources[0]);
        if let Some((reg, mask, _)) = i.temp {
            slot.set(Field::IluMask, u32::from(mask));
            match mac {
                None => slot.set(Field::OutTemp, u32::from(reg)),
                // Paired: the hardware writes r1; name it unless the MAC's temp owns the field.
                Some(m) if m.temp.is_none() => slot.set(Field::OutTemp, u32::from(PAIRED_ILU_TEMP)),
                Some(_) => {}
            }
        }
        if let Some((reg, mask, _)) = i.out {
            set_output(&mut slot, reg, mask, Unit::Ilu);
        }
    }
    slot
}

/// `mnemonic dst, a, b` for help lines.
pub fn syntax(info: &OpInfo) -> String {
    let dest = info.dest.placeholder();
    let sources = ["a", "b", "c"][..info.sources()].join(", ");
    format!("{} {dest}, {sources}", info.mnemonic)
}

fn macro_syntax(name: &str) -> String {
    if name.eq_ignore_ascii_case("%norm3") {
        "write `%norm3 dst src tmp`, tmp a temporary r0 to r11 the macro may overwrite".into()
    } else {
        "write `%matmul4x4 dst src #matrix`, #matrix a matrix4 uniform".into()
    }
}
