//! The command-line contract: every behaviour of `polyasm` that users and scripts rely on.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/vu/seed.vu");
const THREE_MISTAKES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/vu/err_three_mistakes.vu");

fn polyasm() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_polyasm"));
    command
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

fn run(args: &[&str]) -> Output {
    polyasm().args(args).output().expect("polyasm runs")
}

fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = polyasm()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // polyasm may exit before reading (a usage error), closing the pipe: that is not a failure here.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn seed_words() -> Vec<u32> {
    polyasm_vu::assemble_str(&std::fs::read_to_string(SEED).unwrap()).unwrap()
}

fn le_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
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

/// A pseudo-terminal pair: (master, slave).
fn open_pty() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the given locations; the null
    // arguments ask for default name, termios and window size.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty failed");
    // SAFETY: both descriptors are fresh and owned by nothing else.
    unsafe { (std::fs::File::from_raw_fd(master), std::fs::File::from_raw_fd(slave)) }
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
    assert_eq!(output.status.code(), Some(1));
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

const MVP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/nv2a/mvp.vsh");

fn mvp_words(options: polyasm_nv2a::AssembleOptions) -> Vec<u32> {
    polyasm_nv2a::assemble_str(&std::fs::read_to_string(MVP).unwrap(), options).unwrap()
}

