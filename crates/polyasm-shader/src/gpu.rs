//! The GPU renderer: the bytecode interpreted by [`runtime::WGSL`] in a
//! compute shader through wgpu, headless (Vulkan, no window), read back into an [`Image`]. A
//! program may also be compiled to its own shader ([`crate::native::wgsl`]) once, with
//! [`GpuRenderer::native`], and rendered from it with [`GpuRenderer::render_native`].
//!
//! ```no_run
//! use polyasm_shader::exec::{Alpha, Frame};
//! use polyasm_shader::gpu::GpuRenderer;
//!
//! let gpu = GpuRenderer::new()?;
//! let frame = Frame { width: 640, height: 360, time: 0.0 };
//! let image = gpu.render(&[], &frame, Alpha::Opaque)?;
//! assert_eq!(image.rgba.len(), 640 * 360 * 4);
//! # Ok::<(), polyasm_shader::gpu::GpuError>(())
//! ```

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};

use crate::exec::{Alpha, Frame, Image};
use crate::ops::{INSTRUCTION_BYTES, Instr, MAX_INSTRUCTIONS, UnpackError};
use crate::{native, runtime};

/// Environment variable naming the adapter to use: a part of its name, any case.
pub const ADAPTER_NAME_VAR: &str = "WGPU_ADAPTER_NAME";

/// The most bytes of pixels one frame may take, whatever the adapter allows: it keeps every
/// pixel index within a `u32` in the shader.
pub const MAX_FRAME_BYTES: u64 = 1 << 32;

/// Why the GPU could not render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// No Vulkan adapter was found (no driver, or none matching [`ADAPTER_NAME_VAR`]).
    NoAdapter(String),
    /// The adapter would not open a device.
    Device(String),
    /// The device stopped working (driver reset, removed, crashed).
    DeviceLost(String),
    /// The GPU ran out of memory.
    OutOfMemory(String),
    /// The image holds more pixels than this adapter can render in one frame.
    TooLarge {
        /// The image's width in pixels.
        width: u32,
        /// The image's height in pixels.
        height: u32,
        /// The most pixels this adapter renders.
        max_pixels: u64,
    },
    /// The program has more instructions than the bytecode allows.
    ProgramTooLong {
        /// How many instructions the program has.
        len: usize,
    },
    /// An instruction names registers or fields the bytecode does not allow.
    Instruction {
        /// The instruction's index in the program, from 0.
        index: usize,
        /// Why its words are no instruction.
        error: UnpackError,
    },
    /// A [`NativePipeline`] was given to a renderer other than the one that built it.
    OtherRenderer,
    /// Anything else the driver or wgpu reported.
    Driver(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter(why) => write!(f, "no GPU adapter found: {why}"),
            GpuError::Device(why) => write!(f, "the GPU adapter would not open a device: {why}"),
            GpuError::DeviceLost(why) => write!(f, "the GPU device was lost: {why}"),
            GpuError::OutOfMemory(why) => write!(f, "the GPU ran out of memory: {why}"),
            GpuError::TooLarge {
                width,
                height,
                max_pixels,
            } => write!(
                f,
                "a {width}x{height} image is too large for this GPU: at most {max_pixels} pixels \
                 in one frame"
            ),
            GpuError::ProgramTooLong { len } => {
                write!(f, "the program has {len} instructions; the most is {MAX_INSTRUCTIONS}")
            }
            GpuError::Instruction { index, error } => {
                write!(f, "instruction {index} is not valid bytecode: {error:?}")
            }
            GpuError::OtherRenderer => {
                write!(f, "the native pipeline was built by another GPU renderer")
            }
            GpuError::Driver(why) => write!(f, "the GPU driver reported an error: {why}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A GPU with the interpreter pipeline built, ready to render frames. The buffers of the last
/// frame are kept for the next one, so an animation allocates only when the size grows.
pub struct GpuRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    /// Tells this renderer's native pipelines from others'.
    id: u64,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    /// The interpreter's layout, which native pipelines share: a native shader binds all but
    /// the program, so one bind group serves both.
    pipeline_layout: wgpu::PipelineLayout,
    frame_uniform: wgpu::Buffer,
    program: wgpu::Buffer,
    max_pixels: u64,
    max_workgroups: u32,
    /// Pixel buffers, grown on demand; the lock also serialises frames.
    pixels: Mutex<Option<PixelBuffers>>,
    /// Why the device was lost, once it is.
    lost: Arc<Mutex<Option<String>>>,
    /// An error wgpu reported outside any error scope.
    uncaptured: Arc<Mutex<Option<String>>>,
}

/// A program compiled to its own compute shader ([`native::wgsl`]) on one renderer, built by
/// [`GpuRenderer::native`] and rendered by [`GpuRenderer::render_native`] on that renderer. It
/// may be built on one thread and used on others; dropping it frees the pipeline.
pub struct NativePipeline {
    pipeline: wgpu::ComputePipeline,
    /// The renderer that built it.
    renderer: u64,
    instructions: usize,
}

impl NativePipeline {
    /// How many instructions the program has.
    pub fn instructions(&self) -> usize {
        self.instructions
    }
}

impl fmt::Debug for NativePipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NativePipeline")
            .field("instructions", &self.instructions)
            .finish_non_exhaustive()
    }
}

