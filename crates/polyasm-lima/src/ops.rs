//! The tables of the Lima dialect. [`FORMS`] is the instruction table (one
//! [`polyasm_core::table!`] row per instruction form: the control bits, `nop`, every unit-less
//! operation and load, and each opcode of each unit, with its names in both syntaxes, field,
//! op number, operands and doc); the op enums of the model ([`MulOp`], [`AccOp`],
//! [`CombineOp`]) read their rows. The other vocabularies stay plain tables here: the fields of
//! an instruction, the output modifiers, branch conditions, perspectives, alignments, load
//! sources, register names, varying source kinds, and the fixed values of the bits no syntax
//! shows. The encoder, decoder, printers and parsers read their names and numbers from here.

/// Declares the fields of an instruction in control-word order: the [`Field`] enum, its rows
/// ([`FIELDS`]) and [`Field::ALL`]. A field's index is its place in the order, its presence bit
/// `7 + index`.
macro_rules! fields {
    ($($field:ident $mesa:literal [$($unit:literal),*] $unit_name:literal $bits:literal $doc:literal;)*) => {
        /// The 12 optional fields of an instruction, in control-word order (presence bit `7 + index`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Field {
            $(#[doc = $doc] $field,)*
        }

        /// Every field of an instruction, in control-word and payload order.
        pub static FIELDS: [FieldInfo; 12] = [$(
            FieldInfo {
                field: Field::$field,
                index: Field::$field as u8,
                mesa: $mesa,
                units: &[$($unit),*],
                unit_name: $unit_name,
                bits: $bits,
                presence: 1 << (ctrl::PRESENCE_SHIFT + Field::$field as u32),
                doc: $doc,
            },
        )*];

        impl Field {
            /// Every field in control-word order.
            pub const ALL: [Field; 12] = [$(Field::$field),*];

            /// This field's row of [`FIELDS`].
            pub fn info(self) -> &'static FieldInfo {
                &FIELDS[self as usize]
            }
        }
    };
}

// The columns: Mesa's name, the proposed syntax's units, the unit's name in messages, the
// size in bits, the doc line.
fields! {
    Varying "varying" [".v"] "varying" 34 "varying fetch: a varying, a register, cube/normalize, or gl_FragCoord/PointCoord/FrontFacing";
    Sampler "sampler" [] "texture" 62 "texture fetch at the coordinate the varying unit produced, result in ^texture";
    Uniform "uniform" [".u", ".t"] "load" 41 "uniform or temporary load, result in ^uniform";
    Vec4Mul "vec4_mul" [".v0"] "`.v0`" 43 "vector multiplier and logic unit, result also in ^v0";
    FloatMul "float_mul" [".s0"] "`.s0`" 30 "scalar multiplier and logic unit, result also in ^s0";
    Vec4Acc "vec4_acc" [".v1"] "`.v1`" 44 "vector adder: add, compare, round, sums, derivatives, select";
    FloatAcc "float_acc" [".s1"] "`.s1`" 31 "scalar adder: add, compare, round, derivatives, select";
    Combine "combine" [".s2"] "`.s2`" 30 "complex scalar unit: rcp, sqrt, exp2, sin, atan, ... and scalar times vec4";
    TempWrite "temp_write" [".t"] "store/framebuffer" 41 "store to temporary memory, or read the framebuffer's colour or depth";
    Branch "branch" [] "branch" 73 "conditional or unconditional branch, or discard";
    Const0 "const0" [] "`const0`" 64 "four fp16 constants read as ^const0";
    Const1 "const1" [] "`const1`" 64 "four fp16 constants read as ^const1";
}

/// One row of [`FIELDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field this row describes.
    pub field: Field,
    /// Position in the control word's presence bits and in the payload order (its place in
    /// [`Field::ALL`]).
    pub index: u8,
    /// Mesa's name of the field (`ppir_codegen_field_shift_*`).
    pub mesa: &'static str,
    /// The unit suffixes of the proposed syntax (empty for fields without one).
    pub units: &'static [&'static str],
    /// What the proposed syntax's messages call its unit.
    pub unit_name: &'static str,
    /// Size of the field in the payload, in bits.
    pub bits: u32,
    /// Its presence bit as a control-word mask (bit `7 + index`).
    pub presence: u32,
    /// One line for docs and help.
    pub doc: &'static str,
}

/// Bits of the control word: `count` \[0..4\], `stop` \[5\], `sync` \[6\], presence \[7..18\],
/// `next_count` \[19..24\], `prefetch` \[25\], unknown \[26..31\].
pub mod ctrl {
    /// Mask of the instruction length in words, control word included.
    pub const COUNT_MASK: u32 = 0x1f;
    /// The end-of-program bit.
    pub const STOP: u32 = 1 << 5;
    /// The inter-thread sync bit (texture fetches, derivatives).
    pub const SYNC: u32 = 1 << 6;
    /// First presence bit.
    pub const PRESENCE_SHIFT: u32 = 7;
    /// Mask of the 12 presence bits once shifted down.
    pub const PRESENCE_MASK: u32 = 0xfff;
    /// First bit of the next instruction's count.
    pub const NEXT_COUNT_SHIFT: u32 = 19;
    /// Mask of `next_count` once shifted down.
    pub const NEXT_COUNT_MASK: u32 = 0x3f;
    /// Set on every instruction that has a next one.
    pub const PREFETCH: u32 = 1 << 25;
    /// First of the unknown bits, which every compiler leaves 0.
    pub const UNKNOWN_SHIFT: u32 = 26;
}

