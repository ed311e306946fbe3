//! The fast CPU renderer: the same picture as [`exec::render_naive`](crate::exec::render_naive),
//! byte for byte, many times faster.
//!
//! A program is decoded once per frame into a [`Plan`]:
//!
//! - every register component is a *slot*; `move`, `getComponentN` and `setComponentN` only
//!   rename values, so they cost nothing at run time;
//! - each value is a constant (loads, `t`, `s`, the zeros), *uniform* (the same for a whole row:
//!   it depends on `pc.y` and constants only) or *varying* (it depends on `pc.x`); arithmetic on
//!   constants is done once, with the same f32 operations, and uniform arithmetic once per row;
//! - varying values the colour never depends on are dropped, and the rest get lane buffers
//!   (`[f32; BLOCK]`, one per live value, reused once a value is dead).
//!
//! - v2's component indexes and memory addresses are known when decoding in the programs
//!   people write (a `load`ed number or `z`), so `getComponent`, `setComponent`,
//!   `readMemory` and `writeMemory` rename too, memory cells being slots like components.
//!   A program whose index is not known until a pixel runs it is run instruction by
//!   instruction for every pixel by [`exec::run`](crate::exec::run) instead, rows still
//!   spread over all cores.
//!
//! A row is then rendered block after block of [`BLOCK`] pixels: each varying instruction runs
//! over the whole block in a loop the compiler vectorises, and the colour is converted to bytes
//! and written to its row (rows from the top) in the same pass. Rows are spread over all cores.
//!
//! Every result is the result of the same IEEE f32 operation on the same operands as in
//! [`exec::run`](crate::exec::run) (Rust never fuses or reorders float arithmetic), so the
//! pictures are equal for every program, including those that make infinities and NaNs.

use std::fmt;

use polyasm_core::picture;
use rayon::prelude::*;

use crate::exec::{Alpha, Frame, Image};
use crate::ops::{COLOR, COMPONENTS, Instr, MEMORY_CELLS, Op, Operand, PC, REGISTERS, SIZE, TIME, pick};

pub use polyasm_core::picture::{MAX_PIXELS, MAX_SIDE};
/// Pixels of a row rendered together: lane buffers of 1 KiB, so a block's live values stay in
/// the first-level cache.
pub const BLOCK: usize = 256;

/// Why a picture cannot be rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// A side is 0 or above [`MAX_SIDE`], or the picture has more than [`MAX_PIXELS`] pixels.
    Size {
        /// The width asked for, in pixels.
        width: u32,
        /// The height asked for, in pixels.
        height: u32,
    },
    /// Instruction `index` names register `value`, which does not exist.
    Register {
        /// The instruction's index in the program, from 0.
        index: usize,
        /// The register's number, [`crate::ops::REGISTERS`] or more.
        value: u8,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RenderError::Size { width, height } => f.write_str(&picture::size_error(width, height)),
            RenderError::Register { index, value } => write!(
                f,
                "instruction {index} names register {value}, and there are only {REGISTERS}"
            ),
        }
    }
}

impl std::error::Error for RenderError {}

/// Checks a picture size against [`MAX_SIDE`] and [`MAX_PIXELS`].
pub fn check_size(width: u32, height: u32) -> Result<(), RenderError> {
    picture::check_size(width, height).map_err(|_| RenderError::Size { width, height })
}

/// Renders `program` for every pixel of `frame`: the same bytes as
/// [`exec::render_naive`](crate::exec::render_naive), on all cores.
///
/// ```
/// use polyasm_shader::exec::{Alpha, Frame};
/// use polyasm_shader::ops::{Instr, Op, Reg, COLOR};
/// use polyasm_shader::render::render;
///
/// // c.y = 1: green everywhere.
/// let program = [
///     Instr { op: Op::Load, regs: [Reg(0), Reg(0), Reg(0)], constant: 1.0 },
///     Instr { op: Op::SetComponent1, regs: [COLOR, Reg(0), Reg(0)], constant: 0.0 },
/// ];
/// let frame = Frame { width: 3, height: 2, time: 0.0 };
/// let image = render(&program, &frame, Alpha::Opaque).expect("a small picture");
/// assert_eq!(image.pixel_from_bottom(2, 1), [0, 255, 0, 255]);
/// ```
pub fn render(program: &[Instr], frame: &Frame, alpha: Alpha) -> Result<Image, RenderError> {
    let mut image = Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    };
    render_into(program, frame, alpha, &mut image)?;
    Ok(image)
}

