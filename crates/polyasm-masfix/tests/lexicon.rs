//! Masfix's lexicon: how an editor reads Masfix text, and where it includes files from.

use polyasm_core::Target;
use polyasm_core::editor::TokenKind;
use polyasm_masfix::TARGET;

/// Each word of `text` with its kind.
fn words(text: &str) -> Vec<(&str, TokenKind)> {
    (&TARGET as &dyn Target).words(text)
}

/// The errors of assembling `text`.
fn errors(text: &str) -> Vec<String> {
    (&TARGET as &dyn Target).error_messages("t.mx", text)
}

#[test]
fn examples_read_as_mnemonics_names_numbers_strings_and_comments() {
    use TokenKind::*;
    let stats = include_str!("../../../examples/masfix/stats.mx");
    let line = |example: &'static str, start: &str| {
        example
            .lines()
            .find(|l| l.trim_start().starts_with(start))
            .expect("the example has it")
    };
    assert_eq!(
        words(line(stats, "%include")),
        [("%include", Mnemonic), ("\"std/all\"", String)]
    );
    assert_eq!(
        words(line(stats, "%define END")),
        [
            ("%define", Mnemonic),
            ("END", Name),
            ("65535", Number),
            ("; what ipc reads at the end of the input", Comment)
        ]
    );
    assert_eq!(words(line(stats, "jmp main")), [("jmp", Mnemonic), ("main", Name)]);
    assert_eq!(words(line(stats, "ipc")), [("ipc", Mnemonic)]);
    // An instruction with a register, an operation or a condition glued on is one word, and
    // an instruction: the lexicon asks the encoder.
    assert_eq!(words(line(stats, "ld&m")), [("ld&m", Mnemonic)]);
    assert_eq!(words(line(stats, "ldms '0'")), [("ldms", Mnemonic), ("'0'", String)]);
    assert_eq!(words("bmeq done"), [("bmeq", Mnemonic), ("done", Name)]);
    let compile_time = include_str!("../../../examples/masfix/compile_time.mx");
    assert_eq!(
        words(line(compile_time, "str !fib(%n)")),
        [("str", Mnemonic), ("!fib", Name), ("%n", Name)]
    );
    let reverse = include_str!("../../../examples/masfix/reverse.mx");
    assert_eq!(words(line(reverse, ":pop_(")), [(":pop_", Name), ("!next_label", Name)]);
    assert_eq!(
        words("%std:push(7) ; a namespace"),
        [("%std:push", Name), ("7", Number), ("; a namespace", Comment)]
    );
}

#[test]
fn registers_are_letters_of_a_name_and_no_words() {
    let lexicon = TARGET.lexicon();
    assert!(lexicon.registers.is_empty());
    // `ldm` reads m; `m` alone is a label.
    assert_eq!(errors("ldm\nstrr\n"), Vec::<String>::new());
    assert_eq!(errors("ld m\n").len(), 1);
}

#[test]
fn includes_find_the_standard_library_by_name() {
    let lexicon = TARGET.lexicon();
    assert_eq!(lexicon.include, Some(("%include", "mx")));
    let names = lexicon.builtin_includes;
    assert_eq!(
        names,
        ["std/stack", "std/control", "std/proc", "std/math", "std/io", "std/all"]
    );
    for name in names {
        let program = format!("%include \"{name}\"\n");
        assert_eq!(errors(&program), Vec::<String>::new(), "{program}");
    }
    assert_eq!(errors("%include \"std/none\"\n").len(), 1);
}
