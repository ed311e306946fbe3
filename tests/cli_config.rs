//! `polyasm.toml` on the command line, by running the built binary in temporary folders: each
//! key, what the command line overrides, how the file is found, and every way a file is
//! refused. How the file is read is tested in polyasm-core (`config.rs`).

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

const VU_SOURCE: &str = "ld r0 0\nst pos r0\n";
/// A VU program with a VU014 warning.
const VU_WARNING: &str = "mulm r0 r14\nst pos r0\n";
const LIMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/lima/solid_colour.pp");

/// A folder with `files` (name, text) in it; folders in the names are made.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = temp();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

/// Runs polyasm in `dir` with `args`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    polyasm().current_dir(dir).args(args).output().expect("polyasm runs")
}

/// Runs polyasm in `dir` with `args` and standard input `stdin`.
fn run_in_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = polyasm()
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", stderr(output));
    stdout(output)
}

/// The hex words polyasm gives `args` in `dir`.
fn hex(dir: &Path, args: &[&str]) -> String {
    ok(&run_in(dir, &[args, &["-f", "hex"]].concat()))
}

#[test]
fn target_names_the_target_of_a_file_with_an_unknown_extension_and_of_standard_input() {
    let dir = folder(&[
        ("polyasm.toml", "target = \"vu\"\n"),
        ("x.asm", VU_SOURCE),
        ("x.vu", VU_SOURCE),
    ]);
    let expected = hex(dir.path(), &["x.vu"]);
    assert_eq!(hex(dir.path(), &["x.asm"]), expected);
    let from_stdin = run_in_with_stdin(dir.path(), &["-", "-f", "hex"], VU_SOURCE.as_bytes());
    assert_eq!(ok(&from_stdin), expected);
    // Without the file, neither has a target.
    let output = run_in(dir.path(), &["x.asm", "--no-config", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("error[PA008]"), "{}", stderr(&output));
}

#[test]
fn extensions_add_extensions_and_win_over_the_built_in_ones() {
    let dir = folder(&[
        ("polyasm.toml", "[extensions]\nASM = \"dreambox\"\nvsh = \"vu\"\n"),
        ("x.asm", VU_SOURCE),
        ("y.vsh", VU_SOURCE),
        ("x.vu", VU_SOURCE),
    ]);
    let expected = hex(dir.path(), &["x.vu"]);
    assert_eq!(hex(dir.path(), &["x.asm"]), expected);
    assert_eq!(hex(dir.path(), &["y.vsh"]), expected);
    assert!(ok(&run_in(dir.path(), &["check", "x.asm", "y.vsh"])).is_empty());
}

#[test]
fn built_in_extensions_win_over_target_and_the_command_line_over_all() {
    let dir = folder(&[
        ("polyasm.toml", "target = \"nv2a\"\n[extensions]\nasm = \"nv2a\"\n"),
        ("x.vu", VU_SOURCE),
        ("x.asm", VU_SOURCE),
    ]);
    let expected = hex(dir.path(), &["x.vu", "--no-config"]);
    assert_eq!(hex(dir.path(), &["x.vu"]), expected);
    assert_eq!(hex(dir.path(), &["-t", "vu", "x.asm"]), expected);
    // As nv2a, the VU source is refused.
    let output = run_in(dir.path(), &["x.asm", "-f", "hex"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn include_folders_come_after_those_of_the_command_line() {
    let dir = folder(&[
        ("polyasm.toml", "include = [\"b\"]\n"),
        ("main.mx", "%include \"lib\"\n"),
        ("a/lib.mx", "outc 'A'\n"),
        ("b/lib.mx", "outc 'B'\n"),
    ]);
    assert_eq!(ok(&run_in(dir.path(), &["run", "main.mx"])), "B");
    assert_eq!(ok(&run_in(dir.path(), &["run", "main.mx", "-I", "a"])), "A");
    let output = run_in(
        dir.path(),
        &["check", "main.mx", "--no-config", "--error-format", "short"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[PA019]"), "{}", stderr(&output));
}

#[test]
fn include_folders_are_relative_to_the_folder_of_the_file() {
    let dir = folder(&[
        ("project/polyasm.toml", "include = [\"../lib\"]\n"),
        ("project/src/main.mx", "%include \"lib\"\n"),
        ("lib/lib.mx", "outc 'L'\n"),
    ]);
    assert_eq!(ok(&run_in(dir.path(), &["run", "project/src/main.mx"])), "L");
    let inside = dir.path().join("project/src");
    assert_eq!(ok(&run_in(&inside, &["run", "main.mx"])), "L");
}

#[test]
fn warnings_apply_and_the_command_line_overrides_them() {
    let dir = folder(&[("polyasm.toml", "warnings = [\"error=VU014\"]\n"), ("w.vu", VU_WARNING)]);
    let out = dir.path().join("w.bin");
    let output = run_in(dir.path(), &["w.vu", "-o", path_str(&out), "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[VU014]"), "{}", stderr(&output));
    assert!(!out.exists());
    let output = run_in(dir.path(), &["check", "w.vu", "-W", "no-VU014"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");

    std::fs::write(dir.path().join("polyasm.toml"), "warnings = [\"no-vu014\"]\n").unwrap();
    let output = run_in(dir.path(), &["check", "w.vu"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let output = run_in(
        dir.path(),
        &["check", "w.vu", "-W", "error=VU014", "--error-format", "short"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("error[VU014]"), "{}", stderr(&output));
    let output = run_in(dir.path(), &["check", "w.vu", "--no-config", "--error-format", "short"]);
    assert!(output.status.success());
    assert!(stderr(&output).contains("warning[VU014]"), "{}", stderr(&output));
}

#[test]
fn a_target_table_sets_its_options_for_every_command_that_has_them() {
    let dir = folder(&[("polyasm.toml", "[xbox]\nexplicit-final = true\n")]);
    let mvp = PathBuf::from(MVP);
    let with_flag = hex(dir.path(), &["--no-config", MVP, "--explicit-final"]);
    let without = hex(dir.path(), &["--no-config", MVP]);
    assert_ne!(with_flag, without);
    // The file applies to an input in another folder only through --config.
    assert_eq!(hex(dir.path(), &[MVP]), without);
    assert_eq!(hex(dir.path(), &["--config", "polyasm.toml", MVP]), with_flag);
    std::fs::copy(&mvp, dir.path().join("mvp.vsh")).unwrap();
    assert_eq!(hex(dir.path(), &["mvp.vsh"]), with_flag);

    // lima's `syntax` is an option of assembling and of disassembling.
    let binary = dir.path().join("solid.bin");
    ok(&run_in(dir.path(), &["--no-config", LIMA, "-o", path_str(&binary)]));
    std::fs::write(dir.path().join("polyasm.toml"), "[pp]\nsyntax = \"mesa\"\n").unwrap();
    let disasm = |args: &[&str]| {
        ok(&run_in(
            dir.path(),
            &[&["disasm", "-t", "lima", "solid.bin"], args].concat(),
        ))
    };
    let mesa = disasm(&["--no-config", "--syntax", "mesa"]);
    let proposed = disasm(&["--no-config"]);
    assert_ne!(mesa, proposed);
    assert_eq!(disasm(&[]), mesa);
    assert_eq!(disasm(&["--syntax", "proposed"]), proposed);
}

#[test]
fn a_command_line_option_replaces_the_files_value() {
    let dir = folder(&[
        ("polyasm.toml", "[masfix]\nmax-steps = 1\n"),
        ("hello.mx", "outc 'H'\noutc 'i'\n"),
    ]);
    let output = run_in(dir.path(), &["run", "hello.mx", "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("error[MX"), "{}", stderr(&output));
    assert_eq!(ok(&run_in(dir.path(), &["run", "hello.mx", "--max-steps", "10"])), "Hi");
    // An option of `run` alone does not reach `check` or the assembler.
    ok(&run_in(dir.path(), &["check", "hello.mx"]));
    ok(&run_in(dir.path(), &["hello.mx", "-f", "hex"]));
}

#[test]
fn the_nearest_file_above_the_input_is_used_whole() {
    let dir = folder(&[
        ("polyasm.toml", "target = \"vu\"\nwarnings = [\"error\"]\n"),
        ("a/b/x.asm", VU_SOURCE),
        ("a/b/w.asm", VU_WARNING),
    ]);
    // Two folders up.
    let expected = hex(dir.path(), &["-t", "vu", "a/b/x.asm", "--no-config"]);
    assert_eq!(hex(dir.path(), &["a/b/x.asm"]), expected);
    let output = run_in(dir.path(), &["check", "a/b/w.asm"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    // A nearer file wins, and the one above it is not read: no target, no `-W error`.
    std::fs::write(dir.path().join("a/polyasm.toml"), "[extensions]\nasm = \"vu\"\n").unwrap();
    assert_eq!(hex(dir.path(), &["a/b/x.asm"]), expected);
    let output = run_in(dir.path(), &["check", "a/b/w.asm", "--error-format", "short"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("warning[VU014]"));
    // Found from the input's folder, not the current one.
    let inside = dir.path().join("a/b");
    assert_eq!(hex(&inside, &["x.asm"]), expected);
    let elsewhere = temp();
    let input = dir.path().join("a/b/x.asm");
    assert_eq!(hex(elsewhere.path(), &[path_str(&input)]), expected);
}

#[test]
fn check_reads_the_file_of_each_input_and_reports_a_bad_one_once() {
    let dir = folder(&[
        ("one/polyasm.toml", "target = \"vu\"\n"),
        ("one/x.asm", VU_SOURCE),
        ("two/polyasm.toml", "target = \"nv2a\"\n"),
        ("two/x.asm", "mov oPos, v0\n"),
        ("bad/polyasm.toml", "targt = \"vu\"\n"),
        ("bad/x.asm", VU_SOURCE),
        ("bad/y.asm", VU_SOURCE),
    ]);
    ok(&run_in(dir.path(), &["check", "one/x.asm", "two/x.asm"]));
    let output = run_in(
        dir.path(),
        &["check", "bad/x.asm", "one/x.asm", "bad/y.asm", "--color", "never"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("error[PA027]").count(), 1, "{err}");
    assert!(err.contains("2 of 3 files failed"), "{err}");
}

#[test]
fn config_names_the_file_and_no_config_reads_none() {
    let dir = folder(&[
        ("polyasm.toml", "target = \"nv2a\"\n"),
        ("settings/vu.toml", "target = \"vu\"\n"),
        ("x.asm", VU_SOURCE),
    ]);
    let expected = hex(dir.path(), &["-t", "vu", "x.asm"]);
    assert_eq!(hex(dir.path(), &["--config", "settings/vu.toml", "x.asm"]), expected);
    assert_eq!(hex(dir.path(), &["x.asm", "--config=settings/vu.toml"]), expected);
    // Before the command too, as every global option.
    let output = run_in(dir.path(), &["--config", "settings/vu.toml", "check", "x.asm"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run_in(
        dir.path(),
        &["--no-config", "check", "x.asm", "--error-format", "short"],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("error[PA008]"), "{}", stderr(&output));
    let output = run_in(dir.path(), &["check", "x.asm", "--config", "a.toml", "--no-config"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let output = run_in(
        dir.path(),
        &["x.asm", "--config", "missing.toml", "--error-format", "short"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error[PA026]: cannot read missing.toml: No such file or directory\n"
    );
    let help = ok(&run_in(dir.path(), &["--help"]));
    assert!(
        help.contains("--config <FILE>") && help.contains("--no-config"),
        "{help}"
    );
}

#[test]
fn run_and_disasm_read_the_file_too() {
    let dir = folder(&[
        ("polyasm.toml", "[extensions]\nasm = \"vu\"\nwords = \"vu\"\n"),
        ("x.asm", VU_SOURCE),
    ]);
    let expected = ok(&run_in(dir.path(), &["run", "-t", "vu", "x.asm", "--no-config"]));
    assert_eq!(ok(&run_in(dir.path(), &["run", "x.asm"])), expected);
    let words = hex(dir.path(), &["x.asm"]);
    std::fs::write(dir.path().join("x.words"), &words).unwrap();
    let source = ok(&run_in(dir.path(), &["disasm", "x.words"]));
    assert!(source.contains("ld r0 0"), "{source}");
}

/// Runs `args` in a folder whose polyasm.toml holds `toml`: it must fail with exit 1 and no
/// output file, and one PA027 diagnostic in the short format, which is returned.
fn refused(toml: &str, args: &[&str]) -> String {
    let dir = folder(&[("polyasm.toml", toml), ("x.vu", VU_SOURCE)]);
    refused_in(dir.path(), args)
}

/// [`refused`] in `dir`; `-o` is added to every command but `check`, which writes nothing.
fn refused_in(dir: &Path, args: &[&str]) -> String {
    let out = dir.join("out.bin");
    let output_option = match args.first() {
        Some(&"check") => &[][..],
        _ => &["-o", path_str(&out)],
    };
    let args = [args, output_option, &["--error-format", "short"]].concat();
    let output = run_in(dir, &args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
    assert!(!out.exists(), "{args:?}");
    assert!(output.stdout.is_empty());
    err
}

#[test]
fn a_bad_file_fails_every_command_with_a_diagnostic_in_the_file() {
    let toml = "target = \"vu\"\nbogus = 1\n";
    let dir = folder(&[("polyasm.toml", toml), ("x.vu", VU_SOURCE), ("x.bin", "00000001\n")]);
    let file = std::fs::canonicalize(dir.path()).unwrap().join("polyasm.toml");
    let expected = format!(
        "{}:2:1: error[PA027]: unknown key `bogus` in polyasm.toml\n",
        file.display()
    );
    for args in [
        &["x.vu"][..],
        &["check", "x.vu"],
        &["run", "x.vu"],
        &["disasm", "-t", "vu", "x.bin"],
        &["-t", "vu", "-"],
    ] {
        assert_eq!(refused_in(dir.path(), args), expected, "{args:?}");
    }
}

#[test]
fn an_unknown_key_is_refused_with_did_you_mean() {
    let dir = folder(&[("polyasm.toml", "# settings\n  targt = \"vu\"\n"), ("x.vu", VU_SOURCE)]);
    let err = refused_in(dir.path(), &["x.vu"]);
    assert!(
        err.ends_with("polyasm.toml:2:3: error[PA027]: unknown key `targt` in polyasm.toml\n"),
        "{err}"
    );
    let output = run_in(dir.path(), &["check", "x.vu", "--error-format", "json"]);
    let json: serde_json::Value = serde_json::from_str(stderr(&output).lines().next().unwrap()).unwrap();
    assert_eq!(json["code"]["code"], "PA027");
    let span = &json["spans"][0];
    assert!(span["file_name"].as_str().unwrap().ends_with("polyasm.toml"), "{json}");
    assert_eq!(
        (span["line_start"].as_u64(), span["column_start"].as_u64()),
        (Some(2), Some(3))
    );
    assert_eq!(json["children"][0]["message"], "did you mean `target`?");
    let output = run_in(dir.path(), &["check", "x.vu", "--color", "never"]);
    assert!(
        stderr(&output).contains("did you mean `target`?"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn each_mistake_is_refused_at_its_line_and_column() {
    for (toml, expected) in [
        (
            "include = \"inc\"\n",
            "1:11: error[PA027]: `include` should be an array of strings, not a string",
        ),
        (
            "target = \"dreamcast\"\n",
            "1:10: error[PA027]: unknown target `dreamcast`",
        ),
        (
            "[extensions]\nasm = \"z80\"\n",
            "2:7: error[PA027]: unknown target `z80`",
        ),
        (
            "[vu]\nsyntax = \"mesa\"\n",
            "2:1: error[PA027]: target vu has no option `syntax`",
        ),
        (
            "[nv2a]\nexplicit-finale = true\n",
            "2:1: error[PA027]: target nv2a has no option `explicit-finale`",
        ),
        (
            "[lima]\nsyntax = \"gallium\"\n",
            "2:10: error[PA027]: invalid value `gallium` for `--syntax`",
        ),
        (
            "[nv2a]\nexplicit-final = \"yes\"\n",
            "2:18: error[PA027]: `explicit-final` should be `true` or `false`",
        ),
        (
            "[masfix]\nmax-steps = -1\n",
            "2:13: error[PA027]: invalid value `-1` for `--max-steps`",
        ),
        (
            "warnings = [\"error=VU001\"]\n",
            "1:13: error[PA027]: `-W error=VU001`: VU001 is an error, not a warning",
        ),
        (
            "include = [\"inc\", \"missing\"]\n",
            "1:19: error[PA027]: include folder `missing` does not exist",
        ),
        (
            "target = \"vu\"\n\n[lima\nsyntax = 1\n",
            "3:6: error[PA027]: invalid TOML: ",
        ),
        (
            "target = \"vu\"\ntarget = \"nv2a\"\n",
            "2:1: error[PA027]: invalid TOML: ",
        ),
    ] {
        let dir = folder(&[("polyasm.toml", toml), ("x.vu", VU_SOURCE), ("inc/.keep", "")]);
        let err = refused_in(dir.path(), &["x.vu"]);
        let at = format!("polyasm.toml:{expected}");
        assert!(err.contains(&at), "{toml:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{toml:?}: {err}");
    }
}

#[test]
fn every_problem_of_a_file_is_reported_in_order() {
    let err = refused("bogus = 1\ntarget = 2\n[vu]\nx = 1\n", &["x.vu"]);
    let codes: Vec<&str> = err
        .lines()
        .map(|l| l.split(": ").next().unwrap().rsplit(':').nth(1).unwrap())
        .collect();
    assert_eq!(codes, ["1", "2", "4"], "{err}");
}

#[test]
fn binary_long_and_unreadable_files_are_refused_without_a_panic() {
    let dir = folder(&[("x.vu", VU_SOURCE)]);
    let toml = dir.path().join("polyasm.toml");
    std::fs::write(&toml, b"target = \"vu\"\n\x00\xff\xfe\x01binary").unwrap();
    let err = refused_in(dir.path(), &["x.vu"]);
    assert!(err.contains("polyasm.toml:2:2: error[PA002]"), "{err}");
    std::fs::write(&toml, b"target = \"vu\"\n\x00\x01\x02").unwrap();
    let err = refused_in(dir.path(), &["x.vu"]);
    assert!(
        err.contains("polyasm.toml:2:") && err.contains("error[PA027]: invalid TOML"),
        "{err}"
    );

    let mut long = b"target = \"vu\"\n".to_vec();
    long.resize((1 << 20) + 1, b'#');
    std::fs::write(&toml, &long).unwrap();
    let err = refused_in(dir.path(), &["x.vu"]);
    assert!(
        err.contains("error[PA026]") && err.contains("polyasm.toml is larger than 1 MiB"),
        "{err}"
    );
    long.truncate(1 << 20);
    std::fs::write(&toml, &long).unwrap();
    ok(&run_in(dir.path(), &["check", "x.vu"]));

    // An endless file named with --config is read no further than the limit.
    let err = refused_in(dir.path(), &["x.vu", "--config", "/dev/zero"]);
    assert!(err.contains("error[PA026]: /dev/zero is larger than 1 MiB"), "{err}");
    let err = refused_in(dir.path(), &["x.vu", "--config", path_str(dir.path())]);
    assert!(err.contains("error[PA026]: cannot read"), "{err}");
}

#[test]
fn a_folder_named_polyasm_toml_is_passed_over() {
    let dir = folder(&[("polyasm.toml", "target = \"vu\"\n"), ("a/x.asm", VU_SOURCE)]);
    std::fs::create_dir(dir.path().join("a/polyasm.toml")).unwrap();
    let expected = hex(dir.path(), &["-t", "vu", "a/x.asm"]);
    assert_eq!(hex(dir.path(), &["a/x.asm"]), expected);
}

#[test]
fn the_settings_codes_are_explained() {
    for code in ["PA026", "PA027"] {
        let text = ok(&run(&["explain", code]));
        assert!(text.contains("polyasm.toml"), "{text}");
    }
}
