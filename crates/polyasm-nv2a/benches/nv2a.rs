//! Benchmarks: the assembler on a generated 1,000,000-line program (with the library option
//! that lifts the 136-instruction limit) and the emulator on the lighting example. Peak heap is
//! measured by the `memory` bench.
//!
//! Run with `cargo bench -p polyasm-nv2a --bench nv2a`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_nv2a::{AssembleOptions, ExecOptions, Program, assemble_str};

mod common;

fn assembler(c: &mut Criterion) {
    const LINES: usize = common::LINES;
    let text = common::generate(LINES);

    let mut group = c.benchmark_group("assemble");
    group.sample_size(10);
    group.throughput(Throughput::Elements(LINES as u64));
    group.bench_with_input(BenchmarkId::new("lines", LINES), &text, |b, text| {
        b.iter(|| common::assemble_text(text))
    });
    group.finish();
}

fn emulator(c: &mut Criterion) {
    let source = include_str!("../../../examples/nv2a/lighting.vsh");
    let words = assemble_str(source, AssembleOptions::default()).expect("the lighting example assembles");
    let program = Program::new(&words).expect("assembled programs load");
    let mut constants = [[0.0f32; 4]; 192];
    for (i, c) in constants.iter_mut().enumerate() {
        *c = [i as f32 * 0.01, 0.5, 0.25, 1.0];
    }
    let mut inputs = [[0.0f32; 4]; 16];
    inputs[2] = [0.0, 0.0, 1.0, 0.0];
    inputs[3] = [1.0, 0.5, 0.25, 1.0];
    const VERTICES: usize = 10_000;
    let mut group = c.benchmark_group("emulate");
    group.throughput(Throughput::Elements(VERTICES as u64));
    group.bench_function(BenchmarkId::new("lighting_vertices", VERTICES), |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for v in 0..VERTICES {
                inputs[0] = [v as f32, 1.0, 2.0, 1.0];
                sum += program.run(&inputs, &mut constants, ExecOptions::default())[0][0];
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, assembler, emulator);
criterion_main!(benches);
