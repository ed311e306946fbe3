//! The instruction model and its encoding.
//!
//! An [`Instr`] holds one optional struct per field of the control word, in control-word order,
//! plus the `stop` and `sync` bits. Each struct holds every meaningful bit of its field; the
//! bits no syntax shows are not in the model: [`Instr::encode_fields`] writes the values Mesa's
//! compiler writes there, and unpacking reports other values as [`LostBits`]. The parsers of
//! both syntaxes fill this model; [`encode`] turns a program into words, computing the lengths,
//! presence bits, `next_count`, `prefetch` and the branch's target-count bits.
//!
//! Numbers that do not fit their field are cut to the field's width when packed (a register
//! above 15, an index above 63, ...); checking them is the parsers' job. Registers are plain
//! numbers: a vec4 register field holds `$0`-`$11` and the pipeline registers 12-15
//! ([`crate::ops::VEC_REG_NAMES`]), a scalar register field holds `vec4 register * 4 +
//! component`.
//!
//! ```
//! use polyasm_lima::instr::words::encode;
//! use polyasm_lima::instr::{Instr, VecDest, VecMul, VecSource};
//! use polyasm_lima::ops::{MulOp, OutMod, REG_CONST0};
//! // mov.v0 $0 ^const0.xxxx with const0 = 1, 0, 0, -1.677734: Mesa's clear program.
//! let clear = Instr {
//!     stop: true,
//!     vec4_mul: Some(VecMul {
//!         op: MulOp::Mov,
//!         shift: 0,
//!         outmod: OutMod::None,
//!         dest: Some(VecDest { reg: 0, mask: 0xF }),
//!         arg0: VecSource { reg: REG_CONST0, swizzle: 0x00, abs: false, neg: false },
//!         arg1: None,
//!     }),
//!     const0: Some([0x3C00, 0, 0, 0xBEB6]),
//!     ..Instr::default()
//! };
//! assert_eq!(encode(&[clear]), [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5]);
//! ```

use crate::ops::{
    self, AccOp, Alignment, BranchCond, CombineOp, FbRead, Field, LoadSource, MulOp, OutMod, Perspective,
    VaryingAlignment, fixed,
};

pub mod words;

/// The length in words of an instruction with these presence bits: the control word plus the
/// fields' bits rounded up to whole words.
pub fn count_for_presence(presence: u32) -> u32 {
    let bits: u32 = Field::ALL
        .iter()
        .filter(|f| presence >> f.info().index & 1 == 1)
        .map(|f| f.info().bits)
        .sum();
    1 + bits.div_ceil(32)
}

/// A vec4 register field: 0-11 `$0`-`$11`, 12 `^const0`, 13 `^const1`, 14 `^texture`,
/// 15 `^uniform` (as a varying destination, 15 is `^discard`).
pub type VecReg = u8;
/// A scalar register field: `vec4 register * 4 + component` (x = 0 ... w = 3), 0-63.
pub type ScalarReg = u8;
/// A swizzle: two bits per destination lane, lane x in bits 0..1; lane i reads component
/// `(swizzle >> 2i) & 3`. `.xyzw` is [`ops::SWIZZLE_IDENTITY`].
pub type Swizzle = u8;
/// A write mask: bit 0 x, bit 1 y, bit 2 z, bit 3 w.
pub type Mask = u8;

/// A vec4 source operand: a register, a swizzle and the modifiers (abs applies first, then
/// negate: `-abs(x)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VecSource {
    /// The register.
    pub reg: VecReg,
    /// The swizzle.
    pub swizzle: Swizzle,
    /// Take the absolute value.
    pub abs: bool,
    /// Negate (after abs).
    pub neg: bool,
}

/// A scalar source operand: one component of a register and the modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScalarSource {
    /// The register component.
    pub reg: ScalarReg,
    /// Take the absolute value.
    pub abs: bool,
    /// Negate (after abs).
    pub neg: bool,
}

/// A vec4 destination: a register and a write mask, which should not be 0 (no write is
/// `None` where a destination is optional).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VecDest {
    /// The register written.
    pub reg: VecReg,
    /// The lanes written.
    pub mask: Mask,
}

/// Bits of a field that the model does not hold and that did not have the value the encoder
/// writes: re-encoding the decoded instruction gives different words there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LostBits {
    /// The field the bits belong to; `None` for the control word and the padding after the
    /// last field.
    pub field: Option<Field>,
    /// What the bits are (a name from the field layout).
    pub name: &'static str,
    /// First bit, relative to the field (or to the control word; for the padding, to the
    /// payload).
    pub lo: u32,
    /// Number of bits.
    pub len: u32,
    /// The value found.
    pub found: u64,
    /// The value the encoder writes instead.
    pub written: u64,
}

impl std::fmt::Display for LostBits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = match self.field {
            Some(field) => field.info().mesa,
            None if self.name == "padding" => "payload",
            None => "control word",
        };
        let hi = self.lo + self.len - 1;
        write!(
            f,
            "{place} bits {}..{hi} ({}) hold {:#x}, re-encoding writes {:#x}",
            self.lo, self.name, self.found, self.written
        )
    }
}

/// An op number no opcode table has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndefinedOp {
    /// The field holding it.
    pub field: Field,
    /// The number.
    pub code: u8,
}

/// Reads and checks the bits of one field.
struct Bits<'a> {
    bits: u128,
    field: Field,
    lost: &'a mut Vec<LostBits>,
}

