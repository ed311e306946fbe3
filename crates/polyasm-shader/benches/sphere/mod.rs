//! The ray-traced sphere of `sphere.sasm`, for the render bench and its tests: the program as
//! instructions, and the same computation written by hand in Rust.
//!
//! The crate's benches cannot assemble text, so [`program`] spells out `sphere.sasm` one call
//! per line. Keep the two in step by hand: `tests/render.rs` prints this program as text and
//! compares it with the file, line for line.

// The bench and the tests each use part of this module.
#![allow(dead_code)]

use polyasm_shader::exec::{Alpha, Frame, Image, channel};
use polyasm_shader::ops::{COLOR, FIRST_VECTOR, Instr, Op, PC, Reg, SIZE, TIME};
use rayon::prelude::*;

/// The text of the program.
pub const SOURCE: &str = include_str!("../sphere.sasm");

const S0: Reg = Reg(0);
const S1: Reg = Reg(1);
const S2: Reg = Reg(2);
const S3: Reg = Reg(3);
const S4: Reg = Reg(4);
const S5: Reg = Reg(5);
const S6: Reg = Reg(6);
const S7: Reg = Reg(7);
const V0: Reg = Reg(FIRST_VECTOR);
const V1: Reg = Reg(FIRST_VECTOR + 1);
const V2: Reg = Reg(FIRST_VECTOR + 2);

/// Appends instructions, one method per mnemonic.
#[derive(Default)]
struct Program(Vec<Instr>);

impl Program {
    fn push(&mut self, op: Op, regs: [Reg; 3], constant: f32) {
        self.0.push(Instr { op, regs, constant });
    }
    fn add(&mut self, a: Reg, b: Reg, c: Reg) {
        self.push(Op::Add, [a, b, c], 0.0);
    }
    fn multiply(&mut self, a: Reg, b: Reg, c: Reg) {
        self.push(Op::Multiply, [a, b, c], 0.0);
    }
    fn negate(&mut self, a: Reg, b: Reg) {
        self.push(Op::Negate, [a, b, Reg(0)], 0.0);
    }
    fn reciprocal(&mut self, a: Reg, b: Reg) {
        self.push(Op::Reciprocal, [a, b, Reg(0)], 0.0);
    }
    fn mov(&mut self, a: Reg, b: Reg) {
        self.push(Op::Move, [a, b, Reg(0)], 0.0);
    }
    fn load(&mut self, a: Reg, constant: f32) {
        self.push(Op::Load, [a, Reg(0), Reg(0)], constant);
    }
    fn get0(&mut self, v: Reg, s: Reg) {
        self.push(Op::GetComponent0, [v, s, Reg(0)], 0.0);
    }
    fn get1(&mut self, v: Reg, s: Reg) {
        self.push(Op::GetComponent1, [v, s, Reg(0)], 0.0);
    }
    fn get2(&mut self, v: Reg, s: Reg) {
        self.push(Op::GetComponent2, [v, s, Reg(0)], 0.0);
    }
    fn set0(&mut self, v: Reg, s: Reg) {
        self.push(Op::SetComponent0, [v, s, Reg(0)], 0.0);
    }
    fn set1(&mut self, v: Reg, s: Reg) {
        self.push(Op::SetComponent1, [v, s, Reg(0)], 0.0);
    }
    fn set2(&mut self, v: Reg, s: Reg) {
        self.push(Op::SetComponent2, [v, s, Reg(0)], 0.0);
    }
}

