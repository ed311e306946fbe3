//! Sets `cfg(jit)` where native code can be generated: the `jit` feature is on and Cranelift
//! has a back end for the target's architecture. Elsewhere the crate builds with the VM only.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(jit)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let supported = matches!(arch.as_str(), "x86_64" | "aarch64" | "riscv64" | "s390x");
    if supported && std::env::var_os("CARGO_FEATURE_JIT").is_some() {
        println!("cargo::rustc-cfg=jit");
    }
}
