//! Masfix as a polyasm [`Target`]: its names, its options, and the commands (assemble, run,
//! disassemble) over the driver, the bytecode reader and the VM.

use std::sync::LazyLock;

use polyasm_core::OptionKind;
use polyasm_core::editor::Lexicon;
use polyasm_core::explain::Code as CoreCode;
use polyasm_core::output::FormatInfo;
use polyasm_core::target::{
    DisasmInput, OptionSpec, RunInfo, RunOutcome, RunOutput, Runner, Target, TargetInfo, TargetOptions, UsageError,
};
use polyasm_core::{CodeInfo, Diagnostic, Object, Outcome, SourceId, SourceMap, Span};
use polyasm_core::{ExitStatus, RunIo};

use crate::driver::{AssembleOptions, assemble};
use crate::error::Code;
use crate::limits::Limits;
use crate::{bytecode, decode, error, exec, print, stdlib};

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

/// The whole numbers of instructions `--max-steps` and `--ctime-steps` take.
const fn steps(example: u64) -> OptionKind {
    OptionKind::Whole {
        min: 0,
        max: u64::MAX,
        example,
    }
}

/// The values of `--engine`.
const ENGINES: [&str; 3] = ["auto", "jit", "vm"];

/// Why a program runs on the VM.
struct Unavailable {
    reason: String,
    /// The program is too large to be worth compiling: `auto` chooses the VM without a word.
    chosen: bool,
}

/// Compiles `program` to native code, or says why it cannot be.
#[cfg(jit)]
fn native(program: &exec::Program) -> Result<crate::jit::Compiled, Unavailable> {
    crate::jit::compile(program).map_err(|e| Unavailable {
        reason: e.to_string(),
        chosen: matches!(e, crate::jit::JitError::TooLarge { .. }),
    })
}

#[cfg(not(jit))]
fn native(_: &exec::Program) -> Result<NoNative, Unavailable> {
    Err(Unavailable {
        reason: "this polyasm was built without native code (the `jit` feature, on x86-64, aarch64, riscv64 or s390x)"
            .to_string(),
        chosen: false,
    })
}

/// Native code, where this build has none.
#[cfg(not(jit))]
enum NoNative {}

#[cfg(not(jit))]
impl NoNative {
    fn run(
        &self,
        _: &mut exec::Machine,
        _: &mut dyn std::io::Read,
        _: &mut dyn std::io::Write,
        _: exec::Limits,
    ) -> Result<exec::Stats, exec::RunError> {
        match *self {}
    }
}

static RUN_INFO: RunInfo = RunInfo {
    options: &[
        OptionSpec::new(
            "max-steps",
            "N",
            steps(1_000_000),
            "masfix: stop with an error after N executed instructions",
        ),
        OptionSpec::new(
            "engine",
            "ENGINE",
            OptionKind::Words {
                plural: "engines",
                words: &ENGINES,
            },
            "masfix: what runs the program: `jit` (native code), `vm` or `auto` (native code unless the run is traced or the program too large; the default)",
        ),
        OptionSpec::flag(
            "trace",
            "masfix: print each executed instruction with its source line and h, r, m to standard error",
        ),
        OptionSpec::new(
            "dump-memory",
            "RANGE",
            OptionKind::Checked {
                check: |text| exec::parse_memory_range(text).map(|_| ()),
                help: "give a cell (`100`), a range (`100..108`) or an inclusive range (`100..=107`)",
            },
            "masfix: print memory cells N, A..B or A..=B to standard error when the program ends",
        ),
    ],
    needs_listing: false,
    runtimes: &[],
};

