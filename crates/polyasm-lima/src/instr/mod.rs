//! The instruction model and its encoding.
//!
//! An [`Instr`] holds one optional struct per field of the control word, in control-word order,
//! plus the `stop` and `sync` bits. Each struct holds every meaningful bit of its field; the
//! bits no syntax shows are not in the model: [`Instr::encode_fields`] writes the values Mesa's
//! compiler writes there, and unpacking reports other values as [`LostBits`]. The parsers of
//! both syntaxes fill this model; [`words::encode`] turns a program into words, computing the lengths,
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
    /// The register read.
    pub reg: VecReg,
    /// Which component each lane reads.
    pub swizzle: Swizzle,
    /// Take the absolute value.
    pub abs: bool,
    /// Negate (after abs).
    pub neg: bool,
}

/// A scalar source operand: one component of a register and the modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScalarSource {
    /// The register component read.
    pub reg: ScalarReg,
    /// Take the absolute value.
    pub abs: bool,
    /// Negate (after abs).
    pub neg: bool,
}

/// A vec4 destination: a register and a write mask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VecDest {
    /// The register written.
    pub reg: VecReg,
    /// The lanes written; not 0 (no write is `None` where a destination is optional).
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
    /// How many bits, 1 or more.
    pub len: u32,
    /// The value the bits hold in the words decoded.
    pub found: u64,
    /// The value the encoder writes instead.
    pub written: u64,
}

impl LostBits {
    /// The bits `lo..lo + len` of `field` (what `name` says they are) when they hold `found`
    /// rather than the `written` value; `None` when the two agree.
    pub(crate) fn differ(
        field: Option<Field>,
        name: &'static str,
        (lo, len): (u32, u32),
        found: u64,
        written: u64,
    ) -> Option<LostBits> {
        (found != written).then_some(LostBits {
            field,
            name,
            lo,
            len,
            found,
            written,
        })
    }
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
    /// The op number.
    pub code: u8,
}

/// A number or named value that a run of bits holds.
trait Bitfield: Copy {
    /// The bits (cut to the run's width when written).
    fn to_bits(self) -> u64;
    /// The value of `len` bits.
    fn from_bits(bits: u64, len: u32) -> Self;
}

/// Whole numbers; two's complement ones are sign-extended from the run's top bit.
macro_rules! integer_bitfields {
    ($($ty:ty),*) => {$(
        impl Bitfield for $ty {
            fn to_bits(self) -> u64 {
                self as i64 as u64
            }

            fn from_bits(bits: u64, len: u32) -> $ty {
                if <$ty>::MIN == 0 {
                    bits as $ty
                } else {
                    (((bits << (64 - len)) as i64) >> (64 - len)) as $ty
                }
            }
        }
    )*};
}

integer_bitfields!(u8, u16, i16, i32);

impl Bitfield for bool {
    fn to_bits(self) -> u64 {
        self.into()
    }

    fn from_bits(bits: u64, _len: u32) -> bool {
        bits == 1
    }
}

/// Named values whose table has a name for every value of their width.
macro_rules! named_bitfields {
    ($($ty:ident),*) => {$(
        impl Bitfield for $ty {
            fn to_bits(self) -> u64 {
                self.code().into()
            }

            fn from_bits(bits: u64, _len: u32) -> $ty {
                $ty::from_code(bits as u8).expect("invariant: the table names every value of the field's width")
            }
        }
    )*};
}

named_bitfields!(OutMod, LoadSource, Alignment, FbRead);

/// The values a model starts from: the identity ops, no output modifier, and the alignment and
/// load source numbered 0.
macro_rules! defaults {
    ($($ty:ident = $value:ident),*) => {$(
        impl Default for $ty {
            fn default() -> $ty {
                $ty::$value
            }
        }
    )*};
}

defaults!(
    MulOp = Mov,
    AccOp = Mov,
    OutMod = None,
    Alignment = Scalar,
    VaryingAlignment = Scalar,
    LoadSource = Uniform
);

fn get(bits: u128, lo: u32, len: u32) -> u64 {
    ((bits >> lo) & ((1u128 << len) - 1)) as u64
}

fn put(bits: &mut u128, lo: u32, len: u32, value: u64) {
    *bits |= (u128::from(value) & ((1u128 << len) - 1)) << lo;
}

