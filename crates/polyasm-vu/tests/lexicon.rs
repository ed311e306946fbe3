//! The VU's lexicon: how an editor reads VU text, and registers the assembler accepts.

use polyasm_core::Target;
use polyasm_core::editor::TokenKind;
use polyasm_vu::TARGET;

/// Each word of `text` with its kind.
fn words(text: &str) -> Vec<(&str, TokenKind)> {
    (&TARGET as &dyn Target).words(text)
}

/// The errors of assembling `text`.
fn errors(text: &str) -> Vec<String> {
    (&TARGET as &dyn Target).error_messages("t.vu", text)
}

#[test]
fn an_example_reads_as_mnemonics_registers_outputs_numbers_and_comments() {
    use TokenKind::*;
    let example = include_str!("../../../examples/vu/lighting.vu");
    let line = |start: &str| {
        example
            .lines()
            .find(|l| l.starts_with(start))
            .expect("the example has it")
    };
    assert_eq!(
        words(line("mulm r0 r4")),
        [
            ("mulm", Mnemonic),
            ("r0", Register),
            ("r4", Register),
            ("// clip-space position", Comment)
        ]
    );
    assert_eq!(
        words(line("shf r1 r1 xxxx")),
        [
            ("shf", Mnemonic),
            ("r1", Register),
            ("r1", Register),
            ("xxxx", Name),
            ("0b1111", Number),
            ("// the term in every lane", Comment)
        ]
    );
    assert_eq!(
        words("st ocol r15 /* the\noffset */ end"),
        [
            ("st", Mnemonic),
            ("ocol", Register),
            ("r15", Register),
            ("/* the\noffset */", Comment),
            ("end", Mnemonic)
        ]
    );
    assert_eq!(words(".word 0x3f"), [(".word", Name), ("0x3f", Number)]);
    // Registers are lower case only, and `r16` is no register.
    assert_eq!(
        words("st POS R1 r16")[1..],
        [("POS", Name), ("R1", Name), ("r16", Name)]
    );
}

#[test]
fn every_register_is_accepted_where_it_is_read_or_written() {
    let lexicon = TARGET.lexicon();
    assert_eq!(lexicon.registers.len(), 5);
    for row in lexicon.registers {
        for name in row.every_name() {
            assert_eq!(lexicon.register(&name).map(|r| r.name), Some(row.name));
            if row.write && row.read {
                assert_eq!(errors(&format!("add {name} r0")), Vec::<String>::new(), "{name}");
                assert_eq!(errors(&format!("st pos {name}")), Vec::<String>::new(), "{name}");
            } else {
                assert!(row.write && !row.read, "{name}");
                assert_eq!(errors(&format!("st {name} r0")), Vec::<String>::new(), "{name}");
                assert!(!errors(&format!("add r0 {name}")).is_empty(), "{name}");
            }
        }
        if let Some((_, last)) = row.numbers {
            let past = format!("{}{}", row.name, last + 1);
            assert!(!row.names(&past, lexicon.any_case) && lexicon.register(&past).is_none());
            assert!(!errors(&format!("add {past} r0")).is_empty());
        }
    }
}
