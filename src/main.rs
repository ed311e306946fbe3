//! The `polyasm` command: parse arguments, read files, call a target, render, write atomically.

mod args;
mod io;
mod report;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use polyasm::registry;
use polyasm_core::output::{self, OutputContext, STANDARD_FORMATS};
use polyasm_core::target::{DisasmInput, InputEncoding, OptionSpec, TargetOptions};
use polyasm_core::{Diagnostic, Explain, Object, Outcome, SourceMap, Target};

use crate::args::{AssembleArgs, CheckArgs, Cli, Command, DisasmArgs, InputFormatArg, RunArgs};
use crate::io::{Input, Output};
use crate::report::Reporter;

/// How a command ended: the exit codes of the CLI contract.
#[derive(Debug)]
enum Failure {
    /// Assembly, run or I/O errors (exit 1); already reported.
    Errors,
    /// A usage error (exit 2); already reported.
    Usage,
}

type Result<T = ()> = std::result::Result<T, Failure>;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut reporter = match Reporter::new(&cli.global) {
        Ok(r) => r,
        Err(message) => {
            Reporter::quiet().usage(Diagnostic::error("PA011", message));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        None => assemble(&cli.assemble, &mut reporter),
        Some(Command::Disasm(a)) => disasm(&a, &mut reporter),
        Some(Command::Run(a)) => run(&a, &mut reporter),
        Some(Command::Check(a)) => check(&a, &mut reporter),
        Some(Command::Targets) => targets(),
        Some(Command::Explain { code }) => explain(code.as_deref(), &reporter),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "polyasm", &mut std::io::stdout());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Errors) => ExitCode::from(1),
        Err(Failure::Usage) => ExitCode::from(2),
    }
}

/// Picks the target from `-t`, else from the input's extension.
fn resolve_target(name: Option<&str>, input: &Input, reporter: &Reporter) -> Result<&'static dyn Target> {
    let registry = registry();
    let known = registry.names().join(", ");
    let found = match name {
        Some(name) => registry.by_name(name).ok_or_else(|| {
            Diagnostic::error("PA008", format!("unknown target `{name}`"))
                .with_help(format!("targets are: {known} (see `polyasm targets`)"))
        }),
        None => match input {
            Input::Stdin => Err(Diagnostic::error("PA008", "no target given for standard input")
                .with_help(format!("name one with `-t`: {known}"))),
            Input::Path(path) => registry.by_path(path).ok_or_else(|| {
                Diagnostic::error(
                    "PA008",
                    format!("cannot tell the target of `{path}` from its extension"),
                )
                .with_help(format!("name one with `-t`: {known}"))
            }),
        },
    };
    found.map_err(|d| {
        reporter.usage(d);
        Failure::Usage
    })
}

/// Reads the input as a registered source, reporting failures.
fn read_source(input: &Input, sources: &mut SourceMap, reporter: &mut Reporter) -> Result<polyasm_core::SourceId> {
    match input.read_text() {
        Ok(text) => sources.try_add(input.display_name(), text).map_err(|_| {
            reporter.emit(vec![too_large(input.display_name())], sources);
            Failure::Errors
        }),
        Err(d) => {
            reporter.emit(vec![d], sources);
            Err(Failure::Errors)
        }
    }
}

fn too_large(name: &str) -> Diagnostic {
    Diagnostic::error("PA013", format!("{name} is 4 GiB or larger")).with_help("split it into smaller files")
}

fn format_from_extension(path: &str) -> Option<&'static str> {
    let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "bin" => "bin",
        "hex" => "hex",
        "c" | "h" => "c",
        "rs" => "rust",
        "lst" => "listing",
        "json" => "json",
        _ => return None,
    })
}

/// Reads and assembles the input, reporting diagnostics; fails if there is any error.
fn assemble_input(
    target: &dyn Target,
    input: &Input,
    options: &TargetOptions,
    reporter: &mut Reporter,
    failure: &str,
) -> Result<(SourceMap, Object)> {
    let mut sources = SourceMap::new();
    let file = read_source(input, &mut sources, reporter)?;
    let outcome = target.assemble(&sources, file, options);
    let object = conclude(
        reporter,
        outcome,
        &sources,
        &format!("{} not assembled; {failure}", input.display_name()),
    )?;
    Ok((sources, object))
}

/// Prints an outcome's diagnostics and returns its value; after errors, prints `failure` as
/// the summary line and fails.
fn conclude<T>(reporter: &mut Reporter, outcome: Outcome<T>, sources: &SourceMap, failure: &str) -> Result<T> {
    let failed = reporter.emit(outcome.diagnostics, sources);
    match outcome.value {
        Some(value) if !failed => Ok(value),
        _ => {
            reporter.summarize_failure(failure);
            Err(Failure::Errors)
        }
    }
}

