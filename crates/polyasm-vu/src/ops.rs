//! The Dreambox VU instruction table: the single source of truth for mnemonics, operands,
//! opcodes and semantics, one [`polyasm_core::table!`] row per operation. The parser,
//! encoder, decoder, printer, emulator and docs (the `ops` region of docs/vu.md) read it.
//!
//! Word layout (little-endian `u32`):
//!
//! | bits  | field   | meaning                                                  |
//! |-------|---------|----------------------------------------------------------|
//! | 0–5   | opcode  | [`Op`]                                                   |
//! | 6–9   | dst     | first operand: register, or output slot for `st`         |
//! | 10–13 | src     | second operand: register, input slot or constant slot    |
//! | 14–21 | swizzle | `shf` only: source lane for x, y, z, w (2 bits each)     |
//! | 22–25 | mask    | `shf` only: lanes written; bit 22 = x … bit 25 = w        |

/// What one operand position accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandKind {
    /// `r0`..`r15`.
    Register,
    /// `pos`, `tex`, `col` or `ocol`.
    Output,
    /// An integer below [`INPUT_SLOTS`].
    InputSlot,
    /// An integer below [`CONSTANT_SLOTS`].
    ConstSlot,
    /// Four lane letters over `xyzw` or `rgba`.
    Swizzle,
    /// An integer from 0 to 0b1111.
    Mask,
    /// Any 32-bit value (the `.word` directive).
    Word,
}

impl OperandKind {
    /// How the operand is named in messages ("a register", ...).
    pub fn describe(self) -> &'static str {
        match self {
            OperandKind::Register => "a register (r0 to r15)",
            OperandKind::Output => "an output (pos, tex, col or ocol)",
            OperandKind::InputSlot => "an input slot (0 to 7)",
            OperandKind::ConstSlot => "a constant slot (0 to 15)",
            OperandKind::Swizzle => "a swizzle (4 letters of xyzw or rgba)",
            OperandKind::Mask => "a lane mask (0 to 0b1111)",
            OperandKind::Word => "a 32-bit value",
        }
    }

    /// How many values the operand's field can name: it takes 0 up to this, exclusive.
    pub fn values(self) -> u64 {
        match self {
            OperandKind::Register => u64::from(REGISTERS),
            OperandKind::Output => OUTPUTS.len() as u64,
            OperandKind::InputSlot => u64::from(INPUT_SLOTS),
            OperandKind::ConstSlot => u64::from(CONSTANT_SLOTS),
            OperandKind::Swizzle => 1 << 8,
            OperandKind::Mask => 1 << 4,
            OperandKind::Word => 1 << 32,
        }
    }

    /// The placeholder used in syntax summaries.
    pub fn placeholder(self) -> &'static str {
        match self {
            OperandKind::Register => "rN",
            OperandKind::Output => "OUT",
            OperandKind::InputSlot => "SLOT",
            OperandKind::ConstSlot => "CONST",
            OperandKind::Swizzle => "SWIZZLE",
            OperandKind::Mask => "MASK",
            OperandKind::Word => "VALUE",
        }
    }
}

/// Vertex input slots (`ld`).
pub const INPUT_SLOTS: u32 = 8;
/// Constant slots (`ldc`).
pub const CONSTANT_SLOTS: u32 = 16;
/// Registers `r0`..`r15`.
pub const REGISTERS: u32 = 16;
/// The VU holds this many words; shorter programs get an `end` appended.
pub const MAX_WORDS: usize = 64;
/// The output slots in `st`, by slot number, with what each holds.
pub const OUTPUT_SLOTS: [(&str, &str); 4] = [
    ("pos", "output slot: the clip-space position"),
    (
        "tex",
        "output slot: texture coordinates (xy for texture unit 0, zw for unit 1)",
    ),
    ("col", "output slot: the vertex colour"),
    ("ocol", "output slot: the vertex offset colour"),
];
/// The output slots' names, by slot number.
pub const OUTPUTS: [&str; 4] = {
    let mut names = [""; 4];
    let mut slot = 0;
    while slot < names.len() {
        names[slot] = OUTPUT_SLOTS[slot].0;
        slot += 1;
    }
    names
};

