//! Diagnostics on hostile input, through the built binary: bounded output for long lines and
//! many errors (`--max-errors`), byte-order marks, control characters, excerpt headers.

mod common;
use common::*;

/// Runs polyasm on `stdin` with `args` (and `-o` a file in a fresh folder, so no binary goes
/// to a terminal).
fn assemble_stdin(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let dir = temp();
    let out = dir.path().join("out.bin");
    let args: Vec<&str> = args.iter().copied().chain(["-o", path_str(&out)]).collect();
    run_with_stdin(&args, stdin)
}

#[test]
fn many_errors_on_one_line_stop_at_max_errors_with_a_closing_count() {
    let line = "+".repeat(16_000) + "\n";
    let output = assemble_stdin(&["-t", "nv2a"], line.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert_eq!(
        text.matches("error[NV2A001]").count(),
        100,
        "the default shows 100 errors"
    );
    assert!(
        text.contains("note: 15901 more errors not shown (limit: `--max-errors 100`; `--max-errors 0` shows all)"),
        "{}",
        &text[text.len().saturating_sub(400)..]
    );
    assert!(text.ends_with("no output written: 16001 errors\n"));
    assert!(text.len() < 100 * 1024, "{} bytes", text.len());

    let output = run_with_stdin(
        &["-t", "nv2a", "--max-errors", "2", "--error-format", "short"],
        line.as_bytes(),
    );
    let text = stderr(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[1].starts_with("<stdin>:1:2: error[NV2A001]"), "{text}");
    assert!(lines[2].starts_with("note: 15999 more errors not shown"), "{text}");

    let output = run_with_stdin(
        &["-t", "nv2a", "--max-errors", "1", "--error-format", "json"],
        line.as_bytes(),
    );
    let text = stderr(&output);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["level"], "note");
    assert!(
        last["message"]
            .as_str()
            .unwrap()
            .starts_with("16000 more errors not shown")
    );
}

#[test]
fn max_errors_zero_shows_every_error_each_of_bounded_size() {
    let line = "+".repeat(16_000) + "\n";
    let output = assemble_stdin(&["-t", "nv2a", "--max-errors", "0"], line.as_bytes());
    let text = stderr(&output);
    assert_eq!(text.matches("error[NV2A001]").count(), 16_001);
    assert!(!text.contains("not shown"));
    // Before excerpts were cut, each of these printed the whole 16,000-character line.
    assert!(text.len() < 16_001 * 1024, "{} bytes", text.len());
}

#[test]
fn warnings_do_not_count_towards_max_errors_but_are_hidden_after_it() {
    // Each line: an NV2A022 warning; the last two lines: errors.
    let source = "mul r0, v0, c0 + rcp r2.x, c0.x\nmul r0, v0, c0 + rcp r2.x, c0.x\nnop\nmov r0, v0 +\nnop\n";
    let output = assemble_stdin(&["-t", "nv2a", "--max-errors", "1"], source.as_bytes());
    let text = stderr(&output);
    assert_eq!(text.matches("warning[NV2A022]").count(), 2, "{text}");
    assert_eq!(text.matches("error[NV2A003]").count(), 1, "{text}");
    assert!(text.contains("note: 1 more error not shown"), "{text}");
}

#[test]
fn a_huge_bad_line_gives_a_small_diagnostic() {
    let source = format!("mov r0, {}\n", "x".repeat(10_000_000));
    for format in ["human", "short", "json"] {
        let output = assemble_stdin(&["-t", "nv2a", "--error-format", format], source.as_bytes());
        assert_eq!(output.status.code(), Some(1));
        let text = stderr(&output);
        assert!(text.len() < 8 * 1024, "{format}: {} bytes", text.len());
        assert!(text.contains("xxxxxxxx…"), "{format}: {text}");
    }
    let output = assemble_stdin(&["-t", "nv2a"], source.as_bytes());
    let expected = format!(
        "error[NV2A005]: unknown register `{}…`\n   ╭─[ <stdin>:1:9 ]",
        "x".repeat(polyasm_core::render::MAX_QUOTED_CHARS)
    );
    assert!(stderr(&output).contains(&expected), "{}", stderr(&output));
}

