//! One printer for both syntaxes: a walk over an instruction's fields in control-word order
//! whose spellings and layout are the syntax's. The proposed syntax is canonical: `stop` and
//! `sync` first, destination first, the shortest spelling of every operand, `nop` for an empty
//! instruction. Mesa's is the text its disassembler prints, byte for byte, quirks included:
//! `sync` and `stop` last, the constant LOD bias as three hex digits, load and store indices as
//! signed 16-bit numbers, the space before a one-source vector multiplier op's missing second
//! source, constants as C's `%f`.

use std::fmt::Write;

use crate::instr::{
    Branch, Combine, CombineDest, FieldRef, FloatAcc, FloatMul, Instr, Sampler, ScalarReg, ScalarSource, Store,
    Varying, VaryingFetch, VaryingSource, VecAcc, VecDest, VecMul, VecReg, VecSource,
};
use crate::ops::proposed::{self as names, Pipeline};
use crate::ops::{
    self, Alignment, BranchCond, COMPONENTS, Field, Form, FormInfo, MulOp, OutMod, VEC_REG_NAMES, VaryingAlignment,
    VaryingKindInfo,
};
use crate::syntax::Syntax;
use polyasm_core::half::to_f64;

/// One instruction in `syntax` on one line (no newline); `target` writes a branch's relative
/// target.
pub(crate) fn instr_text(instr: &Instr, syntax: Syntax, target: &dyn Fn(&mut String, i32)) -> String {
    let printer = Printer {
        mesa: syntax == Syntax::Mesa,
        target,
    };
    let mut parts: Vec<String> = Vec::with_capacity(6);
    if !printer.mesa {
        parts.extend(instr.stop.then(|| Form::Stop.info().name().to_string()));
        parts.extend(instr.sync.then(|| Form::Sync.info().name().to_string()));
    }
    parts.extend(instr.fields().map(|field| printer.field(field)));
    if printer.mesa {
        let mut line = parts.join(", ");
        for (set, form) in [(instr.sync, Form::Sync), (instr.stop, Form::Stop)] {
            if set {
                let _ = write!(line, ", {}", form.info().mesa_name());
            }
        }
        return line;
    }
    if parts.is_empty() {
        return Form::Nop.info().name().to_string();
    }
    parts.join(", ")
}

/// A binary16 constant in the proposed syntax: the shortest decimal that reads back to it,
/// `inf`/`-inf`, or its bits in hexadecimal for a NaN.
pub fn half(bits: u16) -> String {
    let value = to_f64(bits);
    if value.is_nan() {
        format!("{bits:#06x}")
    } else if value.is_infinite() {
        if value < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        format!("{value:?}")
    }
}

/// An IEEE binary16 value as C's `printf("%f")` prints it, as Mesa does: exact, six decimals
/// rounded to nearest with ties to even, `-` on every negative value including -0, `inf`/`nan`
/// with their sign. Rust's formatting of the exact value rounds the same way for every
/// binary16 value; only a NaN loses its sign there.
pub fn format_half(bits: u16) -> String {
    let value = to_f64(bits);
    if value.is_nan() {
        let sign = if bits & 0x8000 != 0 { "-" } else { "" };
        return format!("{sign}nan");
    }
    format!("{value:.6}")
}

fn reg_name(reg: VecReg) -> &'static str {
    VEC_REG_NAMES[usize::from(reg & 0xf)]
}

fn scalar_name(text: &mut String, reg: ScalarReg) {
    let _ = write!(text, "{}.{}", reg_name(reg >> 2), COMPONENTS[usize::from(reg & 3)]);
}

fn swizzle(text: &mut String, swizzle: u8) {
    if swizzle != ops::SWIZZLE_IDENTITY {
        text.push('.');
        for lane in 0..4 {
            text.push(COMPONENTS[usize::from(swizzle >> (2 * lane) & 3)]);
        }
    }
}

