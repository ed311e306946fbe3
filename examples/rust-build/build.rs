//! Assembles the programs under asm/ into OUT_DIR, where src/main.rs embeds them.

use polyasm_build::{Format, assemble};

fn main() -> Result<(), polyasm_build::Error> {
    println!("cargo:rerun-if-changed=build.rs");
    // $OUT_DIR/mvp.bin: the nv2a words, little-endian.
    assemble("asm/mvp.vsh").out_dir()?;
    // $OUT_DIR/hello.mxb: Masfix bytecode; its macros are in asm/lib.
    assemble("asm/hello.mx").include_dir("asm/lib").to("hello.mxb")?;
    // $OUT_DIR/uv.rs: `pub const UV: [u32; N]`, for include!.
    assemble("asm/uv.sasm").format(Format::Rust).out_dir()?;
    Ok(())
}
