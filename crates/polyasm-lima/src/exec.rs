//! The emulator: runs a program for one fragment, or for every pixel of a full-screen quad.
//!
//! One instruction is one pass through the units in pipeline order: varying, texture,
//! uniform/temporary load, the multipliers (`.v0` ∥ `.s0`), the adders (`.v1` ∥ `.s1`), the
//! complex unit (`.s2`), the temporary store or framebuffer read, then the branch. A register
//! written by a unit is seen by every later unit of the same instruction; the vector and the
//! scalar unit of one stage read the registers as they were before that stage (when both
//! write the same component, the scalar unit's value stays). The pipeline registers
//! (`^const0`, `^const1`, `^texture`, `^uniform`, `^v0`, `^s0`) live for one instruction
//! and read 0 when their unit is absent from it. Arithmetic is IEEE f32; the constants are
//! fp16. docs/lima.md lists every guess the emulator makes where the hardware is not known.
//!
//! Fragments run in 2x2 quads, in lockstep: at each step the fragments of a quad at the
//! lowest instruction run it together, so that `dFdx`/`dFdy` read their neighbours' values.
//! A single fragment is a quad with one fragment, whose derivatives are 0.
//!
//! ```
//! use polyasm_lima::exec::{Inputs, Output, Program, run_fragment};
//! // Mesa's clear program: mov.v0 $0 ^const0.xxxx with const0 = 1, 0, 0, -1.677734.
//! let words = [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5];
//! let program = Program::from_words(&words).expect("a valid program");
//! let output = run_fragment(&program, &Inputs::default()).expect("it stops");
//! assert_eq!(output, Output::Color([1.0, 1.0, 1.0, 1.0]));
//! ```

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::decode::{DecodeError, decode};
use crate::instr::{
    Branch, Combine, CombineDest, Constants, Instr, Load, ScalarReg, ScalarSource, Store, Swizzle, VaryingFetch,
    VaryingSource, VecDest, VecReg, VecSource,
};
use crate::ops::{
    AccOp, Alignment, CombineOp, FbRead, GENERAL_REGS, LoadSource, MulOp, OutMod, Perspective, REG_CONST0, REG_CONST1,
    REG_TEXTURE, VARYING_DISCARD, VaryingAlignment,
};

/// Four lanes, x first.
pub type Vec4 = [f32; 4];

/// How many instructions one fragment may run when no limit is given.
pub const DEFAULT_MAX_STEPS: u64 = 100_000;
pub use polyasm_core::picture::{MAX_PIXELS, MAX_SIDE, check_size};
/// How many vec4 varyings can be named: the 6-bit index of a vec4 fetch.
pub const VARYING_SLOTS: usize = 64;
/// How many vec4 uniforms can be named: the 16-bit index of a vec4 load.
pub const UNIFORM_SLOTS: usize = 1 << 16;
/// How many textures can be named: the 12-bit sampler number.
pub const SAMPLERS: usize = 1 << 12;
/// How many vec4 temporaries one fragment has: the 16-bit index of a vec4 store.
pub const TEMP_SLOTS: usize = 1 << 16;
/// The longest side of a texture: Mali-400's limit, 4096 (what Mesa's lima driver reports).
pub const MAX_TEXTURE_SIDE: u32 = 4096;
/// The most texels the textures of one run hold together; a texel takes 16 bytes of memory,
/// so this is 1 GiB.
pub const MAX_TEXTURE_TEXELS: u64 = 1 << 26;

/// Memory that could not be had: how many bytes were asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The bytes asked for (saturated at `usize::MAX`).
    pub bytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes of memory could not be allocated", self.bytes)
    }
}

/// An empty vector with room for `len` elements, or an error when that memory cannot be had
/// (where `Vec::with_capacity` would abort the process).
pub fn try_vec<T>(len: usize) -> Result<Vec<T>, AllocError> {
    let mut vec = Vec::new();
    vec.try_reserve_exact(len).map_err(|_| AllocError {
        bytes: len.saturating_mul(std::mem::size_of::<T>()),
    })?;
    Ok(vec)
}

const GENERAL: usize = GENERAL_REGS as usize;

/// How a texture is read between texels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    /// The texel the coordinate falls in.
    Nearest,
    /// The four nearest texels, weighted (bilinear).
    #[default]
    Linear,
}

/// What a coordinate outside [0, 1] reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wrap {
    /// The texture repeats (`GL_REPEAT`).
    #[default]
    Repeat,
    /// The edge texels extend (`GL_CLAMP_TO_EDGE`).
    Clamp,
}

/// A 2D texture: RGBA texels in [0, 1], row 0 at the bottom (texture coordinate t = 0), as
/// OpenGL stores an image uploaded from its first row up.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    width: u32,
    height: u32,
    texels: Vec<Vec4>,
}

impl Texture {
    /// A texture from 8-bit RGBA pixels stored top row first, as in a PNG: the picture's top
    /// row is at t = 1, so a full-screen copy shows it upright. `None` when a side is 0 or
    /// `rgba` is not `width * height * 4` bytes.
    pub fn from_rgba8(width: u32, height: u32, rgba: &[u8]) -> Option<Texture> {
        Texture::try_from_rgba8(width, height, rgba).ok().flatten()
    }

    /// As [`Texture::from_rgba8`], with memory that cannot be had an error rather than an
    /// abort.
    pub fn try_from_rgba8(width: u32, height: u32, rgba: &[u8]) -> Result<Option<Texture>, AllocError> {
        let (w, h) = (width as usize, height as usize);
        if w == 0 || h == 0 || w.checked_mul(h).and_then(|n| n.checked_mul(4)) != Some(rgba.len()) {
            return Ok(None);
        }
        let mut texels = try_vec(w * h)?;
        let pixels = rgba.chunks_exact(w * 4).rev().flat_map(|row| row.chunks_exact(4));
        texels.extend(pixels.map(|p| [0, 1, 2, 3].map(|i| f32::from(p[i]) / 255.0)));
        Ok(Some(Texture { width, height, texels }))
    }