/// Renders into `image`, reusing its buffer: for animations, one allocation for every frame.
/// On an error `image` is left as it was.
pub fn render_into(program: &[Instr], frame: &Frame, alpha: Alpha, image: &mut Image) -> Result<(), RenderError> {
    check_size(frame.width, frame.height)?;
    let plan = Plan::new(program, frame, alpha)?;
    let width = frame.width as usize;
    let height = frame.height as usize;
    let row_bytes = width * 4;
    image.width = frame.width;
    image.height = frame.height;
    image.rgba.resize(row_bytes * height, 0);
    image.rgba.par_chunks_mut(row_bytes).enumerate().for_each_init(
        || Scratch::new(&plan),
        |scratch, (row, out)| {
            // Rows are stored from the top; `pc.y` counts from the bottom.
            let y = (height - 1 - row) as u32;
            plan.render_row(y, out, scratch);
        },
    );
    Ok(())
}

/// One block of lanes: a varying value for [`BLOCK`] pixels.
type Lanes = [f32; BLOCK];

/// The arithmetic that is left after decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arith {
    Add,
    Multiply,
    Negate,
    Reciprocal,
    Sign,
}

impl Arith {
    fn is_unary(self) -> bool {
        matches!(self, Arith::Negate | Arith::Reciprocal | Arith::Sign)
    }

    fn unary(self, a: f32) -> f32 {
        match self {
            Arith::Negate => -a,
            Arith::Reciprocal => 1.0 / a,
            Arith::Sign => crate::ops::sign(a),
            Arith::Add | Arith::Multiply => unreachable!("add and multiply take two operands"),
        }
    }

    fn binary(self, a: f32, b: f32) -> f32 {
        match self {
            Arith::Add => a + b,
            Arith::Multiply => a * b,
            Arith::Negate | Arith::Reciprocal | Arith::Sign => unreachable!("negate, reciprocal and sign take one"),
        }
    }
}

/// A value while decoding: known now, the same along a row, or different in every pixel.
/// Uniform and varying values are numbered once each (single assignment).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Const(f32),
    Uniform(u32),
    Varying(u32),
}

/// An instruction on uniform values: `dst = a op b` (`b` unused by the unary ops).
#[derive(Clone, Copy, Debug)]
struct UniformOp {
    arith: Arith,
    dst: u32,
    a: u32,
    b: u32,
}

/// The second operand of a varying instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Second {
    None,
    Varying(u32),
    Uniform(u32),
}

/// An instruction on varying values while decoding: `dst = a op b`.
#[derive(Clone, Copy, Debug)]
struct VaryingOp {
    arith: Arith,
    dst: u32,
    a: u32,
    b: Second,
}

/// A varying instruction as it runs: indices of lane buffers (the destination never one of
/// the operands) and of uniform values.
#[derive(Clone, Copy, Debug)]
enum Step {
    AddLanes { dst: u32, a: u32, b: u32 },
    AddUniform { dst: u32, a: u32, b: u32 },
    MultiplyLanes { dst: u32, a: u32, b: u32 },
    MultiplyUniform { dst: u32, a: u32, b: u32 },
    Negate { dst: u32, a: u32 },
    Reciprocal { dst: u32, a: u32 },
    Sign { dst: u32, a: u32 },
}

/// Where one colour channel comes from when the program has run.
#[derive(Clone, Copy, Debug)]
enum Channel {
    /// A number known when decoding.
    Const(f32),
    /// A uniform value.
    Uniform(u32),
    /// A lane buffer.
    Lanes(u32),
}

/// The uniform value that holds `pc.y`.
const PC_Y: u32 = 0;
/// The varying value that holds `pc.x`.
const PC_X: u32 = 0;

/// A program decoded for one frame.
#[derive(Debug)]
pub struct Plan {
    width: u32,
    /// Every uniform value's start: constants in place, `pc.y` and results filled per row.
    uniforms: Vec<f32>,
    uniform_ops: Vec<UniformOp>,
    steps: Vec<Step>,
    /// Lane buffers the steps use.
    buffers: usize,
    /// The lane buffer `pc.x` is written to before each block, if the colour reads it.
    pc_x: Option<u32>,
    channels: [Channel; 4],
    /// A program with an index known only per pixel, run by [`exec::run`](crate::exec::run)
    /// for every pixel instead of the steps.
    per_pixel: Option<Vec<Instr>>,
    frame: Frame,
    alpha: Alpha,
}

