//! Hostile inputs to the command line itself: outputs that are included files, endless and
//! special files, and arguments the parser refuses. Run against the built binary.

use std::path::Path;
use std::process::Output;

mod common;
use common::*;

/// Runs polyasm in `dir` with short diagnostics.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    polyasm()
        .current_dir(dir)
        .args(args)
        .args(["--error-format", "short"])
        .output()
        .expect("polyasm runs")
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("in a folder")).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The files in `dir`, sorted: no temporary file may be left behind.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[cfg(unix)]
#[test]
fn an_output_that_is_an_included_file_is_refused_by_every_command_that_writes() {
    let dir = temp();
    let dir = dir.path();
    write(dir, "main.mx", "%include \"lib\"\n%include \"sub/inner\"\noutc 65\n");
    write(dir, "lib.mx", "outc 66\n");
    write(dir, "sub/inner.mx", "outc 67\n");
    std::os::unix::fs::symlink("lib.mx", dir.join("link.mx")).unwrap();
    std::fs::hard_link(dir.join("sub/inner.mx"), dir.join("hard.mx")).unwrap();
    let before = listing(dir);
    let cases: [(&[&str], &str, &str); 7] = [
        (&["main.mx", "-o"], "lib.mx", "lib.mx"),
        (&["main.mx", "-o"], "./sub/../lib.mx", "lib.mx"),
        (&["main.mx", "-o"], "link.mx", "lib.mx"),
        (&["main.mx", "-f", "hex", "-o"], "hard.mx", "sub/inner.mx"),
        (&["-E", "main.mx", "-o"], "sub/inner.mx", "sub/inner.mx"),
        (&["run", "main.mx", "-o"], "lib.mx", "lib.mx"),
        (&["-t", "masfix", "-", "-o"], "lib.mx", "lib.mx"),
    ];
    for (args, out, included) in cases {
        let stdin = std::fs::File::open(dir.join("main.mx")).unwrap();
        let output = polyasm()
            .current_dir(dir)
            .args(args)
            .arg(out)
            .args(["--error-format", "short"])
            .stdin(stdin)
            .output()
            .unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?} {out}: {err}");
        assert!(
            err.contains(&format!(
                "error[PA014]: the output `{out}` is the included file `{included}`"
            )),
            "{args:?} {out}: {err}"
        );
        assert_eq!(err.lines().filter(|l| l.contains("error[")).count(), 1, "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("lib.mx")).unwrap(), "outc 66\n");
        assert_eq!(std::fs::read_to_string(dir.join("sub/inner.mx")).unwrap(), "outc 67\n");
        assert_eq!(listing(dir), before, "{args:?} {out}");
        // `run` stops before running: the program printed nothing.
        assert!(output.stdout.is_empty(), "{args:?} {out}");
    }
    // An output beside the includes is fine.
    let output = run_in(dir, &["main.mx", "-o", "out.mxb"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn a_refused_included_output_points_at_the_directive() {
    let dir = temp();
    let dir = dir.path();
    write(dir, "main.mx", "outc 65\n  %include \"lib\"\n");
    write(dir, "lib.mx", "outc 66\n");
    let output = run_in(dir, &["main.mx", "-o", "lib.mx"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "main.mx:2:3: error[PA014]: the output `lib.mx` is the included file `lib.mx`\n"
    );
    let output = polyasm()
        .current_dir(dir)
        .args(["main.mx", "-o", "lib.mx", "--color", "never"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(err.contains("included here"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(err.contains("Help: choose another output path with `-o`"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("lib.mx")).unwrap(), "outc 66\n");
}

/// Runs polyasm in `dir` with its address space limited to 1 GiB, so that holding a 4 GiB input
/// whole would fail: an input that long must be refused unread.
#[cfg(unix)]
fn run_in_small_memory(dir: &Path, args: &[&str], stdin: Option<std::fs::File>) -> Output {
    use std::os::unix::process::CommandExt;
    let mut command = polyasm();
    command.current_dir(dir).args(args).args(["--error-format", "short"]);
    if let Some(file) = stdin {
        command.stdin(file);
    }
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.output().expect("polyasm runs")
}

#[cfg(unix)]
#[test]
fn an_input_of_4_gib_or_more_is_refused_unread_wherever_it_is_read() {
    let dir = temp();
    let dir = dir.path();
    // Sparse: the file takes no room on the disk, and reading it would give 4 GiB of zeros.
    let huge = std::fs::File::create(dir.join("huge.mx")).unwrap();
    huge.set_len(1 << 32).unwrap();
    for link in ["huge.mxb", "huge.bin", "huge.json"] {
        std::os::unix::fs::symlink("huge.mx", dir.join(link)).unwrap();
    }
    write(dir, "main.mx", "%include \"huge\"\n");
    let cases: [(&[&str], bool, &str); 7] = [
        (
            &["huge.mx", "-o", "out"],
            false,
            "error[PA013]: huge.mx is 4 GiB or larger",
        ),
        (&["check", "huge.mx"], false, "error[PA013]: huge.mx is 4 GiB or larger"),
        (
            &["-t", "masfix", "-", "-o", "out"],
            true,
            "error[PA013]: <stdin> is 4 GiB or larger",
        ),
        (&["run", "huge.mxb"], false, "error[PA013]: huge.mxb is 4 GiB or larger"),
        (
            &["disasm", "-t", "masfix", "huge.bin"],
            false,
            "error[PA013]: huge.bin is 4 GiB or larger",
        ),
        (
            &["run", SEED, "--data", "huge.json"],
            false,
            "error[PA013]: data file huge.json is 4 GiB or larger",
        ),
        (
            &["main.mx", "-o", "out"],
            false,
            "main.mx:1:1: error[PA022]: including huge.mx makes the sources 4 GiB or larger in all",
        ),
    ];
    for (args, from_stdin, expected) in cases {
        let stdin = from_stdin.then(|| std::fs::File::open(dir.join("huge.mx")).unwrap());
        let output = run_in_small_memory(dir, args, stdin);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().next(), Some(expected), "{args:?}: {err}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!dir.join("out").exists(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn including_a_folder_a_device_or_a_fifo_says_what_it_is_without_reading_it() {
    let dir = temp();
    let dir = dir.path();
    std::fs::create_dir(dir.join("folder.mx")).unwrap();
    let fifo = std::ffi::CString::new(path_str(&dir.join("pipe.mx"))).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.mx")).unwrap();
    for (name, expected) in [
        (
            "folder",
            "main.mx:1:1: error[PA020]: `folder.mx` is a folder, not a file",
        ),
        (
            "pipe",
            "main.mx:1:1: error[PA020]: `pipe.mx` is not a regular file: it is a FIFO",
        ),
        (
            "zero",
            "main.mx:1:1: error[PA020]: `zero.mx` is not a regular file: it is a character device",
        ),
    ] {
        write(dir, "main.mx", &format!("%include \"{name}\"\noutc 65\n"));
        for command in [
            &["main.mx", "-o", "out.mxb"][..],
            &["run", "main.mx"],
            &["check", "main.mx"],
        ] {
            let output = run_in(dir, command);
            assert_eq!(output.status.code(), Some(1), "{name} {command:?}");
            assert_eq!(stderr(&output), format!("{expected}\n"), "{name} {command:?}");
            assert!(output.stdout.is_empty());
            assert!(!dir.join("out.mxb").exists());
        }
    }
    // The human format has the help line.
    let output = polyasm()
        .current_dir(dir)
        .args(["main.mx", "--color", "never"])
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(err.contains("Help: save what it gives to a regular file"), "{err}");
}

/// The diagnostics of a JSON run: (code, message, help) of each error.
fn json_errors(output: &Output) -> Vec<(String, String, Option<String>)> {
    stderr(output)
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("one JSON object a line");
            let help = value["children"]
                .as_array()
                .expect("children")
                .iter()
                .find(|child| child["level"] == "help")
                .map(|child| child["message"].as_str().expect("text").to_string());
            (
                value["code"]["code"].as_str().expect("a code").to_string(),
                value["message"].as_str().expect("a message").to_string(),
                help,
            )
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_a_usage_error_with_a_code_that_names_it() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let dir = temp();
    let bad = || OsString::from_vec(b"\xffprog.mx".to_vec());
    let cases: Vec<Vec<OsString>> = vec![
        vec!["-t".into(), "masfix".into(), bad()],
        vec!["x.mx".into(), "-o".into(), bad()],
        vec!["run".into(), "x.mx".into(), "-I".into(), bad()],
        vec!["check".into(), "x.mx".into(), bad()],
        vec!["-t".into(), "masfix".into(), "--".into(), bad()],
    ];
    for args in cases {
        for format in ["human", "short", "json"] {
            let output = polyasm()
                .current_dir(dir.path())
                .args(["--error-format", format, "--color", "never"])
                .args(&args)
                .output()
                .unwrap();
            let err = stderr(&output);
            assert_eq!(output.status.code(), Some(2), "{args:?} {format}: {err}");
            assert!(output.stdout.is_empty());
            let message = "the argument `\\xFFprog.mx` is not UTF-8 text";
            match format {
                "json" => {
                    let errors = json_errors(&output);
                    assert_eq!(errors.len(), 1, "{err}");
                    assert_eq!((errors[0].0.as_str(), errors[0].1.as_str()), ("PA015", message));
                    assert!(errors[0].2.as_deref().is_some_and(|h| h.contains("- < FILE")), "{err}");
                }
                "short" => assert_eq!(err.lines().next(), Some(format!("error[PA015]: {message}").as_str())),
                _ => {
                    assert!(err.starts_with(&format!("error[PA015]: {message}\n")), "{err}");
                    assert!(err.contains("help: rename the file"), "{err}");
                }
            }
        }
    }
}

#[test]
fn a_negative_count_for_a_target_option_is_the_targets_usage_error() {
    let dir = temp();
    write(dir.path(), "x.mx", "outc 65\n");
    for (args, option) in [
        (&["run", "x.mx", "--max-steps", "-1"][..], "--max-steps"),
        (&["run", "x.mx", "--max-steps=-1"], "--max-steps"),
        (&["run", "x.mx", "--ctime-steps", "-5"], "--ctime-steps"),
        (&["x.mx", "-o", "out.mxb", "--ctime-steps", "-1"], "--ctime-steps"),
        (&["check", "x.mx", "--ctime-steps", "-1"], "--ctime-steps"),
    ] {
        let value = args.last().expect("a value").trim_start_matches("--max-steps=");
        let message = format!("invalid value `{value}` for `{option}`");
        let output = polyasm()
            .current_dir(dir.path())
            .args(args)
            .args(["--error-format", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        let errors = json_errors(&output);
        assert_eq!(errors.len(), 1, "{args:?}");
        assert_eq!(
            (errors[0].0.as_str(), errors[0].1.as_str()),
            ("PA006", message.as_str())
        );
        assert!(
            errors[0].2.as_deref().is_some_and(|h| h.contains("whole number")),
            "{args:?}"
        );
        let output = polyasm()
            .current_dir(dir.path())
            .args(args)
            .args(["--color", "never"])
            .output()
            .unwrap();
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with(&format!("error[PA006]: {message}\n")), "{err}");
        assert!(err.contains("help: give a whole number"), "{err}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing ran");
        assert!(!dir.path().join("out.mxb").exists());
    }
    // A value left out is still the parser's error, not the next option taken as the value.
    let output = run_in(dir.path(), &["run", "x.mx", "--max-steps", "--trace"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with("error[PA015]: a value is required for '--max-steps <N>'"),
        "{}",
        stderr(&output)
    );
}
