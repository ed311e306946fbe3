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
pub mod expand;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print;

use polyasm_core::front;
use polyasm_core::include::IncludeLoader;
use polyasm_core::target::{DisasmInput, OptionSpec, Target, TargetInfo, TargetOptions};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

use crate::encode::Encoder;
use crate::error::MxError;
pub use crate::expand::CompileTime;
use crate::lexer::{LexError, Tok};
use crate::parser::{Atom, AtomKind};

/// How to assemble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleOptions {
    /// Write the debug section (where each instruction was written), so that runtime errors
    /// of the bytecode name source lines.
    pub debug: bool,
    /// Record listing entries (output formats that print no listing skip them).
    pub listing: bool,
    /// The `-I` folders, searched for included files.
    pub include_dirs: Vec<std::path::PathBuf>,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            debug: true,
            listing: true,
            include_dirs: Vec::new(),
        }
    }
}

/// A lexer error as the dialect reports it.
pub(crate) fn lex_error(error: LexError, text: &str) -> MxError {
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

/// Compile-time steps all `!` calls of one assembly may take together, unless raised.
pub const DEFAULT_CTIME_STEPS: u64 = 100_000_000;

/// The compile-time machine of one assembly: its state persists from call to call, its steps
/// are counted over all calls, and what its code prints goes to `output`. Compile-time code
/// reads no input: `inc` gives 65535 (the end of input).
pub struct CompileTimeVm<'w> {
    pub machine: exec::Machine,
    pub steps_left: u64,
    pub output: &'w mut dyn std::io::Write,
}

impl<'w> CompileTimeVm<'w> {
    pub fn new(steps: u64, output: &'w mut dyn std::io::Write) -> CompileTimeVm<'w> {
        CompileTimeVm {
            machine: exec::Machine::new(),
            steps_left: steps,
            output,
        }
    }
}

impl CompileTime for CompileTimeVm<'_> {
    fn run(&mut self, assembled: &encode::Assembled) -> Result<u16, MxError> {
        let Some(&first) = assembled.spans.first() else {
            return Ok(self.machine.r);
        };
        let program = exec::Program::new(&assembled.instrs).map_err(|e| MxError::CompileTimeFailed {
            span: first,
            problem: Some(e.to_string()),
        })?;
        let limits = exec::Limits {
            max_steps: Some(self.steps_left),
        };
        let result = program.run(&mut self.machine, &mut std::io::empty(), self.output, limits);
        match result {
            Ok(stats) => {
                self.steps_left -= stats.steps;
                Ok(self.machine.r)
            }
            Err(exec::RunError::JumpOutOfRange { at, target, .. }) => Err(MxError::CompileTimeFailed {
                span: assembled.spans.get(at).copied().unwrap_or(first),
                problem: Some(format!(
                    "it jumps to {target}, past its end ({})",
                    polyasm_core::text::count(assembled.instrs.len(), "instruction")
                )),
            }),
            Err(exec::RunError::StepLimit { steps }) => {
                self.steps_left = 0;
                Err(MxError::CompileTimeSteps { span: first, steps })
            }
            Err(e @ (exec::RunError::Write(_) | exec::RunError::Read(_))) => Err(MxError::CompileTimeFailed {
                span: first,
                problem: Some(e.to_string()),
            }),
        }
    }
}

