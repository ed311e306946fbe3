//! The Masfix reference repository's own tests and examples, run through the built binary.
//!
//! Set `POLYASM_MASFIX_REF` to a checkout of the reference repository (docs/masfix.md says
//! which commit and how); without it this test prints a note and passes. Each case is a
//! program with a descriptor `.txt` beside it (`tests/NAME.mx`, `tests/DIR/DIR.mx`) or under
//! `tests/example-results/` (`examples/**.mx`): the exit code, standard output, standard error
//! and standard input, as the reference's test runner reads them. A case passes when polyasm,
//! run from the checkout's root with its standard library folders as `-I` folders and the
//! descriptor's input, exits with the expected code and prints exactly the expected standard
//! output; standard error must be empty where the reference's is, and hold an error where the
//! reference's does (the two tools word their diagnostics differently). Every case runs on
//! both engines (`--engine vm` and `--engine jit`). Every mismatch is reported at once, with
//! the count of runs that pass.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::*;

/// The variable that names the checkout.
const VARIABLE: &str = "POLYASM_MASFIX_REF";

/// Cases that differ for a reason of their own, with the reason (docs/masfix.md lists them
/// too). A case listed here that passes counts as passing.
const EXCEPTIONS: &[(&str, &str)] = &[
    (
        "tests/includes/includes.mx",
        "one include names its file with a Windows path (`\\`), which only the reference on Windows reads",
    ),
    (
        "tests/std-procedures.mx",
        "the expected output holds bytes 195 and 159 as a Windows code page turned them into text",
    ),
];

/// Far longer than any case needs; a case still running then is a mismatch.
const LIMIT: Duration = Duration::from_secs(120);

/// What a descriptor expects.
#[derive(Debug, Default)]
struct Expected {
    returncode: i32,
    stdout: String,
    stderr: String,
    stdin: String,
}

/// Reads a descriptor as the reference's runner does: `:returncode N`, then optionally
/// `:stdout N`, `:stderr N` and `:stdin N`, each followed on the next line by exactly N
/// characters.
fn parse_descriptor(text: &str) -> Result<Expected, String> {
    let mut expected = Expected::default();
    let mut found_code = false;
    let mut rest: Vec<char> = text.chars().collect();
    while let Some(colon) = rest.iter().position(|&c| c == ':') {
        rest.drain(..=colon);
        let line_len = rest.iter().position(|&c| c == '\n').unwrap_or(rest.len());
        let line: String = rest[..line_len].iter().collect();
        rest.drain(..line_len);
        let mut words = line.split(' ');
        let (field, count) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        let digits: String = count.chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse::<usize>() else {
            return Err(format!("unknown field `{line}`"));
        };
        if field == "returncode" {
            expected.returncode = n as i32;
            found_code = true;
            continue;
        }
        let slot = match field {
            "stdout" => &mut expected.stdout,
            "stderr" => &mut expected.stderr,
            "stdin" => &mut expected.stdin,
            _ => return Err(format!("unknown field `{line}`")),
        };
        let Some(newline) = rest.iter().position(|&c| c == '\n') else {
            return Err(format!("`{line}`: the text must start on a new line"));
        };
        let blob = &rest[newline + 1..];
        if blob.len() < n {
            return Err(format!("`{line}`: fewer than {n} characters follow"));
        }
        *slot = blob[..n].iter().collect();
        // As the reference's runner does: the rest is read from `n` characters after the
        // line's end.
        rest.drain(..n.min(rest.len()));
    }
    if !found_code {
        return Err("no `:returncode`".into());
    }
    Ok(expected)
}

/// A case: its program and its descriptor, both relative to the checkout's root.
struct Case {
    program: PathBuf,
    descriptor: PathBuf,
}

/// Every case of the checkout: the tests (top-level programs and `DIR/DIR.mx`), then the
/// examples that have results, in name order.
fn cases(root: &Path) -> Vec<Case> {
    let mut cases = Vec::new();
    let tests = root.join("tests");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&tests)
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let program = path.join(format!("{name}.mx"));
            if program.is_file() {
                cases.push(Case {
                    program: Path::new("tests").join(&name).join(format!("{name}.mx")),
                    descriptor: Path::new("tests").join(&name).join(format!("{name}.txt")),
                });
            }
        } else if path.extension().is_some_and(|e| e == "mx") {
            cases.push(Case {
                program: Path::new("tests").join(&name),
                descriptor: Path::new("tests").join(name.replace(".mx", ".txt")),
            });
        }
    }
    let mut examples = Vec::new();
    collect_programs(&root.join("examples"), &mut examples);
    examples.sort();
    for program in examples {
        let relative = program.strip_prefix(root).unwrap().to_path_buf();
        let inside = relative.strip_prefix("examples").unwrap();
        let descriptor = Path::new("tests/example-results").join(inside).with_extension("txt");
        if root.join(&descriptor).is_file() {
            cases.push(Case {
                program: relative,
                descriptor,
            });
        }
    }
    cases
}

