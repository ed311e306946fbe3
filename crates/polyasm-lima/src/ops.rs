//! The one table of the Lima dialect: the fields of an instruction, the opcodes of every unit,
//! the output modifiers, register names, varying source kinds, branch conditions, and the fixed
//! values of the bits no syntax shows. The encoder, decoder, printers and parsers read their
//! names and numbers from here; each row carries a one-line text for docs and help messages.

/// The 12 optional fields of an instruction, in control-word order (presence bit `7 + index`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// Varying fetch (`.v`).
    Varying,
    /// Texture sampler (`texld`).
    Sampler,
    /// Uniform or temporary load (`.u` / `.t`).
    Uniform,
    /// Vector multiplier (`.v0`).
    Vec4Mul,
    /// Scalar multiplier (`.s0`).
    FloatMul,
    /// Vector adder (`.v1`).
    Vec4Acc,
    /// Scalar adder (`.s1`).
    FloatAcc,
    /// Complex scalar unit (`.s2`).
    Combine,
    /// Temporary store and framebuffer read (`store.t`, `fb_color`, `fb_depth`).
    TempWrite,
    /// Branch and discard.
    Branch,
    /// The first four fp16 constants (`^const0`).
    Const0,
    /// The second four fp16 constants (`^const1`).
    Const1,
}

/// One row of [`FIELDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field this row describes.
    pub field: Field,
    /// Position in the control word's presence bits and in the payload order.
    pub index: u8,
    /// Mesa's name of the field (`ppir_codegen_field_shift_*`).
    pub mesa: &'static str,
    /// The unit suffixes of the proposed syntax (empty for fields without one).
    pub units: &'static [&'static str],
    /// Size of the field in the payload, in bits.
    pub bits: u32,
    /// Its presence bit as a control-word mask.
    pub presence: u32,
    /// One line for docs and help.
    pub doc: &'static str,
}

/// Every field of an instruction, in control-word and payload order.
pub static FIELDS: [FieldInfo; 12] = [
    FieldInfo {
        field: Field::Varying,
        index: 0,
        mesa: "varying",
        units: &[".v"],
        bits: 34,
        presence: 0x80,
        doc: "varying fetch: a varying, a register, cube/normalize, or gl_FragCoord/PointCoord/FrontFacing",
    },
    FieldInfo {
        field: Field::Sampler,
        index: 1,
        mesa: "sampler",
        units: &[],
        bits: 62,
        presence: 0x100,
        doc: "texture fetch at the coordinate the varying unit produced, result in ^texture",
    },
    FieldInfo {
        field: Field::Uniform,
        index: 2,
        mesa: "uniform",
        units: &[".u", ".t"],
        bits: 41,
        presence: 0x200,
        doc: "uniform or temporary load, result in ^uniform",
    },
    FieldInfo {
        field: Field::Vec4Mul,
        index: 3,
        mesa: "vec4_mul",
        units: &[".v0"],
        bits: 43,
        presence: 0x400,
        doc: "vector multiplier and logic unit, result also in ^v0",
    },
    FieldInfo {
        field: Field::FloatMul,
        index: 4,
        mesa: "float_mul",
        units: &[".s0"],
        bits: 30,
        presence: 0x800,
        doc: "scalar multiplier and logic unit, result also in ^s0",
    },
    FieldInfo {
        field: Field::Vec4Acc,
        index: 5,
        mesa: "vec4_acc",
        units: &[".v1"],
        bits: 44,
        presence: 0x1000,
        doc: "vector adder: add, compare, round, sums, derivatives, select",
    },
    FieldInfo {
        field: Field::FloatAcc,
        index: 6,
        mesa: "float_acc",
        units: &[".s1"],
        bits: 31,
        presence: 0x2000,
        doc: "scalar adder: add, compare, round, derivatives, select",
    },
    FieldInfo {
        field: Field::Combine,
        index: 7,
        mesa: "combine",
        units: &[".s2"],
        bits: 30,
        presence: 0x4000,
        doc: "complex scalar unit: rcp, sqrt, exp2, sin, atan, ... and scalar times vec4",
    },
    FieldInfo {
        field: Field::TempWrite,
        index: 8,
        mesa: "temp_write",
        units: &[".t"],
        bits: 41,
        presence: 0x8000,
        doc: "store to temporary memory, or read the framebuffer's colour or depth",
    },
    FieldInfo {
        field: Field::Branch,
        index: 9,
        mesa: "branch",
        units: &[],
        bits: 73,
        presence: 0x10000,
        doc: "conditional or unconditional branch, or discard",
    },
    FieldInfo {
        field: Field::Const0,
        index: 10,
        mesa: "const0",
        units: &[],
        bits: 64,
        presence: 0x20000,
        doc: "four fp16 constants read as ^const0",
    },
    FieldInfo {
        field: Field::Const1,
        index: 11,
        mesa: "const1",
        units: &[],
        bits: 64,
        presence: 0x40000,
        doc: "four fp16 constants read as ^const1",
    },
];

