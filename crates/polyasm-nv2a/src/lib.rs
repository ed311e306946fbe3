//! nv2a (original Xbox) vertex programs: assembler, disassembler and emulator.
//!
//! The words match nv2avsh (nv2a_vsh_asm) bit for bit, unused fields included.

pub mod lexer;
pub mod ops;
pub mod parser;
