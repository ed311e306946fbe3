//! `polyasm serve` on the command line: the address it prints, and the refusals before it
//! serves (the page itself: crates/polyasm-serve/tests and tests/serve_browser.rs).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Stdio;
use std::time::Duration;

use common::polyasm;

/// Starts `polyasm serve ARGS`, returns the child and the first line it printed.
fn start(args: &[&str], dir: &std::path::Path) -> (std::process::Child, String) {
    start_with(polyasm(), args, dir)
}

/// [`start`] with `command` set up by the caller (its environment).
fn start_with(
    mut command: std::process::Command,
    args: &[&str],
    dir: &std::path::Path,
) -> (std::process::Child, String) {
    let mut child = command
        .current_dir(dir)
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

/// The `HOST:PORT` of the address line `polyasm serve` prints.
fn address_in(line: &str) -> String {
    let url = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    url.split('/').next().unwrap().to_string()
}

fn get(address: &str, host: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.lines().next().unwrap_or("").to_string()
}

#[test]
fn it_prints_its_address_and_serves_the_page() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.mx"), "jmp end\n").unwrap();
    std::fs::write(dir.path().join("b.vu"), "nop\n").unwrap();
    let (mut child, line) = start(&["."], dir.path());
    assert!(line.starts_with("polyasm serve: http://127.0.0.1:"), "{line}");
    assert!(line.contains("(2 sources; Ctrl-C stops)"), "{line}");
    let address = address_in(&line);
    assert!(get(&address, &address).contains("200"));
    assert!(get(&address, "attacker.example").contains("403"));
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn another_host_is_served_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, line) = start(&["--host", "0.0.0.0", "."], dir.path());
    assert!(line.starts_with("polyasm serve: http://0.0.0.0:"), "{line}");
    let port = line.rsplit(':').next().unwrap().split('/').next().unwrap().to_string();
    // The machine's own address names the server.
    let address = format!("127.0.0.1:{port}");
    assert!(get(&address, &address).contains("200"));
    child.kill().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    child.wait().unwrap();
    assert!(
        stderr.contains("note: serving on 0.0.0.0: every machine that can reach this address"),
        "{stderr}"
    );
}

#[test]
fn a_path_that_is_not_there_is_pa029() {
    let dir = tempfile::tempdir().unwrap();
    let output = polyasm()
        .current_dir(dir.path())
        .args(["serve", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[PA029]: cannot serve nowhere:"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_port_taken_is_pa029() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    let output = polyasm()
        .current_dir(dir.path())
        .args(["serve", "--port", &port, "."])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[PA029]: cannot listen on 127.0.0.1:"), "{stderr}");
    assert!(stderr.contains("--port 0"), "{stderr}");
}

#[test]
fn absurd_options_are_usage_errors() {
    for args in [
        &["serve", "--port", "70000"][..],
        &["serve", "--host", "nowhere.example"],
        &["serve", "--device", "tpu"],
    ] {
        let output = polyasm().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn open_without_a_browser_says_so_and_serves() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let mut command = polyasm();
    command.env("PATH", empty.path());
    let (mut child, line) = start_with(command, &["--open", "."], dir.path());
    let address = address_in(&line);
    assert!(get(&address, &address).contains("200"), "still serving");
    child.kill().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    child.wait().unwrap();
    assert!(stderr.contains("note: cannot open a browser"), "{stderr}");
    assert!(stderr.contains(&format!("open http://{address}/")), "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_address_that_cannot_be_printed_is_pa029_not_a_server_unseen() {
    let dir = tempfile::tempdir().unwrap();
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let output = polyasm()
        .current_dir(dir.path())
        .args(["serve", "."])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("error[PA029]: cannot print the page's address http://127.0.0.1:"),
        "{stderr}"
    );
}
