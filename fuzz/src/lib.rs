//! The fuzz targets' shared body: one target per dialect, whose input's first byte chooses
//! what is done with the rest (see [`Mode`] and [`Selector`]).
//!
//! Every stage goes through the dialect's [`Target`], as the command line does, and every
//! diagnostic it returns is rendered in one of the three formats. A crash is a panic (an
//! overflow included: the targets are built with debug assertions), an abort, a timeout or an
//! allocation past libFuzzer's limit. Besides those, the targets check three properties:
//!
//! - a stage that fails has at least one error to say why (the command line would exit 1
//!   without a word otherwise), and every code it reports has an explanation;
//! - the round trip: source that assembles without error, disassembled and assembled again,
//!   gives the same words;
//! - the disassembly of those words assembles without error.

use std::io::Cursor;

use polyasm_core::diagnostic::{Diagnostic, Outcome};
use polyasm_core::object::Object;
use polyasm_core::options::OptionValues;
use polyasm_core::render::{ErrorFormat, Renderer};
use polyasm_core::source::SourceMap;
use polyasm_core::target::{DisasmInput, InputEncoding, Registry, RunIo, Target, TargetOptions};

/// What one input does, from the low two bits of its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The rest is source text: assemble it.
    Assemble,
    /// The rest is machine code (binary words, or hex words when it reads as text): disassemble
    /// it.
    Disassemble,
    /// The rest is source text: assemble it and run it with small limits (or, with
    /// [`Selector::binary`] on a dialect with a binary program format, load it as such a file
    /// and run that).
    Run,
    /// The rest is source text: assemble, disassemble, assemble again and compare the words.
    RoundTrip,
}

/// The first byte of an input, taken apart.
#[derive(Clone, Copy, Debug)]
pub struct Selector {
    pub mode: Mode,
    /// Bits 2-3: how diagnostics are rendered.
    pub format: ErrorFormat,
    /// Bits 2-3 = 3: human output in colour.
    pub color: bool,
    /// Bits 4-5: a choice among the dialect's option sets ([`Dialect`]'s functions read it).
    pub variant: u8,
    /// Bit 6: in [`Mode::Run`], the rest is the dialect's binary program file.
    pub binary: bool,
}

impl Selector {
    pub fn from_byte(byte: u8) -> Selector {
        let mode = match byte & 3 {
            0 => Mode::Assemble,
            1 => Mode::Disassemble,
            2 => Mode::Run,
            _ => Mode::RoundTrip,
        };
        let (format, color) = match (byte >> 2) & 3 {
            0 => (ErrorFormat::Human, false),
            1 => (ErrorFormat::Short, false),
            2 => (ErrorFormat::Json, false),
            _ => (ErrorFormat::Human, true),
        };
        Selector {
            mode,
            format,
            color,
            variant: (byte >> 4) & 3,
            binary: byte & 0x40 != 0,
        }
    }
}

/// One dialect: its target and the options of each stage. The functions get
/// [`Selector::variant`] (0 to 3) and return the options of that stage; the limits of running
/// are small, so that one execution stays short.
pub struct Dialect {
    pub target: &'static dyn Target,
    /// The name the source gets in diagnostics.
    pub file_name: &'static str,
    pub assemble: fn(u8) -> TargetOptions,
    pub disassemble: fn(u8) -> TargetOptions,
    /// The options of the round trip's first assembly.
    pub round_trip: fn(u8) -> TargetOptions,
    /// The options of its second assembly, which reads what [`Dialect::disassemble`] printed
    /// for the same variant.
    pub reassemble: fn(u8) -> TargetOptions,
    pub run: fn(u8) -> TargetOptions,
}

/// Target options of `target` (of any command) from `(name, value)` pairs and flag names.
pub fn options(target: &dyn Target, values: &[(&str, &str)], flags: &[&str]) -> TargetOptions {
    let info = target.info();
    let run = target.runner().map_or(&[][..], |runner| runner.run_info().options);
    let given: Vec<(&str, &str)> = values.iter().copied().chain(flags.iter().map(|&f| (f, ""))).collect();
    match OptionValues::read(&[info.assemble_options, info.disassemble_options, run], &given) {
        Ok(values) => TargetOptions {
            values,
            ..TargetOptions::default()
        },
        Err(usage) => panic!("the fuzz options are a usage error: {}", usage.0.message),
    }
}

/// No options.
pub fn no_options(_variant: u8) -> TargetOptions {
    TargetOptions::default()
}

/// The errors rendered of one stage: the command line's default `--max-errors`.
const RENDERED_ERRORS: usize = 100;

