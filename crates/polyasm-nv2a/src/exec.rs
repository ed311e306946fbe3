//! The nv2a vertex program emulator: runs a program once per vertex, as the vertex engine does.
//!
//! A program is decoded once into steps (operands, operations, writes), so running a vertex
//! reads no fields and allocates nothing. Decisions, where hardware is undefined or the known
//! emulators disagree:
//!
//! - Execution runs from instruction 0 through the first with FINAL, or to the end without one.
//!   NOP/NOP instructions do nothing. MAC opcodes 14 and 15 in an instruction that runs are a
//!   load error; after FINAL they are never looked at.
//! - r0–r11, a0 and every output start at 0 (polyasm's rule for undefined state); xemu starts the
//!   outputs at (0, 0, 0, 1).
//! - Every input of an instruction, both units', is read before any of its writes, so r12 reads
//!   the oPos from before the instruction. Then the MAC writes, then the ILU.
//! - Mux 0 and temps 13–15 read 0. A constant index outside 0..192, whether CONST alone or
//!   CONST + a0, reads 0; hardware leaves that undefined.
//! - A paired ILU (any MAC opcode but NOP, ARL included) writes its temp to r1 whatever OUT_R
//!   says. A paired MAC temp write to r1 is kept; xemu drops it.
//! - Writes to temps 12–15, to o-addresses that name no output and to constants 192 and up are dropped.
//!   An o-write uses OUT_ADDRESS & 0xF, as xemu does. A c-write ignores A0X.
//! - The o/c write happens only when the unit OUT_MUX names runs an operation other than ARL.
//! - ARL sets a0 = floor(a.x) as an i32, saturating, NaN giving 0, and writes nothing else;
//!   [`ExecOptions::arl_bias`] adds 0.001 before the floor, as xemu does.
//! - MUL, MAD, DP3, DPH and DP4 turn a product that overflows to ±inf from finite inputs into
//!   ±f32::MAX, and DP3, DPH and DP4 clamp an infinite sum the same way. xemu's shader path
//!   instead zeroes any product with a 0 input.
//! - MIN and MAX return b when the comparison is false, so a NaN in either gives b.
//! - SLT counts -0 < +0 as true, as the hardware does; SGE is 1 - SLT.
//! - RCC clamps to ±[2^-64, 2^64] with xemu's exact bit patterns; a ±0 reciprocal (x = ±inf)
//!   goes to the positive side and gives 2^-64. A NaN stays NaN.
//! - RSQ takes |x|. LIT clamps its power to ±127.9961.
//! - EXPP and LOGP compute z at full precision (hardware gives about 10 bits); x and y are
//!   exact. LOGP of a NaN gives (NaN, NaN, NaN, 1).

use crate::ops::{
    CONSTANTS, Field, INPUTS, InputSlot, MAC_ARL, MAX_INSTRUCTIONS, Mux, Op, PortTarget, R12, Slot, Unit,
    WORDS_PER_INSTRUCTION, WRITABLE_TEMPS, mask_bit, output_index, unpack_swizzle,
};

pub use polyasm_core::vertex_io::Vec4;

/// Outputs in `ops::OUTPUTS` order (oPos, oDiffuse, oSpecular, oFog, oPts, oBackDiffuse,
/// oBackSpecular, oTex0..oTex3).
pub type Outputs = [Vec4; 11];

/// How a run treats the points where emulators differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExecOptions {
    /// ARL adds 0.001 before flooring, as xemu does.
    pub arl_bias: bool,
}

/// Why words cannot be loaded as a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramError {
    /// The word count is not a multiple of four.
    NotWholeInstructions {
        /// How many words there are.
        words: usize,
    },
    /// More instructions than the vertex engine holds.
    TooLong {
        /// How many instructions there are, more than [`MAX_INSTRUCTIONS`].
        instructions: usize,
    },
    /// An instruction that runs uses MAC opcode 14 or 15.
    UndefinedMacOpcode {
        /// The instruction's index in the program, from 0.
        instruction: usize,
        /// The opcode, 14 or 15.
        code: u32,
    },
}

impl std::fmt::Display for ProgramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProgramError::NotWholeInstructions { words } => write!(
                f,
                "the program has {words} words, which is not a whole number of {WORDS_PER_INSTRUCTION}-word instructions"
            ),
            ProgramError::TooLong { instructions } => write!(
                f,
                "the program has {instructions} instructions; the vertex engine holds {MAX_INSTRUCTIONS}"
            ),
            ProgramError::UndefinedMacOpcode { instruction, code } => {
                write!(
                    f,
                    "instruction {instruction} uses MAC opcode {code}, which is undefined"
                )
            }
        }
    }
}

impl std::error::Error for ProgramError {}

/// How many outputs there are, taken from the `Outputs` type.
const OUTPUT_COUNT: usize = size_of::<Outputs>() / size_of::<Vec4>();
/// A run keeps r0..r11, then the outputs in `OUTPUTS` order, then a register that stays zero,
/// in one bank, so a step reads any of them through one index.
const BANK_OUTPUTS: usize = WRITABLE_TEMPS as usize;
const BANK_ZERO: usize = BANK_OUTPUTS + OUTPUT_COUNT;
const BANK_LEN: usize = BANK_ZERO + 1;
const _: () = assert!(BANK_LEN <= u8::MAX as usize, "bank indices are stored as u8");

/// oPos's OUT_ADDRESS, which r12 reads.
const OPOS_ADDRESS: u32 = 0;
/// o-writes look at the low four bits of OUT_ADDRESS only, as xemu does.
const O_ADDRESS_BITS: u32 = 0xF;
/// ARL's bias before the floor, with [`ExecOptions::arl_bias`].
const ARL_BIAS: f32 = 0.001;
/// RCC's clamp bounds: 2^-64 and 2^64 with either sign, as exact bit patterns.
const RCC_POSITIVE_MIN: f32 = f32::from_bits(0x1F80_0000);
const RCC_POSITIVE_MAX: f32 = f32::from_bits(0x5F80_0000);
const RCC_NEGATIVE_MIN: f32 = f32::from_bits(0xDF80_0000);
const RCC_NEGATIVE_MAX: f32 = f32::from_bits(0x9F80_0000);
/// LIT clamps its power to what 8.8 fixed point holds.
const LIT_POWER_LIMIT: f32 = 127.9961;
const ZERO: Vec4 = [0.0; 4];

/// Where an operand's register comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// A register of the run's bank: a temp, an output (r12 reads oPos) or the zero register.
    Bank(u8),
    Input(u8),
    /// c[index], or c[index + a0] when relative.
    Constant {
        index: u16,
        relative: bool,
    },
}

/// One input slot, ready to fetch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Operand {
    source: Source,
    swizzle: [u8; 4],
    negate: bool,
}

impl Operand {
    /// The operands an operation does not take: never read, never out of range.
    const UNUSED: Operand = Operand {
        source: Source::Bank(BANK_ZERO as u8),
        swizzle: [0, 1, 2, 3],
        negate: false,
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Bank(u8),
    Constant(u16),
}

/// A masked write; a write with no lanes is never built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Write {
    target: Target,
    lanes: [bool; 4],
}

/// What one unit computes and where the result goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct UnitStep {
    op: Op,
    /// The source operands in operand order, each decoded from the input slot the table names.
    operands: [Operand; 3],
    temp: Option<Write>,
    out: Option<Write>,
}

impl UnitStep {
    /// A unit with nothing to do: it reads the zero register and writes nothing.
    const IDLE: UnitStep = UnitStep {
        op: Op::Mov,
        operands: [Operand::UNUSED; 3],
        temp: None,
        out: None,
    };
}

