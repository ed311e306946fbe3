//! The assembler's pipeline: a file is lexed, its macros expanded (compile-time calls run on
//! the compile-time machine), each line of the expanded tokens parsed and encoded, and the
//! result written as a bytecode file.

use polyasm_core::editor::NameSink;
use polyasm_core::front;
use polyasm_core::include::IncludeLoader;
use polyasm_core::{Diagnostic, Object, Outcome, SourceId, SourceMap, Span};

use crate::encode::{self, Encoder};
use crate::error::{MxError, lex_error};
use crate::exec;
use crate::expand::{self, CompileTime, CompileTimeRun, TokenText};
use crate::found::{self, Found};
use crate::lexer::{self, Tok};
use crate::limits::Limits;
use crate::parser::{self, Atom, AtomKind, Parsed};
use crate::stdlib;

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
    /// Stop after macro expansion and return the expanded source (`-E`).
    pub preprocess_only: bool,
    /// The bounds of expansion, compile-time code and the program.
    pub limits: Limits,
    /// Where to record the names the program defines and their uses, for editors.
    pub names: Option<NameSink>,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            debug: true,
            listing: true,
            include_dirs: Vec::new(),
            preprocess_only: false,
            names: None,
            limits: Limits::default(),
        }
    }
}

/// The compile-time machine of one assembly, the expander's runner: it assembles the tokens
/// it is given and runs them. Its state persists from call to call, its steps are counted over
/// all calls, and what its code prints goes to `output`. Compile-time code reads no input:
/// `inc` gives 65535 (the end of input).
struct CompileTimeVm<'w> {
    machine: exec::Machine,
    steps_left: u64,
    output: &'w mut dyn std::io::Write,
    max_instructions: usize,
}

impl CompileTime for CompileTimeVm<'_> {
    fn run(&mut self, code: &[lexer::Token], text: TokenText<'_>, at: Span) -> CompileTimeRun {
        let text_len = text.sources.get(at.source).text().len();
        let (assembled, errors) = encode_tokens(code, text, text_len, self.max_instructions, Found::everything());
        let errors = errors.into_errors();
        match assembled {
            Some(assembled) => CompileTimeRun::Ran {
                warnings: errors,
                result: self.execute(&assembled),
            },
            None => CompileTimeRun::NotAssembled(errors),
        }
    }
}

impl CompileTimeVm<'_> {
    /// Runs an assembled compile-time program; `r` afterwards, or the error to report (its
    /// span among `assembled.spans`).
    fn execute(&mut self, assembled: &encode::Assembled) -> Result<u16, MxError> {
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
/// `sources`) to a bytecode file; compile-time code prints to `output`.
pub fn assemble(
    sources: &mut SourceMap,
    file: SourceId,
    options: &AssembleOptions,
    output: &mut dyn std::io::Write,
) -> Outcome<Object> {
    let limits = options.limits;
    let text = sources.get(file).text();
    let (tokens, lex_errors) = lexer::lex(file, text, limits.expanded_tokens);
    let loader = IncludeLoader::new(sources, file, &options.include_dirs)
        .with_default_extension("mx")
        .with_builtins(stdlib::FILES);
    let mut ctime = CompileTimeVm {
        machine: exec::Machine::new(),
        steps_left: limits.ctime_steps,
        output,
        max_instructions: limits.max_instructions(),
    };
    let mut expander = expand::Expander::new(Some(loader), &mut ctime, limits);
    expander.names = options.names.clone();
    // Every error of the assembly goes to the expander's: the lexer's, its own, the encoder's.
    for e in lex_errors {
        expander.errors.push(lex_error(e, text), lexer::NO_EXPANSION);
    }
    let program = expander.expand_file(sources, &tokens);
    drop(tokens);
    let mut errors = std::mem::take(&mut expander.errors);
    if options.preprocess_only {
        let failed = errors.failed();
        let diagnostics = errors.diagnostics(&expander.expansions, sources);
        // A warning made an error by `-W error` fails too.
        let failed = failed || diagnostics.iter().any(Diagnostic::is_error);
        let mut object = Object::assembled_from(2, file, false);
        object.preprocessed = Some(expanded_text(&program, &expander, sources));
        return Outcome {
            value: (!failed).then_some(object),
            diagnostics,
        };
    }
    let sources_len = sources.iter().map(|(_, s)| s.text().len()).sum();
    // Expansion that stopped at a limit (MX058, MX066) leaves the program cut off: its last line
    // cut in two and the labels defined after the cut missing. The cut line is left out and
    // undefined labels are not reported, so that the limit makes no false errors.
    let cut = errors.cut();
    errors.skip_undefined_labels = cut;
    let kept = if cut {
        program.iter().rposition(|t| t.tok == Tok::Newline).map_or(0, |i| i + 1)
    } else {
        program.len()
    };
    let reader = Reader {
        tokens: &program[..kept],
        text: expander.token_text(sources),
    };
    let mut encoder = Encoder::new(sources_len, limits.max_instructions(), errors);
    encoder.names = options.names.clone();
    let (mut assembled, errors) = front::assemble(reader, encoder);
    // An instruction a macro made is listed, and located at run time, at the macro's use.
    if let Some(assembled) = assembled.as_mut() {
        for (span, &origin) in assembled.spans.iter_mut().zip(&assembled.origins) {
            if let Some(at) = expander.expansions.outermost(origin) {
                *span = at;
            }
        }
    }
    let failed = errors.failed();
    let diagnostics = errors.diagnostics(&expander.expansions, sources);
    Outcome {
        value: assembled
            .filter(|_| !failed)
            .map(|a| encode::bytecode_object(&a, sources, file, options.debug, options.listing)),
        diagnostics,
    }
}

/// The expanded program as source text, one line per line of tokens (empty lines left out),
/// with a space wherever tokens were not written together.
fn expanded_text(program: &[lexer::Token], expander: &expand::Expander, sources: &SourceMap) -> String {
    let mut out = String::new();
    for line in program.split(|t| t.tok == Tok::Newline) {
        if line.is_empty() {
            continue;
        }
        for (i, token) in line.iter().enumerate() {
            if i > 0 && !token.joined {
                out.push(' ');
            }
            out.push_str(expander.text(sources, token));
        }
        out.push('\n');
    }
    out
}

/// Lines of expanded tokens to instructions: atoms, the line grammar, the encoder, run by
/// [`front::assemble`]. Used for the program and for each compile-time body.
pub(crate) fn encode_tokens(
    tokens: &[lexer::Token],
    text: TokenText<'_>,
    sources_len: usize,
    max_instructions: usize,
    errors: found::Found,
) -> (Option<encode::Assembled>, found::Found) {
    let reader = Reader { tokens, text };
    front::assemble(reader, Encoder::new(sources_len, max_instructions, errors))
}

/// Masfix's "lexer" for the driver: the expanded tokens, a line at a time, each line's tokens
/// read into atoms (a bracketed list is one atom). Macros have been expanded by then, so a
/// statement is one line of the expanded program; the file's own lexer ran before expansion.
pub(crate) struct Lines<'a> {
    tokens: &'a [lexer::Token],
    text: TokenText<'a>,
    at: usize,
    atoms: Vec<Atom>,
}

