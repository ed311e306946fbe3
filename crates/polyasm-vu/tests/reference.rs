//! Every valid VU program in the workspace assembles to the words of the reference
//! assembler, the `vu_asm!` macro of `dbsdk-vu-asm` (see build.rs).

include!(concat!(env!("OUT_DIR"), "/reference_programs.rs"));

#[test]
fn every_valid_program_matches_the_reference_assembler() {
    assert!(
        REFERENCE_PROGRAMS.len() >= 10,
        "expected the examples and valid corpus programs, found {}",
        REFERENCE_PROGRAMS.len()
    );
    for (path, source, reference) in REFERENCE_PROGRAMS {
        let words = polyasm_vu::assemble_str(source).unwrap_or_else(|d| panic!("{path} failed to assemble: {d:?}"));
        assert_eq!(&words, reference, "{path}: polyasm and vu_asm! disagree");
    }
}

#[test]
fn the_reference_programs_include_every_example() {
    let examples = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/vu")).unwrap();
    for entry in examples {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let path = format!("examples/vu/{name}");
        assert!(
            REFERENCE_PROGRAMS.iter().any(|(p, _, _)| *p == path),
            "{path} is not compared with vu_asm!"
        );
    }
}

#[test]
fn upper_case_prefixes_read_as_zero_by_the_reference_are_refused() {
    // Rust reads `0X5` as the number 0 with the suffix `X5`, and so does the macro: the mask is
    // 0, not 5. polyasm refuses the literal rather than give either word silently.
    let reference: &[u32] = &dbsdk_vu_asm::vu_asm! { shf r0 r1 xyzw 0X5 };
    let mask_zero = polyasm_vu::assemble_str("shf r0 r1 xyzw 0").unwrap();
    let mask_five = polyasm_vu::assemble_str("shf r0 r1 xyzw 0x5").unwrap();
    assert_eq!(reference, mask_zero.as_slice());
    assert_ne!(reference, mask_five.as_slice());
    for (text, lower) in [("0X5", "0x5"), ("0B101", "0b101"), ("0O5", "0o5")] {
        let errors = polyasm_vu::assemble_str(&format!("shf r0 r1 xyzw {text}")).unwrap_err();
        assert_eq!(errors.len(), 1, "{text}: {errors:?}");
        assert_eq!(errors[0].code, "VU011", "{text}");
        assert_eq!(
            errors[0].help.as_deref(),
            Some(format!("write `{lower}`; prefixes are lower case").as_str())
        );
    }
}
