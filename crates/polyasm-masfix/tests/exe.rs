//! Native executables (`jit::exe`): every example, linked by the system's C compiler and run
//! with its input, prints what the VM prints and exits as `polyasm run` does.
#![cfg(jit)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use polyasm_masfix::exec::{Limits, Machine, Program};
use polyasm_masfix::jit::exe;

#[path = "../benches/programs/mod.rs"]
mod programs;

fn texts(len: usize) -> exe::Texts {
    let both = |text: String| [text.clone(), text];
    exe::Texts {
        write_failed: both("cannot write standard output: \x01\n".to_string()),
        read_failed: both("cannot read standard input: \x01\n".to_string()),
        jump_failed: (0..len)
            .map(|i| both(format!("instruction {i} jumps to \x01\n")))
            .collect(),
    }
}

/// Builds the executable of `text` in `dir` and runs it with `stdin`: exit code, stdout, stderr.
fn run_exe(dir: &Path, text: &str, stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let instrs = programs::assemble(text);
    link_and_run(dir, &Program::new(&instrs).unwrap(), instrs.len(), stdin)
}

/// Links `program` (of `len` instructions) in `dir` and runs it with `stdin`: exit code, stdout,
/// stderr.
fn link_and_run(dir: &Path, program: &Program, len: usize, stdin: &[u8]) -> (Option<i32>, Vec<u8>, String) {
    let out = dir.join("prog");
    exe::link(program, &texts(len), "cc".as_ref(), dir, &out).unwrap();
    let mut child = Command::new(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || drop(pipe.write_all(&bytes)));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        output.status.code(),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn every_example_prints_what_the_vm_prints() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/masfix");
    let expected = examples.join("expected");
    let dir = tempfile::tempdir().unwrap();
    let mut runs = 0;
    for entry in std::fs::read_dir(&expected).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "out") {
            continue;
        }
        let label = path.file_stem().unwrap().to_str().unwrap().to_string();
        let name = label.split('.').next().unwrap();
        let text = std::fs::read_to_string(examples.join(format!("{name}.mx"))).unwrap();
        let stdin = std::fs::read(expected.join(format!("{label}.in"))).unwrap_or_default();
        let (code, stdout, stderr) = run_exe(dir.path(), &text, &stdin);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{label}");
        assert!(
            stdout == std::fs::read(&path).unwrap(),
            "{label}: {}",
            String::from_utf8_lossy(&stdout)
        );
        runs += 1;
    }
    assert!(runs >= 10);
}

#[test]
fn long_io_and_a_jump_past_the_end_match_the_vm() {
    let dir = tempfile::tempdir().unwrap();
    let input = programs::sum_input();
    for (text, stdin) in [
        (programs::SUM, &input[..]),
        (programs::PRINT, b""),
        (programs::SIEVE, b""),
    ] {
        let instrs = programs::assemble(text);
        let mut vm_out = Vec::new();
        Program::new(&instrs)
            .unwrap()
            .run(&mut Machine::new(), &mut &stdin[..], &mut vm_out, Limits::default())
            .unwrap();
        let (code, stdout, _) = run_exe(dir.path(), text, stdin);
        assert_eq!(code, Some(0));
        assert!(stdout == vm_out, "{text}");
    }
    let (code, stdout, stderr) = run_exe(dir.path(), "outc 65\nld 100\njmpr\n", b"");
    assert_eq!(
        (code, stdout, stderr.as_str()),
        (Some(1), b"A".to_vec(), "instruction 2 jumps to 100\n")
    );
}

mod common;

use proptest::prelude::*;

proptest! {
    // Each case links an executable (a tenth of a second): a small sample.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_programs_run_as_executables_as_on_the_vm(
        instrs in prop::collection::vec(common::any_instr(), 1..16),
        input in prop::collection::vec(prop_oneof![3 => b'0'..=b'9', 1 => Just(b'\n'), 1 => any::<u8>()], 0..24),
    ) {
        // Only programs that end (the executable has no step limit): normally, or with a jump
        // past the end.
        let program = Program::new(&instrs).unwrap();
        let mut vm_out = Vec::new();
        let limits = Limits { max_steps: Some(10_000) };
        let ended = program.run(&mut Machine::new(), &mut &input[..], &mut vm_out, limits);
        let code = match ended {
            Ok(_) => 0,
            Err(polyasm_masfix::exec::RunError::JumpOutOfRange { .. }) => 1,
            Err(_) => return Ok(()),
        };
        let dir = tempfile::tempdir().unwrap();
        let (status, stdout, _) = link_and_run(dir.path(), &program, instrs.len(), &input);
        prop_assert_eq!(status, Some(code), "{:?}", instrs);
        prop_assert_eq!(stdout, vm_out, "{:?}", instrs);
    }
}
