//! Masfix: a 16-bit esoteric assembly language with I/O and a macro system. This crate
//! assembles it to polyasm's Masfix bytecode, disassembles the bytecode, and runs it on a fast
//! virtual machine.
//!
//! ```
//! let bytecode = polyasm_masfix::assemble_str("ld 'H'\noutcr\n").expect("valid program");
//! let program = polyasm_masfix::decode::read(&bytecode).expect("bytecode we wrote");
//! assert_eq!(polyasm_masfix::print::print_program(&program.instrs), "ld 72\noutcr\n");
//! ```

pub mod decode;
pub mod encode;
pub mod error;
pub mod exec;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print;

use polyasm_core::front;
use polyasm_core::target::{DisasmInput, OptionSpec, Target, TargetInfo, TargetOptions};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

use crate::encode::Encoder;
use crate::error::MxError;
use crate::lexer::{LexError, Tok};
use crate::parser::{Atom, AtomKind};

/// How to assemble.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssembleOptions {
    /// Write the debug section (where each instruction was written), so that runtime errors
    /// of the bytecode name source lines.
    pub debug: bool,
    /// Record listing entries (output formats that print no listing skip them).
    pub listing: bool,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            debug: true,
            listing: true,
        }
    }
}

/// A lexer error as the dialect reports it.
fn lex_error(error: LexError, text: &str) -> MxError {
    let char_at = |span: Span| text[span.range()].chars().next().unwrap_or(' ');
    match error {
        LexError::UnopenedClose { at } => MxError::UnopenedClose {
            span: at,
            found: char_at(at),
        },
        LexError::MismatchedClose { at, open } => MxError::MismatchedClose {
            span: at,
            open,
            found: char_at(at),
            expected: lexer::closer(char_at(open)),
        },
        LexError::UnclosedList { open } => MxError::UnclosedList {
            span: open,
            open: char_at(open),
        },
        LexError::BadEscape { at } => MxError::BadEscape {
            span: at,
            text: text[at.range()].to_string(),
        },
        LexError::Unterminated { open } => MxError::Unterminated {
            span: open,
            quote: char_at(open),
        },
        LexError::BadCharValue { at } => MxError::BadCharValue {
            span: at,
            text: polyasm_core::text::escape_controls(&text[at.range()]).into_owned(),
        },
    }
}

/// Assembles source `file` of `sources` to a bytecode file.
pub fn assemble(sources: &SourceMap, file: SourceId, options: AssembleOptions) -> Outcome<Object> {
    let source = sources.get(file);
    let text = source.text();
    let (tokens, lex_errors) = lexer::lex(file, text);
    let mut encoder = Encoder::new(text.len());
    for error in lex_errors {
        encoder.error(lex_error(error, text));
    }
    let text_of = |t: &lexer::Token| text[t.span.range()].to_string();
    let mut atoms: Vec<Atom> = Vec::new();
    for line in tokens.split(|t| t.tok == Tok::Newline) {
        atoms.clear();
        parser::atoms(line, text_of, &mut atoms);
        let input = parser::grammar_input(&atoms);
        let whole = 0..input.len();
        front::parse_statements(
            &parser::line(),
            &parser::line(),
            &input,
            std::slice::from_ref(&whole),
            &mut (),
            |_, _, parsed| match parsed {
                Ok(line) => {
                    if let Some((colon, name)) = line.label {
                        match name {
                            Some(name) => encoder.label(&atoms[name]),
                            None => encoder.error(MxError::MissingLabelName {
                                span: atoms[colon].span,
                            }),
                        }
                    }
                    if let Some((name, immediates)) = line.instruction {
                        let immediates = immediates.iter().map(|&i| atoms[i].clone()).collect();
                        encoder.instruction(atoms[name].clone(), immediates);
                    }
                }
                Err(errors) => {
                    for e in errors {
                        encoder.error(syntax_error(&e, &atoms));
                    }
                }
            },
        );
    }
    let (assembled, errors) = encoder.finish();
    let diagnostics = errors.iter().map(|(e, _)| e.to_diagnostic()).collect();
    Outcome {
        value: assembled.map(|a| encode::bytecode_object(&a, sources, file, options.debug, options.listing)),
        diagnostics,
    }
}

