//! The shader-asm instruction table: the single source of truth for mnemonics, operand types,
//! opcodes and semantics. The parser, encoder, decoder, printer, renderers and docs read it.
//!
//! An instruction is two little-endian `u32` words:
//!
//! | word | bits  | field    | meaning                                              |
//! |------|-------|----------|------------------------------------------------------|
//! | 0    | 0–7   | opcode   | [`Op`]                                               |
//! | 0    | 8–15  | a        | first operand's register ([`Reg`]), 0 when unused    |
//! | 0    | 16–23 | b        | second operand's register, 0 when unused             |
//! | 0    | 24–31 | c        | third operand's register, 0 when unused              |
//! | 1    | 0–31  | constant | `load`'s f32 value (IEEE bits), 0 otherwise          |

/// The type of a register or operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// One f32.
    Scalar,
    /// Four f32 components.
    Vector,
}

impl Type {
    /// How the type is named in messages.
    pub fn name(self) -> &'static str {
        match self {
            Type::Scalar => "scalar",
            Type::Vector => "vector",
        }
    }
}

/// A register: its number is its field value in the bytecode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u8);

/// Scalar registers `s0`..`s7`.
pub const SCALARS: u8 = 8;
/// Vector registers `v0`..`v7`.
pub const VECTORS: u8 = 8;
/// The first vector register's number.
pub const FIRST_VECTOR: u8 = SCALARS;
/// Every register: the numbered ones, then the inputs and the output.
pub const REGISTERS: u8 = SCALARS + VECTORS + SPECIALS.len() as u8;

/// A register with a name of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Special {
    pub name: &'static str,
    pub reg: Reg,
    pub ty: Type,
    /// Whether a program may write it (only the output `c`).
    pub writable: bool,
    /// What it holds, for docs and messages.
    pub meaning: &'static str,
}

/// The inputs `pc`, `t`, `s` (read only) and the output `c`.
pub const SPECIALS: [Special; 4] = [
    Special {
        name: "pc",
        reg: Reg(16),
        ty: Type::Vector,
        writable: false,
        meaning: "the pixel's centre: (x + 0.5, y + 0.5, 0, 0), rows counted from the bottom",
    },
    Special {
        name: "t",
        reg: Reg(17),
        ty: Type::Scalar,
        writable: false,
        meaning: "the time in seconds",
    },
    Special {
        name: "s",
        reg: Reg(18),
        ty: Type::Vector,
        writable: false,
        meaning: "the image size: (width, height, 0, 0)",
    },
    Special {
        name: "c",
        reg: Reg(19),
        ty: Type::Vector,
        writable: true,
        meaning: "the pixel's colour (r, g, b, a), 0 until written",
    },
];

/// `pc`, `t`, `s` and `c`.
pub const PC: Reg = SPECIALS[0].reg;
pub const TIME: Reg = SPECIALS[1].reg;
pub const SIZE: Reg = SPECIALS[2].reg;
pub const COLOR: Reg = SPECIALS[3].reg;

impl Reg {
    /// The register's type.
    pub fn ty(self) -> Type {
        match self.0 {
            n if n < SCALARS => Type::Scalar,
            n if n < SCALARS + VECTORS => Type::Vector,
            _ => self.special().map_or(Type::Scalar, |s| s.ty),
        }
    }

    /// Whether a program may write the register.
    pub fn writable(self) -> bool {
        self.special().is_none_or(|s| s.writable) && self.0 < REGISTERS
    }

