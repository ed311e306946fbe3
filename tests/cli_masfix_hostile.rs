//! Hostile input for the Masfix target, through the built binary: damaged bytecode, garbage
//! and huge sources, macros that grow without end, compile-time code that never stops,
//! include cycles, outputs that are inputs, closed and full streams, signals, absurd option
//! values, odd characters in names and line breaks.
//!
//! Each case checks what polyasm must do: a diagnostic with its code and the right exit
//! status, no crash, no file destroyed. Every run is killed after a generous time, and the test
//! then fails: nothing here measures speed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::Duration;

mod common;
use common::*;

/// Far longer than any of these runs needs; reached only when polyasm hangs.
/// Writes `bytes` as `name` in `dir`.
fn file(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs polyasm in `dir` with `stdin` (standard input at its end when `None`), bounded.
fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = polyasm()
        .current_dir(dir)
        .args(args)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = stdin.unwrap_or_default().to_vec();
        // polyasm may stop before reading everything: a closed pipe is no failure here.
        std::thread::spawn(move || drop(pipe.write_all(&bytes)))
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, &args.join(" "));
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Error codes in `--error-format short` output, in order.
fn codes(output: &Output) -> Vec<String> {
    stderr(output)
        .lines()
        .filter_map(|line| {
            let start = line.find("error[").or_else(|| line.find("warning["))?;
            let rest = &line[start..];
            let open = rest.find('[')? + 1;
            let close = rest.find(']')?;
            Some(rest[open..close].to_string())
        })
        .collect()
}

/// Asserts exit status `code`, that polyasm did not crash, and returns standard error.
fn expect_exit(output: &Output, code: i32) -> String {
    let err = stderr(output);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(output.status.code(), Some(code), "{err}");
    err
}

/// A program with every kind of instruction, labels, a forward jump and input.
const EVERY_KIND: &str = "\
:start
ld 5
:loop
outur
outc 10
lds 1
bne loop
ldamt 2
strtrs 5
lmltra 7
seq 56
swap
movm
strp
jmpar
inc
ipcm
inu
inl
brltm< 15
jmp end
";

fn assemble_every_kind(dir: &Path, strip: bool) -> Vec<u8> {
    file(dir, "every.mx", EVERY_KIND);
    let mut args = vec!["every.mx", "-o", "every.mxb"];
    if strip {
        args.push("--strip");
    }
    let output = run_in(dir, &args, None);
    expect_exit(&output, 0);
    std::fs::read(dir.join("every.mxb")).unwrap()
}

/// Runs and disassembles `bytes` as a `.mxb` file: exit 0 or 1, and an error is MX044 (or a
/// runtime error of a program that loaded).
fn load_damaged(dir: &Path, bytes: &[u8], what: &str) -> bool {
    file(dir, "damaged.mxb", bytes);
    let disasm = run_in(dir, &["disasm", "damaged.mxb", "--error-format", "short"], None);
    let err = stderr(&disasm);
    assert!(!err.contains("panicked"), "{what}: {err}");
    match disasm.status.code() {
        Some(0) => {}
        Some(1) => assert_eq!(codes(&disasm), ["MX044"], "{what}"),
        other => panic!("{what}: disasm exit {other:?}: {err}"),
    }
    let run = run_in(
        dir,
        &["run", "damaged.mxb", "--max-steps", "100000", "--error-format", "short"],
        Some(b"1\n2\n"),
    );
    let err = stderr(&run);
    assert!(!err.contains("panicked"), "{what}: {err}");
    match run.status.code() {
        Some(0) => assert!(disasm.status.success(), "{what}: ran but did not disassemble"),
        Some(1) => {
            let codes = codes(&run);
            assert_eq!(codes.len(), 1, "{what}: {err}");
            assert!(
                ["MX044", "MX070", "MX071"].contains(&codes[0].as_str()),
                "{what}: {err}"
            );
            assert_eq!(codes[0] == "MX044", !disasm.status.success(), "{what}: {err}");
        }
        other => panic!("{what}: run exit {other:?}: {err}"),
    }
    disasm.status.success()
}

