//! The Masfix virtual machine.
//!
//! A [`Program`] is built once from decomposed instructions and run any number of times on a
//! [`Machine`] (65,536 cells, `h`, `r`), which the caller may keep between runs: compile-time
//! calls run many programs on one machine. Input is read through the VM's own buffer from any
//! [`Read`]; output is buffered and written to any [`Write`] before the VM waits for input and
//! when the run ends, so a prompt is on the screen before the program waits.
//!
//! ```
//! use polyasm_masfix::exec::{Limits, Machine, Program};
//! use polyasm_masfix::ops::{Instr, Kind, Oper, Reg, Value};
//!
//! // `inu`, `outc 33`, `ldrt 2` (r = r * 2), `outur`
//! let instrs = [
//!     Instr { value: Value::Reg(Reg::R), ..Instr::bare(Kind::Inu) },
//!     Instr { value: Value::Imm(33), ..Instr::bare(Kind::Outc) },
//!     Instr { value: Value::RegOp(Reg::R, Oper::Mul, 2), ..Instr::bare(Kind::Ld) },
//!     Instr { value: Value::Reg(Reg::R), ..Instr::bare(Kind::Outu) },
//! ];
//! let program = Program::new(&instrs).expect("a short program");
//! let mut machine = Machine::new();
//! let mut output = Vec::new();
//! let stats = program
//!     .run(&mut machine, &mut &b"21\n"[..], &mut output, Limits::default())
//!     .expect("the program ends");
//! assert_eq!(output, b"!42");
//! assert_eq!((stats.steps, machine.r), (4, 42));
//! ```

use std::fmt::Write as _;
use std::io::{self, Read, Write};

use polyasm_core::number::{DecimalProblem, LeadingZeros, parse_decimal};

use crate::limits::MAX_INSTRUCTIONS;
use crate::ops::{Cond, CondReg, Instr, Kind, Oper, Reg, Value};
pub use crate::outcome::{RunError, Stats};
pub(crate) use crate::streams::Io;

/// The number of memory cells.
pub const CELLS: usize = 1 << 16;

/// The state a program runs on: memory, the head `h` and the accumulator `r`. `m` is
/// `memory[h]`; `p` lives only while a program runs.
#[derive(Clone, PartialEq, Eq)]
pub struct Machine {
    /// Every cell, indexed by address: 65,536 16-bit cells, all 0 on a new machine.
    pub memory: Box<[u16; CELLS]>,
    /// The head: the address of the cell that is `m`.
    pub h: u16,
    /// The accumulator.
    pub r: u16,
}

impl Machine {
    /// A clean machine: every cell, `h` and `r` are 0.
    pub fn new() -> Machine {
        let memory: Box<[u16; CELLS]> = vec![0u16; CELLS]
            .into_boxed_slice()
            .try_into()
            .expect("invariant: the vector has exactly CELLS cells");
        Machine { memory, h: 0, r: 0 }
    }

    /// Back to the state of [`Machine::new`].
    pub fn reset(&mut self) {
        self.memory.fill(0);
        self.h = 0;
        self.r = 0;
    }

    /// The cell under the head.
    pub fn m(&self) -> u16 {
        self.memory[usize::from(self.h)]
    }
}

impl Default for Machine {
    fn default() -> Machine {
        Machine::new()
    }
}

impl std::fmt::Debug for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.memory.iter().filter(|&&c| c != 0).count();
        f.debug_struct("Machine")
            .field("h", &self.h)
            .field("r", &self.r)
            .field("m", &self.m())
            .field("nonzero_cells", &used)
            .finish()
    }
}

/// Limits on one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most instructions the run may execute; the run fails when the program would
    /// execute one more.
    pub max_steps: Option<u64>,
}

/// A program longer than [`MAX_INSTRUCTIONS`]: every index must be a 16-bit value of `p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramTooLong {
    /// The program's length in instructions, which the message quotes.
    pub len: usize,
}

impl std::fmt::Display for ProgramTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the program has {} instructions, more than {MAX_INSTRUCTIONS}",
            self.len
        )
    }
}

impl std::error::Error for ProgramTooLong {}

/// The machine state before one instruction runs, as a trace shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The index of the instruction about to run.
    pub index: usize,
    /// The head.
    pub h: u16,
    /// The accumulator.
    pub r: u16,
    /// The cell under the head, `memory[h]`.
    pub m: u16,
}

/// A program ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    instrs: Box<[Instr]>,
    /// One specialised operation per instruction, and [`Op::End`] at index `instrs.len()`.
    ops: Box<[Op]>,
    /// For each index, how many instructions run from it straight to the first jump or branch
    /// (included) or to the end: a run that long needs no step check inside it.
    run_len: Box<[u32]>,
}

