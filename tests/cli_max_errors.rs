//! `--max-errors N`: the targets keep only the diagnostics that are shown and count the rest,
//! and what is printed is exactly the first part of what `--max-errors 0` prints.

use std::path::Path;

mod common;
use common::*;

/// A source per target whose diagnostics are found out of source order (labels resolved at
/// the end, uniforms declared later) and mix errors with warnings.
fn sources() -> Vec<(&'static str, String)> {
    let repeat = |n: usize, block: &dyn Fn(usize) -> String| (0..n).map(block).collect::<String>();
    vec![
        ("vu", repeat(40, &|_| "bogus r1\nmulm r0 r13\n".to_string())),
        (
            "vsh",
            repeat(30, &|i| {
                format!("mov r0, #later{i}\nbogus\ndp4 oPos.x, r6, c96 + rsq r10.x, r2.x\n#later{i} vector {i}\n")
            }),
        ),
        ("mx", repeat(40, &|i| format!("jmp nowhere{i}\nbogus r1\nldr\n"))),
        ("sasm", repeat(40, &|_| "bogus\nload(s0, 1)\n".to_string())),
        (
            "pp",
            repeat(30, &|i| {
                format!("branch endd{i}\nbogus\nload.v ^discard 0.xy, texld 0, mov.v0 $0 ^texture\n")
            }),
        ),
    ]
}

