//! The file-based corpus: every `tests/corpus/<dialect>/*` file is assembled; the rendered
//! diagnostics and the listing are an insta snapshot beside this file.
//!
//! A file's first line may say which diagnostics it must produce: `// expect: VU003 VU003`.
//! Files named `err_*` must fail; all others must assemble.

use std::path::Path;

use polyasm_core::SourceMap;
use polyasm_core::output::{OutputContext, write_listing};
use polyasm_core::render::{ErrorFormat, render};

fn expected_codes(text: &str) -> Vec<String> {
    let first = text.lines().next().unwrap_or_default();
    let mut codes: Vec<String> = first
        .split_once("expect:")
        .map(|(_, codes)| codes.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    codes.sort();
    codes
}

fn check_file(path: &Path) -> String {
    let registry = polyasm::registry();
    let name = format!(
        "tests/corpus/{}",
        path.strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus"))
            .unwrap()
            .display()
    );
    let target = registry
        .by_path(&name)
        .unwrap_or_else(|| panic!("no target for {name}"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let outcome = target.assemble(&mut sources, file, &Default::default());

    let mut codes: Vec<String> = outcome.diagnostics.iter().map(|d| d.code.to_string()).collect();
    codes.sort();
    assert_eq!(
        codes,
        expected_codes(&text),
        "{name}: diagnostics differ from its `// expect:` line"
    );
    for d in &outcome.diagnostics {
        let info = polyasm_core::Explain::explain(registry, d.code).expect("every code has an explanation");
        assert_eq!(
            info.severity, d.severity,
            "{name}: {} is reported at another severity than its table row",
            d.code
        );
    }
    let must_fail = path.file_name().unwrap().to_str().unwrap().starts_with("err_");
    assert_eq!(
        outcome.value.is_none(),
        must_fail,
        "{name}: err_ files must fail and others must assemble"
    );

    let mut snapshot = String::new();
    for diagnostic in &outcome.diagnostics {
        snapshot.push_str(&render(diagnostic, &sources, ErrorFormat::Human, false, registry));
        snapshot.push('\n');
    }
    if let Some(object) = &outcome.value {
        let ctx = OutputContext {
            sources: &sources,
            target: target.info().name,
            input_name: &name,
            symbol: "program",
        };
        snapshot.push_str(&write_listing(object, &ctx));
    }
    snapshot
}

#[test]
fn vu_corpus() {
    let mut count = 0;
    insta::glob!("corpus/vu/*.vu", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 15, "the VU corpus has {count} files");
}

#[test]
fn nv2a_corpus() {
    let mut count = 0;
    insta::glob!("corpus/nv2a/*.vsh", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 25, "the nv2a corpus has {count} files");
}

#[test]
fn masfix_corpus() {
    let mut count = 0;
    insta::glob!("corpus/masfix/*.mx", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 30, "the Masfix corpus has {count} files");
}

#[test]
fn shader_corpus() {
    let mut count = 0;
    insta::glob!("corpus/shader/*.sasm", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 20, "the shader-asm corpus has {count} files");
}
