//! `polyasm serve` in a real browser: the built binary serves a temporary folder with an
//! example of each dialect, headless Chromium opens the page, and the tests write changes to
//! the files on disk and watch the page follow. Each dialect's screenshot in docs/images/ is
//! checked to be current (`POLYASM_UPDATE_SCREENSHOTS=1` writes them).

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::browser::{Browser, Page};
use common::polyasm;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// How long the page may take to show a change; far above the ≤ 100 ms it takes, so that a
/// loaded CI machine does not fail the test.
const PATIENCE: Duration = Duration::from_secs(20);

/// `polyasm serve` on a temporary folder, killed when dropped.
struct Served {
    child: Child,
    url: String,
    dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Serves a folder holding `files`, each copied from examples/ under its name there.
    fn examples(files: &[&str], extra: &[&str]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let to = dir.path().join("examples").join(file);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(Path::new(ROOT).join("examples").join(file), to).unwrap();
        }
        // Served as `polyasm serve examples` from the folder above it, so that the page names
        // the files as the docs' screenshots show them.
        let mut child = polyasm()
            .current_dir(dir.path())
            .args(["serve", "examples"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("polyasm serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Served { child, url, dir }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join("examples").join(file)
    }

    /// The page's name of a file.
    fn name(&self, file: &str) -> String {
        format!("examples/{file}")
    }

    /// The page, opened on `file`.
    fn open<'b>(&self, browser: &'b Browser, file: &str) -> Page<'b> {
        let page = browser.page("about:blank").unwrap();
        page.set_viewport(1280, 800).unwrap();
        let hash = percent(&self.name(file));
        page.goto(&format!("{}#path={hash}", self.url)).unwrap();
        page.wait_for(
            &format!(
                "window.polyasm && polyasm.open === {} && polyasm.ok !== null",
                js_string(&self.name(file))
            ),
            PATIENCE,
        )
        .unwrap();
        page
    }
}

fn percent(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'.' | b'_' | b'-' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn js_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The colour of the picture's pixel at (x, y) from the top, as the canvas holds it.
fn pixel(page: &Page, x: u32, y: u32) -> [u8; 4] {
    let value = page
        .eval(&format!(
            "Array.from(document.getElementById('picture').getContext('2d').getImageData({x}, {y}, 1, 1).data)"
        ))
        .unwrap();
    let v: Vec<u8> = serde_json::from_value(value).unwrap();
    [v[0], v[1], v[2], v[3]]
}

fn no_errors(page: &Page) {
    let errors = page.console_errors().unwrap();
    assert!(errors.is_empty(), "the page reported errors: {errors:?}");
}

/// Checks the page's screenshot against docs/images/NAME, or writes it when asked to. The
/// check is coarse (the mean of 40x40 blocks), so that fonts rendered a little differently
/// pass and a changed layout or picture does not.
fn screenshot(page: &Page, name: &str) {
    let png = page.screenshot_png().unwrap();
    let path = Path::new(ROOT).join("docs/images").join(name);
    if std::env::var_os("POLYASM_UPDATE_SCREENSHOTS").is_some() {
        std::fs::write(&path, &png).unwrap();
        return;
    }
    let stored = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; write it with POLYASM_UPDATE_SCREENSHOTS=1 cargo test --test serve_browser",
            path.display()
        )
    });
    let (a, b) = (blocks(&png), blocks(&stored));
    assert_eq!(a.len(), b.len(), "{name}: the screenshot's size changed");
    let worst = a.iter().zip(&b).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
    assert!(
        worst <= 24,
        "{name} is out of date (a block differs by {worst}); look at the page and rewrite it with POLYASM_UPDATE_SCREENSHOTS=1"
    );
}