/// One instruction that does something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    /// A unit whose opcode is NOP is [`UnitStep::IDLE`], so `run` needs no branch for it.
    mac: UnitStep,
    ilu: UnitStep,
    /// The MAC runs ARL: its result's x lane sets a0, and it writes no register.
    arl: bool,
}

/// A program decoded once, ready to run on many vertices.
#[derive(Clone, Debug)]
pub struct Program {
    steps: Vec<Step>,
    /// Instructions through the first FINAL, NOP/NOP ones included.
    len: usize,
}

impl Program {
    /// Loads `words`, four per instruction (d0..d3).
    pub fn new(words: &[u32]) -> Result<Program, ProgramError> {
        let instructions = Slot::split(words).ok_or(ProgramError::NotWholeInstructions { words: words.len() })?;
        if instructions.len() > MAX_INSTRUCTIONS {
            return Err(ProgramError::TooLong {
                instructions: instructions.len(),
            });
        }
        let mut steps = Vec::with_capacity(instructions.len());
        let mut len = 0;
        for (index, slot) in instructions.into_iter().enumerate() {
            len = index + 1;
            if let Some(step) = decode_step(index, &slot)? {
                steps.push(step);
            }
            if slot.get(Field::Final) != 0 {
                break;
            }
        }
        Ok(Program { steps, len })
    }

    /// The number of instructions that run: through the first FINAL, NOP/NOP ones included.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no instruction runs.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sorted, distinct c-register indices the program writes (c-writes: ORB = 0 with a nonzero
    /// output mask), counting only writes that happen: in an instruction that runs, fed by a
    /// unit that runs an operation other than ARL, to an index below 192.
    pub fn written_constants(&self) -> Vec<usize> {
        self.written(|target| match target {
            Target::Constant(index) => Some(usize::from(index)),
            _ => None,
        })
    }

    /// Sorted, distinct indices into [`crate::ops::OUTPUTS`] of the output registers the program writes,
    /// under the same rules as [`Program::written_constants`].
    pub fn written_outputs(&self) -> Vec<usize> {
        self.written(|target| match target {
            Target::Bank(index) if usize::from(index) >= BANK_OUTPUTS => Some(usize::from(index) - BANK_OUTPUTS),
            _ => None,
        })
    }

    /// Sorted, distinct values of `pick` over the port writes of every unit that runs.
    fn written(&self, pick: impl Fn(Target) -> Option<usize>) -> Vec<usize> {
        let mut written: Vec<usize> = self
            .steps
            .iter()
            .flat_map(|step| [step.mac, step.ilu])
            .filter_map(|unit| unit.out.and_then(|write| pick(write.target)))
            .collect();
        written.sort_unstable();
        written.dedup();
        written
    }

    /// Runs one vertex. c-register writes update `constants` (so later vertices see them).
    pub fn run(
        &self,
        inputs: &[Vec4; INPUTS as usize],
        constants: &mut [Vec4; CONSTANTS as usize],
        options: ExecOptions,
    ) -> Outputs {
        let mut bank = [ZERO; BANK_LEN];
        let mut a0: i32 = 0;
        let bias = if options.arl_bias { ARL_BIAS } else { 0.0 };
        for step in &self.steps {
            // Both units compute before either writes, so every read sees the registers as they
            // were before the instruction.
            let read = |operand: &Operand| fetch(operand, &bank, inputs, constants, a0);
            let mac = evaluate(step.mac.op, &step.mac.operands, read);
            let ilu = evaluate(step.ilu.op, &step.ilu.operands, read);
            if step.arl {
                // `as` saturates and turns NaN into 0.
                a0 = (mac[0] + bias).floor() as i32;
            }
            for (unit, value) in [(&step.mac, mac), (&step.ilu, ilu)] {
                for write in [unit.temp, unit.out].into_iter().flatten() {
                    let register = match write.target {
                        Target::Bank(index) => bank.get_mut(usize::from(index)),
                        Target::Constant(index) => constants.get_mut(usize::from(index)),
                    };
                    if let Some(register) = register {
                        write_lanes(register, value, write.lanes);
                    }
                }
            }
        }
        std::array::from_fn(|i| bank[BANK_OUTPUTS + i])
    }
}

/// Decodes one instruction; `None` when it does nothing.
fn decode_step(index: usize, slot: &Slot) -> Result<Option<Step>, ProgramError> {
    let mac_code = slot.get(Field::Mac);
    let mac = match mac_code {
        0 => None,
        code => Some(
            Op::from_opcode(Unit::Mac, code).ok_or(ProgramError::UndefinedMacOpcode {
                instruction: index,
                code,
            })?,
        ),
    };
    // Every ILU code but NOP names an operation, so there is nothing to reject here.
    let ilu = Op::from_opcode(Unit::Ilu, slot.get(Field::Ilu));
    if mac.is_none() && ilu.is_none() {
        return Ok(None);
    }

    let arl = mac_code == u32::from(MAC_ARL);
    let unit_step = |unit: Unit, op: Op| {
        let writes = slot.writes(unit);
        UnitStep {
            op,
            operands: decode_operands(slot, unit, op),
            temp: writes.temp.and_then(|(register, mask)| temp_write(register, mask)),
            out: writes.port.and_then(port_write),
        }
    };
    // ARL computes like MOV, but its result goes only to a0.
    let mac_step = mac.map_or(UnitStep::IDLE, |op| match unit_step(Unit::Mac, op) {
        step if arl => UnitStep {
            temp: None,
            out: None,
            ..step
        },
        step => step,
    });
    let ilu_step = ilu.map_or(UnitStep::IDLE, |op| unit_step(Unit::Ilu, op));
    Ok(Some(Step {
        mac: mac_step,
        ilu: ilu_step,
        arl,
    }))
}

fn decode_operand(slot: &Slot, input: InputSlot) -> Operand {
    let zero = Source::Bank(BANK_ZERO as u8);
    let source = match Mux::from_bits(slot.get(Field::mux(input))) {
        None => zero,
        Some(Mux::Temp) => match slot.temp(input) {
            index if index < u32::from(WRITABLE_TEMPS) => Source::Bank(index as u8),
            index if index == u32::from(R12) => output_index(OPOS_ADDRESS).map_or(zero, bank_source),
            _ => zero,
        },
        Some(Mux::Input) => match u8::try_from(slot.get(Field::V)) {
            Ok(index) if index < INPUTS => Source::Input(index),
            _ => zero,
        },
        Some(Mux::Const) => {
            let relative = slot.get(Field::A0x) != 0;
            match u16::try_from(slot.get(Field::Const)) {
                Ok(index) if relative || index < CONSTANTS => Source::Constant { index, relative },
                _ => zero,
            }
        }
    };
    Operand {
        source,
        swizzle: unpack_swizzle(slot.get(Field::swizzle(input))),
        negate: slot.get(Field::negate(input)) != 0,
    }
}

/// The bank source of output `position` in `OUTPUTS` order.
fn bank_source(position: usize) -> Source {
    Source::Bank((BANK_OUTPUTS + position) as u8)
}

/// The source operands of `op` on `unit`, each from the input slot the table names.
fn decode_operands(slot: &Slot, unit: Unit, op: Op) -> [Operand; 3] {
    let info = op.info();
    std::array::from_fn(|operand| {
        if operand < info.sources() {
            decode_operand(slot, info.slot(unit, operand))
        } else {
            Operand::UNUSED
        }
    })
}

