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
//! let mut io = RunIo { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr, files: None, end: None };
//! let outcome = polyasm_lima::run::run_object(&object, &TargetOptions::default(), &mut io).expect("no usage error");
//! assert_eq!(outcome.value, Some(ExitStatus::SUCCESS));
//! assert_eq!(String::from_utf8(stdout).unwrap(), "$0 = (1, 1, 1, 1)\n");
//! ```

use std::io::{self, Read};

use polyasm_core::fs;
use polyasm_core::number::{LeadingZeros, parse_decimal};
use polyasm_core::options::{OptionKind, OptionSpec, SlotKind, TargetOptions, UsageError, usage};
use polyasm_core::stream::{ExitStatus, RunIo, output_written};
use polyasm_core::target::RunOutcome;
use polyasm_core::{Diagnostic, Object, Outcome};

use crate::exec::{
    self, AllocError, Filter, Inputs, MAX_TEXTURE_SIDE, MAX_TEXTURE_TEXELS, Output, Program, SAMPLERS, Texture,
    UNIFORM_SLOTS, VARYING_SLOTS, Vec4, Wrap, try_vec,
};

static VARYINGS: SlotKind = numbered("varying", VARYING_SLOTS, "numbers from 0 to 63");
static UNIFORMS: SlotKind = numbered("uniform", UNIFORM_SLOTS, "numbers from 0 to 65535");
static SAMPLER_SLOTS: SlotKind = numbered("sampler", SAMPLERS, "numbers from 0 to 4095");

/// `count` slots of `what`, named by their numbers.
const fn numbered(what: &'static str, count: usize, hint: &'static str) -> SlotKind {
    SlotKind {
        what,
        count,
        parse: slot_number,
        hint,
    }
}

fn slot_number(text: &str) -> Option<usize> {
    let number = parse_decimal(text, u64::MAX, LeadingZeros::Allowed).ok()?;
    usize::try_from(number).ok()
}

/// `--LONG N=X,Y,Z,W`: the vec4 of a slot, lanes left out 0.
const fn vec4_slot(long: &'static str, slots: &'static SlotKind, help: &'static str) -> OptionSpec {
    OptionSpec::new(long, "N=X,Y,Z,W", OptionKind::Slot { slots, fill: [0.0; 4] }, help)
}

const fn lanes(min: usize, max: usize, fill: Vec4) -> OptionKind {
    OptionKind::Lanes { min, max, fill }
}