/// The mean of each channel over 40x40 blocks.
fn blocks(png_bytes: &[u8]) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let channels = info.color_type.samples();
    let (w, h) = (info.width as usize, info.height as usize);
    let mut out = Vec::new();
    for by in 0..h.div_ceil(40) {
        for bx in 0..w.div_ceil(40) {
            for c in 0..3 {
                let mut sum = 0u64;
                let mut n = 0u64;
                for y in by * 40..((by + 1) * 40).min(h) {
                    for x in bx * 40..((bx + 1) * 40).min(w) {
                        sum += u64::from(buffer[y * info.line_size + x * channels + c]);
                        n += 1;
                    }
                }
                out.push((sum / n) as u8);
            }
        }
    }
    out
}

#[test]
fn shader_pictures_follow_the_file_and_errors_keep_the_last_one() {
    let served = Served::examples(&["shader/sphere.sasm", "shader/uv.sasm"], &["--device", "cpu"]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "shader/uv.sasm");
    page.wait_for("polyasm.frames > 2", PATIENCE).unwrap();
    assert_eq!(page.eval("polyasm.lastFrame.where").unwrap(), 0, "the CPU renders");
    // The top-right corner of the UV picture is yellow, the bottom-left black.
    let [r, g, b, _] = pixel(&page, 635, 2);
    assert!(r > 240 && g > 240 && b < 10, "{r} {g} {b}");
    // A save that paints everything blue.
    let started = Instant::now();
    std::fs::write(served.path("shader/uv.sasm"), "load(s0, 1.0)\nsetComponent2(c, s0)\n").unwrap();
    page.wait_for(
        "(() => { const d = document.getElementById('picture').getContext('2d').getImageData(5, 5, 1, 1).data; return d[2] > 240 && d[0] < 10; })()",
        PATIENCE,
    )
    .unwrap();
    println!(
        "save to a new picture on the page: {} ms",
        started.elapsed().as_millis()
    );
    // A save with an error: the report shows it, with its code linked, and the picture stays.
    std::fs::write(served.path("shader/uv.sasm"), "load(s0, 1.0)\nfrobnicate(s0)\n").unwrap();
    page.wait_for("polyasm.ok === false", PATIENCE).unwrap();
    let report = page.eval("document.getElementById('report').innerHTML").unwrap();
    let report = report.as_str().unwrap();
    assert!(report.contains("href=\"/explain/SH"), "{report}");
    assert_eq!(pixel(&page, 5, 5)[2], 255, "the last good picture stays");
    // Fixed: the report empties and pictures come again.
    std::fs::write(served.path("shader/uv.sasm"), "load(s0, 1.0)\nsetComponent0(c, s0)\n").unwrap();
    page.wait_for(
        "polyasm.ok === true && (() => { const d = document.getElementById('picture').getContext('2d').getImageData(5, 5, 1, 1).data; return d[0] > 240 && d[2] < 10; })()",
        PATIENCE,
    )
    .unwrap();
    no_errors(&page);
}

#[test]
fn the_shader_panel_screenshot() {
    let served = Served::examples(&["shader/sphere.sasm"], &["--device", "cpu"]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "shader/sphere.sasm");
    page.wait_for("polyasm.frames > 2", PATIENCE).unwrap();
    // Paused at t = 0, so that the picture is the same every time.
    page.eval(
        "document.getElementById('play').click(); const t = document.getElementById('time'); t.value = '0'; t.dispatchEvent(new Event('input')); t.dispatchEvent(new Event('change'));",
    )
    .unwrap();
    page.wait_for("polyasm.lastFrame && polyasm.lastFrame.time === 0", PATIENCE)
        .unwrap();
    let frames = page.eval("polyasm.frames").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(page.eval("polyasm.frames").unwrap(), frames, "paused: no more frames");
    // The rate and the render time are the machine's, not the page's: left out of the picture.
    page.eval("document.getElementById('fps').textContent = '–'; document.querySelectorAll('.render-ms').forEach((e) => { e.textContent = ''; });")
        .unwrap();
    screenshot(&page, "serve-shader.png");
    no_errors(&page);
}

