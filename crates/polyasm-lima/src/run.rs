//! `polyasm run` for Lima: runs one fragment and prints its colour, or with `--size WxH`
//! renders a full-screen quad to a PNG picture on the run's output (the `-o` file).
//!
//! ```
//! use polyasm_core::Object;
//! use polyasm_core::stream::{ExitStatus, RunIo};
//! use polyasm_core::target::TargetOptions;
//! // Mesa's clear program: mov.v0 $0 ^const0.xxxx with const0 = 1, 0, 0, -1.677734.
//! let object = Object::from_words(&[0x00020425, 0x0000000c, 0x01e007cf, 0xb0000000, 0x000005f5]);
//! let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
//! let mut io = RunIo { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr, files: None };
//! let outcome = polyasm_lima::run::run_object(&object, &TargetOptions::default(), &mut io).expect("no usage error");
//! assert_eq!(outcome.value, Some(ExitStatus::SUCCESS));
//! assert_eq!(String::from_utf8(stdout).unwrap(), "$0 = (1, 1, 1, 1)\n");
//! ```

use std::io;

use polyasm_core::options::{OptionKind, OptionSpec, SlotKind, TargetOptions, UsageError, usage};
use polyasm_core::stream::{ExitStatus, RunIo};
use polyasm_core::target::RunOutcome;
use polyasm_core::{Diagnostic, Object, Outcome};

use crate::exec::{
    self, AllocError, Filter, Inputs, MAX_TEXTURE_SIDE, MAX_TEXTURE_TEXELS, Output, Program, SAMPLERS, Texture,
    UNIFORM_SLOTS, VARYING_SLOTS, Vec4, Wrap, try_vec,
};

static VARYINGS: SlotKind = SlotKind {
    what: "varying",
    count: VARYING_SLOTS,
    parse: slot_number,
    hint: "numbers from 0 to 63",
};

static UNIFORMS: SlotKind = SlotKind {
    what: "uniform",
    count: UNIFORM_SLOTS,
    parse: slot_number,
    hint: "numbers from 0 to 65535",
};

static SAMPLER_SLOTS: SlotKind = SlotKind {
    what: "sampler",
    count: SAMPLERS,
    parse: slot_number,
    hint: "numbers from 0 to 4095",
};

fn slot_number(text: &str) -> Option<usize> {
    if text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

/// The options of `polyasm run` for Lima.
pub static RUN_OPTIONS: &[OptionSpec] = &[
    OptionSpec::new(
        "varying",
        "N=X,Y,Z,W",
        OptionKind::Slot {
            slots: &VARYINGS,
            fill: [0.0; 4],
        },
        "lima: set varying N (0 to 63; lanes left out: 0); when rendering, varying 0 is the pixel's (u, v)",
    ),
    OptionSpec::new(
        "uniform",
        "N=X,Y,Z,W",
        OptionKind::Slot {
            slots: &UNIFORMS,
            fill: [0.0; 4],
        },
        "lima: set uniform N (0 to 65535; lanes left out: 0)",
    ),
    OptionSpec::new(
        "texture",
        "N=FILE.png",
        OptionKind::SlotFile { slots: &SAMPLER_SLOTS },
        "lima: bind a PNG picture to sampler N (0 to 4095)",
    ),
    OptionSpec::new(
        "fragcoord",
        "X,Y[,Z,W]",
        OptionKind::Lanes {
            min: 2,
            max: 4,
            fill: [0.0, 0.0, 0.0, 1.0],
        },
        "lima: gl_FragCoord of the one fragment (default 0,0,0,1)",
    ),
    OptionSpec::new(
        "size",
        "WxH",
        OptionKind::Size,
        "lima: render a full-screen quad of W x H pixels to a PNG picture (with -o FILE.png)",
    ),
    OptionSpec::new(
        "filter",
        "linear|nearest",
        OptionKind::Words {
            plural: "filters",
            words: &["linear", "nearest"],
        },
        "lima: texture filtering (default linear: bilinear)",
    ),
    OptionSpec::new(
        "wrap",
        "repeat|clamp",
        OptionKind::Words {
            plural: "wrap modes",
            words: &["repeat", "clamp"],
        },
        "lima: what texture coordinates outside [0, 1] read (default repeat)",
    ),
    OptionSpec::new(
        "max-steps",
        "N",
        OptionKind::Whole {
            min: 1,
            max: u64::MAX,
            example: 1_000_000,
        },
        "lima: the most instructions one fragment may run before it is an error (default 100000)",
    ),
    OptionSpec::new(
        "fb-color",
        "R,G,B,A",
        OptionKind::Lanes {
            min: 1,
            max: 4,
            fill: [0.0; 4],
        },
        "lima: the framebuffer colour that fb_color reads (default 0,0,0,0)",
    ),
    OptionSpec::new(
        "fb-depth",
        "D",
        OptionKind::Lanes {
            min: 1,
            max: 1,
            fill: [0.0; 4],
        },
        "lima: the depth that fb_depth reads (default 0)",
    ),
];

/// The biggest texture file read, in bytes.
pub const MAX_TEXTURE_FILE: u64 = 256 << 20;

/// What the options ask for.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// Everything but the textures, which [`load_textures`] reads.
    pub inputs: Inputs,
    /// `--texture N=PATH`, in command-line order.
    pub textures: Vec<(usize, String)>,
    /// `--size WxH`: render a picture of this size.
    pub size: Option<(u32, u32)>,
}

