//! The CPU renderer on the ray-traced sphere at 1920x1080, in pixels per second, against the
//! naive interpreter (on one core and on all of them) and the same computation written by hand
//! in Rust (the limit); and the PNG encoder on the picture.
//!
//! Run with `cargo bench -p polyasm-shader --bench render`.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use polyasm_shader::exec::{self, Alpha, Frame};
use polyasm_shader::render::{self, Plan};

mod sphere;

const FRAME: Frame = Frame {
    width: 1920,
    height: 1080,
    time: 0.0,
};

fn sphere_render(c: &mut Criterion) {
    let program = sphere::program();
    let fast = render::render(&program, &FRAME, Alpha::Opaque).expect("1920x1080 is allowed");
    assert!(
        fast == exec::render_naive(&program, &FRAME, Alpha::Opaque)
            && fast == sphere::render_naive_parallel(&program, &FRAME, Alpha::Opaque)
            && fast == sphere::render_by_hand(&FRAME),
        "every way of rendering gives the same bytes"
    );
    let plan = Plan::new(&program, &FRAME, Alpha::Opaque).expect("the program is valid");
    eprintln!(
        "sphere: {} instructions; per pixel {} lane steps, per row {} uniform steps, {} lane buffers; {} threads",
        program.len(),
        plan.varying_steps(),
        plan.uniform_steps(),
        plan.lane_buffers(),
        rayon::current_num_threads(),
    );

    let mut group = c.benchmark_group("sphere_1920x1080");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(u64::from(FRAME.width) * u64::from(FRAME.height)));
    group.bench_function("naive", |b| {
        b.iter(|| exec::render_naive(black_box(&program), &FRAME, Alpha::Opaque))
    });
    group.bench_function("naive_parallel", |b| {
        b.iter(|| sphere::render_naive_parallel(black_box(&program), &FRAME, Alpha::Opaque))
    });
    group.bench_function("by_hand", |b| b.iter(|| sphere::render_by_hand(black_box(&FRAME))));
    group.bench_function("render", |b| {
        b.iter(|| render::render(black_box(&program), &FRAME, Alpha::Opaque))
    });
    let mut image = fast.clone();
    group.bench_function("render_into", |b| {
        b.iter(|| render::render_into(black_box(&program), &FRAME, Alpha::Opaque, &mut image))
    });
    group.finish();

    // The PNG writer's settings, and the png crate's other levels for comparison.
    let mut group = c.benchmark_group("png_1920x1080");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(u64::from(FRAME.width) * u64::from(FRAME.height)));
    let mut out = Vec::with_capacity(fast.rgba.len() * 2);
    fast.write_png(&mut out).expect("a Vec takes any bytes");
    eprintln!("write_png: {} bytes", out.len());
    group.bench_function("write_png", |b| {
        b.iter(|| {
            out.clear();
            black_box(&fast).write_png(&mut out).expect("a Vec takes any bytes");
            out.len()
        })
    });
    for (name, level) in [
        ("fastest", png::Compression::Fastest),
        ("balanced", png::Compression::Balanced),
    ] {
        out.clear();
        encode_at(&fast, level, &mut out);
        eprintln!("{name}: {} bytes", out.len());
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                encode_at(black_box(&fast), level, &mut out);
                out.len()
            })
        });
    }
    group.finish();
}

fn encode_at(image: &exec::Image, level: png::Compression, out: &mut Vec<u8>) {
    let mut encoder = png::Encoder::new(out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(level);
    let mut writer = encoder.write_header().expect("a Vec takes any bytes");
    writer.write_image_data(&image.rgba).expect("the buffer fits the size");
    writer.finish().expect("a Vec takes any bytes");
}

criterion_group!(benches, sphere_render);
criterion_main!(benches);