impl Bits<'_> {
    fn get(&self, lo: u32, len: u32) -> u32 {
        get(self.bits, lo, len) as u32
    }

    fn flag(&self, bit: u32) -> bool {
        self.get(bit, 1) == 1
    }

    /// Bits the model does not hold: records them when they are not `written`.
    fn hidden(&mut self, lo: u32, len: u32, written: u64, name: &'static str) {
        let found = get(self.bits, lo, len);
        if found != written {
            self.lost.push(LostBits {
                field: Some(self.field),
                name,
                lo,
                len,
                found,
                written,
            });
        }
    }

    fn vec_source(&self, lo: u32) -> VecSource {
        VecSource {
            reg: self.get(lo, 4) as u8,
            swizzle: self.get(lo + 4, 8) as u8,
            abs: self.flag(lo + 12),
            neg: self.flag(lo + 13),
        }
    }

    /// A scalar source laid out as register [lo..lo+5], abs [lo+6], neg [lo+7].
    fn scalar_source(&self, lo: u32) -> ScalarSource {
        ScalarSource {
            reg: self.get(lo, 6) as u8,
            abs: self.flag(lo + 6),
            neg: self.flag(lo + 7),
        }
    }

    fn outmod(&self, lo: u32) -> OutMod {
        OutMod::from_code(self.get(lo, 2) as u8).expect("invariant: every 2-bit value is an output modifier")
    }

    fn undefined(&self, code: u32) -> UndefinedOp {
        UndefinedOp {
            field: self.field,
            code: code as u8,
        }
    }
}

fn get(bits: u128, lo: u32, len: u32) -> u64 {
    ((bits >> lo) & ((1u128 << len) - 1)) as u64
}

fn put(bits: &mut u128, lo: u32, len: u32, value: u64) {
    *bits |= (u128::from(value) & ((1u128 << len) - 1)) << lo;
}

fn put_vec_source(bits: &mut u128, lo: u32, source: &VecSource) {
    put(bits, lo, 4, source.reg.into());
    put(bits, lo + 4, 8, source.swizzle.into());
    put(bits, lo + 12, 1, source.abs.into());
    put(bits, lo + 13, 1, source.neg.into());
}

fn put_scalar_source(bits: &mut u128, lo: u32, source: &ScalarSource) {
    put(bits, lo, 6, source.reg.into());
    put(bits, lo + 6, 1, source.abs.into());
    put(bits, lo + 7, 1, source.neg.into());
}

/// What a varying fetch reads by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VaryingFetch {
    /// How many components, and how the index counts.
    pub alignment: VaryingAlignment,
    /// The varying index (6 bits), in units of the alignment.
    pub index: u8,
    /// A scalar register added to the index. Registers 60-63 (`^uniform.x`-`.w`) cannot be
    /// encoded: their vec4 number, 15, means "no offset".
    pub offset: Option<ScalarReg>,
}

/// The source of a varying fetch (the field's `source_type:perspective` and operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VaryingSource {
    /// A varying by index (source_type 0).
    Fetch {
        /// Perspective divide.
        perspective: Perspective,
        /// What is read.
        fetch: VaryingFetch,
    },
    /// A register (source_type 1), e.g. computed texture coordinates.
    Register {
        /// Perspective divide.
        perspective: Perspective,
        /// The register read.
        source: VecSource,
    },
    /// `cube(varying)`.
    Cube(VaryingFetch),
    /// `cube(register)`.
    CubeRegister(VecSource),
    /// `normalize(register)` (vec3).
    Normalize(VecSource),
    /// `gl_FragCoord`.
    FragCoord,
    /// `gl_PointCoord`.
    PointCoord,
    /// `gl_FrontFacing`.
    FrontFacing,
}

/// The varying unit (`.v`): fetches a varying or transforms a register; its result also
/// feeds the sampler as the texture coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Varying {
    /// Destination register; [`ops::VARYING_DISCARD`] (15) writes nothing.
    pub dest: VecReg,
    /// Write mask.
    pub mask: Mask,
    /// What is read.
    pub source: VaryingSource,
}

impl Varying {
    /// The field's 34 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        let (kind, perspective) = match &self.source {
            VaryingSource::Fetch { perspective, fetch } => {
                put_fetch(&mut bits, fetch);
                (&ops::VARYING_FETCH, *perspective)
            }
            VaryingSource::Register { perspective, source } => {
                put_varying_register(&mut bits, source);
                (&ops::VARYING_REGISTER, *perspective)
            }
            VaryingSource::Cube(fetch) => {
                put_fetch(&mut bits, fetch);
                (&ops::VARYING_CUBE, Perspective::None)
            }
            VaryingSource::CubeRegister(source) => {
                put_varying_register(&mut bits, source);
                (&ops::VARYING_CUBE_REGISTER, Perspective::None)
            }
            VaryingSource::Normalize(source) => {
                put_varying_register(&mut bits, source);
                (&ops::VARYING_NORMALIZE, Perspective::None)
            }
            VaryingSource::FragCoord => (&ops::VARYING_FRAG_COORD, Perspective::None),
            VaryingSource::PointCoord => (&ops::VARYING_POINT_COORD, Perspective::None),
            VaryingSource::FrontFacing => (&ops::VARYING_FRONT_FACING, Perspective::None),
        };
        if kind.form == ops::VaryingForm::Fixed {
            bits |= fixed_varying_bits(kind);
        }
        put(&mut bits, 0, 4, u64::from(kind.code + perspective.code()));
        put(&mut bits, 24, 4, self.dest.into());
        put(&mut bits, 28, 4, self.mask.into());
        bits
    }

    /// Reads the field's 34 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Varying {
        let mut b = Bits {
            bits,
            field: Field::Varying,
            lost,
        };
        let code = b.get(0, 4) as u8;
        let perspective = Perspective::from_code(code & 3).expect("invariant: every 2-bit value is a perspective");
        let source = match code >> 2 {
            0 => VaryingSource::Fetch {
                perspective,
                fetch: unpack_fetch(&mut b),
            },
            1 => VaryingSource::Register {
                perspective,
                source: unpack_varying_register(&mut b),
            },
            2 => match perspective {
                Perspective::None => VaryingSource::Cube(unpack_fetch(&mut b)),
                Perspective::Reserved => VaryingSource::CubeRegister(unpack_varying_register(&mut b)),
                Perspective::Z => VaryingSource::Normalize(unpack_varying_register(&mut b)),
                Perspective::W => {
                    unpack_fixed(&mut b, &ops::VARYING_FRAG_COORD);
                    VaryingSource::FragCoord
                }
            },
            _ => {
                if perspective == Perspective::None {
                    unpack_fixed(&mut b, &ops::VARYING_POINT_COORD);
                    VaryingSource::PointCoord
                } else {
                    // Perspectives 1 to 3 all read gl_FrontFacing; compilers write 1.
                    b.hidden(0, 2, 1, "perspective");
                    unpack_fixed(&mut b, &ops::VARYING_FRONT_FACING);
                    VaryingSource::FrontFacing
                }
            }
        };
        b.hidden(32, 2, 0, "unused");
        Varying {
            dest: b.get(24, 4) as u8,
            mask: b.get(28, 4) as u8,
            source,
        }
    }
}

