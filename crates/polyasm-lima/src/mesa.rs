//! The text Mesa's lima disassembler prints, byte for byte, quirks included: fields in
//! control-word order joined by `", "`, then `", sync"` and `", stop"`; a one-source vector
//! multiplier op keeps the space before its missing second source (`"mov.v0 $0 ^texture , sync"`,
//! or a line that ends in a space); constants as C's `%f`; the constant LOD bias as three hex
//! digits; load/store indices as signed 16-bit numbers; branch targets as absolute word
//! offsets. docs/lima.md shows the syntax unit by unit.
//!
//! [`read_program`] reads that text back, with or without the `@N: ` prefix, filling every bit
//! the text does not show with the value Mesa's compiler writes, so that Mesa's own output
//! reassembles to the same words:
//!
//! ```
//! use polyasm_lima::mesa::read_program;
//! let (read, errors) = read_program("@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n");
//! assert!(errors.is_empty());
//! let program: Vec<_> = read.iter().map(|r| r.instr).collect();
//! assert_eq!(
//!     polyasm_lima::instr::encode(&program),
//!     [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
//! );
//! ```

use std::fmt::Write;
use std::ops::Range;

use crate::decode::Decoded;
use crate::instr::{
    Branch, Combine, CombineDest, FieldRef, FloatAcc, FloatMul, Instr, Load, Sampler, ScalarReg, ScalarSource, Store,
    Varying, VaryingFetch, VaryingSource, VecAcc, VecDest, VecMul, VecReg, VecSource,
};
use crate::ops::{
    self, AccOp, Alignment, BranchCond, COMBINE_ATAN_PT2, COMBINE_MUL, COMPONENTS, CombineOp, Field, LoadSource, MulOp,
    OutMod, Perspective, VEC_REG_NAMES, VaryingAlignment,
};

