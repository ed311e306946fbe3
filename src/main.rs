//! The `polyasm` command: parse arguments, read files, call a target, render, write atomically.

mod args;
mod depfile;
mod failure;
mod io;
mod nv2avsh;
mod report;

use std::borrow::Cow;
use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use polyasm::registry;
use polyasm_core::config::{self, Config};
use polyasm_core::diagnostic::within_limit;
use polyasm_core::explain::Code;
use polyasm_core::options::OptionValues;
use polyasm_core::output::{self, OutputContext};
use polyasm_core::stream::{RunIo, UnreadableInput};
use polyasm_core::target::{DisasmInput, InputEncoding, RunOutput, Runner, TargetOptions};
use polyasm_core::{Diagnostic, Explain, Object, Outcome, SourceMap, Target, WarningPolicy};

use crate::args::{
    AssembleArgs, CheckArgs, Cli, ColorArg, Command, DisasmArgs, IncludeArgs, InputFormatArg, OptionsOf, RunArgs,
    TargetOptionArgs,
};
use crate::failure::{Failure, Result};
use crate::io::{Input, Output, too_large};
use crate::report::Reporter;

/// Turns off Mesa's Vulkan device-selection layer outside a desktop session (no usable
/// `XDG_RUNTIME_DIR`), where it prints "error: XDG_RUNTIME_DIR is invalid or not set" on every
/// GPU probe. polyasm picks its adapter itself, so the layer has nothing to do; a user who sets
/// `NODEVICE_SELECT` or `MESA_VK_DEVICE_SELECT` keeps their choice (docs/shader-gpu.md).
fn quiet_vulkan_device_select() {
    let session = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|dir| std::path::Path::new(&dir).is_dir());
    let chosen = std::env::var_os("NODEVICE_SELECT").is_some() || std::env::var_os("MESA_VK_DEVICE_SELECT").is_some();
    if !session && !chosen {
        // SAFETY: the first statement of `main`: no other thread exists yet to read the
        // environment while it changes.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

fn main() -> ExitCode {
    quiet_vulkan_device_select();
    polyasm_core::fs::remove_temporary_on_signals();
    let raw_args = args::command_first(nv2avsh::from_executable_name(std::env::args_os().collect()));
    if let Some(diagnostic) = args::non_utf8_argument(&raw_args) {
        let (format, color) = args::rendering_from_raw_args(&raw_args);
        Reporter::plain(format, color).usage(diagnostic);
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse_from(&raw_args) {
        Ok(cli) => cli,
        Err(error) => {
            let (format, color) = args::rendering_from_raw_args(&raw_args);
            return exit_code(command_line_error(&error, &mut Reporter::plain(format, color), color));
        }
    };
    let mut reporter = match Reporter::new(&cli.global) {
        Ok(r) => r,
        Err(message) => {
            Reporter::plain(cli.global.error_format, cli.global.color)
                .usage(Diagnostic::error(Code::InvalidWarningOption, message));
            return ExitCode::from(2);
        }
    };
    if let Err(message) = reporter.warnings.check_codes(|code| registry().is_warning(code)) {
        reporter.usage(
            Diagnostic::error(Code::InvalidWarningOption, message).with_help("`polyasm explain` lists every code"),
        );
        return ExitCode::from(2);
    }
    let settings = Settings {
        source: match (&cli.global.config, cli.global.no_config) {
            (_, true) => SettingsSource::None,
            (Some(file), false) => SettingsSource::File(file.into()),
            (None, false) => SettingsSource::Nearest,
        },
        warnings: reporter.warnings.clone(),
    };
    let result = match cli.command {
        None => assemble(&cli.assemble, &settings, &mut reporter),
        Some(Command::Disasm(a)) => disasm(&a, &settings, &mut reporter),
        Some(Command::Run(a)) => run(&a, &settings, &mut reporter),
        Some(Command::Check(a)) => check(&a, &settings, &mut reporter),
        Some(Command::Nv2avsh(a)) => assemble(&nv2avsh::assemble_args(&a), &settings, &mut reporter),
        Some(Command::Targets) => targets(&mut reporter),
        Some(Command::Explain { code }) => explain(code.as_deref(), &mut reporter),
        Some(Command::Completions { shell }) => {
            // Generated in memory: clap_complete panics on a failed write to the terminal.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "polyasm", &mut script);
            Output::Stdout.write(&script, &mut reporter)
        }
        Some(Command::Serve(a)) => serve(&a, &mut reporter),
        Some(Command::Lsp { .. }) => {
            // Writes to a closed standard output would vanish into the `/dev/null` the runtime
            // puts there.
            if io::stdout_was_closed() {
                eprintln!("polyasm lsp: cannot write to the client: standard output is closed");
                return ExitCode::FAILURE;
            }
            return polyasm_lsp::serve_stdio(registry());
        }
        Some(Command::Man) => {
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .expect("writing to memory does not fail");
            Output::Stdout.write(&page, &mut reporter)
        }
    };
    exit_code(result)
}

/// `polyasm serve`: lists the sources, listens, prints the page's address, then serves until
/// the process is stopped.
fn serve(args: &args::ServeArgs, reporter: &mut Reporter) -> Result {
    let settings = polyasm_serve::Settings {
        paths: args.paths.clone(),
        host: args.host,
        port: args.port,
        device: match args.device {
            args::ServeDevice::Auto => polyasm_serve::Device::Auto,
            args::ServeDevice::Cpu => polyasm_serve::Device::Cpu,
            args::ServeDevice::Gpu => polyasm_serve::Device::Gpu,
        },
    };
    let bound = match polyasm_serve::bind(registry(), &settings) {
        Ok(bound) => bound,
        Err(e) => {
            reporter.emit(
                vec![Diagnostic::error(Code::CannotServe, e.to_string()).with_help(match e {
                    polyasm_serve::StartError::Bind(..) => "pick another `--port`, or `--port 0` for a free one",
                    polyasm_serve::StartError::Path(_) => "give files and folders that exist",
                    polyasm_serve::StartError::Start(_) => {
                        "serve a smaller folder, or raise the system's limit on watched folders"
                    }
                })],
                &Default::default(),
            );
            return Err(Failure::Errors);
        }
    };
    if let Some(host) = args.host
        && !host.is_loopback()
    {
        reporter.emit_note(&format!(
            "serving on {host}: every machine that can reach this address can read the sources listed"
        ));
    }
    let (count, cut) = bound.listed();
    let url = bound.url();
    // The address is the one way to the page: a server whose address cannot be printed
    // (a closed or full standard output) stops rather than serve unseen.
    let line = format!(
        "polyasm serve: {url} ({}{}; Ctrl-C stops)\n",
        polyasm_core::text::count(count, "source"),
        if cut { ", the list cut at its limit" } else { "" }
    );
    let written = if io::stdout_was_closed() {
        Err(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            "standard output is closed",
        ))
    } else {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        out.write_all(line.as_bytes()).and_then(|()| out.flush())
    };
    if let Err(e) = written {
        reporter.emit(
            vec![
                Diagnostic::error(
                    Code::CannotServe,
                    format!("cannot print the page's address {url}: {}", io::io_reason(&e)),
                )
                .with_help("run `polyasm serve` with its standard output on a terminal, a pipe or a file"),
            ],
            &Default::default(),
        );
        return Err(Failure::Errors);
    }
    if args.open {
        open_browser(&url, reporter);
    }
    bound.serve().map_err(|e| {
        reporter.emit(
            vec![Diagnostic::error(Code::CannotServe, e.to_string())],
            &Default::default(),
        );
        Failure::Errors
    })
}

/// Opens `url` in the default browser; a failure is a note, the page's address was printed.
fn open_browser(url: &str, reporter: &mut Reporter) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let spawned = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        reporter.emit_note(&format!(
            "cannot open a browser ({}: {}); open {url}",
            opener[0],
            io::io_reason(&e)
        ));
    }
}