/// `-`, `abs(`, what `inner` writes, the closing parenthesis.
fn modified(text: &mut String, abs: bool, neg: bool, inner: impl FnOnce(&mut String)) {
    if neg {
        text.push('-');
    }
    if abs {
        text.push_str(names::ABS);
        text.push('(');
    }
    inner(text);
    if abs {
        text.push(')');
    }
}

fn vec_source(text: &mut String, source: &VecSource, pipeline: Option<Pipeline>) {
    modified(text, source.abs, source.neg, |text| {
        text.push_str(pipeline.map_or(reg_name(source.reg), Pipeline::name));
        swizzle(text, source.swizzle);
    });
}

fn scalar_source(text: &mut String, source: &ScalarSource, pipeline: Option<Pipeline>) {
    modified(text, source.abs, source.neg, |text| match pipeline {
        Some(p) => text.push_str(p.name()),
        None => scalar_name(text, source.reg),
    });
}

/// `N`, `N.xy`/`N.zw` or `N.c` from an index and its lanes per slot (4, 2 or 1).
fn index_form(text: &mut String, index: i32, lanes: u32) {
    let _ = match lanes {
        2 => write!(text, "{}.{}", index / 2, if index & 1 == 0 { "xy" } else { "zw" }),
        1 => write!(text, "{}.{}", index / 4, COMPONENTS[(index & 3) as usize]),
        _ => write!(text, "{index}"),
    };
}

fn offset(text: &mut String, offset: Option<ScalarReg>) {
    if let Some(reg) = offset {
        text.push('+');
        scalar_name(text, reg);
    }
}

fn fetch(text: &mut String, fetch: &VaryingFetch) {
    let lanes = match fetch.alignment {
        VaryingAlignment::Scalar => 1,
        VaryingAlignment::Vec2 => 2,
        VaryingAlignment::Vec4 => 4,
    };
    index_form(text, i32::from(fetch.index), lanes);
    offset(text, fetch.offset);
}

/// The unit suffix of `field` (`.v0`).
fn unit(field: Field) -> &'static str {
    field.info().units[0]
}

/// Writes a source operand, or the pipeline register named instead of its register.
type WriteSource<S> = fn(&mut String, &S, Option<Pipeline>);

/// Writes an instruction in one syntax.
struct Printer<'t> {
    /// Mesa's text, else the proposed syntax.
    mesa: bool,
    target: &'t dyn Fn(&mut String, i32),
}

