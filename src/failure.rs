//! How a command ended: the exit codes of the CLI contract.

/// Why a command did not succeed; each is reported before it is returned.
#[derive(Debug)]
pub enum Failure {
    /// Assembly, run or I/O errors (exit 1); already reported.
    Errors,
    /// A usage error (exit 2); already reported.
    Usage,
    /// A program run by `polyasm run` ended with this exit status (not 0); already reported.
    Exit(u8),
}

pub type Result<T = ()> = std::result::Result<T, Failure>;
