//! Proptest strategies for valid instructions and programs: every unit, opcode, form and
//! modifier, with the model's conventions (no second source for one-source ops, shift 0 except
//! for `mul`, register 0 under `mul_in`, ...), so that `decode(encode(p)) == p`.

use proptest::prelude::*;

use polyasm_lima::instr::{
    Branch, Combine, CombineDest, FloatAcc, FloatMul, Instr, Load, Sampler, ScalarSource, Store, Varying, VaryingFetch,
    VaryingSource, VecAcc, VecDest, VecMul, VecSource,
};
use polyasm_lima::ops::{
    ACC_OPS, ALIGNMENTS, AccOp, Alignment, BRANCH_CONDS, BranchCond, COMBINE_OPS, FB_READS, LOAD_SOURCES, MUL_OPS,
    MulOp, OUTMODS, OutMod, PERSPECTIVES, Perspective, VARYING_ALIGNMENTS,
};

fn pick<T: Copy + std::fmt::Debug + 'static>(values: Vec<T>) -> impl Strategy<Value = T> + Clone {
    proptest::sample::select(values)
}

/// Any output modifier.
pub fn outmod() -> impl Strategy<Value = OutMod> + Clone {
    pick(OUTMODS.iter().map(|r| r.value).collect())
}

fn perspective() -> impl Strategy<Value = Perspective> + Clone {
    pick(PERSPECTIVES.iter().map(|r| r.value).collect())
}

/// Any vec4 source: every register, swizzle and modifier.
pub fn vec_source() -> impl Strategy<Value = VecSource> + Clone {
    (0..16u8, any::<u8>(), any::<bool>(), any::<bool>()).prop_map(|(reg, swizzle, abs, neg)| VecSource {
        reg,
        swizzle,
        abs,
        neg,
    })
}

/// Any scalar source.
pub fn scalar_source() -> impl Strategy<Value = ScalarSource> + Clone {
    (0..64u8, any::<bool>(), any::<bool>()).prop_map(|(reg, abs, neg)| ScalarSource { reg, abs, neg })
}

/// A vec4 destination with a nonzero mask.
pub fn vec_dest() -> impl Strategy<Value = VecDest> + Clone {
    (0..16u8, 1..16u8).prop_map(|(reg, mask)| VecDest { reg, mask })
}

fn offset_register() -> impl Strategy<Value = Option<u8>> + Clone {
    // 60..63 share vec4 number 15 with "no offset".
    proptest::option::of(0..60u8)
}

fn fetch() -> impl Strategy<Value = VaryingFetch> + Clone {
    (
        pick(VARYING_ALIGNMENTS.iter().map(|r| r.value).collect()),
        0..64u8,
        offset_register(),
    )
        .prop_map(|(alignment, index, offset)| VaryingFetch {
            alignment,
            index,
            offset,
        })
}

/// Any varying fetch, of every source kind.
pub fn varying() -> impl Strategy<Value = Varying> + Clone {
    let source = prop_oneof![
        (perspective(), fetch()).prop_map(|(perspective, fetch)| VaryingSource::Fetch { perspective, fetch }),
        (perspective(), vec_source()).prop_map(|(perspective, source)| VaryingSource::Register { perspective, source }),
        fetch().prop_map(VaryingSource::Cube),
        vec_source().prop_map(VaryingSource::CubeRegister),
        vec_source().prop_map(VaryingSource::Normalize),
        Just(VaryingSource::FragCoord),
        Just(VaryingSource::PointCoord),
        Just(VaryingSource::FrontFacing),
    ];
    (0..16u8, 0..16u8, source).prop_map(|(dest, mask, source)| Varying { dest, mask, source })
}

/// Any texture fetch.
pub fn sampler() -> impl Strategy<Value = Sampler> + Clone {
    (
        0..4096u16,
        proptest::option::of(0..64u8),
        proptest::option::of(0..64u8),
        any::<bool>(),
        -256..256i16,
    )
        .prop_map(|(index, offset, lod_bias, explicit_lod, constant_lod_bias)| Sampler {
            index,
            offset,
            lod_bias,
            explicit_lod,
            constant_lod_bias,
        })
}

/// Any uniform or temporary load, from every source (1 and 2 too).
pub fn load() -> impl Strategy<Value = Load> + Clone {
    (
        pick(LOAD_SOURCES.iter().map(|r| r.value).collect()),
        // A load's alignment 3 decodes as one float (see `Load::alignment`).
        pick(
            ALIGNMENTS
                .iter()
                .map(|r| r.value)
                .filter(|a| *a != Alignment::Reserved)
                .collect(),
        ),
        any::<u16>(),
        proptest::option::of(0..64u8),
    )
        .prop_map(|(source, alignment, index, offset)| Load {
            source,
            alignment,
            index,
            offset,
        })
}

fn mul_op() -> impl Strategy<Value = (MulOp, i8)> + Clone {
    (pick(MUL_OPS.iter().map(|r| r.op).collect()), -4..4i8)
        .prop_map(|(op, shift)| (op, if op == MulOp::Mul { shift } else { 0 }))
}

/// Any vector multiplication.
pub fn vec4_mul() -> impl Strategy<Value = VecMul> + Clone {
    (
        mul_op(),
        outmod(),
        proptest::option::of(vec_dest()),
        vec_source(),
        vec_source(),
    )
        .prop_map(|((op, shift), outmod, dest, arg0, arg1)| VecMul {
            op,
            shift,
            outmod,
            dest,
            arg0,
            arg1: op.is_binary().then_some(arg1),
        })
}

