//! VM throughput in executed instructions per second: a tight loop, a sieve, a program that
//! sums 65,535 numbers read from its input, and one that prints 262,140 numbers; each without a
//! step limit and with one.
//!
//! Run with `cargo bench -p polyasm-masfix --bench vm`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_masfix::exec::{Limits, Machine, Program};

mod programs;

use programs::Count;

fn bench_program(c: &mut Criterion, name: &str, source: &str, input: &[u8]) {
    let program = Program::new(&programs::assemble(source)).expect("the program is short");
    let mut machine = Machine::new();
    let mut sink = Count(0);
    let steps = program
        .run(&mut machine, &mut &input[..], &mut sink, Limits::default())
        .expect("the benchmark program runs")
        .steps;
    let mut group = c.benchmark_group("vm");
    group.sample_size(20);
    group.throughput(Throughput::Elements(steps));
    // Without a limit, and with the limit the program just reaches (`--max-steps`).
    for (label, limits) in [
        (name.to_string(), Limits::default()),
        (format!("{name}_limited"), Limits { max_steps: Some(steps) }),
    ] {
        group.bench_with_input(BenchmarkId::new(label, steps), &input, |b, input| {
            b.iter(|| {
                machine.reset();
                sink.0 = 0;
                let stats = program
                    .run(&mut machine, &mut &input[..], &mut sink, limits)
                    .expect("the benchmark program runs");
                assert_eq!(stats.steps, steps);
                sink.0
            })
        });
    }
    group.finish();
}

fn vm(c: &mut Criterion) {
    bench_program(c, "loop", programs::LOOP, b"");
    bench_program(c, "sieve", programs::SIEVE, b"");
    bench_program(c, "sum", programs::SUM, &programs::sum_input());
    bench_program(c, "print", programs::PRINT, b"");
}

criterion_group!(benches, vm);
criterion_main!(benches);
