//! The assembler against its documentation and on big inputs.

use polyasm_core::SourceMap;
use polyasm_shader::ops::{MAX_INSTRUCTIONS, Op};
use polyasm_shader::{assemble, assemble_text, print};

#[test]
fn the_documentation_shows_the_instruction_and_register_tables() {
    let regions = [("ops", Op::markdown()), ("registers", print::markdown_registers())];
    for page in ["docs/shader.md", "docs/formats/shader-bytecode.md"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(page);
        if let Err(message) = polyasm_core::table::check_doc_regions(&path, &regions) {
            panic!("{message}");
        }
    }
}

#[test]
fn every_bad_line_of_a_big_file_is_reported_once() {
    let bad = [
        "Add(s0, s1, s2)\n",
        "move(s0, s9)\n",
        "multiply(v0, s1, s2)\n",
        "load(s0, 1e39)\n",
        "load(s0, 1..2)\n",
        "negate(s0)\n",
        "move(s0 s1)\n",
        "move(s0, t)\n",
        "move(s0, s1) x\n",
        "move(s0, s1\n",
        "   # a comment\n",
    ];
    let lines = 20_000;
    let text: String = bad.iter().cycle().take(lines).copied().collect();
    let errors = assemble_text(&text).unwrap_err();
    assert_eq!(errors.len(), lines / bad.len() * (bad.len() - 1) + lines % bad.len());
    let mut last = 0;
    for d in &errors {
        let start = d.primary_label().expect("a span").span.start;
        assert!(start >= last, "diagnostics come in source order");
        last = start;
    }
}

#[test]
fn a_program_past_the_limit_is_one_error_and_good_lines_stay_good() {
    let line = "getComponent0(pc, s0)\n";
    let mut sources = SourceMap::new();
    let file = sources.add(
        "big.sasm",
        line.repeat(MAX_INSTRUCTIONS + 1000) + "setComponent0(c, s0)\n",
    );
    let outcome = assemble(&sources, file, false);
    let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["SH014"]);
    let at = outcome.diagnostics[0].primary_label().expect("a span").span;
    assert_eq!(at.start as usize, line.len() * MAX_INSTRUCTIONS);
}
