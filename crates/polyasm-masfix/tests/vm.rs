//! The VM against a second, plain interpreter written from the semantics (random programs and
//! input, every outcome compared), and one test for each rule of the semantics.

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::rc::Rc;

use polyasm_masfix::exec::{CELLS, Limits, Machine, Program, RunError, TraceStep, dump_memory, parse_memory_range};
use polyasm_masfix::ops::{Cond, CondReg, Instr, Kind, Oper, Reg, Value};
use proptest::prelude::*;

mod common;
#[path = "../benches/programs/mod.rs"]
mod programs;

use common::{any_imm, any_instr};

use programs::assemble;

// ---------------------------------------------------------------------------------------------
// The plain interpreter: one instruction at a time, straight from the rules, no shortcuts.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Ended { steps: u64 },
    JumpOutOfRange { at: usize, target: u16, steps: u64 },
    StepLimit { steps: u64 },
}

struct Plain {
    memory: Vec<u16>,
    h: u16,
    r: u16,
    input: Vec<u8>,
    read: usize,
    output: Vec<u8>,
    trace: Vec<usize>,
}

fn operate(op: Oper, l: u16, r: u16) -> u16 {
    let l = l as u64;
    let count = (r as u64) % 32;
    let full = match op {
        Oper::Add => l + r as u64,
        Oper::Sub => l + 65536 - r as u64,
        Oper::Mul => l * r as u64,
        Oper::And => l & r as u64,
        Oper::Or => l | r as u64,
        Oper::Xor => l ^ r as u64,
        Oper::Shl => l << count,
        Oper::Shr => l >> count,
        Oper::Bit => (l >> count) & 1,
    };
    (full % 65536) as u16
}

fn holds(cond: Cond, l: u16, r: u16) -> bool {
    let (sl, sr) = (i32::from(l as i16), i32::from(r as i16));
    let (ul, ur) = (i32::from(l), i32::from(r));
    match cond {
        Cond::Eq => ul == ur,
        Cond::Ne => ul != ur,
        Cond::Lt => sl < sr,
        Cond::Le => sl <= sr,
        Cond::Gt => sl > sr,
        Cond::Ge => sl >= sr,
        Cond::Ab => ul > ur,
        Cond::Ae => ul >= ur,
        Cond::Bl => ul < ur,
        Cond::Be => ul <= ur,
    }
}

impl Plain {
    fn new(input: &[u8]) -> Plain {
        Plain {
            memory: vec![0; 65536],
            h: 0,
            r: 0,
            input: input.to_vec(),
            read: 0,
            output: Vec::new(),
            trace: Vec::new(),
        }
    }

    fn register(&self, reg: Reg, p: usize) -> u16 {
        match reg {
            Reg::H => self.h,
            Reg::M => self.memory[self.h as usize],
            Reg::R => self.r,
            Reg::P => p as u16,
        }
    }

