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

use crate::instr::{Branch, Instr};
use crate::ops::{Field, REG_CONST0, REG_CONST1, VEC_REG_NAMES};
use crate::syntax::Syntax;
use crate::syntax::print::instr_text;

/// The constants `instr` reads in the proposed syntax (`^const0`, `^const1`) without holding
/// their field, as `(register, field)`: the proposed syntax refuses such a read (PP022), so
/// its text does not assemble again. Words can hold one (Mesa's text shows it). A constant is
/// read where `line`, the instruction's text ([`print_instr`]), names it.
pub fn unset_constants(instr: &Instr, line: &str) -> Vec<(&'static str, &'static str)> {
    [
        (REG_CONST0, Field::Const0, instr.const0.is_some()),
        (REG_CONST1, Field::Const1, instr.const1.is_some()),
    ]
    .into_iter()
    .map(|(reg, field, set)| (VEC_REG_NAMES[usize::from(reg)], field.info().mesa, set))
    .filter(|&(name, _, set)| !set && line.contains(name))
    .map(|(name, field, _)| (name, field))
    .collect()
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
