//! nv2a (original Xbox) vertex programs: assembler, disassembler and emulator.
//!
//! The words match nv2avsh (nv2a_vsh_asm) bit for bit, unused fields included.

pub mod decode;
pub mod encode;
pub mod error;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print;

use polyasm_core::front;
use polyasm_core::output::FormatInfo;
use polyasm_core::target::{DisasmInput, OptionSpec, Target, TargetInfo, TargetOptions};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

pub use encode::{AssembleOptions, Operation};
pub use ops::Slot;

use crate::error::Nv2aError;
use crate::lexer::Lexer;

/// Assembles source `file` of `sources`.
pub fn assemble(sources: &SourceMap, file: SourceId, options: AssembleOptions) -> Outcome<Object> {
    let text = sources.get(file).text();
    let mut encoder = encode::Encoder::new(file, text, options);
    front::lex_in_chunks(&mut Lexer::new(text), |tokens, statements, unterminated| {
        for e in unterminated {
            encoder.error(Nv2aError::UnterminatedComment {
                span: Span::new(file, e.open.start, e.open.end),
            });
        }
        front::parse_statements(&parser::statement(), tokens, statements, |parsed| match parsed {
            Ok(statement) => encoder.statement(&statement),
            Err(errors) => {
                for e in errors {
                    let (span, found, expected) = front::describe_syntax_error(&e);
                    encoder.error(Nv2aError::Unexpected {
                        span: Span::new(file, span.start, span.end),
                        found,
                        expected,
                    });
                }
            }
        });
    });
    encoder.finish()
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
    pub words: usize,
}

impl std::fmt::Display for IncompleteInstruction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} words are not whole instructions of {} words",
            self.words,
            ops::WORDS_PER_INSTRUCTION
        )
    }
}

impl std::error::Error for IncompleteInstruction {}

impl IncompleteInstruction {
    fn to_diagnostic(self) -> Diagnostic {
        Diagnostic::error("NV2A028", self.to_string())
            .with_note(format!(
                "the last {} words are a partial instruction",
                self.words % ops::WORDS_PER_INSTRUCTION
            ))
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
    let slots = print::slots(words).ok_or(IncompleteInstruction { words: words.len() })?;
    Ok(print::disassemble_slots(&slots))
}

/// nv2avsh's C include text: per instruction a `/* source */` line and its four words.
/// The comment is polyasm's canonical print of the instruction.
pub fn write_vshinc(words: &[u32]) -> Result<String, IncompleteInstruction> {
    let slots = print::slots(words).ok_or(IncompleteInstruction { words: words.len() })?;
    let mut out = String::with_capacity(slots.len() * 96);
    for (index, slot) in slots.iter().enumerate() {
        out.push_str("/* ");
        if *slot == Slot::FINAL_NOP && index + 1 == slots.len() {
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
    description: "original Xbox (nv2a) vertex shaders (nv2avsh compatible)",
    word_bytes: 4,
};

static ASSEMBLE_OPTIONS: &[OptionSpec] = &[OptionSpec {
    long: "explicit-final",
    short: None,
    value_name: None,
    help: "nv2a: append a [0,0,0,1] final marker instead of setting FINAL on the last instruction",
    repeatable: false,
}];

static FORMATS: &[FormatInfo] = &[FormatInfo {
    name: "vshinc",
    description: "nv2avsh's C include: a /* source */ line and four words per instruction",
    binary: false,
}];

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    AssembleOptions {
        explicit_final: options.flag("explicit-final"),
        ..AssembleOptions::default()
    }
}

impl Target for Nv2aTarget {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        error::CODES
    }

    fn assemble_options(&self) -> &'static [OptionSpec] {
        ASSEMBLE_OPTIONS
    }

    fn assemble(&self, sources: &SourceMap, file: SourceId, options: &TargetOptions) -> Outcome<Object> {
        assemble(sources, file, assemble_options(options))
    }

    fn extra_formats(&self) -> &'static [FormatInfo] {
        FORMATS
    }

    fn write_format(&self, format: &str, object: &Object, _sources: &SourceMap) -> Option<Vec<u8>> {
        let words: Vec<u32> = object.words().collect();
        match format {
            "vshinc" => Some(
                write_vshinc(&words)
                    .expect("assembled objects hold whole instructions")
                    .into_bytes(),
            ),
            _ => None,
        }
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput) -> Outcome<String> {
        let words = polyasm_core::words::read_words(sources, input, INFO.word_bytes);
        let Some(words) = words.value else {
            return Outcome::failed(words.diagnostics);
        };
        match disassemble(&words) {
            Ok(text) => Outcome::ok(text),
            Err(e) => Outcome::failed(vec![e.to_diagnostic()]),
        }
    }
}