/// Slots of the register components, then of the memory cells.
const SLOTS: usize = REGISTERS as usize * COMPONENTS + MEMORY_CELLS;
/// The first memory cell's slot.
const FIRST_CELL: usize = REGISTERS as usize * COMPONENTS;

/// A component index or memory address whose value is known only when a pixel runs.
struct IndexNotKnown;

/// Decoding state: the value in every register component and memory cell.
struct Decoder {
    slots: [Value; SLOTS],
    uniforms: Vec<f32>,
    uniform_ops: Vec<UniformOp>,
    varying_ops: Vec<VaryingOp>,
    varyings: u32,
}

impl Decoder {
    fn new(frame: &Frame) -> Decoder {
        let mut slots = [Value::Const(0.0); SLOTS];
        let slot = |reg: crate::ops::Reg, lane: usize| reg.0 as usize * 4 + lane;
        slots[slot(PC, 0)] = Value::Varying(PC_X);
        slots[slot(PC, 1)] = Value::Uniform(PC_Y);
        slots[slot(TIME, 0)] = Value::Const(frame.time);
        slots[slot(SIZE, 0)] = Value::Const(frame.width as f32);
        slots[slot(SIZE, 1)] = Value::Const(frame.height as f32);
        Decoder {
            slots,
            uniforms: vec![0.0],
            uniform_ops: Vec::new(),
            varying_ops: Vec::new(),
            varyings: 1,
        }
    }

    /// A uniform value holding `value`: a new one for a constant.
    fn uniform(&mut self, value: Value) -> u32 {
        match value {
            Value::Uniform(u) => u,
            Value::Const(c) => self.new_uniform(c),
            Value::Varying(_) => unreachable!("only constants and uniforms are uniform"),
        }
    }

    fn new_uniform(&mut self, start: f32) -> u32 {
        self.uniforms.push(start);
        (self.uniforms.len() - 1) as u32
    }

    fn new_varying(&mut self) -> u32 {
        self.varyings += 1;
        self.varyings - 1
    }

    fn unary(&mut self, arith: Arith, a: Value) -> Value {
        match a {
            Value::Const(a) => Value::Const(arith.unary(a)),
            Value::Uniform(a) => {
                let dst = self.new_uniform(0.0);
                self.uniform_ops.push(UniformOp { arith, dst, a, b: 0 });
                Value::Uniform(dst)
            }
            Value::Varying(a) => {
                let dst = self.new_varying();
                self.varying_ops.push(VaryingOp {
                    arith,
                    dst,
                    a,
                    b: Second::None,
                });
                Value::Varying(dst)
            }
        }
    }

    fn binary(&mut self, arith: Arith, a: Value, b: Value) -> Value {
        match (a, b) {
            (Value::Const(a), Value::Const(b)) => Value::Const(arith.binary(a, b)),
            (Value::Varying(a), Value::Varying(b)) => {
                let dst = self.new_varying();
                self.varying_ops.push(VaryingOp {
                    arith,
                    dst,
                    a,
                    b: Second::Varying(b),
                });
                Value::Varying(dst)
            }
            // Add and multiply are commutative in IEEE arithmetic (a NaN's payload aside, which
            // no output shows), so the varying operand goes first.
            (Value::Varying(v), other) | (other, Value::Varying(v)) => {
                let u = self.uniform(other);
                let dst = self.new_varying();
                self.varying_ops.push(VaryingOp {
                    arith,
                    dst,
                    a: v,
                    b: Second::Uniform(u),
                });
                Value::Varying(dst)
            }
            (a, b) => {
                let a = self.uniform(a);
                let b = self.uniform(b);
                let dst = self.new_uniform(0.0);
                self.uniform_ops.push(UniformOp { arith, dst, a, b });
                Value::Uniform(dst)
            }
        }
    }

    /// The component (`len` 4) or memory cell (`len` 64) that operand `i` picks: `None`
    /// when it picks none.
    fn pick(&self, instr: &Instr, i: usize, len: usize) -> Result<Option<usize>, IndexNotKnown> {
        match self.slots[instr.regs[i].0 as usize * COMPONENTS] {
            Value::Const(value) => Ok(pick(value, len)),
            Value::Uniform(_) | Value::Varying(_) => Err(IndexNotKnown),
        }
    }

