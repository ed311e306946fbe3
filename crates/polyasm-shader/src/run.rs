//! `polyasm run` for shader-asm: renders the program to a PNG picture on the program's
//! standard output (the `-o` file).

use polyasm_core::stream::{ExitStatus, RunIo};
use polyasm_core::target::{OptionSpec, RunOutcome, TargetOptions, UsageError};
use polyasm_core::{Diagnostic, Object, Outcome};

use crate::exec::{Alpha, Frame};
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
        long: "alpha",
        short: None,
        value_name: Some("opaque|keep"),
        help: "shader: `opaque` (default) makes every pixel opaque; `keep` writes `c.w` as alpha",
        repeatable: false,
    },
];

/// What the options ask for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSettings {
    pub frame: Frame,
    pub alpha: Alpha,
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
    Ok(RunSettings {
        frame: Frame { width, height, time },
        alpha,
    })
}

/// Renders a bytecode program to a PNG on `io.stdout`.
pub fn run_object(object: &Object, options: &TargetOptions, io: &mut RunIo) -> RunOutcome {
    let settings = run_settings(options)?;
    let program = match crate::decode::read(&object.bytes) {
        Ok(program) => program,
        Err(errors) => return Ok(Outcome::failed(crate::bad_bytecode("the program", &errors))),
    };
    let image = match render::render(&program, &settings.frame, settings.alpha) {
        Ok(image) => image,
        Err(e) => return Ok(Outcome::failed(vec![Diagnostic::error("PA006", e.to_string())])),
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
