//! The GPU interpreter: both shaders validate, and the wgpu renderer agrees with the CPU
//! definition (`exec`) within 1 per channel.
//!
//! The rendering tests need a Vulkan adapter (lavapipe is enough). Without one they fail,
//! unless `POLYASM_NO_GPU=1` says that this machine has none on purpose.

mod common;
mod shaders_check;

use std::collections::HashSet;
use std::sync::OnceLock;

use common::gpu;
use polyasm_shader::exec::{self, Alpha, Frame, Image};
use polyasm_shader::gpu::{GpuError, GpuRenderer};
use polyasm_shader::ops::{
    COLOR, Dialect, FIRST_VECTOR, Instr, MAX_INSTRUCTIONS, OPS, Op, Operand, PC, REGISTERS, Reg, SCALARS, SIZE, TIME,
    Type, UnpackError, V2_SCALARS, V2_VECTORS, VECTORS, ZERO,
};
use polyasm_shader::runtime;

// ---------------------------------------------------------------------------------------------
// The shader sources.

#[test]
fn the_wgsl_interpreter_parses_and_validates() {
    let module = shaders_check::wgsl_compute("the WGSL interpreter", runtime::WGSL);
    let frame = module
        .types
        .iter()
        .find(|(_, ty)| ty.name.as_deref() == Some("Frame"))
        .expect("the WGSL interpreter has a Frame struct");
    assert_eq!(frame.1.inner.size(module.to_ctx()) as usize, runtime::WGSL_FRAME_BYTES);
}

#[test]
fn the_glsl_interpreter_parses_and_validates_as_a_fragment_shader() {
    shaders_check::glsl_fragment("the GLSL interpreter", runtime::GLSL);
    assert!(runtime::GLSL.starts_with("#version 430 core\n"));
}

/// The shaders spell the instruction table's numbers themselves: hold them to it.
#[test]
fn both_interpreters_use_the_instruction_tables_numbers() {
    let registers = [
        ("PC", PC),
        ("TIME", TIME),
        ("SIZE", SIZE),
        ("COLOR", COLOR),
        ("LAST_REGISTER", Reg(REGISTERS - 1)),
    ];
    for (source, const_decl, case) in [
        (runtime::WGSL, "const {name}: u32 = {n}u;", "case {code}u"),
        (runtime::GLSL, "const uint {name} = {n}u;", "case {code}u:"),
    ] {
        for (name, reg) in registers {
            let decl = const_decl.replace("{name}", name).replace("{n}", &reg.0.to_string());
            assert!(source.contains(&decl), "missing `{decl}`");
        }
        for info in &OPS {
            let case = case.replace("{code}", &(info.op as u8).to_string());
            assert!(source.contains(&case), "{} has no `{case}`", info.mnemonic);
        }
        assert!(!source.contains(&format!("case {}u", OPS.len())));
    }
    assert!(
        runtime::WGSL.contains(&format!("array<vec4<f32>, {REGISTERS}>")),
        "the WGSL register file has one vec4 per register"
    );
    assert!(runtime::GLSL.contains(&format!("vec4 r[{REGISTERS}];")));
}

// ---------------------------------------------------------------------------------------------
// Rendering.

fn instr(op: Op, regs: [u8; 3], constant: f32) -> Instr {
    Instr {
        op,
        regs: regs.map(Reg),
        constant,
    }
}

fn frame(width: u32, height: u32, time: f32) -> Frame {
    Frame { width, height, time }
}

/// Every channel of `gpu` within 1 of `cpu`; the first differences are named.
fn assert_close(what: &str, cpu: &Image, gpu: &Image) {
    assert_eq!((cpu.width, cpu.height), (gpu.width, gpu.height), "{what}");
    assert_eq!(cpu.rgba.len(), gpu.rgba.len(), "{what}");
    let mut far = Vec::new();
    for (i, (c, g)) in cpu.rgba.iter().zip(&gpu.rgba).enumerate() {
        if c.abs_diff(*g) > 1 {
            let pixel = i / 4;
            let row = pixel / cpu.width as usize;
            far.push(format!(
                "x {} y {} channel {}: cpu {c} gpu {g}",
                pixel % cpu.width as usize,
                cpu.height as usize - 1 - row,
                i % 4
            ));
        }
    }
    assert!(
        far.is_empty(),
        "{what}: {} channels differ by more than 1, first: {:?}",
        far.len(),
        &far[..far.len().min(8)]
    );
}

/// Renders on both and compares; returns the GPU picture.
fn agree(what: &str, gpu: &GpuRenderer, program: &[Instr], frame: &Frame, alpha: Alpha) -> Image {
    let cpu = exec::render_naive(program, frame, alpha);
    let image = gpu
        .render(program, frame, alpha)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_close(what, &cpu, &image);
    image
}

