//! The JIT against the VM: random programs over every instruction shape, with random input,
//! starting state and step limits, and the examples with their inputs; the output, `h`, `r`,
//! memory, steps and error must be the VM's.
#![cfg(jit)]

use std::io::{self, Read, Write};
use std::path::Path;

use polyasm_masfix::exec::{Limits, Machine, Program, RunError, Stats};
use polyasm_masfix::jit;
use polyasm_masfix::ops::{Instr, Kind, Value};
use proptest::prelude::*;

mod common;
#[path = "../benches/programs/mod.rs"]
mod programs;

use common::{any_cond, any_imm, any_instr};

/// What one run left behind.
#[derive(Debug, PartialEq, Eq)]
struct Ran {
    /// The stats, or the error as its `Debug` text (I/O errors hold no comparable value).
    result: Result<Stats, String>,
    output: Vec<u8>,
    machine: Machine,
}

fn settle(result: Result<Stats, RunError>, output: Vec<u8>, machine: Machine) -> Ran {
    Ran {
        result: result.map_err(|e| format!("{e:?}")),
        output,
        machine,
    }
}

/// Input that arrives `chunk` bytes a read at most, as from a pipe.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.chunk).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn on_vm(program: &Program, start: &Machine, input: Trickle, limits: Limits) -> Ran {
    let (mut machine, mut input) = (start.clone(), input);
    let mut output = Vec::new();
    let result = program.run(&mut machine, &mut input, &mut output, limits);
    settle(result, output, machine)
}

fn on_jit(compiled: &jit::Compiled, start: &Machine, input: Trickle, limits: Limits) -> Ran {
    let (mut machine, mut input) = (start.clone(), input);
    let mut output = Vec::new();
    let result = compiled.run(&mut machine, &mut input, &mut output, limits);
    settle(result, output, machine)
}

/// Runs both and asserts they agree; gives the VM's run.
fn agree(instrs: &[Instr], start: &Machine, input: &[u8], limits: Limits) -> Ran {
    agree_in_chunks(instrs, start, input, usize::MAX, limits)
}

/// [`agree`] with the input arriving `chunk` bytes a read at most.
fn agree_in_chunks(instrs: &[Instr], start: &Machine, input: &[u8], chunk: usize, limits: Limits) -> Ran {
    let program = Program::new(instrs).expect("a short program");
    let compiled = jit::compile(&program).expect("the JIT compiles every instruction");
    let vm = on_vm(&program, start, Trickle { data: input, chunk }, limits);
    let native = on_jit(&compiled, start, Trickle { data: input, chunk }, limits);
    assert_eq!(native.result, vm.result, "{instrs:?} with {limits:?}");
    assert_eq!(native.output, vm.output, "{instrs:?} with {limits:?}");
    assert_eq!(
        (native.machine.h, native.machine.r),
        (vm.machine.h, vm.machine.r),
        "{instrs:?}"
    );
    assert!(native.machine.memory == vm.machine.memory, "memory differs: {instrs:?}");
    vm
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => b'0'..=b'9',
            1 => Just(b'\n'),
            1 => Just(b'x'),
            // The bytes beside the digits, and digits with the high bit set.
            1 => prop::sample::select(vec![b'/', b':', b'@', 0x10, 0x1f, 0xb0, 0xb9, 0xba]),
            1 => any::<u8>(),
        ],
        0..40,
    )
}