/// The `N=X,Y,Z,W` values of `--varying` or `--uniform` as a table by slot, each slot once.
fn slot_table(options: &TargetOptions, long: &str) -> Result<Vec<Vec4>, UsageError> {
    let mut table: Vec<Vec4> = Vec::new();
    let mut given: Vec<usize> = Vec::new();
    for (slot, value) in options.values.slots(long) {
        if given.contains(&slot) {
            return Err(usage(
                format!("{long} {slot} is given twice"),
                format!("give each {long} once"),
            ));
        }
        given.push(slot);
        if table.len() <= slot {
            table.resize(slot + 1, [0.0; 4]);
        }
        table[slot] = value;
    }
    Ok(table)
}

/// Reads the run options and checks them together (not the texture files).
pub fn run_settings(options: &TargetOptions) -> Result<RunSettings, UsageError> {
    let defaults = Inputs::default();
    let varyings = slot_table(options, "varying")?;
    let uniforms = slot_table(options, "uniform")?;
    let mut textures: Vec<(usize, String)> = Vec::new();
    for (sampler, path) in options.values.slot_files("texture") {
        if textures.iter().any(|(n, _)| *n == sampler) {
            return Err(usage(
                format!("texture {sampler} is given twice"),
                "give each sampler one texture",
            ));
        }
        textures.push((sampler, path.to_string()));
    }
    let size = options.values.size("size");
    if size.is_some() {
        if options.values.flag("fragcoord") {
            return Err(usage(
                "`--fragcoord` sets the one fragment's position, and `--size` renders every pixel at its own",
                "leave out `--fragcoord` when rendering, or `--size` to run one fragment",
            ));
        }
        if options.values.slots("varying").any(|(slot, _)| slot == 0) {
            return Err(usage(
                "varying 0 is each pixel's (u, v) when rendering with `--size`",
                "pass your values in another varying, or leave out `--size` to run one fragment",
            ));
        }
    }
    let inputs = Inputs {
        varyings,
        uniforms,
        frag_coord: options.values.lanes("fragcoord").unwrap_or(defaults.frag_coord),
        fb_color: options.values.lanes("fb-color").unwrap_or(defaults.fb_color),
        fb_depth: options
            .values
            .lanes("fb-depth")
            .map_or(defaults.fb_depth, |[depth, ..]| depth),
        filter: match options.values.word("filter") {
            Some("nearest") => Filter::Nearest,
            _ => Filter::Linear,
        },
        wrap: match options.values.word("wrap") {
            Some("clamp") => Wrap::Clamp,
            _ => Wrap::Repeat,
        },
        max_steps: options.values.whole("max-steps").unwrap_or(defaults.max_steps),
        ..defaults
    };
    Ok(RunSettings { inputs, textures, size })
}

/// The width and height a PNG picture's header gives, read without decoding the picture.
pub fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    header_size(io::Cursor::new(bytes))
}

/// The width and height in the header of the PNG picture `input` starts with; only the
/// chunks before the pixels are read.
fn header_size(input: impl io::BufRead + io::Seek) -> Result<(u32, u32), String> {
    let mut decoder = png::Decoder::new(input);
    decoder.set_limits(png::Limits {
        bytes: MAX_TEXTURE_FILE as usize,
    });
    let reader = decoder.read_info().map_err(|e| png_reason(&e))?;
    let info = reader.info();
    Ok((info.width, info.height))
}