/// The spec's "Pixel UV Color".
fn uv_program() -> Vec<Instr> {
    vec![
        instr(Op::GetComponent0, [16, 0, 0], 0.0),
        instr(Op::GetComponent1, [16, 1, 0], 0.0),
        instr(Op::GetComponent0, [18, 3, 0], 0.0),
        instr(Op::Reciprocal, [3, 2, 0], 0.0),
        instr(Op::GetComponent1, [18, 4, 0], 0.0),
        instr(Op::Reciprocal, [4, 3, 0], 0.0),
        instr(Op::Multiply, [0, 2, 0], 0.0),
        instr(Op::Multiply, [1, 3, 1], 0.0),
        instr(Op::SetComponent0, [19, 0, 0], 0.0),
        instr(Op::SetComponent1, [19, 1, 0], 0.0),
    ]
}

#[test]
fn the_uv_program_matches_the_cpu_black_at_the_bottom_left_yellow_at_the_top_right() {
    let Some(gpu) = gpu() else { return };
    assert!(!gpu.adapter_name().is_empty());
    let image = agree("uv", gpu, &uv_program(), &frame(256, 256, 0.0), Alpha::Opaque);
    assert_eq!(image.pixel_from_bottom(0, 0), [0, 0, 0, 255]);
    assert_eq!(image.pixel_from_bottom(255, 255), [255, 255, 0, 255]);
    assert_eq!(image.pixel_from_bottom(255, 0), [255, 0, 0, 255]);
    // Row 0 of the buffer is the top of the picture.
    assert_eq!(&image.rgba[..4], &[0, 255, 0, 255]);
}

#[test]
fn odd_sizes_keep_rows_and_columns_in_place() {
    let Some(gpu) = gpu() else { return };
    for (w, h) in [(37, 23), (1, 9), (9, 1), (1, 1)] {
        let image = agree(
            &format!("uv {w}x{h}"),
            gpu,
            &uv_program(),
            &frame(w, h, 0.0),
            Alpha::Opaque,
        );
        assert_eq!(image.rgba.len(), (w * h * 4) as usize);
    }
}

/// Uses every opcode of v1, every kind of register and the time.
fn every_opcode_program() -> Vec<Instr> {
    vec![
        instr(Op::GetComponent0, [16, 0, 0], 0.0), // s0 = pc.x
        instr(Op::GetComponent1, [16, 1, 0], 0.0), // s1 = pc.y
        instr(Op::GetComponent0, [18, 2, 0], 0.0), // s2 = s.x
        instr(Op::Reciprocal, [2, 2, 0], 0.0),     // s2 = 1 / s.x
        instr(Op::Multiply, [0, 2, 0], 0.0),       // s0 = u
        instr(Op::GetComponent1, [18, 3, 0], 0.0), // s3 = s.y
        instr(Op::Reciprocal, [3, 3, 0], 0.0),
        instr(Op::Multiply, [1, 3, 1], 0.0),      // s1 = v
        instr(Op::SetComponent0, [8, 0, 0], 0.0), // v0 = (u, v, 1 - u, t / 4)
        instr(Op::SetComponent1, [8, 1, 0], 0.0),
        instr(Op::Load, [4, 0, 0], 1.0),
        instr(Op::Negate, [0, 5, 0], 0.0),
        instr(Op::Add, [4, 5, 5], 0.0),
        instr(Op::SetComponent2, [8, 5, 0], 0.0),
        instr(Op::Move, [17, 6, 0], 0.0), // s6 = t
        instr(Op::Load, [7, 0, 0], 0.25),
        instr(Op::Multiply, [6, 7, 6], 0.0),
        instr(Op::SetComponent3, [8, 6, 0], 0.0),
        instr(Op::GetComponent0, [8, 0, 0], 0.0), // c = (v0.x * v0.y, v0.z, v0.w, v0.x)
        instr(Op::GetComponent1, [8, 1, 0], 0.0),
        instr(Op::Multiply, [0, 1, 0], 0.0),
        instr(Op::SetComponent0, [19, 0, 0], 0.0),
        instr(Op::GetComponent2, [8, 2, 0], 0.0),
        instr(Op::SetComponent1, [19, 2, 0], 0.0),
        instr(Op::GetComponent3, [8, 3, 0], 0.0),
        instr(Op::SetComponent2, [19, 3, 0], 0.0),
        instr(Op::GetComponent0, [8, 4, 0], 0.0),
        instr(Op::SetComponent3, [19, 4, 0], 0.0),
        instr(Op::GetComponent0, [19, 5, 0], 0.0), // c is readable
        instr(Op::Move, [5, 7, 0], 0.0),
        instr(Op::SetComponent0, [15, 7, 0], 0.0), // v7, the last vector
    ]
}

#[test]
fn a_program_with_every_opcode_matches_the_cpu_in_both_alpha_modes() {
    let Some(gpu) = gpu() else { return };
    let program = every_opcode_program();
    let used: HashSet<u8> = program.iter().map(|i| i.op as u8).collect();
    let v1 = OPS.iter().filter(|info| info.dialects.has(Dialect::V1)).count();
    assert_eq!(used.len(), v1, "every opcode of v1 is used");
    for time in [0.0, 1.5, 3.75] {
        for alpha in [Alpha::Opaque, Alpha::Keep] {
            let image = agree(
                &format!("every opcode, t {time}, {alpha:?}"),
                gpu,
                &program,
                &frame(256, 256, time),
                alpha,
            );
            let expected_alpha = match alpha {
                Alpha::Opaque => 255,
                Alpha::Keep => exec::channel(0.5 / 256.0),
            };
            assert_eq!(image.pixel_from_bottom(0, 10)[3], expected_alpha);
            assert_eq!(image.pixel_from_bottom(0, 10)[2], exec::channel(time / 4.0));
        }
    }
}

