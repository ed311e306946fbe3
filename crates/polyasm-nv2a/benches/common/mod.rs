//! What the nv2a benchmarks share: the generated 1,000,000-line program.

use polyasm_core::SourceMap;
use polyasm_nv2a::{AssembleOptions, assemble_with_listing};

pub const LINES: usize = 1_000_000;

/// A deterministic mix of every statement form, with comments and blank lines.
pub fn generate(lines: usize) -> String {
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
            2 => out.push_str(&format!(
                "dp4 {}{mask}, r{t}, c{}",
                outputs[next(8) as usize],
                next(192)
            )),
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
