//! The text Mesa's lima disassembler prints, byte for byte, quirks included: fields in
//! control-word order joined by `", "`, then `", sync"` and `", stop"`; a one-source vector
//! multiplier op keeps the space before its missing second source (`"mov.v0 $0 ^texture , sync"`,
//! or a line that ends in a space); constants as C's `%f`; the constant LOD bias as three hex
//! digits; load/store indices as signed 16-bit numbers; branch targets as absolute word
//! offsets. docs/lima.md shows the syntax unit by unit.
//!
//! [`read_program`] reads that text back, with or without the `@N: ` prefix, filling every bit
//! the text does not show with the value Mesa's compiler writes, so that Mesa's own output
//! reassembles to the same words:
//!
//! ```
//! use polyasm_lima::syntax::mesa::read_program;
//! let (read, errors) = read_program("@     0: load.v $1 0.xy, texld bias000 0, mov.v0 $0 ^texture , sync, stop\n");
//! assert!(errors.is_empty());
//! let program: Vec<_> = read.iter().map(|r| r.instr).collect();
//! assert_eq!(
//!     polyasm_lima::instr::words::encode(&program),
//!     [0x000005e6, 0xf1003c20, 0x00000000, 0x39001000, 0x00000e4e, 0x000007cf]
//! );
//! ```

mod operand;
mod print;
mod read;
mod word;

pub use self::operand::*;
pub use self::print::*;
pub use self::read::*;
pub use self::word::*;