fn exit_code(result: Result) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Errors) => ExitCode::from(1),
        Err(Failure::Usage) => ExitCode::from(2),
        Err(Failure::Exit(status)) => ExitCode::from(status),
    }
}

/// What clap stopped at: help and the version go to standard output (exit 0); anything else
/// is a usage error, rendered by clap in the human format and as PA015 in the others.
fn command_line_error(error: &clap::Error, reporter: &mut Reporter, color: ColorArg) -> Result {
    use clap::error::ErrorKind;
    let styled = error.render();
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Help and the version go to standard output: its terminal decides.
            let color = report::use_color(color, std::io::stdout().is_terminal());
            let text = if color {
                styled.ansi().to_string()
            } else {
                styled.to_string()
            };
            Output::Stdout.write(text.as_bytes(), reporter)
        }
        _ => {
            if reporter.is_machine_readable() {
                reporter.usage(diagnostic_from_clap(&styled.to_string()));
            } else {
                let text = if reporter.colored() {
                    styled.ansi().to_string()
                } else {
                    styled.to_string()
                };
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
            Err(Failure::Usage)
        }
    }
}

/// clap's error text as a diagnostic: its first line is the message, a `tip:` the help, and
/// the usage and the pointer to `--help` are notes. Each is one line: a message that ends
/// with `:` takes the lines that follow it (`<INPUT>...`), and a block's further lines (a
/// second usage) follow its first after `; `.
fn diagnostic_from_clap(text: &str) -> Diagnostic {
    let mut lines = text.lines().peekable();
    let first = lines.next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).trim().to_string();
    if message.ends_with(':') {
        let mut items = Vec::new();
        while let Some(line) = lines.next_if(|line| !line.trim().is_empty()) {
            items.push(line.trim());
        }
        if !items.is_empty() {
            message = format!("{message} {}", items.join(", "));
        }
    }
    let mut diagnostic = Diagnostic::error(Code::InvalidArguments, message);
    let rest: Vec<&str> = lines.collect();
    for block in rest.join("\n").split("\n\n") {
        let block: Vec<&str> = block.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
        if block.is_empty() {
            continue;
        }
        let block = block.join("; ");
        diagnostic = match block.strip_prefix("tip: ") {
            Some(tip) if diagnostic.help.is_none() => diagnostic.with_help(tip),
            _ => diagnostic.with_note(block),
        };
    }
    diagnostic
}

/// Where the settings of a command come from (`--config FILE`, `--no-config`), and the `-W`
/// options of the command line, which override those of a settings file.
struct Settings {
    source: SettingsSource,
    warnings: WarningPolicy,
}

enum SettingsSource {
    /// The nearest polyasm.toml above each input.
    Nearest,
    /// `--config FILE`.
    File(std::path::PathBuf),
    /// `--no-config`.
    None,
}

impl Settings {
    /// The polyasm.toml that holds the settings of `input`, if any: the nearest one above its
    /// folder (above the current folder for standard input).
    fn path_for(&self, input: &Input) -> Option<std::path::PathBuf> {
        match &self.source {
            SettingsSource::None => None,
            SettingsSource::File(path) => Some(path.clone()),
            SettingsSource::Nearest => {
                let folder = match input {
                    Input::Path(path) => std::path::Path::new(path).parent(),
                    Input::Stdin => None,
                };
                config::find(folder.unwrap_or(std::path::Path::new(".")))
            }
        }
    }

    /// Makes the warning policy of `config` (with the command line's `-W` over it) the
    /// reporter's.
    fn apply(&self, config: Option<&Config>, reporter: &mut Reporter) {
        reporter.warnings = match config {
            Some(config) => config.warning_policy(&self.warnings),
            None => self.warnings.clone(),
        };
    }