    /// The width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The height in texels.
    pub fn height(&self) -> u32 {
        self.height
    }

    fn texel(&self, x: i64, y: i64, wrap: Wrap) -> Vec4 {
        let x = wrap_index(x, self.width, wrap);
        let y = wrap_index(y, self.height, wrap);
        self.texels[y * self.width as usize + x]
    }

    /// Reads the texture at (s, t); a coordinate that is not finite reads as 0.
    pub fn sample(&self, s: f32, t: f32, filter: Filter, wrap: Wrap) -> Vec4 {
        let finite = |c: f32| if c.is_finite() { c } else { 0.0 };
        let x = finite(s) * self.width as f32;
        let y = finite(t) * self.height as f32;
        match filter {
            Filter::Nearest => self.texel(x.floor() as i64, y.floor() as i64, wrap),
            Filter::Linear => {
                let (x, y) = (x - 0.5, y - 0.5);
                let (x0, y0) = (x.floor(), y.floor());
                let (fx, fy) = (x - x0, y - y0);
                let (i, j) = (x0 as i64, y0 as i64);
                // A coordinate past i64's range saturates; so does the texel after it.
                let (i1, j1) = (i.saturating_add(1), j.saturating_add(1));
                let bottom = lerp(self.texel(i, j, wrap), self.texel(i1, j, wrap), fx);
                let top = lerp(self.texel(i, j1, wrap), self.texel(i1, j1, wrap), fx);
                lerp(bottom, top, fy)
            }
        }
    }
}

fn lerp(a: Vec4, b: Vec4, f: f32) -> Vec4 {
    [0, 1, 2, 3].map(|i| a[i] * (1.0 - f) + b[i] * f)
}

fn wrap_index(i: i64, n: u32, wrap: Wrap) -> usize {
    let n = i64::from(n);
    match wrap {
        Wrap::Repeat => i.rem_euclid(n) as usize,
        Wrap::Clamp => i.clamp(0, n - 1) as usize,
    }
}

/// What a program reads besides its instructions.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Varyings by vec4 slot; slots past the end read 0. When rendering, slot 0 is each
    /// pixel's (u, v).
    pub varyings: Vec<Vec4>,
    /// Uniforms by vec4 slot; slots past the end read 0.
    pub uniforms: Vec<Vec4>,
    /// Textures by sampler number; reading a sampler without one is an error.
    pub textures: Vec<Option<Texture>>,
    /// `gl_FragCoord` of a single fragment (rendering sets each pixel's).
    pub frag_coord: Vec4,
    /// `gl_PointCoord`.
    pub point_coord: [f32; 2],
    /// `gl_FrontFacing`.
    pub front_facing: bool,
    /// What `fb_color` reads.
    pub fb_color: Vec4,
    /// What `fb_depth` reads (in .x).
    pub fb_depth: f32,
    /// Texture filtering.
    pub filter: Filter,
    /// Texture wrapping.
    pub wrap: Wrap,
    /// How many instructions one fragment may run before it is an error.
    pub max_steps: u64,
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs {
            varyings: Vec::new(),
            uniforms: Vec::new(),
            textures: Vec::new(),
            frag_coord: [0.0, 0.0, 0.0, 1.0],
            point_coord: [0.0, 0.0],
            front_facing: true,
            fb_color: [0.0; 4],
            fb_depth: 0.0,
            filter: Filter::default(),
            wrap: Wrap::default(),
            max_steps: DEFAULT_MAX_STEPS,
        }
    }
}

/// How a fragment ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Output {
    /// It reached `stop`: the value of `$0`.
    Color(Vec4),
    /// It ran `discard`.
    Discarded,
}

/// What went wrong while running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The fragment ran more instructions than the limit allows (the program loops).
    StepLimit {
        /// The limit.
        limit: u64,
    },
    /// `texld` names a sampler that has no texture.
    NoTexture {
        /// The sampler number, offset register included.
        sampler: i64,
    },
    /// A taken branch leads to a word where no instruction starts.
    BadTarget {
        /// The target as an absolute word offset.
        target: i64,
    },
    /// The last instruction ran without `stop`, `discard` or a taken branch.
    NoStop,
    /// The program has no instruction.
    Empty,
}

/// An error of a run: what, at which instruction and, when rendering, at which pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// Word offset of the instruction's control word.
    pub offset: usize,
    /// The pixel (x from the left, y from the bottom) whose fragment failed, when rendering.
    pub pixel: Option<(u32, u32)>,
    /// What went wrong.
    pub kind: RunErrorKind,
}

impl RunError {
    /// The stable diagnostic code.
    pub fn code(&self) -> &'static str {
        match self.kind {
            RunErrorKind::StepLimit { .. } => crate::error::Code::StepLimit.as_str(),
            RunErrorKind::NoTexture { .. } => crate::error::Code::NoTexture.as_str(),
            RunErrorKind::BadTarget { .. } => crate::error::Code::BadTarget.as_str(),
            RunErrorKind::NoStop => crate::error::Code::NoStop.as_str(),
            RunErrorKind::Empty => crate::error::Code::Empty.as_str(),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            RunErrorKind::Empty => return write!(f, "the program has no instruction to run"),
            RunErrorKind::StepLimit { limit } => write!(
                f,
                "the fragment ran {limit} instructions without reaching `stop`; the next is at word {at}"
            )?,
            RunErrorKind::NoTexture { sampler } => write!(
                f,
                "the instruction at word {at} samples texture {sampler}, which was not given"
            )?,
            RunErrorKind::BadTarget { target } => write!(
                f,
                "the branch at word {at} jumps to word {target}, where no instruction starts"
            )?,
            RunErrorKind::NoStop => write!(f, "the instruction at word {at} is the last and ran without `stop`")?,
        }
        if let Some((x, y)) = self.pixel {
            write!(f, " (pixel {x}, {y} from the bottom left)")?;
        }
        Ok(())
    }
}

