//! Reading Mesa's text: every vector of Mesa's built-in programs and the cross-check set reads
//! back to its words (or, where the words hold bits Mesa's compiler writes otherwise, to the
//! decoded model), random valid programs survive print -> read, and no text makes the reader
//! panic.

use polyasm_lima::decode::decode;
use polyasm_lima::instr::words::encode;
use polyasm_lima::instr::{Branch, Combine, CombineDest, Instr, Store, VecDest};
use polyasm_lima::ops::{Alignment, CombineOp, OutMod};
use polyasm_lima::syntax::mesa::{
    MesaErrorKind, format_half, half_from_text, has_offset_prefix, print_instr, print_line, read_instr, read_program,
};
use proptest::prelude::*;

mod common;
use common::{BUILT_IN, CROSS_CHECK, RARE_FORMS, Vector, strategies};

/// Reads `text`, failing the test on any error.
fn read_ok(text: &str) -> Vec<Instr> {
    let (read, errors) = read_program(text);
    assert!(errors.is_empty(), "{text:?}: {errors:?}");
    read.into_iter().map(|r| r.instr).collect()
}

fn check(vector: &Vector) {
    let decoded = decode(vector.words).expect("a valid program");
    let model: Vec<Instr> = decoded.iter().map(|d| d.instr).collect();
    let read = read_ok(vector.text);
    assert_eq!(read, model, "vector {}", vector.name);
    if decoded.iter().all(|d| d.lost.is_empty()) {
        assert_eq!(encode(&read), vector.words, "vector {}", vector.name);
    } else {
        // Words with bits Mesa's compiler writes otherwise (the unused second source's
        // identity swizzle): the model is the same, the words are Mesa's.
        assert_eq!(decode(&encode(&read)).expect("encoded").len(), decoded.len());
    }
    // Without the prefix, the offsets follow from the sizes.
    let bare: String = vector.text.lines().map(|l| format!("{}\n", &l[9..])).collect();
    assert!(!has_offset_prefix(&bare));
    assert!(has_offset_prefix(vector.text));
    assert_eq!(read_ok(&bare), model, "vector {} without prefixes", vector.name);
}

#[test]
fn mesas_built_in_programs_read_back_to_their_words() {
    for vector in BUILT_IN {
        check(vector);
        assert_eq!(encode(&read_ok(vector.text)), vector.words, "{}", vector.name);
    }
}

#[test]
fn every_cross_check_vector_reads_back() {
    for vector in CROSS_CHECK {
        check(vector);
    }
}

#[test]
fn load_sources_1_and_2_and_store_alignment_3_read_back_to_their_words() {
    for vector in RARE_FORMS {
        check(vector);
        assert_eq!(encode(&read_ok(vector.text)), vector.words, "{}", vector.name);
    }
    // A component on the stored register is alignment 0 again, and the store's register
    // takes no modifiers in either form.
    let scalar = read_ok("store.t 2.y $1.y");
    assert!(matches!(
        scalar[0].store,
        Some(Store::Temp {
            alignment: Alignment::Scalar,
            source: 5,
            ..
        })
    ));
    for text in ["store.t 2.y -$1", "store.t 2.y abs($1)", "store.t 2.y $1."] {
        let (read, errors) = read_program(text);
        assert_eq!(errors.len(), 1, "{text}: {errors:?} {read:?}");
    }
}

#[test]
fn the_reader_takes_what_editing_leaves_of_the_quirks() {
    // Trailing spaces gone, CRLF line ends, comments and blank lines.
    let text = "# Mesa's reload program\r\n\r\n@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture, sync, stop  # ok\r\n";
    assert_eq!(encode(&read_ok(text)), BUILT_IN[1].words);
    let clear = "mov.v0 $0 ^const0.xxxx ,  const0 1 0 0 -1.677734 , stop";
    assert_eq!(encode(&read_ok(clear)), BUILT_IN[0].words);
}

#[test]
fn prefixes_and_bare_lines_mix_and_empty_instructions_keep_their_prefix() {
    // An instruction with no fields prints as the prefix alone, one with only flags as
    // `, stop`.
    let text = "@     0: \n@     1: , sync, stop\n";
    let program = read_ok(text);
    assert_eq!(program.len(), 2);
    assert_eq!(program[0], Instr::default());
    assert!(program[1].sync && program[1].stop);
    assert_eq!(encode(&program), [0x0008_0001 | 1 << 25, 0x61]);
}