impl Program {
    /// Prepares `instrs` to run.
    pub fn new(instrs: &[Instr]) -> Result<Program, ProgramTooLong> {
        if instrs.len() > MAX_INSTRUCTIONS {
            return Err(ProgramTooLong { len: instrs.len() });
        }
        let plain: Vec<Op> = instrs
            .iter()
            .enumerate()
            .map(|(i, instr)| Op::decode(instr, i, instrs.len()))
            .collect();
        // Each operation that starts a common pair runs the pair; the second keeps its own
        // operation for jumps that land on it. Then `mov k` before a fused pair may run all
        // three.
        let pairs: Vec<Op> = plain
            .iter()
            .enumerate()
            .map(|(i, &op)| plain.get(i + 1).and_then(|&next| Op::fuse(op, next)).unwrap_or(op))
            .collect();
        let mut ops: Vec<Op> = (0..plain.len())
            .map(|i| match (plain[i], pairs.get(i + 1)) {
                (Op::MovImm(_), Some(&pair)) if pair != plain[i + 1] => Op::fuse(plain[i], pair).unwrap_or(pairs[i]),
                _ => pairs[i],
            })
            .collect();
        ops.push(Op::End);
        let mut run_len = vec![0u32; instrs.len() + 1];
        for (i, instr) in instrs.iter().enumerate().rev() {
            run_len[i] = match instr.kind {
                Kind::Jmp | Kind::B => 1,
                _ => 1 + run_len[i + 1],
            };
        }
        Ok(Program {
            instrs: instrs.into(),
            ops: ops.into(),
            run_len: run_len.into(),
        })
    }

    /// The instructions, as given.
    pub fn instrs(&self) -> &[Instr] {
        &self.instrs
    }

    /// For each index, and the end, the instructions from there to the end of the straight
    /// run (the next jump or branch, included).
    #[cfg(jit)]
    pub(crate) fn run_len(&self) -> &[u32] {
        &self.run_len
    }

    /// Runs the program from its first instruction on `machine`, reading `input` and writing
    /// `output`. The machine keeps its state afterwards, whatever the outcome.
    pub fn run(
        &self,
        machine: &mut Machine,
        input: &mut dyn Read,
        output: &mut dyn Write,
        limits: Limits,
    ) -> Result<Stats, RunError> {
        let mut io = Io::new(input, output);
        let result = match limits.max_steps {
            None => self.run_fast::<false>(machine, &mut io, u64::MAX),
            Some(max) => self.run_fast::<true>(machine, &mut io, max),
        };
        let result = match result {
            Ok(Exit::Ended(steps)) => Ok(Stats { steps }),
            Ok(Exit::Slow { pc, steps }) => self.run_slow(machine, &mut io, limits, pc, steps, None),
            Err(e) => Err(e),
        };
        io.finish(result)
    }

    /// Runs like [`Program::run`], calling `trace` before each instruction with its index and
    /// the machine state. Output waiting in the buffer is written before each call, so a trace
    /// on another stream interleaves with the program's output. A trace that fails to write
    /// (its reader closed the pipe, a full disk) stops the run with its error as a
    /// [`RunError::Write`].
    pub fn run_traced(
        &self,
        machine: &mut Machine,
        input: &mut dyn Read,
        output: &mut dyn Write,
        limits: Limits,
        trace: &mut dyn FnMut(TraceStep) -> io::Result<()>,
    ) -> Result<Stats, RunError> {
        let mut io = Io::new(input, output);
        let result = self.run_slow(machine, &mut io, limits, 0, 0, Some(trace));
        io.finish(result)
    }

