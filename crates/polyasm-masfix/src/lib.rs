//! Masfix: a 16-bit esoteric assembly language with I/O and a macro system. This crate
//! assembles it to polyasm's Masfix bytecode, disassembles the bytecode, and runs it on a fast
//! virtual machine.

pub mod exec;
pub mod lexer;
pub mod ops;
pub mod parser;