/// The text of one instruction at word `offset` (branch targets print as `offset` plus the
/// relative target), without the `@%6d: ` prefix and without a newline.
pub fn print_instr(instr: &Instr, offset: usize) -> String {
    let mut line = instr
        .fields()
        .map(|field| match field {
            FieldRef::Varying(v) => varying(v),
            FieldRef::Sampler(s) => sampler(s),
            FieldRef::Load(l) => load(l),
            FieldRef::VecMul(m) => vec4_mul(m),
            FieldRef::FloatMul(m) => float_mul(m),
            FieldRef::VecAcc(a) => vec4_acc(a),
            FieldRef::FloatAcc(a) => float_acc(a),
            FieldRef::Combine(c) => combine(c),
            FieldRef::Store(s) => store(s),
            FieldRef::Branch(b) => branch(b, offset),
            FieldRef::Const0(values) | FieldRef::Const1(values) => {
                let mut text = field.field().info().mesa.to_string();
                for &v in values {
                    text.push(' ');
                    text.push_str(&format_half(v));
                }
                text
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if instr.sync {
        line.push_str(", ");
        line.push_str(ops::SYNC_NAME);
    }
    if instr.stop {
        line.push_str(", ");
        line.push_str(ops::STOP_NAME);
    }
    line
}

/// The line Mesa's standalone disassembler prints for one instruction: `@%6d: `, the text and
/// a newline.
pub fn print_line(instr: &Instr, offset: usize) -> String {
    format!("@{offset:6}: {}\n", print_instr(instr, offset))
}

/// The lines of a decoded program, with prefixes.
pub fn print_program(program: &[Decoded]) -> String {
    program.iter().map(|d| print_line(&d.instr, d.offset)).collect()
}

/// An IEEE binary16 value as C's `printf("%f")` prints it: exact, six decimals rounded to
/// nearest with ties to even, `-` on every negative value including -0, `inf`/`nan` with their
/// sign.
pub fn format_half(bits: u16) -> String {
    let sign = if bits & 0x8000 != 0 { "-" } else { "" };
    let exponent = u32::from(bits >> 10 & 0x1f);
    let fraction = u64::from(bits & 0x3ff);
    if exponent == 0x1f {
        return format!("{sign}{}", if fraction == 0 { "inf" } else { "nan" });
    }
    // value = mantissa * 2^(power), exactly.
    let (mantissa, power) = if exponent == 0 {
        (fraction, -24i32)
    } else {
        (fraction | 0x400, exponent as i32 - 25)
    };
    // millionths = round(mantissa * 10^6 * 2^power); the largest value, 65504e6, fits in u64.
    let scaled = mantissa * 1_000_000;
    let millionths = if power >= 0 {
        scaled << power
    } else {
        let shift = (-power) as u32;
        let whole = scaled >> shift;
        let rest = scaled & ((1u64 << shift) - 1);
        let half = 1u64 << (shift - 1);
        if rest > half || (rest == half && whole & 1 == 1) {
            whole + 1
        } else {
            whole
        }
    };
    format!("{sign}{}.{:06}", millionths / 1_000_000, millionths % 1_000_000)
}

fn reg_name(reg: VecReg) -> &'static str {
    VEC_REG_NAMES[usize::from(reg & 0xf)]
}

fn scalar_name(reg: ScalarReg) -> String {
    format!("{}.{}", reg_name(reg >> 2), COMPONENTS[usize::from(reg & 3)])
}

/// A destination register: always `$N`, pipeline numbers included (Mesa names only sources).
fn dest_name(reg: VecReg) -> String {
    format!("${}", reg & 0xf)
}

/// A scalar destination, `$N.c`.
fn scalar_dest_name(reg: ScalarReg) -> String {
    format!("{}.{}", dest_name(reg >> 2), COMPONENTS[usize::from(reg & 3)])
}

fn swizzle(text: &mut String, swizzle: u8) {
    if swizzle != ops::SWIZZLE_IDENTITY {
        text.push('.');
        for lane in 0..4 {
            text.push(COMPONENTS[usize::from(swizzle >> (2 * lane) & 3)]);
        }
    }
}

fn mask(text: &mut String, mask: u8) {
    if mask != ops::MASK_ALL {
        text.push('.');
        for (lane, &letter) in COMPONENTS.iter().enumerate() {
            if mask >> lane & 1 == 1 {
                text.push(letter);
            }
        }
    }
}

/// `-`, `abs(`, the name, the closing parenthesis.
fn modified(text: &mut String, abs: bool, neg: bool, name: impl FnOnce(&mut String)) {
    if neg {
        text.push('-');
    }
    if abs {
        text.push_str("abs(");
    }
    name(text);
    if abs {
        text.push(')');
    }
}

fn vec_source(text: &mut String, source: &VecSource, pipeline: Option<&str>) {
    modified(text, source.abs, source.neg, |text| {
        text.push_str(pipeline.unwrap_or(reg_name(source.reg)));
        swizzle(text, source.swizzle);
    });
}

fn scalar_source(text: &mut String, source: &ScalarSource, pipeline: Option<&str>) {
    modified(text, source.abs, source.neg, |text| match pipeline {
        Some(name) => text.push_str(name),
        None => text.push_str(&scalar_name(source.reg)),
    });
}

fn vec_dest(text: &mut String, dest: &VecDest) {
    text.push_str(&dest_name(dest.reg));
    mask(text, dest.mask);
    text.push(' ');
}

fn op_name(text: &mut String, name: &str, outmod: OutMod, unit: &str) {
    text.push_str(name);
    text.push_str(outmod.info().mesa);
    text.push_str(unit);
    text.push(' ');
}

fn fetch(text: &mut String, fetch: &VaryingFetch) {
    let index = u32::from(fetch.index);
    match fetch.alignment {
        VaryingAlignment::Scalar => {
            let _ = write!(text, "{}.{}", index >> 2, COMPONENTS[(index & 3) as usize]);
        }
        VaryingAlignment::Vec2 => {
            let _ = write!(text, "{}.{}", index >> 1, if index & 1 == 0 { "xy" } else { "zw" });
        }
        VaryingAlignment::Vec4 => {
            let _ = write!(text, "{index}");
        }
    }
    if let Some(reg) = fetch.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
}

fn varying(v: &Varying) -> String {
    let mut text = String::from(ops::LOAD_NAME);
    if let VaryingSource::Fetch { perspective, .. } | VaryingSource::Register { perspective, .. } = v.source {
        text.push_str(perspective.info().mesa);
    }
    text.push_str(ops::FIELDS[0].units[0]);
    text.push(' ');
    if v.dest == ops::VARYING_DISCARD {
        text.push_str(ops::DISCARD_REG_NAME);
    } else {
        text.push_str(&dest_name(v.dest));
    }
    mask(&mut text, v.mask);
    text.push(' ');
    let call = |text: &mut String, name: &str, inner: &dyn Fn(&mut String)| {
        text.push_str(name);
        text.push('(');
        inner(text);
        text.push(')');
    };
    match &v.source {
        VaryingSource::Fetch { fetch: f, .. } => fetch(&mut text, f),
        VaryingSource::Register { source, .. } => vec_source(&mut text, source, None),
        VaryingSource::Cube(f) => call(&mut text, ops::VARYING_CUBE.mesa, &|t| fetch(t, f)),
        VaryingSource::CubeRegister(s) => call(&mut text, ops::VARYING_CUBE_REGISTER.mesa, &|t| vec_source(t, s, None)),
        VaryingSource::Normalize(s) => call(&mut text, ops::VARYING_NORMALIZE.mesa, &|t| vec_source(t, s, None)),
        VaryingSource::FragCoord => text.push_str(ops::VARYING_FRAG_COORD.mesa),
        VaryingSource::PointCoord => text.push_str(ops::VARYING_POINT_COORD.mesa),
        VaryingSource::FrontFacing => text.push_str(ops::VARYING_FRONT_FACING.mesa),
    }
    text
}

fn sampler(s: &Sampler) -> String {
    let mut text = String::from(ops::TEXLD_NAME);
    if s.lod_bias.is_some() {
        text.push_str(ops::TEXLD_BIAS_SUFFIX);
    }
    let _ = write!(
        text,
        " {}{:03x} {}",
        ops::TEXLD_BIAS_PREFIX,
        s.constant_lod_bias as u16 & 0x1ff,
        s.index & 0xfff
    );
    if let Some(reg) = s.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
    if let Some(reg) = s.lod_bias {
        text.push(' ');
        text.push_str(&scalar_name(reg));
    }
    text
}

/// `N`, `N.xy`/`N.zw` or `N.c` by alignment, with the index as a signed 16-bit number.
fn memory_index(text: &mut String, alignment: Alignment, index: u16) {
    let index = i32::from(index as i16);
    match alignment {
        Alignment::Vec4 => {
            let _ = write!(text, "{index}");
        }
        Alignment::Vec2 => {
            let _ = write!(text, "{}.{}", index / 2, if index & 1 == 0 { "xy" } else { "zw" });
        }
        Alignment::Scalar | Alignment::Reserved => {
            let _ = write!(text, "{}.{}", index / 4, COMPONENTS[(index & 3) as usize]);
        }
    }
}

fn load(l: &Load) -> String {
    let mut text = format!("{}.{} ", ops::LOAD_NAME, l.source.info().mesa);
    memory_index(&mut text, l.alignment, l.index);
    if let Some(reg) = l.offset {
        text.push('+');
        text.push_str(&scalar_name(reg));
    }
    text
}

fn shift(text: &mut String, op: MulOp, shift: i8) {
    let code = ops::mul_op_code(op, shift);
    if op == MulOp::Mul && code != 0 {
        let _ = write!(text, "<<{code}");
    }
}

fn vec4_mul(m: &VecMul) -> String {
    let mut text = String::new();
    op_name(&mut text, m.op.info().mesa, m.outmod, ops::FIELDS[3].units[0]);
    if let Some(dest) = &m.dest {
        vec_dest(&mut text, dest);
    }
    vec_source(&mut text, &m.arg0, None);
    shift(&mut text, m.op, m.shift);
    // The space before the second source stays when a one-source op has none.
    text.push(' ');
    if m.op.is_binary() {
        vec_source(&mut text, &m.arg1.unwrap_or_default(), None);
    }
    text
}

fn float_mul(m: &FloatMul) -> String {
    let mut text = String::new();
    op_name(&mut text, m.op.info().mesa, m.outmod, ops::FIELDS[4].units[0]);
    if let Some(dest) = m.dest {
        text.push_str(&scalar_dest_name(dest));
        text.push(' ');
    }
    scalar_source(&mut text, &m.arg0, None);
    shift(&mut text, m.op, m.shift);
    if m.op.is_binary() {
        text.push(' ');
        scalar_source(&mut text, &m.arg1.unwrap_or_default(), None);
    }
    text
}

fn vec4_acc(a: &VecAcc) -> String {
    let mut text = String::new();
    op_name(&mut text, a.op.info().mesa, a.outmod, ops::FIELDS[5].units[0]);
    if let Some(dest) = &a.dest {
        vec_dest(&mut text, dest);
    }
    vec_source(&mut text, &a.arg0, a.mul_in.then_some(ops::VMUL_NAME));
    if a.op.is_binary() {
        text.push(' ');
        vec_source(&mut text, &a.arg1.unwrap_or_default(), None);
    }
    text
}

fn float_acc(a: &FloatAcc) -> String {
    let mut text = String::new();
    op_name(&mut text, a.op.info().mesa, a.outmod, ops::FIELDS[6].units[0]);
    if let Some(dest) = a.dest {
        text.push_str(&scalar_dest_name(dest));
        text.push(' ');
    }
    scalar_source(&mut text, &a.arg0, a.mul_in.then_some(ops::FMUL_NAME));
    if a.op.is_binary() {
        text.push(' ');
        scalar_source(&mut text, &a.arg1.unwrap_or_default(), None);
    }
    text
}

fn combine(c: &Combine) -> String {
    let unit = ops::FIELDS[7].units[0];
    let mut text = String::new();
    match c {
        Combine::Scalar { op, dest, arg0, arg1 } => {
            let outmod = match dest {
                CombineDest::Scalar { outmod, .. } => *outmod,
                CombineDest::Vector(_) => OutMod::None,
            };
            op_name(&mut text, op.info().mesa, outmod, unit);
            match dest {
                CombineDest::Scalar { reg, .. } => {
                    text.push_str(&scalar_dest_name(*reg));
                    text.push(' ');
                }
                CombineDest::Vector(dest) => vec_dest(&mut text, dest),
            }
            scalar_source(&mut text, arg0, None);
            if op.is_binary() {
                text.push(' ');
                scalar_source(&mut text, &arg1.unwrap_or_default(), None);
            }
        }
        Combine::MulVec {
            dest,
            arg0,
            arg1,
            swizzle: swz,
        } => {
            op_name(&mut text, COMBINE_MUL.mesa, OutMod::None, unit);
            vec_dest(&mut text, dest);
            scalar_source(&mut text, arg0, None);
            text.push(' ');
            text.push_str(reg_name(*arg1));
            swizzle(&mut text, *swz);
        }
        Combine::AtanPt2 {
            dest,
            outmod,
            arg,
            swizzle: swz,
        } => {
            // The output modifier goes after the space, right before the destination.
            op_name(&mut text, COMBINE_ATAN_PT2.mesa, OutMod::None, unit);
            text.push_str(outmod.info().mesa);
            text.push_str(&scalar_dest_name(*dest));
            text.push(' ');
            text.push_str(reg_name(*arg));
            swizzle(&mut text, *swz);
        }
    }
    text
}

fn store(s: &Store) -> String {
    match s {
        Store::FbRead { read, dest } => format!("{} {}", read.info().mesa, dest_name(*dest)),
        Store::Temp {
            alignment,
            index,
            offset,
            source,
        } => {
            let mut text = format!("{}{} ", ops::STORE_NAME, ops::FIELDS[8].units[0]);
            memory_index(&mut text, *alignment, *index);
            if let Some(reg) = offset {
                text.push('+');
                text.push_str(&scalar_name(*reg));
            }
            text.push(' ');
            match alignment {
                Alignment::Scalar => text.push_str(&scalar_name(*source)),
                _ => text.push_str(reg_name(source >> 2)),
            }
            text
        }
    }
}

fn branch(b: &Branch, offset: usize) -> String {
    match b {
        Branch::Discard => ops::DISCARD_NAME.to_string(),
        Branch::Jump {
            cond,
            arg0,
            arg1,
            target,
        } => {
            let mut text = String::from(ops::BRANCH_NAME);
            if *cond != BranchCond::Always {
                let _ = write!(
                    text,
                    ".{} {} {}",
                    cond.info().mesa,
                    scalar_name(*arg0),
                    scalar_name(*arg1)
                );
            }
            let _ = write!(text, " {}", offset as i64 + i64::from(*target));
            text
        }
    }
}

// Reading: Mesa's text back into instructions. A line is read over its bytes: an optional
// `@N: ` prefix, then the fields, each the text between two commas, split into words at
// spaces; `sync` and `stop` close the line. Every bit the text does not show gets the value
// Mesa's compiler writes there, so that Mesa's own output reassembles to the same words.

/// Why Mesa's text cannot be read: where (a byte range of the text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MesaError {
    /// Byte range of the offending text.
    pub span: Range<usize>,
    /// What is wrong.
    pub kind: MesaErrorKind,
}

/// What is wrong with a line of Mesa's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MesaErrorKind {
    /// An operation no unit has.
    UnknownOp {
        /// The text found.
        name: String,
        /// A known operation spelt nearly the same.
        suggestion: Option<&'static str>,
    },
    /// A field after one that comes later in the control word, or a second one of a field.
    FieldOrder {
        /// Mesa's name of the field.
        field: &'static str,
        /// Mesa's name of the field it follows.
        after: &'static str,
        /// The line's fields in control-word order (empty for a repeated field).
        reordered: String,
    },
    /// Text that is not what goes there.
    Expected {
        /// What goes there.
        expected: &'static str,
        /// The text found.
        found: String,
    },
    /// An operation with too many or too few operands.
    OperandCount {
        /// The operation as written.
        op: String,
        /// How many operands it takes, in words.
        expected: String,
        /// How many were given.
        found: usize,
    },
    /// A number that does not fit its field.
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The text found.
        found: String,
        /// The values the field holds.
        range: &'static str,
    },
    /// A constant that is not a number IEEE binary16 holds.
    Constant {
        /// The text found.
        found: String,
    },
    /// An `@` offset that is not where the instructions before it end.
    Offset {
        /// The offset printed.
        printed: u64,
        /// Where the instruction starts, by the sizes of those before it.
        actual: usize,
    },
    /// A branch target where no instruction starts, or too far away.
    Target {
        /// The absolute word offset written.
        target: i64,
        /// The nearest instruction starts before and after it.
        nearest: (Option<usize>, Option<usize>),
    },
    /// An operand that Mesa's text never has in this place.
    Misplaced {
        /// The text found.
        found: String,
        /// Where it is.
        place: &'static str,
        /// What goes there instead.
        help: &'static str,
    },
    /// `sync` or `stop` out of place or repeated, or an empty field.
    Flags {
        /// The text found (empty for an empty field).
        found: String,
    },
}