/// Counts the renderers opened, to give each its own number.
static RENDERERS: AtomicU64 = AtomicU64::new(0);

/// The storage buffer the shader writes and the buffer it is copied to for reading.
struct PixelBuffers {
    storage: wgpu::Buffer,
    readback: wgpu::Buffer,
    bytes: u64,
}

impl fmt::Debug for GpuRenderer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuRenderer")
            .field("adapter", &self.info.name)
            .field("max_pixels", &self.max_pixels)
            .finish_non_exhaustive()
    }
}

/// The error scopes of one piece of work, popped innermost first.
struct Scopes {
    internal: wgpu::ErrorScopeGuard,
    validation: wgpu::ErrorScopeGuard,
    memory: wgpu::ErrorScopeGuard,
}

impl Scopes {
    fn push(device: &wgpu::Device) -> Scopes {
        let memory = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
        Scopes {
            internal,
            validation,
            memory,
        }
    }

    /// The first error any scope caught.
    fn pop(self) -> Result<(), GpuError> {
        let internal = pollster::block_on(self.internal.pop());
        let validation = pollster::block_on(self.validation.pop());
        let memory = pollster::block_on(self.memory.pop());
        match memory.or(validation).or(internal) {
            None => Ok(()),
            Some(wgpu::Error::OutOfMemory { source }) => Err(GpuError::OutOfMemory(source.to_string())),
            Some(error) => Err(GpuError::Driver(error.to_string())),
        }
    }
}

fn take(slot: &Mutex<Option<String>>) -> Option<String> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

fn peek(slot: &Mutex<Option<String>>) -> Option<String> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

impl GpuRenderer {
    /// Opens the first Vulkan adapter (a discrete GPU before an integrated one before a
    /// software one; [`ADAPTER_NAME_VAR`] picks one by name) and builds the pipeline.
    pub fn new() -> Result<GpuRenderer, GpuError> {
        pollster::block_on(GpuRenderer::open())
    }

