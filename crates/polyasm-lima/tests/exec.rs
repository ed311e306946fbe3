//! The emulator: every opcode against values computed by hand, the pipeline order inside one
//! instruction, memory, branches, discard, the step limit, Mesa's two built-in programs,
//! textures and full-screen rendering with derivatives over 2x2 quads.

use polyasm_core::Object;
use polyasm_core::options::OptionValues;
use polyasm_core::stream::RunIo;
use polyasm_core::target::TargetOptions;
use polyasm_lima::exec::{
    Filter, Image, Inputs, Output, Program, RunErrorKind, Texture, Vec4, Wrap, render, run_fragment,
};
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::{
    Branch, Combine, CombineDest, FloatAcc, FloatMul, Instr, Load, ScalarSource, Store, Varying, VaryingFetch,
    VaryingSource, VecAcc, VecDest, VecMul, VecSource,
};
use polyasm_lima::ops::{
    AccOp, Alignment, BranchCond, CombineOp, FbRead, LoadSource, MulOp, OutMod, Perspective, REG_CONST0, REG_TEXTURE,
    REG_UNIFORM, VaryingAlignment,
};
use polyasm_lima::run::{decode_png, run_object};
use proptest::prelude::*;

const XYZW: u8 = 0xE4;

/// Mesa's clear program.
const CLEAR: [u32; 5] = [0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5];
/// Mesa's tile-reload program.
const RELOAD: [u32; 6] = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];

fn v(reg: u8) -> VecSource {
    VecSource {
        reg,
        swizzle: XYZW,
        abs: false,
        neg: false,
    }
}

fn vs(reg: u8, swizzle: u8) -> VecSource {
    VecSource { swizzle, ..v(reg) }
}

/// Scalar register `reg.component`.
fn s(reg: u8, component: u8) -> ScalarSource {
    ScalarSource {
        reg: reg * 4 + component,
        abs: false,
        neg: false,
    }
}

fn all(reg: u8) -> Option<VecDest> {
    Some(VecDest { reg, mask: 0xF })
}

fn vmul(op: MulOp, dest: Option<VecDest>, arg0: VecSource, arg1: Option<VecSource>) -> VecMul {
    VecMul {
        op,
        shift: 0,
        outmod: OutMod::None,
        dest,
        arg0,
        arg1,
    }
}

fn fmul(op: MulOp, dest: Option<u8>, arg0: ScalarSource, arg1: Option<ScalarSource>) -> FloatMul {
    FloatMul {
        op,
        shift: 0,
        outmod: OutMod::None,
        dest,
        arg0,
        arg1,
    }
}

fn vacc(op: AccOp, dest: Option<VecDest>, arg0: VecSource, arg1: Option<VecSource>) -> VecAcc {
    VecAcc {
        op,
        outmod: OutMod::None,
        dest,
        mul_in: false,
        arg0,
        arg1,
    }
}

fn facc(op: AccOp, dest: Option<u8>, arg0: ScalarSource, arg1: Option<ScalarSource>) -> FloatAcc {
    FloatAcc {
        op,
        outmod: OutMod::None,
        dest,
        mul_in: false,
        arg0,
        arg1,
    }
}

fn mov(dest: u8, source: VecSource) -> VecMul {
    vmul(MulOp::Mov, all(dest), source, None)
}

fn uniform(index: u16) -> Load {
    Load {
        source: LoadSource::Uniform,
        alignment: Alignment::Vec4,
        index,
        offset: None,
    }
}

/// `load.u slot, mov.v0 $reg ^uniform`.
fn load_reg(slot: u16, reg: u8) -> Instr {
    Instr {
        load: Some(uniform(slot)),
        vec4_mul: Some(mov(reg, v(REG_UNIFORM))),
        ..Instr::default()
    }
}

fn stop(instr: Instr) -> Instr {
    Instr { stop: true, ..instr }
}

fn with_uniforms(uniforms: &[Vec4]) -> Inputs {
    Inputs {
        uniforms: uniforms.to_vec(),
        ..Inputs::default()
    }
}

fn color(program: &[Instr], inputs: &Inputs) -> Vec4 {
    match run_fragment(&Program::new(program), inputs) {
        Ok(Output::Color(c)) => c,
        other => panic!("expected a colour, got {other:?}"),
    }
}

/// `$1` = uniform 0, `$2` = uniform 1, then `last` with `stop`; the colour `$0`.
fn on_two(a: Vec4, b: Vec4, last: Instr) -> Vec4 {
    let program = [load_reg(0, 1), load_reg(1, 2), stop(last)];
    color(&program, &with_uniforms(&[a, b]))
}

