//! Benchmarks: the assembler on a generated 1,000,000-line program (with the library option
//! that lifts the 136-instruction limit), its peak heap use, and the emulator on the lighting
//! example.
//!
//! Run with `cargo bench -p polyasm-nv2a`. The peak heap of one assembly is printed before the
//! timings (a counting allocator wraps the system one in this benchmark binary only).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_core::SourceMap;
use polyasm_nv2a::{AssembleOptions, ExecOptions, Program, assemble, assemble_str};

/// The system allocator, counting live and peak bytes.
struct PeakAlloc {
    live: AtomicUsize,
    peak: AtomicUsize,
}

unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = self.live.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            self.peak.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        self.live.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: PeakAlloc = PeakAlloc {
    live: AtomicUsize::new(0),
    peak: AtomicUsize::new(0),
};

const LINES: usize = 1_000_000;

/// A deterministic mix of every statement form, with comments and blank lines.
fn generate(lines: usize) -> String {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let lanes = ["", ".x", ".xyz", ".w", ".wzyx", ".yyzw"];
    let masks = ["", ".x", ".xy", ".xyz", ".w", ".yz"];
    let outputs = ["oPos", "oD0", "oD1", "oT0", "oT1", "oFog", "oDiffuse", "oTex2"];
    let mut out = String::with_capacity(lines * 32);
    out.push_str("#mvp matrix4 96\n#light vector 12\n#color vector 13\n");
    for i in 3..lines {
        let (r, s, t) = (next(12), next(12), next(13));
        let lane = lanes[next(lanes.len() as u64) as usize];
        let mask = masks[next(masks.len() as u64) as usize];
        match next(16) {
            0 => out.push_str(&format!("mov r{r}{mask}, v{}{lane}", next(16))),
            1 => out.push_str(&format!("mad r{r}{mask}, iPos{lane}, #mvp[{}], r{s}", next(4))),
            2 => out.push_str(&format!("dp4 {}{mask}, r{t}, c{}", outputs[next(8) as usize], next(192))),
            3 => out.push_str(&format!("mul r{r}, r{s}, c[A0+{}] + rcp r1.w, r{t}.w", next(100))),
            4 => out.push_str(&format!("mov {}, v3\n+ rsq r1.x, r{s}.x", outputs[next(8) as usize])),
            5 => out.push_str(&format!("dp3 r{r}.x, r{s}, #light + lit r1, r{t}")),
            6 => out.push_str(&format!("add r{r}{mask}, -r{s}{lane}, v{}.x", next(16))),
            7 => out.push_str(&format!("MAX R{r}, R{s}.xyzw, C{}", next(192))),
            8 => out.push_str("; a comment line"),
            9 if i % 5 == 0 => {}
            10 => out.push_str(&format!("dp4 oPos.z, r{s}, c98 + dp4 r{r}.x, r{s}, c98")),
            11 => out.push_str(&format!("arl a0, v{}.x", next(16))),
            _ => out.push_str(&format!("sge r{r}{mask}, r{s}, #color /* block */")),
        }
        if next(4) == 0 {
            out.push_str("   // trailing comment");
        }
        out.push('\n');
    }
    out
}

fn unlimited() -> AssembleOptions {
    AssembleOptions {
        max_instructions: None,
        ..AssembleOptions::default()
    }
}

fn assemble_text(text: &str) -> usize {
    let mut sources = SourceMap::new();
    let file = sources.add("big.vsh", text);
    let outcome = assemble(&sources, file, unlimited());
    let object = outcome.value.expect("the generated program is valid");
    object.bytes.len()
}

fn assembler(c: &mut Criterion) {
    let text = generate(LINES);
    // Peak heap of one assembly, beyond the source text the caller already holds.
    let before = ALLOCATOR.live.load(Ordering::Relaxed);
    ALLOCATOR.peak.store(before, Ordering::Relaxed);
    let bytes = assemble_text(&text);
    let peak = ALLOCATOR.peak.load(Ordering::Relaxed) - before;
    println!(
        "assemble/peak_heap: {:.1} MiB for {LINES} lines ({:.1} MiB of source, {:.1} MiB of machine code)",
        peak as f64 / 1048576.0,
        text.len() as f64 / 1048576.0,
        bytes as f64 / 1048576.0
    );

    let mut group = c.benchmark_group("assemble");
    group.sample_size(10);
    group.throughput(Throughput::Elements(LINES as u64));
    group.bench_with_input(BenchmarkId::new("lines", LINES), &text, |b, text| {
        b.iter(|| assemble_text(text))
    });
    group.finish();
}

fn emulator(c: &mut Criterion) {
    let source = include_str!("../../../examples/nv2a/lighting.vsh");
    let words = assemble_str(source, AssembleOptions::default()).expect("the lighting example assembles");
    let program = Program::new(&words).expect("assembled programs load");
    let mut constants = [[0.0f32; 4]; 192];
    for (i, c) in constants.iter_mut().enumerate() {
        *c = [i as f32 * 0.01, 0.5, 0.25, 1.0];
    }
    let mut inputs = [[0.0f32; 4]; 16];
    inputs[2] = [0.0, 0.0, 1.0, 0.0];
    inputs[3] = [1.0, 0.5, 0.25, 1.0];
    const VERTICES: usize = 10_000;
    let mut group = c.benchmark_group("emulate");
    group.throughput(Throughput::Elements(VERTICES as u64));
    group.bench_function(BenchmarkId::new("lighting_vertices", VERTICES), |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for v in 0..VERTICES {
                inputs[0] = [v as f32, 1.0, 2.0, 1.0];
                sum += program.run(&inputs, &mut constants, ExecOptions::default())[0][0];
            }
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, assembler, emulator);
criterion_main!(benches);
