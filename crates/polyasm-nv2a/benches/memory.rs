//! Peak heap of one assembly of each generated 1,000,000-line program, beyond the source text:
//! a counting allocator wraps the system one in this binary only, so the timing benchmarks run
//! on the plain allocator.
//!
//! Run with `cargo bench -p polyasm-nv2a --bench memory`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

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

fn main() {
    for (name, text) in [
        ("lines", common::generate(common::LINES)),
        ("heavy", common::generate_heavy(common::LINES)),
    ] {
        let before = ALLOCATOR.live.load(Ordering::Relaxed);
        ALLOCATOR.peak.store(before, Ordering::Relaxed);
        let bytes = common::assemble_text(&text);
        let peak = ALLOCATOR.peak.load(Ordering::Relaxed) - before;
        println!(
            "assemble/peak_heap/{name}: {:.1} MiB for {} lines ({:.1} MiB of source, {:.1} MiB of machine code)",
            peak as f64 / 1048576.0,
            common::LINES,
            text.len() as f64 / 1048576.0,
            bytes as f64 / 1048576.0
        );
    }
}