impl MesaError {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            MesaErrorKind::UnknownOp { .. } => crate::error::Code::MesaUnknownOp.as_str(),
            MesaErrorKind::FieldOrder { .. } => crate::error::Code::MesaFieldOrder.as_str(),
            MesaErrorKind::Expected { .. } => crate::error::Code::MesaExpected.as_str(),
            MesaErrorKind::OperandCount { .. } => crate::error::Code::MesaOperandCount.as_str(),
            MesaErrorKind::OutOfRange { .. } => crate::error::Code::MesaOutOfRange.as_str(),
            MesaErrorKind::Constant { .. } => crate::error::Code::MesaConstant.as_str(),
            MesaErrorKind::Offset { .. } => crate::error::Code::MesaOffset.as_str(),
            MesaErrorKind::Target { .. } => crate::error::Code::MesaTarget.as_str(),
            MesaErrorKind::Misplaced { .. } => crate::error::Code::MesaMisplaced.as_str(),
            MesaErrorKind::Flags { .. } => crate::error::Code::MesaFlags.as_str(),
        }
    }
}

impl std::fmt::Display for MesaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            MesaErrorKind::UnknownOp { name, .. } => write!(f, "unknown operation `{name}`"),
            MesaErrorKind::FieldOrder {
                field,
                after,
                reordered,
            } if reordered.is_empty() => write!(f, "a second {field} field in one instruction (after {after})"),
            MesaErrorKind::FieldOrder { field, after, .. } => {
                write!(f, "the {field} field comes before the {after} field")
            }
            MesaErrorKind::Expected { expected, found } => write!(f, "expected {expected}, found `{found}`"),
            MesaErrorKind::OperandCount { op, expected, found } => {
                write!(f, "`{op}` takes {expected}, found {found}")
            }
            MesaErrorKind::OutOfRange { what, found, range } => {
                write!(f, "{what} `{found}` is out of range ({range})")
            }
            MesaErrorKind::Constant { found } => write!(f, "`{found}` is not a binary16 constant"),
            MesaErrorKind::Offset { printed, actual } => write!(
                f,
                "the line says it is at word {printed}, but the instructions before it end at word {actual}"
            ),
            MesaErrorKind::Target { target, .. } => {
                write!(f, "no instruction starts at word {target}, the branch target")
            }
            MesaErrorKind::Misplaced { found, place, .. } => write!(f, "`{found}` cannot be {place}"),
            MesaErrorKind::Flags { found } if found.is_empty() => write!(f, "an empty field"),
            MesaErrorKind::Flags { found } => write!(f, "`{found}` out of place"),
        }
    }
}

/// One instruction read from Mesa's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadInstr {
    /// The instruction, its branch target made relative.
    pub instr: Instr,
    /// Its word offset in the program.
    pub offset: usize,
    /// The byte range of its line (without the line break).
    pub line: Range<usize>,
}

/// Whether the first line of `text` that holds anything (blank lines and `#` comments
/// aside) starts with the `@N: ` prefix of Mesa's standalone disassembler.
pub fn has_offset_prefix(text: &str) -> bool {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or_default().trim_start())
        .find(|line| !line.trim_end().is_empty())
        .and_then(|line| line.strip_prefix('@'))
        .is_some_and(|rest| {
            let rest = rest.trim_start_matches(' ');
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && rest[digits..].starts_with(':')
        })
}

/// Reads a whole program of Mesa's text: one instruction per line, with or without the `@N: `
/// prefix (checked against the sizes of the instructions before it when present); blank
/// lines and `#` comments are skipped. Branch targets, absolute word offsets in the text,
/// become relative ones and must be instruction starts. Returns the instructions read and
/// every error; the instructions are the program only when there is no error.
pub fn read_program(text: &str) -> (Vec<ReadInstr>, Vec<MesaError>) {
    let mut instrs: Vec<ReadInstr> = Vec::new();
    let mut errors = Vec::new();
    let mut branches: Vec<(usize, i64, Range<usize>)> = Vec::new();
    let mut offset = 0usize;
    let mut offsets_checked = true;
    // Lines are read on their own, a chunk at a time, on a second thread for big texts; the
    // offsets and targets that join them are worked out here, in order.
    polyasm_core::front::pipeline(
        text.len() >= polyasm_core::front::PIPELINE_MIN_BYTES,
        |emit| read_lines(text, emit),
        |chunk: Vec<(Range<usize>, LineResult)>| {
            for (line, read) in chunk {
                match read {
                    Ok(None) => {}
                    Ok(Some(read)) => {
                        if let Some((printed, span)) = read.prefix
                            && offsets_checked
                            && printed != offset as u64
                        {
                            errors.push(MesaError {
                                span,
                                kind: MesaErrorKind::Offset {
                                    printed,
                                    actual: offset,
                                },
                            });
                            // Every later offset would disagree too.
                            offsets_checked = false;
                        }
                        if let Some((target, span)) = read.branch {
                            branches.push((instrs.len(), target, span));
                        }
                        instrs.push(ReadInstr {
                            instr: read.instr,
                            offset,
                            line,
                        });
                        offset += read.instr.count() as usize;
                    }
                    Err(e) => {
                        errors.push(e);
                        // The sizes of the lines after a failed one are not known.
                        offsets_checked = false;
                    }
                }
            }
        },
    );
    if errors.is_empty() {
        let starts: Vec<usize> = instrs.iter().map(|r| r.offset).collect();
        for (index, target, span) in branches {
            let own = starts[index] as i64;
            let relative = target - own;
            let found = usize::try_from(target).ok().and_then(|t| starts.binary_search(&t).ok());
            if found.is_none() || !(-(1i64 << 26)..1i64 << 26).contains(&relative) {
                let after = starts.partition_point(|&s| (s as i64) <= target);
                errors.push(MesaError {
                    span,
                    kind: MesaErrorKind::Target {
                        target,
                        nearest: (after.checked_sub(1).map(|i| starts[i]), starts.get(after).copied()),
                    },
                });
                continue;
            }
            if let Some(Branch::Jump { target, .. }) = &mut instrs[index].instr.branch {
                *target = relative as i32;
            }
        }
    }
    (instrs, errors)
}

/// What [`read_line`] gives.
type LineResult = Result<Option<LineRead>, MesaError>;

/// The lines of `text` read one by one, each with its byte range (without the line break),
/// emitted a chunk at a time.
fn read_lines(text: &str, emit: &mut dyn FnMut(Vec<(Range<usize>, LineResult)>)) {
    const LINES_PER_CHUNK: usize = 4096;
    let mut chunk = Vec::with_capacity(LINES_PER_CHUNK);
    let mut line_start = 0;
    for raw in text.split('\n') {
        let base = line_start;
        line_start += raw.len() + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        chunk.push((base..base + line.len(), read_line(line, base)));
        if chunk.len() == LINES_PER_CHUNK {
            emit(std::mem::replace(&mut chunk, Vec::with_capacity(LINES_PER_CHUNK)));
        }
    }
    emit(chunk);
}

/// Reads the text of one instruction printed at word `offset` (as [`print_instr`] prints it,
/// without the prefix); the branch target becomes relative to `offset` without further checks.
pub fn read_instr(text: &str, offset: usize) -> Result<Instr, MesaError> {
    let line = format!("@{offset}: {text}");
    let read = read_line(&line, 0)?.expect("invariant: a line with a prefix is an instruction");
    let mut instr = read.instr;
    if let (Some((target, _)), Some(Branch::Jump { target: relative, .. })) = (read.branch, &mut instr.branch) {
        *relative = (target - offset as i64) as i32;
    }
    Ok(instr)
}

/// The fields of `instr` whose bits its Mesa text (printed at word `offset`) does not show:
/// reading the text back gives other values there. Empty when the text is exact.
pub fn unshown_fields(instr: &Instr, offset: usize) -> Vec<Field> {
    let Ok(back) = read_instr(&print_instr(instr, offset), offset) else {
        return Field::ALL.into_iter().filter(|f| instr.has(*f)).collect();
    };
    let fields = |i: &Instr| -> Vec<Option<u128>> {
        let mut bits = vec![None; Field::ALL.len()];
        for (field, value) in i.encode_fields(0) {
            bits[field as usize] = Some(value);
        }
        bits
    };
    let (original, read) = (fields(instr), fields(&back));
    Field::ALL
        .into_iter()
        .filter(|f| original[*f as usize] != read[*f as usize])
        .collect()
}

/// A line read: its `@` offset, the instruction, and the absolute target of its branch.
struct LineRead {
    prefix: Option<(u64, Range<usize>)>,
    instr: Instr,
    branch: Option<(i64, Range<usize>)>,
}

