//! How a run ended: its count of steps, or why it stopped early.

use std::io;

/// What a run that ended normally did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Instructions executed (source instructions, whatever the VM fused).
    pub steps: u64,
}

/// Why a run stopped before the program ended.
#[derive(Debug)]
pub enum RunError {
    /// The instruction at index `at` jumped to `target`, past the end of the program.
    /// `steps` counts the instructions executed, the jump included.
    JumpOutOfRange {
        /// The index of the jumping instruction, counted from 0.
        at: usize,
        /// The instruction index it jumped to, at least the program's length.
        target: u16,
        /// Instructions executed, the jump included.
        steps: u64,
    },
    /// The program had executed `steps` instructions, the limit, and had not ended.
    StepLimit {
        /// Instructions executed: the limit the run was given.
        steps: u64,
    },
    /// Reading the program's input failed.
    Read(io::Error),
    /// Writing the program's output (or its trace) failed.
    Write(io::Error),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::JumpOutOfRange { at, target, .. } => {
                write!(f, "instruction {at} jumps to {target}, past the end of the program")
            }
            RunError::StepLimit { steps } => write!(f, "the step limit of {steps} was reached"),
            RunError::Read(e) => write!(f, "cannot read the program's input: {e}"),
            RunError::Write(e) => write!(f, "cannot write the program's output: {e}"),
        }
    }
}

impl std::error::Error for RunError {}