impl std::error::Error for RunError {}

/// Where a taken branch goes.
#[derive(Clone, Copy, Debug)]
enum Jump {
    /// The instruction with this index.
    To(usize),
    /// No instruction starts at this absolute word offset.
    Nowhere(i64),
}

/// One instruction, ready to run.
#[derive(Clone, Debug)]
struct Step {
    instr: Instr,
    offset: usize,
    const0: Vec4,
    const1: Vec4,
    jump: Option<Jump>,
}

/// A program ready to run: its instructions with their word offsets, constants decoded and
/// branch targets found.
#[derive(Clone, Debug)]
pub struct Program {
    steps: Vec<Step>,
}

fn constants(values: Option<Constants>) -> Vec4 {
    values.map_or([0.0; 4], |c| c.map(polyasm_core::half::to_f32))
}

impl Program {
    /// Prepares instructions laid out back to back from word 0.
    pub fn new(instrs: &[Instr]) -> Program {
        let offsets: Vec<usize> = instrs
            .iter()
            .scan(0, |at, instr| Some(std::mem::replace(at, *at + instr.count() as usize)))
            .collect();
        let steps = instrs
            .iter()
            .zip(&offsets)
            .map(|(instr, &offset)| {
                let jump = match instr.branch {
                    Some(Branch::Jump { target, .. }) => {
                        let to = offset as i64 + i64::from(target);
                        let found = usize::try_from(to).ok().and_then(|to| offsets.binary_search(&to).ok());
                        Some(found.map_or(Jump::Nowhere(to), Jump::To))
                    }
                    _ => None,
                };
                Step {
                    instr: *instr,
                    offset,
                    const0: constants(instr.const0),
                    const1: constants(instr.const1),
                    jump,
                }
            })
            .collect();
        Program { steps }
    }

    /// Decodes and prepares program words.
    pub fn from_words(words: &[u32]) -> Result<Program, DecodeError> {
        let decoded = decode(words)?;
        let instrs: Vec<Instr> = decoded.iter().map(|d| d.instr).collect();
        Ok(Program::new(&instrs))
    }

    /// The sampler numbers the program's texture fetches read, in order and once each;
    /// `None` when a fetch adds a register to its sampler number, so that any sampler may be
    /// read.
    pub fn samplers(&self) -> Option<Vec<usize>> {
        let samplers = self.steps.iter().filter_map(|s| s.instr.sampler);
        let fixed = samplers.map(|sampler| sampler.offset.is_none().then_some(usize::from(sampler.index)));
        let mut samplers: Vec<usize> = fixed.collect::<Option<_>>()?;
        samplers.sort_unstable();
        samplers.dedup();
        Some(samplers)
    }

    /// How many instructions the program has.
    pub fn len(&self) -> usize {
        self.steps.len()
    }

    /// Whether the program has no instruction.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// Where a fragment is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    Running,
    Stopped,
    Discarded,
    /// Not a fragment of this quad (a single fragment's three neighbours).
    #[default]
    Absent,
}

/// One fragment's registers and memory; by default absent.
#[derive(Clone, Debug, Default)]
struct Fragment {
    regs: [Vec4; GENERAL],
    /// The temporaries up to the highest slot any fragment of this quad slot has written;
    /// kept from fragment to fragment, and cleared through `touched`.
    temps: Vec<Vec4>,
    /// The slots written since the fragment started, so that starting again costs as much as
    /// the stores did rather than the size of `temps`.
    touched: Vec<usize>,
    varying0: Vec4,
    frag_coord: Vec4,
    pc: usize,
    steps: u64,
    state: State,
}

impl Fragment {
    /// Starts the fragment running again with these inputs; the temporaries' memory is kept,
    /// zeroed.
    fn reset(&mut self, varying0: Vec4, frag_coord: Vec4) {
        self.regs = [[0.0; 4]; GENERAL];
        for slot in self.touched.drain(..) {
            self.temps[slot] = [0.0; 4];
        }
        self.varying0 = varying0;
        self.frag_coord = frag_coord;
        self.pc = 0;
        self.steps = 0;
        self.state = State::Running;
    }
}

/// The pipeline registers of one fragment in one instruction.
#[derive(Clone, Copy, Debug, Default)]
struct Pipe {
    coord: Vec4,
    texture: Vec4,
    uniform: Vec4,
    vmul: Vec4,
    fmul: f32,
}

/// The adders' operands of one fragment (arg0 and arg1 of `.v1` and of `.s1`), which
/// derivatives read from the neighbours.
#[derive(Clone, Copy, Debug, Default)]
struct AccArgs {
    vector: (Vec4, Vec4),
    scalar: (f32, f32),
}

/// One fragment running one instruction: what its units read and write (the fragment's
/// registers and memory, the instruction's constants, the pipeline registers, the inputs).
struct Unit<'a> {
    frag: &'a mut Fragment,
    step: &'a Step,
    inputs: &'a Inputs,
    pipe: &'a mut Pipe,
}