impl Field {
    /// Every field in control-word order.
    pub const ALL: [Field; 12] = [
        Field::Varying,
        Field::Sampler,
        Field::Uniform,
        Field::Vec4Mul,
        Field::FloatMul,
        Field::Vec4Acc,
        Field::FloatAcc,
        Field::Combine,
        Field::TempWrite,
        Field::Branch,
        Field::Const0,
        Field::Const1,
    ];

    /// This field's row of [`FIELDS`].
    pub fn info(self) -> &'static FieldInfo {
        &FIELDS[self as usize]
    }
}

/// Bits of the control word: `count` [0..4], `stop` [5], `sync` [6], presence [7..18],
/// `next_count` [19..24], `prefetch` [25], unknown [26..31].
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

/// Text of the two control bits in both syntaxes.
pub const STOP_NAME: &str = "stop";
/// See [`STOP_NAME`].
pub const SYNC_NAME: &str = "sync";

/// One opcode of a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo<T: 'static> {
    /// The model's name of the opcode.
    pub op: T,
    /// The number in the op field.
    pub code: u8,
    /// The name Mesa prints (without unit suffix).
    pub mesa: &'static str,
    /// How many sources the op reads (1 or 2); a one-source op leaves the second source's
    /// bits 0.
    pub operands: u8,
    /// Only the vector unit has this op (`sum3`, `sum4`).
    pub vector_only: bool,
    /// One line for docs and help.
    pub doc: &'static str,
}

macro_rules! op_table {
    ($(#[$meta:meta])* $name:ident, $table:ident, $what:literal {
        $($variant:ident = $code:literal, $mesa:literal, $operands:literal, $vector_only:literal, $doc:literal;)*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = $doc] $variant,)*
        }

        #[doc = concat!("Every ", $what, " opcode, in the order of [`", stringify!($name), "`].")]
        pub static $table: &[OpInfo<$name>] = &[
            $(OpInfo { op: $name::$variant, code: $code, mesa: $mesa, operands: $operands,
                vector_only: $vector_only, doc: $doc },)*
        ];

        impl $name {
            /// Every opcode, in table order.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// This opcode's row of the table.
            pub fn info(self) -> &'static OpInfo<$name> {
                &$table[self as usize]
            }

            /// The number in the op field.
            pub fn code(self) -> u8 {
                self.info().code
            }

            /// Whether the op reads a second source.
            pub fn is_binary(self) -> bool {
                self.info().operands == 2
            }

            /// The opcode with this number, if there is one.
            pub fn from_code(code: u8) -> Option<$name> {
                $table.iter().find(|row| row.code == code).map(|row| row.op)
            }

            /// The opcode Mesa prints as `name`.
            pub fn from_mesa(name: &str) -> Option<$name> {
                $table.iter().find(|row| row.mesa == name).map(|row| row.op)
            }
        }
    };
}