/// Any scalar multiplication.
pub fn float_mul() -> impl Strategy<Value = FloatMul> + Clone {
    (
        mul_op(),
        outmod(),
        proptest::option::of(0..64u8),
        scalar_source(),
        scalar_source(),
    )
        .prop_map(|((op, shift), outmod, dest, arg0, arg1)| FloatMul {
            op,
            shift,
            outmod,
            dest,
            arg0,
            arg1: op.is_binary().then_some(arg1),
        })
}

fn acc_op(vector: bool) -> impl Strategy<Value = AccOp> + Clone {
    pick(
        ACC_OPS
            .iter()
            .filter(|r| vector || !r.vector_only)
            .map(|r| r.op)
            .collect(),
    )
}

/// Any vector addition.
pub fn vec4_acc() -> impl Strategy<Value = VecAcc> + Clone {
    (
        acc_op(true),
        outmod(),
        proptest::option::of(vec_dest()),
        any::<bool>(),
        vec_source(),
        vec_source(),
    )
        .prop_map(|(op, outmod, dest, mul_in, mut arg0, arg1)| {
            if mul_in {
                arg0.reg = 0;
            }
            VecAcc {
                op,
                outmod,
                dest,
                mul_in,
                arg0,
                arg1: op.is_binary().then_some(arg1),
            }
        })
}

/// Any scalar addition.
pub fn float_acc() -> impl Strategy<Value = FloatAcc> + Clone {
    (
        acc_op(false),
        outmod(),
        proptest::option::of(0..64u8),
        any::<bool>(),
        scalar_source(),
        scalar_source(),
    )
        .prop_map(|(op, outmod, dest, mul_in, mut arg0, arg1)| {
            if mul_in {
                arg0.reg = 0;
            }
            FloatAcc {
                op,
                outmod,
                dest,
                mul_in,
                arg0,
                arg1: op.is_binary().then_some(arg1),
            }
        })
}

/// Any complex-unit operation, in all three forms.
pub fn combine() -> impl Strategy<Value = Combine> + Clone {
    let dest = prop_oneof![
        (0..64u8, outmod()).prop_map(|(reg, outmod)| CombineDest::Scalar { reg, outmod }),
        (0..16u8, 0..16u8).prop_map(|(reg, mask)| CombineDest::Vector(VecDest { reg, mask })),
    ];
    prop_oneof![
        (
            pick(COMBINE_OPS.iter().map(|r| r.op).collect()),
            dest,
            scalar_source(),
            scalar_source()
        )
            .prop_map(|(op, dest, arg0, arg1)| Combine::Scalar {
                op,
                dest,
                arg0,
                arg1: op.is_binary().then_some(arg1),
            }),
        (0..16u8, 0..16u8, scalar_source(), 0..16u8, any::<u8>()).prop_map(|(reg, mask, arg0, arg1, swizzle)| {
            Combine::MulVec {
                dest: VecDest { reg, mask },
                arg0,
                arg1,
                swizzle,
            }
        }),
        (0..64u8, outmod(), 0..16u8, any::<u8>()).prop_map(|(dest, outmod, arg, swizzle)| Combine::AtanPt2 {
            dest,
            outmod,
            arg,
            swizzle,
        }),
    ]
}

/// Any temporary store (of every alignment, 3 too) or framebuffer read.
pub fn store() -> impl Strategy<Value = Store> + Clone {
    prop_oneof![
        (
            pick(ALIGNMENTS.iter().map(|r| r.value).collect()),
            any::<u16>(),
            proptest::option::of(0..64u8),
            0..64u8
        )
            .prop_map(|(alignment, index, offset, source)| Store::Temp {
                alignment,
                index,
                offset,
                source: if alignment == Alignment::Scalar {
                    source
                } else {
                    source & !3
                },
            }),
        (pick(FB_READS.iter().map(|r| r.value).collect()), 0..16u8)
            .prop_map(|(read, dest)| Store::FbRead { read, dest }),
    ]
}

/// Any branch (targets anywhere in the 27-bit range, mostly near) or discard.
pub fn branch() -> impl Strategy<Value = Branch> + Clone {
    let target = prop_oneof![-40..40i32, -(1i32 << 26)..(1i32 << 26)];
    prop_oneof![
        4 => (pick(BRANCH_CONDS.iter().map(|r| r.value).collect()), 0..64u8, 0..64u8, target).prop_map(
            |(cond, arg0, arg1, target)| {
                let (arg0, arg1) = if cond == BranchCond::Always { (0, 0) } else { (arg0, arg1) };
                Branch::Jump { cond, arg0, arg1, target }
            }
        ),
        1 => Just(Branch::Discard),
    ]
}

/// Any instruction: each field present or not, with any valid content.
pub fn instr() -> impl Strategy<Value = Instr> {
    use proptest::option::of;
    let head = (
        any::<bool>(),
        any::<bool>(),
        of(varying()),
        of(sampler()),
        of(load()),
        of(vec4_mul()),
        of(float_mul()),
    );
    let tail = (
        of(vec4_acc()),
        of(float_acc()),
        of(combine()),
        of(store()),
        of(branch()),
        of(any::<[u16; 4]>()),
        of(any::<[u16; 4]>()),
    );
    (head, tail).prop_map(
        |(
            (stop, sync, varying, sampler, load, vec4_mul, float_mul),
            (vec4_acc, float_acc, combine, store, branch, const0, const1),
        )| Instr {
            stop,
            sync,
            varying,
            sampler,
            load,
            vec4_mul,
            float_mul,
            vec4_acc,
            float_acc,
            combine,
            store,
            branch,
            const0,
            const1,
        },
    )
}

/// A program of 1 to `max` instructions.
pub fn program(max: usize) -> impl Strategy<Value = Vec<Instr>> {
    proptest::collection::vec(instr(), 1..=max.max(1))
}
