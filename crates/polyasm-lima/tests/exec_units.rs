//! The emulator's units: every opcode against values computed by hand, source and output
//! modifiers, write masks, the pipeline order inside one instruction, the constants, and
//! Mesa's clear program.

mod common;

use common::exec::*;
use polyasm_lima::exec::{Inputs, Output, Program, render, run_fragment};
use polyasm_lima::instr::{Combine, CombineDest, FloatAcc, Instr, ScalarSource, VecAcc, VecDest, VecMul, VecSource};
use polyasm_lima::ops::{AccOp, CombineOp, MulOp, OutMod, REG_CONST0, REG_TEXTURE, REG_UNIFORM};

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