#[test]
fn branch_targets_become_relative() {
    let text = "branch.lt $0.x $1.y 4\nmov.s0 $0.x $1.x, stop\ndiscard, stop\nbranch 0\n";
    let program = read_ok(text);
    assert!(matches!(program[0].branch, Some(Branch::Jump { target: 4, .. })));
    assert!(matches!(program[3].branch, Some(Branch::Jump { target: -10, .. })));
    // The branch's target-count bits get the length of the instruction there.
    let words = encode(&program);
    assert_eq!(
        &words[..6],
        &CROSS_CHECK.iter().find(|v| v.name == "E").unwrap().words[..6]
    );
}

#[test]
fn negative_indices_read_as_mesa_prints_them() {
    for (text, alignment, index) in [
        ("load.u -5", Alignment::Vec4, 0xfffb),
        ("load.u -2.zw", Alignment::Vec2, 0xfffb),
        ("load.u -1.w", Alignment::Scalar, 0xfffb),
        ("load.u -1.x", Alignment::Scalar, 0xfffc),
        ("load.t -8192.x", Alignment::Scalar, 0x8000),
        ("load.u 8191.w", Alignment::Scalar, 0x7fff),
    ] {
        let load = read_ok(text)[0].load.expect("a load");
        assert_eq!((load.alignment, load.index), (alignment, index), "{text}");
        assert_eq!(print_instr(&read_ok(text)[0], 0), text);
    }
}

#[test]
fn the_complex_unit_destination_follows_mesas_compiler() {
    let dest = |text: &str| match read_ok(text)[0].combine {
        Some(Combine::Scalar { dest, .. }) => dest,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        dest("rcp.s2 $1.y $0.x"),
        CombineDest::Scalar {
            reg: 5,
            outmod: OutMod::None
        }
    );
    assert_eq!(
        dest("atan.s2 $1.y $0.x"),
        CombineDest::Vector(VecDest { reg: 1, mask: 2 })
    );
    assert_eq!(
        dest("atan.sat.s2 $1.y $0.x"),
        CombineDest::Scalar {
            reg: 5,
            outmod: OutMod::Sat
        }
    );
    assert_eq!(
        dest("rcp.s2 $1.xz $0.x"),
        CombineDest::Vector(VecDest { reg: 1, mask: 5 })
    );
    assert_eq!(
        dest("rcp.s2 $1. $0.x"),
        CombineDest::Vector(VecDest { reg: 1, mask: 0 })
    );
    assert_eq!(
        dest("atan2.s2 $3 -$2.x $2.x"),
        CombineDest::Vector(VecDest { reg: 3, mask: 0xf })
    );
}

#[test]
fn destinations_print_and_read_as_numbers() {
    // Mesa prints every destination as `$N`, the pipeline numbers 12-15 included.
    for text in [
        "mov.v0 $12 $1 ",
        "mov.s0 $15.w $1.x",
        "fb_color $13",
        "mul.s2 $14.xy $0.x ^uniform",
    ] {
        let program = read_ok(text);
        assert_eq!(print_instr(&program[0], 0), text);
    }
    let text = "store.t 4.xy ^const1";
    let program = read_ok(text);
    assert!(matches!(program[0].store, Some(Store::Temp { source: 52, .. })));
}

#[test]
fn every_printable_half_reads_back_to_its_bits() {
    for bits in 0..=u16::MAX {
        let magnitude = bits & 0x7fff;
        let text = format_half(bits);
        let back = half_from_text(&text).expect(&text);
        if magnitude >= 0x7c00 {
            // inf keeps its bits; NaN payloads are not printed.
            let expected = if magnitude == 0x7c00 {
                bits
            } else {
                bits & 0x8000 | 0x7e00
            };
            assert_eq!(back, expected, "{bits:#06x} {text}");
        } else if magnitude >= 0x1800 || magnitude == 0 {
            assert_eq!(back, bits, "{bits:#06x} {text}");
        } else {
            // Below 2^-9 six decimals cannot tell neighbours apart; the value read is the
            // nearest to the printed decimal.
            let value = |h: u16| {
                f64::from(h & 0x3ff | if h & 0x7c00 != 0 { 0x400 } else { 0 })
                    * 2f64.powi(i32::from(((h >> 10) & 0x1f).max(1)) - 25)
            };
            let printed: f64 = text.trim_start_matches('-').parse().unwrap();
            assert!(
                (value(back) - printed).abs() <= (value(magnitude) - printed).abs(),
                "{bits:#06x}"
            );
        }
    }
}