/// What a row of [`FORMS`] is in the instruction model, beside its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// The control word's end-of-program bit.
    Stop,
    /// The control word's inter-thread sync bit.
    Sync,
    /// An instruction with no field.
    Nop,
    /// A varying fetch.
    Varying,
    /// A texture fetch.
    Texld,
    /// A uniform or temporary load from this source.
    Load(LoadSource),
    /// An op of a multiplier.
    Mul(MulOp),
    /// An op of an adder.
    Acc(AccOp),
    /// A scalar op of the complex unit.
    Combine(CombineOp),
    /// The complex unit's scalar times vec4 (`dest_vec` = `src_vec` = 1).
    CombineMul,
    /// The complex unit's second part of atan (`dest_vec` = 0, `src_vec` = 1).
    AtanPt2,
    /// A temporary store.
    Store,
    /// A framebuffer read.
    FbRead(FbRead),
    /// A branch.
    Branch,
    /// A discard.
    Discard,
    /// Four constants of the field.
    Const,
}

/// The operands of a one-source ALU op, as words for help lines.
const UNARY: &[&str] = &["dest", "src"];
/// The operands of a two-source ALU op.
const BINARY: &[&str] = &["dest", "src1", "src2"];

polyasm_core::table! {
    /// One instruction form: a control bit, a unit-less operation, or one opcode of one unit.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Form;
    /// One row of [`FORMS`]. The mnemonic is the proposed syntax's name with its unit
    /// (`add.v1`), the modifiers going between the two (`max_pos.v1`); `second` is the name
    /// Mesa prints, its output modifier, perspective or condition likewise before the unit
    /// (`max.pos.v1`, `load.perspective.z.v`, `branch.lt`).
    #[derive(Debug)]
    pub struct FormInfo {
        /// The field it writes (`None` for the control bits and `nop`).
        field: Option<Field>,
        /// What it is in the instruction model.
        model: Model,
        /// The number in the unit's op field, for the ALU ops.
        code: Option<u8>,
        /// Its operands in the proposed syntax, as words for help lines (`[...]` optional).
        operands: &'static [&'static str],
        /// Only the vector unit has this op (`sum3`, `sum4`).
        vector_only: bool,
    }
    /// Every instruction form, in [`Form`] order.
    pub static FORMS;
    rows {
        Stop "stop" second "stop" { field: None, model: Model::Stop, code: None, operands: &[], vector_only: false } "end of program after this instruction (control bit 5)";
        Sync "sync" second "sync" { field: None, model: Model::Sync, code: None, operands: &[], vector_only: false } "inter-thread sync, for texture fetches and derivatives (control bit 6)";
        Nop "nop" { field: None, model: Model::Nop, code: None, operands: &[], vector_only: false } "an instruction with no field, neither stop nor sync (Mesa prints nothing)";
        LoadV "load.v" second "load.v" { field: Some(Field::Varying), model: Model::Varying, code: None, operands: &["dest", "source"], vector_only: false } "varying fetch: a varying by index, a register, cube/normalize, or gl_FragCoord/PointCoord/FrontFacing";
        LoadU "load.u" second "load.u" { field: Some(Field::Uniform), model: Model::Load(LoadSource::Uniform), code: None, operands: &["index"], vector_only: false } "load from uniform memory into ^uniform";
        LoadU1 "load.u1" second "load..u1" { field: Some(Field::Uniform), model: Model::Load(LoadSource::Source1), code: None, operands: &["index"], vector_only: false } "load from source 1, not used by any compiler (what it reads is unknown)";
        LoadU2 "load.u2" second "load..u2" { field: Some(Field::Uniform), model: Model::Load(LoadSource::Source2), code: None, operands: &["index"], vector_only: false } "load from source 2, not used by any compiler (what it reads is unknown)";
        LoadT "load.t" second "load.t" { field: Some(Field::Uniform), model: Model::Load(LoadSource::Temporary), code: None, operands: &["index"], vector_only: false } "load from temporary (stack) memory into ^uniform";
        Texld "texld" second "texld" alias ["texld_2d"] { field: Some(Field::Sampler), model: Model::Texld, code: None, operands: &["sampler", "[lod-register]", "[bias(n)]"], vector_only: false } "texture fetch at the coordinate the varying unit produced, result in ^texture";
        StoreT "store.t" second "store.t" { field: Some(Field::TempWrite), model: Model::Store, code: None, operands: &["index", "src"], vector_only: false } "store a register to temporary memory";
        FbDepth "fb_depth" second "fb_depth" { field: Some(Field::TempWrite), model: Model::FbRead(FbRead::Depth), code: None, operands: &["dest"], vector_only: false } "read the current depth value (in .x)";
        FbColor "fb_color" second "fb_color" { field: Some(Field::TempWrite), model: Model::FbRead(FbRead::Color), code: None, operands: &["dest"], vector_only: false } "read the current framebuffer colour (vec4)";
        Discard "discard" second "discard" { field: Some(Field::Branch), model: Model::Discard, code: None, operands: &[], vector_only: false } "discard the fragment";
        Branch "branch" second "branch" { field: Some(Field::Branch), model: Model::Branch, code: None, operands: &["src1", "src2", "target"], vector_only: false } "branch when the condition on src1 and src2 holds; unconditional (the target alone) without one";
        Const0 "const0" second "const0" { field: Some(Field::Const0), model: Model::Const, code: None, operands: &["x", "y", "z", "w"], vector_only: false } "four fp16 constants read as ^const0";
        Const1 "const1" second "const1" { field: Some(Field::Const1), model: Model::Const, code: None, operands: &["x", "y", "z", "w"], vector_only: false } "four fp16 constants read as ^const1";
        MulV0 "mul.v0" second "mul.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Mul), code: Some(0), operands: BINARY, vector_only: false } "arg0 * arg1 * 2^shift (op numbers 0-7, the shift as 3-bit two's complement)";
        NotV0 "not.v0" second "not.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Not), code: Some(8), operands: UNARY, vector_only: false } "logical not of arg0 (1.0 when arg0 is 0.0)";
        AndV0 "and.v0" second "and.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::And), code: Some(9), operands: BINARY, vector_only: false } "logical and";
        OrV0 "or.v0" second "or.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Or), code: Some(10), operands: BINARY, vector_only: false } "logical or";
        XorV0 "xor.v0" second "xor.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Xor), code: Some(11), operands: BINARY, vector_only: false } "logical exclusive or";
        NeV0 "ne.v0" second "ne.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Ne), code: Some(12), operands: BINARY, vector_only: false } "1.0 when arg0 != arg1, else 0.0";
        GtV0 "gt.v0" second "gt.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Gt), code: Some(13), operands: BINARY, vector_only: false } "1.0 when arg0 > arg1, else 0.0";
        GeV0 "ge.v0" second "ge.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Ge), code: Some(14), operands: BINARY, vector_only: false } "1.0 when arg0 >= arg1, else 0.0";
        EqV0 "eq.v0" second "eq.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Eq), code: Some(15), operands: BINARY, vector_only: false } "1.0 when arg0 == arg1, else 0.0";
        MinV0 "min.v0" second "min.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Min), code: Some(16), operands: BINARY, vector_only: false } "the smaller of arg0 and arg1";
        MaxV0 "max.v0" second "max.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Max), code: Some(17), operands: BINARY, vector_only: false } "the larger of arg0 and arg1";
        MovV0 "mov.v0" second "mov.v0" { field: Some(Field::Vec4Mul), model: Model::Mul(MulOp::Mov), code: Some(31), operands: UNARY, vector_only: false } "arg0";
        MulS0 "mul.s0" second "mul.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Mul), code: Some(0), operands: BINARY, vector_only: false } "arg0 * arg1 * 2^shift (op numbers 0-7, the shift as 3-bit two's complement)";
        NotS0 "not.s0" second "not.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Not), code: Some(8), operands: UNARY, vector_only: false } "logical not of arg0 (1.0 when arg0 is 0.0)";
        AndS0 "and.s0" second "and.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::And), code: Some(9), operands: BINARY, vector_only: false } "logical and";
        OrS0 "or.s0" second "or.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Or), code: Some(10), operands: BINARY, vector_only: false } "logical or";
        XorS0 "xor.s0" second "xor.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Xor), code: Some(11), operands: BINARY, vector_only: false } "logical exclusive or";
        NeS0 "ne.s0" second "ne.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Ne), code: Some(12), operands: BINARY, vector_only: false } "1.0 when arg0 != arg1, else 0.0";
        GtS0 "gt.s0" second "gt.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Gt), code: Some(13), operands: BINARY, vector_only: false } "1.0 when arg0 > arg1, else 0.0";
        GeS0 "ge.s0" second "ge.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Ge), code: Some(14), operands: BINARY, vector_only: false } "1.0 when arg0 >= arg1, else 0.0";
        EqS0 "eq.s0" second "eq.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Eq), code: Some(15), operands: BINARY, vector_only: false } "1.0 when arg0 == arg1, else 0.0";
        MinS0 "min.s0" second "min.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Min), code: Some(16), operands: BINARY, vector_only: false } "the smaller of arg0 and arg1";
        MaxS0 "max.s0" second "max.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Max), code: Some(17), operands: BINARY, vector_only: false } "the larger of arg0 and arg1";
        MovS0 "mov.s0" second "mov.s0" { field: Some(Field::FloatMul), model: Model::Mul(MulOp::Mov), code: Some(31), operands: UNARY, vector_only: false } "arg0";
        AddV1 "add.v1" second "add.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Add), code: Some(0), operands: BINARY, vector_only: false } "arg0 + arg1";
        FractV1 "fract.v1" second "fract.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Fract), code: Some(4), operands: UNARY, vector_only: false } "arg0 - floor(arg0)";
        NeV1 "ne.v1" second "ne.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Ne), code: Some(8), operands: BINARY, vector_only: false } "1.0 when arg0 != arg1, else 0.0";
        GtV1 "gt.v1" second "gt.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Gt), code: Some(9), operands: BINARY, vector_only: false } "1.0 when arg0 > arg1, else 0.0";
        GeV1 "ge.v1" second "ge.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Ge), code: Some(10), operands: BINARY, vector_only: false } "1.0 when arg0 >= arg1, else 0.0";
        EqV1 "eq.v1" second "eq.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Eq), code: Some(11), operands: BINARY, vector_only: false } "1.0 when arg0 == arg1, else 0.0";
        FloorV1 "floor.v1" second "floor.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Floor), code: Some(12), operands: UNARY, vector_only: false } "largest integer not above arg0";
        CeilV1 "ceil.v1" second "ceil.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Ceil), code: Some(13), operands: UNARY, vector_only: false } "smallest integer not below arg0";
        MinV1 "min.v1" second "min.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Min), code: Some(14), operands: BINARY, vector_only: false } "the smaller of arg0 and arg1";
        MaxV1 "max.v1" second "max.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Max), code: Some(15), operands: BINARY, vector_only: false } "the larger of arg0 and arg1";
        Sum3V1 "sum3.v1" second "sum3.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Sum3), code: Some(16), operands: UNARY, vector_only: true } "x + y + z of arg0 in every lane";
        Sum4V1 "sum4.v1" second "sum4.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Sum4), code: Some(17), operands: UNARY, vector_only: true } "x + y + z + w of arg0 in every lane";
        DfdxV1 "dFdx.v1" second "dFdx.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Dfdx), code: Some(20), operands: BINARY, vector_only: false } "screen-space derivative along x (needs sync)";
        DfdyV1 "dFdy.v1" second "dFdy.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Dfdy), code: Some(21), operands: BINARY, vector_only: false } "screen-space derivative along y (needs sync)";
        SelV1 "sel.v1" second "sel.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Sel), code: Some(23), operands: BINARY, vector_only: false } "arg0 when the scalar multiplier's result (^s0) is not 0.0, else arg1";
        MovV1 "mov.v1" second "mov.v1" { field: Some(Field::Vec4Acc), model: Model::Acc(AccOp::Mov), code: Some(31), operands: UNARY, vector_only: false } "arg0";
        AddS1 "add.s1" second "add.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Add), code: Some(0), operands: BINARY, vector_only: false } "arg0 + arg1";
        FractS1 "fract.s1" second "fract.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Fract), code: Some(4), operands: UNARY, vector_only: false } "arg0 - floor(arg0)";
        NeS1 "ne.s1" second "ne.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Ne), code: Some(8), operands: BINARY, vector_only: false } "1.0 when arg0 != arg1, else 0.0";
        GtS1 "gt.s1" second "gt.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Gt), code: Some(9), operands: BINARY, vector_only: false } "1.0 when arg0 > arg1, else 0.0";
        GeS1 "ge.s1" second "ge.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Ge), code: Some(10), operands: BINARY, vector_only: false } "1.0 when arg0 >= arg1, else 0.0";
        EqS1 "eq.s1" second "eq.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Eq), code: Some(11), operands: BINARY, vector_only: false } "1.0 when arg0 == arg1, else 0.0";
        FloorS1 "floor.s1" second "floor.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Floor), code: Some(12), operands: UNARY, vector_only: false } "largest integer not above arg0";
        CeilS1 "ceil.s1" second "ceil.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Ceil), code: Some(13), operands: UNARY, vector_only: false } "smallest integer not below arg0";
        MinS1 "min.s1" second "min.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Min), code: Some(14), operands: BINARY, vector_only: false } "the smaller of arg0 and arg1";
        MaxS1 "max.s1" second "max.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Max), code: Some(15), operands: BINARY, vector_only: false } "the larger of arg0 and arg1";
        DfdxS1 "dFdx.s1" second "dFdx.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Dfdx), code: Some(20), operands: BINARY, vector_only: false } "screen-space derivative along x (needs sync)";
        DfdyS1 "dFdy.s1" second "dFdy.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Dfdy), code: Some(21), operands: BINARY, vector_only: false } "screen-space derivative along y (needs sync)";
        SelS1 "sel.s1" second "sel.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Sel), code: Some(23), operands: BINARY, vector_only: false } "arg0 when the scalar multiplier's result (^s0) is not 0.0, else arg1";
        MovS1 "mov.s1" second "mov.s1" { field: Some(Field::FloatAcc), model: Model::Acc(AccOp::Mov), code: Some(31), operands: UNARY, vector_only: false } "arg0";
        RcpS2 "rcp.s2" second "rcp.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Rcp), code: Some(0), operands: UNARY, vector_only: false } "1 / arg0";
        MovS2 "mov.s2" second "mov.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Mov), code: Some(1), operands: UNARY, vector_only: false } "arg0";
        SqrtS2 "sqrt.s2" second "sqrt.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Sqrt), code: Some(2), operands: UNARY, vector_only: false } "square root of arg0";
        RsqrtS2 "rsqrt.s2" second "rsqrt.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Rsqrt), code: Some(3), operands: UNARY, vector_only: false } "1 / sqrt(arg0)";
        Exp2S2 "exp2.s2" second "exp2.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Exp2), code: Some(4), operands: UNARY, vector_only: false } "2^arg0";
        Log2S2 "log2.s2" second "log2.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Log2), code: Some(5), operands: UNARY, vector_only: false } "log2(arg0)";
        SinS2 "sin.s2" second "sin.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Sin), code: Some(6), operands: UNARY, vector_only: false } "sin(2 pi arg0): the argument is in turns";
        CosS2 "cos.s2" second "cos.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Cos), code: Some(7), operands: UNARY, vector_only: false } "cos(2 pi arg0): the argument is in turns";
        AtanS2 "atan.s2" second "atan.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Atan), code: Some(8), operands: UNARY, vector_only: false } "atan part 1: arg0 to an intermediate vec3 (usually .xyz)";
        Atan2S2 "atan2.s2" second "atan2.s2" { field: Some(Field::Combine), model: Model::Combine(CombineOp::Atan2), code: Some(9), operands: BINARY, vector_only: false } "atan2 part 1: arg0, arg1 to an intermediate vec3";
        MulS2 "mul.s2" second "mul.s2" { field: Some(Field::Combine), model: Model::CombineMul, code: None, operands: BINARY, vector_only: false } "scalar arg0 times vec4 arg1, written through a write mask (no modifiers on the vector)";
        AtanPt2S2 "atan_pt2.s2" second "atan_pt2.s2" { field: Some(Field::Combine), model: Model::AtanPt2, code: None, operands: UNARY, vector_only: false } "atan part 2: the intermediate vec3 of atan/atan2 part 1 to the angle";
    }
    markdown {
        "proposed" => |row| match row.aliases {
            [] => format!("`{}`", row.mnemonic),
            older => format!("`{}` (older: `{}`)", row.mnemonic, older.join("`, `")),
        },
        "Mesa" => |row| row.second.map_or(String::new(), |name| format!("`{name}`")),
        "field" => |row| row.field.map_or("control word".to_string(), |f| f.info().mesa.to_string()),
        "op" => |row| match (row.model, row.code) {
            (Model::Mul(MulOp::Mul), _) => format!("0-{}", MUL_SHIFT_CODES - 1),
            (_, code) => code.map_or(String::new(), |code| code.to_string()),
        },
        "operands" => |row| row.operands.join(" "),
        "does" => |row| match row.vector_only {
            true => format!("{} ({} only)", row.doc, Field::Vec4Acc.info().mesa),
            false => row.doc.to_string(),
        },
    }
}

impl FormInfo {
    /// The proposed syntax's name without its unit (`add` of `add.v1`, `load` of `load.u1`).
    #[inline]
    pub fn name(&self) -> &'static str {
        self.mnemonic.split_once('.').map_or(self.mnemonic, |(name, _)| name)
    }

    /// The proposed syntax's unit, `.` included (`.v1`; empty for a form without one).
    #[inline]
    pub fn unit(&self) -> &'static str {
        self.mnemonic.find('.').map_or("", |dot| &self.mnemonic[dot..])
    }

    /// Mesa's name without its unit (`add` of `add.v1`; empty for a form Mesa has not).
    #[inline]
    pub fn mesa_name(&self) -> &'static str {
        let mesa = self.second.unwrap_or_default();
        mesa.split_once('.').map_or(mesa, |(name, _)| name)
    }

    /// How many sources it reads (an ALU op: 1 or 2; a one-source op leaves the second
    /// source's bits 0).
    pub fn sources(&self) -> u8 {
        self.operands.iter().filter(|word| word.starts_with("src")).count() as u8
    }
}

