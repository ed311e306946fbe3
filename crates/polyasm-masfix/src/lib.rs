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
pub mod found;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod print;
pub mod stdlib;

use polyasm_core::explain::Code as CoreCode;
use polyasm_core::front;
use polyasm_core::include::IncludeLoader;
use polyasm_core::target::{DisasmInput, OptionSpec, RunOutcome, Target, TargetInfo, TargetOptions, UsageError};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};
use polyasm_core::{ExitStatus, RunIo};

use crate::encode::Encoder;
use crate::error::{Code, MxError};
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
    /// Stop after macro expansion and return the expanded source (`-E`).
    pub preprocess_only: bool,
}

impl Default for AssembleOptions {
    fn default() -> AssembleOptions {
        AssembleOptions {
            debug: true,
            listing: true,
            include_dirs: Vec::new(),
            preprocess_only: false,
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
        LexError::TooManyTokens { at } => MxError::ExpansionTooLarge { span: at },
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

/// Where compile-time code prints: a reader that stopped early (`| head`) is no error, the
/// rest is dropped quietly and the code runs on; any other failed write (a full disk) stops the
/// printing and is remembered, to be reported once as PA003 after assembly. Either way the
/// compile-time code itself never sees an error.
struct CompileTimeOutput<'w> {
    inner: &'w mut dyn std::io::Write,
    closed: bool,
    failed: Option<std::io::Error>,
}

impl CompileTimeOutput<'_> {
    fn stop(&mut self, error: std::io::Error) {
        self.closed = true;
        if error.kind() != std::io::ErrorKind::BrokenPipe && self.failed.is_none() {
            self.failed = Some(error);
        }
    }
}

impl std::io::Write for CompileTimeOutput<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if !self.closed
            && let Err(error) = self.inner.write_all(bytes)
        {
            self.stop(error);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.closed
            && let Err(error) = self.inner.flush()
        {
            self.stop(error);
        }
        Ok(())
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
    let text = sources.get(file).text();
    let (tokens, lex_errors) = lexer::lex(file, text);
    let loader = IncludeLoader::new(sources, file, &options.include_dirs)
        .with_default_extension("mx")
        .with_builtins(stdlib::FILES);
    let mut expander = expand::Expander::new(Some(loader), ctime);
    // Every error of the assembly goes to the expander's: the lexer's, its own, the encoder's.
    for e in lex_errors {
        expander.errors.push(lex_error(e, text), lexer::NO_EXPANSION);
    }
    let program = expander.expand_file(sources, &tokens);
    drop(tokens);
    let mut errors = std::mem::take(&mut expander.errors);
    if options.preprocess_only {
        let failed = errors.failed();
        let diagnostics = errors.diagnostics(&expander, sources);
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
    let (mut assembled, errors) = {
        let text_of = |t: &lexer::Token| expander.text(sources, t).to_string();
        encode_tokens(&program[..kept], &text_of, sources_len, errors)
    };
    // An instruction a macro made is listed, and located at run time, at the macro's use.
    if let Some(assembled) = assembled.as_mut() {
        for (span, &origin) in assembled.spans.iter_mut().zip(&assembled.origins) {
            if let Some(at) = expander.outermost(origin) {
                *span = at;
            }
        }
    }
    let failed = errors.failed();
    let diagnostics = errors.diagnostics(&expander, sources);
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

/// Lines of expanded tokens to instructions: atoms, the line grammar, the encoder. Used for
/// the program and for each compile-time body.
pub(crate) fn encode_tokens(
    tokens: &[lexer::Token],
    text_of: &dyn Fn(&lexer::Token) -> String,
    sources_len: usize,
    errors: found::Found,
) -> (Option<encode::Assembled>, found::Found) {
    let mut encoder = Encoder::new(sources_len, errors);
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

static RUN_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        long: "max-steps",
        short: None,
        value_name: Some("N"),
        help: "masfix: stop with an error after N executed instructions",
        repeatable: false,
    },
    OptionSpec {
        long: "trace",
        short: None,
        value_name: None,
        help: "masfix: print each executed instruction with its source line and h, r, m to standard error",
        repeatable: false,
    },
    OptionSpec {
        long: "dump-memory",
        short: None,
        value_name: Some("RANGE"),
        help: "masfix: print memory cells N, A..B or A..=B to standard error when the program ends",
        repeatable: false,
    },
];

/// The options of `polyasm run`, read.
struct RunSettings {
    max_steps: Option<u64>,
    trace: bool,
    dump: Option<(u16, u16)>,
}

fn run_settings(options: &TargetOptions) -> Result<RunSettings, UsageError> {
    let usage = |message: String, help: &str| {
        UsageError(Box::new(
            Diagnostic::error(CoreCode::InvalidRunInput, message).with_help(help),
        ))
    };
    let max_steps = match options.value("max-steps") {
        None => None,
        Some(text) => match text.replace('_', "").parse::<u64>() {
            Ok(n) => Some(n),
            Err(_) => {
                return Err(usage(
                    format!("invalid value `{text}` for `--max-steps`"),
                    "give a whole number of instructions, e.g. `--max-steps 1000000`",
                ));
            }
        },
    };
    let dump = match options.value("dump-memory") {
        None => None,
        Some(text) => Some(exec::parse_memory_range(text).map_err(|problem| {
            usage(
                format!("invalid value `{text}` for `--dump-memory`: {problem}"),
                "give a cell (`100`), a range (`100..108`) or an inclusive range (`100..=107`)",
            )
        })?),
    };
    Ok(RunSettings {
        max_steps,
        trace: options.flag("trace"),
        dump,
    })
}

/// Where instruction `index` was written, as a span when its file is loaded (a program
/// assembled in this run) and as `file:line:col` text otherwise.
fn instruction_place(
    debug: Option<&decode::DebugSection>,
    sources: &SourceMap,
    index: usize,
) -> (Option<Span>, Option<String>) {
    let Some(debug) = debug else {
        return (None, None);
    };
    let text = debug.describe(index);
    let span = debug.positions.get(index).and_then(|pos| {
        let name = debug.files.get(usize::from(pos.file))?;
        let (id, source) = sources.iter().find(|(_, s)| s.name() == name)?;
        let line = (pos.line as usize).checked_sub(1)?;
        if line >= source.line_count() {
            return None;
        }
        let range = source.line_range(line);
        let text = &source.text()[range.clone()];
        let start = text
            .char_indices()
            .nth((pos.column as usize).saturating_sub(1))
            .map_or(text.len(), |(i, _)| i);
        // To the end of the statement: the line without its comment.
        let rest = &text[start..];
        let end = start + rest.find(';').unwrap_or(rest.len());
        let end = start + text[start..end].trim_end().len();
        Some(Span::new(id, range.start + start, range.start + end))
    });
    (span, text)
}

/// Runs a bytecode program with the program's standard streams.
fn run_object(object: &Object, options: &TargetOptions, sources: &mut SourceMap, io: &mut RunIo) -> RunOutcome {
    let settings = run_settings(options)?;
    let bytecode = match decode::read(&object.bytes) {
        Ok(bytecode) => bytecode,
        Err(e) => return Ok(Outcome::failed(vec![bad_bytecode("the program", &e)])),
    };
    let program = match exec::Program::new(&bytecode.instrs) {
        Ok(program) => program,
        Err(e) => {
            return Ok(Outcome::failed(vec![Diagnostic::error(
                Code::ProgramTooLong,
                e.to_string(),
            )]));
        }
    };
    let mut machine = exec::Machine::new();
    let limits = exec::Limits {
        max_steps: settings.max_steps,
    };
    let debug = bytecode.debug.as_ref();
    let result = if settings.trace {
        let stderr = &mut *io.stderr;
        let mut trace = |step: exec::TraceStep| {
            let place = debug.and_then(|d| d.describe(step.index)).unwrap_or_default();
            let instr = print::print_instruction(&bytecode.instrs[step.index]);
            writeln!(
                stderr,
                "{:>5}  {place:<24} {instr:<16} h={} r={} m={}",
                step.index, step.h, step.r, step.m
            )
        };
        program.run_traced(&mut machine, io.stdin, io.stdout, limits, &mut trace)
    } else {
        program.run(&mut machine, io.stdin, io.stdout, limits)
    };
    let mut diagnostics = Vec::new();
    if let Some((first, last)) = settings.dump {
        let dumped = io.stderr.write_all(exec::dump_memory(&machine, first, last).as_bytes());
        // A closed pipe is quiet, as for the trace; a full disk is PA003.
        diagnostics.extend(dumped.err().and_then(|e| polyasm_core::stream::stdout_failed(&e)));
    }
    match result {
        Ok(_) => {}
        Err(exec::RunError::JumpOutOfRange { at, target, .. }) => {
            let (span, place) = instruction_place(debug, sources, at);
            let instr = print::print_instruction(&bytecode.instrs[at]);
            let mut d = Diagnostic::error(
                Code::JumpPastEnd,
                format!(
                    "`{instr}` (instruction {at}) jumps to {target}, past the end of the program ({})",
                    polyasm_core::text::count(bytecode.instrs.len(), "instruction")
                ),
            )
            .with_help("jump to `end` to stop the program; labels name instructions inside it");
            d = match (span, place) {
                (Some(span), _) => d.with_primary(span, "this jump"),
                // The source is not loaded (a bytecode file): the place the debug section
                // names stands as the diagnostic's file, `prog.mx:3:5`, in every format.
                (None, Some(place)) => {
                    let mut d = d;
                    d.file = Some(sources.add(place, ""));
                    d
                }
                (None, None) => d,
            };
            diagnostics.push(d);
        }
        Err(exec::RunError::StepLimit { steps }) => {
            diagnostics.push(
                Diagnostic::error(
                    Code::StepLimit,
                    format!("the program reached the step limit ({steps}) without ending"),
                )
                .with_help("`--max-steps` sets the limit; look for a loop that never ends"),
            );
        }
        Err(exec::RunError::Read(e)) => diagnostics.push(polyasm_core::stream::stdin_failed(&e)),
        Err(exec::RunError::Write(e)) => match polyasm_core::stream::stdout_failed(&e) {
            Some(d) => diagnostics.push(d),
            // A reader that stopped early (`| head`) ends the run quietly.
            None => {
                return Ok(Outcome {
                    value: Some(ExitStatus::SUCCESS),
                    diagnostics,
                });
            }
        },
    }
    let status = if diagnostics.is_empty() {
        ExitStatus::SUCCESS
    } else {
        ExitStatus::FAILURE
    };
    Ok(Outcome {
        value: Some(status),
        diagnostics,
    })
}

/// Bytes that are no bytecode file.
fn bad_bytecode(name: &str, error: &decode::BytecodeError) -> Diagnostic {
    Diagnostic::error(Code::InvalidBytecode, format!("{name} is not Masfix bytecode: {error}"))
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

/// `--ctime-steps N`, if given: a whole number (`_` allowed between digits).
fn ctime_steps(options: &TargetOptions) -> Result<u64, UsageError> {
    let Some(text) = options.value("ctime-steps") else {
        return Ok(DEFAULT_CTIME_STEPS);
    };
    text.replace('_', "").parse::<u64>().map_err(|_| {
        UsageError(Box::new(
            Diagnostic::error(
                CoreCode::InvalidRunInput,
                format!("invalid value `{text}` for `--ctime-steps`"),
            )
            .with_help("give a whole number of instructions, e.g. `--ctime-steps 500000000`"),
        ))
    })
}

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    AssembleOptions {
        debug: !options.flag("strip"),
        listing: !options.skip_listing,
        include_dirs: options.include_dirs.clone(),
        preprocess_only: options.preprocess_only,
    }
}

impl Target for MasfixTarget {
    fn info(&self) -> &TargetInfo {
        &INFO
    }

    fn codes(&self) -> &'static [CodeInfo] {
        error::Code::table()
    }

    fn assemble_options(&self) -> &'static [OptionSpec] {
        ASSEMBLE_OPTIONS
    }

