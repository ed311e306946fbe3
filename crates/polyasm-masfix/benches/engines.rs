//! The two engines side by side: the VM and the native code (the JIT) on the programs of
//! `benches/programs` (a tight loop, a sieve, a program that sums the numbers it reads and one
//! that prints numbers). The JIT is measured with its compile and without it, and every
//! program also runs with the step limit it just reaches (`--max-steps`). Compiling the
//! largest programs the JIT takes is measured on its own.
//!
//! Run with `cargo bench -p polyasm-masfix --bench engines`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_masfix::exec::{Limits, Machine, Program};
use polyasm_masfix::jit;
use polyasm_masfix::ops::Instr;

mod programs;

use programs::Count;

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

/// Compiling the largest programs the JIT takes: straight code, and code where every
/// instruction is a place a computed jump may land; and a program of 65,536 computed jumps,
/// which it turns down.
fn compile_largest(c: &mut Criterion) {
    let jumps = |len: usize| -> Vec<Instr> {
        (0..len)
            .map(|i| programs::instr(if i % 2 == 0 { "jmpr" } else { "jmpm" }, None))
            .collect()
    };
    let straight = vec![programs::instr("lda", Some(1)); jit::MAX_INSTRUCTIONS];
    let mut group = c.benchmark_group("compile");
    group.sample_size(10);
    for (name, instrs) in [
        (format!("straight_{}", jit::MAX_INSTRUCTIONS), straight),
        (format!("computed_{}", jit::MAX_COMPUTED), jumps(jit::MAX_COMPUTED)),
    ] {
        let program = Program::new(&instrs).expect("the program fits");
        group.bench_function(name, |b| {
            b.iter(|| jit::compile(&program).expect("the JIT compiles the program"))
        });
    }
    let program = Program::new(&jumps(65536)).expect("65,536 instructions fit");
    group.bench_function("computed_65536_turned_down", |b| {
        b.iter(|| jit::compile(&program).expect_err("too large"))
    });
    group.finish();
}

criterion_group!(benches, engines, compile_largest);
criterion_main!(benches);