    /// Runs the specialised operations. Steps are counted per straight run (from a jump
    /// target to the next jump or branch), since inside one the index moves by one per
    /// instruction. With `LIMITED`, a run is entered only when it fits in the steps left;
    /// otherwise the run continues on the exact path (`Exit::Slow`).
    fn run_fast<const LIMITED: bool>(&self, machine: &mut Machine, io: &mut Io, max: u64) -> Result<Exit, RunError> {
        let Machine {
            memory,
            h: saved_h,
            r: saved_r,
        } = machine;
        let mem: &mut [u16; CELLS] = memory;
        let (mut h, mut r) = (*saved_h, *saved_r);
        let ops = &self.ops[..];
        let len = self.instrs.len();
        let mut pc = 0usize;
        // The steps done before the instruction at `pc` are `base + pc` (wrapping): inside a
        // straight run, and on a branch not taken, nothing needs counting.
        let mut base = 0u64;
        if LIMITED && u64::from(self.run_len[0]) > max {
            return Ok(Exit::Slow { pc: 0, steps: 0 });
        }
        // Ends the straight run with the jump or branch at `pc + $width - 1` going to `$target`,
        // which `transfer` checks and `jump` knows to be at most the end.
        macro_rules! transfer {
            ($width:expr, $target:expr) => {{
                let target: usize = $target;
                if target > len {
                    (*saved_h, *saved_r) = (h, r);
                    return Err(RunError::JumpOutOfRange {
                        at: pc + $width - 1,
                        target: target as u16,
                        steps: base.wrapping_add((pc + $width) as u64),
                    });
                }
                jump!($width, target)
            }};
        }
        macro_rules! jump {
            ($width:expr, $target:expr) => {{
                let target: usize = $target;
                base = base
                    .wrapping_add((pc + $width) as u64)
                    .wrapping_sub(target as u64);
                if LIMITED && base.wrapping_add((target as u64) + u64::from(self.run_len[target])) > max {
                    (*saved_h, *saved_r) = (h, r);
                    return Ok(Exit::Slow {
                        pc: target,
                        steps: base.wrapping_add(target as u64),
                    });
                }
                pc = target;
                continue;
            }};
        }
        macro_rules! io {
            ($e:expr) => {
                match $e {
                    Ok(v) => v,
                    Err(e) => {
                        (*saved_h, *saved_r) = (h, r);
                        return Err(e);
                    }
                }
            };
        }
        loop {
            let cell = usize::from(h);
            match ops[pc] {
                Op::LdImm(k) => r = k,
                Op::LdH => r = h,
                Op::LdM => r = mem[cell],
                Op::LdAddImm(k) => r = r.wrapping_add(k),
                Op::LdAddM => r = r.wrapping_add(mem[cell]),
                Op::LdSubM => r = r.wrapping_sub(mem[cell]),
                Op::MovImm(k) => h = k,
                Op::MovR => h = r,
                Op::MovM => h = mem[cell],
                Op::MovAddImm(k) => h = h.wrapping_add(k),
                Op::StrImm(k) => mem[cell] = k,
                Op::StrR => mem[cell] = r,
                Op::StrH => mem[cell] = h,
                Op::StrAddImm(k) => mem[cell] = mem[cell].wrapping_add(k),
                Op::StrAddR => mem[cell] = mem[cell].wrapping_add(r),
                Op::StrSubR => mem[cell] = mem[cell].wrapping_sub(r),
                Op::Set { dest, modifier, src } => {
                    let m = mem[cell];
                    let mut value = src.eval(h, r, m);
                    if let Some(op) = modifier {
                        let old = match dest {
                            Dest::H => h,
                            Dest::M => m,
                            Dest::R => r,
                        };
                        value = op.apply(old, value);
                    }
                    match dest {
                        Dest::H => h = value,
                        Dest::M => mem[cell] = value,
                        Dest::R => r = value,
                    }
                }
                Op::Swap => std::mem::swap(&mut r, &mut mem[cell]),
                Op::LImm { reg, test, k } => r = u16::from(test.holds(reg.pick(r, mem[cell]), k)),
                Op::SImm { reg, test, k } => mem[cell] = u16::from(test.holds(reg.pick(r, mem[cell]), k)),
                Op::L { reg, test, src } => {
                    let m = mem[cell];
                    r = u16::from(test.holds(reg.pick(r, m), src.eval(h, r, m)));
                }
                Op::S { reg, test, src } => {
                    let m = mem[cell];
                    mem[cell] = u16::from(test.holds(reg.pick(r, m), src.eval(h, r, m)));
                }
                Op::OutcImm(b) => io!(io.outc(b)),
                Op::OutcR => io!(io.outc(r as u8)),
                Op::OutcM => io!(io.outc(mem[cell] as u8)),
                Op::Outc(src) => io!(io.outc(src.eval(h, r, mem[cell]) as u8)),
                Op::OutuR => io!(io.outu(r)),
                Op::OutuM => io!(io.outu(mem[cell])),
                Op::Outu(src) => io!(io.outu(src.eval(h, r, mem[cell]))),
                Op::IncR => r = io!(io.inc()),
                Op::IncM => mem[cell] = io!(io.inc()),
                Op::IpcR => r = io!(io.ipc()),
                Op::IpcM => mem[cell] = io!(io.ipc()),
                Op::InuR => r = io!(io.inu()),
                Op::InuM => mem[cell] = io!(io.inu()),
                Op::Inl => io!(io.inl()),
                Op::Jmp(target) => jump!(1, usize::from(target)),
                Op::JmpTo { modifier, src } => {
                    let value = src.eval(h, r, mem[cell]);
                    let target = match modifier {
                        Some(op) => op.apply(pc as u16, value),
                        None => value,
                    };
                    transfer!(1, usize::from(target))
                }
                Op::BrRNe(target) => jump!(1, if r != 0 { usize::from(target) } else { pc + 1 }),
                Op::BrREq(target) => jump!(1, if r == 0 { usize::from(target) } else { pc + 1 }),
                Op::BrMNe(target) => jump!(1, if mem[cell] != 0 { usize::from(target) } else { pc + 1 }),
                Op::BrMEq(target) => jump!(1, if mem[cell] == 0 { usize::from(target) } else { pc + 1 }),
                Op::Br { reg, test, src } => {
                    let m = mem[cell];
                    if test.holds(reg.pick(r, m), 0) {
                        transfer!(1, usize::from(src.eval(h, r, m)))
                    }
                    transfer!(1, pc + 1)
                }
                Op::LdAddBrRNe { k, target } => {
                    r = r.wrapping_add(k);
                    jump!(2, if r != 0 { usize::from(target) } else { pc + 2 })
                }
                Op::StrAddBrMNe { k, target } => {
                    let m = mem[cell].wrapping_add(k);
                    mem[cell] = m;
                    jump!(2, if m != 0 { usize::from(target) } else { pc + 2 })
                }
                Op::LImmBr {
                    reg,
                    test,
                    k,
                    jump_if,
                    target,
                } => {
                    r = u16::from(test.holds(reg.pick(r, mem[cell]), k));
                    jump!(
                        2,
                        if (r != 0) == jump_if {
                            usize::from(target)
                        } else {
                            pc + 2
                        }
                    )
                }
                Op::SImmBr {
                    reg,
                    test,
                    k,
                    jump_if,
                    target,
                } => {
                    let holds = test.holds(reg.pick(r, mem[cell]), k);
                    mem[cell] = u16::from(holds);
                    jump!(2, if holds == jump_if { usize::from(target) } else { pc + 2 })
                }
                Op::MovRBrM { jump_if, target } => {
                    h = r;
                    let nonzero = mem[usize::from(h)] != 0;
                    jump!(
                        2,
                        if nonzero == jump_if {
                            usize::from(target)
                        } else {
                            pc + 2
                        }
                    )
                }
                Op::OutuRThenOutc(b) => {
                    io!(io.outu_then(r, b));
                    pc += 1;
                }
                Op::OutuMThenOutc(b) => {
                    io!(io.outu_then(mem[cell], b));
                    pc += 1;
                }
                Op::MovRStrImm(k) => {
                    h = r;
                    mem[usize::from(h)] = k;
                    pc += 1;
                }
                Op::MovLdM(at) => {
                    h = at;
                    r = mem[usize::from(at)];
                    pc += 1;
                }
                Op::MovLdAddM(at) => {
                    h = at;
                    r = r.wrapping_add(mem[usize::from(at)]);
                    pc += 1;
                }
                Op::MovLdSubM(at) => {
                    h = at;
                    r = r.wrapping_sub(mem[usize::from(at)]);
                    pc += 1;
                }
                Op::MovStrImm { at, k } => {
                    h = at;
                    mem[usize::from(at)] = k;
                    pc += 1;
                }
                Op::MovStrAddImm { at, k } => {
                    h = at;
                    let cell = usize::from(at);
                    mem[cell] = mem[cell].wrapping_add(k);
                    pc += 1;
                }
                Op::MovStrR(at) => {
                    h = at;
                    mem[usize::from(at)] = r;
                    pc += 1;
                }
                Op::MovStrAddR(at) => {
                    h = at;
                    let cell = usize::from(at);
                    mem[cell] = mem[cell].wrapping_add(r);
                    pc += 1;
                }
                Op::MovSImm { at, reg, test, k } => {
                    h = at;
                    let cell = usize::from(at);
                    mem[cell] = u16::from(test.holds(reg.pick(r, mem[cell]), k));
                    pc += 1;
                }
                Op::MovOutuM(at) => {
                    h = at;
                    io!(io.outu(mem[usize::from(at)]));
                    pc += 1;
                }
                Op::MovInuR(at) => {
                    h = at;
                    r = io!(io.inu());
                    pc += 1;
                }
                Op::MovInuM(at) => {
                    h = at;
                    mem[usize::from(at)] = io!(io.inu());
                    pc += 1;
                }
                Op::MovStrAddBrMNe { at, k, target } => {
                    h = at;
                    let cell = usize::from(at);
                    let m = mem[cell].wrapping_add(k);
                    mem[cell] = m;
                    jump!(3, if m != 0 { usize::from(target) } else { pc + 3 })
                }
                Op::MovSImmBr {
                    at,
                    reg,
                    test,
                    k,
                    jump_if,
                    target,
                } => {
                    h = at;
                    let cell = usize::from(at);
                    let holds = test.holds(reg.pick(r, mem[cell]), k);
                    mem[cell] = u16::from(holds);
                    jump!(3, if holds == jump_if { usize::from(target) } else { pc + 3 })
                }
                Op::End => {
                    (*saved_h, *saved_r) = (h, r);
                    return Ok(Exit::Ended(base.wrapping_add(pc as u64)));
                }
            }
            pc += 1;
        }
    }

