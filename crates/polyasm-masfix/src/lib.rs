//! Masfix: a 16-bit esoteric assembly language with I/O and a macro system. This crate
//! assembles it to polyasm's Masfix bytecode, disassembles the bytecode, and runs it on a fast
//! virtual machine.
//!
//! ```
//! let bytecode = polyasm_masfix::assemble_str("ld 'H'\noutcr\n").expect("valid program");
//! let program = polyasm_masfix::decode::read(&bytecode).expect("bytecode we wrote");
//! assert_eq!(polyasm_masfix::print::print_program(&program.instrs), "ld 72\noutcr\n");
//! ```

#![warn(missing_docs)]

pub mod bytecode;
pub mod decode;
pub mod driver;
pub mod encode;
pub mod error;
pub mod exec;
pub mod expand;
pub mod expansions;
pub mod found;
#[cfg(jit)]
pub mod jit;
pub mod lexer;
pub mod limits;
pub mod ops;
mod outcome;
pub mod parser;
pub mod print;
pub mod stdlib;
mod streams;
pub mod target;

pub use crate::driver::{AssembleOptions, assemble, assemble_str};
pub use crate::limits::Limits;
pub use crate::target::{MasfixTarget, TARGET, assemble_options};