    fn instruction(&mut self, instr: &Instr) -> Result<(), IndexNotKnown> {
        let slot = |i: usize, lane: usize| instr.regs[i].0 as usize * COMPONENTS + lane;
        let get = |d: &Decoder, i: usize| d.slots[slot(i, 0)];
        match instr.op {
            Op::GetComponent => {
                let value = match self.pick(instr, 2, COMPONENTS)? {
                    Some(lane) => self.slots[slot(0, lane)],
                    None => Value::Const(0.0),
                };
                self.slots[slot(1, 0)] = value;
            }
            Op::SetComponent => {
                if let Some(lane) = self.pick(instr, 2, COMPONENTS)? {
                    self.slots[slot(0, lane)] = get(self, 1);
                }
            }
            Op::Sign => {
                let value = self.unary(Arith::Sign, get(self, 0));
                self.slots[slot(1, 0)] = value;
            }
            Op::ReadMemory => {
                let value = match self.pick(instr, 1, MEMORY_CELLS)? {
                    Some(cell) => self.slots[FIRST_CELL + cell],
                    None => Value::Const(0.0),
                };
                self.slots[slot(0, 0)] = value;
            }
            Op::WriteMemory => {
                if let Some(cell) = self.pick(instr, 1, MEMORY_CELLS)? {
                    self.slots[FIRST_CELL + cell] = get(self, 0);
                }
            }
            Op::Add | Op::Multiply => {
                let arith = if instr.op == Op::Add {
                    Arith::Add
                } else {
                    Arith::Multiply
                };
                let value = self.binary(arith, get(self, 0), get(self, 1));
                self.slots[slot(2, 0)] = value;
            }
            Op::Negate | Op::Reciprocal => {
                let arith = if instr.op == Op::Negate {
                    Arith::Negate
                } else {
                    Arith::Reciprocal
                };
                let value = self.unary(arith, get(self, 0));
                self.slots[slot(1, 0)] = value;
            }
            Op::Move => self.slots[slot(1, 0)] = get(self, 0),
            Op::Load => self.slots[slot(0, 0)] = Value::Const(instr.constant),
            Op::GetComponent0 | Op::GetComponent1 | Op::GetComponent2 | Op::GetComponent3 => {
                let lane = instr.op.component().expect("a component op");
                self.slots[slot(1, 0)] = self.slots[slot(0, lane)];
            }
            Op::SetComponent0 | Op::SetComponent1 | Op::SetComponent2 | Op::SetComponent3 => {
                let lane = instr.op.component().expect("a component op");
                self.slots[slot(0, lane)] = get(self, 1);
            }
        }
        Ok(())
    }
}

impl Plan {
    /// Decodes `program` for `frame`. Fails only on a register that does not exist.
    pub fn new(program: &[Instr], frame: &Frame, alpha: Alpha) -> Result<Plan, RenderError> {
        for (index, instr) in program.iter().enumerate() {
            for (operand, reg) in instr.op.info().operands.iter().zip(instr.regs) {
                if *operand != Operand::Number && reg.0 >= REGISTERS {
                    return Err(RenderError::Register { index, value: reg.0 });
                }
            }
        }
        let mut decoder = Decoder::new(frame);
        for instr in program {
            if decoder.instruction(instr).is_err() {
                return Ok(Plan::per_pixel(program, frame, alpha));
            }
        }
        let color = COLOR.0 as usize * COMPONENTS;
        let mut outputs = [Value::Const(1.0); 4];
        outputs[..3].copy_from_slice(&decoder.slots[color..color + 3]);
        if alpha == Alpha::Keep {
            outputs[3] = decoder.slots[color + 3];
        }
        Ok(Plan::schedule(*frame, alpha, decoder, outputs))
    }

    /// The plan of a program run instruction by instruction for every pixel.
    fn per_pixel(program: &[Instr], frame: &Frame, alpha: Alpha) -> Plan {
        Plan {
            width: frame.width,
            uniforms: vec![0.0],
            uniform_ops: Vec::new(),
            steps: Vec::new(),
            buffers: 0,
            pc_x: None,
            channels: [Channel::Const(0.0); 4],
            per_pixel: Some(program.to_vec()),
            frame: *frame,
            alpha,
        }
    }

    /// Whether the program runs instruction by instruction for every pixel, its component
    /// indexes or memory addresses being known only there.
    pub fn runs_per_pixel(&self) -> bool {
        self.per_pixel.is_some()
    }

