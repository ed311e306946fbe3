//! nv2a (original Xbox) vertex programs: assembler, disassembler and emulator.
//!
//! The words match nv2avsh (nv2a_vsh_asm) bit for bit, unused fields included.
//!
//! [`assemble_str`] turns source into words (four per instruction), [`disassemble`] turns them
//! back into source, and [`Program`] runs them on one vertex at a time:
//!
//! ```
//! use polyasm_nv2a::{assemble_str, disassemble, AssembleOptions, ExecOptions, Program};
//!
//! let words = assemble_str("mul oPos, v0, c96\nmov oD0, v3\n", AssembleOptions::default())
//!     .expect("valid program");
//! assert_eq!(words.len(), 8);
//! assert_eq!(disassemble(&words).unwrap(), "mul oPos, v0, c96\nmov oD0, v3\n");
//!
//! let program = Program::new(&words).expect("whole instructions");
//! let mut inputs = [[0.0; 4]; 16];
//! inputs[0] = [1.0, 2.0, 3.0, 1.0];
//! inputs[3] = [0.25, 0.5, 0.75, 1.0];
//! let mut constants = [[0.0; 4]; 192];
//! constants[96] = [2.0, 2.0, 2.0, 1.0];
//! let outputs = program.run(&inputs, &mut constants, ExecOptions::default());
//! assert_eq!(outputs[0], [2.0, 4.0, 6.0, 1.0]); // oPos
//! assert_eq!(outputs[1], [0.25, 0.5, 0.75, 1.0]); // oD0, the diffuse colour
//! ```

#![warn(missing_docs)]

pub mod decode;
pub mod editor;
pub mod encode;
pub mod error;
pub mod exec;
pub mod lexer;
pub mod operation;
pub mod ops;
pub mod options;
pub mod parser;
pub mod print;
mod read;

use polyasm_core::front;
use polyasm_core::output::FormatInfo;
use polyasm_core::target::{
    DisasmInput, OptionSpec, ProgramLimit, RunInfo, RunIo, RunOutcome, RunOutput, Runner, Target, TargetInfo,
    TargetOptions, UsageError,
};
use polyasm_core::vertex_io::{self, SlotKind};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap};

pub use encode::Operation;
pub use exec::{ExecOptions, Outputs, Program, ProgramError, Vec4};
pub use ops::{MAX_PAIRED, Slot};
pub use options::AssembleOptions;

/// Assembles source `file` of `sources`.
///
/// Lexing and parsing run a chunk of statements ahead of encoding, on a second thread for big
/// sources ([`front::pipeline`]); the encoder sees the same statements in the same order either way.
pub fn assemble(sources: &SourceMap, file: SourceId, options: AssembleOptions) -> Outcome<Object> {
    assemble_with_listing(sources, file, options, true)
}

/// [`assemble`], with the listing only when `listing` is set (output formats that print no
/// listing skip it); the words and the diagnostics are the same either way.
pub fn assemble_with_listing(
    sources: &SourceMap,
    file: SourceId,
    options: AssembleOptions,
    listing: bool,
) -> Outcome<Object> {
    let source = sources.get(file);
    front::assemble(
        read::Reader::new(file, source.text()),
        encode::Encoder::new(file, source, options, listing),
    )
}

/// Assembles a string with `options` and returns its words, or the diagnostics.
pub fn assemble_str(text: &str, options: AssembleOptions) -> Result<Vec<u32>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble(&sources, file, options);
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(object.words().collect()),
        _ => Err(outcome.diagnostics),
    }
}

/// Words that are not whole instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IncompleteInstruction {
    /// How many words there are, not a multiple of 4.
    pub words: usize,
}

impl std::fmt::Display for IncompleteInstruction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} not a whole number of {}-word instructions",
            polyasm_core::text::count(self.words, "word"),
            if self.words == 1 { "is" } else { "are" },
            ops::WORDS_PER_INSTRUCTION
        )
    }
}

impl std::error::Error for IncompleteInstruction {}

impl IncompleteInstruction {
    fn to_diagnostic(self) -> Diagnostic {
        Diagnostic::error(error::Code::IncompleteInstruction, self.to_string())
            .with_note(match self.words % ops::WORDS_PER_INSTRUCTION {
                1 => "the last word is a partial instruction".to_string(),
                n => format!("the last {n} words are a partial instruction"),
            })
            .with_help("an nv2a instruction is four 32-bit words, d0 to d3")
    }
}