fn vec_mul_op(op: MulOp, shift: i8, a: Vec4, b: Vec4) -> Vec4 {
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

fn float_mul_op(op: MulOp, shift: i8, a: f32, b: f32) -> f32 {
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

fn vec_acc_op(op: AccOp, a: Vec4, b: Vec4) -> Vec4 {
    let last = Instr {
        vec4_acc: Some(vacc(op, all(0), v(1), op.is_binary().then_some(v(2)))),
        ..Instr::default()
    };
    on_two(a, b, last)
}

fn float_acc_op(op: AccOp, a: f32, b: f32) -> f32 {
    let last = Instr {
        float_acc: Some(facc(op, Some(0), s(1, 0), op.is_binary().then_some(s(2, 0)))),
        ..Instr::default()
    };
    on_two([a, 0.0, 0.0, 0.0], [b, 0.0, 0.0, 0.0], last)[0]
}

fn combine_scalar(op: CombineOp, a: f32, b: f32) -> f32 {
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

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0)
}

#[test]
fn mesa_clear_program_gives_its_constant() {
    // mov.v0 $0 ^const0.xxxx: every lane reads const0.x.
    let program = Program::from_words(&CLEAR).unwrap();
    let out = run_fragment(&program, &Inputs::default()).unwrap();
    assert_eq!(out, Output::Color([1.0; 4]));
    // With the identity swizzle the output is the whole constant, (1, 0, 0, -1.677734), which
    // as a colour is red with alpha clamped to 0.
    let mut instrs: Vec<Instr> = polyasm_lima::decode::decode(&CLEAR)
        .unwrap()
        .iter()
        .map(|d| d.instr)
        .collect();
    let mov = instrs[0].vec4_mul.as_mut().unwrap();
    assert_eq!(mov.arg0.swizzle, 0x00);
    mov.arg0.swizzle = XYZW;
    let program = Program::new(&instrs);
    assert_eq!(
        run_fragment(&program, &Inputs::default()).unwrap(),
        Output::Color([1.0, 0.0, 0.0, -1.677_734_4])
    );
    assert_eq!(polyasm_lima::half::to_f32(0xBEB6), -1.677_734_4);
    let image = render(&program, &Inputs::default(), 3, 2).unwrap();
    assert!(image.rgba.chunks(4).all(|p| p == [255, 0, 0, 0]));
}

#[test]
fn halves_convert_exactly() {
    assert_eq!(polyasm_lima::half::to_f32(0x3C00), 1.0);
    assert_eq!(polyasm_lima::half::to_f32(0xC000), -2.0);
    assert_eq!(polyasm_lima::half::to_f32(0x7BFF), 65504.0);
    assert_eq!(polyasm_lima::half::to_f32(0x0001), 2f32.powi(-24));
    assert_eq!(polyasm_lima::half::to_f32(0x8000).to_bits(), 0x8000_0000);
    assert_eq!(polyasm_lima::half::to_f32(0x7C00), f32::INFINITY);
    assert!(polyasm_lima::half::to_f32(0x7E00).is_nan());
}

#[test]
fn multiplier_ops_match_hand_computed_values() {
    let a = [1.5, -2.0, 0.0, 3.0];
    let b = [2.0, -2.0, 4.0, 0.0];
    assert_eq!(vec_mul_op(MulOp::Mul, 0, a, b), [3.0, 4.0, 0.0, 0.0]);
    // Op numbers 0-7: the product times 2^shift.
    for (shift, scale) in [
        (1, 2.0),
        (2, 4.0),
        (3, 8.0),
        (-4, 0.0625),
        (-3, 0.125),
        (-2, 0.25),
        (-1, 0.5),
    ] {
        assert_eq!(
            vec_mul_op(MulOp::Mul, shift, a, b),
            [3.0, 4.0, 0.0, 0.0].map(|x| x * scale),
            "{shift}"
        );
        assert_eq!(float_mul_op(MulOp::Mul, shift, 1.5, 2.0), 3.0 * scale, "{shift}");
    }
    assert_eq!(vec_mul_op(MulOp::Not, 0, a, b), [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(vec_mul_op(MulOp::And, 0, a, b), [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(vec_mul_op(MulOp::Or, 0, a, b), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(vec_mul_op(MulOp::Xor, 0, a, b), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(vec_mul_op(MulOp::Ne, 0, a, b), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(vec_mul_op(MulOp::Gt, 0, a, b), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(vec_mul_op(MulOp::Ge, 0, a, b), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(vec_mul_op(MulOp::Eq, 0, a, b), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(vec_mul_op(MulOp::Min, 0, a, b), [1.5, -2.0, 0.0, 0.0]);
    assert_eq!(vec_mul_op(MulOp::Max, 0, a, b), [2.0, -2.0, 4.0, 3.0]);
    assert_eq!(vec_mul_op(MulOp::Mov, 0, a, b), a);
    assert_eq!(float_mul_op(MulOp::Not, 0, 0.0, 0.0), 1.0);
    assert_eq!(float_mul_op(MulOp::Xor, 0, 1.0, 0.0), 1.0);
    assert_eq!(float_mul_op(MulOp::Ge, 0, 2.0, 2.0), 1.0);
    assert_eq!(float_mul_op(MulOp::Max, 0, -1.0, -3.0), -1.0);
    assert_eq!(float_mul_op(MulOp::Mov, 0, -7.25, 1.0), -7.25);
}

#[test]
fn adder_ops_match_hand_computed_values() {
    let a = [1.25, -1.25, 2.0, -0.5];
    let b = [0.5, -1.25, 3.0, -1.0];
    assert_eq!(vec_acc_op(AccOp::Add, a, b), [1.75, -2.5, 5.0, -1.5]);
    assert_eq!(vec_acc_op(AccOp::Fract, a, b), [0.25, 0.75, 0.0, 0.5]);
    assert_eq!(vec_acc_op(AccOp::Ne, a, b), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(vec_acc_op(AccOp::Gt, a, b), [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(vec_acc_op(AccOp::Ge, a, b), [1.0, 1.0, 0.0, 1.0]);
    assert_eq!(vec_acc_op(AccOp::Eq, a, b), [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(vec_acc_op(AccOp::Floor, a, b), [1.0, -2.0, 2.0, -1.0]);
    assert_eq!(vec_acc_op(AccOp::Ceil, a, b), [2.0, -1.0, 2.0, -0.0]);
    assert_eq!(vec_acc_op(AccOp::Min, a, b), [0.5, -1.25, 2.0, -1.0]);
    assert_eq!(vec_acc_op(AccOp::Max, a, b), [1.25, -1.25, 3.0, -0.5]);
    assert_eq!(vec_acc_op(AccOp::Sum3, a, b), [2.0; 4]);
    assert_eq!(vec_acc_op(AccOp::Sum4, a, b), [1.5; 4]);
    assert_eq!(vec_acc_op(AccOp::Mov, a, b), a);
    // Without a scalar multiplier in the instruction, `^s0` is 0: sel takes arg1.
    assert_eq!(vec_acc_op(AccOp::Sel, a, b), b);
    // A single fragment has no neighbours: derivatives are 0.
    assert_eq!(vec_acc_op(AccOp::Dfdx, a, b), [0.0; 4]);
    assert_eq!(vec_acc_op(AccOp::Dfdy, a, b), [0.0; 4]);
    assert_eq!(float_acc_op(AccOp::Add, 0.25, 0.5), 0.75);
    assert_eq!(float_acc_op(AccOp::Fract, -0.25, 0.0), 0.75);
    assert_eq!(float_acc_op(AccOp::Gt, 1.0, 0.5), 1.0);
    assert_eq!(float_acc_op(AccOp::Floor, -0.5, 0.0), -1.0);
    assert_eq!(float_acc_op(AccOp::Ceil, 0.5, 0.0), 1.0);
    assert_eq!(float_acc_op(AccOp::Min, 0.5, -4.0), -4.0);
    assert_eq!(float_acc_op(AccOp::Mov, 9.0, 1.0), 9.0);
    assert_eq!(float_acc_op(AccOp::Dfdx, 9.0, 1.0), 0.0);
}

#[test]
fn sel_picks_by_the_scalar_multiplier_result() {
    for (cond, expected) in [(1.0, [1.0, 2.0, 3.0, 4.0]), (0.0, [5.0, 6.0, 7.0, 8.0])] {
        // mov.s0 ^s0 cond, sel.v1 $0 $1 $2, sel.s1 $3.x $1.x $2.x
        let last = Instr {
            float_mul: Some(fmul(MulOp::Mov, None, s(2, 3), None)),
            vec4_acc: Some(vacc(AccOp::Sel, all(0), v(1), Some(v(2)))),
            float_acc: Some(facc(AccOp::Sel, Some(4 * 3), s(1, 0), Some(s(2, 0)))),
            ..Instr::default()
        };
        let program = [
            load_reg(0, 1),
            load_reg(1, 2),
            Instr {
                // $2.w = cond, keeping $2.xyz.
                load: Some(uniform(2)),
                vec4_mul: Some(vmul(
                    MulOp::Mov,
                    Some(VecDest { reg: 2, mask: 0x8 }),
                    v(REG_UNIFORM),
                    None,
                )),
                ..Instr::default()
            },
            stop(last),
        ];
        let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [0.0, 0.0, 0.0, cond]]);
        let mut expected_w = expected;
        expected_w[3] = if cond != 0.0 { 4.0 } else { cond };
        assert_eq!(color(&program, &inputs), expected_w);
    }
}

#[test]
fn complex_unit_ops_match_hand_computed_values() {
    assert_eq!(combine_scalar(CombineOp::Rcp, 4.0, 0.0), 0.25);
    assert_eq!(combine_scalar(CombineOp::Mov, -3.5, 0.0), -3.5);
    assert_eq!(combine_scalar(CombineOp::Sqrt, 16.0, 0.0), 4.0);
    assert_eq!(combine_scalar(CombineOp::Rsqrt, 16.0, 0.0), 0.25);
    assert_eq!(combine_scalar(CombineOp::Exp2, 3.0, 0.0), 8.0);
    assert_eq!(combine_scalar(CombineOp::Log2, 0.125, 0.0), -3.0);
    // sin and cos take turns: whole and quarter turns are exact.
    assert_eq!(combine_scalar(CombineOp::Sin, 0.25, 0.0), 1.0);
    assert_eq!(combine_scalar(CombineOp::Sin, 0.5, 0.0), 0.0);
    assert_eq!(combine_scalar(CombineOp::Sin, -0.25, 0.0), -1.0);
    assert_eq!(combine_scalar(CombineOp::Cos, 0.0, 0.0), 1.0);
    assert_eq!(combine_scalar(CombineOp::Cos, 0.5, 0.0), -1.0);
    assert_eq!(combine_scalar(CombineOp::Cos, 3.25, 0.0), 0.0);
    assert!(close(combine_scalar(CombineOp::Sin, 1.0 / 12.0, 0.0), 0.5));
    assert!(close(combine_scalar(CombineOp::Cos, 1.0 / 6.0, 0.0), 0.5));
    assert!(combine_scalar(CombineOp::Sqrt, -1.0, 0.0).is_nan());
    assert_eq!(combine_scalar(CombineOp::Rcp, 0.0, 0.0), f32::INFINITY);
}

/// atan part 1 into `$3.xyz`, for atan2 the multiply `.x *= .y`, then part 2 into `$0.x`.
fn atan_pair(y: f32, x: Option<f32>) -> f32 {
    let pt1 = Instr {
        combine: Some(Combine::Scalar {
            op: if x.is_some() { CombineOp::Atan2 } else { CombineOp::Atan },
            dest: CombineDest::Vector(VecDest { reg: 3, mask: 0x7 }),
            arg0: s(1, 0),
            arg1: x.map(|_| s(2, 0)),
        }),
        ..Instr::default()
    };
    let multiply = Instr {
        float_mul: Some(fmul(MulOp::Mul, Some(4 * 3), s(3, 0), Some(s(3, 1)))),
        ..Instr::default()
    };
    let pt2 = Instr {
        combine: Some(Combine::AtanPt2 {
            dest: 0,
            outmod: OutMod::None,
            arg: 3,
            swizzle: XYZW,
        }),
        ..Instr::default()
    };
    let mut program = vec![load_reg(0, 1), load_reg(1, 2), pt1];
    if x.is_some() {
        program.push(multiply);
    }
    program.push(stop(pt2));
    let inputs = with_uniforms(&[[y, 0.0, 0.0, 0.0], [x.unwrap_or(0.0), 0.0, 0.0, 0.0]]);
    color(&program, &inputs)[0]
}

#[test]
fn atan_and_atan2_pairs_give_the_angle_in_radians() {
    for a in [0.0f32, 0.5, -0.5, 1.0, 2.0, -3.0, 100.0] {
        assert!(close(atan_pair(a, None), a.atan()), "atan({a})");
    }
    for (y, x) in [
        (1.0f32, 1.0f32),
        (1.0, -1.0),
        (-1.0, -1.0),
        (-2.0, 1.0),
        (3.0, -0.5),
        (0.0, -2.0),
        (0.5, 4.0),
    ] {
        assert!(close(atan_pair(y, Some(x)), y.atan2(x)), "atan2({y}, {x})");
    }
}

#[test]
fn complex_unit_scalar_times_vector_and_vector_destination() {
    let last = Instr {
        combine: Some(Combine::MulVec {
            dest: VecDest { reg: 0, mask: 0xF },
            arg0: ScalarSource { neg: true, ..s(1, 1) },
            arg1: 2,
            swizzle: 0x1B,
        }),
        ..Instr::default()
    };
    assert_eq!(
        on_two([0.0, 2.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0], last),
        [-8.0, -6.0, -4.0, -2.0]
    );
    // A scalar op with a vector destination writes its result through the mask.
    let last = Instr {
        combine: Some(Combine::Scalar {
            op: CombineOp::Rcp,
            dest: CombineDest::Vector(VecDest { reg: 0, mask: 0x6 }),
            arg0: s(1, 0),
            arg1: None,
        }),
        ..Instr::default()
    };
    assert_eq!(on_two([2.0, 0.0, 0.0, 0.0], [0.0; 4], last), [0.0, 0.5, 0.5, 0.0]);
}

#[test]
fn source_modifiers_apply_abs_then_negate_and_swizzles_pick_lanes() {
    let neg_abs = VecSource {
        abs: true,
        neg: true,
        ..vs(1, 0x1B)
    };
    let last = Instr {
        vec4_mul: Some(mov(0, neg_abs)),
        ..Instr::default()
    };
    assert_eq!(on_two([1.0, -2.0, 3.0, -4.0], [0.0; 4], last), [-4.0, -3.0, -2.0, -1.0]);
    let neg = VecSource {
        neg: true,
        ..vs(1, 0x00)
    };
    let last = Instr {
        vec4_mul: Some(mov(0, neg)),
        ..Instr::default()
    };
    assert_eq!(on_two([-1.5, 2.0, 3.0, 4.0], [0.0; 4], last), [1.5; 4]);
    let abs = ScalarSource { abs: true, ..s(1, 3) };
    let last = Instr {
        float_mul: Some(fmul(MulOp::Mov, Some(2), abs, None)),
        ..Instr::default()
    };
    assert_eq!(on_two([0.0, 0.0, 0.0, -6.0], [0.0; 4], last), [0.0, 0.0, 6.0, 0.0]);
}

#[test]
fn output_modifiers_saturate_clamp_at_zero_and_truncate() {
    let a = [-1.5, 0.25, 1.75, -0.5];
    let with = |outmod| {
        let last = Instr {
            vec4_mul: Some(VecMul { outmod, ..mov(0, v(1)) }),
            ..Instr::default()
        };
        on_two(a, [0.0; 4], last)
    };
    assert_eq!(with(OutMod::Sat), [0.0, 0.25, 1.0, 0.0]);
    assert_eq!(with(OutMod::Pos), [0.0, 0.25, 1.75, 0.0]);
    assert_eq!(with(OutMod::Int), [-1.0, 0.0, 1.0, -0.0]);
    assert_eq!(with(OutMod::None), a);
    let last = Instr {
        float_acc: Some(FloatAcc {
            outmod: OutMod::Int,
            ..facc(AccOp::Add, Some(0), s(1, 0), Some(s(1, 2)))
        }),
        ..Instr::default()
    };
    assert_eq!(on_two(a, [0.0; 4], last)[0], 0.0);
}

#[test]
fn write_masks_keep_the_other_lanes() {
    let program = [
        load_reg(0, 0),
        stop(Instr {
            load: Some(uniform(1)),
            vec4_mul: Some(vmul(
                MulOp::Mov,
                Some(VecDest { reg: 0, mask: 0b1010 }),
                v(REG_UNIFORM),
                None,
            )),
            ..Instr::default()
        }),
    ];
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]);
    assert_eq!(color(&program, &inputs), [1.0, 6.0, 3.0, 8.0]);
}

#[test]
fn later_units_see_earlier_writes_and_one_stage_does_not_see_itself() {
    // mov.v0 $1 ^uniform (=2), mul.s0 $1.y $1.x $1.x (reads the old $1.x = 10),
    // add.v1 $0 $1 $1 (after the multipliers: $1 = (2, 100, 2, 2)),
    // rcp.s2 $0.w $0.x (after the adders: 1 / 4).
    let program = [
        load_reg(1, 1),
        stop(Instr {
            load: Some(uniform(0)),
            vec4_mul: Some(mov(1, v(REG_UNIFORM))),
            float_mul: Some(fmul(MulOp::Mul, Some(4 + 1), s(1, 0), Some(s(1, 0)))),
            vec4_acc: Some(vacc(AccOp::Add, all(0), v(1), Some(v(1)))),
            combine: Some(Combine::Scalar {
                op: CombineOp::Rcp,
                dest: CombineDest::Scalar {
                    reg: 3,
                    outmod: OutMod::None,
                },
                arg0: s(0, 0),
                arg1: None,
            }),
            ..Instr::default()
        }),
    ];
    let inputs = with_uniforms(&[[2.0; 4], [10.0; 4]]);
    assert_eq!(color(&program, &inputs), [4.0, 200.0, 4.0, 0.25]);
}

#[test]
fn the_adders_do_not_see_each_other() {
    // mov.v1 $1 $2 and mov.s1 $0.x $1.x in one instruction: the scalar adder reads the old $1.x.
    let program = [
        load_reg(0, 1),
        load_reg(1, 2),
        stop(Instr {
            vec4_acc: Some(vacc(AccOp::Mov, all(1), v(2), None)),
            float_acc: Some(facc(AccOp::Mov, Some(0), s(1, 0), None)),
            ..Instr::default()
        }),
    ];
    let inputs = with_uniforms(&[[3.0; 4], [7.0; 4]]);
    assert_eq!(color(&program, &inputs)[0], 3.0);
}

#[test]
fn pipeline_registers_live_for_one_instruction() {
    // The multiplier results feed the adders through ^v0 / ^s0 in the same instruction.
    let program = [
        load_reg(0, 1),
        stop(Instr {
            vec4_mul: Some(vmul(MulOp::Mul, None, v(1), Some(v(1)))),
            float_mul: Some(fmul(MulOp::Mul, None, s(1, 3), Some(s(1, 3)))),
            vec4_acc: Some(VecAcc {
                mul_in: true,
                ..vacc(AccOp::Add, all(0), VecSource { neg: true, ..v(0) }, Some(v(1)))
            }),
            float_acc: Some(FloatAcc {
                mul_in: true,
                ..facc(AccOp::Add, Some(3), s(0, 0), Some(s(1, 3)))
            }),
            ..Instr::default()
        }),
    ];
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0]]);
    // -(x * x) + x, and w * w + w in .w (the scalar adder writes after the vector adder).
    assert_eq!(color(&program, &inputs), [0.0, -2.0, -6.0, 20.0]);
    // ^uniform, ^texture and ^const0 read 0 in an instruction without their unit.
    let program = [
        Instr {
            load: Some(uniform(0)),
            ..Instr::default()
        },
        stop(Instr {
            vec4_mul: Some(mov(0, v(REG_UNIFORM))),
            vec4_acc: Some(vacc(AccOp::Add, all(1), v(REG_TEXTURE), Some(v(REG_CONST0)))),
            ..Instr::default()
        }),
    ];
    assert_eq!(color(&program, &inputs), [0.0; 4]);
}

#[test]
fn constants_are_fp16_and_read_as_const0_and_const1() {
    // Vector W of the cross-check set: mul.v0 $0 ^const0 ^const1.
    let words = [
        0x00060427, 0x03934e4c, 0x01e0000f, 0x01a00000, 0x03dffe00, 0x018005c0, 0x00000210,
    ];
    let program = Program::from_words(&words).unwrap();
    let out = run_fragment(&program, &Inputs::default()).unwrap();
    assert_eq!(out, Output::Color([65504.0, -0.0, 0.03125, -6.0]));
}

#[test]
fn cross_check_vector_c_runs_as_its_text_says() {
    // load.v $1 0, load.u 0, mul.v0 $2 $1 ^uniform
    // mul.s0 $2.x $2.y, add.s1 $2.w ^s0 $2.z
    // mov.v0 $0.yzw $2 , rcp.s2 $0.x $2.w, stop
    let words = [
        0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280, 0x00004424,
        0x00000e42, 0x580007ce, 0x00000000,
    ];
    let program = Program::from_words(&words).unwrap();
    let inputs = Inputs {
        varyings: vec![[1.0, 2.0, 3.0, 4.0]],
        uniforms: vec![[2.0, 3.0, 0.5, 0.25]],
        ..Inputs::default()
    };
    // $2 = (2, 6, 1.5, 1); $2.x = 2 * 6 = 12 (float_mul output_en 0: only ^s0, so $2.x stays);
    // $2.w = 12 + 1.5; $0 = (1 / 13.5, 6, 1.5, 13.5).
    let out = run_fragment(&program, &inputs).unwrap();
    let Output::Color(c) = out else { panic!("{out:?}") };
    assert_eq!(c, [1.0 / 13.5, 6.0, 1.5, 13.5]);
}

#[test]
fn branches_jump_by_words_and_discard_kills_the_fragment() {
    // Vector E: branch.lt $0.x $1.y 4 / mov.s0 $0.x $1.x, stop / discard, stop.
    let words = [
        0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003, 0x00000000,
        0x00000000,
    ];
    let program = Program::from_words(&words).unwrap();
    // All registers start at 0: 0 < 0 is false, so the mov runs (and writes $1.x = 0 into $0.x).
    assert_eq!(
        run_fragment(&program, &Inputs::default()).unwrap(),
        Output::Color([0.0; 4])
    );
    // The branch goes to the next instruction either way; aimed at the discard (word 6) and
    // taken ($0.x = -1 < $1.y = 0), it kills the fragment. The load put in front shifts the
    // offsets, not the relative target.
    let mut instrs: Vec<Instr> = polyasm_lima::decode::decode(&words)
        .unwrap()
        .iter()
        .map(|d| d.instr)
        .collect();
    let Some(Branch::Jump { target, .. }) = &mut instrs[0].branch else {
        panic!("vector E starts with a branch")
    };
    assert_eq!(*target, 4);
    *target = 6;
    instrs.insert(0, load_reg(0, 0));
    let taken = with_uniforms(&[[-1.0, 0.0, 0.0, 0.0]]);
    assert_eq!(run_fragment(&Program::new(&instrs), &taken).unwrap(), Output::Discarded);
    let not_taken = with_uniforms(&[[0.0, 0.0, 0.0, 5.0]]);
    assert_eq!(
        run_fragment(&Program::new(&instrs), &not_taken).unwrap(),
        Output::Color([0.0, 0.0, 0.0, 5.0])
    );
}

/// `$0.x += 1` until it reaches uniform 0's x: a loop with a backward conditional branch.
fn counting_loop(limit: f32, max_steps: u64) -> Result<Output, polyasm_lima::exec::RunError> {
    let one = 0x3C00;
    let body = Instr {
        float_acc: Some(facc(AccOp::Add, Some(0), s(0, 0), Some(s(REG_CONST0, 0)))),
        const0: Some([one, 0, 0, 0]),
        ..Instr::default()
    };
    let count = body.count() as i32;
    let test = Instr {
        load: Some(uniform(0)),
        vec4_mul: Some(mov(1, v(REG_UNIFORM))),
        branch: Some(Branch::Jump {
            cond: BranchCond::Lt,
            arg0: 0,
            arg1: 4,
            target: -count,
        }),
        ..Instr::default()
    };
    let program = [body, test, stop(Instr::default())];
    let inputs = Inputs {
        max_steps,
        ..with_uniforms(&[[limit, 0.0, 0.0, 0.0]])
    };
    run_fragment(&Program::new(&program), &inputs)
}

#[test]
fn a_backward_branch_loops_until_its_condition_fails() {
    assert_eq!(counting_loop(5.0, 1000).unwrap(), Output::Color([5.0, 0.0, 0.0, 0.0]));
    assert_eq!(counting_loop(-3.0, 1000).unwrap(), Output::Color([1.0, 0.0, 0.0, 0.0]));
}

#[test]
fn a_loop_is_ended_by_the_step_limit() {
    let error = counting_loop(f32::INFINITY, 500).unwrap_err();
    assert_eq!(error.code(), "PP300");
    assert_eq!(error.kind, RunErrorKind::StepLimit { limit: 500 });
    // 250 rounds of two instructions; the next would be the body at word 0.
    assert_eq!(error.offset, 0);
    assert!(error.to_string().contains("500 instructions"), "{error}");
    // Exactly enough steps is no error: 5 rounds of 2 and the stop, which follows the body
    // (4 words) and the test (6 words).
    assert!(counting_loop(5.0, 11).is_ok());
    assert_eq!(counting_loop(5.0, 10).unwrap_err().offset, 10);
}

#[test]
fn conditions_compare_two_scalars() {
    for (cond, a, b, taken) in [
        (BranchCond::Lt, 1.0, 2.0, true),
        (BranchCond::Lt, 2.0, 2.0, false),
        (BranchCond::Le, 2.0, 2.0, true),
        (BranchCond::Eq, 2.0, 2.0, true),
        (BranchCond::Gt, 3.0, 2.0, true),
        (BranchCond::Ge, 1.0, 2.0, false),
        (BranchCond::Ne, 1.0, 2.0, true),
        (BranchCond::Ne, f32::NAN, f32::NAN, false),
        (BranchCond::Never, 1.0, 2.0, false),
        (BranchCond::Always, 0.0, 0.0, true),
    ] {
        let load = load_reg(0, 1);
        let not_taken = stop(load_reg(1, 0));
        let taken_end = stop(load_reg(2, 0));
        let mut branch = Instr {
            branch: Some(Branch::Jump {
                cond,
                arg0: 4,
                arg1: 5,
                target: 0,
            }),
            ..Instr::default()
        };
        let skip = (branch.count() + not_taken.count()) as i32;
        if let Some(Branch::Jump { target, .. }) = &mut branch.branch {
            *target = skip;
        }
        let program = [load, branch, not_taken, taken_end];
        let inputs = with_uniforms(&[[a, b, 0.0, 0.0], [1.0; 4], [2.0; 4]]);
        let expected = if taken { [2.0; 4] } else { [1.0; 4] };
        assert_eq!(color(&program, &inputs), expected, "{cond:?} {a} {b}");
    }
}

#[test]
fn run_time_errors_name_the_instruction() {
    let nowhere = [
        Instr::default(),
        Instr {
            branch: Some(Branch::Jump {
                cond: BranchCond::Always,
                arg0: 0,
                arg1: 0,
                target: 1,
            }),
            ..Instr::default()
        },
    ];
    let error = run_fragment(&Program::new(&nowhere), &Inputs::default()).unwrap_err();
    assert_eq!((error.code(), error.offset), ("PP302", 1));
    assert_eq!(error.kind, RunErrorKind::BadTarget { target: 2 });
    let no_stop = [Instr::default(), Instr::default()];
    let error = run_fragment(&Program::new(&no_stop), &Inputs::default()).unwrap_err();
    assert_eq!((error.code(), error.offset), ("PP303", 1));
    let error = run_fragment(&Program::new(&[]), &Inputs::default()).unwrap_err();
    assert_eq!(error.code(), "PP304");
    let program = Program::from_words(&RELOAD).unwrap();
    let error = run_fragment(&program, &Inputs::default()).unwrap_err();
    assert_eq!(error.code(), "PP301");
    assert_eq!(error.kind, RunErrorKind::NoTexture { sampler: 0 });
    assert_eq!(
        error.to_string(),
        "the instruction at word 0 samples texture 0, which was not given"
    );
}

#[test]
fn offsets_and_coordinates_past_i64_saturate() {
    // A sampler number offset by 3e38: no texture there, and no overflow on the way.
    let sampler = stop(Instr {
        sampler: Some(polyasm_lima::instr::Sampler {
            index: 1,
            offset: Some(4),
            lod_bias: None,
            explicit_lod: false,
            constant_lod_bias: 0,
        }),
        ..Instr::default()
    });
    let program = [load_reg(0, 1), sampler];
    let inputs = with_uniforms(&[[3e38; 4]]);
    let error = run_fragment(&Program::new(&program), &inputs).unwrap_err();
    assert_eq!(error.kind, RunErrorKind::NoTexture { sampler: i64::MAX });
    // A uniform index offset by -3e38 or 3e38 is outside memory, which reads 0.
    let mut load = uniform(0);
    load.offset = Some(4);
    let far = stop(Instr {
        load: Some(load),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    });
    for offset in [-3e38, 3e38] {
        let inputs = with_uniforms(&[[offset; 4]]);
        assert_eq!(color(&[load_reg(0, 1), far], &inputs), [0.0; 4]);
    }
    // Bilinear sampling at the largest coordinates reads the texels at the saturated edge.
    for (s, t) in [(3e38, 3e38), (-3e38, 3e38), (f32::MAX, f32::MIN)] {
        for wrap in [Wrap::Repeat, Wrap::Clamp] {
            let texel = four_texels().sample(s, t, Filter::Linear, wrap);
            assert!(texel.iter().all(|c| (0.0..=1.0).contains(c) || c.is_nan()), "{texel:?}");
        }
    }
}

#[test]
fn varyings_fill_lanes_from_x_by_alignment_and_offset() {
    let fetch = |alignment, index, offset| {
        stop(Instr {
            varying: Some(Varying {
                dest: 0,
                mask: 0xF,
                source: VaryingSource::Fetch {
                    perspective: Perspective::None,
                    fetch: VaryingFetch {
                        alignment,
                        index,
                        offset,
                    },
                },
            }),
            ..Instr::default()
        })
    };
    let inputs = Inputs {
        varyings: vec![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]],
        uniforms: vec![[1.0, 0.0, 0.0, 0.0]],
        ..Inputs::default()
    };
    assert_eq!(
        color(&[fetch(VaryingAlignment::Vec4, 1, None)], &inputs),
        [5.0, 6.0, 7.0, 8.0]
    );
    assert_eq!(
        color(&[fetch(VaryingAlignment::Vec2, 3, None)], &inputs),
        [7.0, 8.0, 0.0, 0.0]
    );
    assert_eq!(
        color(&[fetch(VaryingAlignment::Scalar, 6, None)], &inputs),
        [7.0, 0.0, 0.0, 0.0]
    );
    assert_eq!(color(&[fetch(VaryingAlignment::Vec4, 7, None)], &inputs), [0.0; 4]);
    // 1.y + $1.x (= 1): varying 1.z.
    let program = [load_reg(0, 1), fetch(VaryingAlignment::Scalar, 5, Some(4))];
    assert_eq!(color(&program, &inputs), [7.0, 0.0, 0.0, 0.0]);
}

#[test]
fn varying_register_sources_fragcoord_and_perspective() {
    let unit = |source| {
        stop(Instr {
            varying: Some(Varying {
                dest: 0,
                mask: 0xF,
                source,
            }),
            ..Instr::default()
        })
    };
    let inputs = Inputs {
        varyings: vec![[2.0, 4.0, 8.0, 2.0]],
        frag_coord: [10.5, 20.5, 0.0, 1.0],
        ..with_uniforms(&[[3.0, 0.0, 4.0, 1.0]])
    };
    let fetch = VaryingFetch {
        alignment: VaryingAlignment::Vec4,
        index: 0,
        offset: None,
    };
    let w = VaryingSource::Fetch {
        perspective: Perspective::W,
        fetch,
    };
    assert_eq!(color(&[unit(w)], &inputs), [1.0, 2.0, 4.0, 1.0]);
    let z = VaryingSource::Fetch {
        perspective: Perspective::Z,
        fetch,
    };
    assert_eq!(color(&[unit(z)], &inputs), [0.25, 0.5, 1.0, 0.25]);
    assert_eq!(
        color(&[unit(VaryingSource::FragCoord)], &inputs),
        [10.5, 20.5, 0.0, 1.0]
    );
    assert_eq!(
        color(&[unit(VaryingSource::FrontFacing)], &inputs),
        [1.0, 0.0, 0.0, 0.0]
    );
    let program = [load_reg(0, 1), unit(VaryingSource::Normalize(vs(1, 0xE4)))];
    assert_eq!(color(&program, &inputs), [0.6, 0.0, 0.8, 1.0]);
    let neg = VecSource {
        neg: true,
        ..vs(1, 0x1B)
    };
    let program = [
        load_reg(0, 1),
        unit(VaryingSource::Register {
            perspective: Perspective::None,
            source: neg,
        }),
    ];
    assert_eq!(color(&program, &inputs), [-1.0, -4.0, -0.0, -3.0]);
    // +x face: s = (-z / x + 1) / 2, t = (-y / x + 1) / 2.
    let program = [load_reg(0, 1), unit(VaryingSource::CubeRegister(v(1)))];
    let inputs = with_uniforms(&[[4.0, 2.0, -2.0, 0.0]]);
    assert_eq!(color(&program, &inputs), [0.75, 0.25, 0.0, 1.0]);
}

#[test]
fn uniform_loads_keep_lanes_in_place_and_read_zero_outside() {
    let load = |alignment, index, offset| {
        stop(Instr {
            load: Some(Load {
                source: LoadSource::Uniform,
                alignment,
                index,
                offset,
            }),
            vec4_mul: Some(mov(0, v(REG_UNIFORM))),
            ..Instr::default()
        })
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-2.0, 0.0, 0.0, 0.0]]);
    assert_eq!(color(&[load(Alignment::Vec4, 1, None)], &inputs), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(color(&[load(Alignment::Vec2, 1, None)], &inputs), [0.0, 0.0, 3.0, 4.0]);
    assert_eq!(
        color(&[load(Alignment::Scalar, 6, None)], &inputs),
        [0.0, 0.0, 7.0, 0.0]
    );
    assert_eq!(color(&[load(Alignment::Vec4, 9, None)], &inputs), [0.0; 4]);
    // Index 2 plus $1.x = -2: uniform 0; plus -3 would be below 0 and reads 0.
    let program = [load_reg(2, 1), load(Alignment::Vec4, 2, Some(4))];
    assert_eq!(color(&program, &inputs), [1.0, 2.0, 3.0, 4.0]);
    let program = [load_reg(2, 1), load(Alignment::Vec4, 1, Some(4))];
    assert_eq!(color(&program, &inputs), [0.0; 4]);
}

#[test]
fn temporaries_are_stored_and_loaded_back() {
    let store = |alignment, index, source| Instr {
        store: Some(Store::Temp {
            alignment,
            index,
            offset: None,
            source,
        }),
        ..Instr::default()
    };
    let load_t = |alignment, index| Instr {
        load: Some(Load {
            source: LoadSource::Temporary,
            alignment,
            index,
            offset: None,
        }),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0]]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec4, 5, 4),
        store(Alignment::Scalar, 20 * 4 + 2, 4 + 3),
        store(Alignment::Vec2, 2 * 30 + 1, 4),
        load_t(Alignment::Vec4, 5),
        stop(Instr {
            vec4_acc: Some(vacc(AccOp::Mov, all(2), v(0), None)),
            ..load_t(Alignment::Vec4, 20)
        }),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 4.0, 0.0]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec2, 2 * 30 + 1, 4),
        stop(load_t(Alignment::Vec4, 30)),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 3.0, 4.0]);
    let program = [
        load_reg(0, 1),
        store(Alignment::Vec4, 5, 4),
        stop(load_t(Alignment::Vec4, 5)),
    ];
    assert_eq!(color(&program, &inputs), [1.0, 2.0, 3.0, 4.0]);
    // A temporary never written reads 0.
    assert_eq!(color(&[stop(load_t(Alignment::Vec4, 9))], &inputs), [0.0; 4]);
}

#[test]
fn store_alignment_3_writes_the_lane_the_index_names_and_load_sources_1_and_2_read_zero() {
    let load = |source, index| {
        stop(Instr {
            load: Some(Load {
                source,
                alignment: Alignment::Vec4,
                index,
                offset: None,
            }),
            vec4_mul: Some(mov(0, v(REG_UNIFORM))),
            ..Instr::default()
        })
    };
    let inputs = with_uniforms(&[[1.0, 2.0, 3.0, 4.0]]);
    // $1 = (1, 2, 3, 4); `store.t 7.z $1` (alignment 3) writes $1.z to temporary 7.z only.
    let program = [
        load_reg(0, 1),
        Instr {
            store: Some(Store::Temp {
                alignment: Alignment::Reserved,
                index: 7 * 4 + 2,
                offset: None,
                source: 4,
            }),
            ..Instr::default()
        },
        load(LoadSource::Temporary, 7),
    ];
    assert_eq!(color(&program, &inputs), [0.0, 0.0, 3.0, 0.0]);
    assert_eq!(color(&[load(LoadSource::Uniform, 0)], &inputs), [1.0, 2.0, 3.0, 4.0]);
    for source in [LoadSource::Source1, LoadSource::Source2] {
        assert_eq!(color(&[load(source, 0)], &inputs), [0.0; 4], "{source:?}");
    }
}

#[test]
fn temporaries_start_at_zero_in_every_pixel() {
    // Each pixel reads temporary 65535 and then stores its u there: every pixel sees 0 first,
    // whatever the fragment before it in the same quad position stored.
    let fetch = Instr {
        varying: Some(Varying {
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
        }),
        load: Some(Load {
            source: LoadSource::Temporary,
            alignment: Alignment::Vec4,
            index: u16::MAX,
            offset: None,
        }),
        vec4_mul: Some(mov(0, v(REG_UNIFORM))),
        ..Instr::default()
    };
    let store = Instr {
        store: Some(Store::Temp {
            alignment: Alignment::Vec4,
            index: u16::MAX,
            offset: None,
            source: 4,
        }),
        ..Instr::default()
    };
    let program = Program::new(&[fetch, stop(store)]);
    let image = render(&program, &Inputs::default(), 8, 4).unwrap();
    assert!(image.rgba.iter().all(|&b| b == 0));
}

#[test]
fn framebuffer_reads_give_the_current_colour_and_depth() {
    // Vector D: fb_color $2 / fb_depth $3, stop; then copy both into $0.
    let program = [
        Instr {
            store: Some(Store::FbRead {
                read: FbRead::Color,
                dest: 2,
            }),
            ..Instr::default()
        },
        Instr {
            store: Some(Store::FbRead {
                read: FbRead::Depth,
                dest: 3,
            }),
            ..Instr::default()
        },
        stop(Instr {
            vec4_mul: Some(mov(0, v(2))),
            float_mul: Some(fmul(MulOp::Mov, Some(3), s(3, 0), None)),
            ..Instr::default()
        }),
    ];
    let inputs = Inputs {
        fb_color: [0.25, 0.5, 0.75, 1.0],
        fb_depth: 0.125,
        ..Inputs::default()
    };
    assert_eq!(color(&program, &inputs), [0.25, 0.5, 0.75, 0.125]);
    assert_eq!(color(&program, &Inputs::default()), [0.0; 4]);
}

/// A 2x2 texture: red, green on the top row; blue, white on the bottom.
fn four_texels() -> Texture {
    let rgba = [
        255, 0, 0, 255, 0, 255, 0, 255, //
        0, 0, 255, 255, 255, 255, 255, 255,
    ];
    Texture::from_rgba8(2, 2, &rgba).unwrap()
}

fn reload_at(u: f32, v: f32, filter: Filter, wrap: Wrap) -> Vec4 {
    let program = Program::from_words(&RELOAD).unwrap();
    let inputs = Inputs {
        varyings: vec![[u, v, 0.0, 0.0]],
        textures: vec![Some(four_texels())],
        filter,
        wrap,
        ..Inputs::default()
    };
    match run_fragment(&program, &inputs).unwrap() {
        Output::Color(c) => c,
        Output::Discarded => panic!("discarded"),
    }
}

#[test]
fn mesa_reload_program_samples_at_the_varying() {
    let (n, l) = (Filter::Nearest, Filter::Linear);
    assert_eq!(reload_at(0.25, 0.25, n, Wrap::Repeat), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.75, 0.75, n, Wrap::Repeat), [0.0, 1.0, 0.0, 1.0]);
    assert_eq!(reload_at(0.25, 0.75, l, Wrap::Repeat), [1.0, 0.0, 0.0, 1.0]);
    // The centre of the texture is the average of the four texels.
    assert_eq!(reload_at(0.5, 0.5, l, Wrap::Repeat), [0.5, 0.5, 0.5, 1.0]);
    // Repeat and clamp outside [0, 1].
    assert_eq!(reload_at(1.25, -0.75, n, Wrap::Repeat), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(1.25, -0.75, n, Wrap::Clamp), [1.0, 1.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.0, 0.25, l, Wrap::Clamp), [0.0, 0.0, 1.0, 1.0]);
    assert_eq!(reload_at(0.0, 0.25, l, Wrap::Repeat), [0.5, 0.5, 1.0, 1.0]);
}