impl<'a> Unit<'a> {
    fn new(frag: &'a mut Fragment, step: &'a Step, inputs: &'a Inputs, pipe: &'a mut Pipe) -> Unit<'a> {
        Unit {
            frag,
            step,
            inputs,
            pipe,
        }
    }

    fn vec(&self, reg: VecReg) -> Vec4 {
        match reg {
            r if usize::from(r) < GENERAL => self.frag.regs[usize::from(r)],
            REG_CONST0 => self.step.const0,
            REG_CONST1 => self.step.const1,
            REG_TEXTURE => self.pipe.texture,
            _ => self.pipe.uniform,
        }
    }

    fn component(&self, reg: ScalarReg) -> f32 {
        self.vec(reg >> 2 & 0xf)[usize::from(reg & 3)]
    }

    /// The value of an offset register, if any.
    fn offset(&self, reg: Option<ScalarReg>) -> Option<f32> {
        reg.map(|reg| self.component(reg))
    }

    fn vec_source(&self, source: &VecSource) -> Vec4 {
        modify_vec(self.vec(source.reg), source)
    }

    fn scalar_source(&self, source: &ScalarSource) -> f32 {
        modify(self.component(source.reg), source.abs, source.neg)
    }

    /// Writes `value` to `dest`, if any.
    fn write_vec(&mut self, dest: Option<VecDest>, value: Vec4) {
        // Pipeline register numbers as destinations write nothing.
        if let Some(dest) = dest
            && let Some(reg) = self.frag.regs.get_mut(usize::from(dest.reg))
        {
            for lane in (0..4).filter(|lane| dest.mask >> lane & 1 == 1) {
                reg[lane] = value[lane];
            }
        }
    }

    /// Writes `value` to the register component `dest`, if any.
    fn write_scalar(&mut self, dest: Option<ScalarReg>, value: f32) {
        if let Some(reg) = dest
            && let Some(vec) = self.frag.regs.get_mut(usize::from(reg >> 2))
        {
            vec[usize::from(reg & 3)] = value;
        }
    }

    /// The units up to the adders: varying, texture, load, the multipliers; returns the
    /// adders' operands.
    fn front(&mut self) -> Result<AccArgs, RunErrorKind> {
        let (instr, inputs) = (&self.step.instr, self.inputs);
        if let Some(varying) = &instr.varying {
            let value = match &varying.source {
                VaryingSource::Fetch { perspective: p, fetch } => perspective(self.fetch_varying(fetch), *p),
                VaryingSource::Register { perspective: p, source } => perspective(self.vec_source(source), *p),
                VaryingSource::Cube(fetch) => cube(self.fetch_varying(fetch)),
                VaryingSource::CubeRegister(source) => cube(self.vec_source(source)),
                VaryingSource::Normalize(source) => normalize(self.vec_source(source)),
                VaryingSource::FragCoord => self.frag.frag_coord,
                VaryingSource::PointCoord => [inputs.point_coord[0], inputs.point_coord[1], 0.0, 0.0],
                VaryingSource::FrontFacing => [bool_value(inputs.front_facing), 0.0, 0.0, 0.0],
            };
            self.pipe.coord = value;
            let (reg, mask) = (varying.dest, varying.mask);
            self.write_vec((reg != VARYING_DISCARD).then_some(VecDest { reg, mask }), value);
        }
        if let Some(sampler) = &instr.sampler {
            let number = offset_number(sampler.index.into(), self.offset(sampler.offset));
            let texture = usize::try_from(number)
                .ok()
                .and_then(|n| inputs.textures.get(n))
                .and_then(Option::as_ref)
                .ok_or(RunErrorKind::NoTexture { sampler: number })?;
            let [s, t, _, _] = self.pipe.coord;
            self.pipe.texture = texture.sample(s, t, inputs.filter, inputs.wrap);
        }
        if let Some(load) = &instr.load {
            self.pipe.uniform = self.load(load);
        }
        if let Some(m) = &instr.vec4_mul {
            let a = self.vec_source(&m.arg0);
            let b = m.arg1.map_or([0.0; 4], |b| self.vec_source(&b));
            let scale = shift_scale(m.shift);
            self.pipe.vmul = [0, 1, 2, 3].map(|l| out_mod(mul_op(m.op, scale, a[l], b[l]), m.outmod));
        }
        if let Some(m) = &instr.float_mul {
            let a = self.scalar_source(&m.arg0);
            let b = m.arg1.map_or(0.0, |b| self.scalar_source(&b));
            self.pipe.fmul = out_mod(mul_op(m.op, shift_scale(m.shift), a, b), m.outmod);
        }
        // Both multipliers read the registers before either writes.
        self.write_vec(instr.vec4_mul.and_then(|m| m.dest), self.pipe.vmul);
        self.write_scalar(instr.float_mul.and_then(|m| m.dest), self.pipe.fmul);
        let mut args = AccArgs::default();
        if let Some(acc) = &instr.vec4_acc {
            let a = if acc.mul_in {
                self.pipe.vmul
            } else {
                self.vec(acc.arg0.reg)
            };
            let b = acc.arg1.map_or([0.0; 4], |b| self.vec_source(&b));
            args.vector = (modify_vec(a, &acc.arg0), b);
        }
        if let Some(acc) = &instr.float_acc {
            let a = if acc.mul_in {
                self.pipe.fmul
            } else {
                self.component(acc.arg0.reg)
            };
            let b = acc.arg1.map_or(0.0, |b| self.scalar_source(&b));
            args.scalar = (modify(a, acc.arg0.abs, acc.arg0.neg), b);
        }
        Ok(args)
    }

    /// The units from the adders on: the adders, the complex unit, the temporary store or
    /// framebuffer read, then the branch, which moves the fragment on. This is fragment `i`
    /// of those `active` in the quad, whose adders' operands `args` holds.
    fn back(&mut self, args: &[AccArgs; 4], i: usize, active: [bool; 4], len: usize) -> Result<(), RunErrorKind> {
        let (instr, inputs) = (&self.step.instr, self.inputs);
        let select = self.pipe.fmul != 0.0;
        // The two fragments a derivative subtracts, when both run.
        let derivative = |op| {
            let (lo, hi) = neighbours(i, op);
            (active[lo] && active[hi]).then(|| (&args[lo], &args[hi]))
        };
        if let Some(acc) = &instr.vec4_acc {
            let (a, b) = args[i].vector;
            let value = match acc.op {
                AccOp::Sum3 => [a[0] + a[1] + a[2]; 4],
                AccOp::Sum4 => [a[0] + a[1] + a[2] + a[3]; 4],
                AccOp::Dfdx | AccOp::Dfdy => derivative(acc.op).map_or([0.0; 4], |(lo, hi)| {
                    [0, 1, 2, 3].map(|l| hi.vector.0[l] - lo.vector.0[l])
                }),
                op => [0, 1, 2, 3].map(|l| acc_op(op, a[l], b[l], select)),
            };
            self.write_vec(acc.dest, value.map(|x| out_mod(x, acc.outmod)));
        }
        if let Some(acc) = &instr.float_acc {
            let (a, b) = args[i].scalar;
            let value = match acc.op {
                AccOp::Dfdx | AccOp::Dfdy => derivative(acc.op).map_or(0.0, |(lo, hi)| hi.scalar.0 - lo.scalar.0),
                op => acc_op(op, a, b, select),
            };
            self.write_scalar(acc.dest, out_mod(value, acc.outmod));
        }

        match instr.combine {
            Some(Combine::Scalar { op, dest, arg0, arg1 }) => {
                let b = arg1.map_or(0.0, |b| self.scalar_source(&b));
                let value = combine_op(op, self.scalar_source(&arg0), b);
                match dest {
                    CombineDest::Scalar { reg, outmod } => self.write_scalar(Some(reg), out_mod(value[0], outmod)),
                    CombineDest::Vector(dest) => self.write_vec(Some(dest), value),
                }
            }
            Some(Combine::MulVec {
                dest,
                arg0,
                arg1,
                swizzle: swz,
            }) => {
                let a = self.scalar_source(&arg0);
                self.write_vec(Some(dest), swizzle(self.vec(arg1), swz).map(|x| a * x));
            }
            Some(Combine::AtanPt2 {
                dest,
                outmod,
                arg,
                swizzle: swz,
            }) => {
                let value = atan_pt2(swizzle(self.vec(arg), swz));
                self.write_scalar(Some(dest), out_mod(value, outmod));
            }
            None => {}
        }

        match instr.store {
            Some(Store::Temp {
                alignment,
                index,
                offset,
                source,
            }) => {
                let element = element(index.into(), self.offset(offset), lanes(alignment), TEMP_SLOTS);
                if let Some((slot, first, lanes)) = element {
                    // A scalar store writes one component; the others keep lanes in place
                    // (alignment 3: the register's lane named by the index).
                    let value = match alignment {
                        Alignment::Scalar => [self.component(source); 4],
                        _ => self.vec(source >> 2),
                    };
                    let frag = &mut *self.frag;
                    if frag.temps.len() <= slot {
                        frag.temps.resize(slot + 1, [0.0; 4]);
                    }
                    frag.touched.push(slot);
                    frag.temps[slot][first..first + lanes].copy_from_slice(&value[first..first + lanes]);
                }
            }
            Some(Store::FbRead { read, dest }) => {
                let value = match read {
                    FbRead::Color => inputs.fb_color,
                    FbRead::Depth => [inputs.fb_depth, 0.0, 0.0, 0.0],
                };
                self.write_vec(Some(VecDest { reg: dest, mask: 0xF }), value);
            }
            None => {}
        }

        let taken = match instr.branch {
            Some(Branch::Discard) => {
                self.frag.state = State::Discarded;
                return Ok(());
            }
            Some(Branch::Jump { cond, arg0, arg1, .. }) => {
                let (a, b) = (self.component(arg0), self.component(arg1));
                let code = cond.code();
                (code & 1 != 0 && a < b) || (code & 2 != 0 && a == b) || (code & 4 != 0 && a > b)
            }
            None => false,
        };
        let frag = &mut *self.frag;
        if instr.stop {
            frag.state = State::Stopped;
        } else if taken {
            match self.step.jump.expect("invariant: a jump has a target") {
                Jump::To(to) => frag.pc = to,
                Jump::Nowhere(target) => return Err(RunErrorKind::BadTarget { target }),
            }
        } else if frag.pc + 1 < len {
            frag.pc += 1;
        } else {
            return Err(RunErrorKind::NoStop);
        }
        Ok(())
    }

    /// Reads a varying by index: the components fill the lanes from x, the rest read 0.
    fn fetch_varying(&self, fetch: &VaryingFetch) -> Vec4 {
        let lanes = match fetch.alignment {
            VaryingAlignment::Scalar => 1,
            VaryingAlignment::Vec2 => 2,
            VaryingAlignment::Vec4 => 4,
        };
        let mut out = [0.0; 4];
        if let Some((slot, first, lanes)) = element(fetch.index.into(), self.offset(fetch.offset), lanes, usize::MAX) {
            let value = match slot {
                0 => self.frag.varying0,
                _ => self.inputs.varyings.get(slot).copied().unwrap_or([0.0; 4]),
            };
            out[..lanes].copy_from_slice(&value[first..first + lanes]);
        }
        out
    }

    /// What a load puts on `^uniform`: the components keep their lanes, the others read 0.
    fn load(&self, load: &Load) -> Vec4 {
        let (memory, slots) = match load.source {
            LoadSource::Uniform => (self.inputs.uniforms.as_slice(), UNIFORM_SLOTS),
            LoadSource::Temporary => (self.frag.temps.as_slice(), TEMP_SLOTS),
            // Sources no compiler writes: what they read is unknown, so they read 0.
            LoadSource::Source1 | LoadSource::Source2 => return [0.0; 4],
        };
        let mut out = [0.0; 4];
        if let Some((slot, first, lanes)) = element(
            load.index.into(),
            self.offset(load.offset),
            lanes(load.alignment),
            slots,
        ) && let Some(value) = memory.get(slot)
        {
            out[first..first + lanes].copy_from_slice(&value[first..first + lanes]);
        }
        out
    }
}