    /// Executes one source instruction at a time from `pc`, `steps` already done, checking
    /// the limit before each.
    pub(crate) fn run_slow(
        &self,
        machine: &mut Machine,
        io: &mut Io,
        limits: Limits,
        mut pc: usize,
        mut steps: u64,
        mut trace: Option<&mut dyn FnMut(TraceStep) -> io::Result<()>>,
    ) -> Result<Stats, RunError> {
        let max = limits.max_steps.unwrap_or(u64::MAX);
        while let Some(instr) = self.instrs.get(pc) {
            if steps >= max {
                return Err(RunError::StepLimit { steps });
            }
            if let Some(trace) = trace.as_mut() {
                if io.has_output() {
                    io.flush()?;
                }
                trace(TraceStep {
                    index: pc,
                    h: machine.h,
                    r: machine.r,
                    m: machine.m(),
                })
                .map_err(RunError::Write)?;
            }
            steps += 1;
            pc = match step(instr, pc, machine, io) {
                Ok(next) if next <= self.instrs.len() => next,
                Ok(next) => {
                    return Err(RunError::JumpOutOfRange {
                        at: pc,
                        target: next as u16,
                        steps,
                    });
                }
                Err(e) => return Err(e),
            };
        }
        Ok(Stats { steps })
    }
}

/// How a fast run stopped without an error.
enum Exit {
    /// The program ended after this many steps.
    Ended(u64),
    /// The next straight run does not fit in the steps left: go on one instruction at a time.
    Slow { pc: usize, steps: u64 },
}

/// The register a `mov`, `str` or `ld` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    H,
    M,
    R,
}

/// A value as an operation computes it, with `p` already replaced by the instruction's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Src {
    Const(u16),
    H,
    M,
    R,
    HOp(Oper, u16),
    MOp(Oper, u16),
    ROp(Oper, u16),
}

