//! Compiles a Masfix [`Program`] to machine code with Cranelift and runs it in-process, with
//! the VM's results: the same output bytes, `h`, `r`, memory, step count and errors.
//!
//! The design:
//!
//! - `h`, `r` and the steps left are variables (registers); memory is reached through a
//!   pointer to the machine's cells. Straight code is one block.
//! - An instruction a static jump may land on (the first, a known target, the one after a
//!   jump or branch) has a check block before it, which takes the length of the straight run
//!   that starts there (up to the next jump or branch, included, or the end) from the steps
//!   left, as the VM's fast path counts them. When the run does not fit, the compiled code
//!   stops at that index and the VM goes on from there one instruction at a time, so a step
//!   limit stops after exactly as many instructions, with the VM's error.
//! - A loop that is one straight run without input or output runs as several copies under one
//!   check (`unroll_copies`).
//! - Input and output use the VM's own buffers (`Io`), so buffering, the flush before a
//!   read and the end-of-input values are the VM's: the compiled code writes and reads them
//!   itself while they have room or bytes, and calls the VM otherwise (`stream`).
//! - A jump whose target is computed goes to one dispatch block, which checks the steps of
//!   the target's run from a table and goes on through a jump table to the target (every
//!   instruction starts a block then); an index past the end is the VM's
//!   [`RunError::JumpOutOfRange`].

use std::any::Any;
use std::io::{Read, Write};
use std::mem::offset_of;
use std::panic::resume_unwind;
use std::sync::OnceLock;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I16, I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, BlockArg, FuncRef, GlobalValue, InstBuilder, JumpTableData, MemFlags, SigRef, Signature, Type,
    Value as Val,
};
use cranelift_codegen::isa::OwnedTargetIsa;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{DataDescription, FuncId, Linkage, Module, default_libcall_names};
use cranelift_object::{ObjectBuilder, ObjectModule};

use crate::exec::{Io, Limits, Machine, Program, RunError, Stats};

mod digits;
pub mod exe;
mod stream;
use crate::ops::{Cond, CondReg, Instr, Kind, Oper, Reg, Value};

/// Why a program was not compiled; the caller runs it on the VM instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JitError {
    /// Cranelift cannot generate code for this machine.
    UnsupportedHost(String),
    /// The program is longer than the compiler takes (`most` instructions): compiling it would
    /// take longer than the VM takes to start.
    TooLarge {
        /// The program's length in instructions.
        len: usize,
        /// The most it takes: [`MAX_INSTRUCTIONS`], or [`MAX_COMPUTED`] with a computed jump.
        most: usize,
    },
    /// Cranelift failed on the program.
    Codegen(String),
}

/// The longest program [`compile`] takes: compiling costs about 9 µs an instruction.
pub const MAX_INSTRUCTIONS: usize = 4096;

/// The longest program with a computed jump [`compile`] takes: each instruction is a place the
/// jump may land, and the compiler's time grows faster than the program.
pub const MAX_COMPUTED: usize = 1024;

impl std::fmt::Display for JitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JitError::UnsupportedHost(e) => write!(f, "no native code generator for this machine: {e}"),
            JitError::TooLarge { len, most } => write!(
                f,
                "the program has {len} instructions, more than the {most} native code is made for"
            ),
            JitError::Codegen(e) => write!(f, "cannot compile the program to native code: {e}"),
        }
    }
}

impl std::error::Error for JitError {}

/// How the compiled code stopped.
const ENDED: u32 = 0;
/// The straight run at `State::pc` does not fit in the steps left.
const SLOW: u32 = 1;
/// The jump at `State::pc` went to `State::target`, past the end.
const OUT_OF_RANGE: u32 = 2;
/// A callback failed; its error (or panic) waits in the `Ctx`.
const FAILED: u32 = 3;

/// Where the compiled code finds the output window in the `Ctx`.
const OUT_NEXT: i32 = offset_of!(Ctx<'static, 'static>, out_next) as i32;
const OUT_LIMIT: i32 = offset_of!(Ctx<'static, 'static>, out_limit) as i32;
const IN_NEXT: i32 = offset_of!(Ctx<'static, 'static>, in_next) as i32;
const IN_END: i32 = offset_of!(Ctx<'static, 'static>, in_end) as i32;

/// What a callback returns when it failed; anything below is its result.
const CALL_FAILED: u32 = 1 << 16;

/// The registers and counters shared between the compiled code and [`Compiled::run`].
#[repr(C)]
struct State {
    /// Steps left before the limit, less the straight run the code leaves at (`SLOW`).
    left: i64,
    h: u16,
    r: u16,
    /// Where the VM goes on (`SLOW`) or the jump that failed (`OUT_OF_RANGE`).
    pc: u32,
    target: u32,
}

