//! `polyasm run` for shader-asm: renders the program to a PNG picture on the program's
//! standard output (the `-o` file).

use polyasm_core::OptionKind;
use polyasm_core::explain::Code as CoreCode;
use polyasm_core::options::usage;
use polyasm_core::stream::{ExitStatus, RunIo, output_written};
use polyasm_core::target::{OptionSpec, RunOutcome, TargetOptions, UsageError};
use polyasm_core::{Diagnostic, Object, Outcome};

use crate::error::Code;
use crate::exec::{Alpha, Frame, Image};
use crate::gpu::{GpuError, GpuRenderer};
use crate::ops::Instr;
use crate::render;

/// The picture's size when `--size` is not given.
pub const DEFAULT_SIZE: (u32, u32) = (640, 360);

/// The options of `polyasm run` for shaders.
pub static RUN_OPTIONS: &[OptionSpec] = &[
    OptionSpec::new(
        "size",
        "WxH",
        OptionKind::Size,
        "shader: the picture's width and height in pixels (default 640x360)",
    ),
    OptionSpec::new(
        "time",
        "SECONDS",
        OptionKind::Decimal {
            positive: false,
            example: "1.5",
        },
        "shader: the time `t` the program sees (default 0)",
    ),
    OptionSpec::new(
        "frames",
        "N",
        OptionKind::Whole {
            min: 1,
            max: MAX_FRAMES as u64,
            example: 60,
        },
        "shader: render N frames, frame i at time `--time` + i / `--fps`, to the files `-o PATTERN` names (`%04d` is the frame number)",
    ),
    OptionSpec::new(
        "fps",
        "F",
        OptionKind::Decimal {
            positive: true,
            example: "30",
        },
        "shader: frames per second of `--frames` (default 30)",
    ),
    OptionSpec::new(
        "device",
        "auto|cpu|gpu",
        OptionKind::Words {
            plural: "devices",
            words: &["auto", "cpu", "gpu"],
        },
        "shader: where to render: `cpu`, `gpu` (Vulkan), or `auto` (default: a hardware GPU if there is one, else the CPU)",
    ),
    OptionSpec::new(
        "alpha",
        "opaque|keep",
        OptionKind::Words {
            plural: "alpha modes",
            words: &["opaque", "keep"],
        },
        "shader: `opaque` (default) makes every pixel opaque; `keep` writes `c.w` as alpha",
    ),
];

/// Where a picture is rendered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Device {
    /// A hardware GPU if there is one, else the CPU (with a note). A software Vulkan driver
    /// counts as no GPU here: the CPU renderer is far faster than it.
    #[default]
    Auto,
    /// The CPU renderer.
    Cpu,
    /// A GPU through Vulkan, software drivers included; none is an error (SH040).
    Gpu,
}

/// The most frames one run renders.
pub const MAX_FRAMES: u32 = 1_000_000;
/// Frames per second when `--fps` is not given.
pub const DEFAULT_FPS: f32 = 30.0;

/// What the options ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSettings {
    /// The first frame (`--time`).
    pub frame: Frame,
    /// How the picture's alpha channel is made (`--alpha`).
    pub alpha: Alpha,
    /// Where to render (`--device`).
    pub device: Device,
    /// `--frames N` and `--fps F`, for an animation.
    pub animation: Option<(u32, f32)>,
}

/// Reads the run options and checks them together.
pub fn run_settings(options: &TargetOptions) -> Result<RunSettings, UsageError> {
    let (width, height) = options.values.size("size").unwrap_or(DEFAULT_SIZE);
    let time = options.values.decimal("time").unwrap_or(0.0);
    let fps = options.values.decimal("fps").unwrap_or(DEFAULT_FPS);
    let frames = options.values.whole("frames").map(|n| n as u32);
    if let Some(n) = frames
        && !frame_time(time, n - 1, fps).is_finite()
    {
        return Err(usage(
            format!(
                "`--frames {n}` at `--fps {}` puts the last frame at an infinite time",
                options.values.text("fps").map_or("30", str::trim)
            ),
            "give fewer frames or more frames per second; every frame's time must be a finite number",
        ));
    }
    if frames.is_none() && options.values.flag("fps") {
        return Err(usage(
            "`--fps` applies only to an animation",
            "add `--frames N` to render N frames",
        ));
    }
    Ok(RunSettings {
        frame: Frame { width, height, time },
        alpha: match options.values.word("alpha") {
            Some("keep") => Alpha::Keep,
            _ => Alpha::Opaque,
        },
        device: match options.values.word("device") {
            Some("cpu") => Device::Cpu,
            Some("gpu") => Device::Gpu,
            _ => Device::Auto,
        },
        animation: frames.map(|n| (n, fps)),
    })
}