fn swizzle(value: Vec4, swizzle: Swizzle) -> Vec4 {
    [0, 1, 2, 3].map(|lane| value[usize::from(swizzle >> (2 * lane) & 3)])
}

fn modify(x: f32, abs: bool, neg: bool) -> f32 {
    let x = if abs { x.abs() } else { x };
    if neg { -x } else { x }
}

/// Swizzle, then abs, then negate.
fn modify_vec(value: Vec4, source: &VecSource) -> Vec4 {
    swizzle(value, source.swizzle).map(|x| modify(x, source.abs, source.neg))
}

fn out_mod(x: f32, outmod: OutMod) -> f32 {
    match outmod {
        OutMod::None => x,
        OutMod::Sat if x.is_nan() => 0.0,
        OutMod::Sat => x.clamp(0.0, 1.0),
        OutMod::Pos => x.max(0.0),
        OutMod::Int => x.trunc(),
    }
}

fn bool_value(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

/// A multiplier op on one lane.
fn mul_op(op: MulOp, scale: f32, a: f32, b: f32) -> f32 {
    match op {
        MulOp::Mul => a * b * scale,
        MulOp::Not => bool_value(a == 0.0),
        MulOp::And => bool_value(a != 0.0 && b != 0.0),
        MulOp::Or => bool_value(a != 0.0 || b != 0.0),
        MulOp::Xor => bool_value((a != 0.0) != (b != 0.0)),
        MulOp::Ne => bool_value(a != b),
        MulOp::Gt => bool_value(a > b),
        MulOp::Ge => bool_value(a >= b),
        MulOp::Eq => bool_value(a == b),
        MulOp::Min => a.min(b),
        MulOp::Max => a.max(b),
        MulOp::Mov => a,
    }
}

/// 2^shift, exact.
fn shift_scale(shift: i8) -> f32 {
    f32::from_bits(((127 + i32::from(shift)) as u32) << 23)
}

/// An adder op on one lane, for the ops that work lane by lane (`sel` takes the condition;
/// the sums and derivatives are done by the caller).
fn acc_op(op: AccOp, a: f32, b: f32, select: bool) -> f32 {
    match op {
        AccOp::Add => a + b,
        AccOp::Fract => a - a.floor(),
        AccOp::Ne => bool_value(a != b),
        AccOp::Gt => bool_value(a > b),
        AccOp::Ge => bool_value(a >= b),
        AccOp::Eq => bool_value(a == b),
        AccOp::Floor => a.floor(),
        AccOp::Ceil => a.ceil(),
        AccOp::Min => a.min(b),
        AccOp::Max => a.max(b),
        AccOp::Sel if select => a,
        AccOp::Sel => b,
        // The scalar adder has no sums: they pass arg0 through. Derivatives are handled
        // before this.
        AccOp::Sum3 | AccOp::Sum4 | AccOp::Dfdx | AccOp::Dfdy | AccOp::Mov => a,
    }
}

/// sin(2 pi x) and cos(2 pi x), the argument in turns, reduced exactly to a quarter turn so
/// that whole and quarter turns give exact results.
fn sin_turns(x: f32, quarter_shift: u8) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    let x = f64::from(x);
    let quarters = (x - x.floor()) * 4.0;
    let quadrant = quarters.floor();
    let angle = (quarters - quadrant) * std::f64::consts::FRAC_PI_2;
    let value = match (quadrant as u8 + quarter_shift) % 4 {
        0 => angle.sin(),
        1 => angle.cos(),
        2 => -angle.sin(),
        _ => -angle.cos(),
    };
    // + 0.0 turns -0 into 0.
    value as f32 + 0.0
}

