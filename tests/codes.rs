//! Every diagnostic code is declared once: in one `codes!` invocation, with one section in its
//! dialect's docs/codes/<dialect>.md, and written nowhere else in the sources.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The workspace's module reader, shared with the shape checks.
#[allow(dead_code)]
#[path = "shape/modules.rs"]
mod modules;

use polyasm_core::CodeInfo;
use polyasm_core::codes::check;

/// Each declaration: its markdown file, its rows and the markdown it embeds.
fn declarations() -> [(&'static str, &'static [CodeInfo], &'static str); 6] {
    [
        (
            "core",
            polyasm_core::explain::Code::ROWS,
            polyasm_core::explain::Code::EXPLANATIONS,
        ),
        (
            "nv2a",
            polyasm_nv2a::error::Code::ROWS,
            polyasm_nv2a::error::Code::EXPLANATIONS,
        ),
        (
            "vu",
            polyasm_vu::error::Code::ROWS,
            polyasm_vu::error::Code::EXPLANATIONS,
        ),
        (
            "masfix",
            polyasm_masfix::error::Code::ROWS,
            polyasm_masfix::error::Code::EXPLANATIONS,
        ),
        (
            "shader",
            polyasm_shader::error::Code::ROWS,
            polyasm_shader::error::Code::EXPLANATIONS,
        ),
        (
            "lima",
            polyasm_lima::error::Code::ROWS,
            polyasm_lima::error::Code::EXPLANATIONS,
        ),
    ]
}

#[test]
fn every_code_has_one_section_with_its_title_and_every_section_a_code() {
    let mut problems = Vec::new();
    for (name, rows, markdown) in declarations() {
        let file = format!("docs/codes/{name}.md");
        let on_disk = std::fs::read_to_string(&file).expect("every declaration's markdown file exists");
        assert_eq!(on_disk, markdown, "{file} is the file its declaration embeds");
        problems.extend(check(rows, markdown).into_iter().map(|p| format!("{file}: {p}")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let mut files: Vec<String> = std::fs::read_dir("docs/codes")
        .expect("docs/codes exists")
        .map(|entry| {
            entry
                .expect("docs/codes is readable")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let mut declared: Vec<String> = declarations().iter().map(|(name, ..)| format!("{name}.md")).collect();
    declared.sort();
    assert_eq!(files, declared, "docs/codes holds one file per declaration");
}

#[test]
fn no_code_is_declared_in_two_places_and_every_target_lists_its_declaration() {
    let mut first: HashMap<&str, &str> = HashMap::new();
    for (name, rows, _) in declarations() {
        for row in rows {
            if let Some(other) = first.insert(row.code, name) {
                panic!("{} is declared for {other} and for {name}", row.code);
            }
        }
    }
    let registry = polyasm::registry();
    let listed: usize =
        polyasm_core::explain::Code::table().len() + registry.targets().iter().map(|t| t.codes().len()).sum::<usize>();
    assert_eq!(listed, first.len(), "`polyasm explain` lists every declared code once");
    for target in registry.targets() {
        let codes: Vec<&str> = target.codes().iter().map(|c| c.code).collect();
        let owner = first[codes[0]];
        assert!(codes.iter().all(|c| first[c] == owner), "{}", target.info().name);
    }
}

/// The page whose generated `codes` regions list each declaration's codes.
fn page_of(declaration: &str) -> &'static str {
    match declaration {
        "core" => "docs/cli.md",
        "nv2a" => "docs/nv2a.md",
        "vu" => "docs/vu.md",
        "masfix" => "docs/masfix.md",
        "shader" => "docs/shader.md",
        "lima" => "docs/lima.md",
        other => panic!("no page for {other}"),
    }
}

/// Each dialect's page lists its codes in generated regions: `codes` holds them all,
/// `codes-PREFIX` those whose code starts with PREFIX (`codes-PP1`, Mesa's text). Every code
/// is in one region of its page. `POLYASM_BLESS_DOCS=1` rewrites the regions.
#[test]
fn the_pages_list_every_code_in_generated_regions() {
    let begin = polyasm_core::table::region_begin("codes");
    let begin = begin.trim_end().trim_end_matches(" -->");
    let mut problems = Vec::new();
    for (name, rows, _) in declarations() {
        let page = page_of(name);
        let text = std::fs::read_to_string(page).expect("every declaration's page exists");
        let names: Vec<String> = text
            .lines()
            .filter_map(|line| line.strip_prefix(begin)?.strip_suffix(" -->"))
            .map(|rest| format!("codes{rest}"))
            .collect();
        let mut regions = Vec::new();
        let mut listed = 0;
        for region in &names {
            let prefix = region.strip_prefix("codes-").unwrap_or("");
            let chosen: Vec<CodeInfo> = rows
                .iter()
                .filter(|row| row.code.starts_with(prefix))
                .copied()
                .collect();
            if chosen.is_empty() {
                problems.push(format!("{page}: the region `{region}` lists no code"));
            }
            listed += chosen.len();
            regions.push((region.as_str(), polyasm_core::codes::markdown(&chosen)));
        }
        if listed != rows.len() {
            problems.push(format!(
                "{page}: its `codes` regions list {listed} codes, {} are declared",
                rows.len()
            ));
        }
        if let Err(message) = polyasm_core::table::check_doc_regions(Path::new(page), &regions) {
            problems.push(message);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The code-like string literals (`"VU001"`, `"NV2A030"`, `"MX064"`, `"SH016"`, `"PP027"`,
/// `"PA014"`) of a Rust source, with their 1-based lines, outside `codes!` invocations,
/// `#[cfg(test)]` items and comments (doc examples are tests).
fn stray_codes(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let item = if trimmed.starts_with("#[cfg(test)]") {
            // The attributes, then the item they gate.
            let mut j = i + 1;
            while j < lines.len() && lines[j].trim_start().starts_with("#[") {
                j += 1;
            }
            Some(j)
        } else if trimmed.trim_end().ends_with("codes! {") {
            Some(i)
        } else {
            None
        };
        if let Some(start) = item {
            let close = format!("{indent}}}");
            let end = match lines.get(start) {
                Some(head) if head.trim_end().ends_with('{') => (start + 1..lines.len())
                    .find(|&k| lines[k].trim_end() == close)
                    .unwrap_or(lines.len()),
                _ => start,
            };
            i = end + 1;
            continue;
        }
        if !trimmed.starts_with("//") {
            found.extend(code_literals(line).into_iter().map(|code| (i + 1, code)));
        }
        i += 1;
    }
    found
}

/// The code-like string literals on one line.
fn code_literals(line: &str) -> Vec<String> {
    const PREFIXES: [&str; 6] = ["NV2A", "VU", "MX", "SH", "PP", "PA"];
    let bytes = line.as_bytes();
    let mut codes = Vec::new();
    for (at, _) in line.match_indices('"') {
        let rest = &line[at + 1..];
        for prefix in PREFIXES {
            let Some(digits) = rest.strip_prefix(prefix) else {
                continue;
            };
            let digits = digits.as_bytes();
            if digits.len() >= 4 && digits[..3].iter().all(u8::is_ascii_digit) && digits[3] == b'"' {
                codes.push(String::from_utf8_lossy(&bytes[at..at + prefix.len() + 5]).into_owned());
            }
        }
    }
    codes
}

/// The source files of every crate of the workspace, as the compiler reads them outside
/// tests: modules declared under `#[cfg(test)]` are left out, for they are tests as a whole.
fn source_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = modules::workspace_roots(Path::new(env!("CARGO_MANIFEST_DIR")))
        .iter()
        .flat_map(|root| modules::ModuleGraph::read(root).modules)
        .map(|module| module.file)
        .collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn code_strings_are_written_only_in_their_declaration() {
    let files = source_files();
    assert!(files.len() > 40, "the scan reads the workspace's sources");
    let mut stray = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("sources are UTF-8 text");
        for (line, code) in stray_codes(&text) {
            stray.push(format!(
                "{}:{line}: {code} is written outside its codes! declaration: name it through the \
                 declaration's enum",
                file.display()
            ));
        }
    }
    assert!(stray.is_empty(), "{}", stray.join("\n"));
}

#[test]
fn the_scan_finds_code_strings_outside_declarations_and_tests() {
    let source = r#"
polyasm_core::codes! {
    pub enum Code, explained in "x.md" {
        Syntax = "VU001", Error, "syntax error";
    }
}

fn code() -> &'static str {
    "VU001"
}

/// `Diagnostic::error("PA003", ..)` in a comment is not code.
fn both() -> [&'static str; 2] {
    ["NV2A030", "PP027"] // "MX064"
}

#[cfg(test)]
fn helper() -> &'static str { "SH016" }

#[cfg(test)]
#[allow(dead_code)]
mod tests {
    const A: &str = "PA014";
}

fn not_codes() -> [&'static str; 3] {
    ["VU01", "VU0011", "XX001"]
}
"#;
    assert_eq!(
        stray_codes(source),
        [
            (9, "\"VU001\"".to_string()),
            (14, "\"NV2A030\"".to_string()),
            (14, "\"PP027\"".to_string()),
            (14, "\"MX064\"".to_string()),
        ]
    );
}