fn test_picture(width: u32, height: u32) -> Vec<u8> {
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

#[test]
fn the_reload_program_renders_a_copy_of_its_texture() {
    let program = Program::from_words(&RELOAD).unwrap();
    for (width, height) in [(7, 5), (8, 6), (1, 1), (33, 2)] {
        let source = test_picture(width, height);
        for filter in [Filter::Nearest, Filter::Linear] {
            let inputs = Inputs {
                textures: vec![Some(Texture::from_rgba8(width, height, &source).unwrap())],
                filter,
                ..Inputs::default()
            };
            let image = render(&program, &inputs, width, height).unwrap();
            assert_eq!((image.width, image.height), (width, height));
            assert!(image.rgba == source, "{width}x{height} {filter:?}");
        }
    }
}

/// `$0 = (u, v, 0, 1)` from varying 0, then `last` (with stop).
fn render_uv_then(last: Instr, width: u32, height: u32) -> Image {
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    render(&Program::new(&[fetch, stop(last)]), &Inputs::default(), width, height).unwrap()
}

#[test]
fn rendering_gives_each_pixel_its_centre_with_v_up() {
    let image = render_uv_then(Instr::default(), 4, 2);
    // Row 0 of the picture is the top: v = 0.75.
    assert_eq!(image.pixel(0, 0), [32, 191, 0, 255]);
    assert_eq!(image.pixel(3, 1), [223, 64, 0, 255]);
}

#[test]
fn derivatives_are_taken_over_2x2_quads() {
    // $0 = (dFdx(u), dFdy(v), dFdx(v), 1): right - left and top - bottom of each quad.
    let last = Instr {
        vec4_acc: Some(vacc(
            AccOp::Dfdx,
            Some(VecDest { reg: 0, mask: 0b0101 }),
            vs(0, 0b01_01_01_00),
            Some(v(0)),
        )),
        float_acc: Some(facc(AccOp::Dfdy, Some(1), s(0, 1), Some(s(0, 1)))),
        sync: true,
        ..Instr::default()
    };
    for (width, height) in [(2, 4), (4, 8), (3, 3)] {
        let image = render_uv_then(last, width, height);
        let du = (1.0 / width as f32 * 255.0).round() as u8;
        let dv = (1.0 / height as f32 * 255.0).round() as u8;
        for y in 0..height {
            for x in 0..width {
                assert_eq!(image.pixel(x, y), [du, dv, 0, 255], "{width}x{height} at {x}, {y}");
            }
        }
    }
}

#[test]
fn discarded_pixels_are_transparent_black() {
    // Discard the left half: branch.lt u 0.5 over the stop to a discard.
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    let half = 0x3800;
    let branch = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Lt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target: 0,
        }),
        const0: Some([half, 0, 0, 0]),
        ..Instr::default()
    };
    let target = branch.count() as i32 + 1;
    let branch = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Lt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target,
        }),
        ..branch
    };
    let discard = Instr {
        branch: Some(Branch::Discard),
        stop: true,
        ..Instr::default()
    };
    let program = Program::new(&[fetch, branch, stop(Instr::default()), discard]);
    let image = render(&program, &Inputs::default(), 4, 1).unwrap();
    assert_eq!(image.pixel(0, 0), [0; 4]);
    assert_eq!(image.pixel(1, 0), [0; 4]);
    assert_eq!(image.pixel(2, 0), [159, 128, 0, 255]);
    assert_eq!(image.pixel(3, 0), [223, 128, 0, 255]);
}

