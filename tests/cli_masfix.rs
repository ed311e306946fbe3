//! `polyasm run` with Masfix programs, through the built binary: prompts before input, exit
//! status, runtime errors from source and from bytecode, the run options, the ends of both
//! streams, bytecode formats and compile-time output.
//!
//! Every run that could hang if polyasm were wrong (a program waiting for input, a program
//! writing for ever) is killed after a generous time and the test fails: nothing here measures
//! speed.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod common;
use common::*;

/// Far longer than any of these runs needs; reached only when polyasm hangs.
const HANG: Duration = Duration::from_secs(60);
/// Bounds programs that print for ever, in case a closed pipe did not stop them.
const BOUND: &str = "10000000";

const GUESS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/masfix/guess.mx");
const HELLO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/masfix/hello.mx");

/// Writes `text` as `name` in `dir`.
fn program(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs polyasm in `dir` with `stdin` (or standard input at its end when `None`), bounded.
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

/// A program running with pipes on both ends, driven a prompt at a time.
struct Interactive {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
    stdout: Vec<u8>,
    stderr: JoinHandle<Vec<u8>>,
}

impl Interactive {
    fn start(dir: &Path, args: &[&str]) -> Interactive {
        let mut child = polyasm()
            .current_dir(dir)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut out = child.stdout.take().unwrap();
        let (send, chunks) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n) = out.read(&mut buffer) {
                if n == 0 || send.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        let stderr = drain(child.stderr.take().unwrap());
        Interactive {
            child,
            stdin,
            chunks,
            stdout: Vec::new(),
            stderr,
        }
    }

    /// Waits until everything printed so far is `want` (standard input still open).
    fn expect_output(&mut self, want: &str) {
        let deadline = Instant::now() + HANG;
        while self.stdout.len() < want.len() {
            match self
                .chunks
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(chunk) => self.stdout.extend(chunk),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    panic!(
                        "waited for {want:?} while the program waited for input; it printed {:?}",
                        String::from_utf8_lossy(&self.stdout)
                    );
                }
            }
        }
        assert_eq!(String::from_utf8_lossy(&self.stdout), want);
    }

    fn send(&mut self, bytes: &str) {
        let pipe = self.stdin.as_mut().expect("standard input is still open");
        pipe.write_all(bytes.as_bytes()).unwrap();
        pipe.flush().unwrap();
    }

    /// Closes standard input and waits for the end: the status, all of standard output and
    /// standard error.
    fn finish(mut self) -> (ExitStatus, String, String) {
        drop(self.stdin.take());
        let status = wait_bounded(&mut self.child, "interactive run");
        while let Ok(chunk) = self.chunks.recv_timeout(HANG) {
            self.stdout.extend(chunk);
        }
        let stderr = self.stderr.join().unwrap();
        (
            status,
            String::from_utf8(self.stdout).unwrap(),
            String::from_utf8(stderr).unwrap(),
        )
    }
}

