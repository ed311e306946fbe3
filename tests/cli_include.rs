//! `-I DIR` on the command line, by running the built binary. Which files a directive finds is
//! tested with the loader itself in polyasm-core (`tests/seams.rs`); here, how the folders are
//! given and checked, for every target and command.

mod common;
use common::*;

#[test]
fn include_folders_are_accepted_by_assemble_check_and_run_for_every_target() {
    let dir = temp();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    std::fs::create_dir(&b).unwrap();
    let plain = run(&[SEED, "-f", "hex"]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let with_dirs = run(&[SEED, "-f", "hex", "-I", path_str(&a), "--include-dir", path_str(&b)]);
    assert!(with_dirs.status.success(), "{}", stderr(&with_dirs));
    assert_eq!(with_dirs.stdout, plain.stdout);
    let joined = format!("-I{}", path_str(&a));
    for args in [
        vec!["check", SEED, MVP, "-I", path_str(&a)],
        vec!["run", SEED, joined.as_str()],
        vec!["run", MVP, "-I", path_str(&b), "-I", path_str(&a)],
    ] {
        let output = run(&args);
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    }
}

#[test]
fn a_missing_include_folder_is_a_usage_error_and_nothing_is_written() {
    let dir = temp();
    let missing = dir.path().join("nope");
    let out = dir.path().join("out.bin");
    for args in [
        vec![SEED, "-o", path_str(&out), "-I", path_str(&missing)],
        vec!["check", SEED, "-I", path_str(&missing)],
        vec!["run", MVP, "-o", path_str(&out), "-I", path_str(&missing)],
    ] {
        let output = run(&[args.as_slice(), &["--color", "never"]].concat());
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("error[PA023]"), "{err}");
        assert!(err.contains("does not exist"), "{err}");
        assert!(err.contains("help:"), "{err}");
        assert!(output.stdout.is_empty());
        assert!(!out.exists());
    }
}

#[test]
fn an_include_folder_that_is_a_file_is_refused() {
    let output = run(&[SEED, "-f", "hex", "-I", MVP, "--error-format", "short"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        format!("error[PA023]: include folder `{MVP}` is not a folder\n")
    );
}

#[test]
fn disasm_takes_no_include_folders() {
    let dir = temp();
    let output = run(&["disasm", "-t", "vu", SEED, "-I", path_str(dir.path())]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

#[test]
fn help_shows_the_include_option_where_it_applies() {
    for command in [&["--help"][..], &["check", "--help"], &["run", "--help"]] {
        let help = stdout(&run(command));
        assert!(help.contains("-I, --include-dir <DIR>"), "{command:?}: {help}");
    }
    let help = stdout(&run(&["disasm", "--help"]));
    assert!(!help.contains("--include-dir"), "{help}");
}

#[test]
fn the_include_codes_are_explained() {
    for code in ["PA019", "PA020", "PA021", "PA022", "PA023"] {
        let output = run(&["explain", code]);
        assert!(output.status.success(), "{code}");
        let text = stdout(&output);
        assert!(text.starts_with(&format!("{code}: ")), "{text}");
        assert!(text.len() > 150, "{code} needs a real explanation: {text}");
    }
}
