//! Benchmarks: the assembler on a generated 1,000,000-line program (with the library option
//! that lifts the 64-instruction limit) and the emulator on the seed example.
//!
//! Run with `cargo bench -p polyasm-vu`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_core::SourceMap;
use polyasm_vu::{AssembleOptions, Program, assemble, assemble_str};

/// A deterministic mix of every statement form, with comments and blank lines.
fn generate(lines: usize) -> String {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let binary = [
        "add", "sub", "mul", "div", "dot", "min", "max", "pow", "atan2", "mulm", "sin", "sqrt",
    ];
    let mut out = String::with_capacity(lines * 20);
    for i in 0..lines {
        match next(16) {
            0 => out.push_str(&format!("ld r{} {}", next(16), next(8))),
            1 => out.push_str(&format!("ldc r{} {}", next(16), next(16))),
            2 => out.push_str(&format!(
                "st {} r{}",
                ["pos", "tex", "col", "ocol"][next(4) as usize],
                next(16)
            )),
            3 => out.push_str(&format!("shf r{} r{} xyzw 0b{:04b}", next(16), next(16), next(16))),
            4 => out.push_str("// a comment line"),
            5 if i % 7 == 0 => {}
            _ => out.push_str(&format!(
                "{} r{} r{}",
                binary[next(binary.len() as u64) as usize],
                next(16),
                next(13)
            )),
        }
        if next(4) == 0 {
            out.push_str("   // trailing comment");
        }
        out.push('\n');
    }
    out
}

fn assembler(c: &mut Criterion) {
    const LINES: usize = 1_000_000;
    let text = generate(LINES);
    let options = AssembleOptions { max_words: None };
    let mut group = c.benchmark_group("assemble");
    group.sample_size(10);
    group.throughput(Throughput::Elements(LINES as u64));
    group.bench_with_input(BenchmarkId::new("lines", LINES), &text, |b, text| {
        b.iter(|| {
            let mut sources = SourceMap::new();
            let file = sources.add("big.vu", text.as_str());
            let outcome = assemble(&sources, file, options);
            let object = outcome.value.expect("the generated program is valid");
            assert!(object.bytes.len() > 3 * LINES);
            object.bytes.len()
        })
    });
    group.finish();
}

fn emulator(c: &mut Criterion) {
    let source = include_str!("../../../examples/vu/seed.vu");
    let program = Program::new(&assemble_str(source).expect("the seed example assembles")).unwrap();
    let mut inputs = [[0.0f32; 4]; 8];
    let constants = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [0.5, 0.25, 0.0, 1.0],
    ]
    .into_iter()
    .chain(std::iter::repeat([0.0; 4]))
    .take(16)
    .collect::<Vec<_>>()
    .try_into()
    .expect("16 constants");
    const VERTICES: usize = 10_000;
    let mut group = c.benchmark_group("emulate");
    group.throughput(Throughput::Elements(VERTICES as u64));
    group.bench_function(BenchmarkId::new("seed_vertices", VERTICES), |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for v in 0..VERTICES {
                inputs[0] = [v as f32, 1.0, 2.0, 1.0];
                sum += program.run(&inputs, &constants)[0][0];
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, assembler, emulator);
criterion_main!(benches);