    fn run(&mut self, program: &[Instr], max_steps: u64) -> Outcome {
        let mut p = 0;
        let mut steps = 0;
        while p < program.len() {
            if steps == max_steps {
                return Outcome::StepLimit { steps };
            }
            steps += 1;
            self.trace.push(p);
            let instr = program[p];
            let mut value = 0;
            if let Some(imm) = instr.imm() {
                value = imm;
            }
            match instr.value {
                Value::RegOp(reg, op, _) => value = operate(op, self.register(reg, p), value),
                Value::Reg(reg) => value = self.register(reg, p),
                _ => {}
            }
            if let Some(modifier) = instr.modifier {
                let dest = match instr.kind {
                    Kind::Mov => self.h,
                    Kind::Str => self.memory[self.h as usize],
                    Kind::Ld => self.r,
                    _ => p as u16,
                };
                value = operate(modifier, dest, value);
            }
            let tested = match instr.cond {
                Some((CondReg::M, _)) => self.memory[self.h as usize],
                _ => self.r,
            };
            let mut next = p + 1;
            let h = self.h as usize;
            match instr.kind {
                Kind::Mov => self.h = value,
                Kind::Str => self.memory[h] = value,
                Kind::Ld => self.r = value,
                Kind::Jmp => next = value as usize,
                Kind::B => {
                    if holds(instr.cond.unwrap().1, tested, 0) {
                        next = value as usize;
                    }
                }
                Kind::L => self.r = holds(instr.cond.unwrap().1, tested, value) as u16,
                Kind::S => self.memory[h] = holds(instr.cond.unwrap().1, tested, value) as u16,
                Kind::Swap => {
                    std::mem::swap(&mut self.r, &mut self.memory[h]);
                }
                Kind::Outu => self.output.extend(value.to_string().bytes()),
                Kind::Outc => self.output.push((value % 256) as u8),
                Kind::Inc | Kind::Ipc | Kind::Inu => {
                    let got = match instr.kind {
                        Kind::Inc if self.read < self.input.len() => {
                            self.read += 1;
                            self.input[self.read - 1] as u16
                        }
                        Kind::Ipc if self.read < self.input.len() => self.input[self.read] as u16,
                        Kind::Inc | Kind::Ipc => 65535,
                        _ => {
                            let mut n: u64 = 0;
                            while self.read < self.input.len() && self.input[self.read].is_ascii_digit() {
                                n = (n * 10 + (self.input[self.read] - b'0') as u64).min(65535);
                                self.read += 1;
                            }
                            n as u16
                        }
                    };
                    if instr.value == Value::Reg(Reg::M) {
                        self.memory[h] = got;
                    } else {
                        self.r = got;
                    }
                }
                Kind::Inl => {
                    while self.read < self.input.len() {
                        self.read += 1;
                        if self.input[self.read - 1] == b'\n' {
                            break;
                        }
                    }
                }
            }
            if next > program.len() {
                return Outcome::JumpOutOfRange {
                    at: p,
                    target: next as u16,
                    steps,
                };
            }
            p = next;
        }
        Outcome::Ended { steps }
    }
}

// ---------------------------------------------------------------------------------------------
// Running the VM.

/// A reader that hands out its bytes in pieces of the given sizes (cycled), so that numbers and
/// lines straddle the VM's refills.
struct Pieces {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    call: usize,
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.call % self.sizes.len()].max(1);
        self.call += 1;
        let n = size.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn outcome_of(result: Result<polyasm_masfix::exec::Stats, RunError>) -> Outcome {
    match result {
        Ok(stats) => Outcome::Ended { steps: stats.steps },
        Err(RunError::JumpOutOfRange { at, target, steps }) => Outcome::JumpOutOfRange { at, target, steps },
        Err(RunError::StepLimit { steps }) => Outcome::StepLimit { steps },
        Err(e) => panic!("no I/O error was possible: {e}"),
    }
}

struct Ran {
    outcome: Outcome,
    output: Vec<u8>,
    machine: Machine,
}

fn run_vm(instrs: &[Instr], input: &[u8], max_steps: Option<u64>) -> Ran {
    let program = Program::new(instrs).unwrap();
    let mut machine = Machine::new();
    let mut output = Vec::new();
    let result = program.run(&mut machine, &mut &input[..], &mut output, Limits { max_steps });
    Ran {
        outcome: outcome_of(result),
        output,
        machine,
    }
}

fn run_text(text: &str, input: &[u8]) -> Ran {
    run_vm(&assemble(text), input, Some(1_000_000))
}

