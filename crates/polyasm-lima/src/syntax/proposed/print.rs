//! Instructions to the proposed syntax, canonical: operations in control-word order (`stop`,
//! `sync`, then the fields), destination first, the shortest spelling of every operand, and a
//! label (`L1:`, `L2:`, ... in address order) at every branch target where an instruction
//! starts or the program ends. A target elsewhere prints as a signed word offset (`+3`). The
//! text assembles to the same words.
//!
//! ```
//! use polyasm_lima::{decode::decode, syntax::proposed::print_proposed};
//! let words = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];
//! let program: Vec<_> = decode(&words).expect("valid").into_iter().map(|d| d.instr).collect();
//! assert_eq!(print_proposed(&program), "stop, sync, load.v $1 0.xy, texld 0, mov.v0 $0 ^texture\n");
//! ```

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::half::to_f64;
use crate::instr::{
    Branch, Combine, CombineDest, FieldRef, FloatAcc, FloatMul, Instr, Load, Sampler, ScalarReg, ScalarSource, Store,
    Varying, VaryingFetch, VaryingSource, VecAcc, VecDest, VecMul, VecReg, VecSource,
};
use crate::ops::proposed::{self as names, Pipeline};
use crate::ops::{
    self, Alignment, BranchCond, COMBINE_ATAN_PT2, COMBINE_MUL, COMPONENTS, MulOp, OutMod, VEC_REG_NAMES,
    VaryingAlignment,
};

/// A program in the proposed syntax, one instruction a line, with labels at branch targets.
pub fn print_proposed(program: &[Instr]) -> String {
    let mut starts = Vec::with_capacity(program.len());
    let mut total = 0i64;
    for instr in program {
        starts.push(total);
        total += i64::from(instr.count());
    }
    let mut labels: BTreeMap<i64, String> = BTreeMap::new();
    for (instr, &start) in program.iter().zip(&starts) {
        if let Some(Branch::Jump { target, .. }) = instr.branch {
            let at = start + i64::from(target);
            if at == total || starts.binary_search(&at).is_ok() {
                labels.insert(at, String::new());
            }
        }
    }
    for (n, name) in labels.values_mut().enumerate() {
        *name = format!("L{}", n + 1);
    }
    let mut out = String::with_capacity(program.len() * 40);
    for (instr, &start) in program.iter().zip(&starts) {
        if let Some(label) = labels.get(&start) {
            let _ = writeln!(out, "{label}:");
        }
        out.push_str(&print_instr(instr, |target| {
            labels.get(&(start + i64::from(target))).cloned()
        }));
        out.push('\n');
    }
    if let Some(label) = labels.get(&total) {
        let _ = writeln!(out, "{label}:");
    }
    out
}

/// One instruction on one line (no newline); `label` names the label of a relative branch
/// target, if it has one.
pub fn print_instr(instr: &Instr, label: impl Fn(i32) -> Option<String>) -> String {
    let mut parts: Vec<String> = Vec::with_capacity(6);
    if instr.stop {
        parts.push(ops::STOP_NAME.to_string());
    }
    if instr.sync {
        parts.push(ops::SYNC_NAME.to_string());
    }
    parts.extend(instr.fields().map(|field| match field {
        FieldRef::Varying(v) => varying(v),
        FieldRef::Sampler(s) => sampler(s),
        FieldRef::Load(l) => load(l),
        FieldRef::VecMul(m) => vec4_mul(m),
        FieldRef::FloatMul(m) => float_mul(m),
        FieldRef::VecAcc(a) => vec4_acc(a),
        FieldRef::FloatAcc(a) => float_acc(a),
        FieldRef::Combine(c) => combine(c),
        FieldRef::Store(s) => store(s),
        FieldRef::Branch(b) => branch(b, &label),
        FieldRef::Const0(values) | FieldRef::Const1(values) => {
            let mut text = field.field().info().mesa.to_string();
            for &v in values {
                text.push(' ');
                text.push_str(&half(v));
            }
            text
        }
    }));
    if parts.is_empty() {
        return names::NOP.to_string();
    }
    parts.join(", ")
}

/// A binary16 constant as the shortest decimal that reads back to it, `inf`/`-inf`, or its
/// bits in hexadecimal for a NaN.
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

fn source_name(reg: VecReg) -> &'static str {
    VEC_REG_NAMES[usize::from(reg & 0xf)]
}

fn scalar_name(text: &mut String, reg: ScalarReg) {
    text.push_str(source_name(reg >> 2));
    text.push('.');
    text.push(COMPONENTS[usize::from(reg & 3)]);
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
    if mask == 0 {
        text.push('.');
        text.push_str(names::MASK_NONE);
    } else if mask != ops::MASK_ALL {
        text.push('.');
        for (lane, &letter) in COMPONENTS.iter().enumerate() {
            if mask >> lane & 1 == 1 {
                text.push(letter);
            }
        }
    }
}

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
        text.push_str(pipeline.map_or(source_name(source.reg), Pipeline::name));
        swizzle(text, source.swizzle);
    });
}