/// A piece of the text and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Word<'a> {
    fn span(self) -> Range<usize> {
        self.at..self.at + self.text.len()
    }

    fn from(self, i: usize) -> Word<'a> {
        Word {
            text: &self.text[i..],
            at: self.at + i,
        }
    }

    fn until(self, i: usize) -> Word<'a> {
        Word {
            text: &self.text[..i],
            at: self.at,
        }
    }

    fn strip_prefix(self, prefix: &str) -> Option<Word<'a>> {
        self.text.starts_with(prefix).then(|| self.from(prefix.len()))
    }

    fn strip_suffix(self, suffix: &str) -> Option<Word<'a>> {
        self.text
            .ends_with(suffix)
            .then(|| self.until(self.text.len() - suffix.len()))
    }

    fn trim(self) -> Word<'a> {
        let start = self.text.len() - self.text.trim_start().len();
        let word = self.from(start);
        word.until(word.text.trim_end().len())
    }

    fn error(self, kind: MesaErrorKind) -> MesaError {
        MesaError {
            span: self.span(),
            kind,
        }
    }

    fn expected(self, expected: &'static str) -> MesaError {
        self.error(MesaErrorKind::Expected {
            expected,
            found: self.text.to_string(),
        })
    }

    fn misplaced(self, place: &'static str, help: &'static str) -> MesaError {
        self.error(MesaErrorKind::Misplaced {
            found: self.text.to_string(),
            place,
            help,
        })
    }

    fn out_of_range(self, what: &'static str, range: &'static str) -> MesaError {
        self.error(MesaErrorKind::OutOfRange {
            what,
            found: self.text.to_string(),
            range,
        })
    }

    /// The words of this piece, split at whitespace.
    fn words(self) -> Vec<Word<'a>> {
        let mut words = Vec::new();
        let bytes = self.text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            words.push(self.from(start).until(i - start));
        }
        words
    }
}

/// What a field's first word names.
#[derive(Clone, Copy, Debug)]
enum Mnemonic {
    Varying(Perspective),
    Sampler { bias_register: bool },
    Load(LoadSource),
    VecMul(MulOp, OutMod),
    FloatMul(MulOp, OutMod),
    VecAcc(AccOp, OutMod),
    FloatAcc(AccOp, OutMod),
    CombineScalar(CombineOp, OutMod),
    CombineMul(OutMod),
    AtanPt2(OutMod),
    Store,
    FbRead(ops::FbRead),
    Jump(BranchCond),
    Discard,
    Const(Field),
}

impl Mnemonic {
    fn field(self) -> Field {
        match self {
            Mnemonic::Varying(_) => Field::Varying,
            Mnemonic::Sampler { .. } => Field::Sampler,
            Mnemonic::Load(_) => Field::Uniform,
            Mnemonic::VecMul(..) => Field::Vec4Mul,
            Mnemonic::FloatMul(..) => Field::FloatMul,
            Mnemonic::VecAcc(..) => Field::Vec4Acc,
            Mnemonic::FloatAcc(..) => Field::FloatAcc,
            Mnemonic::CombineScalar(..) | Mnemonic::CombineMul(_) | Mnemonic::AtanPt2(_) => Field::Combine,
            Mnemonic::Store | Mnemonic::FbRead(_) => Field::TempWrite,
            Mnemonic::Jump(_) | Mnemonic::Discard => Field::Branch,
            Mnemonic::Const(field) => field,
        }
    }
}

/// The unit suffix of an ALU field (`.v0`, `.s0`, ...).
fn unit(field: Field) -> &'static str {
    field.info().units[0]
}

/// The op name and output modifier of `head` (`max.pos`).
fn split_outmod(head: &str) -> (&str, OutMod) {
    for row in ops::OUTMODS.iter().filter(|r| !r.mesa.is_empty()) {
        if let Some(op) = head.strip_suffix(row.mesa) {
            return (op, row.value);
        }
    }
    (head, OutMod::None)
}

/// What `name` names, if anything.
fn mnemonic(name: &str) -> Option<Mnemonic> {
    if let Some(rest) = name.strip_prefix(ops::LOAD_NAME) {
        if let Some(perspective) = rest.strip_suffix(unit(Field::Varying)) {
            return ops::PERSPECTIVES
                .iter()
                .find(|row| row.mesa == perspective)
                .map(|row| Mnemonic::Varying(row.value));
        }
        let source = rest.strip_prefix('.')?;
        return ops::LOAD_SOURCES
            .iter()
            .find(|row| row.mesa == source)
            .map(|row| Mnemonic::Load(row.value));
    }
    if let Some(rest) = name.strip_prefix(ops::TEXLD_NAME) {
        return match rest {
            "" => Some(Mnemonic::Sampler { bias_register: false }),
            _ if rest == ops::TEXLD_BIAS_SUFFIX => Some(Mnemonic::Sampler { bias_register: true }),
            _ => None,
        };
    }
    if name.strip_prefix(ops::STORE_NAME) == Some(unit(Field::TempWrite)) {
        return Some(Mnemonic::Store);
    }
    if let Some(row) = ops::FB_READS.iter().find(|row| row.mesa == name) {
        return Some(Mnemonic::FbRead(row.value));
    }
    if name == ops::DISCARD_NAME {
        return Some(Mnemonic::Discard);
    }
    if let Some(rest) = name.strip_prefix(ops::BRANCH_NAME) {
        let cond = match rest {
            "" => BranchCond::Always,
            _ => {
                let cond = rest.strip_prefix('.')?;
                ops::BRANCH_CONDS
                    .iter()
                    .find(|row| !row.mesa.is_empty() && row.mesa == cond)?
                    .value
            }
        };
        return Some(Mnemonic::Jump(cond));
    }
    for field in [Field::Const0, Field::Const1] {
        if name == field.info().mesa {
            return Some(Mnemonic::Const(field));
        }
    }
    let dot = name.rfind('.')?;
    let (op, outmod) = split_outmod(&name[..dot]);
    let suffix = &name[dot..];
    let field = [
        Field::Vec4Mul,
        Field::FloatMul,
        Field::Vec4Acc,
        Field::FloatAcc,
        Field::Combine,
    ]
    .into_iter()
    .find(|f| unit(*f) == suffix)?;
    Some(match field {
        Field::Vec4Mul => Mnemonic::VecMul(MulOp::from_mesa(op)?, outmod),
        Field::FloatMul => Mnemonic::FloatMul(MulOp::from_mesa(op)?, outmod),
        Field::Vec4Acc => Mnemonic::VecAcc(AccOp::from_mesa(op)?, outmod),
        Field::FloatAcc => {
            let op = AccOp::from_mesa(op).filter(|op| !op.info().vector_only)?;
            Mnemonic::FloatAcc(op, outmod)
        }
        _ if op == COMBINE_MUL.mesa => Mnemonic::CombineMul(outmod),
        _ if op == COMBINE_ATAN_PT2.mesa => Mnemonic::AtanPt2(outmod),
        _ => Mnemonic::CombineScalar(CombineOp::from_mesa(op)?, outmod),
    })
}

/// Every operation name Mesa prints, for suggestions.
fn all_mnemonics() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = Vec::new();
        for row in ops::PERSPECTIVES {
            names.push(format!("{}{}{}", ops::LOAD_NAME, row.mesa, unit(Field::Varying)));
        }
        for row in ops::LOAD_SOURCES {
            names.push(format!("{}.{}", ops::LOAD_NAME, row.mesa));
        }
        names.push(ops::TEXLD_NAME.to_string());
        names.push(format!("{}{}", ops::TEXLD_NAME, ops::TEXLD_BIAS_SUFFIX));
        names.push(format!("{}{}", ops::STORE_NAME, unit(Field::TempWrite)));
        names.extend(ops::FB_READS.iter().map(|row| row.mesa.to_string()));
        names.push(ops::DISCARD_NAME.to_string());
        for row in ops::BRANCH_CONDS {
            names.push(match row.mesa {
                "" => ops::BRANCH_NAME.to_string(),
                cond => format!("{}.{cond}", ops::BRANCH_NAME),
            });
        }
        names.push(Field::Const0.info().mesa.to_string());
        names.push(Field::Const1.info().mesa.to_string());
        for field in [Field::Vec4Mul, Field::FloatMul] {
            names.extend(ops::MUL_OPS.iter().map(|row| format!("{}{}", row.mesa, unit(field))));
        }
        for field in [Field::Vec4Acc, Field::FloatAcc] {
            let rows = ops::ACC_OPS
                .iter()
                .filter(|row| field == Field::Vec4Acc || !row.vector_only);
            names.extend(rows.map(|row| format!("{}{}", row.mesa, unit(field))));
        }
        let combine = ops::COMBINE_OPS.iter().map(|row| row.mesa);
        for op in combine.chain([COMBINE_MUL.mesa, COMBINE_ATAN_PT2.mesa]) {
            names.push(format!("{op}{}", unit(Field::Combine)));
        }
        names
    })
}

/// The name with its output modifier taken out (`max.pos.v0` -> `max.v0`), for suggestions.
fn without_outmod(name: &str) -> String {
    match name.rfind('.') {
        Some(dot) => format!("{}{}", split_outmod(&name[..dot]).0, &name[dot..]),
        None => name.to_string(),
    }
}

