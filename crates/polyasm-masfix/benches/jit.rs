//! The JIT against the VM on the whole-process speed program (benches/programs/loop.mx,
//! 131,073,001 instructions), without a step limit and with one; and what compiling costs.
//!
//! Run with `cargo bench -p polyasm-masfix --bench jit`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use polyasm_masfix::exec::{Limits, Machine, Program};
use polyasm_masfix::jit;

mod programs;

fn loop_program(c: &mut Criterion) {
    let source = include_str!("programs/loop.mx");
    let program = Program::new(&programs::assemble(source)).expect("the program is short");
    let compiled = jit::compile(&program).expect("the JIT compiles the program");
    let mut machine = Machine::new();
    let steps = program
        .run(&mut machine, &mut &b""[..], &mut std::io::sink(), Limits::default())
        .expect("the program ends")
        .steps;
    let mut group = c.benchmark_group("loop");
    group.sample_size(10);
    group.throughput(Throughput::Elements(steps));
    for (label, limits) in [("", Limits::default()), ("_limited", Limits { max_steps: Some(steps) })] {
        group.bench_function(format!("vm{label}"), |b| {
            b.iter(|| {
                machine.reset();
                let stats = program
                    .run(&mut machine, &mut &b""[..], &mut std::io::sink(), limits)
                    .unwrap();
                assert_eq!(stats.steps, steps);
            })
        });
        group.bench_function(format!("jit{label}"), |b| {
            b.iter(|| {
                machine.reset();
                let stats = compiled
                    .run(&mut machine, &mut &b""[..], &mut std::io::sink(), limits)
                    .unwrap();
                assert_eq!(stats.steps, steps);
            })
        });
    }
    group.finish();
    c.bench_function("jit_compile_loop", |b| b.iter(|| jit::compile(&program).unwrap()));
}

criterion_group!(benches, loop_program);
criterion_main!(benches);