impl Printer<'_> {
    /// The syntax's spelling of a row with a name in each.
    fn pick(&self, proposed: &'static str, mesa: &'static str) -> &'static str {
        if self.mesa { mesa } else { proposed }
    }

    /// A row's name, without its unit, in the syntax.
    fn name(&self, row: &FormInfo) -> &'static str {
        self.pick(row.name(), row.mesa_name())
    }

    fn field(&self, field: FieldRef) -> String {
        match field {
            FieldRef::Varying(v) => self.varying(v),
            FieldRef::Sampler(s) => self.sampler(s),
            FieldRef::Load(l) => self.memory(l.source.form(), l.alignment, l.index, l.offset),
            FieldRef::VecMul(m) => self.vec4_mul(m),
            FieldRef::FloatMul(m) => self.float_mul(m),
            FieldRef::VecAcc(a) => self.vec4_acc(a),
            FieldRef::FloatAcc(a) => self.float_acc(a),
            FieldRef::Combine(c) => self.combine(c),
            FieldRef::Store(s) => self.store(s),
            FieldRef::Branch(b) => self.branch(b),
            FieldRef::Const0(values) | FieldRef::Const1(values) => {
                let mut text = field.field().info().mesa.to_string();
                for &v in values {
                    text.push(' ');
                    text.push_str(&if self.mesa { format_half(v) } else { half(v) });
                }
                text
            }
        }
    }

    /// A destination register `$N`: Mesa names only sources, so pipeline numbers too.
    fn dest(&self, text: &mut String, reg: VecReg) {
        let _ = write!(text, "${}", if self.mesa { reg & 0xf } else { reg });
    }

    fn scalar_dest(&self, text: &mut String, reg: ScalarReg) {
        self.dest(text, reg >> 2);
        let _ = write!(text, ".{}", COMPONENTS[usize::from(reg & 3)]);
    }

    /// A write mask: nothing for all lanes; no lane is `.none`, in Mesa's text a lone `.`.
    fn mask(&self, text: &mut String, mask: u8) {
        if mask == ops::MASK_ALL {
            return;
        }
        text.push('.');
        if mask == 0 && !self.mesa {
            text.push_str(names::MASK_NONE);
        }
        for (lane, &letter) in COMPONENTS.iter().enumerate() {
            if mask >> lane & 1 == 1 {
                text.push(letter);
            }
        }
    }

    fn vec_dest(&self, text: &mut String, dest: &VecDest) {
        self.dest(text, dest.reg);
        self.mask(text, dest.mask);
    }

    /// A load or store: its name, its index by its alignment (Mesa prints it as a signed 16-bit
    /// number) and its offset.
    fn memory(&self, form: Form, alignment: Alignment, index: u16, off: Option<ScalarReg>) -> String {
        let row = form.info();
        let mut text = format!("{} ", self.pick(row.mnemonic, row.second.unwrap_or_default()));
        let index: i32 = if self.mesa { index as i16 as i32 } else { index.into() };
        let lanes = match alignment {
            Alignment::Scalar | Alignment::Reserved => 1,
            Alignment::Vec2 => 2,
            Alignment::Vec4 => 4,
        };
        index_form(&mut text, index, lanes);
        offset(&mut text, off);
        text
    }

    /// The op name, the shift (proposed), the output modifier, the unit and a space.
    fn head(&self, name: &str, shift: i8, outmod: OutMod, field: Field) -> String {
        let mut text = name.to_string();
        if !self.mesa
            && let Some((_, t)) = names::MUL_SHIFTS.iter().find(|(s, _)| *s == shift)
        {
            text.push_str(t);
        }
        text.push_str(self.pick(outmod.info().name, outmod.info().mesa));
        text.push_str(unit(field));
        text.push(' ');
        text
    }

    /// Mesa's `<<N` after the first source of a shifted `mul`.
    fn shift(&self, text: &mut String, op: MulOp, shift: i8) {
        if !self.mesa || op != MulOp::Mul {
            return;
        }
        let code = ops::mul_op_code(op, shift);
        if code != 0 {
            let _ = write!(text, "<<{code}");
        }
    }

    /// A space and the second source, written by `write`: Mesa's text shows one exactly when
    /// the op takes two (`binary`), the proposed syntax when there is one.
    fn second<S: Copy + Default>(&self, text: &mut String, binary: bool, arg1: Option<S>, write: WriteSource<S>) {
        let shown = if self.mesa {
            binary.then(|| arg1.unwrap_or_default())
        } else {
            arg1
        };
        if let Some(arg1) = shown {
            text.push(' ');
            write(text, &arg1, None);
        }
    }

    /// A destination, or `none` (the pipeline register written instead) where the proposed
    /// syntax names it; then a space.
    fn alu_dest<D>(&self, text: &mut String, dest: Option<D>, none: Pipeline, write: fn(&Self, &mut String, D)) {
        match dest {
            Some(dest) => write(self, text, dest),
            None if self.mesa => return,
            None => text.push_str(none.name()),
        }
        text.push(' ');
    }

    fn varying_kind(&self, kind: &VaryingKindInfo) -> &'static str {
        self.pick(kind.name, kind.mesa)
    }

    fn varying(&self, v: &Varying) -> String {
        let mut text = String::from(self.name(Form::LoadV.info()));
        if let VaryingSource::Fetch { perspective, .. } | VaryingSource::Register { perspective, .. } = v.source {
            text.push_str(self.pick(perspective.info().name, perspective.info().mesa));
        }
        text.push_str(unit(Field::Varying));
        text.push(' ');
        if v.dest == ops::VARYING_DISCARD {
            text.push_str(Pipeline::Discard.name());
        } else {
            self.dest(&mut text, v.dest);
        }
        self.mask(&mut text, v.mask);
        text.push(' ');
        let call = |text: &mut String, kind: &VaryingKindInfo, inner: &dyn Fn(&mut String)| {
            text.push_str(self.varying_kind(kind));
            text.push('(');
            inner(text);
            text.push(')');
        };
        match &v.source {
            VaryingSource::Fetch { fetch: f, .. } => fetch(&mut text, f),
            VaryingSource::Register { source, .. } => vec_source(&mut text, source, None),
            VaryingSource::Cube(f) => call(&mut text, &ops::VARYING_CUBE, &|t| fetch(t, f)),
            VaryingSource::CubeRegister(s) => call(&mut text, &ops::VARYING_CUBE_REGISTER, &|t| vec_source(t, s, None)),
            VaryingSource::Normalize(s) => call(&mut text, &ops::VARYING_NORMALIZE, &|t| vec_source(t, s, None)),
            VaryingSource::FragCoord => text.push_str(self.varying_kind(&ops::VARYING_FRAG_COORD)),
            VaryingSource::PointCoord => text.push_str(self.varying_kind(&ops::VARYING_POINT_COORD)),
            VaryingSource::FrontFacing => text.push_str(self.varying_kind(&ops::VARYING_FRONT_FACING)),
        }
        text
    }

    fn sampler(&self, s: &Sampler) -> String {
        let mut text = String::from(self.name(Form::Texld.info()));
        if self.mesa {
            if s.lod_bias.is_some() {
                text.push_str(ops::TEXLD_BIAS_SUFFIX);
            }
            let bias = s.constant_lod_bias as u16 & 0x1ff;
            let _ = write!(text, " {}{bias:03x} {}", ops::TEXLD_BIAS_PREFIX, s.index & 0xfff);
        } else {
            if s.explicit_lod {
                text.push_str(names::TEXLD_LOD);
            }
            let _ = write!(text, " {}", s.index);
        }
        offset(&mut text, s.offset);
        if let Some(reg) = s.lod_bias {
            text.push(' ');
            scalar_name(&mut text, reg);
        }
        if !self.mesa && s.constant_lod_bias != 0 {
            let _ = write!(text, " {}({:?})", names::BIAS, f64::from(s.constant_lod_bias) / 16.0);
        }
        text
    }

    fn vec4_mul(&self, m: &VecMul) -> String {
        let mut text = self.head(self.name(m.op.info()), m.shift, m.outmod, Field::Vec4Mul);
        self.alu_dest(&mut text, m.dest.as_ref(), Pipeline::Vmul, Self::vec_dest);
        vec_source(&mut text, &m.arg0, None);
        self.shift(&mut text, m.op, m.shift);
        // Mesa's space before the second source stays when a one-source op has none.
        if self.mesa && !m.op.is_binary() {
            text.push(' ');
        }
        self.second(&mut text, m.op.is_binary(), m.arg1, vec_source);
        text
    }

    fn float_mul(&self, m: &FloatMul) -> String {
        let mut text = self.head(self.name(m.op.info()), m.shift, m.outmod, Field::FloatMul);
        self.alu_dest(&mut text, m.dest, Pipeline::Fmul, Self::scalar_dest);
        scalar_source(&mut text, &m.arg0, None);
        self.shift(&mut text, m.op, m.shift);
        self.second(&mut text, m.op.is_binary(), m.arg1, scalar_source);
        text
    }

    fn vec4_acc(&self, a: &VecAcc) -> String {
        let mut text = self.head(self.name(a.op.info()), 0, a.outmod, Field::Vec4Acc);
        self.alu_dest(&mut text, a.dest.as_ref(), Pipeline::Discard, Self::vec_dest);
        vec_source(&mut text, &a.arg0, a.mul_in.then_some(Pipeline::Vmul));
        self.second(&mut text, a.op.is_binary(), a.arg1, vec_source);
        text
    }

    fn float_acc(&self, a: &FloatAcc) -> String {
        let mut text = self.head(self.name(a.op.info()), 0, a.outmod, Field::FloatAcc);
        self.alu_dest(&mut text, a.dest, Pipeline::Discard, Self::scalar_dest);
        scalar_source(&mut text, &a.arg0, a.mul_in.then_some(Pipeline::Fmul));
        self.second(&mut text, a.op.is_binary(), a.arg1, scalar_source);
        text
    }

    fn combine(&self, c: &Combine) -> String {
        match c {
            Combine::Scalar { op, dest, arg0, arg1 } => {
                // The proposed syntax names the destination form where it is not the op's own.
                let vector_default = names::COMBINE_VECTOR_DEFAULT.contains(op);
                let (outmod, form) = match dest {
                    CombineDest::Scalar { outmod, .. } => {
                        (*outmod, vector_default.then_some(names::COMBINE_SCALAR_DEST))
                    }
                    CombineDest::Vector(d) => (
                        OutMod::None,
                        (!vector_default && d.mask.count_ones() == 1).then_some(names::COMBINE_VEC_DEST),
                    ),
                };
                let name = format!("{}{}", self.name(op.info()), self.pick(form.unwrap_or_default(), ""));
                let mut text = self.head(&name, 0, outmod, Field::Combine);
                match dest {
                    CombineDest::Scalar { reg, .. } => self.scalar_dest(&mut text, *reg),
                    CombineDest::Vector(d) => self.vec_dest(&mut text, d),
                }
                text.push(' ');
                scalar_source(&mut text, arg0, None);
                self.second(&mut text, op.is_binary(), *arg1, scalar_source);
                text
            }
            Combine::MulVec {
                dest,
                arg0,
                arg1,
                swizzle: s,
            } => {
                let mut text = self.head(self.name(Form::MulS2.info()), 0, OutMod::None, Field::Combine);
                self.vec_dest(&mut text, dest);
                text.push(' ');
                scalar_source(&mut text, arg0, None);
                text.push(' ');
                text.push_str(reg_name(*arg1));
                swizzle(&mut text, *s);
                text
            }
            Combine::AtanPt2 {
                dest,
                outmod,
                arg,
                swizzle: s,
            } => {
                // Mesa writes the output modifier after the space, right before the destination.
                let (in_head, before_dest) = if self.mesa {
                    (OutMod::None, outmod.info().mesa)
                } else {
                    (*outmod, "")
                };
                let mut text = self.head(self.name(Form::AtanPt2S2.info()), 0, in_head, Field::Combine);
                text.push_str(before_dest);
                self.scalar_dest(&mut text, *dest);
                text.push(' ');
                text.push_str(reg_name(*arg));
                swizzle(&mut text, *s);
                text
            }
        }
    }

    fn store(&self, s: &Store) -> String {
        match s {
            Store::Temp {
                alignment,
                index,
                offset: off,
                source,
            } => {
                let mut text = self.memory(Form::StoreT, *alignment, *index, *off);
                text.push(' ');
                if *alignment == Alignment::Scalar {
                    scalar_name(&mut text, *source);
                } else {
                    text.push_str(reg_name(source >> 2));
                }
                text
            }
            Store::FbRead { read, dest } => {
                let mut text = format!("{} ", self.name(read.form().info()));
                self.dest(&mut text, *dest);
                text
            }
        }
    }

    fn branch(&self, b: &Branch) -> String {
        match b {
            Branch::Discard => self.name(Form::Discard.info()).to_string(),
            Branch::Jump {
                cond,
                arg0,
                arg1,
                target,
            } => {
                let mut text = String::from(self.name(Form::Branch.info()));
                if *cond != BranchCond::Always {
                    text.push_str(self.pick(names::COND_PREFIX, "."));
                    text.push_str(self.pick(cond.info().name, cond.info().mesa));
                    text.push(' ');
                    scalar_name(&mut text, *arg0);
                    text.push(' ');
                    scalar_name(&mut text, *arg1);
                }
                text.push(' ');
                (self.target)(&mut text, *target);
                text
            }
        }
    }
}
