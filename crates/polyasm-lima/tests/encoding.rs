//! Instructions to words and back, field by field: the bits of each field sit right after the
//! ones before it, a program streamed in gives the words of the whole program, the search for
//! a branch target's length agrees with a search of every start, and the decoder names the
//! word and the reason when words are no program.

use polyasm_lima::decode::{DecodeErrorKind, decode};
use polyasm_lima::instr::words::{Words, control_word, encode, read_bits};
use polyasm_lima::instr::{Branch, Instr, UndefinedOp, count_for_presence};
use polyasm_lima::ops::{BranchCond, Field};
use proptest::prelude::*;

mod common;
use common::strategies;

/// The words of `instr` alone after [`Words::resolve`] gave its branch target length
/// `target_count`: its control word and payload.
fn alone(instr: &Instr, target_count: u32) -> Vec<u32> {
    let mut words = Words::with_capacity(1, 0);
    words.push(instr);
    if let Some(Branch::Jump { target, .. }) = instr.branch {
        words.resolve(0, target, Some(target_count));
    }
    words.finish()
}

/// An instruction holding `fields`, each with all its bits 0.
fn zero_fields(fields: &[Field]) -> Instr {
    let mut instr = Instr::default();
    for &field in fields {
        instr
            .unpack_field(field, 0, &mut Vec::new())
            .expect("op number 0 is defined");
    }
    instr
}

#[test]
fn bits_cross_word_boundaries() {
    let words = [0xfff0_0000, 0xffff_ffff, 0x0000_003f];
    assert_eq!(read_bits(&words, 20, 50), 0x3_ffff_ffff_ffff);
    assert_eq!(read_bits(&words, 19, 1), 0);
    assert_eq!(read_bits(&words, 70, 2), 0);
}

proptest! {
    #[test]
    fn payloads_pack_fields_back_to_back_across_words(instr in strategies::instr(), target_count in 0u8..32) {
        // Only a branch to an offset holds the target length.
        let held = if matches!(instr.branch, Some(Branch::Jump { .. })) { target_count } else { 0 };
        let words = alone(&instr, u32::from(target_count));
        let payload = &words[1..];
        // Each field's bits read back from where the sizes of the fields before it end.
        let mut at = 0;
        for (field, bits) in instr.encode_fields(held) {
            let len = field.info().bits;
            prop_assert_eq!(read_bits(payload, at, len), bits & ((1u128 << len) - 1), "{:?}", field);
            at += len;
        }
        let used = at.div_ceil(32) as usize;
        prop_assert_eq!(count_for_presence(instr.presence()) as usize - 1, used);
        prop_assert_eq!(payload.len(), used);
        prop_assert_eq!(read_bits(payload, at, used as u32 * 32 - at), 0);
    }
}

#[test]
fn the_search_out_from_a_branch_agrees_with_the_whole_search() {
    let shapes: [&[Field]; 5] = [
        &[],
        &[Field::FloatMul],
        &[Field::Const0],
        &[Field::FloatMul, Field::Const0],
        &[Field::Const0, Field::Const1],
    ];
    let counts: Vec<u32> = (0..40).map(|i| 1 + (i * 7 % 5)).collect();
    let mut words = Words::with_capacity(0, 0);
    for &count in &counts {
        let instr = zero_fields(shapes[count as usize - 1]);
        assert_eq!(instr.count(), count);
        words.push(&instr);
    }
    let starts = words.starts().to_vec();
    let total = words.len() as i64;
    for from in 0..counts.len() {
        for offset in -3..total + 3 {
            let relative = offset - starts[from] as i64;
            let whole = (0..total).contains(&offset).then(|| {
                starts
                    .iter()
                    .position(|&start| start as i64 == offset)
                    .map_or(0, |i| counts[i])
            });
            assert_eq!(words.count_within(from, relative), whole, "from {from} to {offset}");
        }
    }
}