fn temp_write(index: u32, mask: u32) -> Option<Write> {
    if mask == 0 || index >= u32::from(WRITABLE_TEMPS) {
        return None;
    }
    Some(Write {
        target: Target::Bank(index as u8),
        lanes: mask_lanes(mask),
    })
}

/// The o/c port's write: o-writes look at OUT_ADDRESS's low four bits, as xemu does;
/// addresses that name no output, and constants past the last, are dropped.
fn port_write((target, mask): (PortTarget, u32)) -> Option<Write> {
    let target = match target {
        PortTarget::Output(address) => bank_target(output_index(address & O_ADDRESS_BITS)?),
        PortTarget::Constant(index) => Target::Constant(u16::try_from(index).ok().filter(|&i| i < CONSTANTS)?),
    };
    Some(Write {
        target,
        lanes: mask_lanes(mask),
    })
}

fn bank_target(position: usize) -> Target {
    Target::Bank((BANK_OUTPUTS + position) as u8)
}

fn mask_lanes(mask: u32) -> [bool; 4] {
    std::array::from_fn(|lane| mask & mask_bit(lane) != 0)
}

// Inlined so fetched values stay in registers instead of going through the stack.
#[inline(always)]
fn fetch(
    operand: &Operand,
    bank: &[Vec4; BANK_LEN],
    inputs: &[Vec4; INPUTS as usize],
    constants: &[Vec4; CONSTANTS as usize],
    a0: i32,
) -> Vec4 {
    let register = match operand.source {
        Source::Bank(index) => bank.get(usize::from(index)),
        Source::Input(index) => inputs.get(usize::from(index)),
        Source::Constant { index, relative } => {
            let offset = if relative { i64::from(a0) } else { 0 };
            usize::try_from(i64::from(index) + offset)
                .ok()
                .and_then(|index| constants.get(index))
        }
    };
    let register = register.copied().unwrap_or(ZERO);
    // Masking the lane lets the compiler drop the bounds check.
    let value = operand.swizzle.map(|lane| register[usize::from(lane & 3)]);
    if operand.negate { value.map(|x| -x) } else { value }
}

fn write_lanes(register: &mut Vec4, value: Vec4, lanes: [bool; 4]) {
    // One whole-vector store: lane-by-lane stores stall the next whole-vector read.
    let old = *register;
    *register = std::array::from_fn(|i| if lanes[i] { value[i] } else { old[i] });
}

/// One operation on its source operands, in operand order (an ILU operation's only operand is
/// the first). `read` fetches an operand; only the operands the operation takes are fetched.
// Inlined so operands and results stay in registers instead of going through the stack.
#[inline(always)]
fn evaluate(op: Op, operands: &[Operand; 3], read: impl Fn(&Operand) -> Vec4) -> Vec4 {
    let [a, b, c] = operands;
    match op {
        // ARL's result is its operand; `run` turns lane x into a0.
        Op::Mov | Op::Arl => read(a),
        Op::Mul => lanes(read(a), read(b), mul),
        // SUB is ADD with slot C's negate bit set, which the fetch has applied.
        Op::Add | Op::Sub => lanes(read(a), read(b), |x, y| x + y),
        Op::Mad => {
            let product = lanes(read(a), read(b), mul);
            lanes(product, read(c), |x, y| x + y)
        }
        Op::Dp3 => {
            let p = lanes(read(a), read(b), mul);
            [clamp_infinite(p[0] + p[1] + p[2]); 4]
        }
        Op::Dph => {
            let (a, b) = (read(a), read(b));
            let p = lanes(a, b, mul);
            [clamp_infinite(p[0] + p[1] + p[2] + b[3]); 4]
        }
        Op::Dp4 => {
            let p = lanes(read(a), read(b), mul);
            [clamp_infinite(p[0] + p[1] + p[2] + p[3]); 4]
        }
        Op::Dst => {
            let (a, b) = (read(a), read(b));
            [1.0, a[1] * b[1], a[2], b[3]]
        }
        Op::Min => lanes(read(a), read(b), |x, y| if x < y { x } else { y }),
        Op::Max => lanes(read(a), read(b), |x, y| if x > y { x } else { y }),
        Op::Slt => lanes(read(a), read(b), |x, y| if less_than(x, y) { 1.0 } else { 0.0 }),
        Op::Sge => lanes(read(a), read(b), |x, y| if less_than(x, y) { 0.0 } else { 1.0 }),
        Op::Rcp => [1.0 / read(a)[0]; 4],
        Op::Rcc => [rcc(read(a)[0]); 4],
        Op::Rsq => [1.0 / read(a)[0].abs().sqrt(); 4],
        Op::Expp => expp(read(a)[0]),
        Op::Logp => logp(read(a)[0]),
        Op::Lit => lit(read(a)),
    }
}

fn lanes(a: Vec4, b: Vec4, f: impl Fn(f32, f32) -> f32) -> Vec4 {
    [f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2]), f(a[3], b[3])]
}

/// A product; one that overflows from finite inputs saturates at ±f32::MAX.
fn mul(a: f32, b: f32) -> f32 {
    let product = a * b;
    if a.is_infinite() || b.is_infinite() {
        product
    } else {
        clamp_infinite(product)
    }
}

fn clamp_infinite(x: f32) -> f32 {
    if x.is_infinite() { f32::MAX.copysign(x) } else { x }
}

/// `a < b`, with -0 below +0 as the hardware has it.
fn less_than(a: f32, b: f32) -> bool {
    a < b || (a == 0.0 && b == 0.0 && a.is_sign_negative() && b.is_sign_positive())
}

fn rcc(x: f32) -> f32 {
    let r = 1.0 / x;
    if r.is_nan() {
        r
    } else if r >= 0.0 {
        r.clamp(RCC_POSITIVE_MIN, RCC_POSITIVE_MAX)
    } else {
        r.clamp(RCC_NEGATIVE_MIN, RCC_NEGATIVE_MAX)
    }
}

fn expp(s: f32) -> Vec4 {
    let floor = s.floor();
    [floor.exp2(), s - floor, s.exp2(), 1.0]
}

fn logp(s: f32) -> Vec4 {
    let t = s.abs();
    if t.is_nan() {
        return [f32::NAN, f32::NAN, f32::NAN, 1.0];
    }
    if t == 0.0 {
        return [f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY, 1.0];
    }
    if t.is_infinite() {
        return [f32::INFINITY, 1.0, f32::INFINITY, 1.0];
    }
    let (exponent, mantissa) = exponent_and_mantissa(t);
    [exponent as f32, mantissa, t.log2(), 1.0]
}

/// IEEE single-precision layout, for LOGP's exact exponent and mantissa.
const F32_FRACTION_BITS: u32 = f32::MANTISSA_DIGITS - 1;
const F32_FRACTION_MASK: u32 = (1 << F32_FRACTION_BITS) - 1;
const F32_EXPONENT_BIAS: i32 = f32::MAX_EXP - 1;

/// floor(log2 t) and t / 2^floor(log2 t) for a finite t > 0, subnormals included.
fn exponent_and_mantissa(t: f32) -> (i32, f32) {
    let bits = t.to_bits();
    let biased = (bits >> F32_FRACTION_BITS) as i32;
    let fraction = bits & F32_FRACTION_MASK;
    let one = 1.0f32.to_bits();
    if biased != 0 {
        return (biased - F32_EXPONENT_BIAS, f32::from_bits(fraction | one));
    }
    // A subnormal: shift the leading one up to the implicit bit's place.
    let leading = u32::BITS - 1 - fraction.leading_zeros();
    let shift = F32_FRACTION_BITS - leading;
    let exponent = 1 - F32_EXPONENT_BIAS - shift as i32;
    (exponent, f32::from_bits((fraction << shift) & F32_FRACTION_MASK | one))
}

