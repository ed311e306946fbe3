//! The command-line contract on hostile input: options that cannot work together, outputs
//! that are inputs, trace streams that close or fill up, and C arrays named after keywords.

use std::path::Path;
use std::process::{Output, Stdio};

mod common;
use common::*;

/// The codes of the diagnostics in a `--error-format short` rendering, in order.
fn codes(output: &Output) -> Vec<String> {
    stderr(output)
        .lines()
        .filter_map(|line| {
            let start = line.find("error[").or_else(|| line.find("warning["))?;
            let rest = &line[start..];
            Some(rest[rest.find('[')? + 1..rest.find(']')?].to_string())
        })
        .collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path_str(&path).to_string()
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn watching_a_program_read_from_standard_input_is_a_usage_error() {
    for args in [
        &["run", "--watch", "-t", "masfix", "-", "--error-format", "short"][..],
        &["run", "--watch", "-t", "masfix", "--error-format", "short"],
    ] {
        let mut child = polyasm()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The pipe stays open: a run that went on to watch would never end.
        let mut stdin = child.stdin.take().unwrap();
        let _ = std::io::Write::write_all(&mut stdin, b"outc 65\n");
        let (out, err) = (drain(child.stdout.take().unwrap()), drain(child.stderr.take().unwrap()));
        let status = wait_bounded(&mut child, &format!("{args:?}"));
        drop(stdin);
        let (out, err) = (out.join().unwrap(), String::from_utf8(err.join().unwrap()).unwrap());
        assert_eq!(status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error[PA006]: `--watch` needs an input file"), "{err}");
        assert_eq!(out, b"", "nothing ran");
    }
}

#[test]
fn a_run_may_not_write_the_file_its_standard_input_reads() {
    let dir = temp();
    let program = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/masfix/reverse.mx");
    let text = "keep me\n";
    let data = write(dir.path(), "data.txt", text);
    std::os::unix::fs::symlink(&data, dir.path().join("link.txt")).unwrap();
    std::fs::hard_link(&data, dir.path().join("hard.txt")).unwrap();
    for output in ["data.txt", "./data.txt", "link.txt", "hard.txt"] {
        let result = polyasm()
            .current_dir(dir.path())
            .args(["run", program, "-o", output, "--error-format", "short"])
            .stdin(std::fs::File::open(&data).unwrap())
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(2), "{output}: {}", stderr(&result));
        assert_eq!(codes(&result), ["PA014"], "{output}");
        assert!(
            stderr(&result).contains(&format!("the output `{output}` is the file standard input reads from")),
            "{}",
            stderr(&result)
        );
        assert_eq!(std::fs::read_to_string(&data).unwrap(), text, "{output}");
    }
    // Another file, and a pipe, are fine: the program reverses its input's lines.
    let result = polyasm()
        .current_dir(dir.path())
        .args(["run", program, "-o", "copy.txt"])
        .stdin(std::fs::File::open(&data).unwrap())
        .output()
        .unwrap();
    assert!(result.status.success(), "{}", stderr(&result));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("copy.txt")).unwrap(),
        "em peek\n"
    );
    let piped = run_with_stdin(
        &["run", program, "-o", path_str(&dir.path().join("data.txt"))],
        b"new\n",
    );
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(std::fs::read_to_string(&data).unwrap(), "wen\n");
}

/// Runs `polyasm ARGS` through `sh` with its standard error (the trace) piped into
/// `head -c 200` and its standard output thrown away; returns what `head` got and polyasm's
/// exit status.
fn trace_into_head(dir: &Path, args: &str) -> (Vec<u8>, String) {
    let piped = piped_through_head(dir, args, "2>&1 >/dev/null", 200);
    (piped.out, piped.status)
}

#[test]
fn a_trace_into_a_closed_pipe_ends_the_run_quietly() {
    let dir = temp();
    // A program that never ends: only the closed pipe can stop it.
    write(dir.path(), "loop.mx", ":a\njmp a\n");
    let (trace, status) = trace_into_head(dir.path(), "run loop.mx --trace");
    assert_eq!(status, "0");
    let trace = String::from_utf8(trace).unwrap();
    assert!(trace.starts_with("    0  loop.mx:2:1"), "{trace:?}");
    assert_eq!(trace.len(), 200);
    // The same with a program that prints, so that output and trace interleave.
    write(dir.path(), "print.mx", ":a\noutc 65\njmp a\n");
    let (_, status) = trace_into_head(dir.path(), "run print.mx --trace");
    assert_eq!(status, "0");
}

