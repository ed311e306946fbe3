//! polyasm's nv2a assembler against GNU as, in one run: each assembles a generated
//! 1,000,000-line file from disk and writes its output to disk.
//!
//! - polyasm: the heavy nv2a program (`common::generate_heavy`) to raw machine code, through the
//!   library as the command line does it (read the file, assemble without a listing, write the
//!   bytes); the library option that lifts the 136-instruction limit is the only difference.
//! - GNU as: a straight-line x86-64 SSE/AVX program of the same line count, with the same kinds
//!   of lines (two- and three-operand vector operations, memory operands through named
//!   constants, comments), run as a process: `as big.s -o big.o`.
//!
//! Run with `cargo bench -p polyasm-nv2a --bench versus_gnu_as`. Without `as` on the PATH only
//! polyasm is measured. The two inputs are left in `target/tmp/versus_gnu_as/` (`big.vsh`,
//! `big.s`) for measuring by hand, e.g. the peak memory of each process.

use std::path::Path;
use std::process::Command;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_core::SourceMap;
use polyasm_core::output::{OutputContext, write_standard};

mod common;

/// A straight-line x86-64 program of `lines` lines, mixed like the heavy nv2a program.
fn generate_x86(lines: usize) -> String {
    let mut rng = common::Lcg::new();
    let constants = ["mvp", "bones", "normal", "tex", "light", "color", "eye", "fog"];
    let mut out = String::with_capacity(lines * 28);
    out.push_str("\t.text\n\t.globl vertex\nvertex:\n");
    let mut written = 3;
    while written < lines - constants.len() - 2 {
        let (r, s, t) = (rng.below(16), rng.below(16), rng.below(16));
        let constant = rng.pick(&constants);
        let offset = rng.below(4) * 16;
        let line = match rng.below(16) {
            0 => format!("\tmovaps %xmm{s}, %xmm{r}"),
            1 => format!("\tmulps {constant}+{offset}(%rip), %xmm{r}"),
            2 => format!("\taddps %xmm{s}, %xmm{r}"),
            3 => format!("\tsubps {offset}(%rdi,%rcx,4), %xmm{r}"),
            4 => format!("\tvfmadd231ps %xmm{s}, %xmm{t}, %xmm{r}"),
            5 => format!("\tvdpps $0x71, {constant}(%rip), %xmm{s}, %xmm{r}"),
            6 => format!("\tvmaxps %xmm{s}, %xmm{t}, %xmm{r}"),
            7 => format!("\tminps %xmm{s}, %xmm{r}"),
            8 => format!("\tcmpltps %xmm{s}, %xmm{r}"),
            9 => format!("\tvrcpps %xmm{s}, %xmm{r}"),
            10 => format!("\tvrsqrtps {constant}+{offset}(%rip), %xmm{r}"),
            11 => format!("\tshufps $0x1b, %xmm{s}, %xmm{r}"),
            12 => format!("\tcvttss2si %xmm{s}, %eax"),
            13 => "# a comment line".to_string(),
            14 => format!("\tmovaps %xmm{r}, {offset}(%rsi)"),
            _ => format!("\tvblendps $0x5, %xmm{s}, %xmm{t}, %xmm{r}"),
        };
        out.push_str(&line);
        if rng.below(4) == 0 {
            out.push_str("   # trailing comment");
        }
        out.push('\n');
        written += 1;
    }
    out.push_str("\tret\n\t.section .rodata\n\t.p2align 4\n");
    for name in constants {
        out.push_str(&format!("{name}:\t.fill 16, 4, 0\n"));
    }
    out
}

/// What `polyasm -t nv2a big.vsh -o big.bin` does, without the instruction limit.
fn polyasm_file(input: &Path, output: &Path) -> usize {
    let text = std::fs::read_to_string(input).expect("the generated input is readable");
    let mut sources = SourceMap::new();
    let file = sources.add(input.display().to_string(), text);
    let outcome = polyasm_nv2a::assemble_with_listing(&sources, file, common::unlimited(), false);
    let object = outcome.value.expect("the generated program is valid");
    let ctx = OutputContext {
        sources: &sources,
        target: "nv2a",
        input_name: "big.vsh",
        symbol: "big",
    };
    let bytes = write_standard("bin", &object, &ctx).expect("bin is a standard format");
    std::fs::write(output, &bytes).expect("the output is writable");
    bytes.len()
}

fn gnu_as_file(input: &Path, output: &Path) {
    let status = Command::new("as")
        .arg(input)
        .arg("-o")
        .arg(output)
        .status()
        .expect("as runs");
    assert!(status.success(), "as assembles the generated program");
}

fn versus(c: &mut Criterion) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("versus_gnu_as");
    std::fs::create_dir_all(&dir).expect("the target folder is writable");
    let vsh = dir.join("big.vsh");
    let asm = dir.join("big.s");
    std::fs::write(&vsh, common::generate_heavy(common::LINES)).expect("writable");
    std::fs::write(&asm, generate_x86(common::LINES)).expect("writable");
    let have_as = Command::new("as")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());

    let mut group = c.benchmark_group("versus_gnu_as");
    group.sample_size(10);
    group.throughput(Throughput::Elements(common::LINES as u64));
    group.bench_function(BenchmarkId::new("polyasm_nv2a", common::LINES), |b| {
        b.iter(|| polyasm_file(&vsh, &dir.join("big.bin")))
    });
    if have_as {
        group.bench_function(BenchmarkId::new("gnu_as_x86_64", common::LINES), |b| {
            b.iter(|| gnu_as_file(&asm, &dir.join("big.o")))
        });
    } else {
        eprintln!("`as` is not on the PATH: only polyasm was measured");
    }
    group.finish();
}

criterion_group!(benches, versus);
criterion_main!(benches);