fn scalar_source(text: &mut String, source: &ScalarSource, pipeline: Option<Pipeline>) {
    modified(text, source.abs, source.neg, |text| match pipeline {
        Some(p) => text.push_str(p.name()),
        None => scalar_name(text, source.reg),
    });
}

fn dest_reg(text: &mut String, reg: VecReg) {
    let _ = write!(text, "${reg}");
}

fn vec_dest(text: &mut String, dest: &VecDest) {
    dest_reg(text, dest.reg);
    mask(text, dest.mask);
}

fn scalar_dest(text: &mut String, reg: ScalarReg) {
    dest_reg(text, reg >> 2);
    text.push('.');
    text.push(COMPONENTS[usize::from(reg & 3)]);
}

/// `N`, `N.xy`/`N.zw` or `N.c` from an index and its lanes per slot (4, 2 or 1).
fn index_form(text: &mut String, index: u32, lanes: u32) {
    match lanes {
        2 => {
            let _ = write!(text, "{}.{}", index >> 1, if index & 1 == 0 { "xy" } else { "zw" });
        }
        1 => {
            let _ = write!(text, "{}.{}", index >> 2, COMPONENTS[(index & 3) as usize]);
        }
        _ => {
            let _ = write!(text, "{index}");
        }
    }
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
    index_form(text, u32::from(fetch.index), lanes);
    offset(text, fetch.offset);
}

fn varying(v: &Varying) -> String {
    let mut text = String::from(ops::LOAD_NAME);
    if let VaryingSource::Fetch { perspective, .. } | VaryingSource::Register { perspective, .. } = v.source {
        text.push_str(perspective.info().name);
    }
    text.push_str(names::UNIT_VARYING);
    text.push(' ');
    if v.dest == ops::VARYING_DISCARD {
        text.push_str(Pipeline::Discard.name());
    } else {
        dest_reg(&mut text, v.dest);
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
        VaryingSource::Cube(f) => call(&mut text, ops::VARYING_CUBE.name, &|t| fetch(t, f)),
        VaryingSource::CubeRegister(s) => call(&mut text, ops::VARYING_CUBE_REGISTER.name, &|t| vec_source(t, s, None)),
        VaryingSource::Normalize(s) => call(&mut text, ops::VARYING_NORMALIZE.name, &|t| vec_source(t, s, None)),
        VaryingSource::FragCoord => text.push_str(ops::VARYING_FRAG_COORD.name),
        VaryingSource::PointCoord => text.push_str(ops::VARYING_POINT_COORD.name),
        VaryingSource::FrontFacing => text.push_str(ops::VARYING_FRONT_FACING.name),
    }
    text
}

fn sampler(s: &Sampler) -> String {
    let mut text = String::from(ops::TEXLD_NAME);
    if s.explicit_lod {
        text.push_str(names::TEXLD_LOD);
    }
    let _ = write!(text, " {}", s.index);
    offset(&mut text, s.offset);
    if let Some(reg) = s.lod_bias {
        text.push(' ');
        scalar_name(&mut text, reg);
    }
    if s.constant_lod_bias != 0 {
        let _ = write!(text, " {}({:?})", names::BIAS, f64::from(s.constant_lod_bias) / 16.0);
    }
    text
}

fn alignment_lanes(alignment: Alignment) -> u32 {
    match alignment {
        Alignment::Scalar | Alignment::Reserved => 1,
        Alignment::Vec2 => 2,
        Alignment::Vec4 => 4,
    }
}

fn load(l: &Load) -> String {
    let mut text = format!("{}{} ", ops::LOAD_NAME, l.source.info().name);
    index_form(&mut text, u32::from(l.index), alignment_lanes(l.alignment));
    offset(&mut text, l.offset);
    text
}

/// `name`, the shift, the output modifier and the unit.
fn head(name: &str, shift: i8, outmod: OutMod, unit: &str) -> String {
    let mut text = String::from(name);
    if let Some((_, t)) = names::MUL_SHIFTS.iter().find(|(s, _)| *s == shift) {
        text.push_str(t);
    }
    text.push_str(outmod.info().name);
    text.push_str(unit);
    text.push(' ');
    text
}

fn mul_name(op: MulOp) -> &'static str {
    op.info().mesa
}

fn vec4_mul(m: &VecMul) -> String {
    let mut text = head(mul_name(m.op), m.shift, m.outmod, names::UNIT_VEC_MUL);
    match &m.dest {
        Some(dest) => vec_dest(&mut text, dest),
        None => text.push_str(Pipeline::Vmul.name()),
    }
    text.push(' ');
    vec_source(&mut text, &m.arg0, None);
    if let Some(arg1) = &m.arg1 {
        text.push(' ');
        vec_source(&mut text, arg1, None);
    }
    text
}