/// Uses every opcode of v2: components picked by `z`, by loaded indexes and by the pixel's
/// position (so each pixel picks its own, among them ones out of range), `sign` of positive,
/// negative and zero values, and memory cells written and read back, in and out of range.
fn every_v2_opcode_program() -> Vec<Instr> {
    let z = ZERO.0;
    vec![
        instr(Op::GetComponent, [16, 0, z], 0.0), // s0 = pc.x
        instr(Op::Load, [5, 0, 0], 1.0),          // s5 = 1
        instr(Op::GetComponent, [16, 1, 5], 0.0), // s1 = pc.y
        instr(Op::GetComponent, [18, 2, z], 0.0), // s2 = s.x
        instr(Op::Reciprocal, [2, 2, 0], 0.0),    // s2 = 1 / s.x
        instr(Op::Multiply, [0, 2, 3], 0.0),      // s3 = u
        instr(Op::WriteMemory, [3, 5, 0], 0.0),   // memory[1] = u
        instr(Op::Load, [4, 0, 0], 8.0),          // s4 = 8
        instr(Op::Multiply, [3, 4, 4], 0.0),      // s4 = 8u: 0 to 8, the component to pick
        instr(Op::SetComponent, [8, 3, z], 0.0),  // v0 = (u, 0.25, 0.75, 1)
        instr(Op::Load, [2, 0, 0], 4.0),
        instr(Op::Reciprocal, [2, 2, 0], 0.0), // s2 = 0.25
        instr(Op::SetComponent, [8, 2, 5], 0.0),
        instr(Op::Load, [2, 0, 0], 3.0),
        instr(Op::SetComponent, [8, 5, 2], 0.0), // v0.w = 1
        instr(Op::Load, [2, 0, 0], 2.0),         // s2 = 2
        instr(Op::Negate, [2, 3, 0], 0.0),
        instr(Op::Reciprocal, [3, 3, 0], 0.0), // s3 = -0.5
        instr(Op::Add, [5, 3, 3], 0.0),        // s3 = 0.5
        instr(Op::Add, [3, 3, 3], 0.0),        // s3 = 1
        instr(Op::Negate, [3, 3, 0], 0.0),
        instr(Op::Add, [5, 3, 3], 0.0),        // s3 = 0
        instr(Op::Add, [2, 3, 3], 0.0),        // s3 = 2
        instr(Op::Reciprocal, [3, 3, 0], 0.0), // s3 = 0.5
        instr(Op::Load, [0, 0, 0], 3.0),
        instr(Op::Reciprocal, [0, 0, 0], 0.0),
        instr(Op::Add, [3, 0, 3], 0.0), // s3 = 0.5 + 1/3
        instr(Op::Load, [0, 0, 0], 4.0),
        instr(Op::Reciprocal, [0, 0, 0], 0.0),    // s0 = 0.25
        instr(Op::Add, [3, 0, 3], 0.0),           // s3 = 13/12 > 1: sign is 1
        instr(Op::SetComponent, [8, 3, 2], 0.0),  // v0.z = 13/12
        instr(Op::GetComponent, [8, 0, 4], 0.0),  // s0 = v0[8u]: 0 from u = 1/2 on
        instr(Op::SetComponent, [19, 0, z], 0.0), // c.x
        instr(Op::Negate, [1, 1, 0], 0.0),
        instr(Op::Sign, [1, 1, 0], 0.0),        // s1 = -1
        instr(Op::Add, [1, 5, 1], 0.0),         // s1 = 0
        instr(Op::Sign, [1, 1, 0], 0.0),        // sign(0) = 0
        instr(Op::Add, [1, 3, 1], 0.0),         // s1 = 13/12
        instr(Op::Sign, [1, 1, 0], 0.0),        // s1 = 1
        instr(Op::Move, [17, 2, 0], 0.0),       // s2 = t
        instr(Op::WriteMemory, [2, 4, 0], 0.0), // memory[8u] = t; nothing from u = 8 on
        instr(Op::ReadMemory, [0, 4, 0], 0.0),  // s0 = memory[8u]: t, or 0
        instr(Op::Multiply, [0, 1, 0], 0.0),
        instr(Op::SetComponent, [19, 0, 5], 0.0), // c.y = t or 0
        instr(Op::ReadMemory, [0, 5, 0], 0.0),    // s0 = memory[1] = u (t where 8u is 1.x)
        instr(Op::Load, [2, 0, 0], 2.0),
        instr(Op::SetComponent, [19, 0, 2], 0.0), // c.z = u
        instr(Op::Load, [2, 0, 0], 3.0),
        instr(Op::GetComponent, [8, 0, 2], 0.0), // s0 = v0.w = 1
        instr(Op::Load, [1, 0, 0], 64.0),
        instr(Op::ReadMemory, [3, 1, 0], 0.0), // memory[64] reads 0
        instr(Op::Add, [0, 3, 0], 0.0),
        instr(Op::SetComponent, [19, 0, 2], 0.0), // c.w = 1
    ]
}

