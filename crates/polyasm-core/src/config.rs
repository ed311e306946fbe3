//! `polyasm.toml`: settings for the files of a folder and the folders below it, read alike by
//! the command line and the language server.
//!
//! [`find`] walks up from a folder to the first `polyasm.toml`; [`load`] reads it (at most
//! [`MAX_LEN`] bytes) into a [`Config`], checking every key against the registry of targets,
//! with diagnostics that point into the file; [`Config::target_for`],
//! [`Config::options_for`] and [`Config::warning_policy`] give what assembling a file then
//! takes, so that every reader of the file does with it what `polyasm check` does.
//!
//! ```toml
//! target = "vu"                 # the target of files whose extension names none
//! include = ["inc", "../lib"]   # include folders, relative to this file's folder
//! warnings = ["error", "no-VU005", "error=MX030"]   # as `-W` gives them
//! [extensions]                  # more extensions, which win over the built-in ones
//! asm = "vu"
//! [lima]                        # a target's options by their long name
//! syntax = "mesa"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};

use crate::diagnostic::{Diagnostic, WarningPolicy};
use crate::explain::Code;
use crate::options::{OptionKind, OptionSpec, OptionValues, UsageError};
use crate::source::{SourceId, SourceMap, Span};
use crate::target::{Registry, Target};

/// The name of the file.
pub const FILE_NAME: &str = "polyasm.toml";

/// The most bytes a `polyasm.toml` may hold (1 MiB): a file of settings is a few lines, and a
/// longer one is refused unread (or read no further than this, when it is not a regular file).
pub const MAX_LEN: u64 = 1 << 20;

/// The keys of the top level, besides the target tables.
const KEYS: [&str; 4] = ["target", "include", "warnings", "extensions"];

/// A `polyasm.toml`, read and checked.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file it was read from.
    pub path: PathBuf,
    /// The canonical name of the target of files whose extension names none (`target`).
    pub target: Option<String>,
    /// More extensions (`[extensions]`), in lower case without the dot, each with the canonical
    /// name of its target.
    pub extensions: BTreeMap<String, String>,
    /// The include folders (`include`), made absolute from the file's folder, in order.
    pub include_dirs: Vec<PathBuf>,
    /// The warning settings (`warnings`), as `-W` gives them.
    pub warnings: Vec<String>,
    /// Each target's options (a table named by the target), by the target's canonical name:
    /// long names and texts as [`OptionValues::read`] takes them, empty text for a flag.
    pub options: BTreeMap<String, Vec<(String, String)>>,
    /// `warnings`, read.
    policy: WarningPolicy,
}

/// The nearest `polyasm.toml` from the folder `start` up to the root: the first regular file
/// of that name (a folder or a device of that name is passed over). `start` is made absolute
/// (links and `..` resolved, when it exists) before the walk.
pub fn find(start: &Path) -> Option<PathBuf> {
    let start = if start.as_os_str().is_empty() {
        Path::new(".")
    } else {
        start
    };
    let start = std::fs::canonicalize(start)
        .or_else(|_| std::path::absolute(start))
        .ok()?;
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|file| file.is_file())
}

