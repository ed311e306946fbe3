//! The shader-asm instruction table: the single source of truth for mnemonics, operand types,
//! opcodes and semantics, one [`polyasm_core::table!`] row per instruction. The parser,
//! encoder, decoder, printer, renderers and docs (the `ops` regions of docs/shader.md and
//! docs/formats/shader-bytecode.md) read it.
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
//!
//! The table covers both dialects of the language: v1, the specification's, and v2, ShaderVM's
//! current one (docs/shader.md). Each instruction and register has a column saying which
//! dialects have it; the forms both share mean the same in both, so one register numbering
//! and one opcode numbering serve both, and the renderers need not know the dialect.

/// A dialect of shader-asm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// The specification's language: `getComponentN`, `s0`-`s7`, `v0`-`v7`, any number in `load`.
    V1,
    /// ShaderVM's current language: `getComponent(vA, sA, sB)` with an index register, `sign`,
    /// `z`, per-pixel memory, `s0`-`s5`, `v0`-`v4`, whole numbers in `load`.
    V2,
}

impl Dialect {
    /// The dialect a program is stored as: v2 when it uses a form only v2 has, else v1. A
    /// program in the forms both share means the same in both.
    pub fn of(program: &[Instr]) -> Dialect {
        if program.iter().any(|instr| instr.uses_only(Dialect::V2)) {
            Dialect::V2
        } else {
            Dialect::V1
        }
    }

    /// Both, in order.
    pub const ALL: [Dialect; 2] = [Dialect::V1, Dialect::V2];

    /// How `--dialect` and messages name it: `v1`, `v2`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::V1 => "v1",
            Dialect::V2 => "v2",
        }
    }

    /// The dialect `--dialect` calls `name`.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The other one.
    pub fn other(self) -> Dialect {
        match self {
            Dialect::V1 => Dialect::V2,
            Dialect::V2 => Dialect::V1,
        }
    }
}

/// Which dialects have an instruction or a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialects {
    /// Both dialects have it.
    Both,
    /// Only this dialect has it.
    Only(Dialect),
}

impl Dialects {
    /// Whether `dialect` has it.
    pub fn has(self, dialect: Dialect) -> bool {
        match self {
            Dialects::Both => true,
            Dialects::Only(only) => only == dialect,
        }
    }

    /// The one dialect that has it, for forms that tell the dialects apart.
    pub fn only(self) -> Option<Dialect> {
        match self {
            Dialects::Both => None,
            Dialects::Only(only) => Some(only),
        }
    }

    /// For the docs' tables: `v1, v2`, `v1`, `v2`.
    pub fn names(self) -> &'static str {
        match self {
            Dialects::Both => "v1, v2",
            Dialects::Only(Dialect::V1) => "v1",
            Dialects::Only(Dialect::V2) => "v2",
        }
    }
}

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

/// Scalar registers `s0`..`s7` (v2 has the first [`V2_SCALARS`]).
pub const SCALARS: u8 = 8;
/// Vector registers `v0`..`v7` (v2 has the first [`V2_VECTORS`]).
pub const VECTORS: u8 = 8;
/// The scalar registers of v2: `s0`..`s5`.
pub const V2_SCALARS: u8 = 6;
/// The vector registers of v2: `v0`..`v4`.
pub const V2_VECTORS: u8 = 5;
/// Cells of v2's per-pixel memory (`readMemory`, `writeMemory`).
pub const MEMORY_CELLS: usize = 64;
/// Components of a vector.
pub const COMPONENTS: usize = 4;
/// The first vector register's number.
pub const FIRST_VECTOR: u8 = SCALARS;
/// Every register: the numbered ones, then the inputs and the output.
pub const REGISTERS: u8 = SCALARS + VECTORS + SPECIALS.len() as u8;

/// A register with a name of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Special {
    /// Its name in the source: `pc`.
    pub name: &'static str,
    /// Its number, the field value in the bytecode.
    pub reg: Reg,
    /// Whether it is a scalar or a vector.
    pub ty: Type,
    /// Whether a program may write it (only the output `c`).
    pub writable: bool,
    /// What it holds, for docs and messages.
    pub meaning: &'static str,
    /// Which dialects have it (`z` is v2's only).
    pub dialects: Dialects,
}