#[test]
fn decimals_round_to_the_nearest_half_with_ties_to_even() {
    assert_eq!(half_from_text("1"), Some(0x3c00));
    assert_eq!(half_from_text("-0.000000"), Some(0x8000));
    assert_eq!(half_from_text("65504.000000"), Some(0x7bff));
    // 65519.99 rounds down to 65504, 65520 is the tie that IEEE rounds to infinity.
    assert_eq!(half_from_text("65519.99"), Some(0x7bff));
    assert_eq!(half_from_text("65520"), None);
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even 1.
    assert_eq!(half_from_text("1.00048828125"), Some(0x3c00));
    assert_eq!(half_from_text("1.00048828126"), Some(0x3c01));
    // 1 + 3 * 2^-11, halfway between odd 0x3c01 and even 0x3c02.
    assert_eq!(half_from_text("1.00146484375"), Some(0x3c02));
    for bad in ["", "-", ".", "1.", ".5", "1e3", "+1", "0x1", "nan(1)", "1.2.3"] {
        assert_eq!(half_from_text(bad), None, "{bad}");
    }
}

fn error_of(text: &str) -> (String, std::ops::Range<usize>, MesaErrorKind) {
    let (_, errors) = read_program(text);
    let e = errors.first().unwrap_or_else(|| panic!("{text:?} read without error"));
    (e.code().to_string(), e.span.clone(), e.kind.clone())
}