/// Whether a `width` x `height` texture fits: at most [`MAX_TEXTURE_SIDE`] a side, and with
/// the `texels` the run's other textures hold, at most [`MAX_TEXTURE_TEXELS`] in all.
fn check_texture_size(width: u32, height: u32, texels: u64) -> Result<(), String> {
    if width > MAX_TEXTURE_SIDE || height > MAX_TEXTURE_SIDE {
        return Err(format!(
            "the picture is {width}x{height}, and a texture is at most {MAX_TEXTURE_SIDE} pixels a side"
        ));
    }
    if texels + u64::from(width) * u64::from(height) > MAX_TEXTURE_TEXELS {
        return Err(format!(
            "the picture is {width}x{height}, and the textures a program samples hold at most \
             {MAX_TEXTURE_TEXELS} texels together"
        ));
    }
    Ok(())
}

/// A PNG picture as a texture (any colour type and depth; 16-bit channels keep their high
/// byte). Errors say what is wrong in words: a picture larger than [`MAX_TEXTURE_SIDE`] a
/// side is refused from its header, before any pixel is decoded, and memory that cannot be
/// had is an error, not an abort.
pub fn decode_png(bytes: &[u8]) -> Result<Texture, String> {
    decode_png_within(bytes, 0)
}

/// [`decode_png`] for a run whose other textures hold `texels` texels.
fn decode_png_within(bytes: &[u8], texels: u64) -> Result<Texture, String> {
    let mut decoder = png::Decoder::new(io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    decoder.set_limits(png::Limits {
        bytes: MAX_TEXTURE_FILE as usize,
    });
    let mut reader = decoder.read_info().map_err(|e| png_reason(&e))?;
    let (width, height) = {
        let info = reader.info();
        (info.width, info.height)
    };
    check_texture_size(width, height, texels)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the picture is too large".to_string())?;
    let mut buffer = try_vec::<u8>(size).map_err(|e| memory_reason(&e))?;
    buffer.resize(size, 0);
    let frame = reader.next_frame(&mut buffer).map_err(|e| png_reason(&e))?;
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        png::ColorType::Indexed => return Err("the palette could not be expanded".to_string()),
    };
    let mut rgba = try_vec::<u8>(width as usize * height as usize * 4).map_err(|e| memory_reason(&e))?;
    for row in buffer.chunks(frame.line_size).take(height as usize) {
        for pixel in row.chunks_exact(channels).take(width as usize) {
            rgba.extend_from_slice(&match *pixel {
                [g] => [g, g, g, 255],
                [g, a] => [g, g, g, a],
                [r, g, b] => [r, g, b, 255],
                [r, g, b, a] => [r, g, b, a],
                _ => unreachable!("pixels have 1 to 4 channels"),
            });
        }
    }
    drop(buffer);
    Texture::try_from_rgba8(width, height, &rgba)
        .map_err(|e| memory_reason(&e))?
        .ok_or_else(|| "the picture has no pixels".to_string())
}

fn memory_reason(error: &AllocError) -> String {
    format!("decoding it needs memory that cannot be had ({error})")
}

fn png_reason(error: &png::DecodingError) -> String {
    match error {
        png::DecodingError::IoError(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
            "it ends before the picture does".to_string()
        }
        png::DecodingError::LimitsExceeded => format!("decoding it needs more than {MAX_TEXTURE_FILE} bytes"),
        png::DecodingError::Format(e) => format!("it is not a valid PNG picture ({e})"),
        other => other.to_string(),
    }
}

/// The textures of a run, by sampler, and the warnings about them.
#[derive(Clone, Debug)]
pub struct Textures {
    /// The texture of each sampler number that has one.
    pub table: Vec<Option<Texture>>,
    /// A warning for each texture the program never samples.
    pub warnings: Vec<Diagnostic>,
}