/// One pass over a field's layout, in either direction: packing writes the model's values, and
/// the hidden bits' usual values, into `bits`; unpacking reads the values from `bits` into the
/// model and records the hidden bits that differ. Each field's layout is written once, as a
/// walk over its parts, so packing and unpacking cannot disagree.
struct Walk<'a> {
    bits: u128,
    field: Field,
    /// Where unpacking records the hidden bits that differ; `None` when packing.
    lost: Option<&'a mut Vec<LostBits>>,
    /// The first op number, met while unpacking, that no table has.
    undefined: Option<UndefinedOp>,
    /// A branch's target-count value: what packing writes, what unpacking reads.
    target_count: u8,
}

impl Walk<'_> {
    fn unpacking(&self) -> bool {
        self.lost.is_some()
    }

    /// Bits `lo..lo + len` hold `value`.
    fn num<T: Bitfield>(&mut self, lo: u32, len: u32, value: &mut T) {
        if self.unpacking() {
            *value = T::from_bits(get(self.bits, lo, len), len);
        } else {
            put(&mut self.bits, lo, len, value.to_bits());
        }
    }

    /// Bits the model does not hold: packing writes `written`, unpacking records them when
    /// they differ from it.
    fn hidden(&mut self, lo: u32, len: u32, written: u64, name: &'static str) {
        let found = get(self.bits, lo, len);
        match &mut self.lost {
            Some(lost) => lost.extend(LostBits::differ(Some(self.field), name, (lo, len), found, written)),
            None => put(&mut self.bits, lo, len, written),
        }
    }

    /// An op number: unpacking records one that `from_code` does not know.
    fn op<T: Copy>(&mut self, lo: u32, len: u32, op: &mut T, code: fn(T) -> u8, from_code: fn(u8) -> Option<T>) {
        let mut number = code(*op);
        self.num(lo, len, &mut number);
        if self.unpacking() {
            match from_code(number) {
                Some(found) => *op = found,
                None => {
                    let field = self.field;
                    self.undefined.get_or_insert(UndefinedOp { field, code: number });
                }
            }
        }
    }

    /// A part present when `present` (as unpacking reads it; packing writes what `value`
    /// holds): `part` walks it, and when absent bits `lo..lo + len` hold 0.
    fn optional<T: Default>(
        &mut self,
        present: bool,
        value: &mut Option<T>,
        (lo, len, name): (u32, u32, &'static str),
        part: impl FnOnce(&mut Self, &mut T),
    ) {
        let present = if self.unpacking() { present } else { value.is_some() };
        if present {
            let mut inner = value.take().unwrap_or_default();
            part(self, &mut inner);
            *value = Some(inner);
        } else {
            self.hidden(lo, len, 0, name);
            *value = None;
        }
    }

    /// A register number in bits `lo..lo + len`, present when bit `flag` is set.
    fn flagged(&mut self, flag: u32, value: &mut Option<u8>, (lo, len, name): (u32, u32, &'static str)) {
        let mut present = value.is_some();
        self.num(flag, 1, &mut present);
        self.optional(present, value, (lo, len, name), |w, reg| w.num(lo, len, reg));
    }
}

/// A field's model, packed and unpacked by one walk over its layout.
trait Layout: Copy + Default {
    /// The field it models.
    const FIELD: Field;

    /// Walks the field's parts; unpacking first picks the form from the bits.
    fn walk(&mut self, w: &mut Walk);
}

/// Walks `value` over `bits`: unpacking when `lost` is given, else packing.
fn walk<T: Layout>(mut value: T, bits: u128, lost: Option<&mut Vec<LostBits>>, target_count: u8) -> (T, Walk<'_>) {
    let mut w = Walk {
        bits,
        field: T::FIELD,
        lost,
        undefined: None,
        target_count,
    };
    value.walk(&mut w);
    (value, w)
}

/// The field's bits; `target_count` counts only for a branch.
fn pack<T: Layout>(value: &T, target_count: u8) -> u128 {
    walk(*value, 0, None, target_count).1.bits
}

/// Reads a field from its bits, recording the hidden bits that differ in `lost`; also returns
/// a branch's target-count bits (0 for other fields).
fn unpack<T: Layout>(bits: u128, lost: &mut Vec<LostBits>) -> Result<(T, u8), UndefinedOp> {
    let (value, w) = walk(T::default(), bits, Some(lost), 0);
    w.undefined.map_or(Ok((value, w.target_count)), Err)
}

fn vec_source(w: &mut Walk, lo: u32, source: &mut VecSource) {
    w.num(lo, 4, &mut source.reg);
    w.num(lo + 4, 8, &mut source.swizzle);
    w.num(lo + 12, 1, &mut source.abs);
    w.num(lo + 13, 1, &mut source.neg);
}

/// A scalar source laid out as register [lo..lo+5], abs [lo+6], neg [lo+7].
fn scalar_source(w: &mut Walk, lo: u32, source: &mut ScalarSource) {
    w.num(lo, 6, &mut source.reg);
    w.num(lo + 6, 1, &mut source.abs);
    w.num(lo + 7, 1, &mut source.neg);
}

/// What a varying fetch reads by index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VaryingSource {
    /// A varying by index (source_type 0).
    Fetch {
        /// The divide applied to what is read.
        perspective: Perspective,
        /// The varying, its components and offset.
        fetch: VaryingFetch,
    },
    /// A register (source_type 1), e.g. computed texture coordinates.
    Register {
        /// The divide applied to the register's value.
        perspective: Perspective,
        /// The register read, with its swizzle and modifiers.
        source: VecSource,
    },
    /// `cube(varying)`.
    Cube(VaryingFetch),
    /// `cube(register)`.
    CubeRegister(VecSource),
    /// `normalize(register)` (vec3).
    Normalize(VecSource),
    /// `gl_FragCoord`.
    #[default]
    FragCoord,
    /// `gl_PointCoord`.
    PointCoord,
    /// `gl_FrontFacing`.
    FrontFacing,
}