fn put_fetch(bits: &mut u128, fetch: &VaryingFetch) {
    put(bits, 5, 2, fetch.alignment.code().into());
    match fetch.offset {
        Some(reg) => {
            put(bits, 10, 4, u64::from(reg >> 2));
            put(bits, 16, 2, u64::from(reg & 3));
        }
        None => put(bits, 10, 4, fixed::NO_OFFSET_VECTOR.into()),
    }
    put(bits, 18, 6, fetch.index.into());
}

fn unpack_fetch(b: &mut Bits) -> VaryingFetch {
    b.hidden(4, 1, 0, "unused");
    b.hidden(7, 3, 0, "unused");
    b.hidden(14, 2, 0, "unused");
    let alignment = match b.get(5, 2) {
        0 => VaryingAlignment::Scalar,
        1 => VaryingAlignment::Vec2,
        _ => {
            // 2 reads as a vec4 like 3, the value compilers write.
            b.hidden(5, 2, 3, "alignment");
            VaryingAlignment::Vec4
        }
    };
    let offset_vector = b.get(10, 4);
    let offset = if offset_vector == fixed::NO_OFFSET_VECTOR {
        b.hidden(16, 2, 0, "offset_scalar");
        None
    } else {
        Some((offset_vector * 4 + b.get(16, 2)) as u8)
    };
    VaryingFetch {
        alignment,
        index: b.get(18, 6) as u8,
        offset,
    }
}

fn put_varying_register(bits: &mut u128, source: &VecSource) {
    put(bits, 10, 4, source.reg.into());
    put(bits, 14, 1, source.neg.into());
    put(bits, 15, 1, source.abs.into());
    put(bits, 16, 8, source.swizzle.into());
}

fn unpack_varying_register(b: &mut Bits) -> VecSource {
    b.hidden(4, 2, 0, "unused");
    b.hidden(6, 1, 0, "normalize");
    b.hidden(7, 3, 0, "unknown");
    VecSource {
        reg: b.get(10, 4) as u8,
        neg: b.flag(14),
        abs: b.flag(15),
        swizzle: b.get(16, 8) as u8,
    }
}

/// Bits 4..23 of a fixed varying input as compilers write them.
fn fixed_varying_bits(kind: &ops::VaryingKindInfo) -> u128 {
    let mut bits = 0u128;
    put(&mut bits, 5, 2, kind.alignment.into());
    put(&mut bits, 10, 4, fixed::NO_OFFSET_VECTOR.into());
    bits
}

fn unpack_fixed(b: &mut Bits, kind: &ops::VaryingKindInfo) {
    b.hidden(4, 20, get(fixed_varying_bits(kind), 4, 20), "fixed input bits");
}

/// The texture unit (`texld`): samples at the coordinate the varying unit produced in the same
/// instruction; the result is `^texture`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampler {
    /// Sampler number (12 bits).
    pub index: u16,
    /// A scalar register added to the sampler number (`offset_en`, `index_offset`).
    pub offset: Option<ScalarReg>,
    /// A scalar register holding an LOD bias, or the LOD when `explicit_lod` is set
    /// (`lod_bias_register`, `lod_bias`).
    pub lod_bias: Option<ScalarReg>,
    /// The register holds an explicit LOD rather than a bias (`textureLod`).
    pub explicit_lod: bool,
    /// Constant LOD bias in 1/16 LOD, -256..=255 (9-bit two's complement).
    pub constant_lod_bias: i16,
}

impl Sampler {
    /// The field's 62 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        if let Some(reg) = self.lod_bias {
            put(&mut bits, 0, 6, reg.into());
            put(&mut bits, 18, 1, 1);
        }
        if let Some(reg) = self.offset {
            put(&mut bits, 6, 6, reg.into());
            put(&mut bits, 29, 1, 1);
        }
        put(&mut bits, 17, 1, self.explicit_lod.into());
        put(&mut bits, 20, 9, self.constant_lod_bias as u16 as u64);
        put(&mut bits, 30, 12, self.index.into());
        put(&mut bits, 42, 20, fixed::SAMPLER_UNKNOWN_2.into());
        bits
    }

    /// Reads the field's 62 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Sampler {
        let mut b = Bits {
            bits,
            field: Field::Sampler,
            lost,
        };
        let lod_bias = if b.flag(18) {
            Some(b.get(0, 6) as u8)
        } else {
            b.hidden(0, 6, 0, "lod_bias");
            None
        };
        let offset = if b.flag(29) {
            Some(b.get(6, 6) as u8)
        } else {
            b.hidden(6, 6, 0, "index_offset");
            None
        };
        b.hidden(12, 5, 0, "unused");
        b.hidden(19, 1, 0, "unused");
        b.hidden(42, 20, fixed::SAMPLER_UNKNOWN_2.into(), "unknown_2");
        let bias = b.get(20, 9) as i16;
        Sampler {
            index: b.get(30, 12) as u16,
            offset,
            lod_bias,
            explicit_lod: b.flag(17),
            constant_lod_bias: (bias << 7) >> 7,
        }
    }
}