    /// The settings of `input`, applied to the reporter; after errors in the file, a summary
    /// line saying that `input` was `failure` (`not assembled; no output written`).
    fn for_input(&self, input: &Input, reporter: &mut Reporter, failure: &str) -> Result<Option<Config>> {
        let config = match self.path_for(input) {
            Some(path) => match read_settings(&path, reporter) {
                Some(config) => Some(config),
                None => {
                    reporter.summarize_failure(&format!("{} {failure}", input.display_name()));
                    return Err(Failure::Errors);
                }
            },
            None => None,
        };
        self.apply(config.as_ref(), reporter);
        Ok(config)
    }
}

/// Reads the polyasm.toml at `path`; `None` after reporting its errors.
fn read_settings(path: &std::path::Path, reporter: &mut Reporter) -> Option<Config> {
    let mut sources = SourceMap::new();
    match config::load(path, registry(), &mut sources) {
        Ok(config) => Some(config),
        Err(diagnostics) => {
            reporter.emit(diagnostics, &sources);
            None
        }
    }
}

/// Picks the target from `-t`, else from the settings' `[extensions]`, the input's extension
/// or the settings' `target`, in this order.
fn resolve_target(
    name: Option<&str>,
    input: &Input,
    config: Option<&Config>,
    reporter: &Reporter,
) -> Result<&'static dyn Target> {
    let registry = registry();
    let known = registry.names().join(", ");
    let found = match name {
        Some(name) => registry.by_name(name).ok_or_else(|| {
            Diagnostic::error(Code::UnknownTarget, format!("unknown target `{name}`"))
                .with_help(format!("targets are: {known} (see `polyasm targets`)"))
        }),
        None => match input {
            Input::Stdin => config.and_then(|c| c.default_target(registry)).ok_or_else(|| {
                Diagnostic::error(Code::UnknownTarget, "no target given for standard input")
                    .with_help(format!("name one with `-t`: {known}; or set `target` in polyasm.toml"))
            }),
            Input::Path(path) => match config {
                Some(config) => config.target_for(registry, std::path::Path::new(path)),
                None => registry.by_path(path),
            }
            .ok_or_else(|| {
                Diagnostic::error(
                    Code::UnknownTarget,
                    format!("cannot tell the target of `{path}` from its extension"),
                )
                .with_help(format!(
                    "name one with `-t`: {known}; or give the extension one in polyasm.toml's `[extensions]`"
                ))
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
    let added = |sources: &mut SourceMap, text: String| match input {
        Input::Path(path) => sources.try_add_file(path.as_str(), path.as_str(), text),
        Input::Stdin => sources.try_add(input.display_name(), text),
    };
    match input.read_text(sources) {
        Ok(text) => added(sources, text).map_err(|_| {
            reporter.emit(vec![too_large(input.display_name())], sources);
            Failure::Errors
        }),
        Err(d) => {
            reporter.emit(vec![d], sources);
            Err(Failure::Errors)
        }
    }
}

/// The `-I` folders, then those of the settings; a `-I` that is not a folder is a usage error
/// (PA023), and those of the settings were checked when they were read.
fn include_dirs(args: &IncludeArgs, config: Option<&Config>, reporter: &Reporter) -> Result<Vec<std::path::PathBuf>> {
    for dir in &args.include_dirs {
        let problem = match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => continue,
            Ok(_) => "is not a folder".to_string(),
            Err(e) => match e.kind() {
                std::io::ErrorKind::NotFound => "does not exist".to_string(),
                _ => format!("cannot be read: {}", io::io_reason(&e)),
            },
        };
        reporter.usage(
            Diagnostic::error(Code::IncludeFolderMissing, format!("include folder `{dir}` {problem}"))
                .with_help("correct the path given with `-I`, or leave it out"),
        );
        return Err(Failure::Usage);
    }
    let from_config = config.iter().flat_map(|c| c.include_dirs.iter().cloned());
    Ok(args
        .include_dirs
        .iter()
        .map(std::path::PathBuf::from)
        .chain(from_config)
        .collect())
}

/// The format an output's extension asks for (`-o x.h` is C), among every target's formats, so
/// that a target without it can say so.
fn format_from_extension(path: &str) -> Option<&'static str> {
    let ext = std::path::Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    registry()
        .targets()
        .iter()
        .flat_map(|target| target.formats())
        .find(|format| format.extensions.contains(&ext.as_str()))
        .map(|format| format.name)
}

/// Reads and assembles the input, reporting diagnostics; fails if there is any error. What
/// the program prints while it is assembled goes to standard output, or to standard error when
/// `compile_time_to_stderr` (the assembled output goes to standard output).
fn assemble_input(
    target: &dyn Target,
    input: &Input,
    options: &TargetOptions,
    reporter: &mut Reporter,
    failure: &str,
    compile_time_to_stderr: bool,
) -> Result<(SourceMap, Object)> {
    let mut sources = SourceMap::new();
    let file = read_source(input, &mut sources, reporter)?;
    // Under `--max-errors`, the target keeps only the diagnostics that will be shown.
    let (mut outcome, hidden) = within_limit(reporter.limit(), || {
        if compile_time_to_stderr {
            target.assemble(&mut sources, file, options, &mut std::io::stderr())
        } else {
            target.assemble(&mut sources, file, options, &mut std::io::stdout())
        }
    });
    // Every error may be hidden, when earlier ones reached the limit.
    if hidden.errors > 0 {
        outcome.value = None;
    }
    reporter.count_hidden(hidden);
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

fn assemble(args: &AssembleArgs, settings: &Settings, reporter: &mut Reporter) -> Result {
    if let (Some(first), Some(second)) = (&args.io.input, args.more_inputs.first()) {
        let all = std::iter::once(first).chain(&args.more_inputs);
        let all: Vec<&str> = all.map(String::as_str).collect();
        reporter.usage(
            Diagnostic::error(
                Code::InvalidArguments,
                format!("more than one input: `{first}` and `{second}`"),
            )
            .with_note("the assembler takes one input at a time")
            .with_help(format!(
                "`polyasm check {}` checks them all; assemble each with its own `-o`",
                all.join(" ")
            )),
        );
        return Err(Failure::Usage);
    }
    let input = Input::from_arg(args.io.input.as_deref());
    let config = settings.for_input(&input, reporter, "not assembled; no output written")?;
    let config = config.as_ref();
    let target = resolve_target(args.io.target.as_deref(), &input, config, reporter)?;
    let output = Output::from_arg(args.io.output.as_deref());
    if let Some(name) = &args.emit_runtime {
        return emit_runtime(args, name, target, &output, reporter);
    }
    output.check_not_input(&input, reporter)?;
    let depfile = depfile::request(args.depfile.as_deref(), &input, &output, reporter)?;
    if args.expand {
        return expand(args, &input, target, config, &output, depfile, reporter);
    }
    let from_extension = match (&args.format, &output) {
        (None, Output::Path(path)) => format_from_extension(path).map(|f| (path, f)),
        _ => None,
    };
    let format_name = match (&args.format, from_extension) {
        (Some(f), _) => f.to_ascii_lowercase(),
        (None, Some((_, f))) => f.to_string(),
        (None, None) => "bin".to_string(),
    };
    let Some(format) = target.formats().find(|f| f.name == format_name) else {
        let names: Vec<&str> = target.formats().map(|f| f.name).collect();
        let message = match from_extension {
            Some((path, _)) => format!(
                "`-o {path}` asks for format {format_name}, which target {} does not have",
                target.info().name
            ),
            None => format!(
                "unknown output format `{format_name}` for target {}",
                target.info().name
            ),
        };
        reporter.usage(
            Diagnostic::error(Code::UnknownFormat, message)
                .with_help(format!("formats are: {} (choose one with `-f`)", names.join(", "))),
        );
        return Err(Failure::Usage);
    };
    output.check_binary(format.binary, reporter)?;
    let options = &TargetOptions {
        skip_listing: !format.listing,
        include_dirs: include_dirs(&args.includes, config, reporter)?,
        values: target_options(target, &args.target_options, "polyasm --help", config, reporter)?,
        ..TargetOptions::default()
    };
    let symbol = match &args.name {
        Some(name) if matches!(format.name, "c" | "rust") && !output::is_array_name(name) => {
            reporter.usage(
                Diagnostic::error(
                    Code::InvalidArrayName,
                    format!("`--name {name:?}` is not a valid array name"),
                )
                .with_note(
                    "the name must be an identifier in C, C++ and Rust, and not a keyword or a name they reserve",
                )
                .with_help(format!("try `--name {}`", output::array_name_from(name))),
            );
            return Err(Failure::Usage);
        }
        Some(name) => name.clone(),
        None => match &input {
            Input::Path(path) => output::symbol_from_name(path),
            Input::Stdin => "program".to_string(),
        },
    };

    let (sources, object) = assemble_input(
        target,
        &input,
        options,
        reporter,
        "no output written",
        matches!(output, Output::Stdout),
    )?;
    output.check_not_included(&sources, reporter)?;
    let depfile = depfile.map(|d| d.prepare(&sources, reporter)).transpose()?;
    let ctx = OutputContext {
        sources: &sources,
        target: target.info().name,
        input_name: input.display_name(),
        symbol: &symbol,
    };
    let bytes = match output::write_standard(format.name, &object, &ctx) {
        Some(bytes) => bytes,
        None => match target.write_format(format.name, &object, &sources) {
            Some(Ok(bytes)) => Cow::Owned(bytes),
            Some(Err(diagnostic)) => {
                reporter.emit(vec![diagnostic], &sources);
                return Err(Failure::Errors);
            }
            None => unreachable!("every listed format has a writer"),
        },
    };
    let bytes = match &args.nv2avsh {
        Some(_) => Cow::Owned(nv2avsh::shape(&bytes, &output)),
        None => bytes,
    };
    output.write_as(&bytes, format.executable, reporter)?;
    if let Some(mode) = &args.nv2avsh {
        nv2avsh::report_written(mode, &object, &input, &output, reporter);
    }
    depfile.map_or(Ok(()), |d| d.commit(reporter))
}

/// `polyasm -E`: the source after the target's macro preprocessor, as text.
fn expand(
    args: &AssembleArgs,
    input: &Input,
    target: &'static dyn Target,
    config: Option<&Config>,
    output: &Output,
    depfile: Option<depfile::Request>,
    reporter: &mut Reporter,
) -> Result {
    if !target.info().preprocesses {
        reporter.usage(
            Diagnostic::error(
                Code::ExpandNotHere,
                format!("target {} has no macro preprocessor for `-E`", target.info().name),
            )
            .with_help("`-E` prints what a macro system made of the source; assemble without it"),
        );
        return Err(Failure::Usage);
    }
    if let Some(format) = &args.format {
        reporter.usage(
            Diagnostic::error(
                Code::ExpandNotHere,
                format!("`-E` prints source text; `-f {format}` does not apply"),
            )
            .with_help("drop `-f`, or drop `-E` to assemble"),
        );
        return Err(Failure::Usage);
    }
    let options = &TargetOptions {
        skip_listing: true,
        preprocess_only: true,
        include_dirs: include_dirs(&args.includes, config, reporter)?,
        values: target_options(target, &args.target_options, "polyasm --help", config, reporter)?,
        names: None,
    };
    let (sources, object) = assemble_input(
        target,
        input,
        options,
        reporter,
        "nothing printed",
        matches!(output, Output::Stdout),
    )?;
    output.check_not_included(&sources, reporter)?;
    let depfile = depfile.map(|d| d.prepare(&sources, reporter)).transpose()?;
    let text = object
        .preprocessed
        .expect("a target that preprocesses returns the expanded source when asked");
    output.write(text.as_bytes(), reporter)?;
    depfile.map_or(Ok(()), |d| d.commit(reporter))
}

/// `--emit-runtime NAME`: prints a runtime of the target; reads no input.
fn emit_runtime(
    args: &AssembleArgs,
    name: &str,
    target: &'static dyn Target,
    output: &Output,
    reporter: &mut Reporter,
) -> Result {
    let runtimes = target.runner().map_or(&[][..], |runner| runner.run_info().runtimes);
    let names: Vec<&str> = runtimes.iter().map(|r| r.name).collect();
    let problem = if runtimes.is_empty() {
        Some((
            format!("target {} has no runtime to emit", target.info().name),
            "`--emit-runtime` prints an interpreter a target ships (shader: wgsl, glsl)".to_string(),
        ))
    } else if let Some(input) = &args.io.input {
        Some((
            format!("`--emit-runtime` reads no input; `{input}` was given"),
            format!(
                "name the target with `-t {}` and leave the input out",
                target.info().name
            ),
        ))
    } else if let Some(format) = &args.format {
        Some((
            format!("`--emit-runtime` prints source text; `-f {format}` does not apply"),
            "drop `-f`".to_string(),
        ))
    } else if !names.contains(&name) {
        Some((
            format!("target {} has no runtime `{name}`", target.info().name),
            format!("its runtimes are: {}", names.join(", ")),
        ))
    } else {
        None
    };
    if let Some((message, help)) = problem {
        reporter.usage(Diagnostic::error(Code::EmitRuntimeNotHere, message).with_help(help));
        return Err(Failure::Usage);
    }
    let runtime = runtimes.iter().find(|r| r.name == name).expect("checked above");
    output.write(runtime.text.as_bytes(), reporter)
}

fn disasm(args: &DisasmArgs, settings: &Settings, reporter: &mut Reporter) -> Result {
    let input = Input::from_arg(args.io.input.as_deref());
    let config = settings.for_input(&input, reporter, "not disassembled; no output written")?;
    let config = config.as_ref();
    let target = resolve_target(args.io.target.as_deref(), &input, config, reporter)?;
    let options = &TargetOptions {
        values: target_options(target, &args.target_options, "polyasm disasm --help", config, reporter)?,
        ..TargetOptions::default()
    };
    let output = Output::from_arg(args.io.output.as_deref());
    output.check_not_input(&input, reporter)?;
    let mut sources = SourceMap::new();
    let bytes = input.read_bytes().map_err(|d| {
        reporter.emit(vec![d], &sources);
        Failure::Errors
    })?;
    let binary_program = matches!(&input, Input::Path(path) if target.info().is_binary_path(path));
    let encoding = match args.input_format {
        // A file of the target's own binary program format is never read as hex text.
        InputFormatArg::Auto if binary_program => InputEncoding::Binary,
        InputFormatArg::Auto => polyasm_core::words::detect_encoding(&bytes),
        InputFormatArg::Bin => InputEncoding::Binary,
        InputFormatArg::Hex => InputEncoding::Hex,
    };
    let text_source = match (encoding, std::str::from_utf8(&bytes)) {
        // A byte-order mark is skipped as in sources: hex words are text too.
        (InputEncoding::Hex, Ok(text)) => {
            match sources.try_add(input.display_name(), polyasm_core::text::skip_bom(text)) {
                Ok(id) => Some(id),
                Err(_) => {
                    reporter.emit(vec![too_large(input.display_name())], &sources);
                    return Err(Failure::Errors);
                }
            }
        }
        _ => None,
    };
    let disasm_input = DisasmInput {
        bytes: &bytes,
        encoding,
        text_source,
        name: input.display_name(),
    };
    let mut outcome = target.disassemble(&sources, &disasm_input, options);
    if encoding == InputEncoding::Hex && outcome.has_errors() && looks_like_source(&input, &bytes) {
        hint_at_assembling(&mut outcome.diagnostics, &input);
    }
    let failure = format!("{} not disassembled; no output written", input.display_name());
    let text = conclude(reporter, outcome, &sources, &failure)?;
    output.write(text.as_bytes(), reporter)
}

/// Whether disassembler input that failed to read as hex words is rather a source file: it has
/// a target's source extension, or at least a quarter of its words start with a letter that is
/// no hex digit (`ld r0 0`, `mov oPos, v0`), unlike a hex dump with a typo.
fn looks_like_source(input: &Input, bytes: &[u8]) -> bool {
    if matches!(input, Input::Path(path) if registry().by_path(path).is_some()) {
        return true;
    }
    let text = String::from_utf8_lossy(bytes);
    let words = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty());
    let (mut total, mut wordlike) = (0usize, 0usize);
    for word in words {
        total += 1;
        if word.starts_with(|c: char| c.is_ascii_alphabetic() && !c.is_ascii_hexdigit()) {
            wordlike += 1;
        }
    }
    wordlike > 0 && wordlike * 4 >= total
}

/// Keeps only the first error, with a hint that the input is source for the assembler: every
/// word of a source would be an error of its own, and none of them helps.
fn hint_at_assembling(diagnostics: &mut Vec<Diagnostic>, input: &Input) {
    let Some(first) = diagnostics.iter().position(Diagnostic::is_error) else {
        return;
    };
    let command = match input {
        Input::Path(path) => format!("polyasm {path}"),
        Input::Stdin => "polyasm -t TARGET -".to_string(),
    };
    let more = diagnostics.len() - first - 1;
    let mut diagnostic = diagnostics.swap_remove(first).with_help(format!(
        "this looks like assembly source, and `polyasm disasm` reads machine code (binary, or hex words); to assemble it, run `{command}`"
    ));
    if more > 0 {
        diagnostic = diagnostic.with_note(format!(
            "{} of the input {} not hex words either",
            polyasm_core::text::count(more, "more word"),
            if more == 1 { "is" } else { "are" }
        ));
    }
    diagnostics.truncate(first);
    diagnostics.push(diagnostic);
}

/// `polyasm run`: once, or again after each change with `--watch` (which needs a file: standard
/// input, `-` included, is read once and cannot be watched).
fn run(args: &RunArgs, settings: &Settings, reporter: &mut Reporter) -> Result {
    if !args.watch {
        return run_once(args, settings, reporter, &mut Vec::new());
    }
    let Some(input) = args.io.input.as_deref().filter(|input| *input != "-") else {
        reporter.usage(
            Diagnostic::error(Code::InvalidRunInput, "`--watch` needs an input file to watch")
                .with_help("name the program's file instead of reading it from standard input"),
        );
        return Err(Failure::Usage);
    };
    let mut watched = vec![std::path::PathBuf::from(input)];
    loop {
        if let Err(Failure::Usage) = run_once(args, settings, reporter, &mut watched) {
            return Err(Failure::Usage);
        }
        reporter.start_over();
        if reporter.is_human() {
            let _ = writeln!(
                std::io::stderr(),
                "polyasm: watching {} for changes (Ctrl-C stops)",
                polyasm_core::text::count(watched.len(), "file")
            );
        }
        wait_for_change(&watched);
    }
}

/// What `--watch` compares: each file's length and modification time (`None` when it cannot
/// be read, e.g. while an editor replaces it).
fn fingerprint(files: &[std::path::PathBuf]) -> Vec<Option<(u64, std::time::SystemTime)>> {
    files
        .iter()
        .map(|f| {
            std::fs::metadata(f)
                .ok()
                .and_then(|m| Some((m.len(), m.modified().ok()?)))
        })
        .collect()
}

/// Returns once one of `files` has changed (polled five times a second), and once it has been
/// still for a moment, so that a file being written is read whole.
fn wait_for_change(files: &[std::path::PathBuf]) {
    let pause = std::time::Duration::from_millis(200);
    let before = fingerprint(files);
    let mut now = before.clone();
    while now == before {
        std::thread::sleep(pause);
        now = fingerprint(files);
    }
    loop {
        std::thread::sleep(pause);
        let settled = fingerprint(files);
        if settled == now {
            return;
        }
        now = settled;
    }
}

/// One run; the files it read are added to `watched` (its polyasm.toml too).
fn run_once(
    args: &RunArgs,
    settings: &Settings,
    reporter: &mut Reporter,
    watched: &mut Vec<std::path::PathBuf>,
) -> Result {
    let input = Input::from_arg(args.io.input.as_deref());
    if let Some(path) = settings.path_for(&input)
        && !watched.contains(&path)
    {
        watched.push(path);
    }
    let config = settings.for_input(&input, reporter, "did not run")?;
    let config = config.as_ref();
    let target = resolve_target(args.io.target.as_deref(), &input, config, reporter)?;
    let include_dirs = include_dirs(&args.includes, config, reporter)?;
    let Some(runner) = target.runner() else {
        reporter.usage(Diagnostic::error(
            Code::RunOptionNotForTarget,
            format!("target {} has no emulator", target.info().name),
        ));
        return Err(Failure::Usage);
    };
    let options = &TargetOptions {
        skip_listing: !runner.run_info().needs_listing,
        include_dirs,
        values: target_options(target, &args.target_options, "polyasm run --help", config, reporter)?,
        ..TargetOptions::default()
    };
    let run_output = runner.plan(options).map_err(|usage| {
        reporter.usage(*usage.0);
        Failure::Usage
    })?;
    let output = Output::from_arg(args.io.output.as_deref());
    output.check_binary_with(
        run_output == RunOutput::Binary,
        "write it to a file with `-o FILE`, e.g. `-o out.png`, or pipe it to a program",
        reporter,
    )?;
    let writes_files = run_output == RunOutput::Files;
    if writes_files && matches!(output, Output::Stdout) {
        reporter.usage(
            Diagnostic::error(
                Code::InvalidRunInput,
                "this run writes several files: `-o` must name them",
            )
            .with_help("give a pattern with a frame number, e.g. `-o frames/%04d.png`"),
        );
        return Err(Failure::Usage);
    }
    output.check_not_input(&input, reporter)?;
    // A program from a file reads polyasm's standard input, which may be redirected from a
    // file (`< FILE`): that file is an input of the run too.
    if matches!(input, Input::Path(_)) && !io::stdin_was_closed() {
        output.check_not_input(&Input::Stdin, reporter)?;
    }
    // Files named by option values (`--data`) are inputs too.
    for file in options.values.files() {
        output.check_not_input(&Input::Path(file.to_string()), reporter)?;
    }
    let binary = args.binary || matches!(&input, Input::Path(path) if target.info().is_binary_path(path));
    if binary && target.info().binary_extensions.is_empty() {
        reporter.usage(
            Diagnostic::error(
                Code::RunOptionNotForTarget,
                format!("target {} has no binary program format", target.info().name),
            )
            .with_help("run its source instead, without `--binary`"),
        );
        return Err(Failure::Usage);
    }
    let (mut sources, object) = if binary {
        load_binary(target, runner, &input, reporter)?
    } else {
        assemble_input(target, &input, options, reporter, "nothing run", false)?
    };
    for path in sources.iter().filter_map(|(_, source)| source.path()) {
        if !watched.iter().any(|w| w == path) {
            watched.push(path.to_path_buf());
        }
    }
    output.check_not_included(&sources, reporter)?;
    let mut files = match (&output, writes_files) {
        (Output::Path(pattern), true) => {
            let mut inputs = watched.clone();
            inputs.extend(args.io.input.iter().map(std::path::PathBuf::from));
            inputs.extend(options.values.files().map(std::path::PathBuf::from));
            Some(RunFileWriter {
                pattern: pattern.clone(),
                inputs,
            })
        }
        _ => None,
    };
    // The results are written as they are computed: to standard output, or to a temporary file
    // that replaces `-o FILE` only when the run succeeds.
    let mut sink = match &output {
        _ if writes_files => Ok(Sink::Nothing(std::io::sink())),
        Output::Stdout => io::stdout_stream().map(Sink::Stdout),
        Output::Path(path) => polyasm_core::fs::AtomicWriter::create(std::path::Path::new(path))
            .map(Sink::File)
            .map_err(|e| output.write_failed(&io::io_reason(&e))),
    }
    .map_err(|d| {
        reporter.emit(vec![d], &sources);
        Failure::Errors
    })?;
    let mut writer = WriteErrors {
        inner: match &mut sink {
            Sink::Stdout(stdout) => stdout as &mut dyn Write,
            Sink::File(file) => file,
            Sink::Nothing(nothing) => nothing,
        },
        first: None,
    };
    // The program reads polyasm's standard input, unless the program itself came from there.
    let (mut no_input, mut closed_input) = (std::io::empty(), UnreadableInput { reason: "it is closed" });
    let mut stdin_lock;
    let stdin: &mut dyn BufRead = match &input {
        Input::Stdin => &mut no_input,
        Input::Path(_) if io::stdin_was_closed() => &mut closed_input,
        Input::Path(_) => {
            stdin_lock = std::io::stdin().lock();
            &mut stdin_lock
        }
    };
    let mut stderr = std::io::stderr();
    let mut streams = RunIo {
        stdin,
        stdout: &mut writer,
        stderr: &mut stderr,
        files: files.as_mut().map(|f| f as &mut dyn polyasm_core::stream::RunFiles),
        end: None,
    };
    let outcome = runner
        .run(&object, options, &mut sources, &mut streams)
        .map_err(|usage| {
            reporter.usage(*usage.0);
            Failure::Usage
        })?;
    if let Some(reason) = writer.first {
        // Reported as every command reports a failed write, in place of the target's own
        // PA003, and with no "did not run": it ran.
        let mut diagnostics = outcome.diagnostics;
        diagnostics.retain(|d| d.code != Code::CannotWriteOutput);
        diagnostics.push(output.write_failed(&reason));
        reporter.emit(diagnostics, &sources);
        return Err(Failure::Errors);
    }
    let Some(status) = outcome.value else {
        reporter.emit(outcome.diagnostics, &sources);
        reporter.summarize_failure(&format!("{} did not run", input.display_name()));
        return Err(Failure::Errors);
    };
    // The program ran: its exit status is polyasm's, at least 1 after an error (a runtime
    // error, or a warning that `-W error` made one).
    let failed = reporter.emit(outcome.diagnostics, &sources);
    if failed {
        reporter.summarize_failure(&format!("{} stopped with an error", input.display_name()));
    }
    let code = if failed { status.0.max(1) } else { status.0 };
    if code != 0 {
        return Err(Failure::Exit(code));
    }
    match sink {
        Sink::File(file) => file.commit().map_err(|e| {
            reporter.emit(vec![output.write_failed(&io::io_reason(&e))], &sources);
            Failure::Errors
        }),
        Sink::Stdout(_) | Sink::Nothing(_) => Ok(()),
    }
}

/// Reads a program in the target's binary format (`polyasm run prog.mxb`), reporting failures.
fn load_binary(
    target: &dyn Target,
    runner: &dyn Runner,
    input: &Input,
    reporter: &mut Reporter,
) -> Result<(SourceMap, Object)> {
    let mut sources = SourceMap::new();
    let bytes = input.read_bytes().map_err(|d| {
        reporter.emit(vec![d], &sources);
        Failure::Errors
    })?;
    let Some(outcome) = runner.load_program(&mut sources, &bytes, input.display_name()) else {
        reporter.usage(Diagnostic::error(
            Code::RunOptionNotForTarget,
            format!("target {} cannot load binary programs", target.info().name),
        ));
        return Err(Failure::Usage);
    };
    let object = conclude(
        reporter,
        outcome,
        &sources,
        &format!("{} not loaded; nothing run", input.display_name()),
    )?;
    Ok((sources, object))
}

/// Where `run` writes as it goes: standard output, or a temporary file that replaces
/// `-o FILE` only when the run succeeds.
enum Sink {
    Stdout(std::io::StdoutLock<'static>),
    File(polyasm_core::fs::AtomicWriter),
    /// A run that writes files of its own ([`RunFileWriter`]) prints nothing.
    Nothing(std::io::Sink),
}

/// The files a run writes of its own, named from the `-o` pattern: each written whole
/// (atomically), none of them an input of the run.
struct RunFileWriter {
    pattern: String,
    inputs: Vec<std::path::PathBuf>,
}

impl polyasm_core::stream::RunFiles for RunFileWriter {
    fn pattern(&self) -> &str {
        &self.pattern
    }

    fn check(&self, path: &str) -> std::result::Result<(), Diagnostic> {
        let target = std::path::Path::new(path);
        match self.inputs.iter().find(|i| polyasm_core::fs::same_file(target, i)) {
            Some(input) => Err(Diagnostic::error(
                Code::OutputIsInput,
                format!("the output `{path}` is the input `{}`", input.display()),
            )
            .with_note("writing it would destroy the input; nothing was written")
            .with_help("choose another output pattern with `-o`")),
            None => Ok(()),
        }
    }

    fn write(&mut self, path: &str, bytes: &[u8]) -> std::result::Result<(), Diagnostic> {
        // Checked again: an input may have been linked to the name while the run went on.
        self.check(path)?;
        let target = std::path::Path::new(path);
        let output = Output::Path(path.to_string());
        let written = polyasm_core::fs::write_atomic(target, bytes);
        written.map_err(|e| output.write_failed(&io::io_reason(&e)))
    }
}

/// The run's output, remembering the reason of the first write that failed (a reader that
/// closed the pipe aside, which ends a run quietly, and an interrupted write, which is retried).
struct WriteErrors<'w> {
    inner: &'w mut dyn Write,
    first: Option<String>,
}

impl WriteErrors<'_> {
    fn note<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &result
            && !matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::Interrupted
            )
            && self.first.is_none()
        {
            self.first = Some(io::io_reason(e));
        }
        result
    }
}

