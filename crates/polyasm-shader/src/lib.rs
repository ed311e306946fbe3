//! shader-asm for polyasm: a tiny assembly language run once per pixel. The crate assembles
//! it to a documented bytecode, disassembles that, renders it on the CPU, and interprets the
//! same bytecode on a GPU.

pub mod exec;
pub mod gpu;
pub mod ops;
pub mod runtime;