fn output_of(text: &str, input: &[u8]) -> String {
    let ran = run_text(text, input);
    assert!(matches!(ran.outcome, Outcome::Ended { .. }), "{:?}", ran.outcome);
    String::from_utf8_lossy(&ran.output).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Random programs.

/// Pairs that programs write often (and a VM may run as one): an update then a branch on it,
/// a compare then a branch, a head move then a use of the cell (and then a branch), a
/// number then a separator.
fn idiom() -> impl Strategy<Value = Vec<Instr>> {
    let update = prop::sample::select(vec!["lda", "lds", "stra", "strs", "ld", "str", "mova", "movs"]);
    let compare = prop::sample::select(vec!["lbl", "llt", "lne", "sbl", "sge", "seq", "lmab", "smle"]);
    let branch = prop::sample::select(vec!["bne", "beq", "bmne", "bmeq", "blt", "bmge", "bab", "bmbe"]);
    let after_mov = prop::sample::select(vec![
        ("ldm", false),
        ("ldam", false),
        ("ldsm", false),
        ("str", true),
        ("stra", true),
        ("strs", true),
        ("strr", false),
        ("outum", false),
        ("inu", false),
        ("inum", false),
        ("sbl", true),
        ("smge", true),
    ]);
    prop_oneof![
        (update, any_imm(), branch.clone(), 0u16..40)
            .prop_map(|(u, k, b, t)| vec![programs::instr(u, Some(k)), programs::instr(b, Some(t)),]),
        (compare, any_imm(), branch, 0u16..40)
            .prop_map(|(c, k, b, t)| vec![programs::instr(c, Some(k)), programs::instr(b, Some(t)),]),
        (
            any_imm(),
            prop::sample::select(vec!["stra", "strs", "sbl", "sge", "smlt"]),
            any_imm(),
            prop::sample::select(vec!["bmne", "bmeq"]),
            0u16..40
        )
            .prop_map(|(h, update, k, branch, t)| vec![
                programs::instr("mov", Some(h % 8)),
                programs::instr(update, Some(k)),
                programs::instr(branch, Some(t)),
            ]),
        (prop::sample::select(vec!["outur", "outum"]), any_imm())
            .prop_map(|(number, k)| vec![programs::instr(number, None), programs::instr("outc", Some(k)),]),
        (prop::sample::select(vec!["bmne", "bmeq", "str"]), any_imm(), 0u16..40).prop_map(|(then, k, t)| vec![
            programs::instr("movr", None),
            programs::instr(then, Some(if then == "str" { k } else { t })),
        ]),
        (any_imm(), after_mov, any_imm()).prop_map(|(h, (name, needs_imm), k)| {
            vec![
                programs::instr("mov", Some(h % 8)),
                programs::instr(name, needs_imm.then_some(k)),
            ]
        }),
    ]
}

fn any_program() -> impl Strategy<Value = Vec<Instr>> {
    prop::collection::vec(prop_oneof![3 => any_instr().prop_map(|i| vec![i]), 1 => idiom()], 1..24)
        .prop_map(|parts| parts.concat())
}

fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => b'0'..=b'9',
            1 => Just(b'\n'),
            1 => Just(b' '),
            1 => Just(b'-'),
            1 => any::<u8>(),
        ],
        0..40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_vm_does_what_the_plain_interpreter_does(
        program in any_program(),
        input in any_input(),
        max_steps in prop_oneof![0u64..8, 0u64..3000],
        sizes in prop::collection::vec(1usize..6, 1..4),
    ) {
        let mut plain = Plain::new(&input);
        let expected = plain.run(&program, max_steps);

        let vm = Program::new(&program).unwrap();
        let mut machine = Machine::new();
        let mut output = Vec::new();
        let mut reader = Pieces { data: input.clone(), at: 0, sizes, call: 0 };
        let result = vm.run(&mut machine, &mut reader, &mut output, Limits { max_steps: Some(max_steps) });
        prop_assert_eq!(outcome_of(result), expected.clone());
        prop_assert_eq!(&output, &plain.output);
        prop_assert_eq!(machine.h, plain.h);
        prop_assert_eq!(machine.r, plain.r);
        prop_assert!(machine.memory[..] == plain.memory[..], "memory differs");

        // The traced run executes the same instructions and ends the same way.
        let mut traced = Machine::new();
        let mut output = Vec::new();
        let mut seen = Vec::new();
        let result = vm.run_traced(
            &mut traced,
            &mut &input[..],
            &mut output,
            Limits { max_steps: Some(max_steps) },
            &mut |step: TraceStep| {
                seen.push(step.index);
                Ok(())
            },
        );
        prop_assert_eq!(outcome_of(result), expected);
        prop_assert_eq!(&seen, &plain.trace);
        prop_assert_eq!(&output, &plain.output);
        prop_assert!(traced == machine);
    }

    #[test]
    fn a_run_without_a_limit_ends_as_with_a_large_one(program in any_program(), input in any_input()) {
        // Programs that end within the limit end the same with no limit at all.
        let limited = run_vm(&program, &input, Some(5000));
        if let Outcome::StepLimit { .. } = limited.outcome {
            return Ok(());
        }
        let free = run_vm(&program, &input, None);
        prop_assert_eq!(free.outcome, limited.outcome);
        prop_assert_eq!(free.output, limited.output);
        prop_assert!(free.machine == limited.machine);
    }
}