/// An opcode of a unit and its row of [`FORMS`]; it reads as that row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitOpRow<T: 'static> {
    /// The model's name of the opcode.
    pub op: T,
    /// Its row on the vector unit (the only unit of the complex unit's ops).
    pub form: Form,
}

impl<T> std::ops::Deref for UnitOpRow<T> {
    type Target = FormInfo;

    fn deref(&self) -> &FormInfo {
        self.form.info()
    }
}

/// Declares the model's opcodes of a unit, each with its row of [`FORMS`]: the codes, names,
/// operand counts and docs are the rows'.
macro_rules! unit_ops {
    ($(#[$meta:meta])* $name:ident, $table:ident { $($variant:ident => $form:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = concat!("The row [`Form::", stringify!($form), "`].")] $variant,)*
        }

        #[doc = concat!("Every [`", stringify!($name), "`] with its row, in enum order.")]
        pub static $table: &[UnitOpRow<$name>] = &[$(UnitOpRow { op: $name::$variant, form: Form::$form },)*];

        impl $name {
            /// Every opcode, in enum order.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// Its row of [`FORMS`] on the vector unit.
            #[inline]
            pub fn form(self) -> Form {
                match self {
                    $($name::$variant => Form::$form,)*
                }
            }

            /// Its row of [`FORMS`] on the vector unit.
            #[inline]
            pub fn info(self) -> &'static FormInfo {
                self.form().info()
            }

            /// The number in the op field.
            #[inline]
            pub fn code(self) -> u8 {
                self.info().code.expect("invariant: every ALU row has an op number")
            }

            /// Whether the op reads a second source.
            #[inline]
            pub fn is_binary(self) -> bool {
                self.info().sources() == 2
            }

            /// The opcode with this number, if there is one.
            pub fn from_code(code: u8) -> Option<$name> {
                $table.iter().find(|row| row.code == Some(code)).map(|row| row.op)
            }
        }
    };
}