/// Reads the `polyasm.toml` at `path` and checks it against the targets of `registry`. The
/// text is added to `sources` (named by `path`, with `path` as its file), so that the
/// diagnostics point into it with lines and columns: every problem found, in the order of the
/// file. A file that cannot be read, or holds more than [`MAX_LEN`] bytes, is PA026; bytes that
/// are not UTF-8 are PA002; the rest is PA027.
pub fn load(path: &Path, registry: &Registry, sources: &mut SourceMap) -> Result<Config, Vec<Diagnostic>> {
    let name = path.display().to_string();
    let bytes = crate::fs::read_file_within(path, MAX_LEN).map_err(|e| {
        let d = match e {
            crate::fs::ReadError::TooLarge => {
                Diagnostic::error(Code::ConfigUnreadable, format!("{name} is larger than 1 MiB"))
                    .with_note("a polyasm.toml holds a few settings; a longer file is not read")
                    .with_help("check that the file is the settings file, or move it away")
            }
            crate::fs::ReadError::Io(e) => Diagnostic::error(
                Code::ConfigUnreadable,
                format!("cannot read {name}: {}", crate::fs::reason(&e)),
            ),
        };
        vec![d]
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| vec![crate::text::not_utf8_diagnostic(sources, &name, e)])?;
    crate::text::strip_bom(&mut text);
    let id = sources
        .try_add_file(name, path, text)
        .map_err(|_| vec![Diagnostic::error(Code::ConfigUnreadable, "polyasm.toml is too large")])?;
    parse(id, registry, sources)
}

/// Reads the `polyasm.toml` already in `sources` as source `id` (such as a file an editor
/// holds unsaved) as [`load`] does; the source's path, or else its name, is the file's path.
pub fn parse(id: SourceId, registry: &Registry, sources: &SourceMap) -> Result<Config, Vec<Diagnostic>> {
    let source = sources.get(id);
    let path = source
        .path()
        .map_or_else(|| PathBuf::from(source.name()), Path::to_path_buf);
    let text = source.text();
    let table = match DeTable::parse(text) {
        Ok(table) => table.into_inner(),
        Err(e) => {
            let range = e.span().unwrap_or(0..0);
            let end = range.end.min(text.len());
            let start = range.start.min(end);
            let message = e.message().lines().next().unwrap_or("invalid TOML").to_string();
            let d = Diagnostic::error(Code::InvalidConfig, format!("invalid TOML: {message}"))
                .with_primary(Span::new(id, start, end), "here");
            return Err(vec![d]);
        }
    };
    let folder = std::path::absolute(&path)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let mut reader = Reader {
        id,
        registry,
        sources,
        folder,
        config: Config {
            path,
            ..Config::default()
        },
        problems: Vec::new(),
        tables: BTreeMap::new(),
    };
    reader.top(&table);
    if reader.problems.is_empty() {
        Ok(reader.config)
    } else {
        let mut problems = reader.problems;
        problems.sort_by_key(|d| d.primary_label().map(|l| (l.span.start, l.span.end)));
        Err(problems)
    }
}

impl Config {
    /// The target of the file at `path`: the one `[extensions]` gives its extension, else the
    /// one whose built-in extension it has, else `target`. `None` when none of them does.
    pub fn target_for(&self, registry: &Registry, path: &Path) -> Option<&'static dyn Target> {
        self.target_by_extension(registry, path)
            .or_else(|| self.default_target(registry))
    }

    /// The target of the file at `path` from its extension alone: the one `[extensions]`
    /// gives it, else the one whose built-in extension it is (`polyasm serve` lists the files
    /// of a folder this way: `target` applies only to files named).
    pub fn target_by_extension(&self, registry: &Registry, path: &Path) -> Option<&'static dyn Target> {
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        if let Some(name) = extension.and_then(|e| self.extensions.get(&e)) {
            return registry.by_name(name);
        }
        path.to_str().and_then(|p| registry.by_path(p))
    }

    /// The target of `target`, for an input with no name or extension (standard input).
    pub fn default_target(&self, registry: &Registry) -> Option<&'static dyn Target> {
        registry.by_name(self.target.as_deref()?)
    }

    /// The options of assembling a file of `target` under these settings, as the long-running
    /// front ends (the language server, `polyasm serve`) use them: the file's values for the
    /// target's assemble options (checked when the file was read) and its include folders.
    pub fn assemble_options(&self, target: &dyn Target) -> crate::TargetOptions {
        let specs = [target.info().assemble_options];
        crate::TargetOptions {
            values: OptionValues::read(&specs, &self.options_for(target)).unwrap_or_default(),
            include_dirs: self.include_dirs.clone(),
            ..crate::TargetOptions::default()
        }
    }

    /// The options the file gives `target`, as [`OptionValues::read`] takes them: those of
    /// every command, since `read` passes over the names the command's options do not declare.
    pub fn options_for(&self, target: &dyn Target) -> Vec<(&str, &str)> {
        self.options
            .get(target.info().name)
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|(long, text)| (long.as_str(), text.as_str()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The warning policy of `warnings`, overridden by `command_line` (the `-W` options): a
    /// code the command line makes an error is no longer silenced, one it silences no longer
    /// an error.
    pub fn warning_policy(&self, command_line: &WarningPolicy) -> WarningPolicy {
        let mut policy = self.policy.clone();
        policy.errors.retain(|code| !command_line.silenced.contains(code));
        policy.silenced.retain(|code| !command_line.errors.contains(code));
        policy.all_errors |= command_line.all_errors;
        policy.errors.extend(command_line.errors.iter().cloned());
        policy.silenced.extend(command_line.silenced.iter().cloned());
        policy
    }
}

/// `config`'s options with those of the command line, which replace every value the file gives
/// an option they name.
pub fn with_command_line<'a>(
    config: &[(&'a str, &'a str)],
    command_line: &[(&'a str, &'a str)],
) -> Vec<(&'a str, &'a str)> {
    config
        .iter()
        .filter(|(long, _)| !command_line.iter().any(|(given, _)| given == long))
        .chain(command_line)
        .copied()
        .collect()
}

/// Checks a parsed file and fills a [`Config`].
struct Reader<'a> {
    id: SourceId,
    registry: &'a Registry,
    sources: &'a SourceMap,
    /// The file's folder, absolute.
    folder: PathBuf,
    config: Config,
    problems: Vec<Diagnostic>,
    /// The key that named each target's table, and its span.
    tables: BTreeMap<&'static str, (String, Span)>,
}

/// `table`'s entries in the order of the file.
fn in_order<'t, 'i>(table: &'t DeTable<'i>) -> Vec<(&'t str, std::ops::Range<usize>, &'t toml::Spanned<DeValue<'i>>)> {
    let mut entries: Vec<_> = table
        .iter()
        .map(|(key, value)| (key.get_ref().as_ref(), key.span(), value))
        .collect();
    entries.sort_by_key(|(_, span, _)| span.start);
    entries
}

