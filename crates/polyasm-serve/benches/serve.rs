//! The server in process, over a real WebSocket: from a save of each dialect's example to the
//! page's new `file` message (the watcher's wait included); shader-asm frames of
//! examples/shader/sphere.sasm at 640x360 and 1280x720 on the CPU renderer (one frame per
//! request, as the page asks); and, printed after them, the server's CPU time while a page
//! is open and nothing changes. Run with `cargo bench -p polyasm-serve`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{Page, Server};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use tungstenite::Message;

const EXAMPLES: &[(&str, &str)] = &[
    ("wave.vu", include_str!("../../../examples/vu/wave.vu")),
    ("lighting.vsh", include_str!("../../../examples/nv2a/lighting.vsh")),
    ("fizzbuzz.mx", include_str!("../../../examples/masfix/fizzbuzz.mx")),
    ("sphere.sasm", include_str!("../../../examples/shader/sphere.sasm")),
    ("lit_surface.pp", include_str!("../../../examples/lima/lit_surface.pp")),
];

/// The comment that makes each save differ from the last.
fn comment(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("vu" | "vsh") => "//",
        Some("sasm" | "pp") => "#",
        _ => ";",
    }
}

fn save_to_page(c: &mut Criterion) {
    let server = Server::start(EXAMPLES);
    let mut group = c.benchmark_group("save_to_page");
    group.sample_size(30);
    for (name, text) in EXAMPLES {
        let mut page = server.connect();
        page.open(&server.name(name));
        let path = server.dir.path().join(name);
        let mut n = 0u64;
        group.bench_function(*name, |b| {
            b.iter(|| {
                n += 1;
                std::fs::write(&path, format!("{text}\n{} save {n}\n", comment(name))).unwrap();
                let file = page.until("file");
                assert_eq!(file["ok"], true, "{file}");
            })
        });
    }
    group.finish();
}

fn frames(c: &mut Criterion) {
    let server = Server::start(EXAMPLES);
    let mut page = server.connect();
    let name = server.name("sphere.sasm");
    page.open(&name);
    let mut group = c.benchmark_group("shader_frame_cpu");
    group.sample_size(30);
    for (width, height) in [(640, 360), (1280, 720)] {
        let mut seq = 0u32;
        group.bench_function(format!("{width}x{height}"), |b| {
            b.iter(|| {
                seq += 1;
                page.send(json!({"type": "frame", "path": name, "seq": seq, "time": seq as f32 / 30.0, "width": width, "height": height}));
                let picture = page.picture();
                assert_eq!(picture.len(), 24 + width * height * 4);
            })
        });
    }
    group.finish();
}

/// The process's CPU time (user and system) so far.
fn cpu_time() -> Duration {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

fn idle(_: &mut Criterion) {
    let server = Server::start(EXAMPLES);
    let mut page: Page = server.connect();
    page.open(&server.name("fizzbuzz.mx"));
    std::thread::sleep(Duration::from_millis(200));
    let (cpu, wall) = (cpu_time(), Instant::now());
    std::thread::sleep(Duration::from_secs(5));
    let used = cpu_time() - cpu;
    let share = used.as_secs_f64() / wall.elapsed().as_secs_f64();
    println!(
        "idle: {:.1} ms of CPU in {:.1} s with a page open ({:.3}% of one core)",
        used.as_secs_f64() * 1000.0,
        wall.elapsed().as_secs_f64(),
        share * 100.0
    );
    let _ = page.socket.send(Message::Close(None));
}

criterion_group!(benches, save_to_page, frames, idle);
criterion_main!(benches);