impl Src {
    fn of(value: Value, index: usize) -> Src {
        let p = index as u16;
        match value {
            Value::None => Src::Const(0),
            Value::Imm(k) => Src::Const(k),
            Value::Reg(Reg::H) => Src::H,
            Value::Reg(Reg::M) => Src::M,
            Value::Reg(Reg::R) => Src::R,
            Value::Reg(Reg::P) => Src::Const(p),
            Value::RegOp(Reg::H, op, k) => Src::HOp(op, k),
            Value::RegOp(Reg::M, op, k) => Src::MOp(op, k),
            Value::RegOp(Reg::R, op, k) => Src::ROp(op, k),
            Value::RegOp(Reg::P, op, k) => Src::Const(op.apply(p, k)),
        }
    }

    #[inline(always)]
    fn eval(self, h: u16, r: u16, m: u16) -> u16 {
        match self {
            Src::Const(k) => k,
            Src::H => h,
            Src::M => m,
            Src::R => r,
            Src::HOp(op, k) => op.apply(h, k),
            Src::MOp(op, k) => op.apply(m, k),
            Src::ROp(op, k) => op.apply(r, k),
        }
    }
}

/// A condition as a branch-free test: both sides are biased (the top bit flipped for signed
/// conditions, which makes them unsigned ones), then bit `less = 0, equal = 1, greater = 2`
/// of the truth table says whether it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Test {
    bias: u16,
    table: u8,
}

impl Test {
    fn of(cond: Cond) -> Test {
        let (signed, table) = match cond {
            Cond::Eq => (false, 0b010),
            Cond::Ne => (false, 0b101),
            Cond::Lt => (true, 0b001),
            Cond::Le => (true, 0b011),
            Cond::Gt => (true, 0b100),
            Cond::Ge => (true, 0b110),
            Cond::Ab => (false, 0b100),
            Cond::Ae => (false, 0b110),
            Cond::Bl => (false, 0b001),
            Cond::Be => (false, 0b011),
        };
        Test {
            bias: if signed { 0x8000 } else { 0 },
            table,
        }
    }

    #[inline(always)]
    fn holds(self, l: u16, r: u16) -> bool {
        let (l, r) = (l ^ self.bias, r ^ self.bias);
        let order = u8::from(l == r) | u8::from(l > r) << 1;
        self.table >> order & 1 == 1
    }
}

trait PickCondReg {
    fn pick(self, r: u16, m: u16) -> u16;
}

impl PickCondReg for CondReg {
    #[inline(always)]
    fn pick(self, r: u16, m: u16) -> u16 {
        match self {
            CondReg::R => r,
            CondReg::M => m,
        }
    }
}

/// An instruction specialised by its shape: the common shapes get an operation of their own,
/// the rest a general one ([`Op::Set`], [`Op::L`], ...).
/// `repr(u8)` keeps the tag a plain byte: a niche in a field would make every dispatch decode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Op {
    LdImm(u16),
    LdH,
    LdM,
    /// `lda k`, and `lds k` as the addition of `-k`.
    LdAddImm(u16),
    LdAddM,
    LdSubM,
    MovImm(u16),
    MovR,
    MovM,
    MovAddImm(u16),
    StrImm(u16),
    StrR,
    StrH,
    StrAddImm(u16),
    StrAddR,
    StrSubR,
    Set {
        dest: Dest,
        modifier: Option<Oper>,
        src: Src,
    },
    Swap,
    LImm {
        reg: CondReg,
        test: Test,
        k: u16,
    },
    SImm {
        reg: CondReg,
        test: Test,
        k: u16,
    },
    L {
        reg: CondReg,
        test: Test,
        src: Src,
    },
    S {
        reg: CondReg,
        test: Test,
        src: Src,
    },
    OutcImm(u8),
    OutcR,
    OutcM,
    Outc(Src),
    OutuR,
    OutuM,
    Outu(Src),
    IncR,
    IncM,
    IpcR,
    IpcM,
    InuR,
    InuM,
    Inl,
    Jmp(u16),
    /// `p = p modifier value` or `p = value`, the value known only at run time.
    JmpTo {
        modifier: Option<Oper>,
        src: Src,
    },
    BrRNe(u16),
    BrREq(u16),
    BrMNe(u16),
    BrMEq(u16),
    Br {
        reg: CondReg,
        test: Test,
        src: Src,
    },
    /// Past the last instruction.
    End,
    // Pairs run as one operation.
    /// `lda k` or `lds k`, then `bne target`.
    LdAddBrRNe {
        k: u16,
        target: u16,
    },
    /// `stra k` or `strs k`, then `bmne target`.
    StrAddBrMNe {
        k: u16,
        target: u16,
    },
    /// `l<cond> k`, then `bne target` (`jump_if`) or `beq target`.
    LImmBr {
        reg: CondReg,
        test: Test,
        k: u16,
        jump_if: bool,
        target: u16,
    },
    /// `s<cond> k`, then `bmne target` (`jump_if`) or `bmeq target`.
    SImmBr {
        reg: CondReg,
        test: Test,
        k: u16,
        jump_if: bool,
        target: u16,
    },
    /// `movr`, then `bmne target` (`jump_if`) or `bmeq target`.
    MovRBrM {
        jump_if: bool,
        target: u16,
    },
    /// `movr`, then `str k`.
    MovRStrImm(u16),
    /// `outur`, then `outc k`: a number and a separator.
    OutuRThenOutc(u8),
    /// `outum`, then `outc k`.
    OutuMThenOutc(u8),
    // `mov at`, then an operation on the cell there.
    MovLdM(u16),
    MovLdAddM(u16),
    MovLdSubM(u16),
    MovStrImm {
        at: u16,
        k: u16,
    },
    MovStrAddImm {
        at: u16,
        k: u16,
    },
    MovStrR(u16),
    MovStrAddR(u16),
    MovSImm {
        at: u16,
        reg: CondReg,
        test: Test,
        k: u16,
    },
    MovOutuM(u16),
    MovInuR(u16),
    MovInuM(u16),
    // Three instructions run as one operation.
    /// `mov at`, `stra k` or `strs k`, `bmne target`: a counter in memory.
    MovStrAddBrMNe {
        at: u16,
        k: u16,
        target: u16,
    },
    /// `mov at`, `s<cond> k`, then `bmne target` (`jump_if`) or `bmeq target`.
    MovSImmBr {
        at: u16,
        reg: CondReg,
        test: Test,
        k: u16,
        jump_if: bool,
        target: u16,
    },
}