fn assemble(args: &AssembleArgs, reporter: &mut Reporter) -> Result {
    let input = Input::from_arg(args.io.input.as_deref());
    let target = resolve_target(args.io.target.as_deref(), &input, reporter)?;
    let output = Output::from_arg(args.io.output.as_deref());
    let format_name = match (&args.format, &output) {
        (Some(f), _) => f.to_ascii_lowercase(),
        (None, Output::Path(path)) => format_from_extension(path).unwrap_or("bin").to_string(),
        (None, Output::Stdout) => "bin".to_string(),
    };
    let Some(format) = STANDARD_FORMATS
        .iter()
        .chain(target.extra_formats())
        .find(|f| f.name == format_name)
    else {
        let names: Vec<&str> = STANDARD_FORMATS
            .iter()
            .chain(target.extra_formats())
            .map(|f| f.name)
            .collect();
        reporter.usage(
            Diagnostic::error(
                "PA009",
                format!(
                    "unknown output format `{format_name}` for target {}",
                    target.info().name
                ),
            )
            .with_help(format!("formats are: {}", names.join(", "))),
        );
        return Err(Failure::Usage);
    };
    output.check_binary(format.binary, reporter)?;
    let options = &TargetOptions {
        skip_listing: !format.listing,
        ..args.target_options.options.clone()
    };
    check_target_options(target, options, target.assemble_options(), "polyasm --help", reporter)?;

    let (sources, object) = assemble_input(target, &input, options, reporter, "no output written")?;
    let symbol = args.name.clone().unwrap_or_else(|| match &input {
        Input::Path(path) => output::symbol_from_name(path),
        Input::Stdin => "program".to_string(),
    });
    let ctx = OutputContext {
        sources: &sources,
        target: target.info().name,
        input_name: input.display_name(),
        symbol: &symbol,
    };
    let bytes = output::write_standard(format.name, &object, &ctx)
        .or_else(|| target.write_format(format.name, &object, &sources))
        .expect("every listed format has a writer");
    output.write(&bytes, reporter)
}

fn disasm(args: &DisasmArgs, reporter: &mut Reporter) -> Result {
    let input = Input::from_arg(args.io.input.as_deref());
    let target = resolve_target(args.io.target.as_deref(), &input, reporter)?;
    let output = Output::from_arg(args.io.output.as_deref());
    let mut sources = SourceMap::new();
    let bytes = input.read_bytes().map_err(|d| {
        reporter.emit(vec![d], &sources);
        Failure::Errors
    })?;
    let encoding = match args.input_format {
        InputFormatArg::Auto => polyasm_core::words::detect_encoding(&bytes),
        InputFormatArg::Bin => InputEncoding::Binary,
        InputFormatArg::Hex => InputEncoding::Hex,
    };
    let text_source = match (encoding, std::str::from_utf8(&bytes)) {
        (InputEncoding::Hex, Ok(text)) => match sources.try_add(input.display_name(), text) {
            Ok(id) => Some(id),
            Err(_) => {
                reporter.emit(vec![too_large(input.display_name())], &sources);
                return Err(Failure::Errors);
            }
        },
        _ => None,
    };
    let disasm_input = DisasmInput {
        bytes: &bytes,
        encoding,
        text_source,
        name: input.display_name(),
    };
    let outcome = target.disassemble(&sources, &disasm_input);
    let failure = format!("{} not disassembled; no output written", input.display_name());
    let text = conclude(reporter, outcome, &sources, &failure)?;
    output.write(text.as_bytes(), reporter)
}