    /// The named register this is, if it is one.
    pub fn special(self) -> Option<&'static Special> {
        SPECIALS.iter().find(|s| s.reg == self)
    }

    /// The register's name: `s3`, `v0`, `pc`.
    pub fn name(self) -> String {
        match self.0 {
            n if n < SCALARS => format!("s{n}"),
            n if n < SCALARS + VECTORS => format!("v{}", n - FIRST_VECTOR),
            _ => self
                .special()
                .map_or_else(|| format!("?{}", self.0), |s| s.name.to_string()),
        }
    }

    /// The register named `name`, if any (case-sensitive, as in the spec).
    pub fn from_name(name: &str) -> Option<Reg> {
        if let Some(s) = SPECIALS.iter().find(|s| s.name == name) {
            return Some(s.reg);
        }
        let (kind, digits) = name.split_at_checked(1)?;
        if digits.len() != 1 {
            return None;
        }
        let n = digits.as_bytes()[0].checked_sub(b'0').filter(|&n| n < 8)?;
        match kind {
            "s" => Some(Reg(n)),
            "v" => Some(Reg(FIRST_VECTOR + n)),
            _ => None,
        }
    }

    /// Every register, in number order.
    pub fn all() -> impl Iterator<Item = Reg> {
        (0..REGISTERS).map(Reg)
    }
}

/// What an operand position holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A register of this type that is read.
    Read(Type),
    /// A register of this type that is written.
    Write(Type),
    /// A vector register of which one component is written (`setComponentN`).
    WriteComponent,
    /// An f32 literal (`load`).
    Number,
}

/// An opcode: its value is its field in the bytecode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    Add = 0,
    Multiply = 1,
    Negate = 2,
    Reciprocal = 3,
    Move = 4,
    GetComponent0 = 5,
    GetComponent1 = 6,
    GetComponent2 = 7,
    GetComponent3 = 8,
    SetComponent0 = 9,
    SetComponent1 = 10,
    SetComponent2 = 11,
    SetComponent3 = 12,
    Load = 13,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub op: Op,
    pub mnemonic: &'static str,
    pub operands: &'static [Operand],
    /// What it does, for docs and `--help`-like listings.
    pub summary: &'static str,
}

use Operand::*;
use Type::*;

const SSS: &[Operand] = &[Read(Scalar), Read(Scalar), Write(Scalar)];
const SS: &[Operand] = &[Read(Scalar), Write(Scalar)];
const GET: &[Operand] = &[Read(Vector), Write(Scalar)];
const SET: &[Operand] = &[WriteComponent, Read(Scalar)];

/// Every instruction, in opcode order.
pub const OPS: [OpInfo; 14] = [
    OpInfo {
        op: Op::Add,
        mnemonic: "add",
        operands: SSS,
        summary: "sC = sA + sB",
    },
    OpInfo {
        op: Op::Multiply,
        mnemonic: "multiply",
        operands: SSS,
        summary: "sC = sA * sB",
    },
    OpInfo {
        op: Op::Negate,
        mnemonic: "negate",
        operands: SS,
        summary: "sB = -sA",
    },
    OpInfo {
        op: Op::Reciprocal,
        mnemonic: "reciprocal",
        operands: SS,
        summary: "sB = 1 / sA (1 / 0 = inf)",
    },
    OpInfo {
        op: Op::Move,
        mnemonic: "move",
        operands: SS,
        summary: "sB = sA",
    },
    OpInfo {
        op: Op::GetComponent0,
        mnemonic: "getComponent0",
        operands: GET,
        summary: "sA = vA.x",
    },
    OpInfo {
        op: Op::GetComponent1,
        mnemonic: "getComponent1",
        operands: GET,
        summary: "sA = vA.y",
    },
    OpInfo {
        op: Op::GetComponent2,
        mnemonic: "getComponent2",
        operands: GET,
        summary: "sA = vA.z",
    },
    OpInfo {
        op: Op::GetComponent3,
        mnemonic: "getComponent3",
        operands: GET,
        summary: "sA = vA.w",
    },
    OpInfo {
        op: Op::SetComponent0,
        mnemonic: "setComponent0",
        operands: SET,
        summary: "vA.x = sA",
    },
    OpInfo {
        op: Op::SetComponent1,
        mnemonic: "setComponent1",
        operands: SET,
        summary: "vA.y = sA",
    },
    OpInfo {
        op: Op::SetComponent2,
        mnemonic: "setComponent2",
        operands: SET,
        summary: "vA.z = sA",
    },
    OpInfo {
        op: Op::SetComponent3,
        mnemonic: "setComponent3",
        operands: SET,
        summary: "vA.w = sA",
    },
    OpInfo {
        op: Op::Load,
        mnemonic: "load",
        operands: &[Write(Scalar), Number],
        summary: "sA = the number",
    },
];