#[test]
fn nv2a_assembles_to_binary_and_vshinc() {
    let dir = temp();
    let out = dir.path().join("out.bin");
    let output = run(&["-t", "nv2a", MVP, "-o", path_str(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let words = mvp_words(Default::default());
    assert_eq!(std::fs::read(&out).unwrap(), le_bytes(&words));
    assert_eq!(words.len() % 4, 0);

    let output = run(&[MVP, "-f", "vshinc"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        words.len() / 2,
        "a comment line and a word line per instruction"
    );
    assert_eq!(lines[0], "/* dp4 oPos.x, v0, c96 */");
    let expected: Vec<String> = words
        .chunks(4)
        .map(|w| format!("0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x},", w[0], w[1], w[2], w[3]))
        .collect();
    let word_lines: Vec<&str> = lines.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(word_lines, expected);
    assert!(text.ends_with(",\n"));

    // The vshinc text reads back through the disassembler and reassembles to the same words.
    let inc = dir.path().join("mvp.vshinc");
    std::fs::write(&inc, &text).unwrap();
    let source = run(&["disasm", "-t", "nv2a", path_str(&inc)]);
    assert!(source.status.success(), "{}", stderr(&source));
    let again = run_with_stdin(&["-t", "nv2a", "-", "-f", "hex"], &source.stdout);
    let hex: Vec<String> = words.iter().map(|w| format!("{w:08x}")).collect();
    assert_eq!(stdout(&again), hex.join("\n") + "\n");
}

#[test]
fn nv2a_json_symbols_are_the_uniforms() {
    let dir = temp();
    let input = dir.path().join("u.vsh");
    std::fs::write(
        &input,
        "; uniforms\n#mvp MATRIX4 96\n#light vector 20 // sun\n%matmul4x4 oPos, iPos, #mvp\nmov oD0, #light\n",
    )
    .unwrap();
    let output = run(&[path_str(&input), "-f", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        json["symbols"],
        serde_json::json!([
            {"name": "#mvp", "value": 96, "size": 4, "kind": "matrix4", "line": 2, "source": "#mvp MATRIX4 96"},
            {"name": "#light", "value": 20, "size": 1, "kind": "vector", "line": 3, "source": "#light vector 20 // sun"},
        ])
    );
}

#[test]
fn nv2a_and_vu_read_cr_only_and_crlf_files_like_lf_ones() {
    let dir = temp();
    for (name, lf, error_line) in [
        (
            "a.vsh",
            "mov oD0, v3 ; c\n+ rcp r1.w, r1.w\n\nmov r0, v16\n",
            "a.vsh:4:9: error[NV2A006]",
        ),
        ("a.vu", "ld r0 0 // c\nldc r4 0\n\nld r0 9 9\n", "a.vu:4:"),
    ] {
        let valid: String = lf.lines().take(2).map(|l| format!("{l}\n")).collect();
        let path = dir.path().join(name);
        std::fs::write(&path, &valid).unwrap();
        let expected = stdout(&run(&[path_str(&path), "-f", "hex"]));
        assert!(!expected.is_empty());
        for ending in ["\r", "\r\n"] {
            std::fs::write(&path, valid.replace('\n', ending)).unwrap();
            let output = run(&[path_str(&path), "-f", "hex"]);
            assert_eq!(stdout(&output), expected, "{name} {ending:?}: {}", stderr(&output));
            std::fs::write(&path, lf.replace('\n', ending)).unwrap();
            let output = run(&[path_str(&path), "-f", "hex", "--error-format", "short"]);
            assert_eq!(output.status.code(), Some(1));
            assert!(
                stderr(&output).contains(error_line),
                "{name} {ending:?}: {}",
                stderr(&output)
            );
        }
    }
}

#[test]
fn nv2a_explicit_final_appends_the_marker_and_is_nv2a_only() {
    let output = run(&[MVP, "-f", "hex", "--explicit-final"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let explicit = mvp_words(polyasm_nv2a::AssembleOptions {
        explicit_final: true,
        ..Default::default()
    });
    assert_eq!(&explicit[explicit.len() - 4..], [0, 0, 0, 1]);
    let hex: Vec<String> = explicit.iter().map(|w| format!("{w:08x}")).collect();
    assert_eq!(stdout(&output), hex.join("\n") + "\n");
    let output = run(&[SEED, "-f", "hex", "--explicit-final"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("target vu does not take `--explicit-final`"));
}

#[test]
fn nv2a_silent_miscompiles_of_nv2avsh_are_errors_and_write_nothing() {
    let dir = temp();
    for (source, code) in [
        ("add r0, v0, v1\n", "NV2A015"),
        ("mov oT0, v0 + rcp r1.x, v1.x\n", "NV2A015"),
        ("mul r0, c[A0+5], c5\n", "NV2A017"),
        ("dp4 oPos.x, v0, c0 + rcp oFog.x, v0.x\n", "NV2A018"),
        ("mul r0, c1, c2\n", "NV2A016"),
    ] {
        let input = dir.path().join("bad.vsh");
        std::fs::write(&input, source).unwrap();
        let out = dir.path().join("bad.bin");
        let output = run(&[path_str(&input), "-o", path_str(&out), "--error-format", "short"]);
        assert_eq!(output.status.code(), Some(1), "{source}");
        assert!(
            stderr(&output).contains(&format!("error[{code}]")),
            "{source}: {}",
            stderr(&output)
        );
        assert!(!out.exists(), "{source}: no output on error");
    }
}

#[test]
fn nv2a_paired_ilu_warning_is_fatal_under_werror() {
    let dir = temp();
    let input = dir.path().join("w.vsh");
    std::fs::write(&input, "dp4 oPos.x, r6, c96 + rsq r10.x, r2.x\n").unwrap();
    let output = run(&[path_str(&input), "-f", "hex"]);
    assert!(output.status.success());
    assert!(stderr(&output).contains("warning[NV2A022]"));
    assert_eq!(stdout(&output), "00000000\n08ec001b\n64361800\n90188801\n");
    let output = run(&[path_str(&input), "-f", "hex", "-W", "error"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).is_empty());
}

#[test]
fn nv2a_run_transforms_a_vertex() {
    // mvp.vsh: oPos = (dp4(v0, c96), dp4(v0, c97), dp4(v0, c98), dp4(v0, c99)).
    let output = run(&[
        "run",
        MVP,
        "-i",
        "v0=1,2,3",
        "-c",
        "c96=2,0,0,1",
        "-c",
        "97=0,3,0,0",
        "-c",
        "98=0,0,1,1",
        "-c",
        "99=0,0,0,1",
        "--format",
        "json",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    // x = 1*2 + 1*1 = 3, y = 2*3 = 6, z = 3 + 1 = 4, w = 1
    assert_eq!(json["vertices"][0]["oPos"], serde_json::json!([3.0, 6.0, 4.0, 1.0]));
    let output = run(&["run", MVP, "--arl-bias"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["run", SEED, "--arl-bias"]);
    assert_eq!(output.status.code(), Some(2));
}