    /// Drops what the colour does not need and gives the varying values lane buffers.
    fn schedule(frame: Frame, alpha: Alpha, decoder: Decoder, outputs: [Value; 4]) -> Plan {
        let Decoder {
            uniforms,
            uniform_ops,
            varying_ops,
            varyings,
            ..
        } = decoder;

        // Which varying values the colour needs, walking back from it.
        let mut live = vec![false; varyings as usize];
        let mut live_uniform = vec![false; uniforms.len()];
        for output in outputs {
            match output {
                Value::Varying(v) => live[v as usize] = true,
                Value::Uniform(u) => live_uniform[u as usize] = true,
                Value::Const(_) => {}
            }
        }
        let mut kept = Vec::new();
        for op in varying_ops.iter().rev() {
            if !live[op.dst as usize] {
                continue;
            }
            live[op.a as usize] = true;
            match op.b {
                Second::Varying(b) => live[b as usize] = true,
                Second::Uniform(b) => live_uniform[b as usize] = true,
                Second::None => {}
            }
            kept.push(*op);
        }
        kept.reverse();
        let mut kept_uniform = Vec::new();
        for op in uniform_ops.iter().rev() {
            if !live_uniform[op.dst as usize] {
                continue;
            }
            live_uniform[op.a as usize] = true;
            if !op.arith.is_unary() {
                live_uniform[op.b as usize] = true;
            }
            kept_uniform.push(*op);
        }
        kept_uniform.reverse();

        // The last step that reads each varying value (outputs read after every step).
        const NEVER: usize = usize::MAX;
        const AT_END: usize = usize::MAX - 1;
        let mut last_use = vec![NEVER; varyings as usize];
        for (i, op) in kept.iter().enumerate() {
            last_use[op.a as usize] = i;
            if let Second::Varying(b) = op.b {
                last_use[b as usize] = i;
            }
        }
        for output in outputs {
            if let Value::Varying(v) = output {
                last_use[v as usize] = AT_END;
            }
        }

        // Lane buffers: a destination is taken before its operands are given back, so a step
        // never writes a buffer it reads.
        let mut buffer = vec![u32::MAX; varyings as usize];
        let mut free: Vec<u32> = Vec::new();
        let mut buffers = 0u32;
        let mut take = |free: &mut Vec<u32>| {
            free.pop().unwrap_or_else(|| {
                buffers += 1;
                buffers - 1
            })
        };
        let pc_x = (last_use[PC_X as usize] != NEVER).then(|| {
            buffer[PC_X as usize] = take(&mut free);
            buffer[PC_X as usize]
        });
        let mut steps = Vec::with_capacity(kept.len());
        for (i, op) in kept.iter().enumerate() {
            let dst = take(&mut free);
            buffer[op.dst as usize] = dst;
            let a = buffer[op.a as usize];
            steps.push(match (op.arith, op.b) {
                (Arith::Add, Second::Varying(b)) => Step::AddLanes {
                    dst,
                    a,
                    b: buffer[b as usize],
                },
                (Arith::Add, Second::Uniform(b)) => Step::AddUniform { dst, a, b },
                (Arith::Multiply, Second::Varying(b)) => Step::MultiplyLanes {
                    dst,
                    a,
                    b: buffer[b as usize],
                },
                (Arith::Multiply, Second::Uniform(b)) => Step::MultiplyUniform { dst, a, b },
                (Arith::Negate, _) => Step::Negate { dst, a },
                (Arith::Reciprocal, _) => Step::Reciprocal { dst, a },
                (Arith::Sign, _) => Step::Sign { dst, a },
                (Arith::Add | Arith::Multiply, Second::None) => {
                    unreachable!("add and multiply have two operands")
                }
            });
            if last_use[op.a as usize] == i {
                free.push(a);
            }
            if let Second::Varying(b) = op.b
                && b != op.a
                && last_use[b as usize] == i
            {
                free.push(buffer[b as usize]);
            }
        }

        let channels = outputs.map(|output| match output {
            Value::Const(c) => Channel::Const(c),
            Value::Uniform(u) => Channel::Uniform(u),
            Value::Varying(v) => Channel::Lanes(buffer[v as usize]),
        });
        Plan {
            width: frame.width,
            uniforms,
            uniform_ops: kept_uniform,
            steps,
            buffers: buffers as usize,
            pc_x,
            channels,
            per_pixel: None,
            frame,
            alpha,
        }
    }