/// The time of frame `index` of an animation that starts at `start`; increasing with `index`,
/// so when the last frame's time is finite, every frame's is.
pub fn frame_time(start: f32, index: u32, fps: f32) -> f32 {
    start + index as f32 / fps
}

/// The file name of frame `index` from a pattern with one `%d` or `%0Nd` (N from 1 to 9) in
/// it; `%%` is a `%`.
pub fn frame_path(pattern: &str, index: u32) -> Result<String, String> {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut numbers = 0;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('d') => {
                numbers += 1;
                out.push_str(&index.to_string());
            }
            Some('0') => match (chars.next(), chars.next()) {
                (Some(width @ '1'..='9'), Some('d')) => {
                    numbers += 1;
                    let width = width.to_digit(10).expect("a digit") as usize;
                    out.push_str(&format!("{index:0width$}"));
                }
                _ => return Err("a frame number is `%d` or `%0Nd` with N from 1 to 9".to_string()),
            },
            _ => return Err("a frame number is `%d` or `%0Nd` with N from 1 to 9 (`%%` is a `%`)".to_string()),
        }
    }
    match numbers {
        1 => Ok(out),
        0 => Err("it has no frame number (`%d` or `%04d`), so every frame would overwrite the last".to_string()),
        _ => Err("it has more than one frame number".to_string()),
    }
}

/// Renders a bytecode program to a PNG on `io.stdout`, or an animation to the files of
/// `io.files`.
pub fn run_object(object: &Object, options: &TargetOptions, io: &mut RunIo) -> RunOutcome {
    let settings = run_settings(options)?;
    let program = match crate::decode::read(&object.bytes) {
        Ok(program) => program,
        Err(errors) => return Ok(Outcome::failed(crate::error::bad_bytecode("the program", &errors))),
    };
    if let Some((frames, fps)) = settings.animation {
        return animate(&program, &settings, frames, fps, io);
    }
    let image = match render_on(settings.device, &program, &settings, &mut *io.stderr) {
        Ok(image) => image,
        Err(d) => return Ok(Outcome::failed(vec![*d])),
    };
    let written = image.write_png(&mut *io.stdout).and_then(|()| io.stdout.flush());
    // A reader that stopped early (`| head`) ends the run quietly.
    Ok(output_written(written))
}

/// Where frames are rendered.
enum Renderer {
    Cpu,
    Gpu(Box<GpuRenderer>),
}

impl Renderer {
    /// The renderer for `device`; `auto` says on `notes` when it falls back to the CPU.
    fn open(device: Device, notes: &mut dyn std::io::Write) -> Result<Renderer, Box<Diagnostic>> {
        Ok(match device {
            Device::Cpu => Renderer::Cpu,
            Device::Gpu => Renderer::Gpu(Box::new(GpuRenderer::new().map_err(|e| Box::new(gpu_error(&e)))?)),
            Device::Auto => match GpuRenderer::new() {
                Ok(gpu) if !gpu.is_software() => Renderer::Gpu(Box::new(gpu)),
                Ok(gpu) => {
                    let _ = writeln!(
                        notes,
                        "note: rendering on the CPU: the only GPU adapter, {}, is a software one (`--device gpu` uses it)",
                        gpu.adapter_name()
                    );
                    Renderer::Cpu
                }
                Err(_) => {
                    let _ = writeln!(notes, "note: rendering on the CPU: no GPU adapter was found");
                    Renderer::Cpu
                }
            },
        })
    }

    /// Renders a frame into `image`, reusing its buffer.
    fn render_into(
        &self,
        program: &[Instr],
        frame: &Frame,
        alpha: Alpha,
        image: &mut Image,
    ) -> Result<(), Box<Diagnostic>> {
        match self {
            Renderer::Gpu(gpu) => {
                gpu.render_into(program, frame, alpha, &mut image.rgba)
                    .map_err(|e| Box::new(gpu_error(&e)))?;
                image.width = frame.width;
                image.height = frame.height;
                Ok(())
            }
            Renderer::Cpu => render::render_into(program, frame, alpha, image)
                .map_err(|e| Box::new(Diagnostic::error(CoreCode::InvalidRunInput, e.to_string()))),
        }
    }
}

