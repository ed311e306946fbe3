//! The file-based corpus of every dialect: each `tests/corpus/<dialect>/*` file is assembled
//! (and, where its directives say so, disassembled or run through the built `polyasm`); the
//! rendered diagnostics, the listing and those commands' outputs are one insta snapshot in
//! `tests/snapshots/`.
//!
//! A file's first comment lines may hold directives (tests/corpus/README.md lists them):
//! `// expect: VU003 VU003` names the diagnostics assembling must produce, `options:` the
//! options it is given, `disasm:` and `run:` add those commands. Files named `err_*` must
//! fail to assemble; all others must assemble.

use std::path::Path;
use std::process::{Output, Stdio};

use polyasm_core::options::OptionValues;
use polyasm_core::output::{OutputContext, write_hex, write_listing};
use polyasm_core::render::{ErrorFormat, render};
use polyasm_core::{Explain, SourceMap, Target, TargetOptions};

mod common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The comment markers of each dialect, by target name: a directive is a comment.
const COMMENTS: &[(&str, &[&str])] = &[
    ("vu", &["//"]),
    ("nv2a", &["//", ";"]),
    ("masfix", &[";"]),
    ("shader", &["#"]),
    ("lima", &["#"]),
];

/// What a corpus file's directives ask for.
#[derive(Debug, Default, PartialEq, Eq)]
struct Directives {
    /// `expect:`: the codes of assembling's diagnostics, sorted.
    expect: Vec<String>,
    /// `options:`: the target options of assembling (and of `run`).
    options: Vec<String>,
    /// `disasm:`: disassemble the assembled words, with these options.
    disasm: Option<Vec<String>>,
    /// `run:`: run the file with these options.
    run: Option<Vec<String>>,
    /// `stdin:`: the standard input of `run`, with `\n` for a line break and `\\` for `\`.
    stdin: Option<String>,
}

/// The file's lines, with a lone CR ending a line too (some cases test CR-only files).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().flat_map(|line| line.split('\r'))
}

/// `\n` and `\\` of a `stdin:` value.
fn unescape(value: &str) -> String {
    let mut out = String::new();
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some('n')) => {
                out.push('\n');
                chars.next();
            }
            ('\\', Some('\\')) => {
                out.push('\\');
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The directives of `text`: its first lines, as long as each is a comment (one of `markers`)
/// that starts with a lower-case word and a colon.
fn directives(text: &str, markers: &[&str]) -> Result<Directives, String> {
    let mut found = Directives::default();
    for line in lines(text) {
        let line = line.trim_start();
        let Some(rest) = markers.iter().find_map(|m| line.strip_prefix(m)) else {
            break;
        };
        let rest = rest.trim_start();
        let key_len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(rest.len());
        if key_len == 0 || !rest[key_len..].starts_with(':') {
            break;
        }
        let (key, value) = (&rest[..key_len], rest[key_len + 1..].trim());
        let words = || value.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let once = |given: bool| match given {
            true => Err(format!("the `{key}:` directive is given twice")),
            false => Ok(()),
        };
        match key {
            "expect" => found.expect.extend(words()),
            "options" => found.options.extend(words()),
            "disasm" => {
                once(found.disasm.is_some())?;
                found.disasm = Some(words());
            }
            "run" => {
                once(found.run.is_some())?;
                found.run = Some(words());
            }
            "stdin" => {
                once(found.stdin.is_some())?;
                found.stdin = Some(unescape(value));
            }
            _ => return Err(format!("unknown directive `{key}:`")),
        }
    }
    if found.stdin.is_some() && found.run.is_none() {
        return Err("`stdin:` without `run:`".to_string());
    }
    found.expect.sort();
    Ok(found)
}

/// `args` as the target options of assembling: `--name VALUE` or `--flag`, as the command
/// line reads them.
fn target_options(target: &dyn Target, args: &[String]) -> Result<TargetOptions, String> {
    let specs = target.info().assemble_options;
    let mut given: Vec<(&str, &str)> = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let name = arg
            .strip_prefix("--")
            .ok_or_else(|| format!("`{arg}` is not an option"))?;
        let spec = specs
            .iter()
            .find(|s| s.long == name)
            .ok_or_else(|| format!("`{arg}` is not an assembling option of {}", target.info().name))?;
        if spec.takes_value() {
            let value = rest.next().ok_or_else(|| format!("`{arg}` needs a value"))?;
            given.push((spec.long, value));
        } else {
            given.push((spec.long, ""));
        }
    }
    let values = OptionValues::read(&[specs], &given).map_err(|e| format!("options {args:?}: {}", e.0.message))?;
    Ok(TargetOptions {
        values,
        ..TargetOptions::default()
    })
}