/// The varying unit (`.v`): fetches a varying or transforms a register; its result also
/// feeds the sampler as the texture coordinate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Varying {
    /// Destination register; [`ops::VARYING_DISCARD`] (15) writes nothing.
    pub dest: VecReg,
    /// The lanes written.
    pub mask: Mask,
    /// What the unit reads.
    pub source: VaryingSource,
}

impl VaryingSource {
    /// The kind of input and the perspective of the field's first four bits.
    fn kind(&self) -> (&'static ops::VaryingKindInfo, Perspective) {
        match *self {
            VaryingSource::Fetch { perspective, .. } => (&ops::VARYING_FETCH, perspective),
            VaryingSource::Register { perspective, .. } => (&ops::VARYING_REGISTER, perspective),
            VaryingSource::Cube(_) => (&ops::VARYING_CUBE, Perspective::None),
            VaryingSource::CubeRegister(_) => (&ops::VARYING_CUBE_REGISTER, Perspective::None),
            VaryingSource::Normalize(_) => (&ops::VARYING_NORMALIZE, Perspective::None),
            VaryingSource::FragCoord => (&ops::VARYING_FRAG_COORD, Perspective::None),
            VaryingSource::PointCoord => (&ops::VARYING_POINT_COORD, Perspective::None),
            VaryingSource::FrontFacing => (&ops::VARYING_FRONT_FACING, Perspective::None),
        }
    }

    /// The form the field's first four bits name, its operand still blank: the last kind
    /// whose code is at most `code` (gl_FrontFacing's also covers the codes after it).
    fn from_code(code: u8) -> VaryingSource {
        let perspective = Perspective::from_code(code & 3).expect("invariant: every 2-bit value is a perspective");
        let (fetch, source) = (VaryingFetch::default(), VecSource::default());
        let blanks = [
            VaryingSource::Fetch { perspective, fetch },
            VaryingSource::Register { perspective, source },
            VaryingSource::Cube(fetch),
            VaryingSource::CubeRegister(source),
            VaryingSource::Normalize(source),
            VaryingSource::FragCoord,
            VaryingSource::PointCoord,
            VaryingSource::FrontFacing,
        ];
        let kind = blanks.into_iter().rfind(|blank| blank.kind().0.code <= code);
        kind.expect("invariant: the plain fetch's code is 0")
    }
}

impl Layout for Varying {
    const FIELD: Field = Field::Varying;

    /// The field's 34 bits.
    fn walk(&mut self, w: &mut Walk) {
        let (kind, perspective) = self.source.kind();
        let mut code = kind.code + perspective.code();
        w.num(0, 4, &mut code);
        if w.unpacking() {
            self.source = VaryingSource::from_code(code);
        }
        match &mut self.source {
            VaryingSource::Fetch { fetch, .. } | VaryingSource::Cube(fetch) => varying_fetch(w, fetch),
            VaryingSource::Register { source, .. }
            | VaryingSource::CubeRegister(source)
            | VaryingSource::Normalize(source) => varying_register(w, source),
            VaryingSource::FragCoord => fixed_input(w, &ops::VARYING_FRAG_COORD),
            VaryingSource::PointCoord => fixed_input(w, &ops::VARYING_POINT_COORD),
            VaryingSource::FrontFacing => {
                w.hidden(0, 2, 1, "perspective");
                fixed_input(w, &ops::VARYING_FRONT_FACING);
            }
        }
        w.hidden(32, 2, 0, "unused");
        w.num(24, 4, &mut self.dest);
        w.num(28, 4, &mut self.mask);
    }
}

