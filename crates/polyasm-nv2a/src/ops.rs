//! The nv2a vertex program tables: the single source of truth for mnemonics, units, opcodes,
//! operand slots, register names and the bit layout of an instruction. The operations are one
//! [`polyasm_core::table!`] row each. The parser, encoder, decoder, printer, emulator and docs
//! (the `ops` and `fields` regions of docs/nv2a.md) read them.
//!
//! An instruction is four little-endian `u32` words `d0..d3`; `d0` is always 0. Fields are
//! listed in [`FIELDS`] with their word, first bit and width.

/// The most operations one instruction pairs.
pub const MAX_PAIRED: usize = 3;

/// A processing unit of the vertex engine. One instruction drives both: the MAC (vector) unit
/// and the ILU (scalar/special function) unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// The vector unit: `mov` to `arl`.
    Mac,
    /// The scalar and special-function unit: `mov`, `rcp` to `lit`.
    Ilu,
}

impl Unit {
    /// Its name in messages: `MAC`, `ILU`.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Mac => "MAC",
            Unit::Ilu => "ILU",
        }
    }
}

/// One of the three input slots an instruction reads through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputSlot {
    /// Input A: every MAC operation's first source.
    A = 0,
    /// Input B: the second source of `mul`, `mad`, the dot products, `dst`, `min` to `sge`.
    B = 1,
    /// Input C: `add`'s and `sub`'s second source, `mad`'s third, every ILU operation's source.
    C = 2,
}

impl InputSlot {
    /// A, B and C, in order.
    pub const ALL: [InputSlot; 3] = [InputSlot::A, InputSlot::B, InputSlot::C];

    /// Its name in messages and docs: `A`, `B`, `C`.
    pub fn name(self) -> &'static str {
        ["A", "B", "C"][self as usize]
    }
}

/// Where an input slot reads from (the 2-bit mux fields).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mux {
    /// A temporary register `r0`..`r12`.
    Temp = 1,
    /// An input register `v0`..`v15` (the instruction's one V index).
    Input = 2,
    /// A constant register (the instruction's one CONST index, maybe + a0.x).
    Const = 3,
}

impl Mux {
    /// The source a mux field's value names; `None` for 0, which names none.
    pub fn from_bits(bits: u32) -> Option<Mux> {
        match bits {
            1 => Some(Mux::Temp),
            2 => Some(Mux::Input),
            3 => Some(Mux::Const),
            _ => None,
        }
    }
}

/// What an operation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DestKind {
    /// A temporary, output or constant register, with a write mask.
    Register,
    /// The address register `a0` (ARL only; no field encodes it).
    Address,
}

impl DestKind {
    /// How syntax summaries write the destination: `dst`, `a0`.
    pub fn placeholder(self) -> &'static str {
        match self {
            DestKind::Register => "dst",
            DestKind::Address => "a0",
        }
    }
}

use InputSlot::{A, B, C};

