//! The file-based corpus of the proposed syntax: every `tests/corpus/lima/*.pp` file of the
//! workspace is assembled; the rendered diagnostics and the listing are an insta snapshot in
//! `tests/snapshots/` beside this file.
//!
//! A file's first line may say which diagnostics it must produce: `# expect: PP009 PP024`.
//! Files named `err_*` must fail; all others must assemble.

use std::path::Path;

use polyasm_core::output::{OutputContext, write_listing};
use polyasm_core::render::{ErrorFormat, render};
use polyasm_core::{CodeInfo, Explain, SourceMap};
use polyasm_lima::error::CODES;
use polyasm_lima::syntax::proposed::assemble_proposed;

/// The dialect's codes, for the renderer and for the severity check.
struct Codes;

impl Explain for Codes {
    fn explain(&self, code: &str) -> Option<&'static CodeInfo> {
        polyasm_core::explain::find(CODES, code)
    }
}

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
    let name = format!(
        "tests/corpus/lima/{}",
        path.file_name().expect("a file").to_str().expect("an ASCII name")
    );
    let text = std::fs::read_to_string(path).expect("readable corpus file");
    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let outcome = assemble_proposed(&sources, file, true);

    let mut codes: Vec<String> = outcome.diagnostics.iter().map(|d| d.code.to_string()).collect();
    codes.sort();
    assert_eq!(
        codes,
        expected_codes(&text),
        "{name}: diagnostics differ from its `# expect:` line"
    );
    for d in &outcome.diagnostics {
        let info = Codes.explain(d.code).expect("every code has an explanation");
        assert_eq!(
            info.severity, d.severity,
            "{name}: {} is reported at another severity than its table row",
            d.code
        );
        assert!(d.primary_label().is_some(), "{name}: {} has no span", d.code);
    }
    let must_fail = path.file_name().unwrap().to_str().unwrap().starts_with("err_");
    assert_eq!(
        outcome.value.is_none(),
        must_fail,
        "{name}: err_ files must fail and others must assemble"
    );

    let mut snapshot = String::new();
    for diagnostic in &outcome.diagnostics {
        snapshot.push_str(&render(diagnostic, &sources, ErrorFormat::Human, false, &Codes));
        snapshot.push('\n');
    }
    if let Some(assembled) = &outcome.value {
        let ctx = OutputContext {
            sources: &sources,
            target: "lima",
            input_name: &name,
            symbol: "program",
        };
        snapshot.push_str(&write_listing(&assembled.object, &ctx));
    }
    snapshot
}

#[test]
fn lima_corpus() {
    let mut count = 0;
    insta::glob!("../../../tests/corpus/lima", "*.pp", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 30, "the Lima corpus has {count} files");
}