/// Flags of the modelled atan intermediate: the ratio was inverted, x was negative, y was
/// negative.
const ATAN_SWAP: u8 = 1;
const ATAN_NEG_X: u8 = 2;
const ATAN_NEG_Y: u8 = 4;

/// atan part 1 of one value: (ratio, 1, flags), the ratio in [0, 1].
fn atan_pt1(a: f32) -> Vec4 {
    let m = a.abs();
    let swap = m > 1.0;
    let ratio = if swap { 1.0 / m } else { m };
    let flags = if swap { ATAN_SWAP } else { 0 } | if a < 0.0 { ATAN_NEG_Y } else { 0 };
    [ratio, 1.0, f32::from(flags), 0.0]
}

/// atan2 part 1 of (y, x): (min(|x|, |y|), 1 / max(|x|, |y|), flags); the program then
/// multiplies .x by .y to get the ratio.
fn atan2_pt1(y: f32, x: f32) -> Vec4 {
    let (ay, ax) = (y.abs(), x.abs());
    let swap = ay > ax;
    let (small, large) = if swap { (ax, ay) } else { (ay, ax) };
    let flags =
        if swap { ATAN_SWAP } else { 0 } | if x < 0.0 { ATAN_NEG_X } else { 0 } | if y < 0.0 { ATAN_NEG_Y } else { 0 };
    [small, 1.0 / large, f32::from(flags), 0.0]
}