#[test]
fn a_program_with_every_v2_opcode_matches_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let program = every_v2_opcode_program();
    let used: HashSet<u8> = program.iter().map(|i| i.op as u8).collect();
    let v2 = OPS.iter().filter(|info| info.dialects.has(Dialect::V2)).count();
    assert_eq!(used.len(), v2, "every opcode of v2 is used");
    assert_eq!(Dialect::of(&program), Dialect::V2);
    for time in [0.0, 0.5] {
        let image = agree(
            &format!("every v2 opcode, t {time}"),
            gpu,
            &program,
            &frame(64, 16, time),
            Alpha::Keep,
        );
        // Column 0: u = 1/128 picks component 0 (u), then memory cell 0 holds t.
        assert_eq!(
            image.pixel_from_bottom(0, 0),
            [
                exec::channel(0.5 / 64.0),
                exec::channel(time),
                exec::channel(0.5 / 64.0),
                255
            ]
        );
        // Column 40: 8u = 5.06 picks no component (0), and memory cell 5 holds t.
        assert_eq!(
            image.pixel_from_bottom(40, 0),
            [0, exec::channel(time), exec::channel(40.5 / 64.0), 255]
        );
        // Column 16: 8u = 2.06 picks v0.z = 13/12, red clamps at 1.
        assert_eq!(image.pixel_from_bottom(16, 3)[0], 255);
    }
}

#[test]
fn kept_alpha_follows_c_w() {
    let Some(gpu) = gpu() else { return };
    // c.w = pc.x / s.x, c.x = 1.
    let program = [
        instr(Op::GetComponent0, [16, 0, 0], 0.0),
        instr(Op::GetComponent0, [18, 1, 0], 0.0),
        instr(Op::Reciprocal, [1, 1, 0], 0.0),
        instr(Op::Multiply, [0, 1, 0], 0.0),
        instr(Op::SetComponent3, [19, 0, 0], 0.0),
        instr(Op::Load, [2, 0, 0], 1.0),
        instr(Op::SetComponent0, [19, 2, 0], 0.0),
    ];
    let image = agree("alpha", gpu, &program, &frame(256, 256, 0.0), Alpha::Keep);
    assert_eq!(image.pixel_from_bottom(0, 0), [255, 0, 0, 0]);
    assert_eq!(
        image.pixel_from_bottom(128, 0),
        [255, 0, 0, exec::channel(128.5 / 256.0)]
    );
    assert_eq!(image.pixel_from_bottom(255, 0), [255, 0, 0, 255]);
    let opaque = agree("alpha", gpu, &program, &frame(256, 256, 0.0), Alpha::Opaque);
    assert!(opaque.rgba.chunks(4).all(|p| p == [255, 0, 0, 255]));
}

#[test]
fn infinities_and_nan_clamp_as_on_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let program = [
        instr(Op::Reciprocal, [0, 1, 0], 0.0),     // s1 = 1 / 0 = inf
        instr(Op::SetComponent0, [19, 1, 0], 0.0), // c.x = inf: 255
        instr(Op::Multiply, [1, 0, 2], 0.0),       // s2 = inf * 0 = NaN
        instr(Op::SetComponent1, [19, 2, 0], 0.0), // c.y = NaN: 0
        instr(Op::Negate, [1, 3, 0], 0.0),         // s3 = -inf
        instr(Op::SetComponent2, [19, 3, 0], 0.0), // c.z = -inf: 0
        instr(Op::Add, [1, 3, 4], 0.0),            // s4 = inf - inf = NaN
        instr(Op::SetComponent3, [19, 4, 0], 0.0), // c.w = NaN: 0
        instr(Op::Load, [5, 0, 0], f32::NAN),      // a NaN constant
        instr(Op::Load, [6, 0, 0], f32::INFINITY),
        instr(Op::SetComponent0, [8, 5, 0], 0.0),
        instr(Op::SetComponent1, [8, 6, 0], 0.0),
    ];
    for alpha in [Alpha::Opaque, Alpha::Keep] {
        let image = agree("inf and NaN", gpu, &program, &frame(256, 256, 0.0), alpha);
        let a = if alpha == Alpha::Keep { 0 } else { 255 };
        assert!(image.rgba.chunks(4).all(|p| p == [255, 0, 0, a]), "{alpha:?}");
    }
    // Large, tiny and negative-zero values at the edges of the conversion.
    let edges = [
        instr(Op::Load, [0, 0, 0], f32::MAX),
        instr(Op::SetComponent0, [19, 0, 0], 0.0),
        instr(Op::Load, [1, 0, 0], -0.0),
        instr(Op::SetComponent1, [19, 1, 0], 0.0),
        instr(Op::Load, [2, 0, 0], 0.5 / 255.0),
        instr(Op::SetComponent2, [19, 2, 0], 0.0),
        instr(Op::Load, [3, 0, 0], f32::MIN_POSITIVE),
        instr(Op::SetComponent3, [19, 3, 0], 0.0),
    ];
    let image = agree("edges", gpu, &edges, &frame(16, 16, 0.0), Alpha::Keep);
    assert_eq!(image.pixel_from_bottom(3, 3), [255, 0, exec::channel(0.5 / 255.0), 0]);
}