// ---------------------------------------------------------------------------------------------
// The rules, one by one.

#[test]
fn a_clean_machine_is_all_zeros_and_reset_makes_one_again() {
    let mut machine = Machine::new();
    assert_eq!((machine.h, machine.r, machine.m()), (0, 0, 0));
    assert!(machine.memory.iter().all(|&c| c == 0));
    assert_eq!(machine.memory.len(), CELLS);
    let program = Program::new(&assemble("mov 9\nstr 7\nld 5")).unwrap();
    program
        .run(&mut machine, &mut io::empty(), &mut io::sink(), Limits::default())
        .unwrap();
    assert_eq!((machine.h, machine.r, machine.m()), (9, 5, 7));
    machine.reset();
    assert!(machine == Machine::new());
}

#[test]
fn the_machine_keeps_its_state_from_one_run_to_the_next() {
    // What compile-time calls rely on: memory, h and r persist.
    let mut machine = Machine::new();
    let program = Program::new(&assemble("stra 1\nldm\nmova 1")).unwrap();
    for _ in 0..3 {
        program
            .run(&mut machine, &mut io::empty(), &mut io::sink(), Limits::default())
            .unwrap();
    }
    assert_eq!((machine.h, machine.r), (3, 1));
    assert_eq!(&machine.memory[..4], &[1, 1, 1, 0]);
}

#[test]
fn arithmetic_wraps_at_16_bits_and_shifts_count_modulo_32() {
    let out = output_of(
        "ld 65535\nlda 2\noutur\noutc 32\nld 0\nlds 1\noutur\noutc 32\nld 1\nld< 32\noutur\noutc 32\nld 3\nld< 33\noutur\noutc 32\nld 65535\nld. 31\noutur\nld 65535\nld. 32\noutur",
        b"",
    );
    assert_eq!(out, "1 65535 1 6 01");
}

#[test]
fn head_arithmetic_wraps() {
    let ran = run_text("mov 65535\nmova 1\nstr 4\nmovs 1", b"");
    assert_eq!(ran.machine.h, 65535);
    assert_eq!(ran.machine.memory[0], 4);
}

#[test]
fn p_reads_the_index_of_the_running_instruction() {
    assert_eq!(run_text("ld 9\nld 9\nldp", b"").machine.r, 2);
    assert_eq!(run_text("ld 0\nld 0\nld 0\nldpa 10", b"").machine.r, 13);
    // `jmpa 2` at index 1 jumps to 3: a relative jump.
    assert_eq!(output_of("outc 65\njmpa 2\noutc 66\noutc 67", b""), "AC");
    assert_eq!(output_of("ld 2\njmpar\noutc 66\noutc 67", b""), "C");
}

#[test]
fn the_immediate_then_the_register_operation_then_the_modifier() {
    // strtrs 5: m = m * (r - 5); with r = 7 and m = 4 that is 8.
    let ran = run_text("ld 7\nstr 4\nstrtrs 5", b"");
    assert_eq!(ran.machine.m(), 8);
    // ldamt 2: r = r + m * 2.
    let ran = run_text("ld 3\nstr 5\nldamt 2", b"");
    assert_eq!(ran.machine.r, 13);
    // str&m> 10: m = m & (m >> 10).
    let ran = run_text("str 64512\nstr&m> 10", b"");
    assert_eq!(ran.machine.m(), 64512 & (64512 >> 10));
    // movam: h = h + m, with m read at the old head.
    let ran = run_text("mov 4\nstr 6\nmovam", b"");
    assert_eq!(ran.machine.h, 10);
}

