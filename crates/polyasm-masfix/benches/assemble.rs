//! Assembling speed, in source lines per second: a plain program of 65,536 instructions (the
//! most a program holds), and a macro-heavy one (nested macros, namespaces, constants,
//! compile-time calls) of the same size after expansion. Both must be linear: the numbers for
//! half the size are printed beside them.
//!
//! Run with `cargo bench -p polyasm-masfix --bench assemble`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use polyasm_core::SourceMap;
use polyasm_masfix::{AssembleOptions, assemble};

/// `instructions` instructions of every shape, with labels and comments.
fn plain(instructions: usize) -> String {
    let shapes = [
        "ld 5",
        "ldamt 2",
        "str&m> 10",
        "mova 1",
        "lmltra 7",
        "seq 56",
        "outcmt 2",
        "outur",
        "swap",
        "inc",
        "inum",
        "bne top",
        "jmp top",
        "ldp",
        "strtrs 5",
        "brltm< 15",
    ];
    let mut out = String::with_capacity(instructions * 16);
    out.push_str(":top\n");
    for i in 0..instructions {
        if i % 64 == 0 {
            out.push_str(&format!(":l{i} ; a block\n"));
        }
        out.push_str(shapes[i % shapes.len()]);
        out.push('\n');
    }
    out
}

/// A program whose `instructions` instructions all come from macros: each use of `%block`
/// makes 16 through three levels of macros in two namespaces, with constants and a
/// compile-time counter.
fn macro_heavy(instructions: usize) -> String {
    let mut out = String::from(
        "%define step 3\n\
         %macro counter() {\n  mov 0\n  stra 1\n  ldm\n}\n\
         %namespace lib {\n\
           %macro pair(a, b) {\n    ld %a\n    lda %b\n  }\n\
           %namespace io { %macro show(v) { outc %v\n outur } }\n\
         }\n\
         %using lib\n\
         %macro quad(x) {\n  %pair(%x, %step)\n  %io:show('a')\n}\n\
         %macro block(n) {\n  %quad(%n)\n  %quad(!counter())\n  %quad(7)\n  %quad(%step)\n}\n",
    );
    for i in 0..instructions / 16 {
        out.push_str(&format!("%block({})\n", i % 1000));
    }
    out
}

fn assemble_text(text: &str) -> usize {
    let mut sources = SourceMap::new();
    let file = sources.add("bench.mx", text);
    let options = AssembleOptions {
        listing: false,
        ..AssembleOptions::default()
    };
    let outcome = assemble(&mut sources, file, &options, &mut std::io::sink());
    outcome.value.expect("the generated program is valid").bytes.len()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("assemble");
    group.sample_size(10);
    for (name, generate) in [("plain", plain as fn(usize) -> String), ("macro_heavy", macro_heavy)] {
        for instructions in [32_768, 65_536] {
            let text = generate(instructions);
            group.throughput(Throughput::Elements(text.lines().count() as u64));
            group.bench_with_input(BenchmarkId::new(name, instructions), &text, |b, text| {
                b.iter(|| assemble_text(text))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