fn varying_fetch(w: &mut Walk, fetch: &mut VaryingFetch) {
    w.hidden(4, 1, 0, "unused");
    w.hidden(7, 3, 0, "unused");
    w.hidden(14, 2, 0, "unused");
    let mut alignment = fetch.alignment.code();
    w.num(5, 2, &mut alignment);
    if alignment == 2 {
        // 2 reads as a vec4 like 3, the value compilers write.
        w.hidden(5, 2, 3, "alignment");
    }
    fetch.alignment = VaryingAlignment::from_code(alignment).unwrap_or(VaryingAlignment::Vec4);
    // The offset register's vec4 number, 15 for none, and its component.
    let mut vector = fetch.offset.map_or(fixed::NO_OFFSET_VECTOR as u8, |reg| reg >> 2);
    w.num(10, 4, &mut vector);
    let present = u32::from(vector) != fixed::NO_OFFSET_VECTOR;
    w.optional(present, &mut fetch.offset, (16, 2, "offset_scalar"), |w, reg| {
        let mut component = *reg & 3;
        w.num(16, 2, &mut component);
        *reg = vector << 2 | component;
    });
    w.num(18, 6, &mut fetch.index);
}

fn varying_register(w: &mut Walk, source: &mut VecSource) {
    w.hidden(4, 2, 0, "unused");
    w.hidden(6, 1, 0, "normalize");
    w.hidden(7, 3, 0, "unknown");
    w.num(10, 4, &mut source.reg);
    w.num(14, 1, &mut source.neg);
    w.num(15, 1, &mut source.abs);
    w.num(16, 8, &mut source.swizzle);
}

/// Bits 4..23 of a fixed varying input, as compilers write them.
fn fixed_input(w: &mut Walk, kind: &ops::VaryingKindInfo) {
    let bits = u64::from(kind.alignment) << 1 | u64::from(fixed::NO_OFFSET_VECTOR) << 6;
    w.hidden(4, 20, bits, "fixed input bits");
}

/// The texture unit (`texld`): samples at the coordinate the varying unit produced in the same
/// instruction; the result is `^texture`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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

/// The load unit (`load.u`, `load.t`): reads uniform or temporary memory into `^uniform`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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

/// A multiplier: the vector one (`.v0`, [`VecMul`]) with vec4 sources and destination, or the
/// scalar one (`.s0`, [`FloatMul`]) with scalar ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mul<S, D> {
    /// The operation, such as `mul` or `ne`.
    pub op: MulOp,
    /// For [`MulOp::Mul`], the product is scaled by 2^shift, -4..=3; 0 for every other op.
    pub shift: i8,
    /// What is done to the result before it is written.
    pub outmod: OutMod,
    /// The register written (the scalar unit's: the register component, `output_en`); `None`
    /// leaves the result only on `^v0` (`^s0`).
    pub dest: Option<D>,
    /// First source.
    pub arg0: S,
    /// Second source, for two-operand ops (`None` writes Mesa's zero bits).
    pub arg1: Option<S>,
}

/// The vector multiplier (`.v0`).
pub type VecMul = Mul<VecSource, VecDest>;
/// The scalar multiplier (`.s0`).
pub type FloatMul = Mul<ScalarSource, ScalarReg>;

/// An adder: the vector one (`.v1`, [`VecAcc`]) with vec4 sources and destination, or the
/// scalar one (`.s1`, [`FloatAcc`]) with scalar ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Acc<S, D> {
    /// The operation (on the scalar unit, not the vector-only `sum3`/`sum4`).
    pub op: AccOp,
    /// What is done to the result before it is written.
    pub outmod: OutMod,
    /// The register written (the scalar unit's: the register component, `output_en`); `None`
    /// writes nothing.
    pub dest: Option<D>,
    /// The first source is the multiplier's result of the same kind, `^v0` (`^s0`), (`mul_in`);
    /// `arg0.reg` is then not encoded and should be 0, its swizzle and modifiers still apply.
    pub mul_in: bool,
    /// First source.
    pub arg0: S,
    /// Second source, for two-operand ops.
    pub arg1: Option<S>,
}

/// The vector adder (`.v1`).
pub type VecAcc = Acc<VecSource, VecDest>;
/// The scalar adder (`.s1`).
pub type FloatAcc = Acc<ScalarSource, ScalarReg>;

impl Layout for Sampler {
    const FIELD: Field = Field::Sampler;