#[test]
fn registers_are_read_before_anything_is_written() {
    let ran = run_text("ld 3\nstr 8\nswap", b"");
    assert_eq!((ran.machine.r, ran.machine.m()), (8, 3));
    // lmeq r: r = (m == r): both sides read before r is written.
    let ran = run_text("ld 5\nstr 5\nlmeqr", b"");
    assert_eq!(ran.machine.r, 1);
}

#[test]
fn signed_and_unsigned_conditions_differ_on_the_top_bit() {
    assert_eq!(run_text("ld 32768\nllt 1", b"").machine.r, 1);
    assert_eq!(run_text("ld 32768\nlbl 1", b"").machine.r, 0);
    assert_eq!(run_text("ld 32768\nlab 1", b"").machine.r, 1);
    assert_eq!(run_text("ld 32768\nlgt 1", b"").machine.r, 0);
    assert_eq!(run_text("str 65535\nsmle 0", b"").machine.m(), 1);
    assert_eq!(run_text("str 65535\nsmbe 0", b"").machine.m(), 0);
}

#[test]
fn branches_compare_the_condition_register_with_zero() {
    // bae always jumps, bbl never; blt jumps on a set top bit; bmne tests m.
    assert_eq!(output_of("ld 5\nbae 3\noutc 66\noutc 67", b""), "C");
    assert_eq!(output_of("ld 5\nbbl 3\noutc 66\noutc 67", b""), "BC");
    assert_eq!(output_of("ld 65535\nblt 3\noutc 66\noutc 67", b""), "C");
    assert_eq!(output_of("ld 1\nblt 3\noutc 66\noutc 67", b""), "BC");
    assert_eq!(output_of("str 2\nbmne 3\noutc 66\noutc 67", b""), "C");
    // The value is only the target: r is compared with 0, not with 3.
    assert_eq!(output_of("ld 3\nbeq 3\noutc 66\noutc 67", b""), "BC");
}

#[test]
fn output_prints_unsigned_decimals_and_low_bytes() {
    assert_eq!(output_of("outu 0\noutc 32\noutu 65535\noutc 321", b""), "0 65535A");
}

#[test]
fn input_at_the_end_gives_65535_for_bytes_and_0_for_numbers() {
    let ran = run_text("inc\nstr 1\nipcm\nmova 1\ninum", b"");
    assert_eq!(ran.machine.r, 65535);
    assert_eq!(ran.machine.memory[0], 65535);
    assert_eq!(ran.machine.memory[1], 0);
    // inu gives 0 also when earlier input has been read up.
    let ran = run_text("ld 9\ninc\ninu", b"x");
    assert_eq!(ran.machine.r, 0);
}

#[test]
fn inl_at_the_end_of_input_returns() {
    assert_eq!(output_of("inl\ninl\noutc 33", b""), "!");
    assert_eq!(run_text("inl\ninc\noutcr", b"no line break").output, b"\xff");
}

#[test]
fn inl_consumes_the_line_break() {
    assert_eq!(output_of("inl\ninc\noutcr\ninl\ninc\noutcr", b"ab\ncd\nef"), "ce");
}

#[test]
fn inc_zero_extends_and_ipc_does_not_consume() {
    let ran = run_text("ipc\nstrr\nmova 1\ninc\nstrr\nmova 1\ninc\nstrr", b"\xc3z");
    assert_eq!(&ran.machine.memory[..3], &[195, 195, 122]);
}

