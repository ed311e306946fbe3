//! Lima: the ARM Mali-200/400 fragment processor ("PP"). This crate holds the dialect's
//! instruction model and everything that works on words: the opcode table ([`ops`]), the
//! instructions and their encoding ([`instr`]), the decoder ([`decode`]), the text Mesa's
//! disassembler prints ([`mesa`]), the MBS1 container ([`mbs`]) and the diagnostic codes of
//! words and containers ([`error`]). With the `proptest` feature, [`testing`] holds
//! strategies of valid instructions for other crates' round-trip tests.
//!
//! ```
//! // Mesa's tile-reload program, decoded and printed as Mesa's disassembler prints it.
//! let words = [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf];
//! let program = polyasm_lima::decode::decode(&words).expect("valid program");
//! assert_eq!(
//!     polyasm_lima::mesa::print_program(&program),
//!     "@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n"
//! );
//! let instrs: Vec<_> = program.iter().map(|d| d.instr).collect();
//! assert_eq!(polyasm_lima::instr::encode(&instrs), words);
//! ```

pub mod decode;
pub mod error;
pub mod exec;
pub mod instr;
pub mod mbs;
pub mod mesa;
pub mod ops;
pub mod run;
#[cfg(any(test, feature = "proptest"))]
pub mod testing;