/// Renders one picture.
fn render_on(
    device: Device,
    program: &[Instr],
    settings: &RunSettings,
    notes: &mut dyn std::io::Write,
) -> Result<Image, Box<Diagnostic>> {
    let renderer = Renderer::open(device, notes)?;
    let mut image = Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    };
    renderer.render_into(program, &settings.frame, settings.alpha, &mut image)?;
    Ok(image)
}

/// Renders `frames` frames, frame i at the start time + i / `fps`, each to its file; a
/// progress bar on a terminal.
fn animate(program: &[Instr], settings: &RunSettings, frames: u32, fps: f32, io: &mut RunIo) -> RunOutcome {
    let Some(files) = io.files.as_mut() else {
        return Err(usage(
            "`--frames` writes one file per frame: `-o` must name them".to_string(),
            "give a pattern with a frame number, e.g. `-o frames/%04d.png`",
        ));
    };
    let pattern = files.pattern().to_string();
    if let Err(problem) = frame_path(&pattern, 0) {
        return Err(usage(
            format!("invalid output pattern `{pattern}` for `--frames`: {problem}"),
            "number the frames with `%d` or `%04d`, e.g. `-o frames/%04d.png`",
        ));
    }
    // No frame may replace an input: checked before anything is rendered or written.
    for index in 0..frames {
        let path = frame_path(&pattern, index).expect("the pattern was checked");
        files.check(&path).map_err(|d| UsageError(Box::new(d)))?;
    }
    let renderer = match Renderer::open(settings.device, &mut *io.stderr) {
        Ok(renderer) => renderer,
        Err(d) => return Ok(Outcome::failed(vec![*d])),
    };
    let progress =
        indicatif::ProgressBar::with_draw_target(Some(u64::from(frames)), indicatif::ProgressDrawTarget::stderr());
    let mut image = Image {
        width: 0,
        height: 0,
        rgba: Vec::new(),
    };
    let mut png = Vec::new();
    for index in 0..frames {
        let frame = Frame {
            time: frame_time(settings.frame.time, index, fps),
            ..settings.frame
        };
        let path = frame_path(&pattern, index).expect("the pattern was checked");
        let written = renderer
            .render_into(program, &frame, settings.alpha, &mut image)
            .and_then(|()| {
                png.clear();
                image
                    .write_png(&mut png)
                    .map_err(|e| Box::new(Diagnostic::error(CoreCode::CannotWriteOutput, e.to_string())))?;
                files.write(&path, &png).map_err(Box::new)
            });
        if let Err(d) = written {
            progress.abandon();
            let d = d.with_note(format!(
                "{} of {frames} written before this one",
                polyasm_core::text::count(index as usize, "frame")
            ));
            return Ok(Outcome::failed(vec![d]));
        }
        progress.inc(1);
    }
    progress.finish_and_clear();
    Ok(Outcome::ok(ExitStatus::SUCCESS))
}

/// A GPU failure as a diagnostic.
fn gpu_error(error: &GpuError) -> Diagnostic {
    match error {
        GpuError::NoAdapter(_) => Diagnostic::error(Code::NoGpuAdapter, error.to_string()).with_help(
            "install a Vulkan driver (Mesa's software one is `mesa-vulkan-drivers`), or render with `--device cpu`",
        ),
        _ => Diagnostic::error(Code::GpuFailed, format!("the GPU could not render: {error}"))
            .with_help("render on the CPU with `--device cpu`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_paths_number_the_frames() {
        assert_eq!(frame_path("f/%04d.png", 7), Ok("f/0007.png".to_string()));
        assert_eq!(frame_path("%d.png", 12), Ok("12.png".to_string()));
        assert_eq!(frame_path("100%%_%02d", 3), Ok("100%_03".to_string()));
        assert_eq!(frame_path("%03d", 12345), Ok("12345".to_string()));
        assert!(frame_path("out.png", 0).unwrap_err().contains("no frame number"));
        assert!(frame_path("%d_%d", 0).unwrap_err().contains("more than one"));
        for bad in ["%s.png", "%0d", "%010d", "%", "%5d"] {
            assert!(frame_path(bad, 0).is_err(), "{bad}");
        }
    }
}