/// A small deterministic generator (xorshift64*), so that failures are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn reg(&mut self, ty: Type, write: bool, dialect: Dialect) -> Reg {
        let (scalars, vectors) = match dialect {
            Dialect::V1 => (SCALARS, VECTORS),
            Dialect::V2 => (V2_SCALARS, V2_VECTORS),
        };
        match ty {
            Type::Scalar if !write && self.below(4) == 0 => TIME,
            Type::Scalar if !write && dialect == Dialect::V2 && self.below(4) == 0 => ZERO,
            Type::Scalar => Reg(self.below(u64::from(scalars)) as u8),
            Type::Vector => {
                let choices: &[Reg] = if write { &[COLOR, COLOR] } else { &[PC, SIZE, COLOR] };
                if self.below(2) == 0 {
                    choices[self.below(choices.len() as u64) as usize]
                } else {
                    Reg(FIRST_VECTOR + self.below(u64::from(vectors)) as u8)
                }
            }
        }
    }

    fn constant(&mut self) -> f32 {
        const NICE: [f32; 8] = [0.0, 1.0, -1.0, 0.5, 2.0, 0.25, 3.0, -0.125];
        if self.below(2) == 0 {
            NICE[self.below(NICE.len() as u64) as usize]
        } else {
            (self.below(4001) as f32 - 2000.0) / 1000.0
        }
    }

    /// A valid program of `dialect`, of 1 to 80 instructions.
    fn program_in(&mut self, dialect: Dialect) -> Vec<Instr> {
        let ops: Vec<_> = OPS.iter().filter(|info| info.dialects.has(dialect)).collect();
        let len = 1 + self.below(80) as usize;
        (0..len)
            .map(|_| {
                let info = ops[self.below(ops.len() as u64) as usize];
                let mut regs = [Reg(0); 3];
                let mut constant = 0.0;
                for (slot, operand) in regs.iter_mut().zip(info.operands) {
                    *slot = match *operand {
                        Operand::Read(ty) => self.reg(ty, false, dialect),
                        Operand::Write(ty) => self.reg(ty, true, dialect),
                        Operand::WriteComponent => self.reg(Type::Vector, true, dialect),
                        Operand::Number => {
                            constant = self.constant();
                            Reg(0)
                        }
                    };
                }
                Instr {
                    op: info.op,
                    regs,
                    constant,
                }
            })
            .collect()
    }

    /// A valid v1 program of 1 to 80 instructions.
    fn program(&mut self) -> Vec<Instr> {
        self.program_in(Dialect::V1)
    }
}

#[test]
fn random_programs_match_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let mut distinct_pictures = HashSet::new();
    for n in 0..12 {
        let program = rng.program();
        for instr in &program {
            assert_eq!(Instr::unpack(instr.pack()), Ok(*instr), "the generator is valid");
        }
        let time = rng.below(100) as f32 / 8.0;
        let alpha = if n % 2 == 0 { Alpha::Opaque } else { Alpha::Keep };
        let image = agree(
            &format!("random program {n}: {program:?}"),
            gpu,
            &program,
            &frame(256, 256, time),
            alpha,
        );
        distinct_pictures.insert(image.rgba);
    }
    assert!(distinct_pictures.len() > 6, "the generator makes varied programs");
}

#[test]
fn random_v2_programs_match_the_cpu() {
    let Some(gpu) = gpu() else { return };
    let mut rng = Rng(0x5eed_cafe_f00d_0002);
    let mut distinct_pictures = HashSet::new();
    // Registers that vary over the picture to start from: (u, v) in s0 and s1, pc in v0.
    let z = ZERO.0;
    let start = [
        instr(Op::GetComponent, [16, 0, z], 0.0),
        instr(Op::Load, [5, 0, 0], 1.0),
        instr(Op::GetComponent, [16, 1, 5], 0.0),
        instr(Op::GetComponent, [18, 2, z], 0.0),
        instr(Op::Reciprocal, [2, 2, 0], 0.0),
        instr(Op::Multiply, [0, 2, 0], 0.0),
        instr(Op::GetComponent, [18, 2, 5], 0.0),
        instr(Op::Reciprocal, [2, 2, 0], 0.0),
        instr(Op::Multiply, [1, 2, 1], 0.0),
        instr(Op::SetComponent, [8, 0, z], 0.0),
        instr(Op::SetComponent, [8, 1, 5], 0.0),
    ];
    for n in 0..8 {
        let mut program = start.to_vec();
        program.extend(rng.program_in(Dialect::V2));
        let time = rng.below(100) as f32 / 8.0;
        let image = agree(
            &format!("random v2 program {n}: {program:?}"),
            gpu,
            &program,
            &frame(128, 128, time),
            Alpha::Keep,
        );
        distinct_pictures.insert(image.rgba);
    }
    assert!(
        distinct_pictures.len() > 3,
        "the generator makes varied programs: {}",
        distinct_pictures.len()
    );
}

