//! The two syntaxes of the Lima fragment processor: [`proposed`], the proposed fragment
//! syntax (destination first), and [`mesa`], the text Mesa's disassembler prints. Each reads
//! source into [`crate::instr::Instr`]s, its operands' pieces lowered to the model by one
//! shared lowering (`lower.rs`); one printer walk (`print.rs`) writes them back in either.

mod lower;
pub mod mesa;
mod operation;
mod print;
pub mod proposed;

/// The syntax of a source, or of a disassembly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// The proposed fragment syntax, destination first (docs/lima.md).
    Proposed,
    /// The text Mesa's lima disassembler prints.
    Mesa,
}

impl Syntax {
    /// Every syntax's `--syntax` name, in the order of the variants.
    pub const NAMES: [&'static str; 2] = ["proposed", "mesa"];

    /// The syntax called `name` on the command line.
    pub fn from_name(name: &str) -> Option<Syntax> {
        let all = [Syntax::Proposed, Syntax::Mesa];
        Syntax::NAMES.iter().position(|n| *n == name).map(|i| all[i])
    }
}

/// Whether a branch can go `relative` words: the field holds 27 bits with the sign.
fn in_branch_range(relative: i64) -> bool {
    (-(1i64 << 26)..(1i64 << 26)).contains(&relative)
}