#[test]
fn a_masfix_run_reruns_on_every_save() {
    let served = Served::examples(&["masfix/hello.mx", "masfix/reverse.mx"], &[]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "masfix/hello.mx");
    page.wait_for(
        "document.getElementById('run-output').textContent.includes('Hello, world!')",
        PATIENCE,
    )
    .unwrap();
    page.wait_for("polyasm.lastRun && polyasm.lastRun.status === 'ok'", PATIENCE)
        .unwrap();
    let text = std::fs::read_to_string(served.path("masfix/hello.mx")).unwrap();
    std::fs::write(served.path("masfix/hello.mx"), text.replace("outc 'H'", "outc 'J'")).unwrap();
    page.wait_for(
        "document.getElementById('run-output').textContent.includes('Jello, world!')",
        PATIENCE,
    )
    .unwrap();
    // Standard input from the page.
    let page = served.open(&browser, "masfix/reverse.mx");
    page.eval(
        "const s = document.getElementById('stdin'); s.value = 'abc\\n'; s.dispatchEvent(new Event('input')); document.getElementById('run').click();",
    )
    .unwrap();
    page.wait_for(
        "document.getElementById('run-output').textContent.includes('cba')",
        PATIENCE,
    )
    .unwrap();
    page.wait_for("document.getElementById('memory').textContent.length > 0", PATIENCE)
        .unwrap();
    screenshot(&page, "serve-masfix.png");
    no_errors(&page);
}

#[test]
fn vertex_outputs_follow_the_file() {
    let served = Served::examples(&["nv2a/mvp.vsh", "vu/wave.vu"], &[]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "nv2a/mvp.vsh");
    page.wait_for(
        "document.getElementById('outputs').textContent.includes('oPos')",
        PATIENCE,
    )
    .unwrap();
    screenshot(&page, "serve-nv2a.png");
    std::fs::write(served.path("nv2a/mvp.vsh"), "mov oPos, v0\nmov oD0, c[0]\n").unwrap();
    page.wait_for(
        "document.getElementById('outputs').textContent.includes('oD0')",
        PATIENCE,
    )
    .unwrap();
    let page = served.open(&browser, "vu/wave.vu");
    page.wait_for(
        "document.getElementById('outputs').querySelectorAll('td').length > 0",
        PATIENCE,
    )
    .unwrap();
    screenshot(&page, "serve-vu.png");
    no_errors(&page);
}

#[test]
fn lima_renders_and_runs_the_clicked_fragment() {
    let served = Served::examples(&["lima/procedural.pp"], &[]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "lima/procedural.pp");
    page.wait_for("polyasm.frames > 0", PATIENCE).unwrap();
    page.eval(
        "const c = document.getElementById('picture'); const r = c.getBoundingClientRect(); c.dispatchEvent(new MouseEvent('click', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true}));",
    )
    .unwrap();
    page.wait_for("polyasm.lastRun && polyasm.lastRun.status === 'ok'", PATIENCE)
        .unwrap();
    page.wait_for(
        "!document.getElementById('fragment').textContent.startsWith('Click')",
        PATIENCE,
    )
    .unwrap();
    screenshot(&page, "serve-lima.png");
    no_errors(&page);
}

#[test]
fn the_file_list_follows_the_folder() {
    let served = Served::examples(&["masfix/hello.mx"], &[]);
    let browser = Browser::launch().unwrap();
    let page = served.open(&browser, "masfix/hello.mx");
    assert_eq!(
        page.eval("document.querySelectorAll('#files [data-path]').length")
            .unwrap(),
        1
    );
    std::fs::write(served.path("masfix/new.mx"), "jmp end\n").unwrap();
    page.wait_for("document.querySelectorAll('#files [data-path]').length === 2", PATIENCE)
        .unwrap();
    std::fs::remove_file(served.path("masfix/new.mx")).unwrap();
    page.wait_for("document.querySelectorAll('#files [data-path]').length === 1", PATIENCE)
        .unwrap();
    no_errors(&page);
}
