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

use crate::instr::{Branch, Combine, Instr, ScalarReg, Store, VaryingSource, VecReg};
use crate::ops::{BranchCond, Field, REG_CONST0, REG_CONST1, VEC_REG_NAMES};
use crate::syntax::Syntax;
use crate::syntax::print::instr_text;

/// The constants `instr` reads in the proposed syntax (`^const0`, `^const1`) without holding
/// their field, as `(register, field)`: the proposed syntax refuses such a read (PP022), so
/// its text does not assemble again. Words can hold one (Mesa's text shows it).
pub fn unset_constants(instr: &Instr) -> Vec<(&'static str, &'static str)> {
    if instr.const0.is_some() && instr.const1.is_some() {
        return Vec::new();
    }
    let read = source_registers(instr);
    [
        (REG_CONST0, Field::Const0.info().mesa, instr.const0.is_some()),
        (REG_CONST1, Field::Const1.info().mesa, instr.const1.is_some()),
    ]
    .into_iter()
    .filter(|&(reg, _, set)| !set && read >> reg & 1 == 1)
    .map(|(reg, field, _)| (VEC_REG_NAMES[usize::from(reg)], field))
    .collect()
}

/// The vec4 registers (a bit each, a scalar counting as its vec4 register) that `instr`'s
/// text names as sources: the operands the printer walk writes with a register's name, found
/// without printing them.
fn source_registers(instr: &Instr) -> u16 {
    let vec = |reg: VecReg| 1u16 << (reg & 0xf);
    let scalar = |reg: ScalarReg| vec(reg >> 2);
    let offset = |reg: Option<ScalarReg>| reg.map_or(0, scalar);
    let mut read = 0;
    if let Some(v) = &instr.varying {
        read |= match &v.source {
            VaryingSource::Fetch { fetch, .. } | VaryingSource::Cube(fetch) => offset(fetch.offset),
            VaryingSource::Register { source, .. }
            | VaryingSource::CubeRegister(source)
            | VaryingSource::Normalize(source) => vec(source.reg),
            VaryingSource::FragCoord | VaryingSource::PointCoord | VaryingSource::FrontFacing => 0,
        };
    }
    if let Some(s) = &instr.sampler {
        read |= offset(s.offset) | offset(s.lod_bias);
    }
    if let Some(l) = &instr.load {
        read |= offset(l.offset);
    }
    if let Some(m) = &instr.vec4_mul {
        read |= vec(m.arg0.reg) | m.arg1.map_or(0, |a| vec(a.reg));
    }
    if let Some(m) = &instr.float_mul {
        read |= scalar(m.arg0.reg) | m.arg1.map_or(0, |a| scalar(a.reg));
    }
    // An adder's first source from the multiplier is the pipeline register, not a register.
    if let Some(a) = &instr.vec4_acc {
        read |= if a.mul_in { 0 } else { vec(a.arg0.reg) } | a.arg1.map_or(0, |a| vec(a.reg));
    }
    if let Some(a) = &instr.float_acc {
        read |= if a.mul_in { 0 } else { scalar(a.arg0.reg) } | a.arg1.map_or(0, |a| scalar(a.reg));
    }
    if let Some(c) = &instr.combine {
        read |= match c {
            Combine::Scalar { arg0, arg1, .. } => scalar(arg0.reg) | arg1.map_or(0, |a| scalar(a.reg)),
            Combine::MulVec { arg0, arg1, .. } => scalar(arg0.reg) | vec(*arg1),
            Combine::AtanPt2 { arg, .. } => vec(*arg),
        };
    }
    if let Some(Store::Temp { offset: at, source, .. }) = &instr.store {
        read |= offset(*at) | scalar(*source);
    }
    // An unconditional branch prints no sources.
    if let Some(Branch::Jump { cond, arg0, arg1, .. }) = &instr.branch
        && *cond != BranchCond::Always
    {
        read |= scalar(*arg0) | scalar(*arg1);
    }
    read
}

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
    instr_text(instr, Syntax::Proposed, &|text, target| match label(target) {
        Some(name) => text.push_str(&name),
        None => {
            let _ = write!(text, "{target:+}");
        }
    })
}
