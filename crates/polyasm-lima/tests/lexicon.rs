//! Lima's lexicon: how an editor reads either syntax, and registers the assembler accepts.

use polyasm_core::Target;
use polyasm_core::editor::TokenKind;
use polyasm_lima::TARGET;

/// Each word of `text` with its kind.
fn words(text: &str) -> Vec<(&str, TokenKind)> {
    (&TARGET as &dyn Target).words(text)
}

/// The errors of assembling `text` (in the syntax it is written in).
fn errors(text: &str) -> Vec<String> {
    (&TARGET as &dyn Target).error_messages("t.pp", text)
}

#[test]
fn both_syntaxes_read_as_opcodes_registers_numbers_and_comments() {
    use TokenKind::*;
    let lit = include_str!("../../../examples/lima/lit_surface.pp");
    let line = lit
        .lines()
        .find(|l| l.starts_with("stop, load.u 1"))
        .expect("the example has it");
    assert_eq!(
        words(line),
        [
            ("stop", Mnemonic),
            ("load.u", Mnemonic),
            ("1", Number),
            ("mul.v0", Mnemonic),
            ("^v0", Register),
            ("^uniform", Register),
            ("$2.wwww", Register),
            ("add.v1", Mnemonic),
            ("$0.xyz", Register),
            ("^v0", Register),
            ("$3", Register),
            ("mov.s1", Mnemonic),
            ("$0.w", Register),
            ("^const0.x", Register),
            ("const0", Mnemonic),
            ("1.0", Number),
            ("0.0", Number),
            ("0.0", Number),
            ("0.0", Number)
        ]
    );
    assert_eq!(lit.lines().next().map(words).unwrap_or_default()[0].1, Comment);
    let mesa = include_str!("../../../examples/lima/clear.mesa.pp");
    let line = mesa.lines().find(|l| l.starts_with('@')).expect("the example has it");
    assert_eq!(
        words(line)[..5],
        [
            ("0", Number),
            ("mov.v0", Mnemonic),
            ("$0", Register),
            ("^const0.xxxx", Register),
            ("const0", Mnemonic)
        ]
    );
    assert_eq!(
        words("label: mov.v0 $12 ^vmul # old")[..4],
        [("label", Name), ("mov.v0", Mnemonic), ("$12", Name), ("^vmul", Name)]
    );
}

/// A one-line program that reads (or writes) register `name` with the unit that may.
fn using(name: &str, destination: bool) -> String {
    match (name, destination) {
        ("^v0", false) => "mul.v0 ^v0 $1 $1, add.v1 $2 ^v0 $1".to_string(),
        ("^s0", false) => "mul.s0 ^s0 $1.x $1.x, add.s1 $2.x ^s0 $1.x".to_string(),
        ("^v0", true) => "mul.v0 ^v0 $1 $1".to_string(),
        ("^s0", true) => "mul.s0 ^s0 $1.x $1.x".to_string(),
        ("^discard", true) => "load.v ^discard 0".to_string(),
        ("^const0" | "^const1", false) => format!("mov.v0 $1 {name}, {} 1 2 3 4", &name[1..]),
        ("^texture", false) => "sync, load.v ^discard 0, texld 0, mov.v0 $1 ^texture".to_string(),
        ("^uniform" | "^u", false) => format!("load.u 0, mov.v0 $1 {name}"),
        (_, false) => format!("mov.v0 $1 {name}"),
        (_, true) => format!("mov.v0 {name} $1"),
    }
}

#[test]
fn every_register_is_accepted_where_it_is_read_or_written() {
    let lexicon = TARGET.lexicon();
    for row in lexicon.registers {
        for name in row.every_name() {
            assert!(lexicon.register(&name).is_some_and(|r| r.name == row.name), "{name}");
            assert!(!row.doc.is_empty(), "{name}");
            for (allowed, destination) in [(row.read, false), (row.write, true)] {
                let program = using(&name, destination);
                assert_eq!(
                    errors(&program).is_empty(),
                    allowed,
                    "{program}: {:?}",
                    errors(&program)
                );
            }
        }
        if let Some((_, last)) = row.numbers {
            let past = format!("{}{}", row.name, last + 1);
            assert!(
                !row.names(&past, lexicon.any_case) && lexicon.register(&past).is_none(),
                "{past}"
            );
            assert!(!errors(&using(&past, false)).is_empty(), "{past}");
        }
    }
    let names: Vec<&str> = lexicon.registers.iter().map(|r| r.name).collect();
    assert_eq!(
        names,
        [
            "$", "^const0", "^const1", "^texture", "^uniform", "^u", "^v0", "^s0", "^discard"
        ]
    );
}