/// What a program reads from standard input when it runs.
const PROGRAM_STDIN: &[u8] = b"7\nab\n";

/// Runs one fuzz input against `dialect`.
pub fn fuzz(dialect: &Dialect, data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let selector = Selector::from_byte(first);
    let registry = Registry::new(vec![dialect.target]);
    let check = Checker {
        registry: &registry,
        selector,
    };
    match selector.mode {
        Mode::Assemble => {
            if let Some(text) = source_text(rest) {
                assemble(dialect, &check, text, &(dialect.assemble)(selector.variant));
            }
        }
        Mode::Disassemble => {
            let encoding = polyasm_core::words::detect_encoding(rest);
            disassemble(
                dialect,
                &check,
                rest,
                encoding,
                &(dialect.disassemble)(selector.variant),
            );
        }
        Mode::Run => run(dialect, &check, rest),
        Mode::RoundTrip => {
            if let Some(text) = source_text(rest) {
                round_trip(dialect, &check, text);
            }
        }
    }
}

/// Source text as the command line reads it: UTF-8, a leading byte-order mark skipped.
fn source_text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok().map(polyasm_core::text::skip_bom)
}

/// Renders diagnostics and checks what every stage owes its caller.
struct Checker<'a> {
    registry: &'a Registry,
    selector: Selector,
}

impl Checker<'_> {
    /// Renders `diagnostics` as the command line does by default (up to
    /// [`RENDERED_ERRORS`] errors) and checks that each code is explained.
    fn render(&self, diagnostics: &[Diagnostic], sources: &SourceMap) {
        let renderer = Renderer::new(sources, self.selector.format, self.selector.color, self.registry);
        let mut errors = 0;
        for diagnostic in diagnostics {
            if errors < RENDERED_ERRORS {
                let text = renderer.render(diagnostic);
                assert!(!text.is_empty(), "{} rendered as nothing", diagnostic.code);
            }
            errors += usize::from(diagnostic.is_error());
            assert!(
                polyasm_core::explain::Explain::explain(self.registry, diagnostic.code).is_some(),
                "code {} has no explanation: {}",
                diagnostic.code,
                diagnostic.message
            );
        }
    }

    /// Renders an outcome's diagnostics; one without a value must say why.
    fn outcome<T>(&self, stage: &str, outcome: &Outcome<T>, sources: &SourceMap) {
        self.render(&outcome.diagnostics, sources);
        assert!(
            outcome.value.is_some() || outcome.has_errors(),
            "{stage} failed without an error: {:?}",
            outcome.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        );
    }
}

/// Assembles `text`; the object when there is no error.
fn assemble(dialect: &Dialect, check: &Checker, text: &str, options: &TargetOptions) -> Option<Object> {
    let mut sources = SourceMap::new();
    let file = sources.add(dialect.file_name, text);
    let mut printed = Vec::new();
    let outcome = dialect.target.assemble(&mut sources, file, options, &mut printed);
    check.outcome("assembling", &outcome, &sources);
    if outcome.has_errors() {
        return None;
    }
    outcome.value
}

/// Disassembles `bytes` read as `encoding`; the text when there is no error.
fn disassemble(
    dialect: &Dialect,
    check: &Checker,
    bytes: &[u8],
    encoding: InputEncoding,
    options: &TargetOptions,
) -> Option<(String, bool)> {
    let mut sources = SourceMap::new();
    let text_source = match (encoding, std::str::from_utf8(bytes)) {
        (InputEncoding::Hex, Ok(text)) => Some(sources.add("fuzz.hex", polyasm_core::text::skip_bom(text))),
        _ => None,
    };
    let input = DisasmInput {
        bytes,
        encoding,
        text_source,
        name: "fuzz.bin",
    };
    let outcome = dialect.target.disassemble(&sources, &input, options);
    check.outcome("disassembling", &outcome, &sources);
    if outcome.has_errors() {
        return None;
    }
    let reassembles = !outcome.diagnostics.iter().any(|d| says_not_reassembled(d.code));
    outcome.value.map(|text| (text, reassembles))
}

/// Whether a disassembler's warning says its text does not assemble again: words the syntax
/// asked for cannot write (Lima's proposed syntax and a constant read without its field).
fn says_not_reassembled(code: &str) -> bool {
    code == polyasm_lima::error::Code::UnsetConstantWords.as_str()
}