unit_ops! {
    /// Opcodes of the multipliers, `vec4_mul` (`.v0`) and `float_mul` (`.s0`). Op numbers 0 to
    /// 7 are all `mul`: the number is a power-of-two shift of the product, kept beside the op
    /// in the instruction model.
    MulOp, MUL_OPS {
        Mul => MulV0,
        Not => NotV0,
        And => AndV0,
        Or => OrV0,
        Xor => XorV0,
        Ne => NeV0,
        Gt => GtV0,
        Ge => GeV0,
        Eq => EqV0,
        Min => MinV0,
        Max => MaxV0,
        Mov => MovV0,
    }
}

/// How many op numbers `mul` takes (0..8): the number is the shift.
pub const MUL_SHIFT_CODES: u8 = 8;

/// The multiplier op and shift an op number stands for, if any.
pub fn mul_op_from_code(code: u8) -> Option<(MulOp, i8)> {
    if code < MUL_SHIFT_CODES {
        // A 3-bit two's complement power of two.
        let shift = ((code << 5) as i8) >> 5;
        return Some((MulOp::Mul, shift));
    }
    MulOp::from_code(code).map(|op| (op, 0))
}

/// The op number of a multiplier op with its shift (the shift counts only for `mul`).
pub fn mul_op_code(op: MulOp, shift: i8) -> u8 {
    match op {
        MulOp::Mul => (shift as u8) & (MUL_SHIFT_CODES - 1),
        _ => op.code(),
    }
}

