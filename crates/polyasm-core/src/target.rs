//! The seam between the CLI and the dialects: the [`Target`] trait and the registry.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::codes::CodeInfo;
use crate::diagnostic::{Diagnostic, Outcome, Severity};
use crate::explain::{self, Explain, find};
use crate::object::Object;
use crate::output::FormatInfo;
use crate::source::{SourceId, SourceMap};
pub use crate::stream::{ExitStatus, RunIo};

/// What a target is called and which files are its own.
#[derive(Clone, Copy, Debug)]
pub struct TargetInfo {
    /// The canonical `-t` name, e.g. `vu`.
    pub name: &'static str,
    /// Other accepted `-t` names.
    pub aliases: &'static [&'static str],
    /// File extensions (without the dot) that select this target when `-t` is absent.
    pub extensions: &'static [&'static str],
    /// Extensions of the target's own binary program format (e.g. `mxb`): they select this
    /// target too, and `polyasm run` loads such a file with [`Target::load_program`] instead of
    /// assembling it; `polyasm disasm` reads it as binary. Empty for most targets.
    pub binary_extensions: &'static [&'static str],
    /// One line for `polyasm targets`.
    pub description: &'static str,
    /// Size of one machine word in bytes (2 or 4).
    pub word_bytes: usize,
    /// How much program the machine holds, if it has a limit.
    pub program_limit: Option<ProgramLimit>,
}

impl TargetInfo {
    /// Whether `path` has one of [`TargetInfo::binary_extensions`] (case-insensitive).
    pub fn is_binary_path(&self, path: &str) -> bool {
        has_extension(path, self.binary_extensions)
    }
}

/// Whether `path`'s extension is one of `extensions`, ignoring case.
fn has_extension(path: &str, extensions: &[&str]) -> bool {
    std::path::Path::new(path)
        .extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// The machine code handed to the disassembler, with where it came from.
pub struct DisasmInput<'a> {
    pub bytes: &'a [u8],
    /// How to read `bytes`.
    pub encoding: InputEncoding,
    /// The input as a registered source when it is text (for spans in diagnostics).
    pub text_source: Option<SourceId>,
    pub name: &'a str,
}

/// How disassembler input is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputEncoding {
    /// Little-endian binary words.
    Binary,
    /// Hex words as text (see [`crate::words::parse_hex_words`]).
    Hex,
}

/// One command-line option that a target understands (of `polyasm` assembling, or of
/// `polyasm run`).
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The long name, without dashes.
    pub long: &'static str,
    pub short: Option<char>,
    /// The value's placeholder; `None` for a flag.
    pub value_name: Option<&'static str>,
    pub help: &'static str,
    /// Whether the option may be given more than once.
    pub repeatable: bool,
}

/// A source a target ships for running its programs elsewhere: an interpreter shader, say.
#[derive(Clone, Copy, Debug)]
pub struct Runtime {
    /// What `--emit-runtime` calls it: `wgsl`.
    pub name: &'static str,
    /// What it is, for help and messages.
    pub description: &'static str,
    pub text: &'static str,
}

/// The target options a user gave, by long name, in command-line order.
#[derive(Clone, Debug, Default)]
pub struct TargetOptions {
    pub values: BTreeMap<&'static str, Vec<String>>,
    pub flags: BTreeMap<&'static str, usize>,
    /// Assemble without listing entries: the CLI sets it when the output format prints no
    /// listing ([`FormatInfo::listing`]), so that a big program does not pay for one. The
    /// words and the diagnostics are the same either way.
    pub skip_listing: bool,
    /// Stop after the dialect's macro preprocessor and return the expanded source in
    /// [`Object::preprocessed`] (`polyasm -E`); only for targets that
    /// [`Target::preprocesses`].
    pub preprocess_only: bool,
    /// The `-I DIR` folders, in command-line order: where [`crate::include::IncludeLoader`]
    /// looks for included files after the including file's and the main file's folders.
    pub include_dirs: Vec<PathBuf>,
}

impl TargetOptions {
    pub fn values(&self, long: &str) -> &[String] {
        self.values.get(long).map_or(&[], Vec::as_slice)
    }

    pub fn value(&self, long: &str) -> Option<&str> {
        self.values(long).last().map(String::as_str)
    }

    pub fn flag(&self, long: &str) -> bool {
        self.flags.get(long).is_some_and(|&n| n > 0)
    }
}