fn run(args: &RunArgs, reporter: &mut Reporter) -> Result {
    let input = Input::from_arg(args.io.input.as_deref());
    let target = resolve_target(args.io.target.as_deref(), &input, reporter)?;
    let options = &TargetOptions {
        skip_listing: true,
        ..args.target_options.options.clone()
    };
    if !target.can_run() {
        reporter.usage(Diagnostic::error(
            "PA010",
            format!("target {} has no emulator", target.info().name),
        ));
        return Err(Failure::Usage);
    }
    let accepted: Vec<OptionSpec> = target
        .assemble_options()
        .iter()
        .chain(target.run_options())
        .copied()
        .collect();
    check_target_options(target, options, &accepted, "polyasm run --help", reporter)?;
    target.check_run_options(options).map_err(|usage| {
        reporter.usage(*usage.0);
        Failure::Usage
    })?;
    let output = Output::from_arg(args.io.output.as_deref());
    let (mut sources, object) = assemble_input(target, &input, options, reporter, "nothing run")?;
    // The results are written as they are computed: to standard output, or to a temporary file
    // that replaces `-o FILE` only when the run succeeds.
    let mut file = match &output {
        Output::Stdout => None,
        Output::Path(path) => match polyasm_core::fs::AtomicWriter::create(std::path::Path::new(path)) {
            Ok(file) => Some(file),
            Err(e) => {
                let d = Diagnostic::error("PA003", format!("cannot write {path}: {}", io::io_reason(&e)))
                    .with_note("the destination was left as it was");
                reporter.emit(vec![d], &sources);
                return Err(Failure::Errors);
            }
        },
    };
    let outcome = match &mut file {
        Some(file) => target.run(&object, options, &mut sources, file),
        None => target.run(&object, options, &mut sources, &mut std::io::stdout().lock()),
    }
    .expect("can_run targets implement run");
    let outcome = outcome.map_err(|usage| {
        reporter.usage(*usage.0);
        Failure::Usage
    })?;
    conclude(
        reporter,
        outcome,
        &sources,
        &format!("{} did not run", input.display_name()),
    )?;
    match (file, &output) {
        (Some(file), Output::Path(path)) => file.commit().map_err(|e| {
            let d = Diagnostic::error("PA003", format!("cannot write {path}: {}", io::io_reason(&e)))
                .with_note("the destination was left as it was");
            reporter.emit(vec![d], &sources);
            Failure::Errors
        }),
        _ => Ok(()),
    }
}

/// Refuses options of other targets: each target takes only its own.
fn check_target_options(
    target: &dyn Target,
    options: &TargetOptions,
    accepted: &[OptionSpec],
    help_command: &str,
    reporter: &Reporter,
) -> Result {
    let given = options.values.keys().chain(options.flags.keys());
    for name in given {
        if !accepted.iter().any(|spec| spec.long == *name) {
            reporter.usage(
                Diagnostic::error(
                    "PA010",
                    format!("target {} does not take `--{name}`", target.info().name),
                )
                .with_help(format!("`{help_command}` lists the options; each target uses its own")),
            );
            return Err(Failure::Usage);
        }
    }
    Ok(())
}

fn check(args: &CheckArgs, reporter: &mut Reporter) -> Result {
    let mut sources = SourceMap::new();
    let mut failed_files = 0;
    for path in &args.inputs {
        let input = Input::from_arg(Some(path));
        let target = resolve_target(args.target.as_deref(), &input, reporter)?;
        let Ok(file) = read_source(&input, &mut sources, reporter) else {
            failed_files += 1;
            continue;
        };
        let outcome = target.assemble(&sources, file, &TargetOptions::default());
        if reporter.emit(outcome.diagnostics, &sources) || outcome.value.is_none() {
            failed_files += 1;
        }
    }
    if failed_files > 0 {
        reporter.summarize_failure(&format!("{failed_files} of {} files failed", args.inputs.len()));
        return Err(Failure::Errors);
    }
    Ok(())
}

fn targets() -> Result {
    let mut out = String::from("TARGET  ALIASES                EXTENSIONS  COMMANDS             FORMATS\n");
    for target in registry().targets() {
        let info = target.info();
        let commands = if target.can_run() {
            "asm, disasm, run"
        } else {
            "asm, disasm"
        };
        let formats: Vec<&str> = STANDARD_FORMATS
            .iter()
            .chain(target.extra_formats())
            .map(|f| f.name)
            .collect();
        let extensions: Vec<String> = info.extensions.iter().map(|e| format!(".{e}")).collect();
        out.push_str(&format!(
            "{:<7} {:<22} {:<11} {:<20} {}\n        {}\n",
            info.name,
            info.aliases.join(", "),
            extensions.join(" "),
            commands,
            formats.join(" "),
            info.description
        ));
    }
    Output::Stdout.write(out.as_bytes(), &mut Reporter::quiet())
}

fn explain(code: Option<&str>, reporter: &Reporter) -> Result {
    let registry = registry();
    let text = match code {
        None => {
            let tables =
                std::iter::once(polyasm_core::explain::CORE_CODES).chain(registry.targets().iter().map(|t| t.codes()));
            tables
                .flatten()
                .map(|c| format!("{}  {}\n", c.code, c.title))
                .collect::<String>()
        }
        Some(code) => match registry.explain(code) {
            Some(info) => format!("{}: {}\n\n{}\n", info.code, info.title, wrap(info.explanation, 78)),
            None => {
                reporter.usage(
                    Diagnostic::error("PA012", format!("unknown diagnostic code `{code}`"))
                        .with_help("`polyasm explain` lists every code"),
                );
                return Err(Failure::Usage);
            }
        },
    };
    Output::Stdout.write(text.as_bytes(), &mut Reporter::quiet())
}

/// Wraps prose at `width` columns on spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line_len = 0;
    for word in text.split_whitespace() {
        if line_len > 0 && line_len + 1 + word.len() > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out
}
