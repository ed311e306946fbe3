//! The `polyasm` package: the command-line tool. Its library part is only the list of
//! targets this build knows, shared by the binary and the integration tests.
//!
//! Each dialect is a crate of its own (`polyasm-vu`, `polyasm-nv2a`, `polyasm-masfix`,
//! `polyasm-shader`, `polyasm-lima`) behind the `polyasm_core::Target` trait; [`registry`]
//! holds them all, and finds the one for a file by its extension:
//!
//! ```
//! use polyasm_core::{SourceMap, TargetOptions};
//!
//! let target = polyasm::registry().by_path("wave.vu").expect("`.vu` is the VU's");
//! assert_eq!(target.info().name, "vu");
//!
//! let mut sources = SourceMap::new();
//! let file = sources.add("wave.vu", "ld r0 0\nst pos r0\n");
//! let outcome = target.assemble(&mut sources, file, &TargetOptions::default(), &mut std::io::sink());
//! let object = outcome.value.expect("no errors");
//! assert_eq!(object.words().collect::<Vec<u32>>(), [0x000, 0x001, 0x03f]);
//! ```

#![warn(missing_docs)]

use std::sync::OnceLock;

use polyasm_core::Registry;

/// Every target this build knows.
pub fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        Registry::new(vec![
            &polyasm_nv2a::TARGET,
            &polyasm_vu::TARGET,
            &polyasm_masfix::TARGET,
            &polyasm_shader::TARGET,
            &polyasm_lima::TARGET,
        ])
    })
}

/// The examples of docs/library.md, run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryDocs;
