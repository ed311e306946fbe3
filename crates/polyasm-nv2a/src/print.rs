//! Operations → canonical source (the disassembler's second half, and the comments of the
//! vshinc output). Canonical means: lower-case mnemonics, `r`/`v`/`c` register numbers, short
//! output names (`oD0`, `oT1`), `c[A0+N]` for relative constants, no mask or swizzle when it is
//! `xyzw`, the shortest swizzle that pads back to the same lanes, and paired operations
//! joined with ` + `.

use std::fmt::Write as _;

use crate::decode::{Decoded, decode};
use crate::encode::{Dest, DestReg, Operation, Source, SrcReg};
use crate::ops::{LANES, Slot, mask_bit, output_by_address};

fn write_mask(out: &mut String, mask: u8) {
    if mask != 0xf {
        out.push('.');
        for (lane, letter) in LANES.iter().enumerate() {
            if u32::from(mask) & mask_bit(lane) != 0 {
                out.push(*letter);
            }
        }
    }
}

fn write_dest(out: &mut String, dest: &Dest) {
    match dest.reg {
        DestReg::Temp(r) => write!(out, "r{r}").expect("writing to a String"),
        DestReg::Output(address) => {
            out.push_str(output_by_address(u32::from(address)).map_or("o?", |o| o.short));
        }
        DestReg::Const(c) => write!(out, "c{c}").expect("writing to a String"),
        DestReg::Address => {
            out.push_str("a0");
            return;
        }
    }
    write_mask(out, dest.mask);
}

fn write_source(out: &mut String, source: &Source) {
    if source.negate {
        out.push('-');
    }
    match source.reg {
        SrcReg::Temp(r) => write!(out, "r{r}"),
        SrcReg::Input(v) => write!(out, "v{v}"),
        SrcReg::Const { index, relative: false } => write!(out, "c{index}"),
        SrcReg::Const { index, relative: true } => write!(out, "c[A0+{index}]"),
    }
    .expect("writing to a String");
    let lanes = source.swizzle;
    if lanes != [0, 1, 2, 3] {
        // Trailing copies of the last lane are implied by padding.
        let mut len = 4;
        while len > 1 && lanes[len - 2] == lanes[len - 1] {
            len -= 1;
        }
        out.push('.');
        for &lane in &lanes[..len] {
            out.push(LANES[usize::from(lane & 3)]);
        }
    }
}

/// One operation: `mad r0.xyz, -v1, c[A0+4].x, r2`.
pub fn write_operation(out: &mut String, operation: &Operation) {
    out.push_str(operation.op.mnemonic());
    out.push(' ');
    write_dest(out, &operation.dest);
    for source in operation.sources() {
        out.push_str(", ");
        write_source(out, source);
    }
}

/// One decoded instruction on one line (without a newline).
pub fn write_decoded(out: &mut String, decoded: &Decoded) {
    match decoded {
        Decoded::Operations(operations) => {
            for (i, operation) in operations.iter().enumerate() {
                if i > 0 {
                    out.push_str(" + ");
                }
                write_operation(out, operation);
            }
        }
        Decoded::Raw(slot) => write_word_directive(out, slot),
    }
}

fn write_word_directive(out: &mut String, slot: &Slot) {
    let [a, b, c, d] = slot.0;
    write!(out, ".word {a:#010x}, {b:#010x}, {c:#010x}, {d:#010x}").expect("writing to a String");
}

/// Canonical source for whole instructions; a trailing partial instruction is the caller's
/// error to report. One instruction per line.
pub fn disassemble_slots(slots: &[Slot]) -> String {
    let mut out = String::with_capacity(slots.len() * 32);
    for (index, slot) in slots.iter().enumerate() {
        let decoded = decode(*slot, index, slots.len());
        write_decoded(&mut out, &decoded);
        if crate::decode::is_final_marker(slot, index, slots.len()) {
            out.push_str("  // final marker (as --explicit-final appends)");
        }
        out.push('\n');
    }
    out
}
