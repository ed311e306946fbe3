//! Instructions back to canonical source: one instruction per line, a label before every
//! instruction an absolute jump or branch targets (`:L12`), `begin` and `end` for the program's
//! ends, and character literals for the bytes `outc` prints. Assembling the text gives the
//! same instructions.

use std::fmt::Write;

use crate::ops::{Instr, Kind, Value};

/// The label of the instruction at `index` of a program of `count` instructions.
fn label(index: u16, count: usize) -> String {
    match usize::from(index) {
        0 => "begin".to_string(),
        i if i == count => "end".to_string(),
        i => format!("L{i}"),
    }
}

/// The immediate that names an instruction: an absolute jump or branch target inside the
/// program (or its end).
fn target(instr: &Instr, count: usize) -> Option<u16> {
    match (instr.kind, instr.modifier, instr.value) {
        (Kind::Jmp, None, Value::Imm(to)) | (Kind::B, _, Value::Imm(to)) if usize::from(to) <= count => Some(to),
        _ => None,
    }
}

/// A character literal for `byte` when it reads better than its number.
fn char_literal(byte: u16) -> Option<String> {
    let escaped = match byte {
        0x0a => "\\n".to_string(),
        0x09 => "\\t".to_string(),
        0x27 => "\\'".to_string(),
        0x5c => "\\\\".to_string(),
        0x20..=0x7e => char::from(byte as u8).to_string(),
        _ => return None,
    };
    Some(format!("'{escaped}'"))
}

/// One instruction as written, with its immediate as a number: `ldamt 2`.
pub fn print_instruction(instr: &Instr) -> String {
    match instr.imm() {
        Some(imm) => format!("{} {imm}", instr.name()),
        None => instr.name(),
    }
}

/// Prints a program.
pub fn print_program(instrs: &[Instr]) -> String {
    let count = instrs.len();
    let mut targeted = vec![false; count + 1];
    for instr in instrs {
        if let Some(to) = target(instr, count) {
            targeted[usize::from(to)] = true;
        }
    }
    let mut out = String::with_capacity(count * 12);
    for (index, instr) in instrs.iter().enumerate() {
        // `begin` is predefined: it is never written as a definition.
        if targeted[index] && index != 0 {
            let _ = writeln!(out, ":{}", label(index as u16, count));
        }
        out.push_str(&instr.name());
        let imm = instr.imm().map(|imm| match target(instr, count) {
            Some(to) => label(to, count),
            None if instr.kind == Kind::Outc && matches!(instr.value, Value::Imm(_)) => {
                char_literal(imm).unwrap_or_else(|| imm.to_string())
            }
            None => imm.to_string(),
        });
        if let Some(imm) = imm {
            out.push(' ');
            out.push_str(&imm);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{Cond, CondReg, Oper, Reg};

    #[test]
    fn jump_targets_get_labels_and_outc_prints_characters() {
        let program = [
            Instr {
                value: Value::Imm(65),
                ..Instr::bare(Kind::Outc)
            },
            Instr {
                cond: Some((CondReg::R, Cond::Ne)),
                value: Value::Imm(0),
                ..Instr::bare(Kind::B)
            },
            Instr {
                modifier: Some(Oper::Add),
                value: Value::RegOp(Reg::M, Oper::Mul, 2),
                ..Instr::bare(Kind::Ld)
            },
            Instr {
                value: Value::Imm(2),
                ..Instr::bare(Kind::Jmp)
            },
            Instr {
                value: Value::Imm(5),
                ..Instr::bare(Kind::Jmp)
            },
        ];
        assert_eq!(
            print_program(&program),
            "outc 'A'\nbne begin\n:L2\nldamt 2\njmp L2\njmp end\n"
        );
    }
}