/// Reads the `--texture` files that the program samples, sampler by sampler: `used` lists
/// the samplers its fetches read, or is `None` when any may be read (see
/// [`Program::samplers`]). A texture the program never samples is not decoded: its file is
/// only opened, so that a wrong path is still an error, and it gets a warning. The sizes in
/// the headers of all textures read are checked before any is decoded, and the regular files
/// are then read and decoded one at a time. Files are opened without waiting for a writer (a
/// FIFO nobody writes is an empty file); a pipe or device, which can be read only once, is
/// read whole (at most [`MAX_TEXTURE_FILE`] bytes) when its header is checked.
pub fn load_textures(textures: &[(usize, String)], used: Option<&[usize]>) -> Result<Textures, Box<Diagnostic>> {
    use io::Read;
    let fail = |sampler: usize, path: &str, reason: &str| Box::new(crate::error::texture_error(sampler, path, reason));
    let io_fail = |sampler: usize, path: &str, e: &io::Error| fail(sampler, path, &polyasm_core::fs::reason(e));
    let read_fail = |sampler: usize, path: &str, e: polyasm_core::fs::ReadError| {
        let reason = match e {
            polyasm_core::fs::ReadError::TooLarge => format!("it is larger than {MAX_TEXTURE_FILE} bytes"),
            polyasm_core::fs::ReadError::Io(e) => polyasm_core::fs::reason(&e),
        };
        fail(sampler, path, &reason)
    };
    /// A sampled texture between the header check and the decoding.
    enum Opened {
        /// A regular file, opened again to be decoded (not held open, so that a run may bind
        /// more textures than a process may hold files open).
        File,
        /// A pipe's or device's bytes, read once.
        Bytes(Vec<u8>),
    }
    let mut warnings = Vec::new();
    let mut sampled = Vec::new();
    let mut texels = 0u64;
    for (sampler, path) in textures {
        let file =
            polyasm_core::fs::open_for_reading(std::path::Path::new(path)).map_err(|e| io_fail(*sampler, path, &e))?;
        let meta = file.metadata().map_err(|e| io_fail(*sampler, path, &e))?;
        if meta.is_dir() {
            return Err(fail(*sampler, path, "it is a directory"));
        }
        if used.is_some_and(|used| used.binary_search(sampler).is_err()) {
            warnings.push(crate::error::unused_texture(*sampler, path));
            continue;
        }
        let (opened, (width, height)) = if meta.is_file() {
            let size = header_size(io::BufReader::new(&file)).map_err(|reason| fail(*sampler, path, &reason))?;
            (Opened::File, size)
        } else {
            // The signature first, so that an endless device that is no PNG is not read on.
            let mut bytes = Vec::new();
            (&file)
                .take(PNG_SIGNATURE.len() as u64)
                .read_to_end(&mut bytes)
                .map_err(|e| io_fail(*sampler, path, &e))?;
            if bytes == PNG_SIGNATURE {
                let rest = polyasm_core::fs::read_bounded(&file, MAX_TEXTURE_FILE - bytes.len() as u64, 0)
                    .map_err(|e| read_fail(*sampler, path, e))?;
                bytes.extend_from_slice(&rest);
            }
            let size = png_size(&bytes).map_err(|reason| fail(*sampler, path, &reason))?;
            (Opened::Bytes(bytes), size)
        };
        check_texture_size(width, height, texels).map_err(|reason| fail(*sampler, path, &reason))?;
        texels += u64::from(width) * u64::from(height);
        sampled.push((*sampler, path, opened));
    }
    let mut table: Vec<Option<Texture>> = Vec::new();
    let mut texels = 0u64;
    for (sampler, path, opened) in sampled {
        let bytes = match opened {
            Opened::Bytes(bytes) => bytes,
            Opened::File => {
                let file = polyasm_core::fs::open_for_reading(std::path::Path::new(path))
                    .map_err(|e| io_fail(sampler, path, &e))?;
                let len = file.metadata().map_err(|e| io_fail(sampler, path, &e))?.len();
                polyasm_core::fs::read_bounded(&file, MAX_TEXTURE_FILE, len).map_err(|e| read_fail(sampler, path, e))?
            }
        };
        let texture = decode_png_within(&bytes, texels).map_err(|reason| fail(sampler, path, &reason))?;
        texels += u64::from(texture.width()) * u64::from(texture.height());
        if table.len() <= sampler {
            table.resize(sampler + 1, None);
        }
        table[sampler] = Some(texture);
    }
    Ok(Textures { table, warnings })
}

