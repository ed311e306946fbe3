//! What the GPU tests share: the one renderer, and the rule for a machine without one.

use std::sync::OnceLock;

use polyasm_shader::gpu::{GpuError, GpuRenderer};

pub const NO_GPU_VAR: &str = "POLYASM_NO_GPU";

/// The renderer shared by every test, or `None` where `POLYASM_NO_GPU=1` and no adapter exists.
pub fn gpu() -> Option<&'static GpuRenderer> {
    static GPU: OnceLock<Result<GpuRenderer, GpuError>> = OnceLock::new();
    match GPU.get_or_init(GpuRenderer::new) {
        Ok(gpu) => Some(gpu),
        Err(error) if std::env::var(NO_GPU_VAR).as_deref() == Ok("1") => {
            eprintln!("{NO_GPU_VAR}=1 and no GPU ({error}): GPU rendering not tested");
            assert!(matches!(error, GpuError::NoAdapter(_) | GpuError::Device(_)));
            None
        }
        Err(error) => panic!(
            "no GPU to test on: {error}. Install a Vulkan driver (Debian and Ubuntu: \
             `apt-get install mesa-vulkan-drivers libvulkan1`), or set {NO_GPU_VAR}=1 to run \
             without GPU tests"
        ),
    }
}