fn float_mul(m: &FloatMul) -> String {
    let mut text = head(mul_name(m.op), m.shift, m.outmod, names::UNIT_FLOAT_MUL);
    match m.dest {
        Some(dest) => scalar_dest(&mut text, dest),
        None => text.push_str(Pipeline::Fmul.name()),
    }
    text.push(' ');
    scalar_source(&mut text, &m.arg0, None);
    if let Some(arg1) = &m.arg1 {
        text.push(' ');
        scalar_source(&mut text, arg1, None);
    }
    text
}

fn vec4_acc(a: &VecAcc) -> String {
    let mut text = head(a.op.info().mesa, 0, a.outmod, names::UNIT_VEC_ACC);
    match &a.dest {
        Some(dest) => vec_dest(&mut text, dest),
        None => text.push_str(Pipeline::Discard.name()),
    }
    text.push(' ');
    vec_source(&mut text, &a.arg0, a.mul_in.then_some(Pipeline::Vmul));
    if let Some(arg1) = &a.arg1 {
        text.push(' ');
        vec_source(&mut text, arg1, None);
    }
    text
}

fn float_acc(a: &FloatAcc) -> String {
    let mut text = head(a.op.info().mesa, 0, a.outmod, names::UNIT_FLOAT_ACC);
    match a.dest {
        Some(dest) => scalar_dest(&mut text, dest),
        None => text.push_str(Pipeline::Discard.name()),
    }
    text.push(' ');
    scalar_source(&mut text, &a.arg0, a.mul_in.then_some(Pipeline::Fmul));
    if let Some(arg1) = &a.arg1 {
        text.push(' ');
        scalar_source(&mut text, arg1, None);
    }
    text
}

fn combine(c: &Combine) -> String {
    match c {
        Combine::Scalar { op, dest, arg0, arg1 } => {
            let vector_default = names::COMBINE_VECTOR_DEFAULT.contains(op);
            let mut text = String::from(op.info().mesa);
            let outmod = match dest {
                CombineDest::Scalar { outmod, .. } => {
                    if vector_default {
                        text.push_str(names::COMBINE_SCALAR_DEST);
                    }
                    *outmod
                }
                CombineDest::Vector(d) => {
                    if !vector_default && d.mask.count_ones() == 1 {
                        text.push_str(names::COMBINE_VEC_DEST);
                    }
                    OutMod::None
                }
            };
            text.push_str(outmod.info().name);
            text.push_str(names::UNIT_COMBINE);
            text.push(' ');
            match dest {
                CombineDest::Scalar { reg, .. } => scalar_dest(&mut text, *reg),
                CombineDest::Vector(d) => vec_dest(&mut text, d),
            }
            text.push(' ');
            scalar_source(&mut text, arg0, None);
            if let Some(arg1) = arg1 {
                text.push(' ');
                scalar_source(&mut text, arg1, None);
            }
            text
        }
        Combine::MulVec {
            dest,
            arg0,
            arg1,
            swizzle: s,
        } => {
            let mut text = format!("{}{} ", COMBINE_MUL.mesa, names::UNIT_COMBINE);
            vec_dest(&mut text, dest);
            text.push(' ');
            scalar_source(&mut text, arg0, None);
            text.push(' ');
            text.push_str(source_name(*arg1));
            swizzle(&mut text, *s);
            text
        }
        Combine::AtanPt2 {
            dest,
            outmod,
            arg,
            swizzle: s,
        } => {
            let mut text = head(COMBINE_ATAN_PT2.mesa, 0, *outmod, names::UNIT_COMBINE);
            scalar_dest(&mut text, *dest);
            text.push(' ');
            text.push_str(source_name(*arg));
            swizzle(&mut text, *s);
            text
        }
    }
}

fn store(s: &Store) -> String {
    match s {
        Store::Temp {
            alignment,
            index,
            offset: off,
            source,
        } => {
            let mut text = format!("{}{} ", ops::STORE_NAME, names::UNIT_STORE);
            index_form(&mut text, u32::from(*index), alignment_lanes(*alignment));
            offset(&mut text, *off);
            text.push(' ');
            if *alignment == Alignment::Scalar {
                scalar_name(&mut text, *source);
            } else {
                text.push_str(source_name(source >> 2));
            }
            text
        }
        Store::FbRead { read, dest } => {
            let mut text = format!("{} ", read.info().name);
            dest_reg(&mut text, *dest);
            text
        }
    }
}

fn branch(b: &Branch, label: &impl Fn(i32) -> Option<String>) -> String {
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
                text.push_str(names::COND_PREFIX);
                text.push_str(cond.info().name);
                text.push(' ');
                scalar_name(&mut text, *arg0);
                text.push(' ');
                scalar_name(&mut text, *arg1);
            }
            text.push(' ');
            match label(*target) {
                Some(name) => text.push_str(&name),
                None => {
                    let _ = write!(text, "{target:+}");
                }
            }
            text
        }
    }
}