fn lit(s: Vec4) -> Vec4 {
    let mut out = [1.0, 0.0, 0.0, 1.0];
    let power = s[3].clamp(-LIT_POWER_LIMIT, LIT_POWER_LIMIT);
    if s[0] > 0.0 {
        out[1] = s[0];
        if s[1] > 0.0 {
            out[2] = s[1].powf(power);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::{OUTPUTS, pack_swizzle};
    use InputSlot::{A, B, C};

    const XYZW: u32 = 0xF;
    const OPOS: u32 = 0;
    const OD0: u32 = 3;
    const OD1: u32 = 4;
    const OFOG: u32 = 5;

    /// An instruction under construction, starting from nv2avsh's blank one.
    #[derive(Clone, Copy)]
    struct Build(Slot);

    impl Build {
        fn words(words: [u32; 4]) -> Build {
            Build(Slot(words))
        }

        fn mac(op: Op) -> Build {
            Build(Slot::BLANK).set(Field::Mac, opcode(Unit::Mac, op))
        }

        fn ilu(op: Op) -> Build {
            Build(Slot::BLANK).and_ilu(op)
        }

        fn and_ilu(self, op: Op) -> Build {
            self.set(Field::Ilu, opcode(Unit::Ilu, op))
        }

        fn set(mut self, field: Field, value: u32) -> Build {
            self.0.set(field, value);
            self
        }

        fn read(mut self, input: InputSlot, mux: Mux, index: u32) -> Build {
            self.0.set(Field::mux(input), mux as u32);
            match mux {
                Mux::Temp => {
                    self.0.set_temp(input, index);
                    self
                }
                Mux::Input => self.set(Field::V, index),
                Mux::Const => self.set(Field::Const, index),
            }
        }

        fn swizzle(self, input: InputSlot, lanes: [u8; 4]) -> Build {
            self.set(Field::swizzle(input), pack_swizzle(lanes))
        }

        fn negate(self, input: InputSlot) -> Build {
            self.set(Field::negate(input), 1)
        }

        fn to_temp(self, unit: Unit, index: u32, mask: u32) -> Build {
            let mask_field = if unit == Unit::Mac {
                Field::MacMask
            } else {
                Field::IluMask
            };
            self.set(Field::OutTemp, index).set(mask_field, mask)
        }

        fn to_output(self, unit: Unit, address: u32, mask: u32) -> Build {
            self.set(Field::OutMux, (unit == Unit::Ilu).into())
                .set(Field::OutOrb, 1)
                .set(Field::OutAddress, address)
                .set(Field::OutMask, mask)
        }

        fn to_constant(self, unit: Unit, index: u32, mask: u32) -> Build {
            self.to_output(unit, index, mask).set(Field::OutOrb, 0)
        }

        fn last(self) -> Build {
            self.set(Field::Final, 1)
        }
    }

    fn opcode(unit: Unit, op: Op) -> u32 {
        u32::from(
            op.info()
                .opcode(unit)
                .expect("invariant: tests name an operation the unit runs"),
        )
    }

    /// `MOV o[address], R[temp]`, to look at a temp.
    fn show_temp(temp: u32, address: u32) -> Build {
        Build::mac(Op::Mov)
            .read(A, Mux::Temp, temp)
            .to_output(Unit::Mac, address, XYZW)
    }

    fn words(program: &[Build]) -> Vec<u32> {
        program.iter().flat_map(|b| b.0.0).collect()
    }

    fn load(program: &[Build]) -> Program {
        Program::new(&words(program)).expect("the test program loads")
    }

    fn inputs(set: &[(usize, Vec4)]) -> [Vec4; 16] {
        let mut inputs = [ZERO; 16];
        for &(i, v) in set {
            inputs[i] = v;
        }
        inputs
    }

    fn constants(set: &[(usize, Vec4)]) -> [Vec4; 192] {
        let mut constants = [ZERO; 192];
        for &(i, v) in set {
            constants[i] = v;
        }
        constants
    }

    fn run_options(program: &[Build], v: &[(usize, Vec4)], c: &[(usize, Vec4)], options: ExecOptions) -> Outputs {
        load(program).run(&inputs(v), &mut constants(c), options)
    }

    fn run(program: &[Build], v: &[(usize, Vec4)], c: &[(usize, Vec4)]) -> Outputs {
        run_options(program, v, c, ExecOptions::default())
    }

    /// MAC `op` with A = v0 = `a`, B = c0 = `b`, C = r0 = `c`, written to oPos.
    fn mac_op(op: Op, a: Vec4, b: Vec4, c: Vec4) -> Vec4 {
        let program = [
            Build::mac(Op::Mov).read(A, Mux::Const, 1).to_temp(Unit::Mac, 0, XYZW),
            Build::mac(op)
                .read(A, Mux::Input, 0)
                .read(B, Mux::Const, 0)
                .read(C, Mux::Temp, 0)
                .to_output(Unit::Mac, OPOS, XYZW),
        ];
        run(&program, &[(0, a)], &[(0, b), (1, c)])[0]
    }

    /// ILU `op` with C = v0 = `s`, written to oPos.
    fn ilu_op(op: Op, s: Vec4) -> Vec4 {
        let program = [Build::ilu(op).read(C, Mux::Input, 0).to_output(Unit::Ilu, OPOS, XYZW)];
        run(&program, &[(0, s)], &[])[0]
    }

    fn bits(v: Vec4) -> [u32; 4] {
        v.map(f32::to_bits)
    }

    #[test]
    fn known_mov_to_opos_copies_v0() {
        let program = [Build::words([0x00000000, 0x0020001b, 0x0836106c, 0x2070f800])];
        let out = run(&program, &[(0, [1.0, 2.0, 3.0, 4.0])], &[]);
        assert_eq!(out[0], [1.0, 2.0, 3.0, 4.0]);
        assert!(out[1..].iter().all(|&o| o == ZERO));
    }

    #[test]
    fn known_paired_mul_and_mov_write_a_temp_and_od1() {
        let program = [
            Build::mac(Op::Mov).read(A, Mux::Input, 5).to_temp(Unit::Mac, 1, XYZW),
            Build::words([0x00000000, 0x0240081B, 0x1436186C, 0x2F20F824]),
            show_temp(2, OPOS),
        ];
        let out = run(
            &program,
            &[(4, [9.0, 8.0, 7.0, 6.0]), (5, [1.0, 2.0, 3.0, 4.0])],
            &[(0, [2.0; 4])],
        );
        assert_eq!(out[0], [2.0, 4.0, 6.0, 8.0]);
        assert_eq!(out[2], [9.0, 8.0, 7.0, 6.0]);
    }

    #[test]
    fn known_mov_with_rcp_writes_od0_and_r1_w() {
        let program = [
            Build::mac(Op::Mov).read(A, Mux::Input, 5).to_temp(Unit::Mac, 1, XYZW),
            Build::words([0x00000000, 0x0420061B, 0x083613FC, 0x5011F818]),
            show_temp(1, OPOS),
        ];
        let out = run(&program, &[(3, [5.0, 6.0, 7.0, 8.0]), (5, [1.0, 2.0, 3.0, 4.0])], &[]);
        assert_eq!(out[1], [5.0, 6.0, 7.0, 8.0]);
        assert_eq!(out[0], [1.0, 2.0, 3.0, 0.25]);
    }

    #[test]
    fn known_rcp_to_ofog_replicates_the_w_lane() {
        let program = [Build::words([0x00000000, 0x0400001B, 0x083613FC, 0x2070F82C])];
        let out = run(&program, &[(0, [1.0, 2.0, 3.0, 8.0])], &[]);
        assert_eq!(out[3], [0.125; 4]);
    }

    #[test]
    fn r12_reads_opos_from_before_the_instruction() {
        let program = [
            Build::words([0x00000000, 0x0020001b, 0x0836106c, 0x2070f800]),
            Build::words([0x00000000, 0x0060081B, 0xC436106C, 0x2E00E800]),
            show_temp(0, OD0),
        ];
        let out = run(
            &program,
            &[(0, [1.0, 2.0, 3.0, 4.0]), (4, [10.0, 20.0, 30.0, 40.0])],
            &[],
        );
        assert_eq!(out[0], [11.0, 22.0, 33.0, 4.0]);
        // Reading after the oPos write would have given 21, 42, 63.
        assert_eq!(out[1], [11.0, 22.0, 33.0, 0.0]);
    }

    /// `MOV R0, v1; ARL A0, R0.x; MUL R3, v6.x, c[A0+60]; MOV oPos, R3` with v1.x = `x`.
    fn relative_read(x: f32, options: ExecOptions) -> Vec4 {
        let program = [
            Build::mac(Op::Mov).read(A, Mux::Input, 1).to_temp(Unit::Mac, 0, XYZW),
            Build::words([0x00000000, 0x01A00000, 0x0436106C, 0x20700FF8]),
            Build::words([0x00000000, 0x00478C00, 0x0836186C, 0x2F300FFA]),
            show_temp(3, OPOS),
        ];
        let c = [
            (0, [5.0; 4]),
            (59, [4.0; 4]),
            (60, [10.0; 4]),
            (61, [7.0; 4]),
            (62, [1.0, 2.0, 3.0, 4.0]),
            (191, [2.0; 4]),
        ];
        run_options(
            &program,
            &[(1, [x, 0.0, 0.0, 0.0]), (6, [3.0, 9.0, 9.0, 9.0])],
            &c,
            options,
        )[0]
    }

    #[test]
    fn relative_constants_add_the_floor_of_a0() {
        let plain = ExecOptions::default();
        assert_eq!(relative_read(2.7, plain), [3.0, 6.0, 9.0, 12.0]);
        assert_eq!(relative_read(-0.5, plain), [12.0; 4]);
        assert_eq!(relative_read(-60.0, plain), [15.0; 4]);
        assert_eq!(relative_read(131.0, plain), [6.0; 4]);
    }

    #[test]
    fn relative_constants_outside_the_bank_read_zero() {
        let plain = ExecOptions::default();
        assert_eq!(relative_read(132.0, plain), ZERO);
        assert_eq!(relative_read(-61.0, plain), ZERO);
        // a0 saturates at i32::MAX and i32::MIN; adding CONST must not overflow.
        assert_eq!(relative_read(1e30, plain), ZERO);
        assert_eq!(relative_read(-1e30, plain), ZERO);
    }

    #[test]
    fn arl_floors_with_an_optional_bias_and_nan_gives_zero() {
        let plain = ExecOptions::default();
        let biased = ExecOptions { arl_bias: true };
        assert_eq!(relative_read(1.9995, plain), [21.0; 4]);
        assert_eq!(relative_read(1.9995, biased), [3.0, 6.0, 9.0, 12.0]);
        assert_eq!(relative_read(-0.0005, biased), [30.0; 4]);
        assert_eq!(relative_read(f32::NAN, plain), [30.0; 4]);
    }

    #[test]
    fn arl_sets_a0_for_later_instructions_only_and_writes_no_register() {
        // ARL A0, v0.x paired with an ILU MOV of c[A0+0]: the ILU reads the old a0.
        let program = [
            Build::mac(Op::Arl)
                .read(A, Mux::Input, 0)
                .and_ilu(Op::Mov)
                .read(C, Mux::Const, 0)
                .set(Field::A0x, 1)
                .to_output(Unit::Ilu, OPOS, XYZW),
            Build::ilu(Op::Mov)
                .read(C, Mux::Const, 0)
                .set(Field::A0x, 1)
                .to_output(Unit::Ilu, OD0, XYZW),
            // An ARL that asks for temp and o writes makes neither.
            Build::mac(Op::Arl)
                .read(A, Mux::Input, 0)
                .to_temp(Unit::Mac, 0, XYZW)
                .to_output(Unit::Mac, OD1, XYZW),
            show_temp(0, OFOG),
        ];
        let out = run(&program, &[(0, [1.0, 5.0, 5.0, 5.0])], &[(0, [7.0; 4]), (1, [8.0; 4])]);
        assert_eq!(out[0], [7.0; 4]);
        assert_eq!(out[1], [8.0; 4]);
        assert_eq!(out[2], ZERO);
        assert_eq!(out[3], ZERO);
    }

    /// `MOV R6, v0; MOV R2, v1; DP4 oPos.x, R6, c[96] + RSQ R10.x, R2.x; MOV oD0, R1; MOV oD1, R10`.
    fn dp4_with_rsq(middle: Build) -> Outputs {
        let program = [
            Build::mac(Op::Mov).read(A, Mux::Input, 0).to_temp(Unit::Mac, 6, XYZW),
            Build::mac(Op::Mov).read(A, Mux::Input, 1).to_temp(Unit::Mac, 2, XYZW),
            middle,
            show_temp(1, OD0),
            show_temp(10, OD1),
        ];
        run(
            &program,
            &[(0, [1.0, 2.0, 3.0, 4.0]), (1, [16.0, 1.0, 1.0, 1.0])],
            &[(96, [1.0; 4])],
        )
    }

    #[test]
    fn a_paired_ilu_writes_r1_whatever_out_temp_says() {
        let words = Build::words([0x00000000, 0x08EC001B, 0x64361800, 0x90188800]);
        let out = dp4_with_rsq(words);
        assert_eq!(out[0], [10.0, 0.0, 0.0, 0.0]);
        assert_eq!(out[1], [0.25, 0.0, 0.0, 0.0]);
        let out = dp4_with_rsq(words.set(Field::OutTemp, 10));
        assert_eq!(out[1], [0.25, 0.0, 0.0, 0.0]);
        assert_eq!(out[2], ZERO);
    }

    #[test]
    fn an_unpaired_ilu_writes_out_temp_and_a_nop_unit_feeds_no_output() {
        let words = Build::words([0x00000000, 0x08EC001B, 0x64361800, 0x90188800]);
        // Without the DP4, the RSQ writes R10, and the o-write the MAC would have fed is gone.
        let out = dp4_with_rsq(words.set(Field::Mac, 0).set(Field::OutTemp, 10));
        assert_eq!(out[0], ZERO);
        assert_eq!(out[1], ZERO);
        assert_eq!(out[2], [0.25, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn known_dph_writes_a_constant_and_is_listed() {
        let program = load(&[Build::words([0x00000000, 0x00C1481B, 0x0836186C, 0x2070C078])]);
        assert_eq!(program.written_constants(), vec![15]);
        let mut c = constants(&[(10, [5.0, 6.0, 7.0, 8.0]), (15, [9.0; 4])]);
        let out = program.run(&inputs(&[(4, [1.0, 2.0, 3.0, 4.0])]), &mut c, ExecOptions::default());
        assert_eq!(c[15], [46.0, 46.0, 9.0, 9.0]);
        assert!(out.iter().all(|&o| o == ZERO));
    }

    #[test]
    fn constant_writes_persist_for_later_instructions_and_vertices() {
        let program = load(&[
            Build::mac(Op::Add)
                .read(A, Mux::Const, 5)
                .read(C, Mux::Input, 0)
                .to_constant(Unit::Mac, 5, XYZW),
            Build::ilu(Op::Mov)
                .read(C, Mux::Const, 5)
                .to_constant(Unit::Ilu, 7, 0x8)
                .to_temp(Unit::Ilu, 0, XYZW),
            show_temp(0, OPOS),
        ]);
        assert_eq!(program.written_constants(), vec![5, 7]);
        let v = inputs(&[(0, [1.0, 2.0, 3.0, 4.0])]);
        let mut c = constants(&[]);
        for vertex in 1..=3 {
            let k = vertex as f32;
            let out = program.run(&v, &mut c, ExecOptions::default());
            assert_eq!(out[0], [k, 2.0 * k, 3.0 * k, 4.0 * k]);
        }
        assert_eq!(c[5], [3.0, 6.0, 9.0, 12.0]);
        assert_eq!(c[7], [3.0, 0.0, 0.0, 0.0]);
    }

    /// MOV on either unit (the ILU's reads slot C) copies the whole vector, swizzled and then
    /// negated.
    #[test]
    fn mov_swizzles_then_negates_the_whole_vector_on_both_units() {
        for (build, unit, input) in [
            (Build::mac as fn(Op) -> Build, Unit::Mac, A),
            (Build::ilu, Unit::Ilu, C),
        ] {
            let program = [build(Op::Mov)
                .read(input, Mux::Input, 0)
                .swizzle(input, [3, 3, 0, 1])
                .negate(input)
                .to_output(unit, OPOS, XYZW)];
            assert_eq!(
                run(&program, &[(0, [1.0, 2.0, 3.0, 4.0])], &[])[0],
                [-4.0, -4.0, -1.0, -2.0],
                "{unit:?}"
            );
        }
    }

    #[test]
    fn masks_pick_lanes_x8_y4_z2_w1() {
        let v = [(0, [1.0, 2.0, 3.0, 4.0]), (1, [5.0, 6.0, 7.0, 8.0])];
        let program = [
            Build::mac(Op::Mov)
                .read(A, Mux::Input, 0)
                .to_output(Unit::Mac, OPOS, 0xA),
            // One MAC result into a temp and an output, with different masks.
            Build::mac(Op::Mov)
                .read(A, Mux::Input, 0)
                .to_temp(Unit::Mac, 3, 0x4)
                .to_output(Unit::Mac, OD0, 0x1),
            show_temp(3, OD1),
            Build::ilu(Op::Mov).read(C, Mux::Input, 0).to_temp(Unit::Ilu, 4, 0x3),
            show_temp(4, OFOG),
        ];
        let out = run(&program, &v, &[]);
        assert_eq!(out[0], [1.0, 0.0, 3.0, 0.0]);
        assert_eq!(out[1], [0.0, 0.0, 0.0, 4.0]);
        assert_eq!(out[2], [0.0, 2.0, 0.0, 0.0]);
        assert_eq!(out[3], [0.0, 0.0, 3.0, 4.0]);
    }

    #[test]
    fn the_ilu_writes_after_the_mac() {
        // MOV R1, v0 + MOV R1.x, c[0]: both land in r1, the ILU's lane last.
        let program = [
            Build::mac(Op::Mov)
                .read(A, Mux::Input, 0)
                .to_temp(Unit::Mac, 1, XYZW)
                .and_ilu(Op::Mov)
                .read(C, Mux::Const, 0)
                .set(Field::IluMask, 0x8),
            show_temp(1, OPOS),
        ];
        let out = run(&program, &[(0, [1.0, 2.0, 3.0, 4.0])], &[(0, [9.0; 4])]);
        assert_eq!(out[0], [9.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn mux_zero_and_temps_13_to_15_read_zero() {
        let v = [(0, [1.0, 2.0, 3.0, 4.0])];
        let fill = |address| {
            Build::mac(Op::Mov)
                .read(A, Mux::Input, 0)
                .to_output(Unit::Mac, address, XYZW)
        };
        let mut program = vec![
            fill(OPOS),
            Build::mac(Op::Mov).set(Field::AMux, 0).to_output(Unit::Mac, OPOS, XYZW),
        ];
        for (temp, address) in [(13, OD0), (14, OD1), (15, OFOG)] {
            program.push(fill(address));
            program.push(show_temp(temp, address));
        }
        let out = run(&program, &v, &[]);
        assert_eq!(out[..4], [ZERO; 4]);
    }

    #[test]
    fn writes_to_r12_up_unknown_outputs_and_high_constants_are_dropped() {
        let mov = || Build::mac(Op::Mov).read(A, Mux::Input, 0);
        let program = load(&[
            mov().to_temp(Unit::Mac, 12, XYZW),
            mov().to_temp(Unit::Mac, 15, XYZW),
            mov().to_output(Unit::Mac, 1, XYZW),
            mov().to_output(Unit::Mac, 2, XYZW),
            mov().to_output(Unit::Mac, 0xFF, XYZW),
            mov().to_constant(Unit::Mac, 192, XYZW),
            mov().to_constant(Unit::Mac, 255, XYZW),
        ]);
        assert!(program.written_constants().is_empty());
        let mut c = constants(&[]);
        let out = program.run(&inputs(&[(0, [1.0; 4])]), &mut c, ExecOptions::default());
        assert!(out.iter().all(|&o| o == ZERO));
        assert!(c.iter().all(|&k| k == ZERO));
    }

    #[test]
    fn o_writes_use_the_low_four_address_bits() {
        let program = [Build::mac(Op::Mov)
            .read(A, Mux::Input, 0)
            .to_output(Unit::Mac, 0x13, XYZW)];
        assert_eq!(run(&program, &[(0, [1.0; 4])], &[])[1], [1.0; 4]);
    }

    #[test]
    fn final_stops_the_program_and_hides_what_follows() {
        let mov = |address| {
            Build::mac(Op::Mov)
                .read(A, Mux::Input, 0)
                .to_output(Unit::Mac, address, XYZW)
        };
        let program = [mov(OPOS).last(), mov(OD0), Build::mac(Op::Mov).set(Field::Mac, 14)];
        let loaded = load(&program);
        assert_eq!(loaded.len(), 1);
        let out = loaded.run(&inputs(&[(0, [1.0; 4])]), &mut constants(&[]), ExecOptions::default());
        assert_eq!(out[0], [1.0; 4]);
        assert_eq!(out[1], ZERO);
        // Without FINAL every instruction runs.
        assert_eq!(load(&[mov(OPOS), mov(OD0)]).len(), 2);
    }

    #[test]
    fn nop_instructions_do_nothing_and_count_in_len() {
        let nop = Build::words(Slot::BLANK.0)
            .to_output(Unit::Mac, OPOS, XYZW)
            .to_temp(Unit::Mac, 0, XYZW);
        let program = load(&[nop, show_temp(0, OD0), Build::words(Slot::FINAL_NOP.0)]);
        assert_eq!(program.len(), 3);
        assert!(!program.is_empty());
        let out = program.run(&inputs(&[(0, [1.0; 4])]), &mut constants(&[]), ExecOptions::default());
        assert!(out.iter().all(|&o| o == ZERO));
        let empty = Program::new(&[]).expect("no words is an empty program");
        assert!(empty.is_empty());
        assert_eq!(empty.len(), 0);
    }

    #[test]
    fn loading_rejects_partial_long_and_undefined_programs() {
        assert_eq!(
            Program::new(&[0; 5]).err(),
            Some(ProgramError::NotWholeInstructions { words: 5 })
        );
        assert_eq!(
            Program::new(&[0; 4 * 137]).err(),
            Some(ProgramError::TooLong { instructions: 137 })
        );
        assert_eq!(Program::new(&[0; 4 * 136]).map(|p| p.len()), Ok(136));
        let mov = Build::mac(Op::Mov)
            .read(A, Mux::Input, 0)
            .to_output(Unit::Mac, OPOS, XYZW);
        let bad = Build::mac(Op::Mov).set(Field::Mac, 15);
        assert_eq!(
            Program::new(&words(&[mov, mov, bad])).err(),
            Some(ProgramError::UndefinedMacOpcode {
                instruction: 2,
                code: 15
            })
        );
    }

    #[test]
    fn errors_read_as_one_lower_case_sentence() {
        let errors = [
            ProgramError::NotWholeInstructions { words: 5 },
            ProgramError::TooLong { instructions: 137 },
            ProgramError::UndefinedMacOpcode {
                instruction: 2,
                code: 14,
            },
        ];
        for error in &errors {
            let text = error.to_string();
            assert!(text.starts_with(|c: char| c.is_ascii_lowercase()), "{text}");
            assert!(!text.ends_with('.'), "{text}");
        }
        assert_eq!(
            errors[2].to_string(),
            "instruction 2 uses MAC opcode 14, which is undefined"
        );
    }

    #[test]
    fn mov_add_mad_and_dst_compute_per_lane() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        let c = [0.5, -1.0, 10.0, 100.0];
        assert_eq!(mac_op(Op::Mov, a, b, c), a);
        assert_eq!(mac_op(Op::Mul, a, b, c), [5.0, 12.0, 21.0, 32.0]);
        // ADD's second operand sits in slot C.
        assert_eq!(mac_op(Op::Add, a, b, c), [1.5, 1.0, 13.0, 104.0]);
        assert_eq!(mac_op(Op::Mad, a, b, c), [5.5, 11.0, 31.0, 132.0]);
        assert_eq!(
            mac_op(Op::Dst, [9.0, 2.0, 3.0, 9.0], [9.0, 5.0, 9.0, 7.0], c),
            [1.0, 10.0, 3.0, 7.0]
        );
    }

    #[test]
    fn products_that_overflow_from_finite_inputs_saturate() {
        let big = [f32::MAX, -f32::MAX, f32::INFINITY, 0.0];
        let two = [2.0, 2.0, 2.0, f32::INFINITY];
        let out = mac_op(Op::Mul, big, two, ZERO);
        assert_eq!(out[..3], [f32::MAX, -f32::MAX, f32::INFINITY]);
        assert!(out[3].is_nan());
        // MAD adds to the saturated product.
        let out = mac_op(Op::Mad, [f32::MAX; 4], [2.0; 4], [-f32::MAX; 4]);
        assert_eq!(out, ZERO);
    }

    #[test]
    fn dot_products_sum_replicate_and_saturate() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        assert_eq!(mac_op(Op::Dp3, a, b, ZERO), [38.0; 4]);
        assert_eq!(mac_op(Op::Dp4, a, b, ZERO), [70.0; 4]);
        assert_eq!(mac_op(Op::Dph, a, b, ZERO), [46.0; 4]);
        let big = [f32::MAX, f32::MAX, 0.0, 0.0];
        assert_eq!(mac_op(Op::Dp4, big, [1.0; 4], ZERO), [f32::MAX; 4]);
        assert_eq!(mac_op(Op::Dp3, big, [-1.0; 4], ZERO), [-f32::MAX; 4]);
        assert_eq!(
            mac_op(Op::Dph, [0.0; 4], [0.0, 0.0, 0.0, f32::INFINITY], ZERO),
            [f32::MAX; 4]
        );
        // An infinite input's product stays infinite, and the sum is clamped.
        assert_eq!(
            mac_op(Op::Dp4, [f32::INFINITY, 0.0, 0.0, 0.0], [1.0; 4], ZERO),
            [f32::MAX; 4]
        );
    }

    #[test]
    fn min_and_max_return_b_when_the_comparison_fails() {
        let a = [f32::NAN, 1.0, 1.0, 2.0];
        let b = [1.0, f32::NAN, 2.0, 1.0];
        let min = mac_op(Op::Min, a, b, ZERO);
        assert_eq!((min[0], min[2], min[3]), (1.0, 1.0, 1.0));
        assert!(min[1].is_nan());
        let max = mac_op(Op::Max, a, b, ZERO);
        assert_eq!((max[0], max[2], max[3]), (1.0, 2.0, 2.0));
        assert!(max[1].is_nan());
    }

    #[test]
    fn slt_counts_negative_zero_below_positive_zero() {
        let a = [-0.0, 0.0, 1.0, f32::NAN];
        let b = [0.0, -0.0, 2.0, 1.0];
        assert_eq!(mac_op(Op::Slt, a, b, ZERO), [1.0, 0.0, 1.0, 0.0]);
        assert_eq!(mac_op(Op::Sge, a, b, ZERO), [0.0, 1.0, 0.0, 1.0]);
        let a = [2.0, 0.0, -0.0, -1.0];
        let b = [1.0, 0.0, -0.0, -1.0];
        assert_eq!(mac_op(Op::Slt, a, b, ZERO), ZERO);
        assert_eq!(mac_op(Op::Sge, a, b, ZERO), [1.0; 4]);
    }

    #[test]
    fn scalar_ilu_ops_read_lane_x_of_the_swizzled_input() {
        assert_eq!(ilu_op(Op::Rcp, [4.0, 8.0, 16.0, 32.0]), [0.25; 4]);
        let program = [Build::ilu(Op::Rcp)
            .read(C, Mux::Input, 0)
            .swizzle(C, [3, 2, 1, 0])
            .to_output(Unit::Ilu, OPOS, XYZW)];
        assert_eq!(run(&program, &[(0, [1.0, 2.0, 3.0, 4.0])], &[])[0], [0.25; 4]);
    }

    #[test]
    fn rcp_keeps_the_sign_of_zero() {
        assert_eq!(ilu_op(Op::Rcp, [1.0; 4]), [1.0; 4]);
        assert_eq!(ilu_op(Op::Rcp, [-0.0; 4]), [f32::NEG_INFINITY; 4]);
        assert_eq!(ilu_op(Op::Rcp, [0.0; 4]), [f32::INFINITY; 4]);
    }

    #[test]
    fn rcc_clamps_away_from_zero_and_infinity_on_both_sides() {
        let rcc = |x: f32| bits(ilu_op(Op::Rcc, [x; 4]))[0];
        assert_eq!(rcc(2.0), 0.5f32.to_bits());
        assert_eq!(rcc(2f32.powi(-64)), 0x5F80_0000);
        assert_eq!(rcc(0.0), 0x5F80_0000);
        assert_eq!(rcc(-0.0), 0xDF80_0000);
        assert_eq!(rcc(2f32.powi(70)), 0x1F80_0000);
        assert_eq!(rcc(-(2f32.powi(70))), 0x9F80_0000);
        assert_eq!(rcc(2f32.powi(-70)), 0x5F80_0000);
        assert_eq!(rcc(-(2f32.powi(-70))), 0xDF80_0000);
        assert_eq!(rcc(f32::INFINITY), 0x1F80_0000);
        assert_eq!(rcc(f32::NEG_INFINITY), 0x1F80_0000);
        assert!(f32::from_bits(rcc(f32::NAN)).is_nan());
    }

    #[test]
    fn rsq_uses_the_magnitude() {
        assert_eq!(ilu_op(Op::Rsq, [4.0; 4]), [0.5; 4]);
        assert_eq!(ilu_op(Op::Rsq, [-4.0; 4]), [0.5; 4]);
        assert_eq!(ilu_op(Op::Rsq, [1.0; 4]), [1.0; 4]);
        assert_eq!(ilu_op(Op::Rsq, [0.0; 4]), [f32::INFINITY; 4]);
        assert_eq!(ilu_op(Op::Rsq, [-0.0; 4]), [f32::INFINITY; 4]);
        assert_eq!(ilu_op(Op::Rsq, [f32::INFINITY; 4]), ZERO);
    }

    #[test]
    fn expp_splits_the_power() {
        let out = ilu_op(Op::Expp, [2.5, 9.0, 9.0, 9.0]);
        assert_eq!(out, [4.0, 0.5, 2.5f32.exp2(), 1.0]);
        assert!((out[2] - 5.656_854).abs() < 1e-5);
        assert_eq!(ilu_op(Op::Expp, [-1.5; 4]), [0.25, 0.5, (-1.5f32).exp2(), 1.0]);
        assert_eq!(ilu_op(Op::Expp, [3.0; 4]), [8.0, 0.0, 8.0, 1.0]);
    }

    #[test]
    fn logp_gives_exponent_mantissa_and_log() {
        let out = ilu_op(Op::Logp, [10.0; 4]);
        assert_eq!(out, [3.0, 1.25, 10f32.log2(), 1.0]);
        assert!((out[2] - std::f32::consts::LOG2_10).abs() < 1e-6);
        assert_eq!(ilu_op(Op::Logp, [-10.0; 4]), out);
        assert_eq!(ilu_op(Op::Logp, [0.75; 4]), [-1.0, 1.5, 0.75f32.log2(), 1.0]);
        assert_eq!(ilu_op(Op::Logp, [1.0; 4]), [0.0, 1.0, 0.0, 1.0]);
    }

    #[test]
    fn logp_handles_zero_infinity_nan_and_subnormals() {
        let neg_inf = f32::NEG_INFINITY;
        assert_eq!(ilu_op(Op::Logp, [0.0; 4]), [neg_inf, 1.0, neg_inf, 1.0]);
        assert_eq!(ilu_op(Op::Logp, [-0.0; 4]), [neg_inf, 1.0, neg_inf, 1.0]);
        assert_eq!(
            ilu_op(Op::Logp, [f32::INFINITY; 4]),
            [f32::INFINITY, 1.0, f32::INFINITY, 1.0]
        );
        assert_eq!(
            ilu_op(Op::Logp, [f32::NEG_INFINITY; 4]),
            [f32::INFINITY, 1.0, f32::INFINITY, 1.0]
        );
        let nan = ilu_op(Op::Logp, [f32::NAN; 4]);
        assert!(nan[..3].iter().all(|x| x.is_nan()) && nan[3] == 1.0);
        let smallest = f32::from_bits(1);
        assert_eq!(ilu_op(Op::Logp, [smallest; 4]), [-149.0, 1.0, -149.0, 1.0]);
        let three = f32::from_bits(3);
        assert_eq!(ilu_op(Op::Logp, [three; 4]), [-148.0, 1.5, three.log2(), 1.0]);
        let largest = f32::from_bits(0x007F_FFFF);
        let out = ilu_op(Op::Logp, [-largest; 4]);
        assert_eq!(out[..2], [-127.0, f32::from_bits(0x3FFF_FFFE)]);
    }

    #[test]
    fn lit_takes_its_branches_and_clamps_the_power() {
        assert_eq!(ilu_op(Op::Lit, [2.0, 0.5, 9.0, 2.0]), [1.0, 2.0, 0.25, 1.0]);
        assert_eq!(ilu_op(Op::Lit, [3.0, 4.0, 9.0, 0.5]), [1.0, 3.0, 2.0, 1.0]);
        assert_eq!(ilu_op(Op::Lit, [-1.0, 0.5, 9.0, 2.0]), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(ilu_op(Op::Lit, [0.0, 0.5, 9.0, 2.0]), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(ilu_op(Op::Lit, [2.0, -0.5, 9.0, 2.0]), [1.0, 2.0, 0.0, 1.0]);
        assert_eq!(ilu_op(Op::Lit, [2.0, 0.0, 9.0, 2.0]), [1.0, 2.0, 0.0, 1.0]);
        let high = ilu_op(Op::Lit, [3.0, 2.0, 0.0, 1000.0])[2];
        assert_eq!(high, 2f32.powf(LIT_POWER_LIMIT));
        assert!(high.is_finite());
        let low = ilu_op(Op::Lit, [3.0, 2.0, 0.0, -1000.0])[2];
        assert_eq!(low, 2f32.powf(-LIT_POWER_LIMIT));
        assert!(low > 0.0);
    }

    #[test]
    fn outputs_follow_the_output_table() {
        assert_eq!(OUTPUTS.len(), OUTPUT_COUNT);
        assert_eq!(output_index(OPOS_ADDRESS), Some(0));
        for (position, output) in OUTPUTS.iter().enumerate() {
            let program =
                [Build::mac(Op::Mov)
                    .read(A, Mux::Input, 0)
                    .to_output(Unit::Mac, output.address.into(), XYZW)];
            let out = run(&program, &[(0, [1.0; 4])], &[]);
            for (i, o) in out.iter().enumerate() {
                assert_eq!(*o, if i == position { [1.0; 4] } else { ZERO }, "{}", output.long);
            }
        }
    }

    #[test]
    fn random_words_never_panic() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut ran = 0;
        for _ in 0..4000 {
            let instructions = (next() % 140) as usize;
            let mut words = Vec::with_capacity(instructions * 4 + 3);
            for _ in 0..instructions {
                let mut slot = Slot([next() as u32, next() as u32, next() as u32, next() as u32]);
                // Mostly clear FINAL and the undefined MAC opcodes, so that long programs load and run.
                if next() % 8 != 0 {
                    slot.set(Field::Final, 0);
                }
                if slot.get(Field::Mac) >= 14 && next() % 8 != 0 {
                    slot.set(Field::Mac, slot.get(Field::Mac) & 7);
                }
                words.extend(slot.0);
            }
            if next() % 16 == 0 {
                words.extend((0..next() % 4).map(|_| next() as u32));
            }
            // Half the values are small, so that ARL lands inside the constants now and then.
            let mut value = || {
                if next() % 2 == 0 {
                    f32::from_bits(next() as u32)
                } else {
                    (next() % 4000) as f32 / 10.0 - 200.0
                }
            };
            let v: [Vec4; 16] = std::array::from_fn(|_| std::array::from_fn(|_| value()));
            let mut c: [Vec4; 192] = std::array::from_fn(|_| std::array::from_fn(|_| value()));
            match Program::new(&words) {
                Ok(program) => {
                    assert!(program.len() <= instructions);
                    assert!(program.written_constants().iter().all(|&i| i < 192));
                    for arl_bias in [false, true] {
                        program.run(&v, &mut c, ExecOptions { arl_bias });
                    }
                    ran += 1;
                }
                Err(error) => assert!(!error.to_string().is_empty()),
            }
        }
        assert!(ran > 1000, "only {ran} random programs loaded");
    }
}