/// What the callbacks reach: the VM's buffers, and what went wrong in one.
#[repr(C)]
struct Ctx<'i, 'a> {
    /// The output window ([`Io::out_window`]): the compiled code keeps it in registers, and
    /// stores it here before each call and when it leaves; each call leaves the new one.
    out_next: usize,
    out_limit: usize,
    /// The input window ([`Io::in_window`]), kept and given back the same way.
    in_next: usize,
    in_end: usize,
    io: &'i mut Io<'a>,
    error: Option<RunError>,
    panic: Option<Box<dyn Any + Send>>,
}

type Entry = unsafe extern "C" fn(*mut State, *mut u16, *mut u8) -> u32;

/// A program compiled to machine code, ready to run any number of times.
pub struct Compiled {
    program: Program,
    /// Holds the code; freed on drop.
    module: Option<JITModule>,
    entry: Entry,
}

impl Drop for Compiled {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: `entry` points into this module's memory and dies with `self`.
            unsafe { module.free_memory() };
        }
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("instructions", &self.program.instrs().len())
            .finish_non_exhaustive()
    }
}

impl Compiled {
    /// Runs the program from its first instruction, exactly as [`Program::run`] does.
    pub fn run(
        &self,
        machine: &mut Machine,
        input: &mut dyn Read,
        output: &mut dyn Write,
        limits: Limits,
    ) -> Result<Stats, RunError> {
        let mut io = Io::new(input, output);
        // The compiled code counts down in signed 64 bits. A larger limit cannot be reached
        // in practice, and where it were, the VM would go on from there with the true one.
        let start = limits.max_steps.unwrap_or(u64::MAX).min(i64::MAX as u64) as i64;
        let mut state = State {
            left: start,
            h: machine.h,
            r: machine.r,
            pc: 0,
            target: 0,
        };
        let (out_next, out_limit) = io.out_window();
        let (in_next, in_end) = io.in_window();
        let mut ctx = Ctx {
            out_next,
            out_limit,
            in_next,
            in_end,
            io: &mut io,
            error: None,
            panic: None,
        };
        // SAFETY: the code was generated for exactly these three pointers, which live through
        // the call: the state, the 65,536 cells (every address is a 16-bit `h`), and `ctx`,
        // which only the callbacks below read, as a `Ctx`.
        let status = unsafe { (self.entry)(&mut state, machine.memory.as_mut_ptr(), (&raw mut ctx).cast::<u8>()) };
        let Ctx {
            out_next,
            in_next,
            error,
            panic,
            ..
        } = ctx;
        io.out_written(out_next);
        io.in_taken(in_next);
        if let Some(payload) = panic {
            resume_unwind(payload);
        }
        (machine.h, machine.r) = (state.h, state.r);
        // Every exit leaves `0 <= left <= start`, but `SLOW`, which leaves less by the run.
        let steps = |left: i64| (start - left) as u64;
        let result = match status {
            ENDED => Ok(Stats {
                steps: steps(state.left),
            }),
            SLOW => {
                let pc = state.pc as usize;
                let left = state.left + i64::from(self.program.run_len()[pc]);
                self.program.run_slow(machine, &mut io, limits, pc, steps(left), None)
            }
            OUT_OF_RANGE => Err(RunError::JumpOutOfRange {
                at: state.pc as usize,
                target: state.target as u16,
                steps: steps(state.left),
            }),
            _ => Err(error.expect("invariant: a failed callback leaves its error")),
        };
        io.finish(result)
    }

    /// The program as given to [`compile`].
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// Compiles `program` for this machine.
pub fn compile(program: &Program) -> Result<Compiled, JitError> {
    fits(program)?;
    let isa = host()?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    // The code reads the straight runs' lengths from this copy, which lives as long as it.
    let program = program.clone();
    let defined = define(&mut module, &program, false).and_then(|id| {
        module
            .finalize_definitions()
            .map(|()| id)
            .map_err(|e| JitError::Codegen(e.to_string()))
    });
    match defined {
        Ok(id) => {
            let code = module.get_finalized_function(id);
            // SAFETY: `define` built the function with the signature of `Entry`, in the
            // platform's C calling convention.
            let entry = unsafe { std::mem::transmute::<*const u8, Entry>(code) };
            Ok(Compiled {
                program,
                module: Some(module),
                entry,
            })
        }
        Err(e) => {
            // SAFETY: nothing points into the module's memory.
            unsafe { module.free_memory() };
            Err(e)
        }
    }
}

/// Whether `program` is within the size the compiler takes ([`MAX_INSTRUCTIONS`],
/// [`MAX_COMPUTED`]).
fn fits(program: &Program) -> Result<(), JitError> {
    let len = program.instrs().len();
    let most = if has_computed_jump(program.instrs()) {
        MAX_COMPUTED
    } else {
        MAX_INSTRUCTIONS
    };
    match len > most {
        true => Err(JitError::TooLarge { len, most }),
        false => Ok(()),
    }
}

/// The code generator for this machine, made once (it asks the processor what it has).
fn host() -> Result<OwnedTargetIsa, JitError> {
    static HOST: OnceLock<Result<OwnedTargetIsa, JitError>> = OnceLock::new();
    HOST.get_or_init(|| {
        let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(|e| codegen(&e))?;
        // Cranelift checks its own work in the crate's tests, not in every compile.
        let verify = if cfg!(debug_assertions) { "true" } else { "false" };
        flags.set("enable_verifier", verify).map_err(|e| codegen(&e))?;
        flags.set("is_pic", "false").map_err(|e| codegen(&e))?;
        cranelift_native::builder()
            .map_err(|e| JitError::UnsupportedHost(e.to_string()))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| codegen(&e))
    })
    .clone()
}