/// Runs the built `polyasm` from the workspace root with `args` and `stdin`.
fn polyasm(args: &[String], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = common::polyasm()
        .current_dir(ROOT)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("polyasm runs");
    // A command that does not read its input may close the pipe first: not a failure here.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("polyasm ends")
}

/// One output stream for the snapshot: text as it is, a PNG as its pixels, other bytes in hex.
fn shown(bytes: &[u8]) -> String {
    if bytes.starts_with(b"\x89PNG") {
        let image = common::decode_png(bytes);
        let mut out = format!("picture {}x{}, RGBA rows from the top:\n", image.width, image.height);
        for y in 0..image.height {
            let row: Vec<String> = (0..image.width)
                .map(|x| image.pixel(x, y).iter().map(|b| format!("{b:02x}")).collect())
                .collect();
            out.push_str(&row.join(" "));
            out.push('\n');
        }
        return out;
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => {
            let mut out = format!("{} bytes:\n", bytes.len());
            for chunk in bytes.chunks(16) {
                let hex: Vec<String> = chunk.iter().map(|b| format!("{b:02x}")).collect();
                out.push_str(&hex.join(" "));
                out.push('\n');
            }
            out
        }
    }
}

/// A command's section of the snapshot: the command, its exit status and what it printed.
fn command_section(name: &str, args: &[String], stdin: &[u8]) -> String {
    let output = polyasm(args, stdin);
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("{name}: polyasm {args:?} was killed: {:?}", output.status));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked"),
        "{name}: polyasm {args:?} panicked:\n{stderr}"
    );
    let mut section = format!("\n=== polyasm {} (exit status {code})\n", args.join(" "));
    for (stream, bytes) in [("standard output", &output.stdout), ("standard error", &output.stderr)] {
        if !bytes.is_empty() {
            section.push_str(&format!("--- {stream}\n"));
            section.push_str(&shown(bytes));
        }
    }
    section
}

