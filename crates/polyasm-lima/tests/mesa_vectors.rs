//! Mesa's built-in programs and the cross-check vectors: words decode to instructions that
//! print exactly the text Mesa's disassembler prints, and the decoded instructions encode back
//! to the same words.

use polyasm_lima::decode::decode;
use polyasm_lima::instr::Instr;
use polyasm_lima::instr::words::encode;
use polyasm_lima::syntax::mesa::{print_instr, print_line, print_program};

mod common;
use common::{BUILT_IN, CROSS_CHECK, RARE_FORMS, Vector};

/// Vectors whose one-source vector ops carry the identity swizzle 0xE4 in the unused second
/// source, where Mesa's compiler writes 0: the decoded instructions are compared, not the words.
const UNUSED_SWIZZLE_DIFFERS: &[&str] = &["L", "S"];

fn instrs(words: &[u32]) -> Vec<Instr> {
    decode(words)
        .expect("a valid program")
        .into_iter()
        .map(|d| d.instr)
        .collect()
}

fn check(vector: &Vector) {
    let decoded = decode(vector.words).unwrap_or_else(|e| panic!("{}: {e}", vector.name));
    assert_eq!(print_program(&decoded), vector.text, "vector {}", vector.name);
    for (d, line) in decoded.iter().zip(vector.text.lines()) {
        assert_eq!(format!("@{:6}: {}", d.offset, print_instr(&d.instr, d.offset)), line);
        assert_eq!(print_line(&d.instr, d.offset), format!("{line}\n"));
    }
    let model: Vec<Instr> = decoded.iter().map(|d| d.instr).collect();
    let words = encode(&model);
    if UNUSED_SWIZZLE_DIFFERS.contains(&vector.name) {
        for d in &decoded {
            for lost in &d.lost {
                assert_eq!(
                    (lost.name, lost.lo, lost.len, lost.found),
                    ("arg1", 14, 14, 0xe40),
                    "{}",
                    vector.name
                );
            }
        }
        assert!(decoded.iter().any(|d| !d.lost.is_empty()), "{}", vector.name);
        assert_ne!(words, vector.words, "{}", vector.name);
        assert_eq!(instrs(&words), model, "{}", vector.name);
    } else {
        assert!(
            decoded.iter().all(|d| d.lost.is_empty()),
            "{}: {:?}",
            vector.name,
            decoded
        );
        assert_eq!(words, vector.words, "{}", vector.name);
    }
}

#[test]
fn mesas_built_in_programs_print_and_reencode_exactly() {
    for vector in BUILT_IN {
        check(vector);
    }
}

#[test]
fn cross_check_vectors_print_and_reencode_exactly() {
    for vector in CROSS_CHECK {
        check(vector);
    }
}

#[test]
fn load_sources_1_and_2_and_store_alignment_3_print_as_mesa_prints_them() {
    for vector in RARE_FORMS {
        check(vector);
    }
}

#[test]
fn the_clear_programs_zero_padding_is_no_instruction() {
    let mut words = BUILT_IN[0].words.to_vec();
    words.extend([0, 0, 0]);
    let err = decode(&words).expect_err("a zero control word");
    assert_eq!((err.offset, err.code()), (5, "PP200"));
}