/// A line the grammar rejects, said in Masfix's words: a colon after a name is a label written
/// the wrong way round, a second `:` a second label.
fn syntax_error(error: &parser::ParseError, atoms: &[Atom]) -> MxError {
    let at = error.span().start;
    let span = match atoms.get(at) {
        Some(atom) => atom.span,
        None => {
            let last = atoms.last().expect("a line the grammar rejects has atoms").span;
            Span::new(last.source, last.end as usize, last.end as usize)
        }
    };
    match (atoms.get(at), at.checked_sub(1).and_then(|i| atoms.get(i))) {
        (Some(colon), Some(name)) if colon.kind == AtomKind::Colon && colon.joined && name.kind == AtomKind::Name => {
            MxError::ColonAfterName {
                span: name.span.to(colon.span),
                name: name.text.clone(),
            }
        }
        (Some(colon), _)
            if colon.kind == AtomKind::Colon && atoms.first().is_some_and(|a| a.kind == AtomKind::Colon) =>
        {
            MxError::SecondLabel { span }
        }
        (found, _) => {
            let (_, _, expected) = front::describe_syntax_error(error, "");
            MxError::Unexpected {
                span,
                found: match found {
                    Some(atom) => format!("`{}`", polyasm_core::text::escape_controls(&atom.text)),
                    None => "end of line".to_string(),
                },
                expected,
            }
        }
    }
}

/// Assembles a string and returns the bytecode file, or the diagnostics.
pub fn assemble_str(text: &str) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let mut sources = SourceMap::new();
    let file = sources.add("<string>", text);
    let outcome = assemble(&sources, file, AssembleOptions::default());
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(object.bytes),
        _ => Err(outcome.diagnostics),
    }
}

/// Bytes that are no bytecode file.
fn bad_bytecode(name: &str, error: &decode::BytecodeError) -> Diagnostic {
    Diagnostic::error("MX044", format!("{name} is not Masfix bytecode: {error}"))
        .with_help("a bytecode file is what `polyasm -t masfix prog.mx -o prog.mxb` writes")
}

/// Masfix as a polyasm target.
pub struct MasfixTarget;

/// The registered instance.
pub static TARGET: MasfixTarget = MasfixTarget;

static INFO: TargetInfo = TargetInfo {
    name: "masfix",
    aliases: &["mx"],
    extensions: &["mx"],
    binary_extensions: &["mxb"],
    description: "Masfix, a 16-bit esoteric assembly language, to polyasm's bytecode (.mxb)",
    word_bytes: 2,
    program_limit: None,
};

static ASSEMBLE_OPTIONS: &[OptionSpec] = &[OptionSpec {
    long: "strip",
    short: None,
    value_name: None,
    help: "masfix: leave the debug section (source positions for runtime errors) out of the bytecode",
    repeatable: false,
}];

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    AssembleOptions {
        debug: !options.flag("strip"),
        listing: !options.skip_listing,
    }
}

impl Target for MasfixTarget {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        error::CODES
    }

    fn assemble_options(&self) -> &'static [OptionSpec] {
        ASSEMBLE_OPTIONS
    }

    fn assemble(&self, sources: &mut SourceMap, file: SourceId, options: &TargetOptions) -> Outcome<Object> {
        assemble(sources, file, assemble_options(options))
    }

    fn load_program(&self, _sources: &mut SourceMap, bytes: &[u8], name: &str) -> Option<Outcome<Object>> {
        Some(match decode::read(bytes) {
            Ok(_) => {
                let mut object = Object::new(2);
                object.bytes = bytes.to_vec();
                Outcome {
                    value: Some(object),
                    diagnostics: Vec::new(),
                }
            }
            Err(e) => Outcome::failed(vec![bad_bytecode(name, &e)]),
        })
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput) -> Outcome<String> {
        let words = polyasm_core::words::read_words(sources, input, &INFO);
        let Some(words) = words.value else {
            return Outcome::failed(words.diagnostics);
        };
        let bytes: Vec<u8> = words.iter().flat_map(|&w| (w as u16).to_le_bytes()).collect();
        match decode::read(&bytes) {
            Ok(bytecode) => Outcome {
                value: Some(print::print_program(&bytecode.instrs)),
                diagnostics: Vec::new(),
            },
            Err(e) => Outcome::failed(vec![bad_bytecode(input.name, &e)]),
        }
    }
}
