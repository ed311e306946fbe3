//! Assemble [polyasm](https://github.com/polyasm/polyasm) programs from a Cargo build script.
//!
//! [`assemble`] starts a builder for one source file (nv2a `.vsh`, Dreambox VU `.vu`, Masfix
//! `.mx`, shader-asm `.sasm`, Lima `.pp`; the target comes from the extension unless
//! [`Assemble::target`] names it). [`Assemble::out_dir`] writes the output to
//! `$OUT_DIR/<stem>.<ext>`, where the crate embeds it:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), polyasm_build::Error> {
//!     polyasm_build::assemble("shaders/mvp.vsh")
//!         .format(polyasm_build::Format::Bin)
//!         .include_dir("shaders/lib")
//!         .out_dir()?; // $OUT_DIR/mvp.bin
//!     Ok(())
//! }
//! // src/main.rs: static MVP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/mvp.bin"));
//! ```
//!
//! While it assembles, the builder prints what Cargo needs:
//!
//! - `cargo:rerun-if-changed=PATH` for the source and for every file it included, so that the
//!   build script runs again when one of them changes (and only then: add
//!   `cargo:rerun-if-changed=build.rs` yourself if the script should also rerun when it changes);
//! - `cargo:warning=FILE:LINE:COL: warning[CODE]: message` for each warning, and a line for each
//!   of its notes and its help (Cargo shows one line per warning); errors are printed the same
//!   way, and come back as an [`Error`] whose text is the report `polyasm` prints. Returning it
//!   from `main` (or `.unwrap()`) fails the build with that report.
//!
//! Relative paths are relative to the package (the folder of its Cargo.toml), whatever the
//! current folder. Every file read must be inside the package, because Cargo publishes nothing
//! else ([`Assemble::allow_outside_package`] lifts that). The output is written atomically,
//! and not at all when it already holds the same bytes, so that nothing that depends on its
//! time of change is rebuilt for nothing.
//!
//! [`Assemble::run`] assembles without writing a file, and [`Assemble::messages_to`] sends
//! Cargo's lines to any writer:
//!
//! ```
//! # let dir = tempfile::tempdir().unwrap();
//! # std::fs::write(dir.path().join("copy.vsh"), "mov oPos, v0\n").unwrap();
//! let mut cargo = Vec::new();
//! let output = polyasm_build::assemble("copy.vsh")
//!     .manifest_dir(dir.path()) // in a build script, Cargo's CARGO_MANIFEST_DIR
//!     .messages_to(&mut cargo)
//!     .run()
//!     .expect("the program assembles");
//! assert_eq!(output.bytes().len(), 16); // one nv2a instruction: four 32-bit words
//! assert_eq!(output.file_name(), "copy.bin");
//! let cargo = String::from_utf8(cargo).unwrap();
//! assert!(cargo.starts_with("cargo:rerun-if-changed="));
//! assert!(cargo.trim_end().ends_with("copy.vsh"));
//! ```
//!
//! Each dialect is a cargo feature (`nv2a`, `vu`, `masfix`, `shader`, `lima`; all on by
//! default): `default-features = false, features = ["nv2a"]` builds only what nv2a needs.

#![warn(missing_docs)]

mod builder;
mod cargo;
mod error;
mod format;
mod package;
mod targets;

pub use crate::builder::{Assemble, Assembled, assemble};
pub use crate::error::Error;
pub use crate::format::Format;