#[test]
fn inu_reads_digits_only_and_clamps() {
    let number = |input: &[u8]| run_text("inu", input).machine.r;
    assert_eq!(number(b"65535"), 65535);
    assert_eq!(number(b"65536"), 65535);
    assert_eq!(number(b"123456789"), 65535);
    assert_eq!(number("123".repeat(50).as_bytes()), 65535);
    assert_eq!(number(b"007x"), 7);
    assert_eq!(number(b"-5"), 0);
    assert_eq!(number(b"+5"), 0);
    // Not a digit: 0 and nothing consumed; all digits are consumed, even past the clamp.
    assert_eq!(output_of("inu\noutur\ninc\noutcr", b" 5x"), "0 ");
    assert_eq!(output_of("inu\noutur\ninc\noutcr", b"99999999x"), "65535x");
}

#[test]
fn a_number_split_across_reads_is_one_number() {
    let program = Program::new(&assemble("inu\noutur\ninc\noutcr")).unwrap();
    let mut reader = Pieces {
        data: b"12345,".to_vec(),
        at: 0,
        sizes: vec![1],
        call: 0,
    };
    let mut output = Vec::new();
    program
        .run(&mut Machine::new(), &mut reader, &mut output, Limits::default())
        .unwrap();
    assert_eq!(output, b"12345,");
}

#[test]
fn a_jump_to_end_ends_the_run_and_past_it_is_an_error() {
    let ran = run_text("jmp end\noutc 33", b"");
    assert_eq!(ran.outcome, Outcome::Ended { steps: 1 });
    assert!(ran.output.is_empty());
    let ran = run_text("outc 33\nld 7\njmpar\noutc 33", b"");
    assert_eq!(
        ran.outcome,
        Outcome::JumpOutOfRange {
            at: 2,
            target: 9,
            steps: 3
        }
    );
    // Output before the error is written.
    assert_eq!(ran.output, b"!");
    let ran = run_text("bae 3\noutc 33", b"");
    assert_eq!(
        ran.outcome,
        Outcome::JumpOutOfRange {
            at: 0,
            target: 3,
            steps: 1
        }
    );
}

#[test]
fn falling_off_the_end_ends_the_run() {
    assert_eq!(run_text("ld 1\nld 2", b"").outcome, Outcome::Ended { steps: 2 });
    assert_eq!(run_vm(&[], b"", None).outcome, Outcome::Ended { steps: 0 });
}

#[test]
fn the_step_limit_is_exact() {
    let text = "ld 1\nld 2\nld 3";
    assert_eq!(
        run_vm(&assemble(text), b"", Some(3)).outcome,
        Outcome::Ended { steps: 3 }
    );
    assert_eq!(
        run_vm(&assemble(text), b"", Some(2)).outcome,
        Outcome::StepLimit { steps: 2 }
    );
    assert_eq!(
        run_vm(&assemble(text), b"", Some(0)).outcome,
        Outcome::StepLimit { steps: 0 }
    );
    // In a loop, at every count: inside fused pairs or not, the limit stops at exactly N with
    // the state of N instructions.
    let looping = assemble("ld 5\n:top\nlds 1\nbne top\noutc 33");
    for n in 0..12 {
        let ran = run_vm(&looping, b"", Some(n));
        assert_eq!(ran.outcome, Outcome::StepLimit { steps: n }, "limit {n}");
        let mut plain = Plain::new(b"");
        assert_eq!(plain.run(&looping, n), Outcome::StepLimit { steps: n });
        assert_eq!(ran.machine.r, plain.r, "limit {n}");
    }
    let ran = run_vm(&looping, b"", Some(12));
    assert_eq!(ran.outcome, Outcome::Ended { steps: 12 });
    assert_eq!(ran.output, b"!");
}

#[test]
fn an_endless_loop_stops_at_the_limit() {
    let ran = run_vm(&assemble(":a\njmp a"), b"", Some(1_000_001));
    assert_eq!(ran.outcome, Outcome::StepLimit { steps: 1_000_001 });
}

