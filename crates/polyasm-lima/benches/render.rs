//! The emulator rendering a 1920x1080 frame of examples/lima/procedural.pp (a checkerboard
//! shaded by rings, from varying 0), in pixels per second on all cores; and one fragment of it
//! alone.
//!
//! Run with `cargo bench -p polyasm-lima --bench render`.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use polyasm_lima::exec::{Inputs, Output, Program, render, run_fragment};
use polyasm_lima::instr::Instr;
use polyasm_lima::syntax::proposed::assemble_proposed_text;

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

/// The procedural example, assembled.
fn procedural() -> Vec<Instr> {
    let text = include_str!("../../../examples/lima/procedural.pp");
    assemble_proposed_text(text).expect("the example assembles")
}

fn procedural_render(c: &mut Criterion) {
    let program = Program::new(&procedural());
    let inputs = Inputs::default();
    let image = render(&program, &inputs, WIDTH, HEIGHT).expect("the program stops");
    let first = &image.rgba[..4];
    assert!(image.rgba.chunks(4).any(|p| p != first), "the picture has a pattern");
    let one = Inputs {
        varyings: vec![[0.3, 0.7, 0.0, 1.0]],
        ..Inputs::default()
    };
    assert!(matches!(run_fragment(&program, &one), Ok(Output::Color(_))));
    eprintln!(
        "procedural: {} instructions; {} threads",
        program.len(),
        rayon::current_num_threads()
    );

    let mut group = c.benchmark_group("procedural_1920x1080");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(u64::from(WIDTH) * u64::from(HEIGHT)));
    group.bench_function("render", |b| {
        b.iter(|| render(black_box(&program), &inputs, WIDTH, HEIGHT))
    });
    group.finish();

    let mut group = c.benchmark_group("procedural_fragment");
    group.throughput(Throughput::Elements(1));
    group.bench_function("run_fragment", |b| b.iter(|| run_fragment(black_box(&program), &one)));
    group.finish();
}

criterion_group!(benches, procedural_render);
criterion_main!(benches);