op_table! {
    /// Opcodes of the multipliers, `vec4_mul` (`.v0`) and `float_mul` (`.s0`). Op numbers 0 to
    /// 7 are all `mul`: the number is a power-of-two shift of the product, kept beside the op
    /// in the instruction model.
    MulOp, MUL_OPS, "multiplier" {
        Mul = 0, "mul", 2, false, "arg0 * arg1 * 2^shift (op numbers 0-7, the shift as 3-bit two's complement)";
        Not = 8, "not", 1, false, "logical not of arg0 (1.0 when arg0 is 0.0)";
        And = 9, "and", 2, false, "logical and";
        Or = 10, "or", 2, false, "logical or";
        Xor = 11, "xor", 2, false, "logical exclusive or";
        Ne = 12, "ne", 2, false, "1.0 when arg0 != arg1, else 0.0";
        Gt = 13, "gt", 2, false, "1.0 when arg0 > arg1, else 0.0";
        Ge = 14, "ge", 2, false, "1.0 when arg0 >= arg1, else 0.0";
        Eq = 15, "eq", 2, false, "1.0 when arg0 == arg1, else 0.0";
        Min = 16, "min", 2, false, "the smaller of arg0 and arg1";
        Max = 17, "max", 2, false, "the larger of arg0 and arg1";
        Mov = 31, "mov", 1, false, "arg0";
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

op_table! {
    /// Opcodes of the adders, `vec4_acc` (`.v1`) and `float_acc` (`.s1`).
    AccOp, ACC_OPS, "adder" {
        Add = 0, "add", 2, false, "arg0 + arg1";
        Fract = 4, "fract", 1, false, "arg0 - floor(arg0)";
        Ne = 8, "ne", 2, false, "1.0 when arg0 != arg1, else 0.0";
        Gt = 9, "gt", 2, false, "1.0 when arg0 > arg1, else 0.0";
        Ge = 10, "ge", 2, false, "1.0 when arg0 >= arg1, else 0.0";
        Eq = 11, "eq", 2, false, "1.0 when arg0 == arg1, else 0.0";
        Floor = 12, "floor", 1, false, "largest integer not above arg0";
        Ceil = 13, "ceil", 1, false, "smallest integer not below arg0";
        Min = 14, "min", 2, false, "the smaller of arg0 and arg1";
        Max = 15, "max", 2, false, "the larger of arg0 and arg1";
        Sum3 = 16, "sum3", 1, true, "x + y + z of arg0 in every lane";
        Sum4 = 17, "sum4", 1, true, "x + y + z + w of arg0 in every lane";
        Dfdx = 20, "dFdx", 2, false, "screen-space derivative along x (needs sync)";
        Dfdy = 21, "dFdy", 2, false, "screen-space derivative along y (needs sync)";
        Sel = 23, "sel", 2, false, "arg0 when the scalar multiplier's result (^s0) is not 0.0, else arg1";
        Mov = 31, "mov", 1, false, "arg0";
    }
}

op_table! {
    /// Scalar opcodes of the complex unit, `combine` (`.s2`), when its source is a scalar.
    CombineOp, COMBINE_OPS, "complex scalar" {
        Rcp = 0, "rcp", 1, false, "1 / arg0";
        Mov = 1, "mov", 1, false, "arg0";
        Sqrt = 2, "sqrt", 1, false, "square root of arg0";
        Rsqrt = 3, "rsqrt", 1, false, "1 / sqrt(arg0)";
        Exp2 = 4, "exp2", 1, false, "2^arg0";
        Log2 = 5, "log2", 1, false, "log2(arg0)";
        Sin = 6, "sin", 1, false, "sin(2 pi arg0): the argument is in turns";
        Cos = 7, "cos", 1, false, "cos(2 pi arg0): the argument is in turns";
        Atan = 8, "atan", 1, false, "atan part 1: arg0 to an intermediate vec3 (usually .xyz)";
        Atan2 = 9, "atan2", 2, false, "atan2 part 1: arg0, arg1 to an intermediate vec3";
    }
}

/// One of the two vector forms of the complex unit, chosen by its `dest_vec` [0] and
/// `src_vec` [1] bits rather than by an op number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombineFormInfo {
    /// The `dest_vec` bit.
    pub dest_vec: bool,
    /// The `src_vec` bit.
    pub src_vec: bool,
    /// The name Mesa prints.
    pub mesa: &'static str,
    /// One line for docs and help.
    pub doc: &'static str,
}

/// `mul.s2`: a scalar times a vec4 (`dest_vec` = `src_vec` = 1).
pub static COMBINE_MUL: CombineFormInfo = CombineFormInfo {
    dest_vec: true,
    src_vec: true,
    mesa: "mul",
    doc: "scalar arg0 times vec4 arg1, written through a write mask (no modifiers on the vector)",
};

/// `atan_pt2.s2`: the second part of atan/atan2, a vec3 to a scalar (`dest_vec` = 0,
/// `src_vec` = 1).
pub static COMBINE_ATAN_PT2: CombineFormInfo = CombineFormInfo {
    dest_vec: false,
    src_vec: true,
    mesa: "atan_pt2",
    doc: "atan part 2: the intermediate vec3 of atan/atan2 part 1 to the angle",
};

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
    /// What a load reads (the `source` bits of the uniform field).
    LoadSource, LOAD_SOURCES {
        Uniform = 0, ".u", "u", "uniform memory";
        Source1 = 1, ".u1", ".u1", "source 1, not used by any compiler (what it reads is unknown)";
        Source2 = 2, ".u2", ".u2", "source 2, not used by any compiler (what it reads is unknown)";
        Temporary = 3, ".t", "t", "temporary (stack) memory";
    }
}

