//! Command-line arguments. Target-specific options (of assembling and of `run`) come from the
//! targets themselves.

use std::ffi::{OsStr, OsString};

use clap::builder::{NonEmptyStringValueParser, PossibleValue, TypedValueParser};
use clap::{Arg, ArgAction, ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use polyasm_core::Diagnostic;
use polyasm_core::explain::Code;
use polyasm_core::target::{OptionSpec, Target};

use polyasm::registry;

const EXAMPLES: &str = "\
Examples:
  polyasm -t vu in.vu -o out.bin             Assemble a Dreambox VU program to a binary
  polyasm examples/vu/seed.vu -f listing     Target from the extension; listing on stdout
  polyasm examples/vu/seed.vu -o seed.h      Output format from the extension (a C array)
  polyasm disasm -t vu out.bin               Disassemble back to source
  polyasm run examples/vu/seed.vu -i 0=1,2,3,1   Emulate one vertex
  polyasm check examples/vu/*.vu             Report diagnostics only
  polyasm explain VU002                      Explain an error code
  polyasm targets                            List the targets";

/// The version, with the commit when built from a git checkout (see build.rs).
const VERSION: &str = env!("POLYASM_VERSION");

/// Assembler toolchain for small GPU and VM instruction sets.
#[derive(Parser, Debug)]
#[command(name = "polyasm", version = VERSION, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub assemble: AssembleArgs,

    #[command(flatten)]
    pub global: GlobalArgs,
}

#[derive(Args, Debug)]
pub struct GlobalArgs {
    /// How diagnostics are printed
    #[arg(long, value_enum, default_value_t = ErrorFormatArg::Human, global = true, overrides_with = "error_format")]
    pub error_format: ErrorFormatArg,

    /// When to colour diagnostics (auto: stderr is a terminal, NO_COLOR unset; FORCE_COLOR forces)
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, global = true, overrides_with = "color")]
    pub color: ColorArg,

    /// Warning control: `-W error` makes warnings errors, `-W error=CODE` one of them, `-W no-CODE` silences one
    #[arg(short = 'W', value_name = "WARNING", global = true)]
    pub warnings: Vec<String>,

    /// Stop printing diagnostics after N errors (0: no limit); a closing line counts the rest
    #[arg(
        long,
        value_name = "N",
        default_value_t = 100,
        global = true,
        allow_negative_numbers = true,
        overrides_with = "max_errors"
    )]
    pub max_errors: usize,

    /// Read the settings from FILE instead of the nearest polyasm.toml above the input
    #[arg(
        long,
        value_name = "FILE",
        global = true,
        value_parser = NonEmptyStringValueParser::new(),
        value_hint = clap::ValueHint::FilePath,
        conflicts_with = "no_config"
    )]
    pub config: Option<String>,

    /// Read no polyasm.toml: only the command line sets anything
    #[arg(long, global = true)]
    pub no_config: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorFormatArg {
    Human,
    Short,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

/// The target, the input and the output: common to the commands that read one file.
#[derive(Args, Debug)]
pub struct TargetIo {
    /// Target dialect (see `polyasm targets`); inferred from the input's extension if absent
    #[arg(short, long, value_name = "TARGET", value_parser = Suggested(target_names))]
    pub target: Option<String>,

    /// Input file, or `-` for standard input
    #[arg(id = "source", value_name = "INPUT", value_parser = NonEmptyStringValueParser::new())]
    pub input: Option<String>,

    /// Output file, or `-` for standard output [default: standard output]
    #[arg(short, long, value_name = "OUT", value_parser = NonEmptyStringValueParser::new())]
    pub output: Option<String>,
}

/// Where included files are looked for: common to the commands that assemble.
#[derive(Args, Debug)]
pub struct IncludeArgs {
    /// Look for included files in DIR too (repeatable; after the including and main files'
    /// folders, before the current folder)
    #[arg(short = 'I', long = "include-dir", value_name = "DIR", value_parser = NonEmptyStringValueParser::new())]
    pub include_dirs: Vec<String>,
}

/// The default action: assemble one file.
#[derive(Args, Debug)]
pub struct AssembleArgs {
    #[command(flatten)]
    pub io: TargetIo,

    #[command(flatten)]
    pub includes: IncludeArgs,

    /// Print the source after macro expansion instead of assembling it (targets with a
    /// macro preprocessor: masfix)
    #[arg(short = 'E', long = "expand")]
    pub expand: bool,

    /// Print a runtime the target ships instead of assembling: its interpreter's source, to
    /// run programs in your own engine (shader: wgsl, glsl); reads no input
    #[arg(long = "emit-runtime", value_name = "NAME", conflicts_with = "expand")]
    pub emit_runtime: Option<String>,

    /// Output format: bin, hex, c, rust, listing, json, or a target's own; default from the
    /// output's extension (.hex .c .h .rs .lst .json .vshinc .inc), else bin
    #[arg(short, long, value_name = "FORMAT", value_parser = Suggested(format_names), hide_possible_values = true)]
    pub format: Option<String>,

    /// Identifier of the array in the c and rust formats [default: the input's file stem]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Also write FILE: the files the output depends on (the input and every file it
    /// included) as a Makefile rule, as `cc -MD -MF FILE` does; needs `-o FILE`
    #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new(), conflicts_with = "emit_runtime")]
    pub depfile: Option<String>,

    /// Set by `polyasm nv2avsh`: the output is written as the nv2avsh command writes it.
    #[arg(skip)]
    pub nv2avsh: Option<Nv2avshMode>,

    #[command(flatten)]
    pub target_options: TargetOptionArgs<ForAssemble>,

    /// More inputs: refused with a hint, as the assembler takes one input at a time
    #[arg(id = "more_sources", value_name = "MORE", hide = true, num_args = 1..)]
    pub more_inputs: Vec<String>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Disassemble machine code (binary or hex text) to source
    Disasm(DisasmArgs),
    /// Assemble and run a program on the target's emulator
    Run(RunArgs),
    /// Assemble files and report diagnostics only; writes nothing
    Check(CheckArgs),
    /// List the targets
    Targets,
    /// Explain a diagnostic code, or list every code
    Explain {
        /// A code such as VU002
        code: Option<String>,
    },
    /// Print a shell completion script
    Completions { shell: clap_complete::Shell },
    /// Print the manual page (roff), e.g. `polyasm man > polyasm.1`
    Man,
    /// Serve a live page on this machine that shows every source under PATH running, updated
    /// on every save
    Serve(ServeArgs),
    /// Assemble an nv2a vertex shader as the nv2avsh command does: SOURCE to the C include
    /// TARGET, or to standard output (also what polyasm does when run under the name nv2avsh)
    Nv2avsh(Nv2avshArgs),
    /// Serve the Language Server Protocol on standard input and output, for editors
    Lsp {
        /// Accepted for clients that pass it: standard input and output are the only transport
        #[arg(long)]
        stdio: bool,
    },
}

/// `polyasm nv2avsh`: the command line of nv2avsh, the Python assembler polyasm can replace.
#[derive(Args, Debug)]
pub struct Nv2avshArgs {
    /// Append a NOP instruction with FINAL set instead of setting FINAL on the last instruction
    #[arg(short = 'e', long)]
    pub explicit_final: bool,

    /// Say on standard error what was assembled and where it went
    #[arg(short = 'v', long)]
    pub verbose: bool,

    /// Source file to assemble, or `-` for standard input
    #[arg(value_name = "SOURCE", value_parser = NonEmptyStringValueParser::new())]
    pub source: String,

    /// File to write the C include text to [default: standard output]
    #[arg(value_name = "TARGET", value_parser = NonEmptyStringValueParser::new())]
    pub target: Option<String>,
}

/// How `polyasm nv2avsh` shapes what the assembler writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nv2avshMode {
    /// `-v`: a line on standard error after the output is written.
    pub verbose: bool,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Files and folders to show: every source of a known target under a folder
    #[arg(value_name = "PATH", default_value = ".")]
    pub paths: Vec<std::path::PathBuf>,

    /// The port to listen on; 0 picks a free one
    #[arg(long, default_value_t = 0)]
    pub port: u16,

    /// The address to listen on [default: 127.0.0.1]; any other lets other machines read the
    /// sources listed
    #[arg(long, value_name = "ADDRESS")]
    pub host: Option<std::net::IpAddr>,

    /// Open the page in the default browser
    #[arg(long)]
    pub open: bool,

    /// Where shader-asm pictures are rendered: a hardware GPU when there is one (auto), the
    /// CPU, or the first Vulkan adapter, a software one too (gpu)
    #[arg(long, value_enum, default_value_t = ServeDevice::Auto)]
    pub device: ServeDevice,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServeDevice {
    Auto,
    Cpu,
    Gpu,
}

#[derive(Args, Debug)]
pub struct DisasmArgs {
    #[command(flatten)]
    pub io: TargetIo,

    /// How the input is encoded; auto reads text as hex words and anything else as binary
    #[arg(long, value_enum, default_value_t = InputFormatArg::Auto)]
    pub input_format: InputFormatArg,

    #[command(flatten)]
    pub target_options: TargetOptionArgs<ForDisasm>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormatArg {
    Auto,
    Bin,
    Hex,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub io: TargetIo,

    #[command(flatten)]
    pub includes: IncludeArgs,

    /// Read the input as the target's binary program format instead of source (implied by a
    /// binary extension such as .mxb)
    #[arg(long)]
    pub binary: bool,

    /// Run again whenever the input (or a file it includes) changes, reporting errors instead
    /// of exiting on them; stop with Ctrl-C
    #[arg(long)]
    pub watch: bool,

    #[command(flatten)]
    pub target_options: TargetOptionArgs<ForRun>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Target dialect; inferred from each input's extension if absent
    #[arg(short, long, value_name = "TARGET", value_parser = Suggested(target_names))]
    pub target: Option<String>,

    /// Source files
    #[arg(value_name = "INPUT", required = true, value_parser = NonEmptyStringValueParser::new())]
    pub inputs: Vec<String>,

    #[command(flatten)]
    pub includes: IncludeArgs,

    #[command(flatten)]
    pub target_options: TargetOptionArgs<ForAssemble>,
}

/// Accepts any non-empty text, but offers `values` to help and shell completions; the command
/// checks the value itself, so that an unknown one gets polyasm's own diagnostic.
#[derive(Clone)]
pub struct Suggested(fn() -> Vec<PossibleValue>);

impl TypedValueParser for Suggested {
    type Value = String;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&Arg>, value: &OsStr) -> Result<String, clap::Error> {
        NonEmptyStringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter()))
    }
}

/// Every target's name, with its aliases (accepted, not offered).
fn target_names() -> Vec<PossibleValue> {
    registry()
        .targets()
        .iter()
        .map(|t| {
            let info = t.info();
            PossibleValue::new(info.name).aliases(info.aliases.iter().copied())
        })
        .collect()
}

/// Every output format, standard or a target's own, each once.
fn format_names() -> Vec<PossibleValue> {
    let mut formats: Vec<PossibleValue> = Vec::new();
    for format in registry().targets().iter().flat_map(|t| t.formats()) {
        if !formats.iter().any(|f| f.get_name() == format.name) {
            formats.push(PossibleValue::new(format.name).help(format.description));
        }
    }
    formats
}

/// `args` with a command named after options moved in front of them, so that
/// `polyasm --error-format json check x.vu` and `polyasm -t vu disasm x.bin` mean what they
/// say: clap reads the assembler's options there and would take the command for an input.
/// Only a command that comes before every other word (an option's value aside) is moved.
pub fn command_first(mut args: Vec<OsString>) -> Vec<OsString> {
    let cli = Cli::command();
    let takes_value = |arg: &Arg| arg.get_action().takes_values();
    let mut index = 1;
    while let Some(arg) = args.get(index).and_then(|a| a.to_str()) {
        if arg == "-" || arg == "--" || !arg.starts_with('-') {
            break;
        }
        if arg == "--version" || arg == "-V" {
            // The commands have no version of their own: polyasm's is printed.
            return args;
        }
        let value_follows = match arg.strip_prefix("--") {
            Some(long) => {
                !long.contains('=')
                    && cli
                        .get_arguments()
                        .any(|a| a.get_long() == Some(long) && takes_value(a))
            }
            None => {
                let mut shorts = arg[1..].chars();
                let short = shorts.next();
                shorts.as_str().is_empty() && cli.get_arguments().any(|a| a.get_short() == short && takes_value(a))
            }
        };
        index += if value_follows { 2 } else { 1 };
    }
    let is_command = args
        .get(index)
        .and_then(|a| a.to_str())
        .is_some_and(|word| cli.find_subcommand(word).is_some());
    if index > 1 && is_command {
        let command = args.remove(index);
        args.insert(1, command);
    }
    args
}

/// PA015 for the first argument that is not UTF-8 text, which clap would refuse without
/// saying which: every name and value polyasm takes is text.
pub fn non_utf8_argument(args: &[OsString]) -> Option<Diagnostic> {
    let bad = args.iter().skip(1).find(|arg| arg.to_str().is_none())?;
    Some(
        Diagnostic::error(
            Code::InvalidArguments,
            format!("the argument `{}` is not UTF-8 text", escape_non_utf8(bad)),
        )
        .with_note("polyasm reads its arguments, file names included, as UTF-8 text")
        .with_help(
            "rename the file, or pass it through standard input or output: `polyasm -t TARGET - < FILE`, `-o - > FILE`",
        ),
    )
}

/// `arg` as text, each byte that is not part of UTF-8 written as `\xHH`.
fn escape_non_utf8(arg: &OsStr) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut text = String::new();
        for chunk in arg.as_bytes().utf8_chunks() {
            text.push_str(chunk.valid());
            for byte in chunk.invalid() {
                text.push_str(&format!("\\x{byte:02X}"));
            }
        }
        text
    }
    #[cfg(not(unix))]
    {
        arg.to_string_lossy().into_owned()
    }
}

/// How diagnostics are rendered before the command line is understood (for clap's own errors):
/// the last `--error-format` and `--color` among `args`, read as clap would, up to `--`.
pub fn rendering_from_raw_args(args: &[OsString]) -> (ErrorFormatArg, ColorArg) {
    let mut format = ErrorFormatArg::Human;
    let mut color = ColorArg::Auto;
    let mut args = args.iter().skip(1).filter_map(|a| a.to_str());
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (arg, None),
        };
        if name != "--error-format" && name != "--color" {
            continue;
        }
        let Some(value) = inline.or_else(|| args.next()) else {
            break;
        };
        if name == "--error-format" {
            format = ErrorFormatArg::from_str(value, false).unwrap_or(format);
        } else {
            color = ColorArg::from_str(value, false).unwrap_or(color);
        }
    }
    (format, color)
}

/// Which command a set of target options belongs to.
pub trait OptionsOf {
    /// The option lists `target` declares for this command.
    fn specs(target: &dyn Target) -> Vec<&'static [OptionSpec]>;
}

/// Assembling (the default action).
#[derive(Debug, Default)]
pub struct ForAssemble;

/// `polyasm run`, which assembles first, so it also takes the assemble options.
#[derive(Debug, Default)]
pub struct ForRun;

/// `polyasm disasm`.
#[derive(Debug, Default)]
pub struct ForDisasm;

impl OptionsOf for ForDisasm {
    fn specs(target: &dyn Target) -> Vec<&'static [OptionSpec]> {
        vec![target.info().disassemble_options]
    }
}

impl OptionsOf for ForAssemble {
    fn specs(target: &dyn Target) -> Vec<&'static [OptionSpec]> {
        vec![target.info().assemble_options]
    }
}

impl OptionsOf for ForRun {
    fn specs(target: &dyn Target) -> Vec<&'static [OptionSpec]> {
        let run = target.runner().map_or(&[][..], |r| r.run_info().options);
        vec![target.info().assemble_options, run]
    }
}

/// Every target's options for one command, merged by name, as text; which target gave each
/// and what the values are is read once the target is known
/// ([`polyasm_core::options::OptionValues::read`]).
#[derive(Debug, Default)]
pub struct TargetOptionArgs<K> {
    /// Each option given, by long name, with its text (empty for a flag).
    pub given: Vec<(&'static str, String)>,
    kind: std::marker::PhantomData<K>,
}

impl<K> TargetOptionArgs<K> {
    /// The options given, as [`polyasm_core::options::OptionValues::read`] takes them.
    pub fn pairs(&self) -> Vec<(&str, &str)> {
        self.given.iter().map(|(long, text)| (*long, text.as_str())).collect()
    }
}

/// The options of all targets for one command, each name once.
pub fn all_target_options<K: OptionsOf>() -> Vec<&'static OptionSpec> {
    let mut specs: Vec<&'static OptionSpec> = Vec::new();
    for target in registry().targets() {
        for spec in K::specs(*target).into_iter().flatten() {
            if !specs.iter().any(|s| s.long == spec.long) {
                specs.push(spec);
            }
        }
    }
    specs
}

impl<K: OptionsOf + Default> FromArgMatches for TargetOptionArgs<K> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut options = TargetOptionArgs::default();
        options.update_from_arg_matches(matches)?;
        Ok(options)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        let mut given = Vec::new();
        for spec in all_target_options::<K>() {
            if spec.takes_value() {
                if let Some(values) = matches.get_many::<String>(spec.long) {
                    given.extend(values.map(|v| (spec.long, v.clone())));
                }
            } else if matches.get_count(spec.long) > 0 {
                given.push((spec.long, String::new()));
            }
        }
        self.given = given;
        Ok(())
    }
}

impl<K: OptionsOf + Default> Args for TargetOptionArgs<K> {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for spec in all_target_options::<K>() {
            let mut arg = Arg::new(spec.long)
                .long(spec.long)
                .help(spec.help)
                .help_heading("Target options");
            if let Some(short) = spec.short {
                arg = arg.short(short);
            }
            arg = match spec.takes_value() {
                // A negative number is a value (`--max-steps -1`), for the target to refuse
                // with its own message rather than clap taking it for an option.
                true => arg
                    .value_name(spec.value_name)
                    .allow_negative_numbers(true)
                    .action(if spec.repeatable() {
                        ArgAction::Append
                    } else {
                        ArgAction::Set
                    }),
                false => arg.action(ArgAction::Count),
            };
            cmd = cmd.arg(arg);
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_argument_is_named_with_its_bytes_escaped() {
        use std::os::unix::ffi::OsStringExt;
        let args: Vec<std::ffi::OsString> = vec![
            "polyasm".into(),
            "-t".into(),
            std::ffi::OsString::from_vec(b"caf\xc3\xa9-\xff\xfe.mx".to_vec()),
        ];
        let diagnostic = super::non_utf8_argument(&args).expect("refused");
        assert_eq!(diagnostic.code, "PA015");
        assert_eq!(
            diagnostic.message,
            "the argument `café-\\xFF\\xFE.mx` is not UTF-8 text"
        );
        assert!(diagnostic.help.is_some());
        assert!(super::non_utf8_argument(&args[..2]).is_none());
    }

    #[test]
    fn rendering_is_read_before_parsing() {
        use super::{ColorArg, ErrorFormatArg, rendering_from_raw_args};
        let read = |args: &[&str]| {
            let args: Vec<std::ffi::OsString> = std::iter::once("polyasm")
                .chain(args.iter().copied())
                .map(Into::into)
                .collect();
            rendering_from_raw_args(&args)
        };
        assert_eq!(read(&["--bogus"]), (ErrorFormatArg::Human, ColorArg::Auto));
        assert_eq!(
            read(&["--error-format", "json", "--color=never"]),
            (ErrorFormatArg::Json, ColorArg::Never)
        );
        assert_eq!(
            read(&["--error-format=short", "--error-format"]),
            (ErrorFormatArg::Short, ColorArg::Auto)
        );
        assert_eq!(
            read(&["--", "--error-format=json"]),
            (ErrorFormatArg::Human, ColorArg::Auto)
        );
    }
}