/// A value's type, with its article, for messages.
fn type_name(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

impl Reader<'_> {
    fn span(&self, range: std::ops::Range<usize>) -> Span {
        Span::new(self.id, range.start, range.end)
    }

    fn problem(&mut self, d: Diagnostic) {
        self.problems.push(d);
    }

    /// PA027 at `range`.
    fn invalid(&self, range: std::ops::Range<usize>, message: String, label: &str) -> Diagnostic {
        Diagnostic::error(Code::InvalidConfig, message).with_primary(self.span(range), label)
    }

    /// PA027 for a value of the wrong type: `key` should be `expected`.
    fn wrong_type(&mut self, key: &str, expected: &str, value: &toml::Spanned<DeValue<'_>>) {
        let got = type_name(value.get_ref());
        let d = self.invalid(value.span(), format!("`{key}` should be {expected}, not {got}"), got);
        self.problem(d);
    }

    /// "did you mean" for a misspelled key at `range`: a fix when the key is written bare.
    fn did_you_mean(&self, d: Diagnostic, range: std::ops::Range<usize>, key: &str, name: &str) -> Diagnostic {
        let span = self.span(range);
        if self.sources.snippet(span) == key {
            d.with_did_you_mean(span, name)
        } else {
            d.with_help(format!("did you mean `{name}`?"))
        }
    }

    /// The target named `name` (a name or an alias), or PA027 at `range`.
    fn target_named(&mut self, name: &str, range: std::ops::Range<usize>) -> Option<&'static dyn Target> {
        if let Some(target) = self.registry.by_name(name) {
            return Some(target);
        }
        let all = self.target_names();
        let d = self.invalid(range.clone(), format!("unknown target `{name}`"), "no such target");
        // A target's own name rather than an alias, when both are close.
        let close = crate::text::suggest(name, self.registry.names()).or_else(|| crate::text::suggest(name, all));
        let d = match close {
            Some(close) => {
                let span = self.span(range);
                let d = d.with_help(format!("did you mean `{close}`?"));
                if self.sources.snippet(span) == format!("\"{name}\"") {
                    d.with_fix(span, &format!("\"{close}\""))
                } else {
                    d
                }
            }
            None => d.with_help(format!(
                "targets are: {} (see `polyasm targets`)",
                self.registry.names().join(", ")
            )),
        };
        self.problem(d);
        None
    }

    /// Every target's name and aliases.
    fn target_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        for target in self.registry.targets() {
            let info = target.info();
            names.push(info.name);
            names.extend(info.aliases.iter().copied());
        }
        names
    }

    fn top(&mut self, table: &DeTable<'_>) {
        for (key, key_range, value) in in_order(table) {
            match key {
                "target" => self.target(value),
                "include" => self.include(value),
                "warnings" => self.warnings(value),
                "extensions" => self.extensions(value),
                _ => match self.registry.by_name(key) {
                    Some(target) => self.target_table(target, key, key_range, value),
                    None => self.unknown_key(key, key_range),
                },
            }
        }
    }

    fn unknown_key(&mut self, key: &str, range: std::ops::Range<usize>) {
        let mut candidates: Vec<&str> = KEYS.to_vec();
        candidates.extend(self.target_names());
        let d = self.invalid(
            range.clone(),
            format!("unknown key `{key}` in polyasm.toml"),
            "unknown key",
        );
        let d = match crate::text::suggest(key, candidates.iter().copied()) {
            Some(close) => self.did_you_mean(d, range, key, close),
            None => d.with_help(format!(
                "the keys are {}, and a table named by a target ({})",
                KEYS.map(|k| format!("`{k}`")).join(", "),
                self.registry.names().join(", ")
            )),
        };
        self.problem(d);
    }

    fn target(&mut self, value: &toml::Spanned<DeValue<'_>>) {
        let Some(name) = value.get_ref().as_str() else {
            return self.wrong_type("target", "a target's name (a string)", value);
        };
        if let Some(target) = self.target_named(name, value.span()) {
            self.config.target = Some(target.info().name.to_string());
        }
    }

    /// Each string of an array, with its span; PA027 for what is not one.
    fn strings<'v>(
        &mut self,
        key: &str,
        value: &'v toml::Spanned<DeValue<'_>>,
    ) -> Vec<(&'v str, std::ops::Range<usize>)> {
        let Some(array) = value.get_ref().as_array() else {
            self.wrong_type(key, "an array of strings", value);
            return Vec::new();
        };
        let mut strings = Vec::new();
        for item in array.iter() {
            match item.get_ref().as_str() {
                Some(text) => strings.push((text, item.span())),
                None => self.wrong_type(key, "an array of strings", item),
            }
        }
        strings
    }

    fn include(&mut self, value: &toml::Spanned<DeValue<'_>>) {
        for (dir, range) in self.strings("include", value) {
            let path = self.folder.join(dir);
            let problem = match std::fs::metadata(&path) {
                _ if dir.is_empty() => "is empty".to_string(),
                Ok(meta) if meta.is_dir() => {
                    self.config.include_dirs.push(path);
                    continue;
                }
                Ok(_) => "is not a folder".to_string(),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist".to_string(),
                Err(e) => format!("cannot be read: {}", crate::fs::reason(&e)),
            };
            let d = self
                .invalid(range, format!("include folder `{dir}` {problem}"), "in `include`")
                .with_note(format!(
                    "include folders are relative to the folder of polyasm.toml, {}",
                    self.folder.display()
                ))
                .with_help("correct the path, or leave it out");
            self.problem(d);
        }
    }

    fn warnings(&mut self, value: &toml::Spanned<DeValue<'_>>) {
        for (text, range) in self.strings("warnings", value) {
            let mut one = WarningPolicy::default();
            let checked = one
                .add(text)
                .and_then(|()| one.check_codes(|code| self.registry.is_warning(code)));
            match checked {
                Ok(()) => {
                    self.config.policy.add(text).expect("checked above");
                    self.config.warnings.push(text.to_string());
                }
                Err(message) => {
                    let d = self
                        .invalid(range, message, "in `warnings`")
                        .with_help("write each as `-W` takes it: `error`, `error=CODE` or `no-CODE`");
                    self.problem(d);
                }
            }
        }
    }

    fn extensions(&mut self, value: &toml::Spanned<DeValue<'_>>) {
        let Some(table) = value.get_ref().as_table() else {
            return self.wrong_type(
                "extensions",
                "a table of extensions and targets (`asm = \"vu\"`)",
                value,
            );
        };
        for (extension, range, target) in in_order(table) {
            let problem = if extension.is_empty() {
                Some("an empty extension")
            } else if extension.starts_with('.') {
                Some("write the extension without its dot")
            } else if extension.contains(['.', '/', '\\']) {
                Some("an extension is the name's last part, after its last dot")
            } else {
                None
            };
            if let Some(problem) = problem {
                let d = self.invalid(
                    range,
                    format!("`{extension}` is not an extension: {problem}"),
                    "in `[extensions]`",
                );
                self.problem(d);
                continue;
            }
            let Some(name) = target.get_ref().as_str() else {
                self.wrong_type(extension, "a target's name (a string)", target);
                continue;
            };
            if let Some(found) = self.target_named(name, target.span()) {
                let canonical = found.info().name.to_string();
                self.config.extensions.insert(extension.to_ascii_lowercase(), canonical);
            }
        }
    }

    fn target_table(
        &mut self,
        target: &'static dyn Target,
        key: &str,
        key_range: std::ops::Range<usize>,
        value: &toml::Spanned<DeValue<'_>>,
    ) {
        let info = target.info();
        let Some(table) = value.get_ref().as_table() else {
            return self.wrong_type(key, &format!("a table of {}'s options", info.name), value);
        };
        let span = self.span(key_range.clone());
        if let Some((first, at)) = self.tables.get(info.name) {
            let d = self
                .invalid(
                    key_range,
                    format!("the options of {} are given twice", info.name),
                    "again here",
                )
                .with_secondary(*at, format!("first as `{first}`"))
                .with_help("give each target's options in one table");
            self.problem(d);
            return;
        }
        self.tables.insert(info.name, (key.to_string(), span));
        let lists: Vec<&'static [OptionSpec]> = vec![
            info.assemble_options,
            info.disassemble_options,
            target.runner().map_or(&[][..], |r| r.run_info().options),
        ];
        let mut names: Vec<&'static str> = Vec::new();
        for spec in lists.iter().copied().flatten() {
            if !names.contains(&spec.long) {
                names.push(spec.long);
            }
        }
        let mut pairs = Vec::new();
        for (long, range, value) in in_order(table) {
            let specs: Vec<&'static OptionSpec> = lists.iter().copied().flatten().filter(|s| s.long == long).collect();
            let Some(first) = specs.first() else {
                self.unknown_option(info.name, &names, long, range);
                continue;
            };
            for (text, text_range) in self.option_texts(first, long, value) {
                let mut valid = true;
                for spec in &specs {
                    if let Err(UsageError(d)) = OptionValues::read(&[std::slice::from_ref(*spec)], &[(long, &text)]) {
                        let mut d = *d;
                        d.code = Code::InvalidConfig.as_str();
                        let d = d
                            .with_primary(self.span(text_range.clone()), format!("`{long}` of {}", info.name))
                            .with_note(format!("`{long}` in polyasm.toml is the option `--{long}`"));
                        self.problem(d);
                        valid = false;
                        break;
                    }
                }
                if valid {
                    let text = self.relative_to_folder(first, text);
                    pairs.push((long.to_string(), text));
                }
            }
        }
        self.config.options.insert(info.name.to_string(), pairs);
    }

    /// The text of an option that names a file, with a relative name made relative to the
    /// file's folder (as `include` is); other texts as they are.
    fn relative_to_folder(&self, spec: &OptionSpec, text: String) -> String {
        let join = |name: &str| match Path::new(name).is_absolute() {
            true => None,
            false => self.folder.join(name).to_str().map(str::to_string),
        };
        match spec.kind {
            OptionKind::Path => join(&text).unwrap_or(text),
            OptionKind::SlotFile { .. } => match text.split_once('=') {
                Some((slot, name)) => join(name).map_or(text.clone(), |name| format!("{slot}={name}")),
                None => text,
            },
            _ => text,
        }
    }

    fn unknown_option(&mut self, target: &str, names: &[&str], long: &str, range: std::ops::Range<usize>) {
        let d = self.invalid(
            range.clone(),
            format!("target {target} has no option `{long}`"),
            "unknown option",
        );
        let d = match crate::text::suggest(long, names.iter().copied()) {
            Some(close) => self.did_you_mean(d, range, long, close),
            None if names.is_empty() => d.with_help(format!("{target} takes no options; remove the key")),
            None => d.with_help(format!(
                "the options of {target} are: {} (see `polyasm --help`, `polyasm run --help` and `polyasm disasm --help`)",
                names.join(", ")
            )),
        };
        self.problem(d);
    }

    /// The texts an option's value gives: none for a flag set to false, one for most options,
    /// any number for a repeatable one (an array); PA027 for a value of the wrong type.
    fn option_texts(
        &mut self,
        spec: &OptionSpec,
        long: &str,
        value: &toml::Spanned<DeValue<'_>>,
    ) -> Vec<(String, std::ops::Range<usize>)> {
        if matches!(spec.kind, OptionKind::Flag) {
            return match value.get_ref() {
                DeValue::Boolean(true) => vec![(String::new(), value.span())],
                DeValue::Boolean(false) => Vec::new(),
                _ => {
                    self.wrong_type(long, &format!("`true` or `false` (`--{long}` is a flag)"), value);
                    Vec::new()
                }
            };
        }
        let expected = if spec.repeatable() {
            format!("{} (a string, a number, or an array of them)", spec.value_name)
        } else {
            format!("{} (a string or a number)", spec.value_name)
        };
        let items: Vec<&toml::Spanned<DeValue<'_>>> = match value.get_ref() {
            DeValue::Array(array) if spec.repeatable() => array.iter().collect(),
            _ => vec![value],
        };
        let mut texts = Vec::new();
        for item in items {
            let text = match item.get_ref() {
                DeValue::String(text) => text.to_string(),
                DeValue::Integer(n) => i128::from_str_radix(n.as_str(), n.radix())
                    .map_or_else(|_| n.as_str().to_string(), |n| n.to_string()),
                DeValue::Float(x) => x.as_str().to_string(),
                _ => {
                    self.wrong_type(long, &expected, item);
                    continue;
                }
            };
            texts.push((text, item.span()));
        }
        texts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;

    /// A test target with options of every command.
    struct Demo;

    static DEMO_INFO: crate::TargetInfo = crate::TargetInfo {
        name: "demo",
        aliases: &["dm"],
        extensions: &["dem"],
        binary_extensions: &[],
        description: "a test target",
        word_bytes: 4,
        program_limit: None,
        assemble_options: &[
            OptionSpec::flag("strict", "a flag"),
            OptionSpec::new(
                "syntax",
                "SYNTAX",
                OptionKind::Words {
                    plural: "syntaxes",
                    words: &["old", "new"],
                },
                "a word",
            ),
        ],
        disassemble_options: &[OptionSpec::new(
            "syntax",
            "SYNTAX",
            OptionKind::Words {
                plural: "syntaxes",
                words: &["old", "new"],
            },
            "a word",
        )],
        formats: &[],
        preprocesses: false,
    };

    static SLOTS: crate::options::SlotKind = crate::options::SlotKind {
        what: "input",
        count: 4,
        parse: |s| s.parse().ok(),
        hint: "0 to 3",
    };

    static DEMO_RUN: crate::RunInfo = crate::RunInfo {
        options: &[
            OptionSpec::new(
                "steps",
                "N",
                OptionKind::Whole {
                    min: 1,
                    max: 100,
                    example: 10,
                },
                "a number",
            ),
            OptionSpec::new(
                "time",
                "T",
                OptionKind::Decimal {
                    positive: false,
                    example: "1.5",
                },
                "a decimal",
            ),
            OptionSpec::new(
                "input",
                "N=X,Y,Z,W",
                OptionKind::Slot {
                    slots: &SLOTS,
                    fill: [0.0; 4],
                },
                "slots",
            ),
            OptionSpec::new("data", "FILE", OptionKind::Path, "a file"),
            OptionSpec::new("texture", "N=FILE", OptionKind::SlotFile { slots: &SLOTS }, "files"),
        ],
        needs_listing: false,
        runtimes: &[],
    };

    impl crate::Runner for Demo {
        fn run_info(&self) -> &crate::RunInfo {
            &DEMO_RUN
        }

        fn plan(&self, _options: &crate::TargetOptions) -> Result<crate::RunOutput, UsageError> {
            Ok(crate::RunOutput::Text)
        }

        fn run(
            &self,
            _object: &crate::Object,
            _options: &crate::TargetOptions,
            _sources: &mut SourceMap,
            _io: &mut crate::RunIo<'_>,
        ) -> crate::RunOutcome {
            unreachable!("not run in these tests")
        }
    }

    /// A second target, without options.
    struct Plain;

    static PLAIN_INFO: crate::TargetInfo = crate::TargetInfo {
        name: "plain",
        aliases: &[],
        extensions: &["pl"],
        assemble_options: &[],
        disassemble_options: &[],
        ..DEMO_INFO
    };

    static DEMO_CODES: &[crate::CodeInfo] = &[crate::CodeInfo {
        code: "DM001",
        severity: Severity::Warning,
        title: "a warning",
        explanation: "",
    }];

    macro_rules! unassembled {
        () => {
            fn codes(&self) -> &'static [crate::CodeInfo] {
                DEMO_CODES
            }

            fn assemble(
                &self,
                _sources: &mut SourceMap,
                _file: SourceId,
                _options: &crate::TargetOptions,
                _out: &mut dyn std::io::Write,
            ) -> crate::Outcome<crate::Object> {
                unreachable!("not assembled in these tests")
            }

            fn disassemble(
                &self,
                _sources: &SourceMap,
                _input: &crate::DisasmInput,
                _options: &crate::TargetOptions,
            ) -> crate::Outcome<String> {
                unreachable!("not disassembled in these tests")
            }
        };
    }

    impl Target for Demo {
        fn info(&self) -> &crate::TargetInfo {
            &DEMO_INFO
        }

        fn runner(&self) -> Option<&dyn crate::Runner> {
            Some(self)
        }

        unassembled!();
    }

    impl Target for Plain {
        fn info(&self) -> &crate::TargetInfo {
            &PLAIN_INFO
        }

        unassembled!();
    }

    static DEMO: Demo = Demo;
    static PLAIN: Plain = Plain;

    fn registry() -> Registry {
        Registry::new(vec![&DEMO, &PLAIN])
    }

    /// Parses `text` as the polyasm.toml of `dir`.
    fn parse_in(dir: &Path, text: &str) -> (SourceMap, Result<Config, Vec<Diagnostic>>) {
        let mut sources = SourceMap::new();
        let id = sources.try_add_file("polyasm.toml", dir.join(FILE_NAME), text).unwrap();
        let result = parse(id, &registry(), &sources);
        (sources, result)
    }

    fn read(text: &str) -> Config {
        let dir = tempfile::tempdir().unwrap();
        match parse_in(dir.path(), text).1 {
            Ok(config) => config,
            Err(problems) => panic!("{text:?}: {problems:#?}"),
        }
    }

    /// The problems of `text`, each as `line:column: message` and its help.
    fn problems(text: &str) -> Vec<(String, Option<String>)> {
        let dir = tempfile::tempdir().unwrap();
        let (sources, result) = parse_in(dir.path(), text);
        let Err(problems) = result else {
            panic!("{text:?} is refused");
        };
        problems
            .iter()
            .map(|d| {
                assert_eq!(d.code, Code::InvalidConfig.as_str(), "{d:?}");
                let span = d.primary_label().expect("a place in the file").span;
                let at = sources.get(span.source).line_col(span.start as usize);
                (format!("{at}: {}", d.message), d.help.as_deref().map(str::to_string))
            })
            .collect()
    }

    #[test]
    fn every_key_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("inc")).unwrap();
        std::fs::create_dir(dir.path().join("lib")).unwrap();
        let text = r#"
            target = "dm"
            include = ["inc", "lib"]
            warnings = ["error", "no-DM001"]
            [extensions]
            ASM = "plain"
            [demo]
            strict = true
            syntax = "new"
            steps = 1_0
            time = 0.5
            input = ["0=1,2", "3=4"]
        "#;
        let (_, config) = parse_in(dir.path(), text);
        let config = config.unwrap();
        assert_eq!(config.target.as_deref(), Some("demo"));
        let absolute = std::path::absolute(dir.path()).unwrap();
        assert_eq!(config.include_dirs, [absolute.join("inc"), absolute.join("lib")]);
        assert_eq!(config.warnings, ["error", "no-DM001"]);
        assert_eq!(config.extensions.get("asm").map(String::as_str), Some("plain"));
        let registry = registry();
        let demo = registry.by_name("demo").unwrap();
        assert_eq!(
            config.options_for(demo),
            [
                ("strict", ""),
                ("syntax", "new"),
                ("steps", "10"),
                ("time", "0.5"),
                ("input", "0=1,2"),
                ("input", "3=4")
            ]
        );
        let values = OptionValues::read(&[DEMO_INFO.assemble_options], &config.options_for(demo)).unwrap();
        assert!(values.flag("strict"));
        assert_eq!(values.word("syntax"), Some("new"));
        assert!(config.options_for(registry.by_name("plain").unwrap()).is_empty());
    }

    #[test]
    fn an_empty_file_sets_nothing() {
        let config = read("# nothing\n");
        assert_eq!(config.target, None);
        assert!(config.include_dirs.is_empty() && config.warnings.is_empty());
        assert!(config.extensions.is_empty() && config.options.is_empty());
    }

    #[test]
    fn targets_come_from_extensions_then_built_in_ones_then_target() {
        let registry = registry();
        let name = |config: &Config, path: &str| config.target_for(&registry, Path::new(path)).map(|t| t.info().name);
        let config = read("target = \"plain\"\n[extensions]\ndem = \"plain\"\nAsm = \"demo\"\n");
        assert_eq!(name(&config, "x.dem"), Some("plain"));
        assert_eq!(name(&config, "x.ASM"), Some("demo"));
        assert_eq!(name(&config, "x.pl"), Some("plain"));
        assert_eq!(name(&config, "x.txt"), Some("plain"));
        assert_eq!(name(&config, "noextension"), Some("plain"));
        assert_eq!(config.default_target(&registry).map(|t| t.info().name), Some("plain"));
        let none = Config::default();
        assert_eq!(name(&none, "x.dem"), Some("demo"));
        assert_eq!(name(&none, "x.txt"), None);
        assert!(none.default_target(&registry).is_none());
    }

    #[test]
    fn a_table_may_be_named_by_an_alias_but_only_once() {
        let config = read("[dm]\nsyntax = \"old\"\n");
        assert_eq!(config.options["demo"], [("syntax".to_string(), "old".to_string())]);
        assert_eq!(
            problems("[demo]\nstrict = true\n[dm]\nstrict = true\n"),
            [(
                "3:2: the options of demo are given twice".to_string(),
                Some("give each target's options in one table".to_string())
            )]
        );
    }

    #[test]
    fn files_named_by_options_are_relative_to_the_folder_of_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let text = "[demo]\ndata = \"d.json\"\ntexture = [\"1=t.png\", \"2=/abs/u.png\"]\n";
        let config = parse_in(dir.path(), text).1.unwrap();
        let folder = std::path::absolute(dir.path()).unwrap();
        let in_folder = |name: &str| folder.join(name).to_str().unwrap().to_string();
        assert_eq!(
            config.options["demo"],
            [
                ("data".to_string(), in_folder("d.json")),
                ("texture".to_string(), format!("1={}", in_folder("t.png"))),
                ("texture".to_string(), "2=/abs/u.png".to_string()),
            ]
        );
    }

    #[test]
    fn a_flag_set_to_false_is_not_given() {
        let config = read("[demo]\nstrict = false\n");
        assert!(config.options["demo"].is_empty());
    }

    #[test]
    fn command_line_options_replace_the_files() {
        let config = [("syntax", "old"), ("input", "0=1"), ("input", "1=1"), ("strict", "")];
        assert_eq!(
            with_command_line(&config, &[("input", "2=2"), ("steps", "3")]),
            [("syntax", "old"), ("strict", ""), ("input", "2=2"), ("steps", "3")]
        );
        assert_eq!(with_command_line(&config, &[]), config);
    }

    #[test]
    fn command_line_warnings_override_the_files() {
        let config = read("warnings = [\"no-DM001\"]\n");
        let policy = config.warning_policy(&WarningPolicy::default());
        assert_eq!(policy.severity_of(Severity::Warning, "DM001"), None);
        let mut command_line = WarningPolicy::default();
        command_line.add("error=DM001").unwrap();
        let policy = config.warning_policy(&command_line);
        assert_eq!(policy.severity_of(Severity::Warning, "DM001"), Some(Severity::Error));
        let config = read("warnings = [\"error=dm001\"]\n");
        assert_eq!(
            config
                .warning_policy(&WarningPolicy::default())
                .severity_of(Severity::Warning, "DM001"),
            Some(Severity::Error)
        );
        let mut command_line = WarningPolicy::default();
        command_line.add("no-DM001").unwrap();
        let policy = config.warning_policy(&command_line);
        assert_eq!(policy.severity_of(Severity::Warning, "DM001"), None);
        assert!(policy.errors.is_empty());
    }

    #[test]
    fn unknown_keys_are_refused_with_a_suggestion() {
        assert_eq!(
            problems("targt = \"demo\"\n"),
            [(
                "1:1: unknown key `targt` in polyasm.toml".to_string(),
                Some("did you mean `target`?".to_string())
            )]
        );
        let dir = tempfile::tempdir().unwrap();
        let (_, result) = parse_in(dir.path(), "x = 1\n  includes = []\n");
        let problems = result.unwrap_err();
        assert_eq!(problems.len(), 2);
        assert!(
            problems[0]
                .help
                .as_deref()
                .unwrap()
                .starts_with("the keys are `target`")
        );
        let fix = problems[1].fix.as_deref().expect("a fix");
        assert_eq!((fix.span.start, fix.replacement.as_str()), (8, "include"));
        // A quoted key gets the suggestion without a fix that would drop its quotes.
        let (_, result) = parse_in(dir.path(), "\"demoo\" = {}\n");
        let d = &result.unwrap_err()[0];
        assert_eq!(d.help.as_deref(), Some("did you mean `demo`?"));
        assert!(d.fix.is_none());
    }

    #[test]
    fn values_of_the_wrong_type_are_refused_where_they_are() {
        assert_eq!(
            problems("target = 3\ninclude = \"inc\"\nwarnings = [\"error\", 1]\nextensions = []\ndemo = 1\n"),
            [
                (
                    "1:10: `target` should be a target's name (a string), not an integer".to_string(),
                    None
                ),
                (
                    "2:11: `include` should be an array of strings, not a string".to_string(),
                    None
                ),
                (
                    "3:22: `warnings` should be an array of strings, not an integer".to_string(),
                    None
                ),
                (
                    "4:14: `extensions` should be a table of extensions and targets (`asm = \"vu\"`), not an array"
                        .to_string(),
                    None
                ),
                (
                    "5:8: `demo` should be a table of demo's options, not an integer".to_string(),
                    None
                ),
            ]
        );
        let found = problems("[demo]\nstrict = \"yes\"\nsyntax = true\nsteps = [1]\ninput = [1, {}]\n");
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "2:10: `strict` should be `true` or `false` (`--strict` is a flag), not a string",
                "3:10: `syntax` should be SYNTAX (a string or a number), not a boolean",
                "4:9: `steps` should be N (a string or a number), not an array",
                "5:10: `--input 1`: `1` should be SLOT=X,Y,Z,W",
                "5:13: `input` should be N=X,Y,Z,W (a string, a number, or an array of them), not a table",
            ]
        );
    }

    #[test]
    fn unknown_targets_and_options_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (_, result) = parse_in(dir.path(), "target = \"demoo\"\n");
        let fix = result.unwrap_err()[0].fix.clone().expect("a fix");
        assert_eq!(
            (fix.span.start, fix.span.end, fix.replacement.as_str()),
            (9, 16, "\"demo\"")
        );
        assert_eq!(
            problems("target = \"demoo\"\n[extensions]\nx = \"nope\"\n"),
            [
                (
                    "1:10: unknown target `demoo`".to_string(),
                    Some("did you mean `demo`?".to_string())
                ),
                (
                    "3:5: unknown target `nope`".to_string(),
                    Some("targets are: demo, plain (see `polyasm targets`)".to_string())
                ),
            ]
        );
        assert_eq!(
            problems("[demo]\nsyntx = \"old\"\nbogus = 1\n[plain]\nstrict = true\n"),
            [
                (
                    "2:1: target demo has no option `syntx`".to_string(),
                    Some("did you mean `syntax`?".to_string())
                ),
                (
                    "3:1: target demo has no option `bogus`".to_string(),
                    Some(
                        "the options of demo are: strict, syntax, steps, time, input, data, texture (see `polyasm --help`, \
                         `polyasm run --help` and `polyasm disasm --help`)"
                            .to_string()
                    )
                ),
                (
                    "5:1: target plain has no option `strict`".to_string(),
                    Some("plain takes no options; remove the key".to_string())
                ),
            ]
        );
    }

    #[test]
    fn option_values_are_checked_as_on_the_command_line() {
        assert_eq!(
            problems("[demo]\nsyntax = \"newest\"\nsteps = 0\ninput = [\"0=1\", \"9=1\"]\n"),
            [
                (
                    "2:10: invalid value `newest` for `--syntax`".to_string(),
                    Some("the syntaxes are: old, new".to_string())
                ),
                (
                    "3:9: invalid value `0` for `--steps`".to_string(),
                    Some("give a whole number from 1 to 100, e.g. `--steps 10`".to_string())
                ),
                (
                    "4:17: `--input 9=1`: input slot 9 is out of range (0 to 3)".to_string(),
                    Some("input slots are 0 to 3".to_string())
                ),
            ]
        );
    }

    #[test]
    fn bad_extensions_warnings_and_include_folders_are_refused() {
        let found = problems(
            "include = [\"missing\", \"\"]\nwarnings = [\"bogus\", \"error=DM999\"]\n[extensions]\n\".asm\" = \"demo\"\n\"a/b\" = \"demo\"\n",
        );
        let messages: Vec<&str> = found.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "1:12: include folder `missing` does not exist",
                "1:23: include folder `` is empty",
                "2:13: unknown warning option `-W bogus` (expected `error`, `error=CODE` or `no-CODE`)",
                "2:22: `-W error=DM999`: unknown diagnostic code `DM999`",
                "4:1: `.asm` is not an extension: write the extension without its dot",
                "5:1: `a/b` is not an extension: an extension is the name's last part, after its last dot",
            ]
        );
    }

    #[test]
    fn invalid_toml_is_refused_at_its_line_and_column() {
        let found = problems("target = \"demo\"\n[demo\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].0.starts_with("2:6: invalid TOML: "), "{found:?}");
        let found = problems("a = 1\na = 2\n");
        assert!(found[0].0.starts_with("2:1: invalid TOML: duplicate key"), "{found:?}");
    }

    #[test]
    fn loading_refuses_long_unreadable_and_non_utf8_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let load_here = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            let mut sources = SourceMap::new();
            load(&path, &registry(), &mut sources).map(|_| ())
        };
        assert!(load_here(&vec![b'#'; MAX_LEN as usize]).is_ok());
        let long = load_here(&vec![b'#'; MAX_LEN as usize + 1]).unwrap_err();
        assert_eq!(long[0].code, Code::ConfigUnreadable.as_str());
        assert!(long[0].message.ends_with("is larger than 1 MiB"), "{}", long[0].message);
        let binary = load_here(b"target = \"demo\"\n\xff\xfe\x00").unwrap_err();
        assert_eq!(binary[0].code, Code::InputNotUtf8.as_str());
        assert!(binary[0].primary_label().is_some());
        let missing = load(&dir.path().join("none.toml"), &registry(), &mut SourceMap::new()).unwrap_err();
        assert_eq!(missing[0].code, Code::ConfigUnreadable.as_str());
        // A byte-order mark is skipped.
        assert!(load_here("\u{feff}target = \"demo\"\n".as_bytes()).is_ok());
    }

    #[test]
    fn find_walks_up_to_the_nearest_file() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        let canonical = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "").unwrap();
        assert_eq!(find(&deep), Some(canonical.join(FILE_NAME)));
        // A folder of that name is passed over; a nearer file wins.
        std::fs::create_dir(dir.path().join("a/b").join(FILE_NAME)).unwrap();
        assert_eq!(find(&deep), Some(canonical.join(FILE_NAME)));
        std::fs::write(dir.path().join("a").join(FILE_NAME), "").unwrap();
        assert_eq!(find(&deep), Some(canonical.join("a").join(FILE_NAME)));
        assert_eq!(find(&deep.join("..")), Some(canonical.join("a").join(FILE_NAME)));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(text in "[\\PC\\n\\[\\]=\"{},.]{0,200}") {
            let dir = tempfile::tempdir().unwrap();
            let _ = parse_in(dir.path(), &text);
        }
    }
}