/// The load unit (`load.u`, `load.t`): reads uniform or temporary memory into `^uniform`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Load {
    /// Uniform or temporary memory.
    pub source: LoadSource,
    /// How many components, and how the index counts. Not [`Alignment::Reserved`], which
    /// neither syntax writes for a load: decoding reads a load's 3 as one float.
    pub alignment: Alignment,
    /// The index (16 bits; Mesa prints it as a signed number).
    pub index: u16,
    /// A scalar register added to the index.
    pub offset: Option<ScalarReg>,
}

impl Load {
    /// The field's 41 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        put(&mut bits, 0, 2, self.source.code().into());
        put(&mut bits, 10, 2, self.alignment.code().into());
        if let Some(reg) = self.offset {
            put(&mut bits, 18, 6, reg.into());
            put(&mut bits, 24, 1, 1);
        }
        put(&mut bits, 25, 16, self.index.into());
        bits
    }

    /// Reads the field's 41 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Load {
        let mut b = Bits {
            bits,
            field: Field::Uniform,
            lost,
        };
        let source = LoadSource::from_code(b.get(0, 2) as u8).expect("invariant: every 2-bit value is a load source");
        b.hidden(2, 8, 0, "unused");
        let alignment = match Alignment::from_code(b.get(10, 2) as u8) {
            Some(Alignment::Reserved) | None => {
                // 3 prints and reads as a scalar like 0, the value compilers write.
                b.hidden(10, 2, 0, "alignment");
                Alignment::Scalar
            }
            Some(alignment) => alignment,
        };
        b.hidden(12, 6, 0, "unused");
        let offset = if b.flag(24) {
            Some(b.get(18, 6) as u8)
        } else {
            b.hidden(18, 6, 0, "offset_reg");
            None
        };
        Load {
            source,
            alignment,
            index: b.get(25, 16) as u16,
            offset,
        }
    }
}

/// The vector multiplier (`.v0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VecMul {
    /// The operation.
    pub op: MulOp,
    /// For [`MulOp::Mul`], the product is scaled by 2^shift, -4..=3; 0 for every other op.
    pub shift: i8,
    /// Output modifier.
    pub outmod: OutMod,
    /// The register written; `None` leaves the result only on `^v0`.
    pub dest: Option<VecDest>,
    /// First source.
    pub arg0: VecSource,
    /// Second source, for two-operand ops (`None` writes Mesa's zero bits).
    pub arg1: Option<VecSource>,
}

/// The scalar multiplier (`.s0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatMul {
    /// The operation.
    pub op: MulOp,
    /// For [`MulOp::Mul`], the product is scaled by 2^shift, -4..=3; 0 for every other op.
    pub shift: i8,
    /// Output modifier.
    pub outmod: OutMod,
    /// The register component written (`output_en`); `None` leaves the result only on `^s0`.
    pub dest: Option<ScalarReg>,
    /// First source.
    pub arg0: ScalarSource,
    /// Second source, for two-operand ops.
    pub arg1: Option<ScalarSource>,
}

/// The vector adder (`.v1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VecAcc {
    /// The operation.
    pub op: AccOp,
    /// Output modifier.
    pub outmod: OutMod,
    /// The register written; `None` writes nothing.
    pub dest: Option<VecDest>,
    /// The first source is the vector multiplier's result `^v0` (`mul_in`); `arg0.reg` is
    /// then not encoded and should be 0, its swizzle and modifiers still apply.
    pub mul_in: bool,
    /// First source.
    pub arg0: VecSource,
    /// Second source, for two-operand ops.
    pub arg1: Option<VecSource>,
}

/// The scalar adder (`.s1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FloatAcc {
    /// The operation (not the vector-only `sum3`/`sum4`).
    pub op: AccOp,
    /// Output modifier.
    pub outmod: OutMod,
    /// The register component written (`output_en`); `None` writes nothing.
    pub dest: Option<ScalarReg>,
    /// The first source is the scalar multiplier's result `^s0` (`mul_in`); `arg0.reg` is
    /// then not encoded and should be 0, its modifiers still apply.
    pub mul_in: bool,
    /// First source.
    pub arg0: ScalarSource,
    /// Second source, for two-operand ops.
    pub arg1: Option<ScalarSource>,
}

fn put_mul_common(bits: &mut u128, code: u8, outmod: OutMod, op_lo: u32) {
    put(bits, op_lo - 2, 2, outmod.code().into());
    put(bits, op_lo, 5, code.into());
}

impl VecMul {
    /// The field's 43 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        pack_vec_alu(&mut bits, self.dest, &self.arg0, self.arg1.as_ref());
        put_mul_common(&mut bits, ops::mul_op_code(self.op, self.shift), self.outmod, 38);
        bits
    }

    /// Reads the field's 43 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Result<VecMul, UndefinedOp> {
        let mut b = Bits {
            bits,
            field: Field::Vec4Mul,
            lost,
        };
        let code = b.get(38, 5);
        let (op, shift) = ops::mul_op_from_code(code as u8).ok_or(b.undefined(code))?;
        let (dest, arg0, arg1) = unpack_vec_alu(&mut b, op.is_binary());
        Ok(VecMul {
            op,
            shift,
            outmod: b.outmod(36),
            dest,
            arg0,
            arg1,
        })
    }
}

/// Sources [0..27], dest [28..31], mask [32..35] of both vector ALUs.
fn pack_vec_alu(bits: &mut u128, dest: Option<VecDest>, arg0: &VecSource, arg1: Option<&VecSource>) {
    put_vec_source(bits, 0, arg0);
    if let Some(arg1) = arg1 {
        put_vec_source(bits, 14, arg1);
    }
    if let Some(dest) = dest {
        put(bits, 28, 4, dest.reg.into());
        put(bits, 32, 4, dest.mask.into());
    }
}

fn unpack_vec_alu(b: &mut Bits, binary: bool) -> (Option<VecDest>, VecSource, Option<VecSource>) {
    let mask = b.get(32, 4) as u8;
    let dest = if mask == 0 {
        b.hidden(28, 4, 0, "dest");
        None
    } else {
        Some(VecDest {
            reg: b.get(28, 4) as u8,
            mask,
        })
    };
    let arg1 = if binary {
        Some(b.vec_source(14))
    } else {
        b.hidden(14, 14, 0, "arg1");
        None
    };
    (dest, b.vec_source(0), arg1)
}

