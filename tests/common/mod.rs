//! What the command-line tests share: running the built binary and reading what it printed.

#![allow(dead_code)] // each test binary uses part of this module

pub mod browser;
pub mod lsp;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/vu/seed.vu");
pub const MVP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/nv2a/mvp.vsh");

/// The built `polyasm`, with no colour variables from the environment and SIGINT's default
/// action (a background job of a non-interactive shell starts with SIGINT ignored, and
/// polyasm rightly keeps an ignored signal ignored, which the signal tests would not see).
pub fn polyasm() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_polyasm"));
    command
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: signal() is async-signal-safe, so it may run between fork and exec.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                Ok(())
            });
        }
    }
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

/// How long a test waits for a child that should end before calling it hung.
pub const HANG: Duration = Duration::from_secs(120);

/// Reads `from` to its end on a thread of its own, so that a full pipe cannot block the child.
pub fn drain(mut from: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

/// Waits for `child`, killing it and failing the test when it outlives [`HANG`].
pub fn wait_bounded(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + HANG;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: polyasm still running after {HANG:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// What a run piped into `head -c N` left: the bytes `head` printed, and polyasm's exit status
/// and standard error.
#[cfg(unix)]
pub struct Piped {
    pub out: Vec<u8>,
    pub status: String,
    pub err: String,
}

/// Runs `polyasm ARGS | head -c BYTES` through `sh` in `dir` (`args` as written on a shell's
/// command line), so that `head` closes the pipe while polyasm still writes.
#[cfg(unix)]
pub fn piped_into_head(dir: &Path, args: &str, bytes: usize) -> Piped {
    piped_through_head(dir, args, "2>err.txt", bytes)
}

/// Runs `polyasm ARGS REDIRECTS | head -c BYTES` through `sh` in `dir`: `redirects` say which
/// of polyasm's streams reach `head` (`2>err.txt` keeps standard output; `2>&1 >/dev/null`
/// sends standard error instead). `err` is what `err.txt` got, if the redirects name it.
#[cfg(unix)]
pub fn piped_through_head(dir: &Path, args: &str, redirects: &str, bytes: usize) -> Piped {
    let script = format!(
        "{{ '{}' {args} {redirects}; echo $? >status.txt; }} | head -c{bytes}",
        env!("CARGO_BIN_EXE_polyasm")
    );
    let mut child = Command::new("sh")
        .current_dir(dir)
        .args(["-c", &script])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = drain(child.stdout.take().unwrap());
    let status = wait_bounded(&mut child, &format!("{args} {redirects} | head -c{bytes}"));
    assert!(status.success(), "sh: {status}");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    Piped {
        out: out.join().unwrap(),
        status: read("status.txt").trim().to_string(),
        err: read("err.txt"),
    }
}

/// A pseudo-terminal pair: (master, slave).
#[cfg(unix)]
pub fn open_pty() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the given locations; the null
    // arguments ask for default name, termios and window size.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty failed");
    // SAFETY: both descriptors are fresh and owned by nothing else.
    unsafe { (std::fs::File::from_raw_fd(master), std::fs::File::from_raw_fd(slave)) }
}

/// A PNG picture's pixels (8-bit RGBA, asserted).
pub fn decode_png(bytes: &[u8]) -> polyasm_core::picture::Image {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut rgba).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgba, png::BitDepth::Eight)
    );
    rgba.truncate(info.buffer_size());
    polyasm_core::picture::Image {
        width: info.width,
        height: info.height,
        rgba,
    }
}

/// The PNG picture in file `path`.
pub fn read_png(path: &Path) -> polyasm_core::picture::Image {
    decode_png(&std::fs::read(path).unwrap())
}

/// Writes an 8-bit RGBA picture whose rows are given from the bottom, as a texture reads them.
pub fn write_png(path: &Path, width: u32, rows_from_bottom: &[Vec<[u8; 4]>]) {
    let rgba: Vec<u8> = rows_from_bottom.iter().rev().flatten().flatten().copied().collect();
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    polyasm_core::picture::write_png(width, rows_from_bottom.len() as u32, &rgba, file).unwrap();
}

/// The four numbers of the `$0 = (x, y, z, w)` line `polyasm run -t lima` prints.
pub fn colour(line: &str) -> [f32; 4] {
    let inner = line
        .strip_prefix("$0 = (")
        .and_then(|l| l.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("not a colour line: {line:?}"));
    let numbers: Vec<f32> = inner.split(", ").map(|n| n.parse().unwrap()).collect();
    numbers.try_into().unwrap()
}