/// Assembles source `file` of `sources` (and the files it includes, which are added to
/// `sources`) to a bytecode file; compile-time code prints to `ctime.output`.
pub fn assemble(
    sources: &mut SourceMap,
    file: SourceId,
    options: &AssembleOptions,
    ctime: &mut dyn CompileTime,
) -> Outcome<Object> {
    let text = sources.get(file).text().to_string();
    let (tokens, lex_errors) = lexer::lex(file, &text);
    let mut errors: Vec<(MxError, u32)> = lex_errors
        .into_iter()
        .map(|e| (lex_error(e, &text), lexer::NO_EXPANSION))
        .collect();
    let loader = IncludeLoader::new(sources, file, &options.include_dirs).with_default_extension("mx");
    let mut expander = expand::Expander::new(Some(loader), ctime);
    let program = expander.expand_file(sources, &tokens);
    let sources_len = sources.iter().map(|(_, s)| s.text().len()).sum();
    let (mut assembled, encode_errors) = {
        let text_of = |t: &lexer::Token| expander.text(sources, t).to_string();
        encode_tokens(&program, &text_of, sources_len)
    };
    // An instruction a macro made is listed, and located at run time, at the macro's use.
    if let Some(assembled) = assembled.as_mut() {
        for (span, &origin) in assembled.spans.iter_mut().zip(&assembled.origins) {
            if let Some(at) = expander.outermost(origin) {
                *span = at;
            }
        }
    }
    errors.append(&mut expander.errors);
    errors.extend(encode_errors);
    errors.sort_by_key(|(e, _)| {
        let span = e.span();
        (span.source.index(), span.start)
    });
    let diagnostics = errors
        .iter()
        .map(|(e, origin)| {
            let mut d = e.to_diagnostic();
            for note in expander.notes(sources, *origin) {
                d = d.with_note(note);
            }
            d
        })
        .collect();
    let failed = errors.iter().any(|(e, _)| !matches!(e, MxError::NoOp { .. }));
    Outcome {
        value: assembled
            .filter(|_| !failed)
            .map(|a| encode::bytecode_object(&a, sources, file, options.debug, options.listing)),
        diagnostics,
    }
}

/// Lines of expanded tokens to instructions: atoms, the line grammar, the encoder. Used for
/// the program and for each compile-time body.
pub(crate) fn encode_tokens(
    tokens: &[lexer::Token],
    text_of: &dyn Fn(&lexer::Token) -> String,
    sources_len: usize,
) -> (Option<encode::Assembled>, Vec<(MxError, u32)>) {
    let mut encoder = Encoder::new(sources_len);
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
                            None => encoder.error_in(
                                MxError::MissingLabelName {
                                    span: atoms[colon].span,
                                },
                                atoms[colon].origin,
                            ),
                        }
                    }
                    if let Some((name, immediates)) = line.instruction {
                        let immediates = immediates.iter().map(|&i| atoms[i].clone()).collect();
                        encoder.instruction(atoms[name].clone(), immediates);
                    }
                }
                Err(errors) => {
                    for e in errors {
                        let origin = atoms.get(e.span().start).map_or(atoms[0].origin, |a| a.origin);
                        encoder.error_in(syntax_error(&e, &atoms), origin);
                    }
                }
            },
        );
    }
    encoder.finish()
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
    let mut sink = std::io::sink();
    let mut ctime = CompileTimeVm::new(DEFAULT_CTIME_STEPS, &mut sink);
    let outcome = assemble(&mut sources, file, &AssembleOptions::default(), &mut ctime);
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

static ASSEMBLE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        long: "strip",
        short: None,
        value_name: None,
        help: "masfix: leave the debug section (source positions for runtime errors) out of the bytecode",
        repeatable: false,
    },
    OptionSpec {
        long: "ctime-steps",
        short: None,
        value_name: Some("N"),
        help: "masfix: the most instructions compile-time code (`!name(args)`) may run in all (default 100000000)",
        repeatable: false,
    },
];

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    AssembleOptions {
        debug: !options.flag("strip"),
        listing: !options.skip_listing,
        include_dirs: options.include_dirs.clone(),
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
        self.assemble_with_output(sources, file, options, &mut std::io::sink())
    }

    fn assemble_with_output(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        out: &mut dyn std::io::Write,
    ) -> Outcome<Object> {
        let steps = options
            .value("ctime-steps")
            .and_then(|v| v.replace('_', "").parse().ok())
            .unwrap_or(DEFAULT_CTIME_STEPS);
        let mut ctime = CompileTimeVm::new(steps, out);
        let outcome = assemble(sources, file, &assemble_options(options), &mut ctime);
        let _ = ctime.output.flush();
        outcome
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
