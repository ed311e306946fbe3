//! The headless Chromium driver of tests/common/browser.rs, against pages served from here.
//! These tests need Chromium (Debian's `chromium` package, or POLYASM_CHROMIUM) and fail
//! without it.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

use common::browser::{Browser, locate_chromium};
use serde_json::json;

/// A canvas painted red at the top left, a button that writes a line a little after a click.
const PAGE: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>driver</title>
<style>body { margin: 0; background: #fff; } canvas { display: block; }</style></head>
<body>
<canvas id="canvas" width="40" height="30"></canvas>
<button id="add">add</button>
<p id="out"></p>
<script>
const paint = document.getElementById('canvas').getContext('2d');
paint.fillStyle = '#ff0000';
paint.fillRect(0, 0, 40, 30);
let clicks = 0;
document.getElementById('add').addEventListener('click', () => {
  clicks += 1;
  const now = clicks;
  setTimeout(() => { document.getElementById('out').textContent = 'added ' + now; }, 150);
});
</script>
</body></html>"#;

/// A page that goes wrong every way the driver reports: a console error, an uncaught
/// exception after load, an unhandled rejection and an image that is not there.
const THROWS: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>throws</title></head>
<body>
<p>this page throws</p>
<img src="/missing.png">
<script>
console.error('bad', 42);
Promise.reject(new Error('rejected'));
setTimeout(() => { window.thrown = true; throw new Error('late boom'); }, 50);
</script>
</body></html>"#;

/// A page that reloads itself three times, then says so.
const RELOADS: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>reloads</title></head>
<body>
<script>
const loads = Number(sessionStorage.getItem('loads') || 0) + 1;
sessionStorage.setItem('loads', loads);
if (loads < 4) {
  setTimeout(() => location.reload(), 30);
} else {
  document.body.dataset.done = 'after ' + loads + ' loads';
}
</script>
</body></html>"#;

/// Serves PAGE at /, THROWS at /throws, RELOADS at /reloads and 404 elsewhere on a free port, for as long as the
/// test runs; returns the base URL.
fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    return;
                }
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let (status, body) = match path {
                    "/" => ("200 OK", PAGE),
                    "/throws" => ("200 OK", THROWS),
                    "/reloads" => ("200 OK", RELOADS),
                    _ => ("404 Not Found", "not here"),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n\
                     Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    base
}