/// The inputs `pc`, `t`, `s` (read only), the output `c`, and v2's zero `z` (read only).
pub const SPECIALS: [Special; 5] = [
    Special {
        name: "pc",
        reg: Reg(16),
        ty: Type::Vector,
        writable: false,
        meaning: "the pixel's centre: (x + 0.5, y + 0.5, 0, 0), rows counted from the bottom",
        dialects: Dialects::Both,
    },
    Special {
        name: "t",
        reg: Reg(17),
        ty: Type::Scalar,
        writable: false,
        meaning: "the time in seconds",
        dialects: Dialects::Both,
    },
    Special {
        name: "s",
        reg: Reg(18),
        ty: Type::Vector,
        writable: false,
        meaning: "the image size: (width, height, 0, 0)",
        dialects: Dialects::Both,
    },
    Special {
        name: "c",
        reg: Reg(19),
        ty: Type::Vector,
        writable: true,
        meaning: "the pixel's colour (r, g, b, a), 0 until written",
        dialects: Dialects::Both,
    },
    Special {
        name: "z",
        reg: Reg(20),
        ty: Type::Scalar,
        writable: false,
        meaning: "always 0",
        dialects: Dialects::Only(Dialect::V2),
    },
];

/// `pc`: the pixel's centre.
pub const PC: Reg = SPECIALS[0].reg;
/// `t`: the time in seconds.
pub const TIME: Reg = SPECIALS[1].reg;
/// `s`: the image size.
pub const SIZE: Reg = SPECIALS[2].reg;
/// `c`: the pixel's colour, the output.
pub const COLOR: Reg = SPECIALS[3].reg;
/// `z`: always 0 (v2 only).
pub const ZERO: Reg = SPECIALS[4].reg;

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

    /// Which dialects have the register.
    pub fn dialects(self) -> Dialects {
        match self.0 {
            n if n < V2_SCALARS => Dialects::Both,
            n if n < SCALARS => Dialects::Only(Dialect::V1),
            n if n < FIRST_VECTOR + V2_VECTORS => Dialects::Both,
            n if n < SCALARS + VECTORS => Dialects::Only(Dialect::V1),
            _ => self.special().map_or(Dialects::Both, |s| s.dialects),
        }
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

/// How an instruction picks the vector component or memory cell it reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selector {
    /// It picks none.
    None,
    /// Component N, fixed by the instruction (`getComponentN`, `setComponentN`).
    Component(usize),
    /// The component `floor` of the scalar operand at this position (v2's `getComponent`).
    ComponentAt(usize),
    /// The memory cell `floor` of the scalar operand at this position (v2's `readMemory`).
    CellAt(usize),
}

use Operand::*;
use Type::*;

const SSS: &[Operand] = &[Read(Scalar), Read(Scalar), Write(Scalar)];
const SS: &[Operand] = &[Read(Scalar), Write(Scalar)];
const GET: &[Operand] = &[Read(Vector), Write(Scalar)];
const SET: &[Operand] = &[WriteComponent, Read(Scalar)];
const GET_AT: &[Operand] = &[Read(Vector), Write(Scalar), Read(Scalar)];
const SET_AT: &[Operand] = &[WriteComponent, Read(Scalar), Read(Scalar)];
const READ_CELL: &[Operand] = &[Write(Scalar), Read(Scalar)];
const WRITE_CELL: &[Operand] = &[Read(Scalar), Read(Scalar)];
const BOTH: Dialects = Dialects::Both;
const V1: Dialects = Dialects::Only(Dialect::V1);
const V2: Dialects = Dialects::Only(Dialect::V2);

const GET_IN_V2: Option<&str> = Some("v2's `getComponent(vA, sA, sB)` takes the component from a register (`z` for 0)");
const SET_IN_V2: Option<&str> = Some("v2's `setComponent(vA, sA, sB)` takes the component from a register (`z` for 0)");
const NO_MEMORY_IN_V1: Option<&str> = Some("v1 has no memory: keep values in registers");

