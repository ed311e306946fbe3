//! Peak heap of one assembly of each generated 1,000,000-line program, beyond the source text,
//! with the listing and without it (as for `-f bin`): a counting allocator wraps the system one
//! in this binary only, so the timing benchmarks run on the plain allocator.
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

/// Assembles the text and returns the number of bytes it produced.
type Assembly = fn(&str) -> usize;

/// An assembly without listing entries, as for `-f bin`.
fn unlisted(text: &str) -> usize {
    common::assemble_text_with_listing(text, false)
}

fn main() {
    for (input, text) in [
        ("lines", common::generate(common::LINES)),
        ("heavy", common::generate_heavy(common::LINES)),
    ] {
        // With the listing (`-f listing`, `-f json`), then without it (every other format).
        let runs: [(&str, Assembly); 2] = [("peak_heap", common::assemble_text), ("peak_heap_unlisted", unlisted)];
        for (name, assemble) in runs {
            let before = ALLOCATOR.live.load(Ordering::Relaxed);
            ALLOCATOR.peak.store(before, Ordering::Relaxed);
            let bytes = assemble(&text);
            let peak = ALLOCATOR.peak.load(Ordering::Relaxed) - before;
            println!(
                "assemble/{name}/{input}: {:.1} MiB for {} lines ({:.1} MiB of source, {:.1} MiB of machine code)",
                peak as f64 / 1048576.0,
                common::LINES,
                text.len() as f64 / 1048576.0,
                bytes as f64 / 1048576.0
            );
        }
    }
}