/// The eight bytes every PNG file starts with.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// The line `polyasm run` prints for one fragment: `$0 = (x, y, z, w)`, each number the
/// shortest decimal that reads back as the same f32, or `discarded`.
pub fn format_output(output: &Output) -> String {
    match output {
        Output::Color([x, y, z, w]) => format!("$0 = ({x}, {y}, {z}, {w})\n"),
        Output::Discarded => "discarded\n".to_string(),
    }
}

/// Runs an assembled program: one fragment, whose output is printed on `io.stdout`, or with
/// `--size` a picture, written to `io.stdout` as a PNG.
pub fn run_object(object: &Object, options: &TargetOptions, io: &mut RunIo) -> RunOutcome {
    let settings = run_settings(options)?;
    let words: Vec<u32> = object.words().collect();
    let program = match Program::from_words(&words) {
        Ok(program) => program,
        Err(e) => return Ok(Outcome::failed(vec![crate::error::decode_error("the program", &e)])),
    };
    Ok(run_program(&program, object, settings, io))
}

/// [`run_object`] once the program is decoded; `object` gives the source spans of errors.
pub fn run_program(
    program: &Program,
    object: &Object,
    mut settings: RunSettings,
    io: &mut RunIo,
) -> Outcome<ExitStatus> {
    let textures = match load_textures(&settings.textures, program.samplers().as_deref()) {
        Ok(textures) => textures,
        Err(d) => return Outcome::failed(vec![*d]),
    };
    settings.inputs.textures = textures.table;
    let mut outcome = run_with_textures(program, object, &settings, io);
    outcome.diagnostics.splice(0..0, textures.warnings);
    outcome
}