fn collect_programs(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_programs(&path, into);
        } else if path.extension().is_some_and(|e| e == "mx") {
            into.push(path);
        }
    }
}

/// Runs one case; `Err` says how it differs.
fn run_case(root: &Path, case: &Case, engine: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(root.join(&case.descriptor))
        .map_err(|e| format!("cannot read {}: {e}", case.descriptor.display()))?;
    let expected = parse_descriptor(&text).map_err(|e| format!("{}: {e}", case.descriptor.display()))?;
    let std = root.join("std");
    let mut child = polyasm()
        .current_dir(root)
        .arg("run")
        .args(["--engine", engine, "--color", "never", "--error-format", "short"])
        .arg("-I")
        .arg(&std)
        .arg("-I")
        .arg(std.join("core"))
        .arg("-I")
        .arg(std.join("ds"))
        .arg("-I")
        .arg(root)
        .arg(&case.program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start polyasm: {e}"))?;
    let mut stdin = child.stdin.take().unwrap();
    let input = expected.stdin.clone().into_bytes();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = feeder.join();
    let stdout = String::from_utf8_lossy(&out.join().unwrap()).replace('\r', "");
    let stderr = String::from_utf8_lossy(&err.join().unwrap()).replace('\r', "");
    let mut problems = Vec::new();
    if status.code() != Some(expected.returncode) {
        problems.push(format!(
            "exit code {:?}, expected {}",
            status.code(),
            expected.returncode
        ));
    }
    let want = expected.stdout.replace('\r', "");
    if stdout != want {
        problems.push(format!("standard output {stdout:?}, expected {want:?}"));
    }
    if expected.stderr.is_empty() && !stderr.is_empty() {
        problems.push(format!("standard error {stderr:?}, expected nothing"));
    }
    if !expected.stderr.is_empty() && !stderr.contains("error[") {
        problems.push(format!(
            "no error on standard error {stderr:?}, expected {:?}",
            expected.stderr
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[test]
fn the_reference_repository_tests_and_examples_pass() {
    let Some(root) = std::env::var_os(VARIABLE) else {
        println!("note: {VARIABLE} is not set: the reference's Masfix tests were not run (see docs/masfix.md)");
        return;
    };
    let root = PathBuf::from(root);
    let cases = cases(&root);
    assert!(!cases.is_empty(), "no tests found under {}", root.display());
    let mut passed = 0;
    let mut failures = Vec::new();
    // Each case on both engines: the VM and native code.
    for case in &cases {
        for engine in ["vm", "jit"] {
            let name = case.program.display().to_string();
            let excepted = EXCEPTIONS.iter().find(|(n, _)| *n == name);
            match (run_case(&root, case, engine), excepted) {
                (Ok(()), _) => passed += 1,
                (Err(problem), Some((_, why))) => {
                    println!("expected difference: {name} ({engine}): {problem} ({why})")
                }
                (Err(problem), None) => failures.push(format!("{name} ({engine}): {problem}")),
            }
        }
    }
    println!("{passed}/{} reference runs pass", 2 * cases.len());
    assert!(
        failures.is_empty(),
        "{passed}/{} reference runs pass; {} differ:\n{}",
        2 * cases.len(),
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn descriptors_are_read_as_the_reference_runner_reads_them() {
    let text = ":returncode 1\n\n:stdout 5\nab:cd\n\n:stderr 3\nx\ny\n\n:stdin 2\n1\n\n";
    let expected = parse_descriptor(text).unwrap();
    assert_eq!(expected.returncode, 1);
    assert_eq!(expected.stdout, "ab:cd");
    assert_eq!(expected.stderr, "x\ny");
    assert_eq!(expected.stdin, "1\n");
    assert!(parse_descriptor(":stdout 3\nabc\n").is_err(), "no return code");
    assert!(
        parse_descriptor(":returncode 0\n:stdout 9\nabc\n").is_err(),
        "too short"
    );
    assert!(parse_descriptor(":returncode 0\n:bogus 1\n").is_err());
}