#[test]
fn a_rendering_error_names_the_lowest_failing_pixel() {
    // Loops forever where u > 0.5 (the right half).
    let fetch = Instr {
        varying: Some(Varying {
            dest: 0,
            mask: 0xF,
            source: VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 0,
                    offset: None,
                },
            },
        }),
        ..Instr::default()
    };
    let spin = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Gt,
            arg0: 0,
            arg1: REG_CONST0 * 4,
            target: 0,
        }),
        const0: Some([0x3800, 0, 0, 0]),
        ..Instr::default()
    };
    let spin_offset = fetch.count() as usize;
    let program = Program::new(&[fetch, spin, stop(Instr::default())]);
    let inputs = Inputs {
        max_steps: 50,
        ..Inputs::default()
    };
    // The quad of pixels 2 and 3 is the first with a pixel right of the middle.
    let error = render(&program, &inputs, 6, 6).unwrap_err();
    assert_eq!(error.code(), "PP300");
    assert_eq!(error.offset, spin_offset);
    assert_eq!(error.pixel, Some((3, 0)));
    assert!(
        error.to_string().ends_with("(pixel 3, 0 from the bottom left)"),
        "{error}"
    );
}

#[test]
fn encoded_words_run_like_the_model() {
    let program = [load_reg(0, 1), stop(load_reg(1, 0))];
    let inputs = with_uniforms(&[[1.0; 4], [2.0; 4]]);
    let from_words = Program::from_words(&encode(&program)).unwrap();
    assert_eq!(
        run_fragment(&from_words, &inputs).unwrap(),
        run_fragment(&Program::new(&program), &inputs).unwrap()
    );
}