/// What the compiled code calls when a buffer is full or empty, in the order of
/// [`Externals::Linked::calls`], with the names an executable's runtime gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Room,
    Inc,
    Ipc,
    Inu,
    Inl,
}

impl Call {
    const ALL: [Call; 5] = [Call::Room, Call::Inc, Call::Ipc, Call::Inu, Call::Inl];

    fn symbol(self) -> &'static str {
        match self {
            Call::Room => "polyasm_masfix_room",
            Call::Inc => "polyasm_masfix_inc",
            Call::Ipc => "polyasm_masfix_ipc",
            Call::Inu => "polyasm_masfix_inu",
            Call::Inl => "polyasm_masfix_inl",
        }
    }
}

/// How the compiled code reaches what lies outside it: the calls and the two tables it reads
/// (the straight runs' lengths, for computed jumps, and the digit counts of `outu`).
enum Externals {
    /// In this process: their addresses.
    Here,
    /// In an executable: symbols the linker resolves.
    Linked {
        calls: [FuncRef; 5],
        run_len: GlobalValue,
        digits: GlobalValue,
    },
}

/// The name an executable's runtime calls the program by.
const MAIN: &str = "polyasm_masfix_main";

/// Defines the program's function in `module`: for this process, or (`linked`) exported
/// under [`MAIN`] for an executable, with the tables as data of its own.
fn define<M: Module>(module: &mut M, program: &Program, linked: bool) -> Result<FuncId, JitError> {
    let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
    let ptr = module.target_config().pointer_type();
    let call_conv = module.isa().default_call_conv();
    let mut ctx = module.make_context();
    ctx.func.signature.params.extend([AbiParam::new(ptr); 3]);
    ctx.func.signature.returns.push(AbiParam::new(I32));
    // Every callback takes the `Ctx` and gives a result or `CALL_FAILED`.
    let mut callback = Signature::new(call_conv);
    callback.params.push(AbiParam::new(ptr));
    callback.returns.push(AbiParam::new(I32));
    let externals = if linked {
        let mut calls = Vec::new();
        for call in Call::ALL {
            let id = module
                .declare_function(call.symbol(), Linkage::Import, &callback)
                .map_err(|e| codegen(&e))?;
            calls.push(module.declare_func_in_func(id, &mut ctx.func));
        }
        let run_len: Vec<u8> = program.run_len().iter().flat_map(|n| n.to_le_bytes()).collect();
        let digits: Vec<u8> = digits::DIGITS.iter().flat_map(|n| n.to_le_bytes()).collect();
        let mut table = |name: &str, bytes: Vec<u8>| -> Result<GlobalValue, JitError> {
            let id = module
                .declare_data(name, Linkage::Local, false, false)
                .map_err(|e| codegen(&e))?;
            let mut data = DataDescription::new();
            data.define(bytes.into_boxed_slice());
            data.set_align(8);
            module.define_data(id, &data).map_err(|e| codegen(&e))?;
            Ok(module.declare_data_in_func(id, &mut ctx.func))
        };
        Externals::Linked {
            calls: calls.try_into().expect("one for each call"),
            run_len: table("polyasm_masfix_run_len", run_len)?,
            digits: table("polyasm_masfix_digits", digits)?,
        }
    } else {
        Externals::Here
    };
    let mut builder_ctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut builder_ctx);
        let sig = b.import_signature(callback);
        Gen::new(b, ptr, sig, program, externals).emit();
    }
    let (name, linkage) = if linked {
        (MAIN, Linkage::Export)
    } else {
        ("masfix", Linkage::Local)
    };
    let id = module
        .declare_function(name, linkage, &ctx.func.signature)
        .map_err(|e| codegen(&e))?;
    module.define_function(id, &mut ctx).map_err(|e| codegen(&e))?;
    module.clear_context(&mut ctx);
    Ok(id)
}