/// A machine with the head, `r` and a few cells set.
fn start() -> impl Strategy<Value = Machine> {
    (
        any_imm(),
        any_imm(),
        prop::collection::vec((any_imm(), any::<u16>()), 0..6),
    )
        .prop_map(|(h, r, cells)| {
            let mut machine = Machine::new();
            (machine.h, machine.r) = (h, r);
            for (at, v) in cells {
                machine.memory[usize::from(at)] = v;
            }
            machine
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_jit_does_what_the_vm_does(
        instrs in prop::collection::vec(any_instr(), 0..20),
        start in start(),
        input in input(),
        chunk in prop_oneof![1usize..4, Just(usize::MAX)],
        max in prop_oneof![0u64..40, 0u64..400],
    ) {
        let vm = agree_in_chunks(&instrs, &start, &input, chunk, Limits { max_steps: Some(max) });
        // A run that ends within the limit ends the same without one.
        if vm.result.is_ok() {
            agree_in_chunks(&instrs, &start, &input, chunk, Limits::default());
        }
    }
}

/// Any instruction but a jump or a branch: one that runs straight on.
fn straight() -> impl Strategy<Value = Instr> {
    any_instr().prop_filter("runs straight on", |i| !matches!(i.kind, Kind::Jmp | Kind::B))
}

/// A loop: a straight run that branches back to its own start (what the JIT unrolls when it
/// has no input or output), with straight instructions before and any after; half the time
/// its body has no input or output and counts `r` down.
fn a_loop() -> impl Strategy<Value = Vec<Instr>> {
    (
        prop::collection::vec(straight(), 0..4),
        prop::collection::vec(straight(), 0..14),
        any::<bool>(),
        any_cond(),
        prop::collection::vec(any_instr(), 0..4),
    )
        .prop_map(|(before, mut body, count, cond, after)| {
            // Half the loops without input or output: those the JIT unrolls.
            if count {
                body.retain(|i| {
                    !matches!(
                        i.kind,
                        Kind::Outu | Kind::Outc | Kind::Inc | Kind::Ipc | Kind::Inu | Kind::Inl
                    )
                });
            }
            if count {
                body.push(programs::instr("lds", Some(1)));
            }
            let branch = Instr {
                kind: Kind::B,
                modifier: None,
                cond: Some(cond),
                value: Value::Imm(before.len() as u16),
            };
            let mut instrs = before;
            instrs.extend(body);
            instrs.push(branch);
            instrs.extend(after);
            instrs
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn loops_stop_and_end_where_the_vm_does(
        instrs in a_loop(),
        start in start(),
        input in input(),
        chunk in prop_oneof![1usize..4, Just(usize::MAX)],
        max in prop_oneof![0u64..200, 0u64..3000],
    ) {
        let vm = agree_in_chunks(&instrs, &start, &input, chunk, Limits { max_steps: Some(max) });
        if vm.result.is_ok() {
            agree_in_chunks(&instrs, &start, &input, chunk, Limits::default());
        }
    }
}

/// A writer, or a reader, that fails after some bytes.
struct Failing {
    left: usize,
}

impl Write for Failing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("the disk is full"));
        }
        let n = buf.len().min(self.left);
        self.left -= n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("the pipe broke"));
        }
        let n = buf.len().min(self.left);
        buf[..n].fill(b'7');
        self.left -= n;
        Ok(n)
    }
}

#[test]
fn failed_reads_and_writes_stop_both_with_the_same_error_and_state() {
    // Prints r, then reads a number into r, then a byte into m; four times over.
    let text = "ld 5\nmov 9\n:top\noutur\noutc 10\ninu\nincm\nstra 1\nldt 3\nbmne top\n";
    let instrs = programs::assemble(text);
    let program = Program::new(&instrs).unwrap();
    let compiled = jit::compile(&program).unwrap();
    for left in [0, 1, 3, 8] {
        let mut vm = Machine::new();
        let mut native = Machine::new();
        let input = b"12\n34\n56\n";
        let vm_result = program.run(&mut vm, &mut &input[..], &mut Failing { left }, Limits::default());
        let native_result = compiled.run(&mut native, &mut &input[..], &mut Failing { left }, Limits::default());
        assert!(matches!(vm_result, Err(RunError::Write(_))), "{vm_result:?}");
        assert_eq!(format!("{native_result:?}"), format!("{vm_result:?}"));
        assert_eq!((native.h, native.r), (vm.h, vm.r));
        assert!(native.memory == vm.memory);

        let (mut vm, mut native) = (Machine::new(), Machine::new());
        let (mut vm_out, mut native_out) = (Vec::new(), Vec::new());
        let vm_result = program.run(&mut vm, &mut Failing { left }, &mut vm_out, Limits::default());
        let native_result = compiled.run(&mut native, &mut Failing { left }, &mut native_out, Limits::default());
        assert!(matches!(vm_result, Err(RunError::Read(_))), "{vm_result:?}");
        assert_eq!(format!("{native_result:?}"), format!("{vm_result:?}"));
        assert_eq!((native.h, native.r, native_out), (vm.h, vm.r, vm_out));
        assert!(native.memory == vm.memory);
    }
}

