//! shader-asm's lexicon: how an editor reads shader-asm text, and registers the assembler
//! accepts.

use polyasm_core::Target;
use polyasm_core::editor::TokenKind;
use polyasm_shader::TARGET;
use polyasm_shader::ops::{Reg, Type};

/// Each word of `text` with its kind.
fn words(text: &str) -> Vec<(&str, TokenKind)> {
    (&TARGET as &dyn Target).words(text)
}

/// The errors of assembling `text` (in the dialect its forms say).
fn errors(text: &str) -> Vec<String> {
    (&TARGET as &dyn Target).error_messages("t.sasm", text)
}

#[test]
fn examples_read_as_mnemonics_registers_numbers_and_comments() {
    use TokenKind::*;
    let line = |example: &'static str, start: &str| {
        example
            .lines()
            .find(|l| l.starts_with(start))
            .expect("the example has it")
    };
    let sphere = include_str!("../../../examples/shader/sphere.sasm");
    assert_eq!(
        words(line(sphere, "getComponent0(s, s0)")),
        [
            ("getComponent0", Mnemonic),
            ("s", Register),
            ("s0", Register),
            ("# s0 = width", Comment)
        ]
    );
    assert_eq!(
        words(line(sphere, "load(s7, 0.5)")),
        [
            ("load", Mnemonic),
            ("s7", Register),
            ("0.5", Number),
            ("# s7 = 1/2", Comment)
        ]
    );
    assert_eq!(
        words(line(sphere, "load(s0, -2)")),
        [("load", Mnemonic), ("s0", Register), ("-", Operator), ("2", Number)]
    );
    let v2 = include_str!("../../../examples/shader/shadervm_sphere.sasm");
    assert_eq!(
        words(line(v2, "getComponent(pc, s0, z)")),
        [
            ("getComponent", Mnemonic),
            ("pc", Register),
            ("s0", Register),
            ("z", Register)
        ]
    );
    // Registers are lower case only; `s8` and `v8` are none.
    assert_eq!(
        words("add(S0, s8, v8)")[1..],
        [("S0", Name), ("s8", Name), ("v8", Name)]
    );
}

#[test]
fn every_register_is_accepted_where_it_is_read_or_written() {
    let lexicon = TARGET.lexicon();
    for row in lexicon.registers {
        for name in row.every_name() {
            assert!(lexicon.register(&name).is_some_and(|r| r.name == row.name), "{name}");
            // A scalar is read and written by `move`, a vector's x lane by `getComponent0` and
            // `setComponent0` (v1 forms, as v1 has every register but v2's `z`).
            let reg = Reg::from_name(&name).expect("the assembler's register");
            let scalar = reg.ty() == Type::Scalar;
            let (read, write) = if scalar {
                (format!("move({name}, s1)"), format!("move(s1, {name})"))
            } else {
                (
                    format!("getComponent0({name}, s1)"),
                    format!("setComponent0({name}, s1)"),
                )
            };
            assert_eq!(errors(&read), Vec::<String>::new(), "{read}");
            assert_eq!(errors(&write).is_empty(), row.write, "{write}");
        }
        if let Some((_, last)) = row.numbers {
            let past = format!("{}{}", row.name, last + 1);
            assert!(
                !row.names(&past, lexicon.any_case) && lexicon.register(&past).is_none(),
                "{past}"
            );
        }
    }
    let docs: Vec<&str> = lexicon.registers.iter().map(|r| r.doc).collect();
    assert!(docs[0].contains("s0...s5") && docs[1].contains("v0...v4"), "{docs:?}");
    assert!(lexicon.register("z").is_some_and(|z| z.doc.ends_with("(v2 only)")));
}
