//! The seam between the CLI and the dialects: the [`Target`] trait and the registry.

use crate::codes::CodeInfo;
use crate::diagnostic::{Outcome, Severity};
use crate::explain::{self, Explain, find};
use crate::object::Object;
pub use crate::options::{OptionSpec, TargetOptions, UsageError};
use crate::output::FormatInfo;
use crate::source::{SourceId, SourceMap};
pub use crate::stream::{ExitStatus, RunIo};

/// What a target is called, which files are its own, and what it declares: its options and its
/// own output formats.
#[derive(Clone, Copy, Debug)]
pub struct TargetInfo {
    /// The canonical `-t` name, e.g. `vu`.
    pub name: &'static str,
    /// Other accepted `-t` names.
    pub aliases: &'static [&'static str],
    /// File extensions (without the dot) that select this target when `-t` is absent.
    pub extensions: &'static [&'static str],
    /// Extensions of the target's own binary program format (e.g. `mxb`): they select this
    /// target too, and `polyasm run` loads such a file with [`Runner::load_program`] instead of
    /// assembling it; `polyasm disasm` reads it as binary. Empty for most targets.
    pub binary_extensions: &'static [&'static str],
    /// One line for `polyasm targets`.
    pub description: &'static str,
    /// Size of one machine word in bytes (2 or 4).
    pub word_bytes: usize,
    /// How much program the machine holds, if it has a limit.
    pub program_limit: Option<ProgramLimit>,
    /// The options assembling accepts (e.g. nv2a's `--explicit-final`); `polyasm check` and
    /// `polyasm run` take them too.
    pub assemble_options: &'static [OptionSpec],
    /// The options `polyasm disasm` accepts (e.g. Lima's `--syntax`).
    pub disassemble_options: &'static [OptionSpec],
    /// Output formats beyond [`crate::output::STANDARD_FORMATS`], written by
    /// [`Target::write_format`].
    pub formats: &'static [FormatInfo],
    /// Whether the dialect has a macro preprocessor whose output `polyasm -E` prints
    /// ([`TargetOptions::preprocess_only`]).
    pub preprocesses: bool,
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
    /// The bytes of the input, as read.
    pub bytes: &'a [u8],
    /// How to read `bytes`.
    pub encoding: InputEncoding,
    /// The input as a registered source when it is text (for spans in diagnostics).
    pub text_source: Option<SourceId>,
    /// The input's name for diagnostics: a path as given, or `<stdin>`.
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

/// A source a target ships for running its programs elsewhere: an interpreter shader, say.
#[derive(Clone, Copy, Debug)]
pub struct Runtime {
    /// What `--emit-runtime` calls it: `wgsl`.
    pub name: &'static str,
    /// What it is, for help and messages.
    pub description: &'static str,
    /// The source itself.
    pub text: &'static str,
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

/// What [`Runner::run`] returns: `Err` for a usage error. Otherwise an [`Outcome`]: with a
/// value, the program ran and ended with that [`ExitStatus`] (its diagnostics, such as a
/// runtime error, are reported and the exit status is at least 1 if one is an error); without
/// one, the program or its data could not run (exit 1).
pub type RunOutcome = Result<Outcome<ExitStatus>, UsageError>;

impl dyn Target {
    /// Every output format of this target: the standard ones, then its own.
    pub fn formats(&self) -> impl Iterator<Item = &'static FormatInfo> {
        crate::output::STANDARD_FORMATS.iter().chain(self.info().formats)
    }

    /// Each word of `text` with its kind, as this target's lexicon reads it: what an editor
    /// colours ([`crate::editor::tokens`]).
    pub fn words<'t>(&self, text: &'t str) -> Vec<(&'t str, crate::editor::TokenKind)> {
        let mnemonics = crate::editor::Mnemonics::new(&self.instructions(), self.lexicon());
        crate::editor::tokens(self.lexicon(), &mnemonics, text)
            .into_iter()
            .map(|t| (&text[t.range], t.kind))
            .collect()
    }

    /// The messages of the errors of assembling `text` as a file named `name`, with the
    /// default options and what the program prints going nowhere.
    pub fn error_messages(&self, name: &str, text: &str) -> Vec<String> {
        let mut sources = SourceMap::new();
        let file = sources.add(name, text);
        let outcome = self.assemble(&mut sources, file, &TargetOptions::default(), &mut std::io::sink());
        let errors = outcome.diagnostics.iter().filter(|d| d.is_error());
        errors.map(|d| d.message.clone()).collect()
    }
}

/// A dialect: how to assemble and disassemble its programs, and, if it can, run them.
pub trait Target: Send + Sync {
    /// The target's names, extensions, description, formats and options.
    fn info(&self) -> &TargetInfo;