impl<'a> front::StatementLexer<'a> for Lines<'a> {
    type Token = Atom;
    type Error = std::convert::Infallible;

    fn at_end(&self) -> bool {
        self.at >= self.tokens.len()
    }

    fn next_statement(&mut self, out: &mut Vec<front::Spanned<Atom>>) -> Result<(), Self::Error> {
        let rest = &self.tokens[self.at..];
        let end = rest.iter().position(|t| t.tok == Tok::Newline).unwrap_or(rest.len());
        self.at += end + 1;
        self.atoms.clear();
        parser::atoms(&rest[..end], |t| self.text.get(t).to_string(), &mut self.atoms);
        out.extend(self.atoms.drain(..).enumerate().map(|(i, atom)| (atom, i..i + 1)));
        Ok(())
    }
}

/// The reading stage of [`encode_tokens`]: parses each line of atoms.
struct Reader<'a> {
    tokens: &'a [lexer::Token],
    text: TokenText<'a>,
}

impl<'a> front::Reader<'a> for Reader<'a> {
    type Lexer = Lines<'a>;
    type Chunk = Vec<Parsed>;

    /// One thread: expansion, before it, takes most of the time, and a second thread for
    /// reading measured slower than encoding each line as it is read.
    fn parallel(&self) -> bool {
        false
    }

    fn lexer(&self) -> Lines<'a> {
        Lines {
            tokens: self.tokens,
            text: self.text,
            at: 0,
            atoms: Vec::new(),
        }
    }

    fn parse(
        &mut self,
        tokens: &[front::Spanned<Atom>],
        statements: &[std::ops::Range<usize>],
        _no_errors: Vec<std::convert::Infallible>,
    ) -> Vec<Parsed> {
        let mut chunk = Vec::with_capacity(statements.len());
        for statement in statements {
            let atoms = &tokens[statement.clone()];
            let input = parser::grammar_input(atoms.iter().map(|(atom, _)| atom));
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
                            chunk.push(match name {
                                Some(name) => Parsed::Label(atoms[name].0.clone()),
                                None => Parsed::Error(
                                    MxError::MissingLabelName {
                                        span: atoms[colon].0.span,
                                    },
                                    atoms[colon].0.origin,
                                ),
                            });
                        }
                        if let Some((name, immediates)) = line.instruction {
                            let immediates = immediates.iter().map(|&i| atoms[i].0.clone()).collect();
                            chunk.push(Parsed::Instruction(atoms[name].0.clone(), immediates));
                        }
                    }
                    Err(errors) => {
                        for e in errors {
                            let origin = atoms.get(e.span().start).map_or(atoms[0].0.origin, |a| a.0.origin);
                            chunk.push(Parsed::Error(syntax_error(&e, atoms), origin));
                        }
                    }
                },
            );
        }
        chunk
    }
}

/// A line the grammar rejects, said in Masfix's words: a colon after a name is a label written
/// the wrong way round, a second `:` a second label.
fn syntax_error(error: &parser::ParseError, atoms: &[front::Spanned<Atom>]) -> MxError {
    let at = error.span().start;
    let atom = |i: usize| atoms.get(i).map(|(atom, _)| atom);
    let span = match atom(at) {
        Some(atom) => atom.span,
        None => {
            let last = atoms.last().expect("a line the grammar rejects has atoms").0.span;
            Span::new(last.source, last.end as usize, last.end as usize)
        }
    };
    match (atom(at), at.checked_sub(1).and_then(atom)) {
        (Some(colon), Some(name)) if colon.kind == AtomKind::Colon && colon.joined && name.kind == AtomKind::Name => {
            MxError::ColonAfterName {
                span: name.span.to(colon.span),
                name: name.text.clone(),
            }
        }
        (Some(colon), _) if colon.kind == AtomKind::Colon && atom(0).is_some_and(|a| a.kind == AtomKind::Colon) => {
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
    let outcome = assemble(&mut sources, file, &AssembleOptions::default(), &mut std::io::sink());
    match outcome.value {
        Some(object) if !outcome.diagnostics.iter().any(Diagnostic::is_error) => Ok(object.bytes),
        _ => Err(outcome.diagnostics),
    }
}