/// Compiles `program` to an object file for this machine's operating system, exporting
/// `MAIN` (`uint32_t polyasm_masfix_main(struct state *, uint16_t *cells, struct ctx *)`)
/// for the runtime of `runtime.c`, which defines the calls it imports.
pub fn object(program: &Program) -> Result<Vec<u8>, JitError> {
    fits(program)?;
    let codegen = |e: &dyn std::fmt::Display| JitError::Codegen(e.to_string());
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").map_err(|e| codegen(&e))?;
    // An executable is position-independent where the system's linker makes PIE by default.
    flags.set("is_pic", "true").map_err(|e| codegen(&e))?;
    let isa = cranelift_native::builder()
        .map_err(|e| JitError::UnsupportedHost(e.to_string()))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| codegen(&e))?;
    let builder = ObjectBuilder::new(isa, "masfix", default_libcall_names()).map_err(|e| codegen(&e))?;
    let mut module = ObjectModule::new(builder);
    define(&mut module, program, true)?;
    module.finish().emit().map_err(|e| codegen(&e))
}

/// Where an instruction's jump goes, when the program says so without computing it.
fn static_target(instr: &Instr, index: usize) -> Option<u16> {
    let p = index as u16;
    let value = match instr.value {
        Value::Imm(k) => k,
        Value::Reg(Reg::P) => p,
        Value::RegOp(Reg::P, op, k) => op.apply(p, k),
        _ => return None,
    };
    Some(match instr.modifier {
        Some(op) => op.apply(p, value),
        None => value,
    })
}

/// The most instructions all the copies of unrolled loops add to a program.
const UNROLL_BUDGET: usize = 8192;

/// How many copies of the loop from `s` run under one step check: a loop is a straight run
/// without input or output that ends in a branch back to its start. Short loops get more
/// copies, long ones none.
fn unroll_copies(instrs: &[Instr], run_len: &[u32], s: usize) -> Option<usize> {
    let n = run_len[s] as usize;
    let e = s + n - 1;
    let instr = instrs.get(e)?;
    let back = instr.kind == Kind::B && static_target(instr, e) == Some(s as u16);
    // Input and output cost more than the check, and their code is long to compile.
    let quiet = !instrs[s..e].iter().any(|i| {
        matches!(
            i.kind,
            Kind::Outu | Kind::Outc | Kind::Inc | Kind::Ipc | Kind::Inu | Kind::Inl
        )
    });
    let copies = (32 / n).min(8);
    (back && quiet && copies >= 2).then_some(copies)
}

/// Whether a jump or branch of `instrs` goes where a register says.
fn has_computed_jump(instrs: &[Instr]) -> bool {
    instrs
        .iter()
        .enumerate()
        .any(|(i, instr)| is_transfer(instr) && static_target(instr, i).is_none())
}

fn is_transfer(instr: &Instr) -> bool {
    matches!(instr.kind, Kind::Jmp | Kind::B)
}

/// The function being built.
struct Gen<'a> {
    b: FunctionBuilder<'a>,
    instrs: &'a [Instr],
    ptr: Type,
    /// The signature of every callback.
    sig: SigRef,
    externals: Externals,
    h: Variable,
    r: Variable,
    left: Variable,
    /// The output window (see `Ctx`).
    out_next: Variable,
    out_limit: Variable,
    /// Bytes of room in the output buffer the straight code being built has made sure of.
    room_known: u32,
    in_next: Variable,
    in_end: Variable,
    state: Val,
    mem: Val,
    ctx: Val,
    /// Where each instruction a jump may land on starts, after its check.
    body: Vec<Option<Block>>,
    /// The check before each instruction a jump may land on; index `len` is the end.
    check: Vec<Option<Block>>,
    /// Steps from each index to the end of its straight run.
    run_len: &'a [u32],
    end: Block,
    slow: Block,
    out_of_range: Block,
    failed: Block,
    dispatch: Option<Block>,
    /// For a loop that branches back to its own start, how many copies run under one check,
    /// and the check that takes one turn when those do not fit.
    unrolled: Vec<Option<(usize, Block)>>,
}

