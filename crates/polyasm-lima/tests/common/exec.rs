//! What the emulator tests share: instructions built field by field, programs that load
//! uniforms into registers and stop, and the colour a fragment ends with.

use polyasm_lima::exec::{Inputs, Output, Program, Texture, Vec4, run_fragment};
use polyasm_lima::instr::{
    Combine, CombineDest, FloatAcc, FloatMul, Instr, Load, ScalarSource, VecAcc, VecDest, VecMul, VecSource,
};
use polyasm_lima::ops::{AccOp, Alignment, CombineOp, LoadSource, MulOp, OutMod, REG_UNIFORM};

pub const XYZW: u8 = 0xE4;

/// Mesa's clear program.
pub const CLEAR: [u32; 5] = [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5];
/// Mesa's tile-reload program.
pub const RELOAD: [u32; 6] = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];

pub fn v(reg: u8) -> VecSource {
    VecSource {
        reg,
        swizzle: XYZW,
        abs: false,
        neg: false,
    }
}

pub fn vs(reg: u8, swizzle: u8) -> VecSource {
    VecSource { swizzle, ..v(reg) }
}

/// Scalar register `reg.component`.
pub fn s(reg: u8, component: u8) -> ScalarSource {
    ScalarSource {
        reg: reg * 4 + component,
        abs: false,
        neg: false,
    }
}

pub fn all(reg: u8) -> Option<VecDest> {
    Some(VecDest { reg, mask: 0xF })
}

pub fn vmul(op: MulOp, dest: Option<VecDest>, arg0: VecSource, arg1: Option<VecSource>) -> VecMul {
    VecMul {
        op,
        shift: 0,
        outmod: OutMod::None,
        dest,
        arg0,
        arg1,
    }
}

pub fn fmul(op: MulOp, dest: Option<u8>, arg0: ScalarSource, arg1: Option<ScalarSource>) -> FloatMul {
    FloatMul {
        op,
        shift: 0,
        outmod: OutMod::None,
        dest,
        arg0,
        arg1,
    }
}

pub fn vacc(op: AccOp, dest: Option<VecDest>, arg0: VecSource, arg1: Option<VecSource>) -> VecAcc {
    VecAcc {
        op,
        outmod: OutMod::None,
        dest,
        mul_in: false,
        arg0,
        arg1,
    }
}

pub fn facc(op: AccOp, dest: Option<u8>, arg0: ScalarSource, arg1: Option<ScalarSource>) -> FloatAcc {
    FloatAcc {
        op,
        outmod: OutMod::None,
        dest,
        mul_in: false,
        arg0,
        arg1,
    }
}

pub fn mov(dest: u8, source: VecSource) -> VecMul {
    vmul(MulOp::Mov, all(dest), source, None)
}

pub fn uniform(index: u16) -> Load {
    Load {
        source: LoadSource::Uniform,
        alignment: Alignment::Vec4,
        index,
        offset: None,
    }
}

/// `load.u slot, mov.v0 $reg ^uniform`.
pub fn load_reg(slot: u16, reg: u8) -> Instr {
    Instr {
        load: Some(uniform(slot)),
        vec4_mul: Some(mov(reg, v(REG_UNIFORM))),
        ..Instr::default()
    }
}

pub fn stop(instr: Instr) -> Instr {
    Instr { stop: true, ..instr }
}

pub fn with_uniforms(uniforms: &[Vec4]) -> Inputs {
    Inputs {
        uniforms: uniforms.to_vec(),
        ..Inputs::default()
    }
}

pub fn color(program: &[Instr], inputs: &Inputs) -> Vec4 {
    match run_fragment(&Program::new(program), inputs) {
        Ok(Output::Color(c)) => c,
        other => panic!("expected a colour, got {other:?}"),
    }
}

/// `$1` = uniform 0, `$2` = uniform 1, then `last` with `stop`; the colour `$0`.
pub fn on_two(a: Vec4, b: Vec4, last: Instr) -> Vec4 {
    let program = [load_reg(0, 1), load_reg(1, 2), stop(last)];
    color(&program, &with_uniforms(&[a, b]))
}

pub fn vec_mul_op(op: MulOp, shift: i8, a: Vec4, b: Vec4) -> Vec4 {
    let binary = op.is_binary();
    let last = Instr {
        vec4_mul: Some(VecMul {
            shift,
            ..vmul(op, all(0), v(1), binary.then_some(v(2)))
        }),
        ..Instr::default()
    };
    on_two(a, b, last)
}

pub fn float_mul_op(op: MulOp, shift: i8, a: f32, b: f32) -> f32 {
    let binary = op.is_binary();
    let last = Instr {
        float_mul: Some(FloatMul {
            shift,
            ..fmul(op, Some(0), s(1, 0), binary.then_some(s(2, 0)))
        }),
        ..Instr::default()
    };
    on_two([a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0], last)[0]
}

pub fn vec_acc_op(op: AccOp, a: Vec4, b: Vec4) -> Vec4 {
    let last = Instr {
        vec4_acc: Some(vacc(op, all(0), v(1), op.is_binary().then_some(v(2)))),
        ..Instr::default()
    };
    on_two(a, b, last)
}

pub fn float_acc_op(op: AccOp, a: f32, b: f32) -> f32 {
    let last = Instr {
        float_acc: Some(facc(op, Some(0), s(1, 0), op.is_binary().then_some(s(2, 0)))),
        ..Instr::default()
    };
    on_two([a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0], last)[0]
}

pub fn combine_scalar(op: CombineOp, a: f32, b: f32) -> f32 {
    let last = Instr {
        combine: Some(Combine::Scalar {
            op,
            dest: CombineDest::Scalar {
                reg: 0,
                outmod: OutMod::None,
            },
            arg0: s(1, 0),
            arg1: op.is_binary().then_some(s(2, 0)),
        }),
        ..Instr::default()
    };
    on_two([a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0], last)[0]
}

pub fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

/// A 2x2 texture: red, green on the top row; blue, white on the bottom.
pub fn four_texels() -> Texture {
    let rgba = [
        255, 0, 0, 255, 0, 255, 0, 255, //
        0, 0, 255, 255, 255, 255, 255, 255,
    ];
    Texture::from_rgba8(2, 2, &rgba).unwrap()
}

pub fn test_picture(width: u32, height: u32) -> Vec<u8> {
    (0..width * height)
        .flat_map(|i| {
            let (x, y) = (i % width, i / width);
            [
                (x * 37 % 256) as u8,
                (y * 59 % 256) as u8,
                ((x ^ y) * 11 % 256) as u8,
                (200 + x % 56) as u8,
            ]
        })
        .collect()
}
