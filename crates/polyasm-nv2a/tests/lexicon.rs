//! nv2a's lexicon: how an editor reads nv2a text, and registers the assembler accepts.

use polyasm_core::Target;
use polyasm_core::editor::TokenKind;
use polyasm_nv2a::TARGET;

/// Each word of `text` with its kind.
fn words(text: &str) -> Vec<(&str, TokenKind)> {
    (&TARGET as &dyn Target).words(text)
}

/// The errors of assembling `text`.
fn errors(text: &str) -> Vec<String> {
    (&TARGET as &dyn Target).error_messages("t.vsh", text)
}

#[test]
fn an_example_reads_as_mnemonics_registers_names_numbers_and_comments() {
    use TokenKind::*;
    let example = include_str!("../../../examples/nv2a/lighting.vsh");
    let line = |start: &str| {
        example
            .lines()
            .find(|l| l.starts_with(start))
            .expect("the example has it")
    };
    assert_eq!(
        words(line("#ambient")),
        [("#ambient", Name), ("vector", Name), ("105", Number)]
    );
    assert_eq!(
        words(line("%matmul4x4")),
        [
            ("%matmul4x4", Name),
            ("oPos", Register),
            ("iPos", Register),
            ("#mvp", Name)
        ]
    );
    assert_eq!(
        words(line("mov oT0, iTex0 + lit")),
        [
            ("mov", Mnemonic),
            ("oT0", Register),
            ("iTex0", Register),
            ("+", Operator),
            ("lit", Mnemonic),
            ("r1", Register),
            ("r2", Register)
        ]
    );
    assert_eq!(
        words(line("mul r3.xyz, r1.y")),
        [
            ("mul", Mnemonic),
            ("r3.xyz", Register),
            ("r1.y", Register),
            ("#diffuse", Name)
        ]
    );
    assert_eq!(
        words("MUL R0.xyz, -v2.zxy, c[A0+4] ; relative\nARL a0.x, C5.x /* the\nindex */"),
        [
            ("MUL", Mnemonic),
            ("R0.xyz", Register),
            ("-", Operator),
            ("v2.zxy", Register),
            ("c", Register),
            ("A0", Register),
            ("+", Operator),
            ("4", Number),
            ("; relative", Comment),
            ("ARL", Mnemonic),
            ("a0.x", Register),
            ("C5.x", Register),
            ("/* the\nindex */", Comment)
        ]
    );
    assert_eq!(
        words("r13 v16 c192 a1 oT4"),
        [
            ("r13", Name),
            ("v16", Name),
            ("c192", Name),
            ("a1", Name),
            ("oT4", Name)
        ]
    );
}

/// A one-line program that uses register `name` (of `row`) as a source or a destination.
fn using(row: &str, name: &str, destination: bool) -> String {
    match (row, destination) {
        ("a0", true) => "arl a0, v0.x".to_string(),
        ("c", true) if name == "c" => "mov c[3], r0".to_string(),
        ("c", false) if name == "c" => "mov r0, c[3]".to_string(),
        (_, true) => format!("mov {name}, r0"),
        (_, false) => format!("mov r0, {name}"),
    }
}

#[test]
fn every_register_is_accepted_where_it_is_read_or_written() {
    let lexicon = TARGET.lexicon();
    for row in lexicon.registers {
        for name in row.every_name() {
            assert!(lexicon.register(&name).is_some_and(|r| r.name == row.name), "{name}");
            for (allowed, destination) in [(row.read, false), (row.write, true)] {
                let program = using(row.name, &name, destination);
                assert_eq!(errors(&program).is_empty(), allowed, "{program}");
            }
        }
        if let Some((_, last)) = row.numbers {
            let past = format!("{}{}", row.name, last + 1);
            assert!(!row.names(&past, lexicon.any_case), "{past}");
        }
    }
    let names: Vec<String> = lexicon.registers.iter().flat_map(|r| r.every_name()).collect();
    assert_eq!(names.len(), 12 + 1 + 16 + 192 + 1 + 1 + 13 + 19);
    assert!(
        ["oDiffuse", "oD0", "iBackSpecular", "r12"]
            .iter()
            .all(|n| names.iter().any(|m| m == n))
    );
}