#[test]
fn buffers_are_reused_across_sizes_and_frames() {
    let Some(gpu) = gpu() else { return };
    let program = every_opcode_program();
    let mut rgba = Vec::new();
    for (i, (w, h)) in [(64, 64), (128, 32), (16, 8), (64, 64), (200, 100)]
        .into_iter()
        .enumerate()
    {
        let frame = frame(w, h, i as f32 * 0.5);
        gpu.render_into(&program, &frame, Alpha::Keep, &mut rgba)
            .expect("renders");
        let image = Image {
            width: w,
            height: h,
            rgba: std::mem::take(&mut rgba),
        };
        assert_close(
            &format!("frame {i}"),
            &exec::render_naive(&program, &frame, Alpha::Keep),
            &image,
        );
        rgba = image.rgba;
    }
}

#[test]
fn empty_programs_and_empty_frames() {
    let Some(gpu) = gpu() else { return };
    let black = gpu.render(&[], &frame(8, 8, 0.0), Alpha::Opaque).expect("renders");
    assert!(black.rgba.chunks(4).all(|p| p == [0, 0, 0, 255]));
    let clear = gpu.render(&[], &frame(8, 8, 0.0), Alpha::Keep).expect("renders");
    assert!(clear.rgba.iter().all(|&b| b == 0));
    for (w, h) in [(0, 0), (0, 5), (5, 0)] {
        let image = gpu
            .render(&uv_program(), &frame(w, h, 0.0), Alpha::Opaque)
            .expect("renders");
        assert_eq!((image.width, image.height, image.rgba.len()), (w, h, 0));
    }
}

#[test]
fn frames_beyond_the_adapters_limits_are_errors() {
    let Some(gpu) = gpu() else { return };
    let err = gpu
        .render(&uv_program(), &frame(u32::MAX, u32::MAX, 0.0), Alpha::Opaque)
        .expect_err("too large");
    assert_eq!(
        err,
        GpuError::TooLarge {
            width: u32::MAX,
            height: u32::MAX,
            max_pixels: gpu.max_pixels()
        }
    );
    assert!(err.to_string().contains("too large"), "{err}");
    // One row longer than the most workgroups in a dispatch.
    assert!(matches!(gpu.check_size(u32::MAX, 1), Err(GpuError::TooLarge { .. })));
    assert!(gpu.max_pixels() >= 1920 * 1080);
    assert_eq!(gpu.check_size(1920, 1080), Ok(()));
}

#[test]
fn invalid_programs_are_errors_not_panics() {
    let Some(gpu) = gpu() else { return };
    let small = frame(4, 4, 0.0);
    let mut program = uv_program();
    program[3].regs[1] = Reg(200);
    assert_eq!(
        gpu.render(&program, &small, Alpha::Opaque),
        Err(GpuError::Instruction {
            index: 3,
            error: UnpackError::Register { index: 1, value: 200 }
        })
    );
    // Writing an input.
    let write_pc = [instr(Op::SetComponent0, [16, 0, 0], 0.0)];
    assert!(matches!(
        gpu.render(&write_pc, &small, Alpha::Opaque),
        Err(GpuError::Instruction { index: 0, .. })
    ));
    let long = vec![instr(Op::Move, [0, 1, 0], 0.0); MAX_INSTRUCTIONS + 1];
    let err = gpu.render(&long, &small, Alpha::Opaque).expect_err("too long");
    assert_eq!(
        err,
        GpuError::ProgramTooLong {
            len: MAX_INSTRUCTIONS + 1
        }
    );
    // The renderer still works after refusing.
    agree("after errors", gpu, &uv_program(), &small, Alpha::Opaque);
}

#[test]
fn the_longest_program_runs() {
    let Some(gpu) = gpu() else { return };
    // s0 += 1 / 65536, MAX_INSTRUCTIONS - 2 times, then c.x = s0: just under 1. Some drivers
    // leave a shader's loops after 65535 iterations in all; the interpreter stays below that.
    let mut program = vec![instr(Op::Load, [1, 0, 0], 1.0 / 65536.0)];
    program.extend(std::iter::repeat_n(
        instr(Op::Add, [0, 1, 0], 0.0),
        MAX_INSTRUCTIONS - 2,
    ));
    program.push(instr(Op::SetComponent0, [19, 0, 0], 0.0));
    assert_eq!(program.len(), MAX_INSTRUCTIONS);
    let image = agree("longest", gpu, &program, &frame(8, 8, 0.0), Alpha::Opaque);
    assert_eq!(image.pixel_from_bottom(0, 0), [255, 0, 0, 255]);
}

// ---------------------------------------------------------------------------------------------
// The GLSL interpreter, run as an OpenGL engine runs it: a fragment shader over a full-screen
// triangle into an RGBA8 target. naga turns it into SPIR-V for Vulkan, where `gl_FragCoord`
// counts rows from the top; row r of the Vulkan target is therefore what OpenGL draws in row r
// from the bottom, and the picture in PNG order is the target's rows reversed.

