//! Assembling speed, in source lines per second: a generated 1,000,000-line program in the
//! proposed syntax that uses every unit (varyings of every form, `texld` with `sync`, uniform
//! and temporary loads, the four ALUs with swizzles, masks, modifiers and constants, the
//! complex unit, stores, framebuffer reads, labels and branches, comments and blank lines), and
//! the same program as Mesa's disassembler prints it. Each is assembled from text to words
//! without a listing, as the command line does.
//!
//! Run with `cargo bench -p polyasm-lima --bench assemble`. The inputs are left in
//! `target/tmp/lima_assemble/` for measuring the whole process by hand: `big.pp` (the
//! proposed syntax), `big-mesa.txt` (Mesa's text) and `errors-N.pp` (N lines, an error on
//! every one, for N = 250,000, 500,000 and 1,000,000).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use polyasm_core::{SourceId, SourceMap};
use polyasm_lima::{AssembleOptions, Syntax, assemble};

/// The lines of the generated program.
const LINES: usize = 1_000_000;

/// A small deterministic generator (a 64-bit linear congruential one).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const SWIZZLES: &[&str] = &["", ".xyzw", ".wzyx", ".xxxx", ".yzx", ".x", ".zwxy", ".xy"];
const MASKS: &[&str] = &["", ".x", ".xy", ".xyz", ".yw", ".z"];
const LANES: &[&str] = &["x", "y", "z", "w"];
const CONSTANTS: &[&str] = &[
    "1.0", "0.5", "-2", "0.25", "0.0", "-0.0", "65504", "inf", "0x7e00", "3.75",
];
const VEC_MUL: &[&str] = &["mul", "mul_x2", "mul_d4_sat", "min", "max", "ge", "and"];
const VEC_ACC: &[&str] = &["add", "add_sat", "min", "max_pos", "eq"];
const VEC_ACC_ONE: &[&str] = &["fract", "floor", "ceil", "sum3", "sum4", "mov_int"];
const COMPLEX: &[&str] = &["rcp", "sqrt", "rsqrt", "exp2", "log2", "sin_sat", "cos"];
const CONDS: &[&str] = &["lt", "eq", "le", "gt", "ne", "ge"];

/// A register with a source's modifiers and swizzle: `-abs($2.wzyx)`.
fn vec_source(rng: &mut Lcg) -> String {
    let reg = rng.below(6);
    let swizzle = rng.pick(SWIZZLES);
    match rng.below(6) {
        0 => format!("-${reg}{swizzle}"),
        1 => format!("abs(${reg}{swizzle})"),
        2 => format!("-abs(${reg}{swizzle})"),
        _ => format!("${reg}{swizzle}"),
    }
}

fn scalar(rng: &mut Lcg) -> String {
    format!("${}.{}", rng.below(6), rng.pick(LANES))
}

fn dest(rng: &mut Lcg) -> String {
    format!("${}{}", rng.below(6), rng.pick(MASKS))
}

fn constants(rng: &mut Lcg, which: usize) -> String {
    let c: Vec<&str> = (0..4).map(|_| rng.pick(CONSTANTS)).collect();
    format!("const{which} {} {} {} {}", c[0], c[1], c[2], c[3])
}

/// One instruction line.
fn instruction(rng: &mut Lcg, labels: usize) -> String {
    let r = rng.below(6);
    let n = rng.below(16);
    match rng.below(14) {
        0 => format!("load.v {} {n}.xy", dest(rng)),
        1 => format!("load_perspective_w.v ${r} {}.{}+{}", n, rng.pick(LANES), scalar(rng)),
        2 => format!(
            "sync, load.v ^discard {n}.xy, texld {}, mov.v0 ${r} ^texture{}",
            rng.below(16),
            rng.pick(SWIZZLES)
        ),
        3 => format!(
            "sync, load.v $1 normalize(${r}.xyz), texld_lod 2 {}, dFdx.v1 $2 $1 $1",
            scalar(rng)
        ),
        4 => format!(
            "load.u {}, mov.v0 {} ^uniform{}, add.s1 {} {} {}",
            rng.below(4096),
            dest(rng),
            rng.pick(SWIZZLES),
            scalar(rng),
            scalar(rng),
            scalar(rng)
        ),
        5 => format!(
            "{}.v0 ^v0 {} {}, {}.v1 {} -^v0{} {}",
            rng.pick(VEC_MUL),
            vec_source(rng),
            vec_source(rng),
            rng.pick(VEC_ACC),
            dest(rng),
            rng.pick(SWIZZLES),
            vec_source(rng)
        ),
        6 => format!(
            "mul.s0 ^s0 {} {}, add_sat.s1 {} ^s0 {}, {}.s2 {} {}",
            scalar(rng),
            scalar(rng),
            scalar(rng),
            scalar(rng),
            rng.pick(COMPLEX),
            scalar(rng),
            scalar(rng)
        ),
        7 => format!(
            "mov.v0 {} ^const0{}, {}.v1 {} ^const1.w, {}, {}",
            dest(rng),
            rng.pick(SWIZZLES),
            rng.pick(VEC_ACC_ONE),
            dest(rng),
            constants(rng, 0),
            constants(rng, 1)
        ),
        8 => format!(
            "mul.s2 ${r} {} ${}.wzyx, store.t {n}.z {}",
            scalar(rng),
            rng.below(6),
            scalar(rng)
        ),
        9 => format!("load.t {n}+{}, store.t {} ${r}", scalar(rng), rng.below(1000)),
        10 if labels > 0 => format!(
            "branch_{} {} {} L{}",
            rng.pick(CONDS),
            scalar(rng),
            scalar(rng),
            rng.below(labels)
        ),
        10 => "nop".to_string(),
        11 => format!("fb_color ${r}, branch L{}", rng.below(labels.max(1))),
        12 => format!(
            "ne.s0 ^s0 {} {}, sel.v1 {} {} {}",
            scalar(rng),
            scalar(rng),
            dest(rng),
            vec_source(rng),
            vec_source(rng)
        ),
        _ => format!("atan2.s2 ${r}.xyz {} {}", scalar(rng), scalar(rng)),
    }
}

