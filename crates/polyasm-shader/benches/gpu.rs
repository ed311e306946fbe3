//! Frames per second of the GPU interpreter at 1920x1080, upload and read-back included, for a
//! ray-traced sphere of 113 instructions. Frames per second = 1 / the time per frame. Then
//! examples/shader/sphere.sasm at 640x360, interpreted and as its native shader, and the time
//! to build that shader's pipeline.
//!
//! `cargo bench -p polyasm-shader --bench gpu`; without a Vulkan adapter it says so and stops.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use polyasm_shader::exec::{self, Alpha, Frame};
use polyasm_shader::gpu::GpuRenderer;
use polyasm_shader::ops::{COLOR, Instr, Op, PC, Reg, SIZE};

/// Appends instructions by name; scalar registers are numbers 0..8.
#[derive(Default)]
struct Program(Vec<Instr>);

impl Program {
    fn push(&mut self, op: Op, regs: [u8; 3], constant: f32) {
        self.0.push(Instr {
            op,
            regs: regs.map(Reg),
            constant,
        });
    }
    fn load(&mut self, s: u8, value: f32) {
        self.push(Op::Load, [s, 0, 0], value);
    }
    fn add(&mut self, a: u8, b: u8, c: u8) {
        self.push(Op::Add, [a, b, c], 0.0);
    }
    fn mul(&mut self, a: u8, b: u8, c: u8) {
        self.push(Op::Multiply, [a, b, c], 0.0);
    }
    fn neg(&mut self, a: u8, b: u8) {
        self.push(Op::Negate, [a, b, 0], 0.0);
    }
    fn rcp(&mut self, a: u8, b: u8) {
        self.push(Op::Reciprocal, [a, b, 0], 0.0);
    }
    fn get(&mut self, v: Reg, lane: u8, s: u8) {
        let op = [
            Op::GetComponent0,
            Op::GetComponent1,
            Op::GetComponent2,
            Op::GetComponent3,
        ][usize::from(lane)];
        self.push(op, [v.0, s, 0], 0.0);
    }
    fn set(&mut self, v: Reg, lane: u8, s: u8) {
        let op = [
            Op::SetComponent0,
            Op::SetComponent1,
            Op::SetComponent2,
            Op::SetComponent3,
        ][usize::from(lane)];
        self.push(op, [v.0, s, 0], 0.0);
    }
    /// `x` = sqrt(`square`) by six Newton steps from 1 (`half` holds 0.5, `tmp` is clobbered).
    fn sqrt(&mut self, square: u8, x: u8, half: u8, tmp: u8) {
        self.load(x, 1.0);
        for _ in 0..6 {
            self.rcp(x, tmp);
            self.mul(square, tmp, tmp);
            self.add(x, tmp, x);
            self.mul(x, half, x);
        }
    }
}

/// A unit sphere at (0, 0, -3) seen from the origin through a screen at z = -1.5, lit from
/// (1, 1, 1) with a little ambient light, on black. The language has no square root, no
/// absolute value and no comparison: square roots are Newton steps, |d| is sqrt(d * d), and
/// the edge of the sphere is the discriminant's negative part, scaled up so that the final
/// clamp to [0, 1] turns it black.
fn sphere() -> Vec<Instr> {
    let v1 = Reg(9);
    let mut p = Program::default();
    // u = (2 pc.x - s.x) / s.y, v = (2 pc.y - s.y) / s.y
    p.get(PC, 0, 0);
    p.get(PC, 1, 1);
    p.get(SIZE, 0, 2);
    p.get(SIZE, 1, 3);
    p.rcp(3, 4);
    p.load(5, 2.0);
    p.mul(0, 5, 0);
    p.neg(2, 6);
    p.add(0, 6, 0);
    p.mul(0, 4, 0);
    p.mul(1, 5, 1);
    p.neg(3, 6);
    p.add(1, 6, 1);
    p.mul(1, 4, 1);
    // The ray is (u, v, -1.5): a = u² + v² + 2.25 in s2.
    p.mul(0, 0, 2);
    p.mul(1, 1, 3);
    p.add(2, 3, 2);
    p.load(3, 2.25);
    p.add(2, 3, 2);
    // With b = -9 and c = 8, the discriminant over 81 is d = 1 - 32 a / 81, in s3.
    p.load(3, -32.0 / 81.0);
    p.mul(3, 2, 3);
    p.load(4, 1.0);
    p.add(3, 4, 3);
    // |d| in s5.
    p.load(7, 0.5);
    p.mul(3, 3, 4);
    p.sqrt(4, 5, 7, 6);
    // max(d, 0) in s6; min(d, 0) kept in v1.y.
    p.add(3, 5, 6);
    p.mul(6, 7, 6);
    p.neg(5, 5);
    p.add(3, 5, 5);
    p.mul(5, 7, 5);
    p.set(v1, 1, 5);
    // sqrt(b² - 4ac) = 9 sqrt(max(d, 0)) in s4.
    p.sqrt(6, 4, 7, 3);
    p.load(5, 9.0);
    p.mul(4, 5, 4);
    // The nearer hit: t = (9 - sqrt) / 2a, in s4.
    p.neg(4, 4);
    p.add(4, 5, 4);
    p.add(2, 2, 3);
    p.rcp(3, 3);
    p.mul(4, 3, 4);
    // The normal (t u, t v, 3 - 1.5 t) against the light (1, 1, 1) / sqrt(3).
    p.mul(0, 4, 0);
    p.mul(1, 4, 1);
    p.load(5, -1.5);
    p.mul(5, 4, 5);
    p.load(6, 3.0);
    p.add(5, 6, 5);
    p.add(0, 1, 0);
    p.add(0, 5, 0);
    p.load(6, 1.0 / 3.0f32.sqrt());
    p.mul(0, 6, 0);
    // 0.1 ambient + 0.8 diffuse, then black off the sphere.
    p.load(6, 0.8);
    p.mul(0, 6, 0);
    p.load(6, 0.1);
    p.add(0, 6, 0);
    p.get(v1, 1, 1);
    p.load(2, 1000.0);
    p.mul(1, 2, 1);
    p.add(0, 1, 0);
    // A warm white.
    p.set(COLOR, 0, 0);
    p.load(1, 0.85);
    p.mul(0, 1, 1);
    p.set(COLOR, 1, 1);
    p.load(2, 0.6);
    p.mul(0, 2, 2);
    p.set(COLOR, 2, 2);
    p.0
}

