//! The interpreter shaders: the same bytecode run once per pixel on a GPU. They are public
//! artefacts for engines that embed shader-asm; docs/shader-gpu.md describes their interfaces.

/// The WGSL interpreter: a compute shader, one invocation per pixel, that writes RGBA8 pixels
/// to a storage buffer in PNG row order. [`crate::gpu::GpuRenderer`] runs it.
pub const WGSL: &str = include_str!("shaders/interpreter.wgsl");

/// The GLSL 4.30 interpreter: a fragment shader for OpenGL engines, with the program in an
/// std430 shader storage buffer and the frame in a uniform block.
pub const GLSL: &str = include_str!("shaders/interpreter.glsl");

/// Both, as `polyasm -t shader --emit-runtime NAME` prints them.
pub static RUNTIMES: &[polyasm_core::Runtime] = &[
    polyasm_core::Runtime {
        name: "wgsl",
        description: "the WGSL interpreter (a compute shader, for WebGPU and wgpu)",
        text: WGSL,
    },
    polyasm_core::Runtime {
        name: "glsl",
        description: "the GLSL 4.30 interpreter (a fragment shader, for OpenGL)",
        text: GLSL,
    },
];

/// The WGSL shader's entry point.
pub const WGSL_ENTRY_POINT: &str = "main";

/// The WGSL shader's workgroup is this many pixels wide and this many high.
pub const WORKGROUP_SIDE: u32 = 8;

/// Bytes of the WGSL shader's `Frame` uniform: count, width, height, time, alpha mode, padding.
pub const WGSL_FRAME_BYTES: usize = 32;