fn launch() -> Browser {
    Browser::launch().unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn eval_gives_values_awaits_promises_and_reports_what_was_thrown() {
    let base = serve();
    let browser = launch();
    let page = browser.page(&base).unwrap();
    assert_eq!(page.eval("1 + 2").unwrap(), json!(3));
    assert_eq!(page.eval("document.title").unwrap(), json!("driver"));
    assert_eq!(
        page.eval("({ a: [1, 'two'], b: null })").unwrap(),
        json!({ "a": [1, "two"], "b": null })
    );
    assert_eq!(page.eval("undefined").unwrap(), json!(null));
    assert_eq!(page.eval("0 / 0").unwrap(), json!("NaN"));
    assert_eq!(
        page.eval("new Promise(done => setTimeout(() => done('later'), 50))")
            .unwrap(),
        json!("later")
    );
    let thrown = page.eval("throw new Error('nope')").unwrap_err();
    assert!(thrown.contains("Error: nope"), "{thrown}");
    let rejected = page.eval("Promise.reject(new Error('refused'))").unwrap_err();
    assert!(rejected.contains("refused"), "{rejected}");
    // What eval itself throws is its error, not one of the page's.
    assert_eq!(page.console_errors().unwrap(), Vec::<String>::new());
}

#[test]
fn wait_for_sees_the_text_a_click_adds_and_explains_a_timeout() {
    let base = serve();
    let browser = launch();
    let page = browser.page(&base).unwrap();
    page.eval("document.getElementById('add').click()").unwrap();
    let text = page
        .wait_for("document.getElementById('out').textContent", Duration::from_secs(10))
        .unwrap();
    assert_eq!(text, json!("added 1"));

    let start = Instant::now();
    let error = page
        .wait_for(
            "document.getElementById('out').textContent === 'added 2'",
            Duration::from_millis(300),
        )
        .unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert!(error.contains("its last value was false"), "{error}");
    assert!(error.contains("added 1"), "the page's text is in the error: {error}");

    let error = page
        .wait_for(
            "document.querySelector('#none').textContent",
            Duration::from_millis(200),
        )
        .unwrap_err();
    assert!(
        error.contains("it last threw") && error.contains("TypeError"),
        "{error}"
    );
}

#[test]
fn wait_for_outlasts_reloads_of_the_page() {
    let base = serve();
    let browser = launch();
    let page = browser.page(&format!("{base}/reloads")).unwrap();
    let done = page
        .wait_for("document.body.dataset.done", Duration::from_secs(20))
        .unwrap();
    assert_eq!(done, json!("after 4 loads"));
    assert_eq!(page.console_errors().unwrap(), Vec::<String>::new());
}

#[test]
fn a_canvas_pixel_reads_back_red_and_a_screenshot_is_a_png_of_the_viewport() {
    let base = serve();
    let browser = launch();
    let page = browser.page(&base).unwrap();
    let pixel = page
        .eval("Array.from(document.getElementById('canvas').getContext('2d').getImageData(5, 5, 1, 1).data)")
        .unwrap();
    assert_eq!(pixel, json!([255, 0, 0, 255]));

    page.set_viewport(320, 200).unwrap();
    let png = page.screenshot_png().unwrap();
    let mut reader = png::Decoder::new(std::io::Cursor::new(&png)).read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), (320, 200));
    assert_eq!(frame.bit_depth, png::BitDepth::Eight);
    let samples = frame.color_type.samples();
    let at = |x: usize, y: usize| {
        let start = (y * frame.width as usize + x) * samples;
        pixels[start..start + 3].to_vec()
    };
    assert_eq!(at(5, 5), [255, 0, 0], "the canvas, top left");
    assert_eq!(at(300, 180), [255, 255, 255], "the page's background");
}

#[test]
fn console_errors_hold_what_the_page_threw_and_logged() {
    let base = serve();
    let browser = launch();
    let clean = browser.page(&base).unwrap();
    assert_eq!(clean.console_errors().unwrap(), Vec::<String>::new());

    let page = browser.page(&format!("{base}/throws")).unwrap();
    page.wait_for("window.thrown", Duration::from_secs(10)).unwrap();
    let errors = page.console_errors().unwrap();
    let has = |words: &str| errors.iter().any(|error| error.contains(words));
    assert!(has("console.error: bad 42"), "{errors:#?}");
    assert!(has("Error: late boom"), "{errors:#?}");
    assert!(has("Error: rejected"), "{errors:#?}");
    assert!(has("404"), "the missing image: {errors:#?}");
    assert_eq!(errors.len(), 4, "{errors:#?}");
    // The other tab saw none of it.
    assert_eq!(clean.console_errors().unwrap(), Vec::<String>::new());
}

#[test]
fn a_page_that_cannot_load_is_an_error() {
    // Nothing listens on a port just freed.
    let free = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let browser = launch();
    let error = browser.page(&format!("http://{free}/")).err().unwrap();
    assert!(error.contains("ERR_CONNECTION_REFUSED"), "{error}");
}

#[test]
fn a_dead_browser_or_a_crashed_page_fails_the_test_instead_of_hanging() {
    let base = serve();
    let browser = launch();
    let crashing = browser.page(&base).unwrap();
    let _ = crashing.call("Page.crash", json!({}));
    let error = crashing.eval("1").unwrap_err();
    assert!(error.contains("crashed"), "{error}");

    let page = browser.page(&base).unwrap();
    // SAFETY: kill() only sends a signal, here to Chromium's process group.
    assert_eq!(unsafe { libc::kill(-(browser.pid() as libc::pid_t), libc::SIGKILL) }, 0);
    let start = Instant::now();
    let error = page.eval("1").unwrap_err();
    assert!(error.contains("Chromium") && error.contains("is gone"), "{error}");
    let error = page.wait_for("true", Duration::from_secs(20)).unwrap_err();
    assert!(error.contains("is gone"), "{error}");
    assert!(browser.page(&base).is_err());
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
}

