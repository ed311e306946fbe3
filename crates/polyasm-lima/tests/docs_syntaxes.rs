//! docs/lima.md shows the two syntaxes side by side; each example there must give the same
//! words in both, and print back as it is written.

use polyasm_lima::assemble_mesa_str;
use polyasm_lima::decode::decode;
use polyasm_lima::instr::words::encode;
use polyasm_lima::syntax::proposed::assemble_proposed_text;
use polyasm_lima::syntax::{mesa, proposed};

/// The table's examples: (what, proposed lines, Mesa lines).
fn examples() -> Vec<(String, Vec<String>, Vec<String>)> {
    let doc = include_str!("../../../docs/lima.md");
    let start = doc.find("## The two syntaxes side by side").expect("the section");
    let section = &doc[start..];
    let section = &section[..section[3..].find("\n## ").expect("the next section") + 3];
    let cell = |text: &str| text.trim().trim_matches('`').replace("\\|", "|");
    let mut examples: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| ") && l.contains('`')) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "{line}");
        let (what, proposed, mesa) = (cells[0].trim(), cell(cells[1]), cell(cells[2]));
        if !what.is_empty() {
            examples.push((what.to_string(), Vec::new(), Vec::new()));
        }
        let example = examples.last_mut().expect("a row with a description first");
        example.1.push(proposed);
        if !mesa.is_empty() {
            example.2.push(mesa);
        }
    }
    examples
}

#[test]
fn every_example_gives_the_same_words_in_both_syntaxes() {
    let examples = examples();
    assert!(examples.len() >= 20, "{} examples", examples.len());
    for (what, proposed, mesa_lines) in examples {
        let proposed = proposed.join("\n") + "\n";
        let program = assemble_proposed_text(&proposed).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let words = encode(&program);
        let mesa_text = mesa_lines.join("\n") + "\n";
        assert_eq!(
            assemble_mesa_str(&mesa_text).unwrap_or_else(|e| panic!("{what}: {e:?}")),
            words,
            "{what}"
        );
        // Both texts are what the printers write for those words.
        let decoded = decode(&words).expect("valid words");
        assert_eq!(proposed::print_proposed(&program), proposed, "{what}");
        let printed: Vec<String> = decoded
            .iter()
            .map(|d| mesa::print_instr(&d.instr, d.offset).trim_end().to_string())
            .collect();
        assert_eq!(printed, mesa_lines, "{what}");
    }
}
