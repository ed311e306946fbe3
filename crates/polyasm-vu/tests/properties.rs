//! Properties: assembling the disassembly gives the same words; no input makes anything panic.

use polyasm_vu::ops::{INPUT_SLOTS, OPS, OperandKind};
use polyasm_vu::{Instruction, Program, assemble_str, disassemble};
use proptest::prelude::*;

const END: u32 = 0x3f;

/// Any instruction the assembler can produce, with every field valid for its operation.
fn instruction() -> impl Strategy<Value = Instruction> {
    (0..OPS.len(), any::<u8>(), any::<u8>(), any::<[u8; 4]>(), any::<u8>()).prop_map(
        |(row, dst, src, swizzle, mask)| {
            let op = OPS[row].op;
            let mut i = Instruction::new(op);
            for (index, kind) in op.info().operands.iter().enumerate() {
                match (index, kind) {
                    (0, OperandKind::Output) => i.dst = dst % 4,
                    (0, _) => i.dst = dst % 16,
                    (1, OperandKind::InputSlot) => i.src = src % INPUT_SLOTS as u8,
                    (1, _) => i.src = src % 16,
                    (2, _) => i.swizzle = swizzle.map(|l| l % 4),
                    _ => i.mask = mask % 16,
                }
            }
            i
        },
    )
}

/// What assembling the disassembly of `words` must give back.
fn expected_reassembly(words: &[u32]) -> Vec<u32> {
    let mut expected = words.to_vec();
    if words.len() < 64 && words.last() != Some(&END) {
        expected.push(END);
    }
    expected
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn valid_programs_round_trip(program in prop::collection::vec(instruction(), 0..64)) {
        let words: Vec<u32> = program.iter().map(Instruction::encode).collect();
        let source = disassemble(&words);
        let again = assemble_str(&source).map_err(|d| TestCaseError::fail(format!("{source}\n{d:?}")))?;
        prop_assert_eq!(&again, &expected_reassembly(&words));
        // Valid instructions print as instructions, never as `.word`.
        prop_assert!(!source.contains(".word"), "{}", source);
    }

    #[test]
    fn arbitrary_words_round_trip(words in prop::collection::vec(any::<u32>(), 0..=64)) {
        let source = disassemble(&words);
        let again = assemble_str(&source).map_err(|d| TestCaseError::fail(format!("{source}\n{d:?}")))?;
        prop_assert_eq!(again, expected_reassembly(&words));
    }

    #[test]
    fn arbitrary_words_run_without_panicking(words in prop::collection::vec(any::<u32>(), 0..=64), seed in any::<[f32; 4]>()) {
        let program = Program::new(&words).expect("at most 64 words");
        let outputs = program.run(&[seed; 8], &[seed; 16]);
        prop_assert_eq!(outputs.len(), 4);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        let _ = assemble_str(&text);
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(prop::sample::select(vec![
        "ld", "st", "ldc", "shf", "mulm", "end", ".word", ".x", "r0", "r15", "r16", "r999999999999999999999",
        "pos", "ocol", "xyzw", "rgba", "xyz", "0", "7", "8", "0b1111", "0x", "0b2", "99999999999999999999999",
        ",", "-", "/*", "*/", "//", "\n", "\r\n", "\t", " ", "é", "\u{0}",
    ]), 0..40)) {
        let text: String = tokens.join(" ");
        let _ = assemble_str(&text);
    }
}