    /// Renders the row `y` (from the bottom) into `out` (its RGBA bytes).
    fn render_row(&self, y: u32, out: &mut [u8], scratch: &mut Scratch) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, checked just above.
            return unsafe { self.render_row_avx2(y, out, scratch) };
        }
        self.render_row_here(y, out, scratch);
    }

    /// [`Plan::render_row`] compiled for AVX2: eight lanes an operation instead of four.
    /// The same IEEE operations, so the same results (Rust never contracts a multiply and an
    /// add into a fused one, and AVX2 has no fused operations anyway).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn render_row_avx2(&self, y: u32, out: &mut [u8], scratch: &mut Scratch) {
        self.render_row_here(y, out, scratch);
    }

    /// The row, compiled for the features of the function it is inlined into.
    #[inline(always)]
    fn render_row_here(&self, y: u32, out: &mut [u8], scratch: &mut Scratch) {
        if let Some(program) = &self.per_pixel {
            for (x, pixel) in out.chunks_exact_mut(4).enumerate() {
                pixel.copy_from_slice(&crate::exec::pixel(program, &self.frame, x as u32, y, self.alpha));
            }
            return;
        }
        let Scratch { uniforms, lanes, bytes } = scratch;
        self.start_row(y, uniforms);
        let uniforms = &uniforms[..];
        for (block, out) in out.chunks_mut(BLOCK * 4).enumerate() {
            let x0 = block * BLOCK;
            let n = self.run_block(x0, lanes, uniforms);
            for (channel, bytes) in self.channels.iter().zip(bytes.iter_mut()) {
                let bytes = &mut bytes[..n];
                match *channel {
                    Channel::Const(c) => bytes.fill(to_byte(c)),
                    Channel::Uniform(u) => bytes.fill(to_byte(uniforms[u as usize])),
                    Channel::Lanes(l) => {
                        for (byte, &value) in bytes.iter_mut().zip(&lanes[l as usize][..n]) {
                            *byte = to_byte(value);
                        }
                    }
                }
            }
            let [r, g, b, a] = &*bytes;
            let pixels = out.chunks_exact_mut(4).zip(r).zip(g).zip(b).zip(a);
            for ((((pixel, &r), &g), &b), &a) in pixels {
                pixel.copy_from_slice(&[r, g, b, a]);
            }
        }
    }

    /// Computes the uniform values of row `y` (from the bottom).
    #[inline(always)]
    fn start_row(&self, y: u32, uniforms: &mut [f32]) {
        uniforms.copy_from_slice(&self.uniforms);
        uniforms[PC_Y as usize] = y as f32 + 0.5;
        for op in &self.uniform_ops {
            let a = uniforms[op.a as usize];
            uniforms[op.dst as usize] = if op.arith.is_unary() {
                op.arith.unary(a)
            } else {
                op.arith.binary(a, uniforms[op.b as usize])
            };
        }
    }

    /// Runs the steps for the block of the row that starts at column `x0`; returns how many
    /// of its lanes are pixels.
    #[inline(always)]
    fn run_block(&self, x0: usize, lanes: &mut [Lanes], uniforms: &[f32]) -> usize {
        let n = BLOCK.min(self.width as usize - x0);
        if let Some(pc_x) = self.pc_x {
            for (i, lane) in lanes[pc_x as usize][..n].iter_mut().enumerate() {
                *lane = (x0 + i) as f32 + 0.5;
            }
        }
        for step in &self.steps {
            run_step(*step, lanes, uniforms, n);
        }
        n
    }

    /// How many varying instructions run per pixel after decoding.
    pub fn varying_steps(&self) -> usize {
        self.steps.len()
    }

    /// How many instructions run once per row after decoding.
    pub fn uniform_steps(&self) -> usize {
        self.uniform_ops.len()
    }

    /// How many lane buffers a block needs.
    pub fn lane_buffers(&self) -> usize {
        self.buffers
    }
}

/// One thread's working memory.
struct Scratch {
    uniforms: Vec<f32>,
    lanes: Vec<Lanes>,
    bytes: [[u8; BLOCK]; 4],
}

impl Scratch {
    fn new(plan: &Plan) -> Scratch {
        Scratch {
            uniforms: plan.uniforms.clone(),
            lanes: vec![[0.0; BLOCK]; plan.buffers.max(1)],
            bytes: [[0; BLOCK]; 4],
        }
    }
}

