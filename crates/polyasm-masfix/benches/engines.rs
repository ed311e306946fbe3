//! The two engines side by side: the VM and the native code (the JIT) on the programs of
//! `benches/programs` (a tight loop, a sieve, a program that sums the numbers it reads and one
//! that prints numbers). The JIT is measured with its compile and without it, and every
//! program also runs with the step limit it just reaches (`--max-steps`). Compiling a large
//! program of computed jumps is measured on its own.
//!
//! Run with `cargo bench -p polyasm-masfix --bench engines`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_masfix::exec::{Limits, Machine, Program};
use polyasm_masfix::jit;
use polyasm_masfix::ops::Instr;

mod programs;

/// A writer that only counts: the benches measure the engines, not a copy of their output.
struct Count(usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn bench_program(c: &mut Criterion, name: &str, source: &str, input: &[u8]) {
    let program = Program::new(&programs::assemble(source)).expect("the program is short");
    let compiled = jit::compile(&program).expect("the JIT compiles the program");
    let mut machine = Machine::new();
    let mut sink = Count(0);
    let steps = program
        .run(&mut machine, &mut &input[..], &mut sink, Limits::default())
        .expect("the benchmark program runs")
        .steps;
    let printed = sink.0;
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(steps));
    for (label, limits) in [("", Limits::default()), ("_limited", Limits { max_steps: Some(steps) })] {
        let check = |stats: Result<_, _>, sink: &Count| {
            let stats: polyasm_masfix::exec::Stats = stats.expect("the benchmark program runs");
            assert_eq!((stats.steps, sink.0), (steps, printed));
        };
        group.bench_function(BenchmarkId::new(format!("vm{label}"), steps), |b| {
            b.iter(|| {
                machine.reset();
                sink.0 = 0;
                check(program.run(&mut machine, &mut &input[..], &mut sink, limits), &sink);
            })
        });
        group.bench_function(BenchmarkId::new(format!("jit{label}"), steps), |b| {
            b.iter(|| {
                machine.reset();
                sink.0 = 0;
                check(compiled.run(&mut machine, &mut &input[..], &mut sink, limits), &sink);
            })
        });
        group.bench_function(BenchmarkId::new(format!("jit_compile_included{label}"), steps), |b| {
            b.iter(|| {
                machine.reset();
                sink.0 = 0;
                let compiled = jit::compile(&program).expect("the JIT compiles the program");
                check(compiled.run(&mut machine, &mut &input[..], &mut sink, limits), &sink);
            })
        });
    }
    group.finish();
}

fn engines(c: &mut Criterion) {
    bench_program(c, "loop", programs::LOOP, b"");
    bench_program(c, "sieve", programs::SIEVE, b"");
    bench_program(c, "sum", programs::SUM, &programs::sum_input());
    bench_program(c, "print", programs::PRINT, b"");
}

/// The largest program (65,536 instructions), every one a jump whose target is computed: the
/// most any program asks of the compiler.
fn compile_largest(c: &mut Criterion) {
    let instrs: Vec<Instr> = (0..65536u32)
        .map(|i| programs::instr(if i % 2 == 0 { "jmpr" } else { "jmpm" }, None))
        .collect();
    let program = Program::new(&instrs).expect("65,536 instructions fit");
    let mut group = c.benchmark_group("compile");
    group.sample_size(10);
    group.bench_function("computed_jumps_65536", |b| {
        b.iter(|| jit::compile(&program).expect("the JIT compiles the program"))
    });
    group.finish();
}

criterion_group!(benches, engines, compile_largest);
criterion_main!(benches);