    /// Every diagnostic code this target reports.
    fn codes(&self) -> &'static [CodeInfo];

    /// Assembles source `file` of `sources`, with [`TargetInfo::assemble_options`] read into
    /// `options`. A dialect with includes adds the files it includes to `sources` through an
    /// [`crate::include::IncludeLoader`], so that diagnostics can point into them. What the
    /// program prints while it is being assembled (code run at compile time) goes to `out`,
    /// which the target flushes: the CLI passes standard output, or standard error when the
    /// assembled output itself goes to standard output.
    fn assemble(
        &self,
        sources: &mut SourceMap,
        file: SourceId,
        options: &TargetOptions,
        out: &mut dyn std::io::Write,
    ) -> Outcome<Object>;

    /// Writes `object` in one of [`TargetInfo::formats`], or says why it cannot (a tool the
    /// format needs is missing).
    fn write_format(
        &self,
        _format: &str,
        _object: &Object,
        _sources: &SourceMap,
    ) -> Option<Result<Vec<u8>, crate::Diagnostic>> {
        None
    }

    /// Turns machine code back into canonical source, with [`TargetInfo::disassemble_options`]
    /// read into `options`.
    fn disassemble(&self, sources: &SourceMap, input: &DisasmInput, options: &TargetOptions) -> Outcome<String>;

    /// How to run the target's programs; `None` if it cannot.
    fn runner(&self) -> Option<&dyn Runner> {
        None
    }

    /// Its instruction table's rows, for editors: hover text and completions
    /// ([`crate::table::Entry`]).
    fn instructions(&self) -> Vec<crate::table::Entry> {
        Vec::new()
    }

    /// How its text is written, for editors: comments, registers, includes
    /// ([`crate::editor::Lexicon`]).
    fn lexicon(&self) -> &'static crate::editor::Lexicon {
        &crate::editor::Lexicon::NONE
    }
}

/// What a target that runs programs declares about running them.
#[derive(Clone, Copy, Debug)]
pub struct RunInfo {
    /// The options `polyasm run` accepts beyond [`TargetInfo::assemble_options`].
    pub options: &'static [OptionSpec],
    /// Whether [`Runner::run`] reads the object's listing, to point its errors at the source
    /// of the instruction that failed; `polyasm run` assembles without a listing otherwise.
    pub needs_listing: bool,
    /// Sources the target ships for running its programs elsewhere (`--emit-runtime NAME`).
    pub runtimes: &'static [Runtime],
}

/// What a run writes, which the CLI settles before it assembles anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOutput {
    /// Text on the run's output.
    Text,
    /// Binary data (a picture) on the run's output, which is not written to a terminal.
    Binary,
    /// Files of its own, named from the `-o` pattern through [`crate::stream::RunIo::files`].
    Files,
}

/// How a target runs its programs: [`Target::runner`].
pub trait Runner: Send + Sync {
    /// The run options, whether a run reads the listing, and the runtimes the target ships.
    fn run_info(&self) -> &RunInfo;

    /// Checks the run option values together (each value alone was read as declared) and says
    /// what the run writes: the CLI asks before the program is assembled, so that a usage error
    /// is reported first; [`Runner::run`] reports the same errors.
    fn plan(&self, options: &TargetOptions) -> Result<RunOutput, UsageError>;

    /// Runs an assembled program with the program's standard streams in `io`: it reads
    /// `io.stdin`, writes what it prints to `io.stdout` as it goes and flushes it (before it
    /// waits for input, and at the end; a caller that writes a file atomically keeps it only
    /// when the run succeeds), and may write to `io.stderr`. `sources` may gain sources (e.g. a
    /// JSON data file) so that diagnostics can point into them.
    fn run(&self, object: &Object, options: &TargetOptions, sources: &mut SourceMap, io: &mut RunIo<'_>) -> RunOutcome;

    /// Reads a program in the target's own binary format ([`TargetInfo::binary_extensions`])
    /// into an [`Object`] that [`Runner::run`] can run, instead of assembling source. `name`
    /// is the input's name for diagnostics; `sources` may gain sources for them. `None` if
    /// the target has no binary program format.
    fn load_program(&self, _sources: &mut SourceMap, _bytes: &[u8], _name: &str) -> Option<Outcome<Object>> {
        None
    }
}

/// Every target the CLI knows, looked up by name, alias or file extension.
pub struct Registry {
    targets: Vec<&'static dyn Target>,
}

impl Registry {
    /// A registry of `targets`, in the order `polyasm targets` lists them.
    pub fn new(targets: Vec<&'static dyn Target>) -> Registry {
        Registry { targets }
    }

    /// Every target, in registration order.
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