polyasm_core::table! {
    /// An opcode: its value is its field in the bytecode.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[repr(u8)]
    pub enum Op;
    /// One row of the table.
    #[derive(Clone, Copy, Debug)]
    pub struct OpInfo {
        /// What each operand is, in order.
        operands: &'static [Operand],
        /// Which dialects have the instruction.
        dialects: Dialects,
        /// The component or memory cell it reads or writes.
        selector: Selector,
        /// For a form only one dialect has, what the other dialect writes instead.
        elsewhere: Option<&'static str>,
    }
    /// Every instruction, in opcode order.
    pub static OPS;
    rows {
        Add "add" { operands: SSS, dialects: BOTH, selector: Selector::None, elsewhere: None } "sC = sA + sB";
        Multiply "multiply" { operands: SSS, dialects: BOTH, selector: Selector::None, elsewhere: None } "sC = sA * sB";
        Negate "negate" { operands: SS, dialects: BOTH, selector: Selector::None, elsewhere: None } "sB = -sA";
        Reciprocal "reciprocal" { operands: SS, dialects: BOTH, selector: Selector::None, elsewhere: None } "sB = 1 / sA (1 / 0 = inf)";
        Move "move" { operands: SS, dialects: BOTH, selector: Selector::None, elsewhere: None } "sB = sA";
        GetComponent0 "getComponent0" { operands: GET, dialects: V1, selector: Selector::Component(0), elsewhere: GET_IN_V2 } "sA = vA.x";
        GetComponent1 "getComponent1" { operands: GET, dialects: V1, selector: Selector::Component(1), elsewhere: GET_IN_V2 } "sA = vA.y";
        GetComponent2 "getComponent2" { operands: GET, dialects: V1, selector: Selector::Component(2), elsewhere: GET_IN_V2 } "sA = vA.z";
        GetComponent3 "getComponent3" { operands: GET, dialects: V1, selector: Selector::Component(3), elsewhere: GET_IN_V2 } "sA = vA.w";
        SetComponent0 "setComponent0" { operands: SET, dialects: V1, selector: Selector::Component(0), elsewhere: SET_IN_V2 } "vA.x = sA";
        SetComponent1 "setComponent1" { operands: SET, dialects: V1, selector: Selector::Component(1), elsewhere: SET_IN_V2 } "vA.y = sA";
        SetComponent2 "setComponent2" { operands: SET, dialects: V1, selector: Selector::Component(2), elsewhere: SET_IN_V2 } "vA.z = sA";
        SetComponent3 "setComponent3" { operands: SET, dialects: V1, selector: Selector::Component(3), elsewhere: SET_IN_V2 } "vA.w = sA";
        Load "load" { operands: &[Write(Scalar), Number], dialects: BOTH, selector: Selector::None, elsewhere: None } "sA = the number (v2: a whole number, 0 to 16777215)";
        GetComponent "getComponent" { operands: GET_AT, dialects: V2, selector: Selector::ComponentAt(2), elsewhere: Some("v1 writes the component in the name: `getComponent0` to `getComponent3`") } "sA = component floor(sB) of vA; 0 when sB is outside [0, 4)";
        SetComponent "setComponent" { operands: SET_AT, dialects: V2, selector: Selector::ComponentAt(2), elsewhere: Some("v1 writes the component in the name: `setComponent0` to `setComponent3`") } "component floor(sB) of vA = sA; nothing when sB is outside [0, 4)";
        Sign "sign" { operands: SS, dialects: V2, selector: Selector::None, elsewhere: Some("v1 has no `sign`") } "sB = 1 if sA > 0, -1 if sA < 0, else 0 (NaN too)";
        ReadMemory "readMemory" { operands: READ_CELL, dialects: V2, selector: Selector::CellAt(1), elsewhere: NO_MEMORY_IN_V1 } "sA = memory cell floor(sB); 0 when sB is outside [0, 64)";
        WriteMemory "writeMemory" { operands: WRITE_CELL, dialects: V2, selector: Selector::CellAt(1), elsewhere: NO_MEMORY_IN_V1 } "memory cell floor(sB) = sA; nothing when sB is outside [0, 64)";
    }
    markdown {
        "instruction" => |row| format!("`{}`", signature(row.op)),
        "opcode" => |row| (row.op as u8).to_string(),
        "dialects" => |row| row.dialects.names().to_string(),
        "does" => |row| row.doc.to_string(),
    }
}

/// The placeholder of each operand, as the language's specification writes them: scalars
/// `sA`, `sB`, `sC` and vectors `vA` in order of appearance, `number` for `load`'s literal.
fn placeholders(op: Op) -> Vec<String> {
    let (mut scalars, mut vectors) = (0u8, 0u8);
    let mut next = |ty: Type| {
        let (prefix, n) = match ty {
            Type::Scalar => ("s", &mut scalars),
            Type::Vector => ("v", &mut vectors),
        };
        let name = format!("{prefix}{}", char::from(b'A' + *n));
        *n += 1;
        name
    };
    op.info()
        .operands
        .iter()
        .map(|operand| match operand {
            Operand::Read(ty) | Operand::Write(ty) => next(*ty),
            Operand::WriteComponent => next(Type::Vector),
            Operand::Number => "number".to_string(),
        })
        .collect()
}

/// The instruction's signature: `add(sA, sB, sC)`, `load(sA, number)`.
pub fn signature(op: Op) -> String {
    format!("{}({})", op.info().mnemonic, placeholders(op).join(", "))
}

