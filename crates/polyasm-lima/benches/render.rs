//! The emulator rendering a 1920x1080 frame of a procedural program (a checkerboard shaded by
//! rings, from varying 0 with `fract`, `sin`, `sel` and friends), in pixels per second on all
//! cores; and one fragment of it alone.
//!
//! Run with `cargo bench -p polyasm-lima --bench render`.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use polyasm_lima::exec::{Inputs, Output, Program, render, run_fragment};
use polyasm_lima::instr::{
    Combine, CombineDest, FloatMul, Instr, ScalarSource, Varying, VaryingFetch, VaryingSource, VecAcc, VecDest, VecMul,
    VecSource,
};
use polyasm_lima::ops::{AccOp, CombineOp, MulOp, OutMod, Perspective, REG_CONST0, REG_CONST1, VaryingAlignment};

const WIDTH: u32 = 1920;
const HEIGHT: u32 = 1080;

fn src(reg: u8, swizzle: u8) -> VecSource {
    VecSource {
        reg,
        swizzle,
        abs: false,
        neg: false,
    }
}

fn scalar(reg: u8, component: u8) -> ScalarSource {
    ScalarSource {
        reg: reg * 4 + component,
        abs: false,
        neg: false,
    }
}

fn dest(reg: u8, mask: u8) -> Option<VecDest> {
    Some(VecDest { reg, mask })
}

fn vec_mul(op: MulOp, dest: Option<VecDest>, arg0: VecSource, arg1: Option<VecSource>) -> VecMul {
    VecMul {
        op,
        shift: 0,
        outmod: OutMod::None,
        dest,
        arg0,
        arg1,
    }
}

fn vec_acc(op: AccOp, dest: Option<VecDest>, mul_in: bool, arg0: VecSource, arg1: Option<VecSource>) -> VecAcc {
    VecAcc {
        op,
        outmod: OutMod::None,
        dest,
        mul_in,
        arg0,
        arg1,
    }
}

/// fp16 bits of the constants used.
const HALF: u16 = 0x3800;
const SIX: u16 = 0x4600;
const EIGHT: u16 = 0x4800;
const ONE: u16 = 0x3C00;
const QUARTER: u16 = 0x3400;

/// The procedural program, built from the model:
///
/// ```text
/// load.v $1 0, add.v1 $2.xy $1 -^const0.zzzz          # (u - 0.5, v - 0.5)
/// mul.v0 $2 $2, sum3.v1 $3 ^v0                       # r^2 in every lane
/// sqrt.s2 $3.x $3.x                                  # r
/// mul.s0 $3.y $3.x ^const0.y, sin.s2 $3.z $3.y       # rings: sin(6 turns per unit of r)
/// mul.v0 $1 $1 ^const0.xxxx, fract.v1 $4 ^v0          # (fract(8u), fract(8v))
/// gt.v0 $5 $4 ^const0.zzzz                            # which half of each cell
/// xor.s0 $5.x $5.y, sel.v1 $0 ^const0 ^const1         # checkerboard of two colours
/// mul.s2 $0.xyz $3.z $0, stop                         # shaded by the rings
/// ```
fn procedural() -> Vec<Instr> {
    let c0 = [EIGHT, SIX, HALF, ONE];
    let fetch = Varying {
        dest: 1,
        mask: 0xF,
        source: VaryingSource::Fetch {
            perspective: Perspective::None,
            fetch: VaryingFetch {
                alignment: VaryingAlignment::Vec4,
                index: 0,
                offset: None,
            },
        },
    };
    let minus_half = VecSource {
        neg: true,
        ..src(REG_CONST0, 0xAA)
    };
    vec![
        Instr {
            varying: Some(fetch),
            vec4_acc: Some(vec_acc(AccOp::Add, dest(2, 0x3), false, src(1, 0xE4), Some(minus_half))),
            const0: Some(c0),
            ..Instr::default()
        },
        Instr {
            vec4_mul: Some(vec_mul(MulOp::Mul, None, src(2, 0xE4), Some(src(2, 0xE4)))),
            vec4_acc: Some(vec_acc(AccOp::Sum3, dest(3, 0xF), true, src(0, 0xE4), None)),
            ..Instr::default()
        },
        Instr {
            combine: Some(Combine::Scalar {
                op: CombineOp::Sqrt,
                dest: CombineDest::Scalar {
                    reg: 12,
                    outmod: OutMod::None,
                },
                arg0: scalar(3, 0),
                arg1: None,
            }),
            ..Instr::default()
        },
        Instr {
            float_mul: Some(FloatMul {
                op: MulOp::Mul,
                shift: 0,
                outmod: OutMod::None,
                dest: Some(13),
                arg0: scalar(3, 0),
                arg1: Some(scalar(REG_CONST0, 1)),
            }),
            combine: Some(Combine::Scalar {
                op: CombineOp::Sin,
                dest: CombineDest::Scalar {
                    reg: 14,
                    outmod: OutMod::Pos,
                },
                arg0: scalar(3, 1),
                arg1: None,
            }),
            const0: Some(c0),
            ..Instr::default()
        },
        Instr {
            vec4_mul: Some(vec_mul(MulOp::Mul, None, src(1, 0xE4), Some(src(REG_CONST0, 0x00)))),
            vec4_acc: Some(vec_acc(AccOp::Fract, dest(4, 0x3), true, src(0, 0xE4), None)),
            const0: Some(c0),
            ..Instr::default()
        },
        Instr {
            vec4_mul: Some(vec_mul(
                MulOp::Gt,
                dest(5, 0x3),
                src(4, 0xE4),
                Some(src(REG_CONST0, 0xAA)),
            )),
            const0: Some(c0),
            ..Instr::default()
        },
        Instr {
            float_mul: Some(FloatMul {
                op: MulOp::Xor,
                shift: 0,
                outmod: OutMod::None,
                dest: None,
                arg0: scalar(5, 0),
                arg1: Some(scalar(5, 1)),
            }),
            vec4_acc: Some(vec_acc(
                AccOp::Sel,
                dest(0, 0xF),
                false,
                src(REG_CONST0, 0xE4),
                Some(src(REG_CONST1, 0xE4)),
            )),
            const0: Some([ONE, HALF, QUARTER, ONE]),
            const1: Some([QUARTER, HALF, ONE, ONE]),
            ..Instr::default()
        },
        Instr {
            stop: true,
            combine: Some(Combine::MulVec {
                dest: VecDest { reg: 0, mask: 0x7 },
                arg0: scalar(3, 2),
                arg1: 0,
                swizzle: 0xE4,
            }),
            ..Instr::default()
        },
    ]
}

fn procedural_render(c: &mut Criterion) {
    let program = Program::new(&procedural());
    let inputs = Inputs::default();
    let image = render(&program, &inputs, WIDTH, HEIGHT).expect("the program stops");
    let lit = image.rgba.chunks(4).filter(|p| p[..3] != [0, 0, 0]).count();
    assert!(lit > 0 && lit < image.rgba.len() / 4, "the picture has a pattern");
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
