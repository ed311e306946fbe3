//! Lima: the ARM Mali-200/400 fragment processor ("PP"). This crate holds the dialect's
//! instruction model and everything that works on words: the opcode table ([`ops`]), the
//! instructions and their encoding ([`instr`]), the decoder ([`decode`]), the text Mesa's
//! disassembler prints ([`mesa`]) and the MBS1 container ([`mbs`]).

pub mod decode;
pub mod instr;
pub mod mesa;
pub mod ops;
#[cfg(any(test, feature = "proptest"))]
pub mod testing;