impl Write for WriteErrors<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(buf);
        self.note(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.note(result)
    }
}

/// The target options given for one command, over those the settings give the target, read as
/// `target` declares them: an option of another target, or a bad value, is a usage error.
fn target_options<K: OptionsOf>(
    target: &dyn Target,
    args: &TargetOptionArgs<K>,
    help_command: &str,
    config: Option<&Config>,
    reporter: &Reporter,
) -> Result<OptionValues> {
    let accepted = K::specs(target);
    for (name, _) in &args.given {
        if !accepted.iter().copied().flatten().any(|spec| spec.long == *name) {
            reporter.usage(
                Diagnostic::error(
                    Code::RunOptionNotForTarget,
                    format!("target {} does not take `--{name}`", target.info().name),
                )
                .with_help(format!("`{help_command}` lists the options; each target uses its own")),
            );
            return Err(Failure::Usage);
        }
    }
    let from_config = config.map(|c| c.options_for(target)).unwrap_or_default();
    let given = config::with_command_line(&from_config, &args.pairs());
    OptionValues::read(&accepted, &given).map_err(|usage| {
        reporter.usage(*usage.0);
        Failure::Usage
    })
}

fn check(args: &CheckArgs, settings: &Settings, reporter: &mut Reporter) -> Result {
    include_dirs(&args.includes, None, reporter)?;
    let mut sources = SourceMap::new();
    let mut failed_files = 0;
    // Each polyasm.toml is read once, and its errors reported once: `None` after errors.
    let mut configs: std::collections::HashMap<std::path::PathBuf, Option<Config>> = Default::default();
    for path in &args.inputs {
        let input = Input::from_arg(Some(path));
        let config = match settings.path_for(&input) {
            Some(file) => {
                let read = configs
                    .entry(file)
                    .or_insert_with_key(|file| read_settings(file, reporter));
                let Some(config) = read.as_ref() else {
                    failed_files += 1;
                    continue;
                };
                Some(config)
            }
            None => None,
        };
        settings.apply(config, reporter);
        let target = resolve_target(args.target.as_deref(), &input, config, reporter)?;
        let values = target_options(target, &args.target_options, "polyasm check --help", config, reporter)?;
        let include_dirs = include_dirs(&args.includes, config, reporter)?;
        let Ok(file) = read_source(&input, &mut sources, reporter) else {
            failed_files += 1;
            continue;
        };
        // Only diagnostics are wanted: no listing.
        let options = &TargetOptions {
            values,
            skip_listing: true,
            include_dirs,
            ..TargetOptions::default()
        };
        let (outcome, hidden) = within_limit(reporter.limit(), || {
            target.assemble(&mut sources, file, options, &mut std::io::stdout())
        });
        reporter.count_hidden(hidden);
        if reporter.emit(outcome.diagnostics, &sources) || outcome.value.is_none() || hidden.errors > 0 {
            failed_files += 1;
        }
    }
    if failed_files > 0 {
        reporter.summarize_failure(&format!("{failed_files} of {} files failed", args.inputs.len()));
        return Err(Failure::Errors);
    }
    Ok(())
}