/// Runs `words` through `run_object` with the options given; (the outcome's value, what was
/// written, the diagnostics' codes and messages).
fn run_words(words: &[u32], pairs: &[(&'static str, &str)]) -> (Option<u8>, Vec<u8>, Vec<(String, String)>) {
    let options = TargetOptions {
        values: OptionValues::read(&[polyasm_lima::run::RUN_OPTIONS], pairs).expect("good values"),
        ..TargetOptions::default()
    };
    let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
    let mut io = RunIo {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        files: None,
    };
    let outcome = run_object(&Object::from_words(words), &options, &mut io).expect("no usage error");
    let diagnostics = outcome
        .diagnostics
        .iter()
        .map(|d| (d.code.to_string(), d.message.clone()))
        .collect();
    (outcome.value.map(|s| s.0), stdout, diagnostics)
}

fn png_file(dir: &std::path::Path, name: &str, width: u32, height: u32, rgba: &[u8]) -> String {
    let path = dir.join(name);
    let image = Image {
        width,
        height,
        rgba: rgba.to_vec(),
    };
    let file = std::fs::File::create(&path).unwrap();
    image.write_png(std::io::BufWriter::new(file)).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn run_object_prints_the_fragment_colour() {
    let (status, out, diagnostics) = run_words(&CLEAR, &[]);
    assert_eq!((status, diagnostics.len()), (Some(0), 0));
    assert_eq!(String::from_utf8(out).unwrap(), "$0 = (1, 1, 1, 1)\n");
    // Vector C with a varying and a uniform from the options.
    let words = [
        0x02180685, 0xf1003c60, 0x00002000, 0x9e720800, 0x0000791c, 0x02202803, 0x00000908, 0x1012c280, 0x00004424,
        0x00000e42, 0x580007ce, 0x00000000,
    ];
    let (_, out, _) = run_words(&words, &[("varying", "0=1,2,3,4"), ("uniform", "0=2,3,0.5,0.25")]);
    assert_eq!(String::from_utf8(out).unwrap(), "$0 = (0.074074075, 6, 1.5, 13.5)\n");
}

#[test]
fn run_object_renders_the_reload_program_as_a_copy_of_the_texture() {
    let dir = tempfile::tempdir().unwrap();
    let source = test_picture(9, 7);
    let texture = png_file(dir.path(), "t.png", 9, 7, &source);
    for filter in ["nearest", "linear"] {
        let (status, out, diagnostics) = run_words(
            &RELOAD,
            &[
                ("texture", &format!("0={texture}")),
                ("size", "9x7"),
                ("filter", filter),
            ],
        );
        assert_eq!((status, diagnostics), (Some(0), vec![]));
        assert_eq!(
            decode_png(&out).unwrap(),
            Texture::from_rgba8(9, 7, &source).unwrap(),
            "{filter}"
        );
    }
    // One fragment in texel (1, 1) from the bottom left.
    let (_, out, _) = run_words(
        &RELOAD,
        &[
            ("texture", &format!("0={texture}")),
            ("varying", "0=0.17,0.2"),
            ("filter", "nearest"),
        ],
    );
    let [r, g, b, a] = {
        let at = (5 * 9 + 1) * 4;
        [0, 1, 2, 3].map(|i| f32::from(source[at + i]) / 255.0)
    };
    assert_eq!(String::from_utf8(out).unwrap(), format!("$0 = ({r}, {g}, {b}, {a})\n"));
}

#[test]
fn grey_and_palette_pictures_are_read_as_rgba() {
    let mut grey = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut grey, 2, 1);
        encoder.set_color(png::ColorType::GrayscaleAlpha);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[10, 20, 30, 40]).unwrap();
    }
    assert_eq!(
        decode_png(&grey).unwrap(),
        Texture::from_rgba8(2, 1, &[10, 10, 10, 20, 30, 30, 30, 40]).unwrap()
    );
    let mut indexed = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut indexed, 2, 1);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(vec![1, 2, 3, 4, 5, 6]);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[1, 0]).unwrap();
    }
    assert_eq!(
        decode_png(&indexed).unwrap(),
        Texture::from_rgba8(2, 1, &[4, 5, 6, 255, 1, 2, 3, 255]).unwrap()
    );
}

