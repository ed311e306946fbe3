//! The interpreter shaders: the same bytecode run once per pixel on a GPU. They are public
//! artefacts for engines that embed shader-asm; docs/shader-gpu.md describes their interfaces.
//!
//! Each interpreter is put together from parts in `shaders/`: a head (the comment and the
//! bytecode's binding), the prelude (the frame, the registers, the memory and the helpers), the
//! function that runs one instruction, the start of `main` (the inputs), the loop over the
//! bytecode and the end of `main` (the pixel written). [`crate::native`] writes a program's own
//! statements between the same prelude, start and end.

/// The interpreter of extension `$ext`, put together from its parts in `shaders/`.
macro_rules! interpreter {
    ($ext:literal) => {
        concat!(
            include_str!(concat!("shaders/interpreter_head.", $ext)),
            include_str!(concat!("shaders/prelude.", $ext)),
            include_str!(concat!("shaders/interpreter_step.", $ext)),
            include_str!(concat!("shaders/main_start.", $ext)),
            include_str!(concat!("shaders/interpreter_loop.", $ext)),
            include_str!(concat!("shaders/main_end.", $ext)),
        )
    };
}

/// The WGSL interpreter: a compute shader, one invocation per pixel, that writes RGBA8 pixels
/// to a storage buffer in PNG row order. [`crate::gpu::GpuRenderer`] runs it.
pub const WGSL: &str = interpreter!("wgsl");

/// The GLSL 4.30 interpreter: a fragment shader for OpenGL engines, with the program in an
/// std430 shader storage buffer and the frame in a uniform block.
pub const GLSL: &str = interpreter!("glsl");

/// The parts of a native shader ([`crate::native`]): its head, then the interpreter's prelude
/// and start of `main`, the program's statements, and the end of `main`.
pub(crate) struct Parts {
    pub head: &'static str,
    pub prelude: &'static str,
    pub main_start: &'static str,
    pub main_end: &'static str,
}

pub(crate) const WGSL_PARTS: Parts = Parts {
    head: include_str!("shaders/native_head.wgsl"),
    prelude: include_str!("shaders/prelude.wgsl"),
    main_start: include_str!("shaders/main_start.wgsl"),
    main_end: include_str!("shaders/main_end.wgsl"),
};

pub(crate) const GLSL_PARTS: Parts = Parts {
    head: include_str!("shaders/native_head.glsl"),
    prelude: include_str!("shaders/prelude.glsl"),
    main_start: include_str!("shaders/main_start.glsl"),
    main_end: include_str!("shaders/main_end.glsl"),
};

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