/// How much program the machine holds, for the disassembler's warning on longer input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramLimit {
    /// How many units: 64 (words), 136 (instructions).
    pub units: usize,
    /// The machine's unit of program: `word`, `instruction`.
    pub unit: &'static str,
    /// Words in one unit.
    pub words_per_unit: usize,
}

impl ProgramLimit {
    /// The most words a program may have.
    pub fn words(&self) -> usize {
        self.units * self.words_per_unit
    }

    /// The limit in the machine's own unit, with the words if they differ: `64 words`,
    /// `136 instructions (544 words)`.
    pub fn describe(&self) -> String {
        let units = crate::text::count(self.units, self.unit);
        match self.words_per_unit {
            1 => units,
            _ => format!("{units} ({} words)", self.words()),
        }
    }
}

/// An option value a target cannot use: a usage error (exit 2), reported as it is, with no
/// summary line.
#[derive(Debug)]
pub struct UsageError(pub Box<Diagnostic>);

/// What [`Target::run`] returns: `Err` for a usage error. Otherwise an [`Outcome`]: with a
/// value, the program ran and ended with that [`ExitStatus`] (its diagnostics, such as a
/// runtime error, are reported and the exit status is at least 1 if one is an error); without
/// one, the program or its data could not run (exit 1).
pub type RunOutcome = Result<Outcome<ExitStatus>, UsageError>;

impl dyn Target {
    /// Every output format of this target: the standard ones, then its own.
    pub fn formats(&self) -> impl Iterator<Item = &'static FormatInfo> {
        crate::output::STANDARD_FORMATS.iter().chain(self.extra_formats())
    }
}

/// A dialect: how to assemble, disassemble and (optionally) run its programs.
pub trait Target: Send + Sync {
    fn info(&self) -> &TargetInfo;

    /// Every diagnostic code this target reports.
    fn codes(&self) -> &'static [CodeInfo];

    /// The options assembling accepts for this target (e.g. nv2a's `--explicit-final`).
    fn assemble_options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// Assembles source `file` of `sources`, with the [`Target::assemble_options`] given. A
    /// dialect with includes adds the files it includes to `sources` through an
    /// [`crate::include::IncludeLoader`], so that diagnostics can point into them.
    fn assemble(&self, sources: &mut SourceMap, file: SourceId, options: &TargetOptions) -> Outcome<Object>;

    /// [`Target::assemble`], with somewhere to write what the program prints while it is being
    /// assembled (code run at compile time). The CLI passes standard output, or standard error
    /// when the assembled output itself goes to standard output; the target flushes what it
    /// writes. The default ignores `out`: override it only for a dialect with compile-time
    /// output.
    fn assemble_with_output(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        _out: &mut dyn std::io::Write,
    ) -> Outcome<Object> {
        self.assemble(sources, file, options)
    }

    /// Checks the values of [`Target::assemble_options`] before anything is read, so that a
    /// bad value is a usage error (exit 2); [`Target::assemble`] may assume they are good.
    fn check_assemble_options(&self, _options: &TargetOptions) -> Result<(), UsageError> {
        Ok(())
    }

    /// Whether the dialect has a macro preprocessor whose output `polyasm -E` can print.
    fn preprocesses(&self) -> bool {
        false
    }