impl Op {
    /// The operation running `first` then `second` (the next instruction), for the pairs
    /// programs use most; the first is never a jump or branch, so a pair stays in one run.
    fn fuse(first: Op, second: Op) -> Option<Op> {
        let branch = match second {
            Op::BrRNe(target) | Op::BrMNe(target) => Some((true, target)),
            Op::BrREq(target) | Op::BrMEq(target) => Some((false, target)),
            _ => None,
        };
        let on_m = matches!(second, Op::BrMNe(_) | Op::BrMEq(_));
        Some(match (first, branch) {
            (Op::LdAddImm(k), Some((true, target))) if !on_m => Op::LdAddBrRNe { k, target },
            (Op::StrAddImm(k), Some((true, target))) if on_m => Op::StrAddBrMNe { k, target },
            (Op::LImm { reg, test, k }, Some((jump_if, target))) if !on_m => Op::LImmBr {
                reg,
                test,
                k,
                jump_if,
                target,
            },
            (Op::SImm { reg, test, k }, Some((jump_if, target))) if on_m => Op::SImmBr {
                reg,
                test,
                k,
                jump_if,
                target,
            },
            (Op::MovR, Some((jump_if, target))) if on_m => Op::MovRBrM { jump_if, target },
            (Op::OutuR, _) => match second {
                Op::OutcImm(b) => Op::OutuRThenOutc(b),
                _ => return None,
            },
            (Op::OutuM, _) => match second {
                Op::OutcImm(b) => Op::OutuMThenOutc(b),
                _ => return None,
            },
            (Op::MovR, _) => match second {
                Op::StrImm(k) => Op::MovRStrImm(k),
                _ => return None,
            },
            (Op::MovImm(at), _) => match second {
                Op::LdM => Op::MovLdM(at),
                Op::LdAddM => Op::MovLdAddM(at),
                Op::LdSubM => Op::MovLdSubM(at),
                Op::StrImm(k) => Op::MovStrImm { at, k },
                Op::StrAddImm(k) => Op::MovStrAddImm { at, k },
                Op::StrR => Op::MovStrR(at),
                Op::StrAddR => Op::MovStrAddR(at),
                Op::SImm { reg, test, k } => Op::MovSImm { at, reg, test, k },
                Op::OutuM => Op::MovOutuM(at),
                Op::InuR => Op::MovInuR(at),
                Op::InuM => Op::MovInuM(at),
                // A pair that a third instruction completes.
                Op::StrAddBrMNe { k, target } => Op::MovStrAddBrMNe { at, k, target },
                Op::SImmBr {
                    reg,
                    test,
                    k,
                    jump_if,
                    target,
                } => Op::MovSImmBr {
                    at,
                    reg,
                    test,
                    k,
                    jump_if,
                    target,
                },
                _ => return None,
            },
            _ => return None,
        })
    }

