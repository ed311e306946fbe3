//! Instructions back to canonical source: one call per line, operands separated by `, `, and
//! `load`'s number as the shortest text that reads back as the same 32-bit float. Assembling
//! the text gives the same instructions. Also the instruction and register tables of the docs.

use std::fmt::Write;

use crate::ops::{FIRST_VECTOR, Instr, Operand, Reg, SCALARS, SPECIALS, V2_SCALARS, V2_VECTORS, VECTORS};

/// `load`'s constant as the shortest decimal text that reads back as the same float: plain
/// for magnitudes from 0.0001 up to 1e16, with an exponent otherwise (`1e-45`,
/// `3.4028235e38`); `-0` keeps its sign.
pub fn format_number(value: f32) -> String {
    let magnitude = value.abs();
    if magnitude == 0.0 || (1e-4..1e16).contains(&magnitude) {
        format!("{value}")
    } else {
        format!("{value:e}")
    }
}

/// One instruction as canonical source: `multiply(s0, s2, s0)`, `load(s1, -2.5)`.
pub fn print_instruction(instr: &Instr) -> String {
    let mut out = String::with_capacity(24);
    write_instruction(&mut out, instr);
    out
}

fn write_instruction(out: &mut String, instr: &Instr) {
    let info = instr.op.info();
    out.push_str(info.mnemonic);
    out.push('(');
    for (i, (operand, reg)) in info.operands.iter().zip(instr.regs).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match operand {
            Operand::Number => out.push_str(&format_number(instr.constant)),
            _ => out.push_str(&reg.name()),
        }
    }
    out.push(')');
}

/// A program as canonical source, one instruction per line.
pub fn print_program(instrs: &[Instr]) -> String {
    let mut out = String::with_capacity(instrs.len() * 24);
    for instr in instrs {
        write_instruction(&mut out, instr);
        out.push('\n');
    }
    out
}

/// The register table as Markdown, for the `registers` region of docs/shader.md and
/// docs/formats/shader-bytecode.md.
pub fn markdown_registers() -> String {
    let mut out = String::from("| register | number | type | dialects | holds |\n|---|---|---|---|---|\n");
    let range = |first: u8, count: u8| {
        let (a, b) = (Reg(first), Reg(first + count - 1));
        let between = if count == 2 { ", " } else { " to " };
        (
            format!("`{}`{between}`{}`", a.name(), b.name()),
            format!("{}{between}{}", a.0, b.0),
            a.dialects().names(),
        )
    };
    for (first, count, ty) in [
        (0, V2_SCALARS, "scalar"),
        (V2_SCALARS, SCALARS - V2_SCALARS, "scalar"),
        (FIRST_VECTOR, V2_VECTORS, "vector"),
        (FIRST_VECTOR + V2_VECTORS, VECTORS - V2_VECTORS, "vector"),
    ] {
        let (names, numbers, dialects) = range(first, count);
        let _ = writeln!(
            out,
            "| {names} | {numbers} | {ty} | {dialects} | yours, 0 at the start |"
        );
    }
    for special in &SPECIALS {
        let access = match (special.writable, special.reg == crate::ops::ZERO) {
            (true, _) => "output",
            (false, true) => "read only",
            (false, false) => "input, read only",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {access}: {} |",
            special.name,
            special.reg.0,
            special.ty.name(),
            special.dialects.names(),
            special.meaning
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::Op;

    #[test]
    fn numbers_print_short_and_exact() {
        for (value, text) in [
            (1.0, "1"),
            (-2.5, "-2.5"),
            (0.1, "0.1"),
            (-0.0, "-0"),
            (0.0, "0"),
            (f32::MAX, "3.4028235e38"),
            (f32::from_bits(1), "1e-45"),
            (1e-5, "1e-5"),
            (123456.78, "123456.78"),
        ] {
            assert_eq!(format_number(value), text);
            assert_eq!(text.parse::<f32>().map(f32::to_bits), Ok(value.to_bits()));
        }
    }

    #[test]
    fn prints_every_operand_kind() {
        let instrs = [
            Instr {
                op: Op::GetComponent0,
                regs: [crate::ops::PC, Reg(0), Reg(0)],
                constant: 0.0,
            },
            Instr {
                op: Op::Load,
                regs: [Reg(7), Reg(0), Reg(0)],
                constant: -1.5e-7,
            },
            Instr {
                op: Op::SetComponent3,
                regs: [crate::ops::COLOR, Reg(7), Reg(0)],
                constant: 0.0,
            },
        ];
        assert_eq!(
            print_program(&instrs),
            "getComponent0(pc, s0)\nload(s7, -1.5e-7)\nsetComponent3(c, s7)\n"
        );
    }
}