unit_ops! {
    /// Opcodes of the adders, `vec4_acc` (`.v1`) and `float_acc` (`.s1`).
    AccOp, ACC_OPS {
        Add => AddV1,
        Fract => FractV1,
        Ne => NeV1,
        Gt => GtV1,
        Ge => GeV1,
        Eq => EqV1,
        Floor => FloorV1,
        Ceil => CeilV1,
        Min => MinV1,
        Max => MaxV1,
        Sum3 => Sum3V1,
        Sum4 => Sum4V1,
        Dfdx => DfdxV1,
        Dfdy => DfdyV1,
        Sel => SelV1,
        Mov => MovV1,
    }
}

unit_ops! {
    /// Scalar opcodes of the complex unit, `combine` (`.s2`), when its source is a scalar.
    CombineOp, COMBINE_OPS {
        Rcp => RcpS2,
        Mov => MovS2,
        Sqrt => SqrtS2,
        Rsqrt => RsqrtS2,
        Exp2 => Exp2S2,
        Log2 => Log2S2,
        Sin => SinS2,
        Cos => CosS2,
        Atan => AtanS2,
        Atan2 => Atan2S2,
    }
}

/// A simple enumeration's row: its number in the encoding and its names in both syntaxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameInfo<T: 'static> {
    /// The model's value.
    pub value: T,
    /// The number in the encoding.
    pub code: u8,
    /// The spelling in the proposed syntax.
    pub name: &'static str,
    /// The spelling Mesa prints.
    pub mesa: &'static str,
    /// One line for docs and help.
    pub doc: &'static str,
}