const FULL_SCREEN_TRIANGLE: &str = "
@vertex
fn main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    return vec4<f32>(f32((i << 1u) & 2u) * 2.0 - 1.0, f32(i & 2u) * 2.0 - 1.0, 0.0, 1.0);
}
";

struct GlslRunner {
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::RenderPipeline,
}

fn glsl_runner() -> Option<&'static GlslRunner> {
    static RUNNER: OnceLock<Option<GlslRunner>> = OnceLock::new();
    // The same adapter the renderer found, or none where the renderer tests are skipped.
    let renderer = gpu()?;
    RUNNER
        .get_or_init(|| Some(pollster::block_on(open_glsl_runner(renderer.adapter_name()))))
        .as_ref()
}

async fn open_glsl_runner(adapter_name: &str) -> GlslRunner {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::VULKAN;
    descriptor.flags = wgpu::InstanceFlags::empty().with_env();
    let instance = wgpu::Instance::new(descriptor);
    let adapter = instance
        .enumerate_adapters(wgpu::Backends::VULKAN)
        .await
        .into_iter()
        .find(|a| a.get_info().name == adapter_name)
        .expect("the renderer's adapter is listed");
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor::default())
        .await
        .expect("a device");
    let source = runtime::GLSL.replacen("#version 430 core", "#version 450 core", 1);
    let fragment = naga::front::glsl::Frontend::default()
        .parse(&naga::front::glsl::Options::from(naga::ShaderStage::Fragment), &source)
        .expect("the GLSL interpreter parses");
    let fragment = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("GLSL interpreter"),
        source: wgpu::ShaderSource::Naga(std::borrow::Cow::Owned(fragment)),
    });
    let vertex = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("full-screen triangle"),
        source: wgpu::ShaderSource::Wgsl(FULL_SCREEN_TRIANGLE.into()),
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("GLSL interpreter"),
        layout: None,
        vertex: wgpu::VertexState {
            module: &vertex,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &fragment,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
        }),
        multiview_mask: None,
        cache: None,
    });
    GlslRunner {
        device,
        queue,
        pipeline,
    }
}

impl GlslRunner {
    fn render(&self, program: &[Instr], frame: &Frame, alpha: Alpha) -> Image {
        use wgpu::util::DeviceExt;
        let device = &self.device;
        let mut words: Vec<u8> = program
            .iter()
            .flat_map(|i| i.pack())
            .flat_map(u32::to_le_bytes)
            .collect();
        words.resize(words.len().max(8), 0);
        let program_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &words,
            usage: wgpu::BufferUsages::STORAGE,
        });
        // The PolyasmFrame block, std140: five 4-byte members, padded to 32 bytes.
        let mut uniform = [0u8; 32];
        let fields = [
            program.len() as u32,
            frame.width,
            frame.height,
            frame.time.to_bits(),
            u32::from(alpha == Alpha::Keep),
        ];
        for (slot, field) in uniform.chunks_exact_mut(4).zip(fields) {
            slot.copy_from_slice(&field.to_le_bytes());
        }
        let frame_buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: None,
            contents: &uniform,
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: program_buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: frame_buffer.as_entire_binding(),
                },
            ],
        });
        let size = wgpu::Extent3d {
            width: frame.width,
            height: frame.height,
            depth_or_array_layers: 1,
        };
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let row = frame.width * 4;
        let padded_row = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(padded_row * frame.height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let view = target.create_view(&Default::default());
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
        encoder.copy_texture_to_buffer(
            target.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: Some(frame.height),
                },
            },
            size,
        );
        self.queue.submit([encoder.finish()]);
        readback.map_async(wgpu::MapMode::Read, .., |result| result.expect("the read-back maps"));
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the frame finishes");
        let mapped = readback.get_mapped_range(..).expect("mapped");
        let mut rgba = Vec::with_capacity((row * frame.height) as usize);
        for r in (0..frame.height as usize).rev() {
            let start = r * padded_row as usize;
            rgba.extend_from_slice(&mapped[start..start + row as usize]);
        }
        Image {
            width: frame.width,
            height: frame.height,
            rgba,
        }
    }
}

#[test]
fn the_glsl_interpreter_run_as_a_fragment_shader_matches_the_cpu() {
    let Some(glsl) = glsl_runner() else { return };
    let mut rng = Rng(0x61a5_1a5e_0000_0003);
    let mut programs = vec![
        ("uv".to_string(), uv_program(), frame(256, 256, 0.0)),
        ("every opcode".to_string(), every_opcode_program(), frame(37, 23, 2.5)),
        (
            "every v2 opcode".to_string(),
            every_v2_opcode_program(),
            frame(64, 16, 0.5),
        ),
    ];
    for n in 0..4 {
        programs.push((format!("random {n}"), rng.program(), frame(256, 256, 1.25)));
    }
    for n in 0..2 {
        programs.push((
            format!("random v2 {n}"),
            rng.program_in(Dialect::V2),
            frame(128, 128, 1.25),
        ));
    }
    for (name, program, frame) in programs {
        for alpha in [Alpha::Opaque, Alpha::Keep] {
            let image = glsl.render(&program, &frame, alpha);
            let cpu = exec::render_naive(&program, &frame, alpha);
            assert_close(&format!("GLSL {name} {alpha:?}"), &cpu, &image);
        }
    }
    let uv = glsl.render(&uv_program(), &frame(256, 256, 0.0), Alpha::Opaque);
    assert_eq!(uv.pixel_from_bottom(0, 0), [0, 0, 0, 255]);
    assert_eq!(uv.pixel_from_bottom(255, 255), [255, 255, 0, 255]);
}

