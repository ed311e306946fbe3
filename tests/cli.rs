//! The command-line contract: every behaviour of `polyasm` that users and scripts rely on.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;
use common::*;

const THREE_MISTAKES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/vu/err_three_mistakes.vu");

fn seed_words() -> Vec<u32> {
    polyasm_vu::assemble_str(&std::fs::read_to_string(SEED).unwrap()).unwrap()
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn the_documented_line_writes_the_reference_words() {
    let dir = temp();
    let out = dir.path().join("out.bin");
    let output = run(&["-t", "vu", SEED, "-o", path_str(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let reference: [u32; 14] = dbsdk_vu_asm::vu_asm! {
        ld r0 0
        ld r1 1
        ld r2 2
        ld r3 3
        ldc r4 0
        ldc r5 1
        ldc r6 2
        ldc r7 3
        mulm r0 r4
        st pos r0
        st tex r1
        st col r2
        st ocol r3
    };
    assert_eq!(std::fs::read(&out).unwrap(), le_bytes(&reference));
}

#[test]
fn the_target_comes_from_the_extension() {
    let output = run(&[SEED, "-f", "hex"]);
    assert!(output.status.success());
    let words: Vec<u32> = stdout(&output)
        .lines()
        .map(|l| u32::from_str_radix(l, 16).unwrap())
        .collect();
    assert_eq!(words, seed_words());
}

#[test]
fn stdin_and_stdout_are_dashes() {
    let output = run_with_stdin(&["-t", "vu", "-", "-o", "-"], b"ld r0 0\nst pos r0\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(output.stdout, le_bytes(&[0x000, 0x001, 0x03f]));
    // No input argument at all also reads standard input.
    let output = run_with_stdin(&["-t", "vu", "-f", "hex"], b"end\n");
    assert_eq!(stdout(&output), "0000003f\n0000003f\n");
}

#[test]
fn stdin_needs_a_target() {
    let output = run_with_stdin(&["-f", "hex"], b"end\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("PA008"), "{}", stderr(&output));
}

#[test]
fn unknown_targets_extensions_and_formats_are_usage_errors() {
    let output = run(&["-t", "z80", SEED]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown target `z80`"));
    assert!(stderr(&output).contains("vu"), "the error lists the targets");

    let dir = temp();
    let odd = dir.path().join("prog.asm");
    std::fs::write(&odd, "end\n").unwrap();
    let output = run(&[path_str(&odd)]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot tell the target"));

    let output = run(&[SEED, "-f", "srec"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("PA009"));

    let output = run(&["--bogus-flag"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn aliases_select_the_target() {
    let output = run(&["-t", "Dreambox", SEED, "-f", "hex"]);
    assert!(output.status.success());
}

#[test]
fn three_mistakes_are_all_reported_with_codes_and_nothing_is_written() {
    let dir = temp();
    let out = dir.path().join("out.bin");
    let output = run(&["-t", "vu", THREE_MISTAKES, "-o", path_str(&out), "--color", "never"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    for code in ["error[VU002]", "error[VU006]", "error[VU008]"] {
        assert!(err.contains(code), "{code} missing from:\n{err}");
    }
    assert!(err.contains("err_three_mistakes.vu:4:1"), "spans are reported:\n{err}");
    assert!(!out.exists(), "no output file on error");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no temporary file left behind"
    );
}

#[test]
fn an_existing_output_is_left_untouched_on_error() {
    let dir = temp();
    let out = dir.path().join("out.bin");
    std::fs::write(&out, b"previous build").unwrap();
    let output = run(&["-t", "vu", THREE_MISTAKES, "-o", path_str(&out)]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&out).unwrap(), b"previous build");
}

#[test]
fn an_unwritable_output_is_an_error_and_the_old_file_survives() {
    let dir = temp();
    let out = dir.path().join("missing-dir/out.bin");
    let output = run(&[SEED, "-o", path_str(&out)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("PA003"));
}

#[test]
fn special_files_are_written_directly() {
    let output = run(&[SEED, "-f", "hex", "-o", "/dev/stdout"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 14);
    assert!(run(&[SEED, "-o", "/dev/null"]).status.success());
}

#[test]
fn a_missing_input_is_an_error() {
    let output = run(&["-t", "vu", "/no/such/file.vu"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[PA001]"));
}

#[test]
fn binary_input_to_the_assembler_is_an_error() {
    let dir = temp();
    let bin = dir.path().join("x.vu");
    std::fs::write(&bin, [0xff, 0xfe, 0x00]).unwrap();
    let output = run(&[path_str(&bin), "-f", "hex"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("PA002"));
}

#[test]
fn json_errors_are_one_object_per_line_in_rustcs_shape() {
    let output = run(&[THREE_MISTAKES, "--error-format", "json", "-f", "hex"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "one line per diagnostic, nothing else:\n{err}");
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["code"]["code"], "VU002");
    assert_eq!(first["level"], "error");
    assert!(first["code"]["explanation"].as_str().unwrap().contains("mnemonic"));
    let span = &first["spans"][0];
    assert_eq!(span["line_start"], 4);
    assert_eq!(span["column_start"], 1);
    assert_eq!(span["column_end"], 4);
    assert_eq!(span["is_primary"], true);
    assert!(span["file_name"].as_str().unwrap().ends_with("err_three_mistakes.vu"));
    let text = std::fs::read_to_string(THREE_MISTAKES).unwrap();
    let (start, end) = (
        span["byte_start"].as_u64().unwrap() as usize,
        span["byte_end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[start..end], "lod");
    assert_eq!(first["children"][0]["level"], "help");
    assert!(first["rendered"].as_str().unwrap().starts_with("error[VU002]"));
    for line in &lines[1..] {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["code"]["code"].as_str().unwrap().starts_with("VU"));
    }
}

#[test]
fn short_errors_are_one_line_each() {
    let output = run(&[THREE_MISTAKES, "--error-format", "short", "-f", "hex"]);
    let err = stderr(&output);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].ends_with("err_three_mistakes.vu:4:1: error[VU002]: unknown mnemonic `lod`"),
        "{}",
        lines[0]
    );
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let has_escape = |o: &Output| stderr(o).contains('\x1b');
    assert!(has_escape(&run(&[THREE_MISTAKES, "--color", "always"])));
    assert!(!has_escape(&run(&[THREE_MISTAKES, "--color", "never"])));
    // auto: stderr is a pipe here, so no colour ...
    assert!(!has_escape(&run(&[THREE_MISTAKES])));
    // ... unless FORCE_COLOR says otherwise; NO_COLOR does not beat --color always.
    let forced = polyasm()
        .args([THREE_MISTAKES])
        .env("FORCE_COLOR", "1")
        .output()
        .unwrap();
    assert!(has_escape(&forced));
    let no_color = polyasm()
        .args([THREE_MISTAKES, "--color", "auto"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!has_escape(&no_color));
    let always = polyasm()
        .args([THREE_MISTAKES, "--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(has_escape(&always));
}

#[test]
fn warnings_pass_and_werror_makes_them_fatal() {
    let dir = temp();
    let src = dir.path().join("warn.vu");
    std::fs::write(&src, "mulm r0 r14\n").unwrap();
    let output = run(&[path_str(&src), "-f", "hex"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("warning[VU014]"));
    let output = run(&[path_str(&src), "-f", "hex", "-W", "error"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[VU014]"));
    assert!(output.stdout.is_empty());
    let output = run(&[path_str(&src), "-f", "hex", "-Wno-VU014"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).is_empty());
    let output = run(&[path_str(&src), "-W", "loud"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn every_output_format_is_written() {
    let words = seed_words();
    let listing = stdout(&run(&[SEED, "-f", "listing"]));
    assert!(
        listing.contains("0008    00001018    13  mulm r0 r4  // transform position with matrix"),
        "{listing}"
    );
    assert!(listing.contains("000d    0000003f     -  ; end appended by the assembler"));
    let c = stdout(&run(&[SEED, "-f", "c"]));
    assert!(c.contains("static const uint32_t seed[14] = {"), "{c}");
    let rust = stdout(&run(&[SEED, "-f", "rust", "--name", "vertex_program"]));
    assert!(rust.contains("pub const VERTEX_PROGRAM: [u32; 14] = ["), "{rust}");
    let json: serde_json::Value = serde_json::from_str(&stdout(&run(&[SEED, "-f", "json"]))).unwrap();
    let json_words: Vec<u32> = json["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(json_words, words);
    assert_eq!(json["listing"][8]["line"], 13);
}

#[test]
fn the_output_extension_picks_the_format() {
    let dir = temp();
    for (name, needle) in [
        ("p.h", "uint32_t"),
        ("p.rs", "pub const"),
        ("p.lst", "; polyasm listing"),
        ("p.hex", "00000440"),
    ] {
        let out = dir.path().join(name);
        assert!(run(&[SEED, "-o", path_str(&out)]).status.success());
        assert!(std::fs::read_to_string(&out).unwrap().contains(needle), "{name}");
    }
}

#[test]
fn disassembly_reassembles_to_the_same_bytes() {
    let dir = temp();
    let bin = dir.path().join("seed.bin");
    let src = dir.path().join("again.vu");
    let bin2 = dir.path().join("again.bin");
    assert!(run(&[SEED, "-o", path_str(&bin)]).status.success());
    let output = run(&["disasm", "-t", "vu", path_str(&bin), "-o", path_str(&src)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(run(&[path_str(&src), "-o", path_str(&bin2)]).status.success());
    assert_eq!(std::fs::read(&bin).unwrap(), std::fs::read(&bin2).unwrap());
}

#[test]
fn disasm_reads_hex_text_and_reports_bad_input() {
    let output = run_with_stdin(&["disasm", "-t", "vu"], b"0x00000440, 0x0000003f\n");
    assert_eq!(stdout(&output), "ld r1 1\n// end (appended by the assembler)\n");
    let output = run_with_stdin(
        &["disasm", "-t", "vu", "--input-format", "hex", "--error-format", "short"],
        b"0x440 zz\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("<stdin>:1:7: error[PA005]"),
        "{}",
        stderr(&output)
    );
    let output = run_with_stdin(&["disasm", "-t", "vu"], &[0x3f, 0, 0]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("PA004"));
}

#[test]
fn binary_output_is_refused_on_a_terminal() {
    let (master, slave) = open_pty();
    let output = polyasm()
        .args([SEED])
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    drop(master);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("PA007") && err.contains("-f hex"), "{err}");
    // Text formats are fine on a terminal.
    let (master, slave) = open_pty();
    let status = polyasm()
        .args([SEED, "-f", "hex"])
        .stdout(Stdio::from(slave))
        .status()
        .unwrap();
    drop(master);
    assert!(status.success());
}

#[test]
fn a_rendered_picture_is_refused_on_a_terminal() {
    let (master, slave) = open_pty();
    let uv = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/shader/uv.sasm");
    let output = polyasm()
        .args(["run", uv, "--size", "4x4"])
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    drop(master);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(
        err.contains("PA007") && err.contains("-o out.png") && !err.contains("-f hex"),
        "{err}"
    );
}

#[test]
fn run_prints_a_table_and_json() {
    let output = run(&[
        "run",
        SEED,
        "-i",
        "0=1,2,3",
        "-c",
        "0=1,0,0,0",
        "-c",
        "1=0,1,0,0",
        "-c",
        "2=0,0,1,0",
        "-c",
        "3=10,0,0,1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = stdout(&output);
    let pos = table.lines().find(|l| l.starts_with("0       pos")).unwrap();
    assert_eq!(
        pos.split_whitespace().collect::<Vec<_>>(),
        ["0", "pos", "11", "2", "3", "1"]
    );

    let output = run(&[
        "run",
        SEED,
        "-i",
        "0=1,0,0,1",
        "-i",
        "0=0,1,0,1",
        "-i",
        "2=1,1,1,1",
        "-f",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let vertices = json["vertices"].as_array().unwrap();
    assert_eq!(vertices.len(), 2);
    // The constants are zero, so the transformed position is zero; colour passes through.
    assert_eq!(vertices[1]["col"], serde_json::json!([1.0, 1.0, 1.0, 1.0]));
}

#[test]
fn run_reads_a_data_file_and_points_into_it_on_error() {
    let dir = temp();
    let data = dir.path().join("data.json");
    std::fs::write(
        &data,
        r#"{"constants": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]], "vertices": [{"0": [1,2,3,1]}, {"0": [4,5,6]}]}"#,
    )
    .unwrap();
    let output = run(&["run", SEED, "--data", path_str(&data), "-f", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["vertices"][1]["pos"], serde_json::json!([4.0, 5.0, 6.0, 1.0]));

    std::fs::write(&data, "{\"constants\": [1, 2,\n}").unwrap();
    let output = run(&["run", SEED, "--data", path_str(&data), "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("data.json:2:1: error[PA006]"),
        "{}",
        stderr(&output)
    );

    let output = run(&["run", SEED, "-i", "9=1,2,3"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("input slot 9 is out of range"));
}

#[test]
fn run_refuses_to_run_broken_programs() {
    let output = run(&["run", THREE_MISTAKES]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
}

#[test]
fn check_reports_every_file_and_writes_nothing() {
    let dir = temp();
    let output = polyasm()
        .current_dir(dir.path())
        .args(["check", SEED, THREE_MISTAKES, "--error-format", "short"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output).lines().count(), 3);
    assert!(output.stdout.is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    assert!(run(&["check", SEED]).status.success());
}

#[test]
fn targets_explain_completions_and_help() {
    let targets = stdout(&run(&["targets"]));
    assert!(
        targets.contains("vu") && targets.contains("dreambox") && targets.contains(".vu"),
        "{targets}"
    );

    let explain = run(&["explain", "vu002"]);
    assert!(explain.status.success());
    assert!(stdout(&explain).starts_with("VU002: unknown mnemonic or directive\n\n"));
    let all = stdout(&run(&["explain"]));
    assert!(all.contains("PA001") && all.contains("VU015"));
    assert_eq!(run(&["explain", "XX999"]).status.code(), Some(2));

    let bash = run(&["completions", "bash"]);
    assert!(bash.status.success() && stdout(&bash).contains("polyasm"));

    let help = stdout(&run(&["--help"]));
    assert!(
        help.contains("Examples:") && help.contains("polyasm -t vu in.vu -o out.bin"),
        "{help}"
    );
    let run_help = stdout(&run(&["run", "--help"]));
    assert!(run_help.contains("--input <SLOT=X,Y,Z,W>"), "{run_help}");
}

#[test]
fn every_explained_code_is_reported_somewhere_or_documented() {
    // Each VU code has an explanation of its own.
    let all = stdout(&run(&["explain"]));
    for n in 1..=15 {
        assert!(all.contains(&format!("VU{n:03}")), "VU{n:03} has no explanation");
    }
}

/// Runs polyasm with standard output closed (`>&-`).
#[cfg(unix)]
fn run_with_stdout_closed(args: &[&str]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = polyasm();
    command.args(args).stderr(Stdio::piped());
    // SAFETY: close is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::close(libc::STDOUT_FILENO);
            Ok(())
        });
    }
    command.output().unwrap()
}

/// Every command that writes standard output, with its arguments.
const STDOUT_WRITERS: &[&[&str]] = &[
    &[SEED, "-f", "hex"],
    &["disasm", "-t", "vu", "-"],
    &["run", SEED, "-i", "0=1,2,3,1"],
    &["--help"],
    &["disasm", "--help"],
    &["--version"],
    &["completions", "bash"],
    &["man"],
    &["targets"],
    &["explain"],
    &["explain", "PA003"],
];

#[cfg(unix)]
#[test]
fn a_full_disk_or_closed_standard_output_is_an_error_on_every_command() {
    for args in STDOUT_WRITERS {
        let full = polyasm()
            .args(*args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = stderr(&full);
        assert_eq!(full.status.code(), Some(1), "{args:?} > /dev/full: {err}");
        assert!(
            err.contains("PA003") && err.contains("No space left on device"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");

        let closed = run_with_stdout_closed(args);
        let err = stderr(&closed);
        assert_eq!(closed.status.code(), Some(1), "{args:?} >&-: {err}");
        assert!(
            err.contains("cannot write standard output: it is closed"),
            "{args:?}: {err}"
        );
    }
    // The error follows --error-format like any other.
    let full = polyasm()
        .args([SEED, "-f", "hex", "--error-format", "json"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_str(stderr(&full).trim()).unwrap();
    assert_eq!(value["code"]["code"], "PA003");
}

#[test]
fn a_reader_that_stops_early_ends_polyasm_quietly() {
    // More than a pipe holds, so polyasm is still writing when the reader is gone.
    let big = vec![0u8; 1 << 20];
    for args in [&["disasm", "-t", "vu", "-"][..], &["completions", "bash"], &["man"]] {
        let mut child = polyasm()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        let mut stdin = child.stdin.take().unwrap();
        if args[0] == "disasm" {
            stdin.write_all(&big).unwrap();
        }
        drop(stdin);
        std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("panicked"), "{args:?}: {}", stderr(&output));
    }
}

#[cfg(unix)]
#[test]
fn a_full_standard_error_does_not_panic() {
    let output = polyasm()
        .args([THREE_MISTAKES])
        .stderr(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn the_output_may_not_be_the_input() {
    let dir = temp();
    let source = dir.path().join("x.vu");
    let text = std::fs::read(SEED).unwrap();
    std::fs::write(&source, &text).unwrap();
    std::os::unix::fs::symlink(&source, dir.path().join("link.vu")).unwrap();
    std::fs::hard_link(&source, dir.path().join("hard.vu")).unwrap();
    let binary = dir.path().join("x.bin");
    std::fs::write(&binary, le_bytes(&seed_words())).unwrap();
    let cases: &[&[&str]] = &[
        &["x.vu", "-o", "x.vu"],
        &["x.vu", "-o", "./x.vu"],
        &["./x.vu", "-o", "link.vu", "-f", "hex"],
        &["link.vu", "-o", "hard.vu"],
        &["run", "x.vu", "-o", "hard.vu"],
        &["disasm", "-t", "vu", "x.bin", "-o", "./x.bin"],
    ];
    for args in cases {
        let output = polyasm().current_dir(dir.path()).args(*args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("PA014"), "{args:?}: {}", stderr(&output));
        assert_eq!(std::fs::read(&source).unwrap(), text, "{args:?} changed the source");
    }
    assert_eq!(std::fs::read(&binary).unwrap(), le_bytes(&seed_words()));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        4,
        "nothing else was written"
    );
}

/// The temporary files of atomic writes left in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(".polyasm-") && name.ends_with(".tmp"))
        .collect()
}

#[cfg(unix)]
#[test]
fn sigint_and_sigterm_while_writing_leave_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let dir = temp();
        let input = dir.path().join("big.bin");
        let out = dir.path().join("big.txt");
        // Disassembly text of zero words is twice the binary: tens of MB take a while to
        // write and sync. The signal goes out once the temporary file exists; if polyasm
        // finished first, try again with more to write.
        let mut words = 1usize << 21;
        let interrupted = loop {
            std::fs::write(&input, vec![0u8; words * 4]).unwrap();
            let mut child = polyasm()
                .args(["disasm", "-t", "vu", path_str(&input), "-o", path_str(&out)])
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let writing = loop {
                if !temporaries(dir.path()).is_empty() {
                    break true;
                }
                if child.try_wait().unwrap().is_some() {
                    break false;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            };
            if writing {
                // SAFETY: kill sends a signal to the child we started.
                unsafe { libc::kill(child.id() as libc::pid_t, signal) };
            }
            let status = child.wait().unwrap();
            if writing && status.signal() == Some(signal) {
                break true;
            }
            let _ = std::fs::remove_file(&out);
            words *= 2;
            if words > 1 << 25 {
                break false;
            }
        };
        assert!(interrupted, "polyasm was never caught writing");
        assert_eq!(temporaries(dir.path()), Vec::<String>::new(), "signal {signal}");
        assert!(!out.exists());
    }
}

#[test]
fn outputs_that_cannot_be_written_say_why() {
    let output = run(&[SEED, "-o", ""]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("a value is required for '--output <OUT>'"),
        "{}",
        stderr(&output)
    );
    let output = run(&["", "-f", "hex"]);
    assert_eq!(output.status.code(), Some(2));

    if Path::new("/proc/self/status").exists() {
        let output = run(&[SEED, "-o", "/proc/self/status"]);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains("cannot write /proc/self/status: it is read-only"),
            "{}",
            stderr(&output)
        );
    }
    let dir = temp();
    let output = run(&[SEED, "-o", path_str(dir.path())]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("it is a directory"), "{}", stderr(&output));
}

#[test]
fn command_line_errors_follow_the_error_format_and_colour() {
    let json = |args: &[&str]| {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = stderr(&output);
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one JSON object, nothing else:\n{err}");
        serde_json::from_str::<serde_json::Value>(lines[0]).unwrap()
    };
    let bogus = json(&["--bogus", "--error-format", "json"]);
    assert_eq!(bogus["code"]["code"], "PA015");
    assert_eq!(bogus["message"], "unexpected argument '--bogus' found");
    assert_eq!(
        json(&["--error-format=json", "disasm", "--input-format", "x"])["code"]["code"],
        "PA015"
    );
    assert_eq!(
        json(&["--error-format", "json", SEED, "-W", "loud"])["code"]["code"],
        "PA011"
    );
    assert_eq!(
        json(&["--error-format", "json", SEED, "-W", "error=VU999"])["code"]["code"],
        "PA011"
    );
    assert_eq!(json(&["--error-format", "json", SEED, "x.vu"])["code"]["code"], "PA015");
    let short = run(&["--bogus", "--error-format", "short"]);
    assert_eq!(stderr(&short), "error[PA015]: unexpected argument '--bogus' found\n");

    let has_escape = |o: &Output| stderr(o).contains('\x1b');
    assert!(has_escape(&run(&["--bogus", "--color", "always"])));
    let never = polyasm()
        .args(["--bogus", "--color", "never"])
        .env("FORCE_COLOR", "1")
        .output()
        .unwrap();
    assert!(!has_escape(&never));
    // NO_COLOR holds even when standard error is a terminal.
    let (mut master, slave) = open_pty();
    let status = polyasm()
        .args(["--bogus"])
        .env("NO_COLOR", "1")
        .stderr(Stdio::from(slave))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    // SAFETY: a non-blocking read on our own descriptor.
    unsafe {
        use std::os::fd::AsRawFd;
        libc::fcntl(master.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK);
    }
    while let Ok(n @ 1..) = std::io::Read::read(&mut master, &mut buf) {
        seen.extend_from_slice(&buf[..n]);
    }
    let seen = String::from_utf8_lossy(&seen);
    assert!(seen.contains("--bogus") && !seen.contains('\x1b'), "{seen:?}");
}

#[test]
fn warning_options_name_warnings() {
    let dir = temp();
    let src = dir.path().join("warn.vu");
    std::fs::write(&src, "mulm r0 r14\n").unwrap();
    for (value, reason) in [
        ("error=VU999", "unknown diagnostic code `VU999`"),
        ("no-NV2A999", "unknown diagnostic code `NV2A999`"),
        ("error=", "unknown diagnostic code ``"),
        ("error=VU001", "VU001 is an error, not a warning"),
        ("no-PA003", "PA003 is an error, not a warning"),
    ] {
        let output = run(&[path_str(&src), "-f", "hex", "-W", value]);
        assert_eq!(output.status.code(), Some(2), "-W {value}");
        assert!(stderr(&output).contains(reason), "-W {value}: {}", stderr(&output));
        assert!(output.stdout.is_empty());
    }
    let output = run(&[path_str(&src), "-f", "hex", "-W", "error=vu014"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        run(&[path_str(&src), "-f", "hex", "-W", "no-VU014", "-W", "error=NV2A022"])
            .status
            .success()
    );
}

/// Compiles C with `cc -std=c99 -pedantic -Werror` and Rust with rustc; panics with the
/// compiler's messages if either fails.
fn compile_c_and_rust(dir: &Path, c: &str, rust: &str) {
    let c_file = dir.join("out.c");
    let rust_file = dir.join("out.rs");
    std::fs::write(&c_file, c).unwrap();
    std::fs::write(&rust_file, rust).unwrap();
    let cc = Command::new("cc")
        .args([
            "-std=c99",
            "-pedantic",
            "-Werror",
            "-Wall",
            "-Wno-unused-const-variable",
            "-c",
        ])
        .arg(&c_file)
        .arg("-o")
        .arg(dir.join("out.o"))
        .output()
        .expect("cc runs");
    assert!(cc.status.success(), "cc rejects:\n{c}\n{}", stderr(&cc));
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .args(["--crate-type", "lib", "--emit=metadata", "--edition", "2021", "-o"])
        .arg(dir.join("out.rmeta"))
        .arg(&rust_file)
        .output()
        .expect("rustc runs");
    assert!(rustc.status.success(), "rustc rejects:\n{rust}\n{}", stderr(&rustc));
}

#[cfg(unix)]
#[test]
fn c_and_rust_outputs_always_compile() {
    let dir = temp();
    let text = std::fs::read(SEED).unwrap();
    // File names that are keywords, reserved, odd, or that try to end the comment (`*/` can
    // only come from a directory's name followed by the separator).
    let names = [
        "int.vu",
        "static.vu",
        "uint32_t.vu",
        "INT8_MAX.vu",
        "_Bool.vu",
        "1 bad-name.vu",
        "line\nbreak int x;.vu",
        "a */ int x; /*/x.vu",
        "b */\n int x; //\n/x.vu",
        "bidi\u{202e}.vu",
    ];
    for name in names {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        let c = run(&[path_str(&path), "-f", "c"]);
        let rust = run(&[path_str(&path), "-f", "rust"]);
        assert!(c.status.success() && rust.status.success(), "{name:?}: {}", stderr(&c));
        compile_c_and_rust(dir.path(), &stdout(&c), &stdout(&rust));
        // The name stays inside its one-line comment.
        for line in stdout(&c).lines().filter(|l| l.contains("int x")) {
            assert!(
                line.starts_with("/* Assembled") && line.ends_with("*/") && line.matches("*/").count() == 1,
                "{line}"
            );
        }
        for line in stdout(&rust).lines().filter(|l| l.contains("int x")) {
            assert!(line.starts_with("// Assembled"), "{line}");
        }
    }
    // An empty program: C has no zero-length arrays.
    let empty = dir.path().join("empty.vsh");
    std::fs::write(&empty, "").unwrap();
    let c = stdout(&run(&[path_str(&empty), "-f", "c"]));
    let rust = stdout(&run(&[path_str(&empty), "-f", "rust"]));
    assert!(rust.contains("pub const EMPTY: [u32; 0]"), "{rust}");
    compile_c_and_rust(dir.path(), &c, &rust);
    // A valid --name is used as it is; an invalid one is refused with a suggestion.
    let c = stdout(&run(&[SEED, "-f", "c", "--name", "my_shader"]));
    assert!(c.contains("my_shader[14]"), "{c}");
    compile_c_and_rust(
        dir.path(),
        &c,
        &stdout(&run(&[SEED, "-f", "rust", "--name", "my_shader"])),
    );
    for (name, suggestion) in [
        ("", "program"),
        ("1 bad-name", "program_1_bad_name"),
        ("int", "int_"),
        ("_x", "program_x"),
        ("a*/b", "a__b"),
    ] {
        for format in ["c", "rust"] {
            let output = run(&[SEED, "-f", format, "--name", name]);
            assert_eq!(output.status.code(), Some(2), "--name {name:?}");
            let err = stderr(&output);
            assert!(
                err.contains("PA016") && err.contains(&format!("--name {suggestion}`")),
                "{err}"
            );
            assert!(output.stdout.is_empty());
        }
    }
    // --name only matters to the array formats.
    assert!(run(&[SEED, "-f", "hex", "--name", "int"]).status.success());
}

#[test]
fn two_inputs_are_refused_with_a_pointer_to_check() {
    let output = run(&[SEED, MVP]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("PA015") && err.contains("more than one input"), "{err}");
    assert!(err.contains("polyasm check"), "{err}");
    assert!(!err.contains("subcommand"), "{err}");
}

#[test]
fn explanations_name_the_targets_that_exist() {
    let pa008 = stdout(&run(&["explain", "PA008"]));
    assert!(pa008.contains("`.vsh`") && pa008.contains("`.vu`"), "{pa008}");
    let pa012 = stdout(&run(&["explain", "PA012"]));
    for prefix in ["NV2A", "VU", "PA"] {
        assert!(pa012.contains(prefix), "{pa012}");
    }
    for missing in ["MX", "SH", "PP"] {
        assert!(!pa012.contains(missing), "{pa012}");
    }
}

#[test]
fn a_partial_word_is_counted_in_the_singular() {
    let output = run_with_stdin(&["disasm", "-t", "vu"], &[0x3f, 0, 0, 0, 0]);
    let err = stderr(&output);
    assert!(
        err.contains("is 5 bytes long") && err.contains("the last byte is a partial word"),
        "{err}"
    );
    let output = run_with_stdin(&["disasm", "-t", "vu"], &[0]);
    assert!(stderr(&output).contains("is 1 byte long"), "{}", stderr(&output));

    // nv2a counts words of four-word instructions the same way.
    let output = run_with_stdin(&["disasm", "-t", "nv2a", "--input-format", "hex"], b"00000000\n");
    assert!(
        stderr(&output).contains("1 word is not a whole number of 4-word instructions")
            && stderr(&output).contains("the last word is a partial instruction"),
        "{}",
        stderr(&output)
    );
    let output = run_with_stdin(
        &["disasm", "-t", "nv2a", "--input-format", "hex"],
        b"0\n0\n0\n0\n0\n0\n",
    );
    assert!(
        stderr(&output).contains("6 words are not")
            && stderr(&output).contains("the last 2 words are a partial instruction"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_output_extension_picks_vshinc() {
    let dir = temp();
    let vshinc = stdout(&run(&[MVP, "-f", "vshinc"]));
    for name in ["out.vshinc", "out.inc"] {
        let out = dir.path().join(name);
        assert!(run(&[MVP, "-o", path_str(&out)]).status.success());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), vshinc, "{name}");
    }
    let output = run(&[SEED, "-o", path_str(&dir.path().join("vu.inc"))]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("PA009"), "{}", stderr(&output));
}

#[test]
fn completions_offer_targets_and_formats() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout(&run(&["completions", shell]));
        for value in ["nv2a", "vu", "listing", "vshinc"] {
            assert!(script.contains(value), "{shell} completions lack {value}");
        }
    }
}

#[test]
fn the_version_names_the_commit_of_a_git_build() {
    let version = stdout(&run(&["--version"]));
    let head = Command::new("git")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success());
    match head {
        Some(head) => {
            let hash = stdout(&head);
            assert!(
                version.starts_with("polyasm 0.1.0 (") && version.contains(hash.trim()),
                "{version}"
            );
        }
        None => assert_eq!(version, "polyasm 0.1.0\n"),
    }
}

#[test]
fn the_man_page_describes_every_command() {
    let man = run(&["man"]);
    assert!(man.status.success());
    let page = stdout(&man);
    assert!(page.contains(".TH polyasm 1"), "{page}");
    for command in ["disasm", "run", "check", "explain", "completions"] {
        assert!(page.contains(command), "the man page lacks {command}");
    }
}

#[test]
fn check_takes_the_target_options() {
    assert!(run(&["check", MVP, "--explicit-final"]).status.success());
    let output = run(&["check", SEED, "--explicit-final"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("PA010"), "{}", stderr(&output));
}

#[test]
fn disasm_warns_about_input_longer_than_the_machine() {
    let output = run_with_stdin(&["disasm", "-t", "vu"], &le_bytes(&[0x3f; 64]));
    assert!(
        output.status.success() && stderr(&output).is_empty(),
        "{}",
        stderr(&output)
    );
    let output = run_with_stdin(
        &["disasm", "-t", "vu", "--error-format", "short"],
        &le_bytes(&[0x3f; 65]),
    );
    assert!(output.status.success());
    assert_eq!(
        stderr(&output),
        "warning[PA017]: <stdin> holds 65 words; vu programs have at most 64 words\n"
    );
    let hex: String = (0..137 * 4).map(|_| "00000000\n").collect();
    let output = run_with_stdin(&["disasm", "-t", "nv2a", "--error-format", "short"], hex.as_bytes());
    assert!(output.status.success());
    assert!(
        stderr(&output).contains("<stdin> holds 548 words; nv2a programs have at most 136 instructions (544 words)"),
        "{}",
        stderr(&output)
    );
    let hex: String = (0..136 * 4).map(|_| "00000000\n").collect();
    let output = run_with_stdin(&["disasm", "-t", "nv2a"], hex.as_bytes());
    assert!(
        output.status.success() && stderr(&output).is_empty(),
        "{}",
        stderr(&output)
    );
}

#[test]
fn disasm_of_a_source_points_to_the_assembler() {
    let output = run(&["disasm", "-t", "vu", SEED, "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert_eq!(err.lines().count(), 1, "one error, not one per word:\n{err}");
    let output = run(&["disasm", "-t", "vu", SEED, "--error-format", "json"]);
    let value: serde_json::Value = serde_json::from_str(stderr(&output).trim()).unwrap();
    let children = value["children"].to_string();
    assert!(
        children.contains("looks like assembly source") && children.contains(&format!("polyasm {SEED}")),
        "{children}"
    );
    // Standard input has no extension: the words tell.
    let output = run_with_stdin(
        &["disasm", "-t", "vu", "--error-format", "short"],
        b"ld r0 0\nst pos r0\n",
    );
    assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
    // A hex dump with a typo is not source: each bad word is reported as usual.
    let dump: String = (0..20).map(|_| "0000003f\n").chain(["zz\n", "0x3g\n"]).collect();
    let output = run_with_stdin(&["disasm", "-t", "vu", "--error-format", "json"], dump.as_bytes());
    assert_eq!(stderr(&output).lines().count(), 2, "{}", stderr(&output));
    assert!(!stderr(&output).contains("looks like assembly source"));
}

#[test]
fn options_given_before_the_command_apply_to_it() {
    // `--error-format`, `--color`, `-W` and `--max-errors` belong to every command, and an
    // option written before the command name is read as the command's own.
    let output = run(&["--error-format", "short", "check", THREE_MISTAKES]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(!err.contains("PA015"), "{err}");
    assert!(
        err.contains("err_three_mistakes.vu:") && err.contains("error[VU"),
        "{err}"
    );

    let output = run(&["--color=never", "-W", "error", "--max-errors", "1", "check", SEED]);
    assert!(output.status.success(), "{}", stderr(&output));

    let output = run_with_stdin(
        &["-t", "vu", "disasm", "--input-format", "bin"],
        &le_bytes(&seed_words()),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("mulm r0 r4"), "{}", stdout(&output));

    let output = run(&["--version", "check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("polyasm "), "{}", stdout(&output));

    // A value that names a command is still the option's value.
    let dir = temp();
    let out = dir.path().join("run");
    let output = run(&["-o", path_str(&out), SEED]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.exists());
}

#[test]
fn command_line_errors_in_short_and_json_keep_clap_continuation_lines() {
    let output = run(&["check", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error[PA015]: the following required arguments were not provided: <INPUT>...\n"
    );
    let output = run(&["--bogus", "--error-format", "json"]);
    let err = stderr(&output);
    let value: serde_json::Value = serde_json::from_str(err.trim_end()).unwrap();
    for child in value["children"].as_array().unwrap() {
        let message = child["message"].as_str().unwrap();
        assert!(!message.contains('\\') && !message.contains('\n'), "{message:?}");
    }
}

#[test]
fn a_negative_max_errors_is_an_invalid_value() {
    let output = run(&["--max-errors", "-1", SEED, "-f", "hex"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("invalid value '-1' for '--max-errors <N>'"), "{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}

#[test]
fn disasm_skips_a_byte_order_mark_in_hex_text() {
    let hex = "00000000\r\n0000003f\r\n";
    let plain = stdout(&run_with_stdin(&["disasm", "-t", "vu"], hex.as_bytes()));
    assert!(plain.starts_with("ld r0 0\n"), "{plain}");
    let marked = format!("\u{feff}{hex}");
    for args in [
        &["disasm", "-t", "vu"][..],
        &["disasm", "-t", "vu", "--input-format", "hex"],
    ] {
        let output = run_with_stdin(args, marked.as_bytes());
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), plain);
    }
}

/// Runs polyasm with standard input closed (`<&-`).
#[cfg(unix)]
fn run_with_stdin_closed(args: &[&str]) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = polyasm();
    command.args(args).stdin(Stdio::null());
    // SAFETY: close is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::close(libc::STDIN_FILENO);
            Ok(())
        });
    }
    command.output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_standard_input_is_an_error_not_an_empty_program() {
    for args in [
        &["-t", "vu", "-f", "hex"][..],
        &["-t", "nv2a", "-", "-f", "hex"],
        &["check", "-t", "vu", "-"],
        &["disasm", "-t", "vu"],
        &["run", "-t", "vu"],
    ] {
        let output = run_with_stdin_closed(args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error[PA001]: cannot read <stdin>: it is closed"),
            "{args:?}: {err}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_c_array_from_main_vsh_can_be_included_in_the_program_with_main() {
    // The C output is meant to be included in a program, which defines `main`.
    let dir = temp();
    let source = dir.path().join("main.vsh");
    std::fs::write(&source, "mov oPos, v0\n").unwrap();
    let header = dir.path().join("main.h");
    let output = run(&[path_str(&source), "-o", path_str(&header)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let program = dir.path().join("program.c");
    std::fs::write(
        &program,
        "#include \"main.h\"\nint main(void) { return (int)sizeof main_; }\n",
    )
    .unwrap();
    let cc = Command::new("cc")
        .args(["-std=c99", "-pedantic", "-Werror", "-c"])
        .arg(&program)
        .arg("-o")
        .arg(dir.path().join("program.o"))
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "{}\n{}",
        std::fs::read_to_string(&header).unwrap(),
        stderr(&cc)
    );
    let output = run(&[SEED, "-f", "c", "--name", "main"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("PA016"), "{}", stderr(&output));
}

#[cfg(unix)]
#[test]
fn an_output_that_standard_input_reads_is_named_as_such() {
    let dir = temp();
    let source = dir.path().join("x.vu");
    std::fs::write(&source, std::fs::read(SEED).unwrap()).unwrap();
    let output = polyasm()
        .current_dir(dir.path())
        .args(["-t", "vu", "-", "-o", "x.vu", "--error-format", "short"])
        .stdin(std::fs::File::open(&source).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "error[PA014]: the output `x.vu` is the file standard input reads from\n"
    );
}

#[cfg(unix)]
#[test]
fn the_listing_header_keeps_a_file_name_on_its_comment_line() {
    let dir = temp();
    let path = dir.path().join("two\nlines\u{1b}[2J.vu");
    std::fs::write(&path, std::fs::read(SEED).unwrap()).unwrap();
    let output = run(&[path_str(&path), "-f", "listing"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listing = stdout(&output);
    let lines: Vec<&str> = listing.lines().collect();
    assert!(
        lines[0].starts_with("; polyasm listing of ") && lines[0].contains("two\\nlines\\u{1b}[2J.vu"),
        "{listing}"
    );
    assert!(lines[1].starts_with("; addr"), "{listing}");
    assert!(!listing.contains('\x1b'), "{listing}");
}

#[test]
fn the_last_of_a_repeated_output_option_wins() {
    let output = run(&["--error-format", "json", "--error-format", "short", THREE_MISTAKES]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).starts_with(THREE_MISTAKES), "{}", stderr(&output));
    let output = run(&["--color", "always", "--color", "never", THREE_MISTAKES]);
    assert!(!stderr(&output).contains('\x1b'), "{}", stderr(&output));
    let output = run(&[
        "--max-errors",
        "5",
        "--max-errors",
        "1",
        THREE_MISTAKES,
        "--color",
        "never",
    ]);
    assert!(
        stderr(&output).contains("2 more errors not shown"),
        "{}",
        stderr(&output)
    );
}

/// Every code the sources report (a `"PA…"`, `"VU…"` or `"NV2A…"` string outside unit tests)
/// has an explanation.
#[test]
fn every_code_in_the_sources_is_explained() {
    fn visit(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // Unit tests may make up codes.
                let text = text.split("#[cfg(test)]").next().unwrap_or_default();
                for (i, _) in text.match_indices('"') {
                    let rest = &text[i + 1..];
                    let prefix = ["PA", "VU", "NV2A"].into_iter().find(|p| rest.starts_with(p));
                    if let Some(prefix) = prefix {
                        let digits = rest[prefix.len()..].bytes().take_while(u8::is_ascii_digit).count();
                        if digits == 3 && rest.as_bytes().get(prefix.len() + 3) == Some(&b'"') {
                            found.push(rest[..prefix.len() + 3].to_string());
                        }
                    }
                }
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut codes = Vec::new();
    for dir in [
        "src",
        "crates/polyasm-core/src",
        "crates/polyasm-vu/src",
        "crates/polyasm-nv2a/src",
    ] {
        visit(&root.join(dir), &mut codes);
    }
    assert!(codes.len() > 50, "the scan finds the codes: {codes:?}");
    for code in codes {
        assert!(
            polyasm_core::Explain::explain(polyasm::registry(), &code).is_some(),
            "{code} has no explanation"
        );
    }
}

/// Help goes to standard output, so standard output's terminal decides its colour, whatever
/// standard error is.
#[cfg(unix)]
#[test]
fn help_is_coloured_by_the_terminal_it_goes_to() {
    for (stdout_is_terminal, expect_colour) in [(true, true), (false, false)] {
        let (mut master, slave) = open_pty();
        let (stdout, stderr): (Stdio, Stdio) = if stdout_is_terminal {
            (Stdio::from(slave), Stdio::null())
        } else {
            (Stdio::piped(), Stdio::from(slave))
        };
        let mut child = polyasm()
            .arg("--help")
            .env("TERM", "xterm")
            .stdout(stdout)
            .stderr(stderr)
            .spawn()
            .unwrap();
        let mut text = Vec::new();
        if stdout_is_terminal {
            let status = child.wait().unwrap();
            assert!(status.success());
            // Read what the terminal got; the slave end is closed with the child.
            let mut buffer = [0u8; 65536];
            let n = std::io::Read::read(&mut master, &mut buffer).unwrap_or(0);
            text.extend_from_slice(&buffer[..n]);
        } else {
            text = child.wait_with_output().unwrap().stdout;
        }
        assert_eq!(
            text.contains(&0x1b),
            expect_colour,
            "stdout a terminal: {stdout_is_terminal}"
        );
    }
}

/// An output extension picks one format: no two formats of any targets claim the same one.
#[test]
fn each_output_extension_names_one_format() {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for format in polyasm::registry().targets().iter().flat_map(|t| t.formats()) {
        for &ext in format.extensions {
            match seen.iter().find(|(e, _)| *e == ext) {
                Some((_, name)) => assert_eq!(*name, format.name, ".{ext} is claimed twice"),
                None => seen.push((ext, format.name)),
            }
        }
    }
    assert!(seen.iter().any(|&(e, f)| e == "inc" && f == "vshinc"));
}
