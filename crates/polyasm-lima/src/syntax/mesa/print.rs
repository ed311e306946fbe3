//! Instructions to the text Mesa's disassembler prints.

use std::fmt::Write;

use crate::decode::Decoded;
use crate::instr::Instr;
use crate::syntax::Syntax;
use crate::syntax::print::instr_text;

pub use crate::syntax::print::format_half;

/// The text of one instruction at word `offset` (branch targets print as `offset` plus the
/// relative target), without the `@%6d: ` prefix and without a newline.
pub fn print_instr(instr: &Instr, offset: usize) -> String {
    instr_text(instr, Syntax::Mesa, &|text, target| {
        let _ = write!(text, "{}", offset as i64 + i64::from(target));
    })
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