/// Assembles (or loads) and runs a program with small limits.
fn run(dialect: &Dialect, check: &Checker, bytes: &[u8]) {
    let target = dialect.target;
    let Some(runner) = target.runner() else {
        return;
    };
    let variant = check.selector.variant;
    let mut sources = SourceMap::new();
    let object = if check.selector.binary && !target.info().binary_extensions.is_empty() {
        let Some(outcome) = runner.load_program(&mut sources, bytes, "fuzz.bin") else {
            return;
        };
        check.outcome("loading", &outcome, &sources);
        match outcome.value {
            Some(object) if !outcome.has_errors() => object,
            _ => return,
        }
    } else {
        let Some(text) = source_text(bytes) else {
            return;
        };
        let mut options = (dialect.assemble)(variant);
        options.skip_listing = !runner.run_info().needs_listing;
        let file = sources.add(dialect.file_name, text);
        let outcome = target.assemble(&mut sources, file, &options, &mut Vec::new());
        check.outcome("assembling", &outcome, &sources);
        match outcome.value {
            Some(object) if !outcome.has_errors() => object,
            _ => return,
        }
    };
    let options = (dialect.run)(variant);
    let mut stdin = Cursor::new(PROGRAM_STDIN);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut io = RunIo {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        files: None,
        end: None,
    };
    match runner.run(&object, &options, &mut sources, &mut io) {
        Ok(outcome) => check.outcome("running", &outcome, &sources),
        Err(usage) => panic!("the fuzz run options are a usage error: {}", usage.0.message),
    }
}

/// Source that assembles without error, disassembled and assembled again, gives the same words;
/// and its disassembly assembles without error, unless the disassembler warned that it cannot.
fn round_trip(dialect: &Dialect, check: &Checker, text: &str) {
    let variant = check.selector.variant;
    let Some(first) = assemble(dialect, check, text, &(dialect.round_trip)(variant)) else {
        return;
    };
    let (disassembly, reassembles) = disassemble(
        dialect,
        check,
        &first.bytes,
        InputEncoding::Binary,
        &(dialect.disassemble)(variant),
    )
    .unwrap_or_else(|| panic!("the words of this source do not disassemble:\n{text}"));
    if !reassembles {
        return;
    }
    let second = assemble(dialect, check, &disassembly, &(dialect.reassemble)(variant)).unwrap_or_else(|| {
        panic!("the disassembly of this source does not assemble:\n--- source\n{text}\n--- disassembly\n{disassembly}")
    });
    assert!(
        first.bytes == second.bytes,
        "the round trip changes the words:\n--- source\n{text}\n--- disassembly\n{disassembly}\n--- words\n{}\n--- words again\n{}",
        hex(&first.bytes),
        hex(&second.bytes)
    );
}

