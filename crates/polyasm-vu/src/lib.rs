//! Dreambox VU: assembler, disassembler and emulator for the fantasy console's vertex unit.
//!
//! The words match the `vu_asm!` macro of the `dbsdk-vu-asm` crate bit for bit.
//!
//! ```
//! use polyasm_vu::{assemble_str, disassemble, Program};
//!
//! let words = assemble_str("ld r0 0\nst pos r0\n").expect("valid program");
//! assert_eq!(words, [0x000, 0x001, 0x03f]); // `end` is appended
//! assert_eq!(disassemble(&words), "ld r0 0\nst pos r0\n// end (appended by the assembler)\n");
//!
//! let program = Program::new(&words).unwrap();
//! let mut inputs = [[0.0; 4]; 8];
//! inputs[0] = [1.0, 2.0, 3.0, 1.0];
//! let outputs = program.run(&inputs, &[[0.0; 4]; 16]);
//! assert_eq!(outputs[0], [1.0, 2.0, 3.0, 1.0]);
//! ```

#![warn(missing_docs)]

pub mod decode;
pub mod encode;
pub mod error;
pub mod exec;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print;

use std::sync::LazyLock;

use polyasm_core::OptionSpec;
use polyasm_core::editor::{Lexicon, Register};
use polyasm_core::front;
use polyasm_core::target::{
    DisasmInput, ProgramLimit, RunInfo, RunIo, RunOutcome, RunOutput, Runner, Target, TargetInfo, TargetOptions,
    UsageError,
};
use polyasm_core::vertex_io::{self, SlotKind};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap};

pub use encode::{AssembleOptions, Instruction};
pub use exec::{Outputs, Program, Vec4};
pub use print::disassemble_words as disassemble;

/// Assembles source `file` of `sources`.
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
    let reader = parser::Reader::new(file, sources.get(file).text());
    front::assemble(reader, encode::Encoder::new(file, options, listing))
}

/// Assembles a string and returns its words, or the rendered-free diagnostics.
pub fn assemble_str(text: &str) -> Result<Vec<u32>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble(&sources, file, AssembleOptions::default());
    match outcome.value {
        Some(object) => Ok(object.words().collect()),
        None => Err(outcome.diagnostics),
    }
}

/// The Dreambox VU as a polyasm target.
pub struct VuTarget;

/// The registered instance.
pub static TARGET: VuTarget = VuTarget;

static INFO: TargetInfo = TargetInfo {
    name: "vu",
    aliases: &["dreambox", "dreambox-vu"],
    extensions: &["vu"],
    binary_extensions: &[],
    description: "Dreambox fantasy console vertex unit (dbsdk-vu-asm compatible)",
    word_bytes: 4,
    program_limit: Some(ProgramLimit {
        units: ops::MAX_WORDS,
        unit: "word",
        words_per_unit: 1,
    }),
    assemble_options: &[],
    disassemble_options: &[],
    formats: &[],
    preprocesses: false,
};

static RUN_INFO: RunInfo = RunInfo {
    options: &RUN_OPTIONS,
    needs_listing: false,
    runtimes: &[],
};

static RUN_OPTIONS: [OptionSpec; 4] = vertex_io::run_options(&INPUTS, &CONSTANTS);

static INPUTS: SlotKind = SlotKind {
    what: "input",
    count: ops::INPUT_SLOTS as usize,
    parse: parse_slot,
    hint: "0 to 7",
};
static CONSTANTS: SlotKind = SlotKind {
    what: "constant",
    count: ops::CONSTANT_SLOTS as usize,
    parse: parse_slot,
    hint: "0 to 15",
};

fn parse_slot(name: &str) -> Option<usize> {
    name.parse().ok()
}

impl Target for VuTarget {
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
        assemble_with_listing(sources, file, AssembleOptions::default(), !options.skip_listing)
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, _options: &TargetOptions) -> Outcome<String> {
        polyasm_core::words::read_words(sources, input, &INFO).map(|words| disassemble(&words))
    }

    fn instructions(&self) -> Vec<polyasm_core::table::Entry> {
        crate::ops::Op::entries()
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }

    fn lexicon(&self) -> &'static Lexicon {
        &LEXICON
    }
}

/// How VU text is written: `//` and nesting `/* */` comments, `.word`, the registers
/// `r0`...`r15` and the output slots of [`ops::OUTPUT_SLOTS`].
static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let temps = Register {
        name: "r",
        numbers: Some((0, ops::REGISTERS as u16 - 1)),
        doc: "vec4 register, read and written by every operation",
        read: true,
        write: true,
    };
    let outputs = ops::OUTPUT_SLOTS.iter().map(|&(name, doc)| Register {
        name,
        numbers: None,
        doc,
        read: false,
        write: true,
    });
    Lexicon {
        line_comments: &["//"],
        block_comment: Some(("/*", "*/")),
        sigils: ".",
        registers: std::iter::once(temps).chain(outputs).collect::<Vec<_>>().leak(),
        destination_first: true,
        ..Lexicon::NONE
    }
});

impl Runner for VuTarget {
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

/// A loaded program with its constants, run by `polyasm run`.
struct Loaded {
    program: Program,
    constants: [Vec4; ops::CONSTANT_SLOTS as usize],
}

impl vertex_io::VertexProgram for Loaded {
    fn names(&self) -> Vec<String> {
        ops::OUTPUTS.iter().map(|&n| n.to_string()).collect()
    }

    fn run_vertex(&mut self, inputs: &[Vec4], values: &mut Vec<Vec4>) {
        let inputs: &[Vec4; ops::INPUT_SLOTS as usize] = inputs.try_into().expect("one vec4 per input slot");
        values.extend(self.program.run(inputs, &self.constants));
    }
}

fn run_object(
    object: &Object,
    options: &TargetOptions,
    sources: &mut SourceMap,
    out: &mut dyn std::io::Write,
) -> RunOutcome {
    let load = |constants: &[Vec4]| {
        let words: Vec<u32> = object.words().collect();
        let program =
            Program::new(&words).map_err(|e| Diagnostic::error(error::Code::ProgramTooLong, e.to_string()))?;
        Ok(Loaded {
            program,
            constants: constants.try_into().expect("one vec4 per constant slot"),
        })
    };
    vertex_io::run_vertices(options, sources, &INPUTS, &CONSTANTS, load, out)
}