struct Panicking;

impl Write for Panicking {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        panic!("the writer gave up");
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_panic_in_the_writer_reaches_the_caller() {
    let program = Program::new(&programs::assemble("ld 1\n:top\noutur\nbne top\n")).unwrap();
    let compiled = jit::compile(&program).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut machine = Machine::new();
        compiled.run(&mut machine, &mut &b""[..], &mut Panicking, Limits::default())
    }));
    let payload = caught.expect_err("the writer panics once the buffer is full");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"the writer gave up"));
}

#[test]
fn the_step_limit_stops_after_exactly_that_many_instructions() {
    let instrs = programs::assemble(programs::LOOP);
    let all = agree(&instrs, &Machine::new(), b"", Limits::default());
    let steps = all.result.clone().unwrap().steps;
    for max in [0, 1, 2, 3, 4, 5, 1000, steps / 2 + 1, steps - 1, steps, steps + 1] {
        let ran = agree(&instrs, &Machine::new(), b"", Limits { max_steps: Some(max) });
        match ran.result {
            Ok(stats) => assert!(max >= steps && stats.steps == steps, "{max}"),
            Err(e) => assert_eq!(e, format!("StepLimit {{ steps: {max} }}")),
        }
    }
}

#[test]
fn computed_jumps_land_anywhere_and_past_the_end_fail() {
    // A table of jumps through r: each target prints its index, the last jumps past the end.
    let text = "ld 3\njmpr\noutc 65\noutc 66\nld 7\njmpr\noutc 67\noutur\nld 2000\njmpr\n";
    let instrs = programs::assemble(text);
    let ran = agree(&instrs, &Machine::new(), b"", Limits::default());
    assert_eq!(ran.output, b"B7");
    assert_eq!(
        ran.result,
        Err("JumpOutOfRange { at: 9, target: 2000, steps: 8 }".to_string())
    );
    // A jump to the end itself ends the run.
    let end = programs::assemble("ld 3\njmpr\noutc 65\n");
    let ran = agree(&end, &Machine::new(), b"", Limits::default());
    assert_eq!((ran.result, ran.output), (Ok(Stats { steps: 2 }), Vec::new()));
}

#[test]
fn a_compiled_program_runs_again_on_the_state_it_left() {
    let program = Program::new(&programs::assemble("lda 1\nstrr\nmova 1\n")).unwrap();
    let compiled = jit::compile(&program).unwrap();
    let mut machine = Machine::new();
    for _ in 0..3 {
        compiled
            .run(&mut machine, &mut &b""[..], &mut io::sink(), Limits::default())
            .unwrap();
    }
    assert_eq!((machine.h, machine.r), (3, 3));
    assert_eq!(machine.memory[..4], [1, 2, 3, 0]);
}

