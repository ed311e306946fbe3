//! The live panels: pictures (shader-asm frames, Lima renders) and runs (Masfix programs,
//! vertex programs, Lima's one fragment), each bounded in size, steps and output.

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use polyasm_core::explain::Code;
use polyasm_core::options::OptionValues;
use polyasm_core::stream::{EndState, ExitStatus, RunIo};
use polyasm_core::{Diagnostic, Outcome, Registry, RunOutput, Target, TargetOptions};
use serde_json::{Value, json};

use crate::check::{Program, panel_of, report};
use crate::gpu::Pictures;
pub use crate::picture::{Picture, PictureRequest};

/// The largest picture a page may ask for, in pixels (1920x1080).
pub const MAX_PICTURE_PIXELS: u64 = 1920 * 1080;

/// The most bytes of output a run sends to the page; the run is stopped there.
pub const MAX_RUN_OUTPUT: usize = 1 << 20;

/// The step limit of a Masfix run when the page gives none.
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// The most steps a run may take, whatever the page gives: about 7 s of a Masfix program.
pub const MAX_MAX_STEPS: u64 = 1_000_000_000;

/// The most steps of all the fragments of one picture (Lima's `--max-steps` is per
/// fragment): the page's limit is lowered to this over the number of pixels.
pub const PICTURE_STEPS: u64 = 200_000_000;

/// The most steps of one fragment, in a picture or run alone (Lima's own default).
pub const FRAGMENT_STEPS: u64 = 100_000;

/// The most bytes of a run's own error stream kept.
const MAX_STDERR: usize = 64 << 10;

/// Output is sent to the page in pieces of about this many bytes.
const CHUNK: usize = 8 << 10;

/// A failed picture or run, as the page shows it.
pub struct Failure {
    /// The text the terminal would print.
    pub report: String,
    /// The diagnostics, as the page's JSON.
    pub diagnostics: Vec<Value>,
}

/// `(long, text)` pairs as [`OptionValues::read`] takes them.
fn str_pairs(list: &[(String, String)]) -> Vec<(&str, &str)> {
    list.iter().map(|(l, t)| (l.as_str(), t.as_str())).collect()
}

/// The options of a run or a picture: the settings file's, with the page's in place of those
/// it names, read as the command line reads them.
fn options(
    target: &dyn Target,
    program: &Program,
    page: &[(String, String)],
) -> Result<TargetOptions, Box<Diagnostic>> {
    let Some(runner) = target.runner() else {
        return Err(Box::new(Diagnostic::error(
            Code::RunOptionNotForTarget,
            format!("target {} does not run programs", target.info().name),
        )));
    };
    let specs = [target.info().assemble_options, runner.run_info().options];
    // The page's options replace the settings file's, as the command line's do.
    let (settings, page_pairs) = (str_pairs(&program.settings), str_pairs(page));
    let given = polyasm_core::config::with_command_line(&settings, &page_pairs);
    // Options that write files or read other paths are the command line's (the page's
    // textures were checked to be pictures listed: `textures`).
    if let Some((long, _)) = page
        .iter()
        .find(|(long, _)| ["data", "frames", "trace"].contains(&long.as_str()))
    {
        return Err(Box::new(Diagnostic::error(
            Code::RunOptionNotForTarget,
            format!("`--{long}` is not available on the page"),
        )));
    }
    let values = OptionValues::read(&specs, &given).map_err(|e| e.0)?;
    Ok(TargetOptions {
        values,
        ..TargetOptions::default()
    })
}

fn failure(registry: &Registry, program: &Program, diagnostics: &[Diagnostic]) -> Failure {
    let (report, diagnostics) = report(registry, &program.sources, diagnostics, 0);
    Failure { report, diagnostics }
}

/// The page's options with each `--texture N=NAME` naming the file of a listed picture
/// (`pictures` finds it); a name the page does not list is refused.
pub fn textures(
    options: Vec<(String, String)>,
    pictures: impl Fn(&str) -> Option<std::path::PathBuf>,
) -> Result<Vec<(String, String)>, Box<Diagnostic>> {
    options
        .into_iter()
        .map(|(long, text)| {
            if long != "texture" {
                return Ok((long, text));
            }
            let (slot, name) = text.split_once('=').unwrap_or(("", text.as_str()));
            match pictures(name.trim()) {
                Some(path) => Ok((long, format!("{slot}={}", path.display()))),
                None => Err(Box::new(
                    Diagnostic::error(
                        Code::RunOptionNotForTarget,
                        format!("`--texture {text}`: the page lists no picture `{}`", name.trim()),
                    )
                    .with_help("the page binds the PNG files under the folders it serves"),
                )),
            }
        })
        .collect()
}

