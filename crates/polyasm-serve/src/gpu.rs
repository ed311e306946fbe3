//! shader-asm's animated pictures: rendered on a hardware GPU when there is one (the bytecode
//! interpreter at once, then the program's own native pipeline once it is built), else by the
//! CPU renderer.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use polyasm_core::explain::Code;
use polyasm_core::picture::Image;
use polyasm_core::{Diagnostic, TargetOptions};
use polyasm_shader::exec::Frame;
use polyasm_shader::gpu::{GpuRenderer, NativePipeline};
use polyasm_shader::ops::Instr;
use polyasm_shader::render;
use polyasm_shader::run::run_settings;

use crate::check::Program;
use crate::picture::{Picture, PictureRequest};

/// Where shader-asm pictures are rendered (`polyasm serve --device`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    /// A hardware GPU when there is one, else the CPU.
    Auto,
    /// The CPU renderer only.
    Cpu,
    /// The first Vulkan adapter, a software one too (for tests); the CPU when there is none.
    Gpu,
}

/// The pictures of every page: one GPU for all, opened on the first shader frame.
pub struct Pictures {
    device: Device,
    gpu: OnceLock<Option<Arc<GpuRenderer>>>,
    /// Native pipelines by program, built in the background (the key is the program's words).
    native: Arc<Mutex<HashMap<Vec<u8>, Native>>>,
}

/// A program's native pipeline: being built, or built (or failed, then never tried again).
enum Native {
    Building,
    Built(Arc<NativePipeline>),
    Failed,
}

/// The most native pipelines kept; beyond, they are all dropped and built again when asked for.
const MAX_NATIVE: usize = 16;

/// The longest program given a native pipeline.
pub const MAX_NATIVE_INSTRUCTIONS: usize = 4096;

impl Pictures {
    /// No picture yet; the GPU, if `device` asks for one, is opened on the first shader frame.
    pub fn new(device: Device) -> Pictures {
        Pictures {
            device,
            gpu: OnceLock::new(),
            native: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The GPU in use, opening it the first time.
    pub fn gpu(&self) -> Option<&Arc<GpuRenderer>> {
        self.gpu
            .get_or_init(|| {
                if self.device == Device::Cpu {
                    return None;
                }
                let gpu = GpuRenderer::new().ok()?;
                (self.device == Device::Gpu || !gpu.is_software()).then(|| Arc::new(gpu))
            })
            .as_ref()
    }

    /// The GPU's name when one renders, without opening it.
    pub fn gpu_name(&self) -> Option<String> {
        self.gpu
            .get()
            .and_then(|g| g.as_ref())
            .map(|g| g.adapter_name().to_string())
    }

    /// A shader-asm picture of `program`; `None` for any other target's program.
    pub fn render(
        &self,
        target: &str,
        program: &Program,
        options: &TargetOptions,
        request: &PictureRequest,
    ) -> Option<Result<Picture, Box<Diagnostic>>> {
        if target != "shader" {
            return None;
        }
        Some(self.render_shader(program, options, request))
    }

    fn render_shader(
        &self,
        program: &Program,
        options: &TargetOptions,
        request: &PictureRequest,
    ) -> Result<Picture, Box<Diagnostic>> {
        let instrs = polyasm_shader::decode::read(&program.object.bytes).map_err(|_| {
            Box::new(Diagnostic::error(
                Code::InternalError,
                "the assembled program does not decode",
            ))
        })?;
        // The run's own reading of its options (`--alpha`); the size and time are the page's.
        let alpha = run_settings(options).map_err(|e| e.0)?.alpha;
        let frame = Frame {
            width: request.width,
            height: request.height,
            time: request.time,
        };
        let picture = |rgba, place| Picture {
            width: frame.width,
            height: frame.height,
            time: frame.time,
            place,
            rgba,
        };
        if let Some(gpu) = self.gpu()
            && gpu.check_size(frame.width, frame.height).is_ok()
        {
            if let Some(native) = self.native_for(gpu, &program.object.bytes, &instrs) {
                let mut rgba = Vec::new();
                if gpu.render_native_into(&native, &frame, alpha, &mut rgba).is_ok() {
                    return Ok(picture(rgba, 2));
                }
            }
            let mut rgba = Vec::new();
            if gpu.render_into(&instrs, &frame, alpha, &mut rgba).is_ok() {
                return Ok(picture(rgba, 1));
            }
        }
        let mut image = Image {
            width: 0,
            height: 0,
            rgba: Vec::new(),
        };
        render::render_into(&instrs, &frame, alpha, &mut image).map_err(|e| {
            Box::new(Diagnostic::error(
                polyasm_core::explain::Code::InvalidRunInput,
                e.to_string(),
            ))
        })?;
        Ok(picture(image.rgba, 0))
    }

    /// The program's native pipeline when it is built; else starts building it (once) on a
    /// thread of its own, so that the frames go on with the interpreter meanwhile. One is built
    /// at a time (a burst of saves builds the last version it is asked for next), and a program
    /// longer than [`MAX_NATIVE_INSTRUCTIONS`] stays with the interpreter: drivers take minutes
    /// over the longest.
    fn native_for(&self, gpu: &Arc<GpuRenderer>, key: &[u8], instrs: &[Instr]) -> Option<Arc<NativePipeline>> {
        if instrs.len() > MAX_NATIVE_INSTRUCTIONS {
            return None;
        }
        let mut native = self.native.lock().unwrap_or_else(PoisonError::into_inner);
        match native.get(key) {
            Some(Native::Built(pipeline)) => return Some(pipeline.clone()),
            Some(_) => return None,
            None => {}
        }
        if native.values().any(|n| matches!(n, Native::Building)) {
            return None;
        }
        if native.len() >= MAX_NATIVE {
            native.clear();
        }
        native.insert(key.to_vec(), Native::Building);
        drop(native);
        let gpu = gpu.clone();
        let key = key.to_vec();
        let instrs = instrs.to_vec();
        let cache = Arc::clone(&self.native);
        std::thread::spawn(move || {
            let built = gpu.native(&instrs).map(Arc::new);
            let mut native = cache.lock().unwrap_or_else(PoisonError::into_inner);
            native.insert(
                key,
                match built {
                    Ok(pipeline) => Native::Built(pipeline),
                    Err(_) => Native::Failed,
                },
            );
        });
        None
    }
}