/// Checks one corpus file as its directives say; the snapshot text.
fn check_file(path: &Path) -> String {
    let registry = polyasm::registry();
    let name = format!(
        "tests/corpus/{}",
        path.strip_prefix(Path::new(ROOT).join("tests/corpus"))
            .expect("a corpus file")
            .display()
    );
    let target = registry
        .by_path(&name)
        .unwrap_or_else(|| panic!("no target for {name}"));
    let dialect = target.info().name;
    let markers = COMMENTS
        .iter()
        .find(|(t, _)| *t == dialect)
        .unwrap_or_else(|| panic!("no comment markers for {dialect}"))
        .1;
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let directives = directives(&text, markers).unwrap_or_else(|e| panic!("{name}: {e}"));
    let options = target_options(target, &directives.options).unwrap_or_else(|e| panic!("{name}: {e}"));

    let mut sources = SourceMap::new();
    let file = sources.add(name.clone(), text.clone());
    let outcome = target.assemble(&mut sources, file, &options, &mut std::io::sink());

    let mut codes: Vec<String> = outcome.diagnostics.iter().map(|d| d.code.to_string()).collect();
    codes.sort();
    assert_eq!(
        codes, directives.expect,
        "{name}: diagnostics differ from its `expect:` directive"
    );
    for d in &outcome.diagnostics {
        let info = registry.explain(d.code).expect("every code has an explanation");
        assert_eq!(
            info.severity, d.severity,
            "{name}: {} is reported at another severity than its table row",
            d.code
        );
        assert!(d.primary_label().is_some(), "{name}: {} has no span", d.code);
    }
    let must_fail = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("err_"));
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
            target: dialect,
            input_name: &name,
            symbol: "program",
        };
        snapshot.push_str(&write_listing(object, &ctx));
    }
    if let Some(disasm) = &directives.disasm {
        let object = outcome
            .value
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: `disasm:` needs a file that assembles"));
        let mut args: Vec<String> = ["disasm", "-t", dialect, "-"].map(str::to_string).to_vec();
        args.extend(disasm.iter().cloned());
        snapshot.push_str(&command_section(&name, &args, write_hex(object).as_bytes()));
    }
    if let Some(run) = &directives.run {
        let mut args = vec!["run".to_string(), name.clone()];
        args.extend(directives.options.iter().cloned());
        args.extend(run.iter().cloned());
        let stdin = directives.stdin.as_deref().unwrap_or_default();
        snapshot.push_str(&command_section(&name, &args, stdin.as_bytes()));
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

#[test]
fn lima_corpus() {
    let mut count = 0;
    insta::glob!("corpus/lima/*.pp", |path| {
        count += 1;
        insta::assert_snapshot!(check_file(path));
    });
    assert!(count >= 30, "the Lima corpus has {count} files");
}

#[test]
fn every_corpus_folder_is_a_dialect_and_every_file_one_of_its_sources() {
    let registry = polyasm::registry();
    let corpus = Path::new(ROOT).join("tests/corpus");
    let mut dialects = Vec::new();
    for entry in std::fs::read_dir(&corpus).expect("tests/corpus exists") {
        let path = entry.expect("a readable folder entry").path();
        if !path.is_dir() {
            continue;
        }
        let dialect = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 name")
            .to_string();
        let target = registry
            .by_name(&dialect)
            .unwrap_or_else(|| panic!("tests/corpus/{dialect} is not a target"));
        for file in std::fs::read_dir(&path).expect("a readable folder") {
            let file = file.expect("a readable folder entry").path();
            let name = file.display().to_string();
            assert!(
                registry
                    .by_path(&name)
                    .is_some_and(|t| t.info().name == target.info().name),
                "{name} is not a {dialect} source, so no test reads it"
            );
        }
        dialects.push(dialect);
    }
    dialects.sort();
    assert_eq!(dialects, ["lima", "masfix", "nv2a", "shader", "vu"]);
}

#[test]
fn directives_are_read_from_the_first_comment_lines_only() {
    let text = "; expect: MX002 MX001\n; options: --strip\n; Prose: not a directive.\n; expect: MX003\nld 1\n";
    let found = directives(text, &[";"]).expect("valid directives");
    assert_eq!(found.expect, ["MX001", "MX002"]);
    assert_eq!(found.options, ["--strip"]);
    assert_eq!(found.run, None);
    // Another dialect's comment is not a directive.
    assert_eq!(directives("// expect: MX001\n", &[";"]), Ok(Directives::default()));
    // A file with CR-only line ends has lines too.
    let found = directives("# run: --size 1x1\r# expect: SH015\rload(s0, 1)\r", &["#"]).expect("valid");
    assert_eq!(found.run, Some(vec!["--size".to_string(), "1x1".to_string()]));
    assert_eq!(found.expect, ["SH015"]);
}

#[test]
fn directives_take_the_command_options_and_standard_input() {
    let text = "# disasm: --syntax mesa\n# run:\n# stdin: a\\nb\\\\n\n";
    let found = directives(text, &["#"]).expect("valid directives");
    assert_eq!(found.disasm, Some(vec!["--syntax".to_string(), "mesa".to_string()]));
    assert_eq!(found.run, Some(Vec::new()));
    assert_eq!(found.stdin.as_deref(), Some("a\nb\\n"));
}

#[test]
fn a_misspelt_repeated_or_orphan_directive_is_refused() {
    assert_eq!(
        directives("// exepct: VU001\n", &["//"]),
        Err("unknown directive `exepct:`".to_string())
    );
    assert!(directives("# run:\n# run: --size 1x1\n", &["#"]).is_err());
    assert!(directives("; stdin: 1\n", &[";"]).is_err());
}

#[test]
fn options_are_read_as_the_target_reads_them() {
    let lima = polyasm::registry().by_name("lima").expect("the lima target");
    let options = target_options(lima, &["--syntax".to_string(), "mesa".to_string()]).expect("valid options");
    assert_eq!(options.values.word("syntax"), Some("mesa"));
    assert!(target_options(lima, &["--syntax".to_string(), "klingon".to_string()]).is_err());
    assert!(target_options(lima, &["--syntax".to_string()]).is_err());
    assert!(target_options(lima, &["--dialect".to_string(), "v2".to_string()]).is_err());
}