    /// The field's 62 bits.
    fn walk(&mut self, w: &mut Walk) {
        w.flagged(18, &mut self.lod_bias, (0, 6, "lod_bias"));
        w.flagged(29, &mut self.offset, (6, 6, "index_offset"));
        w.hidden(12, 5, 0, "unused");
        w.hidden(19, 1, 0, "unused");
        w.hidden(42, 20, fixed::SAMPLER_UNKNOWN_2.into(), "unknown_2");
        w.num(17, 1, &mut self.explicit_lod);
        w.num(20, 9, &mut self.constant_lod_bias);
        w.num(30, 12, &mut self.index);
    }
}

impl Layout for Load {
    const FIELD: Field = Field::Uniform;

    /// The field's 41 bits.
    fn walk(&mut self, w: &mut Walk) {
        w.num(0, 2, &mut self.source);
        w.hidden(2, 8, 0, "unused");
        w.num(10, 2, &mut self.alignment);
        if self.alignment == Alignment::Reserved {
            // 3 prints and reads as a scalar like 0, the value compilers write.
            w.hidden(10, 2, 0, "alignment");
            self.alignment = Alignment::Scalar;
        }
        w.hidden(12, 6, 0, "unused");
        w.flagged(24, &mut self.offset, (18, 6, "offset_reg"));
        w.num(25, 16, &mut self.index);
    }
}

/// The sources of the vector or of the scalar ALUs, and where their fields' parts lie.
trait AluSource: Copy + Default {
    /// The destination of these ALUs.
    type Dest: Copy + Default;
    /// The multiplier's and the adder's fields.
    const FIELDS: (Field, Field);
    /// The op number's first bit (5 bits; the output modifier lies below it, an adder's
    /// `mul_in` bit above it).
    const OP_LO: u32;
    /// The width of a source's register number.
    const REG_BITS: u32;

    /// The adder's op with this number (the scalar adder has no vector-only op).
    fn acc_op(code: u8) -> Option<AccOp>;

    /// The register number.
    fn reg(&mut self) -> &mut u8;

    /// The sources and the destination; `arg1` is present when the op is `binary`.
    fn walk_operands(
        w: &mut Walk,
        dest: &mut Option<Self::Dest>,
        arg0: &mut Self,
        arg1: &mut Option<Self>,
        binary: bool,
    );
}

impl AluSource for VecSource {
    type Dest = VecDest;
    const FIELDS: (Field, Field) = (Field::Vec4Mul, Field::Vec4Acc);
    const OP_LO: u32 = 38;
    const REG_BITS: u32 = 4;

    fn acc_op(code: u8) -> Option<AccOp> {
        AccOp::from_code(code)
    }

    fn reg(&mut self) -> &mut u8 {
        &mut self.reg
    }

    /// Sources [0..27], dest [28..31], mask [32..35].
    fn walk_operands(w: &mut Walk, dest: &mut Option<VecDest>, arg0: &mut Self, arg1: &mut Option<Self>, binary: bool) {
        let mut mask = dest.map_or(0, |dest| dest.mask);
        w.num(32, 4, &mut mask);
        w.optional(mask != 0, dest, (28, 4, "dest"), |w, dest| {
            w.num(28, 4, &mut dest.reg);
            dest.mask = mask;
        });
        w.optional(binary, arg1, (14, 14, "arg1"), |w, arg1| vec_source(w, 14, arg1));
        vec_source(w, 0, arg0);
    }
}

impl AluSource for ScalarSource {
    type Dest = ScalarReg;
    const FIELDS: (Field, Field) = (Field::FloatMul, Field::FloatAcc);
    const OP_LO: u32 = 25;
    const REG_BITS: u32 = 6;

    fn acc_op(code: u8) -> Option<AccOp> {
        AccOp::from_code(code).filter(|op| !op.info().vector_only)
    }

    fn reg(&mut self) -> &mut u8 {
        &mut self.reg
    }

    /// Sources [0..15], dest [16..21], output_en [22].
    fn walk_operands(
        w: &mut Walk,
        dest: &mut Option<ScalarReg>,
        arg0: &mut Self,
        arg1: &mut Option<Self>,
        binary: bool,
    ) {
        w.flagged(22, dest, (16, 6, "dest"));
        w.optional(binary, arg1, (8, 8, "arg1"), |w, arg1| scalar_source(w, 8, arg1));
        scalar_source(w, 0, arg0);
    }
}

impl<S: AluSource> Layout for Mul<S, S::Dest> {
    const FIELD: Field = S::FIELDS.0;