#[test]
fn a_prompt_appears_before_the_program_waits_for_its_answer() {
    let dir = temp();
    program(
        dir.path(),
        "ask.mx",
        "outc 'N'\noutc '?'\noutc ' '\ninu\nlda 1\noutur\noutc '\\n'\n",
    );
    let mut session = Interactive::start(dir.path(), &["run", "ask.mx"]);
    session.expect_output("N? ");
    session.send("41\n");
    let (status, stdout, stderr) = session.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(stdout, "N? 42\n");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn the_guessing_game_can_be_played_a_line_at_a_time() {
    let dir = temp();
    let mut session = Interactive::start(dir.path(), &["run", GUESS]);
    session.expect_output("Seed: ");
    session.send("7\n");
    let mut transcript = String::from("Seed: I am thinking of a number from 1 to 100.\nYour guess: ");
    session.expect_output(&transcript);
    session.send("50\n");
    transcript.push_str("Too high.\nYour guess: ");
    session.expect_output(&transcript);
    session.send("31\n");
    transcript.push_str("Right! You found 31 in 2 guesses.\n");
    session.expect_output(&transcript);
    let (status, stdout, stderr) = session.finish();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert_eq!(stdout, transcript);
}

#[test]
fn a_program_that_ends_exits_0_with_its_output() {
    let dir = temp();
    program(
        dir.path(),
        "count.mx",
        "ld 3\n:again\noutur\nlds 1\nbne again\njmp end\noutu 9\n",
    );
    let output = run_in(dir.path(), &["run", "count.mx"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "321");
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
}

const JUMPS_OUT: &str = "ld 5\noutur\n    jmp 100 ; too far\n";

#[test]
fn a_jump_past_the_end_is_mx070_naming_its_line() {
    let dir = temp();
    program(dir.path(), "far.mx", JUMPS_OUT);
    let output = run_in(dir.path(), &["run", "far.mx", "--error-format", "short"], None);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    // What the program printed before the jump is kept.
    assert_eq!(stdout(&output), "5");
    assert!(err.starts_with("far.mx:3:5: error[MX070]: "), "{err}");
    assert!(err.contains("`jmp 100`") && err.contains("100"), "{err}");

    let human = run_in(dir.path(), &["run", "far.mx", "--color", "never"], None);
    let err = stderr(&human);
    assert_eq!(human.status.code(), Some(1), "{err}");
    assert!(err.contains("jmp 100 ; too far"), "the line is shown: {err}");
    assert!(err.contains("Help: jump to `end`"), "{err}");
    assert!(err.contains("far.mx stopped with an error"), "{err}");
}

#[test]
fn a_jump_past_the_end_in_bytecode_names_the_line_from_the_debug_section() {
    let dir = temp();
    program(dir.path(), "far.mx", JUMPS_OUT);
    let built = run_in(dir.path(), &["far.mx", "-o", "far.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    let built = run_in(dir.path(), &["far.mx", "--strip", "-o", "stripped.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    // The source is gone: the place comes from the bytecode alone.
    std::fs::remove_file(dir.path().join("far.mx")).unwrap();

    let output = run_in(dir.path(), &["run", "far.mxb", "--color", "never"], None);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(stdout(&output), "5");
    assert!(err.contains("error[MX070]"), "{err}");
    assert!(err.contains("far.mx:3:5"), "{err}");

    let output = run_in(dir.path(), &["run", "stripped.mxb", "--color", "never"], None);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert_eq!(stdout(&output), "5");
    assert!(err.contains("error[MX070]") && err.contains("`jmp 100`"), "{err}");
    assert!(!err.contains("far.mx:"), "no line without the debug section: {err}");
}

#[test]
fn the_step_limit_is_mx071() {
    let dir = temp();
    program(dir.path(), "spin.mx", ":top\nlda 1\njmp top\n");
    let output = run_in(
        dir.path(),
        &["run", "spin.mx", "--max-steps", "1000", "--color", "never"],
        None,
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.contains("error[MX071]") && err.contains("1000"), "{err}");
    assert!(err.contains("--max-steps"), "{err}");

    // A limit equal to the steps a program takes lets it end; one less stops it.
    program(dir.path(), "three.mx", "ld 1\nld 2\noutur\n");
    let output = run_in(dir.path(), &["run", "three.mx", "--max-steps", "3"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "2");
    let output = run_in(dir.path(), &["run", "three.mx", "--max-steps", "2"], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("MX071"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());

    let output = run_in(dir.path(), &["run", "three.mx", "--max-steps", "many"], None);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--max-steps"), "{}", stderr(&output));
}

#[test]
fn the_trace_has_a_line_per_executed_instruction_on_standard_error() {
    let dir = temp();
    program(dir.path(), "t.mx", "ld 3 ; three\nmov 2\nstrr\nstra 4\nswap\noutur\n");
    let output = run_in(dir.path(), &["run", "t.mx", "--trace"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The program's own output is untouched by the trace.
    assert_eq!(stdout(&output), "7");
    let err = stderr(&output);
    let lines: Vec<Vec<&str>> = err.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines.len(), 6, "{err}");
    // index, where it was written, the instruction, then h, r and m before it runs
    let expected = [
        ("0", "t.mx:1:1", "ld 3", "h=0 r=0 m=0"),
        ("1", "t.mx:2:1", "mov 2", "h=0 r=3 m=0"),
        ("2", "t.mx:3:1", "strr", "h=2 r=3 m=0"),
        ("3", "t.mx:4:1", "stra 4", "h=2 r=3 m=3"),
        ("4", "t.mx:5:1", "swap", "h=2 r=3 m=7"),
        ("5", "t.mx:6:1", "outur", "h=2 r=7 m=3"),
    ];
    for (fields, (index, place, instr, state)) in lines.iter().zip(expected) {
        let n = fields.len();
        assert!(n >= 6, "{fields:?}");
        assert_eq!(fields[0], index);
        assert_eq!(fields[1], place);
        assert_eq!(fields[2..n - 3].join(" "), instr);
        assert_eq!(fields[n - 3..].join(" "), state);
    }

    // From bytecode without its debug section there is no place, the rest is the same.
    let built = run_in(dir.path(), &["t.mx", "--strip", "-o", "t.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    let output = run_in(dir.path(), &["run", "t.mxb", "--trace"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let err = stderr(&output);
    let first: Vec<&str> = err.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(first, ["0", "ld", "3", "h=0", "r=0", "m=0"]);
    assert_eq!(err.lines().count(), 6);
}

#[test]
fn memory_is_dumped_at_the_end_on_standard_error() {
    let dir = temp();
    program(
        dir.path(),
        "fill.mx",
        "mov 9\nstr 90\nmov 3\nstr 30\nmov 65535\nstr 7\nouturs 1\n",
    );
    let output = run_in(dir.path(), &["run", "fill.mx", "--dump-memory", "0..10"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "65535");
    let cells: Vec<Vec<String>> = stderr(&output)
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    assert_eq!(
        cells,
        [
            vec!["0:", "0", "0", "0", "30", "0", "0", "0", "0"],
            vec!["8:", "0", "90"],
        ]
    );

    let output = run_in(dir.path(), &["run", "fill.mx", "--dump-memory", "65535"], None);
    assert_eq!(stderr(&output).split_whitespace().collect::<Vec<_>>(), ["65535:", "7"]);
    let output = run_in(dir.path(), &["run", "fill.mx", "--dump-memory", "3..=3"], None);
    assert_eq!(stderr(&output).split_whitespace().collect::<Vec<_>>(), ["3:", "30"]);

    // After a runtime error too: the memory as the program left it.
    program(dir.path(), "bad.mx", "mov 1\nstr 11\njmp 500\n");
    let output = run_in(
        dir.path(),
        &["run", "bad.mx", "--dump-memory", "1", "--error-format", "short"],
        None,
    );
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("MX070"), "{err}");
    assert!(err.lines().any(|l| l.split_whitespace().eq(["1:", "11"])), "{err}");

    let output = run_in(dir.path(), &["run", "fill.mx", "--dump-memory", "10..x"], None);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("--dump-memory"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

#[test]
fn a_reader_that_closes_the_pipe_ends_the_run_quietly() {
    let dir = temp();
    program(dir.path(), "yes.mx", ":again\noutc 'y'\njmp again\n");
    let mut child = polyasm()
        .current_dir(dir.path())
        .args(["run", "yes.mx", "--max-steps", BOUND])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    out.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"y");
    drop(out);
    let err = drain(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, "run | head -c1");
    let err = String::from_utf8(err.join().unwrap()).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

#[cfg(unix)]
#[test]
fn a_run_piped_into_head_exits_0_without_a_message() {
    let dir = temp();
    program(dir.path(), "yes.mx", ":again\noutc 'y'\njmp again\n");
    let piped = piped_into_head(dir.path(), &format!("run yes.mx --max-steps {BOUND}"), 1);
    assert_eq!(piped.out, b"y");
    assert_eq!((piped.status.as_str(), piped.err.as_str()), ("0", ""));
}

#[test]
fn input_instructions_at_the_end_of_input_return() {
    let dir = temp();
    // inl at the end must not wait; inc and ipc give 65535, inu gives 0.
    let text =
        "inl\ninl\ninc\noutur\noutc ' '\ninu\noutur\noutc ' '\nipc\noutur\noutc ' '\nincm\noutum\ninl\noutc '.'\n";
    program(dir.path(), "eof.mx", text);
    for stdin in [None, Some(&b""[..]), Some(&b"x"[..])] {
        let output = run_in(dir.path(), &["run", "eof.mx"], stdin);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stdout(&output), "65535 0 65535 65535.", "stdin {stdin:?}");
        assert!(output.stderr.is_empty(), "{}", stderr(&output));
    }
    // Input that ends without a line break: inl takes the rest, the next reads are at the end.
    let output = run_in(dir.path(), &["run", "eof.mx"], Some(b"ab\n12"));
    assert_eq!(stdout(&output), "65535 0 65535 65535.");
    let output = run_in(dir.path(), &["run", "eof.mx"], Some(b"\n\nA7"));
    assert_eq!(stdout(&output), "65 7 65535 65535.");
}

#[test]
fn run_output_goes_to_the_o_file_only_when_the_run_succeeds() {
    let dir = temp();
    let output = run_in(dir.path(), &["run", HELLO, "-o", "hello.txt"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(),
        "Hello, world!\n"
    );

    // Replaced by a later successful run.
    program(dir.path(), "two.mx", "outu 2\n");
    let output = run_in(dir.path(), &["run", "two.mx", "-o", "hello.txt"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(), "2");

    // A run that fails leaves an existing file as it was, creates none, and leaves no
    // temporary file behind.
    program(dir.path(), "far.mx", JUMPS_OUT);
    let output = run_in(dir.path(), &["run", "far.mx", "-o", "hello.txt"], None);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(dir.path().join("hello.txt")).unwrap(), "2");
    let output = run_in(dir.path(), &["run", "far.mx", "-o", "new.txt"], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(!dir.path().join("new.txt").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn hex_output_disassembles_and_reassembles_to_the_same_program() {
    let dir = temp();
    let text = ":top\nld 'a'\nouturs 32 ; upper case\nlmeq 5\nbmne top\nstr&m> 10\nswap\ninl\njmp end\n";
    program(dir.path(), "p.mx", text);
    let hex = run_in(dir.path(), &["p.mx", "-f", "hex"], None);
    assert!(hex.status.success(), "{}", stderr(&hex));
    assert!(!hex.stdout.is_empty());
    std::fs::write(dir.path().join("p.hex"), &hex.stdout).unwrap();

    let source = run_in(
        dir.path(),
        &["disasm", "-t", "masfix", "--input-format", "hex", "p.hex"],
        None,
    );
    assert!(source.status.success(), "{}", stderr(&source));
    std::fs::write(dir.path().join("back.mx"), &source.stdout).unwrap();
    // The same from standard input.
    let piped = run_in(
        dir.path(),
        &["disasm", "-t", "masfix", "--input-format", "hex", "-"],
        Some(&hex.stdout),
    );
    assert_eq!(piped.stdout, source.stdout, "{}", stderr(&piped));

    let original = run_in(dir.path(), &["p.mx", "-f", "hex", "--strip"], None);
    let again = run_in(dir.path(), &["back.mx", "-f", "hex", "--strip"], None);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(stdout(&again), stdout(&original));
    assert_ne!(stdout(&original), stdout(&hex), "--strip leaves the debug section out");
}

#[test]
fn bytes_that_are_no_bytecode_are_mx044() {
    let dir = temp();
    std::fs::write(dir.path().join("junk.mxb"), b"not bytecode").unwrap();
    for args in [
        &["run", "junk.mxb", "--error-format", "short"][..],
        &["disasm", "junk.mxb", "--error-format", "short"][..],
    ] {
        let output = run_in(dir.path(), args, None);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{err}");
        assert!(err.contains("error[MX044]") && err.contains("junk.mxb"), "{err}");
        assert!(output.stdout.is_empty());
    }
    let output = run_in(
        dir.path(),
        &["run", "-t", "masfix", "--binary", "-", "--error-format", "short"],
        Some(b"junk!!"),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("MX044"), "{}", stderr(&output));

    // A real bytecode file cut short is no bytecode either.
    program(dir.path(), "p.mx", "ld 1\nouturs 1\nld 2\n");
    let built = run_in(dir.path(), &["p.mx", "-o", "p.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    let bytes = std::fs::read(dir.path().join("p.mxb")).unwrap();
    std::fs::write(dir.path().join("cut.mxb"), &bytes[..bytes.len() / 2]).unwrap();
    let output = run_in(dir.path(), &["run", "cut.mxb", "--error-format", "short"], None);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("MX044"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
}

const PRINTS_AT_COMPILE_TIME: &str = "\
%macro seven() {
    outc 'c'
    outc 't'
    outc '\\n'
    mov 0
    str 99
    mov 5
    ld 7
}
outu !seven()
outc ' '
outuh
outc ' '
mov 0
outum
outc '\\n'
";

#[test]
fn compile_time_output_comes_before_the_run_and_the_run_starts_clean() {
    let dir = temp();
    program(dir.path(), "ct.mx", PRINTS_AT_COMPILE_TIME);
    let output = run_in(dir.path(), &["run", "ct.mx"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // h = 5 and cell 0 = 99 at compile time; the run sees h = 0 and cell 0 = 0.
    assert_eq!(stdout(&output), "ct\n7 0 0\n");
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
}

#[test]
fn compile_time_output_goes_to_standard_error_when_the_assembled_output_is_on_standard_output() {
    let dir = temp();
    program(dir.path(), "ct.mx", PRINTS_AT_COMPILE_TIME);
    let output = run_in(dir.path(), &["ct.mx", "-f", "hex"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "ct\n");
    let text = stdout(&output);
    assert!(
        text.lines()
            .all(|l| l.len() == 4 && l.bytes().all(|b| b.is_ascii_hexdigit())),
        "only hex words on standard output: {text}"
    );

    // `-o -` is standard output too.
    let output = run_in(dir.path(), &["ct.mx", "-f", "hex", "-o", "-"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "ct\n");
    assert_eq!(
        output.stdout,
        stdout(&run_in(dir.path(), &["ct.mx", "-f", "hex"], None)).into_bytes()
    );

    // With the output in a file, or none at all (`check`), standard output is free for it.
    let output = run_in(dir.path(), &["check", "ct.mx"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "ct\n");
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
    let output = run_in(dir.path(), &["ct.mx", "-o", "ct.mxb"], None);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stdout(&output), "ct\n");
    assert!(output.stderr.is_empty(), "{}", stderr(&output));

    // The bytecode holds the result, not the compile-time code: running it prints nothing more.
    let output = run_in(dir.path(), &["run", "ct.mxb"], None);
    assert_eq!(stdout(&output), "7 0 0\n");
}

#[test]
fn an_odd_length_bytecode_file_is_mx044_for_disasm_as_for_run() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.mxb");
    std::fs::write(&bad, b"MXBC\x01").unwrap();
    for command in ["disasm", "run"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_polyasm"))
            .args([command, bad.to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("MX044"), "{command}: {stderr}");
    }
}

#[test]
fn a_bad_compile_time_step_limit_is_a_usage_error_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("p.mx");
    std::fs::write(&program, "ld 1\n").unwrap();
    let program = program.to_str().unwrap();
    for args in [
        vec![program, "--ctime-steps", "lots", "-f", "hex"],
        vec!["run", program, "--ctime-steps", "1.5"],
        vec!["check", program, "--ctime-steps", ""],
        vec!["-E", program, "--ctime-steps", "x"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_polyasm"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--ctime-steps"),
            "{args:?}"
        );
    }
}

/// Prints 300,000 bytes at compile time (five calls of 60,000 each), more than a pipe holds,
/// and assembles to a program that prints 7.
const PRINTS_A_LOT_AT_COMPILE_TIME: &str = "%macro say() {
    mov 1
    str 60000
    :loop
    outc 'x'
    mov 1
    strs 1
    ldm
    bne loop
    ld 7
}
ld !say()
ld !say()
ld !say()
ld !say()
ld !say()
outur
";

#[cfg(unix)]
#[test]
fn compile_time_output_into_a_closed_pipe_is_dropped_quietly() {
    let dir = temp();
    program(dir.path(), "loud.mx", PRINTS_A_LOT_AT_COMPILE_TIME);
    let piped = piped_into_head(dir.path(), "loud.mx -o loud.mxb", 1);
    assert_eq!(piped.out, b"x");
    assert_eq!((piped.status.as_str(), piped.err.as_str()), ("0", ""));
    // The program was assembled all the same, with the value the compile-time code left.
    let output = run_in(dir.path(), &["run", "loud.mxb"], None);
    assert_eq!((output.status.code(), stdout(&output).as_str()), (Some(0), "7"));
    // `run` too: its own output goes into the same closed pipe.
    let piped = piped_into_head(dir.path(), "run loud.mx", 1);
    assert_eq!((piped.status.as_str(), piped.err.as_str()), ("0", ""));
}

#[cfg(target_os = "linux")]
#[test]
fn compile_time_output_onto_a_full_disk_is_pa003() {
    let dir = temp();
    program(dir.path(), "loud.mx", PRINTS_A_LOT_AT_COMPILE_TIME);
    let output = polyasm()
        .current_dir(dir.path())
        .args(["loud.mx", "-o", "loud.mxb", "--color", "never"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error[PA003]: cannot write the output of compile-time code"),
        "{err}"
    );
    assert!(!err.contains("MX064"), "{err}");
    assert_eq!(err.matches("error[").count(), 1, "{err}");
    assert!(!dir.path().join("loud.mxb").exists());
}

#[test]
fn a_constant_defined_from_an_unknown_name_is_one_error() {
    let dir = temp();
    program(dir.path(), "undef.mx", "%define A %B\nld %A\nlda %A\n");
    let output = run_in(
        dir.path(),
        &["--error-format", "short", "undef.mx", "-o", "undef.mxb"],
        None,
    );
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains(": error[")).collect();
    assert_eq!(
        errors,
        ["undef.mx:1:11: error[MX050]: unknown macro or constant `B`"],
        "{err}"
    );
    assert!(!dir.path().join("undef.mxb").exists());
}

#[test]
fn a_debug_position_at_line_or_column_0_is_a_malformed_file() {
    let dir = temp();
    program(dir.path(), "two.mx", "ld 1\noutur\n");
    let built = run_in(dir.path(), &["two.mx", "-o", "two.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    let bytes = std::fs::read(dir.path().join("two.mxb")).unwrap();
    // The last 12 bytes are the second instruction's position: file, 0, line, column.
    let at = bytes.len() - 12;
    assert_eq!(&bytes[at + 4..], &[2, 0, 0, 0, 1, 0, 0, 0], "line 2, column 1");
    for (field, name) in [(at + 4, "line"), (at + 8, "column")] {
        let mut bad = bytes.clone();
        bad[field] = 0;
        std::fs::write(dir.path().join("bad.mxb"), &bad).unwrap();
        for command in [&["run", "bad.mxb"][..], &["disasm", "bad.mxb"][..]] {
            let output = run_in(dir.path(), command, None);
            let err = stderr(&output);
            assert_eq!(output.status.code(), Some(1), "{name} 0, {command:?}: {err}");
            assert!(err.contains("error[MX044]"), "{name} 0, {command:?}: {err}");
            assert!(err.contains("instruction 1 is at"), "{name} 0, {command:?}: {err}");
            assert!(stdout(&output).is_empty(), "{name} 0, {command:?}");
        }
    }
}

#[test]
fn mx070_from_bytecode_names_its_line_in_every_error_format() {
    let dir = temp();
    program(dir.path(), "far.mx", JUMPS_OUT);
    let built = run_in(dir.path(), &["far.mx", "-o", "far.mxb"], None);
    assert!(built.status.success(), "{}", stderr(&built));
    std::fs::remove_file(dir.path().join("far.mx")).unwrap();
    let output = run_in(dir.path(), &["run", "--error-format", "short", "far.mxb"], None);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(err.starts_with("far.mx:3:5: error[MX070]: `jmp 100`"), "{err}");
    let output = run_in(dir.path(), &["run", "--color", "never", "far.mxb"], None);
    assert!(stderr(&output).contains("  --> far.mx:3:5\n"), "{}", stderr(&output));
}

/// What one run printed and ended with: exit code, standard output, and standard error.
fn ran(output: &Output) -> (Option<i32>, String, String) {
    (output.status.code(), stdout(output), stderr(output))
}

#[test]
fn both_engines_give_the_same_output_errors_and_memory() {
    let dir = temp();
    // Prints, reads a number, stores it, then jumps past the end.
    program(
        dir.path(),
        "both.mx",
        "outc 63\ninu\nmov 5\nstrr\nld 3\n:top\nlds 1\noutur\noutc 32\nbne top\nldm\nlda 95\njmpr\n",
    );
    let mut runs = Vec::new();
    for engine in ["vm", "jit", "auto"] {
        let args = [
            "run",
            "both.mx",
            "--engine",
            engine,
            "--dump-memory",
            "5",
            "--color",
            "never",
        ];
        let output = run_in(dir.path(), &args, Some(b"42\n"));
        runs.push(ran(&output));
        let limited = [&args[..], &["--max-steps", "9"]].concat();
        runs.push(ran(&run_in(dir.path(), &limited, Some(b"42\n"))));
    }
    let (code, out, err) = &runs[0];
    assert_eq!((*code, out.as_str()), (Some(1), "?2 1 0 "), "{err}");
    assert!(
        err.contains("error[MX070]") && err.contains("5:") && err.contains("42"),
        "{err}"
    );
    assert!(
        runs[1].2.contains("error[MX071]") && runs[1].1 == "?2 ",
        "{:?}",
        runs[1]
    );
    for (i, run) in runs.iter().enumerate() {
        assert_eq!(run, &runs[i % 2], "engine {}", ["vm", "jit", "auto"][i / 2]);
    }
}

#[test]
fn a_traced_run_cannot_ask_for_native_code() {
    let output = polyasm()
        .args(["run", HELLO, "--trace", "--engine", "jit", "--color", "never"])
        .output()
        .unwrap();
    let (code, out, err) = ran(&output);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains("error[PA006]") && err.contains("--trace"), "{err}");
    // Without `--engine jit` the trace runs on the VM.
    let output = polyasm().args(["run", HELLO, "--trace"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).lines().count() > 10, "{}", stderr(&output));
}

#[test]
fn a_program_too_large_for_native_code_runs_on_the_vm_unless_native_code_is_demanded() {
    let dir = temp();
    // 65,536 instructions, all but two jumps through a register: the VM runs it.
    let text = format!("ld 65535\njmpr\n{}outur\n", "jmpm\n".repeat(65533));
    program(dir.path(), "huge.mx", &text);
    let output = run_in(dir.path(), &["run", "huge.mx", "--color", "never"], None);
    assert_eq!(ran(&output), (Some(0), "65535".to_string(), String::new()));
    let output = run_in(
        dir.path(),
        &["run", "huge.mx", "--engine", "jit", "--color", "never"],
        None,
    );
    let (code, out, err) = ran(&output);
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.contains("error[MX073]") && err.contains("65536"), "{err}");
    assert!(err.contains("--engine vm"), "{err}");
}

/// Builds `prog.mx` of `dir` with `-f exe` (the C compiler `cc` unless `cc` says otherwise).
fn build_exe(dir: &Path, cc: Option<&str>) -> Output {
    let mut command = polyasm();
    command
        .current_dir(dir)
        .args(["-t", "masfix", "prog.mx", "-f", "exe", "-o", "prog", "--color", "never"]);
    if let Some(cc) = cc {
        command.env("CC", cc);
    }
    command.output().unwrap()
}

/// Runs `exe` in `dir` with `stdin` (or standard input at its end), bounded.
fn run_exe(dir: &Path, exe: &Path, stdin: Option<&[u8]>) -> Output {
    let mut child = std::process::Command::new(exe)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = stdin.unwrap_or_default().to_vec();
        std::thread::spawn(move || drop(pipe.write_all(&bytes)))
    });
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, "the executable");
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

#[test]
fn an_executable_prints_exits_and_fails_as_polyasm_run_does() {
    let dir = temp();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/masfix");
    let cases = [
        ("hello.mx", None),
        ("fizzbuzz.mx", None),
        ("sieve.mx", None),
        ("reverse.mx", Some(&b"abc\ndef\n"[..])),
        ("stats.mx", Some(&b"3\n1\n4\n1\n5\n"[..])),
    ];
    let mut programs: Vec<(String, Option<&[u8]>)> = cases
        .iter()
        .map(|(name, stdin)| (std::fs::read_to_string(examples.join(name)).unwrap(), *stdin))
        .collect();
    // A jump past the end after some output, and a program that reads a number.
    programs.push(("outc 65\nld 100\njmpr\n".to_string(), None));
    programs.push(("inu\nouturs 1\noutc 10\n".to_string(), Some(&b"12345\n"[..])));
    for (text, stdin) in programs {
        program(dir.path(), "prog.mx", &text);
        let built = build_exe(dir.path(), None);
        assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
        let exe = dir.path().join("prog");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&exe).unwrap().permissions().mode() & 0o111, 0o111);
        }
        let native = run_exe(dir.path(), &exe, stdin);
        let run = run_in(dir.path(), &["run", "prog.mx", "--color", "never"], stdin);
        assert_eq!(ran(&native), ran(&run), "{text}");
    }
    // The error of the last program but one, in colour where polyasm would colour it.
    program(dir.path(), "prog.mx", "outc 65\nld 100\njmpr\n");
    assert!(build_exe(dir.path(), None).status.success());
    let coloured = |command: &mut std::process::Command| {
        let output = command
            .current_dir(dir.path())
            .env("FORCE_COLOR", "1")
            .output()
            .unwrap();
        (output.status.code(), stderr(&output))
    };
    let native = coloured(&mut std::process::Command::new(dir.path().join("prog")));
    let run = coloured(polyasm().args(["run", "prog.mx"]));
    assert!(native.1.contains("\x1b["), "{native:?}");
    assert_eq!(native, run);
}

#[test]
fn without_a_c_compiler_no_executable_is_written() {
    let dir = temp();
    program(dir.path(), "prog.mx", "outc 65\n");
    std::fs::write(dir.path().join("prog"), "kept").unwrap();
    let built = build_exe(dir.path(), Some("/nonexistent/cc"));
    let (code, out, err) = ran(&built);
    assert_eq!((code, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.contains("error[MX074]") && err.contains("/nonexistent/cc"), "{err}");
    assert!(err.contains("`CC`"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("prog")).unwrap(), "kept");
    // A compiler that fails: how it exited.
    let built = build_exe(dir.path(), Some("false"));
    let (code, _, err) = ran(&built);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("error[MX074]") && err.contains("`false` failed (exit status: 1)"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("prog")).unwrap(), "kept");
}
