//! Dreambox VU programs assembled at compile time: `vu_asm!` takes the program as Rust tokens,
//! `vu_asm_file!` reads it from a file. Both expand to the program's words, a `[u32; N]`.
//!
//! `vu_asm!` is a drop-in for the macro of the `dbsdk-vu-asm` crate: it accepts what that
//! macro accepts and gives the same words, so a crate switches by changing its `use` line.
//! Mistakes are compile errors at the token, with the message, code and help line of the
//! `polyasm` command line, and every mistake in the call is reported, not only the first.
//!
//! ```
//! use polyasm_vu_macros::vu_asm;
//!
//! // Transform the position by the matrix in constants 0-3; pass the colour through.
//! const TRANSFORM: [u32; 10] = vu_asm! {
//!     ld r0 0        // position
//!     ld r1 2        // colour
//!     ldc r4 0 ldc r5 1 ldc r6 2 ldc r7 3   // several statements may share a line
//!     mulm r0 r4
//!     st pos r0
//!     st col r1
//! };
//! assert_eq!(TRANSFORM[6], 0x0000_1018); // mulm r0 r4: opcode 24, dst 0, src 4
//! assert_eq!(TRANSFORM[9], 0x3f); // the appended `end`
//! ```
//!
//! `vu_asm_file!("shaders/transform.vu")` reads a file in polyasm's VU syntax (one statement
//! per line, `.word` allowed), relative to the folder of the crate's `Cargo.toml`, and the
//! crate is rebuilt when the file changes. Its errors name the file, line and column.
//!
//! The syntax and every diagnostic are described in polyasm's `docs/vu.md`; the macros in
//! `docs/rust-macros.md`.

#![warn(missing_docs)]

mod expand;
mod tokens;

use proc_macro::TokenStream;

/// Assembles the Dreambox VU program written inside the call into its words, a `[u32; N]`.
///
/// The program is Rust tokens, as for `dbsdk_vu_asm::vu_asm!`: statements need no line
/// breaks between them, comments are Rust's, numbers are Rust integer literals. An `end` is
/// appended when the program has fewer than 64 instructions.
///
/// ```
/// use polyasm_vu_macros::vu_asm;
///
/// let words = vu_asm! {
///     ld r0 0
///     st pos r0
/// };
/// assert_eq!(words, [0x000, 0x001, 0x03f]);
/// ```
#[proc_macro]
pub fn vu_asm(input: TokenStream) -> TokenStream {
    expand::inline(input.into()).into()
}

/// Assembles the Dreambox VU source file named by a string literal into its words, a
/// `[u32; N]`. A relative path is relative to the folder of the calling crate's `Cargo.toml`.
/// The file is read as the `polyasm` command line reads a `.vu` file.
///
/// ```
/// use polyasm_vu_macros::vu_asm_file;
///
/// // tests/files/transform.vu: nine statements, one per line, with comments.
/// const TRANSFORM: [u32; 10] = vu_asm_file!("tests/files/transform.vu");
/// assert_eq!(TRANSFORM[9], 0x3f);
/// ```
#[proc_macro]
pub fn vu_asm_file(input: TokenStream) -> TokenStream {
    expand::file(input.into()).into()
}
