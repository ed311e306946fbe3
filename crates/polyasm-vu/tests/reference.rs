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