impl<'a> Gen<'a> {
    fn new(mut b: FunctionBuilder<'a>, ptr: Type, sig: SigRef, program: &'a Program, externals: Externals) -> Gen<'a> {
        let (instrs, run_len) = (program.instrs(), program.run_len());
        let len = instrs.len();
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (state, mem, ctx) = (params[0], params[1], params[2]);
        // A variable for each value the code keeps in a register, read where it is kept.
        let mut kept = |ty: Type, base: Val, offset: usize| {
            let var = b.declare_var(ty);
            let v = b.ins().load(ty, MemFlags::trusted(), base, offset as i32);
            b.def_var(var, v);
            var
        };
        let h = kept(I16, state, offset_of!(State, h));
        let r = kept(I16, state, offset_of!(State, r));
        let left = kept(I64, state, offset_of!(State, left));
        let out_next = kept(ptr, ctx, OUT_NEXT as usize);
        let out_limit = kept(ptr, ctx, OUT_LIMIT as usize);
        let in_next = kept(ptr, ctx, IN_NEXT as usize);
        let in_end = kept(ptr, ctx, IN_END as usize);

        let computed = has_computed_jump(instrs);
        let mut leader = vec![false; len + 1];
        leader[0] = true;
        for (i, instr) in instrs.iter().enumerate() {
            if is_transfer(instr) {
                leader[i + 1] = true;
                if let Some(t) = static_target(instr, i).filter(|&t| usize::from(t) <= len) {
                    leader[usize::from(t)] = true;
                }
            }
        }
        // A computed jump may land on any instruction: each starts a block.
        let body = (0..len)
            .map(|i| (leader[i] || computed).then(|| b.create_block()))
            .collect();
        let end = b.create_block();
        let check = (0..=len)
            .map(|i| match i == len {
                true => Some(end),
                false => leader[i].then(|| b.create_block()),
            })
            .collect();
        let slow = b.create_block();
        b.append_block_param(slow, I32);
        b.append_block_param(slow, I64);
        b.set_cold_block(slow);
        let out_of_range = b.create_block();
        b.append_block_param(out_of_range, I32);
        b.append_block_param(out_of_range, I32);
        let failed = b.create_block();
        b.set_cold_block(failed);
        let mut budget = UNROLL_BUDGET;
        let unrolled = (0..len)
            .map(|s| {
                let copies = leader[s].then(|| unroll_copies(instrs, run_len, s)).flatten()?;
                let cost = copies * run_len[s] as usize;
                budget = budget.checked_sub(cost)?;
                Some((copies, b.create_block()))
            })
            .collect();
        let dispatch = computed.then(|| {
            let block = b.create_block();
            b.append_block_param(block, I32);
            b.append_block_param(block, I32);
            block
        });
        Gen {
            b,
            instrs,
            ptr,
            sig,
            externals,
            h,
            r,
            left,
            out_next,
            out_limit,
            room_known: 0,
            in_next,
            in_end,
            state,
            mem,
            ctx,
            body,
            check,
            run_len,
            end,
            slow,
            out_of_range,
            failed,
            dispatch,
            unrolled,
        }
    }

    fn emit(mut self) {
        let len = self.instrs.len();
        let first = self.check[0].expect("invariant: the first instruction has a check");
        self.b.ins().jump(first, &[]);
        // Whether the block being built has ended (with a jump or branch).
        let mut ended = true;
        for i in 0..len {
            if let Some(body) = self.body[i] {
                if !ended {
                    // The instructions before ran into this one: their check counted it.
                    self.b.ins().jump(body, &[]);
                }
                match (self.check[i], self.unrolled[i]) {
                    (Some(check), Some((copies, single))) => {
                        self.emit_unrolled(i, copies, check, single);
                        let turns = i64::from(self.run_len[i]) * copies as i64;
                        self.emit_check(i, single, i64::from(self.run_len[i]) - turns);
                    }
                    (Some(check), None) => self.emit_check(i, check, i64::from(self.run_len[i])),
                    (None, _) => {}
                }
                self.b.switch_to_block(body);
                self.room_known = 0;
            }
            ended = self.emit_instr(i);
        }
        if !ended {
            self.b.ins().jump(self.end, &[]);
        }
        self.emit_exits();
        self.b.seal_all_blocks();
        self.b.finalize();
    }

    /// Takes `n` steps (the straight run from `i`, less what the steps left already lack
    /// of it) from the steps left, or leaves for the VM, which adds the run back.
    fn emit_check(&mut self, i: usize, check: Block, n: i64) {
        self.b.switch_to_block(check);
        let left = self.b.use_var(self.left);
        let rest = self.b.ins().iadd_imm(left, -n);
        self.b.def_var(self.left, rest);
        let short = self.b.ins().icmp_imm(IntCC::SignedLessThan, rest, 0);
        let leave = self.b.create_block();
        self.b.set_cold_block(leave);
        let body = self.body[i].expect("invariant: a checked instruction starts a block");
        self.b.ins().brif(short, leave, &[], body, &[]);
        self.b.switch_to_block(leave);
        let pc = self.b.ins().iconst(I32, i as i64);
        self.b
            .ins()
            .jump(self.slow, &[BlockArg::Value(pc), BlockArg::Value(rest)]);
    }

    /// The loop from `s` to the branch back to it, `copies` turns a check: when they do not
    /// fit, one turn at a time from `single` on. A copy whose branch falls through gives
    /// back the turns not taken.
    fn emit_unrolled(&mut self, s: usize, copies: usize, check: Block, single: Block) {
        let n = self.run_len[s] as usize;
        let e = s + n - 1;
        let turns = (n * copies) as i64;
        self.b.switch_to_block(check);
        let left = self.b.use_var(self.left);
        let rest = self.b.ins().iadd_imm(left, -turns);
        self.b.def_var(self.left, rest);
        let short = self.b.ins().icmp_imm(IntCC::SignedLessThan, rest, 0);
        let mut copy = self.b.create_block();
        self.b.ins().brif(short, single, &[], copy, &[]);
        let after = self.check[e + 1].expect("invariant: a branch's next has a check");
        for k in 1..=copies {
            self.b.switch_to_block(copy);
            self.room_known = 0;
            for i in s..e {
                self.emit_instr(i);
            }
            let holds = self.condition(&self.instrs[e]);
            let out = self.b.create_block();
            self.b.set_cold_block(out);
            copy = if k < copies { self.b.create_block() } else { check };
            self.b.ins().brif(holds, copy, &[], out, &[]);
            self.b.switch_to_block(out);
            let left = self.b.use_var(self.left);
            let back = self.b.ins().iadd_imm(left, ((copies - k) * n) as i64);
            self.b.def_var(self.left, back);
            self.b.ins().jump(after, &[]);
        }
    }

    fn emit_exits(&mut self) {
        let flags = MemFlags::trusted();
        let b = &mut self.b;
        let store_regs = |b: &mut FunctionBuilder, gen_h: Variable, gen_r: Variable, state: Val| {
            let h = b.use_var(gen_h);
            b.ins().store(flags, h, state, offset_of!(State, h) as i32);
            let r = b.use_var(gen_r);
            b.ins().store(flags, r, state, offset_of!(State, r) as i32);
        };
        let (h, r, state, left) = (self.h, self.r, self.state, self.left);
        let (ctx, out_next, in_next) = (self.ctx, self.out_next, self.in_next);
        // Every exit but FAILED gives back the windows; after a failed call the `Ctx` already
        // holds the ones the VM left.
        let ret = |b: &mut FunctionBuilder, status: u32| {
            if status != FAILED {
                let next = b.use_var(out_next);
                b.ins().store(flags, next, ctx, OUT_NEXT);
                let next = b.use_var(in_next);
                b.ins().store(flags, next, ctx, IN_NEXT);
            }
            let status = b.ins().iconst(I32, i64::from(status));
            b.ins().return_(&[status]);
        };

        b.switch_to_block(self.end);
        store_regs(b, h, r, state);
        let v = b.use_var(left);
        b.ins().store(flags, v, state, offset_of!(State, left) as i32);
        ret(b, ENDED);

        b.switch_to_block(self.failed);
        store_regs(b, h, r, state);
        ret(b, FAILED);

        b.switch_to_block(self.slow);
        let params = b.block_params(self.slow).to_vec();
        store_regs(b, h, r, state);
        b.ins().store(flags, params[0], state, offset_of!(State, pc) as i32);
        b.ins().store(flags, params[1], state, offset_of!(State, left) as i32);
        ret(b, SLOW);

        b.switch_to_block(self.out_of_range);
        let params = b.block_params(self.out_of_range).to_vec();
        store_regs(b, h, r, state);
        b.ins().store(flags, params[0], state, offset_of!(State, pc) as i32);
        b.ins().store(flags, params[1], state, offset_of!(State, target) as i32);
        let v = b.use_var(left);
        b.ins().store(flags, v, state, offset_of!(State, left) as i32);
        ret(b, OUT_OF_RANGE);

        if let Some(dispatch) = self.dispatch {
            b.switch_to_block(dispatch);
            let params = b.block_params(dispatch).to_vec();
            let (target, at) = (params[0], params[1]);
            let len = self.instrs.len();
            let table = b.create_block();
            let past = b.ins().icmp_imm(IntCC::UnsignedGreaterThan, target, len as i64);
            b.ins().brif(
                past,
                self.out_of_range,
                &[BlockArg::Value(at), BlockArg::Value(target)],
                table,
                &[],
            );
            // The straight run from the target, from a table of them all.
            b.switch_to_block(table);
            let base = match self.externals {
                Externals::Here => b.ins().iconst(self.ptr, self.run_len.as_ptr() as i64),
                Externals::Linked { run_len, .. } => b.ins().symbol_value(self.ptr, run_len),
            };
            let index = b.ins().uextend(self.ptr, target);
            let offset = b.ins().ishl_imm(index, 2);
            let at_target = b.ins().iadd(base, offset);
            let n = b.ins().load(I32, MemFlags::trusted().with_readonly(), at_target, 0);
            let n = b.ins().uextend(I64, n);
            let left = b.use_var(left);
            let rest = b.ins().isub(left, n);
            b.def_var(self.left, rest);
            let short = b.ins().icmp_imm(IntCC::SignedLessThan, rest, 0);
            let land = b.create_block();
            b.ins().brif(
                short,
                self.slow,
                &[BlockArg::Value(target), BlockArg::Value(rest)],
                land,
                &[],
            );
            b.switch_to_block(land);
            let calls: Vec<_> = (0..=len)
                .map(|i| {
                    let block = self
                        .body
                        .get(i)
                        .map_or(self.end, |b| b.expect("invariant: a computed jump may land anywhere"));
                    b.func.dfg.block_call(block, &[])
                })
                .collect();
            let default = b.func.dfg.block_call(self.end, &[]);
            let jt = b.create_jump_table(JumpTableData::new(default, &calls));
            b.ins().br_table(target, jt);
        }
    }

    fn cell(&mut self) -> Val {
        let h = self.b.use_var(self.h);
        let h = self.b.ins().uextend(self.ptr, h);
        let offset = self.b.ins().ishl_imm(h, 1);
        self.b.ins().iadd(self.mem, offset)
    }

    fn load_m(&mut self) -> Val {
        let cell = self.cell();
        self.b.ins().load(I16, MemFlags::trusted(), cell, 0)
    }

    fn store_m(&mut self, value: Val) {
        let cell = self.cell();
        self.b.ins().store(MemFlags::trusted(), value, cell, 0);
    }

    fn read(&mut self, reg: Reg, p: u16) -> Val {
        match reg {
            Reg::H => self.b.use_var(self.h),
            Reg::R => self.b.use_var(self.r),
            Reg::M => self.load_m(),
            Reg::P => self.b.ins().iconst(I16, i64::from(p)),
        }
    }

    fn cond_reg(&mut self, reg: CondReg) -> Val {
        match reg {
            CondReg::R => self.b.use_var(self.r),
            CondReg::M => self.load_m(),
        }
    }

    /// `l op r` on 16-bit values, as [`Oper::apply`].
    fn apply(&mut self, op: Oper, l: Val, r: Val) -> Val {
        match op {
            Oper::Add => self.b.ins().iadd(l, r),
            Oper::Sub => self.b.ins().isub(l, r),
            Oper::Mul => self.b.ins().imul(l, r),
            Oper::And => self.b.ins().band(l, r),
            Oper::Or => self.b.ins().bor(l, r),
            Oper::Xor => self.b.ins().bxor(l, r),
            Oper::Shl | Oper::Shr | Oper::Bit => {
                // In 32 bits, the count modulo 32: 16 to 31 leave nothing in the low half.
                let wide = self.b.ins().uextend(I32, l);
                let count = self.b.ins().uextend(I32, r);
                let count = self.b.ins().band_imm(count, 31);
                let shifted = match op {
                    Oper::Shl => self.b.ins().ishl(wide, count),
                    Oper::Shr => self.b.ins().ushr(wide, count),
                    _ => {
                        let down = self.b.ins().ushr(wide, count);
                        self.b.ins().band_imm(down, 1)
                    }
                };
                self.b.ins().ireduce(I16, shifted)
            }
        }
    }

    fn imm(&mut self, k: u16) -> Val {
        self.b.ins().iconst(I16, i64::from(k))
    }

    /// Whether `l cond r` holds, as a 0 or 1 of type `i8`.
    fn test(&mut self, cond: Cond, l: Val, r: Val) -> Val {
        let cc = match cond {
            Cond::Eq => IntCC::Equal,
            Cond::Ne => IntCC::NotEqual,
            Cond::Lt => IntCC::SignedLessThan,
            Cond::Le => IntCC::SignedLessThanOrEqual,
            Cond::Gt => IntCC::SignedGreaterThan,
            Cond::Ge => IntCC::SignedGreaterThanOrEqual,
            Cond::Ab => IntCC::UnsignedGreaterThan,
            Cond::Ae => IntCC::UnsignedGreaterThanOrEqual,
            Cond::Bl => IntCC::UnsignedLessThan,
            Cond::Be => IntCC::UnsignedLessThanOrEqual,
        };
        self.b.ins().icmp(cc, l, r)
    }

    /// The value an instruction computes, modifier included, before its body runs.
    fn value(&mut self, instr: &Instr, p: u16) -> Val {
        let value = match instr.value {
            Value::None => self.imm(0),
            Value::Imm(k) => self.imm(k),
            Value::Reg(reg) => self.read(reg, p),
            Value::RegOp(reg, op, k) => {
                let l = self.read(reg, p);
                let k = self.imm(k);
                self.apply(op, l, k)
            }
        };
        match (instr.modifier, instr.kind.info().dest) {
            (Some(op), Some(dest)) => {
                let old = self.read(dest, p);
                self.apply(op, old, value)
            }
            _ => value,
        }
    }

    /// Whether branch `instr` is taken, as a 0 or 1 of type `i8`.
    fn condition(&mut self, instr: &Instr) -> Val {
        let (reg, cond) = instr.cond.expect("invariant: b has a condition");
        let tested = self.cond_reg(reg);
        let zero = self.imm(0);
        self.test(cond, tested, zero)
    }

    /// The block a jump to `target` from instruction `at` goes to, with its arguments.
    fn jump_to(&mut self, at: usize, target: u16) -> (Block, Vec<BlockArg>) {
        match self.check.get(usize::from(target)) {
            Some(&Some(block)) => (block, Vec::new()),
            Some(None) => unreachable!("invariant: every static target has a check"),
            None => {
                let at = self.b.ins().iconst(I32, at as i64);
                let target = self.b.ins().iconst(I32, i64::from(target));
                (self.out_of_range, vec![BlockArg::Value(at), BlockArg::Value(target)])
            }
        }
    }

    /// The block a computed jump to `target` goes to.
    fn dispatch_to(&mut self, at: usize, target: Val) -> (Block, Vec<BlockArg>) {
        let target = self.b.ins().uextend(I32, target);
        let at = self.b.ins().iconst(I32, at as i64);
        let dispatch = self.dispatch.expect("invariant: a computed jump has the table");
        (dispatch, vec![BlockArg::Value(target), BlockArg::Value(at)])
    }

    /// Emits instruction `i` into the block being built; true when it ended the block (a
    /// jump or branch).
    fn emit_instr(&mut self, i: usize) -> bool {
        let instr = self.instrs[i];
        let p = i as u16;
        match instr.kind {
            Kind::Jmp => {
                let (block, args) = match static_target(&instr, i) {
                    Some(t) => self.jump_to(i, t),
                    None => {
                        let value = self.value(&instr, p);
                        self.dispatch_to(i, value)
                    }
                };
                self.b.ins().jump(block, &args);
                return true;
            }
            Kind::B => {
                let holds = self.condition(&instr);
                let (block, args) = match static_target(&instr, i) {
                    Some(t) => self.jump_to(i, t),
                    None => {
                        let value = self.value(&instr, p);
                        self.dispatch_to(i, value)
                    }
                };
                let after = self.check[i + 1].expect("invariant: a branch's next has a check");
                self.b.ins().brif(holds, block, &args, after, &[]);
                return true;
            }
            Kind::Mov => {
                let v = self.value(&instr, p);
                self.b.def_var(self.h, v);
            }
            Kind::Str => {
                let v = self.value(&instr, p);
                self.store_m(v);
            }
            Kind::Ld => {
                let v = self.value(&instr, p);
                self.b.def_var(self.r, v);
            }
            Kind::L | Kind::S => {
                let (reg, cond) = instr.cond.expect("invariant: l and s have a condition");
                let tested = self.cond_reg(reg);
                let v = self.value(&instr, p);
                let holds = self.test(cond, tested, v);
                let bit = self.b.ins().uextend(I16, holds);
                match instr.kind {
                    Kind::L => self.b.def_var(self.r, bit),
                    _ => self.store_m(bit),
                }
            }
            Kind::Swap => {
                let m = self.load_m();
                let r = self.b.use_var(self.r);
                self.store_m(r);
                self.b.def_var(self.r, m);
            }
            Kind::Outu => {
                let v = self.value(&instr, p);
                self.put_number(v);
            }
            Kind::Outc => {
                let v = self.value(&instr, p);
                self.put_byte(v);
            }
            Kind::Inc | Kind::Ipc | Kind::Inu => {
                let got = match instr.kind {
                    Kind::Inc => self.take_byte(true),
                    Kind::Ipc => self.take_byte(false),
                    _ => self.take_number(),
                };
                match instr.value {
                    Value::Reg(Reg::M) => self.store_m(got),
                    _ => self.b.def_var(self.r, got),
                }
            }
            Kind::Inl => self.skip_line(),
        }
        false
    }
}