    /// Output formats beyond [`crate::output::STANDARD_FORMATS`].
    fn extra_formats(&self) -> &'static [FormatInfo] {
        &[]
    }

    /// Writes `object` in one of [`Target::extra_formats`].
    fn write_format(&self, _format: &str, _object: &Object, _sources: &SourceMap) -> Option<Vec<u8>> {
        None
    }

    /// Turns machine code back into canonical source.
    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput) -> Outcome<String>;

    /// The options `polyasm disasm` accepts for this target (e.g. lima's `--syntax`).
    fn disassemble_options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// Checks the values of [`Target::disassemble_options`] before anything is read, so that a
    /// bad value is a usage error (exit 2).
    fn check_disassemble_options(&self, _options: &TargetOptions) -> Result<(), UsageError> {
        Ok(())
    }

    /// [`Target::disassemble`] with the [`Target::disassemble_options`] given; the default
    /// ignores them.
    fn disassemble_with_options(
        &self,
        sources: &SourceMap,
        input: &DisasmInput,
        _options: &TargetOptions,
    ) -> Outcome<String> {
        self.disassemble(sources, input)
    }

    /// The options `polyasm run` accepts for this target; empty if it cannot run programs.
    fn run_options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// Runs an assembled program with the program's standard streams in `io`: it reads
    /// `io.stdin`, writes what it prints to `io.stdout` as it goes and flushes it (before it
    /// waits for input, and at the end; a caller that writes a file atomically keeps it only
    /// when the run succeeds), and may write to `io.stderr`. `sources` may gain sources (e.g. a
    /// JSON data file) so that diagnostics can point into them. `None` if this target cannot
    /// run programs.
    fn run(
        &self,
        _object: &Object,
        _options: &TargetOptions,
        _sources: &mut SourceMap,
        _io: &mut RunIo<'_>,
    ) -> Option<RunOutcome> {
        None
    }

    /// Reads a program in the target's own binary format ([`TargetInfo::binary_extensions`])
    /// into an [`Object`] that [`Target::run`] can run, instead of assembling source. `name`
    /// is the input's name for diagnostics; `sources` may gain sources for them. `None` if
    /// this target has no binary program format.
    fn load_program(&self, _sources: &mut SourceMap, _bytes: &[u8], _name: &str) -> Option<Outcome<Object>> {
        None
    }

    /// Checks the option values of `polyasm run` before the program is assembled, so that a
    /// usage error is reported first; [`Target::run`] reports the same errors.
    fn check_run_options(&self, _options: &TargetOptions) -> Result<(), UsageError> {
        Ok(())
    }

    /// Whether what [`Target::run`] writes with these options is binary (a picture), which is
    /// not written to a terminal.
    fn run_output_is_binary(&self, _options: &TargetOptions) -> bool {
        false
    }

    /// Whether a run with these options writes files of its own, named from the `-o` pattern
    /// through [`crate::stream::RunIo::files`], instead of one output stream.
    fn run_writes_files(&self, _options: &TargetOptions) -> bool {
        false
    }

    /// The files that the option values of `polyasm run` name, which its output must not
    /// replace (PA014). By default every value is taken as a path (`--data FILE`).
    fn run_option_files(&self, options: &TargetOptions) -> Vec<String> {
        options.values.values().flatten().cloned().collect()
    }

    /// Whether [`Target::run`] reads the object's listing, to point its errors at the source
    /// of the instruction that failed; `polyasm run` assembles without a listing otherwise.
    fn run_needs_listing(&self) -> bool {
        false
    }

    /// Sources this target ships for running its programs elsewhere (`--emit-runtime NAME`).
    fn runtimes(&self) -> &'static [Runtime] {
        &[]
    }

    /// Whether [`Target::run`] is implemented.
    fn can_run(&self) -> bool {
        !self.run_options().is_empty()
    }
}

/// Every target the CLI knows, looked up by name, alias or file extension.
pub struct Registry {
    targets: Vec<&'static dyn Target>,
}

impl Registry {
    pub fn new(targets: Vec<&'static dyn Target>) -> Registry {
        Registry { targets }
    }

    pub fn targets(&self) -> &[&'static dyn Target] {
        &self.targets
    }

    /// Finds a target by its name or an alias (case-insensitive).
    pub fn by_name(&self, name: &str) -> Option<&'static dyn Target> {
        self.targets.iter().copied().find(|t| {
            let info = t.info();
            info.name.eq_ignore_ascii_case(name) || info.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// Finds the target whose extension `path` has: a source extension, or one of a
    /// target's binary program extensions.
    pub fn by_path(&self, path: &str) -> Option<&'static dyn Target> {
        let found = |extensions: fn(&TargetInfo) -> &'static [&'static str]| {
            self.targets
                .iter()
                .copied()
                .find(|t| has_extension(path, extensions(t.info())))
        };
        found(|info| info.extensions).or_else(|| found(|info| info.binary_extensions))
    }

    /// Whether `code` is a warning: `None` if no target (nor the command line) has the code.
    pub fn is_warning(&self, code: &str) -> Option<bool> {
        Some(self.explain(code)?.severity == Severity::Warning)
    }

    /// Every target's name, for "unknown target" messages.
    pub fn names(&self) -> Vec<&'static str> {
        self.targets.iter().map(|t| t.info().name).collect()
    }
}

impl Explain for Registry {
    fn explain(&self, code: &str) -> Option<&'static CodeInfo> {
        find(explain::Code::table(), code).or_else(|| self.targets.iter().find_map(|t| find(t.codes(), code)))
    }
}