macro_rules! name_table {
    ($(#[$meta:meta])* $name:ident, $table:ident {
        $($variant:ident = $code:literal, $proposal:literal, $mesa:literal, $doc:literal;)*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = $doc] $variant,)*
        }

        #[doc = concat!("Every [`", stringify!($name), "`], in declaration order.")]
        pub static $table: &[NameInfo<$name>] = &[
            $(NameInfo { value: $name::$variant, code: $code, name: $proposal, mesa: $mesa, doc: $doc },)*
        ];

        impl $name {
            /// Every value, in table order.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// This value's row of the table.
            pub fn info(self) -> &'static NameInfo<$name> {
                &$table[self as usize]
            }

            /// The number in the encoding.
            pub fn code(self) -> u8 {
                self.info().code
            }

            /// The value with this number, if there is one.
            pub fn from_code(code: u8) -> Option<$name> {
                $table.iter().find(|row| row.code == code).map(|row| row.value)
            }
        }
    };
}

name_table! {
    /// Output modifier of an ALU result (2 bits).
    OutMod, OUTMODS {
        None = 0, "", "", "no modifier";
        Sat = 1, "_sat", ".sat", "clamp to [0, 1]";
        Pos = 2, "_pos", ".pos", "max(result, 0)";
        Int = 3, "_int", ".int", "round to an integer (Mesa uses it for truncation)";
    }
}

name_table! {
    /// Branch condition: bit 0 `lt` (arg0 < arg1), bit 1 `eq`, bit 2 `gt`; the branch is taken
    /// when any set relation holds. In the encoding `lt` is bit 18, `eq` 17 and `gt` 16.
    BranchCond, BRANCH_CONDS {
        Never = 0, "nv", "nv", "never taken";
        Lt = 1, "lt", "lt", "taken when arg0 < arg1";
        Eq = 2, "eq", "eq", "taken when arg0 == arg1";
        Le = 3, "le", "le", "taken when arg0 <= arg1";
        Gt = 4, "gt", "gt", "taken when arg0 > arg1";
        Ne = 5, "ne", "ne", "taken when arg0 != arg1";
        Ge = 6, "ge", "ge", "taken when arg0 >= arg1";
        Always = 7, "", "", "always taken (no condition, no operands)";
    }
}

name_table! {
    /// Perspective divide of a varying fetch or register source (2 bits).
    Perspective, PERSPECTIVES {
        None = 0, "", "", "no divide";
        Reserved = 1, "_perspective_unknown", ".perspective.unknown", "value 1, not used by any compiler";
        Z = 2, "_perspective_z", ".perspective.z", "divide by z";
        W = 3, "_perspective_w", ".perspective.w", "divide by w (texture2DProj)";
    }
}

name_table! {
    /// How many components a varying fetch reads and how its index counts (2 bits; note the
    /// numbers differ from [`Alignment`]).
    VaryingAlignment, VARYING_ALIGNMENTS {
        Scalar = 0, "", "", "one float: index = 4 * slot + component";
        Vec2 = 1, "", "", "a vec2: index = 2 * slot + (0 for .xy, 1 for .zw)";
        Vec4 = 3, "", "", "a vec4 (also used for vec3): index = slot";
    }
}

name_table! {
    /// How many components a uniform/temporary load or a temporary store moves (2 bits).
    /// [`Alignment::Reserved`] is a store's: Mesa prints a load's 3 like its 0, so decoding
    /// reads a load's 3 as [`Alignment::Scalar`] and reports the bits.
    Alignment, ALIGNMENTS {
        Scalar = 0, "", "", "one float: index = 4 * slot + component";
        Vec2 = 1, "", "", "a vec2: index = 2 * slot + (0 for .xy, 1 for .zw)";
        Vec4 = 2, "", "", "a vec4: index = slot";
        Reserved = 3, "", "", "value 3, not used by any compiler: a store's index counts floats as for one float, its source is a whole register";
    }
}

name_table! {
    /// What a load reads (the `source` bits of the uniform field); each is a row of [`FORMS`],
    /// which holds its names (`load.u`, `load.t`, ...).
    LoadSource, LOAD_SOURCES {
        Uniform = 0, "", "", "uniform memory";
        Source1 = 1, "", "", "source 1, not used by any compiler (what it reads is unknown)";
        Source2 = 2, "", "", "source 2, not used by any compiler (what it reads is unknown)";
        Temporary = 3, "", "", "temporary (stack) memory";
    }
}

