//! `--depfile FILE`: the Makefile rule naming the input and every file it included, written
//! with the output and only with it.

mod common;
use common::*;

use std::path::Path;
use std::process::Output;

/// A Masfix program that includes a file from a folder with a space in its name, which
/// includes another, and then one more file (named twice: read once).
fn program(dir: &Path) {
    std::fs::create_dir(dir.join("lib one")).unwrap();
    std::fs::write(
        dir.join("main.mx"),
        "%include \"lib one/a\"\n%include \"b\"\n%include \"b.mx\"\noutu 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("lib one/a.mx"), "%include \"c#1\"\noutu 2\n").unwrap();
    std::fs::write(dir.join("lib one/c#1.mx"), "outu 3\n").unwrap();
    std::fs::write(dir.join("b.mx"), "outu 4\n").unwrap();
}

/// polyasm run in `dir` with `args`.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    polyasm()
        .current_dir(dir)
        .args(args)
        .args(["--color", "never"])
        .output()
        .unwrap()
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_depfile_names_the_output_the_input_and_each_included_file_once_in_the_order_read() {
    let dir = temp();
    program(dir.path());
    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "out.d"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        read(dir.path().join("out.d")),
        "out.hex: main.mx \\\n  lib\\ one/a.mx \\\n  lib\\ one/c\\#1.mx \\\n  b.mx\n"
    );
    assert!(dir.path().join("out.hex").is_file());

    // Absolute names stay absolute, as a build system passes them.
    let main = dir.path().join("main.mx");
    let out = dir.path().join("o u t.hex");
    let depfile = dir.path().join("deps/o.d");
    std::fs::create_dir(dir.path().join("deps")).unwrap();
    let output = run(&[path_str(&main), "-o", path_str(&out), "--depfile", path_str(&depfile)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let root = path_str(dir.path()).replace(' ', "\\ ");
    assert_eq!(
        read(&depfile),
        format!(
            "{root}/o\\ u\\ t.hex: {root}/main.mx \\\n  {root}/lib\\ one/a.mx \\\n  {root}/lib\\ one/c\\#1.mx \\\n  {root}/b.mx\n"
        )
    );
}

#[test]
fn a_program_without_includes_and_standard_input_give_short_rules() {
    let dir = temp();
    program(dir.path());
    let output = run_in(dir.path(), &["b.mx", "-o", "b.hex", "--depfile", "b.d"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read(dir.path().join("b.d")), "b.hex: b.mx\n");

    // Standard input has no name: the rule lists what it included.
    let mut child = polyasm()
        .current_dir(dir.path())
        .args(["-t", "masfix", "-", "-o", "in.hex", "--depfile", "in.d"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"%include \"b\"\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read(dir.path().join("in.d")), "in.hex: b.mx\n");
    let output = run_with_stdin(
        &["-t", "masfix", "-", "-o", "/dev/null", "--depfile", "/dev/stdout"],
        b"outu 1\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "/dev/null:\n");
}

#[test]
fn expanding_writes_the_depfile_too() {
    let dir = temp();
    program(dir.path());
    let output = run_in(dir.path(), &["-E", "main.mx", "-o", "main.i", "--depfile", "main.d"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(read(dir.path().join("main.d")).starts_with("main.i: main.mx \\\n  lib\\ one/a.mx"));
}

#[test]
fn a_failed_build_writes_no_depfile_and_keeps_an_old_one() {
    let dir = temp();
    program(dir.path());
    std::fs::write(dir.path().join("b.mx"), "outu 4\nnot_an_instruction\n").unwrap();
    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "out.d"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!dir.path().join("out.d").exists());
    assert!(!dir.path().join("out.hex").exists());

    std::fs::write(dir.path().join("out.d"), "old rule\n").unwrap();
    std::fs::write(dir.path().join("out.hex"), "old words\n").unwrap();
    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "out.d"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(read(dir.path().join("out.d")), "old rule\n");
    assert_eq!(read(dir.path().join("out.hex")), "old words\n");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        !names.iter().any(|n| n.to_string_lossy().ends_with(".tmp")),
        "{names:?}"
    );
}

#[test]
fn a_depfile_that_cannot_be_created_leaves_the_output_unwritten() {
    let dir = temp();
    program(dir.path());
    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "nowhere/out.d"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[PA003]: cannot write nowhere/out.d: cannot create a temporary file"),
        "{err}"
    );
    assert!(!dir.path().join("out.hex").exists());
}

#[test]
fn a_depfile_needs_an_output_file_other_than_itself() {
    let dir = temp();
    program(dir.path());
    for args in [
        &["b.mx", "--depfile", "b.d"][..],
        &["b.mx", "-o", "-", "--depfile", "b.d"],
        &["b.mx", "-o", "b.hex", "--depfile", "b.hex"],
        &["b.mx", "-o", "b.hex", "--depfile", "./b.hex"],
        &["b.mx", "-o", "lib one/../b.hex", "--depfile", "b.hex"],
    ] {
        let output = run_in(dir.path(), args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error[PA030]"), "{args:?}: {err}");
        assert!(err.contains("help:"), "{err}");
        assert!(output.stdout.is_empty());
        assert!(!dir.path().join("b.hex").exists());
        assert!(!dir.path().join("b.d").exists());
    }
    let output = run_in(
        dir.path(),
        &["b.mx", "-o", "b.hex", "--depfile", "b.hex", "--error-format", "short"],
    );
    assert_eq!(
        stderr(&output),
        "error[PA030]: the depfile `b.hex` is the output `b.hex`\n"
    );
    let output = run_in(dir.path(), &["check", "b.mx", "--depfile", "b.d"]);
    assert_eq!(output.status.code(), Some(2));
    let output = run_in(
        dir.path(),
        &[
            "-t",
            "shader",
            "--emit-runtime",
            "wgsl",
            "-o",
            "x.wgsl",
            "--depfile",
            "b.d",
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(!dir.path().join("b.d").exists());
}

#[test]
fn a_depfile_that_is_an_input_is_refused_and_left_alone() {
    let dir = temp();
    program(dir.path());
    let before = read(dir.path().join("b.mx"));
    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "./main.mx"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error[PA014]: the depfile `./main.mx` is the input `main.mx`"),
        "{err}"
    );

    let output = run_in(dir.path(), &["main.mx", "-o", "out.hex", "--depfile", "b.mx"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error[PA014]: the depfile `b.mx` is the included file `b.mx`"),
        "{err}"
    );
    assert!(err.contains("main.mx:2:1"), "{err}");
    assert_eq!(read(dir.path().join("b.mx")), before);
    assert!(!dir.path().join("out.hex").exists());
}

#[test]
fn names_that_a_rule_cannot_hold_are_errors_with_nothing_written() {
    let dir = temp();
    program(dir.path());
    // An included file found through a folder whose name holds a line break: an error at the
    // directive, exit 1.
    let odd = dir.path().join("odd\nfolder");
    std::fs::create_dir(&odd).unwrap();
    std::fs::write(odd.join("d.mx"), "outu 5\n").unwrap();
    std::fs::write(dir.path().join("uses.mx"), "outu 0\n%include \"d\"\n").unwrap();
    let output = run_in(
        dir.path(),
        &["uses.mx", "-I", "odd\nfolder", "-o", "uses.hex", "--depfile", "uses.d"],
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "error[PA030]: the included file `odd\\nfolder/d.mx` cannot be named in the depfile: it holds a line break"
        ),
        "{err}"
    );
    assert!(err.contains("uses.mx:2:1"), "{err}");
    assert!(!dir.path().join("uses.hex").exists());
    assert!(!dir.path().join("uses.d").exists());

    // The same program without `--depfile` assembles.
    let output = run_in(dir.path(), &["uses.mx", "-I", "odd\nfolder", "-o", "uses.hex"]);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_file(dir.path().join("uses.hex")).unwrap();

    // The output's or the input's own name: a usage error before anything is read.
    std::fs::write(dir.path().join("tab\there.mx"), "outu 1\n").unwrap();
    for (args, message) in [
        (
            &["b.mx", "-o", "b\nx.hex", "--depfile", "b.d"][..],
            "the output `b\\nx.hex` cannot be named in the depfile: it holds a line break",
        ),
        (
            &["tab\there.mx", "-o", "t.hex", "--depfile", "b.d"],
            "the input `tab\\there.mx` cannot be named in the depfile: it holds the control character U+0009",
        ),
        (
            &["b.mx", "-o", "b.hex\\", "--depfile", "b.d"],
            "the output `b.hex\\` cannot be named in the depfile: it ends with a backslash",
        ),
    ] {
        let output = run_in(dir.path(), args);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{err}");
        assert!(!dir.path().join("b.d").exists());
    }
    let made: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(!made.iter().any(|n| n.to_string_lossy().contains(".hex")), "{made:?}");
}

#[test]
fn dollars_and_colons_are_escaped_and_other_punctuation_is_written_as_it_is() {
    let dir = temp();
    std::fs::write(dir.path().join("m.mx"), "%include \"$x:y;(1)=%\"\n").unwrap();
    std::fs::write(dir.path().join("$x:y;(1)=%.mx"), "outu 1\n").unwrap();
    let output = run_in(dir.path(), &["m.mx", "-o", "m.hex", "--depfile", "m.d"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(read(dir.path().join("m.d")), "m.hex: m.mx \\\n  $$x\\:y;(1)=%.mx\n");
}