    fn check_assemble_options(&self, options: &TargetOptions) -> Result<(), UsageError> {
        ctime_steps(options).map(|_| ())
    }

    fn preprocesses(&self) -> bool {
        true
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
        let steps = ctime_steps(options).unwrap_or(DEFAULT_CTIME_STEPS);
        let mut output = CompileTimeOutput {
            inner: out,
            closed: false,
            failed: None,
        };
        let mut ctime = CompileTimeVm::new(steps, &mut output);
        let mut outcome = assemble(sources, file, &assemble_options(options), &mut ctime);
        let _ = ctime.output.flush();
        if let Some(error) = output.failed {
            outcome.value = None;
            outcome.diagnostics.push(Diagnostic::error(
                CoreCode::CannotWriteOutput,
                format!(
                    "cannot write the output of compile-time code: {}",
                    polyasm_core::fs::reason(&error)
                ),
            ));
        }
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

    fn run_options(&self) -> &'static [OptionSpec] {
        RUN_OPTIONS
    }

    fn check_run_options(&self, options: &TargetOptions) -> Result<(), UsageError> {
        run_settings(options).map(|_| ())
    }

    fn run(
        &self,
        object: &Object,
        options: &TargetOptions,
        sources: &mut SourceMap,
        io: &mut RunIo<'_>,
    ) -> Option<RunOutcome> {
        Some(run_object(object, options, sources, io))
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput) -> Outcome<String> {
        // A binary input is a bytecode file as it is (its reader explains a bad length too);
        // hex text is words first.
        let bytes: Vec<u8> = if input.encoding == polyasm_core::target::InputEncoding::Binary {
            input.bytes.to_vec()
        } else {
            let words = polyasm_core::words::read_words(sources, input, &INFO);
            let Some(words) = words.value else {
                return Outcome::failed(words.diagnostics);
            };
            words.iter().flat_map(|&w| (w as u16).to_le_bytes()).collect()
        };
        match decode::read(&bytes) {
            Ok(bytecode) => Outcome {
                value: Some(print::print_program(&bytecode.instrs)),
                diagnostics: Vec::new(),
            },
            Err(e) => Outcome::failed(vec![bad_bytecode(input.name, &e)]),
        }
    }
}