/// Where instruction `index` was written, as a span when its file is loaded (a program
/// assembled in this run) and as `file:line:col` text otherwise.
fn instruction_place(
    debug: Option<&bytecode::DebugSection>,
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

/// MX070 for the jump at `at` to `target` (its text: the executables of `-f exe` fill it in
/// when it happens).
fn jump_past_end(bytecode: &decode::Bytecode, sources: &mut SourceMap, at: usize, target: &str) -> Diagnostic {
    let (span, place) = instruction_place(bytecode.debug.as_ref(), sources, at);
    let instr = print::print_instruction(&bytecode.instrs[at]);
    let d = Diagnostic::error(
        Code::JumpPastEnd,
        format!(
            "`{instr}` (instruction {at}) jumps to {target}, past the end of the program ({})",
            polyasm_core::text::count(bytecode.instrs.len(), "instruction")
        ),
    )
    .with_help("jump to `end` to stop the program; labels name instructions inside it");
    match (span, place) {
        (Some(span), _) => d.with_primary(span, "this jump"),
        // The source is not loaded (a bytecode file): the place the debug section names
        // stands as the diagnostic's file, `prog.mx:3:5`, in every format.
        (None, Some(place)) => {
            let mut d = d;
            d.file = Some(sources.add(place, ""));
            d
        }
        (None, None) => d,
    }
}

/// Runs a bytecode program with the program's standard streams.
fn run_object(object: &Object, options: &TargetOptions, sources: &mut SourceMap, io: &mut RunIo) -> RunOutcome {
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
    let mut diagnostics = Vec::new();
    let limits = exec::Limits {
        max_steps: options.values.whole("max-steps"),
    };
    let debug = bytecode.debug.as_ref();
    let result = if options.values.flag("trace") {
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
    } else if options.values.word("engine") == Some("vm") {
        program.run(&mut machine, io.stdin, io.stdout, limits)
    } else {
        match native(&program) {
            Ok(compiled) => compiled.run(&mut machine, io.stdin, io.stdout, limits),
            Err(no) if options.values.word("engine") == Some("jit") => {
                return Ok(Outcome::failed(vec![
                    Diagnostic::error(
                        Code::NoNativeCode,
                        format!("cannot run the program as native code: {}", no.reason),
                    )
                    .with_help("`--engine vm` runs it on the VM"),
                ]));
            }
            Err(no) => {
                if !no.chosen {
                    diagnostics.push(
                        Diagnostic::warning(
                            Code::VmInstead,
                            format!("the VM runs the program, not native code: {}", no.reason),
                        )
                        .with_help("`--engine vm` chooses the VM without this warning"),
                    );
                }
                program.run(&mut machine, io.stdin, io.stdout, limits)
            }
        }
    };
    if let Some(end) = io.end.as_deref_mut() {
        let steps = match &result {
            Ok(stats) => Some(stats.steps),
            Err(exec::RunError::JumpOutOfRange { steps, .. } | exec::RunError::StepLimit { steps }) => Some(*steps),
            Err(_) => None,
        };
        *end = exec::end_state(&machine, steps);
    }
    let dump = options
        .values
        .text("dump-memory")
        .and_then(|text| exec::parse_memory_range(text).ok());
    if let Some((first, last)) = dump {
        let dumped = io.stderr.write_all(exec::dump_memory(&machine, first, last).as_bytes());
        // A closed pipe is quiet, as for the trace; a full disk is PA003.
        diagnostics.extend(dumped.err().and_then(|e| polyasm_core::stream::stdout_failed(&e)));
    }
    match result {
        Ok(_) => {}
        Err(exec::RunError::JumpOutOfRange { at, target, .. }) => {
            diagnostics.push(jump_past_end(&bytecode, sources, at, &target.to_string()));
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
    let status = if !diagnostics.iter().any(Diagnostic::is_error) {
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
fn bad_bytecode(name: &str, error: &bytecode::BytecodeError) -> Diagnostic {
    Diagnostic::error(Code::InvalidBytecode, format!("{name} is not Masfix bytecode: {error}"))
        .with_help("a bytecode file is what `polyasm -t masfix prog.mx -o prog.mxb` writes")
}

/// `-f exe`, where native code can be made.
#[cfg(jit)]
static FORMATS: &[FormatInfo] = &[FormatInfo {
    name: "exe",
    description: "a native executable for this machine that runs as `polyasm run` does (needs a C compiler: `cc`, or the one `CC` names)",
    binary: true,
    listing: false,
    extensions: &[],
    executable: true,
}];

#[cfg(not(jit))]
static FORMATS: &[FormatInfo] = &[];

/// Where an executable's error texts take what only the run knows (a jump's target, the
/// reason of a failed read or write); the runtime fills it in.
#[cfg(jit)]
const HOLE: &str = "@@POLYASM-HOLE@@";

/// The native executable of an assembled program (`-f exe`): the program compiled to an
/// object file, linked with the runtime and the texts of its errors as `polyasm run` prints
/// them (without colour), by the system's C compiler.
#[cfg(jit)]
fn executable(object: &Object, sources: &SourceMap) -> Result<Vec<u8>, Diagnostic> {
    let failed = |message: String| {
        Diagnostic::error(Code::NoExecutable, message)
            .with_help("`-f exe` needs a C compiler: install one as `cc`, or name it in `CC`")
    };
    let not_linked = |error: crate::jit::exe::ExeError| match error {
        crate::jit::exe::ExeError::Compile(e) => {
            Diagnostic::error(Code::NoExecutable, e.to_string()).with_help("`polyasm run` runs the program on the VM")
        }
        crate::jit::exe::ExeError::Link { ref output, .. } if !output.trim().is_empty() => {
            // What the compiler said, a line a note, the first 20 lines.
            let mut d = failed(error.to_string());
            for line in output.lines().filter(|l| !l.trim().is_empty()).take(20) {
                d = d.with_note(line.to_string());
            }
            d
        }
        error => failed(error.to_string()),
    };
    let bytecode = decode::read(&object.bytes).expect("invariant: assembled bytecode reads back");
    let program =
        exec::Program::new(&bytecode.instrs).map_err(|e| Diagnostic::error(Code::ProgramTooLong, e.to_string()))?;
    let mut sources = sources.clone();
    let name = sources
        .iter()
        .next()
        .map_or("-".to_string(), |(_, s)| s.name().to_string());
    let what = format!("{name} stopped with an error: 1 error");
    // Each report is followed by a blank line, then by the summary where `polyasm run` gives
    // one (not after a failed write); without colour and with it.
    let render = |d: &Diagnostic, sources: &SourceMap, summed: bool| {
        [false, true].map(|color| {
            let format = polyasm_core::render::ErrorFormat::Human;
            let mut text = polyasm_core::render::render(d, sources, format, color, &());
            text.push('\n');
            if summed {
                text.push_str(&polyasm_core::render::render_summary(&what, color));
            }
            text.replace(HOLE, "\x01")
        })
    };
    let mut jump_failed = Vec::new();
    for (at, instr) in bytecode.instrs.iter().enumerate() {
        jump_failed.push(match instr.kind {
            crate::ops::Kind::Jmp | crate::ops::Kind::B => {
                let d = jump_past_end(&bytecode, &mut sources, at, HOLE);
                render(&d, &sources, true)
            }
            _ => [String::new(), String::new()],
        });
    }
    let write = Diagnostic::error(
        CoreCode::CannotWriteOutput,
        format!("cannot write standard output: {HOLE}"),
    );
    let read = polyasm_core::stream::stdin_failed(&std::io::Error::other(HOLE));
    let texts = crate::jit::exe::Texts {
        write_failed: render(&write, &sources, false),
        read_failed: render(&read, &sources, true),
        jump_failed,
    };
    let work = tempfile::tempdir().map_err(|e| failed(format!("cannot make a folder to link in: {e}")))?;
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    let out = work.path().join("program");
    crate::jit::exe::link(&program, &texts, &cc, work.path(), &out).map_err(not_linked)?;
    std::fs::read(&out).map_err(|e| failed(format!("cannot read the linked program: {e}")))
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
    assemble_options: &[
        OptionSpec::flag(
            "strip",
            "masfix: leave the debug section (source positions for runtime errors) out of the bytecode",
        ),
        OptionSpec::new(
            "ctime-steps",
            "N",
            steps(500_000_000),
            "masfix: the most instructions compile-time code (`!name(args)`) may run in all (default 100000000)",
        ),
    ],
    disassemble_options: &[],
    formats: FORMATS,
    preprocesses: true,
};

/// Reads the target options of assembling.
pub fn assemble_options(options: &TargetOptions) -> AssembleOptions {
    let defaults = Limits::default();
    AssembleOptions {
        debug: !options.values.flag("strip"),
        listing: !options.skip_listing,
        include_dirs: options.include_dirs.clone(),
        preprocess_only: options.preprocess_only,
        limits: Limits {
            ctime_steps: options.values.whole("ctime-steps").unwrap_or(defaults.ctime_steps),
            ..defaults
        },
        names: options.names.clone(),
    }
}

/// How Masfix text is written: `;` comments; `%` before a directive or a use, `:` before a
/// label and inside a namespace path (`std:push`), `!` before a compile-time call; the
/// operation letters glued to a name (`ld&m`, `ld.m`). Its registers h, m, r and p are
/// letters of an instruction's name (`ldm`), never words of their own, so it lists none.
/// `%include` finds the standard library's files ([`stdlib::FILES`]) by their names.
static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| Lexicon {
    line_comments: &[";"],
    sigils: "%:!",
    word_chars: ":&|^<>.",
    include: Some(("%include", "mx")),
    builtin_includes: stdlib::FILES
        .iter()
        .map(|file| file.name.strip_suffix(".mx").unwrap_or(file.name))
        .collect::<Vec<_>>()
        .leak(),
    // An instruction is its name with the letters of its operation glued on (`ldm`, `bmeq`).
    is_instruction: Some(|word| crate::encode::decompose(word).is_ok()),
    reserved: &crate::lexer::DIRECTIVES,
    ..Lexicon::NONE
});

impl Target for MasfixTarget {
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
        out: &mut dyn std::io::Write,
    ) -> Outcome<Object> {
        let mut output = CompileTimeOutput {
            inner: out,
            closed: false,
            failed: None,
        };
        let mut outcome = assemble(sources, file, &assemble_options(options), &mut output);
        let _ = std::io::Write::flush(&mut output);
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

    fn write_format(&self, format: &str, object: &Object, sources: &SourceMap) -> Option<Result<Vec<u8>, Diagnostic>> {
        #[cfg(jit)]
        if format == "exe" {
            return Some(executable(object, sources));
        }
        let _ = (format, object, sources);
        None
    }

    fn instructions(&self) -> Vec<polyasm_core::table::Entry> {
        crate::ops::Kind::entries()
    }

    fn lexicon(&self) -> &'static Lexicon {
        &LEXICON
    }

    fn runner(&self) -> Option<&dyn Runner> {
        Some(self)
    }

    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, _options: &TargetOptions) -> Outcome<String> {
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

impl Runner for MasfixTarget {
    fn run_info(&self) -> &RunInfo {
        &RUN_INFO
    }

    fn plan(&self, options: &TargetOptions) -> Result<RunOutput, UsageError> {
        if options.values.flag("trace") && options.values.word("engine") == Some("jit") {
            return Err(polyasm_core::options::usage(
                "`--trace` runs the program on the VM, not as native code",
                "leave out `--engine jit` to trace the program",
            ));
        }
        Ok(RunOutput::Text)
    }

    fn run(&self, object: &Object, options: &TargetOptions, sources: &mut SourceMap, io: &mut RunIo<'_>) -> RunOutcome {
        run_object(object, options, sources, io)
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
}