impl FloatMul {
    /// The field's 30 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        pack_scalar_alu(&mut bits, self.dest, &self.arg0, self.arg1.as_ref());
        put_mul_common(&mut bits, ops::mul_op_code(self.op, self.shift), self.outmod, 25);
        bits
    }

    /// Reads the field's 30 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Result<FloatMul, UndefinedOp> {
        let mut b = Bits {
            bits,
            field: Field::FloatMul,
            lost,
        };
        let code = b.get(25, 5);
        let (op, shift) = ops::mul_op_from_code(code as u8).ok_or(b.undefined(code))?;
        let (dest, arg0, arg1) = unpack_scalar_alu(&mut b, op.is_binary());
        Ok(FloatMul {
            op,
            shift,
            outmod: b.outmod(23),
            dest,
            arg0,
            arg1,
        })
    }
}

/// Sources [0..15], dest [16..21], output_en [22] of both scalar ALUs.
fn pack_scalar_alu(bits: &mut u128, dest: Option<ScalarReg>, arg0: &ScalarSource, arg1: Option<&ScalarSource>) {
    put_scalar_source(bits, 0, arg0);
    if let Some(arg1) = arg1 {
        put_scalar_source(bits, 8, arg1);
    }
    if let Some(dest) = dest {
        put(bits, 16, 6, dest.into());
        put(bits, 22, 1, 1);
    }
}

fn unpack_scalar_alu(b: &mut Bits, binary: bool) -> (Option<ScalarReg>, ScalarSource, Option<ScalarSource>) {
    let dest = if b.flag(22) {
        Some(b.get(16, 6) as u8)
    } else {
        b.hidden(16, 6, 0, "dest");
        None
    };
    let arg1 = if binary {
        Some(b.scalar_source(8))
    } else {
        b.hidden(8, 8, 0, "arg1");
        None
    };
    (dest, b.scalar_source(0), arg1)
}

impl VecAcc {
    /// The field's 44 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        let mut arg0 = self.arg0;
        if self.mul_in {
            arg0.reg = 0;
        }
        pack_vec_alu(&mut bits, self.dest, &arg0, self.arg1.as_ref());
        put_mul_common(&mut bits, self.op.code(), self.outmod, 38);
        put(&mut bits, 43, 1, self.mul_in.into());
        bits
    }

    /// Reads the field's 44 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Result<VecAcc, UndefinedOp> {
        let mut b = Bits {
            bits,
            field: Field::Vec4Acc,
            lost,
        };
        let code = b.get(38, 5);
        let op = AccOp::from_code(code as u8).ok_or(b.undefined(code))?;
        let mul_in = b.flag(43);
        let (dest, mut arg0, arg1) = unpack_vec_alu(&mut b, op.is_binary());
        if mul_in {
            b.hidden(0, 4, 0, "arg0_source");
            arg0.reg = 0;
        }
        Ok(VecAcc {
            op,
            outmod: b.outmod(36),
            dest,
            mul_in,
            arg0,
            arg1,
        })
    }
}

impl FloatAcc {
    /// The field's 31 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        let mut arg0 = self.arg0;
        if self.mul_in {
            arg0.reg = 0;
        }
        pack_scalar_alu(&mut bits, self.dest, &arg0, self.arg1.as_ref());
        put_mul_common(&mut bits, self.op.code(), self.outmod, 25);
        put(&mut bits, 30, 1, self.mul_in.into());
        bits
    }

    /// Reads the field's 31 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Result<FloatAcc, UndefinedOp> {
        let mut b = Bits {
            bits,
            field: Field::FloatAcc,
            lost,
        };
        let code = b.get(25, 5);
        let op = AccOp::from_code(code as u8)
            .filter(|op| !op.info().vector_only)
            .ok_or(b.undefined(code))?;
        let mul_in = b.flag(30);
        let (dest, mut arg0, arg1) = unpack_scalar_alu(&mut b, op.is_binary());
        if mul_in {
            b.hidden(0, 6, 0, "arg0_source");
            arg0.reg = 0;
        }
        Ok(FloatAcc {
            op,
            outmod: b.outmod(23),
            dest,
            mul_in,
            arg0,
            arg1,
        })
    }
}

/// Where a scalar op of the complex unit writes (its `dest_vec` bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombineDest {
    /// One register component with an output modifier (`dest_vec` = 0; Mesa's choice for
    /// rcp to cos).
    Scalar {
        /// The register component.
        reg: ScalarReg,
        /// Output modifier.
        outmod: OutMod,
    },
    /// A register through a write mask, without output modifier (`dest_vec` = 1; Mesa's
    /// choice for atan and atan2 part 1, mask usually `.xyz`).
    Vector(VecDest),
}

/// The complex unit (`.s2`) in one of its three forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Combine {
    /// A scalar op (`src_vec` = 0).
    Scalar {
        /// The operation.
        op: CombineOp,
        /// Where the result goes.
        dest: CombineDest,
        /// First source.
        arg0: ScalarSource,
        /// Second source, for `atan2` only.
        arg1: Option<ScalarSource>,
    },
    /// `mul.s2`: scalar `arg0` times vec4 `arg1` (`dest_vec` = `src_vec` = 1).
    MulVec {
        /// Where the result goes.
        dest: VecDest,
        /// The scalar, with modifiers.
        arg0: ScalarSource,
        /// The vector register (no modifiers).
        arg1: VecReg,
        /// The vector's swizzle.
        swizzle: Swizzle,
    },
    /// `atan_pt2.s2`: the second part of atan (`dest_vec` = 0, `src_vec` = 1).
    AtanPt2 {
        /// The register component written.
        dest: ScalarReg,
        /// Output modifier.
        outmod: OutMod,
        /// The vector register read (no modifiers).
        arg: VecReg,
        /// Its swizzle.
        swizzle: Swizzle,
    },
}