#[test]
fn a_trace_or_a_memory_dump_on_a_full_disk_is_an_error() {
    let dir = temp();
    write(dir.path(), "loop.mx", ":a\njmp a\n");
    write(dir.path(), "one.mx", "outc 65\n");
    for args in [
        &["run", "loop.mx", "--trace"][..],
        &["run", "one.mx", "--dump-memory", "0..4"],
    ] {
        let mut child = polyasm()
            .current_dir(dir.path())
            .args(args)
            .stdout(Stdio::null())
            .stderr(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
            .spawn()
            .unwrap();
        let status = wait_bounded(&mut child, &format!("{args:?} 2>/dev/full"));
        // PA003 is written to the full disk too; the exit status is what is left to see.
        assert_eq!(status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn frames_that_would_replace_an_input_are_a_usage_error_before_any_is_written() {
    let dir = temp();
    let source = "setComponent0(c, t)\n";
    // Frame 2 is the program: frames 0 and 1 must not be written either.
    let program = write(dir.path(), "prog2.sasm", source);
    std::fs::write(dir.path().join("other.png"), b"left alone").unwrap();
    for pattern in ["prog%d.sasm", "./prog%01d.sasm"] {
        let output = polyasm()
            .current_dir(dir.path())
            .args(["run", &program, "--frames", "3", "--device", "cpu", "--size", "2x2"])
            .args(["--error-format", "short", "-o", pattern])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{pattern}: {}", stderr(&output));
        assert_eq!(codes(&output), ["PA014"], "{pattern}");
        assert!(
            stderr(&output).contains("is the input"),
            "{pattern}: {}",
            stderr(&output)
        );
        assert_eq!(listing(dir.path()), ["other.png", "prog2.sasm"], "{pattern}");
        assert_eq!(std::fs::read_to_string(&program).unwrap(), source);
    }
}

#[test]
fn every_output_that_is_an_input_is_a_usage_error() {
    let dir = temp();
    let vu = write(dir.path(), "x.vu", &std::fs::read_to_string(SEED).unwrap());
    let words = run(&[&vu, "-f", "hex"]);
    assert!(words.status.success());
    std::fs::write(dir.path().join("x.hex"), &words.stdout).unwrap();
    write(dir.path(), "lib.mx", "outc 66\n");
    write(dir.path(), "main.mx", "%include \"lib.mx\"\n");
    write(dir.path(), "data.json", "[]\n");
    let cases: &[(&[&str], &str)] = &[
        (&["x.vu", "-o", "x.vu"], ""),
        (&["x.vu", "-o", "./x.vu", "-f", "c"], ""),
        (&["-t", "vu", "-", "-o", "x.vu"], "x.vu"),
        (&["disasm", "-t", "vu", "x.hex", "-o", "x.hex"], ""),
        (&["disasm", "-t", "vu", "-", "-o", "x.hex"], "x.hex"),
        (&["run", "x.vu", "-o", "x.vu"], ""),
        (&["run", "x.vu", "-o", "x.hex"], "x.hex"),
        (&["main.mx", "-o", "lib.mx"], ""),
        (&["-E", "main.mx", "-o", "lib.mx"], ""),
        (&["run", "main.mx", "-o", "lib.mx"], ""),
        (
            &["run", "-t", "nv2a", MVP, "--data", "data.json", "-o", "data.json"],
            "",
        ),
    ];
    for (args, stdin_from) in cases {
        let before: Vec<Vec<u8>> = listing(dir.path())
            .iter()
            .map(|name| std::fs::read(dir.path().join(name)).unwrap())
            .collect();
        let mut command = polyasm();
        command
            .current_dir(dir.path())
            .args(*args)
            .args(["--error-format", "short"]);
        if !stdin_from.is_empty() {
            command.stdin(std::fs::File::open(dir.path().join(stdin_from)).unwrap());
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert_eq!(codes(&output), ["PA014"], "{args:?}");
        let after: Vec<Vec<u8>> = listing(dir.path())
            .iter()
            .map(|name| std::fs::read(dir.path().join(name)).unwrap())
            .collect();
        assert_eq!(before, after, "{args:?} changed a file");
    }
}

#[test]
fn frame_times_must_be_finite() {
    let dir = temp();
    let program = write(dir.path(), "time.sasm", "setComponent0(c, t)\n");
    let render = |frames: &str, fps: &str, time: &str| {
        polyasm()
            .current_dir(dir.path())
            .args([
                "run",
                &program,
                "--device",
                "cpu",
                "--size",
                "1x1",
                "--error-format",
                "short",
            ])
            .args(["--frames", frames, "--fps", fps, "--time", time, "-o", "f%d.png"])
            .output()
            .unwrap()
    };
    // 1 / 1e-40 is infinite in f32; frame 0 is at t = 0.
    for (frames, fps, time) in [("2", "1e-40", "0"), ("5", "1e-38", "0"), ("2", "1e-38", "3e38")] {
        let output = render(frames, fps, time);
        assert_eq!(output.status.code(), Some(2), "{frames} {fps} {time}");
        assert_eq!(codes(&output), ["PA006"]);
        assert!(
            stderr(&output).contains(&format!(
                "`--frames {frames}` at `--fps {fps}` puts the last frame at an infinite time"
            )),
            "{}",
            stderr(&output)
        );
        assert_eq!(listing(dir.path()), ["time.sasm"], "nothing written");
    }
    // The edges: frame 3 at 3 / 1e-38 = 3e38 seconds is finite, and so is one frame at any fps.
    for (frames, fps) in [("4", "1e-38"), ("1", "1e-40")] {
        let output = render(frames, fps, "0");
        assert!(output.status.success(), "{frames} {fps}: {}", stderr(&output));
    }
    assert_eq!(listing(dir.path()).len(), 1 + 4);
}

/// Compiles C text as C and as C++ and says what the compilers said on failure.
fn compile_as_c_and_cpp(dir: &Path, name: &str, text: &str) {
    let header = dir.join(format!("{name}.h"));
    std::fs::write(&header, text).unwrap();
    for (compiler, language) in [("cc", "c"), ("c++", "c++")] {
        let output = std::process::Command::new(compiler)
            .args(["-x", language, "-fsyntax-only", "-Wall", "-Wextra", "-Werror"])
            .arg("-Wno-unused-const-variable")
            .arg(&header)
            .output()
            .unwrap_or_else(|e| panic!("{compiler} runs: {e}"));
        assert!(
            output.status.success(),
            "{compiler} -x {language} {name}.h:\n{}\n{text}",
            stderr(&output)
        );
    }
}

#[test]
fn c_arrays_named_after_keywords_compile_as_c_and_cpp() {
    let dir = temp();
    let seed = std::fs::read_to_string(SEED).unwrap();
    let expected = [
        ("std", "std_"),
        ("class", "class_"),
        ("linux", "linux_"),
        ("unix", "unix_"),
        ("typeof_unqual", "typeof_unqual_"),
        ("co_await", "co_await_"),
        ("xor_eq", "xor_eq_"),
        ("main", "main_"),
        ("uint16_t", "uint16_t_"),
        ("stdx", "stdx"),
    ];
    for (stem, array) in expected {
        let source = write(dir.path(), &format!("{stem}.vu"), &seed);
        let output = run(&[&source, "-f", "c"]);
        assert!(output.status.success(), "{stem}: {}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains(&format!("static const uint32_t {array}[")),
            "{stem}: {text}"
        );
        compile_as_c_and_cpp(dir.path(), stem, &text);
    }
    // `--name` refuses the same names, and suggests the mangled one.
    for (name, suggestion) in [("std", "std_"), ("class", "class_"), ("linux", "linux_")] {
        let output = run(&[SEED, "-f", "c", "--name", name]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        assert!(stderr(&output).starts_with("error[PA016]"), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("try `--name {suggestion}`")),
            "{}",
            stderr(&output)
        );
    }
}