#[test]
fn every_example_prints_the_same_on_the_jit() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/masfix");
    let expected = examples.join("expected");
    let mut runs = 0;
    for entry in std::fs::read_dir(&expected).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "out") {
            continue;
        }
        let label = path.file_stem().unwrap().to_str().unwrap().to_string();
        let name = label.split('.').next().unwrap();
        let text = std::fs::read_to_string(examples.join(format!("{name}.mx"))).unwrap();
        let stdin = std::fs::read(expected.join(format!("{label}.in"))).unwrap_or_default();
        let instrs = programs::assemble(&text);
        let ran = agree(
            &instrs,
            &Machine::new(),
            &stdin,
            Limits {
                max_steps: Some(100_000_000),
            },
        );
        assert!(ran.result.is_ok(), "{label}: {:?}", ran.result);
        assert_eq!(ran.output, std::fs::read(&path).unwrap(), "{label}");
        runs += 1;
    }
    assert!(runs >= 10, "only {runs} cases found");
}

#[test]
fn programs_past_the_size_limits_are_left_to_the_vm() {
    let add = programs::instr("lda", Some(1));
    let straight = vec![add; jit::MAX_INSTRUCTIONS];
    let ran = agree(&straight, &Machine::new(), b"", Limits::default());
    assert_eq!(ran.machine.r, jit::MAX_INSTRUCTIONS as u16);
    let longer = Program::new(&[&straight[..], &[add]].concat()).unwrap();
    assert_eq!(
        jit::compile(&longer).unwrap_err(),
        jit::JitError::TooLarge {
            len: jit::MAX_INSTRUCTIONS + 1,
            most: jit::MAX_INSTRUCTIONS
        }
    );

    // With a jump through `r`, every instruction is a place to land, and the limit is lower.
    let mut computed = programs::assemble("ld 3\njmpr\nouturs 1\nlda 2\njmpr\n");
    computed.resize(jit::MAX_COMPUTED - 1, add);
    computed.push(programs::instr("outur", None));
    let ran = agree(&computed, &Machine::new(), b"", Limits::default());
    assert_eq!(ran.output, (jit::MAX_COMPUTED - 1).to_string().as_bytes());
    for max in [0, 4, 5, 6, 7, 1000] {
        agree(&computed, &Machine::new(), b"", Limits { max_steps: Some(max) });
    }
    computed.push(add);
    let longer = Program::new(&computed).unwrap();
    assert!(matches!(
        jit::compile(&longer),
        Err(jit::JitError::TooLarge {
            most: jit::MAX_COMPUTED,
            ..
        })
    ));
}

#[test]
fn long_input_and_output_cross_the_buffers_on_both() {
    // 65,535 numbers in, their sum out; then 262,140 numbers out, past the output buffer many
    // times; the input arriving whole, and in pieces that split numbers and lines.
    let input = programs::sum_input();
    for chunk in [usize::MAX, 4096, 7, 1] {
        let ran = agree_in_chunks(
            &programs::assemble(programs::SUM),
            &Machine::new(),
            &input,
            chunk,
            Limits::default(),
        );
        let sum = programs::sum_numbers().iter().fold(0u16, |a, &n| a.wrapping_add(n));
        assert_eq!(ran.output, format!("{sum}\n").as_bytes());
    }
    let ran = agree(
        &programs::assemble(programs::PRINT),
        &Machine::new(),
        b"",
        Limits::default(),
    );
    assert_eq!(
        ran.output.len(),
        4 * (1..=65535u32).map(|n| n.to_string().len() + 1).sum::<usize>()
    );
    // Numbers of every length and the clamp, whole and one byte a read.
    let text = ":top\nipc\noutur\noutc 32\nlae 65535\nbne end\ninu\noutur\noutc 32\ninl\njmp top\n";
    let input = b"0\n7\n42\n999\n65535\n65536\n123456789\nx\n\n007\n12:34567\n56/7\n";
    for chunk in [usize::MAX, 1, 2, 5] {
        let ran = agree_in_chunks(
            &programs::assemble(text),
            &Machine::new(),
            input,
            chunk,
            Limits::default(),
        );
        let expected = "48 0 55 7 52 42 57 999 54 65535 54 65535 49 65535 120 0 10 0 48 7 49 12 53 56 65535 ";
        assert_eq!(String::from_utf8_lossy(&ran.output), expected, "{chunk}");
    }
}