fn unknown_op(word: Word) -> MesaError {
    let bare = without_outmod(word.text);
    let suggestion = polyasm_core::text::suggest(&bare, all_mnemonics().iter().map(String::as_str));
    word.error(MesaErrorKind::UnknownOp {
        name: word.text.to_string(),
        suggestion,
    })
}

/// Reads one line: `None` for a line with nothing on it.
fn read_line(line: &str, base: usize) -> Result<Option<LineRead>, MesaError> {
    let line = Word {
        text: line.split('#').next().unwrap_or_default(),
        at: base,
    };
    let mut rest = line.trim();
    if rest.text.is_empty() {
        return Ok(None);
    }
    let mut prefix = None;
    if let Some(after_at) = rest.strip_prefix("@") {
        let Some(colon) = after_at.text.find(':') else {
            return Err(rest.expected("the offset prefix `@N: `"));
        };
        let number = after_at.until(colon).trim();
        prefix = Some((decimal(number, "an offset")?, rest.until(colon + 2).span()));
        rest = after_at.from(colon + 1).trim();
        if rest.text.is_empty() {
            // Mesa prints an instruction with no fields and no flags as the prefix alone.
            return Ok(Some(LineRead {
                prefix,
                instr: Instr::default(),
                branch: None,
            }));
        }
    }
    // The fields and flags, each the text between commas.
    let mut parts: Vec<Word> = Vec::new();
    let mut start = 0;
    for (i, b) in rest.text.bytes().enumerate() {
        if b == b',' {
            parts.push(rest.from(start).until(i - start).trim());
            start = i + 1;
        }
    }
    parts.push(rest.from(start).trim());
    // Mesa prints `, sync` and `, stop` after an empty list of fields.
    if parts.len() > 1 && parts[0].text.is_empty() {
        parts.remove(0);
    }
    // Each field's mnemonic and words, the first word its name.
    let mut fields: Vec<(Mnemonic, Vec<Word>)> = Vec::with_capacity(parts.len());
    let mut instr = Instr::default();
    for part in &parts {
        let words = part.words();
        let Some((&name, operands)) = words.split_first() else {
            return Err(part.error(MesaErrorKind::Flags { found: String::new() }));
        };
        if name.text == ops::SYNC_NAME || name.text == ops::STOP_NAME {
            if let Some(extra) = operands.first() {
                return Err(extra.expected("`,` after the flag"));
            }
            let stop = name.text == ops::STOP_NAME;
            // `sync` comes before `stop`, each once.
            if instr.stop || (!stop && instr.sync) {
                return Err(name.error(MesaErrorKind::Flags {
                    found: name.text.to_string(),
                }));
            }
            if stop {
                instr.stop = true;
            } else {
                instr.sync = true;
            }
            continue;
        }
        if instr.sync || instr.stop {
            return Err(part.error(MesaErrorKind::Flags {
                found: part.text.to_string(),
            }));
        }
        let Some(m) = mnemonic(name.text) else {
            return Err(unknown_op(name));
        };
        if let Some((previous, _)) = fields.last()
            && previous.field() >= m.field()
        {
            return Err(field_order(name, m.field(), previous.field(), &parts));
        }
        fields.push((m, words));
    }
    let mut branch = None;
    for (m, words) in fields {
        read_field(m, words[0], &words[1..], &mut instr, &mut branch)?;
    }
    Ok(Some(LineRead { prefix, instr, branch }))
}

/// The error of a field out of order, with the line's fields in the right order.
fn field_order(name: Word, field: Field, previous: Field, parts: &[Word]) -> MesaError {
    let reordered = if field == previous {
        String::new()
    } else {
        let mut sorted: Vec<(usize, &str)> = parts
            .iter()
            .map(|part| {
                let first = part.text.split_whitespace().next().unwrap_or_default();
                let rank = match mnemonic(first) {
                    Some(m) => m.field() as usize,
                    // Flags go last, `sync` before `stop`.
                    None if first == ops::SYNC_NAME => Field::ALL.len(),
                    None => Field::ALL.len() + 1,
                };
                (rank, part.text)
            })
            .collect();
        sorted.sort_by_key(|(rank, _)| *rank);
        sorted.iter().map(|(_, text)| *text).collect::<Vec<_>>().join(", ")
    };
    name.error(MesaErrorKind::FieldOrder {
        field: field.info().mesa,
        after: previous.info().mesa,
        reordered,
    })
}

/// Checks the number of operands of `name`: `counts` are the accepted numbers, described by
/// `expected`.
fn operand_count(name: Word, operands: &[Word], counts: &[usize], expected: &str) -> Result<(), MesaError> {
    operand_count_with(name, operands, counts, || expected.to_string())
}

/// [`operand_count`], with the expected operands described only when they are wrong.
fn operand_count_with(
    name: Word,
    operands: &[Word],
    counts: &[usize],
    expected: impl FnOnce() -> String,
) -> Result<(), MesaError> {
    if counts.contains(&operands.len()) {
        return Ok(());
    }
    let span = match (operands.first(), operands.last()) {
        (Some(first), Some(last)) => first.at..last.at + last.text.len(),
        _ => name.span(),
    };
    Err(MesaError {
        span,
        kind: MesaErrorKind::OperandCount {
            op: name.text.to_string(),
            expected: expected(),
            found: operands.len(),
        },
    })
}

/// "1 operand", "a destination and 2 operands", ...
fn describe_operands(sources: u8, dest: &str) -> String {
    let sources = match sources {
        1 => "1 source".to_string(),
        n => format!("{n} sources"),
    };
    if dest.is_empty() {
        sources
    } else {
        format!("{dest} and {sources}")
    }
}