name_table! {
    /// What a framebuffer read returns (bit 0 of the fb_read form); each is a row of
    /// [`FORMS`], which holds its name.
    FbRead, FB_READS {
        Depth = 0, "", "", "the current depth value (in .x)";
        Color = 1, "", "", "the current framebuffer colour (vec4)";
    }
}

impl LoadSource {
    /// Its row of [`FORMS`].
    pub fn form(self) -> Form {
        form_of(Model::Load(self))
    }
}

impl FbRead {
    /// Its row of [`FORMS`].
    pub fn form(self) -> Form {
        form_of(Model::FbRead(self))
    }
}

/// The row of [`FORMS`] that is `model`, for the models one row each is.
fn form_of(model: Model) -> Form {
    let row = FORMS.iter().find(|row| row.model == model);
    row.expect("invariant: every load source and framebuffer read has a row")
        .op
}

/// A kind of varying source: the 4-bit `source_type:perspective` value (source_type in bits
/// 2..3, perspective in bits 0..1 of the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaryingKindInfo {
    /// `source_type << 2 | perspective`; for the plain fetch and register kinds, the
    /// perspective is added to this base.
    pub code: u8,
    /// The proposed syntax's name (empty for the plain kinds, which print the operand alone).
    pub name: &'static str,
    /// The name Mesa prints (a function around the operand, or the whole source).
    pub mesa: &'static str,
    /// For a fixed input (`gl_FragCoord` ...), the alignment written; otherwise 0.
    pub alignment: u8,
    /// One line for docs and help.
    pub doc: &'static str,
}

/// Declares the varying source kinds, each a static row.
macro_rules! varying_kinds {
    ($($kind:ident = $code:literal, $name:literal, $mesa:literal, $alignment:literal, $doc:literal;)*) => {$(
        #[doc = $doc]
        pub static $kind: VaryingKindInfo = VaryingKindInfo {
            code: $code,
            name: $name,
            mesa: $mesa,
            alignment: $alignment,
            doc: $doc,
        };
    )*};
}

// The columns, as [`VaryingKindInfo`]'s fields: code, name, Mesa's name, alignment, doc.
varying_kinds! {
    VARYING_FETCH = 0b0000, "", "", 0, "a varying by index, with an optional offset register";
    VARYING_REGISTER = 0b0100, "", "", 0, "a register with swizzle, abs and negate";
    VARYING_CUBE = 0b1000, "cube", "cube", 0, "cube-map coordinate transform of a varying";
    VARYING_CUBE_REGISTER = 0b1001, "cube", "cube", 0, "cube-map coordinate transform of a register";
    VARYING_NORMALIZE = 0b1010, "normalize", "normalize", 0, "vec3 normalize of a register";
    VARYING_FRAG_COORD = 0b1011, "gl_FragCoord", "gl_FragCoord", 3, "the fragment's window position (w not inverted)";
    VARYING_POINT_COORD = 0b1100, "gl_PointCoord", "gl_PointCoord", 1, "the position within a point sprite";
    VARYING_FRONT_FACING = 0b1101, "gl_FrontFacing", "gl_FrontFacing", 0, "1.0 for a front-facing primitive";
}

/// Names of the 16 values of a 4-bit vec4 register field used as a source: `$0`-`$11`, then
/// the pipeline registers. Mesa's compiler allocates `$0`-`$5`.
pub static VEC_REG_NAMES: [&str; 16] = [
    "$0", "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10", "$11", "^const0", "^const1", "^texture",
    "^uniform",
];

/// How many general-purpose registers the field can name (`$0`-`$11`).
pub const GENERAL_REGS: u8 = 12;
/// How many general-purpose registers Mesa's compiler uses (`$0`-`$5`).
pub const ALLOCATED_REGS: u8 = 6;
/// `^const0`: the instruction's first constants.
pub const REG_CONST0: u8 = 12;
/// `^const1`: the instruction's second constants.
pub const REG_CONST1: u8 = 13;
/// `^texture`: the sampler's result.
pub const REG_TEXTURE: u8 = 14;
/// `^uniform`: the load's result.
pub const REG_UNIFORM: u8 = 15;
/// A varying destination of 15 writes no register: the value only feeds the sampler.
pub const VARYING_DISCARD: u8 = 15;

/// Component letters, lane 0 first; also the letters of swizzles and write masks.
pub static COMPONENTS: [char; 4] = ['x', 'y', 'z', 'w'];
/// The identity swizzle `.xyzw` (lane i reads component i).
pub const SWIZZLE_IDENTITY: u8 = 0xE4;
/// The write mask of all four lanes.
pub const MASK_ALL: u8 = 0xF;

/// Mesa's suffix of a texture fetch with a register LOD bias.
pub const TEXLD_BIAS_SUFFIX: &str = ".b";
/// Mesa's prefix of the constant LOD bias (3 hex digits follow).
pub const TEXLD_BIAS_PREFIX: &str = "bias";

/// Names of the proposed syntax (docs/lima.md) that the rows above do not hold.
pub mod proposed {
    use super::{CombineOp, MulOp};