#[test]
fn every_truncation_of_a_bytecode_file_is_mx044() {
    let dir = temp();
    let whole = assemble_every_kind(dir.path(), false);
    for len in 0..whole.len() {
        let loaded = load_damaged(dir.path(), &whole[..len], &format!("first {len} bytes"));
        assert!(!loaded, "first {len} of {} bytes loaded", whole.len());
    }
    assert!(load_damaged(dir.path(), &whole, "whole file"));
}

#[test]
fn bit_flips_in_bytecode_give_a_program_or_mx044_and_a_loaded_one_round_trips() {
    let dir = temp();
    let whole = assemble_every_kind(dir.path(), true);
    let mut loaded = 0;
    for byte in 0..whole.len() {
        for bit in 0..8 {
            let mut damaged = whole.clone();
            damaged[byte] ^= 1 << bit;
            let what = format!("bit {bit} of byte {byte} flipped");
            if !load_damaged(dir.path(), &damaged, &what) {
                continue;
            }
            loaded += 1;
            // What loads disassembles to source that assembles back to the same bytes.
            let disasm = run_in(dir.path(), &["disasm", "damaged.mxb", "-o", "back.mx"], None);
            expect_exit(&disasm, 0);
            let again = run_in(dir.path(), &["back.mx", "--strip", "-o", "back.mxb"], None);
            expect_exit(&again, 0);
            assert_eq!(std::fs::read(dir.path().join("back.mxb")).unwrap(), damaged, "{what}");
        }
    }
    // Flips in immediates and some fields still make programs: the round trip was tested.
    assert!(loaded > 10, "{loaded}");
}

#[test]
fn bit_flips_in_the_debug_section_never_crash() {
    let dir = temp();
    let whole = assemble_every_kind(dir.path(), false);
    let stripped = assemble_every_kind(dir.path(), true);
    // The flag word, then everything after the instructions.
    let positions = (6..8).chain(stripped.len()..whole.len());
    for byte in positions {
        for bit in 0..8 {
            let mut damaged = whole.clone();
            damaged[byte] ^= 1 << bit;
            load_damaged(dir.path(), &damaged, &format!("bit {bit} of byte {byte} flipped"));
        }
    }
}