/// The destination and one operand: different buffers, by construction of the plan.
fn dst_and_one(lanes: &mut [Lanes], dst: u32, a: u32) -> (&mut Lanes, &Lanes) {
    let (dst, a) = (dst as usize, a as usize);
    let (head, tail) = lanes.split_at_mut(dst);
    let (d, tail) = tail.split_first_mut().expect("the destination is a buffer");
    let a = if a < dst { &head[a] } else { &tail[a - dst - 1] };
    (d, a)
}

/// The destination and two operands (which may be the same buffer, never the destination).
fn dst_and_two(lanes: &mut [Lanes], dst: u32, a: u32, b: u32) -> (&mut Lanes, &Lanes, &Lanes) {
    let (dst, a, b) = (dst as usize, a as usize, b as usize);
    let (head, tail) = lanes.split_at_mut(dst);
    let (d, tail) = tail.split_first_mut().expect("the destination is a buffer");
    let a = if a < dst { &head[a] } else { &tail[a - dst - 1] };
    let b = if b < dst { &head[b] } else { &tail[b - dst - 1] };
    (d, a, b)
}

/// Runs one step over the first `n` lanes.
#[inline(always)]
fn run_step(step: Step, lanes: &mut [Lanes], uniforms: &[f32], n: usize) {
    match step {
        Step::AddLanes { dst, a, b } => {
            let (d, a, b) = dst_and_two(lanes, dst, a, b);
            for ((d, a), b) in d[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
                *d = a + b;
            }
        }
        Step::MultiplyLanes { dst, a, b } => {
            let (d, a, b) = dst_and_two(lanes, dst, a, b);
            for ((d, a), b) in d[..n].iter_mut().zip(&a[..n]).zip(&b[..n]) {
                *d = a * b;
            }
        }
        Step::AddUniform { dst, a, b } => {
            let b = uniforms[b as usize];
            let (d, a) = dst_and_one(lanes, dst, a);
            for (d, a) in d[..n].iter_mut().zip(&a[..n]) {
                *d = a + b;
            }
        }
        Step::MultiplyUniform { dst, a, b } => {
            let b = uniforms[b as usize];
            let (d, a) = dst_and_one(lanes, dst, a);
            for (d, a) in d[..n].iter_mut().zip(&a[..n]) {
                *d = a * b;
            }
        }
        Step::Negate { dst, a } => {
            let (d, a) = dst_and_one(lanes, dst, a);
            for (d, a) in d[..n].iter_mut().zip(&a[..n]) {
                *d = -a;
            }
        }
        Step::Reciprocal { dst, a } => {
            let (d, a) = dst_and_one(lanes, dst, a);
            for (d, a) in d[..n].iter_mut().zip(&a[..n]) {
                *d = 1.0 / a;
            }
        }
        Step::Sign { dst, a } => {
            let (d, a) = dst_and_one(lanes, dst, a);
            for (d, a) in d[..n].iter_mut().zip(&a[..n]) {
                *d = crate::ops::sign(*a);
            }
        }
    }
}