/// Whether a process, or with a negative id a process group, still exists.
fn exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the target exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Waits up to five seconds for the process group to be gone (its helpers are reaped by init).
fn group_ends(pid: libc::pid_t) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while exists(-pid) {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

#[test]
fn a_test_that_panics_still_kills_chromium_and_removes_its_profile() {
    let (sender, receiver) = std::sync::mpsc::channel();
    let failed = std::thread::spawn(move || {
        let browser = launch();
        sender.send((browser.pid(), browser.dir())).unwrap();
        assert!(browser.dir().join("profile").is_dir());
        panic!("a failing test");
    })
    .join();
    assert!(failed.is_err());
    let (pid, dir) = receiver.recv().unwrap();
    assert!(!exists(pid as libc::pid_t), "Chromium {pid} still runs");
    assert!(group_ends(pid as libc::pid_t), "Chromium's helpers still run");
    assert!(!dir.exists(), "{} is left behind", dir.display());
}

fn script(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn a_browser_that_exits_or_never_opens_its_port_is_an_error_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    let exits = script(dir.path(), "exits", "#!/bin/sh\necho 'no display here' >&2\nexit 3\n");
    let error = Browser::launch_program(&exits, Duration::from_secs(20)).err().unwrap();
    assert!(error.contains("exit status: 3"), "{error}");
    assert!(error.contains("no display here"), "its output is in the error: {error}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());

    let pid_file = dir.path().join("pid");
    let silent = script(
        dir.path(),
        "silent",
        &format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 60\n", pid_file.display()),
    );
    let start = Instant::now();
    let error = Browser::launch_program(&silent, Duration::from_millis(500))
        .err()
        .unwrap();
    assert!(error.contains("DevToolsActivePort"), "{error}");
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    let pid: libc::pid_t = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    assert!(!exists(pid), "the silent browser {pid} was not killed");

    let error = Browser::launch_program(&dir.path().join("absent"), Duration::from_secs(5))
        .err()
        .unwrap();
    assert!(error.contains("apt-get install chromium"), "{error}");
}

#[test]
fn finding_chromium_says_what_to_install_when_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = Some(dir.path().as_os_str().to_owned());

    let error = locate_chromium(None, path.clone(), &[]).unwrap_err();
    assert!(error.contains("no Chromium found"), "{error}");
    assert!(error.contains("Debian's `chromium` package"), "{error}");

    let error = locate_chromium(Some("/nowhere/chrome".into()), path.clone(), &[]).unwrap_err();
    assert!(error.contains("POLYASM_CHROMIUM is /nowhere/chrome"), "{error}");
    assert!(error.contains("apt-get install chromium"), "{error}");

    // A file that cannot run is not a browser.
    std::fs::write(dir.path().join("chromium"), "").unwrap();
    assert!(locate_chromium(None, path.clone(), &[]).is_err());

    let browser = script(dir.path(), "google-chrome", "#!/bin/sh\n");
    assert_eq!(locate_chromium(None, path.clone(), &[]).unwrap(), browser);
    assert_eq!(
        locate_chromium(Some("google-chrome".into()), path.clone(), &[]).unwrap(),
        browser
    );
    let fixed = script(dir.path(), "fixed", "#!/bin/sh\n");
    assert_eq!(locate_chromium(None, path.clone(), &[&fixed]).unwrap(), fixed);
    assert_eq!(locate_chromium(Some(fixed.clone().into()), None, &[]).unwrap(), fixed);
}