    /// The texld modifier that sets `explicit_lod`: the register is the LOD, not a bias.
    pub const TEXLD_LOD: &str = "_lod";
    /// The function around texld's constant LOD bias: `bias(-0.5)`.
    pub const BIAS: &str = "bias";
    /// The function of a source's absolute value: `abs($1)`.
    pub const ABS: &str = "abs";
    /// The write mask of no lane (`$3.none`), for the units that keep their register then.
    pub const MASK_NONE: &str = "none";
    /// The combine modifier that picks the vector destination form (`dest_vec` = 1).
    pub const COMBINE_VEC_DEST: &str = "_vec";
    /// The combine modifier that picks the scalar destination form (`dest_vec` = 0).
    pub const COMBINE_SCALAR_DEST: &str = "_scalar";
    /// Combine ops whose one-lane destination is the vector form unless `_scalar` says
    /// otherwise (Mesa's compiler writes atan part 1 through a vector mask).
    pub static COMBINE_VECTOR_DEFAULT: &[CombineOp] = &[CombineOp::Atan, CombineOp::Atan2];
    /// Prefix of a branch condition modifier: `branch_lt`.
    pub const COND_PREFIX: &str = "_";
    /// The multiplier's shift as a modifier (Direct3D's `_x2` ... `_d8`): (shift, text).
    pub static MUL_SHIFTS: &[(i8, &str)] = &[
        (1, "_x2"),
        (2, "_x4"),
        (3, "_x8"),
        (-1, "_d2"),
        (-2, "_d4"),
        (-3, "_d8"),
        (-4, "_d16"),
    ];
    /// The only multiplier op a shift applies to.
    pub const SHIFTED_OP: MulOp = MulOp::Mul;

    /// A pipeline register of the proposed syntax.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Pipeline {
        /// `^const0`, vec4 register 12.
        Const0,
        /// `^const1`, vec4 register 13.
        Const1,
        /// `^texture`, the sampler's result, vec4 register 14.
        Texture,
        /// `^uniform`, the load's result, vec4 register 15.
        Uniform,
        /// `^v0`, the vector multiplier's result.
        Vmul,
        /// `^s0`, the scalar multiplier's result.
        Fmul,
        /// `^discard`: no register is written.
        Discard,
    }

    /// One spelling of a pipeline register.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct PipelineName {
        /// The text, `^` included.
        pub name: &'static str,
        /// What it names.
        pub reg: Pipeline,
        /// For an older name still read, the name to write instead.
        pub replaced_by: Option<&'static str>,
        /// What it holds (empty for an older name).
        pub doc: &'static str,
    }

    /// Every spelling of a pipeline register; the first of each register is the one printed.
    pub static PIPELINE_NAMES: &[PipelineName] = &[
        current("^const0", Pipeline::Const0, "the instruction's first constants"),
        current("^const1", Pipeline::Const1, "the instruction's second constants"),
        current("^texture", Pipeline::Texture, "the sampler's result"),
        current("^uniform", Pipeline::Uniform, "the load unit's result"),
        current("^u", Pipeline::Uniform, "the load unit's result (^uniform)"),
        current("^v0", Pipeline::Vmul, "the vector multiplier's result"),
        current("^s0", Pipeline::Fmul, "the scalar multiplier's result"),
        current("^discard", Pipeline::Discard, "no register: feeds only the sampler"),
        older("^tex_sampler", Pipeline::Texture, "^texture"),
        older("^tex_coord", Pipeline::Discard, "^discard"),
        older("^vmul", Pipeline::Vmul, "^v0"),
        older("^fmul", Pipeline::Fmul, "^s0"),
    ];

    /// A spelling read and printed.
    const fn current(name: &'static str, reg: Pipeline, doc: &'static str) -> PipelineName {
        PipelineName {
            name,
            reg,
            replaced_by: None,
            doc,
        }
    }

    /// An older spelling still read, with the one to write instead.
    const fn older(name: &'static str, reg: Pipeline, new: &'static str) -> PipelineName {
        PipelineName {
            name,
            reg,
            replaced_by: Some(new),
            doc: "",
        }
    }

    impl Pipeline {
        /// The vec4 register number of a pipeline register that has one.
        pub fn vec_reg(self) -> Option<u8> {
            match self {
                Pipeline::Const0 => Some(super::REG_CONST0),
                Pipeline::Const1 => Some(super::REG_CONST1),
                Pipeline::Texture => Some(super::REG_TEXTURE),
                Pipeline::Uniform => Some(super::REG_UNIFORM),
                Pipeline::Vmul | Pipeline::Fmul | Pipeline::Discard => None,
            }
        }

        /// The name printed for it.
        pub fn name(self) -> &'static str {
            PIPELINE_NAMES
                .iter()
                .find(|row| row.reg == self)
                .map(|row| row.name)
                .expect("invariant: every pipeline register has a row")
        }
    }

    /// Older opcode spellings still read, with the name to write instead: the aliases of
    /// [`FORMS`](super::FORMS) (an alias names a form without a unit).
    pub fn old_opcodes() -> &'static [(&'static str, &'static str)] {
        static OLD: std::sync::OnceLock<Vec<(&str, &str)>> = std::sync::OnceLock::new();
        let rows = super::FORMS.iter();
        OLD.get_or_init(|| {
            rows.flat_map(|row| row.aliases.iter().map(|&alias| (alias, row.mnemonic)))
                .collect()
        })
    }
}

/// Values of the bits no syntax shows, as Mesa's compiler writes them.
pub mod fixed {
    /// Sampler bits 42..61 (`unknown_2`).
    pub const SAMPLER_UNKNOWN_2: u32 = 0x39001;
    /// Store bits 0..1 (`dest`).
    pub const STORE_DEST: u32 = 3;
    /// Temp-write bits 1..5 that mark the framebuffer-read form.
    pub const FB_READ_TAG: u32 = 7;
    /// Framebuffer-read bits 10..40.
    pub const FB_READ_FILL: u32 = 2;
    /// Varying `offset_vector` meaning "no offset register".
    pub const NO_OFFSET_VECTOR: u32 = 15;
    /// The branch field of a discard: the low 32 bits; the other 41 are 0.
    pub const DISCARD_WORD0: u32 = 0x007F_0003;
}
