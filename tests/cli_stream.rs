//! `polyasm run`'s streams, exit status and binary programs with the vertex targets, by running
//! the built binary. A program that reads its input and chooses its exit status is tested with
//! a target of its own in polyasm-core (`tests/seams.rs`).

mod common;
use common::*;

#[test]
fn a_vertex_program_from_standard_input_still_runs() {
    let source = std::fs::read(SEED).unwrap();
    let from_file = run(&["run", SEED, "-i", "0=1,2,3"]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let from_stdin = run_with_stdin(&["run", "-t", "vu", "-", "-i", "0=1,2,3"], &source);
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, from_file.stdout);
    assert!(!from_file.stdout.is_empty());
}

#[test]
fn a_program_that_reads_no_input_runs_with_standard_input_closed() {
    let closed = polyasm()
        .args(["run", MVP, "-f", "json"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(closed.status.success(), "{}", stderr(&closed));
    #[cfg(unix)]
    {
        use std::process::Command;
        // `<&-`: the descriptor itself is closed; only a read would be an error.
        let bin = env!("CARGO_BIN_EXE_polyasm");
        let output = Command::new("sh")
            .args(["-c", &format!("'{bin}' run '{MVP}' -f json <&-")])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(output.stdout, closed.stdout);
    }
}

#[test]
fn a_target_without_a_binary_format_refuses_binary_programs() {
    let dir = temp();
    let bin = dir.path().join("seed.bin");
    let assembled = run(&[SEED, "-o", path_str(&bin)]);
    assert!(assembled.status.success(), "{}", stderr(&assembled));
    let output = run(&["run", "-t", "vu", path_str(&bin), "--binary", "--color", "never"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error[PA010]: target vu has no binary program format"),
        "{err}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn the_standard_input_code_is_explained() {
    let text = stdout(&run(&["explain", "PA018"]));
    assert!(
        text.starts_with("PA018: cannot read the program's standard input"),
        "{text}"
    );
    assert!(text.contains("empty"), "{text}");
}

#[test]
fn a_failed_vertex_run_still_exits_1_with_its_summary() {
    let dir = temp();
    let data = dir.path().join("bad.json");
    std::fs::write(&data, "{\"vertices\": [[1, 2, 3, 4], oops]}").unwrap();
    let output = run(&["run", SEED, "--data", path_str(&data), "--color", "never"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("did not run"), "{err}");
}
