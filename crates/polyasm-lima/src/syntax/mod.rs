//! The two syntaxes of the Lima fragment processor: [`proposed`], the proposed fragment
//! syntax (destination first), and [`mesa`], the text Mesa's disassembler prints. Each reads
//! source into [`crate::instr::Instr`]s; one printer walk (`print.rs`) writes them back in
//! either.

pub mod mesa;
mod print;
pub mod proposed;