/// atan part 2: the angle in radians from the intermediate's .x (the ratio) and .z (flags).
fn atan_pt2(v: Vec4) -> f32 {
    let flags = if v[2].is_finite() {
        v[2].clamp(0.0, 7.0) as u8
    } else {
        0
    };
    let mut angle = f64::from(v[0]).atan();
    if flags & ATAN_SWAP != 0 {
        angle = std::f64::consts::FRAC_PI_2 - angle;
    }
    if flags & ATAN_NEG_X != 0 {
        angle = std::f64::consts::PI - angle;
    }
    if flags & ATAN_NEG_Y != 0 {
        angle = -angle;
    }
    angle as f32
}

/// A scalar op of the complex unit: its result in every lane (atan and atan2 give their
/// intermediate vec3).
fn combine_op(op: CombineOp, a: f32, b: f32) -> Vec4 {
    let scalar = match op {
        CombineOp::Rcp => 1.0 / a,
        CombineOp::Mov => a,
        CombineOp::Sqrt => a.sqrt(),
        CombineOp::Rsqrt => 1.0 / a.sqrt(),
        CombineOp::Exp2 => a.exp2(),
        CombineOp::Log2 => a.log2(),
        CombineOp::Sin => sin_turns(a, 0),
        CombineOp::Cos => sin_turns(a, 1),
        CombineOp::Atan => return atan_pt1(a),
        CombineOp::Atan2 => return atan2_pt1(a, b),
    };
    [scalar; 4]
}

/// A number plus the offset register's value, rounded down (saturating).
fn offset_number(number: i64, offset: Option<f32>) -> i64 {
    number.saturating_add(offset.map_or(0, |offset| offset.floor() as i64))
}

/// The slot, first lane and lane count of element `index` (plus the offset register's value,
/// rounded down) in units of `lanes` components (1, 2 or 4); `None` outside `slots` slots.
fn element(index: i64, offset: Option<f32>, lanes: usize, slots: usize) -> Option<(usize, usize, usize)> {
    let at = usize::try_from(offset_number(index, offset)).ok()?;
    let (slot, first) = match lanes {
        1 => (at / 4, at % 4),
        2 => (at / 2, at % 2 * 2),
        _ => (at, 0),
    };
    (slot < slots).then_some((slot, first, lanes))
}

/// How many components a load or store of this alignment moves.
fn lanes(alignment: Alignment) -> usize {
    match alignment {
        Alignment::Scalar | Alignment::Reserved => 1,
        Alignment::Vec2 => 2,
        Alignment::Vec4 => 4,
    }
}

fn perspective(value: Vec4, perspective: Perspective) -> Vec4 {
    match perspective {
        Perspective::Z => value.map(|x| x / value[2]),
        Perspective::W => value.map(|x| x / value[3]),
        Perspective::None | Perspective::Reserved => value,
    }
}

/// The cube-map face coordinate of a direction: (s, t, face, 1), the face numbered +x, -x,
/// +y, -y, +z, -z from 0, s and t in [0, 1] as OpenGL's face table gives them.
fn cube(v: Vec4) -> Vec4 {
    let [x, y, z, _] = v;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 { (0.0, -z, -y, ax) } else { (1.0, z, -y, ax) }
    } else if ay >= az {
        if y >= 0.0 { (2.0, x, z, ay) } else { (3.0, x, -z, ay) }
    } else if z >= 0.0 {
        (4.0, x, -y, az)
    } else {
        (5.0, -x, -y, az)
    };
    [(sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5, face, 1.0]
}

fn normalize(v: Vec4) -> Vec4 {
    let scale = 1.0 / (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] * scale, v[1] * scale, v[2] * scale, v[3]]
}

/// The four fragments of a 2x2 quad: 0 bottom left, 1 bottom right, 2 top left, 3 top
/// right; by default absent. Reused from quad to quad.
#[derive(Clone, Debug, Default)]
struct Quad {
    frags: [Fragment; 4],
}

impl Quad {
    fn output(&self, i: usize) -> Output {
        match self.frags[i].state {
            State::Discarded => Output::Discarded,
            _ => Output::Color(self.frags[i].regs[0]),
        }
    }

    /// Runs the quad until every fragment has stopped or discarded. At each step, every active
    /// fragment runs the units up to the adders' operands, then each the rest, so that
    /// derivatives read the neighbours' operands.
    fn run(&mut self, program: &Program, inputs: &Inputs) -> Result<(), Fault> {
        if program.steps.is_empty() {
            return Err(fault(0, 0, RunErrorKind::Empty));
        }
        let limit = inputs.max_steps;
        loop {
            let running = self.frags.iter().filter(|f| f.state == State::Running);
            let Some(pc) = running.map(|f| f.pc).min() else {
                return Ok(());
            };
            let active = [0, 1, 2, 3].map(|i| self.frags[i].state == State::Running && self.frags[i].pc == pc);
            let step = &program.steps[pc];
            for i in (0..4).filter(|&i| active[i]) {
                if self.frags[i].steps == limit {
                    return Err(fault(step.offset, i, RunErrorKind::StepLimit { limit }));
                }
                self.frags[i].steps += 1;
            }
            let mut pipes = [Pipe::default(); 4];
            let mut args = [AccArgs::default(); 4];
            for i in (0..4).filter(|&i| active[i]) {
                let mut unit = Unit::new(&mut self.frags[i], step, inputs, &mut pipes[i]);
                args[i] = unit.front().map_err(|kind| fault(step.offset, i, kind))?;
            }
            for i in (0..4).filter(|&i| active[i]) {
                let mut unit = Unit::new(&mut self.frags[i], step, inputs, &mut pipes[i]);
                unit.back(&args, i, active, program.steps.len())
                    .map_err(|kind| fault(step.offset, i, kind))?;
            }
        }
    }
}