fn read_field(
    m: Mnemonic,
    name: Word,
    operands: &[Word],
    instr: &mut Instr,
    branch: &mut Option<(i64, Range<usize>)>,
) -> Result<(), MesaError> {
    match m {
        Mnemonic::Varying(perspective) => {
            operand_count(name, operands, &[2], "a destination and a source")?;
            instr.varying = Some(read_varying(perspective, name, operands[0], operands[1])?);
        }
        Mnemonic::Sampler { bias_register } => {
            let count = if bias_register { 3 } else { 2 };
            let what = if bias_register {
                "a bias, a sampler and a bias register"
            } else {
                "a bias and a sampler"
            };
            operand_count(name, operands, &[count], what)?;
            let (index, offset) = split_offset(operands[1])?;
            let index = decimal(index, "a sampler number")?;
            if index > 0xfff {
                return Err(operands[1].out_of_range("sampler", "0 to 4095"));
            }
            let lod_bias = match bias_register {
                true => Some(plain_scalar(operands[2], "the LOD bias register")?),
                false => None,
            };
            instr.sampler = Some(Sampler {
                index: index as u16,
                offset,
                lod_bias,
                explicit_lod: false,
                constant_lod_bias: lod_bias_constant(operands[0])?,
            });
        }
        Mnemonic::Load(source) => {
            operand_count(name, operands, &[1], "an index")?;
            let (form, offset) = index_form(operands[0], true)?;
            let (alignment, index) = read_memory_index(form, operands[0])?;
            instr.load = Some(Load {
                source,
                alignment,
                index,
                offset,
            });
        }
        Mnemonic::VecMul(op, outmod) => {
            let n = op.info().operands;
            let n_us = usize::from(n);
            let what = || {
                format!(
                    "{} (the destination only when it writes a register)",
                    describe_operands(n, "a destination")
                )
            };
            operand_count_with(name, operands, &[n_us, n_us + 1], what)?;
            let (dest, sources) = split_dest(operands, n_us);
            let (arg0, code) = with_shift(sources[0], op)?;
            let (op, shift) = ops::mul_op_from_code(code).expect("invariant: shift codes are 0-7");
            instr.vec4_mul = Some(VecMul {
                op,
                shift,
                outmod,
                dest: dest.map(|d| read_vec_dest(d, false)).transpose()?,
                arg0: read_vec_source(arg0, false)?.0,
                arg1: sources
                    .get(1)
                    .map(|w| read_vec_source(*w, false).map(|s| s.0))
                    .transpose()?,
            });
        }
        Mnemonic::FloatMul(op, outmod) => {
            let n = op.info().operands;
            let n_us = usize::from(n);
            let what = || {
                format!(
                    "{} (the destination only when it writes a register)",
                    describe_operands(n, "a destination")
                )
            };
            operand_count_with(name, operands, &[n_us, n_us + 1], what)?;
            let (dest, sources) = split_dest(operands, n_us);
            let (arg0, code) = with_shift(sources[0], op)?;
            let (op, shift) = ops::mul_op_from_code(code).expect("invariant: shift codes are 0-7");
            instr.float_mul = Some(FloatMul {
                op,
                shift,
                outmod,
                dest: dest.map(scalar_dest).transpose()?,
                arg0: read_scalar_source(arg0, false)?.0,
                arg1: sources
                    .get(1)
                    .map(|w| read_scalar_source(*w, false).map(|s| s.0))
                    .transpose()?,
            });
        }
        Mnemonic::VecAcc(op, outmod) => {
            let n = op.info().operands;
            let n_us = usize::from(n);
            let what = || {
                format!(
                    "{} (the destination only when it writes a register)",
                    describe_operands(n, "a destination")
                )
            };
            operand_count_with(name, operands, &[n_us, n_us + 1], what)?;
            let (dest, sources) = split_dest(operands, n_us);
            let (arg0, mul_in) = read_vec_source(sources[0], true)?;
            instr.vec4_acc = Some(VecAcc {
                op,
                outmod,
                dest: dest.map(|d| read_vec_dest(d, false)).transpose()?,
                mul_in,
                arg0,
                arg1: sources
                    .get(1)
                    .map(|w| read_vec_source(*w, false).map(|s| s.0))
                    .transpose()?,
            });
        }
        Mnemonic::FloatAcc(op, outmod) => {
            let n = op.info().operands;
            let n_us = usize::from(n);
            let what = || {
                format!(
                    "{} (the destination only when it writes a register)",
                    describe_operands(n, "a destination")
                )
            };
            operand_count_with(name, operands, &[n_us, n_us + 1], what)?;
            let (dest, sources) = split_dest(operands, n_us);
            let (arg0, mul_in) = read_scalar_source(sources[0], true)?;
            instr.float_acc = Some(FloatAcc {
                op,
                outmod,
                dest: dest.map(scalar_dest).transpose()?,
                mul_in,
                arg0,
                arg1: sources
                    .get(1)
                    .map(|w| read_scalar_source(*w, false).map(|s| s.0))
                    .transpose()?,
            });
        }
        Mnemonic::CombineScalar(op, outmod) => {
            let n = op.info().operands;
            operand_count_with(name, operands, &[usize::from(n) + 1], || {
                describe_operands(n, "a destination")
            })?;
            instr.combine = Some(Combine::Scalar {
                op,
                dest: combine_dest(op, outmod, operands[0])?,
                arg0: read_scalar_source(operands[1], false)?.0,
                arg1: operands
                    .get(2)
                    .map(|w| read_scalar_source(*w, false).map(|s| s.0))
                    .transpose()?,
            });
        }
        Mnemonic::CombineMul(outmod) => {
            no_outmod(name, outmod)?;
            operand_count(name, operands, &[3], "a destination, a scalar and a vector")?;
            let dest = read_vec_dest(operands[0], true)?;
            let (arg1, swizzle) = plain_vector(operands[2])?;
            instr.combine = Some(Combine::MulVec {
                dest,
                arg0: read_scalar_source(operands[1], false)?.0,
                arg1,
                swizzle,
            });
        }
        Mnemonic::AtanPt2(outmod) => {
            no_outmod(name, outmod)?;
            operand_count(name, operands, &[2], "a destination and a vector")?;
            let (outmod, dest) = split_outmod_prefix(operands[0]);
            let (arg, swizzle) = plain_vector(operands[1])?;
            instr.combine = Some(Combine::AtanPt2 {
                dest: scalar_dest(dest)?,
                outmod,
                arg,
                swizzle,
            });
        }
        Mnemonic::Store => {
            operand_count(name, operands, &[2], "an index and a source")?;
            let (form, offset) = index_form(operands[0], true)?;
            let (mut alignment, index) = read_memory_index(form, operands[0])?;
            let source = match alignment {
                Alignment::Scalar => match source_register(operands[1]) {
                    // A whole register after a one-float index: Mesa's text of alignment 3.
                    Ok((reg, rest)) if rest.text.is_empty() => {
                        alignment = Alignment::Reserved;
                        reg * 4
                    }
                    _ => plain_scalar(operands[1], "the stored register")?,
                },
                _ => plain_vector_register(operands[1])? * 4,
            };
            instr.store = Some(Store::Temp {
                alignment,
                index,
                offset,
                source,
            });
        }
        Mnemonic::FbRead(read) => {
            operand_count(name, operands, &[1], "a destination")?;
            let (dest, rest) = dest_register(operands[0])?;
            if !rest.text.is_empty() {
                return Err(rest.expected("the end of the destination (a whole register)"));
            }
            instr.store = Some(Store::FbRead { read, dest });
        }
        Mnemonic::Discard => {
            operand_count(name, operands, &[0], "no operands")?;
            instr.branch = Some(Branch::Discard);
        }
        Mnemonic::Jump(cond) => {
            let always = cond == BranchCond::Always;
            let what = if always { "a target" } else { "two scalars and a target" };
            operand_count(name, operands, &[if always { 1 } else { 3 }], what)?;
            let (arg0, arg1) = match always {
                true => (0, 0),
                false => (
                    plain_scalar(operands[0], "a branch operand")?,
                    plain_scalar(operands[1], "a branch operand")?,
                ),
            };
            let target_word = operands[operands.len() - 1];
            *branch = Some((signed_decimal(target_word, "a target word offset")?, target_word.span()));
            instr.branch = Some(Branch::Jump {
                cond,
                arg0,
                arg1,
                target: 0,
            });
        }
        Mnemonic::Const(field) => {
            operand_count(name, operands, &[4], "4 numbers")?;
            let mut values = [0u16; 4];
            for (value, word) in values.iter_mut().zip(operands) {
                *value = half_from_text(word.text).ok_or_else(|| {
                    word.error(MesaErrorKind::Constant {
                        found: word.text.to_string(),
                    })
                })?;
            }
            match field {
                Field::Const0 => instr.const0 = Some(values),
                _ => instr.const1 = Some(values),
            }
        }
    }
    Ok(())
}