impl Combine {
    /// The field's 30 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        match self {
            Combine::Scalar { op, dest, arg0, arg1 } => {
                put(&mut bits, 2, 4, op.code().into());
                if let Some(arg1) = arg1 {
                    put(&mut bits, 6, 1, arg1.abs.into());
                    put(&mut bits, 7, 1, arg1.neg.into());
                    put(&mut bits, 8, 6, arg1.reg.into());
                }
                put_combine_arg0(&mut bits, arg0);
                match dest {
                    CombineDest::Scalar { reg, outmod } => {
                        put(&mut bits, 22, 2, outmod.code().into());
                        put(&mut bits, 24, 6, (*reg).into());
                    }
                    CombineDest::Vector(dest) => {
                        put(&mut bits, 0, 1, 1);
                        put_combine_vec_dest(&mut bits, dest);
                    }
                }
            }
            Combine::MulVec {
                dest,
                arg0,
                arg1,
                swizzle,
            } => {
                put(&mut bits, 0, 2, 3);
                put(&mut bits, 2, 8, (*swizzle).into());
                put(&mut bits, 10, 4, (*arg1).into());
                put_combine_arg0(&mut bits, arg0);
                put_combine_vec_dest(&mut bits, dest);
            }
            Combine::AtanPt2 {
                dest,
                outmod,
                arg,
                swizzle,
            } => {
                put(&mut bits, 1, 1, 1);
                put(&mut bits, 2, 8, (*swizzle).into());
                put(&mut bits, 10, 4, (*arg).into());
                put(&mut bits, 22, 2, outmod.code().into());
                put(&mut bits, 24, 6, (*dest).into());
            }
        }
        bits
    }

    /// Reads the field's 30 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Result<Combine, UndefinedOp> {
        let mut b = Bits {
            bits,
            field: Field::Combine,
            lost,
        };
        let dest_vec = b.flag(0);
        let arg0 = ScalarSource {
            reg: b.get(16, 6) as u8,
            abs: b.flag(14),
            neg: b.flag(15),
        };
        let vec_dest = VecDest {
            reg: b.get(26, 4) as u8,
            mask: b.get(22, 4) as u8,
        };
        if b.flag(1) {
            let arg = b.get(10, 4) as u8;
            let swizzle = b.get(2, 8) as u8;
            if dest_vec {
                return Ok(Combine::MulVec {
                    dest: vec_dest,
                    arg0,
                    arg1: arg,
                    swizzle,
                });
            }
            b.hidden(14, 8, 0, "arg0");
            return Ok(Combine::AtanPt2 {
                dest: b.get(24, 6) as u8,
                outmod: b.outmod(22),
                arg,
                swizzle,
            });
        }
        let code = b.get(2, 4);
        let op = CombineOp::from_code(code as u8).ok_or(b.undefined(code))?;
        let arg1 = if op.is_binary() {
            Some(ScalarSource {
                reg: b.get(8, 6) as u8,
                abs: b.flag(6),
                neg: b.flag(7),
            })
        } else {
            b.hidden(6, 8, 0, "arg1");
            None
        };
        let dest = if dest_vec {
            CombineDest::Vector(vec_dest)
        } else {
            CombineDest::Scalar {
                reg: b.get(24, 6) as u8,
                outmod: b.outmod(22),
            }
        };
        Ok(Combine::Scalar { op, dest, arg0, arg1 })
    }
}

fn put_combine_arg0(bits: &mut u128, arg0: &ScalarSource) {
    put(bits, 14, 1, arg0.abs.into());
    put(bits, 15, 1, arg0.neg.into());
    put(bits, 16, 6, arg0.reg.into());
}

fn put_combine_vec_dest(bits: &mut u128, dest: &VecDest) {
    put(bits, 22, 4, dest.mask.into());
    put(bits, 26, 4, dest.reg.into());
}

/// The temp-write unit: a store to temporary memory, or a framebuffer read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Store {
    /// `store.t`: writes a register to temporary memory.
    Temp {
        /// How many components, and how the index counts; [`Alignment::Reserved`] counts
        /// floats as [`Alignment::Scalar`] does but names a whole register.
        alignment: Alignment,
        /// The index (16 bits; Mesa prints it as a signed number).
        index: u16,
        /// A scalar register added to the index.
        offset: Option<ScalarReg>,
        /// The register component stored; for other alignments than [`Alignment::Scalar`]
        /// only the vec4 register (`source >> 2`) counts and the component should be x.
        source: ScalarReg,
    },
    /// `fb_color` / `fb_depth`: reads the framebuffer into a register.
    FbRead {
        /// Colour or depth.
        read: FbRead,
        /// The register written.
        dest: VecReg,
    },
}

impl Store {
    /// The field's 41 bits.
    pub fn pack(&self) -> u128 {
        let mut bits = 0u128;
        match self {
            Store::Temp {
                alignment,
                index,
                offset,
                source,
            } => {
                put(&mut bits, 0, 2, fixed::STORE_DEST.into());
                let source = match alignment {
                    Alignment::Scalar => *source,
                    _ => source & !3,
                };
                put(&mut bits, 4, 6, source.into());
                put(&mut bits, 10, 2, alignment.code().into());
                if let Some(reg) = offset {
                    put(&mut bits, 18, 6, (*reg).into());
                    put(&mut bits, 24, 1, 1);
                }
                put(&mut bits, 25, 16, (*index).into());
            }
            Store::FbRead { read, dest } => {
                put(&mut bits, 0, 1, read.code().into());
                put(&mut bits, 1, 5, fixed::FB_READ_TAG.into());
                put(&mut bits, 6, 4, (*dest).into());
                put(&mut bits, 10, 31, fixed::FB_READ_FILL.into());
            }
        }
        bits
    }