/// What the reader saw written when it was called.
struct Recording {
    written: Rc<RefCell<Vec<u8>>>,
    seen: Rc<RefCell<Vec<Vec<u8>>>>,
    data: Vec<u8>,
}

impl Read for Recording {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.seen.borrow_mut().push(self.written.borrow().clone());
        let n = self.data.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data.drain(..n);
        Ok(n)
    }
}

struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn output_is_written_before_the_vm_waits_for_input() {
    let written = Rc::new(RefCell::new(Vec::new()));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut reader = Recording {
        written: written.clone(),
        seen: seen.clone(),
        data: b"7\n".to_vec(),
    };
    // A prompt, a number (the one read takes the whole input), an answer, another read that
    // finds the end.
    let program = Program::new(&assemble("outc 63\ninu\ninl\noutur\ninc\noutc 33")).unwrap();
    program
        .run(
            &mut Machine::new(),
            &mut reader,
            &mut Shared(written.clone()),
            Limits::default(),
        )
        .unwrap();
    assert_eq!(*seen.borrow(), vec![b"?".to_vec(), b"?7".to_vec()]);
    assert_eq!(*written.borrow(), b"?7!");
}

#[test]
fn no_read_happens_while_input_waits_in_the_buffer() {
    let written = Rc::new(RefCell::new(Vec::new()));
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut reader = Recording {
        written: written.clone(),
        seen: seen.clone(),
        data: b"abc".to_vec(),
    };
    let program = Program::new(&assemble("inc\noutcr\ninc\noutcr\ninc\noutcr")).unwrap();
    program
        .run(
            &mut Machine::new(),
            &mut reader,
            &mut Shared(written.clone()),
            Limits::default(),
        )
        .unwrap();
    // One read at the start fills the buffer; the output is written once, at the end.
    assert_eq!(*seen.borrow(), vec![Vec::<u8>::new()]);
    assert_eq!(*written.borrow(), b"abc");
}

struct Failing(io::ErrorKind);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }
}

impl Write for Failing {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from(self.0))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn read_and_write_errors_end_the_run() {
    let program = Program::new(&assemble("outc 33\ninc\noutc 33")).unwrap();
    let result = program.run(
        &mut Machine::new(),
        &mut io::empty(),
        &mut Failing(io::ErrorKind::BrokenPipe),
        Limits::default(),
    );
    assert!(matches!(result, Err(RunError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe));
    let result = program.run(
        &mut Machine::new(),
        &mut Failing(io::ErrorKind::PermissionDenied),
        &mut Vec::new(),
        Limits::default(),
    );
    assert!(matches!(result, Err(RunError::Read(e)) if e.kind() == io::ErrorKind::PermissionDenied));
    // An interrupted read is tried again.
    struct Once(bool);
    impl Read for Once {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                buf[0] = b'k';
                Ok(1)
            } else {
                Err(io::Error::from(io::ErrorKind::Interrupted))
            }
        }
    }
    let mut output = Vec::new();
    program
        .run(&mut Machine::new(), &mut Once(false), &mut output, Limits::default())
        .unwrap();
    assert_eq!(output, b"!!");
}

#[test]
fn a_runtime_error_wins_over_a_failed_final_write() {
    let program = Program::new(&assemble("outc 33\njmp 5")).unwrap();
    let result = program.run(
        &mut Machine::new(),
        &mut io::empty(),
        &mut Failing(io::ErrorKind::BrokenPipe),
        Limits::default(),
    );
    assert!(
        matches!(result, Err(RunError::JumpOutOfRange { at: 1, target: 5, .. })),
        "{result:?}"
    );
}

#[test]
fn big_output_is_written_in_pieces_and_completely() {
    let ran = run_vm(&assemble("ld 40000\n:a\noutur\nlds 1\nbne a"), b"", None);
    let expected: String = (1..=40000).rev().map(|n| n.to_string()).collect();
    assert_eq!(ran.output, expected.as_bytes());
}