name_table! {
    /// What a framebuffer read returns (bit 0 of the fb_read form).
    FbRead, FB_READS {
        Depth = 0, "fb_depth", "fb_depth", "the current depth value (in .x)";
        Color = 1, "fb_color", "fb_color", "the current framebuffer colour (vec4)";
    }
}

/// The shape of a varying source kind's bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VaryingForm {
    /// Fetched by index: alignment, offset register, index.
    Immediate,
    /// Read from a register with swizzle and modifiers.
    Register,
    /// A fixed input: bits 4..23 hold fixed values.
    Fixed,
}

/// A kind of varying source: the 4-bit `source_type:perspective` value (source_type in bits
/// 2..3, perspective in bits 0..1 of the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaryingKindInfo {
    /// `source_type << 2 | perspective`; for the plain fetch and register kinds, the
    /// perspective is added to this base.
    pub code: u8,
    /// Whether the perspective bits are free (plain fetch and register kinds).
    pub perspective: bool,
    /// How the rest of the field reads.
    pub form: VaryingForm,
    /// The proposed syntax's name (empty for the plain kinds, which print the operand alone).
    pub name: &'static str,
    /// The name Mesa prints (a function around the operand, or the whole source).
    pub mesa: &'static str,
    /// For [`VaryingForm::Fixed`], the alignment written; otherwise 0.
    pub alignment: u8,
    /// One line for docs and help.
    pub doc: &'static str,
}