/// Bounds the steps of a target that has a `--max-steps` run option: the page's value (or
/// `default`, else `most`) lowered to `most`. A value that is not a number is left for the
/// option's reader to refuse as the command line does.
fn bound_steps(target: &dyn Target, page: &mut Vec<(String, String)>, default: Option<u64>, most: u64) {
    let declared = target
        .runner()
        .is_some_and(|r| r.run_info().options.iter().any(|o| o.long == "max-steps"));
    if !declared {
        return;
    }
    let given = page
        .iter()
        .rev()
        .find(|(l, _)| l == "max-steps")
        .map(|(_, v)| v.trim().to_string());
    let steps = match given {
        Some(text) => match text.parse::<u64>() {
            Ok(n) => n,
            Err(_) => return,
        },
        None => default.unwrap_or(most),
    };
    page.retain(|(l, _)| l != "max-steps");
    page.push(("max-steps".to_string(), steps.min(most).to_string()));
}

/// Renders a picture of `program` at `time`, `width` x `height`.
pub fn picture(
    registry: &Registry,
    target: &dyn Target,
    program: &Program,
    pictures: &Pictures,
    request: &PictureRequest,
) -> Result<Picture, Failure> {
    let (width, height) = (request.width, request.height);
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PICTURE_PIXELS {
        let d = Diagnostic::error(
            Code::InvalidRunInput,
            format!("a {width}x{height} picture is not shown: the page shows 1x1 up to 1920x1080 pixels"),
        );
        return Err(failure(registry, program, &[d]));
    }
    let mut page = request.options.clone();
    page.push(("size".to_string(), format!("{width}x{height}")));
    let pixels = u64::from(width) * u64::from(height);
    bound_steps(
        target,
        &mut page,
        None,
        (PICTURE_STEPS / pixels).clamp(1, FRAGMENT_STEPS),
    );
    let options = options(target, program, &page).map_err(|d| failure(registry, program, &[*d]))?;
    if let Some(picture) = pictures.render(target.info().name, program, &options, request) {
        return picture.map_err(|d| failure(registry, program, &[*d]));
    }
    // Any other target that renders: its run, with `--size`, writes a PNG.
    let runner = target.runner().expect("options() checked");
    match runner.plan(&options) {
        Ok(RunOutput::Binary) => {}
        Ok(_) => {
            let d = Diagnostic::error(
                Code::InvalidRunInput,
                format!("target {} does not render pictures", target.info().name),
            );
            return Err(failure(registry, program, &[d]));
        }
        Err(e) => return Err(failure(registry, program, &[*e.0])),
    }
    let mut png = Vec::new();
    let mut stderr = Bounded::new(MAX_STDERR);
    let mut sources = program.sources.clone();
    let mut stdin = io::empty();
    let mut reader = io::BufReader::new(&mut stdin);
    let mut io = RunIo {
        stdin: &mut reader,
        stdout: &mut png,
        stderr: &mut stderr,
        files: None,
        end: None,
    };
    let outcome = guarded(|| runner.run(&program.object, &options, &mut sources, &mut io));
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => return Err(failure(registry, program, &[*e.0])),
    };
    if outcome.value.is_none_or(|s| !s.success()) || outcome.diagnostics.iter().any(Diagnostic::is_error) {
        let (report, diagnostics) = report(registry, &sources, &outcome.diagnostics, 0);
        return Err(Failure { report, diagnostics });
    }
    let rgba = decode_png(&png, width, height)
        .map_err(|message| failure(registry, program, &[Diagnostic::error(Code::InternalError, message)]))?;
    Ok(Picture {
        width,
        height,
        time: request.time,
        place: 0,
        rgba,
    })
}

fn decode_png(bytes: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let mut decoder = png::Decoder::new(io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("the run's picture does not decode: {e}"))?;
    let info = reader.info();
    if (info.width, info.height) != (width, height) {
        return Err(format!(
            "the run's picture is {}x{}, not {width}x{height}",
            info.width, info.height
        ));
    }
    let size = reader.output_buffer_size().ok_or("the run's picture is too large")?;
    let mut buffer = vec![0; size];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|e| format!("the run's picture does not decode: {e}"))?;
    let channels = frame.color_type.samples();
    let mut rgba = Vec::with_capacity(width as usize * height as usize * 4);
    for row in buffer.chunks(frame.line_size).take(height as usize) {
        polyasm_core::picture::push_rgba_row(row, channels, width as usize, &mut rgba);
    }
    Ok(rgba)
}

/// Runs `f`, a panic becoming PA028.
fn guarded<T>(
    f: impl FnOnce() -> Result<Outcome<T>, polyasm_core::options::UsageError>,
) -> Result<Outcome<T>, polyasm_core::options::UsageError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|_| {
        Ok(Outcome::failed(vec![Diagnostic::error(
            Code::InternalError,
            "the run failed inside polyasm",
        )]))
    })
}

/// What the page asks of a run.
pub struct RunRequest {
    /// The bytes the program reads as its input.
    pub stdin: Vec<u8>,
    /// Target options from the page, as `(name, value)`.
    pub options: Vec<(String, String)>,
}

/// Where a run's output goes as it is written: `send` gets each piece, and says false when the
/// page is gone.
pub struct Stream<'a> {
    send: &'a mut dyn FnMut(String) -> bool,
    pending: Vec<u8>,
    sent: usize,
    stop: Arc<AtomicBool>,
    /// Why the output stopped being taken, once it did.
    pub cut: Option<&'static str>,
}