/// The destination (when there is one more operand than sources) and the sources.
fn split_dest<'w, 'a>(operands: &'w [Word<'a>], sources: usize) -> (Option<Word<'a>>, &'w [Word<'a>]) {
    if operands.len() > sources {
        (Some(operands[0]), &operands[1..])
    } else {
        (None, operands)
    }
}

fn no_outmod(name: Word, outmod: OutMod) -> Result<(), MesaError> {
    match outmod {
        OutMod::None => Ok(()),
        _ => Err(name.misplaced(
            "an operation of this form with an output modifier",
            "`mul.s2` has no output modifier; `atan_pt2.s2` writes it before its destination (`atan_pt2.s2 .sat$0.w $5`)",
        )),
    }
}

/// `.sat$0.w` -> (sat, `$0.w`).
fn split_outmod_prefix(word: Word) -> (OutMod, Word) {
    for row in ops::OUTMODS.iter().filter(|r| !r.mesa.is_empty()) {
        if let Some(rest) = word.strip_prefix(row.mesa) {
            return (row.value, rest);
        }
    }
    (OutMod::None, word)
}

/// The source with its `<<N` shift taken off: the op number `mul` gets (0-7); only `mul`
/// takes a shift.
fn with_shift(word: Word, op: MulOp) -> Result<(Word, u8), MesaError> {
    let Some(at) = word.text.find("<<") else {
        return Ok((word, ops::mul_op_code(op, 0)));
    };
    let shift = word.from(at);
    if op != MulOp::Mul {
        return Err(shift.misplaced("after a source of this op", "only `mul` takes a shift (`<<1` to `<<7`)"));
    }
    let number = shift.from(2);
    let code = decimal(number, "a shift")?;
    if code >= u64::from(ops::MUL_SHIFT_CODES) {
        return Err(number.out_of_range("shift", "0 to 7, the raw op number"));
    }
    Ok((word.until(at), code as u8))
}

/// A decimal number without sign.
fn decimal(word: Word, what: &'static str) -> Result<u64, MesaError> {
    if word.text.is_empty() || !word.text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(word.expected(what));
    }
    // More than 18 digits cannot fit any field; refuse them before they overflow.
    if word.text.len() > 18 {
        return Err(word.out_of_range("number", "too many digits"));
    }
    Ok(word.text.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0')))
}

/// A decimal number with an optional `-`. An error quotes the number as written, sign and all.
fn signed_decimal(word: Word, what: &'static str) -> Result<i64, MesaError> {
    let (negative, digits) = match word.strip_prefix("-") {
        Some(digits) => (true, digits),
        None => (false, word),
    };
    let value = decimal(digits, what).map_err(|error| match error.kind {
        MesaErrorKind::OutOfRange { what, range, .. } => word.out_of_range(what, range),
        _ => word.expected(what),
    })? as i64;
    Ok(if negative { -value } else { value })
}

/// `biasHHH`: the constant LOD bias as 3 hex digits of a 9-bit two's complement number.
fn lod_bias_constant(word: Word) -> Result<i16, MesaError> {
    let digits = word
        .strip_prefix(ops::TEXLD_BIAS_PREFIX)
        .filter(|d| d.text.len() == 3 && d.text.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| word.expected("the constant LOD bias as `bias` and 3 hex digits, like `bias000`"))?;
    let value = u16::from_str_radix(digits.text, 16).expect("invariant: 3 hex digits");
    if value > 0x1ff {
        return Err(digits.out_of_range("LOD bias", "000 to 1ff, 9 bits"));
    }
    Ok(((value << 7) as i16) >> 7)
}

/// `N[+$r.c]`: the number and the offset register.
fn split_offset(word: Word) -> Result<(Word, Option<ScalarReg>), MesaError> {
    // A `+` after the first character: a leading sign belongs to the number.
    match word.text.get(1..).and_then(|t| t.find('+')) {
        Some(i) => {
            let at = i + 1;
            let offset = plain_scalar(word.from(at + 1), "an offset register")?;
            Ok((word.until(at), Some(offset)))
        }
        None => Ok((word, None)),
    }
}

/// How an index is written: `N`, `N.xy`/`N.zw`, `N.c`.
#[derive(Clone, Copy, Debug)]
enum IndexForm {
    Whole(i64),
    Pair(i64, i64),
    Component(i64, i64),
}

fn index_form(word: Word, signed: bool) -> Result<(IndexForm, Option<ScalarReg>), MesaError> {
    const WHAT: &str = "an index such as `3`, `1.xy` or `2.w`";
    // A digit first (after a `-` where the index is signed): `--5`, `-+5` and `+5` are quoted
    // whole, not read as a sign and an offset.
    let unsigned = match word.strip_prefix("-") {
        Some(rest) if signed => rest,
        _ => word,
    };
    if !unsigned.text.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(word.expected(WHAT));
    }
    let (number, offset) = split_offset(word)?;
    let digits_from = usize::from(signed && number.text.starts_with('-'));
    let digits = number.text[digits_from..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let value = decimal(number.from(digits_from).until(digits), WHAT)? as i64;
    let value = if digits_from == 1 { -value } else { value };
    let suffix = number.from(digits_from + digits);
    let form = match suffix.text {
        "" => IndexForm::Whole(value),
        ".xy" => IndexForm::Pair(value, 0),
        ".zw" => IndexForm::Pair(value, 1),
        _ => match component(suffix) {
            Some((c, rest)) if rest.text.is_empty() => IndexForm::Component(value, i64::from(c)),
            _ => return Err(suffix.expected("the end of the index, `.xy`, `.zw` or one component")),
        },
    };
    Ok((form, offset))
}

/// A load or store index (16 bits, printed as a signed number) and the alignment its form
/// gives. Negative numbers read back as Mesa prints them: C's division and two's complement
/// remainder.
fn read_memory_index(form: IndexForm, word: Word) -> Result<(Alignment, u16), MesaError> {
    let (alignment, index) = match form {
        IndexForm::Whole(n) => (Alignment::Vec4, n),
        IndexForm::Pair(n, k) if n >= 0 => (Alignment::Vec2, 2 * n + k),
        IndexForm::Pair(n, k) => (Alignment::Vec2, 2 * n - k),
        IndexForm::Component(n, c) if n >= 0 => (Alignment::Scalar, 4 * n + c),
        IndexForm::Component(n, c) => (Alignment::Scalar, 4 * n - (4 - c) % 4),
    };
    if !(-0x8000..=0xffff).contains(&index) {
        return Err(word.out_of_range("index", "16 bits: -32768 to 65535 in the index's own units"));
    }
    Ok((alignment, index as u16))
}

/// A varying index (6 bits) and the alignment its form gives.
fn varying_fetch(word: Word) -> Result<VaryingFetch, MesaError> {
    let (form, offset) = index_form(word, false)?;
    let (alignment, index) = match form {
        IndexForm::Whole(n) => (VaryingAlignment::Vec4, n),
        IndexForm::Pair(n, k) => (VaryingAlignment::Vec2, 2 * n + k),
        IndexForm::Component(n, c) => (VaryingAlignment::Scalar, 4 * n + c),
    };
    if index > 63 {
        return Err(word.out_of_range("varying index", "6 bits: 0-63 floats, 0-31 pairs or 0-15 vec4s"));
    }
    if offset.is_some_and(|reg| u32::from(reg >> 2) == ops::fixed::NO_OFFSET_VECTOR) {
        return Err(word.misplaced(
            "a varying offset",
            "the offset register's number 15 means no offset: use `$0.x` to `^texture.w`",
        ));
    }
    Ok(VaryingFetch {
        alignment,
        index: index as u8,
        offset,
    })
}

fn read_varying(perspective: Perspective, name: Word, dest: Word, source: Word) -> Result<Varying, MesaError> {
    let (dest, mask_text) = match dest.strip_prefix(ops::DISCARD_REG_NAME) {
        Some(rest) => (ops::VARYING_DISCARD, rest),
        None => dest_register(dest)?,
    };
    let mask = read_mask(mask_text, true)?;
    let call = |kind: &ops::VaryingKindInfo| {
        source
            .strip_prefix(kind.mesa)
            .and_then(|w| w.strip_prefix("("))
            .and_then(|w| w.strip_suffix(")"))
    };
    let starts_with_digit = |w: Word| w.text.starts_with(|c: char| c.is_ascii_digit());
    let fixed = [
        (&ops::VARYING_FRAG_COORD, VaryingSource::FragCoord),
        (&ops::VARYING_POINT_COORD, VaryingSource::PointCoord),
        (&ops::VARYING_FRONT_FACING, VaryingSource::FrontFacing),
    ];
    let source = if let Some(inner) = call(&ops::VARYING_CUBE) {
        if starts_with_digit(inner) {
            VaryingSource::Cube(varying_fetch(inner)?)
        } else {
            VaryingSource::CubeRegister(read_vec_source(inner, false)?.0)
        }
    } else if let Some(inner) = call(&ops::VARYING_NORMALIZE) {
        VaryingSource::Normalize(read_vec_source(inner, false)?.0)
    } else if let Some((_, kind)) = fixed.iter().find(|(info, _)| info.mesa == source.text) {
        *kind
    } else if starts_with_digit(source) {
        VaryingSource::Fetch {
            perspective,
            fetch: varying_fetch(source)?,
        }
    } else {
        VaryingSource::Register {
            perspective,
            source: read_vec_source(source, false)?.0,
        }
    };
    let plain = matches!(source, VaryingSource::Fetch { .. } | VaryingSource::Register { .. });
    if perspective != Perspective::None && !plain {
        return Err(name.misplaced(
            "the name of this varying source",
            "a perspective divide goes only with a varying or a register source: write `load.v`",
        ));
    }
    Ok(Varying { dest, mask, source })
}

/// The component letter at the start of `word` after a `.`.
fn component(word: Word) -> Option<(u8, Word)> {
    let rest = word.strip_prefix(".")?;
    let letter = rest.text.chars().next()?;
    let c = COMPONENTS.iter().position(|&l| l == letter)?;
    Some((c as u8, rest.from(letter.len_utf8())))
}

/// `$N` for a destination (N up to 15), and what follows.
fn dest_register(word: Word) -> Result<(VecReg, Word), MesaError> {
    let Some(rest) = word.strip_prefix("$") else {
        if word.text.starts_with('^') {
            return Err(word.misplaced(
                "a destination",
                "destinations are registers `$0` to `$15` (a varying may also write `^discard`)",
            ));
        }
        return Err(word.expected("a destination register such as `$1`"));
    };
    let digits = rest.text.bytes().take_while(u8::is_ascii_digit).count();
    let number = decimal(rest.until(digits), "a register number")?;
    if number > 15 {
        return Err(word.until(digits + 1).out_of_range("register", "$0 to $15"));
    }
    Ok((number as u8, rest.from(digits)))
}

/// A register at the start of a source: `$N` (N up to 11) or a pipeline register.
fn source_register(word: Word) -> Result<(VecReg, Word), MesaError> {
    if word.text.starts_with('$') {
        let (reg, rest) = dest_register(word)?;
        if reg >= ops::GENERAL_REGS {
            return Err(word.until(word.text.len() - rest.text.len()).out_of_range(
                "source register",
                "$0 to $11; numbers 12-15 are ^const0, ^const1, ^texture and ^uniform",
            ));
        }
        return Ok((reg, rest));
    }
    for (reg, name) in VEC_REG_NAMES.iter().enumerate().skip(usize::from(ops::GENERAL_REGS)) {
        if let Some(rest) = word.strip_prefix(name) {
            return Ok((reg as u8, rest));
        }
    }
    if word.text.starts_with(ops::VMUL_NAME) || word.text.starts_with(ops::FMUL_NAME) {
        return Err(word.misplaced(
            "this source",
            "`^v0` is only the first source of a `.v1` op, `^s0` only of a `.s1` op",
        ));
    }
    Err(word.expected("a register such as `$1` or `^const0`"))
}

/// A write mask after a destination: nothing (all lanes) or `.` and lanes; `.` alone (no
/// lane) only where `empty` allows it.
fn read_mask(word: Word, empty: bool) -> Result<u8, MesaError> {
    let Some(letters) = word.strip_prefix(".") else {
        if word.text.is_empty() {
            return Ok(ops::MASK_ALL);
        }
        return Err(word.expected("a write mask such as `.xyz`"));
    };
    let mut mask = 0u8;
    for (i, letter) in letters.text.char_indices() {
        let bit = COMPONENTS
            .iter()
            .position(|&l| l == letter)
            .map(|c| 1u8 << c)
            .filter(|bit| mask & bit == 0)
            .ok_or_else(|| {
                letters
                    .from(i)
                    .expected("the lanes of a write mask, each once, from xyzw")
            })?;
        mask |= bit;
    }
    if mask == 0 && !empty {
        return Err(word.expected("a write mask with at least one lane"));
    }
    Ok(mask)
}

/// A swizzle after a register: nothing (`.xyzw`) or `.` and four letters.
fn swizzle_of(word: Word) -> Result<(u8, Word), MesaError> {
    let Some(letters) = word.strip_prefix(".") else {
        return Ok((ops::SWIZZLE_IDENTITY, word));
    };
    let mut swizzle = 0u8;
    let mut chars = letters.text.char_indices();
    for lane in 0..4 {
        let c = chars
            .next()
            .and_then(|(_, l)| COMPONENTS.iter().position(|&c| c == l))
            .ok_or_else(|| word.expected("a swizzle of four letters from xyzw"))?;
        swizzle |= (c as u8) << (2 * lane);
    }
    Ok((swizzle, letters.from(4)))
}

/// `-` and `abs( )` around `inner`.
fn modifiers(word: Word) -> Result<(bool, bool, Word), MesaError> {
    let (neg, word) = match word.strip_prefix("-") {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    match word.strip_prefix("abs(") {
        Some(inner) => match inner.strip_suffix(")") {
            Some(inner) => Ok((neg, true, inner)),
            None => Err(inner.expected("`)` closing `abs(`")),
        },
        None => Ok((neg, false, word)),
    }
}

/// A vector source; `vmul` allows `^v0` (returned as `true`, register 0).
fn read_vec_source(word: Word, vmul: bool) -> Result<(VecSource, bool), MesaError> {
    let (neg, abs, inner) = modifiers(word)?;
    let (reg, piped, rest) = match inner.strip_prefix(ops::VMUL_NAME) {
        Some(rest) if vmul => (0, true, rest),
        _ => {
            let (reg, rest) = source_register(inner)?;
            (reg, false, rest)
        }
    };
    let (swizzle, rest) = swizzle_of(rest)?;
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the source"));
    }
    Ok((VecSource { reg, swizzle, abs, neg }, piped))
}

/// A scalar source; `fmul` allows `^s0` (returned as `true`, register 0).
fn read_scalar_source(word: Word, fmul: bool) -> Result<(ScalarSource, bool), MesaError> {
    let (neg, abs, inner) = modifiers(word)?;
    if fmul && inner.text == ops::FMUL_NAME {
        return Ok((ScalarSource { reg: 0, abs, neg }, true));
    }
    let (reg, rest) = source_register(inner)?;
    let Some((c, rest)) = component(rest) else {
        return Err(rest.expected("one component, like `.x`"));
    };
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the source"));
    }
    Ok((
        ScalarSource {
            reg: reg * 4 + c,
            abs,
            neg,
        },
        false,
    ))
}