/// The proposed-syntax program of exactly `lines` lines, the last `stop`. A label every 64
/// lines; branches go back, or forward at most 16 labels.
fn generate(lines: usize) -> String {
    let mut rng = Lcg(0x5eed_11a4);
    let labels = (lines - 2) / 64;
    let mut out = String::with_capacity(lines * 40);
    out.push_str("# A generated program for the assembling bench.\n");
    let mut defined = 0;
    for written in 1..lines - 1 {
        let line = if written % 64 == 0 {
            defined += 1;
            format!("L{}:", defined - 1)
        } else {
            match rng.below(64) {
                1 => "# a comment line".to_string(),
                2 => String::new(),
                _ => {
                    let mut line = instruction(&mut rng, labels.min(defined + 16));
                    if rng.below(8) == 0 {
                        line.push_str("   # trailing comment");
                    }
                    line
                }
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("stop\n");
    out
}

/// `lines` lines, each with an error of another kind.
fn generate_errors(lines: usize) -> String {
    let mut rng = Lcg(0xe770_0075);
    let mut out = String::with_capacity(lines * 24);
    for i in 0..lines {
        let r = rng.below(6);
        let line = match i % 8 {
            0 => format!("mvo.v0 ${r} $1"),
            1 => format!("mov.v0 ${r} $1 $2"),
            2 => format!("mov.v0 ${r}.xq $1"),
            3 => format!("branch L{i}"),
            4 => format!("add.v1 ${r} ^v0 $1"),
            5 => "mov.v0 $1 abs($2".to_string(),
            6 => "mov.v0 $1 ^const0, const0 1.1 0 0 0".to_string(),
            _ => format!("rcp.s2 ${r}.x $99.x"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Assembles source `file` of `sources` from text to words, as the command line does; the
/// length of the words.
fn assemble_source(sources: &SourceMap, file: SourceId, syntax: Syntax) -> usize {
    let options = AssembleOptions {
        syntax: Some(syntax),
        listing: false,
        names: None,
    };
    let outcome = assemble(sources, file, &options);
    assert!(outcome.diagnostics.is_empty(), "{:?}", &outcome.diagnostics[..1]);
    outcome.value.expect("the generated program is valid").bytes.len()
}

/// The same program as Mesa's disassembler prints it.
fn to_mesa(proposed: &str) -> String {
    let instrs = polyasm_lima::syntax::proposed::assemble_proposed_text(proposed)
        .unwrap_or_else(|d| panic!("the generated program is valid: {:?}", d.first()));
    let words = polyasm_lima::instr::words::encode(&instrs);
    let program = polyasm_lima::decode::decode(&words).expect("assembled words decode");
    polyasm_lima::syntax::mesa::print_program(&program)
}

fn bench(c: &mut Criterion) {
    let proposed = generate(LINES);
    assert_eq!(proposed.lines().count(), LINES);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("lima_assemble");
    std::fs::create_dir_all(&dir).expect("the target folder is writable");
    std::fs::write(dir.join("big.pp"), &proposed).expect("the target folder is writable");
    let mesa = to_mesa(&proposed);
    std::fs::write(dir.join("big-mesa.txt"), &mesa).expect("the target folder is writable");
    for lines in [250_000, 500_000, 1_000_000] {
        let name = format!("errors-{lines}.pp");
        std::fs::write(dir.join(name), generate_errors(lines)).expect("the target folder is writable");
    }

    let mut group = c.benchmark_group("assemble");
    group.sample_size(10);
    for (name, text, syntax) in [("proposed", &proposed, Syntax::Proposed), ("mesa", &mesa, Syntax::Mesa)] {
        group.throughput(Throughput::Elements(text.lines().count() as u64));
        // The text goes into a source map once: copying it is not assembling.
        let mut sources = SourceMap::new();
        let file = sources.add(name, text.as_str());
        group.bench_function(name, |b| b.iter(|| assemble_source(&sources, file, syntax)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