    /// Reads the field's 41 bits.
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> Store {
        let mut b = Bits {
            bits,
            field: Field::TempWrite,
            lost,
        };
        if b.get(1, 5) == fixed::FB_READ_TAG {
            b.hidden(10, 31, fixed::FB_READ_FILL.into(), "unknown");
            let read = if b.flag(0) { FbRead::Color } else { FbRead::Depth };
            return Store::FbRead {
                read,
                dest: b.get(6, 4) as u8,
            };
        }
        b.hidden(0, 2, fixed::STORE_DEST.into(), "dest");
        b.hidden(2, 2, 0, "unused");
        let alignment =
            Alignment::from_code(b.get(10, 2) as u8).expect("invariant: every 2-bit value is a store alignment");
        let mut source = b.get(4, 6) as u8;
        if alignment != Alignment::Scalar {
            b.hidden(4, 2, 0, "source component");
            source &= !3;
        }
        b.hidden(12, 6, 0, "unused");
        let offset = if b.flag(24) {
            Some(b.get(18, 6) as u8)
        } else {
            b.hidden(18, 6, 0, "offset_reg");
            None
        };
        Store::Temp {
            alignment,
            index: b.get(25, 16) as u16,
            offset,
            source,
        }
    }
}

/// The branch unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    /// A jump, taken when the condition holds for the two scalars.
    Jump {
        /// The condition ([`BranchCond::Always`]: no operands, they are not encoded and
        /// should be 0).
        cond: BranchCond,
        /// Left operand (no modifiers).
        arg0: ScalarReg,
        /// Right operand (no modifiers).
        arg1: ScalarReg,
        /// Target in words, relative to the start of this instruction (27-bit signed).
        target: i32,
    },
    /// Ends the fragment without writing it.
    Discard,
}

/// Bits 68..72 of the branch field: the length of the instruction at the target.
pub const BRANCH_TARGET_COUNT_LO: u32 = 68;

impl Branch {
    /// The field's 73 bits; `target_count` is the length of the instruction at the target
    /// (0 when none starts there), which [`encode`] computes.
    pub fn pack(&self, target_count: u8) -> u128 {
        let mut bits = 0u128;
        match self {
            Branch::Jump {
                cond,
                arg0,
                arg1,
                target,
            } => {
                let code = cond.code();
                if *cond != BranchCond::Always {
                    put(&mut bits, 4, 6, (*arg1).into());
                    put(&mut bits, 10, 6, (*arg0).into());
                }
                put(&mut bits, 16, 1, u64::from(code >> 2 & 1));
                put(&mut bits, 17, 1, u64::from(code >> 1 & 1));
                put(&mut bits, 18, 1, u64::from(code & 1));
                put(&mut bits, 41, 27, *target as u32 as u64);
                put(&mut bits, BRANCH_TARGET_COUNT_LO, 5, target_count.into());
            }
            Branch::Discard => put(&mut bits, 0, 32, fixed::DISCARD_WORD0.into()),
        }
        bits
    }

    /// Reads the field's 73 bits; also returns the target-count bits, which [`decode`]
    /// compares with the program.
    ///
    /// [`decode`]: crate::decode::decode
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> (Branch, u8) {
        if bits == u128::from(fixed::DISCARD_WORD0) {
            return (Branch::Discard, 0);
        }
        let mut b = Bits {
            bits,
            field: Field::Branch,
            lost,
        };
        b.hidden(0, 4, 0, "unused");
        b.hidden(19, 22, 0, "unused");
        let code = (b.get(18, 1) | b.get(17, 1) << 1 | b.get(16, 1) << 2) as u8;
        let cond = BranchCond::from_code(code).expect("invariant: every 3-bit value is a condition");
        let (arg0, arg1) = if cond == BranchCond::Always {
            b.hidden(4, 12, 0, "arguments");
            (0, 0)
        } else {
            (b.get(10, 6) as u8, b.get(4, 6) as u8)
        };
        let target = ((b.get(41, 27) << 5) as i32) >> 5;
        let branch = Branch::Jump {
            cond,
            arg0,
            arg1,
            target,
        };
        (branch, b.get(BRANCH_TARGET_COUNT_LO, 5) as u8)
    }
}

/// Four IEEE binary16 values, x first.
pub type Constants = [u16; 4];

fn pack_constants(values: &Constants) -> u128 {
    values
        .iter()
        .enumerate()
        .fold(0u128, |bits, (i, &v)| bits | u128::from(v) << (16 * i))
}

fn unpack_constants(bits: u128) -> Constants {
    [0, 1, 2, 3].map(|i| (bits >> (16 * i)) as u16)
}

/// One instruction: the control bits and the optional fields in control-word order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Instr {
    /// End of program after this instruction.
    pub stop: bool,
    /// Inter-thread sync (set with texture fetches and derivatives).
    pub sync: bool,
    /// Field 0, `.v`.
    pub varying: Option<Varying>,
    /// Field 1, `texld`.
    pub sampler: Option<Sampler>,
    /// Field 2, `load.u` / `load.t`.
    pub load: Option<Load>,
    /// Field 3, `.v0`.
    pub vec4_mul: Option<VecMul>,
    /// Field 4, `.s0`.
    pub float_mul: Option<FloatMul>,
    /// Field 5, `.v1`.
    pub vec4_acc: Option<VecAcc>,
    /// Field 6, `.s1`.
    pub float_acc: Option<FloatAcc>,
    /// Field 7, `.s2`.
    pub combine: Option<Combine>,
    /// Field 8, `store.t` / `fb_color` / `fb_depth`.
    pub store: Option<Store>,
    /// Field 9, `branch` / `discard`.
    pub branch: Option<Branch>,
    /// Field 10, `^const0`.
    pub const0: Option<Constants>,
    /// Field 11, `^const1`.
    pub const1: Option<Constants>,
}