/// A scalar register without modifiers.
fn plain_scalar(word: Word, place: &'static str) -> Result<ScalarReg, MesaError> {
    let (source, _) = read_scalar_source(word, false)?;
    if source.abs || source.neg {
        return Err(word.misplaced(place, "this operand takes no `-` or `abs()`"));
    }
    Ok(source.reg)
}

/// A vector register with a swizzle and no modifiers.
fn plain_vector(word: Word) -> Result<(VecReg, u8), MesaError> {
    let (source, _) = read_vec_source(word, false)?;
    if source.abs || source.neg {
        return Err(word.misplaced("the vector operand", "this operand takes no `-` or `abs()`"));
    }
    Ok((source.reg, source.swizzle))
}

/// A vector register alone: no swizzle, no modifiers.
fn plain_vector_register(word: Word) -> Result<VecReg, MesaError> {
    let (reg, rest) = source_register(word)?;
    if !rest.text.is_empty() {
        return Err(rest.expected("the end of the register (a vec2 or vec4 store names a whole register)"));
    }
    Ok(reg)
}

/// `$N.c` as a scalar destination.
fn scalar_dest(word: Word) -> Result<ScalarReg, MesaError> {
    let (reg, rest) = dest_register(word)?;
    match component(rest) {
        Some((c, rest)) if rest.text.is_empty() => Ok(reg * 4 + c),
        _ => Err(rest.expected("one component, like `.x`")),
    }
}

/// A vector destination and its mask.
fn read_vec_dest(word: Word, empty: bool) -> Result<VecDest, MesaError> {
    let (reg, rest) = dest_register(word)?;
    Ok(VecDest {
        reg,
        mask: read_mask(rest, empty)?,
    })
}

/// The destination of a scalar op of the complex unit. `$N.c` prints the same for a scalar
/// destination and a vector one with a one-lane mask: it is read as Mesa's compiler writes
/// the op (scalar for rcp to cos, vector for atan and atan2), or as scalar when an output
/// modifier is written, which only the scalar form has.
fn combine_dest(op: CombineOp, outmod: OutMod, word: Word) -> Result<CombineDest, MesaError> {
    let (reg, rest) = dest_register(word)?;
    let vector_by_default = matches!(op, CombineOp::Atan | CombineOp::Atan2);
    if let Some((c, after)) = component(rest)
        && after.text.is_empty()
        && (outmod != OutMod::None || !vector_by_default)
    {
        return Ok(CombineDest::Scalar {
            reg: reg * 4 + c,
            outmod,
        });
    }
    let mask = read_mask(rest, true)?;
    if outmod != OutMod::None {
        return Err(word.misplaced(
            "the destination of an op with an output modifier",
            "an output modifier goes only with one component, like `$0.x`",
        ));
    }
    Ok(CombineDest::Vector(VecDest { reg, mask }))
}

/// The binary16 value of a constant as Mesa prints it: C's `%f` text (a decimal number,
/// rounded to the nearest binary16 value, ties to even), `inf`, `-inf`, `nan` or `-nan`.
/// `None` when the text is not a number or lies beyond the binary16 range.
pub fn half_from_text(text: &str) -> Option<u16> {
    let (sign, magnitude) = match text.strip_prefix('-') {
        Some(rest) => (0x8000u16, rest),
        None => (0, text),
    };
    match magnitude {
        "inf" => return Some(sign | 0x7c00),
        "nan" => return Some(sign | 0x7e00),
        _ => {}
    }
    let (whole, fraction) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    let whole = whole.trim_start_matches('0');
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty() && !magnitude.starts_with('0'))
        || !digits_ok(whole)
        || !digits_ok(fraction)
        || magnitude.starts_with('.')
        || magnitude.ends_with('.')
        || whole.len() > 6
        || fraction.len() > 18
    {
        return None;
    }
    // The value is `scaled / 10^k`; a half's value is `units * 2^-24`. Compare exactly in
    // integers: value * 10^k * 2^24.
    let k = fraction.len() as u32;
    let scaled = whole
        .bytes()
        .chain(fraction.bytes())
        .fold(0u128, |n, b| n * 10 + u128::from(b - b'0'));
    let target = scaled << 24;
    let power = 10u128.pow(k);
    let units = |h: u16| -> u128 {
        let exponent = u32::from(h >> 10);
        let fraction = u128::from(h & 0x3ff);
        if exponent == 0 {
            fraction
        } else {
            (fraction | 0x400) << (exponent - 1)
        }
    };
    let value = |h: u16| units(h) * power;
    const MAX_FINITE: u16 = 0x7bff;
    // The largest half not above the target.
    let (mut lo, mut hi) = (0u16, MAX_FINITE);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if value(mid) <= target {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let low = lo;
    // Past the largest finite value, IEEE rounding gives infinity from 65520 on.
    let high_value = if low == MAX_FINITE {
        units(MAX_FINITE) * 2 - units(MAX_FINITE - 1)
    } else {
        units(low + 1)
    } * power;
    let (to_low, to_high) = (target - value(low), high_value.saturating_sub(target));
    let pick = if to_low < to_high || (to_low == to_high && low & 1 == 0) {
        low
    } else if low == MAX_FINITE {
        return None;
    } else {
        low + 1
    };
    Some(sign | pick)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_print_like_printf() {
        assert_eq!(format_half(0x3C00), "1.000000");
        assert_eq!(format_half(0x0000), "0.000000");
        assert_eq!(format_half(0x8000), "-0.000000");
        assert_eq!(format_half(0xBEB6), "-1.677734");
        assert_eq!(format_half(0x7BFF), "65504.000000");
        assert_eq!(format_half(0x0001), "0.000000");
        assert_eq!(format_half(0x8001), "-0.000000");
        // 2^-7 = 0.0078125: a tie, rounded to even.
        assert_eq!(format_half(0x2000), "0.007812");
        // 3 * 2^-7 = 0.0234375: a tie, rounded to even (up).
        assert_eq!(format_half(0x2600), "0.023438");
        // 2^-14, the smallest normal: 0.00006103515625.
        assert_eq!(format_half(0x0400), "0.000061");
        assert_eq!(format_half(0x7C00), "inf");
        assert_eq!(format_half(0xFC00), "-inf");
        assert_eq!(format_half(0x7E00), "nan");
        assert_eq!(format_half(0xFE00), "-nan");
    }

    #[test]
    fn every_finite_half_prints_its_exact_value_rounded() {
        // The exact value with 30 decimals, cut to 6 with round-half-even by hand.
        for bits in 0..0x7C00u16 {
            let value = f64::from(bits & 0x3ff | if bits >> 10 != 0 { 0x400 } else { 0 })
                * 2f64.powi(i32::from((bits >> 10).max(1)) - 25);
            let text = format_half(bits);
            let printed: f64 = text.parse().expect("a decimal number");
            assert!(
                (printed - value).abs() <= 0.5e-6 + 1e-12,
                "{bits:#06x}: {text} vs {value}"
            );
        }
    }
}