/// [`exec::channel`](crate::exec::channel) in a form the compiler vectorises: comparisons
/// instead of `clamp` and `is_nan`, and rounding without a library call. For `0 <= v <= 255`,
/// `v + 0.5` is exact from `v = 0.5` up (or rounds onto the next power of two, an integer), so
/// truncating it rounds half away from zero like `f32::round`; below 0.5 the result is 0.
#[inline(always)]
fn to_byte(value: f32) -> u8 {
    // NaN fails the comparison and gives 0, like a negative value.
    let v = if value > 0.0 { value } else { 0.0 };
    let v = if v < 1.0 { v } else { 1.0 };
    let v = v * 255.0;
    if v < 0.5 { 0 } else { (v + 0.5) as u8 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::channel;
    use crate::ops::{OPS, Reg};
    use proptest::prelude::*;

    #[test]
    fn bytes_match_the_definition_around_every_rounding_boundary() {
        for k in 0..=255u32 {
            let boundary = (k as f32 + 0.5) / 255.0;
            let bits = boundary.to_bits();
            for bits in bits.saturating_sub(3000)..=bits + 3000 {
                let v = f32::from_bits(bits);
                assert_eq!(to_byte(v), channel(v), "{v:e} ({bits:#x})");
            }
        }
    }

    #[test]
    fn bytes_match_the_definition_on_special_values_and_a_sweep_of_all_floats() {
        for v in [
            0.0,
            -0.0,
            1.0,
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::MAX,
            f32::MIN,
            0.5 / 255.0,
            0.49999997,
        ] {
            assert_eq!(to_byte(v), channel(v), "{v:e}");
        }
        // Every 4099th bit pattern: each sign, exponent and NaN payload range.
        for bits in (0..=u32::MAX).step_by(4099) {
            let v = f32::from_bits(bits);
            assert_eq!(to_byte(v), channel(v), "{v:e} ({bits:#x})");
        }
    }

    /// The colour a plan computes for every pixel of row `y`, before conversion to bytes.
    fn row_colors(plan: &Plan, y: u32) -> Vec<[f32; 4]> {
        if let Some(program) = &plan.per_pixel {
            return (0..plan.width)
                .map(|x| {
                    let mut regs = crate::exec::start(&plan.frame, x, y);
                    crate::exec::run(program, &mut regs);
                    regs[COLOR.0 as usize]
                })
                .collect();
        }
        let mut scratch = Scratch::new(plan);
        plan.start_row(y, &mut scratch.uniforms);
        let mut colors = Vec::new();
        for x0 in (0..plan.width as usize).step_by(BLOCK) {
            let n = plan.run_block(x0, &mut scratch.lanes, &scratch.uniforms);
            for i in 0..n {
                colors.push(plan.channels.map(|channel| match channel {
                    Channel::Const(c) => c,
                    Channel::Uniform(u) => scratch.uniforms[u as usize],
                    Channel::Lanes(l) => scratch.lanes[l as usize][i],
                }));
            }
        }
        colors
    }

    fn any_register() -> impl Strategy<Value = Reg> {
        prop_oneof![3 => (0..REGISTERS).prop_map(Reg), 1 => Just(COLOR), 1 => Just(PC)]
    }

    fn any_constant() -> impl Strategy<Value = f32> {
        prop_oneof![
            Just(0.0f32),
            Just(-0.0),
            Just(f32::INFINITY),
            Just(f32::NAN),
            Just(1e-40),
            Just(3e38),
            -3.0f32..3.0,
            any::<f32>(),
        ]
    }

    fn any_instruction() -> impl Strategy<Value = Instr> {
        (
            0..OPS.len(),
            [any_register(), any_register(), any_register()],
            any_constant(),
        )
            .prop_map(|(code, regs, constant)| Instr {
                op: OPS[code].op,
                regs,
                constant,
            })
    }

    /// The same bits, or NaN on both sides (a NaN's payload is never seen).
    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Stronger than comparing bytes: every colour component has the bits `exec::run`
        /// gives it, before the conversion hides small differences.
        #[test]
        fn colors_have_the_bits_of_the_definition(
            program in prop::collection::vec(any_instruction(), 0..64),
            width in 1u32..=(BLOCK as u32 + 9),
            height in 1u32..=4,
            time in any_constant(),
        ) {
            let frame = Frame { width, height, time };
            let plan = Plan::new(&program, &frame, Alpha::Keep).expect("registers exist");
            let mut scratch = Scratch::new(&plan);
            let mut row = vec![0; width as usize * 4];
            for y in 0..height {
                // The row as every processor renders it (not only as this one does).
                plan.render_row_here(y, &mut row, &mut scratch);
                for (x, color) in row_colors(&plan, y).into_iter().enumerate() {
                    let mut regs = crate::exec::start(&frame, x as u32, y);
                    crate::exec::run(&program, &mut regs);
                    let want = regs[COLOR.0 as usize];
                    prop_assert!(
                        (0..4).all(|k| same(color[k], want[k])),
                        "pixel ({x}, {y}): {color:?}, the definition says {want:?}"
                    );
                    let bytes = crate::exec::color(&regs, Alpha::Keep);
                    prop_assert_eq!(&row[x * 4..x * 4 + 4], &bytes[..]);
                }
            }
        }
    }

    #[test]
    fn sizes_outside_the_limits_are_refused() {
        assert!(check_size(1, 1).is_ok());
        assert!(check_size(MAX_SIDE, 4096).is_ok());
        for (width, height) in [(0, 1), (1, 0), (MAX_SIDE + 1, 1), (1, u32::MAX), (MAX_SIDE, MAX_SIDE)] {
            assert_eq!(check_size(width, height), Err(RenderError::Size { width, height }));
        }
    }
}