impl<'a> Stream<'a> {
    /// A stream that sends through `send`, until `stop` is set or the page is gone.
    pub fn new(send: &'a mut dyn FnMut(String) -> bool, stop: Arc<AtomicBool>) -> Stream<'a> {
        Stream {
            send,
            pending: Vec::new(),
            sent: 0,
            stop,
            cut: None,
        }
    }

    fn ship(&mut self) -> io::Result<()> {
        // Whole characters only: a piece may end inside one.
        let whole = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        if whole == 0 {
            return Ok(());
        }
        let rest = self.pending.split_off(whole);
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending = rest;
        self.sent += text.len();
        if !(self.send)(text) {
            self.cut = Some("gone");
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }
}

impl Write for Stream<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            self.cut = Some("stopped");
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let room = MAX_RUN_OUTPUT.saturating_sub(self.sent + self.pending.len());
        if room == 0 {
            self.cut = Some("output");
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let taken = buf.len().min(room);
        self.pending.extend_from_slice(&buf[..taken]);
        if self.pending.len() >= CHUNK {
            self.ship()?;
        }
        Ok(taken)
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.stop.load(Ordering::Relaxed) {
            self.cut = Some("stopped");
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.ship()
    }
}

/// A writer that keeps the first `limit` bytes and drops the rest.
struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
}

impl Bounded {
    fn new(limit: usize) -> Bounded {
        Bounded {
            bytes: Vec::new(),
            limit,
        }
    }
}

impl Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        self.bytes.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `program` and returns the page's `run_end` message (without its run number); its
/// output goes to `stream` as it is written.
pub fn run(
    registry: &Registry,
    target: &dyn Target,
    program: &Program,
    request: &RunRequest,
    stream: &mut Stream,
) -> Value {
    let mut page = request.options.clone();
    let panel = panel_of(target);
    if panel == "vertex" {
        page.push(("format".to_string(), "json".to_string()));
    }
    if panel == "masfix" {
        bound_steps(target, &mut page, Some(DEFAULT_MAX_STEPS), MAX_MAX_STEPS);
    } else {
        bound_steps(target, &mut page, None, FRAGMENT_STEPS);
    }
    let ended = |status: &str, failure: Failure| json!({"type": "run_end", "status": status, "report": failure.report, "diagnostics": failure.diagnostics});
    let options = match options(target, program, &page) {
        Ok(options) => options,
        Err(d) => return ended("error", failure(registry, program, &[*d])),
    };
    let runner = target.runner().expect("options() checked");
    match runner.plan(&options) {
        Ok(RunOutput::Text) => {}
        Ok(_) => {
            let d = Diagnostic::error(
                Code::InvalidRunInput,
                "this run writes a picture: the page asks for pictures with `frame`",
            );
            return ended("error", failure(registry, program, &[d]));
        }
        Err(e) => return ended("error", failure(registry, program, &[*e.0])),
    }
    let mut sources = program.sources.clone();
    let mut stderr = Bounded::new(MAX_STDERR);
    let mut stdin = io::Cursor::new(&request.stdin[..]);
    let mut end = EndState::default();
    // Vertex programs print JSON: it is sent whole with the end, parsed, not streamed.
    let mut whole = Bounded::new(MAX_RUN_OUTPUT);
    let outcome = {
        let mut io = RunIo {
            stdin: &mut stdin,
            stdout: if panel == "vertex" { &mut whole } else { &mut *stream },
            stderr: &mut stderr,
            files: None,
            end: Some(&mut end),
        };
        let outcome = guarded(|| runner.run(&program.object, &options, &mut sources, &mut io));
        let _ = stream.flush();
        outcome
    };
    let whole = String::from_utf8_lossy(&whole.bytes).into_owned();
    let parsed = if panel == "vertex" {
        serde_json::from_str::<Value>(&whole).ok()
    } else {
        None
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(e) => return ended("error", failure(registry, program, &[*e.0])),
    };
    let (report, diagnostics) = report(registry, &sources, &outcome.diagnostics, 0);
    let exit = outcome.value.unwrap_or(ExitStatus::FAILURE);
    let failed = outcome.diagnostics.iter().any(Diagnostic::is_error);
    let status = match stream.cut {
        Some("stopped") => "stopped",
        Some(_) => "cut",
        None if failed || outcome.value.is_none() => "error",
        None => "ok",
    };
    json!({
        "type": "run_end",
        "status": status,
        "exit_code": exit.0,
        "output": whole,
        "json": parsed,
        "output_truncated": stream.cut == Some("output"),
        "steps": end.steps,
        "state": state_json(&end),
        "stderr": String::from_utf8_lossy(&stderr.bytes),
        "report": report,
        "diagnostics": diagnostics,
    })
}

fn state_json(end: &EndState) -> Value {
    if end.registers.is_empty() && end.memory.is_empty() {
        return Value::Null;
    }
    json!({
        "registers": end.registers.iter().map(|(name, value)| json!([name, value])).collect::<Vec<_>>(),
        "memory": {"start": end.memory_start, "cells": end.memory},
    })
}

/// Whether a message sent to a stopped run's page should still go: the run number's stop flag.
pub fn stopped(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}
