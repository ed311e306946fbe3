//! The two syntaxes of the Lima fragment processor: [`proposed`], the proposed fragment
//! syntax (destination first), and [`mesa`], the text Mesa's disassembler prints. Each reads
//! source into [`crate::instr::Instr`]s and prints them back.

pub mod mesa;
pub mod proposed;