/// Varying fetch of a varying by index (`source_type` 0).
pub static VARYING_FETCH: VaryingKindInfo = VaryingKindInfo {
    code: 0b0000,
    perspective: true,
    form: VaryingForm::Immediate,
    name: "",
    mesa: "",
    alignment: 0,
    doc: "a varying by index, with an optional offset register",
};
/// A register source (`source_type` 1), e.g. computed texture coordinates.
pub static VARYING_REGISTER: VaryingKindInfo = VaryingKindInfo {
    code: 0b0100,
    perspective: true,
    form: VaryingForm::Register,
    name: "",
    mesa: "",
    alignment: 0,
    doc: "a register with swizzle, abs and negate",
};
/// Cube-map coordinate transform of a varying.
pub static VARYING_CUBE: VaryingKindInfo = VaryingKindInfo {
    code: 0b1000,
    perspective: false,
    form: VaryingForm::Immediate,
    name: "cube",
    mesa: "cube",
    alignment: 0,
    doc: "cube-map coordinate transform of a varying",
};
/// Cube-map coordinate transform of a register.
pub static VARYING_CUBE_REGISTER: VaryingKindInfo = VaryingKindInfo {
    code: 0b1001,
    perspective: false,
    form: VaryingForm::Register,
    name: "cube",
    mesa: "cube",
    alignment: 0,
    doc: "cube-map coordinate transform of a register",
};
/// vec3 normalize of a register.
pub static VARYING_NORMALIZE: VaryingKindInfo = VaryingKindInfo {
    code: 0b1010,
    perspective: false,
    form: VaryingForm::Register,
    name: "normalize",
    mesa: "normalize",
    alignment: 0,
    doc: "vec3 normalize of a register",
};
/// The fragment's window position.
pub static VARYING_FRAG_COORD: VaryingKindInfo = VaryingKindInfo {
    code: 0b1011,
    perspective: false,
    form: VaryingForm::Fixed,
    name: "gl_FragCoord",
    mesa: "gl_FragCoord",
    alignment: 3,
    doc: "the fragment's window position (w not inverted)",
};
/// The position within a point sprite.
pub static VARYING_POINT_COORD: VaryingKindInfo = VaryingKindInfo {
    code: 0b1100,
    perspective: false,
    form: VaryingForm::Fixed,
    name: "gl_PointCoord",
    mesa: "gl_PointCoord",
    alignment: 1,
    doc: "the position within a point sprite",
};
/// Whether the primitive faces the viewer.
pub static VARYING_FRONT_FACING: VaryingKindInfo = VaryingKindInfo {
    code: 0b1101,
    perspective: false,
    form: VaryingForm::Fixed,
    name: "gl_FrontFacing",
    mesa: "gl_FrontFacing",
    alignment: 0,
    doc: "1.0 for a front-facing primitive",
};

/// Every varying source kind.
pub static VARYING_KINDS: [&VaryingKindInfo; 8] = [
    &VARYING_FETCH,
    &VARYING_REGISTER,
    &VARYING_CUBE,
    &VARYING_CUBE_REGISTER,
    &VARYING_NORMALIZE,
    &VARYING_FRAG_COORD,
    &VARYING_POINT_COORD,
    &VARYING_FRONT_FACING,
];

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

/// Mnemonic of a varying fetch and of a uniform/temporary load.
pub const LOAD_NAME: &str = "load";
/// Mnemonic of a texture fetch.
pub const TEXLD_NAME: &str = "texld";
/// Mesa's suffix of a texture fetch with a register LOD bias.
pub const TEXLD_BIAS_SUFFIX: &str = ".b";
/// Mesa's prefix of the constant LOD bias (3 hex digits follow).
pub const TEXLD_BIAS_PREFIX: &str = "bias";
/// Mnemonic of a temporary store.
pub const STORE_NAME: &str = "store";
/// Mnemonic of a branch.
pub const BRANCH_NAME: &str = "branch";
/// Mnemonic of a discard.
pub const DISCARD_NAME: &str = "discard";

/// Names of the proposed syntax (docs/lima.md) that the rows above do not hold.
pub mod proposed {
    use super::{CombineOp, MulOp};

