//! Big sources are lexed and parsed on a second thread while the encoder works
//! (`polyasm_core::front::pipeline`); they must assemble exactly as their parts do.

use polyasm_core::{Diagnostic, SourceMap};
use polyasm_nv2a::{AssembleOptions, assemble};

/// A part with pairs (one over two lines), a macro, a comment, and two errors.
const PART: &str = "\
mul r0, v0, #m[1] + rcp r1.w, r0.x
%matmul4x4 oPos, v0, #m
mov oD0, v3
+ rsq r1.x, r2.x
/* a block
   comment */ dp4 r2.x, r0, c[A0+4]
nop
add r3, r1, v0 + rcp r1.x, v1.x
";

/// The words and the (line, code) of each diagnostic.
fn assembled(text: &str) -> (Vec<u32>, Vec<(usize, &'static str)>) {
    let mut sources = SourceMap::new();
    let file = sources.add("big.vsh", text);
    let options = AssembleOptions {
        max_instructions: None,
        ..AssembleOptions::default()
    };
    let outcome = assemble(&sources, file, options);
    let lines = outcome
        .diagnostics
        .iter()
        .map(|d: &Diagnostic| {
            let span = d
                .primary_label()
                .expect("every nv2a diagnostic points into the source")
                .span;
            (sources.get(file).line_col(span.start as usize).line, d.code)
        })
        .collect();
    // With errors there is no object; the words of what did encode are not compared.
    (outcome.value.map(|o| o.words().collect()).unwrap_or_default(), lines)
}

#[test]
fn a_big_source_assembles_as_its_parts_do() {
    let header = "#m matrix4 8\n";
    let (_, part_diagnostics) = assembled(&format!("{header}{PART}"));
    assert_eq!(
        part_diagnostics.iter().map(|d| d.1).collect::<Vec<_>>(),
        ["NV2A003", "NV2A020"],
        "the part's own errors"
    );
    let copies = 256 * 1024 / PART.len() + 1;
    let big = format!("{header}{}", PART.repeat(copies));
    assert!(big.len() >= polyasm_core::front::PIPELINE_MIN_BYTES);
    let (_, big_diagnostics) = assembled(&big);
    let part_lines = PART.lines().count();
    let expected: Vec<(usize, &str)> = (0..copies)
        .flat_map(|copy| {
            part_diagnostics
                .iter()
                .map(move |&(line, code)| (line + copy * part_lines, code))
        })
        .collect();
    assert_eq!(big_diagnostics, expected);
}

#[test]
fn a_big_valid_source_gives_the_words_of_its_parts() {
    let header = "#m matrix4 8\n";
    let valid: String = PART
        .lines()
        .filter(|l| !l.starts_with("nop") && !l.starts_with("add"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (part_words, part_diagnostics) = assembled(&format!("{header}{valid}"));
    assert!(part_diagnostics.is_empty(), "{part_diagnostics:?}");
    let copies = 256 * 1024 / valid.len() + 1;
    let (big_words, big_diagnostics) = assembled(&format!("{header}{}", valid.repeat(copies)));
    assert!(big_diagnostics.is_empty());
    // Only the program's last instruction carries FINAL (bit 0 of its last word).
    let mut unfinal = part_words.clone();
    *unfinal.last_mut().unwrap() &= !1;
    let mut expected: Vec<u32> = unfinal.repeat(copies);
    *expected.last_mut().unwrap() |= 1;
    assert_eq!(big_words.len(), expected.len());
    assert!(big_words == expected, "the words differ from the parts'");
}