#[test]
fn the_trace_shows_each_instruction_before_it_runs() {
    let program = Program::new(&assemble("ld 2\nmov 3\nstr 9\n:a\nlds 1\nbne a")).unwrap();
    let mut steps = Vec::new();
    program
        .run_traced(
            &mut Machine::new(),
            &mut io::empty(),
            &mut io::sink(),
            Limits::default(),
            &mut |s| {
                steps.push((s.index, s.h, s.r, s.m));
                Ok(())
            },
        )
        .unwrap();
    assert_eq!(
        steps,
        vec![
            (0, 0, 0, 0),
            (1, 0, 2, 0),
            (2, 3, 2, 0),
            (3, 3, 2, 9),
            (4, 3, 1, 9),
            (3, 3, 1, 9),
            (4, 3, 0, 9)
        ]
    );
}

#[test]
fn a_program_longer_than_65536_instructions_is_refused() {
    let long = vec![Instr::bare(Kind::Swap); 65537];
    assert_eq!(Program::new(&long).unwrap_err().len, 65537);
    assert!(Program::new(&long[..65536]).is_ok());
}

#[test]
fn memory_dumps_show_eight_cells_a_line() {
    let ran = run_text("mov 16\nstr 72\nmov 17\nstr 105\nmov 25\nstr 65535", b"");
    assert_eq!(
        dump_memory(&ran.machine, 16, 25),
        "   16:    72   105     0     0     0     0     0     0\n   24:     0 65535\n"
    );
    assert_eq!(dump_memory(&ran.machine, 65535, 65535), "65535:     0\n");
    assert_eq!(dump_memory(&ran.machine, 3, 2), "");
    assert_eq!(dump_memory(&ran.machine, 0, 65535).lines().count(), 8192);
}

#[test]
fn memory_ranges_read_as_documented() {
    assert_eq!(parse_memory_range("5"), Ok((5, 5)));
    assert_eq!(parse_memory_range("16..32"), Ok((16, 31)));
    assert_eq!(parse_memory_range("16..=32"), Ok((16, 32)));
    assert_eq!(parse_memory_range("0..65536"), Ok((0, 65535)));
    assert_eq!(
        parse_memory_range("0..65537"),
        Err("`65537` is past the end of memory (`A..B` ends at 65536 at most)".to_string())
    );
    assert_eq!(
        parse_memory_range("65536"),
        Err("`65536` is past the last cell address (65535)".to_string())
    );
    assert_eq!(
        parse_memory_range("0..=65536"),
        Err("`65536` is past the last cell address (65535)".to_string())
    );
    assert!(parse_memory_range("5..5").is_err());
    assert!(parse_memory_range("6..=5").is_err());
    assert!(parse_memory_range("x").is_err());
    assert!(parse_memory_range("-1..4").is_err());
    assert!(parse_memory_range("").is_err());
}

#[test]
fn the_benchmark_programs_compute_what_they_claim() {
    let ran = run_vm(&assemble(programs::LOOP), b"", None);
    assert_eq!(
        ran.outcome,
        Outcome::Ended {
            steps: 1 + 100 * (1 + 2 * 65535 + 2)
        }
    );

    let mut composite = vec![false; 65000];
    for i in 2..65000 {
        for j in (i * i..65000).step_by(i) {
            composite[j] = true;
        }
    }
    let primes = (2..65000).filter(|&i| !composite[i]).count();
    let ran = run_vm(&assemble(programs::SIEVE), b"", None);
    assert_eq!(String::from_utf8(ran.output).unwrap(), format!("{primes}\n"));

    let sum = programs::sum_numbers().iter().fold(0u16, |a, &n| a.wrapping_add(n));
    let ran = run_vm(&assemble(programs::SUM), &programs::sum_input(), None);
    assert_eq!(String::from_utf8(ran.output).unwrap(), format!("{sum}\n"));

    let once: String = (1..=65535).rev().map(|n| format!("{n}\n")).collect();
    let ran = run_vm(&assemble(programs::PRINT), b"", None);
    assert_eq!(String::from_utf8(ran.output).unwrap(), once.repeat(4));
}