/// The two fragments a derivative subtracts for fragment `i`: (left, right) for `dFdx`,
/// (bottom, top) for `dFdy`.
fn neighbours(i: usize, op: AccOp) -> (usize, usize) {
    match op {
        AccOp::Dfdx => (i & !1, i | 1),
        _ => (i & !2, i | 2),
    }
}

/// An error of fragment `frag` of a quad.
#[derive(Debug)]
struct Fault {
    frag: usize,
    error: RunError,
}

fn fault(offset: usize, frag: usize, kind: RunErrorKind) -> Fault {
    Fault {
        frag,
        error: RunError {
            offset,
            pixel: None,
            kind,
        },
    }
}

/// Runs one fragment: varying 0 is `inputs.varyings[0]`, `gl_FragCoord` is
/// `inputs.frag_coord`, and derivatives are 0 (the fragment has no neighbours).
pub fn run_fragment(program: &Program, inputs: &Inputs) -> Result<Output, RunError> {
    let mut quad = Quad::default();
    let varying0 = inputs.varyings.first().copied().unwrap_or([0.0; 4]);
    quad.frags[0].reset(varying0, inputs.frag_coord);
    quad.run(program, inputs).map_err(|fault| fault.error)?;
    Ok(quad.output(0))
}

pub use polyasm_core::picture::{Image, channel};

/// Renders a full-screen quad of `width` x `height` pixels: each pixel's fragment gets its
/// centre as varying 0, (u, v, 0, 1) with u from the left and v from the bottom in [0, 1],
/// and as `gl_FragCoord` (x + 0.5, y + 0.5, 0, 1) with y from the bottom. Fragments run in
/// 2x2 quads from the bottom left (a quad past the right or top edge runs its outside
/// fragments as helpers, which are not drawn); `$0` at `stop` is the colour, and a discarded
/// pixel is transparent black. Quad rows are spread over all cores. The error of the lowest
/// failing quad row is returned, so the same program always reports the same pixel. Panics
/// if the size fails [`check_size`].
pub fn render(program: &Program, inputs: &Inputs, width: u32, height: u32) -> Result<Image, RunError> {
    check_size(width, height).expect("invariant: the caller checked the size");
    let row_bytes = width as usize * 4;
    let mut rgba = vec![0u8; row_bytes * height as usize];
    // Rows from the bottom, paired into quad rows.
    let mut rows = rgba.chunks_mut(row_bytes).rev();
    let mut quad_rows = Vec::with_capacity(height.div_ceil(2) as usize);
    while let Some(bottom) = rows.next() {
        quad_rows.push((bottom, rows.next()));
    }
    let first_failure = AtomicUsize::new(usize::MAX);
    let failures: Vec<(usize, RunError)> = quad_rows
        .into_par_iter()
        .enumerate()
        .map_init(Quad::default, |quad, (row, (bottom, top))| {
            render_quad_row(program, inputs, (width, height), row, bottom, top, quad, &first_failure)
                .err()
                .map(|e| (row, e))
        })
        .flatten()
        .collect();
    match failures.into_iter().min_by_key(|(row, _)| *row) {
        Some((_, error)) => Err(error),
        None => Ok(Image { width, height, rgba }),
    }
}

/// Renders quad row `row` (pixel rows `2 * row` and `2 * row + 1` from the bottom) into its
/// picture rows; stops when a lower row has failed.
#[allow(clippy::too_many_arguments)]
fn render_quad_row(
    program: &Program,
    inputs: &Inputs,
    (width, height): (u32, u32),
    row: usize,
    bottom: &mut [u8],
    mut top: Option<&mut [u8]>,
    quad: &mut Quad,
    first_failure: &AtomicUsize,
) -> Result<(), RunError> {
    let (w, h) = (width as f32, height as f32);
    for qx in 0..width.div_ceil(2) {
        if first_failure.load(Ordering::Relaxed) < row {
            return Ok(());
        }
        // Fragment i's pixel, x from the left and y from the bottom.
        let pixel = |i: usize| (2 * qx + (i as u32 & 1), 2 * row as u32 + (i as u32 >> 1));
        for (i, frag) in quad.frags.iter_mut().enumerate() {
            let (x, y) = pixel(i);
            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
            frag.reset([cx / w, cy / h, 0.0, 1.0], [cx, cy, 0.0, 1.0]);
        }
        if let Err(fault) = quad.run(program, inputs) {
            first_failure.fetch_min(row, Ordering::Relaxed);
            let mut error = fault.error;
            error.pixel = Some(pixel(fault.frag));
            return Err(error);
        }
        for i in 0..4 {
            // A helper past the right or the top edge has no pixel in the rows.
            let out = if i < 2 { Some(&mut *bottom) } else { top.as_deref_mut() };
            let x = pixel(i).0 as usize;
            if let Some(out) = out.and_then(|row| row.get_mut(x * 4..x * 4 + 4)) {
                out.copy_from_slice(&match quad.output(i) {
                    Output::Color(c) => c.map(channel),
                    Output::Discarded => [0; 4],
                });
            }
        }
    }
    Ok(())
}
