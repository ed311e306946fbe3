//! The targets this build of the crate knows: one cargo feature per dialect.

use std::sync::OnceLock;

use polyasm_core::Registry;

/// The crate's features that choose targets, in the order `polyasm targets` lists them.
pub(crate) const FEATURES: &[&str] = &["nv2a", "vu", "masfix", "shader", "lima"];

/// Every target whose feature is on.
#[allow(clippy::vec_init_then_push, unused_mut, reason = "each target is behind its feature")]
pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut targets: Vec<&'static dyn polyasm_core::Target> = Vec::new();
        #[cfg(feature = "nv2a")]
        targets.push(&polyasm_nv2a::TARGET);
        #[cfg(feature = "vu")]
        targets.push(&polyasm_vu::TARGET);
        #[cfg(feature = "masfix")]
        targets.push(&polyasm_masfix::TARGET);
        #[cfg(feature = "shader")]
        targets.push(&polyasm_shader::TARGET);
        #[cfg(feature = "lima")]
        targets.push(&polyasm_lima::TARGET);
        Registry::new(targets)
    })
}

/// The help line of an unknown target: the targets there are, and the features that add the
/// others.
pub(crate) fn known_targets_help(first: &str) -> String {
    let names = registry().names();
    let features = FEATURES.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
    match names.is_empty() {
        true => format!("this build of polyasm-build has no target: turn on one of its features ({features})"),
        false => format!(
            "{first}: {} (polyasm-build's features {features} choose the targets it has)",
            names.join(", ")
        ),
    }
}