    async fn open() -> Result<GpuRenderer, GpuError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = wgpu::Backends::VULKAN;
        // Validation layers and non-conformant drivers only when the environment asks.
        descriptor.flags = wgpu::InstanceFlags::empty().with_env();
        let instance = wgpu::Instance::new(descriptor);
        let adapter = match std::env::var(ADAPTER_NAME_VAR) {
            Ok(wanted) => {
                let wanted = wanted.to_lowercase();
                let adapters = instance.enumerate_adapters(wgpu::Backends::VULKAN).await;
                let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
                adapters
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&wanted))
                    .ok_or_else(|| {
                        GpuError::NoAdapter(format!(
                            "{ADAPTER_NAME_VAR}={wanted} matches none of the adapters [{}]",
                            names.join(", ")
                        ))
                    })?
            }
            Err(_) => instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: wgpu::PowerPreference::HighPerformance,
                    ..Default::default()
                })
                .await
                .map_err(|e| GpuError::NoAdapter(e.to_string()))?,
        };
        let info = adapter.get_info();
        // The adapter's own limits: the largest frames it can take.
        let limits = adapter.limits();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("polyasm shader"),
                required_limits: limits.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::Device(e.to_string()))?;

        let lost = Arc::new(Mutex::new(None));
        let lost_slot = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            *lost_slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(format!("{reason:?}: {message}"));
        });
        let uncaptured = Arc::new(Mutex::new(None));
        let uncaptured_slot = Arc::clone(&uncaptured);
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            uncaptured_slot
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert_with(|| error.to_string());
        }));

        let scopes = Scopes::push(&device);
        let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("shader-asm interpreter"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                storage(1, true),
                storage(2, false),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("shader-asm interpreter"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = compute_pipeline(&device, &pipeline_layout, "shader-asm interpreter", runtime::WGSL);
        let frame_uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shader-asm frame"),
            size: runtime::WGSL_FRAME_BYTES as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        // Room for the longest program, allocated once.
        let program = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shader-asm program"),
            size: (MAX_INSTRUCTIONS * INSTRUCTION_BYTES) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        scopes.pop()?;

        let max_bytes = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
            .min(MAX_FRAME_BYTES);
        Ok(GpuRenderer {
            device,
            queue,
            info,
            id: RENDERERS.fetch_add(1, Ordering::Relaxed),
            pipeline,
            layout,
            pipeline_layout,
            frame_uniform,
            program,
            max_pixels: max_bytes / 4,
            max_workgroups: limits.max_compute_workgroups_per_dimension,
            pixels: Mutex::new(None),
            lost,
            uncaptured,
        })
    }

    /// The adapter's name, as its driver gives it (`llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub fn adapter_name(&self) -> &str {
        &self.info.name
    }

    /// Whether the adapter is a software rasteriser running on the CPU (lavapipe, SwiftShader).
    pub fn is_software(&self) -> bool {
        self.info.device_type == wgpu::DeviceType::Cpu
    }

    /// Why the device was lost, once it is: every later frame fails with it.
    fn lost_reason(&self) -> Option<String> {
        peek(&self.lost)
    }

    /// The most pixels one frame may have on this adapter.
    pub fn max_pixels(&self) -> u64 {
        self.max_pixels
    }

    /// Whether a `width` x `height` frame fits this adapter's limits.
    pub fn check_size(&self, width: u32, height: u32) -> Result<(), GpuError> {
        let pixels = u64::from(width) * u64::from(height);
        let groups = |side: u32| side.div_ceil(runtime::WORKGROUP_SIDE);
        if pixels > self.max_pixels || groups(width) > self.max_workgroups || groups(height) > self.max_workgroups {
            return Err(GpuError::TooLarge {
                width,
                height,
                max_pixels: self.max_pixels,
            });
        }
        Ok(())
    }

    /// Renders one frame of `program`.
    pub fn render(&self, program: &[Instr], frame: &Frame, alpha: Alpha) -> Result<Image, GpuError> {
        let mut rgba = Vec::new();
        self.render_into(program, frame, alpha, &mut rgba)?;
        Ok(Image {
            width: frame.width,
            height: frame.height,
            rgba,
        })
    }

    /// Renders one frame of `program` into `rgba` (RGBA8, rows from the top), reusing its
    /// allocation: the loop of an animation. On error `rgba` is left empty.
    pub fn render_into(
        &self,
        program: &[Instr],
        frame: &Frame,
        alpha: Alpha,
        rgba: &mut Vec<u8>,
    ) -> Result<(), GpuError> {
        rgba.clear();
        let words = bytecode(program)?;
        self.dispatch(&self.pipeline, Some(&words), program.len(), frame, alpha, rgba)
    }

    /// Compiles `program` to its own compute shader ([`native::wgsl`]) and builds its pipeline
    /// on this renderer, for [`GpuRenderer::render_native`]: slower to start than the
    /// interpreter, faster per frame. The program is checked as [`GpuRenderer::render`] checks
    /// it.
    pub fn native(&self, program: &[Instr]) -> Result<NativePipeline, GpuError> {
        bytecode(program)?;
        if let Some(why) = self.lost_reason() {
            return Err(GpuError::DeviceLost(why));
        }
        let scopes = Scopes::push(&self.device);
        let pipeline = compute_pipeline(
            &self.device,
            &self.pipeline_layout,
            "shader-asm native",
            &native::wgsl(program),
        );
        scopes.pop()?;
        if let Some(why) = self.lost_reason() {
            return Err(GpuError::DeviceLost(why));
        }
        Ok(NativePipeline {
            pipeline,
            renderer: self.id,
            instructions: program.len(),
        })
    }

    /// Renders one frame of the program `pipeline` was built from.
    pub fn render_native(&self, pipeline: &NativePipeline, frame: &Frame, alpha: Alpha) -> Result<Image, GpuError> {
        let mut rgba = Vec::new();
        self.render_native_into(pipeline, frame, alpha, &mut rgba)?;
        Ok(Image {
            width: frame.width,
            height: frame.height,
            rgba,
        })
    }

    /// [`GpuRenderer::render_native`] into `rgba`, as [`GpuRenderer::render_into`] renders.
    pub fn render_native_into(
        &self,
        pipeline: &NativePipeline,
        frame: &Frame,
        alpha: Alpha,
        rgba: &mut Vec<u8>,
    ) -> Result<(), GpuError> {
        rgba.clear();
        if pipeline.renderer != self.id {
            return Err(GpuError::OtherRenderer);
        }
        self.dispatch(&pipeline.pipeline, None, pipeline.instructions, frame, alpha, rgba)
    }

    /// Runs `pipeline` over a frame and appends its pixels to `rgba`: the interpreter's with
    /// the program's `words`, or a native one's (`None`: the program buffer keeps what it holds,
    /// which the native shader does not read).
    fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        words: Option<&[u8]>,
        count: usize,
        frame: &Frame,
        alpha: Alpha,
        rgba: &mut Vec<u8>,
    ) -> Result<(), GpuError> {
        self.check_size(frame.width, frame.height)?;
        if let Some(why) = self.lost_reason() {
            return Err(GpuError::DeviceLost(why));
        }
        let bytes = u64::from(frame.width) * u64::from(frame.height) * 4;
        if bytes == 0 {
            return Ok(());
        }

        let mut pixels = self.pixels.lock().unwrap_or_else(PoisonError::into_inner);
        let scopes = Scopes::push(&self.device);
        let buffers = match pixels.take() {
            Some(buffers) if buffers.bytes >= bytes => buffers,
            _ => self.pixel_buffers(bytes),
        };

        let mut uniform = [0u8; runtime::WGSL_FRAME_BYTES];
        let fields = [
            count as u32,
            frame.width,
            frame.height,
            frame.time.to_bits(),
            u32::from(alpha == Alpha::Keep),
        ];
        for (slot, field) in uniform.chunks_exact_mut(4).zip(fields) {
            slot.copy_from_slice(&field.to_le_bytes());
        }
        self.queue.write_buffer(&self.frame_uniform, 0, &uniform);
        if let Some(words) = words.filter(|words| !words.is_empty()) {
            self.queue.write_buffer(&self.program, 0, words);
        }

        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("shader-asm frame"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: self.frame_uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: self.program.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &buffers.storage,
                        offset: 0,
                        size: wgpu::BufferSize::new(bytes),
                    }),
                },
            ],
        });
        let mut encoder = self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("shader-asm frame"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("shader-asm interpreter"),
                timestamp_writes: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(
                frame.width.div_ceil(runtime::WORKGROUP_SIDE),
                frame.height.div_ceil(runtime::WORKGROUP_SIDE),
                1,
            );
        }
        encoder.copy_buffer_to_buffer(&buffers.storage, 0, &buffers.readback, 0, bytes);
        self.queue.submit([encoder.finish()]);

        let (sender, receiver) = mpsc::channel();
        buffers
            .readback
            .map_async(wgpu::MapMode::Read, 0..bytes, move |result| {
                // The receiver outlives the wait below; a failed send only means it is gone.
                let _ = sender.send(result);
            });
        let polled = self.device.poll(wgpu::PollType::wait_indefinitely());
        scopes.pop()?;
        if let Some(why) = take(&self.uncaptured) {
            return Err(GpuError::Driver(why));
        }
        if let Some(why) = self.lost_reason() {
            return Err(GpuError::DeviceLost(why));
        }
        polled.map_err(|e| GpuError::Driver(e.to_string()))?;
        match receiver.try_recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(GpuError::Driver(format!("reading the pixels back: {e}"))),
            Err(_) => {
                return Err(GpuError::Driver(
                    "reading the pixels back: the map never completed".to_string(),
                ));
            }
        }
        {
            let view = buffers
                .readback
                .get_mapped_range(0..bytes)
                .map_err(|e| GpuError::Driver(format!("reading the pixels back: {e}")))?;
            rgba.extend_from_slice(&view);
        }
        buffers.readback.unmap();
        *pixels = Some(buffers);
        Ok(())
    }

    fn pixel_buffers(&self, bytes: u64) -> PixelBuffers {
        let storage = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shader-asm pixels"),
            size: bytes,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shader-asm read-back"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        PixelBuffers {
            storage,
            readback,
            bytes,
        }
    }
}

/// `program` as the bytecode's instruction words, little-endian, after checking that it fits
/// the bytecode: no more than [`MAX_INSTRUCTIONS`], every field valid.
fn bytecode(program: &[Instr]) -> Result<Vec<u8>, GpuError> {
    if program.len() > MAX_INSTRUCTIONS {
        return Err(GpuError::ProgramTooLong { len: program.len() });
    }
    let mut words = Vec::with_capacity(program.len().max(1) * INSTRUCTION_BYTES);
    for (index, instr) in program.iter().enumerate() {
        let packed = instr.pack();
        Instr::unpack(packed).map_err(|error| GpuError::Instruction { index, error })?;
        for word in packed {
            words.extend_from_slice(&word.to_le_bytes());
        }
    }
    Ok(words)
}

/// The compute pipeline of the WGSL `source`, whose entry point is
/// [`runtime::WGSL_ENTRY_POINT`], in `layout`. Errors go to the caller's error scopes.
fn compute_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    label: &str,
    source: &str,
) -> wgpu::ComputePipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        module: &module,
        entry_point: Some(runtime::WGSL_ENTRY_POINT),
        compilation_options: Default::default(),
        cache: None,
    })
}