/// The JSON lines polyasm prints on standard error for `args`.
fn json_lines(dir: &Path, args: &[impl AsRef<std::ffi::OsStr>]) -> (Vec<serde_json::Value>, i32) {
    let output = polyasm()
        .current_dir(dir)
        .args(args)
        .args(["--error-format", "json"])
        .output()
        .unwrap();
    let lines = stderr(&output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    (lines, output.status.code().unwrap())
}

/// What `--max-errors max` must print, worked out from everything (`--max-errors 0`): the
/// diagnostics up to the `max`th error, then a note counting the rest.
fn expected(all: &[serde_json::Value], max: usize) -> Vec<serde_json::Value> {
    let is_error = |d: &serde_json::Value| d["level"] == "error";
    let Some(last) = all
        .iter()
        .enumerate()
        .filter(|(_, d)| is_error(d))
        .nth(max - 1)
        .map(|(i, _)| i)
    else {
        return all.to_vec();
    };
    let mut shown = all[..=last].to_vec();
    let rest = &all[last + 1..];
    let errors = rest.iter().filter(|d| is_error(d)).count();
    let warnings = rest.len() - errors;
    let count = polyasm_core::text::count;
    let what = match (errors, warnings) {
        (0, 0) => return shown,
        (e, 0) => count(e, "more error"),
        (0, w) => count(w, "more warning"),
        (e, w) => format!("{} and {}", count(e, "more error"), count(w, "warning")),
    };
    shown.push(serde_json::json!(format!(
        "{what} not shown (limit: `--max-errors {max}`; `--max-errors 0` shows all)"
    )));
    shown
}

/// Compares what was printed with what was expected, the closing note by its message.
fn assert_same(printed: &[serde_json::Value], expected: &[serde_json::Value], what: &str) {
    assert_eq!(printed.len(), expected.len(), "{what}: {printed:#?}");
    for (p, e) in printed.iter().zip(expected) {
        match e.as_str() {
            Some(note) => {
                assert_eq!(p["level"], "note", "{what}");
                assert_eq!(p["message"], note, "{what}");
            }
            None => assert_eq!(p, e, "{what}"),
        }
    }
}

/// Checks that `check NAME --max-errors N` (without and with `-W error`) prints the first part
/// of what `--max-errors 0` prints, for N in `maxes` (given the number of errors).
fn check_truncation(dir: &Path, name: &str, maxes: impl Fn(usize) -> Vec<usize>) {
    for policy in [&[][..], &["-W", "error"]] {
        let args = |max: &str| -> Vec<String> {
            let head = ["check", name, "--max-errors", max];
            head.iter().chain(policy).map(|a| a.to_string()).collect()
        };
        let (all, status) = json_lines(dir, &args("0"));
        assert_eq!(status, 1, "{name}");
        let errors = all.iter().filter(|d| d["level"] == "error").count();
        assert!(errors > 20, "{name} {policy:?}: {errors} errors");
        let warnings = all.len() - errors;
        assert!(
            policy.is_empty() == (warnings > 0) || name.ends_with("sasm"),
            "{name} {policy:?}: {warnings} warnings"
        );
        for max in maxes(errors) {
            let (printed, status) = json_lines(dir, &args(&max.to_string()));
            assert_eq!(status, 1);
            assert_same(
                &printed,
                &expected(&all, max),
                &format!("{name} {policy:?} --max-errors {max}"),
            );
        }
    }
}

#[test]
fn the_first_errors_are_shown_in_order_and_the_rest_counted_for_every_target() {
    let dir = temp();
    for (ext, text) in sources() {
        let name = format!("many.{ext}");
        std::fs::write(dir.path().join(&name), &text).unwrap();
        check_truncation(dir.path(), &name, |errors| {
            vec![1, 2, 3, 10, errors - 1, errors, errors + 5]
        });
    }
}

#[test]
fn a_lima_source_read_in_pieces_shows_what_reading_it_whole_shows() {
    // Over 768 KB, so that it is read in several pieces on all cores: errors and warnings in
    // every piece, labels defined twice in different pieces, branches to labels nowhere, and
    // long comments between them.
    let comment = format!("# {}\n", "padding ".repeat(60));
    let text: String = (0..2400)
        .map(|i| match i % 4 {
            0 => format!(
                "branch endd{i}\nbogus{}\nsync, texld_2d 0\nL{}:\nload.v ^discard 0.xy, texld 0, mov.v0 $0 ^texture\n",
                i % 7,
                i % 150
            ),
            _ => comment.clone(),
        })
        .collect();
    assert!(text.len() > 3 * 256 * 1024, "{} bytes", text.len());
    let dir = temp();
    std::fs::write(dir.path().join("big.pp"), &text).unwrap();
    check_truncation(dir.path(), "big.pp", |errors| vec![1, 4, 1000, errors / 2, errors - 1]);
}

#[test]
fn masfix_errors_in_macro_bodies_are_shown_once_with_their_uses() {
    // Errors and a warning in a body used many times (each shown once, at its first use),
    // errors at the arguments of each use (shown at every use, with the chain of uses).
    let mut text = String::from("%macro bad(v) {\n  bogus r1\n  ldr\n  jmp %v\n}\n%macro outer(v) { %bad(%v) }\n");
    for i in 0..30 {
        text += &format!("%bad(nowhere{i})\n%outer(gone{i})\nbogus r2\nldr\n");
    }
    let dir = temp();
    std::fs::write(dir.path().join("macros.mx"), &text).unwrap();
    check_truncation(dir.path(), "macros.mx", |errors| {
        vec![1, 2, 3, 4, 5, 10, errors - 1, errors]
    });
}

#[test]
fn the_limit_holds_across_the_files_of_check_and_counts_every_error_in_the_summary() {
    let dir = temp();
    let mut names = Vec::new();
    for (ext, text) in sources() {
        let name = format!("many.{ext}");
        std::fs::write(dir.path().join(&name), &text).unwrap();
        names.push(name);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let human = |max: &str| {
        let output = polyasm()
            .current_dir(dir.path())
            .args(["check", "--max-errors", max])
            .args(&names)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        stderr(&output)
    };
    let all = human("0");
    let summary = |text: &str| text.lines().last().unwrap().to_string();
    // The limit is reached in the first file: every other file is only counted, and still fails.
    for max in ["1", "5", "60"] {
        let limited = human(max);
        assert_eq!(summary(&limited), summary(&all), "--max-errors {max}");
        assert!(
            summary(&all).starts_with("error: 5 of 5 files failed: "),
            "{}",
            summary(&all)
        );
    }
    let (all, _) = json_lines(dir.path(), &[&["check", "--max-errors", "0"][..], &names].concat());
    for max in [1, 7, 45, 100] {
        let (printed, _) = json_lines(
            dir.path(),
            &[&["check", "--max-errors", &max.to_string()][..], &names].concat(),
        );
        assert_same(&printed, &expected(&all, max), &format!("check --max-errors {max}"));
    }
}

#[test]
fn an_assembly_whose_errors_are_all_hidden_still_fails_and_writes_nothing() {
    let dir = temp();
    std::fs::write(dir.path().join("bad.vu"), "bogus\n".repeat(3)).unwrap();
    let output = polyasm()
        .current_dir(dir.path())
        .args([
            "bad.vu",
            "-o",
            "bad.bin",
            "--max-errors",
            "1",
            "--error-format",
            "short",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "bad.vu:1:1: error[VU002]: unknown mnemonic `bogus`\n\
         note: 2 more errors not shown (limit: `--max-errors 1`; `--max-errors 0` shows all)\n"
    );
    assert!(!dir.path().join("bad.bin").exists());
}