/// Bytes as hex, 16 to a line.
fn hex(bytes: &[u8]) -> String {
    bytes
        .chunks(16)
        .map(|line| line.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The Dreambox VU: one vertex with every input and constant zero.
pub static VU: Dialect = Dialect {
    target: &polyasm_vu::TARGET,
    file_name: "fuzz.vu",
    assemble: no_options,
    disassemble: no_options,
    round_trip: no_options,
    reassemble: no_options,
    run: vu_run,
};

fn vu_run(variant: u8) -> TargetOptions {
    match variant {
        0 => TargetOptions::default(),
        1 => options(&polyasm_vu::TARGET, &[("format", "json")], &[]),
        2 => options(
            &polyasm_vu::TARGET,
            &[("input", "0=1,2,3,4"), ("const", "0=0.5,-1,2,1e30")],
            &[],
        ),
        _ => options(
            &polyasm_vu::TARGET,
            &[("input", "1=1,0,0"), ("input", "1=0,1,0"), ("format", "json")],
            &[],
        ),
    }
}

/// nv2a vertex shaders: one vertex; with and without `--explicit-final`.
pub static NV2A: Dialect = Dialect {
    target: &polyasm_nv2a::TARGET,
    file_name: "fuzz.vsh",
    assemble: nv2a_assemble,
    disassemble: no_options,
    round_trip: nv2a_assemble,
    // The disassembly of `--explicit-final` words shows the final marker as a `.word`.
    reassemble: no_options,
    run: nv2a_run,
};

fn nv2a_assemble(variant: u8) -> TargetOptions {
    match variant & 1 {
        0 => TargetOptions::default(),
        _ => options(&polyasm_nv2a::TARGET, &[], &["explicit-final"]),
    }
}

fn nv2a_run(variant: u8) -> TargetOptions {
    match variant {
        0 => TargetOptions::default(),
        1 => options(&polyasm_nv2a::TARGET, &[("format", "json")], &["arl-bias"]),
        2 => options(
            &polyasm_nv2a::TARGET,
            &[("input", "v0=1,2,3,4"), ("const", "c96=0.5,-1,2,1e30")],
            &[],
        ),
        _ => options(
            &polyasm_nv2a::TARGET,
            &[("input", "v3=1,0,0"), ("input", "v3=0,1,0"), ("format", "json")],
            &[],
        ),
    }
}

/// Masfix: compile-time code and programs stop after a few thousand instructions.
pub static MASFIX: Dialect = Dialect {
    target: &polyasm_masfix::TARGET,
    file_name: "fuzz.mx",
    assemble: masfix_assemble,
    disassemble: no_options,
    // The debug section holds source positions, which the disassembly does not keep.
    round_trip: masfix_stripped,
    reassemble: masfix_stripped,
    run: masfix_run,
};

const MASFIX_CTIME_STEPS: &str = "20000";

fn masfix_assemble(variant: u8) -> TargetOptions {
    match variant & 1 {
        0 => options(&polyasm_masfix::TARGET, &[("ctime-steps", MASFIX_CTIME_STEPS)], &[]),
        _ => masfix_stripped(variant),
    }
}

fn masfix_stripped(_variant: u8) -> TargetOptions {
    options(
        &polyasm_masfix::TARGET,
        &[("ctime-steps", MASFIX_CTIME_STEPS)],
        &["strip"],
    )
}

fn masfix_run(variant: u8) -> TargetOptions {
    match variant {
        0 | 1 => options(&polyasm_masfix::TARGET, &[("max-steps", "20000")], &[]),
        2 => options(&polyasm_masfix::TARGET, &[("max-steps", "2000")], &["trace"]),
        _ => options(
            &polyasm_masfix::TARGET,
            &[("max-steps", "20000"), ("dump-memory", "0..=15")],
            &[],
        ),
    }
}

/// shader-asm: a picture of a few pixels on the CPU.
pub static SHADER: Dialect = Dialect {
    target: &polyasm_shader::TARGET,
    file_name: "fuzz.sasm",
    assemble: no_options,
    disassemble: no_options,
    round_trip: no_options,
    reassemble: no_options,
    run: shader_run,
};

fn shader_run(variant: u8) -> TargetOptions {
    match variant {
        0 => options(&polyasm_shader::TARGET, &[("size", "4x3"), ("device", "cpu")], &[]),
        1 => options(
            &polyasm_shader::TARGET,
            &[("size", "3x4"), ("device", "cpu"), ("time", "1.5")],
            &[],
        ),
        2 => options(
            &polyasm_shader::TARGET,
            &[("size", "1x1"), ("device", "cpu"), ("alpha", "keep")],
            &[],
        ),
        _ => options(
            &polyasm_shader::TARGET,
            &[("size", "2x2"), ("device", "cpu"), ("time", "-1e30")],
            &[],
        ),
    }
}

/// Lima PP: one fragment, or a picture of a few; the proposed syntax and Mesa's.
pub static LIMA: Dialect = Dialect {
    target: &polyasm_lima::TARGET,
    file_name: "fuzz.pp",
    assemble: lima_assemble,
    disassemble: lima_syntax,
    round_trip: lima_assemble,
    reassemble: lima_syntax,
    run: lima_run,
};

fn lima_assemble(variant: u8) -> TargetOptions {
    match variant {
        0 | 3 => TargetOptions::default(),
        _ => lima_syntax(variant),
    }
}

/// Variants 0 and 1 the proposed syntax, 2 and 3 Mesa's.
fn lima_syntax(variant: u8) -> TargetOptions {
    match variant >> 1 {
        0 => options(&polyasm_lima::TARGET, &[("syntax", "proposed")], &[]),
        _ => options(&polyasm_lima::TARGET, &[("syntax", "mesa")], &[]),
    }
}

fn lima_run(variant: u8) -> TargetOptions {
    match variant {
        0 => options(&polyasm_lima::TARGET, &[("max-steps", "2000")], &[]),
        1 => options(
            &polyasm_lima::TARGET,
            &[
                ("max-steps", "2000"),
                ("varying", "0=0.25,0.5,0.75,1"),
                ("uniform", "0=1,2,3,4"),
                ("fragcoord", "3,4"),
            ],
            &[],
        ),
        2 => options(&polyasm_lima::TARGET, &[("max-steps", "500"), ("size", "3x2")], &[]),
        _ => options(
            &polyasm_lima::TARGET,
            &[
                ("max-steps", "2000"),
                ("fb-color", "0.5,0.5,0.5,1"),
                ("fb-depth", "0.25"),
                ("filter", "nearest"),
                ("wrap", "clamp"),
            ],
            &[],
        ),
    }
}
