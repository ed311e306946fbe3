//! The bounds that keep every assembly finite in time and memory, each reported with its own
//! code when reached. [`Limits::default`] holds the values the assembler uses; an assembly may
//! set others (`AssembleOptions::limits`), so that tests reach a limit with small inputs.

/// The most instructions a program holds: the instruction pointer is 16 bits. The bytecode
/// reader and the VM refuse longer programs whatever the limits of an assembly.
pub const MAX_INSTRUCTIONS: usize = 65_536;

/// The limits of one assembly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest macro uses may nest, counting uses in arguments and in built names (MX057).
    pub expansion_depth: usize,
    /// The deepest namespaces may nest (MX060).
    pub namespace_depth: usize,
    /// The most tokens (and macro uses) expansion may make, all files together (MX058): far
    /// more than a program of 65,536 instructions needs, and small enough to bound time and
    /// memory. A file with more tokens than this is not lexed further, and the "did you mean"
    /// work of the macro system grows with it.
    pub expanded_tokens: usize,
    /// The most namespaces name lookups may look in, all together (MX066): a use looks in its
    /// namespace, the namespaces that one uses, then in each enclosing one and those it uses,
    /// until the name is found. Far more than real programs need (a few per use), and it keeps
    /// deeply nested namespaces and long `%using` lists from making assembly quadratic.
    pub name_lookups: usize,
    /// The most instructions all compile-time calls may run together (MX065, `--ctime-steps`).
    pub ctime_steps: u64,
    /// The most instructions the program may have (MX043); [`MAX_INSTRUCTIONS`] at most, a
    /// larger value counting as that.
    pub instructions: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            expansion_depth: 1024,
            namespace_depth: 1024,
            expanded_tokens: 1 << 22,
            name_lookups: 1 << 25,
            ctime_steps: 100_000_000,
            instructions: MAX_INSTRUCTIONS,
        }
    }
}

impl Limits {
    /// The instructions a program may have under these limits and the machine's.
    pub fn max_instructions(&self) -> usize {
        self.instructions.min(MAX_INSTRUCTIONS)
    }
}
