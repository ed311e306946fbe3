//! The proposed syntax both ways: random valid programs printed and assembled again give the
//! same instructions and words; Mesa's golden words printed and assembled give themselves;
//! arbitrary text never panics the assembler.

use polyasm_lima::decode::decode;
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::{Branch, Combine, FloatMul, Instr, ScalarSource, Store, VaryingSource, VecMul, VecSource};
use polyasm_lima::ops::{AccOp, MulOp, OutMod, REG_CONST0, REG_CONST1};
use polyasm_lima::syntax::proposed::assemble_proposed_text;
use polyasm_lima::syntax::proposed::print_proposed;
use proptest::prelude::*;

mod common;
use common::RARE_FORMS;
use common::strategies;

/// Whether the instruction reads vec4 register `reg` (12 or 13) anywhere.
fn reads(instr: &Instr, reg: u8) -> bool {
    let vec = |s: &VecSource| s.reg == reg;
    let scalar = |r: u8| r >> 2 == reg;
    let mut hit = false;
    if let Some(v) = &instr.varying {
        hit |= match &v.source {
            VaryingSource::Fetch { fetch, .. } | VaryingSource::Cube(fetch) => fetch.offset.is_some_and(scalar),
            VaryingSource::Register { source, .. } => vec(source),
            VaryingSource::CubeRegister(s) | VaryingSource::Normalize(s) => vec(s),
            _ => false,
        };
    }
    if let Some(s) = &instr.sampler {
        hit |= s.offset.is_some_and(scalar) || s.lod_bias.is_some_and(scalar);
    }
    if let Some(l) = &instr.load {
        hit |= l.offset.is_some_and(scalar);
    }
    if let Some(m) = &instr.vec4_mul {
        hit |= vec(&m.arg0) || m.arg1.as_ref().is_some_and(vec);
    }
    if let Some(m) = &instr.float_mul {
        hit |= scalar(m.arg0.reg) || m.arg1.is_some_and(|a| scalar(a.reg));
    }
    if let Some(a) = &instr.vec4_acc {
        hit |= (!a.mul_in && vec(&a.arg0)) || a.arg1.as_ref().is_some_and(vec);
    }
    if let Some(a) = &instr.float_acc {
        hit |= (!a.mul_in && scalar(a.arg0.reg)) || a.arg1.is_some_and(|s| scalar(s.reg));
    }
    if let Some(c) = &instr.combine {
        hit |= match c {
            Combine::Scalar { arg0, arg1, .. } => scalar(arg0.reg) || arg1.is_some_and(|a| scalar(a.reg)),
            Combine::MulVec { arg0, arg1, .. } => scalar(arg0.reg) || *arg1 == reg,
            Combine::AtanPt2 { arg, .. } => *arg == reg,
        };
    }
    if let Some(Store::Temp { offset, source, .. }) = &instr.store {
        hit |= offset.is_some_and(scalar) || scalar(*source);
    }
    if let Some(Branch::Jump { cond, arg0, arg1, .. }) = &instr.branch
        && *cond != polyasm_lima::ops::BranchCond::Always
    {
        hit |= scalar(*arg0) || scalar(*arg1);
    }
    hit
}

/// A random instruction made schedulable: what the assembler rejects as an error (a combiner
/// beside a branch, `sel` or `^v0`/`^s0` without their multiplier, constants read but not set)
/// gets the field it lacks or loses the one in the way. Warnings are allowed.
fn schedulable(mut instr: Instr) -> Instr {
    if instr.branch.is_some() {
        instr.combine = None;
    }
    let sel = instr.vec4_acc.is_some_and(|a| a.op == AccOp::Sel) || instr.float_acc.is_some_and(|a| a.op == AccOp::Sel);
    let fmul_in = instr.float_acc.is_some_and(|a| a.mul_in);
    if (sel || fmul_in) && instr.float_mul.is_none() {
        instr.float_mul = Some(FloatMul {
            op: MulOp::Mov,
            shift: 0,
            outmod: OutMod::None,
            dest: None,
            arg0: ScalarSource::default(),
            arg1: None,
        });
    }
    if instr.vec4_acc.is_some_and(|a| a.mul_in) && instr.vec4_mul.is_none() {
        instr.vec4_mul = Some(VecMul {
            op: MulOp::Mov,
            shift: 0,
            outmod: OutMod::None,
            dest: None,
            arg0: VecSource::default(),
            arg1: None,
        });
    }
    if instr.const0.is_none() && reads(&instr, REG_CONST0) {
        instr.const0 = Some([0x3c00, 0, 0x8000, 0x7e00]);
    }
    if instr.const1.is_none() && reads(&instr, REG_CONST1) {
        instr.const1 = Some([0xbc00, 0x7c00, 1, 0x7bff]);
    }
    instr
}