/// Disassembles words (four per instruction) to canonical source, one instruction per line.
///
/// ```
/// let words = polyasm_nv2a::assemble_str("mov oPos, v0\n", Default::default()).unwrap();
/// assert_eq!(polyasm_nv2a::disassemble(&words).unwrap(), "mov oPos, v0\n");
/// ```
pub fn disassemble(words: &[u32]) -> Result<String, IncompleteInstruction> {
    let slots = Slot::split(words).ok_or(IncompleteInstruction { words: words.len() })?;
    Ok(print::disassemble_slots(&slots))
}

/// nv2avsh's C include text: per instruction a `/* source */` line and its four words.
/// The comment is polyasm's canonical print of the instruction.
pub fn write_vshinc(words: &[u32]) -> Result<String, IncompleteInstruction> {
    let slots = Slot::split(words).ok_or(IncompleteInstruction { words: words.len() })?;
    let mut out = String::with_capacity(slots.len() * 96);
    for (index, slot) in slots.iter().enumerate() {
        out.push_str("/* ");
        if decode::is_final_marker(slot, index, slots.len()) {
            out.push_str("final marker");
        } else {
            print::write_decoded(&mut out, &decode::decode(*slot, index, slots.len()));
        }
        out.push_str(" */\n");
        let [a, b, c, d] = slot.0;
        out.push_str(&format!("0x{a:08x}, 0x{b:08x}, 0x{c:08x}, 0x{d:08x},\n"));
    }
    Ok(out)
}

/// The nv2a vertex shader as a polyasm target.
pub struct Nv2aTarget;

/// The registered instance.
pub static TARGET: Nv2aTarget = Nv2aTarget;

static INFO: TargetInfo = TargetInfo {
    name: "nv2a",
    aliases: &["xbox", "nv2a-vsh", "vsh"],
    extensions: &["vsh"],
    binary_extensions: &[],
    description: "original Xbox (nv2a) vertex shaders (nv2avsh compatible)",
    word_bytes: 4,
    program_limit: Some(ProgramLimit {
        units: ops::MAX_INSTRUCTIONS,
        unit: "instruction",
        words_per_unit: ops::WORDS_PER_INSTRUCTION,
    }),
    assemble_options: &[OptionSpec::flag(
        "explicit-final",
        "nv2a: append a [0,0,0,1] final marker instead of setting FINAL on the last instruction",
    )],
    disassemble_options: &[],
    formats: FORMATS,
    preprocesses: false,
};

static FORMATS: &[FormatInfo] = &[FormatInfo {
    name: "vshinc",
    description: "nv2avsh's C include: a /* source */ line and four words per instruction",
    binary: false,
    listing: false,
    extensions: &["vshinc", "inc"],
    executable: false,
}];

static RUN_INFO: RunInfo = RunInfo {
    // The vertex emulators' common options and `--arl-bias`.
    options: &{
        let [input, constant, data, format] = vertex_io::run_options(&INPUT_SLOTS, &CONSTANT_SLOTS);
        [
            input,
            constant,
            data,
            format,
            OptionSpec::flag("arl-bias", "nv2a: ARL adds 0.001 before flooring, as xemu does"),
        ]
    },
    needs_listing: false,
    runtimes: &[],
};

static INPUT_SLOTS: SlotKind = SlotKind {
    what: "input",
    count: ops::INPUTS as usize,
    parse: parse_input_slot,
    hint: "0 to 15, v0 to v15 or a name such as iPos",
};

static CONSTANT_SLOTS: SlotKind = SlotKind {
    what: "constant",
    count: ops::CONSTANTS as usize,
    parse: parse_constant_slot,
    hint: "0 to 191 or c0 to c191",
};

/// A run slot named as in source (`v3`, `iDiffuse`, `c96`) or by its number.
fn parse_slot(name: &str, register: fn(encode::Named) -> Option<u32>) -> Option<usize> {
    match encode::resolve_name(name) {
        Ok(named) => register(named).map(|i| i as usize),
        Err(_) => name.parse().ok(),
    }
}

fn parse_input_slot(name: &str) -> Option<usize> {
    parse_slot(name, |named| match named {
        encode::Named::Input(i) => Some(i),
        _ => None,
    })
}