/// [`run_program`] once the textures are read.
fn run_with_textures(
    program: &Program,
    object: &Object,
    settings: &RunSettings,
    io: &mut RunIo,
) -> Outcome<ExitStatus> {
    let inputs = &settings.inputs;
    let bytes = match settings.size {
        Some((width, height)) => match exec::render(program, inputs, width, height) {
            Ok(image) => {
                let mut png = Vec::new();
                image.write_png(&mut png).expect("a Vec takes any bytes");
                png
            }
            Err(e) => return Outcome::failed(vec![crate::error::run_error(&e, object)]),
        },
        None => match exec::run_fragment(program, inputs) {
            Ok(output) => format_output(&output).into_bytes(),
            Err(e) => return Outcome::failed(vec![crate::error::run_error(&e, object)]),
        },
    };
    let written = io.stdout.write_all(&bytes).and_then(|()| io.stdout.flush());
    // A reader that stopped early (`| head`) ends the run quietly.
    match written.map_err(|e| polyasm_core::stream::stdout_failed(&e)) {
        Ok(()) | Err(None) => Outcome::ok(ExitStatus::SUCCESS),
        Err(Some(d)) => Outcome::failed(vec![d]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyasm_core::options::OptionValues;

    fn read(pairs: &[(&str, &str)]) -> Result<TargetOptions, UsageError> {
        OptionValues::read(&[RUN_OPTIONS], pairs).map(|values| TargetOptions {
            values,
            ..TargetOptions::default()
        })
    }

    fn options(pairs: &[(&str, &str)]) -> TargetOptions {
        read(pairs).expect("good values")
    }

    fn error(pairs: &[(&str, &str)]) -> Diagnostic {
        *read(pairs).and_then(|o| run_settings(&o)).unwrap_err().0
    }

    #[test]
    fn sizes_are_read_and_bounded() {
        use polyasm_core::picture::parse_size;
        assert_eq!(parse_size("640x360"), Ok((640, 360)));
        assert_eq!(parse_size("1X1"), Ok((1, 1)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("16385x1").is_err());
        assert!(parse_size("16384x16384").unwrap_err().contains("at most"));
        assert!(parse_size("640").unwrap_err().contains("`x`"));
        assert!(parse_size("+4x5").is_err());
    }

    #[test]
    fn options_fill_the_inputs() {
        let settings = run_settings(&options(&[
            ("varying", "2=1,2"),
            ("uniform", "1=0.5"),
            ("texture", "3=a.png"),
            ("fragcoord", "1.5,2.5"),
            ("filter", "nearest"),
            ("wrap", "clamp"),
            ("max-steps", "7"),
            ("fb-color", "0.25,0.5,0.75,1"),
            ("fb-depth", "0.5"),
        ]))
        .unwrap();
        let inputs = &settings.inputs;
        assert_eq!(inputs.varyings, vec![[0.0; 4], [0.0; 4], [1.0, 2.0, 0.0, 0.0]]);
        assert_eq!(inputs.uniforms, vec![[0.0; 4], [0.5, 0.0, 0.0, 0.0]]);
        assert_eq!(settings.textures, vec![(3, "a.png".to_string())]);
        assert_eq!(inputs.frag_coord, [1.5, 2.5, 0.0, 1.0]);
        assert_eq!(
            (inputs.filter, inputs.wrap, inputs.max_steps),
            (Filter::Nearest, Wrap::Clamp, 7)
        );
        assert_eq!((inputs.fb_color, inputs.fb_depth), ([0.25, 0.5, 0.75, 1.0], 0.5));
        assert_eq!(settings.size, None);
        let defaults = run_settings(&TargetOptions::default()).unwrap();
        assert_eq!(defaults.inputs.max_steps, exec::DEFAULT_MAX_STEPS);
        assert_eq!(defaults.inputs.filter, Filter::Linear);
    }

    #[test]
    fn bad_values_are_usage_errors_with_help() {
        for (pairs, message) in [
            (&[("varying", "64=1")][..], "varying slot 64 is out of range"),
            (&[("varying", "1=1,2,3,4,5")], "at most 4"),
            (&[("varying", "1=2"), ("varying", "1=3")], "varying 1 is given twice"),
            (&[("uniform", "x=1")], "`x` names no uniform slot"),
            (&[("uniform", "65536=1")], "out of range"),
            (&[("texture", "a.png")], "should be N=FILE.png"),
            (&[("texture", "4096=a.png")], "sampler slot 4096 is out of range"),
            (&[("texture", "0=")], "the file is missing"),
            (
                &[("texture", "0=a.png"), ("texture", "0=b.png")],
                "texture 0 is given twice",
            ),
            (&[("fragcoord", "1")], "has 1 number, and"),
            (&[("fragcoord", "1,z")], "`z` is not a number"),
            (&[("size", "10")], "for `--size`"),
            (&[("filter", "cubic")], "for `--filter`"),
            (&[("wrap", "mirror")], "for `--wrap`"),
            (&[("max-steps", "0")], "for `--max-steps`"),
            (&[("fb-depth", "deep")], "not a number"),
            (&[("size", "4x4"), ("fragcoord", "1,1")], "`--fragcoord`"),
            (
                &[("size", "4x4"), ("varying", "0=1")],
                "varying 0 is each pixel's (u, v)",
            ),
        ] {
            let d = error(pairs);
            assert_eq!(d.code, "PA006");
            assert!(d.message.contains(message), "{pairs:?}: {}", d.message);
            assert!(d.help.is_some(), "{pairs:?}");
        }
        assert!(run_settings(&options(&[("size", "4x4"), ("varying", "1=1")])).is_ok());
    }

    #[test]
    fn outputs_print_as_shortest_decimals() {
        assert_eq!(
            format_output(&Output::Color([1.0, 0.0, -0.5, -1.677_734_4])),
            "$0 = (1, 0, -0.5, -1.6777344)\n"
        );
        assert_eq!(format_output(&Output::Discarded), "discarded\n");
    }

    #[test]
    fn a_failed_allocation_is_an_error_that_becomes_the_texture_diagnostic() {
        // More than the address space: the reservation fails at once, with nothing allocated.
        let e = try_vec::<u8>(isize::MAX as usize).unwrap_err();
        assert_eq!(e.bytes, isize::MAX as usize);
        let e = try_vec::<Vec4>(usize::MAX / 4).unwrap_err();
        assert_eq!(e.bytes, usize::MAX);
        let reason = memory_reason(&e);
        assert_eq!(
            reason,
            format!(
                "decoding it needs memory that cannot be had ({} bytes of memory could not be allocated)",
                usize::MAX
            )
        );
        let d = crate::error::texture_error(0, "a.png", &reason);
        assert_eq!((d.code, d.severity), ("PP305", polyasm_core::Severity::Error));
        assert!(d.message.ends_with("could not be allocated)"), "{}", d.message);
        assert_eq!(try_vec::<u8>(16).unwrap().capacity(), 16);
    }

    fn png_of(width: u32, height: u32) -> Vec<u8> {
        let image = crate::exec::Image {
            width,
            height,
            rgba: vec![7; (width * height * 4) as usize],
        };
        let mut png = Vec::new();
        image.write_png(&mut png).unwrap();
        png
    }

    #[test]
    fn texture_sizes_are_checked_before_decoding_against_the_side_and_the_runs_budget() {
        assert_eq!(check_texture_size(4096, 4096, 0), Ok(()));
        let e = check_texture_size(4097, 1, 0).unwrap_err();
        assert_eq!(e, "the picture is 4097x1, and a texture is at most 4096 pixels a side");
        assert_eq!(check_texture_size(4096, 4096, MAX_TEXTURE_TEXELS - (1 << 24)), Ok(()));
        let e = check_texture_size(4096, 4096, MAX_TEXTURE_TEXELS - (1 << 24) + 1).unwrap_err();
        assert!(e.contains("at most 67108864 texels together"), "{e}");
        let png = png_of(3, 2);
        assert_eq!(png_size(&png), Ok((3, 2)));
        assert!(decode_png_within(&png, MAX_TEXTURE_TEXELS - 6).is_ok());
        let e = decode_png_within(&png, MAX_TEXTURE_TEXELS - 5).unwrap_err();
        assert!(e.starts_with("the picture is 3x2, and the textures"), "{e}");
        assert!(
            decode_png(&png_of(4097, 1))
                .unwrap_err()
                .contains("at most 4096 pixels a side")
        );
    }

    #[test]
    fn only_the_textures_a_program_samples_are_decoded() {
        let dir = tempfile::tempdir().unwrap();
        let picture = dir.path().join("p.png");
        std::fs::write(&picture, png_of(2, 2)).unwrap();
        let garbage = dir.path().join("g.png");
        std::fs::write(&garbage, b"not a picture").unwrap();
        let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
        let textures = vec![(3, path(&picture)), (5, path(&garbage))];
        // Sampler 5 is never sampled: its file is opened, not decoded.
        let read = load_textures(&textures, Some(&[0, 3])).unwrap();
        assert_eq!(read.table.len(), 4);
        assert_eq!(read.table[3].as_ref().map(|t| (t.width(), t.height())), Some((2, 2)));
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(read.warnings[0].code, "PP306");
        assert!(
            read.warnings[0].message.starts_with("texture 5 "),
            "{}",
            read.warnings[0].message
        );
        // When any sampler may be read, every texture is decoded.
        let e = load_textures(&textures, None).unwrap_err();
        assert_eq!(e.code, "PP305");
        assert!(e.message.contains("texture 5"), "{}", e.message);
        // A directory or a missing file is an error even when unsampled.
        for bad in [path(dir.path()), path(&dir.path().join("missing.png"))] {
            let e = load_textures(&[(1, bad.clone())], Some(&[])).unwrap_err();
            assert_eq!(e.code, "PP305", "{bad}");
        }
    }

    #[test]
    fn a_program_names_the_samplers_it_reads() {
        use crate::instr::{Instr, Sampler};
        let fetch = |index, offset| Instr {
            sampler: Some(Sampler {
                index,
                offset,
                lod_bias: None,
                explicit_lod: false,
                constant_lod_bias: 0,
            }),
            ..Instr::default()
        };
        let program = Program::new(&[fetch(7, None), Instr::default(), fetch(2, None), fetch(7, None)]);
        assert_eq!(program.samplers(), Some(vec![2, 7]));
        assert_eq!(Program::new(&[Instr::default()]).samplers(), Some(vec![]));
        assert_eq!(Program::new(&[fetch(2, None), fetch(0, Some(4))]).samplers(), None);
    }

    #[test]
    fn pictures_round_trip_through_png() {
        let rgba: Vec<u8> = (0..6 * 4).map(|i| (i * 10) as u8).collect();
        let image = crate::exec::Image {
            width: 3,
            height: 2,
            rgba: rgba.clone(),
        };
        let mut png = Vec::new();
        image.write_png(&mut png).unwrap();
        assert_eq!(decode_png(&png).unwrap(), Texture::from_rgba8(3, 2, &rgba).unwrap());
        assert!(decode_png(b"not a png").unwrap_err().contains("not a valid PNG"));
        assert!(decode_png(&png[..png.len() / 2]).is_err());
    }
}
