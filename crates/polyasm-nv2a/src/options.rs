//! The options of assembling nv2a: the program's length limit, how the end is marked, and
//! where the names a program defines are recorded for editors.

use polyasm_core::editor::NameSink;

use crate::ops::MAX_INSTRUCTIONS;

/// Options of the assembler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleOptions {
    /// More instructions is an error; `None` lifts the limit (for tests and benchmarks).
    pub max_instructions: Option<usize>,
    /// Append the `[0, 0, 0, 1]` final marker instead of setting FINAL on the last instruction.
    pub explicit_final: bool,
    /// Where uniforms and their uses are recorded, for editors.
    pub names: Option<NameSink>,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            max_instructions: Some(MAX_INSTRUCTIONS),
            explicit_final: false,
            names: None,
        }
    }
}