fn parse_constant_slot(name: &str) -> Option<usize> {
    parse_slot(name, |named| match named {
        encode::Named::Const(i) => Some(i),
        _ => None,
    })
}

/// A loaded program with the constants it reads and writes, run by `polyasm run`.
struct Loaded {
    program: Program,
    constants: [Vec4; ops::CONSTANTS as usize],
    exec_options: ExecOptions,
    outputs: Vec<usize>,
    written_constants: Vec<usize>,
}

impl vertex_io::VertexProgram for Loaded {
    /// The outputs the program writes, then the constants it writes.
    fn names(&self) -> Vec<String> {
        self.outputs
            .iter()
            .map(|&o| ops::OUTPUTS[o].short.to_string())
            .chain(self.written_constants.iter().map(|c| format!("c{c}")))
            .collect()
    }

    fn run_vertex(&mut self, inputs: &[Vec4], values: &mut Vec<Vec4>) {
        let inputs: &[Vec4; ops::INPUTS as usize] = inputs.try_into().expect("one vec4 per input slot");
        // Constant writes carry over to the next vertex (vertex state programs).
        let out = self.program.run(inputs, &mut self.constants, self.exec_options);
        values.extend(self.outputs.iter().map(|&o| out[o]));
        values.extend(self.written_constants.iter().map(|&c| self.constants[c]));
    }
}

/// Assembled words run on every vertex the options give; prints the outputs the program writes
/// (and the constants it writes, for vertex state programs).
fn run_object(
    object: &Object,
    options: &TargetOptions,
    sources: &mut SourceMap,
    out: &mut dyn std::io::Write,
) -> RunOutcome {
    let load = |constants: &[Vec4]| {
        let words: Vec<u32> = object.words().collect();
        let program =
            Program::new(&words).map_err(|e| Diagnostic::error(error::Code::ProgramCannotRun, e.to_string()))?;
        Ok(Loaded {
            outputs: program.written_outputs(),
            written_constants: program.written_constants(),
            program,
            constants: constants.try_into().expect("one vec4 per constant slot"),
            exec_options: ExecOptions {
                arl_bias: options.values.flag("arl-bias"),
            },
        })
    };
    vertex_io::run_vertices(options, sources, &INPUT_SLOTS, &CONSTANT_SLOTS, load, out)
}

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    AssembleOptions {
        explicit_final: options.values.flag("explicit-final"),
        names: options.names.clone(),
        ..AssembleOptions::default()
    }
}

impl Target for Nv2aTarget {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        error::Code::table()
    }

    fn assemble(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        _out: &mut dyn std::io::Write,
    ) -> Outcome<Object> {
        assemble_with_listing(sources, file, assemble_options(options), !options.skip_listing)
    }

    fn write_format(&self, format: &str, object: &Object, _sources: &SourceMap) -> Option<Result<Vec<u8>, Diagnostic>> {
        let words: Vec<u32> = object.words().collect();
        match format {
            "vshinc" => Some(Ok(write_vshinc(&words)
                .expect("assembled objects hold whole instructions")
                .into_bytes())),
            _ => None,
        }
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, _options: &TargetOptions) -> Outcome<String> {
        let words = polyasm_core::words::read_words(sources, input, &INFO);
        let Some(value) = words.value else {
            return Outcome::failed(words.diagnostics);
        };
        let mut diagnostics = words.diagnostics;
        match disassemble(&value) {
            Ok(text) => Outcome::new(text, diagnostics),
            Err(e) => {
                diagnostics.push(e.to_diagnostic());
                Outcome::failed(diagnostics)
            }
        }
    }

    fn instructions(&self) -> Vec<polyasm_core::table::Entry> {
        crate::ops::Op::entries()
    }

    fn lexicon(&self) -> &'static polyasm_core::editor::Lexicon {
        &editor::LEXICON
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }
}

impl Runner for Nv2aTarget {
    fn run_info(&self) -> &RunInfo {
        &RUN_INFO
    }

    fn plan(&self, options: &TargetOptions) -> Result<RunOutput, UsageError> {
        vertex_io::plan(options)
    }

    fn run(&self, object: &Object, options: &TargetOptions, sources: &mut SourceMap, io: &mut RunIo<'_>) -> RunOutcome {
        run_object(object, options, sources, io.stdout)
    }
}