    /// The field's 43 (vector) or 30 (scalar) bits.
    fn walk(&mut self, w: &mut Walk) {
        // The op and its shift are one op number.
        let mut op = (self.op, self.shift);
        w.op(
            S::OP_LO,
            5,
            &mut op,
            |(op, shift)| ops::mul_op_code(op, shift),
            ops::mul_op_from_code,
        );
        (self.op, self.shift) = op;
        w.num(S::OP_LO - 2, 2, &mut self.outmod);
        S::walk_operands(w, &mut self.dest, &mut self.arg0, &mut self.arg1, self.op.is_binary());
    }
}

impl<S: AluSource> Layout for Acc<S, S::Dest> {
    const FIELD: Field = S::FIELDS.1;

    /// The field's 44 (vector) or 31 (scalar) bits.
    fn walk(&mut self, w: &mut Walk) {
        w.op(S::OP_LO, 5, &mut self.op, AccOp::code, S::acc_op);
        w.num(S::OP_LO - 2, 2, &mut self.outmod);
        w.num(S::OP_LO + 5, 1, &mut self.mul_in);
        // With mul_in the first source's register is not encoded.
        if self.mul_in {
            *self.arg0.reg() = 0;
        }
        S::walk_operands(w, &mut self.dest, &mut self.arg0, &mut self.arg1, self.op.is_binary());
        if self.mul_in {
            w.hidden(0, S::REG_BITS, 0, "arg0_source");
            *self.arg0.reg() = 0;
        }
    }
}

/// Where a scalar op of the complex unit writes (its `dest_vec` bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CombineDest {
    /// One register component and an output modifier (`dest_vec` = 0; Mesa's for rcp to cos).
    Scalar {
        /// The register component written.
        reg: ScalarReg,
        /// What is done to the result before it is written.
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
        /// The operation, such as `rcp` or `atan2`.
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
        /// What is done to the result before it is written.
        outmod: OutMod,
        /// The vector register read (no modifiers).
        arg: VecReg,
        /// The vector's swizzle.
        swizzle: Swizzle,
    },
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
        /// Depth or colour.
        read: FbRead,
        /// The register written.
        dest: VecReg,
    },
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

/// The form unpacking starts from: the `atan_pt2` form, its operands 0.
impl Default for Combine {
    fn default() -> Combine {
        Combine::AtanPt2 {
            dest: 0,
            outmod: OutMod::None,
            arg: 0,
            swizzle: 0,
        }
    }
}

impl Layout for Combine {
    const FIELD: Field = Field::Combine;

    /// The field's 30 bits.
    fn walk(&mut self, w: &mut Walk) {
        let (mut dest_vec, mut src_vec) = match self {
            Combine::Scalar { dest, .. } => (matches!(dest, CombineDest::Vector(_)), false),
            Combine::MulVec { .. } => (true, true),
            Combine::AtanPt2 { .. } => (false, true),
        };
        w.num(0, 1, &mut dest_vec);
        w.num(1, 1, &mut src_vec);
        if w.unpacking() {
            *self = Combine::from_flags(dest_vec, src_vec);
        }
        match self {
            Combine::Scalar { op, dest, arg0, arg1 } => {
                w.op(2, 4, op, CombineOp::code, CombineOp::from_code);
                w.optional(op.is_binary(), arg1, (6, 8, "arg1"), |w, arg1| {
                    combine_source(w, 6, arg1)
                });
                combine_source(w, 14, arg0);
                match dest {
                    CombineDest::Scalar { reg, outmod } => combine_scalar_dest(w, reg, outmod),
                    CombineDest::Vector(dest) => combine_vec_dest(w, dest),
                }
            }
            Combine::MulVec {
                dest,
                arg0,
                arg1,
                swizzle,
            } => {
                w.num(2, 8, swizzle);
                w.num(10, 4, arg1);
                combine_source(w, 14, arg0);
                combine_vec_dest(w, dest);
            }
            Combine::AtanPt2 {
                dest,
                outmod,
                arg,
                swizzle,
            } => {
                w.num(2, 8, swizzle);
                w.num(10, 4, arg);
                w.hidden(14, 8, 0, "arg0");
                combine_scalar_dest(w, dest, outmod);
            }
        }
    }
}

impl Combine {
    /// The form the `dest_vec` and `src_vec` bits name, its operands blank.
    fn from_flags(dest_vec: bool, src_vec: bool) -> Combine {
        match (dest_vec, src_vec) {
            (true, true) => Combine::MulVec {
                dest: VecDest::default(),
                arg0: ScalarSource::default(),
                arg1: 0,
                swizzle: 0,
            },
            (false, true) => Combine::default(),
            (_, false) => Combine::Scalar {
                op: CombineOp::Mov,
                dest: if dest_vec {
                    CombineDest::Vector(VecDest::default())
                } else {
                    CombineDest::Scalar {
                        reg: 0,
                        outmod: OutMod::None,
                    }
                },
                arg0: ScalarSource::default(),
                arg1: None,
            },
        }
    }
}

