//! `polyasm nv2avsh [-e] [-v] SOURCE [TARGET]`, and polyasm run through a link named nv2avsh:
//! nv2avsh's command line, writing what `polyasm SOURCE -t nv2a -f vshinc` writes in the shape
//! nv2avsh gives it (a file without a newline after its last line, standard output with one).

mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::Output;

/// Every nv2a source of the examples and the corpus.
fn nv2a_sources() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    for folder in ["examples/nv2a", "tests/corpus/nv2a"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "vsh") {
                sources.push(path);
            }
        }
    }
    sources.sort();
    sources
}

#[test]
fn every_program_gives_the_bytes_of_the_vshinc_format_in_nv2avshs_shape() {
    let dir = temp();
    let (mut assembled, mut refused) = (0, 0);
    for source in nv2a_sources() {
        let source = path_str(&source);
        for (flags, explicit) in [(&[][..], &[][..]), (&["-e"][..], &["--explicit-final"][..])] {
            let plain = run(&[&[source, "-t", "nv2a", "-f", "vshinc"][..], explicit].concat());
            let target = dir.path().join("out.vshinc");
            let _ = std::fs::remove_file(&target);
            let to_file = run(&[&["nv2avsh"][..], flags, &[source, path_str(&target)]].concat());
            let to_stdout = run(&[&["nv2avsh"][..], flags, &[source]].concat());
            if plain.status.success() {
                assembled += 1;
                assert!(to_file.status.success(), "{source}: {}", stderr(&to_file));
                assert!(to_stdout.status.success(), "{source}: {}", stderr(&to_stdout));
                let text = &plain.stdout;
                let file = std::fs::read(&target).unwrap();
                assert_eq!(file, text.strip_suffix(b"\n").unwrap_or(text), "{source} {flags:?}");
                assert!(!file.ends_with(b"\n"), "{source}");
                let expected = if text.is_empty() { b"\n".to_vec() } else { text.clone() };
                assert_eq!(to_stdout.stdout, expected, "{source} {flags:?}");
                assert!(to_file.stdout.is_empty() && to_file.stderr == plain.stderr, "{source}");
            } else {
                refused += 1;
                assert_eq!(plain.status.code(), Some(1), "{source}");
                assert_eq!(to_file.status.code(), Some(1), "{source}");
                assert_eq!(to_stdout.status.code(), Some(1), "{source}");
                assert!(!target.exists(), "{source}: an output was written");
                assert!(to_stdout.stdout.is_empty());
                assert_eq!(to_file.stderr, plain.stderr, "{source}: the diagnostics are polyasm's");
            }
        }
    }
    assert!(
        assembled >= 40 && refused >= 40,
        "{assembled} assembled, {refused} refused"
    );
}

#[test]
fn explicit_final_appends_the_marker_instead_of_setting_final() {
    let output = run(&["nv2avsh", MVP]);
    let text = stdout(&output);
    assert!(text.ends_with(", 0x2070f849,\n"), "{text}");
    let output = run(&["nv2avsh", "--explicit-final", MVP]);
    let text = stdout(&output);
    assert!(
        text.ends_with(", 0x2070f848,\n/* final marker */\n0x00000000, 0x00000000, 0x00000000, 0x00000001,\n"),
        "{text}"
    );
}

/// polyasm run as `dir/name`, a symbolic link to it.
#[cfg(unix)]
fn linked(dir: &Path, name: &str, args: &[&str]) -> Output {
    let link = dir.join(name);
    if !link.exists() {
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_polyasm"), &link).unwrap();
    }
    std::process::Command::new(&link)
        .args(args)
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn a_link_named_nv2avsh_is_the_nv2avsh_command() {
    let dir = temp();
    let target = dir.path().join("mvp.vshinc");
    let output = linked(dir.path(), "nv2avsh", &[MVP, path_str(&target)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let direct = run(&["nv2avsh", MVP]);
    assert_eq!(
        std::fs::read(&target).unwrap(),
        direct.stdout.strip_suffix(b"\n").unwrap()
    );
    assert!(output.stdout.is_empty());

    let output = linked(dir.path(), "nv2avsh", &["-e", MVP]);
    assert_eq!(output.stdout, run(&["nv2avsh", "-e", MVP]).stdout);

    // Its usage errors name the command it is.
    let output = linked(dir.path(), "nv2avsh", &["--color", "never"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(err.contains("Usage: polyasm nv2avsh"), "{err}");

    // Another name is polyasm itself.
    let output = linked(dir.path(), "nv2avshd", &["targets"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("TARGET "));
}

#[test]
fn usage_errors_exit_2_and_write_nothing() {
    let dir = temp();
    let target = dir.path().join("out.vshinc");
    for args in [
        vec!["nv2avsh"],
        vec!["nv2avsh", "--frobnicate", MVP, path_str(&target)],
        vec!["nv2avsh", MVP, path_str(&target), "extra"],
        vec!["nv2avsh", "", path_str(&target)],
    ] {
        let output = run(&[args.as_slice(), &["--color", "never"]].concat());
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(output.stdout.is_empty());
        assert!(!target.exists(), "{args:?}");
    }
}

#[test]
fn errors_exit_1_and_leave_an_existing_target_untouched() {
    let dir = temp();
    let target = dir.path().join("out.vshinc");
    std::fs::write(&target, "old\n").unwrap();
    let bad = dir.path().join("bad.vsh");
    std::fs::write(&bad, "mov oPos, iPos\nmvo oD0, iDiffuse\n").unwrap();
    let missing = dir.path().join("missing.vsh");
    for source in [&bad, &missing] {
        let output = run(&["nv2avsh", path_str(source), path_str(&target), "--color", "never"]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{err}");
        assert!(err.contains("error["), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old\n");
    }
    let output = run(&["nv2avsh", path_str(&bad), "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).starts_with(&format!("{}:2:1: error[", path_str(&bad))));

    // The target is not the source.
    let output = run(&["nv2avsh", path_str(&bad), path_str(&bad)]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "mov oPos, iPos\nmvo oD0, iDiffuse\n"
    );
}

#[test]
fn verbose_says_what_was_written_on_standard_error() {
    let dir = temp();
    let target = dir.path().join("out.vshinc");
    let output = run(&["nv2avsh", "-v", MVP, path_str(&target), "--color", "never"]);
    assert!(output.status.success());
    assert_eq!(
        stderr(&output),
        format!(
            "note: nv2avsh: {MVP}: 6 instructions, FINAL set on the last; written to {}\n",
            path_str(&target)
        )
    );
    let output = run(&["nv2avsh", "--verbose", "-e", MVP, "--color", "never"]);
    assert_eq!(output.stdout, run(&["nv2avsh", "-e", MVP]).stdout);
    assert_eq!(
        stderr(&output),
        format!("note: nv2avsh: {MVP}: 7 instructions, the last the final marker; written to standard output\n")
    );
    // Without -v, nothing but the output.
    let output = run(&["nv2avsh", MVP, path_str(&target)]);
    assert!(output.stderr.is_empty());
}