    /// `len` is the program's length: a jump or branch known to go past it gets the
    /// general operation, which checks its target when it runs.
    fn decode(instr: &Instr, index: usize, len: usize) -> Op {
        let src = Src::of(instr.value, index);
        let to_m = instr.value == Value::Reg(Reg::M);
        let (reg, cond) = instr.cond.unwrap_or((CondReg::R, Cond::Eq));
        let test = Test::of(cond);
        let within = |target: u16| usize::from(target) <= len;
        let basic = |dest: Dest| Op::Set {
            dest,
            modifier: instr.modifier,
            src,
        };
        match instr.kind {
            Kind::Ld => match (instr.modifier, src) {
                (None, Src::Const(k)) => Op::LdImm(k),
                (None, Src::H) => Op::LdH,
                (None, Src::M) => Op::LdM,
                (Some(Oper::Add), Src::Const(k)) => Op::LdAddImm(k),
                (Some(Oper::Sub), Src::Const(k)) => Op::LdAddImm(k.wrapping_neg()),
                (Some(Oper::Add), Src::M) => Op::LdAddM,
                (Some(Oper::Sub), Src::M) => Op::LdSubM,
                _ => basic(Dest::R),
            },
            Kind::Mov => match (instr.modifier, src) {
                (None, Src::Const(k)) => Op::MovImm(k),
                (None, Src::R) => Op::MovR,
                (None, Src::M) => Op::MovM,
                (Some(Oper::Add), Src::Const(k)) => Op::MovAddImm(k),
                (Some(Oper::Sub), Src::Const(k)) => Op::MovAddImm(k.wrapping_neg()),
                _ => basic(Dest::H),
            },
            Kind::Str => match (instr.modifier, src) {
                (None, Src::Const(k)) => Op::StrImm(k),
                (None, Src::R) => Op::StrR,
                (None, Src::H) => Op::StrH,
                (Some(Oper::Add), Src::Const(k)) => Op::StrAddImm(k),
                (Some(Oper::Sub), Src::Const(k)) => Op::StrAddImm(k.wrapping_neg()),
                (Some(Oper::Add), Src::R) => Op::StrAddR,
                (Some(Oper::Sub), Src::R) => Op::StrSubR,
                _ => basic(Dest::M),
            },
            Kind::Jmp => match (instr.modifier, src) {
                (None, Src::Const(k)) if within(k) => Op::Jmp(k),
                (Some(op), Src::Const(k)) if within(op.apply(index as u16, k)) => Op::Jmp(op.apply(index as u16, k)),
                (modifier, src) => Op::JmpTo { modifier, src },
            },
            Kind::B => match (reg, Cond::branch_form(cond), src) {
                (reg, _, Src::Const(k)) if !within(k) => Op::Br {
                    reg,
                    test: Test::of(cond),
                    src,
                },
                (_, Some(Cond::Ae), Src::Const(k)) => Op::Jmp(k),
                (CondReg::R, Some(Cond::Ne), Src::Const(k)) => Op::BrRNe(k),
                (CondReg::R, Some(Cond::Eq), Src::Const(k)) => Op::BrREq(k),
                (CondReg::M, Some(Cond::Ne), Src::Const(k)) => Op::BrMNe(k),
                (CondReg::M, Some(Cond::Eq), Src::Const(k)) => Op::BrMEq(k),
                (reg, _, src) => Op::Br {
                    reg,
                    test: Test::of(cond),
                    src,
                },
            },
            Kind::L => match src {
                Src::Const(k) => Op::LImm { reg, test, k },
                src => Op::L { reg, test, src },
            },
            Kind::S => match src {
                Src::Const(k) => Op::SImm { reg, test, k },
                src => Op::S { reg, test, src },
            },
            Kind::Swap => Op::Swap,
            Kind::Outc => match src {
                Src::Const(k) => Op::OutcImm(k as u8),
                Src::R => Op::OutcR,
                Src::M => Op::OutcM,
                src => Op::Outc(src),
            },
            Kind::Outu => match src {
                Src::R => Op::OutuR,
                Src::M => Op::OutuM,
                src => Op::Outu(src),
            },
            Kind::Inc if to_m => Op::IncM,
            Kind::Inc => Op::IncR,
            Kind::Ipc if to_m => Op::IpcM,
            Kind::Ipc => Op::IpcR,
            Kind::Inu if to_m => Op::InuM,
            Kind::Inu => Op::InuR,
            Kind::Inl => Op::Inl,
        }
    }
}

trait BranchForm {
    fn branch_form(self) -> Option<Cond>;
}

impl BranchForm for Cond {
    /// The same test against 0 in its simplest form: `ab` is `ne`, `be` is `eq`, `ae` always
    /// holds (`Some(Ae)`), `bl` never (`None`).
    fn branch_form(self) -> Option<Cond> {
        match self {
            Cond::Ab => Some(Cond::Ne),
            Cond::Be => Some(Cond::Eq),
            Cond::Bl => None,
            c => Some(c),
        }
    }
}

/// Executes `instr` at index `pc`; returns the index of the next instruction (unchecked: past
/// the end when a jump says so).
fn step(instr: &Instr, pc: usize, machine: &mut Machine, io: &mut Io) -> Result<usize, RunError> {
    let (h, r, m) = (machine.h, machine.r, machine.m());
    let p = pc as u16;
    let read = |reg: Reg| match reg {
        Reg::H => h,
        Reg::M => m,
        Reg::R => r,
        Reg::P => p,
    };
    let value = match instr.value {
        Value::None => 0,
        Value::Imm(imm) => imm,
        Value::Reg(reg) => read(reg),
        Value::RegOp(reg, op, imm) => op.apply(read(reg), imm),
    };
    let value = match (instr.modifier, instr.kind.info().dest) {
        (Some(op), Some(dest)) => op.apply(read(dest), value),
        _ => value,
    };
    let cond_reg = |reg: CondReg| match reg {
        CondReg::R => r,
        CondReg::M => m,
    };
    let cell = usize::from(h);
    let mut next = pc + 1;
    match instr.kind {
        Kind::Mov => machine.h = value,
        Kind::Str => machine.memory[cell] = value,
        Kind::Ld => machine.r = value,
        Kind::Jmp => next = usize::from(value),
        Kind::B => {
            let (reg, cond) = instr.cond.expect("invariant: b has a condition");
            if cond.test(cond_reg(reg), 0) {
                next = usize::from(value);
            }
        }
        Kind::L => {
            let (reg, cond) = instr.cond.expect("invariant: l has a condition");
            machine.r = u16::from(cond.test(cond_reg(reg), value));
        }
        Kind::S => {
            let (reg, cond) = instr.cond.expect("invariant: s has a condition");
            machine.memory[cell] = u16::from(cond.test(cond_reg(reg), value));
        }
        Kind::Swap => {
            machine.r = m;
            machine.memory[cell] = r;
        }
        Kind::Outu => io.outu(value)?,
        Kind::Outc => io.outc(value as u8)?,
        Kind::Inc | Kind::Ipc | Kind::Inu => {
            let got = match instr.kind {
                Kind::Inc => io.inc()?,
                Kind::Ipc => io.ipc()?,
                _ => io.inu()?,
            };
            match instr.value {
                Value::Reg(Reg::M) => machine.memory[cell] = got,
                _ => machine.r = got,
            }
        }
        Kind::Inl => io.inl()?,
    }
    Ok(next)
}