/// A scalar source of the complex unit laid out as abs [lo], neg [lo+1], register [lo+2..lo+7].
fn combine_source(w: &mut Walk, lo: u32, source: &mut ScalarSource) {
    w.num(lo, 1, &mut source.abs);
    w.num(lo + 1, 1, &mut source.neg);
    w.num(lo + 2, 6, &mut source.reg);
}

fn combine_scalar_dest(w: &mut Walk, reg: &mut ScalarReg, outmod: &mut OutMod) {
    w.num(22, 2, outmod);
    w.num(24, 6, reg);
}

fn combine_vec_dest(w: &mut Walk, dest: &mut VecDest) {
    w.num(22, 4, &mut dest.mask);
    w.num(26, 4, &mut dest.reg);
}

/// The form unpacking starts from: a one-float store of `$0.x` to index 0.
impl Default for Store {
    fn default() -> Store {
        Store::Temp {
            alignment: Alignment::Scalar,
            index: 0,
            offset: None,
            source: 0,
        }
    }
}

impl Layout for Store {
    const FIELD: Field = Field::TempWrite;

    /// The field's 41 bits.
    fn walk(&mut self, w: &mut Walk) {
        if w.unpacking() && get(w.bits, 1, 5) == u64::from(fixed::FB_READ_TAG) {
            *self = Store::FbRead {
                read: FbRead::Depth,
                dest: 0,
            };
        }
        match self {
            Store::FbRead { read, dest } => {
                w.hidden(1, 5, fixed::FB_READ_TAG.into(), "tag");
                w.hidden(10, 31, fixed::FB_READ_FILL.into(), "unknown");
                w.num(0, 1, read);
                w.num(6, 4, dest);
            }
            Store::Temp {
                alignment,
                index,
                offset,
                source,
            } => {
                w.hidden(0, 2, fixed::STORE_DEST.into(), "dest");
                w.hidden(2, 2, 0, "unused");
                w.num(10, 2, alignment);
                // Other alignments than one float store a whole register.
                let (mut vector, mut component) = (*source >> 2, *source & 3);
                if *alignment == Alignment::Scalar {
                    w.num(4, 2, &mut component);
                } else {
                    w.hidden(4, 2, 0, "source component");
                    component = 0;
                }
                w.num(6, 4, &mut vector);
                *source = vector << 2 | component;
                w.hidden(12, 6, 0, "unused");
                w.flagged(24, offset, (18, 6, "offset_reg"));
                w.num(25, 16, index);
            }
        }
    }
}

/// The form unpacking starts from: an unconditional jump of 0 words.
impl Default for Branch {
    fn default() -> Branch {
        Branch::Jump {
            cond: BranchCond::Always,
            arg0: 0,
            arg1: 0,
            target: 0,
        }
    }
}

impl Layout for Branch {
    const FIELD: Field = Field::Branch;

    /// The field's 73 bits.
    fn walk(&mut self, w: &mut Walk) {
        if w.unpacking() && w.bits == u128::from(fixed::DISCARD_WORD0) {
            *self = Branch::Discard;
        }
        let Branch::Jump {
            cond,
            arg0,
            arg1,
            target,
        } = self
        else {
            w.hidden(0, 32, fixed::DISCARD_WORD0.into(), "discard");
            return;
        };
        w.hidden(0, 4, 0, "unused");
        w.hidden(19, 22, 0, "unused");
        // The condition's three bits lie in reverse order.
        let mut code = cond.code().reverse_bits() >> 5;
        w.num(16, 3, &mut code);
        *cond = BranchCond::from_code(code.reverse_bits() >> 5).expect("invariant: every 3-bit value is a condition");
        if *cond == BranchCond::Always {
            w.hidden(4, 12, 0, "arguments");
            (*arg0, *arg1) = (0, 0);
        } else {
            w.num(10, 6, arg0);
            w.num(4, 6, arg1);
        }
        w.num(41, 27, target);
        let mut target_count = w.target_count;
        w.num(BRANCH_TARGET_COUNT_LO, 5, &mut target_count);
        w.target_count = target_count;
    }
}

/// Bits 68..72 of the branch field: the length of the instruction at the target.
pub const BRANCH_TARGET_COUNT_LO: u32 = 68;