#[test]
fn an_absurdly_long_misspelt_uniform_gets_no_suggestion() {
    let name = format!("#{}", "a".repeat(100_000));
    let source = format!("{name} vector 0\nmov r0, {name}b\n#mvp vector 1\nmov r1, #mvq\n");
    let output = assemble_stdin(&["-t", "nv2a", "--error-format", "short"], source.as_bytes());
    let text = stderr(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("<stdin>:2:9: error[NV2A011]: uniform `#aaaa"),
        "{text}"
    );
    let output = assemble_stdin(&["-t", "nv2a", "--error-format", "json"], source.as_bytes());
    let text = stderr(&output);
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let help = first["children"][0]["message"].as_str().unwrap();
    assert!(help.starts_with("declare it before its first use"), "{help}");
    let second: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["children"][0]["message"], "did you mean `#mvp`?");
}

#[test]
fn a_byte_order_mark_is_skipped_and_columns_stay_right() {
    let output = run_with_stdin(
        &["-t", "vu", "--error-format", "short"],
        "\u{feff}ld r0 0\nld r0 x\n".as_bytes(),
    );
    let text = stderr(&output);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("<stdin>:2:7: error[VU003]"), "{text}");
    let output = run_with_stdin(
        &["-t", "nv2a", "--error-format", "short"],
        "\u{feff}mov r0,, v0\n".as_bytes(),
    );
    assert!(
        stderr(&output).starts_with("<stdin>:1:8: error[NV2A001]"),
        "{}",
        stderr(&output)
    );
    let output = assemble_stdin(&["-t", "nv2a"], "\u{feff}mov oPos, v0\n".as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn control_characters_are_shown_escaped_never_raw() {
    let source = b"add r0 \x00\x1b[2J\x07\nld r0 \x1b\n";
    for format in ["human", "short", "json"] {
        let output = assemble_stdin(&["-t", "vu", "--error-format", format], source);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            !output.stderr.iter().any(|&b| b == 0 || b == 0x1b || b == 0x07),
            "{format}: {:?}",
            stderr(&output)
        );
        assert!(stderr(&output).contains(r"\0"), "{format}: {}", stderr(&output));
    }
    let output = assemble_stdin(&["-t", "vu"], source);
    assert!(stderr(&output).contains(" 1 │ add r0 ␀␛[2J␇\n"), "{}", stderr(&output));
}

#[test]
fn a_pair_over_two_lines_heads_each_excerpt_with_its_own_line() {
    let output = assemble_stdin(&["-t", "nv2a"], b"mov oD0, v3 +\nrcp r1.x, v0.x\n");
    let text = stderr(&output);
    assert!(
        text.contains(
            "   ╭─[ <stdin>:2:11 ]\n   │\n 2 │ rcp r1.x, v0.x\n   │           ──┬─\n   │             ╰─── reads v0\n   │\n   ├─[ <stdin>:1:10 ]\n   │\n 1 │ mov oD0, v3 +\n"
        ),
        "{text}"
    );
}

/// Message, primary label and children (notes and help) of each diagnostic, from the JSON format.
fn diagnostics(target: &str, source: &str) -> Vec<(String, String, Vec<String>)> {
    let output = run_with_stdin(
        &["-t", target, "--error-format", "json", "--max-errors", "0"],
        source.as_bytes(),
    );
    stderr(&output)
        .lines()
        .map(|line| {
            let d: serde_json::Value = serde_json::from_str(line).unwrap();
            let label = d["spans"]
                .as_array()
                .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true))
                .map_or(String::new(), |s| s["label"].as_str().unwrap_or_default().to_string());
            let children = d["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["message"].as_str().unwrap().to_string())
                .collect();
            (d["message"].as_str().unwrap().to_string(), label, children)
        })
        .collect()
}