fn targets(reporter: &mut Reporter) -> Result {
    let mut out = String::from("TARGET  ALIASES                EXTENSIONS  COMMANDS             FORMATS\n");
    for target in registry().targets() {
        let info = target.info();
        let commands = if target.runner().is_some() {
            "asm, disasm, run"
        } else {
            "asm, disasm"
        };
        let formats: Vec<&str> = target.formats().map(|f| f.name).collect();
        let extensions: Vec<String> = (info.extensions.iter())
            .chain(info.binary_extensions)
            .map(|e| format!(".{e}"))
            .collect();
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
    Output::Stdout.write(out.as_bytes(), reporter)
}

fn explain(code: Option<&str>, reporter: &mut Reporter) -> Result {
    let registry = registry();
    let text = match code {
        None => {
            let tables = std::iter::once(Code::table()).chain(registry.targets().iter().map(|t| t.codes()));
            tables
                .flatten()
                .map(|c| format!("{}  {}\n", c.code, c.title))
                .collect::<String>()
        }
        Some(code) => match registry.explain(code) {
            Some(info) => format!("{}: {}\n\n{}\n", info.code, info.title, wrap(info.explanation, 78)),
            None => {
                reporter.usage(
                    Diagnostic::error(Code::UnknownCode, format!("unknown diagnostic code `{code}`"))
                        .with_help("`polyasm explain` lists every code"),
                );
                return Err(Failure::Usage);
            }
        },
    };
    Output::Stdout.write(text.as_bytes(), reporter)
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
