//! How nv2a text is written, for editors ([`polyasm_core::editor::Lexicon`]): its comments,
//! sigils and registers, the named ones read from [`INPUT_NAMES`] and [`OUTPUTS`].

use std::sync::LazyLock;

use polyasm_core::editor::{Lexicon, Register};

use crate::ops::{CONSTANTS, INPUT_NAMES, INPUTS, OUTPUTS, WRITABLE_TEMPS};

/// `//`, `;` and `/* */` comments; `#uniform`, `%macro` and `.word`; `.` joins a swizzle or
/// mask to its register (`r0.xyz`); names in any letter case.
pub static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| Lexicon {
    line_comments: &["//", ";"],
    block_comment: Some(("/*", "*/")),
    sigils: "#%.",
    word_chars: ".",
    any_case: true,
    registers: registers().leak(),
    destination_first: true,
    leading_zeros: true,
    ..Lexicon::NONE
});

fn registers() -> Vec<Register> {
    let row = |name, numbers, doc, read, write| Register {
        name,
        numbers,
        doc,
        read,
        write,
    };
    let mut rows = vec![
        row(
            "r",
            Some((0, u16::from(WRITABLE_TEMPS) - 1)),
            "temporary registers",
            true,
            true,
        ),
        row(
            "r12",
            None,
            "oPos as the program has written it so far (read only)",
            true,
            false,
        ),
        row(
            "v",
            Some((0, u16::from(INPUTS) - 1)),
            "vertex attribute inputs (v0 is the position)",
            true,
            false,
        ),
        row(
            "c",
            Some((0, CONSTANTS - 1)),
            "constant registers, the program's uniforms (written only by vertex state programs)",
            true,
            true,
        ),
        row(
            "c",
            None,
            "a constant by index: c[N], or c[A0+N] relative to a0",
            true,
            true,
        ),
        row(
            "a0",
            None,
            "the address register: set by `arl a0, src`, read as the index in c[A0+N]",
            false,
            true,
        ),
    ];
    for (number, &name) in INPUT_NAMES.iter().enumerate() {
        let doc = format!("vertex attribute input v{number}").leak();
        rows.push(row(name, None, doc, true, false));
    }
    for output in &OUTPUTS {
        let names = if output.long == output.short {
            &[output.long][..]
        } else {
            &[output.long, output.short]
        };
        rows.extend(names.iter().map(|&name| row(name, None, output.doc, false, true)));
    }
    rows
}
