//! `polyasm run` for shader-asm: renders the program to a PNG picture on the program's
//! standard output (the `-o` file).

use polyasm_core::stream::{ExitStatus, RunIo};
use polyasm_core::target::{OptionSpec, RunOutcome, TargetOptions, UsageError};
use polyasm_core::{Diagnostic, Object, Outcome};

use crate::exec::{Alpha, Frame};
use crate::gpu::{GpuError, GpuRenderer};
use crate::render::{self, MAX_PIXELS, MAX_SIDE};

/// The picture's size when `--size` is not given.
pub const DEFAULT_SIZE: (u32, u32) = (640, 360);

/// The options of `polyasm run` for shaders.
pub static RUN_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        long: "size",
        short: None,
        value_name: Some("WxH"),
        help: "shader: the picture's width and height in pixels (default 640x360)",
        repeatable: false,
    },
    OptionSpec {
        long: "time",
        short: None,
        value_name: Some("SECONDS"),
        help: "shader: the time `t` the program sees (default 0)",
        repeatable: false,
    },
    OptionSpec {
        long: "device",
        short: None,
        value_name: Some("auto|cpu|gpu"),
        help: "shader: where to render: `cpu`, `gpu` (Vulkan), or `auto` (default: a hardware GPU if there is one, else the CPU)",
        repeatable: false,
    },
    OptionSpec {
        long: "alpha",
        short: None,
        value_name: Some("opaque|keep"),
        help: "shader: `opaque` (default) makes every pixel opaque; `keep` writes `c.w` as alpha",
        repeatable: false,
    },
];

/// Where a picture is rendered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Device {
    /// A hardware GPU if there is one, else the CPU (with a note). A software Vulkan driver
    /// counts as no GPU here: the CPU renderer is far faster than it.
    #[default]
    Auto,
    Cpu,
    /// A GPU through Vulkan, software drivers included; none is an error (SH040).
    Gpu,
}

/// What the options ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSettings {
    pub frame: Frame,
    pub alpha: Alpha,
    pub device: Device,
}

fn usage(message: String, help: &str) -> UsageError {
    UsageError(Box::new(Diagnostic::error("PA006", message).with_help(help)))
}

/// Reads `WxH`: each side 1 to [`MAX_SIDE`], at most [`MAX_PIXELS`] pixels in all.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| "write the width and height with an `x` between them".to_string())?;
    let side = |s: &str| -> Result<u32, String> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{s}` is not a whole number of pixels"));
        }
        match s.parse::<u32>() {
            Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(format!("each side is 1 to {MAX_SIDE} pixels")),
        }
    };
    let (w, h) = (side(w)?, side(h)?);
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(format!("a picture holds at most {MAX_PIXELS} pixels"));
    }
    Ok((w, h))
}

/// Reads the run options.
pub fn run_settings(options: &TargetOptions) -> Result<RunSettings, UsageError> {
    let (width, height) = match options.value("size") {
        None => DEFAULT_SIZE,
        Some(text) => parse_size(text).map_err(|problem| {
            usage(
                format!("invalid value `{text}` for `--size`: {problem}"),
                "give the size in pixels as WIDTHxHEIGHT, e.g. `--size 1920x1080`",
            )
        })?,
    };
    let time = match options.value("time") {
        None => 0.0,
        Some(text) => match text.trim().parse::<f32>() {
            Ok(t) if t.is_finite() => t,
            _ => {
                return Err(usage(
                    format!("invalid value `{text}` for `--time`"),
                    "give the time in seconds as a finite number, e.g. `--time 1.5`",
                ));
            }
        },
    };
    let alpha = match options.value("alpha") {
        None | Some("opaque") => Alpha::Opaque,
        Some("keep") => Alpha::Keep,
        Some(text) => {
            return Err(usage(
                format!("invalid value `{text}` for `--alpha`"),
                "write `--alpha opaque` (every pixel opaque) or `--alpha keep` (alpha from `c.w`)",
            ));
        }
    };
    let device = match options.value("device") {
        None | Some("auto") => Device::Auto,
        Some("cpu") => Device::Cpu,
        Some("gpu") => Device::Gpu,
        Some(text) => {
            return Err(usage(
                format!("invalid value `{text}` for `--device`"),
                "write `--device auto`, `--device cpu` or `--device gpu`",
            ));
        }
    };
    Ok(RunSettings {
        frame: Frame { width, height, time },
        alpha,
        device,
    })
}

/// Renders a bytecode program to a PNG on `io.stdout`.
pub fn run_object(object: &Object, options: &TargetOptions, io: &mut RunIo) -> RunOutcome {
    let settings = run_settings(options)?;
    let program = match crate::decode::read(&object.bytes) {
        Ok(program) => program,
        Err(errors) => return Ok(Outcome::failed(crate::bad_bytecode("the program", &errors))),
    };
    let image = match render_on(settings.device, &program, &settings, &mut *io.stderr) {
        Ok(image) => image,
        Err(d) => return Ok(Outcome::failed(vec![*d])),
    };
    let written = render::write_png(&image, &mut *io.stdout).and_then(|()| io.stdout.flush());
    Ok(match written {
        Ok(()) => Outcome::ok(ExitStatus::SUCCESS),
        Err(e) => Outcome::failed(vec![Diagnostic::error(
            "PA003",
            format!("cannot write the picture: {e}"),
        )]),
    })
}

/// Renders on the device asked for; `auto` says on `notes` when it falls back to the CPU.
fn render_on(
    device: Device,
    program: &[crate::ops::Instr],
    settings: &RunSettings,
    notes: &mut dyn std::io::Write,
) -> Result<crate::exec::Image, Box<Diagnostic>> {
    let gpu = match device {
        Device::Cpu => None,
        Device::Gpu => match GpuRenderer::new() {
            Ok(gpu) => Some(gpu),
            Err(e) => return Err(Box::new(gpu_error(&e))),
        },
        Device::Auto => match GpuRenderer::new() {
            Ok(gpu) if !gpu.is_software() => Some(gpu),
            Ok(gpu) => {
                let _ = writeln!(
                    notes,
                    "note: rendering on the CPU: the only GPU adapter, {}, is a software one (`--device gpu` uses it)",
                    gpu.adapter_name()
                );
                None
            }
            Err(_) => {
                let _ = writeln!(notes, "note: rendering on the CPU: no GPU adapter was found");
                None
            }
        },
    };
    match gpu {
        Some(gpu) => gpu
            .render(program, &settings.frame, settings.alpha)
            .map_err(|e| Box::new(gpu_error(&e))),
        None => render::render(program, &settings.frame, settings.alpha)
            .map_err(|e| Box::new(Diagnostic::error("PA006", e.to_string()))),
    }
}

/// A GPU failure as a diagnostic.
fn gpu_error(error: &GpuError) -> Diagnostic {
    match error {
        GpuError::NoAdapter(_) => Diagnostic::error("SH040", error.to_string()).with_help(
            "install a Vulkan driver (Mesa's software one is `mesa-vulkan-drivers`), or render with `--device cpu`",
        ),
        _ => Diagnostic::error("SH041", format!("the GPU could not render: {error}"))
            .with_help("render on the CPU with `--device cpu`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_read_and_bounded() {
        assert_eq!(parse_size("640x360"), Ok((640, 360)));
        assert_eq!(parse_size("1X1"), Ok((1, 1)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("16385x1").is_err());
        assert!(parse_size("16384x16384").unwrap_err().contains("at most"));
        assert!(parse_size("640").unwrap_err().contains("`x`"));
        assert!(parse_size("-4x5").is_err());
    }
}