impl Op {
    /// The op with this opcode.
    pub fn from_code(code: u8) -> Option<Op> {
        OPS.get(usize::from(code)).map(|info| info.op)
    }

    /// For `getComponentN`/`setComponentN`, N.
    pub fn component(self) -> Option<usize> {
        match self.info().selector {
            Selector::Component(n) => Some(n),
            _ => None,
        }
    }
}

/// The component (`len` 4) or memory cell (`len` 64) that the index value `value` picks:
/// `floor(value)` when it is in `0..len`, none otherwise (negative, too large, NaN).
#[inline(always)]
pub fn pick(value: f32, len: usize) -> Option<usize> {
    // `as` truncates, which is `floor` for the values let through.
    (value >= 0.0 && value < len as f32).then_some(value as usize)
}

/// `sign` as v2 defines it: 1 above 0, -1 below, and +0 for both zeros and for NaN.
#[inline(always)]
pub fn sign(value: f32) -> f32 {
    if value > 0.0 {
        1.0
    } else if value < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// One decoded instruction: the registers of its operands in order (unused ones 0) and
/// `load`'s constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instr {
    /// The operation; its row ([`Op::info`]) says what each operand is.
    pub op: Op,
    /// The registers of its operands in order, 0 where an operand is unused or `load`'s number.
    pub regs: [Reg; 3],
    /// `load`'s number; 0 for every other instruction.
    pub constant: f32,
}

/// Bytes per instruction in the bytecode.
pub const INSTRUCTION_BYTES: usize = 8;
/// The most instructions a program holds: far beyond hand-written programs, and small enough
/// for a GPU storage buffer on every adapter.
pub const MAX_INSTRUCTIONS: usize = 1 << 16;

impl Instr {
    /// The registers its operands name, in order (not the field of `load`'s number).
    pub fn registers(&self) -> impl Iterator<Item = Reg> + '_ {
        self.op
            .info()
            .operands
            .iter()
            .zip(self.regs)
            .filter(|(operand, _)| **operand != Operand::Number)
            .map(|(_, reg)| reg)
    }

    /// Whether it uses a form that only `dialect` has: its instruction or one of its registers.
    pub fn uses_only(&self, dialect: Dialect) -> bool {
        let only = |d: Dialects| d.only() == Some(dialect);
        only(self.op.info().dialects) || self.registers().any(|reg| only(reg.dialects()))
    }

    /// The two words of the instruction.
    pub fn pack(&self) -> [u32; 2] {
        let [a, b, c] = self.regs;
        [
            u32::from(self.op as u8) | u32::from(a.0) << 8 | u32::from(b.0) << 16 | u32::from(c.0) << 24,
            self.constant.to_bits(),
        ]
    }

    /// The instruction two words hold, or why they hold none.
    /// The instruction table checked here holds both dialects; [`crate::decode::read`] also
    /// checks that each instruction is in the file's dialect.
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
    Register {
        /// The operand's position, from 0 (register field `index + 1`).
        index: usize,
        /// The field's value.
        value: u8,
    },
    /// Operand `index` writes a read-only register.
    ReadOnly {
        /// The operand's position, from 0.
        index: usize,
        /// The input it writes: `pc`, `t`, `s` or `z`.
        reg: Reg,
    },
    /// A field the op does not use is not 0.
    Unused {
        /// The field's position, from 0 (register field `index + 1`).
        index: usize,
    },
    /// An op other than `load` has a constant.
    Constant,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_follow_the_specification() {
        assert_eq!(signature(Op::Add), "add(sA, sB, sC)");
        assert_eq!(signature(Op::GetComponent2), "getComponent2(vA, sA)");
        assert_eq!(signature(Op::SetComponent0), "setComponent0(vA, sA)");
        assert_eq!(signature(Op::Load), "load(sA, number)");
    }

    #[test]
    fn rows_are_in_opcode_order_and_names_find_their_rows() {
        for (code, row) in OPS.iter().enumerate() {
            assert_eq!(row.op as usize, code);
            assert_eq!(Op::from_code(code as u8), Some(row.op));
            assert_eq!(Op::from_mnemonic(row.mnemonic), Some(row.op));
        }
        assert_eq!(Op::from_code(OPS.len() as u8), None);
        assert_eq!(Op::from_mnemonic("getcomponent0"), None);
        for row in &OPS {
            match (row.dialects.only(), row.elsewhere) {
                (None, None) => {}
                (Some(only), Some(text)) => assert!(text.starts_with(only.other().name()), "{text}"),
                (only, text) => panic!("`{}` is {only:?}'s and says {text:?} of the other", row.mnemonic),
            }
        }
    }
}