use OperandKind::{ConstSlot, InputSlot, Mask, Output, Register, Swizzle};

polyasm_core::table! {
    /// A VU operation.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Op;
    /// One row of the table.
    #[derive(Debug)]
    pub struct OpInfo {
        /// The 6-bit opcode.
        opcode: u8,
        /// Operand i goes to field i: dst, src, swizzle, mask.
        operands: &'static [OperandKind],
    }
    /// Every operation, in [`Op`] order.
    pub static OPS;
    rows {
        Ld "ld" { opcode: 0, operands: &[Register, InputSlot] } "dst = input[slot]";
        St "st" { opcode: 1, operands: &[Output, Register] } "output[out] = src";
        Ldc "ldc" { opcode: 2, operands: &[Register, ConstSlot] } "dst = constant[slot]";
        Add "add" { opcode: 3, operands: &[Register, Register] } "dst = dst + src";
        Sub "sub" { opcode: 4, operands: &[Register, Register] } "dst = dst - src";
        Mul "mul" { opcode: 5, operands: &[Register, Register] } "dst = dst * src (per lane)";
        Div "div" { opcode: 6, operands: &[Register, Register] } "dst = dst / src (per lane)";
        Dot "dot" { opcode: 7, operands: &[Register, Register] } "dst = (dot4(dst, src), 0, 0, 0)";
        Abs "abs" { opcode: 8, operands: &[Register, Register] } "dst = abs(src)";
        Sign "sign" { opcode: 9, operands: &[Register, Register] } "dst = sign(src): -1, 0 or 1 per lane";
        Sqrt "sqrt" { opcode: 10, operands: &[Register, Register] } "dst = sqrt(src)";
        Pow "pow" { opcode: 11, operands: &[Register, Register] } "dst = pow(dst, src)";
        Exp "exp" { opcode: 12, operands: &[Register, Register] } "dst = exp(src)";
        Log "log" { opcode: 13, operands: &[Register, Register] } "dst = ln(src)";
        Min "min" { opcode: 14, operands: &[Register, Register] } "dst = min(dst, src)";
        Max "max" { opcode: 15, operands: &[Register, Register] } "dst = max(dst, src)";
        Sin "sin" { opcode: 16, operands: &[Register, Register] } "dst = sin(src)";
        Cos "cos" { opcode: 17, operands: &[Register, Register] } "dst = cos(src)";
        Tan "tan" { opcode: 18, operands: &[Register, Register] } "dst = tan(src)";
        Asin "asin" { opcode: 19, operands: &[Register, Register] } "dst = asin(src)";
        Acos "acos" { opcode: 20, operands: &[Register, Register] } "dst = acos(src)";
        Atan "atan" { opcode: 21, operands: &[Register, Register] } "dst = atan(src)";
        Atan2 "atan2" { opcode: 22, operands: &[Register, Register] } "dst = atan2(dst, src): y = dst, x = src";
        Shf "shf" { opcode: 23, operands: &[Register, Register, Swizzle, Mask] } "dst.i = src[swizzle.i] where mask bit i is set";
        Mulm "mulm" { opcode: 24, operands: &[Register, Register] } "dst = [src, src+1, src+2, src+3] * dst (columns)";
        End "end" { opcode: 63, operands: &[] } "stop";
    }
    markdown {
        "opcode" => |row| format!("{} (`{:#04x}`)", row.opcode, row.opcode),
        "mnemonic" => |row| format!("`{}`", row.mnemonic),
        "operands" => |row| match row.operands {
            [] => "—".to_string(),
            kinds => format!("`{}`", kinds.iter().map(|k| k.placeholder()).collect::<Vec<_>>().join(" ")),
        },
        "does" => |row| row.doc.to_string(),
    }
}

