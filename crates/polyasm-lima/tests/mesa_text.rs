//! The printer's quirks, one instruction at a time, on instructions built from the model: each
//! prints Mesa's text and survives encoding.

use polyasm_lima::decode::decode;
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::*;
use polyasm_lima::ops::*;
use polyasm_lima::syntax::mesa::{format_half, print_instr};

fn vs(reg: u8, swizzle: u8) -> VecSource {
    VecSource {
        reg,
        swizzle,
        abs: false,
        neg: false,
    }
}

fn ss(reg: u8) -> ScalarSource {
    ScalarSource {
        reg,
        abs: false,
        neg: false,
    }
}

/// `$r.c` as a scalar register number.
fn sr(reg: u8, component: u8) -> u8 {
    reg * 4 + component
}

const XYZW: u8 = SWIZZLE_IDENTITY;

/// Prints `instr` at `offset`, compares, and checks that it encodes and decodes unchanged.
fn prints(instr: Instr, offset: usize, text: &str) {
    assert_eq!(print_instr(&instr, offset), text);
    let words = encode(&[instr]);
    let decoded = decode(&words).expect("encoded words");
    assert_eq!(decoded[0].instr, instr);
    assert!(decoded[0].lost.is_empty());
}

fn mov_v0(dest: u8, arg0: VecSource) -> VecMul {
    VecMul {
        op: MulOp::Mov,
        shift: 0,
        outmod: OutMod::None,
        dest: Some(VecDest { reg: dest, mask: 0xF }),
        arg0,
        arg1: None,
    }
}

#[test]
fn a_lone_one_source_vector_op_ends_the_line_with_a_space() {
    let instr = Instr {
        vec4_mul: Some(mov_v0(0, vs(1, XYZW))),
        ..Instr::default()
    };
    prints(instr, 0, "mov.v0 $0 $1 ");
    let not = Instr {
        vec4_mul: Some(VecMul {
            op: MulOp::Not,
            dest: None,
            ..mov_v0(0, vs(2, 0x1B))
        }),
        stop: true,
        ..Instr::default()
    };
    prints(not, 0, "not.v0 $2.wzyx , stop");
}

#[test]
fn shifts_follow_the_closing_parenthesis_and_print_raw() {
    let mul = VecMul {
        op: MulOp::Mul,
        shift: -2,
        outmod: OutMod::Int,
        dest: Some(VecDest { reg: 4, mask: 0xF }),
        arg0: VecSource {
            abs: true,
            ..vs(5, XYZW)
        },
        arg1: Some(vs(0, XYZW)),
    };
    prints(
        Instr {
            vec4_mul: Some(mul),
            ..Instr::default()
        },
        0,
        "mul.int.v0 $4 abs($5)<<6 $0",
    );
    let fmul = FloatMul {
        op: MulOp::Mul,
        shift: -4,
        outmod: OutMod::Int,
        dest: None,
        arg0: ss(sr(3, 3)),
        arg1: Some(ss(sr(4, 0))),
    };
    prints(
        Instr {
            float_mul: Some(fmul),
            ..Instr::default()
        },
        0,
        "mul.int.s0 $3.w<<4 $4.x",
    );
    let fmov = FloatMul {
        op: MulOp::Mov,
        shift: 0,
        outmod: OutMod::Sat,
        dest: Some(sr(1, 0)),
        arg0: ScalarSource {
            abs: true,
            ..ss(sr(REG_CONST0, 3))
        },
        arg1: None,
    };
    prints(
        Instr {
            float_mul: Some(fmov),
            const0: Some([0; 4]),
            ..Instr::default()
        },
        0,
        "mov.sat.s0 $1.x abs(^const0.w), const0 0.000000 0.000000 0.000000 0.000000",
    );
}

#[test]
fn adders_print_the_multipliers_results_as_pipeline_registers() {
    let acc = VecAcc {
        op: AccOp::Add,
        outmod: OutMod::None,
        dest: Some(VecDest { reg: 1, mask: 0b0011 }),
        mul_in: true,
        arg0: VecSource {
            neg: true,
            ..vs(0, 0x50)
        },
        arg1: Some(vs(3, XYZW)),
    };
    let facc = FloatAcc {
        op: AccOp::Gt,
        outmod: OutMod::None,
        dest: Some(sr(2, 2)),
        mul_in: true,
        arg0: ScalarSource { neg: true, ..ss(0) },
        arg1: Some(ss(sr(3, 1))),
    };
    prints(
        Instr {
            vec4_acc: Some(acc),
            float_acc: Some(facc),
            ..Instr::default()
        },
        0,
        "add.v1 $1.xy -^v0.xxyy $3, gt.s1 $2.z -^s0 $3.y",
    );
}