#[test]
fn run_object_reports_errors_with_codes() {
    let dir = tempfile::tempdir().unwrap();
    let (status, out, diagnostics) = run_words(&RELOAD, &[]);
    assert_eq!((status, out.len()), (None, 0));
    assert_eq!(diagnostics[0].0, "PP301");
    let missing = dir.path().join("missing.png");
    let (status, _, diagnostics) = run_words(&RELOAD, &[("texture", &format!("0={}", missing.display()))]);
    assert_eq!(status, None);
    assert_eq!(diagnostics[0].0, "PP305");
    assert!(
        diagnostics[0].1.starts_with("cannot read texture 0 from `"),
        "{}",
        diagnostics[0].1
    );
    let not_png = dir.path().join("a.png");
    std::fs::write(&not_png, "hello").unwrap();
    let (_, _, diagnostics) = run_words(&RELOAD, &[("texture", &format!("0={}", not_png.display()))]);
    assert_eq!(diagnostics[0].0, "PP305");
    assert!(diagnostics[0].1.contains("not a valid PNG"), "{}", diagnostics[0].1);
    let (_, _, diagnostics) = run_words(&[0, 1], &[]);
    assert_eq!(diagnostics[0].0, "PP200");
    // A loop: branch to itself forever.
    let spin = [Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Always,
            arg0: 0,
            arg1: 0,
            target: 0,
        }),
        ..Instr::default()
    }];
    let (status, _, diagnostics) = run_words(&encode(&spin), &[("max-steps", "20")]);
    assert_eq!(status, None);
    assert_eq!(
        diagnostics,
        vec![(
            "PP300".to_string(),
            "the fragment ran 20 instructions without reaching `stop`; the next is at word 0".to_string()
        )]
    );
    let (_, _, diagnostics) = run_words(&encode(&spin), &[("max-steps", "20"), ("size", "2x2")]);
    assert_eq!(diagnostics[0].0, "PP300");
    assert!(diagnostics[0].1.ends_with("(pixel 0, 0 from the bottom left)"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_valid_program_runs_or_fails_without_panicking(program in polyasm_lima::testing::program(6)) {
        let inputs = Inputs {
            varyings: vec![[0.5, 0.25, 1.0, 1.0]; 4],
            uniforms: vec![[1.0, -2.0, 0.5, 3.0]; 4],
            textures: vec![Some(four_texels())],
            max_steps: 64,
            ..Inputs::default()
        };
        let program = Program::new(&program);
        if let Err(error) = run_fragment(&program, &inputs) {
            prop_assert!(error.code().starts_with("PP3"));
        }
        if let Err(error) = render(&program, &inputs, 3, 3) {
            prop_assert!(error.pixel.is_some() || error.code() == "PP304");
        }
    }
}