polyasm_core::table! {
    /// An operation as written in source.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Op;
    /// One row of the operation table.
    #[derive(Debug)]
    pub struct OpInfo {
        /// The MAC opcode, if the MAC unit can run it.
        mac: Option<u8>,
        /// The ILU opcode, if the ILU can run it.
        ilu: Option<u8>,
        /// The input slot each source operand goes to, in operand order. ILU operations read slot C.
        mac_slots: &'static [InputSlot],
        /// What the operation writes: a register, or `a0` for `arl`.
        dest: DestKind,
        /// Reads only the x lane of its source (the scalar ILU operations).
        scalar: bool,
        /// Slot C is negated once more when encoded (SUB is ADD with C negated).
        negate_c: bool,
    }
    /// Every operation, in [`Op`] order.
    pub static OPS;
    rows {
        Mov "mov" { mac: Some(1), ilu: Some(1), mac_slots: &[A], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a";
        Mul "mul" { mac: Some(2), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a * b";
        Add "add" { mac: Some(3), ilu: None, mac_slots: &[A, C], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a + b";
        Sub "sub" { mac: Some(3), ilu: None, mac_slots: &[A, C], dest: DestKind::Register, scalar: false, negate_c: true } "dst = a - b (ADD with slot C negated)";
        Mad "mad" { mac: Some(4), ilu: None, mac_slots: &[A, B, C], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a * b + c";
        Dp3 "dp3" { mac: Some(5), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a.x*b.x + a.y*b.y + a.z*b.z";
        Dph "dph" { mac: Some(6), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a.x*b.x + a.y*b.y + a.z*b.z + b.w";
        Dp4 "dp4" { mac: Some(7), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a.x*b.x + a.y*b.y + a.z*b.z + a.w*b.w";
        Dst "dst" { mac: Some(8), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = (1, a.y*b.y, a.z, b.w)";
        Min "min" { mac: Some(9), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = min(a, b) per lane";
        Max "max" { mac: Some(10), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = max(a, b) per lane";
        Slt "slt" { mac: Some(11), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a < b ? 1 : 0 per lane";
        Sge "sge" { mac: Some(12), ilu: None, mac_slots: &[A, B], dest: DestKind::Register, scalar: false, negate_c: false } "dst = a >= b ? 1 : 0 per lane";
        Arl "arl" { mac: Some(13), ilu: None, mac_slots: &[A], dest: DestKind::Address, scalar: false, negate_c: false } "a0 = floor(a.x)";
        Rcp "rcp" { mac: None, ilu: Some(2), mac_slots: &[], dest: DestKind::Register, scalar: true, negate_c: false } "dst = 1 / a.x";
        Rcc "rcc" { mac: None, ilu: Some(3), mac_slots: &[], dest: DestKind::Register, scalar: true, negate_c: false } "dst = 1 / a.x, clamped to ±[2^-64, 2^64]";
        Rsq "rsq" { mac: None, ilu: Some(4), mac_slots: &[], dest: DestKind::Register, scalar: true, negate_c: false } "dst = 1 / sqrt(abs(a.x))";
        Expp "expp" { mac: None, ilu: Some(5), mac_slots: &[], dest: DestKind::Register, scalar: true, negate_c: false } "dst = (2^floor(a.x), a.x - floor(a.x), 2^a.x, 1)";
        Logp "logp" { mac: None, ilu: Some(6), mac_slots: &[], dest: DestKind::Register, scalar: true, negate_c: false } "dst = (exponent, mantissa, log2(abs(a.x)), 1)";
        Lit "lit" { mac: None, ilu: Some(7), mac_slots: &[], dest: DestKind::Register, scalar: false, negate_c: false } "dst = (1, max(a.x, 0), a.x > 0 && a.y > 0 ? a.y^clamp(a.w) : 0, 1)";
    }
    markdown {
        "mnemonic" => |row| format!("`{}`", row.mnemonic),
        "unit and opcode" => |row| {
            let mac = row.mac.map(|code| format!("MAC {code}"));
            let ilu = row.ilu.map(|code| format!("ILU {code}"));
            mac.into_iter().chain(ilu).collect::<Vec<_>>().join(", ")
        },
        "operands → slots" => |row| {
            let dest = row.dest.placeholder();
            let slots: Vec<&str> = if row.mac.is_some() {
                row.mac_slots.iter().map(|s| s.name()).collect()
            } else {
                vec![InputSlot::C.name()]
            };
            format!("{dest}, {}", slots.join(", "))
        },
        "does" => |row| row.doc.to_string(),
    }
}

impl OpInfo {
    /// How many source operands the operation takes.
    pub fn sources(&self) -> usize {
        if self.mac.is_some() { self.mac_slots.len() } else { 1 }
    }

    /// The slot source operand `index` is read through when the operation runs on `unit`.
    pub fn slot(&self, unit: Unit, index: usize) -> InputSlot {
        match unit {
            Unit::Mac => self.mac_slots[index],
            Unit::Ilu => InputSlot::C,
        }
    }

    /// Its opcode on `unit`; `None` when `unit` cannot run it.
    pub fn opcode(&self, unit: Unit) -> Option<u8> {
        match unit {
            Unit::Mac => self.mac,
            Unit::Ilu => self.ilu,
        }
    }
}

impl Op {
    /// The operation a unit's opcode field names; `None` for NOP (0) and undefined codes.
    /// MAC ADD decodes as `add` (never `sub`).
    pub fn from_opcode(unit: Unit, code: u32) -> Option<Op> {
        OPS.iter()
            .find(|row| row.op != Op::Sub && row.opcode(unit).is_some_and(|c| u32::from(c) == code))
            .map(|row| row.op)
    }
}

/// Temporary registers `r0`..`r11` are writable; `r12` reads `oPos`.
pub const WRITABLE_TEMPS: u8 = 12;
/// `r12`: a read-only view of `oPos`.
pub const R12: u8 = 12;
/// Input registers `v0`..`v15`.
pub const INPUTS: u8 = 16;
/// Constant registers `c0`..`c191`.
pub const CONSTANTS: u16 = 192;
/// A uniform type: its name in a declaration (`#m matrix4 96`) and how many constant
/// registers it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniformKind {
    /// The type's name: `vector`, `matrix4`.
    pub name: &'static str,
    /// How many consecutive constant registers it takes: 1 or 4.
    pub rows: u8,
}

/// Every uniform type.
pub const UNIFORM_KINDS: [UniformKind; 2] = [
    UniformKind {
        name: "vector",
        rows: 1,
    },
    UniformKind {
        name: "matrix4",
        rows: 4,
    },
];

/// Instruction slots of the vertex engine.
pub const MAX_INSTRUCTIONS: usize = 136;
/// Words per instruction.
pub const WORDS_PER_INSTRUCTION: usize = 4;
/// A paired ILU operation's temp write always lands in this register.
pub const PAIRED_ILU_TEMP: u8 = 1;
/// The MAC opcode of ARL, which writes a0 instead of a register.
pub const MAC_ARL: u8 = match OPS[Op::Arl as usize].mac {
    Some(code) => code,
    None => panic!("ARL runs on the MAC"),
};

/// Input register aliases, by register number (`iPos` is `v0`). `v13`..`v15` have none.
pub static INPUT_NAMES: [&str; 13] = [
    "iPos",
    "iWeight",
    "iNormal",
    "iDiffuse",
    "iSpecular",
    "iFog",
    "iPts",
    "iBackDiffuse",
    "iBackSpecular",
    "iTex0",
    "iTex1",
    "iTex2",
    "iTex3",
];

/// An output register: its OUT_ADDRESS, its long name and its short name, and what it holds.
#[derive(Debug)]
pub struct OutputInfo {
    /// Its OUT_ADDRESS: 0 for `oPos`, 3 to 12 for the others.
    pub address: u8,
    /// Its long name: `oPos`, `oDiffuse`.
    pub long: &'static str,
    /// Its short name: `oPos`, `oD0`.
    pub short: &'static str,
    /// What it holds, for hover text and docs.
    pub doc: &'static str,
}

/// The output registers. Addresses 1 and 2 are not outputs.
pub static OUTPUTS: [OutputInfo; 11] = [
    OutputInfo {
        address: 0,
        long: "oPos",
        short: "oPos",
        doc: "the clip-space position (r12 reads it back)",
    },
    OutputInfo {
        address: 3,
        long: "oDiffuse",
        short: "oD0",
        doc: "the diffuse colour, oD0",
    },
    OutputInfo {
        address: 4,
        long: "oSpecular",
        short: "oD1",
        doc: "the specular colour, oD1",
    },
    OutputInfo {
        address: 5,
        long: "oFog",
        short: "oFog",
        doc: "the fog coordinate",
    },
    OutputInfo {
        address: 6,
        long: "oPts",
        short: "oPts",
        doc: "the point size",
    },
    OutputInfo {
        address: 7,
        long: "oBackDiffuse",
        short: "oB0",
        doc: "the back face's diffuse colour, oB0",
    },
    OutputInfo {
        address: 8,
        long: "oBackSpecular",
        short: "oB1",
        doc: "the back face's specular colour, oB1",
    },
    OutputInfo {
        address: 9,
        long: "oTex0",
        short: "oT0",
        doc: "texture coordinates of stage 0, oT0",
    },
    OutputInfo {
        address: 10,
        long: "oTex1",
        short: "oT1",
        doc: "texture coordinates of stage 1, oT1",
    },
    OutputInfo {
        address: 11,
        long: "oTex2",
        short: "oT2",
        doc: "texture coordinates of stage 2, oT2",
    },
    OutputInfo {
        address: 12,
        long: "oTex3",
        short: "oT3",
        doc: "texture coordinates of stage 3, oT3",
    },
];

/// The position in [`OUTPUTS`] of the output register at OUT_ADDRESS `address`.
pub fn output_index(address: u32) -> Option<usize> {
    OUTPUTS.iter().position(|o| u32::from(o.address) == address)
}

/// The output register at OUT_ADDRESS `address`.
pub fn output_by_address(address: u32) -> Option<&'static OutputInfo> {
    output_index(address).map(|i| &OUTPUTS[i])
}

/// The output register named `name` (long or short name, any letter case).
pub fn output_by_name(name: &str) -> Option<&'static OutputInfo> {
    OUTPUTS
        .iter()
        .find(|o| o.long.eq_ignore_ascii_case(name) || o.short.eq_ignore_ascii_case(name))
}

/// Lane letters, as a swizzle or mask names them.
pub const LANES: [char; 4] = ['x', 'y', 'z', 'w'];
/// The colour spelling of [`LANES`].
pub const COLOR_LANES: [char; 4] = ['r', 'g', 'b', 'a'];

/// Write-mask bits are reversed against `xyzw`: x = 8, y = 4, z = 2, w = 1.
pub const fn mask_bit(lane: usize) -> u32 {
    8 >> lane
}

/// The identity swizzle `xyzw` as a field value.
pub const SWIZZLE_XYZW: u32 = 0x1b;

/// A swizzle field value (x in the top two bits) from four lane codes.
pub fn pack_swizzle(lanes: [u8; 4]) -> u32 {
    lanes.iter().fold(0, |acc, &l| acc << 2 | u32::from(l & 3))
}

/// The four lane codes of a swizzle field value.
pub fn unpack_swizzle(field: u32) -> [u8; 4] {
    [6, 4, 2, 0].map(|shift| (field >> shift & 3) as u8)
}

/// Where a field sits: word, first bit, width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldLayout {
    /// The word that holds it, 1 to 3 (`d0` holds no field).
    pub word: u8,
    /// Its lowest bit in that word, 0 to 31.
    pub shift: u8,
    /// Its width in bits.
    pub width: u8,
    /// What it holds, for docs.
    pub doc: &'static str,
}

macro_rules! nv2a_fields {
    ($( $variant:ident = $word:literal, $shift:literal, $width:literal, $doc:literal; )*) => {
        /// A field of an instruction.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Field { $(#[doc = $doc] $variant),* }

        /// Every field, in [`Field`] order (ascending bit position).
        pub static FIELDS: &[(Field, FieldLayout)] = &[
            $((Field::$variant, FieldLayout { word: $word, shift: $shift, width: $width, doc: $doc })),*
        ];
    };
}

nv2a_fields! {
    ASwz = 1, 0, 8, "input A swizzle: x lane in bits 6–7 … w lane in bits 0–1";
    ANeg = 1, 8, 1, "negate input A";
    V = 1, 9, 4, "input register index, shared by every input whose mux is V";
    Const = 1, 13, 8, "constant register index, shared by every input whose mux is C";
    Mac = 1, 21, 4, "MAC opcode";
    Ilu = 1, 25, 3, "ILU opcode";
    CTempHigh = 2, 0, 2, "input C temp index, bits 3–2";
    CSwz = 2, 2, 8, "input C swizzle";
    CNeg = 2, 10, 1, "negate input C";
    BMux = 2, 11, 2, "input B source: 1 temp, 2 input, 3 constant";
    BTemp = 2, 13, 4, "input B temp index";
    BSwz = 2, 17, 8, "input B swizzle";
    BNeg = 2, 25, 1, "negate input B";
    AMux = 2, 26, 2, "input A source: 1 temp, 2 input, 3 constant";
    ATemp = 2, 28, 4, "input A temp index";
    Final = 3, 0, 1, "last instruction of the program";
    A0x = 3, 1, 1, "every constant input reads c[CONST + a0.x]";
    OutMux = 3, 2, 1, "unit feeding the o/c output: 0 MAC, 1 ILU";
    OutAddress = 3, 3, 8, "o-register number or c-register index";
    OutOrb = 3, 11, 1, "1: the output is an o-register, 0: a c-register";
    OutMask = 3, 12, 4, "o/c write mask (x = 8, y = 4, z = 2, w = 1)";
    IluMask = 3, 16, 4, "ILU temp write mask";
    OutTemp = 3, 20, 4, "temp register written by the MAC (and by an unpaired ILU)";
    MacMask = 3, 24, 4, "MAC temp write mask";
    CMux = 3, 28, 2, "input C source: 1 temp, 2 input, 3 constant";
    CTempLow = 3, 30, 2, "input C temp index, bits 1–0";
}

impl Field {
    /// Where it sits.
    pub fn layout(self) -> &'static FieldLayout {
        &FIELDS[self as usize].1
    }

    /// The swizzle, negate, mux and temp-index fields of an input slot.
    pub fn swizzle(slot: InputSlot) -> Field {
        [Field::ASwz, Field::BSwz, Field::CSwz][slot as usize]
    }

    /// The negate bit of an input slot.
    pub fn negate(slot: InputSlot) -> Field {
        [Field::ANeg, Field::BNeg, Field::CNeg][slot as usize]
    }

    /// The mux field of an input slot, which says where it reads from.
    pub fn mux(slot: InputSlot) -> Field {
        [Field::AMux, Field::BMux, Field::CMux][slot as usize]
    }
}

/// One instruction's four words, read and written field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot(pub [u32; 4]);

impl Slot {
    /// nv2avsh's blank instruction: NOP/NOP, every input V with swizzle xyzw, OUT_R = 7,
    /// OUT_ADDRESS = 0xFF, ORB = 1. Encoding starts here and sets only the fields it uses, so
    /// unused fields hold the same values as nv2avsh's.
    pub const BLANK: Slot = Slot([0, 0x0000_001b, 0x0836_106c, 0x2070_0ff8]);

    /// The bare FINAL marker `--explicit-final` appends.
    pub const FINAL_NOP: Slot = Slot([0, 0, 0, 1]);

    /// Groups words into instructions; `None` if they do not make whole instructions.
    pub fn split(words: &[u32]) -> Option<Vec<Slot>> {
        let (instructions, rest) = words.as_chunks::<WORDS_PER_INSTRUCTION>();
        rest.is_empty()
            .then(|| instructions.iter().map(|&words| Slot(words)).collect())
    }

    /// Reads a field.
    pub fn get(&self, field: Field) -> u32 {
        let l = field.layout();
        self.0[usize::from(l.word)] >> l.shift & ((1 << l.width) - 1)
    }

    /// Sets a field; `value` must fit its width.
    pub fn set(&mut self, field: Field, value: u32) {
        let l = field.layout();
        let mask = ((1u32 << l.width) - 1) << l.shift;
        debug_assert!(
            value < 1 << l.width,
            "{field:?} is {} bits; {value} does not fit",
            l.width
        );
        let word = &mut self.0[usize::from(l.word)];
        *word = (*word & !mask) | (value << l.shift & mask);
    }

    /// The temp register index an input slot reads (C's is split over two words).
    pub fn temp(&self, slot: InputSlot) -> u32 {
        match slot {
            InputSlot::A => self.get(Field::ATemp),
            InputSlot::B => self.get(Field::BTemp),
            InputSlot::C => self.get(Field::CTempHigh) << 2 | self.get(Field::CTempLow),
        }
    }

    /// Sets the temp register index an input slot reads, 0 to 15.
    pub fn set_temp(&mut self, slot: InputSlot, index: u32) {
        match slot {
            InputSlot::A => self.set(Field::ATemp, index),
            InputSlot::B => self.set(Field::BTemp, index),
            InputSlot::C => {
                self.set(Field::CTempHigh, index >> 2);
                self.set(Field::CTempLow, index & 3);
            }
        }
    }
}

/// Where the instruction's one o/c output port writes, as the fields say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PortTarget {
    /// ORB = 1: an o-register, by OUT_ADDRESS.
    Output(u32),
    /// ORB = 0: a c-register, by OUT_ADDRESS.
    Constant(u32),
}

/// What one unit of an instruction writes, read from the fields with the hardware's rules:
/// the port belongs to the unit OUT_MUX names, and a paired ILU writes its temp to r1.
/// Registers are as encoded; whether they exist is the reader's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitWrites {
    /// Temp register and mask.
    pub temp: Option<(u32, u32)>,
    /// o/c target and mask.
    pub port: Option<(PortTarget, u32)>,
}

impl Slot {
    /// The writes of `unit`, if it runs an operation.
    pub fn writes(&self, unit: Unit) -> UnitWrites {
        let (mask_field, register) = match unit {
            Unit::Mac => (Field::MacMask, self.get(Field::OutTemp)),
            // Paired with a MAC operation, the ILU writes r1 whatever OUT_R says.
            Unit::Ilu if self.get(Field::Mac) != 0 => (Field::IluMask, u32::from(PAIRED_ILU_TEMP)),
            Unit::Ilu => (Field::IluMask, self.get(Field::OutTemp)),
        };
        let temp_mask = self.get(mask_field);
        let port_mask = self.get(Field::OutMask);
        let feeds_port = self.get(Field::OutMux) == u32::from(unit == Unit::Ilu);
        let address = self.get(Field::OutAddress);
        let target = if self.get(Field::OutOrb) == 1 {
            PortTarget::Output(address)
        } else {
            PortTarget::Constant(address)
        };
        UnitWrites {
            temp: (temp_mask != 0).then_some((register, temp_mask)),
            port: (port_mask != 0 && feeds_port).then_some((target, port_mask)),
        }
    }
}

/// The field table as Markdown, for the `fields` region of docs/nv2a.md.
pub fn markdown_fields() -> String {
    let mut out = String::from("| word | bits | field | meaning |\n|---|---|---|---|\n");
    for (field, l) in FIELDS {
        let bits = if l.width == 1 {
            l.shift.to_string()
        } else {
            format!("{}–{}", l.shift, l.shift + l.width - 1)
        };
        out.push_str(&format!("| d{} | {bits} | `{field:?}` | {} |\n", l.word, l.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_in_enum_order_with_unique_names() {
        for (i, row) in OPS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(Op::from_mnemonic(row.mnemonic), Some(row.op));
            assert_eq!(
                Op::from_mnemonic_ignore_case(&row.mnemonic.to_ascii_uppercase()),
                Some(row.op)
            );
            assert!(row.mac.is_some() || row.ilu.is_some());
        }
        for code in 1..=13 {
            assert!(Op::from_opcode(Unit::Mac, code).is_some(), "MAC {code}");
        }
        for code in 1..=7 {
            assert!(Op::from_opcode(Unit::Ilu, code).is_some(), "ILU {code}");
        }
        assert_eq!(Op::from_mnemonic_ignore_case("Dp4"), Some(Op::Dp4));
        assert_eq!(Op::from_mnemonic_ignore_case("dp4x"), None);
        assert_eq!(Op::from_mnemonic_ignore_case("a_very_long_name"), None);
        assert_eq!(MAC_ARL, 13);
        assert_eq!(Op::from_opcode(Unit::Mac, 3), Some(Op::Add));
        assert_eq!(Op::from_opcode(Unit::Mac, 14), None);
        assert_eq!(Op::from_opcode(Unit::Ilu, 0), None);
    }

    /// The register resolver relies on this: inputs are spelled `i...`, outputs `o...`, and no
    /// spelled-out name looks like a numbered register (a letter and digits).
    #[test]
    fn spelled_out_register_names_start_with_i_or_o() {
        let numbered = |name: &str| name.len() > 1 && name[1..].bytes().all(|b| b.is_ascii_digit());
        for name in INPUT_NAMES {
            assert!(name.starts_with('i') && !numbered(name), "{name}");
        }
        for out in OUTPUTS.iter() {
            for name in [out.long, out.short] {
                assert!(name.starts_with('o') && !numbered(name), "{name}");
            }
        }
    }

    #[test]
    fn fields_tile_words_one_to_three_without_overlap() {
        let mut used = [0u32; 4];
        for (i, (field, l)) in FIELDS.iter().enumerate() {
            assert_eq!(*field as usize, i);
            let mask = (((1u64 << l.width) - 1) << l.shift) as u32;
            assert_eq!(used[usize::from(l.word)] & mask, 0, "{field:?} overlaps");
            used[usize::from(l.word)] |= mask;
        }
        // d1 bits 28–31 are unused; every other bit of d1..d3 belongs to a field.
        assert_eq!(used, [0, 0x0fff_ffff, 0xffff_ffff, 0xffff_ffff]);
    }

    #[test]
    fn the_blank_slot_matches_nv2avsh() {
        let b = Slot::BLANK;
        assert_eq!(b.get(Field::ASwz), SWIZZLE_XYZW);
        for slot in InputSlot::ALL {
            assert_eq!(b.get(Field::mux(slot)), Mux::Input as u32);
            assert_eq!(b.get(Field::swizzle(slot)), SWIZZLE_XYZW);
            assert_eq!(b.temp(slot), 0);
        }
        assert_eq!(b.get(Field::OutTemp), 7);
        assert_eq!(b.get(Field::OutAddress), 0xff);
        assert_eq!(b.get(Field::OutOrb), 1);
    }

    #[test]
    fn split_c_temp_round_trips() {
        let mut s = Slot::BLANK;
        s.set_temp(InputSlot::C, 11);
        assert_eq!((s.get(Field::CTempHigh), s.get(Field::CTempLow)), (2, 3));
        assert_eq!(s.temp(InputSlot::C), 11);
    }

    #[test]
    fn swizzles_pack_x_high() {
        assert_eq!(pack_swizzle([0, 1, 2, 3]), SWIZZLE_XYZW);
        assert_eq!(unpack_swizzle(0x1a), [0, 1, 2, 2]);
    }

    #[test]
    fn the_documentation_shows_these_tables() {
        let page = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/nv2a.md");
        let regions = [("ops", Op::markdown()), ("fields", markdown_fields())];
        if let Err(message) = polyasm_core::table::check_doc_regions(&page, &regions) {
            panic!("{message}");
        }
    }
}