impl Branch {
    /// The field's 73 bits; `target_count` is the length of the instruction at the target
    /// (0 when none starts there), which [`encode`] computes.
    ///
    /// [`encode`]: words::encode
    pub fn pack(&self, target_count: u8) -> u128 {
        pack(self, target_count)
    }

    /// Reads the field's 73 bits; also returns the target-count bits, which [`decode`]
    /// compares with the program.
    ///
    /// [`decode`]: crate::decode::decode
    pub fn unpack(bits: u128, lost: &mut Vec<LostBits>) -> (Branch, u8) {
        // A branch has no op number, so no error.
        unpack(bits, lost).unwrap_or((Branch::Discard, 0))
    }
}

/// Four IEEE binary16 values, x first.
pub type Constants = [u16; 4];

impl Layout for Constants {
    const FIELD: Field = Field::Const0;

    /// The field's 64 bits.
    fn walk(&mut self, w: &mut Walk) {
        for (lo, value) in (0..).step_by(16).zip(self) {
            w.num(lo, 16, value);
        }
    }
}

/// Lists the twelve fields once, in control-word order: the [`Instr`] member, the model, the
/// [`FieldRef`] variant and the control-word field; writes the code that goes over them.
macro_rules! instr_fields {
    ($($(#[$doc:meta])* $member:ident: $ty:ty => $variant:ident, $field:ident;)*) => {
        /// One instruction: the control bits and the optional fields in control-word order.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Instr {
            /// End of program after this instruction.
            pub stop: bool,
            /// Inter-thread sync (set with texture fetches and derivatives).
            pub sync: bool,
            $($(#[$doc])* pub $member: Option<$ty>,)*
        }

        /// One present field of an [`Instr`], as [`Instr::fields`] gives them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum FieldRef<'a> {
            $($(#[$doc])* $variant(&'a $ty),)*
        }

        impl FieldRef<'_> {
            /// Which field of the control word this is.
            pub fn field(self) -> Field {
                match self {
                    $(FieldRef::$variant(_) => Field::$field,)*
                }
            }

            /// The field's bits; `target_count` is a branch's target-count value.
            pub fn pack(self, target_count: u8) -> u128 {
                match self {
                    $(FieldRef::$variant(value) => pack(value, target_count),)*
                }
            }
        }

        impl Instr {
            /// Whether the field is present.
            pub fn has(&self, field: Field) -> bool {
                match field {
                    $(Field::$field => self.$member.is_some(),)*
                }
            }

            /// The fields present, in control-word order.
            pub fn fields(&self) -> impl Iterator<Item = FieldRef<'_>> {
                [$(self.$member.as_ref().map(FieldRef::$variant),)*].into_iter().flatten()
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
                    $(Field::$field => {
                        let (value, target_count) = unpack(bits, lost)?;
                        self.$member = Some(value);
                        Ok((Field::$field == Field::Branch).then_some(target_count))
                    })*
                }
            }
        }
    };
}

instr_fields! {
    /// Field 0, `.v`.
    varying: Varying => Varying, Varying;
    /// Field 1, `texld`.
    sampler: Sampler => Sampler, Sampler;
    /// Field 2, `load.u` / `load.t`.
    load: Load => Load, Uniform;
    /// Field 3, `.v0`.
    vec4_mul: VecMul => VecMul, Vec4Mul;
    /// Field 4, `.s0`.
    float_mul: FloatMul => FloatMul, FloatMul;
    /// Field 5, `.v1`.
    vec4_acc: VecAcc => VecAcc, Vec4Acc;
    /// Field 6, `.s1`.
    float_acc: FloatAcc => FloatAcc, FloatAcc;
    /// Field 7, `.s2`.
    combine: Combine => Combine, Combine;
    /// Field 8, `store.t` / `fb_color` / `fb_depth`.
    store: Store => Store, TempWrite;
    /// Field 9, `branch` / `discard`.
    branch: Branch => Branch, Branch;
    /// Field 10, `^const0`.
    const0: Constants => Const0, Const0;
    /// Field 11, `^const1`.
    const1: Constants => Const1, Const1;
}

impl Instr {
    /// The 12 presence bits (bit i: field i), as in control-word bits 7..18.
    pub fn presence(&self) -> u32 {
        self.fields().fold(0, |acc, f| acc | 1 << f.field().info().index)
    }

    /// The length in words, control word included.
    pub fn count(&self) -> u32 {
        count_for_presence(self.presence())
    }

    /// The payload fields in order, each as (field, bits); `target_count` is the branch's
    /// target-count value.
    pub fn encode_fields(&self, target_count: u8) -> Vec<(Field, u128)> {
        self.fields().map(|f| (f.field(), f.pack(target_count))).collect()
    }
}
