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
