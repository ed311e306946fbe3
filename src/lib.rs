//! The `polyasm` package: the command-line tool. Its library part is only the list of
//! targets this build knows, shared by the binary and the integration tests.

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