fn reassemble(program: &[Instr]) -> (String, Vec<Instr>) {
    let text = print_proposed(program);
    let back = assemble_proposed_text(&text).unwrap_or_else(|d| panic!("{text}\n{d:#?}"));
    (text, back)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn printed_programs_assemble_to_the_same_words(program in strategies::program(6)) {
        let program: Vec<Instr> = program.into_iter().map(schedulable).collect();
        let (text, back) = reassemble(&program);
        prop_assert_eq!(encode(&back), encode(&program), "{}", text);
        prop_assert_eq!(&back, &program, "{}", text);
        // Printing is canonical: the text of the assembled program is the same text.
        prop_assert_eq!(print_proposed(&back), text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = assemble_proposed_text(&text);
    }

    #[test]
    fn token_soup_never_panics(parts in proptest::collection::vec(proptest::sample::select(vec![
        "mov", "mul_x2_sat", ".v0", ".s1", ".s2", ".v", ".t", ".u", "load", "store", "texld_lod", "branch_lt",
        "$0", "$1.x", "$12", "$99", ".xyzw", ".none", "^v0", "^s0", "^const0.y", "^tex_sampler", "^nope", "0",
        "1.5", "-2", "+4", "0x7e00", "inf", "abs(", "cube(", "normalize(", "bias(", ")", "(", ",", ":", " ",
        "\n", ",\n", "L1", "L1:\n", "gl_FragCoord", "const0", "stop", "sync", "discard", "#c\n", "-", "+", "é",
        "rcp_vec", "atan_pt2", "sel", "fb_color", "nop", "1.y", "0.xy", "_pos",
    ]), 0..40)) {
        let text: String = parts.concat();
        let _ = assemble_proposed_text(&text);
    }
}

#[test]
fn mesa_programs_print_and_reassemble_to_their_words() {
    let programs: &[&[u32]] = &[
        &[0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5],
        &[0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf],
        &[
            0x02110004, 0x00040050, 0x00000800, 0x00000020, 0x02200822, 0x3e400004, 0x00010024, 0x007f0003, 0x00000000,
            0x00000000,
        ],
        &[
            0x00060427, 0x03934e4c, 0x01e0000f, 0x01a00000, 0x03dffe00, 0x018005c0, 0x00000210,
        ],
    ];
    for words in programs {
        let program: Vec<Instr> = decode(words).expect("valid").into_iter().map(|d| d.instr).collect();
        let (text, back) = reassemble(&program);
        assert_eq!(encode(&back), *words, "{text}");
    }
    let clear: Vec<Instr> = decode(programs[0])
        .expect("valid")
        .into_iter()
        .map(|d| d.instr)
        .collect();
    assert_eq!(
        print_proposed(&clear),
        "stop, mov.v0 $0 ^const0.xxxx, const0 1.0 0.0 0.0 -1.677734375\n"
    );
    let branchy: Vec<Instr> = decode(programs[2])
        .expect("valid")
        .into_iter()
        .map(|d| d.instr)
        .collect();
    assert_eq!(
        print_proposed(&branchy),
        "branch_lt $0.x $1.y L1\nL1:\nstop, mov.s0 $0.x $1.x\nstop, discard\n"
    );
}

#[test]
fn load_sources_1_and_2_and_store_alignment_3_print_and_reassemble_to_their_words() {
    let proposed = [
        "stop, load.u1 5\n",
        "stop, load.u2 16382.w+$3.y\n",
        "stop, store.t 2.y $1\n",
        "store.t 16381.x+$0.w ^uniform\n",
        "load.u1 5, store.t 2.y $1\nstop, load.u2 3.zw, store.t 7.w+$0.x $2\n",
    ];
    assert_eq!(proposed.len(), RARE_FORMS.len());
    for (vector, text) in RARE_FORMS.iter().zip(proposed) {
        let program: Vec<Instr> = decode(vector.words)
            .expect("valid")
            .into_iter()
            .map(|d| d.instr)
            .collect();
        assert_eq!(print_proposed(&program), text, "{}", vector.name);
        let back = assemble_proposed_text(text).unwrap_or_else(|d| panic!("{text}\n{d:#?}"));
        assert_eq!(encode(&back), vector.words, "{}", vector.name);
    }
}

#[test]
fn labels_mark_every_target_and_other_targets_are_offsets() {
    let jump = |target| Instr {
        branch: Some(Branch::Jump {
            cond: polyasm_lima::ops::BranchCond::Always,
            arg0: 0,
            arg1: 0,
            target,
        }),
        ..Instr::default()
    };
    // Each jump is 4 words: targets 0 (itself), 12 (the end), and 6 (inside an instruction).
    let program = [jump(0), jump(8), jump(-2)];
    assert_eq!(print_proposed(&program), "L1:\nbranch L1\nbranch L2\nbranch -2\nL2:\n");
    let (_, back) = reassemble(&program);
    assert_eq!(back, program);
    assert_eq!(print_proposed(&[Instr::default()]), "nop\n");
}
