//! Runs and measures the programs build.rs assembled.

use polyasm_masfix::exec::{Limits, Machine, Program};

/// The nv2a vertex shader: four little-endian 32-bit words per instruction.
static MVP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/mvp.bin"));

/// The Masfix program as bytecode.
static HELLO: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/hello.mxb"));

// The shader-asm program's words: `pub const UV: [u32; N]`.
include!(concat!(env!("OUT_DIR"), "/uv.rs"));

fn main() {
    assert_eq!(MVP.len() % 16, 0, "nv2a instructions are 16 bytes each");
    println!("nv2a: mvp.vsh is {} instructions", MVP.len() / 16);

    // The words begin with the container's magic number, "SHBC".
    assert_eq!(UV[0].to_le_bytes(), *b"SHBC");
    println!("shader-asm: uv.sasm is {} words", UV.len());

    let bytecode = polyasm_masfix::decode::read(HELLO).expect("build.rs wrote Masfix bytecode");
    let program = Program::new(&bytecode.instrs).expect("a short program");
    let mut printed = Vec::new();
    program
        .run(
            &mut Machine::new(),
            &mut std::io::empty(),
            &mut printed,
            Limits::default(),
        )
        .expect("the program runs to its end");
    print!("masfix: hello.mx printed {}", String::from_utf8_lossy(&printed));
}
