//! What the command-line tests share: running the built binary and reading what it printed.

#![allow(dead_code)] // each test binary uses part of this module

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/vu/seed.vu");
pub const MVP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/nv2a/mvp.vsh");

/// The built `polyasm`, with no colour variables from the environment.
pub fn polyasm() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_polyasm"));
    command
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

pub fn run(args: &[&str]) -> Output {
    polyasm().args(args).output().expect("polyasm runs")
}

pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
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

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

pub fn temp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

pub fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}
