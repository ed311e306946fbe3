//! The diagnostics of the Lima dialect: every code used is explained, and each error's
//! message, labels and help point at what is wrong (words, Mesa's text, a run).

use polyasm_core::{Object, Severity, SourceMap, Span};
use polyasm_lima::decode::decode;
use polyasm_lima::error::*;
use polyasm_lima::exec::{RunError, RunErrorKind};
use polyasm_lima::ops::Field;
use polyasm_lima::syntax::mesa::read_program;

#[test]
fn every_code_used_is_explained() {
    let err = decode(&[0]).unwrap_err();
    let d = decode_error("a.bin", &err);
    assert_eq!(d.code, "PP200");
    assert_eq!(
        d.message,
        "a.bin is not a Lima program: word 0: the control word gives a length of 0"
    );
    assert!(Code::find(d.code).is_some());
    let mbs = polyasm_lima::mbs::read(b"ELF").unwrap_err();
    assert_eq!(mbs_error("a.mbs", &mbs).code, "PP210");
    for code in Code::table() {
        assert!(code.code.starts_with("PP"));
    }
    for code in ["PP201", "PP202", "PP203", "PP204", "PP211", "PP212", "PP213", "PP214"] {
        assert!(Code::find(code).is_some(), "{code}");
    }
}

#[test]
fn mesa_codes_are_explained_and_errors_point_at_the_text() {
    let mut sources = SourceMap::new();
    let file = sources.add("a.pp", "mov.v0 $0 $1 , load.v $1 0");
    let (_, errors) = read_program(sources.get(file).text());
    let d = mesa_error(file, &errors[0]);
    assert_eq!(d.code, "PP101");
    assert_eq!(d.message, "the varying field comes before the vec4_mul field");
    assert_eq!(d.labels[0].span, Span::new(file, 15, 21));
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h.ends_with("`load.v $1 0, mov.v0 $0 $1`"))
    );
    for text in [
        "x.v0",
        "mov.v0 $0 $9.q ",
        "mov.v0 $0 $1 $2 ",
        "load.v $0 99",
        "const0 a 0 0 0",
        "branch 1",
        "mov.v0 ^texture $0 ",
        ", ,",
    ] {
        let (_, errors) = read_program(text);
        let d = mesa_error(file, &errors[0]);
        assert!(
            d.code.starts_with("PP1") && Code::find(d.code).is_some(),
            "{text}: {}",
            d.code
        );
    }
    let offset = read_program("@ 0: discard\n@ 9: discard").1;
    assert_eq!(mesa_error(file, &offset[0]).code, "PP106");
    for d in [
        unshown_bits_warning("a.bin", 0, &[Field::Sampler]),
        stray_target_warning("a.bin", 0, 3),
    ] {
        let code = Code::find(d.code).expect("explained");
        assert!(d.code.starts_with("PP1"));
        assert_eq!(code.severity(), d.severity);
    }
}

#[test]
fn lost_bits_warn() {
    // Vector L: the unused second source of mov.v0 holds the identity swizzle.
    let words = [0x000005e6, 0x3f003c20, 0x00100010, 0x39001002, 0x13900e4e, 0x000007cf];
    let decoded = decode(&words).unwrap();
    let lost = &decoded[0].lost[0];
    let d = lost_bits_warning("l.bin", 0, lost);
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(
        d.message,
        "l.bin: word 0: vec4_mul bits 14..27 (arg1) hold 0xe40, re-encoding writes 0x0"
    );
}

#[test]
fn run_errors_have_codes_help_and_the_instruction_span() {
    let error = RunError {
        offset: 3,
        pixel: None,
        kind: RunErrorKind::NoStop,
    };
    let mut object = Object::new(4);
    let file = SourceMap::new().add("p.pp", "mov $0\nstop\n");
    object.push(0, &[0, 0, 0], Some(Span::new(file, 0, 5)), None);
    object.push(3, &[0], Some(Span::new(file, 6, 10)), None);
    let d = run_error(&error, &object);
    assert_eq!(d.code, "PP303");
    assert_eq!(d.primary_label().map(|l| l.span), Some(Span::new(file, 6, 10)));
    assert!(d.help.is_some());
    let d = run_error(&error, &Object::from_words(&[0, 0, 0, 0]));
    assert!(d.primary_label().is_none());
    let d = texture_error(2, "a.png", "it is not there");
    assert_eq!(d.message, "cannot read texture 2 from `a.png`: it is not there");
    for code in ["PP300", "PP301", "PP302", "PP303", "PP304", "PP305"] {
        assert_eq!(Code::find(code).map(Code::severity), Some(Severity::Error), "{code}");
    }
}

#[test]
fn a_constant_read_without_its_field_is_warned_at_its_instruction_after_a_label() {
    use polyasm_lima::instr::{Branch, Instr, VecDest, VecMul, VecSource, words::encode};
    use polyasm_lima::ops::{BranchCond, MulOp, OutMod, REG_CONST0};
    use polyasm_lima::{Syntax, WordsFrom, disassemble};
    // A branch to the next instruction, which reads `^const0` without holding `const0`: the
    // label `L1:` stands on the line between them.
    let mut branch = Instr {
        branch: Some(Branch::Jump {
            cond: BranchCond::Always,
            arg0: 0,
            arg1: 0,
            target: 0,
        }),
        ..Instr::default()
    };
    let target = branch.count() as i32;
    branch.branch = Some(Branch::Jump {
        cond: BranchCond::Always,
        arg0: 0,
        arg1: 0,
        target,
    });
    let read = Instr {
        stop: true,
        vec4_mul: Some(VecMul {
            op: MulOp::Mov,
            shift: 0,
            outmod: OutMod::None,
            dest: Some(VecDest { reg: 0, mask: 0xF }),
            arg0: VecSource {
                reg: REG_CONST0,
                swizzle: 0xE4,
                abs: false,
                neg: false,
            },
            arg1: None,
        }),
        ..Instr::default()
    };
    let words = encode(&[branch, read]);
    let outcome = disassemble(&words, Syntax::Proposed, "t", WordsFrom::Binary);
    let text = outcome.value.expect("the words are a program");
    assert!(text.contains("L1:\n"), "{text}");
    let warned: Vec<String> = outcome.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert_eq!(
        warned,
        [format!(
            "t: word {target}: `^const0` is read but the instruction has no `const0`"
        )]
    );
}
