//! What the nv2a benchmarks share: two generated 1,000,000-line programs and the code that
//! assembles them.

#![allow(dead_code)] // each bench binary uses part of this module

use polyasm_core::SourceMap;
use polyasm_nv2a::{AssembleOptions, assemble_with_listing};

pub const LINES: usize = 1_000_000;

/// A deterministic stream of small numbers (a 64-bit LCG): the same program on every run.
pub struct Lcg(u64);

impl Lcg {
    pub fn new() -> Lcg {
        Lcg(0x9e37_79b9_7f4a_7c15)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A deterministic mix of every statement form, with comments and blank lines (one pair in
/// about eight lines).
pub fn generate(lines: usize) -> String {
    let mut rng = Lcg::new();
    let lanes = ["", ".x", ".xyz", ".w", ".wzyx", ".yyzw"];
    let masks = ["", ".x", ".xy", ".xyz", ".w", ".yz"];
    let outputs = ["oPos", "oD0", "oD1", "oT0", "oT1", "oFog", "oDiffuse", "oTex2"];
    let mut out = String::with_capacity(lines * 32);
    out.push_str("#mvp matrix4 96\n#light vector 12\n#color vector 13\n");
    for i in 3..lines {
        let (r, s, t) = (rng.below(12), rng.below(12), rng.below(13));
        let lane = rng.pick(&lanes);
        let mask = rng.pick(&masks);
        match rng.below(16) {
            0 => out.push_str(&format!("mov r{r}{mask}, v{}{lane}", rng.below(16))),
            1 => out.push_str(&format!("mad r{r}{mask}, iPos{lane}, #mvp[{}], r{s}", rng.below(4))),
            2 => out.push_str(&format!("dp4 {}{mask}, r{t}, c{}", rng.pick(&outputs), rng.below(192))),
            3 => out.push_str(&format!("mul r{r}, r{s}, c[A0+{}] + rcp r1.w, r{t}.w", rng.below(100))),
            4 => out.push_str(&format!("mov {}, v3\n+ rsq r1.x, r{s}.x", rng.pick(&outputs))),
            5 => out.push_str(&format!("dp3 r{r}.x, r{s}, #light + lit r1, r{t}")),
            6 => out.push_str(&format!("add r{r}{mask}, -r{s}{lane}, v{}.x", rng.below(16))),
            7 => out.push_str(&format!("MAX R{r}, R{s}.xyzw, C{}", rng.below(192))),
            8 => out.push_str("; a comment line"),
            9 if i % 5 == 0 => {}
            10 => out.push_str(&format!("dp4 oPos.z, r{s}, c98 + dp4 r{r}.x, r{s}, c98")),
            11 => out.push_str(&format!("arl a0, v{}.x", rng.below(16))),
            _ => out.push_str(&format!("sge r{r}{mask}, r{s}, #color /* block */")),
        }
        if rng.below(4) == 0 {
            out.push_str("   // trailing comment");
        }
        out.push('\n');
    }
    out
}

/// The heavier program: every MAC and ILU operation, a pair on about every third line (some
/// merged into one operation with two destinations, some split over two lines), eight
/// uniforms read and written, relative constants, both operation macros, upper- and
/// lower-case spellings, and comments of every kind. About 26 bytes a line.
pub fn generate_heavy(lines: usize) -> String {
    let mut rng = Lcg::new();
    let lanes = ["", ".x", ".xy", ".xyz", ".w", ".wzyx", ".yyzw", ".zxyw"];
    let masks = ["", ".x", ".xy", ".xyz", ".w", ".yz", ".xzw", ".yw"];
    let outputs = [
        "oPos", "oD0", "oD1", "oT0", "oT1", "oT2", "oT3", "oFog", "oPts", "oB0", "oB1", "oDiffuse",
    ];
    let vectors = ["#light", "#color", "#eye", "#fog"];
    let matrices = ["#mvp", "#bones", "#normal", "#tex"];
    let mut out = String::with_capacity(lines * 28);
    out.push_str(
        "#mvp matrix4 96\n#bones matrix4 100\n#normal matrix4 104\n#tex matrix4 108\n\
         #light vector 12\n#color vector 13\n#eye vector 14\n#fog vector 15\n",
    );
    let mut written = 8;
    while written < lines {
        let (r, s, t) = (rng.below(12), rng.below(12), rng.below(13));
        let (v, c, n) = (rng.below(16), rng.below(192), rng.below(96));
        let (lane, mask) = (rng.pick(&lanes), rng.pick(&masks));
        let (output, vector, matrix) = (rng.pick(&outputs), rng.pick(&vectors), rng.pick(&matrices));
        let row = rng.below(4);
        let neg = if rng.below(3) == 0 { "-" } else { "" };
        let line = match rng.below(32) {
            // One MAC operation.
            0 => format!("mov r{r}{mask}, {neg}v{v}{lane}"),
            1 => format!("mul r{r}{mask}, {neg}r{s}{lane}, c{c}"),
            2 => format!("add r{r}{mask}, -r{s}, c[A0+{n}]{lane}"),
            3 => format!("sub {output}{mask}, r{s}, v{v}.x"),
            4 => format!("mad r{r}{mask}, v{v}{lane}, {matrix}[{row}], {neg}r{s}.w"),
            5 => format!("dp3 r{r}.x, r{s}, {vector}"),
            6 => format!("dph r{r}.y, v{v}, c{c}"),
            7 => format!("dp4 {output}.x, r{s}, {matrix}[{row}]"),
            8 => format!("dst r{r}, r{s}, r{t}"),
            9 => format!("min r{r}.xyz, {neg}r{s}, c[A0+{n}]"),
            10 => format!("MAX R{r}, R{s}.xyzw, C{c}"),
            11 => format!("slt r{r}, v{v}.zw, -r{s}"),
            12 => format!("sge r{r}{mask}, r{s}, {vector} /* block */"),
            13 => format!("arl a0, v{v}.x"),
            // One ILU operation.
            14 => format!("rcp r{r}.w, r{s}.x"),
            15 => format!("rcc r{r}.x, v{v}.y"),
            16 => format!("rsq r{r}.x, -r{s}.w"),
            17 => format!("expp r{r}, c{c}.x"),
            18 => format!("logp r{r}.xy, {neg}r{s}.z"),
            19 => format!("lit {output}, r{s}"),
            // Pairs.
            20 => format!("mul r{r}, r{s}, c[A0+{n}] + rcp r1.w, r{t}.w"),
            21 => format!("dp4 {output}.x, r{s}, c{c} + rsq r1.x, r{t}.x"),
            22 => format!("dp3 r{r}.x, v{v}, {vector} + lit r1, r{t}"),
            23 => format!("max r{r}, r{s}, c{c} + expp oFog.x, r{t}.y"),
            24 => format!("dst r{r}, r{s}, r{t} + logp r1.xy, v{v}.x"),
            25 => format!("mov {output}, v{v} + rcc r1.x, r{s}.x"),
            26 => format!("sge r{r}, v{v}, -r{s} + mov r1.yz, r{t}"),
            27 => format!("mad r{r}, r{s}, c{c}, r{t}.x + rcp r1.w, r{t}.x"),
            28 => format!("dp4 oPos.z, r{s}, c{c} + dp4 r{r}.x, r{s}, c{c}"),
            29 => format!("mov {output}{mask}, v{v}\n+ rsq r1.x, r{s}.x"),
            // Macros, and statements that produce no words.
            30 => match rng.below(4) {
                0 => format!("%matmul4x4 {output}, v{v}, {matrix}"),
                1 => format!("%norm3 r{r}, v{v}, r{}", (s + 1 + r) % 12),
                2 => "; a comment line".to_string(),
                _ => String::new(),
            },
            _ => format!("mov {vector}, v{v} + arl a0, v{v}.y"),
        };
        out.push_str(&line);
        if rng.below(4) == 0 {
            out.push_str("   // trailing comment");
        }
        out.push('\n');
        written += 1 + line.matches('\n').count();
    }
    out
}

pub fn unlimited() -> AssembleOptions {
    AssembleOptions {
        max_instructions: None,
        ..AssembleOptions::default()
    }
}

pub fn assemble_text(text: &str) -> usize {
    assemble_text_with_listing(text, true)
}

/// Assembles `text`, with the listing or without it (as for `-f bin`); returns the byte count.
pub fn assemble_text_with_listing(text: &str, listing: bool) -> usize {
    let mut sources = SourceMap::new();
    let file = sources.add("big.vsh", text);
    let outcome = assemble_with_listing(&sources, file, unlimited(), listing);
    let object = outcome.value.expect("the generated program is valid");
    object.bytes.len()
}