#[test]
fn errors_name_the_code_and_the_text() {
    let cases: &[(&str, &str, &str)] = &[
        ("mull.v0 $0 $1 $2", "PP100", "mull.v0"),
        ("sum3.s1 $0.x $1.x", "PP100", "sum3.s1"),
        ("mov.v0 $0 $1 , load.v $1 0", "PP101", "load.v"),
        ("mov.v0 $0 $1 , mov.v0 $1 $2 ", "PP101", "mov.v0"),
        ("mov.v0 $0 $1.xx ", "PP102", ".xx"),
        ("mov.v0 $0 abs($1 ", "PP102", "$1"),
        ("add.v1 $0 $1 $2 $3", "PP103", "$0 $1 $2 $3"),
        ("load.v $1 64", "PP104", "64"),
        ("mov.v0 $16 $1 ", "PP104", "$16"),
        ("mov.v0 $0 $12 ", "PP104", "$12"),
        ("texld bias200 0", "PP104", "200"),
        ("const0 1 2 3 70000", "PP105", "70000"),
        (
            "@     0: mov.s0 $0.x $1.x\n@     3: mov.s0 $0.x $1.x",
            "PP106",
            "@     3:",
        ),
        ("branch 3\nmov.s0 $0.x $1.x", "PP107", "3"),
        ("mov.v0 ^const0 $1 ", "PP108", "^const0"),
        ("add.v1 $0 $1 ^v0", "PP108", "^v0"),
        ("mov.v0 $0 $1<<2 ", "PP108", "<<2"),
        ("branch.lt -$0.x $1.x 0", "PP108", "-$0.x"),
        ("load.v $0 0+^uniform.x", "PP108", "0+^uniform.x"),
        ("mov.v0 $0 $1 , stop, sync", "PP109", "sync"),
        ("mov.v0 $0 $1 ,, stop", "PP109", ""),
        ("stop, mov.v0 $0 $1 ", "PP109", "mov.v0 $0 $1"),
    ];
    for (text, code, found) in cases {
        let (got, span, kind) = error_of(text);
        assert_eq!(got, *code, "{text:?}: {kind:?}");
        assert_eq!(&text[span.clone()], *found, "{text:?}: {kind:?}");
    }
    let (_, _, kind) = error_of("mull.v0 $0 $1 $2");
    assert_eq!(
        kind,
        MesaErrorKind::UnknownOp {
            name: "mull.v0".into(),
            suggestion: Some("mul.v0")
        }
    );
    match error_of("mov.v0 $0 $1 , load.v $1 0, sync").2 {
        MesaErrorKind::FieldOrder { reordered, .. } => assert_eq!(reordered, "load.v $1 0, mov.v0 $0 $1, sync"),
        other => panic!("{other:?}"),
    }
    match error_of("branch 5\nmov.s0 $0.x $1.x\nmov.s0 $0.x $1.x").2 {
        MesaErrorKind::Target { nearest, .. } => assert_eq!(nearest, (Some(4), Some(6))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_line_with_an_error_is_reported() {
    let (_, errors) = read_program("bogus.v0 $0\nmov.s0 $0.x $1.x\nload.v $99 0\n");
    let codes: Vec<&str> = errors.iter().map(|e| e.code()).collect();
    assert_eq!(codes, ["PP100", "PP104"]);
}

/// The program as Mesa's text can carry it: the bits the text does not show (docs/lima.md)
/// set to what the reader writes, and branch targets moved onto instruction starts.
fn printable(mut program: Vec<Instr>) -> Vec<Instr> {
    let counts: Vec<u32> = program.iter().map(Instr::count).collect();
    let starts: Vec<i64> = counts
        .iter()
        .scan(0i64, |at, &c| {
            let start = *at;
            *at += i64::from(c);
            Some(start)
        })
        .collect();
    for (i, instr) in program.iter_mut().enumerate() {
        if let Some(sampler) = &mut instr.sampler {
            sampler.explicit_lod = false;
        }
        if let Some(Combine::Scalar { op, dest, .. }) = &mut instr.combine {
            let vector_by_default = matches!(op, CombineOp::Atan | CombineOp::Atan2);
            *dest = match *dest {
                CombineDest::Vector(VecDest { reg, mask }) if mask.count_ones() == 1 && !vector_by_default => {
                    CombineDest::Scalar {
                        reg: reg * 4 + mask.trailing_zeros() as u8,
                        outmod: OutMod::None,
                    }
                }
                CombineDest::Scalar {
                    reg,
                    outmod: OutMod::None,
                } if vector_by_default => CombineDest::Vector(VecDest {
                    reg: reg >> 2,
                    mask: 1 << (reg & 3),
                }),
                other => other,
            };
        }
        for values in [&mut instr.const0, &mut instr.const1].into_iter().flatten() {
            for v in values.iter_mut() {
                let magnitude = *v & 0x7fff;
                if magnitude > 0x7c00 {
                    *v = *v & 0x8000 | 0x7e00;
                } else if magnitude < 0x1800 {
                    *v &= 0x8000;
                }
            }
        }
        let ambiguous = |alignment: Alignment, index: u16| match alignment {
            Alignment::Scalar | Alignment::Reserved => index >= 0xfffd,
            Alignment::Vec2 => index == 0xffff,
            Alignment::Vec4 => false,
        };
        if let Some(load) = &mut instr.load
            && ambiguous(load.alignment, load.index)
        {
            load.index &= 0x7fff;
        }
        if let Some(Store::Temp { alignment, index, .. }) = &mut instr.store
            && ambiguous(*alignment, *index)
        {
            *index &= 0x7fff;
        }
        if let Some(Branch::Jump { target, .. }) = &mut instr.branch {
            let to = starts[target.unsigned_abs() as usize % starts.len()];
            *target = (to - starts[i]) as i32;
        }
    }
    program
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn printed_programs_read_back_to_the_same_words(program in strategies::program(6)) {
        let program = printable(program);
        let words = encode(&program);
        let decoded = decode(&words).expect("encoded words");
        let text: String = decoded.iter().map(|d| print_line(&d.instr, d.offset)).collect();
        let (read, errors) = read_program(&text);
        prop_assert!(errors.is_empty(), "{text}\n{errors:?}");
        let back: Vec<Instr> = read.into_iter().map(|r| r.instr).collect();
        prop_assert_eq!(&back, &program, "{}", text);
        prop_assert_eq!(encode(&back), words);
        for d in &decoded {
            prop_assert_eq!(read_instr(&print_instr(&d.instr, d.offset), d.offset), Ok(d.instr));
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = read_program(&text);
        let _ = has_offset_prefix(&text);
    }

    #[test]
    fn text_near_mesas_never_panics(
        program in strategies::program(3),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0..3u8, proptest::sample::select(vec![
            " ", ",", ".", "$", "^", "-", "abs(", ")", "<<", "+", "@", ":", "#", "\n", "0", "9", "x", "w",
            "bias", "1ff", "-0.5", "nan", "stop", "sync", "^v0", "^s0", "$15", "65536", "99999999999999999999",
        ])), 0..6),
    ) {
        let words = encode(&program);
        let decoded = decode(&words).expect("encoded words");
        let mut text: String = decoded.iter().map(|d| print_line(&d.instr, d.offset)).collect();
        for (index, action, piece) in edits {
            let mut at = index.index(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            match action {
                0 => text.insert_str(at, piece),
                1 => { text.replace_range(at..(at + 1).min(text.len()), ""); }
                _ => text.replace_range(at..(at + piece.len()).min(text.len()), piece),
            }
            // Stay on character boundaries for the next edit.
            if !text.is_char_boundary(text.len()) { text.clear(); }
        }
        let _ = read_program(&text);
    }
}