#[test]
fn garbage_as_source_and_as_bytecode_is_refused_without_output() {
    let dir = temp();
    // Deterministic bytes covering every value, not UTF-8.
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    file(dir.path(), "garbage.mx", &garbage);
    file(dir.path(), "garbage.mxb", &garbage);
    let out = file(dir.path(), "out.mxb", "kept");
    let output = run_in(
        dir.path(),
        &["garbage.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    expect_exit(&output, 1);
    assert_eq!(codes(&output), ["PA002"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    for command in ["run", "disasm"] {
        let output = run_in(dir.path(), &[command, "garbage.mxb", "--error-format", "short"], None);
        expect_exit(&output, 1);
        assert_eq!(codes(&output), ["MX044"], "{command}");
        assert!(output.stdout.is_empty(), "{command}");
    }
    // Valid UTF-8 made of control characters is lexed, and every error is reported with its
    // characters escaped.
    let controls: String = (1u8..32)
        .filter(|&b| b != b'\n' && b != b'\r')
        .map(char::from)
        .collect();
    file(dir.path(), "controls.mx", format!("{controls}\n{controls}\n"));
    let output = run_in(dir.path(), &["controls.mx", "-o", "out.mxb"], None);
    let err = expect_exit(&output, 1);
    assert!(!err.contains('\u{1b}'), "{err}");
    assert!(!err.contains('\u{7}'), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
}

#[test]
fn empty_source_and_bytecode_of_no_instructions() {
    let dir = temp();
    file(dir.path(), "empty.mx", "");
    let output = run_in(dir.path(), &["empty.mx", "-o", "empty.mxb"], None);
    expect_exit(&output, 0);
    let bytes = std::fs::read(dir.path().join("empty.mxb")).unwrap();
    assert_eq!(&bytes[..4], b"MXBC");
    for (args, code) in [
        (&["run", "empty.mx"][..], 0),
        (&["run", "empty.mxb"], 0),
        (&["disasm", "empty.mxb"], 0),
        (&["check", "empty.mx"], 0),
        (&["-E", "empty.mx"], 0),
    ] {
        let output = run_in(dir.path(), args, Some(b"input"));
        expect_exit(&output, code);
        assert!(output.stdout.is_empty(), "{args:?}: {:?}", stdout(&output));
    }
    // An empty .mxb is no program.
    file(dir.path(), "zero.mxb", "");
    let output = run_in(dir.path(), &["run", "zero.mxb", "--error-format", "short"], None);
    expect_exit(&output, 1);
    assert_eq!(codes(&output), ["MX044"]);
}

#[test]
fn a_program_of_65537_instructions_is_mx043_at_the_last_one() {
    let dir = temp();
    file(dir.path(), "long.mx", "lds 1\n".repeat(65_537));
    let out = file(dir.path(), "long.mxb", "kept");
    let output = run_in(
        dir.path(),
        &["long.mx", "-o", "long.mxb", "--error-format", "short"],
        None,
    );
    let err = expect_exit(&output, 1);
    assert_eq!(codes(&output), ["MX043"]);
    assert!(err.contains("long.mx:65537:1:"), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    // One fewer fits, and runs past its last instruction.
    file(dir.path(), "fits.mx", "lds 1\n".repeat(65_536));
    let output = run_in(dir.path(), &["run", "fits.mx"], None);
    expect_exit(&output, 0);
}

#[test]
fn a_line_of_ten_megabytes_is_one_short_error() {
    let dir = temp();
    let long = "1".repeat(10_000_000);
    file(dir.path(), "number.mx", format!("ld {long}\n"));
    file(dir.path(), "name.mx", format!("ld{}\n", "a".repeat(10_000_000)));
    file(dir.path(), "comment.mx", format!("ld 1 ;{long}\n"));
    for (name, code) in [("number.mx", "MX034"), ("name.mx", "MX024")] {
        let output = run_in(dir.path(), &[name, "-o", "out.mxb", "--error-format", "short"], None);
        let err = expect_exit(&output, 1);
        assert_eq!(codes(&output), [code], "{name}");
        // The diagnostic shows the start of the text, not all of it.
        assert!(err.len() < 10_000, "{name}: {} bytes of diagnostics", err.len());
    }
    let output = run_in(dir.path(), &["run", "comment.mx"], None);
    expect_exit(&output, 0);
    assert!(!dir.path().join("out.mxb").exists());
}

#[test]
fn a_hundred_thousand_labels_and_macros_assemble() {
    let dir = temp();
    let labels: String = (0..100_000).map(|i| format!(":l{i}\n")).collect();
    file(dir.path(), "labels.mx", format!("{labels}ld l99999\noutur\n"));
    let output = run_in(dir.path(), &["run", "labels.mx"], None);
    expect_exit(&output, 0);
    assert_eq!(stdout(&output), "0");
    let macros: String = (0..100_000)
        .map(|i| format!("%macro m{i}() {{ outc {} }}\n", 65 + i % 26))
        .collect();
    file(dir.path(), "macros.mx", format!("{macros}%m99999()\n%m0()\n"));
    let output = run_in(dir.path(), &["run", "macros.mx"], None);
    expect_exit(&output, 0);
    // 99,999 mod 26 is 3.
    assert_eq!(stdout(&output), "DA");
}

#[test]
fn a_macro_body_of_a_megabyte() {
    let dir = temp();
    // A megabyte of comment lines and one instruction, used twice.
    let body = format!("{}outc 66\n", "; x\n".repeat(250_000));
    file(
        dir.path(),
        "body.mx",
        format!("%macro big() {{ {body} }}\n%big()\n%big()\n"),
    );
    let output = run_in(dir.path(), &["run", "body.mx"], None);
    expect_exit(&output, 0);
    assert_eq!(stdout(&output), "BB");
    // A megabyte of immediates on one line is one error, at the body.
    file(
        dir.path(),
        "many.mx",
        format!("%macro big() {{ {} }}\nld %big()\n", "1 ".repeat(500_000)),
    );
    let output = run_in(
        dir.path(),
        &["many.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    expect_exit(&output, 1);
    assert_eq!(codes(&output), ["MX032"]);
}

#[test]
fn macros_that_grow_without_end_stop_with_their_codes() {
    let dir = temp();
    // Each macro uses the one before twice: 2^40 instructions if nothing stopped it.
    let mut text = String::from("%macro m0() { lds 1\n}\n");
    for i in 1..=40 {
        text.push_str(&format!("%macro m{i}() {{ %m{}() %m{}() }}\n", i - 1, i - 1));
    }
    file(dir.path(), "exponential.mx", format!("{text}%m40()\n"));
    let out = file(dir.path(), "out.mxb", "kept");
    let output = run_in(
        dir.path(),
        &["exponential.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    expect_exit(&output, 1);
    let found = codes(&output);
    assert!(found.contains(&"MX058".to_string()), "{found:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    // A macro that uses itself, directly or through another, or grows its argument.
    for (name, text) in [
        ("self.mx", "%macro f() { %f() }\n%f()\n"),
        ("pair.mx", "%macro f() { %g() }\n%macro g() { %f() }\nld %f()\n"),
        ("growing.mx", "%macro f(x) { %f((%x)) }\n%f(1)\n"),
        ("compile_time.mx", "%macro f() { ld !f()\n}\nld !f()\n"),
    ] {
        file(dir.path(), name, text);
        let output = run_in(dir.path(), &[name, "-o", "out.mxb", "--error-format", "short"], None);
        expect_exit(&output, 1);
        assert!(
            codes(&output).contains(&"MX057".to_string()),
            "{name}: {}",
            stderr(&output)
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    }
}

#[test]
fn deeply_nested_brackets_neither_crash_nor_overflow_the_stack() {
    let dir = temp();
    let deep = 1_000_000;
    file(
        dir.path(),
        "closed.mx",
        format!("ld {}1{}\n", "(".repeat(deep), ")".repeat(deep)),
    );
    let output = run_in(dir.path(), &["run", "closed.mx"], None);
    expect_exit(&output, 0);
    file(dir.path(), "open.mx", format!("ld {}1\n", "(".repeat(deep)));
    let output = run_in(
        dir.path(),
        &["open.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    expect_exit(&output, 1);
    assert!(codes(&output).iter().all(|c| c == "MX003"));
    file(dir.path(), "closing.mx", format!("ld 1{}\n", ")".repeat(deep)));
    let output = run_in(
        dir.path(),
        &["closing.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    expect_exit(&output, 1);
    assert!(codes(&output).iter().all(|c| c == "MX001"));
    // Arguments nested deep in brackets are one argument.
    file(
        dir.path(),
        "argument.mx",
        format!(
            "%macro f(a) {{ outu %a }}\n%f({}7{})\n",
            "(".repeat(20_000),
            ")".repeat(20_000)
        ),
    );
    let output = run_in(dir.path(), &["run", "argument.mx"], None);
    expect_exit(&output, 0);
    assert_eq!(stdout(&output), "7");
    assert!(!dir.path().join("out.mxb").exists());
}

#[test]
fn compile_time_code_that_loops_prints_or_reads_is_bounded() {
    let dir = temp();
    let out = file(dir.path(), "out.mxb", "kept");
    file(dir.path(), "loops.mx", "%macro f() { :a\njmp a\n}\nld !f()\n");
    file(dir.path(), "prints.mx", "%macro f() { :a\noutc 65\njmp a\n}\nld !f()\n");
    for name in ["loops.mx", "prints.mx"] {
        for steps in ["0", "1", "1000"] {
            let args = [name, "-o", "out.mxb", "--ctime-steps", steps, "--error-format", "short"];
            let output = run_in(dir.path(), &args, None);
            expect_exit(&output, 1);
            assert_eq!(codes(&output), ["MX065"], "{name} {steps}");
            assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
            // What it printed before the limit is at most one byte a step.
            let limit: usize = steps.parse().unwrap();
            assert!(output.stdout.len() <= limit, "{name} {steps}");
        }
    }
    // The default limit stops it too.
    let output = run_in(dir.path(), &["check", "loops.mx", "--error-format", "short"], None);
    expect_exit(&output, 1);
    assert_eq!(codes(&output), ["MX065"]);
    // Compile-time code reads no input, whatever polyasm's standard input holds.
    file(
        dir.path(),
        "reads.mx",
        "%macro f() { inl\ninu\nipcm\ninc\n}\nld !f()\noutur\n",
    );
    let output = run_in(dir.path(), &["run", "reads.mx"], Some(b"123\n456\n"));
    expect_exit(&output, 0);
    assert_eq!(stdout(&output), "65535");
}

#[test]
fn include_cycles_and_odd_includes() {
    let dir = temp();
    file(dir.path(), "self.mx", "%include \"self\"\noutc 65\n");
    file(dir.path(), "a.mx", "%include \"b\"\noutc 65\n");
    file(dir.path(), "b.mx", "%include \"a.mx\"\n%include \"./b\"\noutc 66\n");
    for (name, expected) in [("self.mx", "A"), ("a.mx", "BA"), ("b.mx", "AB")] {
        let output = run_in(dir.path(), &["run", name], None);
        expect_exit(&output, 0);
        assert_eq!(stdout(&output), expected, "{name}");
    }
    // A folder named like the file, with no file of that name, and a binary file are PA020;
    // bytes that are not UTF-8 are shown where they are in the included file.
    std::fs::create_dir(dir.path().join("folder.mx")).unwrap();
    file(dir.path(), "binary.mx", [0u8, 159, 146, 150, 255]);
    file(dir.path(), "latin.mx", b"outc 65\n; caf\xe9\n".as_slice());
    for (text, code, at) in [
        ("%include \"folder\"\n", "PA020", "main.mx:1:"),
        ("%include \"binary\"\n", "PA020", "binary.mx:1:1:"),
        ("%include \"latin\"\n", "PA020", "latin.mx:2:6:"),
        ("%include \"\"\n", "PA019", "main.mx:1:"),
        ("%include \"/\"\n", "PA019", "main.mx:1:"),
        ("%include folder\n", "MX062", "main.mx:1:"),
    ] {
        file(dir.path(), "main.mx", text);
        let output = run_in(
            dir.path(),
            &["main.mx", "-o", "out.mxb", "--error-format", "short"],
            None,
        );
        let err = expect_exit(&output, 1);
        assert_eq!(codes(&output), [code], "{text}: {err}");
        assert!(err.starts_with(at), "{text}: {err}");
        if at != "main.mx:1:" {
            assert!(err.contains("\nmain.mx:1:1: note: "), "{text}: {err}");
        }
    }
    // Odd -I folders are usage errors before anything is read.
    for folder in ["self.mx", "missing", "/dev/null"] {
        let output = run_in(
            dir.path(),
            &["-I", folder, "a.mx", "-o", "out.mxb", "--error-format", "short"],
            None,
        );
        expect_exit(&output, 2);
        assert_eq!(codes(&output), ["PA023"], "{folder}");
    }
    assert!(!dir.path().join("out.mxb").exists());
}

#[test]
fn an_output_that_is_the_input_is_refused_for_every_command() {
    let dir = temp();
    let source = file(dir.path(), "prog.mx", "outc 65\n");
    std::os::unix::fs::symlink("prog.mx", dir.path().join("link.mx")).unwrap();
    let run = run_in(dir.path(), &["prog.mx", "-o", "prog.mxb"], None);
    expect_exit(&run, 0);
    let bytecode = std::fs::read(dir.path().join("prog.mxb")).unwrap();
    for args in [
        &["prog.mx", "-o", "prog.mx"][..],
        &["-E", "prog.mx", "-o", "prog.mx"],
        &["-E", "link.mx", "-o", "./prog.mx"],
        &["run", "prog.mx", "-o", "prog.mx"],
        &["run", "prog.mxb", "-o", "prog.mxb"],
        &["disasm", "prog.mxb", "-o", "prog.mxb"],
        &["-t", "mx", "-", "-o", "prog.mx"],
    ] {
        let stdin = std::fs::File::open(&source).unwrap();
        let mut args = args.to_vec();
        args.extend(["--error-format", "short"]);
        let output = polyasm()
            .current_dir(dir.path())
            .args(&args)
            .stdin(stdin)
            .output()
            .unwrap();
        expect_exit(&output, 2);
        assert_eq!(codes(&output), ["PA014"], "{args:?}");
        assert_eq!(std::fs::read_to_string(&source).unwrap(), "outc 65\n", "{args:?}");
        assert_eq!(
            std::fs::read(dir.path().join("prog.mxb")).unwrap(),
            bytecode,
            "{args:?}"
        );
    }
}

/// Runs polyasm with standard output (1) or input (0) closed.
fn run_closed(dir: &Path, args: &[&str], fd: i32) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = polyasm();
    command.current_dir(dir).args(args).stderr(Stdio::piped());
    if fd == 1 {
        command.stdin(Stdio::null());
    } else {
        command.stdout(Stdio::piped());
    }
    // SAFETY: close is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(move || {
            libc::close(fd);
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let out = child.stdout.take().map(drain);
    let err = drain(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, &args.join(" "));
    Output {
        status,
        stdout: out.map(|o| o.join().unwrap()).unwrap_or_default(),
        stderr: err.join().unwrap(),
    }
}

#[test]
fn closed_and_full_streams() {
    let dir = temp();
    file(dir.path(), "forever.mx", ":a\noutc 65\njmp a\n");
    file(dir.path(), "reads.mx", "outc 65\ninc\noutcr\n");
    file(dir.path(), "prog.mx", "outc 65\n");
    // Closed standard output: PA003, for the program's output and for -E.
    for args in [&["run", "forever.mx"][..], &["-E", "prog.mx"], &["run", "prog.mx"]] {
        let output = run_closed(dir.path(), args, 1);
        let err = expect_exit(&output, 1);
        assert!(
            err.contains("error[PA003]: cannot write standard output: it is closed"),
            "{args:?}: {err}"
        );
    }
    // Closed standard input: the program's output so far, then PA018 at the first read.
    let output = run_closed(dir.path(), &["run", "reads.mx"], 0);
    let err = expect_exit(&output, 1);
    assert!(err.contains("error[PA018]"), "{err}");
    assert_eq!(stdout(&output), "A");
    // A full device.
    if Path::new("/dev/full").exists() {
        for args in [
            &["run", "forever.mx"][..],
            &["-E", "prog.mx"],
            &["run", "prog.mx", "-o", "/dev/full"],
        ] {
            let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
            let output = polyasm()
                .current_dir(dir.path())
                .args(args)
                .stdin(Stdio::null())
                .stdout(full)
                .output()
                .unwrap();
            let err = expect_exit(&output, 1);
            assert!(err.contains("error[PA003]"), "{args:?}: {err}");
        }
    }
    // A reader that stops early ends a program that prints for ever, quietly.
    let mut child = polyasm()
        .current_dir(dir.path())
        .args(["run", "forever.mx"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let err = drain(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, "run forever.mx | head -c1");
    assert_eq!(&first, b"A");
    assert_eq!(status.code(), Some(0));
    assert_eq!(err.join().unwrap(), b"");
}

#[test]
fn sigint_during_a_long_run_leaves_the_output_file_as_it_was() {
    use std::os::unix::process::ExitStatusExt;
    let dir = temp();
    file(dir.path(), "forever.mx", ":a\noutc 65\njmp a\n");
    file(dir.path(), "spins.mx", "%macro f() { :a\njmp a\n}\nld !f()\n");
    let out = file(dir.path(), "out.txt", "kept");
    for args in [
        &["run", "forever.mx", "-o", "out.txt"][..],
        &["spins.mx", "-o", "out.txt", "--ctime-steps", "18446744073709551615"],
    ] {
        let mut child = polyasm()
            .current_dir(dir.path())
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Let it start working; it cannot end on its own.
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: kill sends a signal to the child we started.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        let status = wait_bounded(&mut child, &args.join(" "));
        assert_eq!(status.signal(), Some(libc::SIGINT), "{args:?}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept", "{args:?}");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(".polyasm-"))
            .collect();
        assert_eq!(left, Vec::<String>::new(), "{args:?}");
    }
}

#[test]
fn absurd_option_values() {
    let dir = temp();
    file(dir.path(), "prog.mx", "outc 65\n");
    file(dir.path(), "empty.mx", "");
    for (args, code, diagnostic) in [
        (
            &["run", "prog.mx", "--max-steps", "18446744073709551616"][..],
            2,
            "PA006",
        ),
        (&["run", "prog.mx", "--max-steps", "x"], 2, "PA006"),
        (&["run", "prog.mx", "--dump-memory", "65535..=0"], 2, "PA006"),
        (&["run", "prog.mx", "--dump-memory", "0..65537"], 2, "PA006"),
        (&["run", "prog.mx", "--dump-memory", "65536"], 2, "PA006"),
        (&["run", "prog.mx", "--dump-memory", ""], 2, "PA006"),
        (&["prog.mx", "--ctime-steps", "18446744073709551616"], 2, "PA006"),
        (&["check", "prog.mx", "--ctime-steps", "-"], 2, "PA006"),
        (&["run", "prog.mx", "--max-steps", "0"], 1, "MX071"),
    ] {
        let mut args = args.to_vec();
        args.extend(["--error-format", "short"]);
        let output = run_in(dir.path(), &args, None);
        expect_exit(&output, code);
        assert_eq!(codes(&output), [diagnostic], "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    // Limits that allow everything.
    let output = run_in(dir.path(), &["run", "empty.mx", "--max-steps", "0"], None);
    expect_exit(&output, 0);
    let output = run_in(
        dir.path(),
        &[
            "run",
            "prog.mx",
            "--max-steps",
            "18446744073709551615",
            "--dump-memory",
            "0..=65535",
        ],
        None,
    );
    let err = expect_exit(&output, 0);
    assert_eq!(stdout(&output), "A");
    assert_eq!(err.lines().count(), 65_536 / 8);
    assert!(
        err.lines().last().unwrap().trim_start().starts_with("65528:"),
        "{err:.200}"
    );
}

#[test]
fn control_characters_in_file_names_are_escaped() {
    let dir = temp();
    let name = "a\u{1b}[31mred\nb.mx";
    file(dir.path(), name, "ld7\n");
    for format in ["human", "short"] {
        let output = run_in(dir.path(), &[name, "-o", "out.mxb", "--error-format", format], None);
        let err = expect_exit(&output, 1);
        assert!(!err.contains('\u{1b}'), "{format}: {err}");
        assert!(err.contains("a\\u{1b}[31mred\\nb.mx"), "{format}: {err}");
    }
    // A name in a bytecode file's debug section is escaped too.
    file(dir.path(), "jump.mx", "jmp 70\n");
    let output = run_in(dir.path(), &["jump.mx", "-o", "jump.mxb"], None);
    expect_exit(&output, 0);
    let mut bytes = std::fs::read(dir.path().join("jump.mxb")).unwrap();
    let at = bytes.windows(7).position(|w| w == b"jump.mx").unwrap();
    bytes[at..at + 7].copy_from_slice(b"\x1b[2J\x07.x");
    file(dir.path(), "evil.mxb", &bytes);
    let output = run_in(dir.path(), &["run", "evil.mxb"], None);
    let err = expect_exit(&output, 1);
    assert!(err.contains("MX070"), "{err}");
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err}");
    assert!(err.contains("\\u{1b}[2J\\u{7}.x:1:1"), "{err}");
}

#[test]
fn crlf_cr_only_and_a_byte_order_mark() {
    let dir = temp();
    for (name, text) in [
        ("crlf.mx", "ld 65\r\noutcr\r\n:x\r\njmp x2\r\n"),
        ("cr.mx", "ld 65\routcr\r:x\rjmp x2\r"),
        ("bom.mx", "\u{feff}ld 65\noutcr\n:x\njmp x2\n"),
        ("mixed.mx", "ld 65\r\noutcr\r:x\njmp x2\n"),
    ] {
        file(dir.path(), name, text);
        let output = run_in(dir.path(), &[name, "-o", "out.mxb", "--error-format", "short"], None);
        let err = expect_exit(&output, 1);
        assert_eq!(codes(&output), ["MX033"], "{name}");
        assert!(err.starts_with(&format!("{name}:4:5: ")), "{name}: {err}");
        let fixed = text.replace("x2", "end");
        file(dir.path(), name, &fixed);
        let output = run_in(dir.path(), &["run", name], None);
        expect_exit(&output, 0);
        assert_eq!(stdout(&output), "A", "{name}");
    }
}

#[test]
fn labels_named_like_instructions_or_directives() {
    let dir = temp();
    let cases = [
        ("ld", "MX013"),
        ("ldm", "MX013"),
        ("swap", "MX013"),
        ("inl", "MX013"),
        ("outc", "MX013"),
        ("mova", "MX013"),
        ("define", "MX014"),
        ("include", "MX014"),
        ("macro", "MX014"),
        ("begin", "MX012"),
        ("end", "MX012"),
    ];
    for (label, code) in cases {
        file(dir.path(), "label.mx", format!("ld 1\n:{label}\noutc 65\n"));
        let output = run_in(
            dir.path(),
            &["label.mx", "-o", "out.mxb", "--error-format", "short"],
            None,
        );
        let err = expect_exit(&output, 1);
        assert_eq!(codes(&output), [code], "{label}");
        assert!(err.starts_with("label.mx:2:2: "), "{label}: {err}");
    }
    // Names that read as no instruction are labels.
    for label in ["b", "s", "r", "h", "swa", "ldx", "outcc", "L", "_"] {
        file(
            dir.path(),
            "label.mx",
            format!(":{label}\noutc 65\njmp {label}2\n:{label}2\n"),
        );
        let output = run_in(dir.path(), &["run", "label.mx"], None);
        expect_exit(&output, 0);
        assert_eq!(stdout(&output), "A", "{label}");
    }
}

#[test]
fn the_expansion_limit_makes_no_false_errors_after_the_cut() {
    let dir = temp();
    // Three tokens a line: the limit cuts the program inside line 1,398,102 (`lds` kept, `1`
    // not), before the label the first line jumps to.
    let text = format!("jmp done\n{}:done\n", "lds 1\n".repeat(1_400_000));
    file(dir.path(), "cut.mx", text);
    let output = run_in(
        dir.path(),
        &["cut.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    let err = expect_exit(&output, 1);
    // The program is too long, and too large to expand; the cut line is no `lds` without a
    // value, and `done` is defined.
    assert_eq!(codes(&output), ["MX043", "MX058"], "{err}");
    assert!(err.contains("cut.mx:65537:1: error[MX043]"), "{err}");
    assert!(err.contains("cut.mx:1398102:5: error[MX058]"), "{err}");
    // The same through macros: labels after the cut are not reported as undefined.
    let text = format!(
        "jmp done\n%macro m() {{ swap\n}}\n{}:done\n",
        "%m()\n".repeat(2_200_000)
    );
    file(dir.path(), "macros.mx", text);
    let output = run_in(
        dir.path(),
        &["macros.mx", "-o", "out.mxb", "--error-format", "short"],
        None,
    );
    let err = expect_exit(&output, 1);
    let found = codes(&output);
    assert!(found.contains(&"MX058".to_string()), "{err:.2000}");
    assert!(!found.contains(&"MX033".to_string()), "{err:.2000}");
    assert!(!dir.path().join("out.mxb").exists());
}