fn gpu_frames(c: &mut Criterion) {
    let gpu = match GpuRenderer::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to measure: {error}");
            return;
        }
    };
    let program = sphere();
    let frame = Frame {
        width: 1920,
        height: 1080,
        time: 0.0,
    };
    // The picture is the sphere: lit in the middle, black in the corners.
    let mid = exec::pixel(&program, &frame, 960, 540, Alpha::Opaque);
    let corner = exec::pixel(&program, &frame, 0, 0, Alpha::Opaque);
    assert!(mid[0] > 50 && corner == [0, 0, 0, 255], "{mid:?} {corner:?}");
    eprintln!(
        "adapter: {}; program: {} instructions",
        gpu.adapter_name(),
        program.len()
    );

    let mut group = c.benchmark_group("gpu");
    group.sample_size(10);
    let mut rgba = Vec::new();
    group.bench_function("sphere 1920x1080 frame", |b| {
        b.iter(|| {
            gpu.render_into(black_box(&program), &frame, Alpha::Opaque, &mut rgba)
                .expect("renders");
            black_box(&rgba);
        })
    });
    group.finish();
}

/// examples/shader/sphere.sasm at 640x360, by the interpreter and by its native shader, and
/// the time to build the native shader's pipeline (WGSL written, read by naga, compiled by the
/// driver).
fn native_frames(c: &mut Criterion) {
    let gpu = match GpuRenderer::new() {
        Ok(gpu) => gpu,
        Err(error) => {
            eprintln!("no GPU to measure: {error}");
            return;
        }
    };
    let program = polyasm_shader::assemble_text(include_str!("../../../examples/shader/sphere.sasm"))
        .expect("examples/shader/sphere.sasm assembles");
    let frame = Frame {
        width: 640,
        height: 360,
        time: 0.0,
    };
    let native = gpu.native(&program).expect("the native pipeline builds");
    let interpreted = gpu.render(&program, &frame, Alpha::Opaque).expect("renders");
    let rendered = gpu.render_native(&native, &frame, Alpha::Opaque).expect("renders");
    let far = interpreted
        .rgba
        .iter()
        .zip(&rendered.rgba)
        .filter(|(a, b)| a.abs_diff(**b) > 1)
        .count();
    assert_eq!(far, 0, "native and interpreted pictures differ in {far} channels");
    eprintln!(
        "adapter: {}; examples/shader/sphere.sasm: {} instructions",
        gpu.adapter_name(),
        program.len()
    );

    let mut group = c.benchmark_group("native");
    group.sample_size(10);
    let mut rgba = Vec::new();
    group.bench_function("sphere.sasm 640x360 interpreted", |b| {
        b.iter(|| {
            gpu.render_into(black_box(&program), &frame, Alpha::Opaque, &mut rgba)
                .expect("renders");
            black_box(&rgba);
        })
    });
    group.bench_function("sphere.sasm 640x360 native", |b| {
        b.iter(|| {
            gpu.render_native_into(black_box(&native), &frame, Alpha::Opaque, &mut rgba)
                .expect("renders");
            black_box(&rgba);
        })
    });
    group.bench_function("sphere.sasm native pipeline", |b| {
        b.iter(|| black_box(gpu.native(black_box(&program)).expect("builds")))
    });
    group.finish();
}

criterion_group!(benches, gpu_frames, native_frames);
criterion_main!(benches);