/// `sphere.sasm` as instructions.
pub fn program() -> Vec<Instr> {
    let mut p = Program::default();
    // Step 1: u, v and the ray direction d.
    p.get0(SIZE, S0);
    p.get1(SIZE, S1);
    p.reciprocal(S1, S2);
    p.negate(S0, S0);
    p.get0(PC, S3);
    p.add(S3, S3, S3);
    p.add(S3, S0, S3);
    p.multiply(S3, S2, S3);
    p.negate(S1, S1);
    p.get1(PC, S4);
    p.add(S4, S4, S4);
    p.add(S4, S1, S4);
    p.multiply(S4, S2, S4);
    p.set0(V0, S3);
    p.set1(V0, S4);
    p.load(S5, -1.5);
    p.set2(V0, S5);
    // Step 2: the centre C.
    p.load(S0, 0.1);
    p.multiply(TIME, S0, S0);
    p.load(S1, 0.2);
    p.add(S0, S1, S0);
    p.set0(V1, S0);
    p.load(S1, 0.15);
    p.set1(V1, S1);
    p.load(S2, -3.0);
    p.set2(V1, S2);
    // Step 3: h = d . C.
    p.multiply(S3, S0, S6);
    p.multiply(S4, S1, S7);
    p.add(S6, S7, S6);
    p.multiply(S5, S2, S7);
    p.add(S6, S7, S6);
    // Step 4: a = d . d.
    p.multiply(S3, S3, S7);
    p.multiply(S4, S4, S3);
    p.add(S7, S3, S7);
    p.multiply(S5, S5, S3);
    p.add(S7, S3, S7);
    // Step 5: C . C - 1.
    p.multiply(S0, S0, S0);
    p.multiply(S1, S1, S1);
    p.add(S0, S1, S0);
    p.multiply(S2, S2, S2);
    p.add(S0, S2, S0);
    p.load(S1, -1.0);
    p.add(S0, S1, S0);
    // Step 6: disc = h h - a (C . C - 1).
    p.multiply(S7, S0, S0);
    p.negate(S0, S0);
    p.multiply(S6, S6, S1);
    p.add(S1, S0, S1);
    p.set0(V2, S7);
    p.set1(V2, S6);
    // Step 7: the hit mask m.
    p.load(S2, 0.00390625);
    p.multiply(S1, S2, S2);
    p.load(S3, 1.0);
    p.add(S2, S3, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.multiply(S2, S2, S2);
    p.add(S2, S3, S4);
    p.reciprocal(S4, S4);
    p.negate(S4, S4);
    p.add(S4, S3, S4);
    p.set2(V2, S4);
    // Step 8: r = sqrt(disc m + 0.02), Newton.
    p.multiply(S1, S4, S1);
    p.load(S2, 0.02);
    p.add(S1, S2, S1);
    p.load(S5, 0.5);
    p.mov(S3, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    p.reciprocal(S2, S6);
    p.multiply(S1, S6, S6);
    p.add(S2, S6, S2);
    p.multiply(S2, S5, S2);
    // Step 9: x = (h - r) / a.
    p.negate(S2, S2);
    p.get1(V2, S6);
    p.add(S6, S2, S6);
    p.get0(V2, S7);
    p.reciprocal(S7, S7);
    p.multiply(S6, S7, S6);
    // Step 10: N = x d - C.
    p.get0(V0, S0);
    p.multiply(S0, S6, S0);
    p.get0(V1, S1);
    p.negate(S1, S1);
    p.add(S0, S1, S0);
    p.get1(V0, S1);
    p.multiply(S1, S6, S1);
    p.get1(V1, S2);
    p.negate(S2, S2);
    p.add(S1, S2, S1);
    p.get2(V0, S2);
    p.multiply(S2, S6, S2);
    p.get2(V1, S3);
    p.negate(S3, S3);
    p.add(S2, S3, S2);
    // Step 11: N . L.
    p.load(S3, -0.398);
    p.multiply(S0, S3, S0);
    p.load(S3, 0.6965);
    p.multiply(S1, S3, S1);
    p.load(S3, 0.597);
    p.multiply(S2, S3, S2);
    p.add(S0, S1, S0);
    p.add(S0, S2, S0);
    // Step 12: diffuse, a soft max(N . L, 0).
    p.load(S1, 0.5);
    p.multiply(S0, S1, S1);
    p.load(S2, 1.0);
    p.add(S1, S2, S1);
    p.multiply(S1, S1, S1);
    p.multiply(S1, S1, S1);
    p.multiply(S1, S1, S1);
    p.multiply(S1, S1, S1);
    p.add(S1, S2, S3);
    p.reciprocal(S3, S3);
    p.negate(S3, S3);
    p.add(S3, S2, S3);
    p.multiply(S0, S3, S0);
    // Step 13: the colour.
    p.get2(V2, S7);
    p.negate(S7, S6);
    p.add(S6, S2, S6);
    p.get1(V0, S5);
    p.load(S1, 0.9);
    p.multiply(S0, S1, S1);
    p.load(S3, 0.08);
    p.add(S1, S3, S1);
    p.multiply(S1, S7, S1);
    p.load(S3, 0.05);
    p.multiply(S3, S6, S3);
    p.add(S1, S3, S1);
    p.set0(COLOR, S1);
    p.load(S1, 0.55);
    p.multiply(S0, S1, S1);
    p.load(S3, 0.06);
    p.add(S1, S3, S1);
    p.multiply(S1, S7, S1);
    p.load(S3, 0.1);
    p.multiply(S5, S3, S4);
    p.add(S4, S3, S4);
    p.multiply(S4, S6, S4);
    p.add(S1, S4, S1);
    p.set1(COLOR, S1);
    p.load(S1, 0.3);
    p.multiply(S0, S1, S1);
    p.load(S3, 0.1);
    p.add(S1, S3, S1);
    p.multiply(S1, S7, S1);
    p.load(S3, 0.2);
    p.multiply(S5, S3, S4);
    p.load(S3, 0.3);
    p.add(S4, S3, S4);
    p.multiply(S4, S6, S4);
    p.add(S1, S4, S1);
    p.set2(COLOR, S1);
    p.0
}

/// The colour channels the program gives the pixel centred on (`pc_x`, `pc_y`): the same f32
/// operations in the same order, written by hand.
#[inline(always)]
pub fn shade(pc_x: f32, pc_y: f32, width: f32, height: f32, time: f32) -> [f32; 3] {
    // Step 1.
    let inv_height = 1.0 / height;
    let u = (pc_x + pc_x + -width) * inv_height;
    let v = (pc_y + pc_y + -height) * inv_height;
    let dz = -1.5f32;
    // Step 2.
    let cx = time * 0.1 + 0.2;
    let cy = 0.15f32;
    let cz = -3.0f32;
    // Steps 3 to 6.
    let h = u * cx + v * cy + dz * cz;
    let a = u * u + v * v + dz * dz;
    let cc = cx * cx + cy * cy + cz * cz + -1.0;
    let disc = h * h + -(a * cc);
    // Step 7.
    let mut e = disc * 0.00390625 + 1.0;
    for _ in 0..12 {
        e = e * e;
    }
    let m = -(1.0 / (e + 1.0)) + 1.0;
    // Step 8.
    let q = disc * m + 0.02;
    let mut r = 1.0f32;
    for _ in 0..6 {
        r = (r + q * (1.0 / r)) * 0.5;
    }
    // Steps 9 and 10.
    let x = (h + -r) * (1.0 / a);
    let nx = u * x + -cx;
    let ny = v * x + -cy;
    let nz = dz * x + -cz;
    // Steps 11 and 12.
    let ndl = nx * -0.398 + ny * 0.6965 + nz * 0.597;
    let mut e = ndl * 0.5 + 1.0;
    for _ in 0..4 {
        e = e * e;
    }
    let diffuse = ndl * (-(1.0 / (e + 1.0)) + 1.0);
    // Step 13.
    let not_m = -m + 1.0;
    let red = (diffuse * 0.9 + 0.08) * m + 0.05 * not_m;
    let green = (diffuse * 0.55 + 0.06) * m + (v * 0.1 + 0.1) * not_m;
    let blue = (diffuse * 0.3 + 0.1) * m + (v * 0.2 + 0.3) * not_m;
    [red, green, blue]
}

/// The picture [`shade`] gives, rows spread over all cores: what the renderer is measured
/// against as the limit.
pub fn render_by_hand(frame: &Frame) -> Image {
    let width = frame.width as usize;
    let height = frame.height as usize;
    let (w, h) = (frame.width as f32, frame.height as f32);
    let mut rgba = vec![0; width * height * 4];
    rgba.par_chunks_mut(width * 4).enumerate().for_each(|(row, out)| {
        let pc_y = (height - 1 - row) as f32 + 0.5;
        for (x, pixel) in out.chunks_exact_mut(4).enumerate() {
            let [r, g, b] = shade(x as f32 + 0.5, pc_y, w, h, frame.time);
            pixel.copy_from_slice(&[channel(r), channel(g), channel(b), 255]);
        }
    });
    Image {
        width: frame.width,
        height: frame.height,
        rgba,
    }
}

/// The naive interpreter (`exec::pixel` for each pixel), rows spread over all cores.
pub fn render_naive_parallel(program: &[Instr], frame: &Frame, alpha: Alpha) -> Image {
    let width = frame.width as usize;
    let height = frame.height as usize;
    let mut rgba = vec![0; width * height * 4];
    rgba.par_chunks_mut(width * 4).enumerate().for_each(|(row, out)| {
        let y = (height - 1 - row) as u32;
        for (x, pixel) in out.chunks_exact_mut(4).enumerate() {
            let color = polyasm_shader::exec::pixel(program, frame, x as u32, y, alpha);
            pixel.copy_from_slice(&color);
        }
    });
    Image {
        width: frame.width,
        height: frame.height,
        rgba,
    }
}