impl Op {
    /// The op's row of [`OPS`].
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    /// The op with this opcode.
    pub fn from_code(code: u8) -> Option<Op> {
        OPS.get(usize::from(code)).map(|info| info.op)
    }

    /// The op with this mnemonic (case-sensitive, as in the spec).
    pub fn from_mnemonic(name: &str) -> Option<Op> {
        OPS.iter().find(|info| info.mnemonic == name).map(|info| info.op)
    }

    /// For `getComponentN`/`setComponentN`, N.
    pub fn component(self) -> Option<usize> {
        match self {
            Op::GetComponent0 | Op::SetComponent0 => Some(0),
            Op::GetComponent1 | Op::SetComponent1 => Some(1),
            Op::GetComponent2 | Op::SetComponent2 => Some(2),
            Op::GetComponent3 | Op::SetComponent3 => Some(3),
            _ => None,
        }
    }
}

/// One decoded instruction: the registers of its operands in order (unused ones 0) and
/// `load`'s constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instr {
    pub op: Op,
    pub regs: [Reg; 3],
    pub constant: f32,
}

/// Bytes per instruction in the bytecode.
pub const INSTRUCTION_BYTES: usize = 8;
/// The most instructions a program holds: far beyond hand-written programs, and small enough
/// for a GPU storage buffer on every adapter.
pub const MAX_INSTRUCTIONS: usize = 1 << 16;

impl Instr {
    /// The two words of the instruction.
    pub fn pack(&self) -> [u32; 2] {
        let [a, b, c] = self.regs;
        [
            u32::from(self.op as u8) | u32::from(a.0) << 8 | u32::from(b.0) << 16 | u32::from(c.0) << 24,
            self.constant.to_bits(),
        ]
    }

    /// The instruction two words hold, or why they hold none.
    pub fn unpack(words: [u32; 2]) -> Result<Instr, UnpackError> {
        let [w0, w1] = words;
        let code = (w0 & 0xff) as u8;
        let op = Op::from_code(code).ok_or(UnpackError::Opcode(code))?;
        let field = |i: u32| Reg((w0 >> (8 + 8 * i) & 0xff) as u8);
        let regs = [field(0), field(1), field(2)];
        let info = op.info();
        for (i, reg) in regs.iter().enumerate() {
            match info.operands.get(i) {
                Some(Read(ty) | Write(ty)) if reg.0 >= REGISTERS || reg.ty() != *ty => {
                    return Err(UnpackError::Register { index: i, value: reg.0 });
                }
                Some(WriteComponent) if reg.0 >= REGISTERS || reg.ty() != Vector => {
                    return Err(UnpackError::Register { index: i, value: reg.0 });
                }
                Some(Write(_) | WriteComponent) if !reg.writable() => {
                    return Err(UnpackError::ReadOnly { index: i, reg: *reg });
                }
                None | Some(Number) if reg.0 != 0 => return Err(UnpackError::Unused { index: i }),
                _ => {}
            }
        }
        if op != Op::Load && w1 != 0 {
            return Err(UnpackError::Constant);
        }
        Ok(Instr {
            op,
            regs,
            constant: f32::from_bits(w1),
        })
    }
}

/// Why two words are no instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// No op has this opcode.
    Opcode(u8),
    /// Operand `index` names no register of the type it needs.
    Register { index: usize, value: u8 },
    /// Operand `index` writes a read-only register.
    ReadOnly { index: usize, reg: Reg },
    /// A field the op does not use is not 0.
    Unused { index: usize },
    /// An op other than `load` has a constant.
    Constant,
}
