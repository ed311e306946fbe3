//! The emulator's control flow: branches, discard, loops, the step limit, the errors a run
//! ends with, and encoded words running as the model they came from.

mod common;

use common::exec::*;
use polyasm_lima::exec::{Inputs, Output, Program, RunErrorKind, run_fragment};
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::{Branch, Instr};
use polyasm_lima::ops::{AccOp, BranchCond, REG_CONST0, REG_UNIFORM};

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
fn encoded_words_run_like_the_model() {
    let program = [load_reg(0, 1), stop(load_reg(1, 0))];
    let inputs = with_uniforms(&[[1.0; 4], [2.0; 4]]);
    let from_words = Program::from_words(&encode(&program)).unwrap();
    assert_eq!(
        run_fragment(&from_words, &inputs).unwrap(),
        run_fragment(&Program::new(&program), &inputs).unwrap()
    );
}