/// The operation of each 6-bit opcode; `None` for the no-op opcodes 25–62.
static BY_OPCODE: [Option<Op>; 64] = {
    let mut by_opcode = [None; 64];
    let mut row = 0;
    while row < Op::COUNT {
        assert!(
            by_opcode[OPS[row].opcode as usize].is_none(),
            "two VU rows share an opcode"
        );
        by_opcode[OPS[row].opcode as usize] = Some(OPS[row].op);
        row += 1;
    }
    by_opcode
};

impl Op {
    /// The operation with this 6-bit opcode; `None` for the no-op opcodes 25–62.
    pub fn from_opcode(opcode: u32) -> Option<Op> {
        BY_OPCODE.get(opcode as usize).copied().flatten()
    }
}

/// A directive: not an instruction of the VU, but a way to place words.
#[derive(Debug)]
pub struct DirectiveInfo {
    /// The directive, dot included: `.word`.
    pub name: &'static str,
    /// Its operands as the syntax line shows them: `VALUE`.
    pub operands: &'static str,
    /// What it does, in one sentence for hover text and docs.
    pub doc: &'static str,
}

/// Directives polyasm adds to the reference syntax.
pub static DIRECTIVES: &[DirectiveInfo] = &[DirectiveInfo {
    name: ".word",
    operands: "VALUE",
    doc: "emit one raw 32-bit word (the disassembler prints words that are no canonical instruction this way)",
}];

/// Bit positions of the fields.
pub mod field {
    /// The opcode: bits 0–5.
    pub const OPCODE_MASK: u32 = 0x3f;
    /// The first bit of `dst` (4 bits: a register or an output slot).
    pub const DST_SHIFT: u32 = 6;
    /// The first bit of `src` (4 bits: a register, an input slot or a constant slot).
    pub const SRC_SHIFT: u32 = 10;
    /// The first bit of `shf`'s swizzle (8 bits: 2 per lane, x in the lowest).
    pub const SWIZZLE_SHIFT: u32 = 14;
    /// The first bit of `shf`'s write mask (4 bits: x in the lowest).
    pub const MASK_SHIFT: u32 = 22;

    /// A word's opcode and its four operand fields (dst, src, swizzle, mask), as the VU reads
    /// them; operand i of an operation is field i.
    pub fn split(word: u32) -> (u32, [u32; 4]) {
        (
            word & OPCODE_MASK,
            [
                word >> DST_SHIFT & 0xf,
                word >> SRC_SHIFT & 0xf,
                word >> SWIZZLE_SHIFT & 0xff,
                word >> MASK_SHIFT & 0xf,
            ],
        )
    }

    /// The swizzle field's source lane for x, y, z and w (2 bits each, x lowest).
    pub fn swizzle_lanes(swizzle: u32) -> [u8; 4] {
        [0, 1, 2, 3].map(|lane| (swizzle >> (2 * lane) & 3) as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_enum_order_with_unique_opcodes_and_names() {
        for (i, row) in OPS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(Op::from_opcode(row.opcode as u32), Some(row.op));
            assert_eq!(Op::from_mnemonic(row.mnemonic), Some(row.op));
            assert!(
                OPS[i + 1..]
                    .iter()
                    .all(|r| r.opcode != row.opcode && r.mnemonic != row.mnemonic)
            );
        }
        assert_eq!(OPS.len(), 26);
        assert!(
            (25..63)
                .chain([64, u32::MAX])
                .all(|opcode| Op::from_opcode(opcode).is_none())
        );
    }

    #[test]
    fn the_documentation_shows_this_table() {
        let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/vu.md");
        if let Err(message) = polyasm_core::table::check_doc_regions(&page, &[("ops", Op::markdown())]) {
            panic!("{message}");
        }
    }
}