#[test]
fn the_complex_unit_prints_its_three_forms() {
    let atan2 = Combine::Scalar {
        op: CombineOp::Atan2,
        dest: CombineDest::Vector(VecDest { reg: 0, mask: 0b0010 }),
        arg0: ScalarSource {
            abs: true,
            ..ss(sr(1, 3))
        },
        arg1: Some(ScalarSource {
            neg: true,
            ..ss(sr(2, 0))
        }),
    };
    prints(
        Instr {
            combine: Some(atan2),
            ..Instr::default()
        },
        0,
        "atan2.s2 $0.y abs($1.w) -$2.x",
    );
    let pt2 = Combine::AtanPt2 {
        dest: sr(0, 3),
        outmod: OutMod::Sat,
        arg: 5,
        swizzle: 0b11_00_01_01,
    };
    prints(
        Instr {
            combine: Some(pt2),
            ..Instr::default()
        },
        0,
        "atan_pt2.s2 .sat$0.w $5.yyxw",
    );
    let pt2_plain = Combine::AtanPt2 {
        dest: sr(1, 1),
        outmod: OutMod::None,
        arg: 1,
        swizzle: 0b00_00_11_00,
    };
    prints(
        Instr {
            combine: Some(pt2_plain),
            ..Instr::default()
        },
        0,
        "atan_pt2.s2 $1.y $1.xwxx",
    );
}

#[test]
fn samplers_print_the_bias_in_hex_and_the_registers() {
    let biased = Sampler {
        index: 7,
        offset: None,
        lod_bias: Some(sr(5, 1)),
        explicit_lod: false,
        constant_lod_bias: -14,
    };
    prints(
        Instr {
            sampler: Some(biased),
            ..Instr::default()
        },
        0,
        "texld.b bias1f2 7 $5.y",
    );
    let offset = Sampler {
        index: 0,
        offset: Some(0),
        lod_bias: None,
        explicit_lod: false,
        constant_lod_bias: 16,
    };
    prints(
        Instr {
            sampler: Some(offset),
            ..Instr::default()
        },
        0,
        "texld bias010 0+$0.x",
    );
    // An explicit LOD prints like a register bias: the model keeps it all the same.
    let lod = Sampler {
        explicit_lod: true,
        ..biased
    };
    prints(
        Instr {
            sampler: Some(lod),
            ..Instr::default()
        },
        0,
        "texld.b bias1f2 7 $5.y",
    );
}

#[test]
fn varyings_print_every_source_kind() {
    let cases = [
        (
            VaryingSource::Fetch {
                perspective: Perspective::None,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Vec4,
                    index: 6,
                    offset: Some(sr(5, 2)),
                },
            },
            "load.v $0 6+$5.z",
        ),
        (
            VaryingSource::Fetch {
                perspective: Perspective::Z,
                fetch: VaryingFetch {
                    alignment: VaryingAlignment::Scalar,
                    index: 31,
                    offset: None,
                },
            },
            "load.perspective.z.v $0 7.w",
        ),
        (
            VaryingSource::Register {
                perspective: Perspective::None,
                source: VecSource {
                    neg: true,
                    ..vs(5, 0b10_00_00_10)
                },
            },
            "load.v $0 -$5.zxxz",
        ),
        (
            VaryingSource::Cube(VaryingFetch {
                alignment: VaryingAlignment::Vec4,
                index: 2,
                offset: None,
            }),
            "load.v $0 cube(2)",
        ),
        (VaryingSource::CubeRegister(vs(3, XYZW)), "load.v $0 cube($3)"),
        (
            VaryingSource::Normalize(VecSource {
                abs: true,
                ..vs(2, XYZW)
            }),
            "load.v $0 normalize(abs($2))",
        ),
    ];
    for (source, text) in cases {
        let instr = Instr {
            varying: Some(Varying {
                dest: 0,
                mask: 0xF,
                source,
            }),
            ..Instr::default()
        };
        prints(instr, 0, text);
    }
}