const fn words(plural: &'static str, words: &'static [&'static str]) -> OptionKind {
    OptionKind::Words { plural, words }
}

/// The options of `polyasm run` for Lima.
pub static RUN_OPTIONS: &[OptionSpec] = &[
    vec4_slot(
        "varying",
        &VARYINGS,
        "lima: set varying N (0 to 63; lanes left out: 0); when rendering, varying 0 is the pixel's (u, v)",
    ),
    vec4_slot(
        "uniform",
        &UNIFORMS,
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
        lanes(2, 4, [0.0, 0.0, 0.0, 1.0]),
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
        words("filters", &["linear", "nearest"]),
        "lima: texture filtering (default linear: bilinear)",
    ),
    OptionSpec::new(
        "wrap",
        "repeat|clamp",
        words("wrap modes", &["repeat", "clamp"]),
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
        lanes(1, 4, [0.0; 4]),
        "lima: the framebuffer colour that fb_color reads (default 0,0,0,0)",
    ),
    OptionSpec::new(
        "fb-depth",
        "D",
        lanes(1, 1, [0.0; 4]),
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

/// The `(slot, value)` pairs given to option `long`, in command-line order; a slot given twice
/// is a usage error, with `help`.
fn each_slot_once<T>(
    long: &str,
    pairs: impl Iterator<Item = (usize, T)>,
    help: &str,
) -> Result<Vec<(usize, T)>, UsageError> {
    let mut given = std::collections::HashSet::new();
    let mut once: Vec<(usize, T)> = Vec::new();
    for (slot, value) in pairs {
        if !given.insert(slot) {
            return Err(usage(format!("{long} {slot} is given twice"), help));
        }
        once.push((slot, value));
    }
    Ok(once)
}

/// The `N=X,Y,Z,W` values of `--varying` or `--uniform` as a table by slot, each slot once.
fn slot_table(options: &TargetOptions, long: &str) -> Result<Vec<Vec4>, UsageError> {
    let mut table: Vec<Vec4> = Vec::new();
    for (slot, value) in each_slot_once(long, options.values.slots(long), &format!("give each {long} once"))? {
        if table.len() <= slot {
            table.resize(slot + 1, [0.0; 4]);
        }
        table[slot] = value;
    }
    Ok(table)
}

/// Reads the run options and checks them together (not the texture files).
pub fn run_settings(options: &TargetOptions) -> Result<RunSettings, UsageError> {
    let (values, defaults) = (&options.values, Inputs::default());
    let varyings = slot_table(options, "varying")?;
    let uniforms = slot_table(options, "uniform")?;
    let files = values.slot_files("texture").map(|(n, path)| (n, path.to_string()));
    let textures = each_slot_once("texture", files, "give each sampler one texture")?;
    let size = values.size("size");
    if size.is_some() {
        if values.flag("fragcoord") {
            return Err(usage(
                "`--fragcoord` sets the one fragment's position, and `--size` renders every pixel at its own",
                "leave out `--fragcoord` when rendering, or `--size` to run one fragment",
            ));
        }
        if values.slots("varying").any(|(slot, _)| slot == 0) {
            return Err(usage(
                "varying 0 is each pixel's (u, v) when rendering with `--size`",
                "pass your values in another varying, or leave out `--size` to run one fragment",
            ));
        }
    }
    let inputs = Inputs {
        varyings,
        uniforms,
        frag_coord: values.lanes("fragcoord").unwrap_or(defaults.frag_coord),
        fb_color: values.lanes("fb-color").unwrap_or(defaults.fb_color),
        fb_depth: values.lanes("fb-depth").map_or(defaults.fb_depth, |[depth, ..]| depth),
        filter: match values.word("filter") {
            Some("nearest") => Filter::Nearest,
            _ => Filter::Linear,
        },
        wrap: match values.word("wrap") {
            Some("clamp") => Wrap::Clamp,
            _ => Wrap::Repeat,
        },
        max_steps: values.whole("max-steps").unwrap_or(defaults.max_steps),
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
    let info = read_header(png::Decoder::new(input))?;
    Ok((info.info().width, info.info().height))
}

/// A reader past the PNG picture's header, which `decoder` reads within [`MAX_TEXTURE_FILE`].
fn read_header<R: io::BufRead + io::Seek>(mut decoder: png::Decoder<R>) -> Result<png::Reader<R>, String> {
    decoder.set_limits(png::Limits {
        bytes: MAX_TEXTURE_FILE as usize,
    });
    decoder.read_info().map_err(|e| png_reason(&e))
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
#[doc(hidden)]
pub fn decode_png_within(bytes: &[u8], texels: u64) -> Result<Texture, String> {
    let mut decoder = png::Decoder::new(io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = read_header(decoder)?;
    let (width, height) = (reader.info().width, reader.info().height);
    check_texture_size(width, height, texels)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| "the picture is too large".to_string())?;
    let mut buffer = try_vec::<u8>(size).map_err(|e| memory_reason(&e))?;
    buffer.resize(size, 0);
    let frame = reader.next_frame(&mut buffer).map_err(|e| png_reason(&e))?;
    if frame.color_type == png::ColorType::Indexed {
        return Err("the palette could not be expanded".to_string());
    }
    let channels = frame.color_type.samples();
    let mut rgba = try_vec::<u8>(width as usize * height as usize * 4).map_err(|e| memory_reason(&e))?;
    for row in buffer.chunks(frame.line_size).take(height as usize) {
        polyasm_core::picture::push_rgba_row(row, channels, width as usize, &mut rgba);
    }
    drop(buffer);
    Texture::try_from_rgba8(width, height, &rgba)
        .map_err(|e| memory_reason(&e))?
        .ok_or_else(|| "the picture has no pixels".to_string())
}

/// Why a texture cannot be decoded when memory cannot be had.
#[doc(hidden)]
pub fn memory_reason(error: &AllocError) -> String {
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
        let fail = |reason: String| Box::new(crate::error::texture_error(*sampler, path, &reason));
        let (file, meta) = open_texture(path).map_err(fail)?;
        if meta.is_dir() {
            return Err(fail("it is a directory".to_string()));
        }
        if used.is_some_and(|used| used.binary_search(sampler).is_err()) {
            warnings.push(crate::error::unused_texture(*sampler, path));
            continue;
        }
        let (opened, (width, height)) = if meta.is_file() {
            (Opened::File, header_size(io::BufReader::new(&file)).map_err(fail)?)
        } else {
            // The signature first, so that an endless device that is no PNG is not read on.
            let mut bytes = Vec::new();
            let signature = (&file).take(PNG_SIGNATURE.len() as u64).read_to_end(&mut bytes);
            signature.map_err(|e| fail(fs::reason(&e)))?;
            if bytes == PNG_SIGNATURE {
                bytes.extend(read_bounded(&file, MAX_TEXTURE_FILE - bytes.len() as u64, 0).map_err(fail)?);
            }
            let size = png_size(&bytes).map_err(fail)?;
            (Opened::Bytes(bytes), size)
        };
        check_texture_size(width, height, texels).map_err(fail)?;
        texels += u64::from(width) * u64::from(height);
        sampled.push((*sampler, path, opened));
    }
    let mut table: Vec<Option<Texture>> = Vec::new();
    let mut texels = 0u64;
    for (sampler, path, opened) in sampled {
        let fail = |reason: String| Box::new(crate::error::texture_error(sampler, path, &reason));
        let bytes = match opened {
            Opened::Bytes(bytes) => bytes,
            Opened::File => {
                let (file, meta) = open_texture(path).map_err(fail)?;
                read_bounded(&file, MAX_TEXTURE_FILE, meta.len()).map_err(fail)?
            }
        };
        let texture = decode_png_within(&bytes, texels).map_err(fail)?;
        texels += u64::from(texture.width()) * u64::from(texture.height());
        if table.len() <= sampler {
            table.resize(sampler + 1, None);
        }
        table[sampler] = Some(texture);
    }
    Ok(Textures { table, warnings })
}

/// A texture file, opened without waiting for a writer, and what kind of file it is.
fn open_texture(path: &str) -> Result<(std::fs::File, std::fs::Metadata), String> {
    let file = fs::open_for_reading(std::path::Path::new(path)).map_err(|e| fs::reason(&e))?;
    let meta = file.metadata().map_err(|e| fs::reason(&e))?;
    Ok((file, meta))
}

/// At most `limit` bytes of `file`, whose length is `len` when it is a regular file.
fn read_bounded(file: impl Read, limit: u64, len: u64) -> Result<Vec<u8>, String> {
    fs::read_bounded(file, limit, len).map_err(|e| match e {
        fs::ReadError::TooLarge => format!("it is larger than {MAX_TEXTURE_FILE} bytes"),
        fs::ReadError::Io(e) => fs::reason(&e),
    })
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
    Ok(match Program::from_words(&words) {
        Ok(program) => run_program(&program, object, settings, io),
        Err(e) => Outcome::failed(vec![crate::error::decode_error("the program", &e)]),
    })
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
    let inputs = &settings.inputs;
    let bytes = match settings.size {
        Some((width, height)) => exec::render(program, inputs, width, height).map(|image| {
            let mut png = Vec::new();
            image.write_png(&mut png).expect("a Vec takes any bytes");
            png
        }),
        None => exec::run_fragment(program, inputs).map(|output| format_output(&output).into_bytes()),
    };
    let mut outcome = match bytes {
        // A reader that stopped early (`| head`) ends the run quietly.
        Ok(bytes) => output_written(io.stdout.write_all(&bytes).and_then(|()| io.stdout.flush())),
        Err(e) => Outcome::failed(vec![crate::error::run_error(&e, object)]),
    };
    outcome.diagnostics.splice(0..0, textures.warnings);
    outcome
}