/// One present field of an [`Instr`], as [`Instr::fields`] gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldRef<'a> {
    Varying(&'a Varying),
    Sampler(&'a Sampler),
    Load(&'a Load),
    VecMul(&'a VecMul),
    FloatMul(&'a FloatMul),
    VecAcc(&'a VecAcc),
    FloatAcc(&'a FloatAcc),
    Combine(&'a Combine),
    Store(&'a Store),
    Branch(&'a Branch),
    Const0(&'a Constants),
    Const1(&'a Constants),
}

impl FieldRef<'_> {
    /// Which field of the control word this is.
    pub fn field(self) -> Field {
        match self {
            FieldRef::Varying(_) => Field::Varying,
            FieldRef::Sampler(_) => Field::Sampler,
            FieldRef::Load(_) => Field::Uniform,
            FieldRef::VecMul(_) => Field::Vec4Mul,
            FieldRef::FloatMul(_) => Field::FloatMul,
            FieldRef::VecAcc(_) => Field::Vec4Acc,
            FieldRef::FloatAcc(_) => Field::FloatAcc,
            FieldRef::Combine(_) => Field::Combine,
            FieldRef::Store(_) => Field::TempWrite,
            FieldRef::Branch(_) => Field::Branch,
            FieldRef::Const0(_) => Field::Const0,
            FieldRef::Const1(_) => Field::Const1,
        }
    }

    /// The field's bits; `target_count` is a branch's target-count value.
    pub fn pack(self, target_count: u8) -> u128 {
        match self {
            FieldRef::Varying(v) => v.pack(),
            FieldRef::Sampler(v) => v.pack(),
            FieldRef::Load(v) => v.pack(),
            FieldRef::VecMul(v) => v.pack(),
            FieldRef::FloatMul(v) => v.pack(),
            FieldRef::VecAcc(v) => v.pack(),
            FieldRef::FloatAcc(v) => v.pack(),
            FieldRef::Combine(v) => v.pack(),
            FieldRef::Store(v) => v.pack(),
            FieldRef::Branch(v) => v.pack(target_count),
            FieldRef::Const0(v) | FieldRef::Const1(v) => pack_constants(v),
        }
    }
}

impl Instr {
    /// Whether the field is present.
    pub fn has(&self, field: Field) -> bool {
        match field {
            Field::Varying => self.varying.is_some(),
            Field::Sampler => self.sampler.is_some(),
            Field::Uniform => self.load.is_some(),
            Field::Vec4Mul => self.vec4_mul.is_some(),
            Field::FloatMul => self.float_mul.is_some(),
            Field::Vec4Acc => self.vec4_acc.is_some(),
            Field::FloatAcc => self.float_acc.is_some(),
            Field::Combine => self.combine.is_some(),
            Field::TempWrite => self.store.is_some(),
            Field::Branch => self.branch.is_some(),
            Field::Const0 => self.const0.is_some(),
            Field::Const1 => self.const1.is_some(),
        }
    }

    /// The 12 presence bits (bit i: field i), as in control-word bits 7..18.
    pub fn presence(&self) -> u32 {
        Field::ALL
            .iter()
            .filter(|f| self.has(**f))
            .fold(0, |acc, f| acc | 1 << f.info().index)
    }

    /// The length in words, control word included.
    pub fn count(&self) -> u32 {
        count_for_presence(self.presence())
    }

    /// The fields present, in control-word order.
    pub fn fields(&self) -> impl Iterator<Item = FieldRef<'_>> {
        [
            self.varying.as_ref().map(FieldRef::Varying),
            self.sampler.as_ref().map(FieldRef::Sampler),
            self.load.as_ref().map(FieldRef::Load),
            self.vec4_mul.as_ref().map(FieldRef::VecMul),
            self.float_mul.as_ref().map(FieldRef::FloatMul),
            self.vec4_acc.as_ref().map(FieldRef::VecAcc),
            self.float_acc.as_ref().map(FieldRef::FloatAcc),
            self.combine.as_ref().map(FieldRef::Combine),
            self.store.as_ref().map(FieldRef::Store),
            self.branch.as_ref().map(FieldRef::Branch),
            self.const0.as_ref().map(FieldRef::Const0),
            self.const1.as_ref().map(FieldRef::Const1),
        ]
        .into_iter()
        .flatten()
    }

    /// The payload fields in order, each as (field, bits); `target_count` is the branch's
    /// target-count value.
    pub fn encode_fields(&self, target_count: u8) -> Vec<(Field, u128)> {
        let mut fields = Vec::with_capacity(12);
        self.each_field(target_count, |field, bits| fields.push((field, bits)));
        fields
    }

    /// Calls `each` with every payload field in order, as [`Instr::encode_fields`] lists them.
    fn each_field(&self, target_count: u8, mut each: impl FnMut(Field, u128)) {
        for field in self.fields() {
            each(field.field(), field.pack(target_count));
        }
    }

    /// Reads field `field` from its bits into this instruction; a branch returns its
    /// target-count bits.
    pub fn unpack_field(
        &mut self,
        field: Field,
        bits: u128,
        lost: &mut Vec<LostBits>,
    ) -> Result<Option<u8>, UndefinedOp> {
        match field {
            Field::Varying => self.varying = Some(Varying::unpack(bits, lost)),
            Field::Sampler => self.sampler = Some(Sampler::unpack(bits, lost)),
            Field::Uniform => self.load = Some(Load::unpack(bits, lost)),
            Field::Vec4Mul => self.vec4_mul = Some(VecMul::unpack(bits, lost)?),
            Field::FloatMul => self.float_mul = Some(FloatMul::unpack(bits, lost)?),
            Field::Vec4Acc => self.vec4_acc = Some(VecAcc::unpack(bits, lost)?),
            Field::FloatAcc => self.float_acc = Some(FloatAcc::unpack(bits, lost)?),
            Field::Combine => self.combine = Some(Combine::unpack(bits, lost)?),
            Field::TempWrite => self.store = Some(Store::unpack(bits, lost)),
            Field::Branch => {
                let (branch, target_count) = Branch::unpack(bits, lost);
                self.branch = Some(branch);
                return Ok(Some(target_count));
            }
            Field::Const0 => self.const0 = Some(unpack_constants(bits)),
            Field::Const1 => self.const1 = Some(unpack_constants(bits)),
        }
        Ok(None)
    }
}