/// The index values at the edges of v2's ranges, one per column: NaN of both signs, the
/// infinities, both zeros, the floats just below 4 and 64 and those numbers themselves, a
/// subnormal, negative and huge values.
const EDGE_INDEXES: [f32; 16] = [
    f32::NAN,
    -f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -0.0,
    0.0,
    3.999_999_8,
    4.0,
    63.999_996,
    64.0,
    -0.5,
    1e30,
    16_777_215.0,
    1e-45,
    -1.0,
    2.0,
];

/// Column x takes its index from `EDGE_INDEXES[x]` through memory (an index known only per
/// pixel), and uses it in all four instructions that take one: red is v0's component (v0 =
/// (0.25, 0.5, 0.75, 1)), green 0.6 put in that component of a zero vector and read back,
/// blue 0.9 written to that memory cell and read back, alpha the cell 63.
fn edge_index_program() -> Vec<Instr> {
    let z = ZERO.0;
    let mut program = Vec::new();
    for (cell, value) in EDGE_INDEXES.into_iter().enumerate() {
        program.push(instr(Op::Load, [0, 0, 0], value));
        program.push(instr(Op::Load, [1, 0, 0], cell as f32));
        program.push(instr(Op::WriteMemory, [0, 1, 0], 0.0));
    }
    for (lane, value) in [0.25, 0.5, 0.75, 1.0].into_iter().enumerate() {
        program.push(instr(Op::Load, [0, 0, 0], value));
        program.push(instr(Op::Load, [1, 0, 0], lane as f32));
        program.push(instr(Op::SetComponent, [8, 0, 1], 0.0));
    }
    program.extend([
        instr(Op::GetComponent, [16, 2, z], 0.0), // s2 = pc.x
        instr(Op::ReadMemory, [3, 2, 0], 0.0),    // s3 = the column's index
        instr(Op::GetComponent, [8, 4, 3], 0.0),  // s4 = v0[s3]
        instr(Op::SetComponent, [19, 4, z], 0.0), // red
        instr(Op::Load, [0, 0, 0], 0.6),
        instr(Op::SetComponent, [9, 0, 3], 0.0), // v1[s3] = 0.6
        instr(Op::GetComponent, [9, 4, 3], 0.0), // s4 = v1[s3]
        instr(Op::Load, [1, 0, 0], 1.0),
        instr(Op::SetComponent, [19, 4, 1], 0.0), // green
        instr(Op::Load, [0, 0, 0], 0.9),
        instr(Op::WriteMemory, [0, 3, 0], 0.0), // memory[s3] = 0.9
        instr(Op::ReadMemory, [4, 3, 0], 0.0),  // s4 = memory[s3]
        instr(Op::Load, [1, 0, 0], 2.0),
        instr(Op::SetComponent, [19, 4, 1], 0.0), // blue
        instr(Op::Load, [1, 0, 0], 63.0),
        instr(Op::ReadMemory, [4, 1, 0], 0.0),
        instr(Op::Load, [1, 0, 0], 3.0),
        instr(Op::SetComponent, [19, 4, 1], 0.0), // alpha
    ]);
    program
}

#[test]
fn indexes_at_the_edges_of_their_ranges_pick_as_on_the_cpu_in_both_interpreters() {
    let program = edge_index_program();
    let frame = frame(EDGE_INDEXES.len() as u32, 2, 0.0);
    let cpu = exec::render_naive(&program, &frame, Alpha::Keep);
    // What the definition gives, worked out from the table: component floor(i) of v0 when i
    // is in [0, 4), memory cell floor(i) when in [0, 64), nothing anywhere else.
    let none = [0, 0, 0, 0];
    let want: [[u8; 4]; 16] = [
        none,
        none,
        none,
        none,
        [64, 153, 230, 0],  // -0 picks 0
        [64, 153, 230, 0],  // 0
        [255, 153, 230, 0], // 3.9999998 picks 3
        [0, 0, 230, 0],     // 4: no component, cell 4
        [0, 0, 230, 230],   // 63.999996: cell 63
        none,               // 64
        none,               // -0.5
        none,
        none,
        [64, 153, 230, 0], // a subnormal picks 0
        none,
        [191, 153, 230, 0], // 2
    ];
    for (x, want) in want.into_iter().enumerate() {
        assert_eq!(
            cpu.pixel_from_bottom(x as u32, 1),
            want,
            "column {x}, index {}",
            EDGE_INDEXES[x]
        );
    }
    if let Some(gpu) = gpu() {
        agree("edge indexes, WGSL", gpu, &program, &frame, Alpha::Keep);
    }
    if let Some(glsl) = glsl_runner() {
        let image = glsl.render(&program, &frame, Alpha::Keep);
        assert_close("edge indexes, GLSL", &cpu, &image);
    }
}