/// Cells a viewer is shown around the head ([`end_state`]).
pub const VIEW_CELLS: usize = 128;

/// The machine's state for a viewer when a run ends: `h`, `r`, `m`, and [`VIEW_CELLS`] cells
/// around the head (from a multiple of 16, the head in the middle rows where it can be).
pub fn end_state(machine: &Machine, steps: Option<u64>) -> polyasm_core::EndState {
    let first = (usize::from(machine.h) / 16 * 16)
        .saturating_sub(VIEW_CELLS / 2)
        .min(CELLS - VIEW_CELLS);
    polyasm_core::EndState {
        steps,
        registers: vec![
            ("h", i64::from(machine.h)),
            ("r", i64::from(machine.r)),
            ("m", i64::from(machine.m())),
        ],
        memory_start: first as u32,
        memory: machine.memory[first..first + VIEW_CELLS]
            .iter()
            .map(|&c| i64::from(c))
            .collect(),
    }
}

/// The cells `first..=last` as text for `--dump-memory`: one line per 8 cells, the address of
/// the line's first cell in decimal, a colon, then each cell in decimal, right-aligned in 5
/// columns (`   16:     0    72   105 ...`). Nothing when `last < first`.
pub fn dump_memory(machine: &Machine, first: u16, last: u16) -> String {
    let mut out = String::new();
    if last < first {
        return out;
    }
    let cells = &machine.memory[usize::from(first)..=usize::from(last)];
    for (line, chunk) in cells.chunks(8).enumerate() {
        let address = usize::from(first) + line * 8;
        let _ = write!(out, "{address:>5}:");
        for cell in chunk {
            let _ = write!(out, " {cell:>5}");
        }
        out.push('\n');
    }
    out
}

/// Reads a `--dump-memory` range: `N` (one cell), `A..B` (from `A` up to, not including, `B`,
/// at most 65536) or `A..=B`, in decimal. Gives the first and last cell.
pub fn parse_memory_range(text: &str) -> Result<(u16, u16), String> {
    let number = |s: &str, max: u32| -> Result<u32, String> {
        let s = s.trim();
        match parse_decimal(s, u64::from(max), LeadingZeros::Allowed) {
            Ok(n) => Ok(n as u32),
            Err(DecimalProblem::NotDigits | DecimalProblem::LeadingZeros) => {
                Err(format!("`{s}` is not a decimal cell address"))
            }
            // The end of `A..B` is one past the last cell shown.
            Err(DecimalProblem::OutOfRange) if max > 65535 => Err(format!(
                "`{s}` is past the end of memory (`A..B` ends at {max} at most)"
            )),
            Err(DecimalProblem::OutOfRange) => Err(format!("`{s}` is past the last cell address ({max})")),
        }
    };
    let (first, last) = if let Some((a, b)) = text.split_once("..=") {
        (number(a, 65535)?, number(b, 65535)?)
    } else if let Some((a, b)) = text.split_once("..") {
        let (a, b) = (number(a, 65535)?, number(b, 65536)?);
        if b <= a {
            return Err(format!("the range `{text}` holds no cell"));
        }
        (a, b - 1)
    } else {
        let n = number(text, 65535)?;
        (n, n)
    };
    if last < first {
        return Err(format!("the range `{text}` holds no cell"));
    }
    Ok((first as u16, last as u16))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::CONDS;

    #[test]
    fn branch_free_tests_agree_with_the_conditions() {
        let edges = [0u16, 1, 2, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff];
        for (cond, _, _) in CONDS {
            let test = Test::of(cond);
            for l in edges {
                for r in edges {
                    assert_eq!(test.holds(l, r), cond.test(l, r), "{cond:?} {l} {r}");
                }
            }
        }
    }

    #[test]
    fn pairs_and_triples_are_fused() {
        // mov 5; strs 1; bmne 0
        let instrs = [
            Instr {
                value: Value::Imm(5),
                ..Instr::bare(Kind::Mov)
            },
            Instr {
                modifier: Some(Oper::Sub),
                value: Value::Imm(1),
                ..Instr::bare(Kind::Str)
            },
            Instr {
                cond: Some((CondReg::M, Cond::Ne)),
                value: Value::Imm(0),
                ..Instr::bare(Kind::B)
            },
        ];
        let counter = Program::new(&instrs).expect("short");
        assert!(matches!(
            counter.ops[0],
            Op::MovStrAddBrMNe {
                at: 5,
                k: 65535,
                target: 0
            }
        ));
        assert!(matches!(counter.ops[1], Op::StrAddBrMNe { k: 65535, target: 0 }));
        assert!(matches!(counter.ops[2], Op::BrMNe(0)));
        assert!(matches!(counter.ops[3], Op::End));
    }
}