    /// An instruction with no field and neither `stop` nor `sync`.
    pub const NOP: &str = "nop";
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
    /// Units of the proposed syntax: the text after the opcode's `.`.
    pub const UNIT_VARYING: &str = ".v";
    /// The vector multiplier's unit.
    pub const UNIT_VEC_MUL: &str = ".v0";
    /// The scalar multiplier's unit.
    pub const UNIT_FLOAT_MUL: &str = ".s0";
    /// The vector adder's unit.
    pub const UNIT_VEC_ACC: &str = ".v1";
    /// The scalar adder's unit.
    pub const UNIT_FLOAT_ACC: &str = ".s1";
    /// The complex unit's unit.
    pub const UNIT_COMBINE: &str = ".s2";
    /// The temporary store's unit.
    pub const UNIT_STORE: &str = ".t";

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
    }

    /// Every spelling of a pipeline register; the first of each register is the one printed.
    pub static PIPELINE_NAMES: &[PipelineName] = &[
        PipelineName {
            name: "^const0",
            reg: Pipeline::Const0,
            replaced_by: None,
        },
        PipelineName {
            name: "^const1",
            reg: Pipeline::Const1,
            replaced_by: None,
        },
        PipelineName {
            name: "^texture",
            reg: Pipeline::Texture,
            replaced_by: None,
        },
        PipelineName {
            name: "^uniform",
            reg: Pipeline::Uniform,
            replaced_by: None,
        },
        PipelineName {
            name: "^u",
            reg: Pipeline::Uniform,
            replaced_by: None,
        },
        PipelineName {
            name: "^v0",
            reg: Pipeline::Vmul,
            replaced_by: None,
        },
        PipelineName {
            name: "^s0",
            reg: Pipeline::Fmul,
            replaced_by: None,
        },
        PipelineName {
            name: "^discard",
            reg: Pipeline::Discard,
            replaced_by: None,
        },
        PipelineName {
            name: "^tex_sampler",
            reg: Pipeline::Texture,
            replaced_by: Some("^texture"),
        },
        PipelineName {
            name: "^tex_coord",
            reg: Pipeline::Discard,
            replaced_by: Some("^discard"),
        },
        PipelineName {
            name: "^vmul",
            reg: Pipeline::Vmul,
            replaced_by: Some("^v0"),
        },
        PipelineName {
            name: "^fmul",
            reg: Pipeline::Fmul,
            replaced_by: Some("^s0"),
        },
    ];

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

    /// Older opcode spellings still read: (old, new).
    pub static OLD_OPCODES: &[(&str, &str)] = &[("texld_2d", "texld")];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_rows_follow_the_enum_order_and_codes_are_unique() {
        for (i, row) in MUL_OPS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(MulOp::from_code(row.code), Some(row.op));
            assert_eq!(MulOp::from_mesa(row.mesa), Some(row.op));
        }
        for (i, row) in ACC_OPS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(AccOp::from_code(row.code), Some(row.op));
        }
        for (i, row) in COMBINE_OPS.iter().enumerate() {
            assert_eq!(row.op as usize, i);
            assert_eq!(CombineOp::from_code(row.code), Some(row.op));
        }
        for (i, row) in BRANCH_CONDS.iter().enumerate() {
            assert_eq!(row.value as usize, i);
            assert_eq!(row.code as usize, i);
        }
    }

    #[test]
    fn fields_add_up_to_the_longest_instruction() {
        let bits: u32 = FIELDS.iter().map(|f| f.bits).sum();
        assert_eq!(bits, 557);
        for (i, f) in FIELDS.iter().enumerate() {
            assert_eq!(f.field, Field::ALL[i]);
            assert_eq!(f.presence, 0x80 << i);
            assert_eq!(f.field.info().index as usize, i);
        }
    }

    #[test]
    fn mul_op_numbers_carry_the_shift() {
        assert_eq!(mul_op_from_code(0), Some((MulOp::Mul, 0)));
        assert_eq!(mul_op_from_code(1), Some((MulOp::Mul, 1)));
        assert_eq!(mul_op_from_code(3), Some((MulOp::Mul, 3)));
        assert_eq!(mul_op_from_code(4), Some((MulOp::Mul, -4)));
        assert_eq!(mul_op_from_code(7), Some((MulOp::Mul, -1)));
        assert_eq!(mul_op_from_code(31), Some((MulOp::Mov, 0)));
        assert_eq!(mul_op_from_code(18), None);
        for code in 0..32u8 {
            if let Some((op, shift)) = mul_op_from_code(code) {
                assert_eq!(mul_op_code(op, shift), code);
            }
        }
    }
}