#[test]
fn words_streamed_in_are_the_words_of_the_program() {
    let mut program = vec![Instr::default(); 5];
    program[1].branch = Some(Branch::Jump {
        cond: BranchCond::Always,
        arg0: 0,
        arg1: 0,
        target: 0,
    });
    program[3].stop = true;
    program[4].sync = true;
    let mut words = Words::with_capacity(0, 0);
    assert!(words.is_empty());
    for instr in &program {
        words.push(instr);
    }
    let counts: Vec<u32> = program.iter().map(Instr::count).collect();
    let starts: Vec<usize> = (0..counts.len())
        .map(|i| counts[..i].iter().sum::<u32>() as usize)
        .collect();
    assert_eq!(words.starts(), &starts[..]);
    // The branch's target is set after it streamed in, as labels are resolved at the end.
    program[1].branch = Some(Branch::Jump {
        cond: BranchCond::Always,
        arg0: 0,
        arg1: 0,
        target: program[1].count() as i32,
    });
    words.resolve(1, program[1].count() as i32, None);
    // Resolving an instruction without a branch changes nothing.
    words.resolve(0, 7, Some(7));
    let streamed = words.finish();
    assert_eq!(words.len(), streamed.len());
    let mut whole = Vec::new();
    for (i, instr) in program.iter().enumerate() {
        let count = instr.count();
        let next = program.get(i + 1).map(Instr::count);
        whole.push(control_word(instr, count, next));
        // The branch goes to the instruction after it.
        let target_count = if i == 1 { counts[2] } else { 0 };
        whole.extend_from_slice(&alone(instr, target_count)[1..]);
    }
    assert_eq!(streamed, whole);
    assert_eq!(encode(&program), whole);
    // A target length the caller knows is taken as it is.
    let mut again = Words::with_capacity(0, 0);
    for instr in &program {
        again.push(instr);
    }
    assert_eq!(again.count(2), counts[2]);
    assert_eq!(again.count(9), 0);
    again.resolve(1, program[1].count() as i32, Some(again.count(2)));
    assert_eq!(again.finish(), whole);
}

#[test]
fn counts_follow_the_field_sizes() {
    assert_eq!(count_for_presence(0), 1);
    assert_eq!(count_for_presence(0xfff), 19);
    // varying + sampler + vec4_mul: 139 bits.
    assert_eq!(count_for_presence(0b1011), 6);
}

#[test]
fn discard_is_the_fixed_pattern() {
    let bits = Branch::Discard.pack(0);
    assert_eq!(bits, 0x007F_0003);
    let mut lost = Vec::new();
    assert_eq!(Branch::unpack(bits, &mut lost), (Branch::Discard, 0));
    assert!(lost.is_empty());
}

#[test]
fn errors_name_the_word() {
    let err = decode(&[0]).unwrap_err();
    assert_eq!((err.offset, err.code()), (0, "PP200"));
    assert_eq!(err.to_string(), "word 0: the control word gives a length of 0");
    // Mesa's reload program without its last word.
    let err = decode(&[0x000005e6, 0xf1003c20, 0, 0x39001000, 0x00000e4e]).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::PastEnd { count: 6, left: 5 });
    let err = decode(&[0x000005e5, 0xf1003c20, 0, 0x39001000, 0x00000e4e]).unwrap_err();
    assert_eq!(err.kind, DecodeErrorKind::CountMismatch { count: 5, expected: 6 });
    assert_eq!(err.code(), "PP202");
}

#[test]
fn an_undefined_op_stops_decoding() {
    // vec4_mul with op number 18.
    let err = decode(&[0x00000423, 0, 18 << 6]).unwrap_err();
    assert_eq!(
        err.kind,
        DecodeErrorKind::UndefinedOp(UndefinedOp {
            field: Field::Vec4Mul,
            code: 18
        })
    );
    assert_eq!(err.code(), "PP203");
}

#[test]
fn padding_and_unknown_control_bits_are_reported() {
    // `mov.int.s0 $0.x, stop` with control bit 26 set and both padding bits after the
    // 30-bit float_mul field set.
    let words = [0x0000_0822 | 1 << 26, 0xC000_0000 | 3 << 23 | 31 << 25];
    let decoded = decode(&words).expect("a valid length");
    let text: Vec<String> = decoded[0].lost.iter().map(|l| l.to_string()).collect();
    assert_eq!(
        text,
        [
            "payload bits 30..31 (padding) hold 0x3, re-encoding writes 0x0",
            "control word bits 26..31 (unknown) hold 0x1, re-encoding writes 0x0",
        ]
    );
}

#[test]
fn empty_input_is_an_empty_program() {
    assert_eq!(decode(&[]), Ok(Vec::new()));
}