#[test]
fn loads_and_stores_print_signed_indices_and_offsets() {
    let load = |source, alignment, index, offset| Instr {
        load: Some(Load {
            source,
            alignment,
            index,
            offset,
        }),
        ..Instr::default()
    };
    prints(
        load(LoadSource::Temporary, Alignment::Scalar, 143, Some(sr(4, 3))),
        0,
        "load.t 35.w+$4.w",
    );
    prints(load(LoadSource::Uniform, Alignment::Vec4, 0xFFFF, None), 0, "load.u -1");
    prints(load(LoadSource::Uniform, Alignment::Vec2, 5, None), 0, "load.u 2.zw");
    let store = Store::Temp {
        alignment: Alignment::Vec2,
        index: 190,
        offset: Some(sr(5, 1)),
        source: sr(4, 0),
    };
    prints(
        Instr {
            store: Some(store),
            ..Instr::default()
        },
        0,
        "store.t 95.xy+$5.y $4",
    );
}

#[test]
fn branch_targets_print_as_absolute_offsets() {
    let branch = |cond, arg0, arg1, target| Instr {
        branch: Some(Branch::Jump {
            cond,
            arg0,
            arg1,
            target,
        }),
        ..Instr::default()
    };
    prints(
        branch(BranchCond::Ge, sr(2, 0), sr(5, 0), 28),
        12,
        "branch.ge $2.x $5.x 40",
    );
    prints(branch(BranchCond::Always, 0, 0, 16), 0, "branch 16");
    prints(
        branch(BranchCond::Never, sr(3, 1), sr(1, 3), -4),
        72,
        "branch.nv $3.y $1.w 68",
    );
}

#[test]
fn a_branch_to_an_instruction_records_its_length() {
    // branch +4 over a 4-word instruction to a 2-word one: bits 68..72 hold 2, as in vector E.
    let program = [
        Instr {
            branch: Some(Branch::Jump {
                cond: BranchCond::Lt,
                arg0: 0,
                arg1: 5,
                target: 4,
            }),
            ..Instr::default()
        },
        Instr {
            float_mul: Some(FloatMul {
                op: MulOp::Mov,
                shift: 0,
                outmod: OutMod::None,
                dest: Some(0),
                arg0: ss(4),
                arg1: None,
            }),
            stop: true,
            ..Instr::default()
        },
    ];
    let words = encode(&program);
    assert_eq!(words[3] >> 4 & 0x1f, 2);
    // A target where no instruction starts gets 0.
    let mut off = program;
    off[0].branch = Some(Branch::Jump {
        cond: BranchCond::Lt,
        arg0: 0,
        arg1: 5,
        target: 3,
    });
    assert_eq!(encode(&off)[3] >> 4 & 0x1f, 0);
}

#[test]
fn halves_print_like_printf() {
    assert_eq!(format_half(0x3C00), "1.000000");
    assert_eq!(format_half(0x0000), "0.000000");
    assert_eq!(format_half(0x8000), "-0.000000");
    assert_eq!(format_half(0xBEB6), "-1.677734");
    assert_eq!(format_half(0x7BFF), "65504.000000");
    assert_eq!(format_half(0x0001), "0.000000");
    assert_eq!(format_half(0x8001), "-0.000000");
    // 2^-7 = 0.0078125: a tie, rounded to even.
    assert_eq!(format_half(0x2000), "0.007812");
    // 3 * 2^-7 = 0.0234375: a tie, rounded to even (up).
    assert_eq!(format_half(0x2600), "0.023438");
    // 2^-14, the smallest normal: 0.00006103515625.
    assert_eq!(format_half(0x0400), "0.000061");
    assert_eq!(format_half(0x7C00), "inf");
    assert_eq!(format_half(0xFC00), "-inf");
    assert_eq!(format_half(0x7E00), "nan");
    assert_eq!(format_half(0xFE00), "-nan");
}

#[test]
fn every_finite_half_prints_its_exact_value_rounded() {
    // The exact value with 30 decimals, cut to 6 with round-half-even by hand.
    for bits in 0..0x7C00u16 {
        let value = f64::from(bits & 0x3ff | if bits >> 10 != 0 { 0x400 } else { 0 })
            * 2f64.powi(i32::from((bits >> 10).max(1)) - 25);
        let text = format_half(bits);
        let printed: f64 = text.parse().expect("a decimal number");
        assert!(
            (printed - value).abs() <= 0.5e-6 + 1e-12,
            "{bits:#06x}: {text} vs {value}"
        );
    }
}