#[test]
fn both_dialects_phrase_the_same_situation_the_same_way() {
    // An operand of the wrong kind.
    let nv2a = diagnostics("nv2a", "mov r0, 5\n");
    let vu = diagnostics("vu", "add r0 5\n");
    assert_eq!(nv2a[0].0, "`mov` expects a register here, found the number `5`");
    assert_eq!(
        vu[0].0,
        "`add` expects a register (r0 to r15) here, found the number `5`"
    );
    assert_eq!(
        (nv2a[0].1.as_str(), vu[0].1.as_str()),
        ("expected a register", "expected a register")
    );

    // An unknown directive.
    let nv2a = diagnostics("nv2a", ".byte 1\n");
    let vu = diagnostics("vu", ".byte 1\n");
    for (dialect, d) in [("nv2a", &nv2a[0]), ("vu", &vu[0])] {
        assert_eq!(
            (d.0.as_str(), d.1.as_str()),
            ("unknown directive `.byte`", "not a directive"),
            "{dialect}"
        );
        assert!(
            d.2[0].starts_with("the only directive is `.word "),
            "{dialect}: {:?}",
            d.2
        );
    }

    // An unterminated comment.
    let nv2a = diagnostics("nv2a", "mov r0, v0 /* open\n");
    let vu = diagnostics("vu", "add r0 r1 /* open\n");
    assert_eq!(nv2a, vu);
    assert_eq!(nv2a[0].0, "unterminated block comment");
    assert_eq!(nv2a[0].1, "this `/*` has no matching `*/`");

    // Too many instructions.
    let nv2a = diagnostics("nv2a", &"mov r0, v0\n".repeat(137));
    let vu = diagnostics("vu", &"add r0 r1\n".repeat(65));
    for (d, slots) in [(&nv2a[0], 136), (&vu[0], 64)] {
        assert_eq!(d.0, format!("program is longer than {slots} instructions"));
        assert_eq!(d.1, format!("instruction {}", slots + 1));
        assert!(
            d.2[0].contains(&format!("holds {slots} instruction slots")),
            "{:?}",
            d.2
        );
    }

    // A bad number.
    let nv2a = diagnostics("nv2a", ".word 0x, 0, 0, 0\n.word 0b2, 0, 0, 0\n");
    let vu = diagnostics("vu", ".word 0x\n.word 0b2\n");
    assert_eq!(nv2a, vu);
}

#[test]
fn only_operations_are_paired() {
    let d = diagnostics("nv2a", "mov r0, v0 + #m vector 3\n");
    assert_eq!(d[0].0, "only operations can be joined with `+`");
    assert_eq!(d[0].1, "a declaration, macro or directive in a pair");
    let d = diagnostics("nv2a", "arl r0, v0.x\n");
    assert_eq!(d[0].0, "`arl` expects a0 here, found the register `r0`");
}

#[test]
fn a_help_line_keeps_the_whole_command_it_quotes() {
    // A help line's quotes are commands and code to copy: a long file name in one is not cut.
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.vu", "a_rather_long_file_name_for_a_vertex_program".repeat(2));
    let path = dir.path().join(&name);
    std::fs::write(&path, "ld r0 0\nst pos r0\n").unwrap();
    let path = path.to_str().unwrap();
    for format in ["human", "short", "json"] {
        let output = polyasm()
            .args(["disasm", "-t", "vu", path, "--color", "never", "--error-format", format])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        if format != "short" {
            let err = stderr(&output);
            assert!(err.contains(&format!("run `polyasm {path}`")), "{format}: {err}");
        }
    }
}

#[test]
fn the_closing_summary_escapes_the_file_name() {
    let dir = temp();
    let path = dir.path().join("bad\u{1b}[31mX.vu");
    std::fs::write(&path, "nop\n").unwrap();
    let output = run(&[path_str(&path), "-f", "hex", "--color", "never"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(!err.contains('\u{1b}'), "{err:?}");
    assert!(err.contains("bad\\u{1b}[31mX.vu not assembled"), "{err}");
}
