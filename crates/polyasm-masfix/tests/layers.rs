//! The crate's modules form layers (docs/architecture.md, Masfix): a module uses only modules
//! of lower layers, so that no two modules import each other, directly or through others. The
//! uses are read from the sources: `use crate::...` lines (grouped ones too) and `crate::x::`
//! and `super::x` paths in code, outside comments and test modules.

use std::collections::BTreeSet;

/// The modules by layer, lowest first (`lib` is the crate root).
const LAYERS: &[&[&str]] = &[
    &["limits", "ops", "lexer", "expansions", "stdlib"],
    &["bytecode", "exec", "print", "parser", "error"],
    &["decode", "found"],
    &["encode", "expand"],
    &["driver"],
    &["target"],
    &["lib"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The identifier at the start of `text`.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The modules `source` (the text of module `module`) uses.
fn uses(module: &str, source: &str) -> BTreeSet<String> {
    let code = source.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or_default();
                found.extend(group.split(',').map(|item| identifier(item.trim()).to_string()));
            } else {
                found.insert(identifier(rest).to_string());
            }
        }
        // A top-level module's parent is the crate root.
        if line.contains("super::") {
            found.insert("lib".to_string());
        }
    }
    found.retain(|used| !used.is_empty() && used != module);
    found
}

#[test]
fn every_module_uses_only_modules_of_lower_layers() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = Vec::new();
    for entry in std::fs::read_dir(&src).expect("the crate's sources") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 file name");
            modules.push((name.to_string(), std::fs::read_to_string(&path).expect("a source file")));
        }
    }
    assert!(modules.len() >= 10, "the sources were found: {}", src.display());
    let mut wrong = Vec::new();
    for (module, source) in &modules {
        let Some(layer) = layer_of(module) else {
            wrong.push(format!("`{module}` is in no layer: add it to LAYERS and to the docs"));
            continue;
        };
        for used in uses(module, source) {
            // `crate::name` of no module names an item of the crate root.
            let used = if modules.iter().any(|(m, _)| *m == used) {
                used
            } else {
                "lib".to_string()
            };
            if layer_of(&used).is_none_or(|below| below >= layer) {
                wrong.push(format!("`{module}` uses `{used}`, which is not below it"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_of_uses_finds_grouped_and_inline_paths() {
    let source = "use crate::a::B;\nuse crate::{b, c::D};\n// crate::commented\nfn f() { crate::e::g(); }\n\
                  #[cfg(test)]\nmod tests {\n    use crate::t;\n}\n";
    let found: Vec<String> = uses("x", source).into_iter().collect();
    assert_eq!(found, ["a", "b", "c", "e"]);
    assert_eq!(uses("x", "use super::y;\n").into_iter().collect::<Vec<_>>(), ["lib"]);
}
